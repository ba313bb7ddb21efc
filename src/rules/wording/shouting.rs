//! The check of `shouting`. Its code, docs and default options are in
//! `rules/wording/shouting.yaml`.

use std::ops::Range;

use regex::Regex;
use serde::Deserialize;

use super::helpers;
use crate::normalize::{Text, Tool, ToolSet};
use crate::rule::{Anchor, Ctx, Rule};
use crate::text;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Shouting {
    words: CapsWords,
}

/// The emphasis words, matched as written (in capitals), whole words; `!!` (any run of `!`
/// of two or more) is found apart, so that code such as `!!str` can be told from it.
#[derive(Debug)]
pub struct CapsWords {
    regex: Regex,
    bangs: bool,
}

impl<'de> Deserialize<'de> for CapsWords {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut words = Vec::<String>::deserialize(deserializer)?;
        if words.iter().all(|word| word.trim().is_empty()) {
            return Err(serde::de::Error::custom("give at least one word or phrase"));
        }
        let bangs = words.iter().any(|word| word.trim() == "!!");
        words.retain(|word| word.trim() != "!!");
        // Longest first, so `DO NOT` wins over `NOT` at the same place.
        words.sort_by_key(|word| std::cmp::Reverse(word.len()));
        text::phrases_regex(&words, "", true)
            .map(|regex| CapsWords { regex, bangs })
            .map_err(|error| serde::de::Error::custom(format!("invalid words: {error}")))
    }
}

impl Rule for Shouting {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        helpers::for_each_tool_text(tool, ctx, |text, ctx| self.check_text(text, ctx));
    }

    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        helpers::for_set_instructions(set, ctx, |text, ctx| self.check_text(text, ctx));
    }
}

impl Shouting {
    fn check_text(&self, text: &Text<'_>, ctx: &mut Ctx<'_>) {
        let value = text.value();
        for span in self.shouts(value) {
            let words = &value[span.clone()];
            ctx.report(
                text.field,
                Anchor::Text(text.node, span.clone()),
                format!("`{words}` shouts"),
            )
            .help(
                "write it in normal case and say why it matters; capitals make every rule \
                 sound equally urgent and the model over-applies them",
            );
        }
    }

    /// The shouted spans of `value`: emphasis words in capitals (next ones merged:
    /// `IMPORTANT NOTE`) and runs of `!!`, leaving out headings, quoted material, identifiers
    /// and lists of constants.
    fn shouts(&self, value: &str) -> Vec<Range<usize>> {
        let quoted = quoted_ranges(value);
        let mut lines = Lines::new(value);
        let mut hits: Vec<Range<usize>> = Vec::new();
        for hit in text::find_all(&self.words.regex, value, true) {
            if !is_quoted(&quoted, &hit)
                && !is_not_emphasis(value, &hit, &mut lines)
                && !in_inline_heading(value, &hit, &self.words.regex)
            {
                hits.push(hit);
            }
        }
        if self.words.bangs {
            hits.extend(bangs(value).filter(|hit| !is_quoted(&quoted, hit)));
        }
        hits.sort_by_key(|hit| hit.start);
        // One finding for words in a row: `IMPORTANT NOTE`, `IMPORTANT: DO NOT`.
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(hits.len());
        for hit in hits {
            match merged.last_mut() {
                Some(last)
                    if last.end <= hit.start
                        && value[last.end..hit.start]
                            .chars()
                            .all(|c| c == ' ' || c == ':') =>
                {
                    last.end = hit.end;
                }
                Some(last) if hit.start < last.end => {}
                _ => merged.push(hit),
            }
        }
        merged
    }
}

/// `!!` and longer runs of `!`, not followed by a word character (`!!str` is a YAML tag,
/// `!!value` JavaScript).
fn bangs(value: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let bytes = value.as_bytes();
    let mut index = 0;
    std::iter::from_fn(move || {
        while index < bytes.len() {
            if bytes[index] != b'!' {
                index += 1;
                continue;
            }
            let start = index;
            while index < bytes.len() && bytes[index] == b'!' {
                index += 1;
            }
            let next = value[index..].chars().next();
            let code = next.is_some_and(|c| c.is_alphanumeric() || "_=(\"'$[{".contains(c));
            if index - start >= 2 && !code {
                return Some(start..index);
            }
        }
        None
    })
}

