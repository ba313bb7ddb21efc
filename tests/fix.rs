//! `lint --fix` and `lint --diff`: the fixes change only the bytes of their spans, the fixed
//! findings are gone when the result is linted again, and nothing new appears.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

fn toolcheck(dir: &Path, args: &[&str]) -> (i32, String, String) {
    common::run(dir, args, None)
}

/// A copy of fixture `name` of TC402 in a fresh directory.
fn copy_fixture(test: &str, name: &str) -> (std::path::PathBuf, String) {
    let dir = common::scratch(test);
    let text = std::fs::read_to_string(
        common::root()
            .join("fixtures/schema/non-object-root")
            .join(name),
    )
    .expect("fixture");
    std::fs::write(dir.join(name), &text).expect("scratch is writable");
    (dir, text)
}

/// (code, pointer) of every finding of `path`, linted in process with every rule on.
fn findings(path: &Path) -> BTreeSet<(String, String)> {
    let text = std::fs::read_to_string(path).expect("readable");
    let report = lint_text(path, text);
    report
        .diagnostics
        .iter()
        .map(|d| (d.code.to_string(), d.pointer.to_string()))
        .collect()
}

fn lint_text(path: &Path, text: String) -> toolcheck::lint::FileReport {
    let registry = toolcheck::catalog::Registry::builtin().expect("catalog");
    let config = toolcheck::config::Config::defaults(".".into());
    let linter = toolcheck::lint::Linter::new(&registry, &config, &Default::default())
        .expect("default selection");
    let json = path.extension().is_some_and(|ext| ext == "json");
    let name = path.display().to_string();
    linter.lint(toolcheck::parse::source::SourceFile::new(name, text), json)
}

#[test]
fn yaml_fixes_write_only_their_lines() {
    let (dir, before) = copy_fixture("fix_yaml", "invalid.yaml");
    let findings_before = findings(&dir.join("invalid.yaml"));
    let (code, stdout, stderr) = toolcheck(
        &dir,
        &[
            "lint",
            "--no-config",
            "--fix",
            "-q",
            "--format",
            "concise",
            "invalid.yaml",
        ],
    );
    assert_eq!(stderr, "fixed 2 findings\n");
    assert_eq!(code, 1, "the findings without a fix remain: {stdout}");
    let after = std::fs::read_to_string(dir.join("invalid.yaml")).expect("readable");
    let expected = before
        .replacen("      type: dict\n", "      type: object\n", 1)
        .replacen(
            "    input_schema:\n      properties:\n        city:",
            "    input_schema:\n      type: object\n      properties:\n        city:",
            1,
        );
    assert_eq!(after, expected);
    // The two fixed findings are gone; nothing is new.
    let findings_after = findings(&dir.join("invalid.yaml"));
    let gone: BTreeSet<_> = findings_before
        .difference(&findings_after)
        .cloned()
        .collect();
    assert_eq!(
        gone,
        BTreeSet::from([
            (
                "TC402".to_string(),
                "/tools/0/input_schema/type".to_string()
            ),
            ("TC402".to_string(), "/tools/1/input_schema".to_string()),
        ])
    );
    assert!(
        findings_after.is_subset(&findings_before),
        "{findings_after:?}"
    );
}

#[test]
fn json_fixes_keep_the_rest_of_the_line() {
    let (dir, before) = copy_fixture("fix_json", "invalid_properties_without_type.json");
    toolcheck(
        &dir,
        &[
            "lint",
            "--no-config",
            "--fix",
            "-q",
            "invalid_properties_without_type.json",
        ],
    );
    let after = std::fs::read_to_string(dir.join("invalid_properties_without_type.json")).unwrap();
    assert_eq!(
        after,
        before.replacen(
            "\"inputSchema\": {\"properties\"",
            "\"inputSchema\": {\"type\": \"object\", \"properties\"",
            1
        )
    );
    serde_json::from_str::<serde_json::Value>(&after).expect("still JSON");
}

