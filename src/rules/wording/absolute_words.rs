//! The check of `absolute-words`. Its code, docs and default options are in
//! `rules/wording/absolute-words.yaml`.

use std::ops::Range;

use serde::Deserialize;

use super::helpers::{self, Words, word_after};
use crate::normalize::{Text, Tool, ToolSet};
use crate::rule::{Anchor, Ctx, Rule};
use crate::rules::security::hidden_instructions;
use crate::text;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct AbsoluteWords {
    words: Words,
    mode: Mode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Mode {
    /// Only emphasis and orders to the model.
    Directive,
    /// Every whole-word use.
    EveryOccurrence,
}

impl Rule for AbsoluteWords {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        helpers::for_each_tool_text(tool, ctx, |text, ctx| self.check_text(text, ctx));
    }

    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        helpers::for_set_instructions(set, ctx, |text, ctx| self.check_text(text, ctx));
    }
}

impl AbsoluteWords {
    fn check_text(&self, text: &Text<'_>, ctx: &mut Ctx<'_>) {
        let value = text.value();
        let mut covered = 0;
        // Words inside a poisoning pattern (`Never tell the user …`) are `hidden-instructions`'
        // (TC303) finding: one cause, one finding. Looked for only once a word is found.
        let mut poisoning: Option<Vec<Range<usize>>> = None;
        for hit in text::find_all(&self.words.0, value, true) {
            if hit.start < covered {
                continue;
            }
            let poisoned = poisoning.get_or_insert_with(|| {
                hidden_instructions::find(value)
                    .into_iter()
                    .map(|hit| hit.range)
                    .collect()
            });
            if poisoned
                .iter()
                .any(|range| range.start < hit.end && hit.start < range.end)
            {
                continue;
            }
            let found = match self.mode {
                Mode::EveryOccurrence => Some((hit, None)),
                Mode::Directive => directive(value, hit).map(|(span, why)| (span, Some(why))),
            };
            let Some((span, why)) = found else {
                continue;
            };
            covered = span.end;
            let word = &value[span.clone()];
            let finding = ctx.report(
                text.field,
                Anchor::Text(text.node, span.clone()),
                format!("absolute word `{word}`"),
            );
            finding
                .help("state the condition plainly; emphasis makes every sentence weigh the same");
            if let Some(why) = why {
                finding.label(why);
            }
        }
    }
}

/// Whether the absolute word at `hit` is emphasis or an order to the model, with the span to
/// report (`must always` is one finding) and why.
fn directive(value: &str, hit: Range<usize>) -> Option<(Range<usize>, &'static str)> {
    let word = &value[hit.clone()];
    let lower = word.to_lowercase();
    let before = words_before(value, hit.start);
    let (next, next_range) = word_after(value, hit.end);
    let next_lower = next.to_lowercase();
    if is_shouted(word) {
        return Some((hit, "emphasis in capitals"));
    }
    if lower == "must" {
        if matches!(next_lower.as_str(), "always" | "never") {
            return Some((hit.start..next_range.end, "emphasis"));
        }
        let addressed = before
            .last
            .is_some_and(|last| MODEL.contains(&last.as_str()));
        if addressed && !is_precondition(value, hit.end) {
            return Some((hit, "an order to the model"));
        }
        return None;
    }
    // Always/never (or a word of the team's list) that opens a clause, followed by an
    // imperative verb: `Always use …`, `If unsure, never guess`.
    let addressed =
        before.clause_start || before.last.as_deref() == Some("please") || before.you_nearby;
    (addressed && looks_imperative(&next_lower) && !joins_a_predicate(value, hit.start, &before))
        .then_some((hit, "an order to the model"))
}

