//! `--format sarif` and `--format github` on the real binary.

mod common;

use std::path::{Path, PathBuf};

use common::root;
use serde_json::Value;

fn toolcheck(dir: &Path, args: &[&str]) -> (i32, String, String) {
    common::run(dir, args, None)
}

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("formats-{name}"))
}

fn sarif(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["lint", "--no-config", "--format", "sarif"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = toolcheck(dir, &all);
    assert!(code == 0 || code == 1, "exit {code}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"))
}

fn validator() -> jsonschema::Validator {
    // The official OASIS schema (errata01, draft-04) unchanged: see fixtures/sarif/README.md.
    let text = std::fs::read_to_string(root().join("fixtures/sarif/sarif-schema-2.1.0.json"))
        .expect("the schema is in fixtures/sarif");
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).expect("the official schema compiles")
}

fn schema_errors(validator: &jsonschema::Validator, log: &Value) -> Vec<String> {
    validator
        .iter_errors(log)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect()
}

/// Every kind of finding the fixtures hold: errors, warnings, notes, related locations,
/// unreadable manifests, JSON and YAML.
const CASES: &[&[&str]] = &[
    &["fixtures/examples"],
    &["fixtures/names/duplicate-tool-name/invalid.yaml"],
    &["fixtures/meta/invalid-manifest/invalid_syntax.json"],
    &["fixtures/meta/invalid-manifest/invalid_syntax.yaml"],
    &[
        "--severity",
        "absolute-words=info",
        "--severity",
        "TC4=warning",
        "fixtures/wording/absolute-words/invalid.yaml",
        "fixtures/spans",
    ],
    &["fixtures/meta/invalid-manifest/valid.yaml"],
];

#[test]
fn sarif_validates_against_the_official_schema() {
    let validator = validator();
    let mut levels = Vec::new();
    for case in CASES {
        let log = sarif(root(), case);
        let errors = schema_errors(&validator, &log);
        assert!(errors.is_empty(), "{case:?}: {errors:#?}");
        for result in log["runs"][0]["results"].as_array().unwrap() {
            levels.push(result["level"].as_str().unwrap().to_string());
        }
    }
    for level in ["error", "warning", "note"] {
        assert!(
            levels.iter().any(|l| l == level),
            "no {level} in {levels:?}"
        );
    }
}

