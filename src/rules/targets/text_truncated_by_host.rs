//! The check of `text-truncated-by-host`. Its code, docs and default options are in
//! `rules/targets/text-truncated-by-host.yaml`.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::{Tool, ToolSet};
use crate::parse::Node;
use crate::rule::{Anchor, Ctx, Rule};
use crate::rules::schema::helpers::{format_number, limits, root_properties};
use crate::rules::wording::helpers::{NamedPhrases, identifiers};
use crate::targets::Active;
use crate::targets::profile::{Check, Truncate};
use crate::text;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TextTruncatedByHost {
    /// The anti-trigger phrases (the same default list as `missing-anti-trigger`).
    words: NamedPhrases,
}

/// A stated limit: a bound word and a number (`at most 50`, `up to 1,000`, `max: 20`).
static LIMIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:at\s+most|at\s+least|up\s+to|no\s+more\s+than|not\s+more\s+than|fewer\s+than|less\s+than|more\s+than|limited\s+to|between|maximum(?:\s+of)?|minimum(?:\s+of)?|max|min)\s*[:=]?\s*\d[\d,]*(?:\.\d+)?",
    )
    .expect("a literal, valid regex")
});

/// Digits (`50`, `1,000`, `0.5`).
static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?").expect("a literal, valid regex")
});

/// How far past the cut (bytes) the text is read for what the model misses.
const SCANNED_AFTER_CUT: usize = 64 * 1024;

/// How many of the things cut off a message names before it sums up the rest.
const SHOWN: usize = 5;

/// The longest span at the cut (bytes): the first word the model does not see.
const SPAN_BYTES: usize = 40;

impl Rule for TextTruncatedByHost {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        if targets.is_empty() {
            return;
        }
        for active in targets.checks(|check| matches!(check, Check::TruncateBytes(_))) {
            let Check::TruncateBytes(cut) = &active.constraint.check else {
                continue;
            };
            let cuts = |field: &str| cut.fields.iter().any(|f| f == field);
            if cuts("description") {
                for tool in &set.tools {
                    let Some(node) = tool.description() else {
                        continue;
                    };
                    ctx.set_tool(Some(tool.name()).filter(|name| !name.is_empty()));
                    self.check_text(node, Field::Description, Some(tool), active, cut, ctx);
                }
                ctx.set_tool(None);
            }
            if let Some(entry) = set.instructions.filter(|_| cuts("instructions")) {
                self.check_text(&entry.value, Field::Instructions, None, active, cut, ctx);
            }
        }
    }
}

impl TextTruncatedByHost {
    fn check_text(
        &self,
        node: &Node,
        field: Field,
        tool: Option<&Tool<'_>>,
        active: &Active,
        cut: &Truncate,
        ctx: &mut Ctx<'_>,
    ) {
        let Some(value) = node.as_str() else {
            return;
        };
        if value.len() <= cut.bytes {
            return;
        }
        let at = text::floor_char_boundary(value, cut.bytes);
        let lost = value.len() - at;
        let share = match lost * 100 / value.len() {
            0 => "under 1%".to_string(),
            share => format!("{share}%"),
        };
        // What the model misses is looked for in the first part of the rest only: a text
        // megabytes long costs no more than one of [`SCANNED_AFTER_CUT`] past the cut.
        let scanned =
            &value[..text::floor_char_boundary(value, at.saturating_add(SCANNED_AFTER_CUT))];
        let hidden = self.hidden(scanned, at, tool);
        let what = match field {
            Field::Instructions => "the server instructions are",
            _ => "the description is",
        };
        let mut message = format!(
            "{what} {} bytes and {} keeps the first {}: the last {lost} bytes ({share}) are cut",
            value.len(),
            active.who(),
            cut.bytes
        );
        if !hidden.is_empty() {
            let shown: Vec<&str> = hidden.iter().take(SHOWN).map(String::as_str).collect();
            message.push_str(&format!(", and the model never sees {}", shown.join(", ")));
            if hidden.len() > SHOWN {
                message.push_str(&format!(" (and {} more)", hidden.len() - SHOWN));
            }
        }
        let first = match field {
            Field::Instructions => "when not to use the server's tools, limits",
            _ => "when not to use the tool, limits, the parameters it names",
        };
        let help = format!(
            "put what the model must know ({first}) within the first {} bytes, and shorten or \
             move the rest; {}",
            cut.bytes,
            active.cite()
        );
        ctx.report(field, Anchor::Text(node, at..span_end(value, at)), message)
            .help(help);
    }

