//! Go: the official SDK's tools (`github.com/modelcontextprotocol/go-sdk/mcp`), written as
//! `mcp.Tool{…}` literals wherever they are (passed to `mcp.AddTool`, to a server's
//! `AddTool`, or to a helper of the server's own), with input schemas written as
//! `jsonschema.Schema{…}` literals (`github.com/google/jsonschema-go`), as the SDK puts them on
//! the wire.
//!
//! Values are read, never run: string literals (joined with `+`), numbers, booleans,
//! constants and variables of the package (in the file, or in another file of its directory),
//! local variables and what the statements before the tool do to them (`schema.Properties["x"]
//! = …`, `schema.Required = append(…)`), calls of the package's functions (their parameters
//! bound to the arguments, as `WithPagination(schema)` adds properties to a schema), the
//! translation helper `t("KEY", "default")` of servers built like GitHub's, `Ptr(v)` and
//! `json.RawMessage(`…`)`. Anything else (a method call, a loop that changes the schema, an
//! `if` that may return) leaves the tool out rather than guessed.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;

use tree_sitter::{Node as Ts, Tree};

use super::value::{Member, Value};
use super::{Imports, Language, each_node, gave_up, syntax_tree, tool_set};
use crate::parse::{Node, ParseError, Span, StrStyle};

/// How deep calls and names are followed before giving up.
const MAX_DEPTH: usize = 48;

/// The steps one tool may take (statements run, values read).
const STEPS_PER_TOOL: usize = 100_000;

/// The official SDK's package, and jsonschema-go's (with the SDK's own, which older releases
/// used).
const SDK_PACKAGE: &str = "github.com/modelcontextprotocol/go-sdk/mcp";
/// mcp-go's package.
const MCP_GO_PACKAGE: &str = "github.com/mark3labs/mcp-go/mcp";
const SCHEMA_PACKAGES: &[&str] = &[
    "github.com/google/jsonschema-go/jsonschema",
    "github.com/modelcontextprotocol/go-sdk/jsonschema",
];

pub(super) fn tools(source: &str, imports: Option<&Imports>) -> Result<Node, ParseError> {
    let tree = syntax_tree(source, Language::Go).ok_or_else(|| gave_up("Go"))?;
    let package = Package::new(imports);
    let budget = Cell::new(STEPS_PER_TOOL);
    let reader = Reader::new(source, &tree, &package, &budget, None);
    let mut tools = Vec::new();
    // The official SDK's `mcp.Tool{…}` and mcp-go's `mcp.NewTool(…)`.
    let tool_type = reader.names.sdk.as_ref().map(|sdk| format!("{sdk}.Tool"));
    let new_tool = reader
        .names
        .mcp_go
        .as_ref()
        .map(|mcp| format!("{mcp}.NewTool"));
    if tool_type.is_some() || new_tool.is_some() {
        each_node(tree.root_node(), |node| {
            let (field, written) = match node.kind() {
                "composite_literal" => ("type", &tool_type),
                "call_expression" => ("function", &new_tool),
                _ => return,
            };
            if node
                .child_by_field_name(field)
                .is_some_and(|name| Some(reader.text(name)) == written.as_deref())
            {
                budget.set(STEPS_PER_TOOL);
                match reader.tool(node, None) {
                    Some(tool) => tools.push(tool),
                    None => tools.extend(reader.tool_per_call(node, &budget)),
                }
            }
        });
    }
    Ok(tool_set(source, tools))
}

/// A value as the program would hold it: JSON-like values, maps, lists, and the structs of
/// the SDK and of jsonschema-go by their Go field names (so statements can change them).
#[derive(Debug, Clone)]
enum Go {
    Json(Value),
    Nil(Span),
    Map(Vec<(String, Span, Go)>, Span),
    List(Vec<Go>, Span),
    Struct(Kind, Vec<(String, Span, Go)>, Span),
    /// A parameter of type `translations.TranslationHelperFunc`: `t(key, default)` is the
    /// default (what a server without a translation file sends).
    Translate,
    /// A function literal of the file whose text starts at `file`, at `start..end`.
    Closure {
        file: usize,
        start: usize,
        end: usize,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Tool,
    Annotations,
    Schema,
}

impl Go {
    fn span(&self) -> Span {
        match self {
            Go::Json(value) => value.span(),
            Go::Nil(span) | Go::Map(_, span) | Go::List(_, span) | Go::Struct(_, _, span) => {
                span.clone()
            }
            Go::Translate | Go::Closure { .. } => 0..0,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Go::Json(value) => value.as_str(),
            _ => None,
        }
    }

    /// The entries of a struct or a map, to change.
    fn entries_mut(&mut self) -> Option<&mut Vec<(String, Span, Go)>> {
        match self {
            Go::Struct(_, entries, _) | Go::Map(entries, _) => Some(entries),
            _ => None,
        }
    }

    fn get(&self, key: &str) -> Option<&Go> {
        match self {
            Go::Struct(_, entries, _) | Go::Map(entries, _) => entries
                .iter()
                .rev()
                .find(|(name, _, _)| name == key)
                .map(|(_, _, value)| value),
            _ => None,
        }
    }
}

/// Sets `key` to a string, or leaves it out when the string is empty (as mcp-go writes a
/// tool's description, title and annotation title).
fn set_text(entries: &mut Vec<(String, Span, Go)>, key: &str, span: Span, value: Go) {
    match value.as_str() {
        Some("") => entries.retain(|(name, _, _)| name != key),
        _ => set(entries, key.to_string(), span, value),
    }
}

/// Sets `key` of `entries` (replacing it where it is, else at the end).
fn set(entries: &mut Vec<(String, Span, Go)>, key: String, span: Span, value: Go) {
    match entries.iter_mut().find(|(name, _, _)| *name == key) {
        Some(entry) => *entry = (key, span, value),
        None => entries.push((key, span, value)),
    }
}

/// What a call of a package function came to: its result, and each parameter's final value
/// with whether the caller sees its changes (a pointer or a map).
struct Called {
    returned: Option<Go>,
    parameters: Vec<(Option<Go>, bool)>,
}

/// The names of a function's frame: `None` for one whose value is not known.
type Frame = HashMap<String, Option<Go>>;

/// The other files of the package (the `.go` files of the directory, tests left out), read when
/// a name is not found in the file itself, and parsed when they seem to declare it.
struct Package<'a> {
    imports: Option<&'a Imports<'a>>,
    files: RefCell<Option<Vec<Sibling>>>,
}

struct Sibling {
    text: Option<String>,
    /// Parsed once, when first needed.
    parsed: Option<Option<Rc<Parsed>>>,
}

struct Parsed {
    source: String,
    tree: Tree,
}

impl<'a> Package<'a> {
    fn new(imports: Option<&'a Imports<'a>>) -> Self {
        Package {
            imports,
            files: RefCell::new(None),
        }
    }

    /// The parsed files of the package, other than the file read, that may declare `name`.
    fn files_declaring(&self, name: &str) -> Vec<Rc<Parsed>> {
        let Some(imports) = self.imports else {
            return Vec::new();
        };
        let mut files = self.files.borrow_mut();
        let files = files.get_or_insert_with(|| {
            let directory = imports.path.parent().unwrap_or(Path::new("."));
            (imports.list)(directory)
                .into_iter()
                .filter(|path| {
                    let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    file.ends_with(".go")
                        && !file.ends_with("_test.go")
                        && path.file_name() != imports.path.file_name()
                })
                .map(|path| Sibling {
                    text: (imports.read)(&path),
                    parsed: None,
                })
                .collect()
        });
        files
            .iter_mut()
            .filter(|file| {
                file.text
                    .as_deref()
                    .is_some_and(|text| declares(text, name))
            })
            .filter_map(|file| {
                file.parsed
                    .get_or_insert_with(|| {
                        let source = file.text.clone()?;
                        let tree = syntax_tree(&source, Language::Go)?;
                        Some(Rc::new(Parsed { source, tree }))
                    })
                    .clone()
            })
            .collect()
    }
}

/// Whether `text` may declare `name` (a cheap test before a file is parsed): after `func`,
/// `type`, `const` or `var`, or starting a line of a `const` or `var` block (`NAME = …`,
/// `NAME Type`, `NAME, OTHER`: a space or a comma after it, where a call or an index
/// statement has `(`, `[` or `.`).
fn declares(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let line = &text[text[..at].rfind('\n').map_or(0, |end| end + 1)..at];
        let after = text[at + name.len()..].chars().next();
        match line.trim() {
            "func" | "type" | "const" | "var" => !after.is_some_and(word),
            "" => after.is_some_and(|c| c == ' ' || c == '\t' || c == ','),
            _ => false,
        }
    })
}

/// The package names a file imports the SDK and jsonschema-go as.
#[derive(Default)]
struct ImportNames {
    sdk: Option<String>,
    schema: Option<String>,
    mcp_go: Option<String>,
}

struct Reader<'t> {
    source: &'t str,
    /// The package-level declarations of the file: constants, variables, functions and types.
    declared: HashMap<&'t str, Ts<'t>>,
    /// The methods the file declares, by name (the first of a name: `s.handle` as a value).
    methods: HashMap<&'t str, Ts<'t>>,
    names: ImportNames,
    package: &'t Package<'t>,
    budget: &'t Cell<usize>,
    root: Ts<'t>,
    /// Each statement list a tool is in, as far as its statements have been run.
    lists: RefCell<HashMap<usize, Ran<'t>>>,
    /// The calls of each function named by an identifier, found when first needed.
    calls: std::cell::OnceCell<HashMap<&'t str, Vec<Ts<'t>>>>,
    /// Where what this reader reads is used, when it reads another file of the package: its
    /// values are located there.
    used_at: Option<Span>,
}

/// The statements of a list, the first `done` of them run: `frame` is what they leave.
struct Ran<'t> {
    statements: Vec<Ts<'t>>,
    done: usize,
    frame: Frame,
}

/// What running statements came to.
enum Flow {
    Next,
    Return(Option<Go>),
    /// A statement that may return, or change control, in ways not followed.
    Unknown,
}

impl<'t> Reader<'t> {
    fn new(
        source: &'t str,
        tree: &'t Tree,
        package: &'t Package<'t>,
        budget: &'t Cell<usize>,
        used_at: Option<Span>,
    ) -> Self {
        let root = tree.root_node();
        let mut declared = HashMap::new();
        let mut methods = HashMap::new();
        let mut names = ImportNames::default();
        let mut cursor = root.walk();
        for declaration in root.named_children(&mut cursor) {
            match declaration.kind() {
                "function_declaration" => {
                    if let Some(name) = declaration.child_by_field_name("name") {
                        declared.insert(&source[name.byte_range()], declaration);
                    }
                }
                "method_declaration" => {
                    if let Some(name) = declaration.child_by_field_name("name") {
                        methods
                            .entry(&source[name.byte_range()])
                            .or_insert(declaration);
                    }
                }
                "type_declaration" => each_node(declaration, |spec| {
                    if spec.kind() == "type_spec"
                        && let Some(name) = spec.child_by_field_name("name")
                    {
                        declared.insert(&source[name.byte_range()], spec);
                    }
                }),
                "const_declaration" | "var_declaration" => {
                    each_node(declaration, |spec| {
                        if matches!(spec.kind(), "const_spec" | "var_spec") {
                            bind_spec(source, spec, &mut declared);
                        }
                    });
                }
                "import_declaration" => each_node(declaration, |spec| {
                    if spec.kind() == "import_spec" {
                        import(source, spec, &mut names);
                    }
                }),
                _ => {}
            }
        }
        Reader {
            source,
            declared,
            methods,
            names,
            package,
            budget,
            root,
            lists: RefCell::new(HashMap::new()),
            calls: std::cell::OnceCell::new(),
            used_at,
        }
    }

