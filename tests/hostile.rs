//! Hostile inputs through the whole linter: YAML alias bombs are refused with a located TC001,
//! and a long text with many findings maps every one of them back to its word. The inputs are
//! generated here (they are large); speed is measured by hand, never asserted.

mod common;

use toolcheck::diagnostic::Diagnostic;
use toolcheck::lint::FileReport;

const BYTES_LIMIT: &str = "aliases expand to more than 32 MiB (the limit is 10 times the file's \
                           size, at least 32 MiB)";

fn lint_with(name: &str, text: &str, select: Option<&str>) -> FileReport {
    let config = toolcheck::config::Config::defaults(".".into());
    let overrides = toolcheck::lint::Overrides {
        select: select.map(|code| vec![code.to_string()]),
        ..Default::default()
    };
    common::linter(&config, &overrides).lint(
        toolcheck::parse::source::SourceFile::new(name, text.to_string()),
        name.ends_with(".json"),
    )
}

/// The one finding of a file that does not parse.
fn invalid_manifest(report: &FileReport) -> &Diagnostic {
    assert!(
        report.internal_error.is_none(),
        "{:?}",
        report.internal_error
    );
    let [diagnostic] = report.diagnostics.as_slice() else {
        panic!("expected one finding, got {:#?}", report.diagnostics);
    };
    assert_eq!(&*diagnostic.code, "TC001");
    assert_eq!(&*diagnostic.rule, "invalid-manifest");
    diagnostic
}

/// Line (from 0) of the finding's start, and the text from there.
fn located<'a>(text: &'a str, diagnostic: &Diagnostic) -> (usize, &'a str) {
    let start = diagnostic.span.start;
    assert_eq!(diagnostic.span.len(), 1, "{diagnostic:?}");
    (text[..start].matches('\n').count(), &text[start..])
}

#[test]
fn billion_laughs_of_long_strings() {
    // 11 KB: a 1 KiB string aliased 1,000 times, and that 997 times (1 GiB, a million nodes).
    let mut text = format!("a0: &a0 {}\n", "x".repeat(1024));
    text.push_str(&format!("a1: &a1 [{}]\n", vec!["*a0"; 1000].join(", ")));
    text.push_str(&format!("a2: &a2 [{}]\n", vec!["*a1"; 997].join(", ")));
    let report = common::lint_text("laughs.yaml", &text);
    let finding = invalid_manifest(&report);
    assert_eq!(finding.message, BYTES_LIMIT);
    let (line, rest) = located(&text, finding);
    assert_eq!(line, 2);
    assert!(rest.starts_with("*a1, *a1"), "{rest:.20}");
}

#[test]
fn long_aliased_keys() {
    // 145 KB: a 64 KiB key aliased as 10,000 keys of one mapping.
    let mut text = format!("k: &k {}\n", "k".repeat(1 << 16));
    text.push_str(&format!("m: {{{}}}\n", vec!["*k : 1"; 10_000].join(", ")));
    let report = common::lint_text("keys.yaml", &text);
    let finding = invalid_manifest(&report);
    assert_eq!(finding.message, BYTES_LIMIT);
    let (line, rest) = located(&text, finding);
    assert_eq!(line, 1);
    assert!(rest.starts_with("*k : 1, *k"), "{rest:.20}");

    // 67 KB: the same key nested 250 deep (pointers grow with the square of the depth).
    let mut text = format!("k: &k {}\n", "k".repeat(1 << 16));
    text.push_str(&format!(
        "m: {}1{}\n",
        "{*k : ".repeat(250),
        "}".repeat(250)
    ));
    let report = common::lint_text("keys-nested.yaml", &text);
    let finding = invalid_manifest(&report);
    assert_eq!(finding.message, BYTES_LIMIT);
    let (line, rest) = located(&text, finding);
    assert_eq!(line, 1);
    assert!(rest.starts_with("*k : {*k"), "{rest:.20}");
}

