//! Text as the rules read it, the shared piece at the bottom of the stack: matching words and
//! phrases in model-facing text by the catalog's conventions (case-insensitive, whole words by
//! Unicode word boundaries, text in backticks skipped), here; invisible characters, identifier
//! splitting and "did you mean" suggestions in the submodules.

pub mod identifier;
pub mod invisible;
pub mod sentences;
pub mod suggest;

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use regex::{Regex, RegexBuilder};

/// A phrase list whose phrases may name the tool (`call {name}`). The phrases that do not are
/// compiled once; a tool's own regex is compiled only for a text that may hold its name, since
/// elsewhere its named phrases cannot match and the list finds what the rest finds.
#[derive(Debug, Clone)]
pub struct Phrases {
    phrases: Vec<String>,
    case_sensitive: bool,
    names_tool: bool,
    /// The phrases without `{name}` (all of them when none names the tool).
    unnamed: Regex,
}

/// The most phrases one list may hold: a longer list is refused before it is compiled (100,000
/// words took 385 MB only to find the regex too large).
pub const MAX_PHRASES: usize = 1_000;

/// Whether a phrase list is within [`MAX_PHRASES`], and the error when not.
pub fn few_phrases(phrases: &[String]) -> Result<(), String> {
    if phrases.len() > MAX_PHRASES {
        return Err(format!(
            "{} phrases, more than {MAX_PHRASES}",
            phrases.len()
        ));
    }
    Ok(())
}

impl Phrases {
    /// `phrases` compiled; the error says why not (too many, or a regex too large).
    pub fn new(phrases: &[String], case_sensitive: bool) -> Result<Phrases, String> {
        few_phrases(phrases)?;
        Phrases::compile(phrases, case_sensitive).map_err(|error| error.to_string())
    }

    fn compile(phrases: &[String], case_sensitive: bool) -> Result<Phrases, regex::Error> {
        let names_tool = phrases.iter().any(|phrase| phrase.contains("{name}"));
        let unnamed: Vec<String> = phrases
            .iter()
            .filter(|phrase| !phrase.contains("{name}"))
            .cloned()
            .collect();
        Ok(Phrases {
            phrases: phrases.to_vec(),
            case_sensitive,
            names_tool,
            unnamed: phrases_regex(&unnamed, "", case_sensitive)?,
        })
    }

    /// The regex of the phrases for the tool `tool_name`, to search `text` with.
    pub fn regex(&self, tool_name: &str, text: &str) -> Option<Cow<'_, Regex>> {
        if !self.names_tool || !may_hold(text, tool_name, self.case_sensitive) {
            return Some(Cow::Borrowed(&self.unnamed));
        }
        phrases_regex(&self.phrases, tool_name, self.case_sensitive)
            .ok()
            .map(Cow::Owned)
    }
}

/// Whether `text` may hold every word of `name` as the phrase regex matches it. `false` only
/// when it surely does not: an empty name leaves the rest of its phrase to match anything, and
/// in any case only `ſ` and the Kelvin sign fold to ASCII letters outside ASCII.
fn may_hold(text: &str, name: &str, case_sensitive: bool) -> bool {
    let mut words = name.split_whitespace().peekable();
    if words.peek().is_none() {
        return true;
    }
    if case_sensitive {
        return words.all(|word| text.contains(word));
    }
    if !name.is_ascii() || folds_into_ascii(text) {
        return true;
    }
    let text = text.to_ascii_lowercase();
    words.all(|word| text.contains(&word.to_ascii_lowercase()))
}

/// A pre-filter for case-insensitive patterns that each need one of some literals (lower-case
/// ASCII; a space stands for any run of white space, as `\s+` in the patterns): a pattern is
/// compiled and run only on a text that may match it. One case-insensitive search for all the
/// literals at once (compiled on first use), rather than a search a literal over a folded copy.
pub struct AnyOf {
    literals: &'static [&'static str],
    regex: OnceLock<Regex>,
}

impl AnyOf {
    pub const fn new(literals: &'static [&'static str]) -> AnyOf {
        AnyOf {
            literals,
            regex: OnceLock::new(),
        }
    }

    /// Whether `text` holds one of the literals: a pattern that needs one may match it.
    pub fn may_match(&self, text: &str) -> bool {
        self.regex
            .get_or_init(|| {
                let alternatives: Vec<String> = self
                    .literals
                    .iter()
                    .map(|literal| {
                        literal
                            .split(' ')
                            .map(regex::escape)
                            .collect::<Vec<_>>()
                            .join(r"\s+")
                    })
                    .collect();
                Regex::new(&format!("(?i:{})", alternatives.join("|")))
                    .expect("escaped literals compile")
            })
            .is_match(text)
    }
}

