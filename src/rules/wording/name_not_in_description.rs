//! The check of `name-not-in-description`. Its code, docs and default options are in
//! `rules/wording/name-not-in-description.yaml`.

use std::collections::HashSet;
use std::ops::Range;

use serde::Deserialize;

use super::no_english_keywords::non_latin_script;
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct NameNotInDescription {}

impl Rule for NameNotInDescription {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(node) = tool.description() else {
            return;
        };
        let Some(value) = node.as_str() else {
            return;
        };
        let name_words: Vec<String> = words(tool.name())
            .into_iter()
            .filter(|word| word.chars().filter(char::is_ascii_alphabetic).count() >= 3)
            .collect();
        if name_words.is_empty() {
            return;
        }
        let sentence = first_sentence(value);
        // Empty, or in another script: words cannot be compared across scripts, and
        // `no-english-keywords` reports a description search cannot find.
        if value[sentence.clone()].trim().is_empty()
            || non_latin_script(&value[sentence.clone()]).is_some()
        {
            return;
        }
        if mentions(&value[sentence.clone()], &name_words, keep(&name_words)) {
            return;
        }
        let listed: Vec<String> = name_words.iter().map(|word| format!("`{word}`")).collect();
        ctx.report(
            Field::Description,
            Anchor::Text(node, sentence),
            format!(
                "the description's first sentence uses none of the name's words ({})",
                listed.join(", ")
            ),
        )
        .help(
            "open the description with the words of the name (or rename the tool): tool search \
             scores name words highest, and the first sentence is what a model reads first",
        );
    }
}

/// How many bytes of a lowercased description word can decide [`mentions`] for these name
/// words: a stem is the word less at most 7 bytes at its end, so past the longest name word
/// (and that margin) a description word's bytes neither make two stems equal nor one a
/// prefix of the other. A sentence can be one word of megabytes.
fn keep(name_words: &[String]) -> usize {
    name_words.iter().map(String::len).max().unwrap_or(0) + 16
}

/// Whether `text` uses one of the name words (lowercase): one of its words has the same stem,
/// or a stem of 3+ letters that the name word's starts with or that starts with the name
/// word's (`repo` in `repository`, `config` in `configuration`). Its words are those of
/// [`each_word`], each cut after `keep` bytes, and each whole word too, so that a name word
/// matches a word that case splits cut apart (`latex` in `LaTeX`, `github` in `GitHub`).
/// Stops at the first match; with many name words, each distinct stem is compared once (a
/// sentence can be megabytes of the same words).
fn mentions(text: &str, name_words: &[String], keep: usize) -> bool {
    let name_stems: Vec<String> = name_words.iter().map(|word| stem(word)).collect();
    // A few name stems are compared with each word at once: a look-up would cost more.
    let mut seen: Option<HashSet<String>> = (name_stems.len() > 8).then(HashSet::new);
    let mut stemmed = String::new();
    let mut matches = |word: &str| {
        stem_into(word, &mut stemmed);
        if seen.as_ref().is_some_and(|seen| seen.contains(&stemmed)) {
            return false;
        }
        let found = name_stems.iter().any(|name| {
            *name == stemmed
                || name.len() >= 3
                    && stemmed.len() >= 3
                    && (stemmed.starts_with(name.as_str()) || name.starts_with(stemmed.as_str()))
        });
        if let Some(seen) = &mut seen {
            seen.insert(stemmed.clone());
        }
        found
    };
    if each_word(text, keep, &mut matches) {
        return true;
    }
    // A char lowercases to no fewer than a third of its bytes (`K`, the Kelvin sign, to `k`).
    let cut = keep.saturating_mul(4);
    let mut lowered = String::new();
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .any(|word| {
            let mut end = word.len().min(cut);
            while !word.is_char_boundary(end) {
                end -= 1;
            }
            lowered.clear();
            if word[..end].is_ascii() {
                lowered.push_str(&word[..end]);
                lowered.make_ascii_lowercase();
            } else {
                lowered.extend(word[..end].chars().flat_map(char::to_lowercase));
            }
            matches(&lowered)
        })
}

