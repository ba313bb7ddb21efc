use serde::Deserialize;

use crate::diagnostic::Field;
use crate::model::Tool;
use crate::rule::{Ctx, Rule, Target, declare_rule};

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct GuidelinesTooLong {
    /// The budget for all guidelines of one tool together, in tokens.
    max_tokens: usize,
}

impl Default for GuidelinesTooLong {
    fn default() -> Self {
        GuidelinesTooLong { max_tokens: 400 }
    }
}

declare_rule! {
    /// ## What it does
    /// Adds up the tokens of all of a tool's `guidelines` with the configured encoding
    /// (`o200k_base` by default) and flags the list when the sum is over the budget.
    ///
    /// ## Why is this bad?
    /// Guidelines are bullets of the system prompt, sent with every request whether or not
    /// the tool is called. Each bullet may be short (`guideline-too-long`) and the list still
    /// grow into a manual that costs context on every turn and drowns the other tools' rules.
    ///
    /// ## Example
    /// A tool with twelve guidelines that walk through its whole workflow, 600 tokens in all.
    ///
    /// Use instead: keep the few conditions that decide when to call the tool and when not;
    /// move the workflow into the description, and let the results say what to do next.
    ///
    /// ## Options
    /// - `max-tokens` (integer, default `400`): the budget for all guidelines of one tool.
    GuidelinesTooLong {
        code: "TC105",
        name: "guidelines-too-long",
        family: Budget,
        severity: Error,
        summary: "all guidelines of one tool together over their token budget (default 400)",
    }
}

impl Rule for GuidelinesTooLong {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(entry) = tool.guidelines else {
            return;
        };
        let nodes: Vec<&crate::syntax::Node> = tool.guidelines().collect();
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
        ctx.report(Field::Guidelines, Target::Value(&entry.value), message)
            .help(help);
    }
}
