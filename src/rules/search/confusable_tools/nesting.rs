//! Names that nest: one tool's name inside another's (`get_issue` in `get_issue_comments`),
//! found over the words of every name at once.

use std::hash::BuildHasher;

use foldhash::{HashMap, HashMapExt, HashSet};

use crate::search::Doc;
use crate::search::derive::base_form;

/// Function words a name may hold (`celsius_to_fahrenheit`) that say nothing of the tool.
const NAME_FILLER: &[&str] = &[
    "a", "an", "and", "by", "for", "from", "in", "of", "on", "the", "to", "with",
];

/// The words of a tool's own name, in order, repeats kept: no filler, none of its server's
/// name (`playwright_navigate` of the server `playwright` is `navigate`).
pub(super) fn name_sequence(doc: &Doc) -> Vec<String> {
    let server: HashSet<String> = doc
        .name
        .strip_suffix(doc.tool.as_str())
        .map(crate::search::tokens)
        .unwrap_or_default()
        .into_iter()
        .collect();
    let mut sequence: Vec<String> = crate::search::tokens(&doc.tool)
        .into_iter()
        .filter(|word| !NAME_FILLER.contains(&word.as_str()) && !server.contains(word))
        .collect();
    // Kept for every tool of the set while pairs are found: no spare room.
    sequence.shrink_to_fit();
    sequence
}

/// A name's [`name_sequence`] with each word once.
pub(super) fn name_words(sequence: &[String]) -> Vec<&str> {
    let mut words: Vec<&str> = Vec::new();
    for word in sequence {
        if !words.contains(&word.as_str()) {
            words.push(word);
        }
    }
    words.shrink_to_fit();
    words
}

/// Whether the longer of two nesting names ends in words that name something the shorter
/// tool does not claim: a child of the other (`get_task` / `get_task_list`, `reply` /
/// `reply_all`). The name tells the two apart when every word it adds comes after the
/// shorter name's words and is absent from the shorter tool's description and argument
/// names. Words added before or between (`calculate_velocity` / `calculate_final_velocity`),
/// or that the shorter tool's text already has (`hotel_booking` "Book a hotel room" /
/// `hotel_booking_book`, `update_pull_request` with a `state` argument /
/// `update_pull_request_state`), do not.
pub(super) fn child_names_its_part(short: (&Doc, &[String]), long: &[String]) -> bool {
    let (doc, short) = short;
    let mut matched = 0;
    let mut last = None;
    for (at, word) in long.iter().enumerate() {
        if matched < short.len() && *word == short[matched] {
            matched += 1;
            last = Some(at);
        }
    }
    let (true, Some(last)) = (matched == short.len(), last) else {
        return false;
    };
    let added = &long[last + 1..];
    if added.is_empty() || long.len() - added.len() != short.len() {
        return false;
    }
    let claimed: HashSet<String> = crate::search::tokens(&doc.description)
        .into_iter()
        .chain(
            doc.args
                .iter()
                .flat_map(|(name, _)| crate::search::tokens(name)),
        )
        .map(|word| base_form(&word))
        .collect();
    added.iter().all(|word| !claimed.contains(&base_form(word)))
}

/// Whether `doc`'s description names `other` as a tool: its name written whole, quoted when
/// it is a plain word (`edit`), which tells the model which of the two to call.
pub(super) fn names_tool(doc: &Doc, other: &Doc) -> bool {
    let name = other.tool.as_str();
    if name.is_empty() {
        return false;
    }
    // One word (`edit`, `Search`), as against `edit_file` or `readFile`.
    let plain = crate::search::tokens(name).len() == 1 && name.chars().all(char::is_alphanumeric);
    let is_name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    let text = doc.description.as_str();
    text.match_indices(name).any(|(start, _)| {
        let before = text[..start].chars().next_back();
        let after = text[start + name.len()..].chars().next();
        if plain {
            matches!(
                (before, after),
                (Some('`'), Some('`')) | (Some('\''), Some('\'')) | (Some('"'), Some('"'))
            )
        } else {
            // `.` ends a sentence after a name.
            !before.is_some_and(is_name_char) && !after.is_some_and(|c| c != '.' && is_name_char(c))
        }
    })
}

