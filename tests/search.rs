//! `toolcheck search` and the `search` rules end to end: the issue's Slack example through the
//! binary, JSON output, the engines and their errors, `--session`, and the corpus session
//! (skipped without `../shared/corpora`). The exact scoring is pinned by the unit tests of
//! `src/search/mod.rs`; the benchmark over 10,000 tools is an ignored test that prints.

mod common;

use std::path::Path;
use std::time::Instant;

use common::{run, scratch};

const SLACK: &str = r#"{"tools": [
  {"name": "send_message", "description": "Send a message to a channel.", "inputSchema": {"type": "object", "properties": {"channel": {"type": "string", "description": "The channel id."}}}},
  {"name": "send_file", "description": "Upload a file to a channel.", "inputSchema": {"type": "object"}},
  {"name": "list_channels", "description": "List channels a message can go to.", "inputSchema": {"type": "object"}}
]}"#;

fn slack_dir(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    std::fs::write(dir.join("slack.json"), SLACK).unwrap();
    dir
}

fn json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn the_issue_example_scores_36_24_14_with_the_host_names() {
    let dir = slack_dir("search_slack");
    let (code, stdout, stderr) = run(
        &dir,
        &["search", "slack send message", "slack.json", "--no-config"],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("`slack send message` with claude-code: 3 of 3 tools found"),
        "{stdout}"
    );
    // The server name comes from the file name: Claude Code sends `mcp__slack__send_message`.
    assert!(lines[1].contains("mcp__slack__send_message") && lines[1].contains(" 36 "));
    assert!(lines[2].contains("mcp__slack__send_file") && lines[2].contains(" 24 "));
    assert!(lines[3].contains("mcp__slack__list_channels") && lines[3].contains(" 14 "));
    assert!(
        lines[3].contains("slack: name part +12; message: description +2"),
        "{stdout}"
    );

    let (_, stdout, _) = run(
        &dir,
        &[
            "search",
            "+slack send",
            "slack.json",
            "--no-config",
            "--format",
            "json",
        ],
        None,
    );
    let document = json(&stdout);
    assert_eq!(document["required"], serde_json::json!(["slack"]));
    let scores: Vec<f64> = document["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["score"].as_f64().unwrap())
        .collect();
    assert_eq!(scores, vec![24.0, 24.0, 12.0]);
    assert_eq!(document["results"][0]["tool"], "send_message");
    assert_eq!(document["results"][0]["why"][0]["field"], "name-part");
}

#[test]
fn server_name_select_exact_and_prefix_paths() {
    let dir = slack_dir("search_paths");
    let args = |query: &'static str| {
        vec![
            "search",
            query,
            "slack.json",
            "--no-config",
            "--server-name",
            "chat",
            "--format",
            "json",
        ]
    };
    let (_, stdout, _) = run(&dir, &args("mcp__chat__send"), None);
    let document = json(&stdout);
    assert_eq!(document["path"], "mcp-prefix");
    assert_eq!(document["found"], 2);
    let (_, stdout, _) = run(&dir, &args("mcp__chat__list_channels"), None);
    let document = json(&stdout);
    assert_eq!(document["path"], "exact-name");
    assert_eq!(document["results"][0]["tool"], "list_channels");
    // A selected tool has no score.
    assert!(document["results"][0].get("score").is_none());
    let (_, stdout, _) = run(
        &dir,
        &args("select:mcp__chat__send_file,mcp__chat__send_message"),
        None,
    );
    let document = json(&stdout);
    assert_eq!(document["path"], "select");
    assert_eq!(document["results"][0]["tool"], "send_file");
    assert_eq!(document["results"][1]["tool"], "send_message");
}

