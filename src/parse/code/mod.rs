//! Tool definitions read from server source, without running it: the registrations of a
//! TypeScript, JavaScript, Python or Go file become the tree a `tools/list` capture parses into, with every
//! string pointing at its literal in the source, so every rule reads them unchanged and a
//! finding underlines the words where they are written.

mod go;
mod go_string;
mod js_string;
mod py_string;
mod python;
mod typescript;
mod value;

use std::path::{Component, Path, PathBuf};

use tree_sitter::{Node as Ts, Parser, Tree};

use self::value::{Member, Value};
use super::{Keys, Node, ParseError, Pointer, Segment};

/// A language toolcheck reads tool registrations from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    TypeScript,
    /// TSX, and JavaScript (which the TSX grammar reads, JSX included).
    Tsx,
    Python,
    Go,
}

impl Language {
    /// The language of a file by its extension; `None` for files that are not source.
    pub fn of(path: &Path) -> Option<Language> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "ts" | "mts" | "cts" => Some(Language::TypeScript),
            "tsx" | "js" | "jsx" | "mjs" | "cjs" => Some(Language::Tsx),
            "py" => Some(Language::Python),
            "go" => Some(Language::Go),
            _ => None,
        }
    }

    /// Whether `text` may register a tool: the keyword test that decides whether a source file
    /// is parsed at all (most files of a server tree, or of a commit, have none of these words).
    pub fn may_register_tools(self, text: &str) -> bool {
        let words = match self {
            Language::TypeScript | Language::Tsx => JS_REGISTRATION_WORDS,
            Language::Python => PY_REGISTRATION_WORDS,
            Language::Go => GO_REGISTRATION_WORDS,
        };
        words.iter().any(|word| text.contains(word))
    }
}

/// The words of the registrations read: the calls `server.registerTool(…)`, `server.tool(…)`
/// and FastMCP's `server.addTool(…)`, a helper's call named as such (`registerSearchTool(…)`,
/// `auditTool(…)`, in a file that imports the helper), the `inputSchema` key of a tool
/// written as `tools/list` returns it (`input_schema` as the Messages API takes it), and the
/// `promptSnippet` or TypeBox schema of a harness tool defined without `registerTool`.
const JS_REGISTRATION_WORDS: &[&str] = &[
    "registerTool",
    ".tool(",
    "Tool(",
    "addTool",
    "inputSchema",
    "input_schema",
    "promptSnippet",
    "Type.Object(",
];

/// The decorator `@mcp.tool` (with or without arguments), `mcp.add_tool(fn)` and the
/// low-level server's `types.Tool(…)`.
const PY_REGISTRATION_WORDS: &[&str] = &[".tool", ".add_tool(", "Tool("];

/// The official SDK's `mcp.Tool{…}` literal (`&mcp.Tool{` too) and mcp-go's `mcp.NewTool(…)`.
const GO_REGISTRATION_WORDS: &[&str] = &["Tool{", "NewTool("];

/// Where a source file is, and how to read a file it imports values from by relative path
/// (`None`: not there, not readable, or too large).
pub struct Imports<'a> {
    pub path: &'a Path,
    pub read: &'a dyn Fn(&Path) -> Option<String>,
    /// The files of a directory (a Go package's other files declare names its files use).
    pub list: &'a dyn Fn(&Path) -> Vec<std::path::PathBuf>,
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
        return Ok(no_tools(source));
    }
    match language {
        Language::TypeScript | Language::Tsx => typescript::tools(source, language, imports),
        Language::Python => python::tools(source, imports),
        Language::Go => go::tools(source, imports),
    }
}

