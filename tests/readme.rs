//! The README's copy-paste snippets work as the README says.

mod common;

use std::path::{Component, Path, PathBuf};

use serde_json::Value;
use toolcheck::catalog::Registry;
use toolcheck::catalog::docs::{self, Part};
use toolcheck::config::Config;
use toolcheck::lint::{Linter, Overrides};
use toolcheck::parse::source::SourceFile;
use toolcheck::read::discover::DiscoveryMode;

/// The fenced blocks of `lang` in the README section that starts with `heading`.
fn section_blocks(heading: &str, lang: &str) -> Vec<String> {
    blocks(&section(heading), lang)
}

/// The section of the README or a docs page that starts with `heading`, up to the next `## `
/// heading.
fn section(heading: &str) -> String {
    let readme = common::docs();
    let start = readme
        .find(heading)
        .unwrap_or_else(|| panic!("the docs have no `{heading}`"));
    let section = &readme[start + heading.len()..];
    section[..section.find("\n## ").unwrap_or(section.len())].to_string()
}

/// The fenced code blocks of `text` whose info string is `language`. A block opened with
/// four backticks holds blocks of three (a rule file's docs) and ends at four.
fn blocks(text: &str, language: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut open: Option<(usize, bool, String)> = None;
    for line in text.lines() {
        let fence = line.chars().take_while(|&c| c == '`').count();
        match &mut open {
            Some((length, _, _)) if fence >= *length && line.trim_end().len() == fence => {
                if let Some((_, true, code)) = open.take() {
                    found.push(code);
                }
            }
            Some((_, _, code)) => {
                code.push_str(line);
                code.push('\n');
            }
            None if fence >= 3 => {
                open = Some((fence, line[fence..].trim() == language, String::new()))
            }
            None => {}
        }
    }
    found
}

/// The fenced ```yaml blocks of the README section that starts with `heading`.
fn yaml_blocks(heading: &str) -> Vec<String> {
    blocks(&section(heading), "yaml")
}

#[test]
fn the_suppression_example_silences_every_finding_it_names() {
    let blocks = yaml_blocks("## Suppressions");
    let report = common::lint_text("readme.tool.yaml", &blocks[0]);
    assert!(
        report.diagnostics.is_empty(),
        "{}",
        common::render_human(&report.diagnostics)
    );
    let silenced: Vec<(&str, Option<&str>)> = report
        .suppressed
        .iter()
        .map(|s| (&*s.diagnostic.code, s.reason.as_deref()))
        .collect();
    assert_eq!(
        silenced,
        [
            (
                "TC207",
                Some("vendor copy; its host prompt says when not to call it")
            ),
            ("TC209", Some("quoted from the upstream README")),
            ("TC209", None),
        ]
    );
    let config = Config::parse(
        SourceFile::new("toolcheck.yaml", blocks[1].clone()),
        ".".into(),
    )
    .unwrap();
    assert_eq!(config.per_file_ignores.len(), 2);
}

#[test]
fn the_configuration_example_is_a_valid_config() {
    let block = &yaml_blocks("## Configuration")[0];
    let config =
        Config::parse(SourceFile::new("toolcheck.yaml", block.clone()), ".".into()).unwrap();
    assert_eq!(config.exclude, ["vendor/**"]);
    assert_eq!(config.options.len(), 3);
}

/// The team rule of "Writing your own rules", set up as the README says in a scratch folder:
/// it loads, fires on the example manifest with the output shown, its doc examples behave, and
/// the commands of "Testing a rule" exit as their comments say.
#[test]
fn the_team_rule_example_loads_and_fires() {
    let text = section("## Writing your own rules");
    let yaml = blocks(&text, "yaml");
    let [config, rule_file, manifest] = &yaml[..] else {
        panic!("expected toolcheck.yaml, the rule file and a manifest, got {yaml:#?}");
    };
    let dir = common::scratch("readme-team-rule");
    for (path, contents) in [
        ("toolcheck.yaml", config),
        ("team-rules/internal-codename.yaml", rule_file),
        ("tools/search.tool.yaml", manifest),
    ] {
        assert!(text.contains(&format!("`{path}`")), "README names {path}");
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }

    let (code, stdout, stderr) = common::run(&dir, &["lint", "tools/search.tool.yaml"], None);
    assert_eq!(code, 0, "{stderr}");
    // The README shows the output from its start (a footer may follow).
    let shown = &blocks(&text, "text")[0];
    assert!(
        stdout.starts_with(shown.as_str()),
        "README shows:\n{shown}\ntoolcheck prints:\n{stdout}"
    );

    // The `## Example` block is flagged and the `Use instead` block is not, with all rules on.
    let config =
        Config::load(&dir.join("toolcheck.yaml")).unwrap_or_else(|error| panic!("{error}"));
    let mut registry = Registry::builtin().unwrap();
    registry.add_rulesets(&config.rulesets).unwrap();
    let rule = registry.find("ACME101").expect("the team rule loads");
    let linter = Linter::new(&registry, &config, &Overrides::default()).unwrap();
    let examples = docs::examples(&rule.meta.docs);
    assert_eq!(examples.len(), 2, "{examples:#?}");
    std::fs::create_dir_all(dir.join("team-rules/tests")).unwrap();
    for example in &examples {
        let report = linter.lint(SourceFile::new("example.yaml", example.code.clone()), false);
        let codes: Vec<&str> = report.diagnostics.iter().map(|d| &*d.code).collect();
        let (file, expected): (&str, &[&str]) = match example.part {
            Part::Example => ("bad.yaml", &["ACME101"]),
            Part::UseInstead => ("good.yaml", &[]),
        };
        assert_eq!(
            codes, expected,
            "{:?} block:\n{}",
            example.part, example.code
        );
        std::fs::write(dir.join("team-rules/tests").join(file), &example.code).unwrap();
    }

    let commands = &blocks(&text, "sh")[0];
    let mut ran = 0;
    for line in commands.lines() {
        let (command, comment) = line
            .split_once('#')
            .expect("each command says its exit code");
        let expected: i32 = comment
            .trim()
            .strip_prefix("exit ")
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("no `# exit N` in {line}"));
        let args: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(args[0], "toolcheck", "{line}");
        let (code, stdout, stderr) = common::run(&dir, &args[1..], None);
        assert_eq!(code, expected, "{line}\n{stdout}{stderr}");
        ran += 1;
    }
    assert_eq!(ran, 3);
}

