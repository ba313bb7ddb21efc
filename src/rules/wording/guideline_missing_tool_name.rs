//! The check of `guideline-missing-tool-name`. Its code, docs and default options are in
//! `rules/wording/guideline-missing-tool-name.yaml`.

use serde::Deserialize;

use super::helpers::name_mentions;
use crate::lint::diagnostic::Field;
use crate::lint::rule::{Ctx, Rule, Target};
use crate::normalize::Tool;

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
            if value.trim().is_empty() || names(value, name, &lower_name) {
                continue;
            }
            ctx.report(
                Field::Guidelines,
                Target::Value(text.node),
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
}
