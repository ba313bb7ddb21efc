//! Native checks of the `schema` family; each rule's catalog entry is `rules/schema/<rule-name>.yaml`.

pub mod deep_schema_nesting;
pub mod destructive_neutral_value;
pub mod enum_descriptions_lost;
pub(crate) mod helpers;
pub mod invalid_json_schema;
pub mod limit_mismatch;
pub mod non_object_root;
pub mod runtime_limit_not_stated;
pub mod schema_enforced_minimum;
pub mod stated_bound_mismatch;
pub mod tuning_parameter;
pub mod unconstrained_property;
pub mod undescribed_parameter;
pub mod unknown_required_property;
pub mod unresolved_ref;