    fn names(&self, methods: bool) -> &HashMap<&'t str, Ts<'t>> {
        if methods {
            &self.methods
        } else {
            &self.declared
        }
    }

    fn text(&self, node: Ts<'t>) -> &'t str {
        &self.source[node.byte_range()]
    }

    /// Where a value read from `node` is located: the node, or the use in the file linted.
    fn span(&self, node: Ts<'t>) -> Span {
        self.used_at.clone().unwrap_or_else(|| node.byte_range())
    }

    fn spend(&self) -> Option<()> {
        self.budget.set(self.budget.get().checked_sub(1)?);
        Some(())
    }

    /// The tool `literal` (an `mcp.Tool{…}`) stands for, with the statements before it run
    /// (and the parameters of `called` bound to its arguments).
    fn tool(&self, literal: Ts<'t>, called: Option<(Ts<'t>, &[Option<Go>])>) -> Option<Value> {
        let frame = self.context(literal, called)?;
        let mut tool = self.eval(literal, &frame, 0)?;
        if matches!(tool, Go::Struct(Kind::Tool, ..)) && tool.get("InputSchema").is_none() {
            let (input, output) = self.handler_schemas(literal)?;
            let fields = tool.entries_mut()?;
            let span = self.span(literal);
            set(fields, "InputSchema".to_string(), span.clone(), input);
            if let Some(output) = output
                && !fields.iter().any(|(name, _, _)| name == "OutputSchema")
            {
                set(fields, "OutputSchema".to_string(), span, output);
            }
        }
        json(tool)
    }