/// Whether `text` holds one of the two characters outside ASCII that case-insensitive
/// matching folds to ASCII letters (`ſ` to `s`, the Kelvin sign to `k`).
fn folds_into_ascii(text: &str) -> bool {
    text.contains(['\u{17F}', '\u{212A}'])
}

/// Where each line after the first starts: after `\n`, `\r\n`, or a `\r` alone (YAML's line
/// breaks, and old Mac files: a file that breaks its lines with `\r` is not one long line).
pub fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().filter_map(move |(index, &byte)| {
        let breaks = byte == b'\n' || (byte == b'\r' && bytes.get(index + 1) != Some(&b'\n'));
        breaks.then_some(index + 1)
    })
}

/// The length of the line break that ends `line` (its text and its break): 2 for `\r\n`, 1
/// for `\n` or `\r`, 0 at the end of the text.
pub fn line_break_len(line: &[u8]) -> usize {
    match line {
        [.., b'\r', b'\n'] => 2,
        [.., b'\n' | b'\r'] => 1,
        _ => 0,
    }
}

/// The largest char boundary of `value` at or before `at` (`str::floor_char_boundary` needs
/// a newer Rust than the crate's `rust-version`).
pub fn floor_char_boundary(value: &str, at: usize) -> usize {
    let mut at = at.min(value.len());
    while !value.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Builds a regex matching any of `phrases` as whole words; spaces in a phrase match any run
/// of white space. `{name}` in a phrase stands for `tool_name`. A phrase that is blank (`{name}`
/// where there is no tool: set-level instructions) matches nothing, not the empty string.
pub fn phrases_regex(
    phrases: &[String],
    tool_name: &str,
    case_sensitive: bool,
) -> Result<Regex, regex::Error> {
    let alternatives: Vec<String> = phrases
        .iter()
        .map(|phrase| phrase.replace("{name}", tool_name))
        .filter(|phrase| !phrase.trim().is_empty())
        .map(|phrase| {
            let words: Vec<String> = phrase.split_whitespace().map(regex::escape).collect();
            let body = words.join(r"\s+");
            // `\b` only applies next to a word character; a phrase that starts or ends with
            // punctuation (`!!`) is matched as written.
            let starts_word = phrase.chars().next().is_some_and(is_word_char);
            let ends_word = phrase.chars().last().is_some_and(is_word_char);
            format!(
                "{}{body}{}",
                if starts_word { r"\b" } else { "" },
                if ends_word { r"\b" } else { "" }
            )
        })
        .collect();
    if alternatives.is_empty() {
        // A class no character is in: matches nothing.
        return Regex::new(r"[^\s\S]");
    }
    RegexBuilder::new(&format!("(?:{})", alternatives.join("|")))
        .case_insensitive(!case_sensitive)
        .build()
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Byte ranges of text quoted in backticks (`` `like this` ``, or fenced with several).
pub fn backtick_ranges(text: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let bytes = text.as_bytes();
    let mut index = 0;
    while let Some(offset) = text[index..].find('`') {
        index += offset;
        let run = bytes[index..].iter().take_while(|&&b| b == b'`').count();
        let fence = &text[index..index + run];
        match text[index + run..].find(fence) {
            Some(close) => {
                let end = index + run + close + run;
                ranges.push(index..end);
                index = end;
            }
            None => index += run,
        }
    }
    ranges
}

/// Matches of `regex` in `text` outside backticks. When the regex has a group named `hit`,
/// the match is that group (so a pattern can require context without underlining it).
pub fn find_all(regex: &Regex, text: &str, skip_backticks: bool) -> Vec<Range<usize>> {
    let quoted = if skip_backticks {
        backtick_ranges(text)
    } else {
        Vec::new()
    };
    let inside_quotes = |range: &Range<usize>| {
        quoted
            .iter()
            .any(|quote| quote.start <= range.start && range.end <= quote.end)
    };
    regex
        .captures_iter(text)
        .filter_map(|captures| {
            let hit = captures.name("hit").or_else(|| captures.get(0))?;
            Some(hit.range())
        })
        .filter(|range| !inside_quotes(range))
        .collect()
}

/// `1234567` → `1,234,567`.
pub fn group_digits(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_break_at_lf_crlf_and_a_cr_alone() {
        let starts: Vec<usize> = line_starts("a\nb\r\nc\rd\r").collect();
        assert_eq!(starts, [2, 5, 7, 9]);
        assert_eq!(line_break_len(b"x\r\n"), 2);
        assert_eq!(line_break_len(b"x\r"), 1);
        assert_eq!(line_break_len(b"x"), 0);
    }

    fn words(list: &[&str]) -> Regex {
        let list: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        phrases_regex(&list, "ask_user", false).unwrap()
    }

    #[test]
    fn whole_words_only_case_insensitive() {
        let regex = words(&["always", "must"]);
        let text = "Always check; nevertheless mustard, alwaysOn and `always` stay.";
        let hits: Vec<&str> = find_all(&regex, text, true)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(hits, ["Always"]);
    }

    #[test]
    fn phrases_span_any_white_space_and_name_placeholder() {
        let regex = words(&["do not use", "call {name}"]);
        let text = "Do  not\nuse it; call ask_user first";
        let hits: Vec<&str> = find_all(&regex, text, true)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(hits, ["Do  not\nuse", "call ask_user"]);
    }

    #[test]
    fn a_blank_phrase_matches_nothing() {
        let phrases = vec!["{name}".to_string(), " ".to_string()];
        let regex = phrases_regex(&phrases, "", false).unwrap();
        assert!(find_all(&regex, "use foo wisely", true).is_empty());
        let phrases = vec!["{name}".to_string(), "foo".to_string()];
        let regex = phrases_regex(&phrases, "", false).unwrap();
        let hits: Vec<&str> = find_all(&regex, "use foo wisely", true)
            .into_iter()
            .map(|r| &"use foo wisely"[r])
            .collect();
        assert_eq!(hits, ["foo"]);
    }

    #[test]
    fn phrases_naming_the_tool_find_what_the_whole_list_finds() {
        let list: Vec<String> = ["when", "call {name}"].map(String::from).to_vec();
        let phrases = Phrases::new(&list, false).unwrap();
        let full = phrases_regex(&list, "ask_user", false).unwrap();
        for text in [
            "Call ASK_USER first, when stuck.",
            "Call it when stuck.",
            "Nothing here.",
            // `ſ` folds to `s`: the text holds the name to the regex, not to ASCII.
            "Then call aſk_user.",
            "Call ask_user_twice.",
        ] {
            let regex = phrases.regex("ask_user", text).unwrap();
            assert_eq!(
                find_all(&regex, text, true),
                find_all(&full, text, true),
                "{text}"
            );
        }
        let found = |phrases: &Phrases, name: &str, text: &str| -> Vec<String> {
            let regex = phrases.regex(name, text).unwrap();
            find_all(&regex, text, true)
                .into_iter()
                .map(|range| text[range].to_string())
                .collect()
        };
        // Without a name, `call {name}` is `call`.
        assert_eq!(found(&phrases, "", "You may call later."), ["call"]);
        // Case-sensitive lists look for the name as written.
        let exact = Phrases::new(&list, true).unwrap();
        assert!(found(&exact, "ask_user", "call ASK_USER").is_empty());
        assert_eq!(
            found(&exact, "ask_user", "call ask_user"),
            ["call ask_user"]
        );
    }

    #[test]
    fn the_pre_filter_is_case_insensitive_as_the_patterns_are() {
        static USE: AnyOf = AnyOf::new(&["use"]);
        static USE_OR_CALL: AnyOf = AnyOf::new(&["use", "call"]);
        static AS_OF: AnyOf = AnyOf::new(&["n't", "as of"]);
        assert!(USE.may_match("Never USE it"));
        assert!(USE.may_match("Never uſe it"));
        assert!(!USE_OR_CALL.may_match("Never run it"));
        assert!(USE_OR_CALL.may_match("recall"));
        assert!(AS_OF.may_match("As\u{a0}\n of today"));
        assert!(AS_OF.may_match("DON'T"));
        assert!(!AS_OF.may_match("as-of today, dont"));
        assert!(!AS_OF.may_match("asof"));
    }

    #[test]
    fn backticks_pair_by_fence_length() {
        let text = "a `x` b ``y ` z`` c `unclosed";
        let quoted: Vec<&str> = backtick_ranges(text)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(quoted, ["`x`", "``y ` z``"]);
    }

    #[test]
    fn digits_in_groups_of_three() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(200_000), "200,000");
        assert_eq!(group_digits(1_234_567), "1,234,567");
    }
}
