//! The check of `policy-written-twice`. Its code, docs and default options are in
//! `rules/wording/policy-written-twice.yaml`.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};
use crate::search::derive::is_stop_word;
use crate::text::sentences::sentence_ranges;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PolicyWrittenTwice {
    /// The fewest content words a sentence needs to be compared: shorter ones are phrases
    /// any two texts share.
    min_words: usize,
    /// The share of the shorter sentence's content words the other must have.
    overlap: f64,
}

/// A sentence that says when to call the tool (or when not to): the trigger belongs in both
/// places, since a host with its own system prompt drops the guidelines.
static TRIGGER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:(?:call|use|invoke)\s+\S+\s+(?:only\s+)?(?:when|whenever|if|for)\b|(?:do\s+not|don't|never)\s+(?:call|use|invoke)\s+\S+\s+(?:when|whenever|if|for|to)\b|(?:use|call)\s+(?:it\s+|this\s+)?(?:only\s+)?when(?:ever)?\b|not\s+for\b|when\s+(?:not\s+)?to\s+use\b)",
    )
    .expect("a valid regex")
});

impl Rule for PolicyWrittenTwice {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(description) = tool.description() else {
            return;
        };
        let text = description.as_str().unwrap_or_default();
        let name = tool.name().to_lowercase();
        // The description's first sentence is where its trigger goes.
        let policies: Vec<(std::ops::Range<usize>, BTreeSet<String>)> = sentence_ranges(text)
            .into_iter()
            .skip(1)
            .filter(|range| !TRIGGER.is_match(&text[range.clone()]))
            .map(|range| {
                let words = content_words(&text[range.clone()], &name);
                (range, words)
            })
            .filter(|(_, words)| words.len() >= self.min_words)
            .collect();
        if policies.is_empty() {
            return;
        }
        for guideline in tool.guidelines() {
            let value = guideline.as_str().unwrap_or_default();
            for range in sentence_ranges(value) {
                let sentence = &value[range.clone()];
                let words = content_words(sentence, &name);
                if TRIGGER.is_match(sentence) || words.len() < self.min_words {
                    continue;
                }
                let Some((twin, _)) = policies.iter().find(|(_, policy)| {
                    let shared = words.intersection(policy).count();
                    shared as f64 >= self.overlap * words.len().min(policy.len()) as f64
                }) else {
                    continue;
                };
                let related = description.source_range(&ctx.file.text, twin.clone());
                ctx.report(
                    Field::Guidelines,
                    Anchor::Text(guideline, range),
                    "this guideline says again what a sentence of the description says",
                )
                .help(
                    "keep the rule in one place: in the description when the model needs it \
                     while considering this tool, in a guideline when it needs it every turn; \
                     two copies drift apart (only the trigger belongs in both)",
                )
                .related("the same rule in the description", related);
            }
        }
    }
}

/// The words of a sentence that carry its meaning: lower case, no stop words, not the
/// tool's name.
fn content_words(sentence: &str, name: &str) -> BTreeSet<String> {
    sentence
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''))
        .map(|word| word.trim_matches('\'').to_lowercase())
        .filter(|word| word.len() > 1 && word != name && !is_stop_word(word))
        .collect()
}