    /// The schemas the SDK infers for a tool without an input schema, added with a typed
    /// handler (`mcp.AddTool(server, &mcp.Tool{…}, handle)`): from the types of the handler's
    /// input (its third parameter) and output (its second result, unless `any`).
    fn handler_schemas(&self, literal: Ts<'t>) -> Option<(Go, Option<Go>)> {
        let argument = match literal.parent()? {
            parent if parent.kind() == "unary_expression" => parent,
            _ => literal,
        };
        let call = argument.parent()?.parent()?;
        let function = call.child_by_field_name("function")?;
        let sdk = self.names.sdk.as_deref()?;
        if call.kind() != "call_expression" || self.text(function) != format!("{sdk}.AddTool") {
            return None;
        }
        let [_, tool, handler] = arguments(call)[..] else {
            return None;
        };
        if tool != argument {
            return None;
        }
        fn schemas<'s>(reader: &Reader<'s>, function: Ts<'s>) -> Option<(Go, Option<Go>)> {
            reader.signature_schemas(function)
        }
        match handler.kind() {
            "func_literal" => self.signature_schemas(handler),
            "identifier" => self.declaration(self.text(handler), handler, false, schemas),
            // A method value, `s.handleSearch`.
            "selector_expression" => {
                let method = self.text(handler.child_by_field_name("field")?);
                self.declaration(method, handler, true, schemas)
            }
            _ => None,
        }
    }

    /// The input and output schemas of a handler `function(ctx, request, input In) (*Result,
    /// Out, error)`.
    fn signature_schemas(&self, function: Ts<'t>) -> Option<(Go, Option<Go>)> {
        if !matches!(
            function.kind(),
            "function_declaration" | "method_declaration" | "func_literal"
        ) {
            return None;
        }
        let input = *parameter_types(function.child_by_field_name("parameters")?).get(2)?;
        let output = function
            .child_by_field_name("result")
            .filter(|result| result.kind() == "parameter_list")
            .and_then(|result| parameter_types(result).get(1).copied());
        let schema = |ty: Ts<'t>| -> Option<Option<Go>> {
            // The SDK reads a pointer's element type.
            let ty = match ty.kind() {
                "pointer_type" => ty.named_child(0)?,
                _ => ty,
            };
            if matches!(self.text(ty), "any" | "interface{}") {
                return Some(None);
            }
            self.inferred(ty, 0).map(Some)
        };
        let input = match schema(input)? {
            Some(input) => input,
            // `any` as the input: an object.
            None => self.schema(vec![("Type", self.made("object", input))], input),
        };
        let output = match output {
            Some(output) => schema(output)?,
            None => None,
        };
        Some((input, output))
    }

    /// A string toolcheck writes for `node` (a type's name in a schema).
    fn made(&self, text: &str, node: Ts<'t>) -> Go {
        Go::Json(Value::made(text, self.span(node)))
    }

    /// A `jsonschema.Schema` of `fields`, at `node`.
    fn schema(&self, fields: Vec<(&str, Go)>, node: Ts<'t>) -> Go {
        let span = self.span(node);
        let fields = fields
            .into_iter()
            .map(|(name, value)| (name.to_string(), span.clone(), value))
            .collect();
        Go::Struct(Kind::Schema, fields, span)
    }

    /// The schema jsonschema-go infers for the type `ty` (`jsonschema.For`), as the SDK does
    /// for a typed handler. `None` for a type it refuses or toolcheck does not follow.
    fn inferred(&self, ty: Ts<'t>, depth: usize) -> Option<Go> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.spend()?;
        let number = |n: i64| Go::Json(Value::Number(n.into(), self.span(ty)));
        let typed = |name: &str| ("Type", self.made(name, ty));
        let integer = |minimum: i64, maximum: Option<i64>| {
            let mut fields = vec![typed("integer"), ("Minimum", number(minimum))];
            fields.extend(maximum.map(|maximum| ("Maximum", number(maximum))));
            self.schema(fields, ty)
        };
        let schema = match ty.kind() {
            "parenthesized_type" => return self.inferred(ty.named_child(0)?, depth + 1),
            "pointer_type" => return Some(nullable(self.inferred(ty.named_child(0)?, depth + 1)?)),
            "slice_type" => {
                let items = self.inferred(ty.child_by_field_name("element")?, depth + 1)?;
                let types = Go::List(
                    vec![self.made("null", ty), self.made("array", ty)],
                    self.span(ty),
                );
                self.schema(vec![("Types", types), ("Items", items)], ty)
            }
            "array_type" => {
                let length = ty.child_by_field_name("length")?;
                let length: i64 = self.text(length).parse().ok()?;
                let items = self.inferred(ty.child_by_field_name("element")?, depth + 1)?;
                let fields = vec![
                    typed("array"),
                    ("Items", items),
                    ("MinItems", number(length)),
                    ("MaxItems", number(length)),
                ];
                self.schema(fields, ty)
            }
            "map_type" => {
                if self.text(ty.child_by_field_name("key")?) != "string" {
                    return None;
                }
                let values = self.inferred(ty.child_by_field_name("value")?, depth + 1)?;
                self.schema(vec![typed("object"), ("AdditionalProperties", values)], ty)
            }
            "struct_type" => self.struct_schema(ty, depth)?,
            "interface_type" if ty.named_child_count() == 0 => self.schema(vec![], ty),
            "qualified_type" => match self.text(ty) {
                // The types jsonschema-go writes as strings.
                "time.Time" | "slog.Level" | "big.Int" | "big.Rat" | "big.Float" => {
                    self.schema(vec![typed("string")], ty)
                }
                _ => return None,
            },
            "type_identifier" => match self.text(ty) {
                "string" => self.schema(vec![typed("string")], ty),
                "bool" => self.schema(vec![typed("boolean")], ty),
                "int" | "int64" => self.schema(vec![typed("integer")], ty),
                "uint" | "uint64" | "uintptr" => integer(0, None),
                "int8" => integer(i8::MIN.into(), Some(i8::MAX.into())),
                "uint8" | "byte" => integer(0, Some(u8::MAX.into())),
                "int16" => integer(i16::MIN.into(), Some(i16::MAX.into())),
                "uint16" => integer(0, Some(u16::MAX.into())),
                "int32" | "rune" => integer(i32::MIN.into(), Some(i32::MAX.into())),
                "uint32" => integer(0, Some(u32::MAX.into())),
                "float32" | "float64" => self.schema(vec![typed("number")], ty),
                "any" => self.schema(vec![], ty),
                // A type of the package: its underlying type's schema.
                name => self.declaration(name, ty, false, |reader, spec| {
                    if spec.kind() != "type_spec"
                        || spec.child_by_field_name("type_parameters").is_some()
                    {
                        return None;
                    }
                    reader.inferred(spec.child_by_field_name("type")?, depth + 1)
                })?,
            },
            _ => return None,
        };
        Some(schema)
    }

    /// A struct's schema: its exported fields as properties, in order, named by their `json`
    /// tags, described by their `jsonschema` tags, required unless `omitempty` or `omitzero`;
    /// closed (`additionalProperties: false`).
    fn struct_schema(&self, ty: Ts<'t>, depth: usize) -> Option<Go> {
        let list = ty.named_child(0)?;
        let mut properties: Vec<Member> = Vec::new();
        let mut required = Vec::new();
        let mut any_field = false;
        for declaration in named(list) {
            if declaration.kind() != "field_declaration" {
                continue;
            }
            any_field = true;
            let mut cursor = declaration.walk();
            let names: Vec<Ts> = declaration
                .children_by_field_name("name", &mut cursor)
                .collect();
            // An embedded struct's promoted fields: not followed.
            if names.is_empty() {
                return None;
            }
            let field_type = declaration.child_by_field_name("type")?;
            let tag = match declaration.child_by_field_name("tag") {
                Some(tag) => Some((tag, super::go_string::decode(self.text(tag), 0)?.0)),
                None => None,
            };
            for name in names {
                let field = self.text(name);
                if !field.starts_with(|c: char| c.is_uppercase()) {
                    continue;
                }
                let json_tag = tag.as_ref().and_then(|(_, tag)| tag_value(tag, "json"));
                let (json_name, options) = match &json_tag {
                    Some((value, _)) => value.split_once(',').unwrap_or((value.as_str(), "")),
                    None => (field, ""),
                };
                if json_name == "-" && options.is_empty() {
                    continue;
                }
                let json_name = if json_name.is_empty() {
                    field
                } else {
                    json_name
                };
                let mut schema = self.inferred(field_type, depth + 1)?;
                if let Some((tag_node, tag_text)) = &tag
                    && let Some((description, at)) = tag_value(tag_text, "jsonschema")
                {
                    if description.is_empty() || !description_allowed(&description) {
                        return None;
                    }
                    let description = self.tag_string(*tag_node, description, at);
                    set(
                        schema.entries_mut()?,
                        "Description".to_string(),
                        self.span(*tag_node),
                        description,
                    );
                }
                properties.retain(|member| member.key != json_name);
                properties.push(Member::new(json_name, self.span(name), json(schema)?));
                let options: Vec<&str> = options.split(',').collect();
                if !options.contains(&"omitempty") && !options.contains(&"omitzero") {
                    required.push(self.made(json_name, name));
                }
            }
        }
        let mut fields = vec![("Type", self.made("object", ty))];
        if any_field {
            let span = self.span(ty);
            fields.push(("Properties", Go::Json(Value::Object(properties, span))));
        }
        if !required.is_empty() {
            fields.push(("Required", Go::List(required, self.span(ty))));
        }
        // `{"not": {}}`: written `false`.
        let closed = self.schema(vec![("Not", self.schema(vec![], ty))], ty);
        fields.push(("AdditionalProperties", closed));
        Some(self.schema(fields, ty))
    }

    /// A value of a struct tag: at its quoted text when the tag is a raw literal (`Go`'s
    /// quoting is the tag's), else at the tag.
    fn tag_string(&self, tag: Ts<'t>, value: String, quoted_at: usize) -> Go {
        let text = self.text(tag);
        if self.used_at.is_none() && tag.kind() == "raw_string_literal" && !text.contains('\r') {
            // `quoted_at`: where the value's opening quote is in the tag's text.
            let start = tag.start_byte() + 1 + quoted_at;
            let raw = &text.as_bytes()[1 + quoted_at..];
            if let Some(end) = quoted_end(raw) {
                return Go::Json(Value::Str {
                    value,
                    raw: start..start + end,
                    style: StrStyle::Go,
                });
            }
        }
        Go::Json(Value::made(&value, self.span(tag)))
    }

    /// The tools a literal written in a function of parameters stands for: one per call of
    /// that function in the file (`issueUpdateTool(t, "update_issue_title", …)`), its
    /// parameters bound to the call's arguments.
    fn tool_per_call(&self, literal: Ts<'t>, budget: &Cell<usize>) -> Vec<Value> {
        let mut function = literal;
        while function.kind() != "function_declaration" {
            match function.parent() {
                Some(parent) => function = parent,
                None => return Vec::new(),
            }
        }
        let Some(name) = function
            .child_by_field_name("name")
            .map(|name| self.text(name))
        else {
            return Vec::new();
        };
        let calls = self.calls.get_or_init(|| {
            let mut calls: HashMap<&'t str, Vec<Ts<'t>>> = HashMap::new();
            each_node(self.root, |node| {
                if node.kind() == "call_expression"
                    && let Some(callee) = node.child_by_field_name("function")
                    && callee.kind() == "identifier"
                {
                    calls.entry(self.text(callee)).or_default().push(node);
                }
            });
            calls
        });
        let mut tools = Vec::new();
        for call in calls.get(name).into_iter().flatten() {
            budget.set(STEPS_PER_TOOL);
            let Some(frame) = self.context(*call, None) else {
                continue;
            };
            let arguments: Vec<Option<Go>> = arguments(*call)
                .into_iter()
                .map(|argument| self.eval(argument, &frame, 1))
                .collect();
            tools.extend(self.tool(literal, Some((function, &arguments))));
        }
        tools
    }

    /// The names known where `node` is: the parameters of the functions around it (those of
    /// `called` bound to its arguments) and what the statements before it, in those
    /// functions, assign.
    fn context(&self, node: Ts<'t>, called: Option<(Ts<'t>, &[Option<Go>])>) -> Option<Frame> {
        let mut path = Vec::new();
        let mut at = node;
        while let Some(parent) = at.parent() {
            path.push((parent, at));
            at = parent;
        }
        let mut frame = Frame::new();
        for (ancestor, child) in path.into_iter().rev() {
            match ancestor.kind() {
                "function_declaration" | "method_declaration" | "func_literal" => {
                    let arguments = match called {
                        Some((function, arguments)) if function == ancestor => arguments,
                        _ => &[],
                    };
                    self.bind_parameters(ancestor, arguments, &mut frame)?;
                }
                "statement_list" => {
                    // The statements before `child` are run once for all the tools of a list,
                    // in order: a function of a thousand tools is not read a million times.
                    let mut lists = self.lists.borrow_mut();
                    let list = lists.entry(ancestor.id()).or_insert_with(|| Ran {
                        statements: named(ancestor),
                        done: 0,
                        frame: Frame::new(),
                    });
                    let until = list
                        .statements
                        .iter()
                        .position(|statement| statement.start_byte() >= child.start_byte())
                        .unwrap_or(list.statements.len());
                    let reuse = called.is_none() && list.done > 0 && list.done <= until;
                    let from = if reuse {
                        frame = list.frame.clone();
                        list.done
                    } else {
                        0
                    };
                    let statements = list.statements[from..until].to_vec();
                    drop(lists);
                    for statement in statements {
                        // What a statement before the tool returns is not the tool's concern.
                        self.statement(statement, &mut frame, 0)?;
                    }
                    if called.is_none() {
                        let mut lists = self.lists.borrow_mut();
                        let list = lists.get_mut(&ancestor.id())?;
                        list.done = until;
                        list.frame = frame.clone();
                    }
                }
                _ => {}
            }
        }
        Some(frame)
    }

    /// Binds `function`'s parameters to `arguments` (none: unknown, but for the translation
    /// helper, which stands for its defaults).
    fn bind_parameters(
        &self,
        function: Ts<'t>,
        arguments: &[Option<Go>],
        frame: &mut Frame,
    ) -> Option<()> {
        let parameters = function.child_by_field_name("parameters")?;
        let mut cursor = parameters.walk();
        let mut index = 0;
        for declaration in parameters.named_children(&mut cursor) {
            if declaration.kind() != "parameter_declaration" {
                // `args ...T`: not followed.
                if !arguments.is_empty() {
                    return None;
                }
                continue;
            }
            let translate = declaration
                .child_by_field_name("type")
                .is_some_and(|ty| self.text(ty).ends_with("TranslationHelperFunc"));
            let mut names = declaration.walk();
            for name in declaration.children_by_field_name("name", &mut names) {
                let value = match arguments.get(index) {
                    Some(argument) => argument.clone(),
                    None => translate.then_some(Go::Translate),
                };
                frame.insert(self.text(name).to_string(), value);
                index += 1;
            }
        }
        (arguments.is_empty() || index == arguments.len()).then_some(())
    }

    /// Runs the statements of `list` (a `statement_list`, or a `block`).
    fn statements(&self, list: Ts<'t>, frame: &mut Frame, depth: usize) -> Option<Flow> {
        let list = match list.kind() {
            "block" => match list.named_child(0) {
                Some(inner) if inner.kind() == "statement_list" => inner,
                _ => return Some(Flow::Next),
            },
            _ => list,
        };
        let mut cursor = list.walk();
        for statement in list.named_children(&mut cursor) {
            match self.statement(statement, frame, depth)? {
                Flow::Next => {}
                flow => return Some(flow),
            }
        }
        Some(Flow::Next)
    }

    fn statement(&self, statement: Ts<'t>, frame: &mut Frame, depth: usize) -> Option<Flow> {
        self.spend()?;
        match statement.kind() {
            "comment" | "empty_statement" => {}
            "short_var_declaration" | "assignment_statement" => {
                let operator = statement
                    .child_by_field_name("operator")
                    .map_or(":=", |operator| self.text(operator));
                let left = named(statement.child_by_field_name("left")?);
                let right = named(statement.child_by_field_name("right")?);
                if !matches!(operator, "=" | ":=") || left.len() != right.len() {
                    self.forget(statement, frame);
                    return Some(Flow::Next);
                }
                let values: Vec<Option<Go>> = right
                    .iter()
                    .map(|value| self.eval(*value, frame, depth + 1))
                    .collect();
                for (target, value) in left.into_iter().zip(values) {
                    self.assign(target, value, frame, depth);
                }
            }
            "var_declaration" => each_node(statement, |spec| {
                if spec.kind() == "var_spec" {
                    let mut cursor = spec.walk();
                    let names: Vec<Ts> = spec.children_by_field_name("name", &mut cursor).collect();
                    let values = spec.child_by_field_name("value").map(named);
                    for (index, name) in names.into_iter().enumerate() {
                        let value = match &values {
                            Some(values) if values.len() > index => {
                                self.eval(values[index], frame, depth + 1)
                            }
                            Some(_) => None,
                            None => Some(Go::Nil(self.span(name))),
                        };
                        frame.insert(self.text(name).to_string(), value);
                    }
                }
            }),
            "expression_statement" => {
                let call = statement.named_child(0)?;
                if call.kind() != "call_expression" || !self.call_for_effect(call, frame, depth) {
                    self.forget(statement, frame);
                }
            }
            "return_statement" => {
                let value = statement.named_child(0).map(named).and_then(|values| {
                    match values.as_slice() {
                        [value, ..] => self.eval(*value, frame, depth + 1),
                        [] => None,
                    }
                });
                return Some(Flow::Return(value));
            }
            "block" => return self.statements(statement, frame, depth + 1),
            _ => {
                self.forget(statement, frame);
                if contains_return(statement) {
                    return Some(Flow::Unknown);
                }
            }
        }
        Some(Flow::Next)
    }

    /// Every name of `frame` that `statement` mentions becomes unknown: a statement not
    /// followed may change it.
    fn forget(&self, statement: Ts<'t>, frame: &mut Frame) {
        each_node(statement, |node| {
            if node.kind() == "identifier"
                && let Some(value) = frame.get_mut(self.text(node))
            {
                *value = None;
            }
        });
    }

    /// `target = value`: a name, a field (`schema.Required`) or a key (`schema.Properties["x"]`).
    fn assign(&self, target: Ts<'t>, value: Option<Go>, frame: &mut Frame, depth: usize) {
        if target.kind() == "identifier" {
            let name = self.text(target);
            if name != "_" {
                frame.insert(name.to_string(), value);
            }
            return;
        }
        // The name whose value changes, and the keys down to what changes in it.
        let mut keys = Vec::new();
        let mut at = target;
        let root = loop {
            match at.kind() {
                "selector_expression" => {
                    let Some(field) = at.child_by_field_name("field") else {
                        break None;
                    };
                    keys.push((self.text(field).to_string(), self.span(field)));
                }
                "index_expression" => {
                    let key = at
                        .child_by_field_name("index")
                        .and_then(|index| self.eval(index, frame, depth + 1));
                    match key
                        .as_ref()
                        .and_then(|key| Some((key.as_str()?, key.span())))
                    {
                        Some((key, span)) => keys.push((key.to_string(), span)),
                        None => break None,
                    }
                }
                "identifier" => break Some(self.text(at)),
                _ => break None,
            }
            match at.child_by_field_name("operand") {
                Some(operand) => at = operand,
                None => break None,
            }
        };
        let Some(root) = root else {
            self.forget(target, frame);
            return;
        };
        keys.reverse();
        let Some(slot) = frame.get_mut(root) else {
            return;
        };
        let changed = (|| {
            let mut value_at = slot.as_mut()?;
            let (last, path) = keys.split_last()?;
            for (key, _) in path {
                value_at = value_at
                    .entries_mut()?
                    .iter_mut()
                    .rev()
                    .find(|(name, _, _)| name == key)
                    .map(|(_, _, value)| value)?;
            }
            set(
                value_at.entries_mut()?,
                last.0.clone(),
                last.1.clone(),
                value?,
            );
            Some(())
        })();
        if changed.is_none() {
            *slot = None;
        }
    }

    /// A call made for what it does to its arguments (`WithPagination(schema)`): the package's
    /// function run, and the pointers and maps it was given changed as it changed them.
    /// `false` when not followed.
    fn call_for_effect(&self, call: Ts<'t>, frame: &mut Frame, depth: usize) -> bool {
        let Some(function) = call.child_by_field_name("function") else {
            return false;
        };
        if self.text(function) == "maps.Copy" {
            return self.copy_map(call, frame, depth).is_some();
        }
        if function.kind() != "identifier" || frame.contains_key(self.text(function)) {
            return false;
        }
        let arguments = arguments(call);
        let values: Vec<Option<Go>> = arguments
            .iter()
            .map(|argument| self.eval(*argument, frame, depth + 1))
            .collect();
        let Some(called) = self.call_declared(self.text(function), &values, call, depth) else {
            return false;
        };
        for (argument, (value, reference)) in arguments.iter().zip(called.parameters) {
            let argument = match argument.kind() {
                "unary_expression" => argument.child_by_field_name("operand"),
                _ => Some(*argument),
            };
            if let Some(name) = argument.filter(|a| a.kind() == "identifier")
                && reference
                && let Some(slot) = frame.get_mut(self.text(name))
            {
                *slot = value;
            }
        }
        true
    }

    /// `maps.Copy(destination, source)`: the source's entries set in the destination.
    fn copy_map(&self, call: Ts<'t>, frame: &mut Frame, depth: usize) -> Option<()> {
        let [destination, source] = arguments(call)[..] else {
            return None;
        };
        if destination.kind() != "identifier" {
            return None;
        }
        let source = match self.eval(source, frame, depth + 1)? {
            Go::Map(entries, _) => entries,
            Go::Nil(_) => Vec::new(),
            _ => return None,
        };
        let Some(Go::Map(entries, _)) = frame.get_mut(self.text(destination))?.as_mut() else {
            return None;
        };
        for (key, span, value) in source {
            set(entries, key, span, value);
        }
        Some(())
    }

    /// Runs the package's function `name` with `arguments`. `None` when there is no such
    /// function or it is not followed.
    fn call_declared(
        &self,
        name: &str,
        arguments: &[Option<Go>],
        call: Ts<'t>,
        depth: usize,
    ) -> Option<Called> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.declaration(name, call, false, |reader, function| {
            (function.kind() == "function_declaration")
                .then(|| reader.run_function(function, arguments, depth + 1))
                .flatten()
        })
    }

    /// `read` of the package-level declaration of `name` (a constant's or a variable's value,
    /// a function, a type; a method's with `method`) and the reader of its file: this one, or
    /// one of another file of the package, whose values are located at `node`, where the name
    /// is used.
    fn declaration<R>(
        &self,
        name: &str,
        node: Ts<'t>,
        method: bool,
        read: impl for<'s> Fn(&Reader<'s>, Ts<'s>) -> Option<R>,
    ) -> Option<R> {
        if let Some(declaration) = self.names(method).get(name).copied() {
            return read(self, declaration);
        }
        let used_at = self.used_at.clone().unwrap_or_else(|| node.byte_range());
        for file in self.package.files_declaring(name) {
            let reader = Reader::new(
                &file.source,
                &file.tree,
                self.package,
                self.budget,
                Some(used_at.clone()),
            );
            if let Some(declaration) = reader.names(method).get(name).copied() {
                return read(&reader, declaration);
            }
        }
        None
    }

    fn run_function(
        &self,
        function: Ts<'t>,
        arguments: &[Option<Go>],
        depth: usize,
    ) -> Option<Called> {
        // Generic functions are read as any other (`Ptr[T any](v T) *T`).
        let mut frame = Frame::new();
        self.bind_parameters(function, arguments, &mut frame)?;
        let body = function.child_by_field_name("body")?;
        let returned = match self.statements(body, &mut frame, depth)? {
            Flow::Return(value) => value,
            Flow::Next => None,
            Flow::Unknown => return None,
        };
        let parameters = function.child_by_field_name("parameters")?;
        let mut cursor = parameters.walk();
        let mut after = Vec::new();
        for declaration in parameters.named_children(&mut cursor) {
            let reference = declaration
                .child_by_field_name("type")
                .is_some_and(|ty| matches!(ty.kind(), "pointer_type" | "map_type"));
            let mut names = declaration.walk();
            for name in declaration.children_by_field_name("name", &mut names) {
                after.push((frame.get(self.text(name)).cloned().flatten(), reference));
            }
        }
        Some(Called {
            returned,
            parameters: after,
        })
    }

    /// The value of the expression `node`.
    fn eval(&self, node: Ts<'t>, frame: &Frame, depth: usize) -> Option<Go> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.spend()?;
        match node.kind() {
            "interpreted_string_literal" | "raw_string_literal" => self.string(node),
            "binary_expression" => {
                let operator = self.text(node.child_by_field_name("operator")?);
                if operator != "+" {
                    return None;
                }
                if let Some(literals) = self.string(node) {
                    return Some(literals);
                }
                let left = self.eval(node.child_by_field_name("left")?, frame, depth + 1)?;
                let right = self.eval(node.child_by_field_name("right")?, frame, depth + 1)?;
                let text = [left.as_str()?, right.as_str()?].concat();
                Some(Go::Json(Value::made(&text, self.span(node))))
            }
            "int_literal" | "float_literal" => {
                number(self.text(node), false).map(|n| Go::Json(Value::Number(n, self.span(node))))
            }
            "true" | "false" => Some(Go::Json(Value::Bool(
                node.kind() == "true",
                self.span(node),
            ))),
            "nil" => Some(Go::Nil(self.span(node))),
            "parenthesized_expression" => self.eval(node.named_child(0)?, frame, depth + 1),
            "unary_expression" => {
                let operator = self.text(node.child_by_field_name("operator")?);
                let operand = node.child_by_field_name("operand")?;
                match operator {
                    "&" => self.eval(operand, frame, depth + 1),
                    "-" if matches!(operand.kind(), "int_literal" | "float_literal") => {
                        let n = number(self.text(operand), true)?;
                        Some(Go::Json(Value::Number(n, self.span(node))))
                    }
                    _ => None,
                }
            }
            "identifier" => {
                let name = self.text(node);
                if let Some(value) = frame.get(name) {
                    return value.clone();
                }
                self.package_value(name, node, depth)
            }
            "selector_expression" => {
                // A field of a local value (`schema.Properties`); another package's names are
                // not read.
                let operand = node.child_by_field_name("operand")?;
                let field = self.text(node.child_by_field_name("field")?);
                if operand.kind() != "identifier" {
                    return None;
                }
                frame.get(self.text(operand))?.as_ref()?.get(field).cloned()
            }
            "composite_literal" => {
                let ty = node.child_by_field_name("type")?;
                self.composite(ty, node.child_by_field_name("body")?, frame, depth)
            }
            "call_expression" => self.call(node, frame, depth),
            "func_literal" => Some(Go::Closure {
                file: self.source.as_ptr() as usize,
                start: node.start_byte(),
                end: node.end_byte(),
            }),
            _ => None,
        }
    }

    /// A package-level constant or variable, in the file or another of the package.
    fn package_value(&self, name: &str, node: Ts<'t>, depth: usize) -> Option<Go> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.declaration(name, node, false, |reader, value| {
            (value.kind() != "function_declaration")
                .then(|| reader.eval(value, &Frame::new(), depth + 1))
                .flatten()
        })
    }

    fn string(&self, node: Ts<'t>) -> Option<Go> {
        let (value, _) = super::go_string::decode(self.text(node), node.start_byte())?;
        Some(Go::Json(match &self.used_at {
            Some(at) => Value::made(&value, at.clone()),
            None => Value::Str {
                value,
                raw: node.byte_range(),
                style: StrStyle::Go,
            },
        }))
    }

    fn call(&self, call: Ts<'t>, frame: &Frame, depth: usize) -> Option<Go> {
        let function = call.child_by_field_name("function")?;
        let arguments = arguments(call);
        match function.kind() {
            "selector_expression" => {
                let operand = self.text(function.child_by_field_name("operand")?);
                let field = self.text(function.child_by_field_name("field")?);
                if Some(operand) == self.names.mcp_go.as_deref() && field == "NewTool" {
                    return self.mcp_go_tool(call, frame, depth);
                }
                match (operand, field, arguments.as_slice()) {
                    // `jsonschema.Ptr(1.0)`, `github.Ptr(true)`: the value pointed at.
                    (_, "Ptr", [value]) => self.eval(*value, frame, depth + 1),
                    ("fmt", "Sprintf", [format, values @ ..]) => {
                        let format = self.eval(*format, frame, depth + 1)?;
                        let values: Option<Vec<Go>> = values
                            .iter()
                            .map(|value| self.eval(*value, frame, depth + 1))
                            .collect();
                        let text = sprintf(format.as_str()?, &values?)?;
                        Some(Go::Json(Value::made(&text, self.span(call))))
                    }
                    ("strings", "Join", [items, separator]) => {
                        let Go::List(items, _) = self.eval(*items, frame, depth + 1)? else {
                            return None;
                        };
                        let separator = self.eval(*separator, frame, depth + 1)?;
                        let items: Option<Vec<&str>> = items.iter().map(Go::as_str).collect();
                        let text = items?.join(separator.as_str()?);
                        Some(Go::Json(Value::made(&text, self.span(call))))
                    }
                    ("strconv", "Itoa", [integer]) => {
                        match self.eval(*integer, frame, depth + 1)? {
                            Go::Json(Value::Number(n, _)) if n.is_i64() => {
                                Some(Go::Json(Value::made(&n.to_string(), self.span(call))))
                            }
                            _ => None,
                        }
                    }
                    ("json", "RawMessage", [text]) => {
                        let text = self.eval(*text, frame, depth + 1)?;
                        let parsed: serde_json::Value =
                            serde_json::from_str(text.as_str()?).ok()?;
                        Some(Go::Json(made_json(parsed, &text.span())))
                    }
                    _ => None,
                }
            }
            "identifier" => {
                let name = self.text(function);
                match frame.get(name) {
                    Some(Some(Go::Translate)) => {
                        // `t("TOOL_X_DESCRIPTION", "default")`.
                        let [_, default] = arguments.as_slice() else {
                            return None;
                        };
                        return self.eval(*default, frame, depth + 1);
                    }
                    // `variant := func(…) {…}`, called.
                    Some(Some(Go::Closure { file, start, end })) => {
                        let function = self.root.descendant_for_byte_range(*start, *end)?;
                        if *file != self.source.as_ptr() as usize
                            || function.kind() != "func_literal"
                        {
                            return None;
                        }
                        return self.call_closure(function, &arguments, frame, depth);
                    }
                    Some(_) => return None,
                    None => {}
                }
                if name == "append" {
                    let (first, rest) = arguments.split_first()?;
                    let mut items = match self.eval(*first, frame, depth + 1)? {
                        Go::List(items, _) => items,
                        Go::Nil(_) => Vec::new(),
                        _ => return None,
                    };
                    for item in rest {
                        if item.kind() == "variadic_argument" {
                            // `append(a, b...)`.
                            match self.eval(item.named_child(0)?, frame, depth + 1)? {
                                Go::List(more, _) => items.extend(more),
                                Go::Nil(_) => {}
                                _ => return None,
                            }
                            continue;
                        }
                        items.push(self.eval(*item, frame, depth + 1)?);
                    }
                    return Some(Go::List(items, self.span(call)));
                }
                let values: Vec<Option<Go>> = arguments
                    .iter()
                    .map(|argument| self.eval(*argument, frame, depth + 1))
                    .collect();
                self.call_declared(name, &values, call, depth)?.returned
            }
            // `func() *jsonschema.Schema { … }()`.
            "func_literal" => self.call_closure(function, &arguments, frame, depth),
            _ => None,
        }
    }

    /// mcp-go's `mcp.NewTool(name, options…)`: the tool its options make, as mcp-go writes it
    /// (maps all the way: keys sorted; the default hints of `NewTool`; `required` always).
    fn mcp_go_tool(&self, call: Ts<'t>, frame: &Frame, depth: usize) -> Option<Go> {
        let span = self.span(call);
        let flag = |value: bool| Go::Json(Value::Bool(value, span.clone()));
        let entry = |key: &str, value: Go| (key.to_string(), span.clone(), value);
        let (name, options) = arguments(call)
            .split_first()
            .map(|(n, o)| (*n, o.to_vec()))?;
        let name = self.eval(name, frame, depth + 1)?;
        name.as_str()?;
        let mut tool = vec![entry("name", name)];
        let mut annotations = vec![
            entry("destructiveHint", flag(true)),
            entry("idempotentHint", flag(false)),
            entry("openWorldHint", flag(true)),
            entry("readOnlyHint", flag(false)),
        ];
        let mut schema = vec![entry("type", Go::Json(Value::made("object", span.clone())))];
        let mut properties = Vec::new();
        let mut required = Vec::new();
        for option in options {
            let (option, arguments) = self.option_call(option)?;
            let value = |index: usize| -> Option<Go> {
                self.eval(*arguments.get(index)?, frame, depth + 1)
            };
            let key_span = self.span(option);
            match self.text(option) {
                "WithDescription" => set_text(&mut tool, "description", key_span, value(0)?),
                "WithToolTitle" => set_text(&mut tool, "title", key_span, value(0)?),
                "WithTitleAnnotation" => set_text(&mut annotations, "title", key_span, value(0)?),
                hint @ ("WithReadOnlyHintAnnotation"
                | "WithDestructiveHintAnnotation"
                | "WithIdempotentHintAnnotation"
                | "WithOpenWorldHintAnnotation") => {
                    let key = match hint {
                        "WithReadOnlyHintAnnotation" => "readOnlyHint",
                        "WithDestructiveHintAnnotation" => "destructiveHint",
                        "WithIdempotentHintAnnotation" => "idempotentHint",
                        _ => "openWorldHint",
                    };
                    set(&mut annotations, key.to_string(), key_span, value(0)?);
                }
                "WithSchemaAdditionalProperties" => set(
                    &mut schema,
                    "additionalProperties".into(),
                    key_span,
                    value(0)?,
                ),
                // Images, not words a model reads.
                "WithToolIcons" => {}
                kind @ ("WithString" | "WithNumber" | "WithInteger" | "WithBoolean"
                | "WithObject" | "WithArray" | "WithAny") => {
                    let name = value(0)?;
                    let property_name = name.as_str()?.to_string();
                    let ty = match kind {
                        "WithString" => Some("string"),
                        "WithNumber" => Some("number"),
                        "WithInteger" => Some("integer"),
                        "WithBoolean" => Some("boolean"),
                        "WithObject" => Some("object"),
                        "WithArray" => Some("array"),
                        _ => None,
                    };
                    let mut property = Vec::new();
                    if let Some(ty) = ty {
                        let made = Go::Json(Value::made(ty, key_span.clone()));
                        property.push(("type".to_string(), key_span.clone(), made));
                    }
                    if kind == "WithObject" {
                        let empty = Go::Map(Vec::new(), key_span.clone());
                        property.push(("properties".to_string(), key_span.clone(), empty));
                    }
                    for option in &arguments[1..] {
                        self.property_option(*option, &mut property, frame, depth + 1)?;
                    }
                    let flagged = property.iter().position(|(key, _, value)| {
                        key == "required" && matches!(value, Go::Json(Value::Bool(true, _)))
                    });
                    if let Some(position) = flagged {
                        property.remove(position);
                        required.push(name.clone());
                    }
                    properties.retain(|(key, _, _)| *key != property_name);
                    properties.push((property_name, name.span(), Go::Map(property, key_span)));
                }
                _ => return None,
            }
        }
        schema.push(entry("properties", Go::Map(properties, span.clone())));
        schema.push(entry("required", Go::List(required, span.clone())));
        tool.push(entry("inputSchema", Go::Map(schema, span.clone())));
        tool.push(entry("annotations", Go::Map(annotations, span.clone())));
        Some(Go::Map(tool, span))
    }

    /// An option of mcp-go (`mcp.WithString(…)`, `mcp.Required()`): the call and its
    /// arguments; `None` for anything else.
    fn option_call(&self, option: Ts<'t>) -> Option<(Ts<'t>, Vec<Ts<'t>>)> {
        let function = option.child_by_field_name("function")?;
        let operand = function.child_by_field_name("operand")?;
        if option.kind() != "call_expression"
            || function.kind() != "selector_expression"
            || Some(self.text(operand)) != self.names.mcp_go.as_deref()
        {
            return None;
        }
        Some((function.child_by_field_name("field")?, arguments(option)))
    }

    /// Applies mcp-go's property option `option` to `property` (a property's map).
    fn property_option(
        &self,
        option: Ts<'t>,
        property: &mut Vec<(String, Span, Go)>,
        frame: &Frame,
        depth: usize,
    ) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (name, arguments) = self.option_call(option)?;
        let span = self.span(name);
        let value =
            |index: usize| -> Option<Go> { self.eval(*arguments.get(index)?, frame, depth + 1) };
        let key = match self.text(name) {
            "Description" => "description",
            "Title" => "title",
            "Required" => {
                let yes = Go::Json(Value::Bool(true, span.clone()));
                set(property, "required".into(), span, yes);
                return Some(());
            }
            "DefaultString" | "DefaultNumber" | "DefaultBool" | "DefaultArray" => "default",
            "Enum" => {
                let mut values = Vec::new();
                for argument in &arguments {
                    if argument.kind() == "variadic_argument" {
                        match self.eval(argument.named_child(0)?, frame, depth + 1)? {
                            Go::List(items, _) => values.extend(items),
                            _ => return None,
                        }
                    } else {
                        values.push(self.eval(*argument, frame, depth + 1)?);
                    }
                }
                set(
                    property,
                    "enum".into(),
                    span.clone(),
                    Go::List(values, span),
                );
                return Some(());
            }
            "MaxLength" => "maxLength",
            "MinLength" => "minLength",
            "Pattern" => "pattern",
            "Max" => "maximum",
            "Min" => "minimum",
            "MultipleOf" => "multipleOf",
            "Properties" => "properties",
            "AdditionalProperties" => "additionalProperties",
            "MinProperties" => "minProperties",
            "MaxProperties" => "maxProperties",
            "Items" => "items",
            "MinItems" => "minItems",
            "MaxItems" => "maxItems",
            "UniqueItems" => "uniqueItems",
            items @ ("WithStringItems" | "WithNumberItems" | "WithIntegerItems"
            | "WithBooleanItems") => {
                let ty = match items {
                    "WithStringItems" => "string",
                    "WithNumberItems" => "number",
                    "WithIntegerItems" => "integer",
                    _ => "boolean",
                };
                let made = Go::Json(Value::made(ty, span.clone()));
                let mut item = vec![("type".to_string(), span.clone(), made)];
                for option in &arguments {
                    self.property_option(*option, &mut item, frame, depth + 1)?;
                }
                set(property, "items".into(), span.clone(), Go::Map(item, span));
                return Some(());
            }
            "WithStringEnumItems" => {
                let made = Go::Json(Value::made("string", span.clone()));
                let item = vec![
                    ("type".to_string(), span.clone(), made),
                    ("enum".to_string(), span.clone(), value(0)?),
                ];
                set(property, "items".into(), span.clone(), Go::Map(item, span));
                return Some(());
            }
            _ => return None,
        };
        set(property, key.to_string(), span, value(0)?);
        Some(())
    }

    /// Calls the function literal `function` where `frame` holds the names it sees.
    fn call_closure(
        &self,
        function: Ts<'t>,
        arguments: &[Ts<'t>],
        frame: &Frame,
        depth: usize,
    ) -> Option<Go> {
        let values: Vec<Option<Go>> = arguments
            .iter()
            .map(|argument| self.eval(*argument, frame, depth + 1))
            .collect();
        let mut inner = frame.clone();
        self.bind_parameters(function, &values, &mut inner)?;
        match self.statements(function.child_by_field_name("body")?, &mut inner, depth + 1)? {
            Flow::Return(value) => value,
            _ => None,
        }
    }

    /// A composite literal of type `ty`: the SDK's and jsonschema-go's structs, maps, slices.
    fn composite(&self, ty: Ts<'t>, body: Ts<'t>, frame: &Frame, depth: usize) -> Option<Go> {
        let ty = match ty.kind() {
            "pointer_type" => ty.named_child(0)?,
            _ => ty,
        };
        let span = self.span(body);
        let elements = named(body);
        match ty.kind() {
            "map_type" => {
                let element_type = ty.child_by_field_name("value")?;
                let mut entries = Vec::new();
                for element in elements {
                    if element.kind() == "comment" {
                        continue;
                    }
                    if element.kind() != "keyed_element" {
                        return None;
                    }
                    let key = element.child_by_field_name("key")?.named_child(0)?;
                    let key = self.eval(key, frame, depth + 1)?;
                    let value = element.child_by_field_name("value")?;
                    let value = self.element(value, element_type, frame, depth)?;
                    let (key_span, key) = (key.span(), key.as_str()?.to_string());
                    set(&mut entries, key, key_span, value);
                }
                Some(Go::Map(entries, span))
            }
            "slice_type" | "array_type" | "implicit_length_array_type" => {
                let element_type = ty.child_by_field_name("element")?;
                let mut items = Vec::new();
                for element in elements {
                    match element.kind() {
                        "comment" => {}
                        "literal_element" => {
                            items.push(self.element(element, element_type, frame, depth)?)
                        }
                        _ => return None,
                    }
                }
                Some(Go::List(items, span))
            }
            "qualified_type" => {
                let package = self.text(ty.child_by_field_name("package")?);
                let name = self.text(ty.child_by_field_name("name")?);
                let kind = if Some(package) == self.names.sdk.as_deref() {
                    match name {
                        // `type Meta map[string]any`.
                        "Meta" => return self.untyped_map(elements, frame, depth, span),
                        "Tool" => Kind::Tool,
                        "ToolAnnotations" => Kind::Annotations,
                        _ => return None,
                    }
                } else if Some(package) == self.names.schema.as_deref() && name == "Schema" {
                    Kind::Schema
                } else {
                    return None;
                };
                let mut fields = Vec::new();
                for element in elements {
                    match element.kind() {
                        "comment" => {}
                        "keyed_element" => {
                            let key = element.child_by_field_name("key")?;
                            let field = self.text(key).trim();
                            if kind == Kind::Tool && field == "Icons" {
                                continue;
                            }
                            let value = element.child_by_field_name("value")?;
                            let value = self.element(value, ty, frame, depth)?;
                            set(&mut fields, field.to_string(), self.span(key), value);
                        }
                        _ => return None,
                    }
                }
                Some(Go::Struct(kind, fields, span))
            }
            _ => None,
        }
    }

    /// A map of values whose types are written (`map[string]any{…}`).
    fn untyped_map(
        &self,
        elements: Vec<Ts<'t>>,
        frame: &Frame,
        depth: usize,
        span: Span,
    ) -> Option<Go> {
        let mut entries = Vec::new();
        for element in elements {
            if element.kind() != "keyed_element" {
                return None;
            }
            let key = element.child_by_field_name("key")?.named_child(0)?;
            let key = self.eval(key, frame, depth + 1)?;
            let value = element.child_by_field_name("value")?.named_child(0)?;
            let value = self.eval(value, frame, depth + 1)?;
            let (key_span, key) = (key.span(), key.as_str()?.to_string());
            set(&mut entries, key, key_span, value);
        }
        Some(Go::Map(entries, span))
    }

    /// An element of a composite literal: an expression, or a literal of `element_type` with
    /// its type left out (`"query": {Type: "string"}`).
    fn element(
        &self,
        element: Ts<'t>,
        element_type: Ts<'t>,
        frame: &Frame,
        depth: usize,
    ) -> Option<Go> {
        let inner = match element.kind() {
            "literal_element" => element.named_child(0)?,
            _ => element,
        };
        if inner.kind() == "literal_value" {
            return self.composite(element_type, inner, frame, depth + 1);
        }
        self.eval(inner, frame, depth + 1)
    }
}