/// Issue 32: the default engine is Claude Code's current release (2.1.x), whose whole-name
/// bonus finds `send_message` for the term `send_message`; `claude-code-2.0` does not, and
/// `claude-code-2.1`, the default's old name, is still read.
#[test]
fn the_default_engine_is_the_current_claude_code_release() {
    let dir = slack_dir("search_versions");
    let search = |engine: &str| {
        let (code, stdout, stderr) = run(
            &dir,
            &[
                "search",
                "send_message",
                "slack.json",
                "--no-config",
                "--engine",
                engine,
                "--format",
                "json",
            ],
            None,
        );
        assert!(stderr.is_empty(), "{stderr}");
        (code, json(&stdout))
    };
    for engine in ["claude-code", "claude-code-2.1"] {
        let (code, document) = search(engine);
        assert_eq!(code, 0, "{engine}");
        assert_eq!(document["engine"], "claude-code");
        assert_eq!(document["results"][0]["tool"], "send_message");
        assert_eq!(document["results"][0]["score"], 12.0);
        assert_eq!(document["results"][0]["why"][0]["field"], "whole-name");
    }
    let (code, document) = search("claude-code-2.0");
    assert_eq!(code, 1, "{document}");
    assert_eq!(document["engine"], "claude-code-2.0");
    assert_eq!(document["found"], 0);
}

