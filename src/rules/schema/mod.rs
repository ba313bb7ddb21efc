mod helpers;
mod invalid_json_schema;
mod limit_mismatch;
mod non_object_root;
mod runtime_limit_not_stated;
mod schema_enforced_minimum;

pub use invalid_json_schema::InvalidJsonSchema;
pub use limit_mismatch::LimitMismatch;
pub use non_object_root::NonObjectRoot;
pub use runtime_limit_not_stated::RuntimeLimitNotStated;
pub use schema_enforced_minimum::SchemaEnforcedMinimum;