/// `{"type": T}` as `{"type": ["null", T]}`: a pointer's schema.
fn nullable(schema: Go) -> Go {
    match schema {
        Go::Struct(Kind::Schema, mut fields, span) => {
            if let Some(entry) = fields.iter_mut().find(|(name, _, _)| name == "Type") {
                let null = Go::Json(Value::made("null", entry.1.clone()));
                let types = Go::List(vec![null, entry.2.clone()], entry.1.clone());
                *entry = ("Types".to_string(), entry.1.clone(), types);
            }
            Go::Struct(Kind::Schema, fields, span)
        }
        other => other,
    }
}

/// The types of a parameter list, one per parameter (`a, b int` is two).
fn parameter_types(list: Ts) -> Vec<Ts> {
    let mut types = Vec::new();
    for declaration in named(list) {
        let Some(ty) = declaration.child_by_field_name("type") else {
            continue;
        };
        let mut cursor = declaration.walk();
        let names = declaration
            .children_by_field_name("name", &mut cursor)
            .count();
        types.extend(std::iter::repeat_n(ty, names.max(1)));
    }
    types
}

/// The value of `key` in a struct tag (`json:"name,omitempty" jsonschema:"…"`), unquoted as
/// `reflect.StructTag.Lookup` does, and where its opening quote is in `tag`.
fn tag_value(tag: &str, key: &str) -> Option<(String, usize)> {
    let bytes = tag.as_bytes();
    let mut pos = 0;
    loop {
        while bytes.get(pos) == Some(&b' ') {
            pos += 1;
        }
        let name_start = pos;
        while pos < bytes.len() && bytes[pos] > b' ' && bytes[pos] != b':' && bytes[pos] != b'"' {
            pos += 1;
        }
        if pos == name_start || bytes.get(pos) != Some(&b':') || bytes.get(pos + 1) != Some(&b'"') {
            return None;
        }
        let name = &tag[name_start..pos];
        let quote = pos + 1;
        let end = quote + quoted_end(&bytes[quote..])?;
        if name == key {
            let (value, _) = super::go_string::decode(&tag[quote..end], 0)?;
            return Some((value, quote));
        }
        pos = end;
    }
}

