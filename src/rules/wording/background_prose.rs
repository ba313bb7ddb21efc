//! The check of `background-prose`. Its code, docs and default options are in
//! `rules/wording/background-prose.yaml`.

use serde::Deserialize;

use super::helpers::{self, Words};
use crate::diagnostic::Field;
use crate::normalize::{Text, Tool, ToolSet};
use crate::rule::{Anchor, Ctx, Rule};
use crate::text;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct BackgroundProse {
    /// Phrases that tell how a tool is built, its history or why it was added.
    phrases: Words,
}

impl Rule for BackgroundProse {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        for field in [Field::Snippet, Field::Guidelines] {
            for text in tool.texts(field) {
                self.check_text(&text, ctx);
            }
        }
    }

    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        helpers::for_set_instructions(set, ctx, |text, ctx| self.check_text(text, ctx));
    }
}

impl BackgroundProse {
    /// One finding per text: its first such phrase (a paragraph of history is one fault).
    fn check_text(&self, text: &Text<'_>, ctx: &mut Ctx<'_>) {
        let Some(hit) = text::find_all(&self.phrases.0, text.value(), true)
            .into_iter()
            .next()
        else {
            return;
        };
        let phrase = &text.value()[hit.clone()];
        ctx.report(
            text.field,
            Anchor::Text(text.node, hit.clone()),
            format!(
                "`{phrase}`: how the tool is built, its history or why it exists, in text the \
                 model reads every turn"
            ),
        )
        .help(
            "the system prompt should carry only what changes what the model does; move the \
             background to the project's documentation, or keep the consequence and drop the \
             story (\"since 2.0\" → what to do now)",
        );
    }
}
