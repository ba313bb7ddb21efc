//! Native checks of the `meta` family; each rule's catalog entry is `rules/meta/<rule-name>.yaml`.

pub mod invalid_manifest;
pub mod unused_suppression;
