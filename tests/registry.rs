//! The catalog as a whole: unique codes and names, documented rules, and every rule's doc
//! examples behave as they claim.

mod common;

use toolcheck::catalog::docs::{self, DocExample, Part};
use toolcheck::catalog::{Registry, RuleMeta};
use toolcheck::config::Config;
use toolcheck::lint::{Linter, Overrides};
use toolcheck::parse::source::SourceFile;

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

/// `Registry::builtin` does not build the rules (a run builds only those it selects), so this
/// is where a built-in entry whose default options do not build is caught.
#[test]
fn every_builtin_rule_builds_with_its_default_options() {
    let registry = Registry::builtin().unwrap();
    registry.build_defaults().unwrap();
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

/// Lints one doc example with every rule on and the example's options for its rule; the
/// messages of that rule's findings.
fn findings_of(registry: &Registry, meta: &RuleMeta, example: &DocExample) -> Vec<String> {
    let mut text = String::new();
    if !example.targets.is_empty() {
        text.push_str(&format!("targets: [{}]\n", example.targets.join(", ")));
    }
    if let Some(options) = &example.options {
        text.push_str(&format!(
            "rules:\n  options:\n    {}: {options}\n",
            meta.name
        ));
    }
    let config = Config::parse(SourceFile::new("example.toolcheck.yaml", text), ".".into())
        .unwrap_or_else(|error| panic!("{}: bad config for an example: {error}", meta.name));
    let linter = Linter::new(registry, &config, &Overrides::default())
        .unwrap_or_else(|error| panic!("{}: {error}", meta.name));
    let json = example.language == "json";
    let name = if json { "example.json" } else { "example.yaml" };
    let report = linter.lint(SourceFile::new(name, example.code.clone()), json);
    common::assert_spans_on_char_boundaries(&report);
    report
        .diagnostics
        .iter()
        .filter(|d| *d.code == *meta.code)
        .map(|d| d.message.clone())
        .collect()
}

/// Every `## Example` block must be flagged by the rule, every `Use instead` block must not,
/// and there must be at least one of each.
fn check_examples(registry: &Registry, meta: &RuleMeta) -> Result<(), String> {
    let examples = docs::examples(&meta.docs);
    for part in [Part::Example, Part::UseInstead] {
        if !examples.iter().any(|example| example.part == part) {
            return Err(format!("{}: no {part:?} code block in its docs", meta.name));
        }
    }
    for (index, example) in examples.iter().enumerate() {
        if !matches!(example.language.as_str(), "yaml" | "json") {
            return Err(format!(
                "{}: block {index} is `{}`, not yaml or json",
                meta.name, example.language
            ));
        }
        let found = findings_of(registry, meta, example);
        match example.part {
            Part::Example if found.is_empty() => {
                return Err(format!(
                    "{}: Example block {index} is not flagged:\n{}",
                    meta.name, example.code
                ));
            }
            Part::UseInstead if !found.is_empty() => {
                return Err(format!(
                    "{}: Use instead block {index} is flagged: {found:?}",
                    meta.name
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

#[test]
fn doc_examples_are_the_rules_test_vectors() {
    let registry = Registry::builtin().unwrap();
    let failures: Vec<String> = registry
        .rules
        .iter()
        .filter_map(|rule| check_examples(&registry, &rule.meta).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_rule_whose_use_instead_block_is_deleted_fails() {
    let registry = Registry::builtin().unwrap();
    let mut meta = registry.find("absolute-words").unwrap().meta.clone();
    let start = meta.docs.find("Use instead").unwrap();
    let end = meta.docs.find("## Options").unwrap();
    meta.docs.replace_range(start..end, "");
    let error = check_examples(&registry, &meta).unwrap_err();
    assert!(error.contains("no UseInstead code block"), "{error}");
}