#[test]
fn two_megabyte_tool_aliased_a_thousand_times() {
    // 2 MB: a tool of 1,000 nodes and 2 MB of text, aliased 990 times (2 GB, under the node
    // limit).
    let long = "y".repeat(4000);
    let mut text = format!(
        "tools:\n  - &t\n    name: t\n    description: {long}\n    inputSchema:\n      \
         type: object\n      properties:\n"
    );
    for i in 0..500 {
        text.push_str(&format!("        p{i}:\n          description: {long}\n"));
    }
    let first_alias = text.len();
    text.push_str(&"  - *t\n".repeat(990));
    let report = common::lint_text("two-mb.yaml", &text);
    let finding = invalid_manifest(&report);
    // 2 MB allow 20 MB of copies; the floor is 32 MiB: the 16th copy crosses it.
    assert_eq!(finding.message, BYTES_LIMIT);
    let (_, rest) = located(&text, finding);
    assert!(rest.starts_with("*t\n"), "{rest:.20}");
    assert!(finding.span.start > first_alias);
    let copies = text[first_alias..finding.span.start].matches("*t").count();
    assert_eq!(copies, 15);
}

#[test]
fn a_hundred_thousand_invalid_properties() {
    // 2.8 MB on one line: each property's `type` is wrong (TC407, invalid-json-schema). The
    // meta-schema validator returns all of a schema's errors at once, about 2 KB each.
    let properties: serde_json::Map<String, serde_json::Value> = (0..100_000)
        .map(|i| (format!("p{i}"), serde_json::json!({"type": "dict"})))
        .collect();
    let text = serde_json::json!({
        "name": "t",
        "description": "d",
        "inputSchema": {"type": "object", "properties": properties},
    })
    .to_string();
    let report = lint_with("properties.json", &text, Some("TC407"));
    assert!(
        report.internal_error.is_none(),
        "{:?}",
        report.internal_error
    );
    let findings = &report.diagnostics;
    assert_eq!(
        findings.len(),
        51,
        "50 findings and one that sums up the rest"
    );
    for (i, finding) in findings.iter().enumerate() {
        assert_eq!(&*finding.code, "TC407");
        assert_eq!(
            finding.pointer,
            format!("/inputSchema/properties/p{i}/type")
        );
        assert_eq!(&text[finding.span.clone()], "\"dict\"");
    }
    assert_eq!(
        findings[50].message,
        "`dict` is not a JSON Schema type (and 99949 more like it in this `input_schema`, not \
         shown)"
    );
}

/// The names of 125 properties, 16 KiB each (2 MB), for a schema that nests each inside the
/// one before.
fn long_names() -> Vec<String> {
    (0..125)
        .map(|level| format!("p{level:03}{}", "k".repeat(16 * 1024 - 4)))
        .collect()
}

/// The one TC407 finding of a schema whose innermost property says `type: dict`: at that
/// `type`, with the whole pointer down to it.
fn check_deep_wrong_type(name: &str, text: &str, names: &[String]) {
    let report = common::lint_text(name, text);
    assert!(
        report.internal_error.is_none(),
        "{:?}",
        report.internal_error
    );
    let found: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        // The token budgets, and the shape rules a 125-deep schema of bare properties trips:
        // its root property has no description, and it nests far past 5 levels.
        .filter(|d| !["TC102", "TC106", "TC107", "TC405", "TC410"].contains(&&*d.code))
        .collect();
    let [finding] = found.as_slice() else {
        // Not the pointers: they are megabytes long.
        let found: Vec<_> = found
            .iter()
            .map(|d| (&d.code, &d.message, d.pointer.byte_len()))
            .collect();
        panic!("expected one finding besides the token budgets and shape rules, got {found:#?}");
    };
    assert_eq!(&*finding.code, "TC407", "{name}: {}", finding.message);
    assert_eq!(finding.message, "`dict` is not a JSON Schema type");
    let mut pointer = String::from("/inputSchema");
    for name in names {
        pointer.push_str("/properties/");
        pointer.push_str(name);
    }
    pointer.push_str("/type");
    assert!(
        finding.pointer == pointer,
        "pointer of {} bytes",
        finding.pointer.byte_len()
    );
    assert!(
        text[finding.span.clone()].trim_matches('"') == "dict",
        "{:?}",
        finding.span
    );
}