/// Every ```console block of the README and docs/: each `$ toolcheck ...` line, run from the
/// repository root (no colors, 80 columns), prints exactly the lines under it.
#[test]
fn console_blocks_print_what_the_readme_shows() {
    let readme = common::docs();
    let blocks = blocks(&readme, "console");
    assert!(
        blocks.len() >= 3,
        "the README's console examples: {}",
        blocks.len()
    );
    for block in blocks {
        let mut sessions: Vec<(String, String)> = Vec::new();
        for line in block.lines() {
            match line.strip_prefix("$ ") {
                Some(command) => sessions.push((command.to_string(), String::new())),
                None => {
                    let (_, output) = sessions.last_mut().expect("a block starts with `$ `");
                    output.push_str(line);
                    output.push('\n');
                }
            }
        }
        for (command, expected) in sessions {
            let words: Vec<&str> = command.split_whitespace().collect();
            assert_eq!(words[0], "toolcheck", "{command}");
            let (_, stdout, _) = common::run(common::root(), &words[1..], None);
            assert_eq!(stdout, expected, "`{command}` prints something else");
        }
    }
}

// ---- Which files are linted --------------------------------------------------------------

/// `path` with `.` and `..` resolved in the text.
fn normal(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                normal.pop();
            }
            Component::CurDir => {}
            other => normal.push(other),
        }
    }
    normal
}