    /// What the model would read only after the cut at `at`, in text order: anti-trigger
    /// phrases, stated limits (and the tool's `limits` values), and parameter names, each
    /// that does not also appear before the cut.
    fn hidden(&self, value: &str, at: usize, tool: Option<&Tool<'_>>) -> Vec<String> {
        let mut found: Vec<(usize, String)> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut add = |start: usize, shown: String, seen: &mut HashSet<String>| {
            if seen.insert(shown.clone()) {
                found.push((start, shown));
            }
        };
        // Phrases: a hit that ends past the cut is not read whole.
        let name = tool.map_or("", Tool::name);
        if let Some(regex) = self.words.regex(name, value) {
            let hits = text::find_all(&regex, value, true);
            let before: HashSet<String> = hits
                .iter()
                .filter(|hit| hit.end <= at)
                .map(|hit| normalized(&value[hit.clone()]))
                .collect();
            for hit in hits.iter().filter(|hit| hit.end > at) {
                let phrase = normalized(&value[hit.clone()]);
                if !before.contains(&phrase) {
                    add(hit.start, format!("`{phrase}`"), &mut seen);
                }
            }
        }
        // Stated limits, by their number: `at most 50` after the cut is lost unless 50 is
        // stated before it.
        let numbers_before: HashSet<String> = NUMBER
            .find_iter(&value[..at])
            .map(|m| m.as_str().replace(',', ""))
            .collect();
        for limit in LIMIT.find_iter(value).filter(|m| m.end() > at) {
            let number = NUMBER
                .find(limit.as_str())
                .map(|m| m.as_str().replace(',', ""))
                .unwrap_or_default();
            if !numbers_before.contains(&number) {
                add(
                    limit.start(),
                    format!("`{}`", normalized(limit.as_str())),
                    &mut seen,
                );
            }
        }
        if let Some(tool) = tool {
            let numbers_after: Vec<(usize, String)> = NUMBER
                .find_iter(value)
                .filter(|m| m.start() >= at)
                .map(|m| (m.start(), m.as_str().replace(',', "")))
                .collect();
            for limit in limits(tool) {
                for (bound, _, number) in &limit.bounds {
                    let number = format_number(*number);
                    if numbers_before.contains(&number) {
                        continue;
                    }
                    if let Some((start, _)) = numbers_after.iter().find(|(_, n)| *n == number) {
                        add(
                            *start,
                            format!("the limit `{}: {number}`", bound.limit_key()),
                            &mut seen,
                        );
                    }
                }
            }
            // Parameter names, as whole identifiers.
            let parameters: HashSet<&str> = tool
                .input_schema()
                .map(root_properties)
                .unwrap_or_default()
                .iter()
                .map(|entry| entry.key.as_str())
                .filter(|key| key.chars().count() >= 3)
                .collect();
            if !parameters.is_empty() {
                let words = identifiers(value);
                let before: HashSet<&str> = words
                    .iter()
                    .filter(|word| word.end <= at)
                    .map(|word| &value[word.clone()])
                    .collect();
                for word in words.iter().filter(|word| word.end > at) {
                    let text = &value[word.clone()];
                    if parameters.contains(text) && !before.contains(text) {
                        add(word.start, format!("parameter `{text}`"), &mut seen);
                    }
                }
            }
        }
        found.sort_by_key(|(start, _)| *start);
        found.into_iter().map(|(_, shown)| shown).collect()
    }
}

/// The end of the span at the cut: through the first word after it, at most
/// [`SPAN_BYTES`], and at least one character.
fn span_end(value: &str, at: usize) -> usize {
    let rest = &value[at..];
    let lead = rest.len() - rest.trim_start().len();
    let word = rest[lead..]
        .find(char::is_whitespace)
        .unwrap_or(rest.len() - lead);
    let end = text::floor_char_boundary(value, (at + lead + word).min(at + SPAN_BYTES));
    if end > at {
        return end;
    }
    at + rest.chars().next().map_or(0, char::len_utf8)
}

/// A phrase as a message shows it: lower case, single spaces.
fn normalized(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_is_not_also_before_the_cut_is_hidden() {
        let rule: TextTruncatedByHost =
            serde_json::from_value(serde_json::json!({"words": ["do not use", "instead"]}))
                .unwrap();
        let value = "Returns at most 50 rows. Do not use it twice. | Do not use it for X; use Y \
                     instead. Returns at most 50 rows, up to 9 pages.";
        let at = value.find('|').unwrap();
        let hidden = rule.hidden(value, at, None);
        assert_eq!(hidden, ["`instead`", "`up to 9`"]);
    }

    #[test]
    fn the_cut_falls_on_a_char_boundary() {
        let value = "ab\u{e9}cd";
        assert_eq!(text::floor_char_boundary(value, 3), 2);
        assert_eq!(text::floor_char_boundary(value, 4), 4);
        assert_eq!(text::floor_char_boundary(value, 99), value.len());
    }

    #[test]
    fn the_span_covers_the_first_word_after_the_cut() {
        let value = "keep this. Do not use it for X.";
        let at = value.find("Do").unwrap();
        assert_eq!(&value[at..span_end(value, at)], "Do");
        let at = value.find(" Do").unwrap();
        assert_eq!(&value[at..span_end(value, at)], " Do");
        let long = "x".repeat(100);
        assert_eq!(span_end(&long, 10), 10 + SPAN_BYTES);
        assert_eq!(span_end("ab ", 2), 3);
    }
}
