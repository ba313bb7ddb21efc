//! Native checks of the `security` family; each rule's catalog entry is
//! `rules/security/<rule-name>.yaml`.

pub mod hidden_instructions;
pub mod invisible_characters;
pub mod redacted_parameter_name;
pub mod secret_like_field_names;
