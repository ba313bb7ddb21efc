//! What the `targets` checks share: the server name a host prefixes tool names with, and the
//! name a selected target puts on the wire.

use std::path::Path;

use crate::lint::rule::Ctx;
use crate::normalize::ToolSet;
use crate::targets::profile::{Check, WireName};
use crate::targets::{Profile, wire};

/// The server name hosts prefix a file's tool names with, and where it came from.
pub struct ServerName {
    pub name: String,
    /// For a help: `--server-name`, the file's `server:`, or its file name.
    pub origin: &'static str,
}

impl ServerName {
    pub fn of(set: &ToolSet<'_>, ctx: &Ctx<'_>) -> ServerName {
        if let Some(name) = &ctx.targets.server_name {
            return ServerName {
                name: name.clone(),
                origin: "`--server-name`",
            };
        }
        if let Some(name) = set.server.and_then(|entry| entry.value.as_str()) {
            return ServerName {
                name: name.to_string(),
                origin: "the file's `server`",
            };
        }
        let stem = Path::new(&ctx.file.name)
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        // `github.tools.json` is the server `github`.
        let stem = stem.split('.').next().unwrap_or(stem);
        ServerName {
            name: stem.to_string(),
            origin: "the file name (set `--server-name` to the name the host config uses)",
        }
    }
}

/// How `profile` writes tool names on the wire: its first `wire-name` constraint (a host's own
/// comes before its provider's), or the name as it is.
pub fn wire_of(profile: &Profile) -> Option<&WireName> {
    profile
        .constraints
        .iter()
        .find_map(|constraint| match &constraint.check {
            Check::WireName(wire) => Some(wire),
            _ => None,
        })
}

/// The name `profile` sends for `tool` of `server`.
pub fn wire_name(profile: &Profile, server: &str, tool: &str) -> String {
    match wire_of(profile) {
        Some(wire) => wire::wire_name(wire, server, tool),
        None => tool.to_string(),
    }
}

/// `1 character`, `17 characters`.
pub fn characters(count: usize) -> String {
    match count {
        1 => "1 character".to_string(),
        count => format!("{count} characters"),
    }
}
