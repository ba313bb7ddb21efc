//! Suppressions: `# toolcheck: ignore[rule, ...]` comments in YAML (on the offending line or
//! the line above), `# toolcheck: ignore-file[rule, ...]` anywhere in a file, the same after
//! `//` in server source, and config `per-file-ignores` (the only way for JSON). An optional
//! ` -- reason` follows the brackets.

use std::ops::Range;

use crate::parse::{Node, NodeKind, Span};

/// One `toolcheck:` comment.
#[derive(Debug, Clone)]
pub struct Directive {
    /// The comment, from `#` to the end of the line.
    pub span: Span,
    /// Byte range whose findings it covers (`None`: the whole file).
    pub covers: Option<Range<usize>>,
    pub rules: Vec<RuleRef>,
    pub reason: Option<String>,
    /// Why the comment cannot be used, when it is malformed (e.g. names no rule).
    pub problem: Option<String>,
}

/// A rule named in a directive, with where it is written.
#[derive(Debug, Clone)]
pub struct RuleRef {
    pub name: String,
    pub span: Span,
}

/// How a line comment starts: `#` in YAML and Python, `//` in TypeScript, JavaScript and Go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comments {
    Hash,
    Slashes,
}

impl Comments {
    /// The comments of the file named `name`.
    pub fn of_file(name: &str) -> Comments {
        use crate::parse::code::Language;
        match Language::of(std::path::Path::new(name)) {
            Some(Language::TypeScript | Language::Tsx | Language::Go) => Comments::Slashes,
            Some(Language::Python) | None => Comments::Hash,
        }
    }

    pub fn marker(self) -> &'static str {
        match self {
            Comments::Hash => "#",
            Comments::Slashes => "//",
        }
    }
}

/// The `toolcheck:` comments of a text whose comments start as `comments` says. `root` is the
/// parsed document, whose string values tell a `#` (or `//`) inside text from a comment.
pub fn directives(text: &str, root: Option<&Node>, comments: Comments) -> Vec<Directive> {
    if !text.contains("toolcheck:") {
        return Vec::new();
    }
    let mut strings = Vec::new();
    let mut entries = Vec::new();
    if let Some(root) = root {
        collect(root, &mut strings, &mut entries);
    }
    strings.sort_by_key(|span: &Span| span.start);
    entries.sort_by_key(|span: &Span| span.start);
    let inside_string = |offset: usize| {
        let index = strings.partition_point(|span| span.start <= offset);
        index > 0 && offset < strings[index - 1].end
    };
    let lines = line_ranges(text);
    let mut found = Vec::new();
    for (number, line) in lines.iter().enumerate() {
        let Some(hash) = comment_start(text, line.clone(), comments, &inside_string) else {
            continue;
        };
        let comment = &text[hash + comments.marker().len()..line.end];
        let Some(body) = comment.trim_start().strip_prefix("toolcheck:") else {
            continue;
        };
        let body_start = line.end - body.len();
        let own_line = text[line.start..hash].trim().is_empty();
        let target_line = if own_line {
            lines[number + 1..]
                .iter()
                .find(|next| !is_blank_or_comment(&text[(*next).clone()], comments))
                .cloned()
        } else {
            Some(line.clone())
        };
        let mut directive = parse(body, body_start, hash..line.end);
        if directive.covers.is_some() {
            directive.covers = target_line.map(|target| extend_to_entry(target, &entries));
        }
        found.push(directive);
    }
    found
}

/// Parses `ignore[a, b] -- reason` or `ignore-file[a] -- reason` (`body` starts after
/// `toolcheck:`, at byte `start`).
fn parse(body: &str, start: usize, span: Span) -> Directive {
    let mut directive = Directive {
        span,
        covers: Some(0..0),
        rules: Vec::new(),
        reason: None,
        problem: None,
    };
    let trimmed = body.trim_start();
    let offset = start + (body.len() - trimmed.len());
    let (kind, rest) = match trimmed.find('[') {
        Some(open) => (trimmed[..open].trim(), &trimmed[open..]),
        None => (trimmed.split(" --").next().unwrap_or_default().trim(), ""),
    };
    match kind {
        "ignore" => {}
        "ignore-file" => directive.covers = None,
        other => {
            directive.problem = Some(format!(
                "unknown directive `toolcheck: {other}`; use `ignore[rule]` or `ignore-file[rule]`"
            ));
            return directive;
        }
    }
    let Some(close) = rest.find(']') else {
        directive.problem = Some(format!(
            "`toolcheck: {kind}` must name the rules it suppresses, e.g. `# toolcheck: {kind}[absolute-words]`"
        ));
        return directive;
    };
    let list_start = offset + (trimmed.len() - rest.len()) + 1;
    let mut position = list_start;
    for item in rest[1..close].split(',') {
        let name = item.trim();
        if !name.is_empty() {
            let at = position + (item.len() - item.trim_start().len());
            directive.rules.push(RuleRef {
                name: name.to_string(),
                span: at..at + name.len(),
            });
        }
        position += item.len() + 1;
    }
    if directive.rules.is_empty() {
        directive.problem = Some(format!(
            "`toolcheck: {kind}[]` names no rule; name the rules it suppresses"
        ));
    }
    directive.reason = rest[close + 1..]
        .trim()
        .strip_prefix("--")
        .map(|reason| reason.trim().to_string())
        .filter(|reason| !reason.is_empty());
    directive
}

