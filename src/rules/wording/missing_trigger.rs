//! The check of `missing-trigger`. Its code, docs and default options are in
//! `rules/wording/missing-trigger.yaml`.

use std::borrow::Cow;

use regex::Regex;
use serde::Deserialize;

use crate::catalog::text;
use crate::lint::diagnostic::Field;
use crate::lint::rule::{Ctx, Rule, Target};
use crate::normalize::Tool;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct MissingTrigger {
    words: Phrases,
    /// Check only the tools that have guidelines (whose descriptions stand alone when a host
    /// drops the system-prompt parts).
    only_with_guidelines: bool,
}

/// The trigger phrases: checked when the options are read, compiled once unless a phrase
/// names the tool (`call {name}`).
#[derive(Debug)]
struct Phrases {
    phrases: Vec<String>,
    fixed: Option<Regex>,
}

impl<'de> Deserialize<'de> for Phrases {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let phrases = Vec::<String>::deserialize(deserializer)?;
        if phrases.iter().all(|phrase| phrase.trim().is_empty()) {
            return Err(serde::de::Error::custom("give at least one phrase"));
        }
        let compiled = text::phrases_regex(&phrases, "", false)
            .map_err(|error| serde::de::Error::custom(format!("invalid words: {error}")))?;
        let fixed = (!phrases.iter().any(|p| p.contains("{name}"))).then_some(compiled);
        Ok(Phrases { phrases, fixed })
    }
}

impl Phrases {
    fn regex(&self, tool_name: &str) -> Option<Cow<'_, Regex>> {
        match &self.fixed {
            Some(regex) => Some(Cow::Borrowed(regex)),
            None => text::phrases_regex(&self.phrases, tool_name, false)
                .ok()
                .map(Cow::Owned),
        }
    }
}

impl Rule for MissingTrigger {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let has_guidelines = tool
            .guidelines()
            .any(|node| node.as_str().is_some_and(|value| !value.trim().is_empty()));
        if self.only_with_guidelines && !has_guidelines {
            return;
        }
        // A missing or empty description is `missing-description`'s.
        let Some(description) = tool.description() else {
            return;
        };
        let value = description.as_str().unwrap_or_default();
        if value.trim().is_empty() {
            return;
        }
        let name = tool.name();
        let Some(regex) = self.words.regex(name) else {
            return;
        };
        if !text::find_all(&regex, value, true).is_empty() {
            return;
        }
        let subject = if name.is_empty() {
            "the tool".to_string()
        } else {
            format!("`{name}`")
        };
        let why = if has_guidelines {
            "a host with its own system prompt drops the guidelines, and the description must \
             then say on its own when to call the tool"
        } else {
            "the description is what a model reads when it decides whether to call the tool"
        };
        ctx.report(
            Field::Description,
            Target::Value(description),
            format!("the description never says when to call {subject}"),
        )
        .help(format!(
            "add the situation the tool is for (e.g. \"Use {} when …\"): {why}",
            if name.is_empty() { "it" } else { name }
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phrases() -> Phrases {
        let phrases: Vec<String> = [
            "when",
            "whenever",
            "if you",
            "if the user",
            "use for",
            "use to",
            "use this to",
            "call {name}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        Phrases {
            phrases,
            fixed: None,
        }
    }

    fn triggered(value: &str) -> bool {
        let phrases = phrases();
        let regex = phrases.regex("search_docs").unwrap();
        !text::find_all(&regex, value, true).is_empty()
    }

    #[test]
    fn triggers_are_found() {
        assert!(triggered(
            "Search the docs. Use when the user asks about the API."
        ));
        assert!(triggered("Call search_docs before you answer."));
        assert!(triggered("Use this to look up an API."));
        assert!(triggered("If the user asks for docs, search them."));
    }

    #[test]
    fn quoted_or_missing_triggers_are_not() {
        assert!(!triggered("Search the docs. Returns passages."));
        assert!(!triggered("Search the docs for `when` clauses."));
        assert!(!triggered("Call search_docs_v2 instead."));
    }
}
