//! The check of `guideline-restates-schema`. Its code and docs are in
//! `rules/wording/guideline-restates-schema.yaml`.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::normalize::schema::walk_properties_required;
use crate::parse::{Entry, Node};
use crate::rule::{Anchor, Ctx, Rule};
use crate::text::sentences::sentence_ranges;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuidelineRestatesSchema {}

/// `is a string`, `must be an integer`, `takes a list`: a type written out.
static TYPE_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:is|are|must\s+be|should\s+be|takes|accepts|as)\s+(?:a|an)?\s*(string|number|integer|boolean|array|list|object)s?\b",
    )
    .expect("a valid regex")
});

/// `is required`, `are required`, `must always be given`.
static REQUIRED_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:is|are)\s+(?:always\s+)?required\b|\brequired\s+(?:parameter|field|argument)\b",
    )
    .expect("a valid regex")
});

static NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\d+(?:\.\d+)?").expect("a valid regex"));

impl Rule for GuidelineRestatesSchema {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool
            .input_schema()
            .filter(|_| tool.guidelines().next().is_some())
        else {
            return;
        };
        let mut properties: Vec<(&Entry, bool)> = Vec::new();
        walk_properties_required(schema, &mut |entry, required| {
            // Short names (`q`, `id`) are words of any sentence.
            if entry.key.chars().count() >= 3 {
                properties.push((entry, required));
            }
        });
        if properties.is_empty() {
            return;
        }
        for guideline in tool.guidelines() {
            let value = guideline.as_str().unwrap_or_default();
            for range in sentence_ranges(value) {
                let sentence = &value[range.clone()];
                let found = properties.iter().find_map(|(entry, required)| {
                    let at = mention(sentence, &entry.key)?;
                    restated(sentence, &sentence[at.end..], &entry.value, *required)
                        .map(|fact| (entry, fact))
                });
                let Some((entry, fact)) = found else {
                    continue;
                };
                ctx.report(
                    Field::Guidelines,
                    Anchor::Text(guideline, range),
                    format!(
                        "this guideline restates {}, which the schema already carries",
                        fact.replace("{name}", &entry.key)
                    ),
                )
                .help(
                    "a guideline is read every turn; leave types, required fields, ranges and \
                     enum values to the schema, and say only what it cannot: when to call the \
                     tool and how to choose",
                );
            }
        }
    }
}

/// Where a sentence names the property (`path`, `` `path` ``), as a whole word.
fn mention(sentence: &str, name: &str) -> Option<Range<usize>> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    sentence.match_indices(name).find_map(|(start, _)| {
        let end = start + name.len();
        let before = sentence[..start].chars().next_back();
        let after = sentence[end..].chars().next();
        (!before.is_some_and(is_word) && !after.is_some_and(is_word)).then_some(start..end)
    })
}

/// Which schema fact the words after the property's name restate (`{name}` stands for the
/// name): its type, that it is required, its enum values (two or more of them), or a bound of
/// its range.
fn restated(sentence: &str, after: &str, schema: &Node, required: bool) -> Option<&'static str> {
    let types = crate::rules::schema::helpers::declared_types(schema);
    if let Some(written) = TYPE_WORD
        .captures(after)
        .and_then(|captures| captures.get(1))
    {
        let word = written.as_str().to_lowercase();
        let word = if word == "list" {
            "array"
        } else {
            word.as_str()
        };
        if types.contains(&word) || (word == "number" && types.contains(&"integer")) {
            return Some("the type of `{name}`");
        }
    }
    if required && REQUIRED_WORD.is_match(after) {
        return Some("that `{name}` is required");
    }
    let values = schema
        .get("enum")
        .and_then(Node::as_array)
        .unwrap_or_default();
    let named = values
        .iter()
        .filter_map(Node::as_str)
        .filter(|value| value.chars().count() >= 2 && mention(sentence, value).is_some())
        .count();
    if named >= 2 {
        return Some("the enum values of `{name}`");
    }
    let bounds: Vec<f64> = [
        "minimum",
        "maximum",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
    ]
    .iter()
    .filter_map(|keyword| schema.get(keyword).and_then(Node::as_f64))
    .collect();
    let states_bound = NUMBER
        .find_iter(after)
        .filter_map(|number| number.as_str().parse::<f64>().ok())
        .any(|number| bounds.contains(&number));
    states_bound.then_some("a bound of `{name}`")
}