/// Where the interpreted string opening at `raw[0]` ends (past its closing quote).
fn quoted_end(raw: &[u8]) -> Option<usize> {
    let mut pos = 1;
    while pos < raw.len() {
        match raw[pos] {
            b'\\' => pos += 2,
            b'"' => return Some(pos + 1),
            _ => pos += 1,
        }
    }
    None
}

/// jsonschema-go refuses a `jsonschema` tag that starts `WORD=` (the syntax of other libraries).
fn description_allowed(description: &str) -> bool {
    let word = description
        .split([' ', '\t', '\n'])
        .next()
        .unwrap_or_default();
    !word.contains('=')
}

/// The named children of `node`, comments left out.
fn named(node: Ts) -> Vec<Ts> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|child| child.kind() != "comment")
        .collect()
}

/// The arguments of a call.
fn arguments(call: Ts) -> Vec<Ts> {
    call.child_by_field_name("arguments")
        .map(named)
        .unwrap_or_default()
}

/// Whether `statement` may return (outside the functions written in it).
fn contains_return(statement: Ts) -> bool {
    let mut found = false;
    each_node(statement, |node| {
        if node.kind() == "return_statement" && !inside_func_literal(node, statement) {
            found = true;
        }
    });
    found
}

fn inside_func_literal(node: Ts, within: Ts) -> bool {
    let mut at = node;
    while let Some(parent) = at.parent() {
        if parent == within {
            return false;
        }
        if parent.kind() == "func_literal" {
            return true;
        }
        at = parent;
    }
    false
}

