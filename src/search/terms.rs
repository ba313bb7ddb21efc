//! How names, queries and descriptions become the terms the engines match: Claude Code's name
//! split and whole-word test, and BM25's tokenizer.

use foldhash::{HashSet, HashSetExt};

/// A query's distinct terms, in order (as [`Engine::Bm25`] scores them).
pub fn query_terms(query: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    tokens(query)
        .into_iter()
        .filter(|term| seen.insert(term.clone()))
        .collect()
}

/// Claude Code's name split: `mcp__server__tool_name` on `__` and `_`; other names on
/// camelCase and `_`; lower-cased, empty parts dropped.
pub fn name_parts(name: &str) -> (Vec<String>, bool) {
    if let Some(rest) = name.strip_prefix("mcp__") {
        let parts = rest
            .to_lowercase()
            .split("__")
            .flat_map(|part| part.split('_').map(str::to_string).collect::<Vec<_>>())
            .filter(|part| !part.is_empty())
            .collect();
        return (parts, true);
    }
    let mut spaced = String::with_capacity(name.len() + 4);
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() && previous_lower {
            spaced.push(' ');
        }
        previous_lower = c.is_ascii_lowercase();
        spaced.push(if c == '_' { ' ' } else { c });
    }
    let parts = spaced
        .to_lowercase()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    (parts, false)
}

/// The lower-case name without its `mcp__server__` prefix.
pub(super) fn bare_name(name: &str) -> String {
    let lower = name.to_lowercase();
    match lower.strip_prefix("mcp__") {
        Some(rest) => rest
            .split_once("__")
            .map_or(rest, |(_, tool)| tool)
            .to_string(),
        None => lower,
    }
}

/// JavaScript's `\w` (without the `u` flag): ASCII letters, digits and `_`.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The runs of word characters of a lower-case text.
pub(super) fn words(text: &str) -> HashSet<String> {
    text.split(|c: char| !is_word(c))
        .filter(|word| !word.is_empty())
        .map(str::to_string)
        .collect()
}

/// `\bterm\b` in `text` (both lower-case), as JavaScript's `RegExp` tests it.
pub(super) fn whole_word(term: &str, text: &str, words: &HashSet<String>) -> bool {
    if term.is_empty() {
        return false;
    }
    if term.chars().all(is_word) {
        return words.contains(term);
    }
    let first_word = term.chars().next().is_some_and(is_word);
    let last_word = term.chars().last().is_some_and(is_word);
    text.match_indices(term).any(|(start, _)| {
        let before = text[..start].chars().next_back();
        let after = text[start + term.len()..].chars().next();
        // `\b` holds between a word and a non-word character (or the text's edge).
        let left = before.is_some_and(is_word) != first_word;
        let right = after.is_some_and(is_word) != last_word;
        left && right
    })
}

/// BM25's tokenizer: runs of letters and digits, split again where a lower-case letter meets
/// an upper-case one (`listIssues` → `list`, `issues`), lower-cased.
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    // Where the token being read starts.
    let mut start = None;
    let mut previous_lower = false;
    for (at, c) in text.char_indices() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && previous_lower {
                out.extend(start.map(|start| lower_case(&text[start..at])));
                start = Some(at);
            }
            start.get_or_insert(at);
            previous_lower = c.is_lowercase();
        } else {
            previous_lower = false;
            out.extend(start.take().map(|start| lower_case(&text[start..at])));
        }
    }
    out.extend(start.map(|start| lower_case(&text[start..])));
    out
}

/// A token lower-cased character by character (a final `Σ` stays `σ`): one copy for ASCII.
fn lower_case(token: &str) -> String {
    if token.is_ascii() {
        token.to_ascii_lowercase()
    } else {
        token.chars().flat_map(char::to_lowercase).collect()
    }
}
