//! `toolcheck diff`: each class of change on its fixture pair (`fixtures/diff/<case>/`), a pure
//! reordering and reformatting, a rename, directories, `--git` against a scratch repository,
//! the JSON shape, the Markdown output, the action's step and the README's section.

mod common;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// `toolcheck diff --no-config ARGS --format json` from the repository root: exit code and
/// document.
fn diff_json(args: &[&str]) -> (i32, Value) {
    diff_json_in(common::root(), args)
}

fn diff_json_in(dir: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["diff", "--no-config", "--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = common::run(dir, &all, None);
    let document =
        serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{error}: {stdout}{stderr}"));
    (code, document)
}

fn case(name: &str) -> (String, String) {
    let dir = format!("fixtures/diff/{name}");
    let new = if Path::new(&format!(
        "{}/{dir}/new.tools.json",
        common::root().display()
    ))
    .exists()
    {
        format!("{dir}/new.tools.json")
    } else {
        format!("{dir}/new.tools.yaml")
    };
    (format!("{dir}/old.tools.yaml"), new)
}

/// Every change of the document as `class tool: message`, in output order.
fn changes(document: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for file in document["files"].as_array().unwrap() {
        for change in file["changes"].as_array().unwrap() {
            out.push(format!(
                "{} (file): {}",
                change["class"].as_str().unwrap(),
                change["message"].as_str().unwrap()
            ));
        }
        for tool in file["tools"].as_array().unwrap() {
            for change in tool["changes"].as_array().unwrap() {
                out.push(format!(
                    "{} {}: {}",
                    change["class"].as_str().unwrap(),
                    tool["name"].as_str().unwrap(),
                    change["message"].as_str().unwrap()
                ));
            }
        }
    }
    out
}

fn summary(document: &Value, key: &str) -> u64 {
    document["summary"][key].as_u64().unwrap()
}

#[test]
fn each_breaking_change_is_breaking_and_exits_one() {
    let (old, new) = case("breaking");
    let (code, document) = diff_json(&[&old, &new]);
    assert_eq!(code, 1);
    assert_eq!(
        changes(&document),
        [
            "breaking open_page: tool removed",
            "breaking search_docs: type of `limit` narrowed from number to integer",
            "breaking search_docs: enum value \"faq\" removed from `section`",
            "breaking search_docs: parameter `lang` is now required",
            "breaking search_docs: parameter `legacy` removed: callers that send it break",
            "breaking search_docs: required parameter `product` added: callers that omit it break",
        ]
    );
    assert_eq!(summary(&document, "breaking"), 6);
    // The parameters' paths, for scripts.
    let tools = &document["files"][0]["tools"];
    let paths: Vec<&str> = tools[1]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["limit", "section", "lang", "legacy", "product"]);
    // `--fail-on never` reports the same and exits 0.
    let (code, again) = diff_json(&["--fail-on", "never", &old, &new]);
    assert_eq!((code, changes(&again)), (0, changes(&document)));
}

/// A sentence kept word for word is no change while the tools keep their names; once the
/// sibling it hands over to is renamed, it no longer names a tool of the file, and the
/// boundary it drew is gone.
#[test]
fn a_kept_sentence_changes_only_when_the_tool_it_names_is_renamed() {
    let (old, new) = case("sibling-renamed");
    let (_, document) = diff_json(&[&old, &new]);
    assert_eq!(
        changes(&document),
        [
            "breaking list_tickets: renamed from `list_issues`: callers and prompts that name \
             it break",
            "risky search: anti-trigger removed: \"For issues, call list_issues.\"",
        ]
    );
    // The same reworded description beside an unrenamed sibling: no anti-trigger change.
    let dir = common::scratch("diff-sibling-kept");
    let text = std::fs::read_to_string(common::root().join(&new)).unwrap();
    let same_names = dir.join("new.tools.yaml");
    std::fs::write(&same_names, text.replace("list_tickets", "list_issues")).unwrap();
    let (_, document) = diff_json(&[&old, same_names.to_str().unwrap()]);
    assert_eq!(
        changes(&document),
        ["additive search: description reworded"]
    );
}

