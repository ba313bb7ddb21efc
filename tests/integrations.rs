//! `toolcheck init`, the pre-commit hook, the GitHub Action, and the README snippets for them.

mod common;

use std::path::{Path, PathBuf};

use common::root;
use serde_json::Value;
use toolcheck::config::{self, Config};
use toolcheck::read::source::SourceFile;

fn toolcheck(dir: &Path, args: &[&str]) -> (i32, String, String) {
    common::run(dir, args, None)
}

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("integrations-{name}"))
}

/// A YAML file of the repository, parsed with toolcheck's own parser.
fn yaml(text: &str) -> Value {
    toolcheck::parse::yaml::parse(text)
        .unwrap_or_else(|error| panic!("{}: {text}", error.message))
        .to_json()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

/// The fenced blocks of `lang` in the README, in order.
fn readme_blocks(lang: &str) -> Vec<String> {
    let readme = read("README.md");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readme.lines() {
        match &mut current {
            None if line == format!("```{lang}") => current = Some(String::new()),
            Some(block) if line == "```" => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    blocks
}

// ---- init -------------------------------------------------------------------------------

/// The template with its `# key: value` lines uncommented.
fn uncommented(template: &str) -> (String, Vec<String>) {
    let key_line = regex::Regex::new(r"^# ( *)([a-z-]+):( |$)").unwrap();
    let mut keys = Vec::new();
    let text = template
        .lines()
        .map(|line| match key_line.captures(line) {
            Some(captures) => {
                keys.push(captures[2].to_string());
                line[2..].to_string()
            }
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    (text, keys)
}

#[test]
fn init_writes_every_key_at_its_default() {
    let dir = scratch("init");
    let (code, stdout, stderr) = toolcheck(&dir, &["init"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "wrote toolcheck.yaml\n"),
        "{stderr}"
    );
    let written = std::fs::read_to_string(dir.join("toolcheck.yaml")).unwrap();
    assert_eq!(written, toolcheck::init::CONFIG_TEMPLATE);
    assert!(!dir.join("tools").exists(), "no example without --example");

    // As written (all commented out), it is a valid config.
    let config = Config::parse(
        SourceFile::new("toolcheck.yaml", written.clone()),
        dir.clone(),
    )
    .unwrap_or_else(|error| panic!("{error}"));
    assert!(config.select.is_none() && config.rulesets.is_empty());

    // Uncommented, every key appears exactly once and each value is the default.
    let (text, mut keys) = uncommented(&written);
    keys.sort();
    let mut expected: Vec<String> = config::TOP_KEYS
        .iter()
        .chain(config::RULES_KEYS)
        .map(|key| key.to_string())
        .collect();
    expected.sort();
    assert_eq!(keys, expected);
    let config = Config::parse(SourceFile::new("toolcheck.yaml", text), dir.clone())
        .unwrap_or_else(|error| panic!("{error}"));
    let defaults = Config::defaults(dir.clone());
    assert_eq!(config.include, defaults.include);
    assert_eq!(config.exclude, defaults.exclude);
    assert_eq!(config.tokenizer, defaults.tokenizer);
    let select: Vec<String> = config
        .select
        .unwrap()
        .into_iter()
        .map(|s| s.value)
        .collect();
    assert_eq!(select, ["ALL"]);
    assert!(config.ignore.is_empty() && config.severity.is_empty());
    assert!(config.options.is_empty() && config.per_file_ignores.is_empty());
    assert!(config.rulesets.is_empty());

    // And the binary accepts it.
    let (code, _, stderr) = toolcheck(&dir, &["rules"]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn init_example_lints_clean() {
    let dir = scratch("init-example");
    let (code, stdout, stderr) = toolcheck(&dir, &["init", "--example"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        "wrote toolcheck.yaml\nwrote tools/example.tool.yaml\n"
    );
    // Found by the default `include`, through the config just written.
    let (code, stdout, stderr) = toolcheck(&dir, &["lint"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(stdout, "0 errors, 0 warnings in 1 file (1 tool)\n");
    // With every rule on, at any severity, still nothing.
    let (code, stdout, _) = toolcheck(
        &dir,
        &["lint", "--select", "ALL", "--format", "json", "tools"],
    );
    let document: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(code, 0);
    assert_eq!(document["diagnostics"], Value::Array(vec![]));
}

#[test]
fn init_refuses_to_overwrite_without_force() {
    let dir = scratch("init-force");
    std::fs::create_dir_all(dir.join("tools")).unwrap();
    std::fs::write(dir.join("tools/example.tool.yaml"), "mine\n").unwrap();

    let (code, stdout, stderr) = toolcheck(&dir, &["init", "--example"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("`tools/example.tool.yaml` already exists; nothing was written"),
        "{stderr}"
    );
    assert!(stderr.contains("--force"), "{stderr}");
    assert!(!dir.join("toolcheck.yaml").exists(), "all or nothing");
    assert_eq!(
        std::fs::read_to_string(dir.join("tools/example.tool.yaml")).unwrap(),
        "mine\n"
    );

    // Without --example the example is not in the way.
    assert_eq!(toolcheck(&dir, &["init"]).0, 0);
    let (code, _, stderr) = toolcheck(&dir, &["init", "--example"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("`toolcheck.yaml` and `tools/example.tool.yaml` already exist"));

    let (code, _, stderr) = toolcheck(&dir, &["init", "--example", "--force"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("tools/example.tool.yaml")).unwrap(),
        toolcheck::init::EXAMPLE_MANIFEST
    );
}

// ---- pre-commit -------------------------------------------------------------------------

#[test]
fn pre_commit_hook_lints_manifests_only() {
    let hooks = yaml(&read(".pre-commit-hooks.yaml"));
    let hooks = hooks.as_array().unwrap();
    assert_eq!(hooks.len(), 1);
    let hook = &hooks[0];
    assert_eq!(hook["id"], "toolcheck");
    assert_eq!(hook["language"], "rust");
    assert_eq!(hook["entry"], "toolcheck lint");
    assert_eq!(hook["require_serial"], false);
    assert_eq!(hook["types_or"], serde_json::json!(["yaml", "json"]));
    // `files` must take the default include names and nothing else: pre-commit passes every
    // match, and toolcheck lints every file it is given.
    let files = regex::Regex::new(hook["files"].as_str().unwrap()).unwrap();
    for name in [
        "tools/a.tool.yaml",
        "a.tool.yml",
        "x/b.tools.json",
        "b.tools.yaml",
    ] {
        assert!(files.is_match(name), "{name}");
    }
    for name in [
        "package.json",
        "toolcheck.yaml",
        ".github/workflows/ci.yml",
        "tool.yaml.bak",
    ] {
        assert!(!files.is_match(name), "{name}");
    }
    // The default include agrees.
    let include = config::DEFAULT_INCLUDE.join(" ");
    assert!(
        include.contains("*.tool.{yaml,yml,json}") && include.contains("*.tools.{yaml,yml,json}")
    );
}

#[test]
fn readme_pre_commit_snippet_uses_the_hook() {
    let hooks = yaml(&read(".pre-commit-hooks.yaml"));
    let ids: Vec<&Value> = hooks.as_array().unwrap().iter().map(|h| &h["id"]).collect();
    let snippet = readme_blocks("yaml")
        .into_iter()
        .find(|block| block.starts_with("repos:"))
        .expect("a .pre-commit-config.yaml snippet in the README");
    let config = yaml(&snippet);
    let repo = &config["repos"][0];
    assert!(repo["repo"].as_str().unwrap().ends_with("/toolcheck"));
    assert!(repo["rev"].is_string());
    let used = &repo["hooks"][0]["id"];
    assert!(
        ids.contains(&used),
        "{used} is not in .pre-commit-hooks.yaml"
    );
}

// ---- GitHub Action ----------------------------------------------------------------------

fn action() -> Value {
    yaml(&read("action.yml"))
}

/// Expands a step's `run` line as bash would for our simple commands: `$VAR` and `"$VAR"`
/// from the step's `env` (whose `${{ inputs.x }}` take `inputs`), unquoted expansions split
/// on spaces. Stops at a redirection or `||`.
fn expand(step: &Value, inputs: &dyn Fn(&str) -> String) -> Vec<String> {
    let env = |name: &str| -> String {
        let value = step["env"][name]
            .as_str()
            .unwrap_or_else(|| panic!("no env {name}"));
        let input = value
            .strip_prefix("${{ inputs.")
            .and_then(|rest| rest.strip_suffix(" }}"))
            .unwrap_or_else(|| panic!("{value}"));
        inputs(input)
    };
    let run = step["run"].as_str().unwrap();
    let mut words = Vec::new();
    for word in run.split_whitespace() {
        if word == ">" || word == "||" {
            break;
        }
        if let Some(name) = word.strip_prefix("\"$").and_then(|w| w.strip_suffix('"')) {
            words.push(env(name));
        } else if let Some(name) = word.strip_prefix('$') {
            words.extend(env(name).split_whitespace().map(str::to_string));
        } else {
            words.push(word.trim_matches('"').to_string());
        }
    }
    words
}

fn input_default(action: &Value, name: &str) -> String {
    action["inputs"][name]["default"]
        .as_str()
        .unwrap_or_else(|| panic!("input {name} has no default"))
        .to_string()
}

#[test]
fn action_has_the_expected_inputs_and_steps() {
    let action = action();
    assert_eq!(action["runs"]["using"], "composite");
    for (input, default) in [
        ("paths", "."),
        ("format", "github"),
        ("args", ""),
        ("sarif-file", ""),
        ("install", "cargo"),
    ] {
        assert_eq!(input_default(&action, input), default, "{input}");
        assert!(
            action["inputs"][input]["description"].is_string(),
            "{input}"
        );
    }
    let steps = action["runs"]["steps"].as_array().unwrap();
    assert!(steps.iter().all(|step| step["shell"] == "bash"));
    assert_eq!(
        steps[0]["run"],
        "cargo install --locked --path \"$GITHUB_ACTION_PATH\""
    );
    let sarif = &steps[1];
    assert!(sarif["run"].as_str().unwrap().ends_with("|| true"));
    assert_eq!(sarif["if"], "inputs.sarif-file != ''");
    // The lint step comes last, so its exit code is the action's.
    let lint = steps.last().unwrap();
    assert!(lint["if"].is_null());
    assert!(lint["run"].as_str().unwrap().starts_with("toolcheck lint "));
}

#[test]
fn action_command_lines_work_on_the_fixtures() {
    let action = action();
    let steps = action["runs"]["steps"].as_array().unwrap();
    let dir = scratch("action");
    let sarif_path = dir.join("out.sarif");
    let inputs = |name: &str| match name {
        "paths" => "fixtures/examples fixtures/names/duplicate-tool-name/invalid.yaml".to_string(),
        "sarif-file" => sarif_path.display().to_string(),
        other => input_default(&action, other),
    };

    let lint = expand(steps.last().unwrap(), &inputs);
    assert_eq!(&lint[..4], ["toolcheck", "lint", "--format", "github"]);
    let args: Vec<&str> = lint[1..].iter().map(String::as_str).collect();
    let (code, stdout, stderr) = toolcheck(root(), &args);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stdout.contains("\n::error file=fixtures/examples/search.tools.json,line=6,"),
        "{stdout}"
    );
    assert!(
        stdout.contains("title=TC502 duplicate-tool-name::"),
        "{stdout}"
    );
    assert!(stdout.ends_with("in 3 files (8 tools)\n"), "{stdout}");

    // With extra args the same way the action passes them.
    let with_args = |name: &str| match name {
        "args" => "--select TC209 --severity TC209=warning".to_string(),
        other => inputs(other),
    };
    let lint = expand(steps.last().unwrap(), &with_args);
    let args: Vec<&str> = lint[1..].iter().map(String::as_str).collect();
    let (code, stdout, stderr) = toolcheck(root(), &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.lines().next().unwrap().starts_with("::warning "),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .filter(|l| l.starts_with("::"))
            .all(|l| l.contains("TC209"))
    );

    let sarif = expand(&steps[1], &inputs);
    assert_eq!(&sarif[..4], ["toolcheck", "lint", "--format", "sarif"]);
    let args: Vec<&str> = sarif[1..].iter().map(String::as_str).collect();
    let (code, stdout, stderr) = toolcheck(root(), &args);
    assert_eq!(code, 1, "{stderr}");
    let log: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(log["version"], "2.1.0");
    assert!(!log["runs"][0]["results"].as_array().unwrap().is_empty());
}

#[test]
fn readme_action_snippets_use_real_inputs() {
    let action = action();
    let workflows: Vec<Value> = readme_blocks("yaml")
        .iter()
        .filter(|block| block.contains("jobs:"))
        .map(|block| yaml(block))
        .collect();
    assert_eq!(workflows.len(), 2, "annotations and code scanning recipes");
    let mut uploads = 0;
    for workflow in &workflows {
        let job = &workflow["jobs"]["lint"];
        let steps = job["steps"].as_array().unwrap();
        let ours = steps
            .iter()
            .find(|step| {
                step["uses"]
                    .as_str()
                    .is_some_and(|uses| uses.contains("/toolcheck@"))
            })
            .expect("a step that uses the action");
        for (input, _) in ours["with"].as_object().unwrap() {
            assert!(
                action["inputs"][input].is_object(),
                "README uses input `{input}` that action.yml does not have"
            );
        }
        if let Some(upload) = steps.iter().find(|step| {
            step["uses"]
                .as_str()
                .is_some_and(|uses| uses.starts_with("github/codeql-action/upload-sarif@"))
        }) {
            uploads += 1;
            assert_eq!(upload["with"]["sarif_file"], ours["with"]["sarif-file"]);
            assert_eq!(job["permissions"]["security-events"], "write");
        }
    }
    assert_eq!(uploads, 1);
}

#[test]
fn readme_init_snippet_does_what_it_says() {
    let snippet = readme_blocks("sh")
        .into_iter()
        .find(|block| block.starts_with("toolcheck init"))
        .expect("an init snippet in the README");
    let dir = scratch("readme-init");
    for line in snippet.lines() {
        let (command, comment) = line.split_once('#').unwrap();
        let args: Vec<&str> = command.split_whitespace().skip(1).collect();
        let (code, stdout, stderr) = toolcheck(&dir, &args);
        assert_eq!(code, 0, "{line}: {stderr}");
        // The comment shows the output, lines joined with commas.
        let shown = stdout.trim_end().replace('\n', ", ");
        assert_eq!(shown, comment.trim(), "{line}");
    }
}
