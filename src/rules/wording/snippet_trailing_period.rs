//! The check of `snippet-trailing-period`. Its code, docs and default options are in
//! `rules/wording/snippet-trailing-period.yaml`.

use serde::Deserialize;

use crate::diagnostic::{Edit, Field};
use crate::normalize::{Text, Tool};
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SnippetTrailingPeriod {
    /// Words whose own period ends the snippet (`etc.`), compared without case.
    abbreviations: Vec<String>,
}

impl Rule for SnippetTrailingPeriod {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        for text in tool.texts(Field::Snippet) {
            let value = text.value();
            let Some(at) = self.trailing_period(value) else {
                continue;
            };
            let edit = removal(&text, at, &ctx.file.text);
            let help = if one_sentence(&value[..at]) {
                "drop the period: hosts render the snippet as the tail of a list item \
                 (`- name: snippet`), a phrase rather than a sentence"
            } else {
                "make the snippet one phrase without a closing period: hosts render it as the \
                 tail of a list item (`- name: snippet`); say the rest in the description or \
                 the guidelines"
            };
            let finding = ctx
                .report(
                    Field::Snippet,
                    Anchor::Text(text.node, at..at + 1),
                    "snippet ends with a period",
                )
                .help(help);
            if let Some(edit) = edit {
                finding.fix(vec![edit]);
            }
        }
    }
}

impl SnippetTrailingPeriod {
    /// The byte offset of the period that ends `value` (after trailing white space), unless it
    /// belongs to an ellipsis (`...`) or an abbreviation (`etc.`, `e.g.`).
    fn trailing_period(&self, value: &str) -> Option<usize> {
        let body = value.trim_end();
        let before = body.strip_suffix('.')?;
        if before.trim().is_empty() || before.ends_with('.') {
            return None;
        }
        // The last word, with its inner periods (`e.g`, `i.e`).
        let word_start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '.'))
            .map_or(0, |at| {
                at + before[at..].chars().next().map_or(1, char::len_utf8)
            });
        let word = &before[word_start..];
        let abbreviation = self
            .abbreviations
            .iter()
            .any(|known| known.trim_end_matches('.').eq_ignore_ascii_case(word))
            // A dotted abbreviation (`e.g.`, `U.S.`) or a single letter (`Plan B.` aside,
            // an initial such as `J.`) is not a sentence end worth flagging.
            || (word.contains('.') && word.split('.').all(|part| part.chars().count() <= 2));
        (!abbreviation).then_some(before.len())
    }
}

/// The edit that deletes the period, when that cannot change the snippet's meaning or type:
/// the snippet is one sentence of more than one word (a YAML plain scalar of one word could
/// become a number or a boolean), and the source holds the period as written.
fn removal(text: &Text<'_>, at: usize, source: &str) -> Option<Edit> {
    let value = text.value();
    let before = value[..at].trim();
    if !one_sentence(before) || !before.contains(char::is_whitespace) {
        return None;
    }
    let span = text.node.source_range(source, at..at + 1);
    (source.get(span.clone())? == ".").then(|| Edit {
        span,
        replacement: String::new(),
    })
}

/// Whether `text` (the snippet before its last period) is one sentence: no `.`, `!`, `?` or
/// `;` followed by white space.
fn one_sentence(text: &str) -> bool {
    let text = text.trim();
    !text.char_indices().any(|(i, c)| {
        matches!(c, '.' | '!' | '?' | ';')
            && text[i + c.len_utf8()..].starts_with(char::is_whitespace)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule() -> SnippetTrailingPeriod {
        SnippetTrailingPeriod {
            abbreviations: ["etc", "vs", "approx", "misc", "incl", "e.g.", "i.e."]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        }
    }

    #[test]
    fn a_sentence_end_is_flagged() {
        let rule = rule();
        assert_eq!(rule.trailing_period("Read file contents."), Some(18));
        assert_eq!(rule.trailing_period("Read a file.\n"), Some(11));
        assert_eq!(rule.trailing_period("Ask the user (once)."), Some(19));
        assert_eq!(rule.trailing_period("Löschen Sie die Datei."), Some(22));
    }

    #[test]
    fn ellipses_and_abbreviations_are_not() {
        let rule = rule();
        for value in [
            "Read file contents",
            "Search files...",
            "Search files…",
            "Run commands (ls, grep, etc.)",
            "Run commands such as ls, grep etc.",
            "Compare two files, e.g.",
            "Compare A vs.",
            "Move to the U.S.",
            ".",
            "  . ",
            "",
        ] {
            assert_eq!(rule.trailing_period(value), None, "{value}");
        }
    }
}