/// `NAME = value` of a package-level `const` or `var` (one name per value).
fn bind_spec<'t>(source: &'t str, spec: Ts<'t>, declared: &mut HashMap<&'t str, Ts<'t>>) {
    let mut cursor = spec.walk();
    let names: Vec<Ts> = spec.children_by_field_name("name", &mut cursor).collect();
    let Some(values) = spec.child_by_field_name("value").map(named) else {
        return;
    };
    if names.len() == values.len() {
        for (name, value) in names.into_iter().zip(values) {
            declared.insert(&source[name.byte_range()], value);
        }
    }
}

/// Notes the name a file imports the SDK or jsonschema-go as.
fn import(source: &str, spec: Ts, names: &mut ImportNames) {
    let Some(path) = spec
        .child_by_field_name("path")
        .and_then(|path| super::go_string::decode(&source[path.byte_range()], 0))
        .map(|(path, _)| path)
    else {
        return;
    };
    let alias = spec
        .child_by_field_name("name")
        .map(|name| source[name.byte_range()].to_string());
    let last = path.rsplit('/').next().unwrap_or_default().to_string();
    let name = alias.unwrap_or(last);
    if path == SDK_PACKAGE {
        names.sdk = Some(name);
    } else if path == MCP_GO_PACKAGE {
        names.mcp_go = Some(name);
    } else if SCHEMA_PACKAGES.contains(&path.as_str()) {
        names.schema = Some(name);
    }
}

/// A Go number literal as `encoding/json` writes it: integers as integers, floats in their
/// shortest form (a whole float, `1.0`, as `1`).
fn number(text: &str, negative: bool) -> Option<serde_json::Number> {
    let digits = text.replace('_', "");
    let sign = if negative { -1 } else { 1 };
    let integer = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        i64::from_str_radix(hex, 16).ok()
    } else if digits.contains(['.', 'e', 'E']) {
        None
    } else {
        digits.parse::<i64>().ok()
    };
    if let Some(integer) = integer {
        return Some((sign * integer).into());
    }
    let float: f64 = digits.parse().ok()?;
    let float = float * sign as f64;
    if float.fract() == 0.0 && float.abs() < 1e21 {
        return Some((float as i64).into());
    }
    serde_json::Number::from_f64(float)
}

/// `fmt.Sprintf(format, values…)` for the verbs `%s`, `%d`, `%v` and `%%` of strings and
/// integers; `None` for anything else (widths, flags, other verbs, other values).
fn sprintf(format: &str, values: &[Go]) -> Option<String> {
    let mut out = String::new();
    let mut values = values.iter();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let verb = chars.next()?;
        if verb == '%' {
            out.push('%');
            continue;
        }
        match (verb, values.next()?) {
            ('s' | 'v', Go::Json(Value::Str { value, .. })) => out.push_str(value),
            ('d' | 'v', Go::Json(Value::Number(n, _))) if n.is_i64() || n.is_u64() => {
                out.push_str(&n.to_string())
            }
            _ => return None,
        }
    }
    values.next().is_none().then_some(out)
}

/// A JSON value parsed from a literal, every part of it at `span`.
fn made_json(value: serde_json::Value, span: &Span) -> Value {
    match value {
        serde_json::Value::Null => Value::Null(span.clone()),
        serde_json::Value::Bool(b) => Value::Bool(b, span.clone()),
        serde_json::Value::Number(n) => Value::Number(n, span.clone()),
        serde_json::Value::String(s) => Value::made(&s, span.clone()),
        serde_json::Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| made_json(item, span))
                .collect(),
            span.clone(),
        ),
        serde_json::Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(key, value)| Member::new(&key, span.clone(), made_json(value, span)))
                .collect(),
            span.clone(),
        ),
    }
}

/// The JSON the SDK sends for `value`: structs by their `json` tags in their fields' order,
/// zero values left out where the tag says `omitempty`, maps with their keys sorted.
fn json(value: Go) -> Option<Value> {
    match value {
        Go::Json(value) => Some(value),
        Go::Nil(span) => Some(Value::Null(span)),
        Go::Translate | Go::Closure { .. } => None,
        Go::List(items, span) => Some(Value::Array(
            items.into_iter().map(json).collect::<Option<_>>()?,
            span,
        )),
        Go::Map(mut entries, span) => {
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let members = entries
                .into_iter()
                .map(|(key, key_span, value)| Some(Member::new(&key, key_span, json(value)?)))
                .collect::<Option<_>>()?;
            Some(Value::Object(members, span))
        }
        Go::Struct(kind, fields, span) => structure(kind, fields, span),
    }
}

