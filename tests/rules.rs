//! Every rule's fixtures: `fixtures/rules/<rule-name>/valid*.{yaml,json}` must lint clean,
//! `invalid*` must produce findings of that rule only; each gets a reviewed snapshot of the
//! input, the rendered diagnostics and the JSON. A sibling `<stem>.toolcheck.yaml` configures
//! the case (e.g. rule options).

use std::path::Path;

use toolcheck::registry::Registry;
use toolcheck::testing;
use toolcheck::tokens::Encoding;

fn fixture_name(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn rule_fixtures() {
    insta::glob!("../fixtures", "rules/*/*.{yaml,yml,json}", |path| {
        let name = fixture_name(path);
        if name.ends_with(".toolcheck.yaml") {
            return;
        }
        let rule = path
            .parent()
            .and_then(|dir| dir.file_name())
            .and_then(|n| n.to_str())
            .unwrap();
        let report = testing::lint_with_rule(path, &name, rule);
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap();
        if stem.starts_with("valid") {
            assert!(
                report.diagnostics.is_empty(),
                "{name} must lint clean, got:\n{}",
                testing::render_human(&report.diagnostics)
            );
        } else {
            assert!(
                stem.starts_with("invalid"),
                "fixture names start with valid or invalid: {name}"
            );
            assert!(
                !report.diagnostics.is_empty(),
                "{name} must produce findings"
            );
            for diagnostic in &report.diagnostics {
                assert_eq!(
                    &*diagnostic.rule, rule,
                    "{name}: unexpected finding {}",
                    diagnostic.message
                );
            }
        }
        let input = std::fs::read_to_string(path).unwrap_or_default();
        let language = if name.ends_with(".json") {
            "json"
        } else {
            "yaml"
        };
        let snapshot = format!(
            "# Input\n```{language}\n{input}```\n\n# Diagnostics\n{}\n# JSON\n{}",
            testing::render_human(&report.diagnostics),
            testing::render_json(&report, Encoding::O200kBase)
        );
        insta::assert_snapshot!(snapshot);
    });
}

#[test]
fn every_rule_has_valid_and_invalid_fixtures() {
    let registry = Registry::builtin().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rules");
    for rule in &registry.rules {
        let dir = root.join(&rule.meta.name);
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|_| panic!("missing fixtures/rules/{}/", rule.meta.name))
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| !name.ends_with(".toolcheck.yaml"))
            .collect();
        assert!(
            names.iter().any(|n| n.starts_with("valid")),
            "{} has no valid fixture",
            rule.meta.name
        );
        assert!(
            names.iter().any(|n| n.starts_with("invalid")),
            "{} has no invalid fixture",
            rule.meta.name
        );
    }
}