fn is_quoted(quoted: &[Range<usize>], hit: &Range<usize>) -> bool {
    // The quoted ranges are sorted and do not overlap: a binary search finds the candidate.
    let at = quoted.partition_point(|quote| quote.end <= hit.start);
    quoted
        .get(at)
        .is_some_and(|quote| quote.start <= hit.start && hit.end <= quote.end)
}

/// Text in double quotes on one line (`"…"`, `“…”`): a message the model is to write or a
/// value, not emphasis aimed at the model.
fn quoted_ranges(value: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut open: Option<usize> = None;
    for (at, c) in value.char_indices() {
        match (c, open) {
            ('\n', _) => open = None,
            ('"' | '“', None) => open = Some(at),
            ('"' | '”', Some(start)) => {
                ranges.push(start..at + c.len_utf8());
                open = None;
            }
            _ => {}
        }
    }
    ranges
}

/// Whether the capitals at `hit` are no emphasis: part of a heading, of an identifier or a
/// pseudo-tag, a constant among constants, or owned by `absolute-words` (`MUST NOT`).
fn is_not_emphasis(value: &str, hit: &Range<usize>, lines: &mut Lines<'_>) -> bool {
    let before = value[..hit.start].chars().next_back();
    let mut after_chars = value[hit.end..].chars();
    let after = after_chars.next();
    let after2 = after_chars.next();
    let word = &value[hit.clone()];
    // Identifiers and paths: `READ-ONLY`, `NOTE.md`, `$REQUIRED`, `<IMPORTANT>` (a pseudo-tag,
    // `hidden-instructions` reports it), `level=WARNING`, `x[NOTE]`.
    if before.is_some_and(|c| "-./$<={@#%\\".contains(c))
        || after.is_some_and(|c| "->=}(\\".contains(c))
        || (after.is_some_and(|c| c == '.' || c == '/' || c == ':')
            && after2.is_some_and(char::is_alphanumeric))
    {
        return true;
    }
    // Brackets: a log level in them is a log tag (`[WARNING] 500 items hidden`); any other
    // word is emphasis (`[IMPORTANT]`, `[REQUIRED PRECONDITION]`) unless it indexes something.
    let opens = before == Some('[');
    if opens || after == Some(']') {
        let indexed = opens
            && value[..hit.start - 1]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ']');
        if indexed || LOG_LEVELS.contains(&word) {
            return true;
        }
    }
    // A single quote right around it: an enum value `'REQUIRED'`.
    if before == Some('\'') && after == Some('\'') {
        return true;
    }
    if lines.is_heading(hit.start) {
        return true;
    }
    let previous = previous_word(value, hit.start);
    // `MUST NOT`, `NEVER NOT`, `CANNOT`: `absolute-words` reports the capitals before.
    if word == "NOT" {
        if let Some((prev, gap)) = previous {
            if gap.trim().is_empty() && matches!(prev, "MUST" | "NEVER" | "ALWAYS") {
                return true;
            }
            // Boolean operators: `AND`, `OR`, `NOT` in query syntax.
            if matches!(prev, "AND" | "OR" | "the" | "The" | "a" | "and" | "or") {
                return true;
            }
        }
        let (next, _) = next_word(value, hit.end);
        if matches!(
            next,
            "AND" | "OR" | "IN" | "NULL" | "LIKE" | "EXISTS" | "operator" | "operators"
        ) {
            return true;
        }
    }
    // A value named by its kind: `level WARNING`, `priority: CRITICAL`, `status REQUIRED`.
    if let Some((prev, gap)) = previous {
        let kind = prev.to_lowercase();
        if KINDS.contains(&kind.as_str()) && gap.chars().all(|c| c == ' ' || c == ':' || c == '=') {
            return true;
        }
    }
    // A constant in a list of constants: `INFO, WARNING, ERROR`, `OPTIONAL | REQUIRED`.
    let listed = |neighbour: Option<(&str, &str)>| {
        neighbour.is_some_and(|(word, gap)| {
            is_constant(word) && gap.trim().chars().next().is_some_and(|c| ",|/".contains(c))
        })
    };
    listed(previous) || listed(Some(next_word_with_gap(value, hit.end)))
}

