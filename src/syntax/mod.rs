//! Parsing YAML and JSON into [`Node`] trees with exact spans.

pub mod json;
mod node;
pub mod yaml;

pub use node::*;
