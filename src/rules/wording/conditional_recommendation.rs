//! The check of `conditional-recommendation`. Its code, docs and default options are in
//! `rules/wording/conditional-recommendation.yaml`.

use serde::Deserialize;

use super::helpers::{self, Words};
use crate::normalize::{Text, Tool, ToolSet};
use crate::rule::{Anchor, Ctx, Rule};
use crate::text;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConditionalRecommendation {
    /// Conditions that leave the model's own judgment to the model (`if you recommend one`).
    conditions: Words,
}

impl Rule for ConditionalRecommendation {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        helpers::for_each_tool_text(tool, ctx, |text, ctx| self.check_text(text, ctx));
    }

    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        helpers::for_set_instructions(set, ctx, |text, ctx| self.check_text(text, ctx));
    }
}

impl ConditionalRecommendation {
    fn check_text(&self, text: &Text<'_>, ctx: &mut Ctx<'_>) {
        for hit in text::find_all(&self.conditions.0, text.value(), true) {
            let condition = &text.value()[hit.clone()];
            ctx.report(
                text.field,
                Anchor::Text(text.node, hit.clone()),
                format!(
                    "`{condition}` makes the recommendation optional: the model skips it and \
                     lists the options as equals"
                ),
            )
            .help(
                "ask for the judgment, then say how to show it: \"put the option you would \
                 pick first and append ' (Recommended)' to its label\"; name the exception \
                 instead of a condition (\"unless the choice is purely the user's taste\")",
            );
        }
    }
}