/// Whether the words of one name are the other's, or some of them in the same order, the
/// names being different. Two names that each have a word of their own (`retrieve_page`,
/// `retrieve_database`; `get_cost`, `confirm_cost`) tell the tools apart, and so does word
/// order (`celsius_to_fahrenheit`, `fahrenheit_to_celsius`); one name twice is
/// `duplicate-tool-name`'s. `words`: each name's [`name_words`].
pub(super) fn names_nest(a: &Doc, b: &Doc, words: (&[&str], &[&str])) -> bool {
    if a.name == b.name {
        return false;
    }
    let (a, b) = words;
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if short.is_empty() {
        return false;
    }
    let mut rest = long.iter();
    short.iter().all(|word| rest.any(|other| other == word))
}

/// Names with more words than this are compared with every other tool; shorter ones look up
/// each subset of their words.
const MAX_SUBSET_WORDS: usize = 10;

/// Every pair of tools `(a, b)`, `a < b`, in order, whose names nest ([`names_nest`]). The
/// shorter name's words are a subset of the longer's, so each tool looks up the tools whose
/// words are exactly a subset of its own: the work follows the pairs found, not the square of
/// the number of tools.
/// `words`: each doc's [`name_words`].
pub(super) fn nesting_pairs(docs: &[Doc], words: &[Vec<&str>]) -> Vec<(usize, usize)> {
    let sorted: Vec<Vec<&str>> = words
        .iter()
        .map(|words| {
            let mut set = words.clone();
            set.sort_unstable();
            set
        })
        .collect();
    // The tools with words, ordered by their sets of words: those of one set are found by a
    // binary search (a map of sets would hold a list for each tool of a large set).
    let mut by_set: Vec<usize> = (0..sorted.len())
        .filter(|&doc| !sorted[doc].is_empty())
        .collect();
    by_set.sort_by(|&a, &b| sorted[a].cmp(&sorted[b]));
    // Where each set's tools start in `by_set`, by the set's hash: a look-up rather than a
    // binary search through the sets of every tool (a set sharing its hash with another is
    // searched for).
    let hasher = foldhash::fast::RandomState::default();
    let mut starts: HashMap<u64, usize> = HashMap::with_capacity(by_set.len());
    for (index, &doc) in by_set.iter().enumerate() {
        if index == 0 || sorted[by_set[index - 1]] != sorted[doc] {
            starts.entry(hasher.hash_one(&sorted[doc])).or_insert(index);
        }
    }
    let mut pairs = Vec::new();
    let mut nest = |short: usize, long: usize| {
        // Two tools with the same words are seen from both sides: once is enough.
        let same = sorted[short].len() == sorted[long].len();
        if short != long
            && !(same && short > long)
            && names_nest(&docs[short], &docs[long], (&words[short], &words[long]))
        {
            pairs.push((short.min(long), short.max(long)));
        }
    };
    let mut subset = Vec::new();
    for (long, set) in sorted.iter().enumerate() {
        if set.len() > MAX_SUBSET_WORDS {
            (0..docs.len()).for_each(|short| nest(short, long));
            continue;
        }
        for mask in 1u32..(1 << set.len()) {
            subset.clear();
            subset.extend(
                (0..set.len())
                    .filter(|bit| mask & (1 << bit) != 0)
                    .map(|bit| set[bit]),
            );
            let first = match starts.get(&hasher.hash_one(&subset)) {
                None => continue,
                Some(&start) if sorted[by_set[start]] == subset => start,
                Some(_) => by_set.partition_point(|&doc| sorted[doc] < subset),
            };
            for &short in by_set[first..]
                .iter()
                .take_while(|&&doc| sorted[doc] == subset)
            {
                nest(short, long);
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}