#[test]
fn diff_prints_the_change_and_writes_nothing() {
    let (dir, before) = copy_fixture("fix_diff", "invalid_bfcl.json");
    let (code, stdout, _) = toolcheck(
        &dir,
        &["lint", "--no-config", "--diff", "invalid_bfcl.json"],
    );
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "--- a/invalid_bfcl.json\n+++ b/invalid_bfcl.json\n@@ -5,3 +5,3 @@\n     \"parameters\": {\n-      \"type\": \"dict\",\n+      \"type\": \"object\",\n       \"properties\": {\"number\": {\"type\": \"integer\", \"description\": \"The number.\"}},\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("invalid_bfcl.json")).unwrap(),
        before
    );
    // Nothing to fix: no diff, exit 0.
    let (dir, _) = copy_fixture("fix_diff_clean", "valid_mcp.json");
    let (code, stdout, stderr) =
        toolcheck(&dir, &["lint", "--no-config", "--diff", "valid_mcp.json"]);
    assert_eq!((code, stdout.as_str()), (0, ""));
    assert_eq!(stderr, "nothing to fix: no finding of this run has a fix\n");
}

/// `--fix -` prints the fixed text, as `ruff --fix -` does, for an editor to put back; the
/// findings left go to stderr. Standard input is read once: the second pass lints the text as
/// fixed, not an empty one.
#[test]
fn standard_input_fixed_is_printed_and_read_once() {
    let (dir, _) = copy_fixture("fix_stdin", "invalid_bfcl.json");
    let text = std::fs::read_to_string(dir.join("invalid_bfcl.json")).unwrap();
    let args = [
        "lint",
        "--no-config",
        "--fix",
        "--format",
        "concise",
        "--select",
        "TC402",
        "--stdin-filename",
        "x.json",
        "-",
    ];
    let (code, stdout, stderr) = common::run(&dir, &args, Some(&text));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout,
        text.replacen("\"type\": \"dict\"", "\"type\": \"object\"", 1)
    );
    assert!(
        stderr.starts_with(
            "fixed 1 finding\n\
             x.json:14:28: error: TC402 non-object-root the input schema's root `type` is a \
             number, not `object`\n\
             1 error, 0 warnings in 1 file (2 tools)\n"
        ),
        "{stderr}"
    );
    // Nothing to fix: the text as it came.
    let (code, stdout, _) = common::run(&dir, &args, Some("{\"tools\": []}"));
    assert_eq!((code, stdout.as_str()), (0, "{\"tools\": []}"));
    // With other paths the output could not be the text: refused, and no file is written.
    let mut mixed = args.to_vec();
    mixed.push("invalid_bfcl.json");
    let (code, stdout, stderr) = common::run(&dir, &mixed, Some(&text));
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("`-` must be the only path"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("invalid_bfcl.json")).unwrap(),
        text
    );
}

