//! What a run reads: only regular files (a FIFO or device is refused, never read), at most
//! `max-file-size` bytes each, each file once however many names reach it, symbolic links
//! followed, in path order whatever the command line's order.

mod common;

use std::path::Path;

use serde_json::Value;

const MANIFEST: &str = "name: search\ndescription: Search the docs. Not for code.\n";

fn lint_json(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["lint", "--no-config", "--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = common::run(dir, &all, None);
    assert!(code == 0 || code == 1, "exit {code}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"))
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn fifos_and_devices_are_refused_not_read() {
    let dir = common::scratch("inputs-fifo");
    mkfifo(&dir.join("pipe.tool.yaml"));
    // Reading any of these would block forever or never end.
    for args in [
        vec!["lint", "--no-config", "pipe.tool.yaml"],
        vec!["lint", "--no-config", "/dev/zero"],
        vec!["tokens", "--no-config", "pipe.tool.yaml"],
        vec!["lint", "--config", "pipe.tool.yaml", "."],
    ] {
        let (code, _, stderr) = common::run(&dir, &args, None);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains("not a regular file"), "{args:?}: {stderr}");
    }
    let rules = dir.join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    mkfifo(&rules.join("blocked.yaml"));
    std::fs::write(dir.join("toolcheck.yaml"), "rulesets: [rules]\n").unwrap();
    std::fs::write(dir.join("a.tool.yaml"), MANIFEST).unwrap();
    let (code, _, stderr) = common::run(&dir, &["lint", "a.tool.yaml"], None);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("rule file"), "{stderr}");
}

#[test]
fn a_file_over_max_file_size_is_an_error_stdin_included() {
    let dir = common::scratch("inputs-max-size");
    std::fs::write(dir.join("toolcheck.yaml"), "max-file-size: 40\n").unwrap();
    std::fs::write(dir.join("big.tool.yaml"), MANIFEST).unwrap();
    let (code, _, stderr) = common::run(&dir, &["lint", "big.tool.yaml"], None);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("larger than 40 bytes"), "{stderr}");
    assert!(stderr.contains("max-file-size"), "{stderr}");
    let (code, _, stderr) = common::run(&dir, &["lint", "-"], Some(MANIFEST));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("standard input"), "{stderr}");
    // Within the limit, the same file is linted.
    std::fs::write(dir.join("toolcheck.yaml"), "max-file-size: 4096\n").unwrap();
    let (code, _, stderr) = common::run(&dir, &["lint", "big.tool.yaml"], None);
    assert!(code == 0 || code == 1, "{stderr}");
    let (code, _, stderr) = common::run(&dir, &["lint", "-"], Some(MANIFEST));
    assert!(code == 0 || code == 1, "{stderr}");
}

#[test]
fn the_same_file_under_two_names_is_linted_once() {
    let dir = common::scratch("inputs-twice");
    std::fs::write(dir.join("a.tool.yaml"), MANIFEST).unwrap();
    let document = lint_json(&dir, &["a.tool.yaml", "./a.tool.yaml", "."]);
    assert_eq!(document["summary"]["files"], 1, "{document:#}");
    let codes: Vec<&str> = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(
        !codes.contains(&"TC502"),
        "a duplicate of itself: {codes:?}"
    );
}

#[cfg(unix)]
#[test]
fn symbolic_links_are_followed_once_and_loops_are_named() {
    use std::os::unix::fs::symlink;
    let dir = common::scratch("inputs-links");
    let outside = common::scratch("inputs-links-outside");
    std::fs::create_dir_all(dir.join("real")).unwrap();
    std::fs::write(dir.join("real/x.tool.yaml"), MANIFEST).unwrap();
    std::fs::write(
        outside.join("y.tool.yaml"),
        MANIFEST.replace("search", "find"),
    )
    .unwrap();
    symlink("real/x.tool.yaml", dir.join("link.tool.yaml")).unwrap();
    symlink(outside.join("y.tool.yaml"), dir.join("y.tool.yaml")).unwrap();
    // A directory link back up the tree must not walk forever.
    symlink(".", dir.join("real/again")).unwrap();
    let document = lint_json(&dir, &["."]);
    assert_eq!(document["summary"]["files"], 2, "{document:#}");
    assert_eq!(
        common::files_of(&document),
        ["link.tool.yaml", "y.tool.yaml"]
    );

    symlink("loop-b.tool.yaml", dir.join("loop-a.tool.yaml")).unwrap();
    symlink("loop-a.tool.yaml", dir.join("loop-b.tool.yaml")).unwrap();
    let (code, _, stderr) = common::run(&dir, &["lint", "loop-a.tool.yaml"], None);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("symbolic link that cannot be followed"),
        "{stderr}"
    );
}

