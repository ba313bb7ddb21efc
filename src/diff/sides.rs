//! Each side read once: its files linted, and read as tools detached from their trees.

use std::sync::Arc;

use foldhash::HashMap;
use rayon::prelude::*;
use serde_json::Value;

use crate::diagnostic::{Diagnostic, Field, Severity};
use crate::lint::{Extras, FileReport, Linter};
use crate::normalize::Tool;
use crate::read::Input;
use crate::tokens::{Counter, Encoding};

use super::BLOCK;
use super::load::Side;

/// A JSON value kept as its compact text: a side of 100,000 tools holds each schema in a few
/// dozen bytes rather than a tree of maps ten times that, and two equal texts are equal values
/// without reading either. Read back only where the texts differ.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Json(Box<str>);

impl Json {
    fn of(node: &crate::parse::Node) -> Json {
        Json(node.to_json_string().into_boxed_str())
    }

    pub(super) fn value(&self) -> Value {
        // Read as the file was (serde_json's reader stops at 128 levels; a schema may have 256).
        crate::parse::json::parse(&self.0).map_or(Value::Null, |node| node.to_json())
    }

    /// Whether the two are different values (objects compare without their key order).
    pub(super) fn differs(old: Option<&Json>, new: Option<&Json>) -> bool {
        old != new && old.map(Json::value) != new.map(Json::value)
    }
}

/// One tool as the model reads it, detached from its tree.
#[derive(Debug, Clone)]
pub(super) struct ToolDef {
    pub(super) name: String,
    pub(super) title: Option<String>,
    pub(super) description: Option<String>,
    pub(super) snippet: Option<String>,
    pub(super) guidelines: Vec<String>,
    /// Each declared outcome's result text (`results:`), in file order.
    pub(super) results: Vec<(String, String)>,
    pub(super) schema: Option<Json>,
    pub(super) output_schema: Option<Json>,
    pub(super) annotations: Option<Json>,
    pub(super) deferred: bool,
    pub(super) tokens: usize,
    /// The JSON Pointer of its definition in its file.
    pub(super) pointer: String,
}

/// One file of one side, read as tools.
#[derive(Debug)]
pub(super) struct FileSide {
    pub(super) key: String,
    pub(super) name: String,
    pub(super) tools: Vec<ToolDef>,
    pub(super) instructions: Option<String>,
    /// Why the file could not be read as tools.
    pub(super) error: Option<String>,
}

/// A finding as `diff` matches and shows it: without the file's text, the help or the fix, so
/// that one side's findings weigh little while the other side is read.
#[derive(Debug)]
pub(super) struct Found {
    pub(super) code: Arc<str>,
    pub(super) rule: Arc<str>,
    pub(super) severity: Severity,
    pub(super) field: Field,
    pub(super) tool: Option<Arc<str>>,
    pub(super) pointer: String,
    pub(super) line: usize,
    pub(super) column: usize,
    pub(super) message: String,
}

impl Found {
    fn of(d: Diagnostic) -> Found {
        let at = d.file.line_column(d.span.start);
        Found {
            code: d.code,
            rule: d.rule,
            severity: d.severity,
            field: d.field,
            tool: d.tool,
            pointer: d.pointer.written(),
            line: at.line,
            column: at.column,
            message: d.message,
        }
    }
}

/// One side's findings, by file name, and the files whose linting failed.
#[derive(Default)]
pub(super) struct SideFindings {
    pub(super) by_file: HashMap<String, Vec<Found>>,
    pub(super) internal_errors: Vec<String>,
}

impl SideFindings {
    fn of(reports: Vec<FileReport>) -> SideFindings {
        let mut side = SideFindings::default();
        for report in reports {
            if let Some(message) = &report.internal_error {
                side.internal_errors
                    .push(format!("{}: {message}", report.file.name));
            }
            if report.linted {
                // On all cores: a large set has findings by the hundred thousand.
                let found = report
                    .diagnostics
                    .into_par_iter()
                    .with_min_len(BLOCK)
                    .map(Found::of)
                    .collect();
                side.by_file.insert(report.file.name.clone(), found);
            }
        }
        side
    }
}

/// Reads one side's files once: linted, and each read as tools.
pub(super) fn read_side(
    side: Side,
    linter: &Linter,
    encoding: Encoding,
) -> (Vec<FileSide>, SideFindings) {
    let (keys, inputs): (Vec<String>, Vec<Input>) = side.files.into_iter().unzip();
    let names: Vec<String> = inputs.iter().map(|input| input.name.clone()).collect();
    let parsed = linter.parse_all(inputs);
    // Linted, then read as tools. The lint counts the tools' tokens (its budget rules count
    // most of them anyway: counting them here too cost 0.3 CPU-s a side of 100,000 tools), and
    // runs its set rules at once, on all cores, rather than one after the other, while the
    // rest of the lint's memory is not yet taken. The tools are read after it: beside it, they
    // would be read while its set rules hold their indexes (100,000 tools: 20 MB more).
    let extras = Extras {
        tool_tokens: true,
        set_rules_at_once: true,
    };
    let mut reports = linter.lint_parsed_with(&parsed, extras);
    // Reports come in input order (the config's, if any, after them).
    let counts: Vec<Option<Vec<usize>>> = names
        .iter()
        .enumerate()
        .map(|(index, name)| {
            let report = reports.get_mut(index).filter(|r| &r.file.name == name)?;
            report.tool_tokens.take()
        })
        .collect();
    let sets = parsed.with_tool_sets(encoding, |index, set| {
        tools_of(set, counts[index].as_deref(), encoding)
    });
    let findings = SideFindings::of(reports);
    let files = keys
        .into_iter()
        .zip(names)
        .zip(sets)
        .map(|((key, name), read)| {
            let ((tools, instructions), error) = match read {
                Ok(read) => (read, None),
                Err(error) => ((Vec::new(), None), Some(error.message())),
            };
            FileSide {
                key,
                name,
                tools,
                instructions,
                error,
            }
        })
        .collect();
    crate::parallel::drop_in_background(parsed);
    (files, findings)
}

