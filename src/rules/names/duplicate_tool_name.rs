//! The check of `duplicate-tool-name`. Its code, docs and default options are in
//! `rules/names/duplicate-tool-name.yaml`.

use std::collections::hash_map::Entry as Slot;

use foldhash::{HashMap, HashMapExt};
use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::{Tool, ToolSet};
use crate::parse::Entry;
use crate::parse::code::Blocks;
use crate::rule::{Anchor, Ctx, Rule, RunCtx, SessionRef, SetRef};
use crate::rules::targets::helpers::wire_name;
use crate::targets::profile::Check;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuplicateToolName {}

impl Rule for DuplicateToolName {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let mut first: HashMap<&str, &Tool<'_>> = HashMap::new();
        // A source file's blocks, parsed at the first duplicate.
        let mut blocks = None;
        for tool in &set.tools {
            let Some(entry) = tool.name else {
                continue;
            };
            let Some(name) = entry.value.as_str() else {
                continue;
            };
            let Some(original) = first.get(name) else {
                first.insert(name, tool);
                continue;
            };
            let Some(original_name) = original.name else {
                continue;
            };
            // In server source, two registrations in two functions or two branches are
            // variants the server picks between when it starts (`CreateRunSafe` beside
            // `CreateRun`), not two tools it lists.
            let blocks = blocks.get_or_insert_with(|| Blocks::of(&ctx.file.name, &ctx.file.text));
            let (first_at, at) = (original_name.value.span().start, entry.value.span().start);
            if blocks
                .as_ref()
                .is_some_and(|blocks| !blocks.run_together(first_at, at))
            {
                continue;
            }
            // Some files gather the variants of a tool that a host picks from at run time;
            // say whether this one is a copy or a different definition.
            let help = if original.node.to_json() == tool.node.to_json() {
                "this definition is an exact copy of the first: delete one of them"
            } else {
                "the two definitions differ: give each tool its own name, or keep only the one \
                 the model should see"
            };
            ctx.set_tool(Some(name));
            ctx.report(
                Field::Name,
                Anchor::Value(&entry.value),
                format!("duplicate tool name `{name}`"),
            )
            .related(
                format!("`{name}` is first defined here"),
                original_name.value.span(),
            )
            .help(help);
        }
        ctx.set_tool(None);
    }

    /// Two tools of a session's files that the host sends under one name: compared by the
    /// wire name (`mcp__github__search` and `mcp__gitlab__search` do not clash). Two tools of
    /// one name in one file are `check_set`'s.
    fn check_session(&self, session: &SessionRef<'_>, sets: &[SetRef<'_>], ctx: &mut RunCtx<'_>) {
        let host = session.host;
        let mut first: HashMap<String, (usize, &Entry, &str)> = HashMap::new();
        for (index, set) in sets.iter().enumerate() {
            let server = session.servers[index];
            for tool in &set.set.tools {
                let Some(entry) = tool.name else {
                    continue;
                };
                let Some(name) = entry.value.as_str() else {
                    continue;
                };
                let wire = wire_name(host, server, name);
                let (first_index, first_entry, first_name) = match first.entry(wire) {
                    Slot::Vacant(slot) => {
                        slot.insert((index, entry, name));
                        continue;
                    }
                    Slot::Occupied(slot) => *slot.get(),
                };
                if first_index == index && first_name == name {
                    continue;
                }
                let first_server = session.servers[first_index];
                let wire = wire_name(host, server, name);
                let prefixing = host
                    .constraints
                    .iter()
                    .find(|constraint| matches!(constraint.check, Check::WireName(_)));
                let help = match prefixing {
                    Some(constraint) => format!(
                        "the model can call only one of them: rename one of the tools, or give \
                         the servers names that `{}` keeps apart; source: {} (verified {})",
                        host.name, constraint.source, constraint.verified
                    ),
                    None => format!(
                        "the model can call only one of them: `{}` sends tool names as they \
                         are, so rename one of the tools, or do not load both servers in one \
                         session",
                        host.name
                    ),
                };
                let file = ctx.file(index);
                file.set_tool(Some(name));
                file.report(
                    Field::Name,
                    Anchor::Value(&entry.value),
                    format!(
                        "duplicate tool name in session `{}`: `{name}` of server `{server}` and \
                         `{first_name}` of server `{first_server}` are both sent as `{wire}` by \
                         `{}`",
                        session.name, host.name
                    ),
                )
                .related_in(
                    format!("`{first_name}` of server `{first_server}` is defined here"),
                    sets[first_index].file,
                    first_entry.value.span(),
                )
                .help(help);
                file.set_tool(None);
            }
        }
    }
}
