//! A rule's documentation: `toolcheck rules` (the catalog as a table or JSON), `toolcheck
//! explain` (one rule's docs), and the docs' examples, which are the rule's test vectors.

use serde::Serialize;

use crate::catalog::{Registered, Registry, RuleSetting};
use crate::diagnostic::Severity;

#[derive(Serialize)]
struct RuleRow<'a> {
    code: &'a str,
    name: &'a str,
    family: &'a str,
    /// The default severity.
    severity: &'a str,
    /// The severity under the current config; `null` when the rule is off.
    effective_severity: Option<Severity>,
    /// `lint --fix` fixes its findings.
    fixable: bool,
    kind: &'a str,
    /// The catalog entry.
    source: &'a str,
    /// The native check's source file, for a rule written in Rust.
    native: Option<&'a str>,
    summary: &'a str,
}

/// Where a rule is defined: its catalog entry, and its native check if it has one.
fn defined_in(rule: &Registered) -> String {
    match &rule.meta.native {
        Some(native) => format!("{} (check: {native})", rule.meta.source),
        None => rule.meta.source.clone(),
    }
}

/// The severity each rule runs at under the current config, by code (`None`: off).
fn effective(settings: &[RuleSetting], code: &str) -> Option<Severity> {
    settings
        .iter()
        .find(|setting| setting.code == code)
        .and_then(|setting| setting.severity)
}

/// `toolcheck rules`: each rule with its family, its severity under the current config (`*`
/// where the config changed the default), whether `--fix` fixes it, and what it checks.
pub fn rules_table(registry: &Registry, settings: &[RuleSetting]) -> String {
    let width = registry
        .rules
        .iter()
        .map(|rule| rule.meta.name.len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    out.push_str(&format!(
        "{:<6} {:<width$} {:<8} {:<9} {:<3} {}\n",
        "code", "name", "family", "severity", "fix", "checks"
    ));
    for rule in &registry.rules {
        let meta = &rule.meta;
        let severity = effective(settings, &meta.code);
        let mut shown = severity.map_or("off", Severity::as_str).to_string();
        if severity != Some(meta.default_severity) {
            shown.push('*');
        }
        out.push_str(&format!(
            "{:<6} {:<width$} {:<8} {:<9} {:<3} {}\n",
            meta.code,
            meta.name,
            meta.family.as_str(),
            shown,
            if meta.fixable { "yes" } else { "" },
            meta.summary
        ));
    }
    if registry
        .rules
        .iter()
        .any(|rule| effective(settings, &rule.meta.code) != Some(rule.meta.default_severity))
    {
        out.push_str("\n* changed by the config (default: `toolcheck rules --no-config`)\n");
    }
    out
}

pub fn rules_json(registry: &Registry, settings: &[RuleSetting]) -> String {
    let rows: Vec<RuleRow<'_>> = registry
        .rules
        .iter()
        .map(|rule| RuleRow {
            code: &rule.meta.code,
            name: &rule.meta.name,
            family: rule.meta.family.as_str(),
            severity: rule.meta.default_severity.as_str(),
            effective_severity: effective(settings, &rule.meta.code),
            fixable: rule.meta.fixable,
            kind: rule.kind(),
            source: &rule.meta.source,
            native: rule.meta.native.as_deref(),
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
        "# {} {}\n\nfamily: {} · default severity: {}{} · defined in {}\n\n{}\n\n{}",
        meta.code,
        meta.name,
        meta.family.as_str(),
        meta.default_severity.as_str(),
        if meta.fixable {
            " · fixable with `lint --fix`"
        } else {
            ""
        },
        defined_in(rule),
        meta.summary,
        meta.docs.trim_end()
    ) + "\n"
}

/// Which part of a rule's docs an example is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Under `## Example`: the rule must flag it.
    Example,
    /// After `Use instead`: the rule must not flag it.
    UseInstead,
}

/// A fenced code block of a rule's docs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocExample {
    pub part: Part,
    /// `yaml` or `json`: the info string's first word.
    pub language: String,
    /// `target=a,b` after the language: the targets the example is linted against (the
    /// `targets` rules find nothing without one).
    pub targets: Vec<String>,
    /// The rest of the info string: the rule's options as a YAML flow mapping, if any.
    pub options: Option<String>,
    pub code: String,
}

/// The code blocks of the `## Example` section: those before the `Use instead` line are
/// examples, those after it (up to the next `## ` heading) are the fix.
pub fn examples(docs: &str) -> Vec<DocExample> {
    let mut examples = Vec::new();
    let mut part = None;
    let mut block: Option<DocExample> = None;
    for line in docs.lines() {
        if let Some(open) = &mut block {
            if line.trim_start().starts_with("```") {
                examples.extend(block.take());
            } else {
                open.code.push_str(line);
                open.code.push('\n');
            }
            continue;
        }
        if line.starts_with("## ") {
            part = (line.trim() == "## Example").then_some(Part::Example);
        } else if line.starts_with("Use instead") && part.is_some() {
            part = Some(Part::UseInstead);
        } else if let (Some(part), Some(info)) = (part, line.trim_start().strip_prefix("```")) {
            let (language, rest) = info.trim().split_once(' ').unwrap_or((info.trim(), ""));
            let rest = rest.trim();
            let (targets, rest) = match rest.strip_prefix("target=") {
                Some(after) => {
                    let (names, rest) = after.split_once(' ').unwrap_or((after, ""));
                    (names.split(',').map(str::to_string).collect(), rest.trim())
                }
                None => (Vec::new(), rest),
            };
            block = Some(DocExample {
                part,
                language: language.to_string(),
                targets,
                options: (!rest.is_empty()).then(|| rest.to_string()),
                code: String::new(),
            });
        }
    }
    examples
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_are_split_at_use_instead_with_options_from_the_info_string() {
        let docs = "## What it does\nx\n```yaml\nnot: an example\n```\n## Example\n\
                    ```yaml target=cursor {max-tokens: 5}\nname: a\n```\nUse instead:\n```json\n{}\n```\n\
                    ## Options\n```yaml\nno: example\n```\n";
        let found = examples(docs);
        assert_eq!(
            found,
            [
                DocExample {
                    part: Part::Example,
                    language: "yaml".into(),
                    targets: vec!["cursor".into()],
                    options: Some("{max-tokens: 5}".into()),
                    code: "name: a\n".into(),
                },
                DocExample {
                    part: Part::UseInstead,
                    language: "json".into(),
                    targets: Vec::new(),
                    options: None,
                    code: "{}\n".into(),
                },
            ]
        );
    }
}
