//! A team's own declarative rules (`rulesets:`): each `given` value looks at the fields it
//! names, each function reports where it says, and a function refuses a `given` it cannot
//! look at. README's "Writing your own rules" documents these; tests/readme.rs tests its
//! example.

mod common;

use toolcheck::catalog::Registry;
use toolcheck::config::Config;
use toolcheck::diagnostic::Diagnostic;
use toolcheck::lint::{Linter, Overrides};
use toolcheck::parse::source::SourceFile;

/// A rule file with code `X001`.
fn rule(given: &str, function: &str, options: &str, message: &str) -> String {
    format!(
        "code: X001\nname: team-rule\nfamily: wording\nseverity: warning\nsummary: s\n\
         docs: d\ngiven: {given}\nthen:\n  function: {function}\n  options: {options}\n\
         message: \"{message}\"\n"
    )
}

/// Loads `rule_file` as a ruleset (in a scratch folder named `case`).
fn registry(case: &str, rule_file: &str) -> toolcheck::error::Result<Registry> {
    let dir = common::scratch(&format!("rulesets-{case}"));
    std::fs::write(dir.join("team-rule.yaml"), rule_file).unwrap();
    let mut registry = Registry::builtin().unwrap();
    registry.add_rulesets(&[dir])?;
    Ok(registry)
}

/// The findings of `X001` alone on a YAML manifest.
fn lint(case: &str, rule_file: &str, manifest: &str) -> Vec<Diagnostic> {
    let registry = registry(case, rule_file).unwrap_or_else(|error| panic!("{error}"));
    let overrides = Overrides {
        select: Some(vec!["X001".into()]),
        ..Default::default()
    };
    let linter = Linter::new(&registry, &Config::defaults(".".into()), &overrides).unwrap();
    let report = linter.lint(SourceFile::new("m.tools.yaml", manifest.to_string()), false);
    common::assert_spans_on_char_boundaries(&report);
    report.diagnostics
}

/// `zebra` in every model-facing field of a tool and in the set's instructions.
const EVERYWHERE: &str = "\
instructions: Zebra instructions.
tools:
  - name: zebra
    title: Zebra title
    description: Zebra description.
    snippet: Zebra snippet
    guidelines: [Zebra guideline]
    input_schema:
      type: object
      title: Zebra schema title
      properties:
        zebra: { type: string, description: Zebra property }
    results: { ok: Zebra result }
";

#[test]
fn each_given_value_looks_at_its_fields() {
    let cases: &[(&str, &[&str])] = &[
        ("name", &["name"]),
        ("title", &["title"]),
        ("description", &["description"]),
        ("snippet", &["snippet"]),
        ("guidelines", &["guidelines"]),
        ("instructions", &["instructions"]),
        ("schema-text", &["input_schema", "input_schema"]),
        ("results", &["results"]),
        (
            "text",
            &[
                "instructions",
                "description",
                "snippet",
                "guidelines",
                "input_schema",
                "input_schema",
                "results",
            ],
        ),
        ("[name, snippet]", &["name", "snippet"]),
    ];
    for (given, fields) in cases {
        let rule_file = rule(given, "pattern", "{ words: [zebra] }", "{{match}}");
        let found: Vec<&str> = lint("given", &rule_file, EVERYWHERE)
            .iter()
            .map(|d| d.field.as_str())
            .collect();
        assert_eq!(&found, fields, "given: {given}");
    }
}

#[test]
fn functions_refuse_a_given_they_cannot_look_at() {
    for (given, function, options) in [
        ("input-schema", "pattern", "{ words: [zebra] }"),
        ("input-schema", "missing-pattern", "{ words: [zebra] }"),
        ("description", "property-name", "{ names: [zebra] }"),
        ("text", "root-keyword", "{ keywords: [anyOf] }"),
        ("text", "max-tokens", "{ max-tokens: 5 }"),
    ] {
        let rule_file = rule(given, function, options, "x");
        let Err(error) = registry("refuse", &rule_file) else {
            panic!("{function} accepted given: {given}");
        };
        assert!(
            error.message.contains("cannot look at"),
            "{function}/{given}: {}",
            error.message
        );
    }
}

/// Set-level instructions have no tool, so `{name}` there matches nothing (it once matched the
/// empty string at every word boundary).
#[test]
fn name_in_words_matches_nothing_in_instructions() {
    let rule_file = rule(
        "instructions",
        "pattern",
        "{ words: [\"{name}\", zebra] }",
        "{{match}}",
    );
    let found: Vec<String> = lint("name-in-instructions", &rule_file, EVERYWHERE)
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(found, ["Zebra"]);
}

/// `missing-pattern` judges a schema's descriptions and titles together, like guidelines, and
/// reports at the `input_schema` key (it once reported nothing when there were two).
#[test]
fn missing_pattern_judges_the_schema_texts_together() {
    let rule_file = rule(
        "schema-text",
        "missing-pattern",
        "{ words: [giraffe] }",
        "{{field}} of {{tool}}: {{value}}",
    );
    let found = lint("missing-schema-text", &rule_file, EVERYWHERE);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].message,
        "input_schema of zebra: Zebra schema title"
    );
    assert_eq!(found[0].pointer, "/tools/0/input_schema");
    let span = &EVERYWHERE[found[0].span.clone()];
    assert_eq!(span, "input_schema");
    let with_word = EVERYWHERE.replace("Zebra property", "Giraffe property");
    assert!(lint("missing-schema-text", &rule_file, &with_word).is_empty());
}

#[test]
fn a_declarative_rule_cannot_claim_to_be_fixable() {
    let file = rule("description", "pattern", "{ regex: x }", "m") + "fixable: true\n";
    let error = registry("fixable", &file)
        .err()
        .expect("a declarative rule attaches no fixes");
    assert_eq!(
        error.message,
        "a rule with a `function` cannot be `fixable`"
    );
}
