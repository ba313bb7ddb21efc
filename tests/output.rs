//! The output a user reads first: `--output-format concise`, `--statistics`, the footer, and
//! the exit-code flags (`--exit-zero`, `--max-warnings`).

mod common;

fn toolcheck(args: &[&str]) -> (i32, String, String) {
    common::run(common::root(), args, None)
}

const EXAMPLES: &str = "fixtures/examples";
const FIXABLE: &str = "fixtures/schema/non-object-root/invalid_properties_without_type.json";

#[test]
fn concise_is_one_line_per_finding_then_the_summary_and_hints() {
    let (code, stdout, _) =
        toolcheck(&["lint", "--no-config", "--output-format", "concise", FIXABLE]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        format!(
            "{FIXABLE}:2:35: warning: TC207 missing-anti-trigger nothing in the description says when not to use `mild`\n\
             {FIXABLE}:2:36: info: TC212 name-not-in-description the description's first sentence uses none of the name's words (`mild`)\n\
             {FIXABLE}:2:66: warning: TC402 [*] non-object-root the input schema declares `properties` but no `type`\n\
             {FIXABLE}:2:97: info: TC405 undescribed-parameter parameter `q` has no description\n\
             {FIXABLE}:3:35: warning: TC207 missing-anti-trigger nothing in the description says when not to use `bare`\n\
             {FIXABLE}:3:36: info: TC212 name-not-in-description the description's first sentence uses none of the name's words (`bare`)\n\
             {FIXABLE}:3:51: error: TC402 non-object-root the input schema has no `type`\n\
             1 error, 3 warnings, 3 infos in 1 file (2 tools)\n\
             errors by rule: 1 TC402 non-object-root\n\
             [*] 1 fixable with `toolcheck lint --fix` (preview with `--diff`)\n\
             hint: `toolcheck explain TC402` for a rule's details\n\
             hint: silence a finding with `# toolcheck: ignore[TC402]` on its YAML line, or with \
             `per-file-ignores` in toolcheck.yaml\n"
        )
    );
}

#[test]
fn quiet_concise_prints_only_the_findings() {
    let (_, stdout, _) = toolcheck(&["lint", "--no-config", "--format", "concise", "-q", EXAMPLES]);
    assert_eq!(stdout.lines().count(), 6, "{stdout}");
    assert!(
        stdout
            .lines()
            .all(|line| line.starts_with("fixtures/examples/")),
        "{stdout}"
    );
}

#[test]
fn format_is_an_alias_and_human_is_full() {
    let run =
        |flag: &str, value: &str| toolcheck(&["lint", "--no-config", flag, value, EXAMPLES]).1;
    assert_eq!(
        run("--format", "concise"),
        run("--output-format", "concise")
    );
    let full = run("--output-format", "full");
    assert_eq!(run("--format", "human"), full);
    assert!(full.contains("TC209 absolute-words"), "{full}");
    assert!(full.contains("hint: `toolcheck explain"), "{full}");
}

#[test]
fn a_clean_run_has_no_hints() {
    let (code, stdout, _) = toolcheck(&[
        "lint",
        "--no-config",
        "--format",
        "concise",
        "fixtures/meta/invalid-manifest/valid.yaml",
    ]);
    assert_eq!(code, 0);
    assert_eq!(stdout, "0 errors, 0 warnings in 1 file (1 tool)\n");
}

#[test]
fn statistics_count_each_rule_most_first_with_the_fixable_share() {
    let (code, stdout, _) = toolcheck(&["lint", "--no-config", "--statistics", EXAMPLES, FIXABLE]);
    assert_eq!(code, 1);
    let table: Vec<&str> = stdout.lines().take(8).collect();
    assert_eq!(
        table,
        [
            "3  TC207      warning  missing-anti-trigger",
            "3  TC402  [*] error    non-object-root          1 fixable",
            "2  TC212      info     name-not-in-description",
            "1  TC209      error    absolute-words",
            "1  TC301      error    secret-like-field-names",
            "1  TC401      error    top-level-combinator",
            "1  TC405      info     undescribed-parameter",
            "1  TC501      error    invalid-tool-name",
        ]
    );
    assert!(
        stdout.contains("\n6 errors, 4 warnings, 3 infos in 3 files (5 tools)\n"),
        "{stdout}"
    );
}

