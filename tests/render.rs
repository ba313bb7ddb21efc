//! The human rendering of findings on long lines and long spans: a window of the line around
//! the span, `…` on each cut side, the first lines of a long span, and every line number and
//! column the file's. The big inputs are generated here rather than committed.

mod common;

use toolcheck::diagnostic::Diagnostic;

/// No excerpt line is wider than this: the 120 chars of source, the `…` and the gutter.
const MAX_LINE: usize = 160;

fn assert_lines_bounded(output: &str) {
    for line in output.lines() {
        assert!(
            line.chars().count() <= MAX_LINE,
            "a line of {} chars: {}…",
            line.chars().count(),
            line.chars().take(200).collect::<String>()
        );
    }
}

/// The rendered reports, one per diagnostic (they are separated by blank lines and each
/// starts with the code).
fn reports(output: &str) -> Vec<&str> {
    output
        .split("\n\nTC")
        .filter(|report| !report.trim().is_empty())
        .collect()
}

/// The excerpt row (` 1 │ ...`) and the underline row below it of one report.
fn row_and_underline(report: &str) -> (&str, &str) {
    let lines: Vec<&str> = report.lines().collect();
    let row = lines
        .iter()
        .position(|line| line.trim_start().starts_with("1 │"))
        .unwrap_or_else(|| panic!("no row of line 1 in\n{report}"));
    (lines[row], lines[row + 1])
}

/// The text above the underline: `row`'s chars at the columns `underline` marks with `─`.
fn underlined(row: &str, underline: &str) -> String {
    row.chars()
        .zip(underline.chars())
        .filter(|&(_, mark)| matches!(mark, '─' | '┬'))
        .map(|(char, _)| char)
        .collect()
}

fn one_tool(description: &str) -> String {
    serde_json::json!({"tools": [{
        "name": "t",
        "description": description,
        "inputSchema": {"type": "object"},
    }]})
    .to_string()
}

fn find<'a>(diagnostics: &'a [Diagnostic], code: &str) -> Vec<&'a Diagnostic> {
    diagnostics
        .iter()
        .filter(|diagnostic| &*diagnostic.code == code)
        .collect()
}

#[test]
fn a_word_past_column_65535_is_shown_in_a_window_around_it() {
    let text = one_tool(&("x".repeat(65_520) + " ALWAYS " + &"y".repeat(500)));
    let report = common::lint_text("far.json", &text);
    let output = common::render_human(&report.diagnostics);
    assert_lines_bounded(&output);
    let absolute = find(&report.diagnostics, "TC209");
    assert_eq!(absolute.len(), 1, "{output}");
    let start = absolute[0].span.start;
    assert!(start > 65_535);
    let rendered = reports(&output)
        .into_iter()
        .find(|report| report.contains("absolute word `ALWAYS`"))
        .expect("the TC209 report");
    // The header gives the file's column, not the window's.
    assert!(
        rendered.contains(&format!("[far.json:1:{}]", start + 1)),
        "{rendered}"
    );
    let (row, underline) = row_and_underline(rendered);
    assert!(row.contains(" │ …x"), "the left side is cut: {row}");
    assert!(row.ends_with('…'), "the right side is cut: {row}");
    assert_eq!(underlined(row, underline), "ALWAYS", "{rendered}");
}

#[test]
fn the_header_column_counts_characters_as_every_other_output_does() {
    // Two `é` (two bytes each) before the flagged words: column 52 in characters, 54 in bytes.
    let text = one_tool("café café You must always do it. Not for y.");
    let report = common::lint_text("accents.json", &text);
    let output = common::render_human(&report.diagnostics);
    let absolute = find(&report.diagnostics, "TC209");
    assert_eq!(absolute.len(), 1, "{output}");
    let start = absolute[0].span.start;
    let chars = text[..start].chars().count();
    assert_eq!(start - chars, 2, "the accents are before the span");
    assert!(
        output.contains(&format!("[accents.json:1:{}]", chars + 1)),
        "{output}"
    );
}

#[test]
fn a_char_past_column_65535_in_the_binary_is_a_finding_not_a_panic() {
    let dir = common::scratch("render-spaces");
    std::fs::write(dir.join("sp.json"), " ".repeat(65_536) + "!").unwrap();
    let (code, stdout, stderr) = common::run(&dir, &["lint", "--no-config", "sp.json"], None);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("[sp.json:1:65537]"), "{stdout}");
    assert_lines_bounded(&stdout);
    let (row, underline) = row_and_underline(&stdout);
    assert!(row.ends_with(" !") && row.contains(" │ … "), "{row}");
    assert_eq!(underlined(row, underline), "!", "{stdout}");
}

#[test]
fn a_wide_span_on_a_long_line_is_underlined_to_the_cut() {
    let description = "Find pages. ".repeat(2_000);
    let text = one_tool(&description);
    let report = common::lint_text("wide.json", &text);
    let output = common::render_human(&report.diagnostics);
    assert_lines_bounded(&output);
    let too_long = find(&report.diagnostics, "TC101");
    assert_eq!(too_long.len(), 1, "{output}");
    let rendered = reports(&output)
        .into_iter()
        .find(|report| report.contains("description is"))
        .expect("the TC101 report");
    let (row, underline) = row_and_underline(rendered);
    let marked = underlined(row, underline);
    // The span starts at the description's quote and runs on past the window.
    assert!(marked.starts_with("\"Find pages. Find"), "{rendered}");
    assert!(marked.ends_with('…'), "{rendered}");
    assert!(marked.chars().count() > 60, "{rendered}");
}

