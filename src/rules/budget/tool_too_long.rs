//! The check of `tool-too-long`. Its code, docs and default options are in
//! `rules/budget/tool-too-long.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ToolTooLong {
    /// The budget for one whole tool definition, in tokens.
    max_tokens: usize,
}

/// The parts of a tool the budget covers, in the order they are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Name,
    Description,
    Snippet,
    Guidelines,
    InputSchema,
}

impl Part {
    fn label(self) -> &'static str {
        match self {
            Part::Name => "the name",
            Part::Description => "the description",
            Part::Snippet => "the snippet",
            Part::Guidelines => "the guidelines",
            Part::InputSchema => "the input schema",
        }
    }

    fn advice(self) -> &'static str {
        match self {
            Part::Name => "shorten the name",
            Part::Description => {
                "keep what the tool does and when to call it; move field details into the \
                 schema's descriptions"
            }
            Part::Snippet => "keep the snippet to one short line",
            Part::Guidelines => {
                "keep the conditions that decide when to call the tool; move the workflow into \
                 the description"
            }
            Part::InputSchema => {
                "drop parameters the model does not need to choose and set tuning values \
                 server-side"
            }
        }
    }
}

impl Rule for ToolTooLong {
    fn counts_tokens(&self) -> bool {
        true
    }

    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        // A token is at least one byte: a tool of at most `max_tokens` bytes fits.
        if ctx.tokens.tool_bytes(tool) <= self.max_tokens {
            return;
        }
        let tokens = ctx.tokens.tool(tool);
        let total = tokens.total();
        if total <= self.max_tokens {
            return;
        }
        let sums = [
            (Part::Name, tokens.name),
            (Part::Description, tokens.description),
            (Part::Snippet, tokens.snippet),
            (Part::Guidelines, tokens.guidelines),
            (Part::InputSchema, tokens.schema),
        ];
        // One part alone over the whole tool's budget is over its own, smaller one: its own
        // rule (description-too-long, schema-too-long, ...) reports the cause.
        if sums.iter().any(|(_, count)| *count > self.max_tokens) {
            return;
        }
        let name = tool.name();
        let message = if name.is_empty() {
            format!(
                "tool is {total} tokens ({}), budget {}",
                ctx.encoding, self.max_tokens
            )
        } else {
            format!(
                "tool `{name}` is {total} tokens ({}), budget {}",
                ctx.encoding, self.max_tokens
            )
        };
        // The first of equally large parts wins, so the help is stable.
        let largest = sums.iter().rev().max_by_key(|(_, count)| *count).copied();
        let finding = ctx.report(Field::Name, Anchor::Value(tool.node), message);
        // Underline the name (key and value), where a reader looks for the tool; the pointer
        // stays the tool's, since the finding is about all of it.
        if let Some(entry) = tool.name {
            finding.span = entry.key_span().start.min(entry.value.span().start)
                ..entry.key_span().end.max(entry.value.span().end);
        }
        if let Some((part, count)) = largest {
            finding.help(format!(
                "the largest part is {} ({count} of {total} tokens): {}; or, if the tool is \
                 rarely needed, load it through tool search (`defer_loading: true`)",
                part.label(),
                part.advice()
            ));
        }
    }
}