#[test]
fn output_is_in_path_order_and_files_are_not_compared() {
    let dir = common::scratch("inputs-order");
    std::fs::write(dir.join("a.tool.yaml"), MANIFEST).unwrap();
    std::fs::write(dir.join("b.tool.yaml"), MANIFEST).unwrap();
    for args in [
        ["a.tool.yaml", "b.tool.yaml"],
        ["b.tool.yaml", "a.tool.yaml"],
    ] {
        let document = lint_json(&dir, &args);
        assert_eq!(
            common::files_of(&document),
            ["a.tool.yaml", "b.tool.yaml"],
            "{args:?}"
        );
        let duplicates = document["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "TC502")
            .count();
        assert_eq!(duplicates, 0, "two files are two tool sets: {args:?}");
    }
}

#[test]
fn an_empty_yaml_file_fails_tokens_as_it_fails_lint() {
    let dir = common::scratch("inputs-empty");
    std::fs::write(dir.join("empty.tool.yaml"), "").unwrap();
    let (code, _, stderr) = common::run(&dir, &["lint", "--no-config", "empty.tool.yaml"], None);
    assert_eq!(code, 1, "{stderr}");
    let (code, stdout, stderr) = common::run(
        &dir,
        &[
            "tokens",
            "--no-config",
            "--format",
            "json",
            "empty.tool.yaml",
        ],
        None,
    );
    assert_eq!(code, 1, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let error = report["files"][0]["error"].as_str().unwrap_or_default();
    assert!(error.contains("no tool definition found"), "{report:#}");
}

/// Issue 28: a tool with `input_schema` is toolcheck's own manifest in a `.tool.yaml` or
/// `.tools.yaml` file (native checks apply: pi lists no tool without a snippet), an Anthropic
/// tool in any other YAML file, and a `.tools.json` listing keeps the dialect its keys give.
#[test]
fn a_native_file_name_makes_input_schema_native() {
    let dir = common::scratch("inputs-native-name");
    let tool = "name: ask_user\ndescription: Ask the user a question. Not for obvious defaults.\n\
                input_schema: { type: object }\n";
    std::fs::write(dir.join("ask.tool.yaml"), tool).unwrap();
    std::fs::write(dir.join("ask.yaml"), tool).unwrap();
    std::fs::write(
        dir.join("more.tools.yml"),
        format!("tools:\n  - {}", tool.replace('\n', "\n    ")),
    )
    .unwrap();
    std::fs::write(
        dir.join("listing.tools.json"),
        r#"{"tools": [{"name": "ask_user", "description": "Ask. Not for defaults.",
            "inputSchema": {"type": "object"}, "annotations": {"title": "Ask"}}]}"#,
    )
    .unwrap();
    let files_with_tc611 = |document: &Value| -> Vec<String> {
        document["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "TC611")
            .map(|d| d["file"].as_str().unwrap().to_string())
            .collect()
    };
    let document = lint_json(
        &dir,
        &[
            "--target",
            "pi",
            "ask.tool.yaml",
            "ask.yaml",
            "more.tools.yml",
        ],
    );
    assert_eq!(
        files_with_tc611(&document),
        ["ask.tool.yaml", "more.tools.yml"],
        "{document:#}"
    );
    // An MCP key the native manifest does not know is no TC001 in a `.tools.json` listing.
    let document = lint_json(&dir, &["listing.tools.json"]);
    let codes: Vec<&str> = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(!codes.contains(&"TC001"), "{document:#}");
}

