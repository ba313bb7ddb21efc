//! Rule codes in human output are terminal hyperlinks (OSC 8) to the rules' pages, only when
//! asked (`FORCE_HYPERLINK`), with colors on, and when the pages have a home: never otherwise,
//! not even as text. Drawing the link is tested in src/render/human.rs.

mod common;

use std::process::Command;

const OSC8: &str = "\u{1b}]8;;";

fn lint_human(color: &str, force: Option<&str>) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolcheck"));
    command
        .args([
            "lint",
            "--no-config",
            "--color",
            color,
            "fixtures/examples/search.tools.json",
        ])
        .current_dir(common::root())
        .env_remove("NO_COLOR")
        .env_remove("FORCE_HYPERLINK");
    if let Some(value) = force {
        command.env("FORCE_HYPERLINK", value);
    }
    let output = command.output().expect("the binary runs");
    assert_eq!(output.status.code(), Some(1));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn links_are_drawn_only_when_asked_and_colored() {
    let asked = lint_human("always", Some("1"));
    match toolcheck::catalog::pages::url("TC207", "missing-anti-trigger") {
        Some(page) => assert!(asked.contains(&format!("{OSC8}{page}")), "{asked:?}"),
        // Cargo.toml's `repository` is still the placeholder: no page to link to.
        None => assert!(
            !asked.contains(OSC8) && !asked.contains("https://"),
            "{asked:?}"
        ),
    }
    for (color, force) in [
        ("always", None),
        ("always", Some("0")),
        ("never", Some("1")),
        // Not a terminal, so no colors and no links.
        ("auto", Some("1")),
    ] {
        let output = lint_human(color, force);
        assert!(
            !output.contains(OSC8),
            "--color {color}, FORCE_HYPERLINK={force:?}: {output:?}"
        );
    }
}

/// Until Cargo.toml's `repository` is the project's home, nothing the binary prints names the
/// placeholder owner or a page URL (SARIF's rules point at `toolcheck explain` instead).
#[test]
fn no_output_names_the_placeholder_home() {
    if toolcheck::catalog::pages::base_url().is_some() {
        return;
    }
    let examples = "fixtures/examples";
    let mut runs: Vec<Vec<&str>> = ["full", "concise", "json", "sarif", "github"]
        .into_iter()
        .map(|format| vec!["lint", "--no-config", "--format", format, examples])
        .collect();
    runs.extend([
        vec!["lint", "--no-config", "--statistics", examples],
        vec!["explain", "TC209"],
        vec!["explain", "--target", "openai"],
        vec!["rules"],
        vec!["--help"],
        vec!["lint", "--help"],
        vec!["--version"],
        vec!["tokens", examples],
        vec!["compat", examples],
    ]);
    for args in runs {
        let (_, stdout, stderr) = common::run(common::root(), &args, None);
        for text in [&stdout, &stderr] {
            assert!(
                !text.contains("OWNER") && !text.contains("github.com/"),
                "`toolcheck {}` prints a link: {text}",
                args.join(" ")
            );
        }
    }
    let (_, sarif, _) = common::run(
        common::root(),
        &["lint", "--no-config", "--format", "sarif", examples],
        None,
    );
    assert!(
        sarif.contains(
            "Run `toolcheck explain TC209` for the full documentation \
             (docs/rules/TC209-absolute-words.md in toolcheck's repository)."
        ),
        "{sarif}"
    );
    assert!(!sarif.contains("helpUri"));
}
