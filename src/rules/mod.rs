//! The native checks: the logic of the rules whose catalog entry (`rules/<family>/<name>.yaml`)
//! says `then: { native: src/rules/<family>/<rule_name>.rs }`. Metadata, docs and default
//! options live in that entry; `build.rs` links the two and fails the build when they disagree.

pub mod budget;
pub mod meta;
pub mod names;
pub mod results;
pub mod schema;
pub mod search;
pub mod security;
pub mod targets;
pub mod wording;
