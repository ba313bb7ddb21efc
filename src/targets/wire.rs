//! The name a host puts on the wire for a tool: its template (`mcp__{server}__{tool}`), then
//! its character rewriting and shortening, as the profile's `wire-name` check describes.

use super::profile::WireName;

/// Whether `c` is in a character class body such as `A-Za-z0-9_.:-` (ranges `x-y` and single
/// characters; a `-` first or last is literal).
pub fn in_class(class: &str, c: char) -> bool {
    let chars: Vec<char> = class.chars().collect();
    let mut index = 0;
    while index < chars.len() {
        if index + 2 < chars.len() && chars[index + 1] == '-' {
            if (chars[index]..=chars[index + 2]).contains(&c) {
                return true;
            }
            index += 3;
        } else {
            if chars[index] == c {
                return true;
            }
            index += 1;
        }
    }
    false
}

/// The name written with the template only (what the host means to send).
pub fn templated(template: &str, server: &str, tool: &str) -> String {
    template.replace("{server}", server).replace("{tool}", tool)
}

/// The name the host sends for `tool` of server `server`.
pub fn wire_name(wire: &WireName, server: &str, tool: &str) -> String {
    let mut name = templated(&wire.template, server, tool);
    if let Some(keep) = &wire.keep {
        name = name
            .chars()
            .map(|c| if in_class(keep, c) { c } else { '_' })
            .collect();
    }
    if let Some(first) = &wire.first
        && !name.chars().next().is_some_and(|c| in_class(first, c))
    {
        name.insert(0, '_');
    }
    if let (Some(over), Some(keep)) = (wire.shorten_over, wire.shorten_keep) {
        let count = name.chars().count();
        if count > over {
            let head: String = name.chars().take(keep).collect();
            let tail: String = name.chars().skip(count - keep.min(count)).collect();
            name = format!("{head}...{tail}");
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wire(template: &str, keep: Option<&str>) -> WireName {
        WireName {
            template: template.into(),
            keep: keep.map(Into::into),
            first: None,
            shorten_over: None,
            shorten_keep: None,
        }
    }

    #[test]
    fn claude_code_prefixes_and_replaces_dots() {
        let claude = wire("mcp__{server}__{tool}", Some("A-Za-z0-9_-"));
        assert_eq!(
            wire_name(&claude, "docs", "search.pages"),
            "mcp__docs__search_pages"
        );
    }

    #[test]
    fn gemini_cli_shortens_long_names_around_dots() {
        let gemini = WireName {
            first: Some("A-Za-z_".into()),
            shorten_over: Some(63),
            shorten_keep: Some(30),
            ..wire("mcp_{server}_{tool}", Some("A-Za-z0-9_.:-"))
        };
        let long = "a".repeat(70);
        let name = wire_name(&gemini, "srv", &long);
        assert_eq!(name.chars().count(), 63);
        assert!(name.starts_with("mcp_srv_aaa") && name.contains("...") && name.ends_with('a'));
        assert_eq!(wire_name(&gemini, "s p", "x"), "mcp_s_p_x");
    }

    #[test]
    fn a_class_reads_ranges_and_literal_dashes() {
        assert!(in_class("A-Za-z0-9_-", '-'));
        assert!(in_class("A-Za-z0-9_-", 'q'));
        assert!(!in_class("A-Za-z0-9_-", '.'));
        assert!(in_class("-a", '-'));
    }
}
