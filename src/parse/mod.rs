//! Parsing YAML and JSON into [`Node`] trees with exact spans.

pub mod code;
pub mod json;

mod node;
pub mod source;
pub mod yaml;

pub use node::*;

/// Parses a manifest's text as JSON when `json`, else as YAML.
pub fn parse(text: &str, json: bool) -> Result<Node, ParseError> {
    if json {
        json::parse(text)
    } else {
        yaml::parse(text)
    }
}