/// Issue 32: a tool search matches only the deferred tools. Claude Code keeps a tool with
/// `_meta["anthropic/alwaysLoad"]` loaded, so its ToolSearch never returns it; Anthropic's
/// and OpenAI's search return only the tools marked `defer_loading`. A file that defers
/// nothing is searched whole (how its tools would rank once deferred).
#[test]
fn only_deferred_tools_are_search_results() {
    let dir = slack_dir("search_deferred_only");
    let kept = SLACK.replace(
        r#"{"name": "send_message","#,
        r#"{"name": "send_message", "_meta": {"anthropic/alwaysLoad": true},"#,
    );
    assert_ne!(kept, SLACK);
    std::fs::write(dir.join("kept.json"), &kept).unwrap();
    let (code, stdout, stderr) = run(
        &dir,
        &["search", "slack send message", "kept.json", "--no-config"],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with(
            "`slack send message` with claude-code: 2 of 2 deferred tools found, top 5 \
             (1 loaded tool is not searched)\n"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("send_message "), "{stdout}");
    // Selecting the loaded tool by name finds nothing: it is not in the deferred list.
    let (code, stdout, _) = run(
        &dir,
        &[
            "search",
            "select:mcp__kept__send_message",
            "kept.json",
            "--no-config",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(json(&stdout)["loaded"], 1);

    // bm25: only the tool marked `defer_loading`, though all three have `message`.
    let marked = SLACK.replace(
        r#"{"name": "list_channels","#,
        r#"{"name": "list_channels", "defer_loading": true,"#,
    );
    std::fs::write(dir.join("marked.json"), &marked).unwrap();
    let bm25 = |file: &str| {
        let (_, stdout, _) = run(
            &dir,
            &[
                "search",
                "message",
                file,
                "--no-config",
                "--engine",
                "bm25",
                "--format",
                "json",
            ],
            None,
        );
        json(&stdout)
    };
    let document = bm25("marked.json");
    assert_eq!(document["searched"], 1, "{document}");
    assert_eq!(document["loaded"], 2);
    assert_eq!(document["results"][0]["tool"], "list_channels");
    // Nothing deferred: every tool is searched.
    let document = bm25("slack.json");
    assert_eq!(document["searched"], 3, "{document}");
    assert_eq!(document["loaded"], 0);
}

/// Issue 32: `select:` returns every tool it names, in the order named, whatever the cap of
/// five; a scored query is still cut to it.
#[test]
fn select_returns_every_named_tool_whatever_the_cap() {
    let dir = common::scratch("search_select_all");
    let tools: Vec<serde_json::Value> = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
    ]
    .iter()
    .map(|name| {
        serde_json::json!({
            "name": name,
            "description": format!("Run the {name} job."),
            "inputSchema": {"type": "object"},
        })
    })
    .collect();
    let text = serde_json::to_string(&serde_json::json!({ "tools": tools })).unwrap();
    std::fs::write(dir.join("jobs.json"), text).unwrap();
    // Claude Code names a server's tools `mcp__<server>__<tool>`, the server here the file's.
    let query = "select:mcp__jobs__foxtrot,mcp__jobs__alpha,mcp__jobs__bravo,mcp__jobs__charlie,\
                 mcp__jobs__delta,mcp__jobs__echo";
    let (code, stdout, _) = run(&dir, &["search", query, "jobs.json", "--no-config"], None);
    assert_eq!(code, 0);
    let names: Vec<&str> = stdout
        .lines()
        .skip(1)
        .filter_map(|line| line.split_whitespace().nth(1))
        .collect();
    let names: Vec<&str> = names
        .iter()
        .map(|name| name.trim_start_matches("mcp__jobs__"))
        .collect();
    assert_eq!(
        names,
        ["foxtrot", "alpha", "bravo", "charlie", "delta", "echo"],
        "{stdout}"
    );
    assert!(stdout.starts_with(&format!("`{query}` with claude-code (select: every tool named, whatever the cap): 6 of 7 tools found\n")), "{stdout}");
    assert!(!stdout.contains("more below"), "{stdout}");
    let (_, stdout, _) = run(
        &dir,
        &[
            "search",
            query,
            "jobs.json",
            "--no-config",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(json(&stdout)["results"].as_array().unwrap().len(), 6);
    // Words are still cut to the top five.
    let (_, stdout, _) = run(
        &dir,
        &["search", "run job", "jobs.json", "--no-config"],
        None,
    );
    assert!(stdout.contains("2 more below the top 5"), "{stdout}");
}

#[test]
fn bm25_and_regex_search_arguments_and_nothing_found_exits_1() {
    let dir = slack_dir("search_engines");
    let (code, stdout, _) = run(
        &dir,
        &[
            "search",
            "channel id",
            "slack.json",
            "--no-config",
            "--engine",
            "bm25",
        ],
        None,
    );
    assert_eq!(code, 0);
    // bm25 sees the names as written and the argument descriptions.
    assert!(
        stdout.lines().nth(1).unwrap().contains("send_message"),
        "{stdout}"
    );
    assert!(stdout.contains("id: argument description ×1"), "{stdout}");
    assert!(!stdout.contains("mcp__"), "{stdout}");

    let (code, stdout, _) = run(
        &dir,
        &[
            "search",
            "(?i)UPLOAD",
            "slack.json",
            "--no-config",
            "--engine",
            "regex",
        ],
        None,
    );
    assert_eq!(code, 0);
    assert!(stdout.contains("send_file"), "{stdout}");

    let (code, stdout, _) = run(
        &dir,
        &["search", "zebra", "slack.json", "--no-config"],
        None,
    );
    assert_eq!(code, 1);
    assert!(stdout.contains("no tool found"), "{stdout}");

    let long = "a".repeat(201);
    let (code, _, stderr) = run(
        &dir,
        &[
            "search",
            &long,
            "slack.json",
            "--no-config",
            "--engine",
            "regex",
        ],
        None,
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("over 200"), "{stderr}");
    let (code, _, stderr) = run(
        &dir,
        &[
            "search",
            "a(?=b)",
            "slack.json",
            "--no-config",
            "--engine",
            "regex",
        ],
        None,
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("lookaround"), "{stderr}");
}

/// Under an engine that sends names as they are, two files' `send_message` are told apart by
/// their file; a name that is there once is shown alone.
#[test]
fn same_names_of_two_files_show_their_files() {
    let dir = slack_dir("search_two_files");
    let chat = r#"{"tools": [{"name": "send_message", "description": "Send a message to a chat.", "inputSchema": {"type": "object"}}]}"#;
    std::fs::write(dir.join("chat.json"), chat).unwrap();
    let (code, stdout, stderr) = run(
        &dir,
        &[
            "search",
            "--no-config",
            "--engine",
            "bm25",
            "--top",
            "4",
            "send message",
            "slack.json",
            "chat.json",
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let top_two = lines[1..3].join("\n");
    assert!(top_two.contains("send_message (slack.json) "), "{stdout}");
    assert!(top_two.contains("send_message (chat.json) "), "{stdout}");
    assert!(lines[3].contains("send_file "), "{stdout}");
    assert!(
        lines[3..].iter().all(|line| !line.contains(".json)")),
        "{stdout}"
    );
}

#[test]
fn top_cuts_and_says_how_many_are_below() {
    let dir = slack_dir("search_top");
    let (_, stdout, _) = run(
        &dir,
        &["search", "slack", "slack.json", "--no-config", "--top", "1"],
        None,
    );
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    assert!(stdout.contains("2 more below the top 1"), "{stdout}");
}

#[test]
fn a_session_is_searched_with_its_server_names() {
    let dir = scratch("search_session");
    std::fs::create_dir_all(dir.join("servers")).unwrap();
    std::fs::write(dir.join("servers/slack.json"), SLACK).unwrap();
    std::fs::write(
        dir.join("servers/mail.json"),
        r#"{"tools": [{"name": "send_message", "description": "Send a message to a channel.", "inputSchema": {"type": "object"}}]}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("toolcheck.yaml"),
        "sessions:\n  - name: laptop\n    host: claude-code\n    files:\n      \
         - {path: servers/slack.json, server: team-chat}\n      - servers/mail.json\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run(
        &dir,
        &[
            "search",
            "send message",
            "--session",
            "laptop",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let names: Vec<String> = json(&stdout)["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names[..2],
        ["mcp__team-chat__send_message", "mcp__mail__send_message"]
    );
    let (code, _, stderr) = run(&dir, &["search", "x", "--session", "laptpo"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("did you mean `laptop`"), "{stderr}");

    // The session's two `send_message` tools read alike: confusable-tools says so once, by
    // the names the host sends.
    let (_, stdout, _) = run(
        &dir,
        &[
            "lint",
            "--select",
            "TC703",
            "--format",
            "concise",
            "servers/slack.json",
            "servers/mail.json",
        ],
        None,
    );
    let findings: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(" TC703 confusable-tools "))
        .collect();
    assert_eq!(findings.len(), 1, "{stdout}");
    assert!(
        findings[0].contains("`mcp__team-chat__send_message` and `mcp__mail__send_message`"),
        "{stdout}"
    );
}

#[test]
fn search_queries_in_a_manifest_and_in_the_config() {
    let dir = scratch("search_queries");
    std::fs::write(
        dir.join("web.tools.yaml"),
        "tools:\n  - name: fetch_url\n    description: Download a URL.\n    \
         search_queries: [fetch url, browse internet]\n",
    )
    .unwrap();
    let (code, stdout, _) = run(
        &dir,
        &[
            "lint",
            "--select",
            "TC701",
            "--format",
            "concise",
            "web.tools.yaml",
        ],
        None,
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("`browse internet` does not find `fetch_url`"),
        "{stdout}"
    );
    assert!(!stdout.contains("`fetch url`"), "{stdout}");

    // A query that is not a list of strings is the manifest's error.
    std::fs::write(
        dir.join("bad.tools.yaml"),
        "tools:\n  - name: fetch_url\n    description: Download a URL.\n    search_queries: 3\n",
    )
    .unwrap();
    let (_, stdout, _) = run(
        &dir,
        &["lint", "--format", "concise", "bad.tools.yaml"],
        None,
    );
    assert!(stdout.contains("TC001"), "{stdout}");
}

/// Issue 32: `not-found-by-search` searches among the deferred tools only, as a tool search
/// does: a loaded tool neither outranks a deferred one nor needs finding itself.
#[test]
fn search_queries_rank_among_the_deferred_tools() {
    let dir = scratch("search_queries_deferred");
    std::fs::write(
        dir.join("toolcheck.yaml"),
        "rules:\n  options:\n    not-found-by-search: {top: 1}\n",
    )
    .unwrap();
    let manifest = |deferred: &str| {
        format!(
            "tools:\n  - name: send_message\n    description: Send a message to a channel.\n    \
             search_queries: [zebra]\n  - name: post_message\n    description: Post a message \
             to a channel.\n    search_queries: [message]{deferred}\n"
        )
    };
    let lint = |text: &str| {
        std::fs::write(dir.join("chat.tools.yaml"), text).unwrap();
        let (_, stdout, _) = run(
            &dir,
            &[
                "lint",
                "--select",
                "TC701",
                "--format",
                "concise",
                "-q",
                "chat.tools.yaml",
            ],
            None,
        );
        stdout.lines().map(str::to_string).collect::<Vec<_>>()
    };
    // Nothing deferred: both are searched; `send_message` ties first for `message`.
    let all = lint(&manifest(""));
    assert_eq!(all.len(), 2, "{all:?}");
    assert!(all.iter().any(|line| line.contains("`zebra`")), "{all:?}");
    assert!(
        all.iter()
            .any(|line| line.contains("`message` does not find `post_message`")),
        "{all:?}"
    );
    // `post_message` deferred: it is the only search result; the loaded tool is left alone.
    let deferred = lint(&manifest("\n    defer_loading: true"));
    assert_eq!(deferred, Vec::<String>::new());
}

/// The 55 MCP servers of the shared corpora as one `claude-code` session: the derived-query
/// report (weak-search-surface) and the confusable pairs. Skipped without the corpora.
#[test]
fn the_corpus_session() {
    let corpora = common::root().join("../shared/corpora/mcp");
    if !corpora.is_dir() {
        eprintln!("skipped: no ../shared/corpora (they are not part of a clone)");
        return;
    }
    let dir = scratch("search_corpus");
    std::fs::write(
        dir.join("toolcheck.yaml"),
        format!(
            "discovery: content\nsessions:\n  - name: corpus\n    host: claude-code\n    \
             files: [\"{}/*.json\"]\n",
            relative(&dir, &corpora)
        ),
    )
    .unwrap();
    let (_, stdout, stderr) = run(
        &dir,
        &[
            "lint",
            "--select",
            "TC702,TC703",
            "--format",
            "concise",
            "-q",
            &corpora.display().to_string(),
        ],
        None,
    );
    let weak = stdout
        .lines()
        .filter(|l| l.contains(" TC702 weak-search-surface "))
        .count();
    let confusable: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(" TC703 confusable-tools "))
        .collect();
    eprintln!("{stdout}{stderr}");
    // Measured when written (2026-12): 7 and 8; 18 confusable pairs once first sentences
    // are compared (issue 28).
    assert!((1..=20).contains(&weak), "{weak}");
    // Two browser servers whose tools open with the same sentence.
    assert!(
        confusable.iter().any(|l| l.contains("puppeteer_navigate")
            && l.contains("playwright_navigate")
            && l.contains("open with the same sentence")),
        "{stdout}"
    );
    // The filesystem server's `read_file` says to use `read_text_file` instead.
    assert!(
        !confusable
            .iter()
            .any(|l| l.contains("read_text_file") && l.contains("server-filesystem__read_file")),
        "{stdout}"
    );
    assert!(
        confusable
            .iter()
            .any(|l| l.contains("server-gitlab__create_or_update_file")
                && l.contains("server-github__create_or_update_file")),
        "{stdout}"
    );
}

/// `dir`'s way to `target`, both absolute.
fn relative(dir: &Path, target: &Path) -> String {
    let depth = dir.components().count();
    let mut up = String::new();
    for _ in 0..depth.saturating_sub(1) {
        up.push_str("../");
    }
    let target = target.canonicalize().unwrap_or(target.to_path_buf());
    format!(
        "{up}{}",
        target.display().to_string().trim_start_matches('/')
    )
}

/// Not a timed assertion: prints how long one query takes over 10,000 tools after loading.
/// `cargo test --release --test search -- --ignored --nocapture benchmark`
#[test]
#[ignore]
fn benchmark_10000_tools() {
    use toolcheck::search::{Doc, Engine, Index};
    let verbs = [
        "get", "list", "create", "update", "delete", "search", "send", "read",
    ];
    let nouns = [
        "issue", "user", "file", "message", "channel", "page", "record", "table", "event", "task",
    ];
    let docs: Vec<Doc> = (0..10_000)
        .map(|i| {
            let verb = verbs[i % verbs.len()];
            let noun = nouns[(i / verbs.len()) % nouns.len()];
            Doc {
                name: format!("mcp__server{}__{verb}_{noun}_{i}", i % 50),
                tool: format!("{verb}_{noun}_{i}"),
                file: String::new(),
                description: format!(
                    "{verb} a {noun} of the workspace by id; returns the {noun} with its \
                     fields, owner, labels and history. Use for {noun} number {i}."
                ),
                hint: String::new(),
                args: vec![
                    ("id".into(), format!("The {noun} id.")),
                    ("fields".into(), "Which fields to return.".into()),
                ],
            }
        })
        .collect();
    let started = Instant::now();
    let index = Index::new(docs);
    eprintln!("index of {} tools: {:?}", index.len(), started.elapsed());
    for (engine, query) in [
        (Engine::ClaudeCode, "send message channel"),
        (Engine::ClaudeCode, "+issue update labels"),
        (Engine::ClaudeCode20, "search_page_7"),
        (Engine::Bm25, "update the issue labels"),
        (Engine::Regex, "(?i)delete_(file|page)"),
    ] {
        let started = Instant::now();
        let runs = 20;
        let mut found = 0;
        for _ in 0..runs {
            found = index.search(engine, query).unwrap().hits.len();
        }
        eprintln!(
            "{:16} {query:28} {found:5} found, {:?} per query",
            engine.as_str(),
            started.elapsed() / runs
        );
    }
}

/// The derived-query report over the corpus's MCP servers as one `claude-code` session: how
/// many tools each derived query finds in the top 5. Prints; run with
/// `cargo test --release --test search -- --ignored --nocapture derived_query_report`.
#[test]
#[ignore]
fn derived_query_report() {
    use toolcheck::search::derive::derive;
    use toolcheck::search::docs::{Naming, docs_of};
    use toolcheck::search::{Engine, Index};
    let corpora = common::root().join("../shared/corpora/mcp");
    if !corpora.is_dir() {
        eprintln!("skipped: no ../shared/corpora (they are not part of a clone)");
        return;
    }
    let registry = toolcheck::catalog::Registry::builtin().unwrap();
    let host = toolcheck::targets::find("claude-code").unwrap();
    let wire = toolcheck::rules::targets::helpers::wire_of(&host);
    let mut files: Vec<_> = std::fs::read_dir(&corpora)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    files.sort();
    let mut docs = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let server = toolcheck::config::sessions::server_of_path(&name);
        let input = toolcheck::read::Input {
            name: name.clone(),
            bytes: std::fs::read(&path).unwrap(),
        };
        let naming = Naming {
            wire,
            server: Some(&server),
        };
        if let Ok(found) = toolcheck::lint::with_tool_set(
            input,
            &registry,
            toolcheck::tokens::Encoding::O200kBase,
            |set| docs_of(set, &name, &naming).collect::<Vec<_>>(),
        ) {
            docs.extend(found.into_iter().map(|(_, doc)| doc));
        }
    }
    let index = Index::new(docs);
    let rank = |doc: usize, query: &str| {
        let answer = index.search_words(Engine::ClaudeCode, query).unwrap();
        answer.rank_of(doc).map(|at| {
            answer.hits[..at]
                .iter()
                .filter(|hit| index.docs[hit.doc].name != index.docs[doc].name)
                .count()
        })
    };
    let (mut by_name, mut by_sentence, mut by_either, mut judged) = (0, 0, 0, 0);
    for doc in 0..index.len() {
        let own = &index.docs[doc];
        let derived = derive(&own.tool, &own.description);
        if derived.sentence.len() < 2 {
            continue;
        }
        judged += 1;
        let name = rank(doc, &derived.name.join(" ")).is_some_and(|r| r < 5);
        let sentence = rank(doc, &derived.sentence.join(" ")).is_some_and(|r| r < 5);
        by_name += usize::from(name);
        by_sentence += usize::from(sentence);
        by_either += usize::from(name || sentence);
    }
    eprintln!(
        "{} tools, {judged} with a first sentence of 2+ content words: found in the top 5 by \
         their name's words {by_name}, by their first sentence's {by_sentence}, by either \
         {by_either}",
        index.len()
    );
}

/// Issue 32: under Claude Code's default every MCP tool of a session is searched for, so a
/// weak one is reported; with `tool-search: false`, or kept loaded by `alwaysLoad`, it is in
/// the context and is not.
#[test]
fn a_tool_claude_code_keeps_loaded_is_never_weak_at_search() {
    let dir = common::scratch("search_weak_loaded");
    let fixture = common::root().join("fixtures/search/weak-search-surface/invalid_mcp.json");
    let text = std::fs::read_to_string(fixture)
        .unwrap()
        .replace(", \"defer_loading\": true", "");
    let weak = |config: &str, text: &str| {
        std::fs::write(dir.join("a.json"), text).unwrap();
        std::fs::write(
            dir.join("toolcheck.yaml"),
            format!("include: [\"*.json\"]\nsessions:\n  - {{name: dev, host: claude-code, files: [a.json]{config}}}\n"),
        )
        .unwrap();
        let (_, stdout, _) = run(
            &dir,
            &[
                "lint", "--select", "TC702", "--format", "concise", "-q", "a.json",
            ],
            None,
        );
        stdout.lines().map(str::to_string).collect::<Vec<_>>()
    };
    let found = weak("", &text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("`mcp__a__drop-collection`"), "{found:?}");
    assert_eq!(weak(", tool-search: false", &text), Vec::<String>::new());
    let kept = text.replace(
        "\"name\": \"drop-collection\",",
        "\"name\": \"drop-collection\", \"_meta\": {\"anthropic/alwaysLoad\": true},",
    );
    assert_ne!(kept, text);
    assert_eq!(weak("", &kept), Vec::<String>::new());
}

/// Issue 32: every deferral and tool-search behaviour toolcheck models is cited, with its
/// date or release, by the profile it belongs to (`explain --target`), and docs/search.md names
/// the Claude Code release the default engine follows.
#[test]
fn the_profiles_cite_each_tool_search_behaviour() {
    let dir = scratch("search_profiles_cite");
    for (target, count) in [("claude-code", 4), ("anthropic", 4)] {
        let (code, stdout, stderr) = run(&dir, &["explain", "--target", target], None);
        assert_eq!(code, 0, "{stderr}");
        let start = stdout
            .find("## Deferral and tool search\n")
            .unwrap_or_else(|| panic!("{target}: {stdout}"));
        let section = &stdout[start..stdout[start..].find("\n## Constraints").unwrap() + start];
        let lines: Vec<&str> = section.lines().collect();
        let bullets: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with("- "))
            .collect();
        assert_eq!(bullets.len(), count, "{target}: {section}");
        for i in bullets {
            assert!(
                lines[i + 1].starts_with("  toolcheck: "),
                "{}",
                lines[i + 1]
            );
            let source = lines[i + 2];
            assert!(
                source.starts_with("  source: ") && source.contains(" (verified "),
                "{target}: {source}"
            );
        }
    }
    let docs = std::fs::read_to_string(common::root().join("docs/search.md")).unwrap();
    assert!(docs.contains("Claude Code 2.1.178"), "the release is named");
    assert!(
        docs.contains("claude-code-2.0"),
        "the older reading is named"
    );
}
