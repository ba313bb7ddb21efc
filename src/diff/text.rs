//! Comparing prose: the trigger and anti-trigger sentences of a description or guidelines
//! (read as the wording rules read them), and the numbers of a description.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use foldhash::{HashMap, HashMapExt, HashSet};
use regex::Regex;
use serde_json::Value;

use crate::catalog::Registry;
use crate::lint::Linter;
use crate::rules::wording::missing_anti_trigger::MissingAntiTrigger;
use crate::rules::wording::missing_trigger::MissingTrigger;
use crate::text::sentences::sentence_ranges;

use super::report::{Change, Class};

/// The wording rules' readings of triggers and anti-triggers, with the run's options.
pub(super) struct Detectors {
    pub(super) triggers: Option<MissingTrigger>,
    pub(super) boundaries: Option<MissingAntiTrigger>,
}

impl Detectors {
    pub(super) fn new(registry: &Registry, linter: &Linter) -> Detectors {
        fn build<T: crate::catalog::NativeCheck>(
            registry: &Registry,
            linter: &Linter,
        ) -> Option<T> {
            let code = &registry.native::<T>().code;
            let setting = linter.settings().iter().find(|s| &s.code == code)?;
            serde_json::from_value(Value::Object(setting.options.clone())).ok()
        }
        Detectors {
            triggers: build(registry, linter),
            boundaries: build(registry, linter),
        }
    }

    /// The trigger and the boundary sentences among `refs`.
    fn read(
        &self,
        name: &str,
        refs: &[&str],
        names: &HashSet<&str>,
    ) -> (BTreeSet<String>, BTreeSet<String>) {
        let triggers = self
            .triggers
            .as_ref()
            .map_or_else(|| vec![false; refs.len()], |t| t.triggers(name, refs));
        let boundaries = self.boundaries.as_ref().map_or_else(
            || vec![false; refs.len()],
            |b| b.boundaries(name, refs, names),
        );
        // A sentence that says both (`If the user names an author, do not use this tool`) is
        // where the tool stops.
        let triggers: Vec<bool> = triggers
            .iter()
            .zip(&boundaries)
            .map(|(trigger, boundary)| *trigger && !*boundary)
            .collect();
        let pick = |flags: &[bool]| {
            refs.iter()
                .zip(flags)
                .filter(|(_, flag)| **flag)
                .map(|(s, _)| s.to_string())
                .collect()
        };
        (pick(&triggers), pick(&boundaries))
    }
}

/// The sentences of a text ([`sentence_ranges`]), whitespace collapsed.
pub(super) fn sentences(text: &str) -> Vec<String> {
    sentence_ranges(text)
        .into_iter()
        .map(|range| text[range].split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

pub(super) fn or_none(items: &[&str]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}

/// The items of `a` not in `b`, counting repeats (both sorted).
pub(super) fn difference<'a>(a: &'a [String], b: &[String]) -> Vec<&'a str> {
    let mut left: HashMap<&str, usize> = HashMap::new();
    for item in b {
        *left.entry(item).or_insert(0) += 1;
    }
    a.iter()
        .filter(|item| match left.get_mut(item.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .map(String::as_str)
        .collect()
}

static NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b\d+(?:[.,]\d+)*\b").expect("the built-in pattern compiles"));

/// The numbers of a text, sorted.
pub(super) fn numbers(text: &str) -> Vec<String> {
    let mut found: Vec<String> = NUMBER
        .find_iter(text)
        .map(|m| m.as_str().to_string())
        .collect();
    found.sort_unstable();
    found
}

/// The tool names of a file's two versions, for the sentences that name a sibling.
pub(super) struct Names<'a> {
    pub(super) old: HashSet<&'a str>,
    pub(super) new: HashSet<&'a str>,
    pub(super) same: bool,
}

/// Trigger and anti-trigger sentences added or removed between two versions of a text (the
/// tool's name, and its texts).
pub(super) fn compare_prose(
    field: &'static str,
    old: (&str, &[&str]),
    new: (&str, &[&str]),
    names: &Names<'_>,
    detectors: &Detectors,
    changes: &mut Vec<Change>,
) {
    let split =
        |texts: &[&str]| -> Vec<String> { texts.iter().flat_map(|text| sentences(text)).collect() };
    let (old_sentences, new_sentences) = (split(old.1), split(new.1));
    let mut old_refs: Vec<&str> = old_sentences.iter().map(String::as_str).collect();
    let mut new_refs: Vec<&str> = new_sentences.iter().map(String::as_str).collect();
    // A sentence reads alike in both versions when the tool and its siblings keep their
    // names: one in both is neither added nor removed, and need not be read.
    if old.0 == new.0 && names.same {
        let in_old: HashSet<&str> = old_refs.iter().copied().collect();
        let in_new: HashSet<&str> = new_refs.iter().copied().collect();
        old_refs.retain(|sentence| !in_new.contains(sentence));
        new_refs.retain(|sentence| !in_old.contains(sentence));
    }
    let (old_triggers, old_boundaries) = detectors.read(old.0, &old_refs, &names.old);
    let (new_triggers, new_boundaries) = detectors.read(new.0, &new_refs, &names.new);
    for (kind, old, new) in [
        ("trigger", &old_triggers, &new_triggers),
        ("anti-trigger", &old_boundaries, &new_boundaries),
    ] {
        for (side, other, what) in [(old, new, "removed"), (new, old, "added")] {
            changes.extend(side.difference(other).map(|sentence| Change {
                class: Class::Risky,
                field,
                path: String::new(),
                message: format!("{kind} {what}: \"{}\"", shorten(sentence)),
            }));
        }
    }
}

/// A sentence of at most 120 characters.
pub(super) fn shorten(text: &str) -> String {
    if text.chars().count() <= 120 {
        return text.to_string();
    }
    let cut: String = text.chars().take(119).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_split_at_ends_and_lines() {
        assert_eq!(
            sentences("Search it. Use when asked!\n- Not for code\nv1.2 is out."),
            [
                "Search it.",
                "Use when asked!",
                "Not for code",
                "v1.2 is out."
            ]
        );
    }

    #[test]
    fn abbreviations_do_not_end_a_sentence() {
        assert_eq!(
            sentences("Best for vague queries (e.g. \"login fails\"). Not for code, i.e. files."),
            [
                "Best for vague queries (e.g. \"login fails\").",
                "Not for code, i.e. files."
            ]
        );
    }
}
