//! The check of `outcomes-read-alike`. Its code and docs are in
//! `rules/results/outcomes-read-alike.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutcomesReadAlike {}

impl Rule for OutcomesReadAlike {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let mut seen: Vec<(String, &str)> = Vec::new();
        for entry in tool.results() {
            let Some(text) = entry.value.as_str() else {
                continue;
            };
            let shape = shape(text);
            if shape.is_empty() {
                continue;
            }
            match seen.iter().find(|(earlier, _)| *earlier == shape) {
                Some((_, first)) => {
                    let how = if text.contains('{') {
                        "reads like"
                    } else {
                        "is the same text as"
                    };
                    ctx.report(
                        Field::Results,
                        Anchor::Value(&entry.value),
                        format!(
                            "result `{}` {how} result `{first}`: the model cannot tell the \
                             outcomes apart",
                            entry.key
                        ),
                    )
                    .help(
                        "say in words how this outcome differs (\"The user answered some of the \
                         questions and skipped the others\"), and what to do about it",
                    );
                }
                None => seen.push((shape, entry.key.as_str())),
            }
        }
    }
}

/// A text as the model reads it apart from the values filled in: each `{placeholder}` one
/// mark, words in lower case, white space collapsed.
fn shape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_placeholder = false;
    for c in text.chars() {
        match c {
            '{' => {
                in_placeholder = true;
                out.push('{');
            }
            '}' if in_placeholder => {
                in_placeholder = false;
                out.push('}');
            }
            _ if in_placeholder => {}
            c if c.is_whitespace() => {
                if !out.ends_with(' ') {
                    out.push(' ');
                }
            }
            c => out.extend(c.to_lowercase()),
        }
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::shape;

    #[test]
    fn placeholders_case_and_spaces_do_not_tell_texts_apart() {
        assert_eq!(
            shape("User answered: {answers}"),
            shape("user  answered:\n{partial}")
        );
        assert_ne!(
            shape("User answered: {answers}"),
            shape("User answered some: {answers}")
        );
        assert_eq!(shape("  "), "");
    }
}