/// A struct's JSON: its fields in `json` tag order (`FIELDS`).
fn structure(kind: Kind, mut fields: Vec<(String, Span, Go)>, span: Span) -> Option<Value> {
    let order = match kind {
        Kind::Tool => TOOL_FIELDS,
        Kind::Annotations => ANNOTATION_FIELDS,
        Kind::Schema => SCHEMA_FIELDS,
    };
    // A field toolcheck does not know how the library writes: not guessed.
    if fields
        .iter()
        .any(|(name, _, _)| !order.iter().any(|field| field.go == name))
    {
        return None;
    }
    let mut members = Vec::new();
    for field in order {
        let position = fields.iter().position(|(name, _, _)| name == field.go);
        let Some(position) = position else {
            if field.omit == Omit::Never {
                // A tool without a name or a schema is refused by the SDK: not one.
                if kind == Kind::Tool {
                    return None;
                }
                // Written even when not set (the SDK's `readOnlyHint` and `idempotentHint`).
                members.push(Member::new(
                    field.json,
                    span.clone(),
                    Value::Bool(false, span.clone()),
                ));
            }
            continue;
        };
        let (_, key_span, value) = fields.swap_remove(position);
        let omitted = match (field.omit, &value) {
            (Omit::Never, _) => false,
            (_, Go::Nil(_)) => true,
            (Omit::Nil, _) => false,
            (Omit::Empty, Go::Json(Value::Str { value, .. })) => value.is_empty(),
            (Omit::Empty, Go::Json(Value::Bool(b, _))) => !b,
            (Omit::Empty, Go::List(items, _)) => items.is_empty(),
            (Omit::Empty, Go::Map(entries, _)) => entries.is_empty(),
            (Omit::Empty, _) => false,
        };
        if omitted {
            continue;
        }
        members.push(Member::new(field.json, key_span, json(value)?));
    }
    // jsonschema-go writes `{}` as `true` and `{"not": true}` as `false`.
    if kind == Kind::Schema {
        match members.as_slice() {
            [] => return Some(Value::Bool(true, span)),
            [not] if not.key == "not" && matches!(not.value, Value::Bool(true, _)) => {
                return Some(Value::Bool(false, span));
            }
            _ => {}
        }
    }
    Some(Value::Object(members, span))
}

/// A Go struct field, its JSON name, and when `encoding/json` leaves it out.
struct Field {
    go: &'static str,
    json: &'static str,
    omit: Omit,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Omit {
    /// No `omitempty`: written even when not set (as its zero value, `false`).
    Never,
    /// A pointer, interface or `json.RawMessage`: left out when nil only (a `*bool` that is
    /// `false`, a default of `false`, are written).
    Nil,
    /// A string, `bool`, slice or map: left out when empty.
    Empty,
}

const fn field(go: &'static str, json: &'static str, omit: Omit) -> Field {
    Field { go, json, omit }
}

/// `mcp.Tool` (go-sdk 1.x). Its icons are left out: images, not words a model reads, and
/// mostly made by calls.
const TOOL_FIELDS: &[Field] = &[
    field("Meta", "_meta", Omit::Empty),
    field("Annotations", "annotations", Omit::Nil),
    field("Description", "description", Omit::Empty),
    field("InputSchema", "inputSchema", Omit::Never),
    field("Name", "name", Omit::Never),
    field("OutputSchema", "outputSchema", Omit::Nil),
    field("Title", "title", Omit::Empty),
];

/// `mcp.ToolAnnotations`: the two plain `bool`s are always written.
const ANNOTATION_FIELDS: &[Field] = &[
    field("DestructiveHint", "destructiveHint", Omit::Nil),
    field("IdempotentHint", "idempotentHint", Omit::Never),
    field("OpenWorldHint", "openWorldHint", Omit::Nil),
    field("ReadOnlyHint", "readOnlyHint", Omit::Never),
    field("Title", "title", Omit::Empty),
];

/// `jsonschema.Schema` as its `MarshalJSON` writes it: `type`, `properties`, `items` first,
/// then the struct's fields in order.
const SCHEMA_FIELDS: &[Field] = &[
    field("Type", "type", Omit::Empty),
    field("Types", "type", Omit::Empty),
    field("Properties", "properties", Omit::Nil),
    field("Items", "items", Omit::Nil),
    field("ID", "$id", Omit::Empty),
    field("Schema", "$schema", Omit::Empty),
    field("Ref", "$ref", Omit::Empty),
    field("Comment", "$comment", Omit::Empty),
    field("Defs", "$defs", Omit::Empty),
    field("Definitions", "definitions", Omit::Empty),
    field("Anchor", "$anchor", Omit::Empty),
    field("Title", "title", Omit::Empty),
    field("Description", "description", Omit::Empty),
    field("Default", "default", Omit::Nil),
    field("Deprecated", "deprecated", Omit::Empty),
    field("ReadOnly", "readOnly", Omit::Empty),
    field("WriteOnly", "writeOnly", Omit::Empty),
    field("Examples", "examples", Omit::Empty),
    field("Enum", "enum", Omit::Empty),
    field("Const", "const", Omit::Nil),
    field("MultipleOf", "multipleOf", Omit::Nil),
    field("Minimum", "minimum", Omit::Nil),
    field("Maximum", "maximum", Omit::Nil),
    field("ExclusiveMinimum", "exclusiveMinimum", Omit::Nil),
    field("ExclusiveMaximum", "exclusiveMaximum", Omit::Nil),
    field("MinLength", "minLength", Omit::Nil),
    field("MaxLength", "maxLength", Omit::Nil),
    field("Pattern", "pattern", Omit::Empty),
    field("PrefixItems", "prefixItems", Omit::Empty),
    field("MinItems", "minItems", Omit::Nil),
    field("MaxItems", "maxItems", Omit::Nil),
    field("UniqueItems", "uniqueItems", Omit::Empty),
    field("Contains", "contains", Omit::Nil),
    field("MinProperties", "minProperties", Omit::Nil),
    field("MaxProperties", "maxProperties", Omit::Nil),
    field("Required", "required", Omit::Empty),
    field("PatternProperties", "patternProperties", Omit::Empty),
    field("AdditionalProperties", "additionalProperties", Omit::Nil),
    field("PropertyNames", "propertyNames", Omit::Nil),
    field("AllOf", "allOf", Omit::Empty),
    field("AnyOf", "anyOf", Omit::Empty),
    field("OneOf", "oneOf", Omit::Empty),
    field("Not", "not", Omit::Nil),
    field("If", "if", Omit::Nil),
    field("Then", "then", Omit::Nil),
    field("Else", "else", Omit::Nil),
    field("ContentEncoding", "contentEncoding", Omit::Empty),
    field("ContentMediaType", "contentMediaType", Omit::Empty),
    field("Format", "format", Omit::Empty),
];

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use serde_json::{Value as Json, json};

    use super::super::{Imports, Language, parse};

    fn fixture_path(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/sources/go")
            .join(name)
    }

    /// The tools of the fixture `name`, the other files of its directory read as its package.
    fn fixture_tools(name: &str) -> (String, Json) {
        let path = fixture_path(name);
        let source = std::fs::read_to_string(&path).unwrap();
        let read = |path: &Path| std::fs::read_to_string(path).ok();
        let list = |directory: &Path| {
            let mut files: Vec<PathBuf> = std::fs::read_dir(directory)
                .unwrap()
                .map(|entry| entry.unwrap().path())
                .collect();
            files.sort();
            files
        };
        let imports = Imports {
            path: &path,
            read: &read,
            list: &list,
        };
        let root = parse(&source, Language::Go, Some(&imports)).unwrap();
        let tools = root.to_json()["tools"].clone();
        (source, tools)
    }

    fn tools(source: &str) -> Json {
        parse(source, Language::Go, None).unwrap().to_json()["tools"].clone()
    }

    fn names(tools: &Json) -> Vec<&str> {
        let tools = tools.as_array().unwrap();
        tools
            .iter()
            .map(|tool| tool["name"].as_str().unwrap())
            .collect()
    }

    const PRELUDE: &str = "package main\n\nimport (\n\t\"github.com/google/jsonschema-go/jsonschema\"\n\t\"github.com/modelcontextprotocol/go-sdk/mcp\"\n)\n\n";

    #[test]
    fn a_sample_of_githubs_server_reads_as_it_lists_its_tools() {
        // The listing is the server's own snapshot of these tools (its `__toolsnaps__`).
        let (_, read) = fixture_tools("github/gists.go");
        let text = std::fs::read_to_string(fixture_path("github/gists.listing.json")).unwrap();
        let listed = serde_json::from_str::<Json>(&text).unwrap()["tools"].clone();
        // Key order aside (the snapshots sort their keys): the same tools, field for field.
        assert_eq!(read, listed);
        // The pagination helper of another file of the package added its properties.
        assert_eq!(
            read[0]["inputSchema"]["properties"]["perPage"]["maximum"],
            100
        );
        // `json.RawMessage("false")` as a default is written; the SDK's two plain hints too.
        assert_eq!(
            read[1]["inputSchema"]["properties"]["public"]["default"],
            false
        );
        assert_eq!(read[1]["annotations"]["idempotentHint"], false);
    }