/// Whether the word after a conjunction continues a statement with a copula (`The digest is a
/// string and always present`): a second predicate of the same subject, not an order (`… is
/// text here, and always keep it` is one). Looks back at most [`PREDICATE_LOOKBACK`] bytes, to
/// the clause's start or a comma.
fn joins_a_predicate(value: &str, at: usize, before: &Before) -> bool {
    if !before
        .last
        .as_deref()
        .is_some_and(|w| matches!(w, "and" | "or" | "but"))
    {
        return false;
    }
    let mut from = at.saturating_sub(PREDICATE_LOOKBACK);
    while !value.is_char_boundary(from) {
        from += 1;
    }
    let head = &value[from..at];
    let clause = head
        .rfind(|c: char| ".!?;:,\n".contains(c))
        .map_or(head, |end| &head[end + 1..]);
    clause
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .any(|word| {
            matches!(
                word.to_lowercase().as_str(),
                "is" | "are" | "was" | "were" | "be"
            )
        })
}

/// How far back [`joins_a_predicate`] looks for the copula.
const PREDICATE_LOOKBACK: usize = 80;

/// Who an order can be given to: `you must`, `the model must`.
const MODEL: &[&str] = &["you", "model", "assistant", "agent", "llm", "ai"];

/// Verbs after `you must` that state what the user or the deployment needs, not what the model
/// should do: `You must have the X permission`, `you must be logged in`.
const PRECONDITION_VERBS: &[&str] = &[
    "have",
    "be",
    "own",
    "hold",
    "enable",
    "install",
    "configure",
    "grant",
    "log",
    "sign",
    "login",
    "authenticate",
    "register",
    "subscribe",
    "purchase",
    "pay",
    "possess",
    "belong",
];

/// Words after always/never that are not an imperative verb: `never null`, `always the same`.
const NOT_VERBS: &[&str] = &[
    "a",
    "an",
    "the",
    "true",
    "false",
    "null",
    "none",
    "empty",
    "zero",
    "one",
    "more",
    "less",
    "in",
    "on",
    "at",
    "by",
    "for",
    "to",
    "with",
    "without",
    "from",
    "after",
    "before",
    "when",
    "if",
    "as",
    "been",
    "being",
    "available",
    "required",
    "optional",
    "exactly",
    "is",
    "are",
    "was",
    "were",
    "will",
    "can",
    "may",
    "has",
    "have",
    "unique",
    "positive",
    "negative",
    "sorted",
    "enabled",
    "disabled",
    "lowercase",
    "uppercase",
    "valid",
    "there",
    "this",
    "that",
    "it",
    "its",
    "their",
    "all",
    "both",
];

fn is_shouted(word: &str) -> bool {
    word.chars().filter(|c| c.is_alphabetic()).count() > 1 && !word.chars().any(char::is_lowercase)
}

/// An imperative verb, by shape: a lowercase word that is not a third-person (`returns`) or
/// past (`sorted`) form and not one of the usual non-verbs after always/never.
fn looks_imperative(next: &str) -> bool {
    if next.is_empty() || !next.chars().all(|c| c.is_alphabetic() || c == '-') {
        return false;
    }
    let third_person = next.ends_with('s') && !next.ends_with("ss");
    let past = next.len() > 4 && next.ends_with("ed") && !next.ends_with("eed");
    !third_person && !past && !NOT_VERBS.contains(&next)
}

fn is_precondition(value: &str, from: usize) -> bool {
    let mut at = from;
    loop {
        let (next, range) = word_after(value, at);
        let next = next.to_lowercase();
        if matches!(next.as_str(), "not" | "also" | "first" | "still" | "then") {
            at = range.end;
            continue;
        }
        return PRECONDITION_VERBS.contains(&next.as_str());
    }
}

/// What comes before a word, within its clause.
struct Before {
    /// Nothing but punctuation, a bullet or a conjunction between the clause's start and the
    /// word.
    clause_start: bool,
    /// The word right before, lowercased.
    last: Option<String>,
    /// `you` one or two words before (`you should always`).
    you_nearby: bool,
}

