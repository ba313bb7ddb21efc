//! The check of `tool-not-listed-by-host`. Its code and docs are in
//! `rules/targets/tool-not-listed-by-host.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::{Dialect, Tool};
use crate::rule::{Anchor, Ctx, Rule};
use crate::targets::profile::Check;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolNotListedByHost {}

impl Rule for ToolNotListedByHost {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        if targets.is_empty() {
            return;
        }
        // Not a format without a snippet field (MCP, a provider's): whatever adapts it for the
        // host decides the snippet. A plain `name`/`description`/`parameters` tool is the
        // shape of a pi extension's tool, with the snippet left out.
        if !matches!(
            tool.dialect,
            Dialect::Harness | Dialect::Native | Dialect::Generic
        ) {
            return;
        }
        // Nor an entry of a provider request (`type: tool_search` with `parameters`): a pi
        // tool has no `type`.
        if tool.node.get("type").is_some() {
            return;
        }
        let Some(name) = tool.name else {
            return;
        };
        if name
            .value
            .as_str()
            .is_none_or(|name| name.trim().is_empty())
        {
            return;
        }
        // The host trims the snippet and collapses its white space: a blank one is none.
        let snippet = tool
            .snippet()
            .and_then(|node| node.as_str())
            .is_some_and(|text| !text.trim().is_empty());
        if snippet {
            return;
        }
        let has_text = |node: Option<&crate::parse::Node>| {
            node.and_then(|node| node.as_str())
                .is_some_and(|text| !text.trim().is_empty())
        };
        let guided = tool
            .guidelines()
            .any(|node| node.as_str().is_some_and(|text| !text.trim().is_empty()));
        let described = has_text(tool.description());
        if !guided && !described {
            return;
        }
        for active in targets.checks(|check| matches!(check, Check::SnippetRequired)) {
            let what = match (described, guided) {
                (true, true) => "a description and guidelines",
                (true, false) => "a description",
                _ => "guidelines",
            };
            let message = format!(
                "the tool has {what} but no snippet; {} leaves it out of the system prompt's \
                 `Available tools:` list",
                active.who()
            );
            let help = format!(
                "add a one-line snippet (`promptSnippet`) saying what the tool does, so that \
                 the tool is listed; {}",
                active.cite()
            );
            ctx.report(Field::Name, Anchor::Value(&name.value), message)
                .help(help);
        }
    }
}