#[test]
fn a_long_span_shows_its_first_lines_then_how_many_more() {
    let properties: String = (0..300)
        .map(|index| format!("    field_{index}: {{ type: string, description: Field {index} }}\n"))
        .collect();
    let text = format!(
        "name: wide\ndescription: Take many fields. Not for small talk.\ninput_schema:\n  type: object\n  properties:\n{properties}"
    );
    let report = common::lint_text("wide.yaml", &text);
    let schema = find(&report.diagnostics, "TC102");
    assert_eq!(schema.len(), 1, "{:?}", report.diagnostics);
    let span = &schema[0].span;
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let (first, last) = (line_of(span.start), line_of(span.end - 1));
    assert!(
        last - first > 100,
        "the span covers the schema: {first}..{last}"
    );
    let output = common::render_human(&[schema[0].clone()]);
    assert_lines_bounded(&output);
    // The first 4 lines of the span, one of context before it, and how many are left out.
    assert!(
        output.contains(&format!("… {} more lines", last - (first + 3))),
        "{output}"
    );
    let numbered: Vec<usize> = output
        .lines()
        .filter_map(|line| line.trim_start().split_once(" │")?.0.parse().ok())
        .collect();
    assert_eq!(
        numbered,
        (first - 1..=first + 3).collect::<Vec<_>>(),
        "{output}"
    );
    assert!(output.lines().count() < 20, "{output}");
    assert!(output.contains(&format!("[wide.yaml:{first}:")), "{output}");
}

#[test]
fn a_minified_set_with_many_findings_renders_each_in_a_few_lines() {
    // One line of 1,000 tools, each with three absolute words, and a duplicate name at the end
    // whose first definition is far back on the line.
    let mut tools: Vec<serde_json::Value> = (0..1_000)
        .map(|index| {
            serde_json::json!({
                "name": format!("tool_{index}"),
                "description": format!("Fetch item {index}. Always check it, never skip it, always retry. Not for writes."),
                "inputSchema": {"type": "object"},
            })
        })
        .collect();
    tools.push(serde_json::json!({
        "name": "tool_0",
        "description": "Fetch again. Not for writes.",
        "inputSchema": {"type": "object"},
    }));
    let text = serde_json::json!({ "tools": tools }).to_string();
    assert!(!text.contains('\n') && text.len() > 65_536 * 2);
    let report = common::lint_text("one.json", &text);
    assert!(
        report.diagnostics.len() >= 3_000,
        "{}",
        report.diagnostics.len()
    );
    let output = common::render_human(&report.diagnostics);
    assert_lines_bounded(&output);
    let rendered = reports(&output);
    assert_eq!(rendered.len(), report.diagnostics.len());
    for (diagnostic, rendered) in report.diagnostics.iter().zip(&rendered) {
        assert!(rendered.lines().count() <= 16, "{rendered}");
        // ASCII text: the header's column is the span's start.
        let header = format!("[one.json:1:{}]", diagnostic.span.start + 1);
        assert!(rendered.contains(&header), "{header} in {rendered}");
        if &*diagnostic.code == "TC209" {
            let (row, underline) = row_and_underline(rendered);
            assert_eq!(
                underlined(row, underline).to_lowercase(),
                text[diagnostic.span.clone()].to_lowercase(),
                "{rendered}"
            );
        }
    }
    // The duplicate's related location, at the first `tool_0`, is cut to a window too.
    let duplicate = find(&report.diagnostics, "TC502");
    assert_eq!(duplicate.len(), 1, "{output}");
    let first = duplicate[0].related[0].span.start;
    assert!(
        output.contains(&format!("[one.json:1:{}]", first + 1)),
        "{output}"
    );
}

#[test]
fn a_config_error_on_a_long_line_is_shown_in_a_window() {
    let dir = common::scratch("render-config");
    let selectors = "TC209, ".repeat(10_000);
    std::fs::write(
        dir.join("toolcheck.yaml"),
        format!("rules:\n  select: [{selectors}TC999]\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("a.tool.yaml"),
        "name: a\ndescription: Do a. Not for b.\n",
    )
    .unwrap();
    let (code, stdout, stderr) = common::run(&dir, &["lint", "a.tool.yaml"], None);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("unknown rule `TC999`"), "{stderr}");
    assert_lines_bounded(&stderr);
    let column = "  select: [".len() + selectors.len() + 1;
    assert!(
        stderr.contains(&format!("toolcheck.yaml:2:{column}]")),
        "{stderr}"
    );
    let row = stderr
        .lines()
        .find(|line| line.trim_start().starts_with("2 │"))
        .expect("the row of line 2");
    assert!(row.contains("│ …") && row.ends_with("TC999]"), "{row}");
}
