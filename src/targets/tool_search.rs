//! How a host that defers MCP tools behind its own tool search loads them: Claude Code's
//! `ENABLE_TOOL_SEARCH` (`tool-search:` of a session).

/// The host that defers a session's MCP tools by [`ToolSearch`] and finds them with its
/// ToolSearch.
pub const DEFERRING_HOST: &str = "claude-code";

/// `tool-search:` of a session: Claude Code's `ENABLE_TOOL_SEARCH`, which decides whether the
/// host loads MCP tools up front or defers them behind its ToolSearch (code.claude.com/docs/en/
/// mcp, read 2026-12-04). A tool with `alwaysLoad` stays loaded in every mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolSearch {
    /// Unset: the current releases' default, every MCP tool deferred.
    #[default]
    Default,
    /// `true`: deferred.
    On,
    /// `false`: every tool loaded up front.
    Off,
    /// `auto` (10) or `auto:N`: all deferred once the definitions reach N% of the window,
    /// else all loaded.
    Auto(u8),
}

impl ToolSearch {
    /// `true`, `false`, `auto` or `auto:N` (N from 0 to 100).
    pub fn parse(text: &str) -> Option<ToolSearch> {
        match text.trim() {
            "true" => Some(ToolSearch::On),
            "false" => Some(ToolSearch::Off),
            "auto" => Some(ToolSearch::Auto(10)),
            other => {
                let percent: u8 = other.strip_prefix("auto:")?.parse().ok()?;
                (percent <= 100).then_some(ToolSearch::Auto(percent))
            }
        }
    }

    /// `ENABLE_TOOL_SEARCH` of this process's environment, for the servers of a host config
    /// (as Claude Code reads it); the default when unset or not a mode.
    pub fn from_env() -> ToolSearch {
        std::env::var("ENABLE_TOOL_SEARCH")
            .ok()
            .and_then(|value| ToolSearch::parse(&value))
            .unwrap_or_default()
    }

    /// As written in the config (`default` when unset).
    pub fn as_string(self) -> String {
        match self {
            ToolSearch::Default => "default".to_string(),
            ToolSearch::On => "true".to_string(),
            ToolSearch::Off => "false".to_string(),
            ToolSearch::Auto(percent) => format!("auto:{percent}"),
        }
    }

    /// Whether the host defers the tools without `alwaysLoad`, `definitions` being their
    /// tokens in a `window`-token context (`auto:N`: all or nothing at N% of it).
    pub fn defers(self, definitions: usize, window: usize) -> bool {
        match self {
            ToolSearch::Default | ToolSearch::On => true,
            ToolSearch::Off => false,
            ToolSearch::Auto(percent) => {
                definitions as f64 >= window as f64 * f64::from(percent) / 100.0
            }
        }
    }

    /// Whether every tool without `alwaysLoad` is deferred whatever the set's size (`auto`
    /// depends on it: all or nothing at its threshold).
    pub fn always_defers(self) -> bool {
        matches!(self, ToolSearch::Default | ToolSearch::On)
    }
}

#[cfg(test)]
mod tests {
    use super::ToolSearch;

    #[test]
    fn modes_read_as_claude_code_reads_enable_tool_search() {
        assert_eq!(ToolSearch::parse("true"), Some(ToolSearch::On));
        assert_eq!(ToolSearch::parse("false"), Some(ToolSearch::Off));
        assert_eq!(ToolSearch::parse("auto"), Some(ToolSearch::Auto(10)));
        assert_eq!(ToolSearch::parse("auto:0"), Some(ToolSearch::Auto(0)));
        assert_eq!(ToolSearch::parse("auto:100"), Some(ToolSearch::Auto(100)));
        for wrong in ["auto:101", "auto:", "auto:x", "yes", "TRUE", ""] {
            assert_eq!(ToolSearch::parse(wrong), None, "{wrong}");
        }
    }

    #[test]
    fn auto_is_all_or_nothing_at_its_share_of_the_window() {
        assert!(ToolSearch::Default.defers(0, 200_000));
        assert!(!ToolSearch::Off.defers(1_000_000, 200_000));
        assert!(!ToolSearch::Auto(10).defers(19_999, 200_000));
        assert!(ToolSearch::Auto(10).defers(20_000, 200_000));
    }
}
