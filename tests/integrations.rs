//! `toolcheck init`, the pre-commit hook, the GitHub Action, and the README snippets for them.

mod common;

use std::path::{Path, PathBuf};

use common::root;
use serde_json::Value;
use toolcheck::config::{self, Config};
use toolcheck::parse::source::SourceFile;

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

/// The fenced blocks of `lang` in the README and docs/, in order.
fn readme_blocks(lang: &str) -> Vec<String> {
    let readme = common::docs();
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
fn pre_commit_hook_lints_manifests_and_source_only() {
    let hooks = yaml(&read(".pre-commit-hooks.yaml"));
    let hooks = hooks.as_array().unwrap();
    let ids: Vec<&str> = hooks.iter().map(|h| h["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["toolcheck", "toolcheck-system"]);
    assert_eq!(hooks[0]["language"], "rust");
    assert_eq!(hooks[1]["language"], "system");
    for hook in hooks {
        assert_eq!(hook["entry"], "toolcheck lint");
        // One process for all staged files: one summary, and checks over the whole set see
        // all of it.
        assert_eq!(hook["require_serial"], true);
        assert_eq!(hook["files"], hooks[0]["files"]);
        assert_eq!(hook["exclude"], hooks[0]["exclude"]);
    }
    let hook = &hooks[0];
    // `files` must take the default include names and source files, nothing else: pre-commit
    // passes every match, and toolcheck lints every file it is given.
    let files = regex::Regex::new(hook["files"].as_str().unwrap()).unwrap();
    let exclude = regex::Regex::new(hook["exclude"].as_str().unwrap()).unwrap();
    let passed = |name: &str| files.is_match(name) && !exclude.is_match(name);
    for name in [
        "tools/a.tool.yaml",
        "a.tool.yml",
        "x/b.tools.json",
        "b.tools.yaml",
        "src/server.ts",
        "src/tools.mjs",
        "index.js",
        "app/page.tsx",
        "src/server/tools.py",
        "pkg/github/issues.go",
    ] {
        assert!(passed(name), "{name}");
    }
    for name in [
        "package.json",
        "toolcheck.yaml",
        ".github/workflows/ci.yml",
        "tool.yaml.bak",
        "src/types.d.ts",
        "node_modules/dep/index.js",
        ".venv/lib/python3.12/site-packages/dep/server.py",
        "server.ts.orig",
        "pkg/github/issues_test.go",
        "vendor/github.com/dep/mcp/tool.go",
    ] {
        assert!(!passed(name), "{name}");
    }
    // The default include agrees.
    let include = config::DEFAULT_INCLUDE.join(" ");
    assert!(
        include.contains("*.tool.{yaml,yml,json}") && include.contains("*.tools.{yaml,yml,json}")
    );
}

#[test]
fn readme_pre_commit_snippets_use_the_hooks() {
    let snippets: Vec<Value> = readme_blocks("yaml")
        .into_iter()
        .filter(|block| block.starts_with("repos:"))
        .map(|block| yaml(&block)["repos"][0].clone())
        .collect();
    let [prebuilt, source] = &snippets[..] else {
        panic!("two .pre-commit-config.yaml snippets in the docs: {snippets:?}");
    };
    // The prebuilt hook: its own repository, at the tag of this version (the wheel it pins).
    assert!(
        prebuilt["repo"]
            .as_str()
            .unwrap()
            .ends_with("/toolcheck-pre-commit")
    );
    assert_eq!(prebuilt["rev"], format!("v{}", env!("CARGO_PKG_VERSION")));
    let hooks = yaml(&read("pre-commit-mirror/.pre-commit-hooks.yaml"));
    assert_eq!(prebuilt["hooks"][0]["id"], hooks[0]["id"]);
    // The source hook: this repository, pinned to a commit, or the placeholder the docs say to
    // replace with one (scripts/pre-commit-check.sh runs the hook pinned to a commit).
    assert!(source["repo"].as_str().unwrap().ends_with("/toolcheck"));
    let rev = source["rev"].as_str().unwrap();
    assert!(
        rev == "FULL_COMMIT_SHA" || (rev.len() == 40 && rev.bytes().all(|b| b.is_ascii_hexdigit())),
        "{rev}"
    );
    assert!(read("docs/ci.md").contains("`FULL_COMMIT_SHA`, a commit of it"));
    let hooks = yaml(&read(".pre-commit-hooks.yaml"));
    let ids: Vec<&Value> = hooks.as_array().unwrap().iter().map(|h| &h["id"]).collect();
    let used = &source["hooks"][0]["id"];
    assert!(
        ids.contains(&used),
        "{used} is not in .pre-commit-hooks.yaml"
    );
}

// ---- GitHub Action ----------------------------------------------------------------------

fn action() -> Value {
    yaml(&read("action.yml"))
}

/// Runs a step's `run` script with bash as the runner does (`bash -eo pipefail`), its `env`
/// taking `${{ inputs.x }}` from `inputs`, and the built toolcheck first on `PATH`.
fn run_step(step: &Value, inputs: &dyn Fn(&str) -> String) -> (i32, String, String) {
    run_step_with(step, inputs, &[])
}

/// [`run_step`] with more of the runner's environment (`RUNNER_OS`, `GITHUB_PATH`, ...).
fn run_step_with(
    step: &Value,
    inputs: &dyn Fn(&str) -> String,
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let binary = Path::new(env!("CARGO_BIN_EXE_toolcheck"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut command = std::process::Command::new("bash");
    command
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c"])
        .arg(step["run"].as_str().unwrap())
        .current_dir(root())
        .env("PATH", path)
        .env("NO_COLOR", "1");
    for (name, value) in step["env"].as_object().into_iter().flatten() {
        let value = value.as_str().unwrap();
        let input = value
            .strip_prefix("${{ inputs.")
            .and_then(|rest| rest.strip_suffix(" }}"))
            .unwrap_or_else(|| panic!("{value}"));
        command.env(name, inputs(input));
    }
    command.envs(env.iter().copied());
    let output = command.output().expect("bash runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
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
        ("snapshot-check", ""),
        ("install", "release"),
        ("version", env!("CARGO_PKG_VERSION")),
        ("release-url", ""),
    ] {
        assert_eq!(input_default(&action, input), default, "{input}");
        assert!(
            action["inputs"][input]["description"].is_string(),
            "{input}"
        );
    }
    let steps = action["runs"]["steps"].as_array().unwrap();
    let named = |name: &str| {
        steps
            .iter()
            .find(|step| step["name"] == name)
            .unwrap_or_else(|| panic!("no step {name}"))
    };
    assert!(
        steps
            .iter()
            .all(|step| step["shell"] == "bash" || step["uses"].is_string())
    );
    // The binary is cached by the action's sources; the build runs only on a miss.
    let cache = named("Cache toolcheck");
    assert!(
        cache["uses"]
            .as_str()
            .unwrap()
            .starts_with("actions/cache@")
    );
    assert_eq!(cache["with"]["path"], "~/.cargo/bin/toolcheck");
    assert_eq!(cache["with"]["key"], "${{ steps.key.outputs.key }}");
    // The default path downloads a release: every step that runs cargo is for `install: cargo`.
    let download = named("Download toolcheck");
    assert_eq!(download["if"], "inputs.install == 'release'");
    for step in steps {
        let runs_cargo = |run: &str| run.lines().any(|line| line.trim().starts_with("cargo "));
        if step["run"].as_str().is_some_and(runs_cargo) {
            let condition = step["if"].as_str().unwrap_or_default();
            assert!(condition.starts_with("inputs.install == 'cargo'"), "{step}");
        }
    }
    let install = named("Install toolcheck");
    assert_eq!(
        install["run"],
        "cargo install --locked --path \"$GITHUB_ACTION_PATH\""
    );
    assert_eq!(
        install["if"],
        "inputs.install == 'cargo' && steps.cache.outputs.cache-hit != 'true'"
    );
    let sarif = named("Write SARIF");
    assert_eq!(sarif["if"], "inputs.sarif-file != ''");
    // The lint step comes last, so its exit code is the action's.
    let lint = steps.last().unwrap();
    assert_eq!(lint["name"], "Lint");
    assert!(lint["if"].is_null());
}

#[test]
fn action_cache_key_hashes_the_sources() {
    let action = action();
    let steps = action["runs"]["steps"].as_array().unwrap();
    let key_step = steps.iter().find(|step| step["id"] == "key").unwrap();
    let dir = scratch("action-key");
    let output = dir.join("output");
    let run = |action_path: &Path| {
        std::fs::write(&output, "").unwrap();
        let status = std::process::Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c"])
            .arg(key_step["run"].as_str().unwrap())
            .env("GITHUB_ACTION_PATH", action_path)
            .env("GITHUB_OUTPUT", &output)
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::read_to_string(&output).unwrap()
    };
    let key = run(root());
    assert!(key.starts_with("key=toolcheck-Linux-X64-"), "{key}");
    assert_eq!(
        key.trim().len(),
        "key=toolcheck-Linux-X64-".len() + 16,
        "{key}"
    );
    assert_eq!(run(root()), key, "the same sources give the same key");

    // Everything build.rs watches (and compiles into the binary) is under a hashed folder.
    let script = key_step["run"].as_str().unwrap();
    let hashed: Vec<&str> = script
        .split("find ")
        .nth(1)
        .and_then(|rest| rest.split(" -type").next())
        .expect("the key hashes `find <paths> -type f`")
        .split_whitespace()
        .collect();
    let build = read("build.rs");
    let watched: Vec<&str> = build
        .split("cargo:rerun-if-changed=")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|path| !path.starts_with('{'))
        .collect();
    assert!(watched.contains(&"targets"), "{watched:?}");
    for path in watched {
        assert!(
            hashed
                .iter()
                .any(|folder| path == *folder || path.starts_with(&format!("{folder}/"))),
            "build.rs reads {path}, which the action's cache key does not hash: {hashed:?}"
        );
    }
}

#[test]
fn action_command_lines_work_on_the_fixtures() {
    let action = action();
    let steps = action["runs"]["steps"].as_array().unwrap();
    let step = |name: &str| steps.iter().find(|step| step["name"] == name).unwrap();
    let dir = scratch("action");
    let sarif_path = dir.join("out file.sarif");
    let inputs = |name: &str| match name {
        "paths" => "fixtures/examples fixtures/names/duplicate-tool-name/invalid.yaml".to_string(),
        "sarif-file" => sarif_path.display().to_string(),
        other => input_default(&action, other),
    };

    let (code, stdout, stderr) = run_step(step("Lint"), &inputs);
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

    // Extra args are split on white space, and a glob character is passed as written.
    let with_args = |name: &str| match name {
        "args" => "--select TC209  --severity TC209=warning".to_string(),
        other => inputs(other),
    };
    let (code, stdout, stderr) = run_step(step("Lint"), &with_args);
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
    let globbed = |name: &str| match name {
        "paths" => "fixtures/examples/*.json".to_string(),
        other => inputs(other),
    };
    let (code, _, stderr) = run_step(step("Lint"), &globbed);
    assert_eq!(code, 2, "not expanded by the shell: {stderr}");

    // The SARIF step writes a log (to a path with a space) and never fails the job.
    let (code, _, stderr) = run_step(step("Write SARIF"), &inputs);
    assert_eq!(code, 0, "{stderr}");
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&sarif_path).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    assert!(!log["runs"][0]["results"].as_array().unwrap().is_empty());
    // A usage error writes nothing: the empty file is removed, so the upload is skipped.
    let broken = |name: &str| match name {
        "args" => "--select NO_SUCH_RULE".to_string(),
        other => inputs(other),
    };
    let (code, _, stderr) = run_step(step("Write SARIF"), &broken);
    assert_eq!(code, 0, "{stderr}");
    assert!(!sarif_path.exists(), "an empty SARIF file is removed");
}

#[test]
fn readme_action_snippets_use_real_inputs() {
    let action = action();
    let workflows: Vec<Value> = readme_blocks("yaml")
        .iter()
        .filter(|block| block.contains("jobs:"))
        .map(|block| yaml(block))
        .collect();
    assert_eq!(
        workflows.len(),
        4,
        "annotations, code scanning, diff (Reviewing a change) and snapshot check recipes"
    );
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
        // Pinned to this version's tag, whose release the action downloads by default.
        let uses = ours["uses"].as_str().unwrap();
        assert!(
            uses.ends_with(&format!("/toolcheck@v{}", env!("CARGO_PKG_VERSION"))),
            "{uses}"
        );
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
            // Skipped when toolcheck wrote no log (the action removes the empty file).
            let condition = upload["if"].as_str().unwrap();
            assert!(condition.contains("always()") && condition.contains("hashFiles("));
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

// ---- packages: the prebuilt hook, completions, man pages -----------------------------------

#[test]
fn prebuilt_hook_matches_the_source_hook() {
    let source = yaml(&read(".pre-commit-hooks.yaml"));
    let prebuilt = yaml(&read("pre-commit-mirror/.pre-commit-hooks.yaml"));
    let (source, prebuilt) = (&source[0], &prebuilt[0]);
    assert_eq!(prebuilt["id"], "toolcheck");
    // Installs the wheel into a Python environment instead of building with cargo.
    assert_eq!(prebuilt["language"], "python");
    for key in ["name", "entry", "files", "exclude", "require_serial"] {
        assert_eq!(prebuilt[key], source[key], "{key}");
    }
    // The hook package pins the wheel of the version its tag names.
    let pyproject = read("pre-commit-mirror/pyproject.toml");
    assert!(
        pyproject.contains(r#"version = "@VERSION@""#),
        "{pyproject}"
    );
    assert!(
        pyproject.contains(r#""toolcheck==@VERSION@""#),
        "{pyproject}"
    );
}

#[test]
fn completions_cover_every_shell_and_command() {
    for (shell, marker) in [
        ("bash", "_toolcheck()"),
        ("zsh", "#compdef toolcheck"),
        ("fish", "complete -c toolcheck"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[toolcheck]"),
    ] {
        let (code, stdout, stderr) = toolcheck(root(), &["completions", shell]);
        assert_eq!(code, 0, "{shell}: {stderr}");
        assert!(stdout.contains(marker), "{shell}: {stdout}");
        // A command and one of its flags: the script is made from the arguments clap reads.
        assert!(stdout.contains("lint"), "{shell}");
        assert!(stdout.contains("max-warnings"), "{shell}");
    }
    let (code, _, stderr) = toolcheck(root(), &["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("bash"), "{stderr}");
}

#[test]
fn man_pages_name_the_version_and_each_commands_flags() {
    let version = env!("CARGO_PKG_VERSION");
    let (code, page, _) = toolcheck(root(), &["man"]);
    assert_eq!(code, 0);
    assert!(
        page.contains(&format!(".TH toolcheck 1  \"toolcheck {version}\"")),
        "{page}"
    );
    assert!(page.contains("toolcheck\\-lint(1)"), "{page}");
    let (code, page, _) = toolcheck(root(), &["man", "lint"]);
    assert_eq!(code, 0);
    assert!(
        page.contains(&format!(".TH toolcheck-lint 1  \"toolcheck {version}\"")),
        "{page}"
    );
    assert!(page.contains("\\fB\\-\\-max\\-warnings\\fR"), "{page}");
    let (code, page, stderr) = toolcheck(root(), &["man", "lnit"]);
    assert_eq!((code, page.as_str()), (2, ""));
    assert!(
        stderr.contains("no command `lnit`: toolcheck's commands are lint, tokens"),
        "{stderr}"
    );
    // The man command is for packagers: not in the help a user reads.
    let (_, help, _) = toolcheck(root(), &["--help"]);
    assert!(
        help.contains("completions") && !help.contains("  man "),
        "{help}"
    );
}

/// Serves the files of `dir` over HTTP on 127.0.0.1 (a stand-in for a GitHub release), one
/// request per connection, until the test ends; returns the base URL.
fn serve(dir: PathBuf) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = String::new();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            if reader.read_line(&mut request).is_err() {
                continue;
            }
            // Drain the headers; curl waits for them to be read on some systems.
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = request.split_whitespace().nth(1).unwrap_or("/");
            let file = dir.join(path.trim_start_matches('/'));
            let response = match std::fs::read(&file) {
                Ok(body) if !path.contains("..") => {
                    let mut head = format!(
                        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        body.len()
                    )
                    .into_bytes();
                    head.extend(body);
                    head
                }
                _ => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .to_vec(),
            };
            let _ = stream.write_all(&response);
        }
    });
    url
}

/// A release as scripts/build-dist.sh lays it out, for x86_64 Linux: the archive with the built
/// binary in it, and its `.sha256`.
fn release(dir: &Path, version: &str) -> String {
    let name = format!("toolcheck-{version}-x86_64-unknown-linux-musl");
    std::fs::create_dir_all(dir.join(&name)).unwrap();
    std::fs::copy(
        env!("CARGO_BIN_EXE_toolcheck"),
        dir.join(&name).join("toolcheck"),
    )
    .unwrap();
    let archive = format!("{name}.tar.gz");
    let status = std::process::Command::new("tar")
        .args(["-czf", &archive, &name])
        .current_dir(dir)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::remove_dir_all(dir.join(&name)).unwrap();
    let sum = std::process::Command::new("sha256sum")
        .arg(&archive)
        .current_dir(dir)
        .output()
        .unwrap();
    std::fs::write(dir.join(format!("{archive}.sha256")), sum.stdout).unwrap();
    archive
}

#[test]
fn action_downloads_the_release_and_checks_its_checksum() {
    let action = action();
    let steps = action["runs"]["steps"].as_array().unwrap();
    let download = steps
        .iter()
        .find(|step| step["name"] == "Download toolcheck")
        .unwrap();
    let version = env!("CARGO_PKG_VERSION");
    let served = scratch("action-release");
    let archive = release(&served, version);
    let url = serve(served.clone());
    let run = |name: &str, release_url: &str| {
        let runner = scratch(&format!("action-runner-{name}"));
        let github_path = runner.join("github_path");
        std::fs::write(&github_path, "").unwrap();
        let inputs = |input: &str| match input {
            "version" => format!("v{version}"),
            "release-url" => release_url.to_string(),
            _ => panic!("{input}"),
        };
        let (code, stdout, _) = run_step_with(
            download,
            &inputs,
            &[
                ("RUNNER_OS", "Linux"),
                ("RUNNER_ARCH", "X64"),
                ("RUNNER_TEMP", runner.to_str().unwrap()),
                ("GITHUB_PATH", github_path.to_str().unwrap()),
                ("GITHUB_ACTION_REPOSITORY", "acme/toolcheck"),
            ],
        );
        (code, stdout, std::fs::read_to_string(&github_path).unwrap())
    };

    // The release: downloaded, checked, unpacked, and its folder put on PATH.
    let (code, stdout, path) = run("good", &url);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains(&format!("toolcheck {version}")), "{stdout}");
    let installed = Path::new(path.trim()).join("toolcheck");
    let output = std::process::Command::new(&installed)
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!("toolcheck {version}")
    );

    // A checksum that does not match: nothing is unpacked or put on PATH.
    let sums = served.join(format!("{archive}.sha256"));
    let good = std::fs::read_to_string(&sums).unwrap();
    std::fs::write(&sums, format!("{}{}", "0".repeat(64), &good[64..])).unwrap();
    let (code, stdout, path) = run("tampered", &url);
    std::fs::write(&sums, good).unwrap();
    assert_eq!(code, 1);
    assert!(
        stdout.contains(&format!(
            "::error title=toolcheck::{archive} does not match its checksum"
        )),
        "{stdout}"
    );
    assert_eq!(path, "");

    // No such release: the error says what to do.
    let (code, stdout, path) = run("missing", &format!("{url}/nothing-here"));
    assert_eq!(code, 1);
    assert!(
        stdout.contains("cannot download") && stdout.contains("install: cargo"),
        "{stdout}"
    );
    assert_eq!(path, "");
}

#[test]
fn release_builds_every_target_the_packages_and_the_action_name() {
    let release = yaml(&read(".github/workflows/release.yml"));
    let mut built: Vec<&str> = release["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["target"].as_str().unwrap())
        .collect();
    built.sort_unstable();
    let platforms: Value = serde_json::from_str(&read("npm/platforms.json")).unwrap();
    let mut packaged: Vec<&str> = platforms
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    packaged.sort_unstable();
    assert_eq!(
        built, packaged,
        "release.yml's matrix against npm/platforms.json"
    );
    // Every archive the Action downloads is one the release attaches.
    let action = read("action.yml");
    let downloaded: Vec<&str> = regex::Regex::new(r"\) target=([a-z0-9_-]+) ;;")
        .unwrap()
        .captures_iter(&action)
        .map(|captures| captures.get(1).unwrap().as_str())
        .collect();
    assert_eq!(downloaded.len(), 5, "{downloaded:?}");
    for target in downloaded {
        assert!(built.contains(&target), "{target}");
    }
}
