//! Derived queries: the words a model would search for a tool with, taken from the tool
//! itself (no author input): its name's words, and the content words of its description's
//! first sentence (no part-of-speech tagger: words of three letters or more that are not
//! function words or tool-talk such as `tool`, `returns`, `given`).

use std::collections::HashSet;

/// Function words and words every tool description uses; they say nothing about what a tool
/// does. Lower case.
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "all",
    "allows",
    "also",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "available",
    "based",
    "be",
    "been",
    "being",
    "both",
    "but",
    "by",
    "can",
    "could",
    "does",
    "each",
    "either",
    "etc",
    "for",
    "from",
    "function",
    "get",
    "gets",
    "given",
    "has",
    "have",
    "how",
    "if",
    "in",
    "including",
    "into",
    "is",
    "it",
    "its",
    "just",
    "may",
    "more",
    "most",
    "must",
    "new",
    "not",
    "of",
    "on",
    "one",
    "only",
    "or",
    "other",
    "our",
    "out",
    "over",
    "provided",
    "provides",
    "return",
    "returns",
    "same",
    "should",
    "so",
    "some",
    "specific",
    "specified",
    "such",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "tool",
    "tools",
    "two",
    "under",
    "use",
    "used",
    "uses",
    "using",
    "via",
    "was",
    "way",
    "were",
    "what",
    "when",
    "where",
    "whether",
    "which",
    "while",
    "who",
    "will",
    "with",
    "within",
    "without",
    "you",
    "your",
];

/// Whether `word` (lower case) carries no meaning for search.
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// The description's first sentence: up to the first `. `, `.` at the end, or blank line, at
/// most 300 characters.
pub fn first_sentence(description: &str) -> &str {
    let text = description.trim_start();
    let mut end = text.len();
    for (index, _) in text.match_indices('.') {
        let after = text[index + 1..].chars().next();
        if after.is_none_or(char::is_whitespace) {
            end = index;
            break;
        }
    }
    if let Some(blank) = text.find("\n\n") {
        end = end.min(blank);
    }
    let mut cut = end.min(300);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text[..cut].trim()
}

/// The words of `text` a query would use: lower-case runs of ASCII letters (and digits
/// after a letter), three characters or more, no stop words, each once, in order.
pub fn content_words(text: &str, limit: usize) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        if out.len() == limit {
            break;
        }
        let word = word.to_ascii_lowercase();
        if word.len() < 3
            || !word.starts_with(|c: char| c.is_ascii_alphabetic())
            || is_stop_word(&word)
            || !seen.insert(word.clone())
        {
            continue;
        }
        out.push(word);
    }
    out
}

/// The words of a tool's own name (not its `mcp__server__` prefix), split on `_`, `-`, `.`
/// and camelCase.
pub fn name_words(tool: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in super::tokens(tool) {
        if !out.contains(&token) {
            out.push(token);
        }
    }
    out
}

/// How many of the first sentence's words a derived query keeps: a model's search is a few
/// words, and more words let other tools' name parts outscore the tool's own.
pub const SENTENCE_WORDS: usize = 4;

/// A word as a model would search with it: the base form of a verb or noun in `-s`
/// (`sends` → `send`, `multiplies` → `multiply`, `labels` → `label`), which tool search's
/// substring match still finds in plural name parts. A light suffix rule, not a stemmer.
pub fn base_form(word: &str) -> String {
    let keep = ["ss", "us", "is", "os", "as"];
    if word.len() <= 3 || keep.iter().any(|end| word.ends_with(end)) {
        return word.to_string();
    }
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for end in ["sses", "xes", "ches", "shes", "zes"] {
        if word.ends_with(end) {
            return word[..word.len() - 2].to_string();
        }
    }
    word.strip_suffix('s').unwrap_or(word).to_string()
}

/// The queries derived from one tool: its name's words, and its first sentence's content
/// words (at most [`SENTENCE_WORDS`], the leading verb in its base form).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Derived {
    pub name: Vec<String>,
    pub sentence: Vec<String>,
}

pub fn derive(tool: &str, description: &str) -> Derived {
    Derived {
        name: name_words(tool),
        sentence: {
            let mut words: Vec<String> = Vec::new();
            let sentence = first_sentence(description);
            // The first word is the verb of most first sentences (`Sends a request`), which
            // a query writes in its base form; the others stay as written.
            let leads = sentence
                .split(|c: char| !c.is_ascii_alphanumeric())
                .find(|word| !word.is_empty())
                .map(str::to_ascii_lowercase);
            for word in content_words(sentence, SENTENCE_WORDS) {
                let word = if Some(&word) == leads.as_ref() {
                    base_form(&word)
                } else {
                    word
                };
                if !words.contains(&word) {
                    words.push(word);
                }
            }
            words
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        let mut sorted = STOP_WORDS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, STOP_WORDS);
        assert!(is_stop_word("the") && !is_stop_word("issue"));
    }

    #[test]
    fn first_sentence_ends_at_a_full_stop_or_blank_line() {
        assert_eq!(
            first_sentence("Read a file (e.g. a.txt). Then more."),
            "Read a file (e.g"
        );
        assert_eq!(first_sentence("Read v1.2 files. More"), "Read v1.2 files");
        assert_eq!(first_sentence("Title\n\nBody."), "Title");
        assert_eq!(first_sentence("No stop"), "No stop");
        assert_eq!(first_sentence("é".repeat(400).as_str()).len(), 300);
    }

    #[test]
    fn derived_queries_keep_content_words() {
        let derived = derive(
            "get_file_contents",
            "Get the contents of a file or directory from a GitHub repository. Long.",
        );
        assert_eq!(derived.name, vec!["get", "file", "contents"]);
        assert_eq!(
            derived.sentence,
            vec!["contents", "file", "directory", "github"]
        );
        assert_eq!(
            derive("multiply", "Multiplies two integers. More.").sentence,
            vec!["multiply", "integers"]
        );
        for (word, base) in [
            ("sends", "send"),
            ("access", "access"),
            ("status", "status"),
            ("searches", "search"),
            ("boxes", "box"),
            ("has", "has"),
        ] {
            assert_eq!(base_form(word), base);
        }
    }
}
