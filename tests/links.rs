//! Rule codes in human output are terminal hyperlinks (OSC 8) to the rules' pages, only when
//! asked (`FORCE_HYPERLINK`) and with colors on; never otherwise, not even as text.

mod common;

use std::process::Command;

use toolcheck::render::human::{self, Style};

const OSC8: &str = "\u{1b}]8;;";

fn page(code_and_name: &str) -> String {
    let (code, name) = code_and_name.split_once('-').unwrap();
    toolcheck::catalog::pages::url(code, name).unwrap()
}

#[test]
fn the_code_links_to_the_rule_page_when_links_are_on() {
    let report = common::lint_text(
        "run.tool.yaml",
        "name: run_tests\ndescription: Always run the suite. Not for docs-only changes.\n\
         input_schema: { type: object }\n",
    );
    assert!(!report.diagnostics.is_empty());
    let draw = |links| {
        let style = Style {
            color: false,
            links,
            width: 80,
        };
        human::render(report.diagnostics.iter(), &Default::default(), style, true)
    };
    let linked = draw(true);
    let url = page("TC209-absolute-words");
    assert!(
        linked.contains(&format!(
            "{OSC8}{url}\u{1b}\\TC209 absolute-words \u{1b}]8;;\u{1b}\\"
        )),
        "{linked:?}"
    );
    let plain = draw(false);
    assert!(
        !plain.contains(OSC8) && !plain.contains("https://"),
        "{plain}"
    );
    // Apart from the escape sequences, both read the same.
    let stripped = linked
        .replace(&format!("{OSC8}{url}\u{1b}\\"), "")
        .replace("absolute-words \u{1b}]8;;\u{1b}\\", "absolute-words");
    assert_eq!(stripped, plain);
}

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
    assert!(
        asked.contains(&format!("{OSC8}{}", page("TC207-missing-anti-trigger"))),
        "{asked:?}"
    );
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
