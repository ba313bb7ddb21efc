//! The check of `name-rejected-by-target`. Its code and docs are in
//! `rules/targets/name-rejected-by-target.yaml`.

use std::collections::HashSet;
use std::sync::Arc;

use serde::Deserialize;

use super::helpers::{ServerName, characters, named_tools, wire_name, wire_of};
use crate::diagnostic::Field;
use crate::normalize::ToolSet;
use crate::rule::{Anchor, Ctx, Rule};
use crate::targets::profile::{Check, ToolName};
use crate::targets::{Active, wire};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameRejectedByTarget {}

impl Rule for NameRejectedByTarget {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        if targets.is_empty() {
            return;
        }
        let server = ServerName::of(set, ctx);
        for (_, entry, name) in named_tools(set) {
            ctx.set_tool(Some(name));
            let measured_server = server.measured();
            // A provider's constraint that several selected hosts inherit is reported once
            // per name it measures (the first target that brings it in names it).
            let mut reported = HashSet::new();
            for profile in &targets.selected {
                let sent = wire_name(profile, measured_server, name);
                // A host that states a limit its provider states too (Claude Desktop's own
                // 64 and Anthropic's) reports it once, with the host's own source: its
                // constraints come first. A profile holds a handful: a short list.
                let mut in_profile: Vec<(String, String)> = Vec::new();
                for constraint in &profile.constraints {
                    let Check::ToolName(rule) = &constraint.check else {
                        continue;
                    };
                    let active = Active {
                        target: profile.name.clone(),
                        constraint: constraint.clone(),
                    };
                    let template = match &rule.counted {
                        Some(counted) => counted.as_str(),
                        None => wire_of(profile).map_or("{tool}", |wire| wire.template.as_str()),
                    };
                    let measured = match &rule.counted {
                        Some(counted) => wire::templated(counted, measured_server, name),
                        None => sent.clone(),
                    };
                    let Some(problem) = problem(rule, &measured) else {
                        continue;
                    };
                    if in_profile
                        .iter()
                        .any(|(m, p)| *m == measured && *p == problem)
                    {
                        continue;
                    }
                    in_profile.push((measured.clone(), problem.clone()));
                    if !reported.insert((Arc::as_ptr(constraint), measured.clone())) {
                        continue;
                    }
                    let unnamed = !server.known && template.contains("{server}");
                    let shown = match (&rule.counted, measured == name) {
                        (_, true) => format!("tool name `{name}`"),
                        _ if unnamed => format!(
                            "`{}` without the server name",
                            wire::templated(template, "<server>", name)
                        ),
                        (Some(counted), false) => {
                            format!("`{measured}` (what it measures, `{counted}`)")
                        }
                        (None, false) => format!("`{measured}` (the name it sends)"),
                    };
                    let message = format!(
                        "{shown} {problem}; {} {}",
                        active.who(),
                        constraint.effect.verb()
                    );
                    let mut help = match problem_kind(rule, &measured) {
                        Kind::Length if unnamed => format!(
                            "shorten the tool name by {} characters or more, and more for the \
                             server name; `--server-name` checks with the name your host config \
                             gives the server",
                            measured.chars().count() - rule.max_length,
                        ),
                        Kind::Length if measured != name => format!(
                            "shorten the tool name by {} or more; {}",
                            characters(measured.chars().count() - rule.max_length),
                            server.said()
                        ),
                        Kind::Length => {
                            format!("shorten the tool name to {} characters", rule.max_length)
                        }
                        Kind::Charset => {
                            let charset = rule.charset.as_deref().unwrap_or_default();
                            format!(
                                "use only [{charset}] in the tool name (e.g. `{}`)",
                                replaced(charset, name)
                            )
                        }
                        Kind::First => format!(
                            "start the tool name with one of [{}]",
                            rule.first.as_deref().unwrap_or_default()
                        ),
                    };
                    help.push_str("; ");
                    help.push_str(&active.cite());
                    ctx.report(Field::Name, Anchor::Value(&entry.value), message)
                        .help(help);
                }
            }
        }
        ctx.set_tool(None);
    }
}

enum Kind {
    Length,
    Charset,
    First,
}

/// Whether `c` is outside the rule's charset (a rule without one accepts every character).
fn outside(rule: &ToolName, c: char) -> bool {
    rule.charset
        .as_deref()
        .is_some_and(|charset| !wire::in_class(charset, c))
}

fn problem_kind(rule: &ToolName, measured: &str) -> Kind {
    if measured.chars().any(|c| outside(rule, c)) {
        Kind::Charset
    } else if measured.chars().count() > rule.max_length {
        Kind::Length
    } else {
        Kind::First
    }
}

/// What is wrong with `measured` under `rule`, or `None`.
fn problem(rule: &ToolName, measured: &str) -> Option<String> {
    // Each character once, in order of appearance.
    let mut seen = std::collections::HashSet::new();
    let outside: Vec<char> = measured
        .chars()
        .filter(|&c| outside(rule, c) && seen.insert(c))
        .collect();
    if !outside.is_empty() {
        let shown: Vec<String> = outside
            .iter()
            .take(3)
            .map(|c| match c {
                ' ' => "a space".to_string(),
                c => format!("`{c}`"),
            })
            .collect();
        return Some(format!(
            "has {}, outside [{}]",
            shown.join(", "),
            rule.charset.as_deref().unwrap_or_default()
        ));
    }
    let length = measured.chars().count();
    if length > rule.max_length {
        return Some(format!("is {length} characters, over {}", rule.max_length));
    }
    let first = rule.first.as_deref()?;
    let starts = measured.chars().next()?;
    (!wire::in_class(first, starts))
        .then(|| format!("starts with `{starts}`, not one of [{first}]"))
}

/// `name` with every character outside `charset` replaced by `_`.
fn replaced(charset: &str, name: &str) -> String {
    name.chars()
        .map(|c| if wire::in_class(charset, c) { c } else { '_' })
        .collect()
}
