//! What keeps a match of `hidden-instructions` from counting: a negation before it, a quote
//! around it, or words after it that make it a policy, a claim or a defence.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::patterns::{FILE, regex};

/// `never tell the user a schedule type is unsupported`: a false statement forbidden, not
/// something hidden. What follows is a claim about something other than the model's own doing
/// (not `you`, `we`, `this`, `it`), stated in the present (`is`, `are`).
pub(super) fn forbids_a_claim(after: &str) -> bool {
    let clause = after
        .split(['.', ';', ',', ':', '!', '?'])
        .next()
        .unwrap_or_default();
    let mut words: Vec<&str> = clause.split_whitespace().take(7).collect();
    if words.first() == Some(&"that") {
        words.remove(0);
    }
    let own_doing = words.first().is_none_or(|word| {
        matches!(
            *word,
            "you" | "we" | "i" | "this" | "it" | "about" | "what" | "anything" | "everything"
        )
    });
    !own_doing
        && words
            .iter()
            .skip(1)
            .any(|word| matches!(*word, "is" | "are" | "isn't" | "aren't"))
}

/// `do not notify the user more than once an hour`, `never alert the user for routine runs`:
/// how often a notification goes out, not something kept from the user. A notification is
/// concealment when nothing qualifies it (`do not notify the user.`) or it is about this
/// (`… about this`, `… that`), and always after `without`.
pub(super) fn notification_policy(found: &str, after: &str) -> bool {
    let notification = ["notif", "alert", "warn"]
        .iter()
        .any(|verb| found.contains(verb));
    if !notification || found.starts_with("without") {
        return false;
    }
    let concealed = after.is_empty()
        || after.starts_with(['.', ';', ',', '!', ':', ')'])
        || [
            " about th",
            " of th",
            " about it",
            " of it",
            " that",
            " either",
            " yet",
        ]
        .iter()
        .any(|next| after.starts_with(next));
    !concealed
}

/// Words after an `ignore … instructions` that make it a defence: instructions *in* a page,
/// a result or a file.
pub(super) fn about_other_content(after: &str) -> bool {
    let next = after.trim_start().split(' ').next().unwrap_or_default();
    matches!(
        next,
        "in" | "from"
            | "within"
            | "inside"
            | "contained"
            | "found"
            | "embedded"
            | "that"
            | "which"
            | "coming"
            | "returned"
            | "of"
    )
}

/// Whether `range` of the folded text names a private file, not a public neighbour:
/// `~/.ssh/config`, `known_hosts`, `id_rsa.pub`, `.env.example`, `process.env`.
pub(super) fn names_private_file(norm: &str, range: Range<usize>) -> bool {
    let Some(part) = norm.get(range.clone()) else {
        return false;
    };
    FILE.find_iter(part).any(|found| {
        let name = found.as_str();
        let before = part[..found.start()].chars().next_back();
        if let Some(rest) = name.strip_prefix(".ssh") {
            let file = rest.trim_start_matches('/');
            return !(file.ends_with(".pub")
                || matches!(
                    file,
                    "config" | "known_hosts" | "authorized_keys" | "environment"
                ));
        }
        if name.starts_with("id_") {
            return !name.ends_with(".pub");
        }
        if let Some(rest) = name.strip_prefix(".env") {
            let word_before = before.is_some_and(|c| c.is_alphanumeric() || c == '_');
            let example = matches!(
                rest.trim_start_matches('.'),
                "example" | "sample" | "template" | "dist" | "defaults" | "schema" | "tpl"
            );
            return !word_before && !example;
        }
        true
    })
}

/// Whether the words just before `at` negate the instruction that starts there: `do not
/// include the .env file`, `never send ~/.ssh keys`.
pub(super) fn negated(norm: &str, at: usize) -> bool {
    let mut start = at.saturating_sub(40);
    while !norm.is_char_boundary(start) {
        start -= 1;
    }
    let before = &norm[start..at];
    // Only the clause the instruction is in.
    let clause = before
        .rfind(['.', ';', '!', '?', ',', ':'])
        .map_or(before, |cut| &before[cut + 1..]);
    static NEG: LazyLock<Regex> = LazyLock::new(|| {
        regex(
            r"\b(?:do not|don't|dont|never|must not|mustn't|should not|shouldn't|cannot|can't|avoid|refrain from|not|no)\b",
        )
    });
    NEG.is_match(clause)
}

/// A tag written as quoted material: in backticks or quotes (`` `<system>` ``, `"<important>"`).
pub(super) fn quoted(norm: &str, start: usize, end: usize) -> bool {
    let before = norm[..start].chars().next_back();
    let after = norm[end..].chars().next();
    let quote = |c: Option<char>| c.is_some_and(|c| matches!(c, '`' | '"' | '\''));
    quote(before) || quote(after)
}
