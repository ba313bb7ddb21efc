//! Fixes (`lint --fix`) of the rules whose catalog entry says `fixable: true`: on each of the
//! rule's `invalid*` fixtures, applying the fixes removes exactly the findings that carried
//! them, and linting the fixed text with every rule finds nothing that was not there before.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use toolcheck::catalog::Registry;
use toolcheck::lint::FileReport;

/// A finding's identity that survives edits elsewhere in the file: rule, pointer, flagged text.
type Key = (String, String, String);

fn keys(report: &FileReport) -> Vec<Key> {
    report
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.code.to_string(),
                d.pointer.to_string(),
                d.file.text[d.span.clone()].to_string(),
            )
        })
        .collect()
}

fn invalid_fixtures(family: &str, rule: &str) -> Vec<PathBuf> {
    let dir = common::root().join("fixtures").join(family).join(rule);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            name.starts_with("invalid") && !name.ends_with(".toolcheck.yaml") && path.is_file()
        })
        .collect();
    paths.sort();
    paths
}

/// Lints `text` as the fixture at `path` would be linted, with only `rule` or with every rule.
fn lint(path: &Path, text: &str, rule: Option<&str>) -> FileReport {
    // Tests run in parallel: each lint gets its own folder.
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let scratch = common::scratch(&format!("fixable-{}", RUNS.fetch_add(1, Ordering::Relaxed)));
    let copy = scratch.join(path.file_name().unwrap());
    std::fs::write(&copy, text).unwrap();
    let config = path.with_extension("toolcheck.yaml");
    if config.is_file() {
        std::fs::copy(&config, copy.with_extension("toolcheck.yaml")).unwrap();
    }
    match rule {
        Some(rule) => common::lint_with_rule(&copy, "fixture", rule),
        None => common::lint_text(&copy.display().to_string(), text),
    }
}

#[test]
fn fixes_remove_their_findings_and_add_none() {
    let registry = Registry::builtin().unwrap();
    let fixable: Vec<_> = registry.rules.iter().filter(|r| r.meta.fixable).collect();
    assert!(!fixable.is_empty());
    for rule in fixable {
        let meta = &rule.meta;
        let mut fixed_any = false;
        for path in invalid_fixtures(meta.family.as_str(), &meta.name) {
            let shown = path
                .strip_prefix(common::root())
                .unwrap()
                .display()
                .to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let before = lint(&path, &text, Some(&meta.name));
            let Some((fixed_text, count)) =
                toolcheck::fix::apply(&before.file.text, &before.diagnostics)
            else {
                continue;
            };
            fixed_any = true;
            let with_fix: Vec<Key> = before
                .diagnostics
                .iter()
                .filter(|d| d.fix.is_some())
                .map(|d| {
                    (
                        d.code.to_string(),
                        d.pointer.to_string(),
                        d.file.text[d.span.clone()].to_string(),
                    )
                })
                .collect();
            assert_eq!(
                count,
                with_fix.len(),
                "{shown}: every fix applies in one pass"
            );
            let after = keys(&lint(&path, &fixed_text, Some(&meta.name)));
            for key in &with_fix {
                assert!(
                    !after.contains(key),
                    "{shown}: the fixed finding {key:?} is still there in:\n{fixed_text}"
                );
            }
            assert_eq!(
                after.len(),
                before.diagnostics.len() - with_fix.len(),
                "{shown}: after the fix:\n{fixed_text}\n{after:?}"
            );
            let all_before: BTreeSet<Key> = keys(&lint(&path, &text, None)).into_iter().collect();
            let new: Vec<Key> = keys(&lint(&path, &fixed_text, None))
                .into_iter()
                .filter(|key| !all_before.contains(key))
                .collect();
            assert!(
                new.is_empty(),
                "{shown}: the fix brings new findings {new:?} in:\n{fixed_text}"
            );
        }
        assert!(fixed_any, "{}: no invalid fixture has a fix", meta.name);
    }
}

#[test]
fn this_tool_becomes_the_tools_name_where_that_keeps_the_meaning() {
    let path = common::root().join("fixtures/wording/this-tool-reference/invalid.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let report = lint(&path, &text, Some("this-tool-reference"));
    let (fixed, count) = toolcheck::fix::apply(&report.file.text, &report.diagnostics).unwrap();
    assert_eq!(count, 3);
    let lines: Vec<&str> = fixed.lines().skip(3).collect();
    assert_eq!(
        lines,
        [
            "name: read_many_files",
            "description: Read several files at once. Not for a single file; use read_file.",
            "snippet: Read many files with read_many_files",
            "guidelines:",
            "  - Use read_many_files when the user's query implies needing the content of several files.",
            "  - \"Use read_many_files for globs; read_many_files's output lists each file's path first.\"",
            // `the tool` and `this function` are findings without a fix; a quoted phrase is
            // mentioned, not used.
            "  - The tool will skip binary files unless they are named explicitly.",
            "  - Call this function once per directory, not once per file.",
            "  - Never write \"this tool\" in a reply to the user.",
        ]
    );
}

#[test]
fn a_json_snippet_is_fixed_inside_its_string() {
    let path = common::root().join("fixtures/wording/this-tool-reference/invalid_mcp.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let report = lint(&path, &text, Some("this-tool-reference"));
    let (fixed, count) = toolcheck::fix::apply(&report.file.text, &report.diagnostics).unwrap();
    assert_eq!(count, 1);
    assert!(fixed.contains(r#""promptSnippet": "Search issues with search""#));
    assert!(fixed.contains("Use this function for issue lookups only."));
    assert!(serde_json::from_str::<serde_json::Value>(&fixed).is_ok());
}

#[test]
fn instructions_are_not_rewritten() {
    // In the instructions nobody knows which tool was meant: a finding, never a fix.
    let path =
        common::root().join("fixtures/wording/this-tool-reference/invalid_instructions.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let report = lint(&path, &text, Some("this-tool-reference"));
    assert!(!report.diagnostics.is_empty());
    assert!(report.diagnostics.iter().all(|d| d.fix.is_none()));
}