/// Log levels: in brackets they tag a log line, they do not raise the voice.
const LOG_LEVELS: &[&str] = &[
    "DEBUG", "INFO", "NOTICE", "WARN", "WARNING", "ERROR", "CRITICAL", "FATAL",
];

/// Whether the capitals at `hit` sit inside a section label that opens a line or a sentence
/// and is followed by its content on the same line (`WHEN NOT TO USE: for code`,
/// `When NOT to use: …`). The label's other words stand on both sides: one that starts with
/// an emphasis word (`IMPORTANT NOTE:`, `MANDATORY FIRST STEP:`) or ends with one
/// (`Usage WARNING:`) is emphasis, not a heading.
fn in_inline_heading(value: &str, hit: &Range<usize>, words: &Regex) -> bool {
    const MAX_WORDS: usize = 6;
    // Six words fit in this many bytes; looking no further keeps a long line linear.
    const REACH: usize = 100;
    let from = text::floor_char_boundary(value, hit.start.saturating_sub(REACH));
    let head = &value[from..hit.start];
    // The label opens at the line's start or after a sentence's end, within reach.
    let opening = head
        .char_indices()
        .rev()
        .find(|&(at, c)| {
            c == '\n'
                || (matches!(c, '.' | '!' | '?') && head[at + 1..].starts_with(char::is_whitespace))
        })
        .map(|(at, _)| from + at + 1);
    let sentence_start = match opening {
        Some(at) => at,
        None if from == 0 => 0,
        None => return false,
    };
    let Some(label_start) = value[sentence_start..hit.start]
        .find(char::is_alphanumeric)
        .map(|at| sentence_start + at)
    else {
        return false;
    };
    if label_start == hit.start {
        return false;
    }
    let tail = &value[hit.end..text::floor_char_boundary(value, hit.end + REACH)];
    let Some(colon) = tail
        .find([':', '\n', '.', '!', '?'])
        .filter(|&at| tail[at..].starts_with(':'))
    else {
        return false;
    };
    let label = &value[label_start..hit.end + colon];
    let words_after = tail[..colon].trim();
    !words_after.is_empty()
        && label.chars().next().is_some_and(char::is_uppercase)
        && label.split_whitespace().count() <= MAX_WORDS
        && words
            .find_at(value, label_start)
            .is_none_or(|first| first.start() != label_start)
}

/// Words that name a kind of value, so that a word in capitals right after them is a value:
/// `log level WARNING`, `severity CRITICAL`.
const KINDS: &[&str] = &[
    "level", "levels", "severity", "status", "state", "mode", "priority", "type", "kind", "value",
    "role", "scope", "flag", "enum", "category", "label", "tag", "code",
];

/// An all-caps word (two letters or more): a constant, an acronym.
fn is_constant(word: &str) -> bool {
    word.chars().filter(|c| c.is_alphabetic()).count() >= 2 && !word.chars().any(char::is_lowercase)
}

/// The word before `at` and the text between it and `at` (at most a few characters looked at).
fn previous_word(value: &str, at: usize) -> Option<(&str, &str)> {
    let head = &value[..at];
    let end = head.trim_end_matches(|c: char| !c.is_alphanumeric()).len();
    if at - end > 8 {
        return None;
    }
    let start = head[..end]
        .trim_end_matches(|c: char| c.is_alphanumeric() || c == '_')
        .len();
    (start < end).then(|| (&head[start..end], &head[end..]))
}

fn next_word(value: &str, from: usize) -> (&str, Range<usize>) {
    let rest = &value[from..];
    let start = from + (rest.len() - rest.trim_start().len());
    let len = value[start..]
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(value.len() - start);
    (&value[start..start + len], start..start + len)
}

/// The next word after `from`, past a few characters of punctuation, and the text between.
fn next_word_with_gap(value: &str, from: usize) -> (&str, &str) {
    let rest = &value[from..];
    let gap = rest.len()
        - rest
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .len();
    if gap > 8 {
        return ("", "");
    }
    let start = from + gap;
    let len = value[start..]
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(value.len() - start);
    (&value[start..start + len], &value[from..start])
}

