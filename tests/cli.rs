//! The real binary: exit codes, discovery, standard input, config errors, output formats.

mod common;

/// Runs toolcheck in `dir` (relative to the repository).
fn toolcheck(dir: &str, args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    common::run(&common::root().join(dir), args, stdin)
}

fn transcript(result: (i32, String, String)) -> String {
    let (code, stdout, stderr) = result;
    format!("exit code: {code}\n----- stdout -----\n{stdout}----- stderr -----\n{stderr}")
}

#[test]
fn clean_file_exits_zero() {
    let (code, stdout, _) = toolcheck(
        ".",
        &[
            "lint",
            "--no-config",
            "fixtures/meta/invalid-manifest/valid.yaml",
        ],
        None,
    );
    assert_eq!(code, 0);
    assert_eq!(stdout, "0 errors, 0 warnings in 1 file (1 tool)\n");
}

#[test]
fn unreadable_manifest_exits_one() {
    let result = toolcheck(
        ".",
        &[
            "lint",
            "--no-config",
            "fixtures/meta/invalid-manifest/invalid_syntax.json",
        ],
        None,
    );
    assert_eq!(result.0, 1);
    insta::assert_snapshot!(transcript(result));
}

#[test]
fn missing_path_exits_two() {
    let (code, stdout, stderr) =
        toolcheck(".", &["lint", "--no-config", "no/such/file.yaml"], None);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("path `no/such/file.yaml` does not exist"),
        "{stderr}"
    );
}

#[test]
fn nothing_to_lint_names_the_patterns() {
    let result = toolcheck("fixtures/cli/empty", &["lint", "--no-config"], None);
    assert_eq!(result.0, 2);
    insta::assert_snapshot!(transcript(result));
}

#[test]
fn directories_are_walked_with_include_and_exclude() {
    let result = toolcheck("fixtures/cli/project", &["lint", "--format", "json"], None);
    assert_eq!(result.0, 1);
    let document: serde_json::Value = serde_json::from_str(&result.1).unwrap();
    assert_eq!(
        document["summary"]["files"], 2,
        "search.tool.yaml and broken.tools.json, not vendor/ or notes.txt"
    );
    let found: Vec<(&str, &str, &str)> = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap(),
                d["code"].as_str().unwrap(),
                d["severity"].as_str().unwrap(),
            )
        })
        .collect();
    // Errors only in the broken file. `search_docs` is defined in both files, but two files
    // of one run are not one tool set: no duplicate.
    assert!(!found.is_empty());
    for (file, _, _) in &found {
        assert_eq!(*file, "tools/broken.tools.json", "{found:?}");
    }
}

#[test]
fn stdin_is_named_by_stdin_filename() {
    let manifest = r#"{"name": "x", "description": 42}"#;
    let result = toolcheck(
        ".",
        &[
            "lint",
            "--no-config",
            "--format",
            "json",
            "--stdin-filename",
            "tools/x.json",
            "-",
        ],
        Some(manifest),
    );
    assert_eq!(result.0, 1);
    let document: serde_json::Value = serde_json::from_str(&result.1).unwrap();
    let diagnostics = document["diagnostics"].as_array().unwrap();
    assert!(diagnostics.iter().all(|d| d["file"] == "tools/x.json"));
    assert!(
        diagnostics
            .iter()
            .any(|d| d["code"] == "TC001" && d["pointer"] == "/description"),
        "{diagnostics:#?}"
    );
}

#[test]
fn stdin_without_a_name_is_sniffed() {
    let (code, stdout, _) = toolcheck(
        ".",
        &["lint", "--no-config", "-"],
        Some("name: x\ndescription: 42\n"),
    );
    assert_eq!(code, 1);
    assert!(
        stdout.contains("`description` must be a string, found a number"),
        "{stdout}"
    );
}

#[test]
fn unknown_config_key_points_at_it() {
    let result = toolcheck("fixtures/cli/bad-config", &["lint"], None);
    assert_eq!(result.0, 2);
    insta::assert_snapshot!(transcript(result));
}

#[test]
fn unknown_rule_on_the_command_line_suggests_one() {
    let (code, _, stderr) = toolcheck(
        ".",
        &[
            "lint",
            "--no-config",
            "--ignore",
            "invalid-manifst",
            "fixtures/examples",
        ],
        None,
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("unknown rule `invalid-manifst`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("did you mean `invalid-manifest`?"),
        "{stderr}"
    );
}

#[test]
fn a_misspelt_family_suggests_the_family() {
    let (code, _, stderr) = toolcheck(
        ".",
        &[
            "lint",
            "--no-config",
            "--select",
            "wordng",
            "fixtures/examples",
        ],
        None,
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("did you mean `wording`?"), "{stderr}");
}

/// A flag other tools spell otherwise gets toolcheck's spelling, not the nearest flag by
/// spelling; a plain typo keeps clap's guess; an idiom the subcommand has no flag for, none.
#[test]
fn a_flag_from_another_tool_gets_toolchecks_spelling() {
    for (args, tip) in [
        (&["lint", "--no-colour", "x"][..], "'--color never'"),
        (&["lint", "--no-color=1", "x"][..], "'--color never'"),
        (&["lint", "--json", "x"][..], "'--output-format json'"),
        (&["tokens", "--json", "x"][..], "'--format json'"),
        (&["lint", "--dry-run", "x"][..], "'--diff'"),
    ] {
        let (code, stdout, stderr) = toolcheck(".", args, None);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert!(
            stderr.contains(&format!("tip: toolcheck spells it {tip}")),
            "{args:?}: {stderr}"
        );
        assert!(
            stderr.contains(&format!("Usage: toolcheck {} [OPTIONS]", args[0])),
            "{stderr}"
        );
    }
    let (code, _, stderr) = toolcheck(".", &["lint", "--no-cnfig", "x"], None);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("a similar argument exists: '--no-config'"),
        "{stderr}"
    );
    let (code, _, stderr) = toolcheck(".", &["explain", "--json", "TC209"], None);
    assert_eq!(code, 2);
    assert!(!stderr.contains("toolcheck spells it"), "{stderr}");
}

