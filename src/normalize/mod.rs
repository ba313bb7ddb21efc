//! Dialect detection and normalization: every supported shape of tool definition becomes one
//! [`ToolSet`] of [`Tool`]s that borrow the parsed tree, so every field keeps its spans.

pub mod schema;
mod tool;

pub use tool::{Builtin, Dialect, Text, Tool, ToolSet};

use crate::diagnostic::Field;
use crate::diagnostic::reporter::{Anchor, Reporter};
use crate::parse::{Entry, Node, NodeKind};

/// Keys of the native manifest (toolcheck's own format, in the README under "Inputs"),
/// including the schema alias.
const NATIVE_TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "snippet",
    "guidelines",
    "input_schema",
    "schema",
    "output_schema",
    "annotations",
    "limits",
    "results",
    "defer_loading",
    "always_load",
    "search_hint",
    "search_queries",
];

const NATIVE_SET_KEYS: &[&str] = &["tools", "instructions", "server"];

const LIMIT_KEYS: &[&str] = &[
    "at",
    "min_items",
    "max_items",
    "min_length",
    "max_length",
    "minimum",
    "maximum",
];

/// Normalizes a parsed document. Structural problems are returned beside whatever could be
/// read, so one bad tool does not hide the findings of the others.
pub fn normalize<'a>(root: &'a Node, reporter: &mut Reporter<'_>) -> ToolSet<'a> {
    let mut set = ToolSet::default();
    let root = match root.get("result") {
        Some(result) if root.get("jsonrpc").is_some() => result,
        _ => root,
    };
    set.root = Some(root);
    set.tools_entry = root.entry("tools");
    match &root.kind {
        NodeKind::Array(items) => read_tools(items, &mut set, reporter),
        NodeKind::Object(_) => {
            if let Some(tools) = root.entry("tools") {
                let always_load = read_set_fields(root, &mut set, reporter);
                match tools.value.as_array() {
                    // Gemini also nests its declarations as `tools: [{functionDeclarations}]`.
                    Some(items) => {
                        // One tool an item, but for Gemini's nested declarations: sized once.
                        set.tools.reserve(items.len());
                        for item in items {
                            match item.get("functionDeclarations") {
                                Some(declarations) => {
                                    read_declarations(declarations, &mut set, reporter)
                                }
                                None => read_tools(std::slice::from_ref(item), &mut set, reporter),
                            }
                        }
                    }
                    None => wrong_type(reporter, &tools.value, "an array of tools", Field::File),
                }
                // A host config's server with `alwaysLoad` keeps every tool of it loaded.
                if always_load {
                    for tool in &mut set.tools {
                        tool.always_load = true;
                    }
                }
            } else if let Some(declarations) = root.get("functionDeclarations") {
                read_declarations(declarations, &mut set, reporter);
            } else if root.get("name").is_some() {
                read_tools(std::slice::from_ref(root), &mut set, reporter);
            } else {
                unrecognized(reporter, root);
            }
        }
        _ => unrecognized(reporter, root),
    }
    set
}

/// Whether a document is a file of tool definitions, for content discovery (which lints
/// JSON and YAML files by what they hold, not by name). The shapes are those [`normalize`]
/// reads, on stronger evidence: a tool has a `name` and a schema or a key only tools have, or
/// is an OpenAI `{"type": "function", "function": {...}}`, so a `package.json` (`name`,
/// `description`) is not taken for a tool. A set needs one such tool among the items given
/// (a prefix of a large file holds only its first ones).
pub fn looks_like_tools(root: &Node) -> bool {
    let root = match root.get("result") {
        Some(result) if root.get("jsonrpc").is_some() => result,
        _ => root,
    };
    let any_tool = |items: &Node| {
        items.as_array().is_some_and(|items| {
            items.iter().any(|item| {
                looks_like_tool(item)
                    || item
                        .get("functionDeclarations")
                        .is_some_and(|declarations| declarations.as_array().is_some())
            })
        })
    };
    match &root.kind {
        NodeKind::Array(_) => any_tool(root),
        NodeKind::Object(_) => match (root.get("tools"), root.get("functionDeclarations")) {
            (Some(tools), _) => any_tool(tools),
            (None, Some(declarations)) => declarations
                .as_array()
                .is_some_and(|items| items.iter().any(|item| item.get("name").is_some())),
            (None, None) => looks_like_tool(root),
        },
        _ => false,
    }
}

