//! Rules written in Rust, one file per rule, grouped by family. Declarative rules live in
//! `rules/*.yaml` at the repository root.

pub mod budget;
pub mod meta;
pub mod names;
pub mod schema;
