//! The check of `outcome-not-in-description`. Its code, docs and default options are in
//! `rules/results/outcome-not-in-description.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};
use crate::rules::wording::helpers::Words;
use crate::text::identifier::split_identifier;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct OutcomeNotInDescription {
    /// Words and phrases with which a result tells the model what to do next: such a result
    /// explains itself.
    next_steps: Words,
    /// Top-level `output_schema` properties whose enum values are outcomes.
    outcome_properties: Vec<String>,
}

impl Rule for OutcomeNotInDescription {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let read_before: Vec<Vec<String>> = tool
            .description()
            .into_iter()
            .chain(tool.snippet())
            .chain(tool.guidelines())
            .filter_map(|node| node.as_str())
            .map(words)
            .collect();
        let explained = |outcome: &str, own: &[Vec<String>]| {
            read_before
                .iter()
                .chain(own)
                .any(|text| mentions(text, outcome))
        };
        for entry in tool.results() {
            let Some(text) = entry.value.as_str() else {
                continue;
            };
            if self.next_steps.0.is_match(text) || explained(&entry.key, &[]) {
                continue;
            }
            ctx.report(
                Field::Results,
                Anchor::Key(entry),
                format!(
                    "outcome `{}` is not explained in the description, and its result does not \
                     say what to do",
                    entry.key
                ),
            )
            .help(format!(
                "tell the model before the call what `{}` means and what to do then (a line \
                 under READING THE RESULT in the description), or make the result itself say \
                 what happened and what to do next",
                entry.key
            ));
        }
        self.check_output_schema(tool, ctx, &explained);
    }
}

impl OutcomeNotInDescription {
    /// Enum values of the output schema's outcome properties (`outcome: removed |
    /// disconnected`): explained when the description, snippet, guidelines or the property's
    /// own description name them.
    fn check_output_schema(
        &self,
        tool: &Tool<'_>,
        ctx: &mut Ctx<'_>,
        explained: &dyn Fn(&str, &[Vec<String>]) -> bool,
    ) {
        let Some(properties) = tool
            .output_schema
            .and_then(|entry| entry.value.get("properties"))
            .and_then(|node| node.as_object())
        else {
            return;
        };
        for property in properties {
            if !self
                .outcome_properties
                .iter()
                .any(|name| **name == *property.key)
            {
                continue;
            }
            let own: Vec<Vec<String>> = property
                .value
                .get("description")
                .and_then(|node| node.as_str())
                .map(words)
                .into_iter()
                .collect();
            let values = property.value.get("enum").and_then(|node| node.as_array());
            for value in values.unwrap_or_default() {
                let Some(outcome) = value.as_str() else {
                    continue;
                };
                if explained(outcome, &own) {
                    continue;
                }
                ctx.report(
                    Field::OutputSchema,
                    Anchor::Value(value),
                    format!(
                        "outcome `{outcome}` of `{}` is not explained in the description",
                        property.key
                    ),
                )
                .help(format!(
                    "say in the description what `{outcome}` means and what the model should do \
                     then"
                ));
            }
        }
    }
}

/// The lowercase words of a text.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether a text's words name every word of an outcome (`single_option`: `single` and
/// `option`), each by its stem, so `declined` is named by `Declined:` and `declines`.
fn mentions(text: &[String], outcome: &str) -> bool {
    let parts = split_identifier(outcome);
    !parts.is_empty()
        && parts.iter().all(|part| {
            let stem = stem(part);
            text.iter().any(|word| word.starts_with(stem))
        })
}

/// A word without the last two letters of an inflection, at least four letters kept
/// (`declined` → `declin`, `answered` → `answer`, `idle` → `idle`).
fn stem(word: &str) -> &str {
    let chars = word.chars().count();
    let keep = chars.saturating_sub(2).max(4).min(chars);
    let end = word.char_indices().nth(keep).map_or(word.len(), |(i, _)| i);
    &word[..end]
}

#[cfg(test)]
mod tests {
    use super::{mentions, stem, words};

    #[test]
    fn an_outcome_is_named_by_the_stem_of_each_of_its_words() {
        assert_eq!(stem("declined"), "declin");
        assert_eq!(stem("idle"), "idle");
        assert_eq!(stem("ok"), "ok");
        let text = words("- Declined: continue. A question with a single option is rejected.");
        assert!(mentions(&text, "declined"));
        assert!(mentions(&text, "single_option"));
        assert!(!mentions(&text, "partial"));
        assert!(!mentions(&text, "single_answer"));
    }
}
