//! The check of `result-without-next-step`. Its code, docs and default options are in
//! `rules/results/result-without-next-step.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};
use crate::rules::wording::helpers::Words;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ResultWithoutNextStep {
    /// Words and phrases that tell the model what to do next (`continue`, `do not retry`).
    next_steps: Words,
}

impl Rule for ResultWithoutNextStep {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        for entry in tool.results() {
            let Some(text) = entry.value.as_str() else {
                continue;
            };
            if text.trim().is_empty() || self.next_steps.0.is_match(text) {
                continue;
            }
            ctx.report(
                Field::Results,
                Anchor::Value(&entry.value),
                format!(
                    "result `{}` does not tell the model what to do next",
                    entry.key
                ),
            )
            .help(
                "a result is the prompt the model reads next: say what happened in a sentence, \
                 then the next step (\"Continue with your best judgment or ask different \
                 questions.\"); for a rejection, whether to retry and with what, or what not to \
                 do",
            );
        }
    }
}
