//! Native checks of the `budget` family; each rule's catalog entry is `rules/budget/<rule-name>.yaml`.

pub mod guidelines_too_long;
pub(crate) mod helpers;
pub mod results_too_long;
pub mod too_many_tools;
pub mod tool_too_long;
pub mod toolset_too_large;
