//! What users type: rule selectors in any case, standard input named by `--stdin-filename`,
//! `--max-warnings`, `init --example` beside an existing config, and every config error at once.

mod common;

use std::path::Path;

use serde_json::Value;

/// A tool with an absolute word in its description (TC209) and nothing else to find.
const ABSOLUTE: &str =
    "name: web\ndescription: Always search the web. Not for code.\ninput_schema: {type: object}\n";

fn codes(stdout: &str) -> Vec<String> {
    let document: Value =
        serde_json::from_str(stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"));
    document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}",
                d["code"].as_str().unwrap(),
                d["severity"].as_str().unwrap()
            )
        })
        .collect()
}

/// Lints `a.tool.yaml` in `dir` as JSON with `args`; the codes and severities found.
fn lint_codes(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["lint", "--format", "json"];
    all.extend_from_slice(args);
    all.push("a.tool.yaml");
    let (code, stdout, stderr) = common::run(dir, &all, None);
    assert!(code == 0 || code == 1, "{args:?}: exit {code}: {stderr}");
    codes(&stdout)
}

#[test]
fn lower_case_codes_are_accepted_wherever_a_rule_is_named() {
    let dir = common::scratch("usage-lower-case");
    std::fs::write(dir.join("a.tool.yaml"), ABSOLUTE).unwrap();
    let found = ["TC209 error"];
    assert_eq!(lint_codes(&dir, &["--no-config"]), found);
    // Command line: select, ignore (code and prefix), severity.
    assert_eq!(
        lint_codes(&dir, &["--no-config", "--select", "tc209"]),
        found
    );
    assert_eq!(lint_codes(&dir, &["--no-config", "--select", "tc2"]), found);
    assert_eq!(lint_codes(&dir, &["--no-config", "--select", "all"]), found);
    assert!(lint_codes(&dir, &["--no-config", "--ignore", "tc209"]).is_empty());
    assert!(lint_codes(&dir, &["--no-config", "--ignore", "tc2"]).is_empty());
    assert_eq!(
        lint_codes(&dir, &["--no-config", "--severity", "tc209=warning"]),
        ["TC209 warning"]
    );

    // The config file: select, ignore, severity, options, per-file-ignores.
    let config = |text: &str| {
        std::fs::write(dir.join("toolcheck.yaml"), text).unwrap();
        lint_codes(&dir, &[])
    };
    assert_eq!(config("rules: {select: [tc209]}\n"), found);
    assert!(config("rules: {ignore: [tc2]}\n").is_empty());
    assert_eq!(config("rules: {severity: {tc209: info}}\n"), ["TC209 info"]);
    assert!(config("rules: {options: {tc209: {words: [never]}}}\n").is_empty());
    assert!(config("rules: {per-file-ignores: {\"a.tool.yaml\": [tc209]}}\n").is_empty());
    std::fs::remove_file(dir.join("toolcheck.yaml")).unwrap();

    // A suppression comment; TC002 would report it if it named nothing.
    std::fs::write(
        dir.join("a.tool.yaml"),
        ABSOLUTE.replace("description:", "# toolcheck: ignore[tc209]\ndescription:"),
    )
    .unwrap();
    assert!(lint_codes(&dir, &["--no-config"]).is_empty());

    // explain
    let (code, stdout, stderr) = common::run(&dir, &["explain", "tc209"], None);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("# TC209 absolute-words\n"), "{stdout}");
    // The invalid-manifest rule cannot be disabled however it is spelled.
    let (code, _, stderr) = common::run(
        &dir,
        &["lint", "--no-config", "--ignore", "tc001", "a.tool.yaml"],
        None,
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("cannot be disabled"), "{stderr}");
}

