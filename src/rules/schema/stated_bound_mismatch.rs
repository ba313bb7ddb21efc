//! The check of `stated-bound-mismatch`. Its code and docs are in
//! `rules/schema/stated-bound-mismatch.yaml`.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use super::helpers::{self, Bound, NUMBER_WORDS, format_number, relative_pointer};
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::parse::{Entry, Node, Span};
use crate::rule::{Anchor, Ctx, Rule};
use crate::text::floor_char_boundary;
use crate::text::identifier::split_identifier;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatedBoundMismatch {}

/// What a property's maximum counts: items, characters or the value itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Items,
    Length,
    Value,
}

impl Kind {
    fn of(bound: Bound) -> Option<Kind> {
        match bound {
            Bound::MaxItems => Some(Kind::Items),
            Bound::MaxLength => Some(Kind::Length),
            Bound::Maximum => Some(Kind::Value),
            _ => None,
        }
    }

    /// Whether a number written with `unit` after it can be this kind's bound: a length
    /// counts characters; an item count or a value is no size, duration or share.
    fn counts(self, unit: Option<&str>) -> bool {
        let is = |units: &[&str]| unit.is_some_and(|unit| units.contains(&unit));
        match self {
            Kind::Length => is(CHARACTERS),
            Kind::Items | Kind::Value => !is(CHARACTERS) && !is(OTHER_UNITS),
        }
    }
}

const CHARACTERS: &[&str] = &["character", "characters", "char", "chars"];

/// Units that make a number a size, a duration or a share, which no item count or plain value
/// bound compares with (`up to 5 MB` beside `maximum: 5000000`).
const OTHER_UNITS: &[&str] = &[
    "byte",
    "bytes",
    "kb",
    "mb",
    "gb",
    "kib",
    "mib",
    "gib",
    "token",
    "tokens",
    "word",
    "words",
    "line",
    "lines",
    "second",
    "seconds",
    "sec",
    "secs",
    "s",
    "ms",
    "millisecond",
    "milliseconds",
    "minute",
    "minutes",
    "min",
    "mins",
    "hour",
    "hours",
    "hr",
    "hrs",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "percent",
    "%",
    "pixel",
    "pixels",
    "px",
];

/// A property with a maximum: its names as a text writes them, and each place that sets it.
struct Bounded<'a> {
    name: &'a str,
    names: Vec<String>,
    kind: Kind,
    maxima: Vec<Maximum>,
    description: Option<&'a Node>,
}

/// One maximum: its value, and where it is set (`maxItems` in the schema, `max_items` under
/// `limits`).
struct Maximum {
    value: f64,
    keyword: &'static str,
    place: &'static str,
    span: Span,
}

/// A maximum a text states: its value, the words that state it, and the unit after them.
struct Stated<'t> {
    value: f64,
    range: Range<usize>,
    unit: Option<String>,
    /// The text just after the phrase (`options were given`), for a property named after it.
    after: &'t str,
    /// The text just before the phrase (`` `tags` (``), for a property named before it.
    before: &'t str,
}

impl Rule for StatedBoundMismatch {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        let properties = bounded_properties(tool, schema);
        if properties.is_empty() {
            return;
        }
        // A property's own description speaks of it: any maximum it states.
        for property in &properties {
            let Some(node) = property.description else {
                continue;
            };
            let stated: Vec<Stated<'_>> = stated_maxima(node.as_str().unwrap_or_default())
                .into_iter()
                .filter(|stated| property.kind.counts(stated.unit.as_deref()))
                .collect();
            if let Some(first) = stated.first()
                && !stated.iter().any(|stated| agrees(property, stated))
            {
                report(ctx, Field::InputSchema, node, first, property);
            }
        }
        // Other texts speak of a property when they name it beside the number.
        let texts = [
            Field::Description,
            Field::Snippet,
            Field::Guidelines,
            Field::Results,
        ]
        .into_iter()
        .flat_map(|field| tool.texts(field));
        for text in texts {
            // The first maximum that names a property and differs from its bound, unless the
            // same text also states the bound right (`2-4 options ... at most 4 options`).
            let mut agreed: Vec<usize> = Vec::new();
            let mut wrong: Vec<(Stated<'_>, usize)> = Vec::new();
            for stated in stated_maxima(text.value()) {
                let named: Vec<usize> = (0..properties.len())
                    .filter(|&index| {
                        let property = &properties[index];
                        property.kind.counts(stated.unit.as_deref()) && names(property, &stated)
                    })
                    .collect();
                let agreeing: Vec<usize> = named
                    .iter()
                    .copied()
                    .filter(|&index| agrees(&properties[index], &stated))
                    .collect();
                match (agreeing.is_empty(), named.first()) {
                    (false, _) => agreed.extend(agreeing),
                    (true, Some(&index)) => wrong.push((stated, index)),
                    (true, None) => {}
                }
            }
            if let Some((stated, index)) =
                wrong.into_iter().find(|(_, index)| !agreed.contains(index))
            {
                report(ctx, text.field, text.node, &stated, &properties[index]);
            }
        }
    }
}