#[test]
fn statistics_as_json() {
    let (_, stdout, _) = toolcheck(&[
        "lint",
        "--no-config",
        "--statistics",
        "--format",
        "json",
        FIXABLE,
    ]);
    let counts: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(
        counts,
        serde_json::json!([
            {"code": "TC207", "name": "missing-anti-trigger", "severity": "warning", "count": 2,
             "fixable": 0},
            {"code": "TC212", "name": "name-not-in-description", "severity": "info", "count": 2,
             "fixable": 0},
            // One of them a warning: the highest severity is the rule's.
            {"code": "TC402", "name": "non-object-root", "severity": "error", "count": 2,
             "fixable": 1},
            {"code": "TC405", "name": "undescribed-parameter", "severity": "info", "count": 1,
             "fixable": 0},
        ])
    );
}

/// Issue 29: a first run with many findings says which errors fail it and how to take the
/// findings in, each way but the one in use; a run on a baseline does not.
#[test]
fn a_first_run_with_many_findings_gets_the_ways_in() {
    let dir = common::scratch("output-first-run");
    let tools: Vec<serde_json::Value> = (0..12)
        .map(|index| {
            serde_json::json!({
                "name": format!("job_{index}"),
                "description": format!("Always run job {index}. Not for builds."),
                "inputSchema": {"type": "object", "properties": {"api_key": {"type": "string"}}},
            })
        })
        .collect();
    let text = serde_json::to_string(&serde_json::json!({ "tools": tools })).unwrap();
    std::fs::write(dir.join("jobs.tools.json"), &text).unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["lint", "--no-config"];
        all.extend_from_slice(args);
        all.push("jobs.tools.json");
        common::run(&dir, &all, None).1
    };
    let ways = [
        "  `--statistics` counts them by rule\n",
        "  `--output-format concise` prints one line each\n",
        "  `--write-baseline toolcheck-baseline.json` records them",
    ];
    let full = run(&[]);
    assert!(
        full.contains(
            "errors by rule: 12 TC209 absolute-words, 12 TC301 secret-like-field-names\n"
        ),
        "{full}"
    );
    assert!(
        full.contains("hint: 36 findings; ways to take them in:\n"),
        "{full}"
    );
    assert!(ways.iter().all(|way| full.contains(way)), "{full}");
    let concise = run(&["--output-format", "concise"]);
    assert!(!concise.contains(ways[1]), "{concise}");
    assert!(
        concise.contains(ways[0]) && concise.contains(ways[2]),
        "{concise}"
    );
    let statistics = run(&["--statistics"]);
    assert!(!statistics.contains(ways[0]), "{statistics}");
    assert!(
        statistics.contains(ways[1]) && statistics.contains(ways[2]),
        "{statistics}"
    );

    // A run on a baseline is not a first one: its new findings are many, and no ways in.
    let first = serde_json::to_string(&serde_json::json!({ "tools": [&tools[0]] })).unwrap();
    std::fs::write(dir.join("jobs.tools.json"), first).unwrap();
    let (code, _, stderr) = common::run(
        &dir,
        &[
            "lint",
            "--no-config",
            "--write-baseline",
            "base.json",
            "jobs.tools.json",
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    std::fs::write(dir.join("jobs.tools.json"), text).unwrap();
    let baselined = run(&["--baseline", "base.json"]);
    assert!(
        baselined
            .contains("22 errors, 0 warnings, 11 infos in 1 file (12 tools); 3 in the baseline\n"),
        "{baselined}"
    );
    assert!(!baselined.contains("ways to take them in"), "{baselined}");
}

/// More error rules than the line names: the last ones are counted, a single last one named.
#[test]
fn the_errors_line_names_three_rules_and_counts_the_rest() {
    let (_, stdout, _) = toolcheck(&["lint", "--no-config", EXAMPLES]);
    assert!(
        stdout.contains(
            "errors by rule: 1 TC209 absolute-words, 1 TC301 secret-like-field-names, \
             1 TC401 top-level-combinator, 2 more in 2 rules\n"
        ),
        "{stdout}"
    );
}

#[test]
fn exit_zero_keeps_the_findings_and_exits_zero() {
    let (code, stdout, _) = toolcheck(&[
        "lint",
        "--no-config",
        "--exit-zero",
        "--format",
        "concise",
        EXAMPLES,
    ]);
    assert_eq!(code, 0);
    assert!(stdout.contains("5 errors, 1 warning"), "{stdout}");
    // A usage error is still one.
    let (code, _, _) = toolcheck(&["lint", "--no-config", "--exit-zero", "no/such/file.yaml"]);
    assert_eq!(code, 2);
}

#[test]
fn too_many_warnings_says_why() {
    let args = [
        "lint",
        "--no-config",
        "--select",
        "TC402",
        "--severity",
        "TC402=warning",
        "-q",
        "--format",
        "concise",
        FIXABLE,
    ];
    let (code, _, stderr) = toolcheck(&[&args[..], &["--max-warnings", "1"]].concat());
    assert_eq!(code, 1);
    assert_eq!(stderr, "2 warnings, more than --max-warnings 1\n");
    let (code, _, stderr) = toolcheck(&[&args[..], &["--max-warnings", "2"]].concat());
    assert_eq!(code, 0);
    assert_eq!(stderr, "");
}

/// A project whose config turns one rule down, one off, and sets an option.
fn tuned_project(test: &str) -> std::path::PathBuf {
    let dir = common::scratch(test);
    std::fs::write(
        dir.join("toolcheck.yaml"),
        "rules:\n  ignore: [TC209]\n  severity: {missing-anti-trigger: error}\n  options:\n    description-too-long: {max-tokens: 300}\n",
    )
    .unwrap();
    std::fs::create_dir(dir.join("tools")).unwrap();
    std::fs::copy(
        common::root().join("fixtures/examples/search.tools.json"),
        dir.join("tools/search.tools.json"),
    )
    .unwrap();
    dir
}

#[test]
fn rules_show_the_family_the_effective_severity_and_the_fix() {
    let dir = tuned_project("rules_effective");
    let (code, stdout, _) = common::run(&dir, &["rules"], None);
    assert_eq!(code, 0);
    let row = |code: &str| {
        stdout
            .lines()
            .find(|line| line.starts_with(code))
            .unwrap_or_else(|| panic!("no {code} in\n{stdout}"))
            .split_whitespace()
            .take(5)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(row("code"), "code name family severity fix");
    assert_eq!(row("TC207"), "TC207 missing-anti-trigger wording error* a");
    assert_eq!(row("TC209"), "TC209 absolute-words wording off* absolute");
    assert_eq!(row("TC402"), "TC402 non-object-root schema error yes");
    assert!(
        stdout.ends_with("\n* changed by the config (default: `toolcheck rules --no-config`)\n")
    );
    let (_, json, _) = common::run(&dir, &["rules", "--format", "json"], None);
    let rules: serde_json::Value = serde_json::from_str(&json).unwrap();
    let tc209 = rules
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["code"] == "TC209")
        .unwrap();
    assert_eq!(tc209["severity"], "error");
    assert_eq!(tc209["effective_severity"], serde_json::Value::Null);
    let tc402 = rules
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["code"] == "TC402")
        .unwrap();
    assert_eq!(tc402["fixable"], true);
}