#[test]
fn every_error_of_a_config_file_is_reported_at_once() {
    let dir = common::root().join("fixtures/cli/many-config-errors");
    let (code, stdout, stderr) = common::run(&dir, &["lint", "--ignore", "tc9"], None);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stdout, "");
    // Each error names its place: the command line's first, then the file's in order.
    let messages: Vec<&str> = stderr
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("× "))
        .collect();
    assert_eq!(
        messages,
        [
            "unknown rule `tc9`",
            "expected a string, found a number",
            "invalid glob `tools/[oops`: unclosed character class; missing ']'",
            "unknown config key `exclud`",
            "unknown tokenizer `p50k_base`: expected `o200k_base` or `cl100k_base`",
            "unknown rule `TC999`",
            "unknown rule `absolute-wrds`",
            "unknown severity `loud`",
            "unknown rule `nosuch`",
            "invalid options for `description-too-long`: unknown field `max-tokns`, expected `max-tokens`",
            "unknown rule `not-a-rule`",
            "invalid glob `legacy/[x`: unclosed character class; missing ']'",
            "expected a list of strings, found a number",
        ],
        "{stderr}"
    );
    assert!(
        stderr.ends_with("\n13 errors in the configuration\n"),
        "{stderr}"
    );
    insta::assert_snapshot!(stderr);
}

#[test]
fn the_other_commands_report_every_error_of_the_config_file_too() {
    let dir = common::root().join("fixtures/cli/many-config-errors");
    for command in [vec!["tokens"], vec!["rules"], vec!["explain", "TC209"]] {
        let (code, _, stderr) = common::run(&dir, &command, None);
        assert_eq!(code, 2, "{command:?}: {stderr}");
        // Only the file's own mistakes: these commands do not resolve rules.
        assert!(
            stderr.ends_with("\n7 errors in the configuration\n"),
            "{command:?}: {stderr}"
        );
    }
}

// ---- standard input ----------------------------------------------------------------------

/// The files a JSON lint output names, and its summary's file count.
fn files_linted(stdout: &str) -> (Vec<String>, u64) {
    let document: Value =
        serde_json::from_str(stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"));
    (
        common::files_of(&document),
        document["summary"]["files"].as_u64().unwrap(),
    )
}

#[test]
fn stdin_filename_without_paths_reads_standard_input() {
    let dir = common::scratch("usage-stdin-filename");
    // A manifest in the directory that must not be linted in place of standard input.
    std::fs::write(dir.join("here.tool.yaml"), ABSOLUTE).unwrap();
    let stdin = ABSOLUTE.replace("web", "piped");
    let (code, stdout, stderr) = common::run(
        &dir,
        &[
            "lint",
            "--no-config",
            "--format",
            "json",
            "--stdin-filename",
            "piped.yaml",
        ],
        Some(&stdin),
    );
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(files_linted(&stdout), (vec!["piped.yaml".to_string()], 1));
    // With `-` among other paths, both.
    let (code, stdout, stderr) = common::run(
        &dir,
        &[
            "lint",
            "--no-config",
            "--format",
            "json",
            "--stdin-filename",
            "piped.yaml",
            "-",
            "here.tool.yaml",
        ],
        Some(&stdin),
    );
    assert_eq!(code, 1, "{stderr}");
    let both = vec!["piped.yaml".to_string(), "here.tool.yaml".to_string()];
    assert_eq!(files_linted(&stdout), (both, 2));
    // `tokens` too.
    let (code, stdout, stderr) = common::run(
        &dir,
        &[
            "tokens",
            "--no-config",
            "--format",
            "json",
            "--stdin-filename",
            "piped.yaml",
        ],
        Some(&stdin),
    );
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["files"][0]["file"], "piped.yaml");
    assert_eq!(report["files"].as_array().unwrap().len(), 1);
}

#[test]
fn stdin_filename_beside_paths_without_dash_is_a_usage_error() {
    let dir = common::scratch("usage-stdin-filename-paths");
    std::fs::write(dir.join("here.tool.yaml"), ABSOLUTE).unwrap();
    for command in ["lint", "tokens"] {
        for paths in [vec!["here.tool.yaml"], vec!["."]] {
            let mut args = vec![command, "--no-config", "--stdin-filename", "piped.yaml"];
            args.extend(&paths);
            let (code, stdout, stderr) = common::run(&dir, &args, Some(ABSOLUTE));
            assert_eq!(code, 2, "{args:?}: {stdout}{stderr}");
            assert_eq!(stdout, "", "{args:?}: nothing is linted");
            assert!(
                stderr.contains(
                    "--stdin-filename `piped.yaml` names standard input, but `-` is not among the paths"
                ),
                "{args:?}: {stderr}"
            );
        }
    }
}

