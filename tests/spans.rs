//! Findings point at the exact words or key, through folded YAML blocks, JSON escapes and
//! deep schemas.

mod common;

use std::path::Path;

fn lint(fixture: &str, rule: &str) -> toolcheck::lint::FileReport {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/spans")
        .join(fixture);
    common::lint_with_rule(&path, &format!("fixtures/spans/{fixture}"), rule)
}

/// (text under the span, line, column) of each finding.
fn located(report: &toolcheck::lint::FileReport) -> Vec<(String, usize, usize)> {
    report
        .diagnostics
        .iter()
        .map(|d| {
            let at = d.file.line_column(d.span.start);
            (d.file.text[d.span.clone()].to_string(), at.line, at.column)
        })
        .collect()
}

#[test]
fn word_inside_a_folded_block() {
    let report = lint("folded.tool.yaml", "absolute-words");
    // Line 4 follows a line of umlauts, an em dash and CJK: columns count chars, not bytes.
    assert_eq!(located(&report), [("always".to_string(), 4, 7)]);
    insta::assert_snapshot!(common::render_human(&report.diagnostics));
}

#[test]
fn word_inside_a_json_string_after_escapes() {
    let report = lint("escaped.tools.json", "absolute-words");
    assert_eq!(located(&report), [("always".to_string(), 1, 88)]);
    insta::assert_snapshot!(common::render_human(&report.diagnostics));
}

#[test]
fn property_key_deep_in_a_schema() {
    let report = lint("deep.tool.yaml", "secret-like-field-names");
    assert_eq!(
        located(&report),
        [("\"refresh_token\"".to_string(), 14, 15)]
    );
    assert_eq!(
        report.diagnostics[0].pointer,
        "/input_schema/properties/target/properties/cluster/items/properties/refresh_token"
    );
    insta::assert_snapshot!(common::render_human(&report.diagnostics));
}
