//! `toolcheck compat`: the tools × targets matrix, through the real binary.

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// A tool named `name` in MCP `tools/list` shape.
fn tool(name: &str) -> String {
    format!(
        r#"{{"name": "{name}", "description": "Search the documentation. Not for questions about code.",
   "inputSchema": {{"type": "object", "properties": {{"query": {{"type": "string"}}}}}}}}"#
    )
}

/// A scratch directory holding `example.json` with tools named `names`.
fn server(test: &str, names: &[&str]) -> PathBuf {
    let dir = common::scratch(test);
    let tools: Vec<String> = names.iter().map(|name| tool(name)).collect();
    let text = format!("{{\"tools\": [\n  {}\n]}}\n", tools.join(",\n  "));
    std::fs::write(dir.join("example.json"), text).expect("the scratch dir is writable");
    dir
}

fn compat(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["compat", "--no-config"];
    all.extend_from_slice(args);
    common::run(dir, &all, None)
}

fn transcript(result: (i32, String, String)) -> String {
    let (code, stdout, stderr) = result;
    format!("exit code: {code}\n----- stdout -----\n{stdout}----- stderr -----\n{stderr}")
}

/// A name TC601 takes as it is (openai) and one Claude Code prefixes past 64 characters
/// (`mcp__example__` + 51 = 65).
const DOTTED: &str = "docs.search";
const LONG: &str = "search_the_product_documentation_for_matching_pages";