// ---- --max-warnings ----------------------------------------------------------------------

#[test]
fn max_warnings_says_why_the_run_failed() {
    let dir = common::scratch("usage-max-warnings");
    std::fs::write(dir.join("a.tool.yaml"), ABSOLUTE).unwrap();
    let run = |max: &str| {
        common::run(
            &dir,
            &[
                "lint",
                "--no-config",
                "--severity",
                "TC209=warning",
                "--max-warnings",
                max,
                "a.tool.yaml",
            ],
            None,
        )
    };
    let (code, stdout, stderr) = run("0");
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("\n0 errors, 1 warning in 1 file (1 tool)\n"),
        "{stdout}"
    );
    assert_eq!(stderr, "1 warning, more than --max-warnings 0\n");
    let (code, _, stderr) = run("1");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr, "");
}

// ---- tokens and lint read a file the same way --------------------------------------------

#[test]
fn tokens_reports_the_same_invalid_manifest_findings_as_lint() {
    let dir = common::scratch("usage-tokens-tc001");
    let cases: [(&str, &[u8]); 6] = [
        ("object.json", br#"{"hello": 1}"#),
        ("numbers.json", b"[1, 2]"),
        ("mapping.yaml", b"foo: bar\n"),
        ("empty.yaml", b""),
        ("syntax.json", br#"{"name": "x","#),
        ("latin1.json", b"{\"name\": \"caf\xe9\"}"),
    ];
    for (name, bytes) in cases {
        std::fs::write(dir.join(name), bytes).unwrap();
        let (lint_code, lint_out, stderr) = common::run(
            &dir,
            &["lint", "--no-config", "--format", "json", name],
            None,
        );
        assert_eq!(lint_code, 1, "{name}: {stderr}");
        let lint: Value = serde_json::from_str(&lint_out).unwrap();
        let (tokens_code, tokens_out, stderr) = common::run(
            &dir,
            &["tokens", "--no-config", "--format", "json", name],
            None,
        );
        assert_eq!(tokens_code, 1, "{name}: {stderr}");
        let tokens: Value = serde_json::from_str(&tokens_out).unwrap();
        let found = &tokens["files"][0]["diagnostics"];
        assert!(
            lint["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .all(|d| d["code"] == "TC001"),
            "{name}: {lint:#}"
        );
        assert_eq!(found, &lint["diagnostics"], "{name}");
        assert_eq!(
            tokens["files"][0]["error"], lint["diagnostics"][0]["message"],
            "{name}"
        );
        // The table names the same code, place and message.
        let (_, table, _) = common::run(
            &dir,
            &["tokens", "--no-config", "--color", "never", name],
            None,
        );
        for finding in lint["diagnostics"].as_array().unwrap() {
            let line = format!(
                "error: cannot read: TC001 invalid-manifest at {}:{}: {}",
                finding["span"]["start"]["line"],
                finding["span"]["start"]["column"],
                finding["message"].as_str().unwrap()
            );
            assert!(table.contains(&line), "{name}: {line}\n{table}");
        }
    }
}

// ---- init --example beside a config ------------------------------------------------------

#[test]
fn init_example_beside_an_existing_config_writes_the_example_only() {
    let dir = common::scratch("usage-init-example");
    let mine = "# mine\nrules: {ignore: [TC209]}\n";
    std::fs::write(dir.join("toolcheck.yaml"), mine).unwrap();
    let (code, stdout, stderr) = common::run(&dir, &["init", "--example"], None);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        "kept toolcheck.yaml, which exists\nwrote tools/example.tool.yaml\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("toolcheck.yaml")).unwrap(),
        mine
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("tools/example.tool.yaml")).unwrap(),
        toolcheck::init::EXAMPLE_MANIFEST
    );
    let (code, stdout, _) = common::run(&dir, &["lint"], None);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "0 errors, 0 warnings in 1 file (1 tool)\n")
    );

    // A config whose globs leave the example out says how to lint it.
    let dir = common::scratch("usage-init-example-elsewhere");
    std::fs::write(
        dir.join("toolcheck.yaml"),
        "include: [\"servers/*.json\"]\n",
    )
    .unwrap();
    let (code, stdout, stderr) = common::run(&dir, &["init", "--example"], None);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.ends_with(
            "note: the `include`/`exclude` of toolcheck.yaml leave tools/example.tool.yaml out; \
             lint it with `toolcheck lint tools/example.tool.yaml`\n"
        ),
        "{stdout}"
    );
    // With both there, nothing is written.
    let (code, _, stderr) = common::run(&dir, &["init", "--example"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("already exist"), "{stderr}");
}

