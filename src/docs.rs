//! `toolcheck rules` and `toolcheck explain`: the registry as a table, JSON, or one rule's
//! documentation.

use serde::Serialize;

use crate::registry::{Registered, Registry};
use crate::rule::Origin;

#[derive(Serialize)]
struct RuleRow<'a> {
    code: &'a str,
    name: &'a str,
    family: &'a str,
    severity: &'a str,
    kind: &'a str,
    source: &'a str,
    summary: &'a str,
}

fn source(rule: &Registered) -> &str {
    match &rule.meta.origin {
        Origin::Rust(file) => file,
        Origin::Yaml(file) => file,
    }
}

pub fn rules_table(registry: &Registry) -> String {
    let width = registry
        .rules
        .iter()
        .map(|rule| rule.meta.name.len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    out.push_str(&format!(
        "{:<6} {:<width$} {:<8} {}\n",
        "code", "name", "severity", "checks"
    ));
    for rule in &registry.rules {
        let meta = &rule.meta;
        out.push_str(&format!(
            "{:<6} {:<width$} {:<8} {}\n",
            meta.code,
            meta.name,
            meta.default_severity.as_str(),
            meta.summary
        ));
    }
    out
}

pub fn rules_json(registry: &Registry) -> String {
    let rows: Vec<RuleRow<'_>> = registry
        .rules
        .iter()
        .map(|rule| RuleRow {
            code: &rule.meta.code,
            name: &rule.meta.name,
            family: rule.meta.family.as_str(),
            severity: rule.meta.default_severity.as_str(),
            kind: rule.kind(),
            source: source(rule),
            summary: &rule.meta.summary,
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&rows).unwrap_or_default();
    out.push('\n');
    out
}

pub fn explain(rule: &Registered) -> String {
    let meta = &rule.meta;
    format!(
        "# {} {}\n\nfamily: {} · default severity: {} · defined in {}\n\n{}\n\n{}",
        meta.code,
        meta.name,
        meta.family.as_str(),
        meta.default_severity.as_str(),
        source(rule),
        meta.summary,
        meta.docs.trim_end()
    ) + "\n"
}