/// Every fixable finding of the shared corpora, fixed on copies: each file stays valid JSON or
/// YAML, is byte-identical outside the fixed spans, and linting it again finds none of the
/// fixed findings and nothing new. Skips without `../shared/corpora`.
#[test]
fn fixes_on_the_shared_corpora() {
    let corpora = common::root().join("../shared/corpora");
    if !corpora.is_dir() {
        eprintln!("skipped: ../shared/corpora is absent");
        return;
    }
    let dir = common::scratch("fix_corpora");
    let mut files = Vec::new();
    for entry in walk(&corpora) {
        let ext = entry.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "json" | "yaml" | "yml") {
            continue;
        }
        let relative = entry.strip_prefix(&corpora).unwrap();
        let copy = dir.join(relative.to_string_lossy().replace('/', "__"));
        std::fs::copy(&entry, &copy).unwrap();
        files.push(copy);
    }
    // Before: each file's findings and the edits of the fixable ones.
    let mut fixed_total = 0;
    let mut expected = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let report = lint_text(file, text.clone());
        let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
        let mut fixed = BTreeSet::new();
        for diagnostic in &report.diagnostics {
            if let Some(fix) = &diagnostic.fix {
                fixed.insert((diagnostic.code.to_string(), diagnostic.pointer.to_string()));
                edits.extend(
                    fix.edits
                        .iter()
                        .map(|e| (e.span.clone(), e.replacement.clone())),
                );
            }
        }
        edits.sort_by_key(|(span, _)| span.start);
        // The file with exactly those edits: each unchanged stretch copied as it was.
        let mut result = String::new();
        let mut at = 0;
        for (span, replacement) in &edits {
            assert!(span.start >= at, "overlapping edits in {}", file.display());
            result.push_str(&text[at..span.start]);
            result.push_str(replacement);
            at = span.end;
        }
        result.push_str(&text[at..]);
        fixed_total += fixed.len();
        let before: BTreeSet<_> = report
            .diagnostics
            .iter()
            .map(|d| (d.code.to_string(), d.pointer.to_string()))
            .collect();
        expected.push((file.clone(), result, fixed, before));
    }
    assert!(
        fixed_total > 1000,
        "the corpora have BFCL's `dict` roots: {fixed_total}"
    );
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let args: Vec<&str> = ["lint", "--no-config", "--fix", "-q", "--format", "json"]
        .into_iter()
        .chain(names.iter().map(String::as_str))
        .collect();
    let (code, _, stderr) = toolcheck(&dir, &args);
    assert!(code == 0 || code == 1, "{stderr}");
    assert_eq!(stderr, format!("fixed {fixed_total} findings\n"));
    for (file, result, fixed, before) in expected {
        let after = std::fs::read_to_string(&file).unwrap();
        assert!(
            after == result,
            "{}: bytes outside the fixed spans changed",
            file.display()
        );
        if file.extension().is_some_and(|e| e == "json") {
            serde_json::from_str::<serde_json::Value>(&after)
                .unwrap_or_else(|e| panic!("{} is no longer JSON: {e}", file.display()));
        } else {
            toolcheck::parse::yaml::parse(&after)
                .unwrap_or_else(|e| panic!("{} is no longer YAML: {}", file.display(), e.message));
        }
        let now = findings(&file);
        assert!(
            now.is_disjoint(&fixed),
            "{}: a fixed finding is back",
            file.display()
        );
        let new: Vec<_> = now.difference(&before).collect();
        assert!(new.is_empty(), "{}: new findings {new:?}", file.display());
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Issue 30: a fix on an anchored value or an alias would change every place that shares it
/// (`type: &t dict` repeated as a `default`; one snippet shared by two tools): it is not
/// applied, and its help says why. The other fixes of the file are.
#[test]
fn fixes_on_yaml_anchors_and_aliases_are_held_back() {
    let dir = common::scratch("fix_anchors");
    let before = "\
- name: area
  description: Calculate an area. Not for volumes.
  promptSnippet: &s Calculate areas.
  parameters:
    type: &t dict
    properties:
      kind: { type: string, default: *t }
- name: perimeter
  description: Calculate a perimeter. Not for areas.
  promptSnippet: *s
  parameters:
    type: dict
    properties:
      size: { type: integer }
";
    std::fs::write(dir.join("tools.yaml"), before).unwrap();
    let (_, stdout, stderr) = toolcheck(
        &dir,
        &[
            "lint",
            "--no-config",
            "--select",
            "TC402,TC202",
            "--fix",
            "--format",
            "json",
            "tools.yaml",
        ],
    );
    let after = std::fs::read_to_string(dir.join("tools.yaml")).unwrap();
    // Only the second tool's own `type: dict` changed.
    assert_eq!(
        after,
        before.replacen("    type: dict\n", "    type: object\n", 1),
        "{stderr}"
    );
    assert!(stderr.contains("fixed 1 finding"), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // The anchored snippet and type carry the why; the alias's copy has no fix of its own.
    let mut held: Vec<(&str, &str, bool)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap(),
                d["tool"].as_str().unwrap(),
                d["help"]
                    .as_str()
                    .unwrap()
                    .contains("not fixed by `--fix`: the fix would edit a YAML anchor or alias"),
            )
        })
        .collect();
    held.sort();
    assert_eq!(
        held,
        [
            ("TC202", "area", true),
            ("TC202", "perimeter", false),
            ("TC402", "area", true)
        ]
    );
}