/// Runs a README command line (`[cd DIR && ]toolcheck lint ...`) in a shell in `root`, with
/// JSON output; returns the files it linted, named from `root`, and whether TC209 of
/// `servers/cf.json` was suppressed each time it was linted.
fn linted_from_root(root: &Path, line: &str) -> (Vec<String>, bool) {
    let (cd, command) = match line.split_once(" && ") {
        Some((cd, command)) => (cd.strip_prefix("cd ").unwrap(), command),
        None => (".", line),
    };
    let command = command.replacen(
        "toolcheck lint",
        &format!("'{}' lint --format json", env!("CARGO_BIN_EXE_toolcheck")),
        1,
    );
    let output = std::process::Command::new("sh")
        .args(["-c", &format!("cd {cd} && {command}")])
        .current_dir(root)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let document: Value = serde_json::from_str(&stdout).unwrap_or_else(|error| {
        panic!(
            "{line}: {error}: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let mut files = Vec::new();
    let mut cf_suppressed = true;
    for (key, suppressed) in [("diagnostics", false), ("suppressed", true)] {
        for finding in document[key].as_array().into_iter().flatten() {
            let name = Path::new(finding["file"].as_str().unwrap());
            let from_root = match name.strip_prefix(root) {
                Ok(below) => below.to_path_buf(),
                Err(_) => normal(&Path::new(cd).join(name)),
            };
            let from_root = from_root.display().to_string();
            if from_root == "servers/cf.json" && finding["code"] == "TC209" {
                cf_suppressed &= suppressed;
            }
            files.push(from_root);
        }
    }
    files.sort();
    files.dedup();
    (files, cf_suppressed)
}

#[test]
fn the_path_examples_lint_what_their_comments_say() {
    let config = &yaml_blocks("## Which files are linted")[0];
    let root = common::scratch("readme-paths");
    std::fs::write(root.join("toolcheck.yaml"), config).unwrap();
    for file in [
        "tools/search/web.yaml",
        "tools/misc/calc.yaml",
        "tools/legacy/old.yaml",
    ] {
        let path = root.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            path,
            "name: web\ndescription: Always search. Not for code.\ninput_schema: {type: object}\n",
        )
        .unwrap();
    }
    std::fs::create_dir_all(root.join("servers")).unwrap();
    for file in ["servers/cf.json", "servers/other.json"] {
        std::fs::write(
            root.join(file),
            r#"{"name": "cf", "description": "Always deploy. Not for code.", "inputSchema": {"type": "object"}}"#,
        )
        .unwrap();
    }
    let lines: Vec<String> = section_blocks("## Which files are linted", "sh")
        .iter()
        .flat_map(|block| block.lines().map(str::to_string).collect::<Vec<_>>())
        .collect();
    assert_eq!(lines.len(), 9);
    for line in lines {
        let (command, comment) = line.split_once('#').unwrap();
        let expected: Vec<String> = comment.split_whitespace().map(str::to_string).collect();
        let (files, cf_suppressed) = linted_from_root(&root, command.trim());
        assert_eq!(files, expected, "{line}");
        assert!(cf_suppressed, "{line}: per-file-ignores of servers/cf.json");
    }
}

#[test]
fn the_capture_directory_hint_is_what_toolcheck_prints() {
    let heading = "### Directories of tool files with other names";
    let text = &section_blocks(heading, "text")[0];
    let (command, expected) = text.split_once('\n').unwrap();
    assert_eq!(command, "$ toolcheck lint mcp");
    let root = common::scratch("readme-captures");
    std::fs::create_dir_all(root.join("mcp")).unwrap();
    for server in ["filesystem", "github", "slack"] {
        std::fs::write(
            root.join(format!("mcp/{server}.json")),
            format!(r#"{{"tools": [{{"name": "{server}_search", "inputSchema": {{"type": "object"}}}}]}}"#),
        )
        .unwrap();
    }
    let (code, stdout, stderr) = common::run(&root, &["lint", "mcp"], None);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(stderr, expected);

    let config = Config::parse(
        SourceFile::new("toolcheck.yaml", yaml_blocks(heading)[0].clone()),
        ".".into(),
    )
    .unwrap();
    assert_eq!(config.discovery, DiscoveryMode::Content);
    std::fs::write(root.join("toolcheck.yaml"), &yaml_blocks(heading)[0]).unwrap();
    let (code, stdout, stderr) = common::run(&root, &["lint", "--format", "json", "mcp"], None);
    assert!(code == 0 || code == 1, "{stderr}");
    let document: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(document["summary"]["files"], 3);
}

#[test]
fn the_config_errors_example_is_what_toolcheck_prints() {
    let config = &yaml_blocks("## Configuration")[1];
    let expected = &section_blocks("## Configuration", "text")[0];
    let root = common::scratch("readme-config-errors");
    std::fs::write(root.join("toolcheck.yaml"), config).unwrap();
    let (code, stdout, stderr) = common::run(&root, &["lint"], None);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(&stderr, expected);
}

#[test]
fn init_example_beside_a_config_does_what_the_readme_says() {
    let block = section_blocks("## Configuration", "sh")
        .into_iter()
        .find(|block| block.starts_with("# in a project that has its toolcheck.yaml"))
        .expect("the init snippet for a project with a config");
    let line = block.lines().nth(1).unwrap();
    let (command, comment) = line.split_once('#').unwrap();
    let root = common::scratch("readme-init-beside");
    std::fs::write(root.join("toolcheck.yaml"), "tokenizer: o200k_base\n").unwrap();
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let (code, stdout, stderr) = common::run(&root, &args, None);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.trim_end().replace('\n', ", "), comment.trim());
}

/// Every subcommand of `toolcheck --help` and every long option of each subcommand's `--help`
/// appears in the README or a page of docs/ (a new flag fails this test until it is
/// documented).
#[test]
fn every_command_and_option_is_documented() {
    let docs = common::docs();
    let documented = |word: &str| {
        docs.match_indices(word).any(|(at, _)| {
            !docs[at + word.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
        })
    };
    let help = |args: &[&str]| common::run(common::root(), args, None).1;
    let top = help(&["--help"]);
    let commands = top
        .split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("Options:").next())
        .expect("the help lists the commands");
    let commands: Vec<&str> = commands
        .lines()
        .filter_map(|line| line.strip_prefix("  ")?.split_whitespace().next())
        .filter(|command| *command != "help")
        .collect();
    assert!(commands.len() >= 9, "{commands:?}");
    let mut missing = Vec::new();
    for command in commands {
        if !documented(&format!("toolcheck {command}")) {
            missing.push(format!("toolcheck {command}"));
        }
        let text = help(&[command, "--help"]);
        let mut options: Vec<&str> = text
            .split_whitespace()
            .filter_map(|word| {
                let flag =
                    word.trim_start_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-');
                let end = flag[2.min(flag.len())..]
                    .find(|c: char| !c.is_ascii_alphanumeric() && c != '-')
                    .map_or(flag.len(), |end| end + 2);
                let flag = &flag[..end];
                (flag.starts_with("--") && flag.len() > 2).then_some(flag)
            })
            .filter(|flag| !matches!(*flag, "--help" | "--version"))
            .collect();
        options.sort_unstable();
        options.dedup();
        for option in options {
            if !documented(option) {
                missing.push(format!("toolcheck {command} {option}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not in the README or docs/: {missing:?}"
    );
}
