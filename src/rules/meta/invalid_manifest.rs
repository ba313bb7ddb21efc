use serde::Deserialize;

use crate::rule::{Rule, declare_rule};

/// Reported by the engine itself, while reading a file; this type holds its documentation.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InvalidManifest {}

declare_rule! {
    /// ## What it does
    /// Reports files that are not valid YAML or JSON, that hold no recognizable tool shape,
    /// whose fields have the wrong type (`description: 42`, `guidelines: "x"` instead of a
    /// list), or, in toolcheck's own manifest format, that use an unknown key.
    ///
    /// ## Why is this bad?
    /// A provider rejects a malformed tool definition, often together with every other tool of
    /// the request, and no other rule can judge a file it cannot read.
    ///
    /// ## Example
    /// ```yaml
    /// name: search_docs
    /// descripton: Search the documentation.
    /// guidelines: Call search_docs first.
    /// ```
    ///
    /// Use instead:
    /// ```yaml
    /// name: search_docs
    /// description: Search the documentation.
    /// guidelines:
    ///   - Call search_docs first.
    /// ```
    ///
    /// ## Options
    /// None. This rule cannot be disabled.
    InvalidManifest {
        code: "TC001",
        name: "invalid-manifest",
        family: Meta,
        severity: Error,
        summary: "the file is not valid YAML/JSON, has no tool shape, or a field has the wrong type",
    }
}

impl Rule for InvalidManifest {}