#[test]
fn a_dotted_name_passes_mcp_and_fails_openai_with_tc601s_message() {
    let dir = server("compat_dotted", &[DOTTED, "search_docs"]);
    let result = compat(&dir, &["--target", "mcp,openai", "example.json"]);
    assert_eq!(result.0, 1, "{}", result.2);
    let stdout = &result.1;
    let row = stdout
        .lines()
        .find(|line| line.trim_start().starts_with(DOTTED))
        .expect("a row for the dotted tool");
    let marks: Vec<&str> = row.split_whitespace().skip(1).collect();
    assert_eq!(marks, ["✔", "✖", "1"], "{stdout}");
    assert!(
        stdout.contains("1. openai: tool name `docs.search` has `.`, outside [A-Za-z0-9_-]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("mcp-2026-07-28: 2/2 tools pass"),
        "{stdout}"
    );
    assert!(
        stdout.contains("openai:         1/2 tools pass"),
        "{stdout}"
    );
    insta::assert_snapshot!(transcript(result));
}

#[test]
fn a_long_name_fails_claude_code_once_prefixed_and_passes_openai() {
    let dir = server("compat_long", &[LONG, DOTTED]);
    let result = compat(
        &dir,
        &[
            "--target",
            "claude-code,openai",
            "--server-name",
            "example",
            "example.json",
        ],
    );
    assert_eq!(result.0, 1);
    insta::assert_snapshot!(transcript(result));
}

#[test]
fn json_has_every_reason_per_cell_and_a_summary_per_target() {
    let dir = server("compat_json", &[DOTTED, LONG]);
    let (code, stdout, stderr) = compat(
        &dir,
        &[
            "--target",
            "openai,claude-code",
            "--server-name",
            "example",
            "--format",
            "json",
            "example.json",
        ],
    );
    assert_eq!(code, 1, "{stderr}");
    let document: Value = serde_json::from_str(&stdout).expect("JSON output");
    assert_eq!(document["version"], 1);
    assert_eq!(
        document["targets"],
        serde_json::json!(["openai", "claude-code"])
    );
    let file = &document["files"][0];
    assert_eq!(file["file"], "example.json");
    assert_eq!(file["unread"], serde_json::json!([]));
    let tools = file["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 2);
    assert_eq!(tools[0]["name"], DOTTED);
    assert_eq!(tools[0]["line"], 2);
    let cells: Vec<(&str, &str)> = tools
        .iter()
        .flat_map(|tool| tool["results"].as_array().expect("results"))
        .map(|cell| {
            (
                cell["target"].as_str().unwrap(),
                cell["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        cells,
        [
            ("openai", "fail"),
            // `.` becomes `_` under Claude Code: a warning (name-rewritten-by-host).
            ("claude-code", "warn"),
            ("openai", "pass"),
            ("claude-code", "fail")
        ]
    );
    let reason = &tools[0]["results"][0]["reasons"][0];
    assert_eq!(reason["code"], "TC601");
    assert_eq!(reason["rule"], "name-rejected-by-target");
    assert_eq!(reason["severity"], "error");
    assert_eq!(reason["line"], 2);
    assert_eq!(reason["column"], 12);
    assert!(
        reason["message"]
            .as_str()
            .unwrap()
            .starts_with("tool name `docs.search` has `.`"),
        "{reason}"
    );
    assert!(
        reason["help"].as_str().unwrap().contains("source: "),
        "{reason}"
    );
    assert_eq!(tools[1]["results"][0]["reasons"], serde_json::json!([]));
    assert_eq!(
        document["summary"],
        serde_json::json!([
            {"target": "openai", "tools": 2, "pass": 1, "warn": 0, "fail": 1},
            {"target": "claude-code", "tools": 2, "pass": 1, "warn": 1, "fail": 1}
        ])
    );
}

#[test]
fn every_tool_passing_every_target_exits_zero() {
    let dir = server("compat_clean", &["search_docs"]);
    let (code, stdout, _) = compat(&dir, &["--target", "openai,claude-code", "example.json"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(!stdout.contains('✖'), "{stdout}");
    assert!(!stdout.contains("hint:"), "{stdout}");
}

#[test]
fn a_warning_is_the_third_mark_and_does_not_fail() {
    let dir = server("compat_warning", &[DOTTED]);
    std::fs::write(
        dir.join("toolcheck.yaml"),
        "targets: [openai]\nrules:\n  severity: {TC601: warning}\n",
    )
    .unwrap();
    let (code, stdout, stderr) = common::run(&dir, &["compat", "example.json"], None);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("docs.search  ! 1"), "{stdout}");
    assert!(
        stdout.contains("openai: 1/1 tool pass (1 with warnings)"),
        "{stdout}"
    );
}

#[test]
fn the_config_targets_apply_and_target_replaces_them() {
    let dir = server("compat_config", &[DOTTED]);
    std::fs::write(dir.join("toolcheck.yaml"), "targets: [openai]\n").unwrap();
    let (code, stdout, _) = common::run(&dir, &["compat", "example.json"], None);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("openai: 0/1 tool pass"), "{stdout}");
    let (code, stdout, _) = common::run(&dir, &["compat", "--target", "mcp", "example.json"], None);
    assert_eq!(code, 0, "{stdout}");
    assert!(!stdout.contains("openai"), "{stdout}");
}

#[test]
fn an_alias_and_its_target_are_one_column() {
    let dir = server("compat_alias", &[DOTTED]);
    let (code, stdout, _) = compat(&dir, &["--target", "mcp,mcp-2026-07-28", "example.json"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.matches("mcp-2026-07-28").count(), 2, "{stdout}");
}

#[test]
fn an_unknown_target_exits_two_with_a_suggestion() {
    let dir = server("compat_unknown", &[DOTTED]);
    let (code, stdout, stderr) = compat(&dir, &["--target", "opnai", "example.json"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(stderr.contains("unknown target `opnai`"), "{stderr}");
    assert!(stderr.contains("did you mean `openai`?"), "{stderr}");
}

#[test]
fn an_unknown_target_in_the_config_points_at_it() {
    let dir = server("compat_unknown_config", &[DOTTED]);
    std::fs::write(dir.join("toolcheck.yaml"), "targets: [opnai]\n").unwrap();
    let (code, _, stderr) = common::run(&dir, &["compat", "example.json"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown target `opnai`"), "{stderr}");
    assert!(stderr.contains("toolcheck.yaml:1:"), "{stderr}");
}

#[test]
fn no_target_at_all_exits_two() {
    let dir = server("compat_none", &[DOTTED]);
    let (code, stdout, stderr) = compat(&dir, &["example.json"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("`compat` needs at least one target"),
        "{stderr}"
    );
}

#[test]
fn an_unreadable_file_is_named_and_fails() {
    let dir = server("compat_unreadable", &["search_docs"]);
    std::fs::write(dir.join("broken.json"), "{\"tools\": [\n").unwrap();
    let (code, stdout, _) = compat(&dir, &["--target", "openai", "broken.json", "example.json"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.starts_with("broken.json (0 tools)\n  ✖ could not be read: "),
        "{stdout}"
    );
    assert!(stdout.contains("(TC001 invalid-manifest, line"), "{stdout}");
    assert!(
        stdout.contains("1 file could not be read in full"),
        "{stdout}"
    );
}

#[test]
fn standard_input_and_server_name_work_as_in_lint() {
    let text = format!("{{\"tools\": [{}]}}", tool("search_docs_pages"));
    let dir = common::scratch("compat_stdin");
    let args = [
        "compat",
        "--no-config",
        "--target",
        "claude-code",
        "--stdin-filename",
        "s.json",
        "--server-name",
        &"x".repeat(50),
    ];
    let (code, stdout, stderr) = common::run(&dir, &args, Some(&text));
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.starts_with("s.json (1 tool)"), "{stdout}");
    assert!(stdout.contains("is 74 characters, over 64"), "{stdout}");
}

#[test]
fn an_inline_suppression_silences_its_cell_as_in_lint() {
    let dir = common::scratch("compat_suppressed");
    let text = "tools:\n  - name: docs.search  # toolcheck: ignore[TC601] -- renamed by our proxy\n    \
                description: Search the documentation.\n  - name: other.search\n    \
                description: Search the documentation.\n";
    std::fs::write(dir.join("s.tools.yaml"), text).unwrap();
    let (code, stdout, _) = compat(&dir, &["--target", "openai", "s.tools.yaml"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("docs.search   ✔\n"), "{stdout}");
    assert!(stdout.contains("other.search  ✖ 1\n"), "{stdout}");
}

/// Issue 32: the request Anthropic documents for tool search, a loaded search tool beside
/// deferred tools, ships; deferred tools without a search tool do not.
#[test]
fn the_canonical_tool_search_request_passes_anthropic() {
    let dir = common::root().join("fixtures/targets/all-tools-deferred");
    let (code, stdout, stderr) = compat(&dir, &["--target", "anthropic", "valid_canonical.json"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("anthropic: 2/2 tools pass"), "{stdout}");
    let (code, stdout, _) = compat(
        &dir,
        &["--target", "anthropic", "invalid_no_search_tool.yaml"],
    );
    assert_eq!(code, 1);
    assert!(stdout.contains("TC610 all-tools-deferred"), "{stdout}");
}
