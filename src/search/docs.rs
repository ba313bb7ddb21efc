//! From normalized tools to search [`Doc`]s: the name the engine sees (the host's wire name
//! for an MCP server's tools), the description, the search hint and every argument.

use crate::normalize::{Dialect, Tool, ToolSet};
use crate::targets::profile::WireName;
use crate::targets::wire;

use super::Doc;

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
