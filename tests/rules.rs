//! Every rule's fixtures, `fixtures/<family>/<rule-name>/`: `valid*.{yaml,json}` must lint
//! clean, `invalid*` must produce findings of that rule only. Each gets a reviewed snapshot of
//! its input and the rendered findings, beside it in `snapshots/`. A sibling
//! `<stem>.toolcheck.yaml` configures the case (e.g. rule options).
//!
//! One rule: `INSTA_GLOB_FILTER='wording/absolute-words/*' cargo test --test rules`.

mod common;

use std::path::Path;

use toolcheck::catalog::Registry;

fn fixture_name(path: &Path) -> String {
    path.strip_prefix(common::root())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn rule_fixtures() {
    insta::glob!(
        "../fixtures",
        "{meta,budget,wording,security,schema,names,targets,search,results}/*/*.{yaml,yml,json}",
        |path| {
            let name = fixture_name(path);
            if name.ends_with(".toolcheck.yaml") {
                return;
            }
            let dir = path.parent().expect("a fixture is in its rule's folder");
            let rule = dir.file_name().and_then(|n| n.to_str()).unwrap();
            let report = common::lint_with_rule(path, &name, rule);
            common::assert_spans_on_char_boundaries(&report);
            let file_name = path.file_name().and_then(|s| s.to_str()).unwrap();
            if file_name.starts_with("valid") {
                assert!(
                    report.diagnostics.is_empty(),
                    "{name} must lint clean, got:\n{}",
                    common::render_human(&report.diagnostics)
                );
            } else {
                assert!(
                    file_name.starts_with("invalid"),
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
                "# Input\n```{language}\n{input}```\n\n# Diagnostics\n{}",
                common::render_human(&report.diagnostics),
            );
            let mut settings = insta::Settings::clone_current();
            settings.set_snapshot_path(dir.join("snapshots"));
            settings.set_prepend_module_to_snapshot(false);
            settings.remove_snapshot_suffix();
            settings.bind(|| insta::assert_snapshot!(file_name, snapshot));
        }
    );
}

#[test]
fn every_rule_has_valid_and_invalid_fixtures() {
    let registry = Registry::builtin().unwrap();
    for rule in &registry.rules {
        let meta = &rule.meta;
        let dir = common::root()
            .join("fixtures")
            .join(meta.family.as_str())
            .join(&meta.name);
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|_| panic!("missing {}", dir.display()))
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| !name.ends_with(".toolcheck.yaml"))
            .collect();
        assert!(
            names.iter().any(|n| n.starts_with("valid")),
            "{} has no valid fixture",
            meta.name
        );
        assert!(
            names.iter().any(|n| n.starts_with("invalid")),
            "{} has no invalid fixture",
            meta.name
        );
    }
}
