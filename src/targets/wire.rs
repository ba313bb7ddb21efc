//! The name a host puts on the wire for a tool: its template (`mcp__{server}__{tool}`), then
//! its character rewriting and shortening, as the profile's `wire-name` check describes.
//! The hosts modelled are JavaScript programs: they replace characters one UTF-16 unit at a
//! time (a character outside the BMP becomes `__`) and measure lengths in UTF-16 units.

use super::profile::{ServerPart, WireName};

/// Whether `c` is in a character class body such as `A-Za-z0-9_.:-` (ranges `x-y` and single
/// characters; a `-` first or last is literal).
pub fn in_class(class: &str, c: char) -> bool {
    // No allocation: it runs once per character of every name checked.
    let mut chars = class.chars().peekable();
    while let Some(low) = chars.next() {
        let mut ahead = chars.clone();
        if ahead.next() == Some('-')
            && let Some(high) = ahead.next()
        {
            if (low..=high).contains(&c) {
                return true;
            }
            chars = ahead;
        } else if low == c {
            return true;
        }
    }
    false
}

/// The name written with the template only (what the host means to send).
pub fn templated(template: &str, server: &str, tool: &str) -> String {
    template.replace("{server}", server).replace("{tool}", tool)
}

/// What a host did to the tool's own part of the name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rewrite {
    /// The name the host sends.
    pub sent: String,
    /// The name it would send if it kept the tool's name as it is (its template and its own
    /// writing of the server name only).
    pub expected: String,
    /// Characters of the tool name the host replaced with `_`, each once, in order.
    pub replaced: Vec<char>,
    /// A `_` was put in front.
    pub prepended: bool,
    /// Shortened around `...`: the length before, in UTF-16 units.
    pub shortened: Option<usize>,
    /// Cut without a marker: the length before, in UTF-16 units.
    pub cut: Option<usize>,
}

impl Rewrite {
    /// Whether the host sends something other than the tool's name in its template.
    pub fn changed(&self) -> bool {
        self.sent != self.expected
    }
}

/// The server name as the host writes it inside the template.
fn server_part(rule: Option<&ServerPart>, server: &str) -> String {
    let Some(rule) = rule else {
        return server.to_string();
    };
    let lowered;
    let server = if rule.lower {
        lowered = server.to_lowercase();
        lowered.as_str()
    } else {
        server
    };
    let mut out = String::with_capacity(server.len());
    let mut in_run = false;
    for c in server.chars() {
        match &rule.keep {
            Some(keep) if !in_class(keep, c) => {
                if !in_run {
                    out.push('_');
                }
                in_run = true;
            }
            _ => {
                out.push(c);
                in_run = false;
            }
        }
    }
    match rule.max {
        Some(max) => out.chars().take(max).collect(),
        None => out,
    }
}

/// Whether the host replaces `c` with `_`.
pub fn replaces(wire: &WireName, c: char) -> bool {
    wire.keep.as_deref().is_some_and(|keep| !in_class(keep, c))
        || wire.replace.as_deref().is_some_and(|set| in_class(set, c))
}

