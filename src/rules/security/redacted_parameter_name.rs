//! The check of `redacted-parameter-name`. Its code, docs and default options are in
//! `rules/security/redacted-parameter-name.yaml`.

use serde::Deserialize;

use super::secret_like_field_names::{can_hold_a_secret, described_as_credential};
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::normalize::schema::walk_properties;
use crate::parse::Node;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RedactedParameterName {
    /// Whole parameter names that redaction by name masks, in lower case.
    names: Vec<String>,
}

impl Rule for RedactedParameterName {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        walk_properties(schema, &mut |entry| {
            let name = entry.key.to_lowercase();
            if !self.names.contains(&name) {
                return;
            }
            // A credential is `secret-like-field-names`' finding, and masking it is right.
            let credential = can_hold_a_secret(&entry.value)
                && (matches!(name.as_str(), "password" | "secret")
                    || entry
                        .value
                        .get("description")
                        .and_then(Node::as_str)
                        .is_some_and(described_as_credential));
            if credential {
                return;
            }
            ctx.report(
                Field::InputSchema,
                Anchor::Key(entry),
                format!(
                    "parameter `{}` is masked as `***` wherever parameters are redacted by name",
                    entry.key
                ),
            )
            .help(format!(
                "name it for what it holds (`{name}_name`, `cache_{name}`, `musical_{name}`): \
                 logs and analytics that redact by name then show what the model sent"
            ));
        });
    }
}
