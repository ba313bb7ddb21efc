//! The check of `volatile-text`. Its code, docs and default options are in
//! `rules/wording/volatile-text.yaml`.

use std::sync::LazyLock;

use regex::{Regex, RegexBuilder};
use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::{Text, Tool, ToolSet};
use crate::rule::{Anchor, Ctx, Rule};
use crate::text;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct VolatileText {}

/// The fields this rule reads, besides the set-level instructions: results are sent per call,
/// after the cached prefix.
const FIELDS: [Field; 4] = [
    Field::Description,
    Field::Snippet,
    Field::Guidelines,
    Field::InputSchema,
];

/// A date, a time or a timestamp written out, or a template placeholder.
const MOMENT: &str = r"(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|\s?UTC|[+-]\d{2}:?\d{2})?)?|\d{4}/\d{1,2}/\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?,?\s+\d{4}|\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?(?:\s?(?:UTC|GMT|Z))?|\d{10}(?:\d{3})?)";

/// A template placeholder for the moment, left unrendered: `{{current_date}}`, `${now}`,
/// `{timestamp}`; the text it stands for is filled in per request.
const PLACEHOLDER: &str = r"(?:\{\{\s*[\w.]*(?:date|time|now|today|day|year|stamp)[\w.]*\s*\}\}|\$\{[\w.]*(?:date|time|now|today|day|year|stamp)[\w.]*\}|\{[\w.]*(?:date|time|now|today|day|year|stamp)[\w.]*\})";

const UUID: &str = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/// Words every branch of `VOLATILE` starts with (one of its `now`, `ids` and `year`
/// phrases): the pattern, with its many Unicode `\d` and `\w` classes the costliest of a cold
/// run to compile, is built and run only on a text that holds one.
const VOLATILE_NEEDS: &[&str] = &[
    "today",
    "current",
    "time now",
    "it is now",
    "now is",
    "as of",
    "last updated",
    "last modified",
    "last refreshed",
    "last synced",
    "generated on",
    "generated at",
    "updated on",
    "updated at",
    "refreshed on",
    "refreshed at",
    "session",
    "request",
    "conversation",
    "trace",
    "correlation",
];
static VOLATILE_NEED: text::AnyOf = text::AnyOf::new(VOLATILE_NEEDS);

/// A phrase that presents a value as the current moment (or a per-request id), then the
/// value, joined by at most a couple of linking words or signs.
static VOLATILE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    let join = r"\s*(?:(?:is|was|are|on|at|of|:|=)\s*){0,2}";
    let now = r"today(?:'s\s+date)?|the\s+date\s+today|(?:the\s+)?current\s+(?:date(?:\s+and\s+time)?|time(?:stamp)?|date-?time|day)|(?:the\s+)?time\s+now|it\s+is\s+(?:now|currently)|now\s+is|as\s+of|last\s+(?:updated|modified|refreshed|synced)|(?:generated|updated|refreshed)\s+(?:on|at)";
    let ids = r"(?:session|request|conversation|trace|correlation)[\s_-]?id";
    let year = r"(?:the\s+)?current\s+year";
    let pattern = format!(
        r"\b(?:(?:{now}){join}{MOMENT}|(?:{ids}){join}{UUID}|(?:{year}){join}\d{{4}})\b|\b(?:{now}){join}{PLACEHOLDER}"
    );
    RegexBuilder::new(&pattern)
        .case_insensitive(true)
        .build()
        .ok()
});

impl Rule for VolatileText {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        for field in FIELDS {
            for text in tool.texts(field) {
                check_text(&text, ctx);
            }
        }
    }

    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        if let Some(instructions) = set.instructions {
            let text = Text {
                field: Field::Instructions,
                node: &instructions.value,
            };
            check_text(&text, ctx);
        }
    }
}

fn check_text(text: &Text<'_>, ctx: &mut Ctx<'_>) {
    let value = text.value();
    // Every branch of the pattern needs a digit, a `{` (a placeholder) or a `-` (an id), and
    // one of its leading words: on other texts it is neither built nor run.
    if !value.contains(|c: char| c.is_numeric() || c == '{' || c == '-')
        || !VOLATILE_NEED.may_match(value)
    {
        return;
    }
    let Some(regex) = VOLATILE.as_ref() else {
        return;
    };
    for hit in text::find_all(regex, value, true) {
        let words = &value[hit.clone()];
        ctx.report(
            text.field,
            Anchor::Text(text.node, hit.clone()),
            format!("`{words}` changes between requests"),
        )
        .help(
            "leave the current date, time or session id out of tool text and the system prompt; \
             they are the cached prefix, and text that changes invalidates the cache on every \
             request. Pass it in the conversation or a tool result instead",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(value: &str) -> Vec<&str> {
        let regex = VOLATILE.as_ref().unwrap();
        text::find_all(regex, value, true)
            .into_iter()
            .map(|hit| &value[hit])
            .collect()
    }

    #[test]
    fn the_current_moment_is_volatile() {
        assert_eq!(found("Today is 2025-03-02."), ["Today is 2025-03-02"]);
        assert_eq!(
            found("Current time: 14:03 UTC"),
            ["Current time: 14:03 UTC"]
        );
        assert_eq!(
            found("The current date and time is 2025-03-02T14:03:11Z."),
            ["The current date and time is 2025-03-02T14:03:11Z"]
        );
        assert_eq!(
            found("Today's date: March 2, 2025"),
            ["Today's date: March 2, 2025"]
        );
        assert_eq!(found("As of 2 March 2025 the API"), ["As of 2 March 2025"]);
        assert_eq!(
            found("Current date: {{current_date}}"),
            ["Current date: {{current_date}}"]
        );
        assert_eq!(found("It is now ${now}."), ["It is now ${now}"]);
        assert_eq!(
            found("Session ID: 3f2a9c1e-1b2c-4d5e-8f90-123456789abc"),
            ["Session ID: 3f2a9c1e-1b2c-4d5e-8f90-123456789abc"]
        );
        assert_eq!(
            found("The current year is 2025."),
            ["The current year is 2025"]
        );
        assert_eq!(
            found("Last updated: 2025-03-02 10:00"),
            ["Last updated: 2025-03-02 10:00"]
        );
    }

    #[test]
    fn formats_examples_and_versions_are_not() {
        for value in [
            "Get the current time in a timezone.",
            "Days from the current date, e.g. 2024-01-15.",
            "Date in YYYY-MM-DD format (ISO 8601), e.g. 2024-01-15T10:00:00Z.",
            "Defaults to the current time.",
            "Requires version 1.2.3 or 2024.1.",
            "As of version 2.0, pages are cursors.",
            "As of 2024 the API is stable; as of March 2024 it is paged.",
            "If not provided, today's date will be considered as default.",
            "For example '123e4567-e89b-12d3-a456-426614174000'.",
            "Quoted `today is 2025-03-02` is not.",
            "how many errors today",
            "Changed as of {version}.",
        ] {
            assert!(found(value).is_empty(), "{value}: {:?}", found(value));
        }
    }
}