/// `name` with the host's character replacement.
fn replace_chars(wire: &WireName, name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if replaces(wire, c) {
            for _ in 0..c.len_utf16() {
                out.push('_');
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn units(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// The templated name with the host's prefix.
fn with_prefix(wire: &WireName, name: String) -> String {
    match &wire.prefix {
        Some(prefix) if !name.starts_with(prefix.as_str()) => format!("{prefix}{name}"),
        _ => name,
    }
}

/// The name the host sends for `tool` of server `server`, and what it changed in the tool's
/// own part.
pub fn rewrite(wire: &WireName, server: &str, tool: &str) -> Rewrite {
    let server = server_part(wire.server.as_ref(), server);
    let written_server = replace_chars(wire, &server);
    let mut expected = with_prefix(wire, templated(&wire.template, &written_server, tool));
    // A `_` the host puts in front because of its prefix or the server name is not the tool
    // name's doing.
    let tool_leads = with_prefix(wire, templated(&wire.template, &written_server, "")).is_empty();
    if let Some(first) = &wire.first
        && !tool_leads
        && !expected.chars().next().is_some_and(|c| in_class(first, c))
    {
        expected.insert(0, '_');
    }
    let mut name = replace_chars(
        wire,
        &with_prefix(wire, templated(&wire.template, &server, tool)),
    );
    let mut rewrite = Rewrite::default();
    let mut seen = std::collections::HashSet::new();
    rewrite.replaced = tool
        .chars()
        .filter(|&c| replaces(wire, c) && seen.insert(c))
        .collect();
    if let Some(first) = &wire.first
        && !name.chars().next().is_some_and(|c| in_class(first, c))
    {
        name.insert(0, '_');
        rewrite.prepended = tool_leads;
    }
    if let (Some(over), Some(keep)) = (wire.shorten_over, wire.shorten_keep) {
        let length = units(&name);
        if length > over {
            let count = name.chars().count();
            let head: String = name.chars().take(keep).collect();
            let tail: String = name.chars().skip(count.saturating_sub(keep)).collect();
            name = format!("{head}...{tail}");
            rewrite.shortened = Some(length);
        }
    }
    if let Some(cut) = wire.cut {
        let length = units(&name);
        if length > cut {
            let mut kept = 0;
            name = name
                .chars()
                .take_while(|c| {
                    kept += c.len_utf16();
                    kept <= cut
                })
                .collect();
            rewrite.cut = Some(length);
        }
    }
    rewrite.sent = name;
    rewrite.expected = expected;
    rewrite
}

/// The name the host sends for `tool` of server `server`.
pub fn wire_name(wire: &WireName, server: &str, tool: &str) -> String {
    rewrite(wire, server, tool).sent
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wire(template: &str, keep: Option<&str>) -> WireName {
        WireName {
            template: template.into(),
            server: None,
            prefix: None,
            keep: keep.map(Into::into),
            replace: None,
            first: None,
            shorten_over: None,
            shorten_keep: None,
            cut: None,
        }
    }

    fn gemini_cli() -> WireName {
        WireName {
            prefix: Some("mcp_".into()),
            first: Some("A-Za-z_".into()),
            shorten_over: Some(63),
            shorten_keep: Some(30),
            ..wire("{server}_{tool}", Some("A-Za-z0-9_.:-"))
        }
    }

    fn vscode() -> WireName {
        WireName {
            server: Some(ServerPart {
                lower: true,
                keep: Some("a-z0-9_.-".into()),
                max: Some(13),
            }),
            replace: Some(".".into()),
            cut: Some(64),
            ..wire("mcp_{server}_{tool}", None)
        }
    }

    #[test]
    fn claude_code_prefixes_and_replaces_dots() {
        let claude = wire("mcp__{server}__{tool}", Some("A-Za-z0-9_-"));
        let rewrite = rewrite(&claude, "docs", "search.pages");
        assert_eq!(rewrite.sent, "mcp__docs__search_pages");
        assert_eq!(rewrite.expected, "mcp__docs__search.pages");
        assert_eq!(rewrite.replaced, vec!['.']);
        assert!(rewrite.changed());
        // The server's own dot is the host's writing of the server, not a rewritten tool.
        assert!(!super::rewrite(&claude, "my.docs", "search").changed());
        // One `_` per UTF-16 unit.
        assert_eq!(wire_name(&claude, "s", "a😀"), "mcp__s__a__");
    }

    #[test]
    fn gemini_cli_prefixes_once_and_shortens_long_names() {
        let gemini = gemini_cli();
        // google-gemini/gemini-cli logs this one as shortened.
        let rewrite = rewrite(
            &gemini,
            "google-maps-platform-code-assist",
            "retrieve-google-maps-platform-docs",
        );
        assert_eq!(
            rewrite.sent,
            "mcp_google-maps-platform-code-...ieve-google-maps-platform-docs"
        );
        assert_eq!(rewrite.sent.len(), 63);
        assert_eq!(rewrite.shortened, Some(71));
        assert_eq!(wire_name(&gemini, "s p", "x"), "mcp_s_p_x");
        assert_eq!(wire_name(&gemini, "mcp", "x"), "mcp_x");
        let plain = super::rewrite(&gemini, "srv", "a.b:c");
        assert_eq!(plain.sent, "mcp_srv_a.b:c");
        assert!(!plain.changed());
    }

    #[test]
    fn a_leading_character_outside_first_gets_an_underscore() {
        let host = WireName {
            first: Some("A-Za-z_".into()),
            ..wire("{tool}", None)
        };
        let rewrite = rewrite(&host, "s", "1password");
        assert_eq!(rewrite.sent, "_1password");
        assert!(rewrite.prepended && rewrite.changed());
        let server_first = WireName {
            first: Some("A-Za-z_".into()),
            ..wire("{server}_{tool}", None)
        };
        assert!(!super::rewrite(&server_first, "1s", "tool").changed());
    }

    #[test]
    fn vscode_writes_a_short_server_prefix_and_cuts_at_64() {
        let vscode = vscode();
        assert_eq!(
            wire_name(&vscode, "Context7", "resolve-library-id"),
            "mcp_context7_resolve-library-id"
        );
        assert_eq!(
            wire_name(&vscode, "io.github.upstash/context7", "a.b"),
            "mcp_io_github_ups_a_b"
        );
        let long = "x".repeat(70);
        let rewrite = rewrite(&vscode, "srv", &long);
        assert_eq!(rewrite.sent.len(), 64);
        assert_eq!(rewrite.cut, Some(78));
        assert!(!super::rewrite(&vscode, "My Server", "search").changed());
    }

    #[test]
    fn odd_names_and_servers_do_not_panic() {
        let long: String = "😀a.é\u{0}".repeat(50_000);
        for host in [
            gemini_cli(),
            vscode(),
            wire("mcp__{server}__{tool}", Some("A-Za-z0-9_-")),
        ] {
            for (server, tool) in [
                ("", ""),
                ("😀", "😀"),
                (long.as_str(), "x"),
                ("s", long.as_str()),
            ] {
                let rewrite = rewrite(&host, server, tool);
                if let Some(cut) = host.cut {
                    assert!(units(&rewrite.sent) <= cut);
                }
            }
        }
    }

    #[test]
    fn a_class_reads_ranges_and_literal_dashes() {
        assert!(in_class("A-Za-z0-9_-", '-'));
        assert!(in_class("A-Za-z0-9_-", 'q'));
        assert!(!in_class("A-Za-z0-9_-", '.'));
        assert!(in_class("-a", '-'));
    }
}
