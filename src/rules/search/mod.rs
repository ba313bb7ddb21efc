//! Native checks of the `search` family; each rule's catalog entry is
//! `rules/search/<rule-name>.yaml`. They simulate tool search (src/search/) over a file's tools,
//! or over a session's when the file is in one (named as the session's host sends them).

pub mod confusable_tools;
pub mod helpers;
pub mod not_found_by_search;
pub mod weak_search_surface;