fn report(
    ctx: &mut Ctx<'_>,
    field: Field,
    node: &Node,
    stated: &Stated<'_>,
    property: &Bounded<'_>,
) {
    let set = &property.maxima[0];
    let text = &node.as_str().unwrap_or_default()[stated.range.clone()];
    let diagnostic = ctx
        .report(
            field,
            Anchor::Text(node, stated.range.clone()),
            format!(
                "the text says `{text}`, but `{}` has `{}: {}` {}",
                property.name,
                set.keyword,
                format_number(set.value),
                set.place
            ),
        )
        .help(format!(
            "make them agree: the model plans by the text and is held to the schema, so write \
             {} here or change the bound",
            format_number(set.value)
        ));
    for maximum in &property.maxima {
        diagnostic.related(
            format!("`{}` {}", maximum.keyword, maximum.place),
            maximum.span.clone(),
        );
    }
}

fn agrees(property: &Bounded<'_>, stated: &Stated<'_>) -> bool {
    property
        .maxima
        .iter()
        .any(|maximum| maximum.value == stated.value)
}

/// Whether the words beside a stated maximum name the property: `4 options`, `up to 4
/// option`, `` `tags` (max 10)``, `max_results: up to 50`.
fn names(property: &Bounded<'_>, stated: &Stated<'_>) -> bool {
    let after = stated
        .after
        .trim_start_matches([' ', '`', '*'])
        .to_lowercase();
    let before = stated
        .before
        .trim_end_matches([' ', '(', ':', '`', '=', ',', '*'])
        .to_lowercase();
    property.names.iter().any(|name| {
        let after_ok = after
            .strip_prefix(name.as_str())
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
        let before_ok = before
            .strip_suffix(name.as_str())
            .is_some_and(|rest| !rest.ends_with(|c: char| c.is_alphanumeric() || c == '_'));
        after_ok || before_ok
    })
}

/// Every property of the input schema with one kind of maximum, from the schema
/// (`maxItems`, `maxLength`, `maximum`) or from `limits`. A property with an exclusive maximum,
/// or maxima of two kinds, is left out: no single number is its bound.
fn bounded_properties<'a>(tool: &Tool<'a>, schema: &'a Node) -> Vec<Bounded<'a>> {
    let limits = helpers::limits(tool);
    let mut found = Vec::new();
    crate::normalize::schema::walk_properties(schema, &mut |entry: &'a Entry| {
        let node = &entry.value;
        if node.get("exclusiveMaximum").is_some() {
            return;
        }
        let pointer = relative_pointer(schema, node);
        let mut kinds: Vec<Kind> = Vec::new();
        let mut maxima = Vec::new();
        for bound in [Bound::MaxItems, Bound::MaxLength, Bound::Maximum] {
            let kind = Kind::of(bound).expect("a maximum");
            if let Some(set) = node.entry(bound.schema_keyword())
                && let Some(value) = set.value.as_f64()
            {
                kinds.push(kind);
                maxima.push(Maximum {
                    value,
                    keyword: bound.schema_keyword(),
                    place: "in the schema",
                    span: set.key_span(),
                });
            }
            for limit in limits.iter().filter(|limit| limit.pointer() == pointer) {
                if let Some((set, value)) = limit.bound(bound) {
                    kinds.push(kind);
                    maxima.push(Maximum {
                        value,
                        keyword: bound.limit_key(),
                        place: "under `limits`",
                        span: set.key_span(),
                    });
                }
            }
        }
        kinds.dedup();
        let [kind] = kinds[..] else {
            return;
        };
        found.push(Bounded {
            name: &entry.key,
            names: name_forms(&entry.key),
            kind,
            maxima,
            description: node
                .get("description")
                .filter(|node| node.as_str().is_some()),
        });
    });
    found
}

/// How a text may write a property's name: as written (`max_results`), in words (`max
/// results`), and in the singular or plural (`option` for `options`). Names shorter than three
/// letters (`q`, `id`) are too common to link a number to.
fn name_forms(key: &str) -> Vec<String> {
    let written = key.to_lowercase();
    let spaced = split_identifier(key).join(" ");
    let mut forms = Vec::new();
    for form in [written, spaced] {
        if form.chars().count() < 3 || forms.contains(&form) {
            continue;
        }
        let other = match form.strip_suffix('s') {
            Some(singular) => singular.to_string(),
            None => format!("{form}s"),
        };
        forms.push(form);
        forms.push(other);
    }
    forms
}

/// A number, in digits (`1,000`, `2.5`) or a number word.
fn number_pattern() -> String {
    let words: Vec<&str> = NUMBER_WORDS.iter().map(|(word, _)| *word).collect();
    format!(
        r"(\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?|\b(?:{})\b)",
        words.join("|")
    )
}