fn looks_like_tool(node: &Node) -> bool {
    if let Some(function) = node.get("function") {
        return function.get("name").and_then(Node::as_str).is_some();
    }
    node.get("name").and_then(Node::as_str).is_some()
        && SCHEMA_KEYS
            .iter()
            .chain(&["snippet", "guidelines", "promptSnippet", "promptGuidelines"])
            .any(|key| node.get(key).is_some())
}

#[cfg(test)]
pub(crate) use test_support::normalize_alone;

/// Test support, which may use the whole crate.
#[cfg(test)]
mod test_support {
    use super::{Node, Reporter, ToolSet, normalize};

    /// Normalizes with no file around it: the tool set and the `invalid-manifest` findings.
    pub(crate) fn normalize_alone(
        root: &Node,
    ) -> (ToolSet<'_>, Vec<crate::diagnostic::Diagnostic>) {
        let file = crate::parse::source::SourceFile::new("test", String::new());
        let registry = crate::catalog::Registry::builtin().expect("the built-in catalog loads");
        let meta = registry.native::<crate::rules::meta::invalid_manifest::InvalidManifest>();
        let rule = crate::lint::select::active(meta, meta.default_severity);
        let mut reporter = Reporter::new(&file, &rule);
        let set = normalize(root, &mut reporter);
        (set, reporter.take_findings())
    }
}

fn unrecognized(reporter: &mut Reporter<'_>, root: &Node) {
    let found = match root.kind {
        NodeKind::Null => "an empty document".to_string(),
        _ => root.type_name().to_string(),
    };
    reporter
        .report(
            Field::File,
            Anchor::Start(root),
            format!("no tool definition found: the file holds {found}"),
        )
        .help(
            "a manifest is a tool object with `name`, an array of tools, or an object with a \
         `tools` array (MCP `tools/list`, Anthropic, OpenAI) or `functionDeclarations` (Gemini)",
        );
}

/// The set's own fields; whether it says its host keeps every tool loaded (`alwaysLoad: true`,
/// which a capture of a host config's server carries over from the config).
fn read_set_fields<'a>(root: &'a Node, set: &mut ToolSet<'a>, reporter: &mut Reporter<'_>) -> bool {
    set.instructions = string_entry(root, "instructions", Field::Instructions, reporter);
    set.server = string_entry(root, "server", Field::File, reporter);
    let always_load = root
        .entry("alwaysLoad")
        .and_then(|entry| typed(entry, Expect::Bool, Field::File, reporter))
        .and_then(|entry| entry.value.as_bool())
        == Some(true);
    // A file whose tools use native keys is a native set file; its own unknown keys are errors.
    let native = root
        .get("tools")
        .and_then(Node::as_array)
        .is_some_and(|tools| {
            tools
                .iter()
                .any(|tool| detect_in(tool, &reporter.file.name) == Dialect::Native)
        });
    if native {
        unknown_keys(root, NATIVE_SET_KEYS, Field::File, reporter);
    }
    always_load
}

fn read_declarations<'a>(node: &'a Node, set: &mut ToolSet<'a>, reporter: &mut Reporter<'_>) {
    match node.as_array() {
        Some(items) => {
            for item in items {
                read_tool(item, Dialect::Gemini, set, reporter);
            }
        }
        None => wrong_type(
            reporter,
            node,
            "an array of function declarations",
            Field::File,
        ),
    }
}

