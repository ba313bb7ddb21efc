//! What normalization yields: a [`ToolSet`] of [`Tool`]s in one shape whatever the dialect,
//! each borrowing the parsed tree, and what a tool's texts are made of.

use crate::diagnostic::Field;
use crate::parse::{Entry, Node};
use crate::tokens::ToolParts;

/// The tools of one file (or one server), plus set-level text.
#[derive(Debug, Default)]
pub struct ToolSet<'a> {
    /// The document's root (inside a JSON-RPC `result`); file-level findings point near it.
    pub root: Option<&'a Node>,
    /// The `tools` key of a set object, where set-level findings point when there is one.
    pub tools_entry: Option<&'a Entry>,
    /// Text a host puts into the system prompt for the whole set (MCP `initialize` instructions).
    pub instructions: Option<&'a Entry>,
    /// The server's name (native set files), used by host-prefix rules.
    pub server: Option<&'a Entry>,
    pub tools: Vec<Tool<'a>>,
    /// Provider built-ins without a schema (`"type": "web_search"`, a tool search tool, ...),
    /// not linted.
    pub builtins: Vec<Builtin<'a>>,
}

impl ToolSet<'_> {
    /// The built-ins skipped, for the summary's count.
    pub fn skipped(&self) -> usize {
        self.builtins.len()
    }
}

/// A provider built-in of a request's tool list: a tool the provider defines by `type`.
#[derive(Debug)]
pub struct Builtin<'a> {
    pub node: &'a Node,
    /// Its `type` (`tool_search_tool_bm25_20251119`).
    pub kind: &'a str,
    /// `defer_loading: true` on it.
    pub deferred: bool,
}

impl Builtin<'_> {
    /// Anthropic's tool search tool (`tool_search_tool_regex_20251119`,
    /// `tool_search_tool_bm25_20251119`), which loads deferred tools.
    pub fn is_tool_search(&self) -> bool {
        self.kind.starts_with("tool_search_tool_")
    }
}

/// Where a tool definition came from; decides which keys are known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// toolcheck's own manifest: unknown keys are errors.
    Native,
    Mcp,
    Anthropic,
    OpenAiChat,
    OpenAiResponses,
    Gemini,
    /// pi-style harness tools (`promptSnippet`, `promptGuidelines`).
    Harness,
    /// Only `name`/`description`/`parameters` (BFCL and similar).
    Generic,
}

impl Dialect {
    /// The shape's name in target profiles (`openai-responses`).
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Native => "native",
            Dialect::Mcp => "mcp",
            Dialect::Anthropic => "anthropic",
            Dialect::OpenAiChat => "openai-chat",
            Dialect::OpenAiResponses => "openai-responses",
            Dialect::Gemini => "gemini",
            Dialect::Harness => "harness",
            Dialect::Generic => "generic",
        }
    }

    /// A tool of this shape, for a message: `a Chat Completions tool`.
    pub fn a_tool(self) -> &'static str {
        match self {
            Dialect::Native => "a toolcheck manifest's tool",
            Dialect::Mcp => "an MCP tool",
            Dialect::Anthropic => "an Anthropic tool",
            Dialect::OpenAiChat => "a Chat Completions tool",
            Dialect::OpenAiResponses => "a Responses API tool",
            Dialect::Gemini => "a Gemini function declaration",
            Dialect::Harness => "a harness tool",
            Dialect::Generic => "a plain function",
        }
    }
}

/// One tool, normalized. Each field is the entry it came from (key span + value node).
#[derive(Debug)]
pub struct Tool<'a> {
    pub node: &'a Node,
    pub dialect: Dialect,
    pub name: Option<&'a Entry>,
    pub title: Option<&'a Entry>,
    pub description: Option<&'a Entry>,
    pub snippet: Option<&'a Entry>,
    pub guidelines: Option<&'a Entry>,
    pub input_schema: Option<&'a Entry>,
    pub output_schema: Option<&'a Entry>,
    pub annotations: Option<&'a Entry>,
    pub limits: Option<&'a Entry>,
    pub results: Option<&'a Entry>,
    pub defer_loading: bool,
    /// The `defer_loading` key, where it is written (on an OpenAI Chat Completions tool, the
    /// wrapper's or the function's).
    pub defer_loading_at: Option<&'a Entry>,
    pub always_load: bool,
    pub search_hint: Option<&'a Entry>,
    /// Queries tool search must find the tool with (`not-found-by-search`).
    pub search_queries: Option<&'a Entry>,
}