#[test]
fn bad_severity_flag_is_a_usage_error() {
    let (code, _, stderr) = toolcheck(
        ".",
        &["lint", "--severity", "TC001=loud", "fixtures/examples"],
        None,
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown severity `loud`"), "{stderr}");
}

#[test]
fn explicit_config_file_is_used() {
    let (code, _, stderr) = toolcheck(
        ".",
        &[
            "lint",
            "--config",
            "fixtures/cli/bad-config/toolcheck.yaml",
            "fixtures/examples",
        ],
        None,
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown config key `severty`"), "{stderr}");
}

#[test]
fn explain_and_rules_list_rules() {
    let (code, stdout, _) = toolcheck(".", &["explain", "TC001"], None);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("# TC001 invalid-manifest\n"), "{stdout}");
    assert!(stdout.contains("## Why is this bad?"));
    let (code, stdout, _) = toolcheck(".", &["rules", "--format", "json"], None);
    assert_eq!(code, 0);
    let rows: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .any(|row| row["code"] == "TC001" && row["kind"] == "rust")
    );
    let (code, _, stderr) = toolcheck(".", &["explain", "TC99"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown rule `TC99`"), "{stderr}");
}

#[test]
fn a_name_used_by_two_unrelated_files_is_not_a_duplicate() {
    let (code, stdout, stderr) = toolcheck(
        "fixtures/cli/two-servers",
        &[
            "lint",
            "--no-config",
            "--select",
            "TC502",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let document: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(document["summary"]["files"], 2);
    assert_eq!(document["diagnostics"], serde_json::json!([]), "{stdout}");
}

#[test]
fn a_misspelled_rule_option_points_at_the_key() {
    let result = toolcheck("fixtures/cli/bad-options", &["lint"], None);
    assert_eq!(result.0, 2);
    insta::assert_snapshot!(transcript(result));
}

#[test]
fn a_team_ruleset_runs_like_built_in_rules() {
    let result = toolcheck(
        "fixtures/cli/team-rules",
        &["lint", "--format", "json"],
        None,
    );
    assert_eq!(result.0, 0, "the team rule is set to warning in the config");
    let document: serde_json::Value = serde_json::from_str(&result.1).unwrap();
    let found: Vec<(&str, &str, &str)> = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap(),
                d["severity"].as_str().unwrap(),
                d["message"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(found, [("X101", "warning", "internal codename `Bluebird`")]);
    let (code, stdout, _) = toolcheck(
        "fixtures/cli/team-rules",
        &["explain", "internal-codename"],
        None,
    );
    assert_eq!(code, 0);
    assert!(
        stdout.contains("defined in ./rules/internal-codename.yaml")
            || stdout.contains("rules/internal-codename.yaml"),
        "{stdout}"
    );
}

#[test]
fn a_malformed_rule_file_points_into_it() {
    let result = toolcheck("fixtures/cli/bad-ruleset", &["lint"], None);
    assert_eq!(result.0, 2);
    insta::assert_snapshot!(transcript(result));
}

/// A full disk is an error (exit code 2) for every format; a pipe closed early (`| head`) is
/// not: the run ends with its findings' exit code.
#[cfg(target_os = "linux")]
#[test]
fn an_output_that_cannot_be_written_is_exit_two_but_a_closed_pipe_is_not() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let manifest = common::root().join("fixtures/tokens/small.tools.yaml");
    let manifest = manifest.to_str().expect("a UTF-8 path");
    for format in ["json", "sarif", "full", "concise", "github"] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let output = Command::new(env!("CARGO_BIN_EXE_toolcheck"))
            .args(["lint", "--no-config", "--format", format, manifest])
            .stdout(full)
            .output()
            .expect("toolcheck runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{format}: {stderr}");
        assert!(
            stderr.contains("cannot write the output"),
            "{format}: {stderr}"
        );
    }
    // The SARIF log carries every rule's docs: far more than a pipe holds, so the writing
    // meets the closed end.
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolcheck"))
        .args(["lint", "--no-config", "--format", "sarif", manifest])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("toolcheck runs");
    let mut first = [0u8; 1];
    let mut stdout = child.stdout.take().expect("piped");
    stdout.read_exact(&mut first).expect("the output starts");
    drop(stdout);
    let output = child.wait_with_output().expect("toolcheck ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("cannot write"), "{stderr}");
}