/// `at most 4`, `up to 4`, `max 100`, `must not exceed 4`, `4 or fewer`, `<= 4`.
static MAXIMUM: LazyLock<Regex> = LazyLock::new(|| {
    let n = number_pattern();
    Regex::new(&format!(
        r"(?i)\b(?:at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than|(?:a\s+)?max(?:imum)?(?:\s+of|\s+is|\s*[:=])?|(?:cannot|can't|must\s+not|may\s+not|should\s+not|not)\s+exceed|less\s+than\s+or\s+equal\s+to|limited\s+to|a\s+limit\s+of)\s*{n}|<=\s*{n}|\b{n}\s+(?:or\s+fewer|or\s+less|max(?:imum)?)\b"
    ))
    .expect("a valid regex")
});

/// `2-4`, `2–4`, `2 to 4`, `between 2 and 4`: the upper end is a stated maximum.
static RANGE: LazyLock<Regex> = LazyLock::new(|| {
    let n = number_pattern();
    Regex::new(&format!(
        r"(?i)\bbetween\s+{n}\s+and\s+{n}|{n}\s*(?:-|–|\bto\b)\s*{n}"
    ))
    .expect("a valid regex")
});

fn value_of(number: &str) -> Option<f64> {
    let lower = number.to_ascii_lowercase();
    NUMBER_WORDS
        .iter()
        .find(|(word, _)| *word == lower)
        .map(|(_, value)| *value)
        .or_else(|| number.replace(',', "").parse().ok())
}

/// How many bytes either side of a stated maximum can name its property.
const NEARBY: usize = 64;

/// Every maximum a text states, in order.
fn stated_maxima(text: &str) -> Vec<Stated<'_>> {
    let mut found: Vec<(f64, Range<usize>)> = Vec::new();
    for captures in MAXIMUM.captures_iter(text) {
        let whole = captures.get(0).expect("a match");
        let number = captures.iter().skip(1).flatten().next();
        if let Some(value) = number.and_then(|number| value_of(number.as_str())) {
            found.push((value, whole.range()));
        }
    }
    for captures in RANGE.captures_iter(text) {
        let whole = captures.get(0).expect("a match");
        let numbers: Vec<f64> = captures
            .iter()
            .skip(1)
            .flatten()
            .filter_map(|number| value_of(number.as_str()))
            .collect();
        let [low, high] = numbers[..] else {
            continue;
        };
        // Not a range: a date, a version, a phone number (`2024-01`, `1.2-3`), an index base
        // (`0-based`), or a span inside a longer token.
        let inside = |c: char| c.is_alphanumeric() || ".-/:_".contains(c);
        let before_ok = !text[..whole.start()].ends_with(inside);
        let rest = &text[whole.end()..];
        let after_ok = !rest.starts_with(inside)
            && !["based", "indexed"]
                .iter()
                .any(|word| rest.trim_start_matches([' ', '-']).starts_with(word));
        if high > low && before_ok && after_ok {
            found.push((high, whole.range()));
        }
    }
    found.sort_by_key(|(_, range)| range.start);
    found.dedup_by(|later, earlier| later.1.start < earlier.1.end);
    found
        .into_iter()
        .map(|(value, range)| {
            let after = &text[range.end..];
            let unit = after
                .trim_start()
                .split(|c: char| !(c.is_alphanumeric() || c == '%'))
                .next()
                .filter(|word| !word.is_empty())
                .map(str::to_lowercase);
            Stated {
                value,
                before: &text
                    [floor_char_boundary(text, range.start.saturating_sub(NEARBY))..range.start],
                after: &after[..floor_char_boundary(after, NEARBY)],
                unit,
                range,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::stated_maxima;

    fn maxima(text: &str) -> Vec<(f64, &str)> {
        stated_maxima(text)
            .into_iter()
            .map(|stated| (stated.value, &text[stated.range]))
            .collect()
    }

    #[test]
    fn maxima_are_read_from_phrases_and_ranges() {
        assert_eq!(
            maxima("Each question offers 2-4 options, up to four questions (max 100 chars)"),
            [(4.0, "2-4"), (4.0, "up to four"), (100.0, "max 100")]
        );
        assert_eq!(
            maxima("between 1 and 100, at most 1,000"),
            [(100.0, "between 1 and 100"), (1000.0, "at most 1,000")]
        );
        assert_eq!(maxima("10 or fewer"), [(10.0, "10 or fewer")]);
    }

    #[test]
    fn dates_versions_and_index_bases_are_no_ranges() {
        assert!(
            maxima("since 2024-01-15, gpt-4, v1.2-3, 0-based, 1-indexed, 555-1234x").is_empty()
        );
        assert!(maxima("the maximum number of results").is_empty());
        assert!(maxima("max_results 5").is_empty());
    }
}