/// `path` without `.` and with each `..` taken back, so one file has one name.
pub(super) fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The segments of a JavaScript string read from source (`raw`: its literals, starting at
/// `base`).
pub(super) fn js_string_segments(raw: &str, base: usize) -> Option<Vec<Segment>> {
    js_string::segments(raw, base)
}

/// The segments of a Go string read from source.
pub(super) fn go_string_segments(raw: &str, base: usize) -> Option<Vec<Segment>> {
    go_string::segments(raw, base)
}

/// The segments of a Python string read from source.
pub(super) fn py_string_segments(raw: &str, base: usize) -> Option<Vec<Segment>> {
    py_string::segments(raw, base)
}

/// The segments of a Python docstring cleaned as `inspect.cleandoc` cleans it.
pub(super) fn py_docstring_segments(raw: &str, base: usize) -> Option<Vec<Segment>> {
    py_string::cleaned(raw, base).map(|(_, segments)| segments)
}

/// The parse error of a file the parser gave up on.
fn gave_up(language: &str) -> ParseError {
    ParseError {
        message: format!(
            "the parser gave up on this file: recovering from its syntax errors takes too long; \
             check that it is {language}"
        ),
        span: 0..0,
    }
}

/// The blocks of a source file's code, to tell whether two places of it run together.
pub struct Blocks {
    tree: Tree,
}

impl Blocks {
    /// `None` for text that is not source, or that cannot be parsed.
    pub fn of(file_name: &str, source: &str) -> Option<Blocks> {
        let language = Language::of(Path::new(file_name))?;
        Some(Blocks {
            tree: syntax_tree(source, language)?,
        })
    }

    /// Whether the code at byte offsets `a` and `b` runs together: both in the same block, not
    /// in two functions, two branches of an `if`, two cases of a `switch` or the two sides of
    /// a conditional expression (variants a server picks between at run time).
    pub fn run_together(&self, a: usize, b: usize) -> bool {
        self.scope(a) == self.scope(b)
    }

    /// The innermost block or branch holding `offset`.
    fn scope(&self, offset: usize) -> Option<usize> {
        let mut node = self
            .tree
            .root_node()
            .descendant_for_byte_range(offset, offset)?;
        loop {
            let parent = node.parent()?;
            let branch = matches!(
                parent.kind(),
                "ternary_expression" | "conditional_expression" | "if_statement" | "else_clause"
            ) && node.is_named();
            if branch {
                return Some(node.id());
            }
            if SCOPES.contains(&parent.kind()) {
                return Some(parent.id());
            }
            node = parent;
        }
    }
}

/// The nodes whose statements run together, in the three grammars: blocks, a module's top
/// level, a `switch`'s cases, a function whose body is an expression.
const SCOPES: &[&str] = &[
    // TypeScript and JavaScript
    "program",
    "statement_block",
    "switch_case",
    "switch_default",
    "arrow_function",
    "class_body",
    // Python
    "module",
    "block",
    "lambda",
    // Go (`block` above too)
    "source_file",
    "expression_case",
    "default_case",
    "type_case",
    "communication_case",
];

fn syntax_tree(source: &str, language: Language) -> Option<Tree> {
    syntax_tree_within(source, language, 0..source.len())
}

/// The tree of `source[within]` alone, its nodes at their offsets in `source`: a file read
/// beside the linted one is appended to it, and a node's range tells which file it is in.
fn syntax_tree_within(
    source: &str,
    language: Language,
    within: std::ops::Range<usize>,
) -> Option<Tree> {
    let grammar: tree_sitter::Language = match language {
        Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        Language::Python => tree_sitter_python::LANGUAGE.into(),
        Language::Go => tree_sitter_go::LANGUAGE.into(),
    };
    let mut parser = Parser::new();
    parser.set_language(&grammar).ok()?;
    if within != (0..source.len()) {
        let point = |offset: usize| {
            let before = source.get(..offset)?;
            let row = before.matches('\n').count();
            let column = offset - before.rfind('\n').map_or(0, |newline| newline + 1);
            Some(tree_sitter::Point { row, column })
        };
        let range = tree_sitter::Range {
            start_byte: within.start,
            end_byte: within.end,
            start_point: point(within.start)?,
            end_point: point(within.end)?,
        };
        parser.set_included_ranges(&[range]).ok()?;
    }
    // tree-sitter checks progress once per 100 parse operations. A file, even a minified
    // bundle, takes far fewer checks than this bound; some malformed input sends the TSX
    // grammar's error recovery into minutes, and is given up on instead.
    let mut checks_left = MIN_PARSE_CHECKS + within.len() / 16;
    let mut progress = |_: &tree_sitter::ParseState| match checks_left.checked_sub(1) {
        Some(left) => {
            checks_left = left;
            std::ops::ControlFlow::Continue(())
        }
        None => std::ops::ControlFlow::Break(()),
    };
    let bytes = source.as_bytes();
    parser.parse_with_options(
        &mut |offset, _| bytes.get(offset..).unwrap_or_default(),
        None,
        Some(tree_sitter::ParseOptions::new().progress_callback(&mut progress)),
    )
}

/// The progress checks any file may take, beside the one per 16 bytes its length allows (files
/// take about one per 150 bytes: 57,301 for a 7.9 MB bundle, 7 for a 1 KB server).
const MIN_PARSE_CHECKS: usize = 1_000;

/// The tree of a file that registers no tool.
fn no_tools(source: &str) -> Node {
    tool_set(source, Vec::new())
}

/// `{"tools": [...]}`, spanning the file.
fn tool_set(source: &str, tools: Vec<Value>) -> Node {
    let whole = 0..source.len();
    let tools = Member::new("tools", 0..0, Value::Array(tools, whole.clone()));
    Value::Object(vec![tools], whole).into_node(Pointer::root(), &mut Keys::default())
}

/// Every node under `node` (itself included), in source order, without recursion (a deeply
/// nested file must not exhaust the stack).
fn each_node<'t>(node: Ts<'t>, mut visit: impl FnMut(Ts<'t>)) {
    let mut cursor = node.walk();
    loop {
        visit(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == node {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}