#[test]
fn long_keys_nested_deep_without_aliases() {
    // 2 MB of property names nested 250 deep, no alias: every node's pointer repeats all the
    // names above it, about 250 MB if each node kept its own copy.
    let names = long_names();
    let mut schema = serde_json::json!({"type": "dict"});
    for name in names.iter().rev() {
        schema = serde_json::json!({"type": "object", "properties": {name.clone(): schema}});
    }
    let text = serde_json::json!({
        "name": "deep",
        "description": "Find deep pages. Not for writes.",
        "inputSchema": schema,
    })
    .to_string();
    assert!(text.len() > 2_000_000);
    check_deep_wrong_type("deep.json", &text, &names);

    // The same in block YAML (explicit keys: an implicit one is at most 1,024 characters).
    let mut text =
        String::from("name: deep\ndescription: Find deep pages. Not for writes.\ninputSchema:\n");
    let mut indent = String::from("  ");
    for name in &names {
        text.push_str(&format!("{indent}type: object\n{indent}properties:\n"));
        indent.push_str("  ");
        text.push_str(&format!("{indent}? {name}\n{indent}:\n"));
        indent.push_str("  ");
    }
    text.push_str(&format!("{indent}type: dict\n"));
    check_deep_wrong_type("deep.yaml", &text, &names);
}

/// About 0.9 MiB of text with an order, `and always cite` (TC209, absolute-words), every 82
/// bytes.
fn long_description() -> String {
    "Search the documentation, and always cite the most relevant pages for the user. "
        .repeat(11_000)
}

/// Every shown TC209 finding points at an `always` of the source, at the `count`-th one for
/// the `count`-th finding.
fn check_absolute_words(name: &str, text: &str) {
    let report = lint_with(name, text, Some("TC209"));
    assert!(
        report.internal_error.is_none(),
        "{:?}",
        report.internal_error
    );
    let findings: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| &*d.code == "TC209")
        .collect();
    assert_eq!(
        findings.len(),
        51,
        "50 findings and one that sums up the rest"
    );
    let mut expected = text.match_indices("always").map(|(at, _)| at..at + 6);
    for finding in &findings {
        assert_eq!(finding.pointer, "/description");
        assert_eq!(Some(finding.span.clone()), expected.next(), "{finding:?}");
    }
    assert!(
        findings[50].message.contains("10949 more like it"),
        "{}",
        findings[50].message
    );
}

#[test]
fn many_findings_in_one_long_json_string() {
    let text = serde_json::json!({
        "name": "search_docs",
        "description": long_description(),
        "inputSchema": {"type": "object", "properties": {}},
    })
    .to_string();
    check_absolute_words("findings.json", &text);
}

#[test]
fn many_findings_in_one_long_json_string_with_escapes() {
    let text = serde_json::json!({
        "name": "search_docs",
        "description": long_description().replace(". ", ".\n"),
        "inputSchema": {"type": "object", "properties": {}},
    })
    .to_string();
    assert!(text.matches("\\n").count() > 10_000);
    check_absolute_words("findings-escapes.json", &text);
}

#[test]
fn many_findings_in_one_long_folded_block_scalar() {
    let mut text = String::from("name: search_docs\ndescription: >\n");
    let mut line = String::new();
    for word in long_description().split(' ') {
        if !line.is_empty() && line.len() + word.len() + 1 > 80 {
            text.push_str(&format!("    {line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    text.push_str(&format!(
        "    {line}\ninputSchema:\n  type: object\n  properties: {{}}\n"
    ));
    check_absolute_words("findings-folded.yaml", &text);
}