/// Looks back at most two words (and a few bytes of punctuation) from `at`: constant work per
/// finding, whatever the text's length.
fn words_before(value: &str, at: usize) -> Before {
    let head = &value[..at];
    let clause_start_char = |c: char| ".!?;:,()[]\"'*•–—-\n".contains(c);
    let is_word_char = |c: char| c.is_alphanumeric() || c == '\'';
    // The last word of `text` as a range, and whether a clause starts after it: a clause mark
    // at the very end (a quote too), or one anywhere among the symbols, spaces and line breaks
    // after the word (`user. ☕ Always`). Every cut is at a character boundary.
    let last_word = |text: &str| {
        let end = text.trim_end_matches(|c: char| !is_word_char(c)).len();
        let start = text[..end].trim_end_matches(is_word_char).len();
        let after = text
            .trim_end()
            .chars()
            .next_back()
            .is_none_or(clause_start_char)
            || text[end..].contains(clause_start_char);
        (start..end, after)
    };
    let (word, ends_clause) = last_word(head);
    let last = (!ends_clause && !word.is_empty()).then(|| head[word.clone()].to_lowercase());
    let second = last.as_ref().and_then(|_| {
        let rest = &head[..word.start];
        let (word, clause) = last_word(rest);
        (!clause && !word.is_empty()).then(|| rest[word].to_lowercase())
    });
    let conjunction = last
        .as_deref()
        .is_some_and(|w| matches!(w, "and" | "or" | "but" | "then" | "so"));
    let you = |w: &Option<String>| w.as_deref().is_some_and(|w| w == "you" || w == "you'll");
    Before {
        clause_start: ends_clause || conjunction,
        you_nearby: you(&last) || you(&second),
        last,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flagged(text: &str) -> Vec<&str> {
        let regex =
            text::phrases_regex(&["never".into(), "always".into(), "must".into()], "", false)
                .unwrap();
        text::find_all(&regex, text, true)
            .into_iter()
            .filter_map(|hit| directive(text, hit).map(|(span, _)| &text[span]))
            .collect()
    }

    #[test]
    fn orders_and_emphasis_are_flagged() {
        assert_eq!(flagged("Always use the latest SDK version."), ["Always"]);
        assert_eq!(flagged("NEVER overwrite the original file"), ["NEVER"]);
        assert_eq!(flagged("If unsure, always ask the user."), ["always"]);
        assert_eq!(flagged("You must pass it as `outputDir`."), ["must"]);
        assert_eq!(flagged("You MUST specify anchor_line"), ["MUST"]);
        assert_eq!(
            flagged("The path must always be absolute."),
            ["must always"]
        );
        assert_eq!(
            flagged("You should always call list_files first."),
            ["always"]
        );
        assert_eq!(flagged("- never include the line prefix"), ["never"]);
        assert_eq!(flagged("Read the file and never overwrite it."), ["never"]);
        assert_eq!(
            flagged("The path is relative. Read it and always check it."),
            ["always"]
        );
        assert_eq!(
            flagged("The tag is text here, and always keep it."),
            ["always"]
        );
    }

    #[test]
    fn a_symbol_between_the_words_cuts_at_character_boundaries() {
        // Found by the lint_file fuzz target: a symbol that is neither a word nor a clause mark
        // before the flagged word, and a multibyte word before that, panicked.
        assert_eq!(
            flagged("Ask the user, café ☕must decide."),
            Vec::<&str>::new()
        );
        assert_eq!(flagged("Ask the user. ☕ Always decide."), ["Always"]);
        assert_eq!(flagged("then you ☕ must pick one"), ["must"]);
    }

    #[test]
    fn constraints_preconditions_and_behaviour_are_not() {
        for text in [
            "Must be a full country name.",
            "Must not start with \"-\".",
            "Each name must be non-empty, must not start with `$`.",
            "You must have the X permission.",
            "You must be logged in to use this.",
            "The server must be run with --allow-write.",
            "The issue key is always returned.",
            "It always returns JSON.",
            "Always returns the first page.",
            "The value is never null.",
            "A search index must exist.",
            "Results are always sorted by date.",
            "Each digest is string | null and always present.",
            "The list is paginated but never empty.",
        ] {
            assert!(flagged(text).is_empty(), "{text}: {:?}", flagged(text));
        }
    }
}