#[test]
fn each_risky_change_is_risky_and_fails_only_with_fail_on_risky() {
    let (old, new) = case("risky");
    let (code, document) = diff_json(&[&old, &new]);
    assert_eq!(code, 0, "risky is no failure by default");
    assert_eq!(
        changes(&document),
        [
            "risky define: token cost up 89.5% (38 → 72): every request carries it",
            "additive define: description reworded",
            "risky summarize: trigger removed: \"Use when the user pastes a long text.\"",
            "risky summarize: trigger added: \"Use when the user shares a file.\"",
            "risky summarize: anti-trigger removed: \"Do not use for code.\"",
            "risky summarize: anti-trigger added: \"Do not use for code or logs.\"",
            "risky summarize: numbers of the description changed (5 → 8): a limit the model \
             reads may have moved",
            "risky summarize: `maxItems` of `points` changed: 10 → 20",
            "risky summarize: default of `style` changed: \"plain\" → \"bullets\"",
        ]
    );
    let (code, _) = diff_json(&["--fail-on", "risky", &old, &new]);
    assert_eq!(code, 1);
}

/// Issue 31: results are part of what the model reads: a result reworded (with the sentence
/// that went or came), added or removed is risky, and any change to a tool says it
/// invalidates a cached prompt prefix from the tools on.
#[test]
fn a_changed_result_is_risky_with_its_sentence() {
    let (old, new) = case("results");
    let (code, document) = diff_json(&[&old, &new]);
    assert_eq!(code, 0);
    assert_eq!(
        changes(&document),
        [
            "risky ask_user_question: result `single_option` reworded, sentence removed: \
             \"Do not retry this call and do not invent a filler second option.\"",
            "risky ask_user_question: result `declined` reworded, sentence removed: \"The user \
             declined to answer.\"",
            "risky ask_user_question: result `declined` reworded, sentence removed: \"Continue \
             with your best judgment or ask different questions.\"",
            "risky ask_user_question: result `declined` reworded, sentence added: \"User \
             declined to answer (cancelled the dialog).\"",
            "risky ask_user_question: result `idle` removed: \"The dialog auto-continued after 5 \
             minutes of idle (user away from keyboard).\"",
            "risky ask_user_question: result `chat` added: \"The user wants to discuss it. This \
             is a request for conversation, not a refusal.\"",
        ]
    );
    assert_eq!(document["summary"]["cache_invalidated_from"], "tools");
    let (code, _) = diff_json(&["--fail-on", "risky", &old, &new]);
    assert_eq!(code, 1);
    // The same file on both sides: no change, nothing invalidated.
    let (_, document) = diff_json(&[&old, &old]);
    assert_eq!(document["summary"]["cache_invalidated_from"], Value::Null);
    let (_, stdout, _) = common::run(common::root(), &["diff", "--no-config", &old, &new], None);
    assert!(
        stdout.contains("cache: a cached prompt prefix stops matching from the tool definitions"),
        "{stdout}"
    );
}

#[test]
fn additive_changes_fail_only_with_fail_on_any() {
    let (old, new) = case("additive");
    let (code, document) = diff_json(&["--fail-on", "risky", &old, &new]);
    assert_eq!(code, 0);
    assert_eq!(
        changes(&document),
        [
            "additive list_files: description reworded",
            "additive list_files: description of `path` changed",
            "additive list_files: enum value \"date\" added to `sort`",
            "additive list_files: type of `depth` widened from integer to integer | string",
            "additive list_files: parameter `hidden` is now optional",
            "additive list_files: optional parameter `pattern` added",
            "additive read_file: tool added",
        ]
    );
    assert_eq!(document["summary"]["tools"]["added"], 1);
    assert_eq!(document["summary"]["tools"]["changed"], 1);
    let (code, _) = diff_json(&["--fail-on", "any", &old, &new]);
    assert_eq!(code, 1);
}

#[test]
fn a_rename_is_a_rename_and_a_reworded_renamed_tool_is_not() {
    let (old, new) = case("rename");
    let (code, document) = diff_json(&[&old, &new]);
    assert_eq!(code, 1);
    let tools = document["files"][0]["tools"].as_array().unwrap();
    let statuses: Vec<(&str, &str, Option<&str>)> = tools
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap(),
                t["status"].as_str().unwrap(),
                t["old_name"].as_str(),
            )
        })
        .collect();
    // `get_page` → `fetch_page` keeps its description (which names the tool) and schema;
    // `find_pages` → `search_pages` also reworded its description: removed and added.
    assert_eq!(
        statuses,
        [
            ("find_pages", "removed", None),
            ("fetch_page", "renamed", Some("get_page")),
            ("search_pages", "added", None),
        ]
    );
    assert_eq!(document["summary"]["tools"]["renamed"], 1);
    // The renamed tool's findings are matched under its new name: none new, none fixed.
    for key in ["new", "fixed"] {
        let findings = document["files"][0]["findings"][key].as_array().unwrap();
        assert!(
            findings
                .iter()
                .all(|f| f["tool"] != "fetch_page" && f["tool"] != "get_page"),
            "{findings:#?}"
        );
    }
}

