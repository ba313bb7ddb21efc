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