#[test]
fn show_settings_resolves_the_config_files_and_rules() {
    let dir = tuned_project("show_settings");
    let (code, stdout, _) = common::run(&dir, &["lint", "--show-settings"], None);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with("config file: toolcheck.yaml\nroot: "),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nfiles (1):\n  tools/search.tools.json\n"),
        "{stdout}"
    );
    // Rows by their columns, whatever the width the longest rule name gives them.
    fn row<'a>(stdout: &'a str, code: &str) -> Vec<&'a str> {
        stdout
            .lines()
            .find(|line| line.trim_start().starts_with(&format!("{code} ")))
            .map(|line| line.split_whitespace().take(3).collect())
            .unwrap_or_default()
    }
    assert!(
        stdout
            .lines()
            .any(|line| line.split_whitespace().collect::<Vec<_>>()
                == [
                    "TC101",
                    "description-too-long",
                    "error",
                    "{\"max-tokens\":300}"
                ]),
        "{stdout}"
    );
    assert_eq!(
        row(&stdout, "TC207"),
        ["TC207", "missing-anti-trigger", "error"],
        "{stdout}"
    );
    assert_eq!(
        row(&stdout, "TC209"),
        ["TC209", "absolute-words", "off"],
        "{stdout}"
    );
    // The command line counts as it does for a run.
    let (_, stdout, _) = common::run(&dir, &["lint", "--show-settings", "--select", "TC1"], None);
    assert_eq!(
        row(&stdout, "TC207"),
        ["TC207", "missing-anti-trigger", "off"],
        "{stdout}"
    );
}
