//! The check of `runtime-limit-not-stated`. Its code, docs and default options are in
//! `rules/schema/runtime-limit-not-stated.yaml`.

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use super::helpers::{self, NUMBER_WORDS, format_number};
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuntimeLimitNotStated {}

/// Digits, with optional thousands separators and decimals (`2`, `1,000`, `0.5`).
static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?").expect("a literal, valid regex")
});

/// Words: letters only, so `twenty-four` splits into `twenty` and `four`.
static WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z]+").expect("a literal, valid regex"));

/// Every number a text mentions, in digits or in words. Compound words (`twenty-four`)
/// also count as their sum.
fn numbers_in(text: &str) -> Vec<f64> {
    let mut numbers: Vec<f64> = NUMBER
        .find_iter(text)
        .filter_map(|m| m.as_str().replace(',', "").parse().ok())
        .collect();
    let mut previous: Option<(usize, f64)> = None;
    for word in WORD.find_iter(text) {
        let lower = word.as_str().to_ascii_lowercase();
        let Some(&(_, value)) = NUMBER_WORDS.iter().find(|(name, _)| *name == lower) else {
            previous = None;
            continue;
        };
        numbers.push(value);
        // `twenty-four`, `twenty four`: a ten followed by a unit.
        if let Some((end, tens)) = previous {
            let between = &text[end..word.start()];
            if (between == "-" || between == " ") && (20.0..100.0).contains(&tens) && value < 10.0 {
                numbers.push(tens + value);
            }
            // `one hundred`, `two thousand`.
            if between == " " && (value == 100.0 || value == 1000.0) {
                numbers.push(tens * value);
            }
        }
        previous = Some((word.end(), value));
    }
    numbers
}

impl Rule for RuntimeLimitNotStated {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let limits = helpers::limits(tool);
        if limits.is_empty() {
            return;
        }
        let mut stated: Vec<f64> = Vec::new();
        for text in tool.description().into_iter().chain(tool.guidelines()) {
            stated.extend(numbers_in(text.as_str().unwrap_or_default()));
        }
        for limit in &limits {
            for (bound, entry, value) in &limit.bounds {
                if stated.contains(value) {
                    continue;
                }
                let number = format_number(*value);
                ctx.report(
                    Field::Limits,
                    Anchor::Value(&entry.value),
                    format!(
                        "`{}: {number}` is not stated in the description or guidelines",
                        bound.limit_key()
                    ),
                )
                .help(format!(
                    "say it where the model reads it before the call, e.g. `{}` in the \
                     description",
                    example(bound.is_min(), &number)
                ));
            }
        }
    }
}

fn example(is_min: bool, number: &str) -> String {
    if is_min {
        format!("at least {number}")
    } else {
        format!("up to {number}")
    }
}

#[cfg(test)]
mod tests {
    use super::numbers_in;

    #[test]
    fn finds_digits_words_and_ranges() {
        let found =
            numbers_in("Ask one to four questions, each with 2-4 options, up to 1,000 chars");
        for n in [1.0, 4.0, 2.0, 1000.0] {
            assert!(found.contains(&n), "{n} in {found:?}");
        }
        assert!(numbers_in("twenty-four hours").contains(&24.0));
        assert!(numbers_in("Between 2 and 10 items").contains(&10.0));
        assert!(!numbers_in("someone often").contains(&1.0));
    }
}
