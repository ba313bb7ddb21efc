//! Reading prose in model-facing text, shared by the wording checks: the word after a place,
//! where a paragraph or bullet starts, where a tool name is mentioned.

use std::borrow::Cow;
use std::ops::Range;

use regex::Regex;
use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::{Text, Tool, ToolSet};
use crate::rule::Ctx;
use crate::text;

/// A `words` option: whole words or phrases in any case, compiled when the options are read
/// (so a bad list is a config error).
#[derive(Debug)]
pub struct Words(pub Regex);

impl<'de> Deserialize<'de> for Words {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let words = Vec::<String>::deserialize(deserializer)?;
        if words.iter().all(|word| word.trim().is_empty()) {
            return Err(serde::de::Error::custom("give at least one word or phrase"));
        }
        text::few_phrases(&words)
            .map_err(|error| serde::de::Error::custom(format!("invalid words: {error}")))?;
        text::phrases_regex(&words, "", false)
            .map(Words)
            .map_err(|error| serde::de::Error::custom(format!("invalid words: {error}")))
    }
}

/// A phrase list that may name the tool (`call {name}`): checked when the options are read.
#[derive(Debug)]
pub struct NamedPhrases(text::Phrases);

impl<'de> Deserialize<'de> for NamedPhrases {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let phrases = Vec::<String>::deserialize(deserializer)?;
        if phrases.iter().all(|phrase| phrase.trim().is_empty()) {
            return Err(serde::de::Error::custom("give at least one phrase"));
        }
        text::Phrases::new(&phrases, false)
            .map(NamedPhrases)
            .map_err(|error| serde::de::Error::custom(format!("invalid words: {error}")))
    }
}

impl NamedPhrases {
    /// The phrases for the tool `tool_name`, to search `text` with.
    pub fn regex(&self, tool_name: &str, text: &str) -> Option<Cow<'_, Regex>> {
        self.0.regex(tool_name, text)
    }
}

/// Every text field a word rule reads, besides the set-level instructions.
const TEXT_FIELDS: [Field; 5] = [
    Field::Description,
    Field::Snippet,
    Field::Guidelines,
    Field::InputSchema,
    Field::Results,
];

/// Calls `check` on every model-facing text of `tool`.
pub fn for_each_tool_text(
    tool: &Tool<'_>,
    ctx: &mut Ctx<'_>,
    mut check: impl FnMut(&Text<'_>, &mut Ctx<'_>),
) {
    for field in TEXT_FIELDS {
        for text in tool.texts(field) {
            check(&text, ctx);
        }
    }
}

/// Calls `check` on the set-level instructions of `set`, if it has any.
pub fn for_set_instructions(
    set: &ToolSet<'_>,
    ctx: &mut Ctx<'_>,
    check: impl FnOnce(&Text<'_>, &mut Ctx<'_>),
) {
    if let Some(instructions) = set.instructions {
        let text = Text {
            field: Field::Instructions,
            node: &instructions.value,
        };
        check(&text, ctx);
    }
}

/// The word after `from` (skipping white space) and its range; empty when punctuation or the
/// end comes first.
pub fn word_after(value: &str, from: usize) -> (&str, Range<usize>) {
    let rest = &value[from..];
    let skipped = rest.len() - rest.trim_start().len();
    let start = from + skipped;
    let len = value[start..]
        .find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
        .unwrap_or(value.len() - start);
    (&value[start..start + len], start..start + len)
}

/// Where the paragraph or list item holding byte `at` starts: after the last blank line, or at
/// the last line that opens a bullet, a numbered item or a heading, whichever is later.
pub fn paragraph_start(value: &str, at: usize) -> usize {
    let mut start = 0;
    let mut line_start = 0;
    for line in value[..at].split_inclusive('\n') {
        let body = line.trim();
        // The line of `at` is cut at `at`: white space before it is no blank line.
        if body.is_empty() && line.ends_with('\n') {
            start = line_start + line.len();
        } else if opens_item(body) {
            start = line_start;
        }
        line_start += line.len();
    }
    start
}

/// A line that starts a list item or a heading: `- `, `* `, `+ `, `• `, `1. `, `2) `, `# `.
fn opens_item(line: &str) -> bool {
    if let Some(rest) = line.strip_prefix(['-', '*', '+', '•', '#']) {
        return rest.starts_with([' ', '\t', '#']) || rest.is_empty();
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && line[digits..].starts_with([')', '.'])
}

/// Whether `c` continues an identifier such as a tool name (`read_file`, `list-connections`).
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// Byte ranges where `name` is written as a whole identifier in `text` (also inside
/// backticks, where names usually are): `fill` in "use fill()" but not in "fill-in" or
/// "autofill". A `.` right after counts as a boundary unless a word goes on (`requests.get`).
pub fn name_mentions(text: &str, name: &str) -> Vec<Range<usize>> {
    if name.is_empty() {
        return Vec::new();
    }
    text.match_indices(name)
        .map(|(start, _)| start..start + name.len())
        .filter(|range| {
            let before = text[..range.start].chars().next_back();
            let mut after = text[range.end..].chars();
            let next = after.next();
            let dotted = next == Some('.') && after.next().is_some_and(char::is_alphanumeric);
            !before.is_some_and(is_name_char) && !next.is_some_and(is_name_char) && !dotted
        })
        .collect()
}

/// Byte ranges of the identifiers of `text`, by the boundaries of [`name_mentions`]: runs of
/// letters, digits, `_` and `-`, joined by a `.` between word characters (`requests.get`).
/// Looking each up in a set of names finds every tool mentioned in one pass.
pub fn identifiers(text: &str) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut start: Option<usize> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, next)| next);
        let joins = c == '.' && start.is_some() && next.is_some_and(char::is_alphanumeric);
        match (is_name_char(c) || joins, start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                found.push(from..at);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(from) = start {
        found.push(from..text.len());
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_end_at_blank_lines_and_items() {
        let text = "Intro names read_file.\n\n- one item\n  goes on\n- two\n3. three\n# Head\nbody";
        let start_of = |needle: &str| {
            let at = text.find(needle).unwrap();
            &text[paragraph_start(text, at)..at]
        };
        assert_eq!(start_of("goes"), "- one item\n  ");
        assert_eq!(start_of("two"), "- ");
        assert_eq!(start_of("three"), "3. ");
        assert_eq!(start_of("body"), "# Head\n");
        assert_eq!(start_of("names"), "Intro ");
    }

    #[test]
    fn names_are_whole_identifiers() {
        let text = "use fill() or `fill`, not fill-in, autofill or fill_all; requests.get. fill.";
        let found = |name: &str| name_mentions(text, name).len();
        assert_eq!(found("fill"), 3);
        assert_eq!(found("requests.get"), 1);
        assert_eq!(found("requests"), 0);
        assert_eq!(found(""), 0);
        let words: Vec<&str> = identifiers(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(
            words,
            [
                "use",
                "fill",
                "or",
                "fill",
                "not",
                "fill-in",
                "autofill",
                "or",
                "fill_all",
                "requests.get",
                "fill"
            ]
        );
    }
}
