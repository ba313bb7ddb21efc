//! The registry as a whole: unique codes and names, documented rules, and the examples
//! embedded in declarative rules behave as they claim.

use toolcheck::config::Config;
use toolcheck::engine::{Linter, Overrides};
use toolcheck::registry::Registry;
use toolcheck::source::SourceFile;

#[test]
fn codes_and_names_are_unique_and_well_formed() {
    let registry = Registry::builtin().expect("built-in rules load");
    let mut codes: Vec<&str> = registry
        .rules
        .iter()
        .map(|r| r.meta.code.as_str())
        .collect();
    let mut names: Vec<&str> = registry
        .rules
        .iter()
        .map(|r| r.meta.name.as_str())
        .collect();
    let count = codes.len();
    codes.sort();
    codes.dedup();
    names.sort();
    names.dedup();
    assert_eq!(codes.len(), count, "duplicate code");
    assert_eq!(names.len(), count, "duplicate name");
    for rule in &registry.rules {
        let code = &rule.meta.code;
        assert!(
            code.len() == 5
                && code.starts_with("TC")
                && code[2..].chars().all(|c| c.is_ascii_digit()),
            "{code}"
        );
        assert!(
            rule.meta
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-'),
            "{}",
            rule.meta.name
        );
    }
}

#[test]
fn every_rule_is_documented() {
    let registry = Registry::builtin().unwrap();
    for rule in &registry.rules {
        for section in [
            "## What it does",
            "## Why is this bad?",
            "## Example",
            "Use instead",
            "## Options",
        ] {
            assert!(
                rule.meta.docs.contains(section),
                "{} docs lack `{section}`",
                rule.meta.name
            );
        }
        assert!(
            !rule.meta.summary.is_empty(),
            "{} has no summary",
            rule.meta.name
        );
    }
}

/// Lints `manifest` with only `code` selected and the example's options, if any.
fn lint_example(
    registry: &Registry,
    code: &str,
    name: &str,
    options: Option<String>,
    manifest: &str,
) -> Vec<String> {
    let config = match options {
        Some(options) => {
            let text = format!("rules:\n  options:\n    {name}: {options}\n");
            Config::parse(SourceFile::new("example.toolcheck.yaml", text), ".".into()).unwrap()
        }
        None => Config::defaults(".".into()),
    };
    let overrides = Overrides {
        select: Some(vec![code.to_string()]),
        ..Overrides::default()
    };
    let linter = Linter::new(registry, &config, &overrides).unwrap();
    let report = linter.lint(SourceFile::new("example.yaml", manifest.to_string()), false);
    report
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code, d.message))
        .collect()
}

#[test]
fn declarative_examples_hold() {
    let registry = Registry::builtin().unwrap();
    for rule in &registry.rules {
        let Some(examples) = rule.examples() else {
            continue;
        };
        let meta = &rule.meta;
        assert!(
            !examples.invalid.is_empty() && !examples.valid.is_empty(),
            "{} needs valid and invalid examples",
            meta.name
        );
        for (index, example) in examples.invalid.iter().enumerate() {
            let found = lint_example(
                &registry,
                &meta.code,
                &meta.name,
                example.options(),
                example.manifest(),
            );
            assert!(
                !found.is_empty(),
                "{} invalid example {index} produced nothing",
                meta.name
            );
            assert!(
                found.iter().all(|f| f.starts_with(&meta.code)),
                "{} invalid example {index}: {found:?}",
                meta.name
            );
        }
        for (index, example) in examples.valid.iter().enumerate() {
            let found = lint_example(
                &registry,
                &meta.code,
                &meta.name,
                example.options(),
                example.manifest(),
            );
            assert!(
                found.is_empty(),
                "{} valid example {index}: {found:?}",
                meta.name
            );
        }
    }
}