/// A model-facing text of a tool: which field, and the string node.
#[derive(Debug, Clone, Copy)]
pub struct Text<'a> {
    pub field: Field,
    pub node: &'a Node,
}

impl Text<'_> {
    pub fn value(&self) -> &str {
        self.node.as_str().unwrap_or_default()
    }
}

impl<'a> Tool<'a> {
    /// A tool without fields, so set-level text can run through per-tool checks.
    pub fn placeholder(node: &'a Node) -> Tool<'a> {
        Tool {
            node,
            dialect: Dialect::Generic,
            name: None,
            title: None,
            description: None,
            snippet: None,
            guidelines: None,
            input_schema: None,
            output_schema: None,
            annotations: None,
            limits: None,
            results: None,
            defer_loading: false,
            defer_loading_at: None,
            always_load: false,
            search_hint: None,
            search_queries: None,
        }
    }

    /// The tool's name, or `""` when it has none (`invalid-manifest` already reported it).
    pub fn name(&self) -> &'a str {
        self.name
            .and_then(|entry| entry.value.as_str())
            .unwrap_or_default()
    }

    pub fn description(&self) -> Option<&'a Node> {
        self.description.map(|entry| &entry.value)
    }

    pub fn snippet(&self) -> Option<&'a Node> {
        self.snippet.map(|entry| &entry.value)
    }

    pub fn input_schema(&self) -> Option<&'a Node> {
        self.input_schema.map(|entry| &entry.value)
    }

    /// Each guideline string node.
    pub fn guidelines(&self) -> impl Iterator<Item = &'a Node> {
        self.guidelines
            .and_then(|entry| entry.value.as_array())
            .unwrap_or_default()
            .iter()
    }

    /// Each `results` text (outcome → text).
    pub fn results(&self) -> impl Iterator<Item = &'a Entry> {
        self.results
            .and_then(|entry| entry.value.as_object())
            .unwrap_or_default()
            .iter()
    }

    /// Every `description` and `title` string inside the input schema, at any depth.
    pub fn schema_texts(&self) -> Vec<&'a Node> {
        let mut texts = Vec::new();
        if let Some(schema) = self.input_schema() {
            crate::normalize::schema::walk(schema, &mut |subschema| {
                for key in ["description", "title"] {
                    if let Some(text) = subschema.get(key).filter(|node| node.as_str().is_some()) {
                        texts.push(text);
                    }
                }
            });
        }
        texts
    }

    /// The texts of `field` (one for description/snippet/title, one per guideline or result,
    /// the schema's descriptions and titles for `input_schema`).
    pub fn texts(&self, field: Field) -> Vec<Text<'a>> {
        let text = |node: &'a Node| Text { field, node };
        let single = |entry: Option<&'a Entry>| {
            entry
                .map(|entry| &entry.value)
                .filter(|node| node.as_str().is_some())
                .map(text)
                .into_iter()
                .collect()
        };
        match field {
            Field::Name => single(self.name),
            Field::Title => single(self.title),
            Field::Description => single(self.description),
            Field::Snippet => single(self.snippet),
            Field::Guidelines => self.guidelines().map(text).collect(),
            Field::Results => self.results().map(|entry| text(&entry.value)).collect(),
            Field::InputSchema => self.schema_texts().into_iter().map(text).collect(),
            _ => Vec::new(),
        }
    }
}

impl ToolParts for Tool<'_> {
    fn name_node(&self) -> Option<&Node> {
        self.name.map(|entry| &entry.value)
    }

    fn description(&self) -> Option<&Node> {
        Tool::description(self)
    }

    fn snippet(&self) -> Option<&Node> {
        Tool::snippet(self)
    }

    fn guidelines(&self) -> impl Iterator<Item = &Node> {
        Tool::guidelines(self)
    }

    fn input_schema(&self) -> Option<&Node> {
        Tool::input_schema(self)
    }
}
