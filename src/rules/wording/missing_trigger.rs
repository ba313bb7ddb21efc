//! The check of `missing-trigger`. Its code, docs and default options are in
//! `rules/wording/missing-trigger.yaml`.

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use super::helpers::NamedPhrases;
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};
use crate::text;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct MissingTrigger {
    words: NamedPhrases,
    /// Check only the tools that have guidelines (whose descriptions stand alone when a host
    /// drops the system-prompt parts).
    only_with_guidelines: bool,
}

impl MissingTrigger {
    /// Which of `sentences` say when to call the tool `name`, as this rule reads a trigger
    /// (`toolcheck diff` compares the trigger sentences of two versions of a description).
    pub(crate) fn triggers(&self, name: &str, sentences: &[&str]) -> Vec<bool> {
        sentences
            .iter()
            .map(|value| {
                self.words
                    .regex(name, value)
                    .is_some_and(|regex| !text::find_all(&regex, value, true).is_empty())
                    || has_other_wording(value)
            })
            .collect()
    }
}

impl Rule for MissingTrigger {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let has_guidelines = tool
            .guidelines()
            .any(|node| node.as_str().is_some_and(|value| !value.trim().is_empty()));
        if self.only_with_guidelines && !has_guidelines {
            return;
        }
        // A missing or empty description is `missing-description`'s.
        let Some(description) = tool.description() else {
            return;
        };
        let value = description.as_str().unwrap_or_default();
        if value.trim().is_empty() {
            return;
        }
        let name = tool.name();
        let Some(regex) = self.words.regex(name, value) else {
            return;
        };
        if mostly_other_script(value)
            || !text::find_all(&regex, value, true).is_empty()
            || has_other_wording(value)
        {
            return;
        }
        let subject = if name.is_empty() {
            "the tool".to_string()
        } else {
            format!("`{name}`")
        };
        let why = if has_guidelines {
            "a host with its own system prompt drops the guidelines, and the description must \
             then say on its own when to call the tool"
        } else {
            "the description is what a model reads when it decides whether to call the tool"
        };
        ctx.report(
            Field::Description,
            Anchor::Value(description),
            format!("the description never says when to call {subject}"),
        )
        .help(format!(
            "add the situation the tool is for (e.g. \"Use {} when …\"): {why}",
            if name.is_empty() { "it" } else { name }
        ));
    }
}

/// Triggers in other words than the phrase list: a use, up to two words of object, and its
/// situation (`use it for`, `call search_docs after`, `use this exactly once as the final
/// action`).
const USE_VERBS: &[&str] = &["use", "call", "invoke", "prefer"];
static USE_VERB: text::AnyOf = text::AnyOf::new(USE_VERBS);
static USE_FOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:{})(?:\s+(?:this\s+tool|this\s+function|[\w.-]+)){{0,2}}?\s+(?:only\s+)?(?:for|to|when|whenever|if|after|before|once|as|during|while|over)\b",
        USE_VERBS.join("|")
    ))
    .expect("the built-in pattern compiles")
});

/// A purpose (`useful for`, `best when`, `intended for`; not after `not`).
const PURPOSE_WORDS: &[&str] = &[
    "useful",
    "ideal",
    "best",
    "good",
    "great",
    "handy",
    "helpful",
    "intended",
    "meant",
    "designed",
    "suited",
    "suitable",
    "appropriate",
];
static PURPOSE_WORD: text::AnyOf = text::AnyOf::new(PURPOSE_WORDS);
static PURPOSE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:{})\s+(?:for|when|if|to)\b",
        PURPOSE_WORDS.join("|")
    ))
    .expect("the built-in pattern compiles")
});

/// Whether `value` says when to call the tool in other words than the phrase list. Each
/// pattern is compiled (its Unicode word class costs a cold run ~1 ms) and run only on a text
/// that holds one of its words.
fn has_other_wording(value: &str) -> bool {
    let quoted = text::backtick_ranges(value);
    let said = |found: regex::Match<'_>| {
        let in_quotes = quoted
            .iter()
            .any(|q| q.start <= found.start() && found.end() <= q.end);
        // `not meant for`, `not suitable for`: where the tool stops, not where it applies.
        let negated = value[..found.start()]
            .trim_end()
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .is_some_and(|word| word.eq_ignore_ascii_case("not"));
        !in_quotes && !negated
    };
    (USE_VERB.may_match(value) && USE_FOR.find_iter(value).any(said))
        || (PURPOSE_WORD.may_match(value) && PURPOSE.find_iter(value).any(said))
}

/// Whether most letters of `value` are of a script other than Latin (CJK, Cyrillic, ...):
/// the trigger phrases are English, and such a description says its situation in its own
/// language.
fn mostly_other_script(value: &str) -> bool {
    let (mut latin, mut other) = (0usize, 0usize);
    for c in value.chars().filter(|c| c.is_alphabetic()) {
        if (c as u32) <= 0x024F || (0x1E00..=0x1EFF).contains(&(c as u32)) {
            latin += 1;
        } else {
            other += 1;
        }
    }
    other > latin
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phrases() -> NamedPhrases {
        serde_json::from_value(serde_json::json!([
            "when",
            "whenever",
            "if you",
            "if the user",
            "use for",
            "use to",
            "use this to",
            "call {name}",
        ]))
        .unwrap()
    }

    fn triggered(value: &str) -> bool {
        let phrases = phrases();
        let regex = phrases.regex("search_docs", value).unwrap();
        mostly_other_script(value)
            || !text::find_all(&regex, value, true).is_empty()
            || has_other_wording(value)
    }

    #[test]
    fn triggers_are_found() {
        assert!(triggered(
            "Search the docs. Use when the user asks about the API."
        ));
        assert!(triggered("Call search_docs before you answer."));
        assert!(triggered("Use this to look up an API."));
        assert!(triggered("If the user asks for docs, search them."));
        assert!(triggered(
            "Submit the proposal. Use this exactly once as the final action."
        ));
        assert!(triggered("Search the docs. Use it for API questions."));
        assert!(triggered(
            "Search the docs. Call search_docs after a failed build."
        ));
        assert!(triggered("Search the docs. Useful for API questions."));
        assert!(triggered(
            "只读地检查多个 PR。需要比较多个 PR 的状态时调用。"
        ));
    }

    #[test]
    fn quoted_or_missing_triggers_are_not() {
        assert!(!triggered("Search the docs. Returns passages."));
        assert!(!triggered("Search the docs for `when` clauses."));
        assert!(!triggered("Call search_docs_v2 instead."));
        assert!(!triggered("Search the docs. Not meant for code."));
        assert!(!triggered("Run the test suite for a package."));
        assert!(!triggered("Search the docs with `use it for` syntax."));
        assert!(!triggered(
            "Lista as janelas abertas no Windows com título e processo."
        ));
    }
}