/// A file's tools as the diff compares them, and its instructions. Their tokens are the
/// lint's `counted`; without them (the file's lint failed: an internal error) they are counted
/// here.
fn tools_of(
    set: &crate::normalize::ToolSet<'_>,
    counted: Option<&[usize]>,
    encoding: Encoding,
) -> (Vec<ToolDef>, Option<String>) {
    let tokens: Vec<usize> = match counted {
        Some(counted) if counted.len() == set.tools.len() => counted.to_vec(),
        _ => {
            let tools: Vec<&Tool<'_>> = set.tools.iter().collect();
            Counter::new(encoding).totals(&tools)
        }
    };
    let text =
        |node: Option<&crate::parse::Node>| node.and_then(|node| node.as_str()).map(str::to_string);
    let defs: Vec<ToolDef> = set
        .tools
        .par_iter()
        .with_min_len(BLOCK)
        .zip(tokens)
        .map(|(tool, tokens)| ToolDef {
            name: tool.name().to_string(),
            title: text(tool.title.map(|e| &e.value)),
            description: text(tool.description()),
            snippet: text(tool.snippet()),
            guidelines: tool
                .guidelines()
                .filter_map(|node| node.as_str().map(str::to_string))
                .collect(),
            results: tool
                .results()
                .filter_map(|entry| {
                    Some((entry.key.to_string(), entry.value.as_str()?.to_string()))
                })
                .collect(),
            schema: tool.input_schema().map(Json::of),
            output_schema: tool.output_schema.map(|e| Json::of(&e.value)),
            annotations: tool.annotations.map(|e| Json::of(&e.value)),
            deferred: tool.defer_loading,
            tokens,
            pointer: tool.node.pointer.to_string(),
        })
        .collect();
    (defs, text(set.instructions.map(|e| &e.value)))
}

/// What a tool is besides its name, for rename detection: `None` for a tool with neither a
/// description nor a schema (two such tools are not alike for anything they say).
pub(super) fn fingerprint(tool: &ToolDef) -> Option<String> {
    if tool
        .description
        .as_deref()
        .is_none_or(|d| d.trim().is_empty())
        && tool.schema.is_none()
    {
        return None;
    }
    // The description may name the tool itself.
    let own = |text: &Option<String>| {
        text.as_deref()
            .map(|text| text.replace(tool.name.as_str(), "\u{0}"))
    };
    let value = serde_json::json!([
        own(&tool.description),
        tool.title,
        own(&tool.snippet),
        tool.guidelines
            .iter()
            .map(|g| g.replace(tool.name.as_str(), "\u{0}"))
            .collect::<Vec<_>>(),
        tool.schema.as_ref().map(Json::value),
        tool.output_schema.as_ref().map(Json::value),
        tool.annotations.as_ref().map(Json::value),
    ]);
    let mut out = String::new();
    canonical(&value, &mut out);
    Some(out)
}

/// `value` as JSON with object keys sorted, at every depth.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (index, (key, item)) in entries.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical(item, out);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_sorts_keys_at_every_depth() {
        let a = serde_json::json!({"b": 1, "a": {"d": [1, {"f": 1, "e": 2}], "c": null}});
        let mut out = String::new();
        canonical(&a, &mut out);
        assert_eq!(out, r#"{"a":{"c":null,"d":[1,{"e":2,"f":1}]},"b":1}"#);
    }
    use crate::catalog::Registry;

    /// A tool's tokens are the lint's when it counted them, and counted here when it did not
    /// (its lint failed) or counted another number of tools.
    #[test]
    fn tools_take_the_lints_counts_or_count_their_own() {
        let input = Input {
            name: "set.json".into(),
            bytes: br#"[{"name": "fetch_page", "description": "Fetch one page by its URL."},
                {"name": "search", "description": "Search the pages.", "inputSchema":
                {"type": "object", "properties": {"q": {"type": "string"}}}}]"#
                .to_vec(),
        };
        let registry = Registry::builtin().unwrap();
        let encoding = Encoding::O200kBase;
        let tokens = |counted: Option<&[usize]>| {
            crate::lint::with_tool_set(input.clone(), &registry, encoding, |set| {
                let (tools, _) = tools_of(set, counted, encoding);
                tools.iter().map(|tool| tool.tokens).collect::<Vec<usize>>()
            })
            .unwrap()
        };
        let own = tokens(None);
        assert_eq!(own.len(), 2);
        assert!(own[0] > 5 && own[1] > own[0], "{own:?}");
        assert_eq!(tokens(Some(&[7, 9])), [7, 9]);
        assert_eq!(tokens(Some(&[7])), own);
    }

    #[test]
    fn json_texts_compare_as_values() {
        let json = |text: &str| Json::of(&crate::parse::json::parse(text).unwrap());
        let (a, b) = (json(r#"{"x": 1, "y": [2]}"#), json(r#"{"y": [2], "x": 1}"#));
        assert_ne!(a, b, "the texts keep the key order");
        assert!(!Json::differs(Some(&a), Some(&b)));
        assert!(Json::differs(
            Some(&a),
            Some(&json(r#"{"x": 1, "y": [3]}"#))
        ));
        assert!(Json::differs(Some(&a), None));
        assert!(!Json::differs(None, None));
        // Deeper than serde_json reads: still the same value.
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        let value = json(&deep).value();
        assert_eq!(value.to_string(), deep);
    }
}