/// Issue 30: a file that breaks its lines with `\r` alone (old Mac files; YAML allows it) is
/// many lines, not one: findings on their lines, a YAML ignore comment on its own line applied
/// to the entry below it, the human excerpt drawn line by line.
#[test]
fn carriage_returns_alone_break_lines() {
    let dir = common::scratch("cr_only");
    let text = "tools:\r  - name: a\r    description: Always use it. Not for b.\r  \
                # toolcheck: ignore[TC209]\r  - name: b\r    description: Never skip it. Not \
                for a.\r";
    std::fs::write(dir.join("tools.yaml"), text).unwrap();
    let (code, stdout, stderr) = common::run(
        &dir,
        &[
            "lint",
            "--no-config",
            "--select",
            "TC209,TC002",
            "--format",
            "concise",
            "tools.yaml",
        ],
        None,
    );
    assert_eq!(code, 1, "{stderr}");
    let findings: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("tools.yaml:"))
        .collect();
    assert_eq!(
        findings,
        ["tools.yaml:3:18: error: TC209 absolute-words absolute word `Always`"]
    );
    let (_, human, _) = common::run(
        &dir,
        &["lint", "--no-config", "--select", "TC209", "tools.yaml"],
        None,
    );
    assert!(
        human.contains(" 3 │     description: Always use it. Not for b.\n"),
        "{human}"
    );
    assert!(!human.contains('\r'), "{human:?}");
}

/// Issue 30: one path or file that cannot be read fails only itself. A link to nothing that the
/// walk would not lint is never looked at; one it would lint is skipped with a warning; a
/// named path that does not exist and a file over `max-file-size` are one error each, the
/// other files are linted and reported, and the exit code is 2.
#[cfg(unix)]
#[test]
fn a_file_that_cannot_be_read_fails_alone() {
    let dir = common::scratch("inputs-partial");
    let tools = dir.join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    std::fs::write(tools.join("a.tool.yaml"), MANIFEST).unwrap();
    std::os::unix::fs::symlink("/nonexistent/target", tools.join("notes.txt")).unwrap();
    std::os::unix::fs::symlink("/nonexistent/target", tools.join("excluded.tool.yaml")).unwrap();
    // An editor's lock file, which the default `include` matches.
    std::os::unix::fs::symlink("/nonexistent/target", tools.join(".#a.tool.yaml")).unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["lint", "--no-config", "--format", "concise"];
        all.extend_from_slice(args);
        common::run(&dir, &all, None)
    };
    let (code, stdout, stderr) = run(&["--extend-exclude", "**/excluded.tool.yaml", "tools"]);
    // 1: the manifest's own findings; nothing failed.
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("in 1 file"), "{stdout}");
    assert_eq!(
        stderr.trim(),
        "warning: skipped `tools/.#a.tool.yaml`: a symbolic link to nothing"
    );
    // A named path that does not exist, and a file too large: one error each.
    std::fs::write(dir.join("toolcheck.yaml"), "max-file-size: 60\n").unwrap();
    std::fs::write(tools.join("big.tool.yaml"), MANIFEST.repeat(3)).unwrap();
    let (code, stdout, stderr) = common::run(
        &dir,
        &[
            "lint",
            "--format",
            "concise",
            "tools/a.tool.yaml",
            "tools/big.tool.yaml",
            "tools/missing.tool.yaml",
        ],
        None,
    );
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stdout.contains("in 1 file"), "{stdout}");
    assert!(
        stderr.contains("path `tools/missing.tool.yaml` does not exist"),
        "{stderr}"
    );
    assert!(
        stderr.contains("big.tool.yaml` is larger than 60 bytes"),
        "{stderr}"
    );
    // `tokens` reports the others too, and fails.
    let (code, stdout, stderr) = common::run(
        &dir,
        &["tokens", "tools/a.tool.yaml", "tools/missing.tool.yaml"],
        None,
    );
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stdout.contains("a.tool.yaml"), "{stdout}");
}

/// Issue 32: the functions of an OpenAI Responses namespace are tools of the set (linted,
/// counted, deferred by their own `defer_loading`); the tool search tool is a skipped built-in.
#[test]
fn the_functions_of_an_openai_namespace_are_tools() {
    let fixture = common::root().join("fixtures/inputs/responses-namespace.json");
    let fixture = fixture.to_str().unwrap();
    let dir = common::scratch("inputs_namespace");
    let document = lint_json(&dir, &["--target", "openai", fixture]);
    assert_eq!(document["summary"]["tools"], 2, "{document}");
    assert_eq!(document["summary"]["skipped"], 1, "{document}");
    let codes: Vec<&str> = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| finding["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"TC207"), "{codes:?}");
    // Responses functions: `defer_loading` is read, not ignored.
    assert!(!codes.contains(&"TC613"), "{codes:?}");
    let (code, stdout, stderr) = common::run(
        &dir,
        &["tokens", "--no-config", "--format", "json", fixture],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["total"]["deferred_tools"], 2, "{report}");
}