#[test]
fn the_schema_check_catches_an_invalid_log() {
    let validator = validator();
    let mut log = sarif(root(), &["fixtures/examples"]);
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        Value::from(0);
    assert!(!schema_errors(&validator, &log).is_empty());
    let mut log = sarif(root(), &["fixtures/examples"]);
    log["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(!schema_errors(&validator, &log).is_empty());
}

#[test]
fn sarif_results_match_the_json_output() {
    let paths = [
        "fixtures/examples",
        "fixtures/names/duplicate-tool-name/invalid.yaml",
    ];
    let log = sarif(root(), &paths);
    let (_, stdout, _) = toolcheck(
        root(),
        &[
            "lint",
            "--no-config",
            "--format",
            "json",
            paths[0],
            paths[1],
        ],
    );
    let json: Value = serde_json::from_str(&stdout).unwrap();
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    assert_eq!(run["tool"]["driver"]["name"], "toolcheck");
    assert_eq!(run["tool"]["driver"]["version"], env!("CARGO_PKG_VERSION"));
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    let diagnostics = json["diagnostics"].as_array().unwrap();
    assert_eq!(results.len(), diagnostics.len());
    assert!(results.len() >= 5, "{results:#?}");
    for (result, diagnostic) in results.iter().zip(diagnostics) {
        let rule = &rules[result["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(result["ruleId"], diagnostic["code"]);
        assert_eq!(rule["id"], diagnostic["code"]);
        assert_eq!(rule["name"], diagnostic["rule"]);
        let level = match diagnostic["severity"].as_str().unwrap() {
            "info" => "note",
            other => other,
        };
        assert_eq!(result["level"], level);
        let text = result["message"]["text"].as_str().unwrap();
        assert!(text.starts_with(diagnostic["message"].as_str().unwrap()));
        if let Some(help) = diagnostic["help"].as_str() {
            assert!(text.ends_with(&format!("\nhelp: {help}")), "{text}");
        }
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], diagnostic["file"]);
        let region = &location["region"];
        let span = &diagnostic["span"];
        assert_eq!(region["startLine"], span["start"]["line"]);
        assert_eq!(region["startColumn"], span["start"]["column"]);
        assert_eq!(region["endLine"], span["end"]["line"]);
        assert_eq!(region["endColumn"], span["end"]["column"]);
        assert_eq!(region["byteOffset"], span["offset"]);
        assert_eq!(region["byteLength"], span["length"]);
    }
    // Every rule of the registry is listed, with its default level, whether it fired or not.
    let (_, listing, _) = toolcheck(root(), &["rules", "--no-config", "--format", "json"]);
    let listing: Value = serde_json::from_str(&listing).unwrap();
    let listing = listing.as_array().unwrap();
    assert_eq!(rules.len(), listing.len());
    let tc209 = rules.iter().find(|rule| rule["id"] == "TC209").unwrap();
    assert_eq!(tc209["name"], "absolute-words");
    assert_eq!(tc209["defaultConfiguration"]["level"], "error");
    assert!(
        tc209["help"]["markdown"]
            .as_str()
            .unwrap()
            .contains("## What it does")
    );
    assert!(
        !tc209["shortDescription"]["text"]
            .as_str()
            .unwrap()
            .is_empty()
    );
    // The duplicate's first definition is a related location.
    let duplicate = results
        .iter()
        .find(|result| result["ruleId"] == "TC502")
        .unwrap();
    let related = &duplicate["relatedLocations"][0];
    assert_eq!(
        related["physicalLocation"]["artifactLocation"]["uri"],
        "fixtures/names/duplicate-tool-name/invalid.yaml"
    );
    assert!(related["message"]["text"].as_str().is_some());
}

/// Checks that `url` is the page of `docs/rules/<file>` (an existing file) in the repository
/// Cargo.toml names; while that is a placeholder, that there is no URL at all.
fn check_page(url: &Value, file: &str) {
    assert!(
        root().join("docs/rules").join(file).is_file(),
        "no docs/rules/{file}"
    );
    match toolcheck::catalog::pages::base_url() {
        Some(base) => assert_eq!(url.as_str(), Some(format!("{base}{file}").as_str())),
        None => assert!(url.is_null(), "a URL under the placeholder home: {url}"),
    }
}

#[test]
fn every_rule_and_finding_links_to_its_page() {
    let paths = [
        "fixtures/examples",
        "fixtures/names/duplicate-tool-name/invalid.yaml",
    ];
    let log = sarif(root(), &paths);
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    for rule in rules {
        let file = format!(
            "{}-{}.md",
            rule["id"].as_str().unwrap(),
            rule["name"].as_str().unwrap()
        );
        check_page(&rule["helpUri"], &file);
        // The help names the page whether or not there is a URL.
        let help = rule["help"]["text"].as_str().unwrap();
        assert!(help.contains(&format!("(docs/rules/{file} in")), "{help}");
    }
    let (_, stdout, _) = toolcheck(
        root(),
        &[
            "lint",
            "--no-config",
            "--format",
            "json",
            paths[0],
            paths[1],
        ],
    );
    let json: Value = serde_json::from_str(&stdout).unwrap();
    let diagnostics = json["diagnostics"].as_array().unwrap();
    assert!(diagnostics.len() >= 5, "{stdout}");
    for diagnostic in diagnostics {
        let file = format!(
            "{}-{}.md",
            diagnostic["code"].as_str().unwrap(),
            diagnostic["rule"].as_str().unwrap()
        );
        check_page(&diagnostic["url"], &file);
    }

    // A team's own rule has no page: no helpUri, a null url, and the log still validates.
    let dir = root().join("fixtures/cli/team-rules");
    let (code, stdout, stderr) = toolcheck(&dir, &["lint", "--format", "sarif"]);
    assert_eq!(code, 0, "{stderr}");
    let log: Value = serde_json::from_str(&stdout).unwrap();
    assert!(schema_errors(&validator(), &log).is_empty());
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let team = rules.iter().find(|rule| rule["id"] == "X101").unwrap();
    assert!(team.get("helpUri").is_none(), "{team}");
    let (_, stdout, _) = toolcheck(&dir, &["lint", "--format", "json"]);
    let json: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["diagnostics"][0]["code"], "X101");
    assert_eq!(json["diagnostics"][0]["url"], Value::Null);
}

fn fingerprints_and_lines(log: &Value) -> (Vec<String>, Vec<u64>) {
    let results = log["runs"][0]["results"].as_array().unwrap();
    let fingerprints = results
        .iter()
        .map(|r| {
            r["partialFingerprints"]["toolcheck/v1"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let lines = results
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap()
        })
        .collect();
    (fingerprints, lines)
}

#[test]
fn fingerprints_survive_edits_that_move_lines() {
    let dir = scratch("fingerprints");
    let original =
        std::fs::read_to_string(root().join("fixtures/wording/absolute-words/invalid.yaml"))
            .unwrap();
    let path = dir.join("run_tests.tool.yaml");
    std::fs::write(&path, &original).unwrap();
    let before = fingerprints_and_lines(&sarif(&dir, &["run_tests.tool.yaml"]));
    std::fs::write(&path, format!("# a new comment\n\n{original}")).unwrap();
    let after = fingerprints_and_lines(&sarif(&dir, &["run_tests.tool.yaml"]));

    assert!(before.0.len() >= 3, "{before:?}");
    assert_eq!(before.0, after.0, "same findings, same fingerprints");
    let moved: Vec<u64> = before.1.iter().map(|line| line + 2).collect();
    assert_eq!(after.1, moved, "every finding moved down two lines");
    let mut unique = before.0.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), before.0.len(), "fingerprints are unique");

    // Another file, or the same finding in another tool, is another alert.
    std::fs::write(dir.join("other.tool.yaml"), &original).unwrap();
    let other = fingerprints_and_lines(&sarif(&dir, &["other.tool.yaml"]));
    assert!(other.0.iter().all(|f| !before.0.contains(f)));
    std::fs::write(
        &path,
        original.replace("name: run_tests", "name: run_checks"),
    )
    .unwrap();
    let renamed = fingerprints_and_lines(&sarif(&dir, &["run_tests.tool.yaml"]));
    assert!(renamed.0.iter().all(|f| !before.0.contains(f)));
}

