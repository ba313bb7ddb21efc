//! The check of `names-collide-on-target`. Its code and docs are in
//! `rules/targets/names-collide-on-target.yaml`.

use std::collections::HashMap;

use serde::Deserialize;

use super::helpers::{ServerName, named_tools};
use crate::diagnostic::Field;
use crate::normalize::ToolSet;
use crate::parse::Node;
use crate::rule::{Anchor, Ctx, Rule};
use crate::targets::profile::Check;
use crate::targets::{Active, wire};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamesCollideOnTarget {}

impl Rule for NamesCollideOnTarget {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        if targets.is_empty() {
            return;
        }
        let server = ServerName::of(set, ctx);
        // Only a host that rewrites names can make two different names one; elsewhere equal
        // names on the wire are equal names (`duplicate-tool-name`).
        for profile in &targets.selected {
            let Some(constraint) = profile
                .constraints
                .iter()
                .find(|c| matches!(c.check, Check::WireName(_)))
            else {
                continue;
            };
            let Check::WireName(rule) = &constraint.check else {
                continue;
            };
            let host = Active {
                target: profile.name.clone(),
                constraint: constraint.clone(),
            };
            // The wire name -> the first tool's own name and its node.
            let mut first: HashMap<String, (&str, &Node)> = HashMap::new();
            for (_, entry, name) in named_tools(set) {
                let sent = wire::wire_name(rule, server.measured(), name);
                let Some(&(other, other_node)) = first.get(&sent) else {
                    first.insert(sent, (name, &entry.value));
                    continue;
                };
                if other == name {
                    // The same name twice is `duplicate-tool-name`'s.
                    continue;
                }
                ctx.set_tool(Some(name));
                ctx.report(
                    Field::Name,
                    Anchor::Value(&entry.value),
                    format!(
                        "tool names `{other}` and `{name}` both reach the model as `{}`; {} \
                         rewrites both into that one name",
                        server.shown(rule, name),
                        host.who()
                    ),
                )
                .related(format!("`{other}` is defined here"), other_node.span())
                .help(format!(
                    "rename one of the two so that they differ once the host has written them \
                     (the model can call only one of them, and which one the host runs is \
                     its choice); {}",
                    host.cite()
                ));
            }
        }
        ctx.set_tool(None);
    }
}
