//! From normalized tools to search [`Doc`]s: the name the engine sees (the host's wire name
//! for an MCP server's tools), the description, the search hint and every argument.

use crate::normalize::{Dialect, Tool, ToolSet};
use crate::targets::profile::WireName;
use crate::targets::tool_search::ToolSearch;
use crate::targets::wire;

use super::{Doc, Engine};

/// Which tools a search can return. A tool search matches only the deferred tools, those not
/// in the context yet: Claude Code's ToolSearch "matches [the query] against the deferred tool
/// list" (its description in 2.1.x), Anthropic's and OpenAI's search the tools marked
/// `defer_loading`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deferral {
    /// Claude Code in this `tool-search:` mode: every tool of an MCP server, and any marked
    /// `defer_loading`, but those kept loaded (`alwaysLoad`); none under `false`. `auto` is
    /// taken as deferring: below its threshold nothing is deferred, and every tool is
    /// searched as [`searchable`] says.
    Host(ToolSearch),
    /// The tools marked `defer_loading`.
    Marked,
}

impl Deferral {
    /// What `engine` searches outside a session: Claude Code's default mode for its engines,
    /// the marked tools for a provider's.
    pub fn of_engine(engine: Engine) -> Deferral {
        match engine.host_names() {
            true => Deferral::Host(ToolSearch::Default),
            false => Deferral::Marked,
        }
    }

    /// What a session's host searches: Claude Code's by the session's mode, another host's
    /// the marked tools.
    pub fn of_host(host: &str, mode: ToolSearch) -> Deferral {
        match host == crate::targets::tool_search::DEFERRING_HOST {
            true => Deferral::Host(mode),
            false => Deferral::Marked,
        }
    }

    /// Whether `tool` is deferred; `server`: it is an MCP server's (a host defers those).
    pub fn defers(self, tool: &Tool<'_>, server: bool) -> bool {
        match self {
            Deferral::Host(ToolSearch::Off) => false,
            Deferral::Host(_) => !tool.always_load && (server || tool.defer_loading),
            Deferral::Marked => tool.defer_loading,
        }
    }
}

/// The items a search can return, each given with whether it is deferred: the deferred ones;
/// when none is, all of them (how they would rank once deferred: a set that defers nothing is
/// still worth searching). With how many were left out as loaded.
pub fn searchable<T>(items: Vec<(T, bool)>) -> (Vec<T>, usize) {
    let total = items.len();
    if !items.iter().any(|(_, deferred)| *deferred) {
        return (items.into_iter().map(|(item, _)| item).collect(), 0);
    }
    let kept: Vec<T> = items
        .into_iter()
        .filter_map(|(item, deferred)| deferred.then_some(item))
        .collect();
    let loaded = total - kept.len();
    (kept, loaded)
}

/// How the tools of one file are named for an engine: the host's `wire-name` rule and the
/// server name, when the file is an MCP server's.
#[derive(Debug, Clone, Copy, Default)]
pub struct Naming<'a> {
    pub wire: Option<&'a WireName>,
    /// The server name (`--server-name`, the session's, the file's `server`, else its file
    /// name); `None`: the names are used as they are.
    pub server: Option<&'a str>,
}

impl Naming<'_> {
    /// The name the engine sees for `tool`.
    pub fn name(&self, tool: &str) -> String {
        match (self.wire, self.server) {
            (Some(wire), Some(server)) => wire::wire_name(wire, server, tool),
            _ => tool.to_string(),
        }
    }
}

/// Whether a host loads `set` as an MCP server's tools (and so prefixes their names): an MCP
/// `tools/list`, or a native set file with a `server`.
pub fn is_server(set: &ToolSet<'_>) -> bool {
    set.server.is_some() || set.tools.iter().any(|tool| tool.dialect == Dialect::Mcp)
}

/// One tool as a search engine sees it.
pub fn doc_of(tool: &Tool<'_>, file: &str, naming: &Naming<'_>) -> Doc {
    let text = |entry: Option<&crate::parse::Entry>| {
        entry
            .and_then(|entry| entry.value.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let mut args = Vec::new();
    if let Some(schema) = tool.input_schema() {
        crate::normalize::schema::walk_properties(schema, &mut |entry| {
            let description = entry
                .value
                .get("description")
                .and_then(|node| node.as_str())
                .unwrap_or_default();
            args.push((entry.key.to_string(), description.to_string()));
        });
    }
    // Most tools have a few arguments: a set of 100,000 would otherwise keep room for four
    // each (19 MB for 100,000 tools of one argument).
    args.shrink_to_fit();
    Doc {
        name: naming.name(tool.name()),
        tool: tool.name().to_string(),
        file: file.to_string(),
        description: text(tool.description),
        hint: text(tool.search_hint),
        args,
    }
}

/// The tools of `set` that have a name (a nameless tool cannot be found or called), with
/// their index in `set.tools`.
pub fn docs_of<'s>(
    set: &'s ToolSet<'_>,
    file: &'s str,
    naming: &'s Naming<'_>,
) -> impl Iterator<Item = (usize, Doc)> + 's {
    set.tools
        .iter()
        .enumerate()
        .filter(|(_, tool)| !tool.name().trim().is_empty())
        .map(move |(index, tool)| (index, doc_of(tool, file, naming)))
}

#[cfg(test)]
mod tests {
    use super::searchable;

    #[test]
    fn only_deferred_items_are_searchable_unless_none_is() {
        assert_eq!(
            searchable(vec![("a", false), ("b", true), ("c", true)]),
            (vec!["b", "c"], 1)
        );
        assert_eq!(
            searchable(vec![("a", false), ("b", false)]),
            (vec!["a", "b"], 0)
        );
        assert_eq!(searchable(Vec::<(&str, bool)>::new()), (vec![], 0));
    }
}
