//! What the `targets` checks share: the server name a host prefixes tool names with, and the
//! name a selected target puts on the wire.

use std::path::Path;

use crate::normalize::ToolSet;
use crate::rule::Ctx;
use crate::targets::profile::{Check, WireName};
use crate::targets::{Profile, wire};

/// The server name hosts prefix a file's tool names with, and where it came from.
pub struct ServerName {
    pub name: String,
    /// For a help: `--server-name`, the file's session, its `server`, or its file name.
    pub origin: &'static str,
    /// `false` when `name` is only the file name: the name in the host's config is unknown
    /// (a capture named `modelcontextprotocol__server-filesystem.json` is the server
    /// `filesystem`), so a check that depends on its length must not guess it.
    pub known: bool,
}

impl ServerName {
    pub fn of(set: &ToolSet<'_>, ctx: &Ctx<'_>) -> ServerName {
        if let Some(name) = &ctx.targets.server_name {
            return ServerName {
                name: name.clone(),
                origin: "`--server-name`",
                known: true,
            };
        }
        if let Some(name) = &ctx.session_server {
            return ServerName {
                name: name.clone(),
                origin: "the file's session in toolcheck.yaml",
                known: true,
            };
        }
        if let Some(name) = set.server.and_then(|entry| entry.value.as_str()) {
            return ServerName {
                name: name.to_string(),
                origin: "the file's `server`",
                known: true,
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
            known: false,
        }
    }
}

impl ServerName {
    /// The server name to measure with: empty when unknown, so that what is reported holds
    /// whatever the host config calls the server.
    pub fn measured(&self) -> &str {
        if self.known { &self.name } else { "" }
    }

    /// The name `wire` sends for `tool`, as a message shows it: `<server>` stands for an
    /// unknown server name (a placeholder of lower-case letters survives every host's
    /// rewriting of the server part).
    pub fn shown(&self, wire: &WireName, tool: &str) -> String {
        if self.known {
            return wire::wire_name(wire, &self.name, tool);
        }
        wire::wire_name(wire, "server", tool).replacen("server", "<server>", 1)
    }

    /// Where the server name comes from, for a help.
    pub fn said(&self) -> String {
        if self.known {
            format!("the server name `{}` comes from {}", self.name, self.origin)
        } else {
            "counted without the server name, which the host config gives; `--server-name` \
             checks with it"
                .to_string()
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

/// The tools of `set` with a name that is a non-blank string, and that name (a missing, empty
/// or blank name is `invalid-tool-name`'s).
pub fn named_tools<'s, 'a>(
    set: &'s ToolSet<'a>,
) -> impl Iterator<
    Item = (
        &'s crate::normalize::Tool<'a>,
        &'a crate::parse::Entry,
        &'a str,
    ),
> + 's {
    set.tools.iter().filter_map(|tool| {
        let entry = tool.name?;
        let name = entry
            .value
            .as_str()
            .filter(|name| !name.trim().is_empty())?;
        Some((tool, entry, name))
    })
}

/// Where a finding about a whole file points: its `tools` key, else its first character.
pub fn file_target<'a>(set: &ToolSet<'a>) -> Option<crate::rule::Anchor<'a>> {
    use crate::rule::Anchor;
    match (set.tools_entry, set.root) {
        (Some(entry), _) => Some(Anchor::Key(entry)),
        (None, Some(root)) => Some(Anchor::Start(root)),
        (None, None) => None,
    }
}

#[cfg(test)]
pub use test_support::messages;

/// Test support, which may use the whole crate.
#[cfg(test)]
mod test_support {
    /// The messages of the findings of `code` when `tools` (an MCP `tools` list) is linted under
    /// `targets`.
    pub fn messages(code: &str, targets: &[&str], tools: serde_json::Value) -> Vec<String> {
        use crate::catalog::Registry;
        use crate::config::Config;
        use crate::lint::{Linter, Overrides};
        use crate::parse::source::SourceFile;
        let registry = Registry::builtin().expect("the built-in catalog loads");
        let config = Config::defaults(".".into());
        let overrides = Overrides {
            select: Some(vec![code.to_string()]),
            targets: Some(targets.iter().map(|t| t.to_string()).collect()),
            ..Default::default()
        };
        let linter = Linter::new(&registry, &config, &overrides).expect("a valid selection");
        let text = serde_json::json!({ "tools": tools }).to_string();
        linter
            .lint(SourceFile::new("t.json", text), true)
            .diagnostics
            .iter()
            .filter(|d| *d.code == *code)
            .map(|d| d.message.clone())
            .collect()
    }
}
