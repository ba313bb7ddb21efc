//! The check of `results-too-long`. Its code, docs and default options are in
//! `rules/budget/results-too-long.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ResultsTooLong {
    /// The budget for one result text, in tokens.
    max_tokens: usize,
}

impl Rule for ResultsTooLong {
    fn counts_tokens(&self) -> bool {
        true
    }

    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        for entry in tool.results() {
            let Some(count) = ctx.tokens.text_over(&entry.value, self.max_tokens) else {
                continue;
            };
            let message = format!(
                "result `{}` is {count} tokens ({}), budget {}",
                entry.key, ctx.encoding, self.max_tokens
            );
            ctx.report(Field::Results, Anchor::Value(&entry.value), message)
                .help(
                    "hosts cut long tool results; return a summary and a way to get the rest \
                     (a page cursor, a file path, a follow-up tool)",
                );
        }
    }
}
