//! Tool definitions read from server source, without running it: the registrations of a
//! TypeScript or JavaScript file become the tree a `tools/list` capture parses into, with every
//! string pointing at its literal in the source, so every rule reads them unchanged and a
//! finding underlines the words where they are written.

mod js_string;
mod typescript;
mod value;

use std::path::Path;

use super::{Node, ParseError, Segment};

/// A language toolcheck reads tool registrations from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    TypeScript,
    /// TSX, and JavaScript (which the TSX grammar reads, JSX included).
    Tsx,
}

impl Language {
    /// The language of a file by its extension; `None` for files that are not source.
    pub fn of(path: &Path) -> Option<Language> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "ts" | "mts" | "cts" => Some(Language::TypeScript),
            "tsx" | "js" | "jsx" | "mjs" | "cjs" => Some(Language::Tsx),
            _ => None,
        }
    }

    /// Whether `text` may register a tool: the keyword test that decides whether a source file
    /// is parsed at all (most files of a server tree, or of a commit, have none of these words).
    pub fn may_register_tools(self, text: &str) -> bool {
        REGISTRATION_WORDS.iter().any(|word| text.contains(word))
    }
}

/// The words of the registrations read: the calls `server.registerTool(…)`, `server.tool(…)`
/// and FastMCP's `server.addTool(…)`, and the `inputSchema` key of a tool written as
/// `tools/list` returns it.
const REGISTRATION_WORDS: &[&str] = &["registerTool", ".tool(", "addTool", "inputSchema"];

/// Where a source file is, and how to read a file it imports values from by relative path
/// (`None`: not there, not readable, or too large).
pub struct Imports<'a> {
    pub path: &'a Path,
    pub read: &'a dyn Fn(&Path) -> Option<String>,
}

/// The tools `source` registers, as a `{"tools": [...]}` tree whose strings point into
/// `source`. A registration whose name, description or schema cannot be read statically is
/// left out rather than guessed. With `imports`, values a file imports by relative path are
/// read from that file, and located at their use in `source`.
pub fn parse(
    source: &str,
    language: Language,
    imports: Option<&Imports>,
) -> Result<Node, ParseError> {
    super::node::check_len(source)?;
    if !language.may_register_tools(source) {
        return Ok(typescript::no_tools(source));
    }
    typescript::tools(source, language, imports)
}

/// The segments of a string read from source (`raw`: its literals, starting at `base`).
pub(super) fn string_segments(raw: &str, base: usize) -> Option<Vec<Segment>> {
    js_string::segments(raw, base)
}
