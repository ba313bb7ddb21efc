//! Which files a run reads, however their paths are typed: the config's globs relative to its
//! directory, the command line's to the working directory, and directories of tool files whose
//! names `include` does not match (`discovery: content`, or a hint naming the commands).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// A tool with an absolute word (TC209) in its description.
fn tool(name: &str) -> String {
    format!(
        "name: {name}\ndescription: Always look {name} up. Not for code.\ninput_schema: {{type: object}}\n"
    )
}

fn json_tool(name: &str) -> String {
    format!(
        r#"{{"name": "{name}", "description": "Always look {name} up. Not for code.", "inputSchema": {{"type": "object"}}}}"#
    )
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A project whose config names its files relative to its own directory:
///
/// ```text
/// toolcheck.yaml       include tools/**/*.yaml and servers/*.json, exclude tools/legacy/**,
///                      TC209 ignored in servers/cf.json
/// tools/search/web.yaml, tools/misc/calc.yaml, tools/legacy/old.yaml (excluded)
/// servers/cf.json (TC209 suppressed), servers/other.json
/// ```
fn project(name: &str) -> PathBuf {
    let dir = common::scratch(name);
    write(
        &dir.join("toolcheck.yaml"),
        r#"include: ["tools/**/*.yaml", "servers/*.json"]
exclude: ["tools/legacy/**"]
rules:
  per-file-ignores:
    "servers/cf.json": [TC209]
"#,
    );
    write(&dir.join("tools/search/web.yaml"), &tool("web"));
    write(&dir.join("tools/misc/calc.yaml"), &tool("calc"));
    write(&dir.join("tools/legacy/old.yaml"), &tool("old"));
    write(&dir.join("servers/cf.json"), &json_tool("cf"));
    write(&dir.join("servers/other.json"), &json_tool("other"));
    dir
}

/// What a run in `dir` linted: each file's name (as reported) → `reported` when its TC209
/// is reported, `suppressed` when a suppression silenced it.
fn linted(dir: &Path, args: &[&str], stdin: Option<&str>) -> BTreeMap<String, &'static str> {
    let mut all = vec!["lint", "--format", "json", "--select", "TC209"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = common::run(dir, &all, stdin);
    assert!(
        code == 0 || code == 1,
        "{args:?} in {dir:?}: exit {code}: {stderr}"
    );
    let document: Value = serde_json::from_str(&stdout).unwrap();
    let mut files = BTreeMap::new();
    for (key, state) in [("diagnostics", "reported"), ("suppressed", "suppressed")] {
        for finding in document[key].as_array().into_iter().flatten() {
            assert_eq!(finding["code"], "TC209");
            let file = finding["file"].as_str().unwrap().to_string();
            assert_eq!(files.insert(file, state), None, "{args:?}: {document:#}");
        }
    }
    assert_eq!(
        document["summary"]["files"].as_u64(),
        Some(files.len() as u64),
        "{args:?}: every file linted has its TC209: {document:#}"
    );
    files
}

fn expect(files: &[(&str, &'static str)]) -> BTreeMap<String, &'static str> {
    files
        .iter()
        .map(|(file, state)| (file.to_string(), *state))
        .collect()
}

#[test]
fn config_globs_match_the_path_from_the_config_directory_however_it_is_typed() {
    let dir = project("discovery-typed");
    let abs = |path: &str| dir.join(path).display().to_string();
    let web = ("tools/search/web.yaml", "reported");
    let calc = ("tools/misc/calc.yaml", "reported");
    let cf = ("servers/cf.json", "suppressed");
    let other = ("servers/other.json", "reported");

    // From the config's directory.
    let everything = expect(&[web, calc, cf, other]);
    assert_eq!(linted(&dir, &[], None), everything);
    assert_eq!(linted(&dir, &["."], None), everything);
    assert_eq!(linted(&dir, &["./"], None), everything);
    assert_eq!(linted(&dir, &["tools", "servers"], None), everything);
    assert_eq!(linted(&dir, &["tools"], None), expect(&[web, calc]));
    assert_eq!(linted(&dir, &["tools/search"], None), expect(&[web]));
    assert_eq!(
        linted(&dir, &["tools/search/web.yaml"], None),
        expect(&[web])
    );
    // Reported as typed (without `.` parts), matched as `tools/search/web.yaml`.
    assert_eq!(
        linted(&dir, &["./tools/../tools/search/web.yaml"], None),
        expect(&[("tools/../tools/search/web.yaml", "reported")])
    );
    assert_eq!(linted(&dir, &["servers/cf.json"], None), expect(&[cf]));
    assert_eq!(
        linted(&dir, &["./servers/../servers/cf.json"], None),
        expect(&[("servers/../servers/cf.json", "suppressed")])
    );
    // Absolute paths are reported as typed.
    let absolute = linted(&dir, &[&abs("tools"), &abs("servers/cf.json")], None);
    assert_eq!(
        absolute,
        expect(&[
            (&abs("tools/search/web.yaml"), "reported"),
            (&abs("tools/misc/calc.yaml"), "reported"),
            (&abs("servers/cf.json"), "suppressed"),
        ])
    );

    // From a subdirectory, the config found in the parent.
    let tools = dir.join("tools");
    let here = expect(&[
        ("search/web.yaml", "reported"),
        ("misc/calc.yaml", "reported"),
    ]);
    assert_eq!(linted(&tools, &[], None), here);
    assert_eq!(linted(&tools, &["."], None), here);
    assert_eq!(
        linted(&tools, &["search"], None),
        expect(&[("search/web.yaml", "reported")])
    );
    assert_eq!(
        linted(&tools, &[".."], None),
        expect(&[
            ("../tools/search/web.yaml", "reported"),
            ("../tools/misc/calc.yaml", "reported"),
            ("../servers/cf.json", "suppressed"),
            ("../servers/other.json", "reported"),
        ])
    );
    assert_eq!(
        linted(&tools, &["../servers/cf.json"], None),
        expect(&[("../servers/cf.json", "suppressed")])
    );
    let servers = dir.join("servers");
    assert_eq!(
        linted(&servers, &["cf.json"], None),
        expect(&[("cf.json", "suppressed")])
    );
    assert_eq!(
        linted(&servers, &[], None),
        expect(&[("cf.json", "suppressed"), ("other.json", "reported")])
    );

    // From outside, with --config.
    let parent = dir.parent().unwrap();
    let name = dir.file_name().unwrap().to_str().unwrap();
    let config = format!("{name}/toolcheck.yaml");
    assert_eq!(
        linted(parent, &["--config", &config, name], None),
        expect(&[
            (&format!("{name}/tools/search/web.yaml"), "reported"),
            (&format!("{name}/tools/misc/calc.yaml"), "reported"),
            (&format!("{name}/servers/cf.json"), "suppressed"),
            (&format!("{name}/servers/other.json"), "reported"),
        ])
    );

    // Standard input named by --stdin-filename, from the root and from a subdirectory.
    let text = json_tool("cf");
    for (cwd, name) in [(&dir, "servers/cf.json"), (&servers, "cf.json")] {
        assert_eq!(
            linted(cwd, &["--stdin-filename", name, "-"], Some(&text)),
            expect(&[(name, "suppressed")])
        );
    }
}

#[cfg(unix)]
#[test]
fn a_path_through_a_link_to_the_project_is_inside_it() {
    let dir = project("discovery-link");
    let link = common::scratch("discovery-link-to").join("project");
    std::os::unix::fs::symlink(&dir, &link).unwrap();
    let linked = link.join("servers/cf.json").display().to_string();
    assert_eq!(
        linted(&dir, &[&linked], None),
        expect(&[(&linked, "suppressed")])
    );
    let walked = link.join("tools").display().to_string();
    assert_eq!(linted(&dir, &[&walked], None).len(), 2);
}

#[test]
fn files_outside_the_config_directory_are_matched_by_their_absolute_path() {
    let dir = project("discovery-outside");
    let outside = common::scratch("discovery-outside-elsewhere");
    write(&outside.join("tools/far.yaml"), &tool("far"));
    write(&outside.join("far.tools.json"), &json_tool("far"));
    std::fs::write(
        dir.join("toolcheck.yaml"),
        r#"include: ["tools/**/*.yaml", "**/*.tools.json"]
rules:
  per-file-ignores:
    "**/far.tools.json": [TC209]
    "tools/**": [TC209]
"#,
    )
    .unwrap();
    let far = outside.join("far.tools.json").display().to_string();
    // `tools/**` is the project's `tools`, not the other one; `**/...` matches anywhere.
    assert_eq!(
        linted(&dir, &[outside.to_str().unwrap()], None),
        expect(&[(&far, "suppressed")])
    );
    // A file named explicitly is always linted.
    let far_yaml = outside.join("tools/far.yaml").display().to_string();
    assert_eq!(
        linted(&dir, &[&far_yaml], None),
        expect(&[(&far_yaml, "reported")])
    );
}

#[test]
fn command_line_globs_are_relative_to_the_working_directory() {
    let dir = project("discovery-cli-globs");
    let tools = dir.join("tools");
    // --include replaces the config's include.
    assert_eq!(
        linted(&dir, &["--include", "servers/other.json"], None),
        expect(&[("servers/other.json", "reported")])
    );
    assert_eq!(
        linted(&tools, &["--include", "search/*.yaml"], None),
        expect(&[("search/web.yaml", "reported")])
    );
    // --exclude replaces the config's exclude: legacy/ is back.
    assert_eq!(
        linted(&tools, &["--exclude", "search/**"], None),
        expect(&[
            ("legacy/old.yaml", "reported"),
            ("misc/calc.yaml", "reported")
        ])
    );
    // --extend-exclude keeps it.
    assert_eq!(
        linted(&tools, &["--extend-exclude", "search/**"], None),
        expect(&[("misc/calc.yaml", "reported")])
    );
    assert_eq!(
        linted(
            &dir,
            &["--extend-exclude", "tools/search/**,servers/**", "."],
            None
        ),
        expect(&[("tools/misc/calc.yaml", "reported")])
    );
    // The config's per-file-ignores stay relative to the config's directory.
    assert_eq!(
        linted(&tools, &["--include", "../servers/*.json", ".."], None),
        expect(&[
            ("../servers/cf.json", "suppressed"),
            ("../servers/other.json", "reported")
        ])
    );
    // `tokens` takes the same flags.
    let (code, stdout, stderr) = common::run(
        &tools,
        &["tokens", "--format", "json", "--include", "search/*.yaml"],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let files: Vec<&str> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| file["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["search/web.yaml"]);
    // A bad glob is a usage error.
    let (code, _, stderr) = common::run(&tools, &["lint", "--include", "[oops"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("invalid glob `[oops`"), "{stderr}");
}

// ---- directories of tool files that `include` does not name ------------------------------

/// Two MCP `tools/list` captures, as a client saves them.
fn captures(name: &str) -> PathBuf {
    let dir = common::scratch(name);
    for server in ["alpha", "beta"] {
        let capture = format!(
            r#"{{"jsonrpc": "2.0", "id": 1, "result": {{"tools": [{}]}}}}"#,
            json_tool(server)
        );
        write(&dir.join(format!("mcp/{server}.json")), &capture);
    }
    dir
}

/// `text` with every run of white space one space (miette wraps long help lines).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The commands a hint suggests (its lines that start with `toolcheck`).
fn suggested(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("toolcheck "))
        .map(|command| format!("toolcheck {command}"))
        .collect()
}

/// Runs a suggested command line in a shell (it may hold a glob), with the binary for
/// `toolcheck`; returns its exit code and the files it linted.
fn run_suggestion(dir: &Path, command: &str) -> (i32, Vec<String>) {
    let command = command.replacen(
        "toolcheck lint",
        &format!(
            "'{}' lint --no-config --format json",
            env!("CARGO_BIN_EXE_toolcheck")
        ),
        1,
    );
    let output = std::process::Command::new("sh")
        .args(["-c", &command])
        .current_dir(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let document: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|error| panic!("{command}: {error}: {stdout}"));
    (
        output.status.code().unwrap_or(-1),
        common::files_of(&document),
    )
}

#[test]
fn a_directory_of_captures_is_not_silently_empty_and_each_suggestion_lints_it() {
    let dir = captures("discovery-captures");
    for args in [
        vec!["lint", "--no-config", "mcp"],
        vec!["lint", "--no-config", "mcp/"],
    ] {
        let (code, stdout, stderr) = common::run(&dir, &args, None);
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(stdout, "");
        assert!(
            flat(&stderr).contains("no files to lint in `mcp"),
            "{stderr}"
        );
        assert!(
            flat(&stderr).contains("2 files in `mcp` hold tool definitions"),
            "{stderr}"
        );
        assert!(
            flat(&stderr).contains("(e.g. `mcp/alpha.json`)"),
            "{stderr}"
        );
        assert_eq!(
            suggested(&stderr),
            [
                "toolcheck lint mcp/*.json",
                "toolcheck lint --include '**/*.json' mcp",
                "toolcheck lint --discovery content mcp",
            ],
            "{stderr}"
        );
        for command in suggested(&stderr) {
            assert_eq!(
                run_suggestion(&dir, &command),
                (
                    1,
                    vec!["mcp/alpha.json".to_string(), "mcp/beta.json".to_string()]
                ),
                "{command}"
            );
        }
    }
    // Run inside the directory, the suggestions name no path.
    let (code, _, stderr) = common::run(&dir.join("mcp"), &["lint", "--no-config"], None);
    assert_eq!(code, 2);
    assert_eq!(
        suggested(&stderr),
        [
            "toolcheck lint *.json",
            "toolcheck lint --include '**/*.json'",
            "toolcheck lint --discovery content",
        ]
    );
    // `tokens` says the same, with its own command and verb.
    let (code, _, stderr) = common::run(&dir, &["tokens", "--no-config", "mcp"], None);
    assert_eq!(code, 2);
    assert!(suggested(&stderr).contains(&"toolcheck tokens --discovery content mcp".to_string()));
    assert!(
        flat(&stderr).contains("no files to count in `mcp`"),
        "{stderr}"
    );
    assert!(flat(&stderr).contains("count them with:"), "{stderr}");
    // `search` keeps its query before the paths: a suggestion pasted as it is searches for it.
    let (code, _, stderr) = common::run(&dir, &["search", "--no-config", "a url", "mcp"], None);
    assert_eq!(code, 2);
    assert!(
        flat(&stderr).contains("no files to search in `mcp`"),
        "{stderr}"
    );
    assert_eq!(
        suggested(&stderr),
        [
            "toolcheck search 'a url' mcp/*.json",
            "toolcheck search 'a url' --include '**/*.json' mcp",
            "toolcheck search 'a url' --discovery content mcp",
        ]
    );
    let command = suggested(&stderr).remove(0).replacen(
        "toolcheck search",
        &format!("'{}' search --no-config", env!("CARGO_BIN_EXE_toolcheck")),
        1,
    );
    let output = std::process::Command::new("sh")
        .args(["-c", &command])
        .current_dir(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("`a url` with "), "{command}: {stdout}");
}

#[test]
fn only_content_discovery_is_suggested_when_other_json_files_are_there() {
    let dir = captures("discovery-mixed");
    // A package.json has a name and a description, but no schema: not a tool.
    write(
        &dir.join("mcp/package.json"),
        r#"{"name": "servers", "description": "Our MCP servers", "version": "1.0.0"}"#,
    );
    write(&dir.join("mcp/nested/gamma.yaml"), &tool("gamma"));
    let (code, _, stderr) = common::run(&dir, &["lint", "--no-config", "mcp"], None);
    assert_eq!(code, 2);
    assert!(
        flat(&stderr).contains("3 files in `mcp` hold tool definitions"),
        "{stderr}"
    );
    assert_eq!(
        suggested(&stderr),
        ["toolcheck lint --discovery content mcp"]
    );
    let (code, files) = run_suggestion(&dir, &suggested(&stderr)[0]);
    assert_eq!(
        (code, files),
        (
            1,
            vec![
                "mcp/alpha.json".to_string(),
                "mcp/beta.json".to_string(),
                "mcp/nested/gamma.yaml".to_string()
            ]
        )
    );
}

#[test]
fn discovery_content_in_the_config_lints_tool_files_by_what_they_hold() {
    let dir = captures("discovery-config-content");
    write(
        &dir.join("mcp/package.json"),
        r#"{"name": "servers", "description": "Our MCP servers"}"#,
    );
    write(&dir.join("vendor/delta.json"), &json_tool("delta"));
    write(&dir.join("named.tool.yaml"), &tool("named"));
    write(
        &dir.join("toolcheck.yaml"),
        "discovery: content\nexclude: [\"vendor/**\"]\n",
    );
    let files = linted(&dir, &[], None);
    assert_eq!(
        files,
        expect(&[
            ("mcp/alpha.json", "reported"),
            ("mcp/beta.json", "reported"),
            ("named.tool.yaml", "reported"),
        ])
    );
    // The command line can turn it back off.
    let (code, _, stderr) = common::run(&dir, &["lint", "--discovery", "include", "mcp"], None);
    assert_eq!(code, 2, "{stderr}");
    let (code, _, stderr) = common::run(&dir, &["lint", "--discovery", "everything"], None);
    assert_eq!(code, 2);
    assert!(
        flat(&stderr).contains("expected include or content"),
        "{stderr}"
    );
    // A bad value in the config is a config error.
    write(&dir.join("toolcheck.yaml"), "discovery: contents\n");
    let (code, _, stderr) = common::run(&dir, &["lint"], None);
    assert_eq!(code, 2);
    assert!(
        flat(&stderr).contains("unknown discovery `contents`"),
        "{stderr}"
    );
}

#[test]
fn a_directory_without_matches_beside_other_paths_is_named_on_stderr() {
    let dir = captures("discovery-beside");
    write(&dir.join("tools/named.tool.yaml"), &tool("named"));
    let (code, stdout, stderr) = common::run(
        &dir,
        &["lint", "--no-config", "--format", "json", "tools", "mcp"],
        None,
    );
    assert_eq!(code, 1, "{stderr}");
    let document: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(document["summary"]["files"], 1);
    assert!(
        flat(&stderr).starts_with("warning: 2 files in `mcp` hold tool definitions"),
        "{stderr}"
    );
    assert!(
        suggested(&stderr).contains(&"toolcheck lint --discovery content mcp".to_string()),
        "{stderr}"
    );
}

#[test]
fn large_files_are_judged_by_their_start() {
    let dir = common::scratch("discovery-large");
    // Over the 64 KiB read: tools first in JSON and YAML, then a file whose tools come late.
    let tools: Vec<String> = (0..1200).map(|i| json_tool(&format!("t{i}"))).collect();
    let big = format!(r#"{{"tools": [{}]}}"#, tools.join(",\n"));
    assert!(big.len() > 100 * 1024);
    write(&dir.join("caps/big.json"), &big);
    let yaml: String = (0..1500)
        .map(|i| format!("  - name: t{i}\n    description: Look t{i} up.\n    input_schema: {{type: object}}\n"))
        .collect();
    write(&dir.join("caps/big.yaml"), &format!("tools:\n{yaml}"));
    let padding = "x".repeat(80 * 1024);
    write(
        &dir.join("caps/late.json"),
        &format!(
            r#"{{"notes": "{padding}", "tools": [{}]}}"#,
            json_tool("late")
        ),
    );
    let (code, _, stderr) = common::run(&dir, &["lint", "--no-config", "caps"], None);
    assert_eq!(code, 2);
    assert!(
        flat(&stderr).contains("2 files in `caps` hold tool definitions"),
        "{stderr}"
    );
    assert!(flat(&stderr).contains("(e.g. `caps/big.json`)"), "{stderr}");
}

#[test]
fn a_per_file_ignore_is_unused_only_when_its_glob_matched_a_file_of_the_run() {
    let dir = project("discovery-unused-per-file-ignores");
    let findings_in_config = |args: &[&str]| {
        let mut all = vec!["lint", "--format", "json"];
        all.extend_from_slice(args);
        let (code, stdout, stderr) = common::run(&dir, &all, None);
        assert!(code == 0 || code == 1, "{stderr}");
        let document: Value = serde_json::from_str(&stdout).unwrap();
        document["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["file"] == "toolcheck.yaml")
            .map(|d| d["message"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    // A run over other files (pre-commit passes the staged ones) says nothing of cf.json.
    assert!(findings_in_config(&["tools/search/web.yaml"]).is_empty());
    assert!(findings_in_config(&["servers/other.json"]).is_empty());
    // Once cf.json is in the run and has nothing to silence, the entry is unused.
    write(
        &dir.join("servers/cf.json"),
        r#"{"name": "cf", "description": "Deploy a worker. Not for code.", "inputSchema": {"type": "object"}}"#,
    );
    assert_eq!(
        findings_in_config(&["servers/cf.json"]),
        ["`TC209` in per-file-ignores for `servers/cf.json` suppressed nothing"]
    );
}

/// An error box wraps at spaces only: a glob or a path stays whole on its line, to copy.
#[test]
fn an_error_box_does_not_break_a_glob() {
    let dir = common::scratch("discovery-long-name");
    // Long enough that the second glob reaches the edge of the 100-column box.
    let long = "d".repeat(28);
    let long = long.as_str();
    std::fs::create_dir_all(dir.join(long)).unwrap();
    let (code, _, stderr) = common::run(&dir, &["lint", "--no-config", long], None);
    assert_eq!(code, 2);
    assert!(stderr.contains(&format!("`{long}`")), "{stderr}");
    assert!(
        stderr.contains("**/*.tool.{yaml,yml,json}")
            && stderr.contains("**/*.tools.{yaml,yml,json}"),
        "{stderr}"
    );
}
