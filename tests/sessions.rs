//! Sessions (`sessions:` in toolcheck.yaml): config errors, duplicate names compared by the
//! host's wire name across a session's files only, the set rules over the session's total,
//! `tokens --session`, and a session of five shared-corpus MCP servers under `claude-code`.

mod common;

use std::path::Path;

use common::{run, scratch};
use serde_json::Value;

/// An MCP `tools/list` result with `names`, each tool with a short description and schema.
fn server(names: &[&str]) -> String {
    let tools: Vec<Value> = names
        .iter()
        .map(|name| {
            serde_json::json!({
                "name": name,
                "description": format!("Run {name} over the project. Not for other projects."),
                "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}}
            })
        })
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({ "tools": tools })).unwrap()
}

fn write(dir: &Path, files: &[(&str, String)]) {
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// `lint --format json` in `dir` with `args`: every finding as `file code message`.
fn findings(dir: &Path, args: &[&str]) -> Vec<(String, String, String)> {
    let mut all = vec!["lint", "--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = run(dir, &all, None);
    assert!(code == 0 || code == 1, "exit {code}: {stderr}");
    let document: Value = serde_json::from_str(&stdout).expect("JSON output");
    let mut found = Vec::new();
    for diagnostic in document["diagnostics"].as_array().expect("diagnostics") {
        let text = |key: &str| diagnostic[key].as_str().unwrap_or_default().to_string();
        found.push((text("file"), text("code"), text("message")));
    }
    found
}

#[test]
fn config_mistakes_point_at_their_keys() {
    let dir = scratch("sessions-config-errors");
    write(
        &dir,
        &[
            ("a.json", server(&["search"])),
            (
                "toolcheck.yaml",
                "sessions:\n  - name: dev\n    host: claude-cod\n    files: [a.json]\n  \
                 - name: dev2\n    host: claude-code\n    window: 0\n    files: [a.json]\n    \
                 server: x\n  - host: claude-code\n    files: [\"[\"]\n"
                    .to_string(),
            ),
        ],
    );
    let (code, _, stderr) = run(&dir, &["lint", "a.json"], None);
    assert_eq!(code, 2, "{stderr}");
    for expected in [
        "unknown host `claude-cod`",
        "did you mean `claude-code`?",
        "expected a number of tokens (a positive integer), found a number",
        "unknown config key `server`",
        "a session needs `name`",
        "invalid glob `[`",
        "toolcheck.yaml:3:11",
    ] {
        assert!(stderr.contains(expected), "{expected}\n{stderr}");
    }
    let (code, _, stderr) = run(&dir, &["tokens", "--session", "nope"], None);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn names_clash_by_the_wire_name_of_the_sessions_host_and_only_in_a_session() {
    let dir = scratch("sessions-wire-names");
    write(
        &dir,
        &[
            ("servers/docs.json", server(&["search", "fetch"])),
            ("servers/code.json", server(&["search", "open"])),
            // In no session: never compared with the others.
            ("elsewhere.json", server(&["search"])),
            // `a.b` and `a_b` are two names, but Claude Code sends both as `mcp__x__a_b`.
            ("dots/x.json", server(&["a.b"])),
            ("dots/y.json", server(&["a_b"])),
            (
                "toolcheck.yaml",
                "include: [\"**/*.json\"]\nsessions:\n  \
                 - {name: laptop, host: claude-code, files: [\"servers/*.json\"]}\n  \
                 - {name: plain, host: anthropic, files: [servers/docs.json, servers/code.json]}\n  \
                 - name: dotted\n    host: claude-code\n    files:\n      \
                 - {path: dots/x.json, server: x}\n      - {path: dots/y.json, server: x}\n"
                    .to_string(),
            ),
        ],
    );
    let found = findings(&dir, &["--select", "TC502", "."]);
    let files: Vec<&str> = found.iter().map(|(file, _, _)| file.as_str()).collect();
    assert_eq!(files, ["dots/y.json", "servers/docs.json"], "{found:#?}");
    assert_eq!(
        found[0].2,
        "duplicate tool name in session `dotted`: `a_b` of server `x` and `a.b` of server `x` \
         are both sent as `mcp__x__a_b` by `claude-code`"
    );
    // Input order is path order: `code.json` comes first, so `docs.json` has the clash.
    assert_eq!(
        found[1].2,
        "duplicate tool name in session `plain`: `search` of server `docs` and `search` of \
         server `code` are both sent as `search` by `anthropic`"
    );
    // Linting one file of a session compares nothing: the other files are not read.
    assert!(findings(&dir, &["--select", "TC502", "servers/docs.json"]).is_empty());
}

#[test]
fn too_many_tools_counts_the_sessions_total_once() {
    let dir = scratch("sessions-too-many-tools");
    let names =
        |prefix: &str| -> Vec<String> { (0..12).map(|i| format!("{prefix}_{i}")).collect() };
    let refs = |names: &[String]| -> String {
        server(&names.iter().map(String::as_str).collect::<Vec<_>>())
    };
    write(
        &dir,
        &[
            ("a.json", refs(&names("a"))),
            ("b.json", refs(&names("b"))),
            ("c.json", refs(&names("c"))),
            // 40 tools, in no session: its own finding, as without sessions.
            (
                "big.json",
                refs(&(0..40).map(|i| format!("big_{i}")).collect::<Vec<_>>()),
            ),
            (
                "toolcheck.yaml",
                // Loaded up front: by default Claude Code defers them (see the end).
                "include: [\"*.json\"]\nsessions:\n  - {name: dev, host: claude-code, tool-search: false, files: [a.json, b.json, c.json]}\n"
                    .to_string(),
            ),
        ],
    );
    let found = findings(&dir, &["--select", "TC108", "."]);
    assert_eq!(
        found,
        [
            (
                "a.json".to_string(),
                "TC108".to_string(),
                "session `dev` loads 36 tools from 3 servers at once, limit 30".to_string()
            ),
            (
                "big.json".to_string(),
                "TC108".to_string(),
                "40 tools are loaded at once, limit 30".to_string()
            ),
        ]
    );
    // Claude Code's default defers the session's tools (issue 32): only the file in no
    // session is over.
    std::fs::write(
        dir.join("toolcheck.yaml"),
        "include: [\"*.json\"]\nsessions:\n  - {name: dev, host: claude-code, files: [a.json, b.json, c.json]}\n",
    )
    .unwrap();
    let found = findings(&dir, &["--select", "TC108", "."]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "big.json");
}

#[test]
fn toolset_too_large_over_ten_percent_of_the_sessions_window_says_what_to_defer() {
    let dir = scratch("sessions-toolset-too-large");
    write(
        &dir,
        &[
            ("small.json", server(&["one"])),
            ("large.json", server(&["two", "three", "four", "five"])),
            (
                "toolcheck.yaml",
                "include: [\"*.json\"]\nsessions:\n  - {name: dev, host: claude-code, tool-search: false, window: 1000, files: [\"*.json\"]}\n"
                    .to_string(),
            ),
        ],
    );
    let (_, stdout, _) = run(
        &dir,
        &["lint", "--select", "TC107", "--format", "json"],
        None,
    );
    let document: Value = serde_json::from_str(&stdout).unwrap();
    let diagnostics = document["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let message = diagnostics[0]["message"].as_str().unwrap();
    let help = diagnostics[0]["help"].as_str().unwrap();
    assert!(
        message.starts_with("session `dev` loads ") && message.ends_with("over 10% (100)"),
        "{message}"
    );
    assert!(help.contains("defer `large` first"), "{help}");
    assert!(help.contains("tool-search"), "{help}");
}

/// Issue 32: a `claude-code` session is counted as Claude Code counts (o200k_base × 1.25, an
/// estimate), not in plain o200k_base: tools of T o200k tokens are over a 10% share of
/// 1.12 T, and within one of 1.4 T.
#[test]
fn a_claude_code_session_is_counted_as_its_host_counts() {
    let dir = scratch("sessions-host-count");
    write(&dir, &[("a.json", server(&["one", "two", "three"]))]);
    let (_, stdout, _) = run(
        &dir,
        &["tokens", "--no-config", "--format", "json", "a.json"],
        None,
    );
    let plain = serde_json::from_str::<Value>(&stdout).unwrap()["total"]["loaded_tokens"]
        .as_u64()
        .unwrap() as f64;
    let lint = |share: f64| {
        let window = (plain * share * 10.0) as usize;
        std::fs::write(
            dir.join("toolcheck.yaml"),
            format!(
                "include: [\"*.json\"]\nsessions:\n  - {{name: dev, host: claude-code, \
                 tool-search: false, window: {window}, files: [a.json]}}\n"
            ),
        )
        .unwrap();
        findings(&dir, &["--select", "TC107", "a.json"])
    };
    let over = lint(1.12);
    assert_eq!(over.len(), 1, "{over:?}");
    assert!(
        over[0]
            .2
            .contains("(≈, o200k_base × 1.25 as claude-code counts)"),
        "{}",
        over[0].2
    );
    assert_eq!(lint(1.4), Vec::new());
    // `tokens --session` counts alike: ≈ 1.25 times the plain count, each tool rounded.
    let (_, stdout, _) = run(
        &dir,
        &["tokens", "--session", "dev", "--format", "json"],
        None,
    );
    let session = &serde_json::from_str::<Value>(&stdout).unwrap()["session"];
    let counted = session["loaded_tokens"].as_f64().unwrap();
    assert!(
        (counted - plain * 1.25).abs() <= 3.0,
        "{counted} vs {plain}"
    );
}

/// Issue 32: under `auto:N` Claude Code loads every tool while their definitions stay under
/// N% of the window and defers them all past it: `too-many-tools` counts 40 loaded tools in a
/// large window and none (but the `alwaysLoad` ones) once the share is reached.
#[test]
fn too_many_tools_counts_what_auto_loads() {
    let dir = scratch("sessions-auto-tool-count");
    let names: Vec<String> = (0..40).map(|i| format!("tool_{i:02}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    write(&dir, &[("a.json", server(&names))]);
    let lint = |mode: &str, window: usize| {
        std::fs::write(
            dir.join("toolcheck.yaml"),
            format!(
                "include: [\"*.json\"]\nsessions:\n  - {{name: dev, host: claude-code, \
                 tool-search: \"{mode}\", window: {window}, files: [a.json]}}\n"
            ),
        )
        .unwrap();
        findings(&dir, &["--select", "TC108", "a.json"])
    };
    let loaded = lint("auto", 10_000_000);
    assert_eq!(loaded.len(), 1, "{loaded:?}");
    assert!(loaded[0].2.contains("loads 40 tools"), "{}", loaded[0].2);
    assert_eq!(lint("auto", 1_000), Vec::new());
    assert_eq!(lint("auto:0", 10_000_000), Vec::new());
}

#[test]
fn tokens_of_a_session_have_a_bar_per_server() {
    let dir = scratch("sessions-tokens");
    write(
        &dir,
        &[
            ("docs.json", server(&["search", "fetch", "list"])),
            ("code.json", server(&["search"])),
            (
                "toolcheck.yaml",
                "sessions:\n  - name: dev\n    host: claude-code\n    tool-search: false\n    window: 500\n    files:\n      \
                 - docs.json\n      - {path: code.json, server: repo}\n"
                    .to_string(),
            ),
        ],
    );
    let (code, stdout, stderr) = run(&dir, &["tokens", "--session", "dev"], None);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!(stdout);
    let (code, stdout, _) = run(
        &dir,
        &["tokens", "--session", "dev", "--format", "json"],
        None,
    );
    assert_eq!(code, 0);
    let document: Value = serde_json::from_str(&stdout).unwrap();
    let session = &document["session"];
    assert_eq!(session["servers"][0]["server"], "docs");
    assert_eq!(session["servers"][1]["server"], "repo");
    assert_eq!(document["window"], 500);
    assert_eq!(session["defer_first"], serde_json::json!(["docs"]));
}

/// The done-when of issue 14's item: five shared-corpus MCP servers under `claude-code`
/// report the total and the 10% threshold, and no collision (their prefixed names differ),
/// while the same files under a host that sends names as they are clash where the tools
/// really share names. Skips when `../shared` is absent.
#[test]
fn five_corpus_servers_under_claude_code() {
    let corpus = common::root().join("../shared/corpora/mcp");
    let servers = [
        ("github", "modelcontextprotocol__server-github.json"),
        ("gitlab", "modelcontextprotocol__server-gitlab.json"),
        ("filesystem", "modelcontextprotocol__server-filesystem.json"),
        ("desktop-commander", "wonderwhy-er__desktop-commander.json"),
        ("notion", "notionhq__notion-mcp-server.json"),
    ];
    if !servers.iter().all(|(_, file)| corpus.join(file).is_file()) {
        eprintln!("skipped: {} not found", corpus.display());
        return;
    }
    let dir = scratch("sessions-corpus");
    let mut config = String::from("sessions:\n");
    for host in ["claude-code", "anthropic"] {
        // Claude Code with everything loaded up front, as before tool search.
        config.push_str(&format!(
            "  - name: {host}-laptop\n    host: {host}\n    tool-search: false\n    files:\n"
        ));
        for (name, file) in servers {
            let path = corpus.join(file);
            config.push_str(&format!(
                "      - {{path: \"{}\", server: {name}}}\n",
                path.display()
            ));
        }
    }
    write(&dir, &[("toolcheck.yaml", config)]);
    let paths: Vec<String> = servers
        .iter()
        .map(|(_, file)| corpus.join(file).display().to_string())
        .collect();
    let mut args = vec!["--select", "TC107,TC108,TC502"];
    args.extend(paths.iter().map(String::as_str));
    let found = findings(&dir, &args);
    let of = |session: &str, code: &str| -> Vec<&str> {
        found
            .iter()
            .filter(|(_, c, message)| c == code && message.contains(&format!("`{session}`")))
            .map(|(_, _, message)| message.as_str())
            .collect()
    };
    let total = of("claude-code-laptop", "TC107");
    assert_eq!(total.len(), 1, "{found:#?}");
    assert!(total[0].contains("from 5 servers"), "{}", total[0]);
    assert!(total[0].ends_with("over 10% (20,000)"), "{}", total[0]);
    assert_eq!(of("claude-code-laptop", "TC108").len(), 1);
    assert!(of("claude-code-laptop", "TC502").is_empty(), "{found:#?}");
    // github/gitlab share 8 names, filesystem/desktop-commander 7.
    let clashes = of("anthropic-laptop", "TC502");
    assert_eq!(clashes.len(), 15, "{clashes:#?}");
    assert!(
        clashes.iter().any(|m| m.contains(
            "`create_issue` of server `gitlab` and \
             `create_issue` of server `github`"
        )),
        "{clashes:#?}"
    );
    let (code, stdout, stderr) = run(&dir, &["tokens", "--session", "claude-code-laptop"], None);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("(over 10%, 20,000 tokens)"), "{stdout}");
    assert!(
        stdout.contains("recommendation: defer `notion` first"),
        "{stdout}"
    );
}

/// The README's `sessions:` example is a valid config, and its files belong to its session.
#[test]
fn the_readme_example_is_a_valid_config() {
    let readme = common::docs();
    let section = &readme[readme.find("## Sessions").expect("a Sessions section")..];
    let start = section.find("```yaml\n").unwrap() + "```yaml\n".len();
    let block = &section[start..start + section[start..].find("```").unwrap()];
    let file = toolcheck::parse::source::SourceFile::new("toolcheck.yaml", block.to_string());
    let config = toolcheck::config::Config::parse(file, ".".into()).expect("a valid config");
    assert_eq!(config.sessions.len(), 1);
    let sessions = toolcheck::config::sessions::Sessions::resolve(&config).unwrap();
    assert_eq!(
        sessions.of("servers/captures/fs-2026-08.json"),
        [(0, "filesystem".to_string())]
    );
    assert_eq!(sessions.of("servers/db/pg.json"), [(0, "pg".to_string())]);
    assert!(sessions.of("servers/other.json").is_empty());
}

#[test]
fn a_session_names_the_server_that_hosts_prefix_tool_names_with() {
    let dir = scratch("sessions-server-name");
    // 52 characters: `mcp__docs__` + it is 63, `mcp__documentation__` + it is 72.
    let long = "search_the_product_documentation_for_matching_pages_";
    write(
        &dir,
        &[
            ("docs.json", server(&[long])),
            (
                "toolcheck.yaml",
                "targets: [claude-code]\nsessions:\n  - name: dev\n    host: claude-code\n    \
                 files: [{path: docs.json, server: documentation}]\n"
                    .to_string(),
            ),
        ],
    );
    let found = findings(&dir, &["--select", "TC601", "docs.json"]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0]
            .2
            .contains(&format!("`mcp__documentation__{long}`")),
        "{found:?}"
    );
    // Outside the session the server name is unknown: the name fits whatever it is.
    std::fs::write(dir.join("toolcheck.yaml"), "targets: [claude-code]\n").unwrap();
    assert_eq!(findings(&dir, &["--select", "TC601", "docs.json"]), []);
}

/// Issue 32: Claude Code's tool-search modes over a session with one `alwaysLoad` tool and
/// nine others: deferred by default and with `auto:0`, loaded with `false` and under `auto`'s
/// 10% (the tools are small), the kept tool loaded in every mode.
#[test]
fn tool_search_modes_decide_what_claude_code_loads() {
    let dir = common::root().join("fixtures/sessions/tool-search");
    let loading = |session: &str| {
        let (code, stdout, stderr) = run(
            &dir,
            &["tokens", "--session", session, "--format", "json"],
            None,
        );
        assert_eq!(code, 0, "{stderr}");
        let document: Value = serde_json::from_str(&stdout).unwrap();
        let loading = &document["session"]["host_loading"];
        (
            loading["tool_search"].as_str().unwrap().to_string(),
            loading["loaded_tools"].as_u64().unwrap(),
            loading["deferred_tools"].as_u64().unwrap(),
            loading["deferred_names_tokens"].as_u64().unwrap(),
        )
    };
    let (mode, loaded, deferred, names) = loading("default");
    assert_eq!((mode.as_str(), loaded, deferred), ("default", 1, 9));
    assert!(
        names > 9,
        "nine `mcp__pipeline__...` names cost {names} tokens"
    );
    assert_eq!(loading("upfront"), ("false".to_string(), 10, 0, 0));
    assert_eq!(loading("auto"), ("auto:10".to_string(), 10, 0, 0));
    assert_eq!(loading("auto-zero").1, 1);
    let (_, stdout, _) = run(&dir, &["tokens", "--session", "default"], None);
    assert!(
        stdout.contains(&format!(
            "tool-search: default: 1 tool loaded, 9 deferred; the list of deferred names costs \
             {names} tokens"
        )),
        "{stdout}"
    );
    // Claude Code's own tools share the window (the profile's reported estimate): part of
    // them deferred while tool search is on, all loaded when it is off.
    let own = |session: &str| {
        let (_, stdout, _) = run(
            &dir,
            &["tokens", "--session", session, "--format", "json"],
            None,
        );
        let document: Value = serde_json::from_str(&stdout).unwrap();
        let own = &document["session"]["host_tools"];
        (
            own["loaded_tokens"].as_u64(),
            own["deferred_tokens"].as_u64(),
        )
    };
    assert_eq!(own("default"), (Some(11_600), Some(7_300)));
    assert_eq!(own("upfront"), (Some(18_900), Some(0)));
    assert!(
        stdout.contains("with claude-code's own tools (≈ 11,600 tokens loaded, ≈ 7,300 deferred"),
        "{stdout}"
    );
    // Another host loads what the file says: no tool-search line.
    let dir = scratch("sessions-tool-search-other-host");
    std::fs::copy(
        common::root().join("fixtures/sessions/tool-search/pipeline.json"),
        dir.join("pipeline.json"),
    )
    .unwrap();
    std::fs::write(
        dir.join("toolcheck.yaml"),
        "sessions:\n  - {name: ide, host: cursor, files: [pipeline.json]}\n",
    )
    .unwrap();
    let (_, stdout, _) = run(
        &dir,
        &["tokens", "--session", "ide", "--format", "json"],
        None,
    );
    let document: Value = serde_json::from_str(&stdout).unwrap();
    assert!(
        document["session"].get("host_loading").is_none(),
        "{stdout}"
    );
    assert!(document["session"].get("host_tools").is_none(), "{stdout}");
    assert_eq!(document["session"]["deferred_tokens"], 0);
}

#[test]
fn a_tool_search_value_that_is_no_mode_is_an_error_at_it() {
    let dir = scratch("sessions-tool-search-bad");
    std::fs::write(dir.join("a.json"), server(&["a"])).unwrap();
    std::fs::write(
        dir.join("toolcheck.yaml"),
        "sessions:\n  - {name: dev, host: claude-code, tool-search: \"auto:120\", files: [a.json]}\n",
    )
    .unwrap();
    let (code, _, stderr) = run(&dir, &["tokens", "--session", "dev"], None);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("`true`, `false`, `auto` or `auto:N` (N a percentage of the window)"),
        "{stderr}"
    );
    assert!(stderr.contains("toolcheck.yaml:2:"), "{stderr}");
}
