//! The check of `inconsistent-name-style`. Its code, docs and default options are in
//! `rules/names/inconsistent-name-style.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::ToolSet;
use crate::parse::Node;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InconsistentNameStyle {}

/// A naming style a multi-word name can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Snake,
    Camel,
    Pascal,
    Kebab,
}

impl Style {
    const ALL: [Style; 4] = [Style::Snake, Style::Camel, Style::Pascal, Style::Kebab];

    fn name(self) -> &'static str {
        match self {
            Style::Snake => "snake_case",
            Style::Camel => "camelCase",
            Style::Pascal => "PascalCase",
            Style::Kebab => "kebab-case",
        }
    }
}

/// The style of a tool name, or `None` for a name that fits every style (`search`, `Read`)
/// or none (`get_userInfo`, `Get-Item`, `a.b`). A namespace before the last `.` or `/`
/// (`math.factorial`) is not part of the name's style.
fn style(name: &str) -> Option<Style> {
    let name = name.rsplit(['.', '/']).next().unwrap_or(name);
    let name = name.trim_matches(|c| c == '_' || c == '-');
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    let underscore = name.contains('_');
    let hyphen = name.contains('-');
    let upper = name.chars().any(|c| c.is_ascii_uppercase());
    let lower = name.chars().any(|c| c.is_ascii_lowercase());
    let first_upper = name.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    match (underscore, hyphen) {
        (true, true) => None,
        // `SCREAMING_SNAKE` and `snake_case` are both snake; `get_userInfo` is neither.
        (true, false) => (!upper || !lower).then_some(Style::Snake),
        (false, true) => (!upper).then_some(Style::Kebab),
        (false, false) => {
            // One word (`search`, `Read`, `URL`) fits every style.
            let humps = name
                .char_indices()
                .skip(1)
                .filter(|&(_, c)| c.is_ascii_uppercase())
                .count();
            if humps == 0 || !lower {
                None
            } else if first_upper {
                Some(Style::Pascal)
            } else {
                Some(Style::Camel)
            }
        }
    }
}

impl Rule for InconsistentNameStyle {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        // Per style: how many names, and the first name's node.
        let mut counts = [0usize; 4];
        let mut first: [Option<&Node>; 4] = [None; 4];
        for tool in &set.tools {
            let Some(entry) = tool.name else {
                continue;
            };
            let Some(style) = entry.value.as_str().and_then(style) else {
                continue;
            };
            let index = style as usize;
            counts[index] += 1;
            first[index].get_or_insert(&entry.value);
        }
        let used: Vec<Style> = Style::ALL
            .into_iter()
            .filter(|style| counts[*style as usize] > 0)
            .collect();
        if used.len() < 2 {
            return;
        }
        // The most common style is the file's; the finding points at the first name of the
        // least common one (the later style on a tie).
        let count = |style: &Style| counts[*style as usize];
        let Some(major) = used.iter().copied().max_by_key(count) else {
            return;
        };
        let Some(minor) = used.iter().copied().rev().min_by_key(count) else {
            return;
        };
        let (Some(at), Some(major_first)) = (first[minor as usize], first[major as usize]) else {
            return;
        };
        let mix = used
            .iter()
            .map(|style| format!("{} {}", count(style), style.name()))
            .collect::<Vec<_>>()
            .join(", ");
        let name = at.as_str().unwrap_or_default();
        ctx.set_tool(Some(name));
        let diagnostic = ctx.report(
            Field::Name,
            Anchor::Value(at),
            format!(
                "tool names mix styles ({mix}); `{name}` is {}",
                minor.name()
            ),
        );
        diagnostic.related(
            format!("the most common style, {}, starts here", major.name()),
            major_first.span(),
        );
        for style in &used {
            if *style != major
                && *style != minor
                && let Some(node) = first[*style as usize]
            {
                diagnostic.related(format!("the first {} name", style.name()), node.span());
            }
        }
        diagnostic.help(format!(
            "name every tool of the set in one style ({} here); models copy names \
             exactly, and a mixed set invites `get-file` for `get_file`",
            major.name()
        ));
        ctx.set_tool(None);
    }
}

#[cfg(test)]
mod tests {
    use super::{Style, style};

    #[test]
    fn styles_of_names() {
        assert_eq!(style("read_file"), Some(Style::Snake));
        assert_eq!(style("READ_FILE"), Some(Style::Snake));
        assert_eq!(style("readFile"), Some(Style::Camel));
        assert_eq!(style("ReadFile"), Some(Style::Pascal));
        assert_eq!(style("read-file"), Some(Style::Kebab));
        assert_eq!(style("math.factorial_of"), Some(Style::Snake));
        for name in [
            "search",
            "Read",
            "URL",
            "get_userInfo",
            "Get-Item",
            "a_b-c",
            "",
            "é_x",
            "_",
        ] {
            assert_eq!(style(name), None, "{name}");
        }
    }
}
