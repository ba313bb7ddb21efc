//! Native checks of the `targets` family; each rule's catalog entry is
//! `rules/targets/<rule-name>.yaml`. They check the definitions against the selected target
//! profiles (`targets/<name>.yaml`, src/targets/) and find nothing when no target is selected.

pub mod all_tools_deferred;
pub mod defer_loading_ignored;
pub mod helpers;
pub mod many_loaded_beside_search;
pub mod name_rejected_by_target;
pub mod name_rewritten_by_host;
pub mod names_collide_on_target;
pub mod non_strict_schema;
pub mod schema_over_target_limit;
pub mod schema_rejected_by_target;
pub mod text_truncated_by_host;
pub mod too_many_tools_for_target;
pub mod tool_not_listed_by_host;