#[test]
fn sarif_uris_use_forward_slashes_and_percent_encoding() {
    let dir = scratch("sarif-uri");
    std::fs::create_dir_all(dir.join("my tools")).unwrap();
    std::fs::write(
        dir.join("my tools/é%.tool.yaml"),
        "name: x\ndescription: Always do it.\n",
    )
    .unwrap();
    let log = sarif(&dir, &["my tools"]);
    assert!(schema_errors(&validator(), &log).is_empty());
    assert_eq!(
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "my%20tools/%C3%A9%25.tool.yaml"
    );
}

/// The envelope of each format, on the shipped examples; the diagnostics themselves are each
/// rule's fixtures' business. The crate version is filtered out so a release does not rewrite
/// these.
#[test]
fn sarif_log_of_the_examples() {
    let mut log = sarif(root(), &["fixtures/examples"]);
    let driver = &mut log["runs"][0]["tool"]["driver"];
    driver["version"] = "[version]".into();
    driver["semanticVersion"] = "[version]".into();
    // The rules' texts are the catalog's docs; their ids show the shape.
    let ids: Vec<Value> = driver["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| rule["id"].clone())
        .collect();
    driver["rules"] = ids.into();
    insta::assert_snapshot!(serde_json::to_string_pretty(&log).unwrap());
}

#[test]
fn json_document_of_the_examples() {
    let (code, stdout, stderr) = toolcheck(
        root(),
        &[
            "lint",
            "--no-config",
            "--format",
            "json",
            "fixtures/examples",
        ],
    );
    assert_eq!(code, 1, "{stderr}");
    let version = format!(r#""toolcheck": "{}""#, env!("CARGO_PKG_VERSION"));
    assert!(stdout.contains(&version), "{stdout}");
    // Page URLs are pinned to the version's tag.
    let tag = format!("/blob/v{}/", env!("CARGO_PKG_VERSION"));
    insta::assert_snapshot!(
        stdout
            .replace(&version, r#""toolcheck": "[version]""#)
            .replace(&tag, "/blob/v[version]/")
    );
}

#[test]
fn github_annotations_for_the_examples() {
    let (code, stdout, stderr) = toolcheck(
        root(),
        &[
            "lint",
            "--no-config",
            "--format",
            "github",
            "fixtures/examples",
        ],
    );
    assert_eq!(code, 1, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let (summary, commands) = lines.split_last().unwrap();
    assert!(!summary.starts_with("::"), "{summary}");
    assert!(summary.contains("in 2 files"), "{summary}");
    assert!(!commands.is_empty());
    for command in commands {
        assert!(
            ["::error file=", "::warning file=", "::notice file="]
                .iter()
                .any(|prefix| command.starts_with(prefix)),
            "{command}"
        );
    }
    insta::assert_snapshot!(stdout);

    // --quiet drops the summary line.
    let (_, quiet, _) = toolcheck(
        root(),
        &[
            "lint",
            "--no-config",
            "--format",
            "github",
            "--quiet",
            "fixtures/examples",
        ],
    );
    assert_eq!(quiet.lines().count(), commands.len());
    assert!(quiet.lines().all(|line| line.starts_with("::")));
}

#[test]
fn github_annotations_escape_paths_and_messages() {
    let dir = scratch("github-escape");
    std::fs::write(
        dir.join("toolcheck.yaml"),
        "rules:\n  options:\n    absolute-words: { words: [\"50%: yes, no\"], mode: every-occurrence }\n  severity:\n    absolute-words: warning\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("tools")).unwrap();
    let name = "tools/ä%b:c,d.tool.yaml";
    std::fs::write(
        dir.join(name),
        "name: vote\ndescription: |\n  Vote for it.\n  Üse 50%: yes, no answers.\n",
    )
    .unwrap();
    let (code, stdout, stderr) = toolcheck(
        &dir,
        &["lint", "--select", "TC209", "--format", "github", name],
    );
    assert_eq!(code, 0, "a warning only: {stderr}");
    let command = stdout.lines().next().unwrap();
    assert_eq!(
        command,
        "::warning file=tools/ä%25b%3Ac%2Cd.tool.yaml,line=4,endLine=4,col=7,endColumn=19,\
         title=TC209 absolute-words::absolute word `50%25: yes, no`%0Ahelp: state the condition \
         plainly; emphasis makes every sentence weigh the same"
    );
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
}
