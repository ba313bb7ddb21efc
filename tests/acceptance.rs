//! The example manifest of the README (`fixtures/examples/ask_user_question.tool.yaml`) lints
//! clean with every rule on; the same manifest with six flaws produces exactly one finding per
//! flaw, each at the flawed words or key.

mod common;

fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

#[test]
fn the_spec_example_lints_clean() {
    let name = "fixtures/examples/ask_user_question.tool.yaml";
    let report = common::lint_text(name, &read(name));
    assert_eq!(report.tools, 1);
    assert!(
        report.diagnostics.is_empty(),
        "{}",
        common::render_human(&report.diagnostics)
    );
}

#[test]
fn each_flaw_gives_exactly_one_finding_at_its_words() {
    let name = "fixtures/acceptance/ask_user_question_flawed.tool.yaml";
    let report = common::lint_text(name, &read(name));
    let found: Vec<(&str, &str, usize)> = report
        .diagnostics
        .iter()
        .map(|d| {
            (
                &*d.code,
                &d.file.text[d.span.clone()],
                d.file.line_column(d.span.start).line,
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("TC201", "\n", 6),
            ("TC204", "this tool", 10),
            ("TC209", "Always", 14),
            ("TC401", "anyOf", 17),
            ("TC301", "api_key", 20),
            ("TC403", "minItems", 31),
        ]
    );
    insta::assert_snapshot!(common::render_human(&report.diagnostics));
}
