//! The check of `guidelines-too-long`. Its code, docs and default options are in
//! `rules/budget/guidelines-too-long.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GuidelinesTooLong {
    /// The budget for all guidelines of one tool together, in tokens.
    max_tokens: usize,
}

impl Rule for GuidelinesTooLong {
    fn counts_tokens(&self) -> bool {
        true
    }

    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(entry) = tool.guidelines else {
            return;
        };
        let nodes: Vec<&crate::parse::Node> = tool.guidelines().collect();
        let bytes: usize = nodes
            .iter()
            .filter_map(|node| node.as_str())
            .map(str::len)
            .sum();
        // A token is at least one byte: guidelines of at most `max_tokens` bytes fit.
        if bytes <= self.max_tokens {
            return;
        }
        let counts: Vec<usize> = nodes.iter().map(|node| ctx.tokens.text(node)).collect();
        if counts.iter().sum::<usize>() <= self.max_tokens {
            return;
        }
        let total: usize = counts.iter().sum();
        let message = format!(
            "guidelines are {total} tokens ({}), budget {}",
            ctx.encoding, self.max_tokens
        );
        let mut help = String::new();
        if let Some((index, longest)) = counts
            .iter()
            .enumerate()
            .rev()
            .max_by_key(|(_, count)| **count)
        {
            help = format!(
                "the longest of the {} guidelines is #{} ({longest} tokens); ",
                counts.len(),
                index + 1
            );
        }
        help.push_str(
            "keep the conditions that decide when to call the tool and when not, and move \
             the workflow into the description",
        );
        ctx.report(Field::Guidelines, Anchor::Value(&entry.value), message)
            .help(help);
    }
}