/// Byte offset of the `#` (or `//`) that starts a comment on `line`, if any.
fn comment_start(
    text: &str,
    line: Range<usize>,
    comments: Comments,
    inside_string: &dyn Fn(usize) -> bool,
) -> Option<usize> {
    let bytes = text.as_bytes();
    let marker = comments.marker().as_bytes();
    (line.start..line.end).find(|&index| {
        bytes[index..line.end].starts_with(marker)
            && (index == line.start || bytes[index - 1] == b' ' || bytes[index - 1] == b'\t')
            && !inside_string(index)
    })
}

fn is_blank_or_comment(line: &str, comments: Comments) -> bool {
    let trimmed = line.trim();
    trimmed.is_empty() || trimmed.starts_with(comments.marker())
}

/// Each line's byte range, without its line break (`\n`, `\r\n` or `\r`).
fn line_ranges(text: &str) -> Vec<Range<usize>> {
    let mut lines = Vec::new();
    let mut start = 0;
    for next in crate::text::line_starts(text).chain([text.len()]) {
        let end = next - crate::text::line_break_len(&text.as_bytes()[start..next]);
        lines.push(start..end);
        start = next;
    }
    lines
}

/// A line, extended to the end of the entry or item that starts on it: a comment above
/// `description: >` covers the whole block.
fn extend_to_entry(line: Range<usize>, entries: &[Span]) -> Range<usize> {
    let first = entries.partition_point(|span| span.start < line.start);
    let end = entries[first..]
        .iter()
        .take_while(|span| span.start < line.end)
        .map(|span| span.end)
        .max()
        .unwrap_or(line.end);
    line.start..end.max(line.end)
}

/// String value spans (where `#` is text) and entry/item spans (what a directive covers).
fn collect(node: &Node, strings: &mut Vec<Span>, entries: &mut Vec<Span>) {
    match &node.kind {
        NodeKind::String(_) => strings.push(node.span()),
        NodeKind::Array(items) => {
            for item in items {
                entries.push(item.span());
                collect(item, strings, entries);
            }
        }
        NodeKind::Object(object) => {
            for entry in object {
                entries
                    .push(entry.key_span().start..entry.value.span().end.max(entry.key_span().end));
                strings.push(entry.key_span());
                collect(&entry.value, strings, entries);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_yaml(text: &str) -> Vec<Directive> {
        let root = crate::parse::yaml::parse(text).ok();
        directives(text, root.as_ref(), Comments::Hash)
    }

    #[test]
    fn slashes_start_a_comment_in_source() {
        let text = "server.registerTool(\"a\", {\n  // toolcheck: ignore[TC209] -- quoted from the API\n  description: \"Does ALWAYS \" +\n    \"a.\",\n  title: \"http://x // toolcheck: ignore[TC101]\",\n}, cb);\n";
        let root =
            crate::parse::code::parse(text, crate::parse::code::Language::TypeScript, None).ok();
        let found = directives(text, root.as_ref(), Comments::Slashes);
        assert_eq!(found.len(), 1, "{found:?}");
        let covers = found[0].covers.clone().unwrap();
        assert!(
            covers.contains(&text.find("a.").unwrap()),
            "the whole description"
        );
        assert!(!covers.contains(&text.find("title").unwrap()));
        assert_eq!(found[0].reason.as_deref(), Some("quoted from the API"));
    }

    #[test]
    fn own_line_directive_covers_the_next_entry_whole() {
        let text = "name: x\n# toolcheck: ignore[absolute-words, TC204] -- vendor copy\ndescription: >\n  always\n  never\nsnippet: s\n";
        let found = parse_yaml(text);
        assert_eq!(found.len(), 1);
        let directive = &found[0];
        let names: Vec<&str> = directive.rules.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["absolute-words", "TC204"]);
        assert_eq!(&text[directive.rules[1].span.clone()], "TC204");
        assert_eq!(directive.reason.as_deref(), Some("vendor copy"));
        let covers = directive.covers.clone().unwrap();
        assert!(covers.contains(&text.find("never").unwrap()));
        assert!(!covers.contains(&text.find("snippet").unwrap()));
    }

    #[test]
    fn trailing_directive_covers_its_line_and_file_directive_everything() {
        let text = "name: x  # toolcheck: ignore[TC501]\ndescription: d\n# toolcheck: ignore-file[TC101]\n";
        let found = parse_yaml(text);
        assert_eq!(found[0].covers, Some(0..35), "the whole first line");
        assert_eq!(found[1].covers, None);
    }

    #[test]
    fn hashes_inside_text_are_not_comments() {
        let text = "name: x\ndescription: |\n  # toolcheck: ignore[TC209]\n  always\nsnippet: \"a # toolcheck: ignore[TC209]\"\n";
        assert!(parse_yaml(text).is_empty());
    }

    #[test]
    fn bare_and_unknown_directives_are_problems() {
        let text =
            "# toolcheck: ignore\n# toolcheck: ignore[]\n# toolcheck: disable[TC209]\nname: x\n";
        let problems: Vec<String> = parse_yaml(text)
            .into_iter()
            .filter_map(|d| d.problem)
            .collect();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("must name the rules"));
        assert!(problems[2].contains("unknown directive"));
    }
}