    #[test]
    fn values_are_read_where_the_statements_before_a_tool_leave_them() {
        let (source, read) = fixture_tools("server.go");
        assert_eq!(names(&read), ["search_issues", "add_label", "remove_label"]);
        assert_eq!(
            read[0]["description"],
            "Search the issues of a repository. This tool will ALWAYS return the newest issues first."
        );
        // `schema.Properties["state"] = …` after the literal, before the tool.
        assert_eq!(
            read[0]["inputSchema"],
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "Words to search for"},
                    "state": {"type": "string", "enum": ["open", "closed"]}
                },
                "required": ["query"]
            })
        );
        // A helper's tool, once per call, its parameters bound to each call's arguments.
        assert_eq!(read[1]["description"], "Adds a label to an issue.");
        assert_eq!(read[1]["annotations"]["destructiveHint"], false);
        assert_eq!(read[2]["annotations"]["destructiveHint"], true);
        assert_eq!(read[2]["inputSchema"]["properties"]["issue"]["minimum"], 1);
        // Keys in the order the SDK writes them.
        let keys: Vec<&String> = read[1].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["annotations", "description", "inputSchema", "name"]);
        let schema_keys: Vec<&String> =
            read[0]["inputSchema"].as_object().unwrap().keys().collect();
        assert_eq!(schema_keys, ["type", "properties", "required"]);
        // The words of a constant joined with `+` are located where they are written.
        let root = parse(&source, Language::Go, None).unwrap();
        let description = root.get("tools").unwrap().as_array().unwrap()[0]
            .get("description")
            .unwrap();
        let value = description.as_str().unwrap();
        let always = value.find("ALWAYS").unwrap();
        let range = description.source_range(&source, always..always + 6);
        assert_eq!(&source[range], "ALWAYS");
    }

    #[test]
    fn typed_handlers_give_the_schemas_jsonschema_go_infers() {
        let (source, read) = fixture_tools("typed.go");
        assert_eq!(names(&read), ["search", "ping", "count"]);
        // Fields in order, named by their `json` tags, described by their `jsonschema` tags,
        // required unless `omitempty`; slices and pointers nullable; closed.
        assert_eq!(
            read[0]["inputSchema"].to_string(),
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "the words to search for"},
                    "limit": {"type": "integer", "description": "at most this many results"},
                    "tags": {"type": ["null", "array"], "items": {"type": "string"}},
                    "since": {"type": ["null", "string"]},
                    "Exact": {"type": "boolean"}
                },
                "required": ["query", "Exact"],
                "additionalProperties": false
            })
            .to_string()
        );
        // The output type, a struct of a slice of structs, gives the output schema.
        assert_eq!(
            read[0]["outputSchema"]["properties"]["hits"]["items"],
            json!({
                "type": "object",
                "properties": {"title": {"type": "string"}, "score": {"type": "number"}},
                "required": ["title", "score"],
                "additionalProperties": false
            })
        );
        // `any` in: an object; `any` out: no output schema. A method value as the handler.
        assert_eq!(read[1]["inputSchema"], json!({"type": "object"}));
        assert!(read[1].get("outputSchema").is_none());
        // An anonymous struct of a function literal; `int8`'s bounds.
        assert_eq!(
            read[2]["inputSchema"]["properties"]["of"],
            json!({
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": -128, "maximum": 127},
                "description": "the tags"
            })
        );
        // A tag's description maps to its words in the tag.
        let root = parse(&source, Language::Go, None).unwrap();
        let query = root.get("tools").unwrap().as_array().unwrap()[0]
            .get("inputSchema")
            .and_then(|schema| schema.get("properties"))
            .and_then(|properties| properties.get("query"))
            .and_then(|query| query.get("description"))
            .unwrap();
        let range = query.source_range(&source, 4..9);
        assert_eq!(&source[range], "words");
    }

    #[test]
    fn mcp_go_tools_read_as_mcp_go_writes_them() {
        let (source, read) = fixture_tools("mcpgo.go");
        assert_eq!(names(&read), ["buy-item", "reading-list", "delete_item"]);
        // As mcp-go's `Tool.MarshalJSON` writes it: maps, keys sorted, `NewTool`'s hints.
        assert_eq!(
            read[0].to_string(),
            json!({
                "annotations": {
                    "destructiveHint": true,
                    "idempotentHint": false,
                    "openWorldHint": true,
                    "readOnlyHint": false
                },
                "description": "A tool for buying items",
                "inputSchema": {
                    "properties": {
                        "itemCount": {
                            "default": 1,
                            "description": "Number of copies of the item to purchase",
                            "maximum": 100,
                            "minimum": 1,
                            "type": "integer"
                        },
                        "itemName": {"description": "Name of the item to purchase", "type": "string"}
                    },
                    "required": ["itemName", "itemCount"],
                    "type": "object"
                },
                "name": "buy-item"
            })
            .to_string()
        );
        let books = &read[1]["inputSchema"]["properties"]["books"];
        assert_eq!(books["items"]["properties"]["year"]["minimum"], 1000);
        assert_eq!(
            read[1]["inputSchema"]["properties"]["preferences"]["properties"]["theme"]["enum"],
            json!(["light", "dark"])
        );
        assert_eq!(read[1]["inputSchema"]["required"], json!(["books"]));
        let delete = &read[2];
        assert_eq!(delete["annotations"]["title"], "Delete item");
        assert_eq!(delete["annotations"]["idempotentHint"], true);
        assert_eq!(
            delete["inputSchema"]["properties"]["id"]["enum"],
            json!(["book", "game"])
        );
        assert_eq!(
            delete["inputSchema"]["properties"]["tags"]["items"],
            json!({"minLength": 1, "type": "string"})
        );
        // An option toolcheck does not know leaves the tool out; so does another package's
        // `NewTool`.
        let unknown = "package main\nimport \"github.com/mark3labs/mcp-go/mcp\"\nvar a = mcp.NewTool(\"a\", mcp.WithFuture(1))\nvar b = other.NewTool(\"b\")\n";
        assert_eq!(tools(unknown), json!([]));
        // The description's words are where they are written.
        let root = parse(&source, Language::Go, None).unwrap();
        let description = root.get("tools").unwrap().as_array().unwrap()[2]
            .get("description")
            .unwrap();
        let always = description.as_str().unwrap().find("ALWAYS").unwrap();
        assert_eq!(
            &source[description.source_range(&source, always..always + 6)],
            "ALWAYS"
        );
    }

    #[test]
    fn strings_numbers_and_calls_read_as_go_evaluates_them() {
        let source = format!(
            "{PRELUDE}const limit = 50\nconst prefix = `Lists ` + \"rows\"\nvar modes = []string{{\"fast\", \"full\"}}\n\n\
             func tool(t translations.TranslationHelperFunc) mcp.Tool {{\n\
             \treturn mcp.Tool{{\n\
             \t\tName: \"list_rows\",\n\
             \t\tDescription: t(\"KEY\", fmt.Sprintf(\"%s, at most %d (100%%).\", prefix, limit)) + strings.Join(modes, \", \"),\n\
             \t\tInputSchema: json.RawMessage(`{{\"type\":\"object\",\"properties\":{{}}}}`),\n\
             \t}}\n}}\n"
        );
        let read = tools(&source);
        assert_eq!(
            read[0]["description"],
            "Lists rows, at most 50 (100%).fast, full"
        );
        assert_eq!(
            read[0]["inputSchema"],
            json!({"type": "object", "properties": {}})
        );
        // Empty schemas as jsonschema-go writes them: `{}` is `true`, `{"not": {}}` is `false`.
        let source = format!(
            "{PRELUDE}var tool = mcp.Tool{{Name: \"a\", InputSchema: &jsonschema.Schema{{\n\
             \tType: \"object\",\n\
             \tProperties: map[string]*jsonschema.Schema{{\"any\": {{}}, \"n\": {{Type: \"number\", Maximum: jsonschema.Ptr(-2.5)}}}},\n\
             \tAdditionalProperties: &jsonschema.Schema{{Not: &jsonschema.Schema{{}}}},\n\
             }}}}\n"
        );
        assert_eq!(
            tools(&source)[0]["inputSchema"],
            json!({
                "type": "object",
                "properties": {"any": true, "n": {"type": "number", "maximum": -2.5}},
                "additionalProperties": false
            })
        );
    }

    #[test]
    fn what_cannot_be_read_statically_leaves_the_tool_out() {
        let cases = [
            // A method call, a run-time value, a field toolcheck does not know.
            "var a = mcp.Tool{Name: \"a\", Description: d.String(), InputSchema: s}",
            "func f(flag bool) { d := \"x\"\n if flag { d = \"y\" }\n _ = mcp.Tool{Name: \"a\", Description: d, InputSchema: json.RawMessage(`{}`)} }",
            "var a = mcp.Tool{Name: \"a\", InputSchema: &jsonschema.Schema{Type: \"object\", Extra: nil}}",
            // A schema changed in a loop.
            "func f() { s := &jsonschema.Schema{Type: \"object\"}\n for _, p := range ps { s.Properties[p] = nil }\n _ = mcp.Tool{Name: \"a\", InputSchema: s} }",
            // A helper that may return early, and one whose parameter is never bound.
            "func g(n string) *jsonschema.Schema { if n == \"\" { return nil }\n return &jsonschema.Schema{Type: \"object\"} }\nvar a = mcp.Tool{Name: \"a\", InputSchema: g(\"x\")}",
            "func h(name string) mcp.Tool { return mcp.Tool{Name: name, InputSchema: json.RawMessage(`{}`)} }",
            // No name.
            "var a = mcp.Tool{Description: \"x\", InputSchema: json.RawMessage(`{}`)}",
            // No schema: a raw handler's, or a typed one's whose type is not followed (an
            // embedded struct, a tag of another library's syntax, a cycle).
            "func f() { s.AddTool(&mcp.Tool{Name: \"a\"}, h) }",
            "type In struct { Base\n Q string }\nfunc h(c context.Context, r *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error)\nfunc f() { mcp.AddTool(s, &mcp.Tool{Name: \"a\"}, h) }",
            "type In struct { Q string `jsonschema:\"description=q\"` }\nfunc h(c context.Context, r *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error)\nfunc f() { mcp.AddTool(s, &mcp.Tool{Name: \"a\"}, h) }",
            "type In struct { Next *In }\nfunc h(c context.Context, r *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error)\nfunc f() { mcp.AddTool(s, &mcp.Tool{Name: \"a\"}, h) }",
        ];
        for case in cases {
            let read = tools(&format!("{PRELUDE}{case}\n"));
            assert_eq!(read, json!([]), "{case}");
        }
        // Near misses that are read: the statement that does not touch the schema, `Ptr`.
        let read = tools(&format!(
            "{PRELUDE}func f() {{ s := &jsonschema.Schema{{Type: \"object\"}}\n log.Print(\"x\")\n if ok {{ other = 1 }}\n _ = mcp.Tool{{Name: \"a\", InputSchema: s}} }}\n"
        ));
        assert_eq!(names(&read), ["a"]);
        // Another SDK's `Tool` literal is not the official SDK's.
        let read = tools(
            "package main\nimport \"github.com/mark3labs/mcp-go/mcp\"\nvar a = mcp.Tool{Name: \"a\", InputSchema: json.RawMessage(`{}`)}\n",
        );
        assert_eq!(read, json!([]));
    }

    #[test]
    fn a_function_of_many_tools_is_read_in_linear_time() {
        // Each tool is read where the statements before it leave the names: run once for all.
        let tools_written = 2_000;
        let mut source = format!("{PRELUDE}func main() {{\n\tserver := mcp.NewServer(nil, nil)\n");
        for i in 0..tools_written {
            source.push_str(&format!(
                "\tserver.AddTool(&mcp.Tool{{Name: \"t{i}\", InputSchema: json.RawMessage(`{{}}`)}}, nil)\n"
            ));
        }
        source.push_str("}\n");
        let start = std::time::Instant::now();
        let read = tools(&source);
        assert_eq!(read.as_array().unwrap().len(), tools_written);
        // Under 0.3 s in a debug build; running the statements again for every tool took
        // minutes.
        assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
    }

    #[test]
    fn a_deep_or_self_calling_helper_is_given_up_on() {
        let source = format!(
            "{PRELUDE}func f(s *jsonschema.Schema) *jsonschema.Schema {{ return f(s) }}\n\
             var a = mcp.Tool{{Name: \"a\", InputSchema: f(&jsonschema.Schema{{}})}}\n"
        );
        assert_eq!(tools(&source), json!([]));
        let deep = format!(
            "{PRELUDE}var a = mcp.Tool{{Name: \"a\", Description: {}\"x\"{}, InputSchema: json.RawMessage(`{{}}`)}}\n",
            "(".repeat(5_000),
            ")".repeat(5_000)
        );
        // Nested deeper than values are followed: left out, without exhausting the stack.
        assert_eq!(tools(&deep), json!([]));
    }
}