/// The words of an identifier or a text, lowercased: split on anything that is not a letter
/// or a digit, on camelCase (`listFiles`, `HTTPServer` → `http`, `server`) and between letters
/// and digits.
fn words(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    each_word(text, usize::MAX, |word| {
        found.push(word.to_string());
        false
    });
    found
}

/// [`words`], one at a time in one reused buffer, each cut after `keep` bytes, until `found`
/// says stop (true); whether it did.
fn each_word(text: &str, keep: usize, mut found: impl FnMut(&str) -> bool) -> bool {
    let mut current = String::new();
    let mut previous: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let before = previous.replace(c);
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                if found(&current) {
                    return true;
                }
                current.clear();
            }
            continue;
        }
        if let Some(previous) = before {
            let next = chars.peek().copied();
            let camel = previous.is_lowercase() && c.is_uppercase();
            let acronym_end =
                previous.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase);
            let digits =
                previous.is_ascii_digit() != c.is_ascii_digit() && previous.is_alphanumeric();
            if (camel || acronym_end || digits) && !current.is_empty() {
                if found(&current) {
                    return true;
                }
                current.clear();
            }
        }
        if current.len() < keep {
            if c.is_ascii() {
                current.push(c.to_ascii_lowercase());
            } else {
                current.extend(c.to_lowercase());
            }
        }
    }
    !current.is_empty() && found(&current)
}

/// A crude English stem, enough to match `list_files` with "Lists the file": plural and
/// third-person `-s`/`-es`/`-ies`, `-ing`, `-ed` (with a doubled consonant undone), and a
/// final `e` (`create`, `creates`, `creating`, `created` all give `creat`).
fn stem(word: &str) -> String {
    let mut stemmed = String::new();
    stem_into(word, &mut stemmed);
    stemmed
}

/// [`stem`] into a reused buffer.
fn stem_into(source: &str, word: &mut String) {
    word.clear();
    word.push_str(source);
    let strip = |word: &mut String, suffix: &str, min: usize| {
        if word.len() >= suffix.len() + min && word.ends_with(suffix) {
            word.truncate(word.len() - suffix.len());
            true
        } else {
            false
        }
    };
    if strip(word, "ies", 2) {
        word.push('y');
    } else if ["sses", "shes", "ches", "xes", "zes"]
        .iter()
        .any(|suffix| word.ends_with(suffix))
        && word.len() > 4
    {
        word.truncate(word.len() - 2);
    } else if word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && word.len() > 3
    {
        word.pop();
    }
    if strip(word, "ing", 3) || strip(word, "ed", 3) {
        let bytes = word.as_bytes();
        let n = bytes.len();
        if n >= 2
            && bytes[n - 1] == bytes[n - 2]
            && bytes[n - 1].is_ascii_alphabetic()
            && !matches!(bytes[n - 1], b'l' | b's' | b'z')
        {
            word.pop();
        }
    }
    if word.len() > 3 && word.ends_with('e') {
        word.pop();
    }
    if word.len() > 3 && word.ends_with('y') {
        word.pop();
        word.push('i');
    }
}

/// The byte range of the first prose sentence of `value`, without the white space around
/// it: label lines that open the text (`🎯 Purpose:`, `Key Features:`, `**Overview**`, a lone
/// `Purpose` before a list) are skipped, and so is the list marker after them.
fn first_sentence(value: &str) -> Range<usize> {
    let mut range = sentence_from(value, 0);
    // A few labels at most: a text of nothing but labels keeps its first.
    for _ in 0..3 {
        if !is_label(&value[range.clone()]) {
            break;
        }
        let rest = &value[range.end..];
        let rest = rest.trim_start();
        let marker = rest.len()
            - rest
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start_matches(['.', ')', '-', '*', '•'])
                .trim_start()
                .len();
        let next = value.len() - rest.len() + marker;
        if next >= value.len() {
            break;
        }
        range = sentence_from(value, next);
    }
    range
}

