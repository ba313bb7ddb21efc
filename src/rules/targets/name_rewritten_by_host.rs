//! The check of `name-rewritten-by-host`. Its code and docs are in
//! `rules/targets/name-rewritten-by-host.yaml`.

use serde::Deserialize;

use super::helpers::{ServerName, characters, named_tools, wire_of};
use crate::diagnostic::Field;
use crate::normalize::ToolSet;
use crate::rule::{Anchor, Ctx, Rule};
use crate::targets::profile::Check;
use crate::targets::{Active, wire};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameRewrittenByHost {}

impl Rule for NameRewrittenByHost {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        if targets.is_empty() {
            return;
        }
        // The selected hosts that write names their own way, with the constraint that says so.
        let hosts: Vec<Active> = targets
            .selected
            .iter()
            .filter_map(|profile| {
                wire_of(profile)?;
                let constraint = profile
                    .constraints
                    .iter()
                    .find(|c| matches!(c.check, Check::WireName(_)))?;
                Some(Active {
                    target: profile.name.clone(),
                    constraint: constraint.clone(),
                })
            })
            .collect();
        if hosts.is_empty() {
            return;
        }
        let server = ServerName::of(set, ctx);
        for (_, entry, name) in named_tools(set) {
            ctx.set_tool(Some(name));
            for host in &hosts {
                let Check::WireName(rule) = &host.constraint.check else {
                    continue;
                };
                let rewrite = wire::rewrite(rule, server.measured(), name);
                if !rewrite.changed() {
                    continue;
                }
                let sent = match rewrite.shortened.or(rewrite.cut) {
                    None => server.shown(rule, name),
                    // Shortened with no server name at all: shown as measured.
                    Some(_) => rewrite.sent.clone(),
                };
                let message = format!(
                    "tool name `{name}` reaches the model as `{sent}` ({}); {} {}",
                    what(&rewrite),
                    host.who(),
                    host.constraint.effect.verb()
                );
                let help = format!("{}; {}", fix(rule, &rewrite, name, &server), host.cite());
                ctx.report(Field::Name, Anchor::Value(&entry.value), message)
                    .help(help);
            }
        }
        ctx.set_tool(None);
    }
}

/// What the host did to the name, in a few words.
fn what(rewrite: &wire::Rewrite) -> String {
    let mut parts = Vec::new();
    if !rewrite.replaced.is_empty() {
        parts.push(format!("{} replaced with `_`", shown(&rewrite.replaced)));
    }
    if rewrite.prepended {
        parts.push("`_` put in front".to_string());
    }
    if let Some(before) = rewrite.shortened {
        parts.push(format!(
            "{before} characters shortened to {} around `...`",
            rewrite.sent.chars().count()
        ));
    }
    if let Some(before) = rewrite.cut {
        parts.push(format!(
            "{before} characters cut to {}",
            rewrite.sent.chars().count()
        ));
    }
    if parts.is_empty() {
        // The template alone cannot differ; keep the message whole all the same.
        parts.push("rewritten".to_string());
    }
    parts.join(", ")
}

/// `.`, a space, `:` (at most three).
fn shown(chars: &[char]) -> String {
    let mut shown: Vec<String> = chars
        .iter()
        .take(3)
        .map(|c| match c {
            ' ' => "a space".to_string(),
            c => format!("`{c}`"),
        })
        .collect();
    if chars.len() > 3 {
        shown.push(format!("{} more", chars.len() - 3));
    }
    shown.join(", ")
}

/// The fix: the characters to avoid, or how much shorter the name must be.
fn fix(
    rule: &crate::targets::profile::WireName,
    rewrite: &wire::Rewrite,
    name: &str,
    server: &ServerName,
) -> String {
    let mut fixes = Vec::new();
    if !rewrite.replaced.is_empty() || rewrite.prepended {
        let renamed: String = name
            .chars()
            .map(|c| if wire::replaces(rule, c) { '_' } else { c })
            .collect();
        fixes.push(format!(
            "name the tool as the model will see it (e.g. `{renamed}`), so that instructions \
             and other tools' descriptions that mention it name a tool the model has"
        ));
        if rewrite.prepended
            && let Some(first) = &rule.first
        {
            fixes.push(format!("start it with one of [{first}]"));
        }
    }
    let limit = rule.cut.or(rule.shorten_over);
    if let (Some(limit), Some(before)) = (limit, rewrite.shortened.or(rewrite.cut)) {
        fixes.push(format!(
            "shorten the tool name by {} or more to keep it whole; {}",
            characters(before.saturating_sub(limit)),
            server.said()
        ));
    }
    fixes.join("; ")
}