/// The lines of a text, found in one pass, and whether each is a heading, worked out once per
/// line: many hits on one long line do not read it again.
struct Lines<'a> {
    value: &'a str,
    starts: Vec<usize>,
    heading: Vec<Option<bool>>,
}

impl<'a> Lines<'a> {
    fn new(value: &'a str) -> Self {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(value.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        let heading = vec![None; starts.len()];
        Lines {
            value,
            starts,
            heading,
        }
    }

    fn is_heading(&mut self, at: usize) -> bool {
        let index = self
            .starts
            .partition_point(|&start| start <= at)
            .saturating_sub(1);
        if let Some(Some(known)) = self.heading.get(index) {
            return *known;
        }
        let start = self.starts.get(index).copied().unwrap_or(0);
        let end = self
            .starts
            .get(index + 1)
            .map_or(self.value.len(), |next| next - 1);
        let heading = is_heading(&self.value[start..end]);
        if let Some(slot) = self.heading.get_mut(index) {
            *slot = Some(heading);
        }
        heading
    }
}

/// Whether a line is a heading: a Markdown heading (`# …`), a label line that ends with `:`
/// and has no lowercase letter (`WHEN TO USE:`, `CRITICAL REQUIREMENTS:`) or is short and in
/// title case (`When NOT to Use:`), or a section title in capitals on a line of its own
/// (`WHEN NOT TO USE`, `READING THE RESULT`).
fn is_heading(line: &str) -> bool {
    let line = line.trim();
    let line = line.trim_start_matches(['-', '*', '•', '>', ' ']).trim();
    if line.starts_with('#') {
        return true;
    }
    let Some(label) = line.trim_end_matches('*').trim_end().strip_suffix(':') else {
        return is_section_title(line);
    };
    let label = label.trim_matches(|c: char| !c.is_alphanumeric());
    if !label.chars().any(char::is_lowercase) {
        return true;
    }
    label.len() <= 60
        && label
            .split_whitespace()
            .filter(|word| word.chars().filter(|c| c.is_alphabetic()).count() >= 3)
            .all(|word| word.chars().next().is_some_and(char::is_uppercase))
}

/// Words that make a line in capitals an order, not a title, when it opens or ends with one
/// (`DO NOT CALL THIS`, `IMPORTANT NOTE`, `READ THIS FIRST ONLY`).
const ORDER_WORDS: &[&str] = &[
    "IMPORTANT",
    "CRITICAL",
    "WARNING",
    "NOTE",
    "MANDATORY",
    "REQUIRED",
    "ABSOLUTELY",
    "ONLY",
    "DO",
    "DON'T",
    "NEVER",
    "ALWAYS",
    "MUST",
    "NOT",
];

