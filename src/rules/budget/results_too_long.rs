use serde::Deserialize;

use crate::diagnostic::Field;
use crate::model::Tool;
use crate::rule::{Ctx, Rule, Target, declare_rule};

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct ResultsTooLong {
    /// The budget for one result text, in tokens.
    max_tokens: usize,
}

impl Default for ResultsTooLong {
    fn default() -> Self {
        ResultsTooLong { max_tokens: 25_000 }
    }
}

declare_rule! {
    /// ## What it does
    /// Counts the tokens of each text in a tool's `results` (outcome → text, the messages the
    /// tool returns to the model) and flags a text over the budget.
    ///
    /// ## Why is this bad?
    /// Hosts cap what a tool may return (a popular host cuts a result at 25,000 tokens by
    /// default) and drop the rest, often with the instructions that came last. A result that
    /// large also pushes earlier turns out of the context window.
    ///
    /// ## Example
    /// A `found` result that inlines a whole document.
    ///
    /// Use instead: return a summary plus a way to get more (a page cursor, a file path, a
    /// follow-up tool), and say so in the result.
    ///
    /// ## Options
    /// - `max-tokens` (integer, default `25000`): the budget for one result text.
    ResultsTooLong {
        code: "TC109",
        name: "results-too-long",
        family: Budget,
        severity: Warning,
        summary: "a `results` text over its token budget (default 25000)",
    }
}

impl Rule for ResultsTooLong {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        for entry in tool.results() {
            let Some(count) = ctx.tokens.text_over(&entry.value, self.max_tokens) else {
                continue;
            };
            let message = format!(
                "result `{}` is {count} tokens ({}), budget {}",
                entry.key, ctx.encoding, self.max_tokens
            );
            ctx.report(Field::Results, Target::Value(&entry.value), message)
                .help(
                    "hosts cut long tool results; return a summary and a way to get the rest \
                     (a page cursor, a file path, a follow-up tool)",
                );
        }
    }
}
