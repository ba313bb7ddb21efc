//! The check of `guideline-missing-tool-name`. Its code, docs and default options are in
//! `rules/wording/guideline-missing-tool-name.yaml`.

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use super::helpers::name_mentions;
use super::this_tool_reference::is_generic;
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};
use crate::text;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuidelineMissingToolName {}

impl Rule for GuidelineMissingToolName {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let name = tool.name();
        if name.trim().is_empty() {
            return;
        }
        let lower_name = name.to_lowercase();
        for text in tool.texts(Field::Guidelines) {
            let value = text.value();
            if value.trim().is_empty() || names(value, name, &lower_name) || refers_to_a_tool(value)
            {
                continue;
            }
            ctx.report(
                Field::Guidelines,
                Anchor::Value(text.node),
                format!("guideline does not name `{name}`"),
            )
            .help(format!(
                "write `{name}` in the guideline (e.g. \"Use {name} to …\"): hosts put every \
                 tool's guidelines into one flat list, where a line that names no tool belongs \
                 to none"
            ));
        }
    }
}

/// Whether `value` names the tool: `name` as a whole identifier (not inside `read_file` or
/// `read-only`), in backticks or not, in any case (`Read` at the start of a sentence).
fn names(value: &str, name: &str, lower_name: &str) -> bool {
    if !name_mentions(value, name).is_empty() {
        return true;
    }
    // Lower-casing keeps byte offsets only for ASCII; other text is matched as written.
    value.is_ascii()
        && name.is_ascii()
        && !name_mentions(&value.to_ascii_lowercase(), lower_name).is_empty()
}

/// `this tool`, `this function` or a `the tool` that points at one tool: `this-tool-reference`
/// reports the guideline already, with the same fix (write the name).
fn refers_to_a_tool(value: &str) -> bool {
    static REFERENCES: LazyLock<Regex> = LazyLock::new(|| {
        let words: Vec<String> = ["this tool", "this function", "the tool"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        text::phrases_regex(&words, "", false).expect("the built-in phrases compile")
    });
    text::find_all(&REFERENCES, value, true)
        .into_iter()
        .any(|hit| !is_generic(value, &hit))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(value: &str, name: &str) -> bool {
        names(value, name, &name.to_lowercase())
    }

    #[test]
    fn the_name_as_a_whole_identifier_counts() {
        assert!(named("Use read to examine files.", "read"));
        assert!(named("Use `read` to examine files.", "read"));
        assert!(named("Read before you edit.", "read"));
        assert!(named("Merge nearby changes into one edit.", "edit"));
        assert!(named("Prefer search_docs(query) over grep", "search_docs"));
    }

    #[test]
    fn a_part_of_another_word_does_not() {
        assert!(!named("Use read_file to examine files.", "read"));
        assert!(!named("Open files read-only.", "read"));
        assert!(!named("Keep edits[].oldText small.", "edit"));
        assert!(!named("Use read to examine files.", "read_file"));
        assert!(!named("Use this tool for files.", "read"));
    }

    #[test]
    fn a_reference_left_to_this_tool_reference_is_not_reported_twice() {
        assert!(refers_to_a_tool("Use this tool only when you are blocked."));
        assert!(refers_to_a_tool("The tool will skip binary files."));
        assert!(!refers_to_a_tool(
            "Pass the ids to the tool that created them."
        ));
        assert!(!refers_to_a_tool("Quote `this tool` as written."));
    }
}
