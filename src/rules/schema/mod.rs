//! Native checks of the `schema` family; each rule's catalog entry is `rules/schema/<rule-name>.yaml`.

pub(crate) mod helpers;
pub mod invalid_json_schema;
pub mod limit_mismatch;
pub mod non_object_root;
pub mod runtime_limit_not_stated;
pub mod schema_enforced_minimum;