fn read_tools<'a>(items: &'a [Node], set: &mut ToolSet<'a>, reporter: &mut Reporter<'_>) {
    set.tools.reserve(items.len());
    for item in items {
        if item.as_object().is_none() {
            wrong_type(reporter, item, "a tool object", Field::File);
            continue;
        }
        // OpenAI Chat Completions wraps the definition: {"type": "function", "function": {...}}.
        if let Some(function) = item.get("function").filter(|f| f.as_object().is_some()) {
            read_tool(function, Dialect::OpenAiChat, set, reporter);
            // `defer_loading` written beside `function`, as a Responses tool has it.
            if let (Some(entry), Some(tool)) = (item.entry("defer_loading"), set.tools.last_mut()) {
                tool.defer_loading |= entry.value.as_bool() == Some(true);
                tool.defer_loading_at.get_or_insert(entry);
            }
            continue;
        }
        let kind = item.get("type").and_then(Node::as_str);
        // An OpenAI Responses namespace groups functions the model sees by the namespace's name
        // and description until tool search loads them: its functions are tools of the set.
        if kind == Some("namespace")
            && let Some(functions) = item.get("tools").and_then(Node::as_array)
        {
            read_tools(functions, set, reporter);
            continue;
        }
        if let Some(kind) = kind.filter(|kind| *kind != "function" && !has_schema(item)) {
            let deferred = item.get("defer_loading").and_then(Node::as_bool) == Some(true);
            set.builtins.push(Builtin {
                node: item,
                kind,
                deferred,
            });
            continue;
        }
        let dialect = if kind == Some("function") {
            Dialect::OpenAiResponses
        } else {
            detect_in(item, &reporter.file.name)
        };
        read_tool(item, dialect, set, reporter);
    }
}

fn has_schema(tool: &Node) -> bool {
    SCHEMA_KEYS.iter().any(|key| tool.get(key).is_some())
}

const SCHEMA_KEYS: &[&str] = &[
    "input_schema",
    "inputSchema",
    "parameters",
    "parametersJsonSchema",
    "schema",
];

/// The dialect of one tool object in the file `file`: a tool with `input_schema` in a
/// `.tool.yaml` or `.tools.yaml` file is toolcheck's own manifest (the README's shape), not
/// an Anthropic request; elsewhere the keys decide.
fn detect_in(tool: &Node, file: &str) -> Dialect {
    match detect(tool) {
        Dialect::Anthropic if is_native_file_name(file) => Dialect::Native,
        dialect => dialect,
    }
}

/// `*.tool.yaml`, `*.tools.yml`, ...: the names toolcheck's own manifests take. A `.json`
/// file so named is left to its keys: `toolcheck snapshot` writes MCP listings as
/// `*.tools.json`.
fn is_native_file_name(file: &str) -> bool {
    let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
    [".tool.yaml", ".tool.yml", ".tools.yaml", ".tools.yml"]
        .iter()
        .any(|suffix| name.len() > suffix.len() && name.ends_with(suffix))
}

/// The dialect of one tool object, from the keys it uses.
fn detect(tool: &Node) -> Dialect {
    let has = |key: &str| tool.get(key).is_some();
    if ["snippet", "guidelines", "limits", "results", "schema"]
        .iter()
        .any(|key| has(key))
    {
        Dialect::Native
    } else if has("promptSnippet") || has("promptGuidelines") {
        Dialect::Harness
    } else if has("inputSchema") {
        Dialect::Mcp
    } else if has("input_schema") {
        Dialect::Anthropic
    } else if has("parametersJsonSchema") {
        Dialect::Gemini
    } else {
        Dialect::Generic
    }
}