/// A section title in capitals on a line of its own: two to six words, no lowercase letter,
/// no sentence end, not opening or ending with an order word.
fn is_section_title(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    (2..=6).contains(&words.len())
        && !line.chars().any(char::is_lowercase)
        && line.chars().any(char::is_alphabetic)
        && !line.ends_with(['.', '!', '?'])
        && ![words[0], words[words.len() - 1]].iter().any(|word| {
            ORDER_WORDS.contains(&word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shouts(value: &str) -> Vec<&str> {
        let words = serde_json::json!([
            "IMPORTANT",
            "CRITICAL",
            "WARNING",
            "NOTE",
            "MANDATORY",
            "REQUIRED",
            "ABSOLUTELY",
            "ONLY",
            "DO NOT",
            "NOT",
            "!!",
        ]);
        let rule = Shouting {
            words: serde_json::from_value(words).unwrap(),
        };
        rule.shouts(value)
            .into_iter()
            .map(|hit| &value[hit])
            .collect()
    }

    #[test]
    fn emphasis_in_capitals_is_flagged() {
        assert_eq!(
            shouts("IMPORTANT: Always use absolute paths."),
            ["IMPORTANT"]
        );
        assert_eq!(shouts("IMPORTANT NOTE: it cannot"), ["IMPORTANT NOTE"]);
        assert_eq!(shouts("IMPORTANT: DO NOT use it"), ["IMPORTANT: DO NOT"]);
        assert_eq!(shouts("Do NOT call it twice."), ["NOT"]);
        assert_eq!(shouts("DO NOT use this tool for edits"), ["DO NOT"]);
        assert_eq!(shouts("THIS IS THE ONLY TOOL FOR IT"), ["ONLY"]);
        assert_eq!(shouts("Run it now!!"), ["!!"]);
        assert_eq!(shouts("**CRITICAL: For any code"), ["CRITICAL"]);
        assert_eq!(shouts("🔗 REQUIRED: the id from start"), ["REQUIRED"]);
        // Bracketed emphasis; a label that opens or ends with an emphasis word.
        assert_eq!(shouts("[IMPORTANT] Read first."), ["IMPORTANT"]);
        assert_eq!(
            shouts("Log in. [REQUIRED PRECONDITION] A token."),
            ["REQUIRED"]
        );
        assert_eq!(shouts("🚨 MANDATORY FIRST STEP: call it"), ["MANDATORY"]);
        assert_eq!(shouts("Slow. Café ☕ WARNING: it is."), ["WARNING"]);
        assert_eq!(shouts("Search. Do NOT use it for writes"), ["NOT"]);
        // A line in capitals that opens or ends with an order word is no section title.
        assert_eq!(shouts("Search.\nDO NOT CALL THIS\n- edits"), ["DO NOT"]);
        assert_eq!(
            shouts("Search.\nIMPORTANT NOTE\nkeep it"),
            ["IMPORTANT NOTE"]
        );
        assert_eq!(shouts("Search.\nUSE THIS ONLY\nfor reads"), ["ONLY"]);
        assert_eq!(shouts("Search.\nNOT FOR WRITES.\n"), ["NOT"]);
    }

    #[test]
    fn headings_identifiers_quotes_and_constants_are_not() {
        for value in [
            "WHEN TO USE:\n- a question",
            "CRITICAL REQUIREMENTS:\n1. keep it",
            "## IMPORTANT\nRead first.",
            "When NOT to Use:\n- one step",
            "Set ONLY_ACTIVE or NOTES_DIR; READ-ONLY mode; see NOTE.md",
            "Use `REQUIRED` here",
            "Level: one of DEBUG, INFO, WARNING, ERROR.",
            "Only events at level WARNING or above; priority: CRITICAL.",
            "Severity CRITICAL | HIGH | LOW",
            "Values 'REQUIRED' or 'OPTIONAL'.",
            "Reply with \"WARNING: logs truncated\" first.",
            "[WARNING] node_modules hidden",
            "[CRITICAL] disk full; args[NOTE] is kept",
            "Search docs. WHEN NOT TO USE: for code.",
            "Search docs.\nWhen NOT to use: code; use grep.",
            "Search docs.\n\nWhen NOT to use:\n- code",
            "<IMPORTANT>do it</IMPORTANT>",
            "You MUST NOT call it.",
            "Supports AND, OR, NOT and quoted phrases; the NOT operation.",
            "Use !!binary for bytes; !!x is true",
            "Only use it for reads. Note the limit.",
            "Search docs.\n\nWHEN NOT TO USE\n- code",
            "Ask.\n\nREADING THE RESULT\n- Declined: go on.",
        ] {
            assert!(shouts(value).is_empty(), "{value}: {:?}", shouts(value));
        }
    }

    #[test]
    fn a_long_line_of_hits_is_read_once() {
        // 100,000 hits on one 700 KB line: the heading check reads the line once.
        let value = "Do NOT x ".repeat(100_000);
        let started = std::time::Instant::now();
        assert_eq!(shouts(&value).len(), 100_000);
        // And with a label in every sentence: each looks at its own few words only.
        let value = "Do NOT x. When NOT to use: y. ".repeat(50_000);
        assert_eq!(shouts(&value).len(), 50_000);
        assert!(started.elapsed().as_secs() < 10);
    }

    #[test]
    fn multibyte_neighbours_do_not_panic() {
        assert_eq!(
            shouts("é IMPORTANTé ☕IMPORTANT☕ !!☕"),
            ["IMPORTANT", "!!"]
        );
    }
}