/// Issue 30: a config with thousands of wrong rule names (a generated one) prints the first
/// 50 errors, how many more there are, and the total: not megabytes of the same error.
#[test]
fn thousands_of_config_errors_print_the_first_fifty() {
    let dir = common::scratch("usage_many_errors");
    let names: Vec<String> = (0..2000).map(|i| format!("NOPE{i}")).collect();
    std::fs::write(
        dir.join("toolcheck.yaml"),
        format!("rules:\n  select: [{}]\n", names.join(", ")),
    )
    .unwrap();
    std::fs::write(
        dir.join("a.tool.yaml"),
        "name: a\ndescription: Add. Not for b.\n",
    )
    .unwrap();
    let (code, _, stderr) = common::run(&dir, &["lint", "a.tool.yaml"], None);
    assert_eq!(code, 2);
    assert_eq!(stderr.matches("unknown rule `NOPE").count(), 50, "{stderr}");
    assert!(stderr.contains("… and 1950 more, not shown"), "{stderr}");
    assert!(
        stderr.contains("2000 errors in the configuration"),
        "{stderr}"
    );
    assert!(stderr.len() < 50_000, "{} bytes", stderr.len());
}

/// Issue 30: a list of more than 10,000 globs (each compiled and tried on every file) is an
/// error at the list, not hundreds of megabytes.
#[test]
fn a_list_of_too_many_globs_is_an_error() {
    let dir = common::scratch("usage_many_globs");
    let globs: Vec<String> = (0..10_001).map(|i| format!("dir{i}/*.yaml")).collect();
    std::fs::write(
        dir.join("a.tool.yaml"),
        "name: a\ndescription: Add. Not for b.\n",
    )
    .unwrap();
    for config in [
        format!("include: [{}]\n", globs.join(", ")),
        format!(
            "rules:\n  per-file-ignores:\n{}",
            globs
                .iter()
                .map(|glob| format!("    \"{glob}\": [TC209]\n"))
                .collect::<String>()
        ),
    ] {
        std::fs::write(dir.join("toolcheck.yaml"), config).unwrap();
        let (code, _, stderr) = common::run(&dir, &["lint", "a.tool.yaml"], None);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("10001 globs in one list, more than 10000"),
            "{stderr}"
        );
    }
}

/// Issue 30: a word list of more than 1,000 phrases is refused before it is compiled (100,000
/// words took 385 MB only to find the regex too large), for a rule written in Rust and for
/// one whose phrases may name the tool.
#[test]
fn a_word_list_of_too_many_phrases_is_an_error() {
    let dir = common::scratch("usage_many_words");
    let words: Vec<String> = (0..1001).map(|i| format!("word{i}")).collect();
    std::fs::write(
        dir.join("a.tool.yaml"),
        "name: a\ndescription: Add. Not for b.\n",
    )
    .unwrap();
    for rule in ["absolute-words", "missing-anti-trigger"] {
        std::fs::write(
            dir.join("toolcheck.yaml"),
            format!(
                "rules:\n  options:\n    {rule}: {{ words: [{}] }}\n",
                words.join(", ")
            ),
        )
        .unwrap();
        let (code, _, stderr) = common::run(&dir, &["lint", "a.tool.yaml"], None);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("1001 phrases, more than 1000"),
            "{rule}: {stderr}"
        );
    }
}