fn read_tool<'a>(
    node: &'a Node,
    dialect: Dialect,
    set: &mut ToolSet<'a>,
    reporter: &mut Reporter<'_>,
) {
    if node.as_object().is_none() {
        wrong_type(reporter, node, "a tool object", Field::File);
        return;
    }
    let name = match node.entry("name") {
        Some(entry) if entry.value.as_str().is_some() => Some(entry),
        Some(entry) => {
            wrong_type(reporter, &entry.value, "a string", Field::Name);
            None
        }
        None => {
            reporter
                .report(Field::Name, Anchor::Start(node), "tool has no `name`")
                .help("every tool needs a `name`: the identifier the model calls");
            None
        }
    };
    let tool_name = name
        .and_then(|entry| entry.value.as_str())
        .map(str::to_string);
    // Every problem from here on is about this tool.
    reporter.set_tool(tool_name.as_deref());
    let string = |key: &str, field: Field, reporter: &mut Reporter<'_>| {
        string_entry(node, key, field, reporter)
    };
    let first_of = |keys: &[&str]| keys.iter().find_map(|key| node.entry(key));

    let title = string("title", Field::Title, reporter);
    let description = string("description", Field::Description, reporter);
    let snippet = first_of(&["snippet", "promptSnippet"])
        .and_then(|entry| typed(entry, Expect::String, Field::Snippet, reporter));
    let guidelines = first_of(&["guidelines", "promptGuidelines"])
        .and_then(|entry| typed(entry, Expect::StringList, Field::Guidelines, reporter));
    let input_schema = first_of(SCHEMA_KEYS)
        .and_then(|entry| typed(entry, Expect::Schema, Field::InputSchema, reporter));
    let output_schema = first_of(&["output_schema", "outputSchema"])
        .and_then(|entry| typed(entry, Expect::Schema, Field::OutputSchema, reporter));
    let annotations = node
        .entry("annotations")
        .and_then(|entry| typed(entry, Expect::Object, Field::File, reporter));
    let limits = node
        .entry("limits")
        .and_then(|entry| typed(entry, Expect::Array, Field::Limits, reporter));
    if let Some(limits) = limits {
        check_limits(&limits.value, reporter);
    }
    let results = node
        .entry("results")
        .and_then(|entry| typed(entry, Expect::StringMap, Field::Results, reporter));
    let flag = |key: &str, reporter: &mut Reporter<'_>| {
        node.entry(key)
            .and_then(|entry| typed(entry, Expect::Bool, Field::File, reporter))
            .and_then(|entry| entry.value.as_bool())
            .unwrap_or(false)
    };
    let defer_loading = flag("defer_loading", reporter);
    // Claude Code keeps an MCP tool loaded with `_meta["anthropic/alwaysLoad"]: true`.
    let always_load = flag("always_load", reporter)
        || node
            .get("_meta")
            .and_then(|meta| meta.get("anthropic/alwaysLoad"))
            .and_then(Node::as_bool)
            == Some(true);
    let search_hint = string("search_hint", Field::Description, reporter);
    let search_queries = node
        .entry("search_queries")
        .and_then(|entry| typed(entry, Expect::StringList, Field::File, reporter));
    if dialect == Dialect::Native {
        unknown_keys(node, NATIVE_TOOL_KEYS, Field::File, reporter);
    }
    reporter.set_tool(None);
    set.tools.push(Tool {
        node,
        dialect,
        name,
        title,
        description,
        snippet,
        guidelines,
        input_schema,
        output_schema,
        annotations,
        limits,
        results,
        defer_loading,
        defer_loading_at: node.entry("defer_loading"),
        always_load,
        search_hint,
        search_queries,
    });
}

/// The type a field must have; [`Expect::wrong`] finds the offending node.
#[derive(Clone, Copy)]
enum Expect {
    String,
    StringList,
    StringMap,
    Object,
    Array,
    Bool,
    /// JSON Schema allows `true`/`false` as schemas; `non-object-root` judges those, not `invalid-manifest`.
    Schema,
}

