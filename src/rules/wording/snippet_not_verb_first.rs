//! The check of `snippet-not-verb-first`. Its code, docs and default options are in
//! `rules/wording/snippet-not-verb-first.yaml`.

use std::ops::Range;

use serde::Deserialize;

use super::helpers::Words;
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SnippetNotVerbFirst {
    words: Words,
}

impl Rule for SnippetNotVerbFirst {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let name = tool.name();
        for text in tool.texts(Field::Snippet) {
            let value = text.value();
            let Some((hit, what)) = self.opener(value, name) else {
                continue;
            };
            let opener = value[hit.clone()].trim_matches('`').to_string();
            let message = match what {
                Opener::Name => format!("snippet starts with the tool's own name `{opener}`"),
                Opener::Word => format!("snippet starts with `{opener}`, not a verb"),
            };
            ctx.report(Field::Snippet, Anchor::Text(text.node, hit), message)
                .help(
                    "start with a verb that says what the tool does (\"Ask the user to choose \
                     …\", \"Search the manual for …\"); hosts render the snippet right after \
                     the name (`- name: snippet`)",
                );
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opener {
    Name,
    Word,
}

impl SnippetNotVerbFirst {
    /// The snippet's opening words when they are a listed opener or the tool's own name.
    fn opener(&self, value: &str, name: &str) -> Option<(Range<usize>, Opener)> {
        let start = value.len() - value.trim_start().len();
        let rest = &value[start..];
        if let Some(at) = name_first(rest, name) {
            return Some((start + at.start..start + at.end, Opener::Name));
        }
        if !rest.starts_with(char::is_alphabetic) {
            return None;
        }
        let found = self.words.0.find(rest)?;
        // The opener is the snippet's first words, ended by white space or the end: `A/B
        // tests` and `It's` are not the article or the pronoun alone.
        let after = rest[found.end()..].chars().next();
        (found.start() == 0 && after.is_none_or(char::is_whitespace))
            .then(|| (start..start + found.end(), Opener::Word))
    }
}

/// Where `rest` (the snippet from its first character) opens with the tool's name: a compound
/// identifier (`search_docs`, `listFiles`) in any case, or in backticks; a plain word such as
/// `read` or `find` only where it is the subject or a label (`read: …`, `find returns …`),
/// because as the first word it is as often the verb the snippet should start with.
fn name_first(rest: &str, name: &str) -> Option<Range<usize>> {
    if name.is_empty() {
        return None;
    }
    let quoted = rest.starts_with('`');
    let from = usize::from(quoted);
    let word_end = rest[from..]
        .find(|c: char| !(c.is_alphanumeric() || "_-.".contains(c)))
        .map_or(rest.len(), |at| from + at);
    let word = rest[from..word_end].trim_end_matches('.');
    if word.is_empty() || !word.eq_ignore_ascii_case(name) {
        return None;
    }
    let end = from + word.len();
    if quoted {
        return rest[end..].starts_with('`').then_some(0..end + 1);
    }
    let compound = name.chars().any(|c| !c.is_alphabetic() || c.is_uppercase())
        && name.chars().any(char::is_lowercase);
    let after = rest[end..].trim_start();
    let next: String = after
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect::<String>()
        .to_lowercase();
    let label = rest[end..].starts_with([':', '—', '–']) || rest[end..].starts_with(" - ");
    let subject = SUBJECT_VERBS.contains(&next.as_str());
    (compound || label || subject).then_some(0..end)
}

/// Verbs that make a plain-word name the subject: `read returns …`, `find is …`.
const SUBJECT_VERBS: &[&str] = &[
    "is", "are", "can", "will", "lets", "allows", "enables", "provides", "returns", "gives",
    "helps", "performs", "offers", "supports", "accepts", "takes", "does", "handles", "exposes",
    "tool", "function", "command",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text;

    fn rule() -> SnippetNotVerbFirst {
        let words: Vec<String> = [
            "a", "an", "the", "this", "that", "it", "tool", "function", "helper", "utility",
            "wrapper", "used",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        SnippetNotVerbFirst {
            words: Words(text::phrases_regex(&words, "", false).unwrap()),
        }
    }

    fn opener<'a>(value: &'a str, name: &str) -> Option<&'a str> {
        rule().opener(value, name).map(|(hit, _)| &value[hit])
    }

    #[test]
    fn listed_openers_and_the_name_are_flagged() {
        assert_eq!(opener("The files of a folder", "ls"), Some("The"));
        assert_eq!(opener("  a question for the user", "ask"), Some("a"));
        assert_eq!(opener("Tool for reading files", "read"), Some("Tool"));
        assert_eq!(opener("Used to search docs", "search"), Some("Used"));
        assert_eq!(
            opener("search_docs over the manual", "search_docs"),
            Some("search_docs")
        );
        assert_eq!(opener("`read` file contents", "read"), Some("`read`"));
        assert_eq!(opener("read: file contents", "read"), Some("read"));
        assert_eq!(opener("Find returns matching paths", "find"), Some("Find"));
        assert_eq!(
            opener("listFiles in a folder", "listFiles"),
            Some("listFiles")
        );
    }

    #[test]
    fn verbs_are_not() {
        for (value, name) in [
            ("Read file contents", "read"),
            ("Find files by glob pattern", "find"),
            ("Search the docs", "search_docs"),
            ("List directory contents", "ls"),
            ("Update a record", "update"),
            ("Thematic search of the docs", "search"),
            ("A/B test two prompts", "ab"),
            ("It's not a verb but skipped", "x"),
            ("Ask the user a question", "a"),
            ("Run search_docs first", "search_docs"),
            ("", "x"),
            ("✓ Check a box", "check"),
        ] {
            assert_eq!(opener(value, name), None, "{value}");
        }
    }
}
