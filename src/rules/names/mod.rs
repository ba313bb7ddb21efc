//! Native checks of the `names` family; each rule's catalog entry is `rules/names/<rule-name>.yaml`.

pub mod cryptic_tool_name;
pub mod duplicate_tool_name;
pub mod inconsistent_name_style;
pub mod invalid_tool_name;
pub mod mixed_service_prefix;