impl Expect {
    fn describe(self) -> &'static str {
        match self {
            Expect::String => "a string",
            Expect::StringList => "a list of strings",
            Expect::StringMap => "a map of outcome to text",
            Expect::Object => "an object",
            Expect::Array => "a list",
            Expect::Bool => "true or false",
            Expect::Schema => "a JSON Schema object",
        }
    }

    /// `None` when `node` fits; otherwise the node to point at (for a list or map of strings,
    /// the first element that is not a string).
    fn wrong(self, node: &Node) -> Option<&Node> {
        let is_string = |node: &&Node| node.as_str().is_some();
        let fits = match self {
            Expect::String => is_string(&node),
            Expect::Object => node.as_object().is_some(),
            Expect::Array => node.as_array().is_some(),
            Expect::Bool => node.as_bool().is_some(),
            Expect::Schema => node.as_object().is_some() || node.as_bool().is_some(),
            Expect::StringList => match node.as_array() {
                Some(items) => return items.iter().find(|item| !is_string(item)),
                None => false,
            },
            Expect::StringMap => match node.as_object() {
                Some(entries) => {
                    return entries
                        .iter()
                        .map(|entry| &entry.value)
                        .find(|value| !is_string(value));
                }
                None => false,
            },
        };
        (!fits).then_some(node)
    }
}

/// The entry when its value has the expected type; `null` counts as absent; otherwise `invalid-manifest`.
fn typed<'a>(
    entry: &'a Entry,
    expect: Expect,
    field: Field,
    reporter: &mut Reporter<'_>,
) -> Option<&'a Entry> {
    if matches!(entry.value.kind, NodeKind::Null) {
        return None;
    }
    match expect.wrong(&entry.value) {
        None => Some(entry),
        Some(wrong) => {
            let expected = if std::ptr::eq(wrong, &entry.value) {
                expect.describe()
            } else {
                "a string"
            };
            wrong_type(reporter, wrong, expected, field);
            None
        }
    }
}

fn string_entry<'a>(
    node: &'a Node,
    key: &str,
    field: Field,
    reporter: &mut Reporter<'_>,
) -> Option<&'a Entry> {
    node.entry(key)
        .and_then(|entry| typed(entry, Expect::String, field, reporter))
}

fn wrong_type(reporter: &mut Reporter<'_>, node: &Node, expected: &str, field: Field) {
    let pointer = node.pointer.written();
    let mut tokens = pointer.rsplit('/');
    let key = tokens.next().unwrap_or_default();
    let subject = match (key.parse::<usize>(), tokens.next()) {
        (Ok(index), Some(parent)) => format!("item {} of `{parent}`", index + 1),
        _ => format!("`{key}`"),
    };
    reporter.report(
        field,
        Anchor::Value(node),
        format!("{subject} must be {expected}, found {}", node.type_name()),
    );
}

fn unknown_keys(node: &Node, known: &[&str], field: Field, reporter: &mut Reporter<'_>) {
    for entry in node.as_object().unwrap_or_default() {
        if known.contains(&entry.key.as_str()) {
            continue;
        }
        let help = match crate::text::suggest::did_you_mean(&entry.key, known.iter().copied()) {
            Some(close) => format!("did you mean `{close}`?"),
            None => format!("known keys: {}", known.join(", ")),
        };
        reporter
            .report(
                field,
                Anchor::Key(entry),
                format!("unknown key `{}`", entry.key),
            )
            .help(help);
    }
}

fn check_limits(limits: &Node, reporter: &mut Reporter<'_>) {
    for limit in limits.as_array().unwrap_or_default() {
        let Some(entries) = limit.as_object() else {
            wrong_type(
                reporter,
                limit,
                "a limit object (`at` plus bounds)",
                Field::Limits,
            );
            continue;
        };
        unknown_keys(limit, LIMIT_KEYS, Field::Limits, reporter);
        match limit.get("at") {
            Some(at) if at.as_str().is_some() => {}
            Some(at) => wrong_type(reporter, at, "a JSON Pointer string", Field::Limits),
            None => {
                reporter
                    .report(
                        Field::Limits,
                        Anchor::Start(limit),
                        "limit has no `at` pointer",
                    )
                    .help("add `at: /properties/<name>`, a JSON Pointer into input_schema");
            }
        }
        for entry in entries.iter().filter(|entry| entry.key != "at") {
            if LIMIT_KEYS.contains(&entry.key.as_str()) && entry.value.as_f64().is_none() {
                wrong_type(reporter, &entry.value, "a number", Field::Limits);
            }
        }
    }
}
