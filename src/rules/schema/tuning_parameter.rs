//! The check of `tuning-parameter`. Its code, docs and default options are in
//! `rules/schema/tuning-parameter.yaml`.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use serde::Deserialize;

use super::helpers;
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::parse::Node;
use crate::rule::{Anchor, Ctx, Rule};
use crate::text::identifier::split_identifier;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TuningParameter {
    /// Property names that tune execution, matched in any casing (`max_results`,
    /// `maxResults`, `MaxResults`); squashed once, when the options are read.
    #[serde(deserialize_with = "squashed")]
    names: HashSet<String>,
}

fn squashed<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<HashSet<String>, D::Error> {
    let names = Vec::<String>::deserialize(deserializer)?;
    Ok(names.iter().map(|name| squash(name)).collect())
}

/// Lower-case words joined without separators: `maxResults`, `max_results` and `max-results`
/// are all `maxresults`.
fn squash(name: &str) -> String {
    split_identifier(name).concat()
}

/// Words of a description that make a `limit` a cap on what the tool returns, rather than a
/// bound in the tool's domain (`The upper limit of the sequence`, a credit limit).
/// Only ever asked whether it matches: a word that starts with `fetch` needs no `\w*\b` after
/// it, and leaving out that Unicode class five times cuts compiling this from ~2.2 to ~0.7 ms.
static CAPS_OUTPUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:(?:return|returned|results?|pages?|entries|items|records|responses?|rows|lines|matches|number\s+of|how\s+many)\b|retriev|fetch|list|show|display)",
    )
    .expect("the pattern is valid")
});

/// Whether the property can be a knob: a number, a boolean, or a duration written as a string
/// (`"30s"`); not a pattern, a list or an object (Ansible's `limit: "web*"` names hosts).
/// A `limit` with a description must say it caps the output: the word is also the noun for a
/// bound of the domain.
fn is_knob(schema: &Node, squashed: &str) -> bool {
    let types = helpers::declared_types(schema);
    let scalar = types.is_empty()
        || types.iter().any(|ty| {
            matches!(
                *ty,
                "integer" | "number" | "boolean" | "float" | "int" | "bool"
            ) || (*ty == "string" && squashed.contains("timeout"))
        });
    if !scalar {
        return false;
    }
    if squashed != "limit" {
        return true;
    }
    match schema.get("description").and_then(Node::as_str) {
        Some(text) if !text.trim().is_empty() => CAPS_OUTPUT.is_match(text),
        _ => true,
    }
}

impl Rule for TuningParameter {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        let tool_name = squash(tool.name());
        for entry in helpers::root_properties(schema) {
            let squashed = squash(&entry.key);
            if squashed.is_empty() || !self.names.contains(&squashed) {
                continue;
            }
            // The value is what the tool is about (`set_rate_limit { limit }`,
            // `set_timeout { timeout }`): intent, not tuning.
            if tool_name.contains(&squashed) || !is_knob(&entry.value, &squashed) {
                continue;
            }
            let name = &entry.key;
            ctx.report(
                Field::InputSchema,
                Anchor::Key(entry),
                format!("parameter `{name}` tunes execution rather than expressing intent"),
            )
            .help(
                "pick a good value in the tool and drop the parameter; if the model must \
                 choose it, say in its description when to change it and why",
            );
        }
    }
}