#[test]
fn a_reordering_and_reformatting_is_no_change() {
    // The same tools in another order, keys, `required` and enum values reordered, YAML
    // written as JSON (`input_schema` as `inputSchema`): the findings move lines, not places.
    let (old, new) = case("reorder");
    let (code, document) = diff_json(&["--fail-on", "any", &old, &new]);
    assert_eq!(code, 0, "{document:#}");
    for key in ["breaking", "risky", "additive"] {
        assert_eq!(summary(&document, key), 0, "{key}");
    }
    assert_eq!(document["summary"]["tools"]["unchanged"], 2);
    assert_eq!(document["summary"]["findings"]["new"], 0);
    assert_eq!(document["summary"]["findings"]["fixed"], 0);
    assert_eq!(document["files"], Value::Array(Vec::new()));
    // Both sides do have findings: they were matched, not missing.
    let (_, lint, _) = common::run(
        common::root(),
        &["lint", "--no-config", "--format", "concise", &new],
        None,
    );
    assert!(lint.contains("TC405"), "{lint}");
    let (_, human, _) = common::run(common::root(), &["diff", "--no-config", &old, &new], None);
    assert!(
        human.ends_with("\nno change in what the model reads\n"),
        "{human}"
    );
    // Near-miss: one enum value more is a change.
    let dir = common::scratch("diff-reorder-near-miss");
    let text = std::fs::read_to_string(common::root().join(&new)).unwrap();
    let changed = text.replace(r#"["ops", "general", "random"]"#, r#"["ops", "general"]"#);
    assert_ne!(changed, text);
    std::fs::write(dir.join("new.tools.json"), changed).unwrap();
    let moved = dir.join("new.tools.json").display().to_string();
    let (code, document) = diff_json(&[&old, &moved]);
    assert_eq!(code, 1);
    assert_eq!(
        changes(&document),
        ["breaking send_message: enum value \"random\" removed from `channel`"]
    );
}

#[test]
fn findings_new_and_fixed_are_matched_by_rule_tool_and_place() {
    let (old, new) = case("breaking");
    let (_, document) = diff_json(&[&old, &new]);
    let findings = &document["files"][0]["findings"];
    let listed = |key: &str| -> Vec<String> {
        findings[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                format!(
                    "{} {} {}",
                    f["code"].as_str().unwrap(),
                    f["tool"].as_str().unwrap_or("-"),
                    f["path"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(
        listed("new"),
        ["TC405 search_docs input_schema/properties/product"]
    );
    assert_eq!(
        listed("fixed"),
        [
            "TC405 search_docs input_schema/properties/legacy",
            "TC405 open_page input_schema/properties/url"
        ]
    );
}

#[test]
fn directories_pair_their_files_by_relative_path() {
    let dir = common::scratch("diff-directories");
    let root = common::root().join("fixtures/diff");
    for (side, file, from) in [
        ("old", "a.tools.yaml", "breaking/old.tools.yaml"),
        ("new", "a.tools.yaml", "breaking/new.tools.yaml"),
        ("old", "sub/b.tools.yaml", "additive/old.tools.yaml"),
        ("new", "sub/b.tools.yaml", "additive/old.tools.yaml"),
        ("new", "c.tools.yaml", "rename/new.tools.yaml"),
    ] {
        let path = dir.join(side).join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::copy(root.join(from), path).unwrap();
    }
    let (code, document) = diff_json_in(&dir, &["old", "new"]);
    assert_eq!(code, 1);
    let files: Vec<(Option<&str>, Option<&str>)> = document["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["old"].as_str(), f["new"].as_str()))
        .collect();
    // `sub/b.tools.yaml` is the same on both sides: not listed.
    assert_eq!(
        files,
        [
            (Some("old/a.tools.yaml"), Some("new/a.tools.yaml")),
            (None, Some("new/c.tools.yaml")),
        ]
    );
    // `list_files` of `sub/b`; `search_docs` of `a` changed.
    assert_eq!(document["summary"]["tools"]["unchanged"], 1);
    assert_eq!(document["summary"]["tools"]["added"], 2);
    // A file and a directory, or one path, are usage errors.
    let (code, _, stderr) = common::run(&dir, &["diff", "old", "new/a.tools.yaml"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("is a directory but"), "{stderr}");
    let (code, _, stderr) = common::run(&dir, &["diff", "old"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("takes OLD and NEW, got 1 path"), "{stderr}");
    let (code, _, stderr) = common::run(&dir, &["diff", "old", "missing"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("`missing` does not exist"), "{stderr}");
}

fn git(dir: &Path, args: &[&str]) {
    let output = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn has_git() -> bool {
    let found = Command::new("git").arg("--version").output().is_ok();
    if !found {
        eprintln!("git is not installed: skipping the `--git` test");
    }
    found
}

/// A scratch repository: a commit with `tools/a.tools.yaml` (breaking/old) and
/// `tools/b.tools.yaml` (additive/old), then a working tree where `a` is breaking/new, `b` is
/// deleted and `c` is additive/new (not committed).
fn repository(name: &str) -> std::path::PathBuf {
    let dir = common::scratch(name);
    let fixtures = common::root().join("fixtures/diff");
    std::fs::create_dir_all(dir.join("tools")).unwrap();
    std::fs::copy(
        fixtures.join("breaking/old.tools.yaml"),
        dir.join("tools/a.tools.yaml"),
    )
    .unwrap();
    std::fs::copy(
        fixtures.join("additive/old.tools.yaml"),
        dir.join("tools/b.tools.yaml"),
    )
    .unwrap();
    std::fs::write(dir.join("package.json"), r#"{"name": "x"}"#).unwrap();
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "base"]);
    std::fs::copy(
        fixtures.join("breaking/new.tools.yaml"),
        dir.join("tools/a.tools.yaml"),
    )
    .unwrap();
    std::fs::remove_file(dir.join("tools/b.tools.yaml")).unwrap();
    std::fs::copy(
        fixtures.join("additive/new.tools.yaml"),
        dir.join("tools/c.tools.yaml"),
    )
    .unwrap();
    dir
}

fn file_pairs(document: &Value) -> Vec<(String, String)> {
    document["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let name = |side: &str| f[side].as_str().unwrap_or("-").to_string();
            (name("old"), name("new"))
        })
        .collect()
}

#[test]
fn git_compares_a_revision_with_the_working_tree_without_a_checkout() {
    if !has_git() {
        return;
    }
    let dir = repository("diff-git");
    let (code, document) = diff_json_in(&dir, &["--git", "HEAD"]);
    assert_eq!(code, 1);
    assert_eq!(document["old"], "HEAD");
    assert_eq!(document["new"], "working tree");
    let expected = [
        ("tools/a.tools.yaml", "tools/a.tools.yaml"),
        ("tools/b.tools.yaml", "-"),
        ("-", "tools/c.tools.yaml"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(file_pairs(&document), expected);
    assert_eq!(document["summary"]["tools"]["removed"], 2);
    assert_eq!(document["summary"]["tools"]["added"], 2);
    // The working tree was not touched: `b` is still deleted, `a` still the new one.
    assert!(!dir.join("tools/b.tools.yaml").exists());
    // From a subdirectory, with the paths written relative to it, the same pairs.
    let (_, below) = diff_json_in(&dir.join("tools"), &["--git", "HEAD", "../tools"]);
    assert_eq!(below["summary"], document["summary"]);
    assert_eq!(file_pairs(&below)[0].0, "../tools/a.tools.yaml");
    let (_, here) = diff_json_in(&dir.join("tools"), &["--git", "HEAD", "."]);
    assert_eq!(here["summary"], document["summary"]);
    assert_eq!(file_pairs(&here)[0].0, "a.tools.yaml");
    // Two revisions: once committed, `HEAD~1..HEAD` is the same diff, and HEAD against the
    // working tree is none.
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "change"]);
    let (code, committed) = diff_json_in(&dir, &["--git", "HEAD~1..HEAD", "tools"]);
    assert_eq!(code, 1);
    assert_eq!(committed["summary"], document["summary"]);
    let (code, none) = diff_json_in(&dir, &["--git", "HEAD", "--fail-on", "any"]);
    assert_eq!(code, 0);
    assert_eq!(none["summary"]["tools"]["unchanged"], 3);
    // A revision that is not there says how to get it.
    let (code, _, stderr) = common::run(&dir, &["diff", "--git", "no-such-branch"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("fetch-depth"), "{stderr}");
    let (code, _, stderr) = common::run(&dir, &["diff", "--git", "--all"], None);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn json_document_has_the_documented_shape() {
    let (old, new) = case("rename");
    let (_, document) = diff_json(&[&old, &new]);
    let keys =
        |value: &Value| -> Vec<String> { value.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(
        keys(&document),
        [
            "version",
            "toolcheck",
            "tokenizer",
            "old",
            "new",
            "summary",
            "files"
        ]
    );
    assert_eq!(document["version"], 1);
    assert_eq!(
        keys(&document["summary"]),
        [
            "breaking",
            "risky",
            "additive",
            "tools",
            "tokens",
            "findings",
            "cache_invalidated_from"
        ]
    );
    assert_eq!(
        keys(&document["summary"]["tools"]),
        ["added", "removed", "renamed", "changed", "unchanged"]
    );
    assert_eq!(
        keys(&document["summary"]["tokens"]),
        ["old", "new", "delta"]
    );
    let file = &document["files"][0];
    assert_eq!(
        keys(file),
        [
            "old",
            "new",
            "tokens",
            "changes",
            "tools",
            "unchanged",
            "findings"
        ]
    );
    let renamed = &file["tools"][1];
    assert_eq!(
        keys(renamed),
        ["name", "old_name", "status", "class", "tokens", "changes"]
    );
    assert_eq!(
        keys(&renamed["changes"][0]),
        ["class", "field", "path", "message"]
    );
    assert_eq!(keys(&file["findings"]), ["new", "fixed"]);
    assert_eq!(
        keys(&file["findings"]["new"][0]),
        [
            "code", "rule", "severity", "file", "line", "column", "tool", "path", "message"
        ]
    );
    // The tokens add up.
    let tokens = &document["summary"]["tokens"];
    assert_eq!(
        tokens["new"].as_i64().unwrap() - tokens["old"].as_i64().unwrap(),
        tokens["delta"].as_i64().unwrap()
    );
}

#[test]
fn markdown_for_a_pull_request() {
    let (old, new) = case("breaking");
    let (code, stdout, _) = common::run(
        common::root(),
        &["diff", "--no-config", "--format", "markdown", &old, &new],
        None,
    );
    assert_eq!(code, 1);
    insta::assert_snapshot!(stdout);
}

#[test]
fn the_action_step_writes_the_summary_and_does_not_fail_on_a_breaking_change() {
    if !has_git() {
        return;
    }
    let action = toolcheck::parse::yaml::parse(
        &std::fs::read_to_string(common::root().join("action.yml")).unwrap(),
    )
    .unwrap()
    .to_json();
    assert_eq!(action["inputs"]["diff-base"]["default"], "");
    let steps = action["runs"]["steps"].as_array().unwrap();
    let step = steps
        .iter()
        .find(|s| s["name"] == "Diff")
        .expect("a Diff step");
    assert_eq!(step["if"], "inputs.diff-base != ''");
    let dir = repository("diff-action");
    let summary = dir.join("summary.md");
    std::fs::write(&summary, "earlier steps' summary\n").unwrap();
    let binary = Path::new(env!("CARGO_BIN_EXE_toolcheck"));
    let run = |base: &str| {
        Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c"])
            .arg(step["run"].as_str().unwrap())
            .current_dir(&dir)
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    binary.parent().unwrap().display(),
                    std::env::var("PATH").unwrap_or_default()
                ),
            )
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("INPUT_PATHS", "tools")
            .env("INPUT_DIFF_BASE", base)
            .output()
            .unwrap()
    };
    let output = run("HEAD");
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with("::warning title=toolcheck diff::"),
        "{stdout}"
    );
    let written = std::fs::read_to_string(&summary).unwrap();
    assert!(
        written.starts_with("earlier steps' summary\n## toolcheck diff\n"),
        "{written}"
    );
    assert!(written.contains("**✖ 7 breaking**"), "{written}");
    // No such commit (a shallow checkout): the step fails.
    let output = run("no-such-commit");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn readme_section_shows_the_workflow_with_the_base_commit() {
    let readme = common::docs();
    let heading = "## Reviewing a change (`toolcheck diff`)";
    let start = readme.find(heading).expect("the docs section");
    let section = &readme[start + heading.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    assert!(section.contains("fetch-depth: 0"), "{section}");
    assert!(section.contains("diff-base:"), "{section}");
    assert!(
        section.contains("```console"),
        "its examples are run by tests/readme.rs"
    );
}

/// A sample of the two GitHub MCP servers (copied from the corpus, with its source): the
/// reference server's `search_code` became GitHub's own, `get_issue` is gone.
#[test]
fn github_sample_reads_as_a_review_would() {
    let (old, new) = case("github");
    let (code, document) = diff_json(&[&old, &new]);
    assert_eq!(code, 1);
    let all = changes(&document);
    let worst: Vec<&str> = all
        .iter()
        .filter(|c| !c.starts_with("additive"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        worst,
        [
            "breaking get_issue: tool removed",
            "breaking search_code: parameter `q` removed: callers that send it break",
            "breaking search_code: parameter `per_page` removed: callers that send it break",
            "breaking search_code: required parameter `query` added: callers that omit it break",
            "risky search_code: trigger added: \"Best for finding exact symbols, functions, \
             classes, or specific code patterns.\"",
            "risky search_code: token cost up 333.3% (87 → 377): every request carries it",
        ]
    );
    assert!(
        all.contains(&"additive search_code: optional parameter `perPage` added".to_string()),
        "{all:#?}"
    );
}

/// The two GitHub MCP server captures of the shared corpus: the reference server
/// (`modelcontextprotocol/servers`) as old, GitHub's own as new. Skipped without the corpus.
#[test]
fn github_servers_from_the_corpus() {
    let corpora = common::root().join("../shared/corpora");
    let old = corpora.join("mcp/modelcontextprotocol__server-github.json");
    let new = corpora.join("github-mcp-server/toolsnaps.json");
    if !old.exists() || !new.exists() {
        eprintln!("../shared/corpora not found: skipping the GitHub servers' diff");
        return;
    }
    let (code, document) = diff_json(&[old.to_str().unwrap(), new.to_str().unwrap()]);
    assert_eq!(code, 1);
    let tools = document["summary"]["tools"].clone();
    assert_eq!(tools["removed"], 7, "{tools}");
    assert_eq!(tools["added"], 98, "{tools}");
    assert_eq!(tools["changed"], 19, "{tools}");
    let all = changes(&document);
    assert!(all.contains(&"breaking get_issue: tool removed".to_string()));
    assert!(
        all.contains(
            &"breaking search_code: required parameter `query` added: callers that omit it break"
                .to_string()
        ),
        "{all:#?}"
    );
    assert!(
        all.iter()
            .any(|c| c.starts_with("risky list_pull_requests: anti-trigger added:")),
        "{all:#?}"
    );
}

/// Issue 30: two files that cannot be read as tools are not "no change": nothing was compared,
/// each is named, and the exit code is 2. One readable side still compares as before.
#[test]
fn files_that_cannot_be_read_on_either_side_are_errors() {
    let dir = common::scratch("diff_unreadable");
    std::fs::write(dir.join("old.json"), b"\xff\xfe not text").unwrap();
    std::fs::write(dir.join("new.json"), "{\"tools\": [").unwrap();
    let (code, document) = diff_json_in(&dir, &["old.json", "new.json"]);
    assert_eq!(code, 2, "{document}");
    let unreadable: Vec<&str> = document["unreadable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line.as_str().unwrap())
        .collect();
    assert_eq!(unreadable.len(), 2, "{unreadable:?}");
    assert!(unreadable[0].starts_with("old.json: "), "{unreadable:?}");
    assert!(unreadable[1].starts_with("new.json: "), "{unreadable:?}");
    let (code, stdout, stderr) =
        common::run(&dir, &["diff", "--no-config", "old.json", "new.json"], None);
    assert_eq!(code, 2);
    assert!(!stdout.contains("no change"), "{stdout}");
    assert!(
        stderr.contains("cannot compare old.json: it cannot be read as tools"),
        "{stderr}"
    );
    // A readable old side: the new file breaking is a breaking change, as before.
    std::fs::write(dir.join("old.json"), "{\"tools\": []}").unwrap();
    let (code, document) = diff_json_in(&dir, &["old.json", "new.json"]);
    assert_eq!(code, 1, "{document}");
    assert!(document.get("unreadable").is_none(), "{document}");
}
