//! The README's copy-paste snippets work as the README says.

mod common;

use std::path::Path;

use toolcheck::catalog::Registry;
use toolcheck::catalog::docs::{self, Part};
use toolcheck::config::Config;
use toolcheck::lint::{Linter, Overrides};
use toolcheck::read::source::SourceFile;

/// The README section that starts with `heading`, up to the next `## ` heading.
fn section(heading: &str) -> String {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme
        .find(heading)
        .unwrap_or_else(|| panic!("README has no `{heading}`"));
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

/// Every ```console block of the README: each `$ toolcheck ...` line, run from the repository
/// root (no colors, 80 columns), prints exactly the lines under it.
#[test]
fn console_blocks_print_what_the_readme_shows() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
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