/// Whether a "sentence" is a label that names a section rather than saying anything: up to
/// three capitalized words ending in `:` (`🎯 Purpose:`, `Key Features:`), or one word or a
/// bold or bracketed phrase on its own (`Purpose` before a list, `**Overview**`).
fn is_label(sentence: &str) -> bool {
    let trimmed = sentence.trim().trim_end_matches('*').trim_end();
    let (body, colon) = match trimmed.strip_suffix(':') {
        Some(body) => (body, true),
        None => (trimmed, false),
    };
    let wrapped = body.trim_start().starts_with(['*', '[', '_'])
        && body.trim_end().ends_with(['*', ']', '_']);
    let body = body.trim_matches(|c: char| !c.is_alphanumeric());
    // A label has three words at most: a fourth is enough to say no.
    let words: Vec<&str> = body.split_whitespace().take(4).collect();
    if words.len() > 3 {
        return false;
    }
    let capitalized = words
        .iter()
        .all(|word| word.chars().next().is_some_and(char::is_uppercase));
    if words.is_empty() || body.contains(['.', '!', '?']) || !capitalized {
        return false;
    }
    if colon || wrapped {
        words.len() <= 3
    } else {
        words.len() == 1 && !sentence.trim_end().ends_with(['.', '!', '?'])
    }
}

/// The first sentence of `value` from `from` on. It ends at `.`, `!` or `?` followed by white
/// space or the end (not after `e.g.`, `i.e.`, `etc.`, `vs.` or a single letter, and not
/// inside `v1.2` or a URL, where no space follows), at a blank line, at a line that ends with
/// `:`, or before a line that opens a list item or a heading. A Markdown heading that opens
/// the text is skipped.
fn sentence_from(value: &str, from: usize) -> Range<usize> {
    let mut start = from + (value[from..].len() - value[from..].trim_start().len());
    // A heading line first (`# Search`): the sentence is what follows it.
    while value[start..].starts_with('#') {
        let Some(end) = value[start..].find('\n') else {
            break;
        };
        let rest = &value[start + end..];
        start = start + end + (rest.len() - rest.trim_start().len());
    }
    let text = &value[start..];
    let mut end = text.len();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, next)| next);
        let ends = match c {
            '.' | '!' | '?' | '。' | '！' | '？' => {
                // A full-width mark ends a sentence without a space after it.
                let spaced = next.is_none_or(char::is_whitespace) || !c.is_ascii();
                spaced && (c != '.' || !is_abbreviation(&text[..at]))
            }
            ':' => next == Some('\n') || next == Some('\r'),
            '\n' => {
                let rest = text[at + 1..].trim_start_matches([' ', '\t']);
                rest.starts_with(['\n', '\r', '-', '*', '•', '#'])
                    || rest.chars().next().is_some_and(|c| c.is_ascii_digit())
                        && rest
                            .trim_start_matches(|c: char| c.is_ascii_digit())
                            .starts_with(['.', ')'])
            }
            _ => false,
        };
        if ends {
            end = at + c.len_utf8();
            break;
        }
    }
    let sentence = text[..end].trim_end();
    start..start + sentence.len()
}

