//! `--write-baseline` and `--baseline`: a baseline survives reordering, reformatting and line
//! shifts, reports exactly the new findings, and reports its own entries once they are fixed.

mod common;

use serde_json::{Value, json};

fn tool(name: &str, description: &str, property: &str) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": {property: {"type": "string", "description": "The value"}},
        },
    })
}

fn lint(dir: &std::path::Path, args: &[&str]) -> (i32, Value, String) {
    let mut all = vec!["lint", "--no-config", "--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = common::run(dir, &all, None);
    let document = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (code, document, stderr)
}

/// `lint --write-baseline FILE PATH` in `dir`: its exit code and stderr.
fn write_baseline_of(dir: &std::path::Path, file: &str, path: &str) -> (i32, String) {
    let (code, _, stderr) = common::run(
        dir,
        &["lint", "--no-config", "--write-baseline", file, path],
        None,
    );
    (code, stderr)
}

/// `lint --write-baseline base.json .` in `dir`: the baseline written, and what it said.
fn write_baseline(dir: &std::path::Path) -> (Value, String) {
    let (code, stderr) = write_baseline_of(dir, "base.json", ".");
    assert_eq!(code, 0, "{stderr}");
    let written =
        serde_json::from_str(&std::fs::read_to_string(dir.join("base.json")).unwrap()).unwrap();
    (written, stderr)
}

fn findings(document: &Value) -> Vec<(String, String)> {
    document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["tool"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn only_new_findings_are_reported_and_fixed_entries_are_stale() {
    let dir = common::scratch("baseline");
    std::fs::create_dir_all(dir.join("tools")).unwrap();
    let run_tests = tool(
        "run_tests",
        "Always run the whole suite. Always ask first.",
        "password",
    );
    let search = tool("search_docs", "Search the docs.", "api_key");
    let manifest = dir.join("tools/a.tools.json");
    let pretty =
        |tools: &[&Value]| serde_json::to_string_pretty(&json!({ "tools": tools })).unwrap();
    std::fs::write(&manifest, pretty(&[&run_tests, &search])).unwrap();

    let (written, stderr) = write_baseline(&dir);
    let recorded = written["findings"].as_array().unwrap().len();
    // Two `Always`, two credentials, two descriptions without a boundary.
    assert_eq!(recorded, 6, "{written:#}");
    assert!(
        stderr.contains("wrote 6 findings to the baseline base.json"),
        "{stderr}"
    );

    let (code, document, stderr) = lint(&dir, &["--baseline", "base.json", "."]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(findings(&document), []);
    assert_eq!(document["summary"]["baselined"], 6);

    // Reorder, reformat (one line), move everything down, and add one flawed tool.
    let fetch = tool(
        "fetch_url",
        "Fetch a URL. Not for files; NEVER for local paths.",
        "url",
    );
    let compact = serde_json::to_string(&json!({"tools": [&search, &fetch, &run_tests]})).unwrap();
    std::fs::write(&manifest, format!("\n\n\n{compact}")).unwrap();
    let (code, document, stderr) = lint(&dir, &["--baseline", "base.json", "."]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        findings(&document),
        [("TC209".to_string(), "fetch_url".to_string())]
    );
    assert_eq!(document["summary"]["baselined"], 6);

    // The same from inside `tools/`, with the paths typed another way.
    let (_, document, _) = lint(
        &dir.join("tools"),
        &["--baseline", "../base.json", "a.tools.json"],
    );
    assert_eq!(
        findings(&document),
        [("TC209".to_string(), "fetch_url".to_string())]
    );

    // Fix one of the old findings: its entry matches nothing and is reported, in the baseline.
    let fixed = tool(
        "run_tests",
        "Run the whole suite. Always ask first.",
        "password",
    );
    let compact = serde_json::to_string(&json!({"tools": [&search, &fixed]})).unwrap();
    std::fs::write(&manifest, compact).unwrap();
    let (code, document, stderr) = lint(&dir, &["--baseline", "base.json", "."]);
    assert_eq!(code, 0, "a stale entry is a warning: {stderr}");
    let stale: Vec<&Value> = document["diagnostics"].as_array().unwrap().iter().collect();
    assert_eq!(stale.len(), 1, "{document:#}");
    assert_eq!(stale[0]["code"], "TC002");
    assert_eq!(stale[0]["file"], "base.json");
    assert_eq!(
        stale[0]["message"],
        "baseline entry for `TC209` matched no finding"
    );
    assert_eq!(document["summary"]["baselined"], 5);
}

/// Issue 29: pre-commit passes only the staged files. A run over one file of a baselined
/// directory says nothing of the other files' entries, still reports its own stale ones, and
/// `--write-baseline` over it rewrites that file's entries and keeps the others'.
#[test]
fn a_run_over_some_files_leaves_the_other_files_entries_alone() {
    let dir = common::scratch("baseline-subset");
    let write = |name: &str, tools: &[Value]| {
        let text = serde_json::to_string_pretty(&json!({ "tools": tools })).unwrap();
        std::fs::write(dir.join(name), text).unwrap();
    };
    let always = |name: &str| {
        let description = format!("Always run the {name} job. Not for logs.");
        tool(name, &description, "value")
    };
    write("a.tools.json", &[always("run_a")]);
    write("b.tools.json", &[always("run_b"), always("run_c")]);
    let (written, _) = write_baseline(&dir);
    assert_eq!(
        written["findings"].as_array().unwrap().len(),
        3,
        "{written:#}"
    );

    // b's entries all match; a's file is not in the run.
    let (code, document, stderr) = lint(
        &dir,
        &[
            "--baseline",
            "base.json",
            "--max-warnings",
            "0",
            "b.tools.json",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(findings(&document), []);
    assert_eq!(document["summary"]["baselined"], 2);

    // Fixing one of b's findings makes its entry stale, and only that one.
    write(
        "b.tools.json",
        &[
            always("run_b"),
            tool("run_c", "Run the run_c job. Not for logs.", "value"),
        ],
    );
    let (code, document, _) = lint(
        &dir,
        &[
            "--baseline",
            "base.json",
            "--max-warnings",
            "0",
            "b.tools.json",
        ],
    );
    assert_eq!(code, 1, "--max-warnings 0 counts the stale entry");
    assert_eq!(findings(&document), [("TC002".to_string(), String::new())]);

    // Rewriting the baseline from b alone drops b's stale entry and keeps a's.
    let (code, stderr) = write_baseline_of(&dir, "base.json", "b.tools.json");
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(
            "wrote 1 finding to the baseline base.json; kept 1 entry of a file this run did not lint"
        ),
        "{stderr}"
    );
    let (code, document, stderr) = lint(
        &dir,
        &["--baseline", "base.json", "--max-warnings", "0", "."],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(findings(&document), []);
    assert_eq!(document["summary"]["baselined"], 2);
}

/// `--write-baseline` keeps the entries already there, so it never writes over a file that is
/// not a baseline.
#[test]
fn writing_a_baseline_over_another_file_is_refused() {
    let dir = common::scratch("baseline-over");
    std::fs::write(
        dir.join("a.tool.yaml"),
        "name: a\ndescription: Always do it.\n",
    )
    .unwrap();
    std::fs::write(dir.join("package.json"), r#"{"name": "x"}"#).unwrap();
    let (code, stderr) = write_baseline_of(&dir, "package.json", ".");
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("cannot write the baseline over package.json: it holds something else"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("package.json")).unwrap(),
        r#"{"name": "x"}"#
    );
}

#[test]
fn a_file_that_is_not_a_baseline_is_a_clear_error() {
    let dir = common::scratch("baseline-bad");
    std::fs::write(
        dir.join("a.tool.yaml"),
        "name: a\ndescription: d. Not for x.\n",
    )
    .unwrap();
    std::fs::write(dir.join("base.json"), r#"{"tools": []}"#).unwrap();
    let (code, _, stderr) = common::run(
        &dir,
        &["lint", "--no-config", "--baseline", "base.json", "."],
        None,
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("not a toolcheck baseline"), "{stderr}");
    let (code, _, stderr) = common::run(
        &dir,
        &["lint", "--no-config", "--baseline", "missing.json", "."],
        None,
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.json"), "{stderr}");
}

/// Issue 28: a YAML set whose tools share a name prefix, so that messages quote name words
/// and helps name siblings. Adding a tool that breaks the prefix, reordering and reindenting
/// the file brings back no baselined finding and leaves no entry unused.
#[test]
fn a_yaml_set_keeps_its_baseline_through_an_added_tool_reorder_and_reindent() {
    let dir = common::scratch("baseline-yaml-set");
    let tools = [
        "- name: acme_get_invoice\n  description: Fetches a bill by number. ALWAYS ask first.\n  input_schema:\n    type: object\n    properties:\n      n: {type: string}\n",
        "- name: acme_list_orders\n  description: Returns recent purchases.\n  input_schema:\n    type: object\n    properties:\n      api_key: {type: string}\n",
        "- name: acme_send_mail\n  description: Delivers a letter to a customer.\n  input_schema:\n    type: object\n",
    ];
    let indented = |list: &str, by: &str| -> String {
        std::iter::once("tools:\n".to_string())
            .chain(list.lines().map(|line| format!("{by}{line}\n")))
            .collect()
    };
    let manifest = dir.join("acme.tools.yaml");
    std::fs::write(&manifest, indented(&tools.concat(), "  ")).unwrap();
    let (written, _) = write_baseline(&dir);
    let recorded = written["findings"].as_array().unwrap().len();
    assert!(recorded >= 8, "{written:#}");

    // A tool without the prefix first, the others reversed, every line indented four more.
    let added = "- name: other_tool\n  description: Does another thing. Not for bills.\n  input_schema:\n    type: object\n";
    let reordered = [added, tools[2], tools[1], tools[0]].concat();
    std::fs::write(&manifest, indented(&reordered, "      ")).unwrap();
    let (_, document, stderr) = lint(&dir, &["--baseline", "base.json", "."]);
    let new: Vec<(String, String)> = findings(&document)
        .into_iter()
        .filter(|(_, tool)| tool != "other_tool")
        .collect();
    assert_eq!(new, [], "{document:#}\n{stderr}");
    assert_eq!(document["summary"]["baselined"], recorded, "{document:#}");
}
