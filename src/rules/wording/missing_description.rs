//! The check of `missing-description`. Its code, docs and default options are in
//! `rules/wording/missing-description.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::parse::NodeKind;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissingDescription {}

impl Rule for MissingDescription {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let name = tool.name();
        let subject = if name.is_empty() {
            "the tool".to_string()
        } else {
            format!("`{name}`")
        };
        let help = "write what the tool does and when to use it: the description is what a \
                    model reads when it considers the tool, and what tool search indexes";
        match tool.description() {
            Some(description) => {
                if description
                    .as_str()
                    .is_some_and(|value| value.trim().is_empty())
                {
                    ctx.report(
                        Field::Description,
                        Anchor::Value(description),
                        format!("the description of {subject} is empty"),
                    )
                    .help(help);
                }
            }
            None => {
                // A `description` of the wrong type is `invalid-manifest`'s (`null` is read
                // as no description).
                if tool
                    .node
                    .get("description")
                    .is_some_and(|node| !matches!(node.kind, NodeKind::Null))
                {
                    return;
                }
                let target = match tool.name {
                    Some(entry) => Anchor::Value(&entry.value),
                    None => Anchor::Start(tool.node),
                };
                ctx.report(
                    Field::Description,
                    target,
                    format!("{subject} has no description"),
                )
                .help(help);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::lint_text;

    fn codes(text: &str) -> Vec<String> {
        lint_text("t.json", text)
            .diagnostics
            .iter()
            .filter(|d| matches!(&*d.code, "TC001" | "TC207" | "TC214"))
            .map(|d| d.code.to_string())
            .collect()
    }

    #[test]
    fn a_description_of_the_wrong_type_is_reported_once() {
        let text = r#"{"name": "x", "description": 42, "inputSchema": {"type": "object"}}"#;
        assert_eq!(codes(text), ["TC001"]);
    }

    #[test]
    fn a_missing_description_is_not_also_a_missing_anti_trigger() {
        let text = r#"{"name": "x", "inputSchema": {"type": "object"}}"#;
        assert_eq!(codes(text), ["TC214"]);
        let text = r#"{"name": "x", "description": "", "inputSchema": {"type": "object"}}"#;
        assert_eq!(codes(text), ["TC214"]);
    }
}
