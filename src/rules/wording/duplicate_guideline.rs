//! The check of `duplicate-guideline`. Its code, docs and default options are in
//! `rules/wording/duplicate-guideline.yaml`.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::parse::Span;
use crate::parse::source::SourceFile;
use crate::rule::{AcrossFiles, Anchor, Ctx, Outline, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuplicateGuideline {}

impl Rule for DuplicateGuideline {
    fn across_files(&self) -> Option<Box<dyn AcrossFiles + '_>> {
        Some(Box::new(Guidelines::default()))
    }
}

/// Every guideline text of a run so far, trimmed, with where it was first given.
#[derive(Default)]
struct Guidelines {
    first: HashMap<String, First>,
    /// How many files were checked: the current file's number.
    files: usize,
}

/// Where a guideline text was first given.
struct First {
    file_number: usize,
    tool: usize,
    name: String,
    file: Arc<SourceFile>,
    span: Span,
}

impl AcrossFiles for Guidelines {
    fn check(&mut self, outline: &Outline, ctx: &mut Ctx<'_>) {
        let file_number = self.files;
        self.files += 1;
        for (tool_index, tool) in outline.tools.iter().enumerate() {
            let name = tool.name.as_str();
            for guideline in &tool.guidelines {
                let text = guideline.text.trim();
                if text.is_empty() {
                    continue;
                }
                let Some(original) = self.first.get(text) else {
                    self.first.insert(
                        text.to_string(),
                        First {
                            file_number,
                            tool: tool_index,
                            name: name.to_string(),
                            file: ctx.file.clone(),
                            span: guideline.span.clone(),
                        },
                    );
                    continue;
                };
                let same_tool = original.file_number == file_number && original.tool == tool_index;
                // Another definition of the same tool (a second variant of a harness, a
                // copy in another file) is not another tool losing its rule; two
                // definitions of one name in one file are `duplicate-tool-name`'s.
                if !same_tool && !name.is_empty() && original.name == name {
                    continue;
                }
                let (message, related, help) = if same_tool {
                    (
                        "the same guideline appears twice in this tool".to_string(),
                        "first written here".to_string(),
                        "delete the repeated line; hosts keep one copy of each guideline text"
                            .to_string(),
                    )
                } else {
                    let other = if original.name.is_empty() {
                        "another tool".to_string()
                    } else {
                        format!("`{}`", original.name)
                    };
                    (
                        format!("the same guideline is already given for {other}"),
                        format!("first given for {other} here"),
                        format!(
                            "hosts keep one copy of each guideline text, so one of the two \
                             tools loses it: reword it to name {}",
                            if name.is_empty() {
                                "this tool".to_string()
                            } else {
                                format!("`{name}`")
                            }
                        ),
                    )
                };
                ctx.set_tool(Some(name).filter(|name| !name.is_empty()));
                ctx.report(Field::Guidelines, Anchor::Placed(guideline), message)
                    .related_in(related, &original.file, original.span.clone())
                    .help(help);
            }
        }
        ctx.set_tool(None);
    }
}

#[cfg(test)]
mod tests {
    use crate::catalog::Registry;
    use crate::config::Config;
    use crate::lint::{Linter, Overrides};
    use crate::read::Input;

    fn tool(name: &str, guideline: &str) -> String {
        format!(
            r#"{{"name": "{name}", "description": "Do {name}. Not for x.", "promptGuidelines": ["{guideline}"], "parameters": {{"type": "object"}}}}"#
        )
    }

    /// Each file's TC206 findings as `tool pointer -> related file`.
    fn findings(files: &[(&str, String)]) -> Vec<Vec<String>> {
        let registry = Registry::builtin().unwrap();
        let linter = Linter::new(
            &registry,
            &Config::defaults(".".into()),
            &Overrides::default(),
        )
        .unwrap();
        let inputs = files
            .iter()
            .map(|(name, text)| Input {
                name: name.to_string(),
                bytes: text.clone().into_bytes(),
            })
            .collect();
        linter
            .lint_all(inputs)
            .iter()
            .map(|report| {
                report
                    .diagnostics
                    .iter()
                    .filter(|d| &*d.code == "TC206")
                    .map(|d| {
                        let related = d.related.first().map(|r| r.file.name.clone());
                        format!(
                            "{} {} -> {}",
                            d.tool.as_deref().unwrap_or_default(),
                            d.pointer,
                            related.unwrap_or_default()
                        )
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_guideline_of_another_file_is_related_to_its_first_occurrence() {
        let found = findings(&[
            (
                "a.json",
                format!("[{}]", tool("read", "Use absolute paths.")),
            ),
            (
                "b.json",
                format!("[{}]", tool("write", "Use absolute paths.")),
            ),
            (
                "c.json",
                format!("[{}]", tool("edit", " Use absolute paths. ")),
            ),
        ]);
        assert_eq!(
            found,
            [
                vec![],
                vec!["write /0/promptGuidelines/0 -> a.json".to_string()],
                vec!["edit /0/promptGuidelines/0 -> a.json".to_string()],
            ]
        );
    }

    #[test]
    fn another_definition_of_the_same_tool_is_not_flagged() {
        let found = findings(&[
            (
                "v1.json",
                format!("[{}]", tool("read", "Use read for files.")),
            ),
            (
                "v2.json",
                format!("[{}]", tool("read", "Use read for files.")),
            ),
        ]);
        assert_eq!(found, [Vec::<String>::new(), vec![]]);
    }
}
