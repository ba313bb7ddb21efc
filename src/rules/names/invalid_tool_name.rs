//! The check of `invalid-tool-name`. Its code, docs and default options are in
//! `rules/names/invalid-tool-name.yaml`.

use regex::{Regex, RegexBuilder};
use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Options {
    regex: String,
    case_sensitive: bool,
}

/// The options, with the pattern compiled when they are read (a bad pattern is a config error).
#[derive(Debug)]
pub struct InvalidToolName {
    regex: Regex,
}

impl<'de> Deserialize<'de> for InvalidToolName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let options = Options::deserialize(deserializer)?;
        RegexBuilder::new(&options.regex)
            .case_insensitive(!options.case_sensitive)
            .build()
            .map(|regex| InvalidToolName { regex })
            .map_err(|error| serde::de::Error::custom(format!("invalid regex: {error}")))
    }
}

impl Rule for InvalidToolName {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        // A missing or non-string name is `invalid-manifest`'s.
        let Some(entry) = tool.name else {
            return;
        };
        let Some(name) = entry.value.as_str() else {
            return;
        };
        let message = if name.is_empty() {
            "tool name is empty".to_string()
        } else if name.trim().is_empty() {
            "tool name is only white space".to_string()
        } else if self.regex.is_match(name) || !ctx.targets.is_empty() {
            // With targets, `name-rejected-by-target` says which of them rejects a name (a dot
            // is fine for MCP and Gemini); this is the portable check for a run without.
            return;
        } else {
            format!("tool name `{name}` is not 1-64 letters, digits, `_` or `-`")
        };
        ctx.report(Field::Name, Anchor::Value(&entry.value), message)
            .help(
                "rename it to letters, digits, `_` and `-` only (e.g. `search_docs`), at most 64 \
                 characters",
            );
    }
}
