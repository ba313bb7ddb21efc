//! The check of `destructive-neutral-value`. Its code, docs and default options are in
//! `rules/schema/destructive-neutral-value.yaml`.

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use super::helpers;
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::normalize::schema::walk_properties_required;
use crate::parse::{Entry, Node};
use crate::rule::{Anchor, Ctx, Rule};
use crate::text::identifier::split_identifier;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DestructiveNeutralValue {
    /// Stems of the words that make a value destructive (`delet`, `overwrit`, `clear`), with
    /// an inflection's ending or none (`deletes`, `deleted`, `deletion`; not `clearly`); one
    /// regex, built when the options are read.
    #[serde(deserialize_with = "stems_regex")]
    destructive_words: Regex,
}

fn stems_regex<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Regex, D::Error> {
    let words = Vec::<String>::deserialize(deserializer)?;
    let words: Vec<String> = words
        .iter()
        .map(|word| word.trim())
        .filter(|word| !word.is_empty())
        .map(regex::escape)
        .collect();
    if words.is_empty() {
        return Err(serde::de::Error::custom("give at least one word"));
    }
    Regex::new(&format!(
        r"(?i)\b(?:{})(?:e|s|es|ed|d|ing|ion|ions|al|ped|ping)?\b",
        words.join("|")
    ))
    .map_err(|error| serde::de::Error::custom(format!("invalid words: {error}")))
}

/// How a description writes each type's neutral value: `false`, `0`, the empty string.
static FALSE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\bfalse\b").expect("a valid regex"));
static ZERO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^|[^\d.,\-])(0)(?:$|[^\d.,])|\b(zero)\b").expect("a valid regex")
});

static EMPTY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?i)\bempty(?:\s+string)?\b|""|''"#).expect("a valid regex"));

/// Where a neutral value is written: the number's group for [`ZERO`], else the whole match.
fn neutral_in(neutral: &Regex, clause: &str) -> Option<std::ops::Range<usize>> {
    let captures = neutral.captures(clause)?;
    let found = captures.iter().skip(1).flatten().next();
    Some(
        found
            .unwrap_or_else(|| captures.get(0).expect("a match"))
            .range(),
    )
}
/// Between the neutral value and the destructive word: a word that turns the effect around
/// (`false keeps it; true deletes it`, `0 does not delete`).
static TURNS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:true|not|no|never|without|otherwise|instead)\b|n't\b")
        .expect("a valid regex")
});

/// A clause that also says the default or omitting the field does this: filling the neutral
/// value changes nothing then.
static SAME_AS_OMITTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:default|omit\w*|unset|if\s+not\s+(?:set|given|provided))\b")
        .expect("a valid regex")
});

impl Rule for DestructiveNeutralValue {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        walk_properties_required(schema, &mut |property, required| {
            if !required && property.value.get("default").is_none() {
                self.check_property(property, ctx);
            }
        });
    }
}

impl DestructiveNeutralValue {
    fn check_property(&self, property: &Entry, ctx: &mut Ctx<'_>) {
        let node = &property.value;
        if let Some(first) = node
            .get("enum")
            .and_then(Node::as_array)
            .and_then(|values| values.first())
            && let Some(value) = first.as_str()
            && split_identifier(value)
                .iter()
                .any(|word| self.destructive_words.is_match(word))
        {
            ctx.report(
                Field::InputSchema,
                Anchor::Value(first),
                format!(
                    "`{}` is optional and its first value is `{value}`: a model that fills \
                     every field picks it when it means nothing",
                    property.key
                ),
            )
            .help(format!(
                "put a harmless value first, or declare one with `default`, or make `{}` \
                 required so that the model chooses it",
                property.key
            ));
            return;
        }
        let types = helpers::declared_types(node);
        let (neutral, written): (&Regex, &str) = match types.iter().find(|ty| **ty != "null") {
            Some(&"boolean") => (&FALSE, "`false`"),
            Some(&"integer" | &"number") => (&ZERO, "`0`"),
            Some(&"string") => (&EMPTY, "the empty string"),
            _ => return,
        };
        let Some(description) = node.get("description") else {
            return;
        };
        let text = description.as_str().unwrap_or_default();
        if let Some(range) = self.documented_destructive(text, neutral) {
            ctx.report(
                Field::InputSchema,
                Anchor::Text(description, range),
                format!(
                    "`{}` is optional and its description makes {written} destructive: a \
                     model that fills every field sends it when it means nothing",
                    property.key
                ),
            )
            .help(format!(
                "give the destructive effect its own explicit value (an enum value or a \
                 separate flag), or declare a harmless `default`, or make `{}` required",
                property.key
            ));
        }
    }

    /// The words from the neutral value to a destructive word after it, in one clause
    /// (`If false, the file is overwritten`, `Pass an empty string to clear all headers`).
    fn documented_destructive(
        &self,
        text: &str,
        neutral: &Regex,
    ) -> Option<std::ops::Range<usize>> {
        let mut start = 0;
        for clause in text.split_inclusive(['.', ';', '\n']) {
            let offset = start;
            start += clause.len();
            if SAME_AS_OMITTED.is_match(clause) {
                continue;
            }
            let Some(value) = neutral_in(neutral, clause) else {
                continue;
            };
            let rest = &clause[value.end..];
            let Some(effect) = self.destructive_words.find(rest) else {
                continue;
            };
            if TURNS.is_match(&rest[..effect.start()]) {
                continue;
            }
            return Some(offset + value.start..offset + value.end + effect.end());
        }
        None
    }
}