/// Whether the text before a `.` ends with an abbreviation: `e.g`, `i.e`, `etc`, `vs`, `approx`,
/// or single letters (an initial, `U.S`).
fn is_abbreviation(before: &str) -> bool {
    let word: String = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '.')
        .collect::<Vec<char>>()
        .into_iter()
        .rev()
        .collect();
    let lower = word.to_lowercase();
    matches!(
        lower.as_str(),
        "e.g" | "i.e" | "etc" | "vs" | "approx" | "incl" | "cf" | "ex" | "eg" | "ie" | "no"
    ) || lower
        .split('.')
        .all(|part| part.chars().filter(|c| c.is_alphabetic()).count() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentence(value: &str) -> &str {
        &value[first_sentence(value)]
    }

    #[test]
    fn first_sentences() {
        assert_eq!(sentence("Read a file. Then more."), "Read a file.");
        assert_eq!(
            sentence("Use e.g. v1.2 of https://x.io/a.b now. Next."),
            "Use e.g. v1.2 of https://x.io/a.b now."
        );
        assert_eq!(sentence("\n  First line\n\nSecond"), "First line");
        assert_eq!(sentence("Search for:\n- a\n- b"), "Search for:");
        assert_eq!(sentence("Lists items\n- one"), "Lists items");
        assert_eq!(
            sentence("Wrapped over\ntwo lines. Next"),
            "Wrapped over\ntwo lines."
        );
        assert_eq!(sentence("# Search\nFind docs. More"), "Find docs.");
        assert_eq!(sentence("查询天气。更多"), "查询天气。");
        assert_eq!(sentence("ends with dot."), "ends with dot.");
        assert_eq!(
            sentence("Returns the U.S. president. More"),
            "Returns the U.S. president."
        );
    }

    #[test]
    fn label_lines_are_not_the_first_sentence() {
        for (value, first) in [
            (
                "🎯 Purpose:
Create a dashboard. More",
                "Create a dashboard.",
            ),
            (
                "🛡️ Guardrails:

- Never drop a table.",
                "Never drop a table.",
            ),
            (
                "Purpose
1. Render a chart.
2. Save it.",
                "Render a chart.",
            ),
            (
                "**Overview**

Render a chart. More",
                "Render a chart.",
            ),
            (
                "[Summary] Render a chart. More",
                "[Summary] Render a chart.",
            ),
            (
                "Key Features:
Fast. More",
                "Fast.",
            ),
            // Prose, not labels: a lead-in, a sentence, a lowercase word.
            (
                "Search for:
- a
- b",
                "Search for:",
            ),
            (
                "Lists items
- one",
                "Lists items",
            ),
            (
                "Render.
More",
                "Render.",
            ),
            ("Purpose:", "Purpose:"),
        ] {
            assert_eq!(sentence(value), first, "{value:?}");
        }
    }

    #[test]
    fn identifier_words() {
        assert_eq!(words("list_files"), ["list", "files"]);
        assert_eq!(
            words("getHTTPServer2Config"),
            ["get", "http", "server", "2", "config"]
        );
        assert_eq!(
            words("mcp__github__create-issue.v2"),
            ["mcp", "github", "create", "issue", "v", "2"]
        );
    }

    #[test]
    fn stems_match_inflections() {
        for (a, b) in [
            ("list", "lists"),
            ("file", "files"),
            ("create", "creating"),
            ("create", "created"),
            ("search", "searches"),
            ("get", "getting"),
            ("query", "queries"),
            ("run", "running"),
            ("fetch", "fetches"),
            ("status", "status"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} {b}");
        }
        let mentioned = |word: &str| {
            let text = "Repository configuration";
            mentions(text, &[word.to_string()], usize::MAX)
        };
        assert!(mentioned("repo"));
        assert!(mentioned("config"));
        assert!(!mentioned("branch"));
        // Each name word counts, whichever comes first; so does a whole word split by case.
        let name = words("mcp_repo_branch");
        assert!(mentions("A branch.", &name, keep(&name)));
        assert!(mentions("Render LaTeX.", &words("latex"), usize::MAX));
        assert!(!mentions("Render LaTeX.", &words("markdown"), usize::MAX));
    }

    #[test]
    fn words_cut_after_keep_bytes_answer_as_whole_words() {
        let long = |stem: &str, tail: &str| format!("{stem}{}", tail.repeat(200));
        let texts = [
            long("Repository", "ies"),
            long("CONFIG", "\u{212a}"),
            long("list", "ing"),
            format!("{} lists", long("x", "ab")),
            long("Σearch", "σ"),
            "Lists the files".to_string(),
        ];
        for name in [
            "repo_tool",
            "config",
            "list_files",
            "search",
            "repositoryiesies",
        ] {
            let name_words = words(name);
            for text in &texts {
                let keep = keep(&name_words);
                assert!(!each_word(text, keep, |word| word.len() > 4 * keep));
                for word in &name_words {
                    let word = std::slice::from_ref(word);
                    assert_eq!(
                        mentions(text, word, keep),
                        mentions(text, word, usize::MAX),
                        "{word:?} in {text:.40}"
                    );
                }
            }
        }
        let repo = words("repo");
        assert!(mentions(&long("Repository", "ies"), &repo, keep(&repo)));
    }
}
