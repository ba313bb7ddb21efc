//! TypeScript and JavaScript: the official MCP SDK's `server.registerTool(name, config,
//! handler)` and `server.tool(name, description?, shape?, annotations?, handler)`, with zod
//! schemas converted as the SDK converts them for `tools/list` (zod 4's JSON Schema, draft-07).
//!
//! Values are read, never run: string literals, templates without substitutions, `+` of
//! strings, `[…].join(…)` of strings, and names bound once in the file (`const config = {…}`).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tree_sitter::{Node as Ts, Tree};

use super::value::{Member, Value};
use super::{Imports, Language, each_node, gave_up, normalized, syntax_tree, tool_set};
use crate::parse::{Node, ParseError, Span, StrStyle};

mod typebox;

/// How deep a value is followed (names through names, schemas in schemas) before giving up.
const MAX_DEPTH: usize = 64;

/// The JSON Schema dialect the SDK names in every schema it sends.
const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

/// `Number.MAX_SAFE_INTEGER`, zod 4's bound of an integer.
const SAFE_INTEGER: i64 = 9_007_199_254_740_991;

/// The dialect zod 4's own `z.toJSONSchema` names.
const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

pub(super) fn tools(
    source: &str,
    language: Language,
    imports: Option<&Imports>,
) -> Result<Node, ParseError> {
    let tree = syntax_tree(source, language).ok_or_else(|| gave_up("TypeScript or JavaScript"))?;
    let (files, links) = match imports {
        Some(imports) => imported_files(source, &tree, imports),
        None => (Vec::new(), vec![HashMap::new()]),
    };
    let mut modules = vec![Module::new(source, &tree, &links[0])];
    for (file, links) in files.iter().zip(&links[1..]) {
        modules.push(Module::new(&file.source, &file.tree, links));
    }
    let reader = Reader {
        modules,
        calls: RefCell::new(vec![Call::default()]),
        helpers: RefCell::new(HashMap::new()),
        nesting: Cell::new(0),
        budget: Cell::new(0),
    };
    let mut tools = Vec::new();
    each_node(tree.root_node(), |node| {
        let node = At {
            node,
            module: 0,
            origin: None,
            call: 0,
        };
        reader.budget.set(STEPS_PER_REGISTRATION);
        if let Some(tool) = reader.registration(node) {
            tools.push(tool);
        }
        reader.budget.set(STEPS_PER_REGISTRATION);
        tools.extend(reader.helper_registrations(node));
        reader.budget.set(STEPS_PER_REGISTRATION);
        tools.extend(reader.returned_tool(node));
    });
    Ok(tool_set(source, tools))
}

/// At most this many files are read for the values one file imports, its imports' imports
/// included.
const MAX_IMPORTED_FILES: usize = 32;

/// A file read for the values it exports.
struct ImportedFile {
    source: String,
    tree: Tree,
}

/// The files the linted one imports by relative path (`./tools/schemas.js`), and theirs, read
/// breadth first up to [`MAX_IMPORTED_FILES`]; and for each file (the linted one first) the
/// index of the file each of its import specifiers names (1 for the first file read).
fn imported_files(
    source: &str,
    tree: &Tree,
    imports: &Imports,
) -> (Vec<ImportedFile>, Vec<HashMap<String, usize>>) {
    let mut paths = vec![normalized(imports.path)];
    let mut files: Vec<ImportedFile> = Vec::new();
    let mut links = Vec::new();
    let mut next = 0;
    while next < paths.len() {
        let wanted = match next {
            0 => relative_imports(source, tree),
            n => relative_imports(&files[n - 1].source, &files[n - 1].tree),
        };
        let mut found = HashMap::new();
        let directory = paths[next]
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        for specifier in wanted {
            for candidate in candidates(&directory.join(&specifier)) {
                if let Some(index) = paths.iter().position(|path| *path == candidate) {
                    found.insert(specifier.clone(), index);
                    break;
                }
                if paths.len() > MAX_IMPORTED_FILES {
                    break;
                }
                let Some(source) = (imports.read)(&candidate) else {
                    continue;
                };
                let language = Language::of(&candidate).unwrap_or(Language::TypeScript);
                if super::super::node::check_len(&source).is_err() {
                    break;
                }
                let Some(tree) = syntax_tree(&source, language) else {
                    break;
                };
                found.insert(specifier.clone(), paths.len());
                paths.push(candidate);
                files.push(ImportedFile { source, tree });
                break;
            }
        }
        links.push(found);
        next += 1;
    }
    (files, links)
}

/// The specifiers of a file's imports by relative path (`./a.js`, `../b`).
fn relative_imports(source: &str, tree: &Tree) -> Vec<String> {
    let root = tree.root_node();
    let mut cursor = root.walk();
    // CommonJS: `require("./x.js")`, wherever it is.
    let mut required = Vec::new();
    each_node(root, |node| {
        if let Some(specifier) = required_source(source, node) {
            required.push(specifier);
        }
    });
    root.named_children(&mut cursor)
        // `import … from "./x.js"`, and the re-exports `export { X } from "./x.js"`,
        // `export * from "./x.js"`.
        .filter(|statement| matches!(statement.kind(), "import_statement" | "export_statement"))
        .filter_map(|statement| import_source(source, statement))
        .chain(required)
        .filter(|specifier| specifier.starts_with("./") || specifier.starts_with("../"))
        .map(str::to_string)
        .collect()
}

/// The specifier of `require("./x.js")`.
fn required_source<'t>(source: &'t str, call: Ts<'t>) -> Option<&'t str> {
    if call.kind() != "call_expression" {
        return None;
    }
    let function = call.child_by_field_name("function")?;
    let arguments = call.child_by_field_name("arguments")?;
    if &source[function.byte_range()] != "require" || arguments.named_child_count() != 1 {
        return None;
    }
    let specifier = arguments.named_child(0)?;
    (specifier.kind() == "string").then(|| source[specifier.byte_range()].trim_matches(['"', '\'']))
}

/// The files an import specifier may name, as TypeScript and Node resolve it: `./a.js` is
/// `a.js`, or the `a.ts` it is compiled from; `./a` is `a.ts`, `a.js`, … or `a/index.ts`.
fn candidates(path: &Path) -> Vec<PathBuf> {
    let path = normalized(path);
    let with = |extension: &str| {
        let mut name = path.clone().into_os_string();
        name.push(extension);
        PathBuf::from(name)
    };
    let compiled_from: &[&str] = match path.extension().and_then(|e| e.to_str()) {
        Some("ts" | "tsx" | "mts" | "cts") => return vec![path],
        Some("js") => &["ts", "tsx"],
        Some("jsx") => &["tsx"],
        Some("mjs") => &["mts"],
        Some("cjs") => &["cts"],
        Some("json" | "css" | "node") => return Vec::new(),
        _ => {
            let mut found: Vec<PathBuf> = [".ts", ".tsx", ".js", ".mjs", ".cjs"]
                .iter()
                .map(|extension| with(extension))
                .collect();
            found.push(path.join("index.ts"));
            found.push(path.join("index.js"));
            return found;
        }
    };
    let mut found = vec![path.clone()];
    found.extend(
        compiled_from
            .iter()
            .map(|extension| path.with_extension(extension)),
    );
    found
}

/// Whether a schema is read for what a client sends (`inputSchema`) or what the tool returns
/// (`outputSchema`): zod 4 closes objects (`additionalProperties: false`) only in the latter.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Io {
    Input,
    Output,
}

/// A zod schema read: its JSON Schema's members and whether its property may be left out.
struct Zod {
    members: Vec<Member>,
    optional: bool,
    span: Span,
}

impl Zod {
    fn set(&mut self, key: &str, key_span: Span, value: Value) {
        match self.members.iter_mut().find(|member| member.key == key) {
            Some(member) => member.value = value,
            None => self.members.push(Member::new(key, key_span, value)),
        }
    }

    fn get(&self, key: &str) -> Option<&Value> {
        self.members
            .iter()
            .find(|member| member.key == key)
            .map(|member| &member.value)
    }

    fn into_value(self) -> Value {
        Value::Object(self.members, self.span)
    }
}

/// The methods that change an array in place (a `Map` or `Set` is not read as a value).
const MUTATORS: &[&str] = &[
    "push",
    "pop",
    "shift",
    "unshift",
    "splice",
    "sort",
    "reverse",
    "fill",
    "copyWithin",
];

/// The name whose value an assignment to `target` changes: `x` of `x = …`, `x.key = …` and
/// `x[i] = …`, but not CommonJS's `exports.X = …` and `module.exports = …`, which declare.
fn assigned_name<'t>(source: &'t str, target: Ts<'t>) -> Option<&'t str> {
    let mut target = target;
    while matches!(target.kind(), "member_expression" | "subscript_expression") {
        target = target.child_by_field_name("object")?;
    }
    let name = &source[target.byte_range()];
    (target.kind() == "identifier" && name != "exports" && name != "module").then_some(name)
}

/// A node of one of the files read: the linted file (module 0) or a file it imports values
/// from. `origin`: for a node of an imported file, where the linted file brings its value in
/// (the imported name's use), which every span read from there maps to: the finding goes where
/// the file being linted can be edited.
#[derive(Clone, Copy)]
struct At<'t> {
    node: Ts<'t>,
    module: usize,
    origin: Option<(usize, usize)>,
    /// The call whose arguments a helper's parameters stand for (an index of `Reader::calls`;
    /// 0: none).
    call: usize,
}

impl<'t> At<'t> {
    fn within(self, node: Ts<'t>) -> At<'t> {
        At { node, ..self }
    }

    fn kind(self) -> &'static str {
        self.node.kind()
    }

    fn child_by_field_name(self, field: &str) -> Option<At<'t>> {
        Some(self.within(self.node.child_by_field_name(field)?))
    }

    fn named_child(self, index: usize) -> Option<At<'t>> {
        Some(self.within(self.node.named_child(u32::try_from(index).ok()?)?))
    }

    fn named_children(self) -> Vec<At<'t>> {
        let mut cursor = self.node.walk();
        let children: Vec<Ts<'t>> = self.node.named_children(&mut cursor).collect();
        children.into_iter().map(|node| self.within(node)).collect()
    }

    /// Where the node is in the linted file: its own range, or its value's use there.
    fn byte_range(self) -> Span {
        match self.origin {
            Some((start, end)) => start..end,
            None => self.node.byte_range(),
        }
    }
}

/// A name imported from a file read beside the linted one: that file, and the name it exports
/// (`None` for a namespace, `import * as ns`).
#[derive(Clone, Copy)]
struct Import<'t> {
    module: usize,
    export: Option<&'t str>,
}

/// What one file binds: its declarations, zod's names and what it imports from files read.
struct Module<'t> {
    source: &'t str,
    /// The value of each name declared once in the file (`const x = …`); `None` for a name
    /// declared more than once, in whatever scopes: which one a use means is not guessed.
    bindings: HashMap<&'t str, Option<Ts<'t>>>,
    /// The names zod is imported under (`z`, `z4`, …), beside `z` and `zod` themselves.
    zod_names: Vec<&'t str>,
    /// The names zod's module is required under in CommonJS (`zod_1` of `zod_1.z`).
    zod_namespaces: Vec<&'t str>,
    /// The names TypeBox's `Type` is imported under, and the harness's `StringEnum`.
    typebox_names: Vec<&'t str>,
    string_enum_names: Vec<&'t str>,
    imports: HashMap<&'t str, Import<'t>>,
    /// What the file exports from files read: `export { X as Y } from "./x.js"` (`Y` is
    /// `X` of that file), and the files of `export * from "./x.js"`.
    reexports: HashMap<&'t str, Import<'t>>,
    star_exports: Vec<usize>,
}

impl<'t> Module<'t> {
    /// `links`: the module index of each import specifier that names a file read.
    fn new(source: &'t str, tree: &'t Tree, links: &HashMap<String, usize>) -> Self {
        let mut bindings: HashMap<&'t str, Option<Ts<'t>>> = HashMap::new();
        let mut zod_names = vec!["z", "zod"];
        let mut zod_namespaces = Vec::new();
        let mut typebox_names = Vec::new();
        let mut string_enum_names = Vec::new();
        let mut imports = HashMap::new();
        let mut reexports = HashMap::new();
        let mut star_exports = Vec::new();
        each_node(tree.root_node(), |node| {
            if node.kind() == "export_statement" {
                let Some(module) = import_source(source, node).and_then(|s| links.get(s)) else {
                    return;
                };
                reexported_names(source, node, *module, &mut reexports, &mut star_exports);
                return;
            }
            if node.kind() == "import_statement" {
                let Some(specifier) = import_source(source, node) else {
                    return;
                };
                let from_zod = specifier == "zod" || specifier.starts_with("zod/");
                let from_typebox = typebox::is_typebox_module(specifier);
                let module = links.get(specifier).copied();
                for (local, export) in imported_names(source, node) {
                    if from_zod {
                        zod_names.push(local);
                    } else if from_typebox && export == Some("Type") {
                        typebox_names.push(local);
                    } else if from_typebox && export == Some("StringEnum") {
                        string_enum_names.push(local);
                    } else if let Some(module) = module {
                        imports.insert(local, Import { module, export });
                    }
                }
                return;
            }
            let (name, value) = match node.kind() {
                "variable_declarator" => (
                    node.child_by_field_name("name"),
                    node.child_by_field_name("value"),
                ),
                "function_declaration" => (node.child_by_field_name("name"), Some(node)),
                // CommonJS: `exports.X = …` (TypeScript's `exports.X = void 0;` before it
                // declares nothing), `module.exports = { X: … }`.
                "assignment_expression" => {
                    let (Some(left), Some(right)) = (
                        node.child_by_field_name("left"),
                        node.child_by_field_name("right"),
                    ) else {
                        return;
                    };
                    // `categories = load()` after `let categories = []`, or `config.x = …`:
                    // known at run time.
                    if let Some(name) = assigned_name(source, left) {
                        bindings.insert(name, None);
                        return;
                    }
                    for (name, value) in commonjs_exports(source, left, right) {
                        bindings
                            .entry(name)
                            .and_modify(|bound| *bound = None)
                            .or_insert(Some(value));
                    }
                    return;
                }
                "augmented_assignment_expression" | "update_expression" => {
                    let target = node
                        .child_by_field_name("left")
                        .or_else(|| node.child_by_field_name("argument"));
                    if let Some(name) = target.and_then(|target| assigned_name(source, target)) {
                        bindings.insert(name, None);
                    }
                    return;
                }
                // `categories.push(…)`, `Object.assign(config, …)`: changed at run time.
                "call_expression" => {
                    let assigned = node
                        .child_by_field_name("function")
                        .is_some_and(|callee| &source[callee.byte_range()] == "Object.assign");
                    let first = node
                        .child_by_field_name("arguments")
                        .and_then(|arguments| arguments.named_child(0))
                        .filter(|first| assigned && first.kind() == "identifier");
                    if let Some(first) = first {
                        bindings.insert(&source[first.byte_range()], None);
                        return;
                    }
                    let object = node
                        .child_by_field_name("function")
                        .filter(|callee| callee.kind() == "member_expression")
                        .filter(|callee| {
                            callee
                                .child_by_field_name("property")
                                .is_some_and(|method| {
                                    MUTATORS.contains(&&source[method.byte_range()])
                                })
                        })
                        .and_then(|callee| callee.child_by_field_name("object"))
                        .filter(|object| object.kind() == "identifier");
                    if let Some(object) = object {
                        bindings.insert(&source[object.byte_range()], None);
                    }
                    return;
                }
                _ => return,
            };
            let (Some(name), Some(value)) = (name, value) else {
                return;
            };
            // CommonJS zod: `const zod_1 = require("zod")` (`zod_1.z.string()`), or
            // `const { z } = require("zod")`.
            if required_source(source, value).is_some_and(|s| s == "zod" || s.starts_with("zod/")) {
                for (local, export) in required_names(source, name) {
                    match export {
                        None => zod_namespaces.push(local),
                        Some("z") => zod_names.push(local),
                        Some(_) => {}
                    }
                }
                return;
            }
            // `const x = require("./x.js")`, `const { X, Y: Z } = require("./x.js")`.
            if let Some(module) = required_source(source, value).and_then(|s| links.get(s)) {
                for (local, export) in required_names(source, name) {
                    imports.insert(
                        local,
                        Import {
                            module: *module,
                            export,
                        },
                    );
                }
                return;
            }
            if name.kind() != "identifier" {
                return;
            }
            let name = &source[name.byte_range()];
            bindings
                .entry(name)
                .and_modify(|bound| *bound = None)
                .or_insert(Some(value));
        });
        Module {
            source,
            bindings,
            zod_names,
            zod_namespaces,
            typebox_names,
            string_enum_names,
            imports,
            reexports,
            star_exports,
        }
    }
}

/// The names a CommonJS assignment exports, with their values: `exports.X = value` or
/// `module.exports.X = value`, and each key of `module.exports = { X: value }`.
fn commonjs_exports<'t>(source: &'t str, left: Ts<'t>, right: Ts<'t>) -> Vec<(&'t str, Ts<'t>)> {
    let text = |node: Ts<'t>| &source[node.byte_range()];
    if text(left) == "module.exports" && right.kind() == "object" {
        let mut cursor = right.walk();
        return right
            .named_children(&mut cursor)
            .filter(|pair| pair.kind() == "pair")
            .filter_map(|pair| {
                let key = pair.child_by_field_name("key")?;
                (key.kind() == "property_identifier")
                    .then(|| Some((text(key), pair.child_by_field_name("value")?)))?
            })
            .collect();
    }
    let is_void = right.kind() == "unary_expression" && text(right).starts_with("void");
    let exports = left.kind() == "member_expression"
        && left
            .child_by_field_name("object")
            .is_some_and(|object| matches!(text(object), "exports" | "module.exports"));
    match left.child_by_field_name("property") {
        Some(property) if exports && !is_void => vec![(text(property), right)],
        _ => Vec::new(),
    }
}

/// The names `const … = require("./x.js")` binds, each with the name it takes from the file
/// (`None` for the whole module).
fn required_names<'t>(source: &'t str, pattern: Ts<'t>) -> Vec<(&'t str, Option<&'t str>)> {
    let text = |node: Ts<'t>| &source[node.byte_range()];
    match pattern.kind() {
        "identifier" => vec![(text(pattern), None)],
        "object_pattern" => {
            let mut cursor = pattern.walk();
            pattern
                .named_children(&mut cursor)
                .filter_map(|child| match child.kind() {
                    "shorthand_property_identifier_pattern" => {
                        Some((text(child), Some(text(child))))
                    }
                    "pair_pattern" => {
                        let key = child.child_by_field_name("key")?;
                        let value = child.child_by_field_name("value")?;
                        (value.kind() == "identifier").then(|| (text(value), Some(text(key))))
                    }
                    _ => None,
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The names `export { X as Y } from "./x.js"` exports (`Y` standing for `module`'s `X`),
/// or `module` itself for `export * from "./x.js"`.
fn reexported_names<'t>(
    source: &'t str,
    export: Ts<'t>,
    module: usize,
    reexports: &mut HashMap<&'t str, Import<'t>>,
    star_exports: &mut Vec<usize>,
) {
    let mut cursor = export.walk();
    let clause = export
        .named_children(&mut cursor)
        .find(|child| child.kind() == "export_clause");
    let Some(clause) = clause else {
        // `export * as ns from …` binds a namespace, not read.
        if !export
            .named_children(&mut export.walk())
            .any(|child| child.kind() == "namespace_export")
        {
            star_exports.push(module);
        }
        return;
    };
    let mut cursor = clause.walk();
    for specifier in clause.named_children(&mut cursor) {
        if specifier.kind() != "export_specifier" {
            continue;
        }
        let name = specifier.child_by_field_name("name");
        let alias = specifier.child_by_field_name("alias").or(name);
        if let (Some(name), Some(alias)) = (name, alias) {
            let export = Some(&source[name.byte_range()]);
            reexports.insert(&source[alias.byte_range()], Import { module, export });
        }
    }
}

struct Reader<'t> {
    /// The linted file first, then the files it imports values from.
    modules: Vec<Module<'t>>,
    /// The helper calls being read, their parameters bound to their arguments.
    calls: RefCell<Vec<Call<'t>>>,
    /// The registration calls in each function called as a helper, by (module, node id).
    helpers: RefCell<HashMap<(usize, usize), Calls<'t>>>,
    /// How deep property reads are nested (`a.b` of `{ ...c.d }`), to stop on a cycle.
    nesting: Cell<usize>,
    /// The steps left for reading one registration: objects made of themselves would
    /// otherwise be read again and again, each read within its bounds.
    budget: Cell<usize>,
}

/// The steps one registration may take (a name followed, an object's keys read): far above a
/// real registration's, far below a noticeable time.
const STEPS_PER_REGISTRATION: usize = 100_000;

/// The registration calls found in a function, shared by each call of it.
type Calls<'t> = std::rc::Rc<Vec<Ts<'t>>>;

/// A call of a function of the server's own that registers a tool with what it is given
/// (`auditTool("run", "Runs it.")`): its parameters' names and the arguments they take.
#[derive(Default)]
struct Call<'t> {
    module: usize,
    /// The function's bytes: a name is a parameter only inside them.
    scope: std::ops::Range<usize>,
    parameters: Vec<(&'t str, At<'t>)>,
}

impl<'t> Reader<'t> {
    fn text(&self, node: At<'t>) -> &'t str {
        &self.modules[node.module].source[node.node.byte_range()]
    }

    /// `node` without parentheses, `as`, `satisfies`, `!` and names bound once (in its file,
    /// or exported by a file it imports): the expression that gives its value.
    fn resolve(&self, mut node: At<'t>) -> Option<At<'t>> {
        for _ in 0..MAX_DEPTH {
            self.spend()?;
            node = match node.kind() {
                "parenthesized_expression"
                | "as_expression"
                | "satisfies_expression"
                | "non_null_expression" => node.named_child(0)?,
                "identifier" | "shorthand_property_identifier" => {
                    let module = &self.modules[node.module];
                    let name = self.text(node);
                    if let Some(argument) = self.argument(node, name) {
                        node = argument;
                        continue;
                    }
                    match module.bindings.get(name) {
                        Some(bound) => node.within((*bound)?),
                        None => {
                            let import = module.imports.get(name)?;
                            self.exported(import.module, import.export?, node)?
                        }
                    }
                }
                // `ns.Name` of `import * as ns from "./file.js"`.
                "member_expression" => {
                    let namespace = node
                        .child_by_field_name("object")
                        .filter(|object| object.kind() == "identifier")
                        .and_then(|object| self.modules[node.module].imports.get(self.text(object)))
                        .filter(|import| import.export.is_none());
                    let Some(import) = namespace else {
                        // `config.description` of an object literal: its value.
                        match self.property(node) {
                            Some(Some(value)) => {
                                node = value;
                                continue;
                            }
                            Some(None) => return None,
                            None => return Some(node),
                        }
                    };
                    let property = self.text(node.child_by_field_name("property")?);
                    self.exported(import.module, property, node)?
                }
                _ => return Some(node),
            };
        }
        None
    }

    /// The argument a helper call gives the parameter `name` used at `node`.
    fn argument(&self, node: At<'t>, name: &str) -> Option<At<'t>> {
        let calls = self.calls.borrow();
        let call = calls.get(node.call).filter(|_| node.call != 0)?;
        let start = node.node.start_byte();
        if call.module != node.module || !call.scope.contains(&start) {
            return None;
        }
        call.parameters
            .iter()
            .find(|(parameter, _)| *parameter == name)
            .map(|(_, argument)| *argument)
    }

    /// The value of `object.key` when `object` is an object literal: `Some(Some(value))`, or
    /// `Some(None)` when the literal has no such key (the value is `undefined`); `None` when
    /// `object` is something else.
    fn property(&self, node: At<'t>) -> Option<Option<At<'t>>> {
        let key = node.child_by_field_name("property")?;
        let object = node.child_by_field_name("object")?;
        if key.kind() != "property_identifier" {
            return None;
        }
        let members = self.nested(|| {
            let object = self.resolve(object)?;
            (object.kind() == "object").then(|| self.members(object, 0))?
        });
        let key = self.text(key);
        Some(
            members?
                .into_iter()
                .find(|(name, _, _)| *name == key)
                .map(|(_, _, value)| value),
        )
    }

    /// `read()`, unless reads of objects are nested too deep already (`{ ...a.b }` where `a`
    /// is that object): the depth of each read is bounded, but property reads start afresh.
    fn nested<T>(&self, read: impl FnOnce() -> Option<T>) -> Option<T> {
        if self.nesting.get() > MAX_DEPTH {
            return None;
        }
        self.spend()?;
        self.nesting.set(self.nesting.get() + 1);
        let value = read();
        self.nesting.set(self.nesting.get() - 1);
        value
    }

    /// One step of the registration's budget; `None` when it is spent.
    fn spend(&self) -> Option<()> {
        let left = self.budget.get().checked_sub(1)?;
        self.budget.set(left);
        Some(())
    }

    /// Whether `node` is `undefined`: the name, or a key an object literal does not have.
    fn is_undefined(&self, node: At<'t>) -> bool {
        match node.kind() {
            "undefined" => true,
            // A helper's parameter its call gives no argument and that has no default.
            "required_parameter" | "optional_parameter" => {
                node.child_by_field_name("value").is_none()
            }
            "identifier" => self.text(node) == "undefined",
            "member_expression" => matches!(self.property(node), Some(None)),
            _ => false,
        }
    }

    /// The tools a call of a helper registers with the arguments it is given: a function of
    /// the file's own, or one it imports, whose registration reads its parameters
    /// (`function auditTool(name, description) { server.registerTool(name, { description }) }`).
    /// A registration the helper makes without them is read where it is written, not at each
    /// call.
    fn helper_registrations(&self, call: At<'t>) -> Vec<Value> {
        let mut tools = Vec::new();
        let Some(function) = self.called_function(call) else {
            return tools;
        };
        let registrations = self.registrations_in(function);
        if registrations.is_empty() {
            return tools;
        }
        let names = self.parameter_names(function);
        let mut arguments = self.arguments(call).into_iter();
        let declared = self.parameters(function).unwrap_or_default();
        // A parameter given no argument is its default, else `undefined`: its declaration
        // stands for that (`toolName || "web_search_exa"`).
        let parameters = names
            .into_iter()
            .zip(declared)
            .map(|(name, parameter)| {
                let given = arguments.next();
                let value = given
                    .unwrap_or_else(|| parameter.child_by_field_name("value").unwrap_or(parameter));
                (name, value)
            })
            .collect();
        let index = self.call_frame(function, parameters);
        for &node in registrations.iter() {
            let alone = function.within(node);
            let given = At {
                call: index,
                ..alone
            };
            self.budget.set(STEPS_PER_REGISTRATION);
            if self.registration(alone).is_none() {
                self.budget.set(STEPS_PER_REGISTRATION);
                tools.extend(self.registration(given));
            }
        }
        tools
    }

    /// The function a call of a helper runs: one of the file's own or one it imports, called by
    /// its name or as `ns.name` of a namespace import. A method of some object is not looked
    /// into (a bundle makes millions of such calls).
    fn called_function(&self, call: At<'t>) -> Option<At<'t>> {
        if call.kind() != "call_expression" {
            return None;
        }
        call.child_by_field_name("function")
            .filter(|function| match function.kind() {
                "identifier" => true,
                "member_expression" => function
                    .child_by_field_name("object")
                    .filter(|object| object.kind() == "identifier")
                    .and_then(|object| self.modules[object.module].imports.get(self.text(object)))
                    .is_some_and(|import| import.export.is_none()),
                _ => false,
            })
            .and_then(|function| self.resolve(function))
            .filter(|function| {
                matches!(
                    function.kind(),
                    "function_declaration" | "function_expression" | "function" | "arrow_function"
                )
            })
    }

    /// What a call of a function that only returns a value returns, read with the call's
    /// arguments (`readOnlyAnnotations({ openWorldHint: true })` for `function
    /// readOnlyAnnotations(overrides = {}) { return { readOnlyHint: true, ...overrides }; }`):
    /// the expression returned, within a frame that binds each parameter to its argument or
    /// default. A parameter given no value, destructured or rest, leaves the call unread.
    fn returned(&self, call: At<'t>) -> Option<At<'t>> {
        let function = self.called_function(call)?;
        let value = self.returned_expression(function)?;
        let mut arguments = self.arguments(call).into_iter();
        let mut parameters = Vec::new();
        for parameter in self.parameters(function)? {
            let name = match parameter.child_by_field_name("pattern") {
                Some(pattern) if pattern.kind() == "identifier" => self.text(pattern),
                None if parameter.kind() == "identifier" => self.text(parameter),
                _ => return None,
            };
            let given = arguments
                .next()
                .filter(|argument| !self.is_undefined(*argument));
            parameters.push((name, given.or(parameter.child_by_field_name("value"))?));
        }
        let index = self.call_frame(function, parameters);
        Some(At {
            call: index,
            ..value
        })
    }

    /// A frame in which `function`'s parameters stand for the values given (`calls`' index).
    fn call_frame(&self, function: At<'t>, parameters: Vec<(&'t str, At<'t>)>) -> usize {
        let mut calls = self.calls.borrow_mut();
        calls.push(Call {
            module: function.module,
            scope: function.node.byte_range(),
            parameters,
        });
        calls.len() - 1
    }

    /// The tool literal a call of a function returns, read with the call's arguments
    /// (`parentTool("get_issue_documents", "Gets an issue's documents.")` for `function
    /// parentTool(name, description) { return { name, description, input_schema: … }; }`).
    /// A literal that reads without them is read where it is written, not at each call.
    fn returned_tool(&self, call: At<'t>) -> Option<Value> {
        let written = self.returned_expression(self.called_function(call)?)?;
        // Most functions return something else: told by the keys written, before any is read.
        let written_keys: Vec<&str> = written
            .named_children()
            .into_iter()
            .filter_map(|member| match member.kind() {
                "pair" => member.child_by_field_name("key").map(|key| self.text(key)),
                "shorthand_property_identifier" => Some(self.text(member)),
                _ => None,
            })
            .collect();
        let tool_like = written_keys.contains(&"name")
            && (written_keys.contains(&"inputSchema") || written_keys.contains(&"input_schema"));
        if written.kind() != "object" || !tool_like || self.tool_literal(written).is_some() {
            return None;
        }
        let returned = self.returned(call)?;
        self.tool_literal(returned)
    }

    /// The expression a function returns when returning it is all the function does: an
    /// arrow function's body, or a body that is one `return` (parentheses left out).
    fn returned_expression(&self, function: At<'t>) -> Option<At<'t>> {
        let body = function.child_by_field_name("body")?;
        let mut value = if body.kind() == "statement_block" {
            let [statement] = body
                .named_children()
                .into_iter()
                .filter(|node| node.kind() != "comment")
                .collect::<Vec<_>>()[..]
            else {
                return None;
            };
            (statement.kind() == "return_statement").then_some(())?;
            statement.named_child(0)?
        } else {
            body
        };
        while value.kind() == "parenthesized_expression" {
            value = value.named_child(0)?;
        }
        Some(value)
    }

    /// A function's parameters (comments left out): an arrow function's single one too.
    fn parameters(&self, function: At<'t>) -> Option<Vec<At<'t>>> {
        if let Some(single) = function.child_by_field_name("parameter") {
            return Some(vec![single]);
        }
        let parameters = function.child_by_field_name("parameters")?;
        Some(
            parameters
                .named_children()
                .into_iter()
                .filter(|parameter| parameter.kind() != "comment")
                .collect(),
        )
    }

    /// The registration calls (`x.registerTool(…)`, `x.tool(…)`, `x.addTool(…)`) in a
    /// function, found once per function however often it is called.
    fn registrations_in(&self, function: At<'t>) -> Calls<'t> {
        let key = (function.module, function.node.id());
        if let Some(found) = self.helpers.borrow().get(&key) {
            return found.clone();
        }
        let mut found = Vec::new();
        let mut cursor = function.node.walk();
        'walk: loop {
            let node = function.within(cursor.node());
            if self.method_call(node).is_some_and(|(_, method)| {
                matches!(
                    method,
                    "registerTool" | "registerToolTask" | "tool" | "addTool"
                )
            }) {
                found.push(node.node);
            }
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        let found = std::rc::Rc::new(found);
        self.helpers.borrow_mut().insert(key, found.clone());
        found
    }

    /// The names of a function's parameters, in order (`""` for a destructured one).
    fn parameter_names(&self, function: At<'t>) -> Vec<&'t str> {
        if let Some(single) = function.child_by_field_name("parameter") {
            return vec![self.text(single)];
        }
        let Some(parameters) = function.child_by_field_name("parameters") else {
            return Vec::new();
        };
        parameters
            .named_children()
            .into_iter()
            .filter(|parameter| parameter.kind() != "comment")
            .map(|parameter| {
                let pattern = parameter
                    .child_by_field_name("pattern")
                    .unwrap_or(parameter);
                match pattern.kind() {
                    "identifier" => self.text(pattern),
                    _ => "",
                }
            })
            .collect()
    }

    /// The value `module` binds to `name`, used at `from`.
    fn exported(&self, module: usize, name: &str, from: At<'t>) -> Option<At<'t>> {
        self.spend()?;
        let file = self.modules.get(module)?;
        let Some(bound) = file.bindings.get(name) else {
            // Exported from another file read: `export { X } from "./x.js"`, an imported name
            // exported again (`import { X } …; export { X }`), or `export * from "./x.js"`.
            // Files that export from each other end the read at the nesting bound.
            if let Some(import) = file.reexports.get(name).or_else(|| file.imports.get(name)) {
                let export = import.export?;
                return self.nested(|| self.exported(import.module, export, from));
            }
            return file
                .star_exports
                .iter()
                .find_map(|module| self.nested(|| self.exported(*module, name, from)));
        };
        let bound = (*bound)?;
        let origin = from.origin.unwrap_or_else(|| {
            let range = from.node.byte_range();
            (range.start, range.end)
        });
        Some(At {
            node: bound,
            module,
            origin: Some(origin),
            call: 0,
        })
    }

    /// The arguments of a call, comments left out.
    fn arguments(&self, call: At<'t>) -> Vec<At<'t>> {
        let Some(arguments) = call.child_by_field_name("arguments") else {
            return Vec::new();
        };
        arguments
            .named_children()
            .into_iter()
            .filter(|node| node.kind() != "comment")
            .collect()
    }

    /// A call `receiver.method(…)`: the receiver and the method's name.
    fn method_call(&self, node: At<'t>) -> Option<(At<'t>, &'t str)> {
        if node.kind() != "call_expression" {
            return None;
        }
        let function = node.child_by_field_name("function")?;
        if function.kind() != "member_expression" {
            return None;
        }
        let receiver = function.child_by_field_name("object")?;
        let method = function.child_by_field_name("property")?;
        Some((receiver, self.text(method)))
    }

    /// The tool a call registers, if `node` is a registration that can be read whole.
    fn registration(&self, node: At<'t>) -> Option<Value> {
        if node.kind() == "object" {
            return self.tool_literal(node).or_else(|| self.harness_tool(node));
        }
        let (_, method) = self.method_call(node)?;
        let arguments = self.arguments(node);
        match method {
            "registerTool" => self.register_tool(node, &arguments, false),
            // `server.experimental.tasks.registerToolTask(…)`: a tool run as a task.
            "registerToolTask" => self.register_tool(node, &arguments, true),
            "tool" => self.tool(node, &arguments),
            "addTool" => self.add_tool(node, &arguments),
            _ => None,
        }
    }

    /// `registerTool(name, { title, description, inputSchema, outputSchema, annotations }, cb)`;
    /// a `task` tool (`registerToolTask`) is listed with its `execution`, whose `taskSupport`
    /// is `"required"` unless the config says otherwise.
    fn register_tool(&self, call: At<'t>, arguments: &[At<'t>], task: bool) -> Option<Value> {
        let [name, config, ..] = arguments else {
            return None;
        };
        let name = self.string(*name, 0)?;
        let mut members = vec![Member::new("name", name.span(), name)];
        let config = self.resolve(*config)?;
        let mut input_schema = None;
        let mut execution = None;
        for (key, key_node, value) in self.members(config, 0)? {
            // `annotations: config.annotations` of a config without them: not sent.
            if self.is_undefined(value) {
                continue;
            }
            let key_span = key_node.byte_range();
            match key {
                "title" | "description" => {
                    members.push(Member::new(key, key_span, self.string(value, 0)?));
                }
                "inputSchema" => input_schema = Some((key_span, value)),
                "outputSchema" => {
                    let schema = self.object_schema(value, Io::Output)?;
                    members.push(Member::new(key, key_span, schema));
                }
                "annotations" => {
                    members.push(Member::new(key, key_span, self.literal(value, 0)?));
                }
                "execution" if task => execution = Some((key_span, self.literal(value, 0)?)),
                _ => {}
            }
        }
        let schema = match input_schema {
            Some((key_span, value)) => (key_span, self.object_schema(value, Io::Input)?),
            None => (call.byte_range(), empty_schema(call.byte_range())),
        };
        members.push(Member::new("inputSchema", schema.0, schema.1));
        if task {
            let span = call.byte_range();
            let (key_span, written) = execution
                .unwrap_or_else(|| (span.clone(), Value::Object(Vec::new(), span.clone())));
            let Value::Object(written, at) = written else {
                return None;
            };
            // `{ taskSupport: "required", ...config.execution }`.
            let mut execution = vec![Member::new(
                "taskSupport",
                span.clone(),
                Value::made("required", span),
            )];
            overlay_members(&mut execution, written);
            let support = execution.iter().find(|member| member.key == "taskSupport");
            // The SDK refuses a task tool that forbids tasks.
            if support.and_then(|member| member.value.as_str()) == Some("forbidden") {
                return None;
            }
            members.push(Member::new(
                "execution",
                key_span,
                Value::Object(execution, at),
            ));
        }
        Some(Value::Object(members, call.byte_range()))
    }

    /// FastMCP for TypeScript: `server.addTool({ name, description, parameters, annotations })`,
    /// the zod `parameters` sent as zod-to-json-schema converts them (closed objects, draft-07).
    fn add_tool(&self, call: At<'t>, arguments: &[At<'t>]) -> Option<Value> {
        let [tool] = arguments else {
            return None;
        };
        let mut members = Vec::new();
        let mut schema = None;
        for (key, key_node, value) in self.members(*tool, 0)? {
            let key_span = key_node.byte_range();
            match key {
                "name" | "description" => {
                    members.push(Member::new(key, key_span, self.string(value, 0)?));
                }
                "annotations" => {
                    members.push(Member::new(key, key_span, self.literal(value, 0)?));
                }
                "parameters" => {
                    let mut zod = self.zod_with(value, Io::Output, 0)?;
                    let span = value.byte_range();
                    zod.members.insert(
                        0,
                        Member::new("$schema", span.clone(), Value::made(DRAFT_07, span)),
                    );
                    schema = Some(Member::new("inputSchema", key_span, zod.into_value()));
                }
                _ => {}
            }
        }
        if !members.iter().any(|member| member.key == "name") {
            return None;
        }
        members.push(schema.unwrap_or_else(|| {
            Member::new(
                "inputSchema",
                call.byte_range(),
                empty_schema(call.byte_range()),
            )
        }));
        Some(Value::Object(members, call.byte_range()))
    }

    /// A tool written as the object `tools/list` returns, as the low-level `Server`'s handler
    /// lists it: `{ name, description, inputSchema }`, the schema a JSON Schema literal or
    /// `zodToJsonSchema(schema)`. An object with `name` and `inputSchema` is one wherever it is,
    /// and so is one with `input_schema`: a tool as Anthropic's Messages API takes it, which
    /// servers also write and convert (`@tacticlaunch/mcp-linear`).
    fn tool_literal(&self, node: At<'t>) -> Option<Value> {
        let members = self.members(node, 0)?;
        let has = |key: &str| members.iter().any(|(name, _, _)| *name == key);
        if !has("name") || !(has("inputSchema") || has("input_schema")) {
            return None;
        }
        let mut tool = Vec::new();
        for (key, key_node, value) in members {
            let key_span = key_node.byte_range();
            let value = match key {
                "name" | "title" | "description" => self.string(value, 0)?,
                // A zod schema is sent as the SDK sends one given to `registerTool`, which is
                // where such a literal's helper hands it (`tool.schema.inputSchema.shape`). An
                // empty `{}` may be either (sent as it is, or as an empty object schema): not
                // guessed.
                "inputSchema" | "input_schema" => {
                    let schema = self
                        .json_schema(value)
                        .or_else(|| self.object_schema(value, Io::Input))?;
                    if matches!(&schema, Value::Object(members, _) if members.is_empty()) {
                        return None;
                    }
                    schema
                }
                "outputSchema" | "output_schema" => self
                    .json_schema(value)
                    .or_else(|| self.object_schema(value, Io::Output))?,
                "annotations" => self.literal(value, 0)?,
                _ => continue,
            };
            tool.push(Member::new(key, key_span, value));
        }
        Some(Value::Object(tool, node.byte_range()))
    }

    /// A JSON Schema as a tool literal holds it: written out, or converted from zod by
    /// `zodToJsonSchema(schema)` (zod-to-json-schema) or `z.toJSONSchema(schema)` (zod 4).
    fn json_schema(&self, node: At<'t>) -> Option<Value> {
        let node = self.resolve(node)?;
        if node.kind() == "object" {
            let schema = self.literal(node, 0)?;
            return matches!(schema, Value::Object(..)).then_some(schema);
        }
        let dialect = match self.text(node.child_by_field_name("function")?) {
            "zodToJsonSchema" => DRAFT_07,
            "z.toJSONSchema" => DRAFT_2020_12,
            _ => return None,
        };
        let schema = *self.arguments(node).first()?;
        let mut schema = self.zod_with(schema, Io::Output, 0)?;
        let span = node.byte_range();
        schema.members.push(Member::new(
            "$schema",
            span.clone(),
            Value::made(dialect, span),
        ));
        Some(schema.into_value())
    }

    /// `tool(name, description?, shape?, annotations?, cb)`, told apart as the SDK does: a
    /// string is the description; of the objects before the callback, a zod shape is the
    /// schema and another object the annotations.
    fn tool(&self, call: At<'t>, arguments: &[At<'t>]) -> Option<Value> {
        let (name, rest) = arguments.split_first()?;
        // The callback is last; a call without one is some other library's `tool`.
        let (callback, rest) = rest.split_last()?;
        if !matches!(
            callback.kind(),
            "arrow_function" | "function_expression" | "identifier"
        ) {
            return None;
        }
        let name = self.string(*name, 0)?;
        let mut members = vec![Member::new("name", name.span(), name)];
        let mut rest = rest.iter().copied().peekable();
        if let Some(description) = rest.next_if(|node| self.is_string(*node)) {
            let text = self.string(description, 0)?;
            members.push(Member::new("description", description.byte_range(), text));
        }
        let mut schema = None;
        let mut annotations = None;
        for argument in rest {
            let value = self.resolve(argument)?;
            if schema.is_none() && annotations.is_none() && self.is_shape(value) {
                schema = Some((argument.byte_range(), self.object_schema(value, Io::Input)?));
            } else if annotations.is_none() && value.kind() == "object" {
                annotations = Some((argument.byte_range(), self.literal(value, 0)?));
            } else {
                return None;
            }
        }
        let (key_span, schema) =
            schema.unwrap_or_else(|| (call.byte_range(), empty_schema(call.byte_range())));
        members.push(Member::new("inputSchema", key_span, schema));
        if let Some((key_span, annotations)) = annotations {
            members.push(Member::new("annotations", key_span, annotations));
        }
        Some(Value::Object(members, call.byte_range()))
    }

    fn is_string(&self, node: At<'t>) -> bool {
        self.resolve(node).is_some_and(|node| {
            matches!(
                node.kind(),
                "string" | "template_string" | "binary_expression"
            ) || self
                .method_call(node)
                .is_some_and(|(_, method)| method == "join")
        })
    }

    /// An object literal whose every value is a zod schema (the SDK's `isZodRawShape`; an
    /// empty object is one too).
    fn is_shape(&self, node: At<'t>) -> bool {
        node.kind() == "object"
            && self.members(node, 0).is_some_and(|members| {
                members
                    .iter()
                    .all(|(_, _, value)| self.zod(*value, 0).is_some())
            })
    }

    /// The keys and values of an object literal (spreads of objects included), or `None` when
    /// a key is computed or a spread cannot be read.
    fn members(&self, node: At<'t>, depth: usize) -> Option<Vec<(&'t str, At<'t>, At<'t>)>> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.nested(|| self.object_keys(node, depth))
    }

    fn object_keys(&self, node: At<'t>, depth: usize) -> Option<Vec<(&'t str, At<'t>, At<'t>)>> {
        let node = self.resolve(node)?;
        if node.kind() != "object" {
            return None;
        }
        let mut members: Vec<(&'t str, At<'t>, At<'t>)> = Vec::new();
        for child in node.named_children().into_iter() {
            let (key, key_node, value) = match child.kind() {
                "pair" => {
                    let key_node = child.child_by_field_name("key")?;
                    let value = child.child_by_field_name("value")?;
                    let key = match key_node.kind() {
                        "property_identifier" | "number" => self.text(key_node),
                        "string" => self.plain_string(key_node)?,
                        // `[idProperty]`: a name bound to a plain string.
                        "computed_property_name" => {
                            let key = self.resolve(key_node.named_child(0)?)?;
                            (key.kind() == "string").then_some(())?;
                            self.plain_string(key)?
                        }
                        _ => return None,
                    };
                    (key, key_node, value)
                }
                "shorthand_property_identifier" => (self.text(child), child, child),
                "spread_element" => {
                    // `...schema.shape` spreads a zod object's keys.
                    let spread = self.resolve(child.named_child(0)?)?;
                    let spread = match shape_of(self, spread) {
                        Some(schema) => self.object_members(schema, depth + 1)?,
                        None => self.members(spread, depth + 1)?,
                    };
                    overlay(&mut members, spread);
                    continue;
                }
                "comment" | "method_definition" => continue,
                _ => return None,
            };
            overlay(&mut members, vec![(key, key_node, value)]);
        }
        Some(members)
    }

    /// A quoted string's text between the quotes, when it has no escape.
    fn plain_string(&self, node: At<'t>) -> Option<&'t str> {
        let text = self.text(node);
        let inner = text.get(1..text.len().saturating_sub(1))?;
        (!inner.contains('\\')).then_some(inner)
    }

    /// A string: literals (joined with `+`), a template without substitutions, `[…].join(…)`,
    /// through names bound once. Its segments map to the source when its literals are written
    /// in one place; a string put together from several places maps to the expression.
    fn string(&self, node: At<'t>, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        let node = self.resolve(node)?;
        let span = node.byte_range();
        match node.kind() {
            "string" | "template_string" | "binary_expression" => {
                let start = node.node.start_byte();
                if let Some((value, _)) = super::js_string::decode(self.text(node), start) {
                    // Written in another file: the value, at its use here.
                    if node.origin.is_some() {
                        return Some(Value::made(&value, span));
                    }
                    return Some(Value::Str {
                        value,
                        raw: span,
                        style: StrStyle::Js,
                    });
                }
                if node.kind() == "template_string" {
                    return self.template(node, depth);
                }
                if let Some(value) = self.alternative(node, depth) {
                    return value;
                }
                if node.kind() != "binary_expression"
                    || node
                        .child_by_field_name("operator")
                        .is_none_or(|operator| self.text(operator) != "+")
                {
                    return None;
                }
                let left = self.string(node.child_by_field_name("left")?, depth + 1)?;
                let right = self.string(node.child_by_field_name("right")?, depth + 1)?;
                Some(Value::made(
                    &[left.as_str()?, right.as_str()?].concat(),
                    span,
                ))
            }
            "call_expression" => {
                let (receiver, method) = self.method_call(node)?;
                if method != "join" {
                    return None;
                }
                let separator = match self.arguments(node).as_slice() {
                    [] => ",".to_string(),
                    [separator] => self.string(*separator, depth + 1)?.as_str()?.to_string(),
                    _ => return None,
                };
                let items = self.resolve(receiver)?;
                if items.kind() != "array" {
                    return None;
                }
                let parts: Option<Vec<String>> = items
                    .named_children()
                    .into_iter()
                    .filter(|item| item.kind() != "comment")
                    .map(|item| Some(self.string(item, depth + 1)?.as_str()?.to_string()))
                    .collect();
                Some(Value::made(&parts?.join(&separator), span))
            }
            _ => None,
        }
    }

    /// `a || b` and `a ?? b` of strings: `b` when `a` is `undefined` (or, for `||`, `""`), else
    /// `a`. `None` for another expression.
    fn alternative(&self, node: At<'t>, depth: usize) -> Option<Option<Value>> {
        let operator = self.text(node.child_by_field_name("operator")?);
        if !matches!(operator, "||" | "??") {
            return None;
        }
        let (left, right) = (
            node.child_by_field_name("left")?,
            node.child_by_field_name("right")?,
        );
        let undefined = self.is_undefined(left)
            || self
                .resolve(left)
                .is_some_and(|left| self.is_undefined(left));
        if undefined {
            return Some(self.string(right, depth + 1));
        }
        let Some(value) = self.string(left, depth + 1) else {
            return Some(None);
        };
        Some(match operator == "||" && value.as_str() == Some("") {
            true => self.string(right, depth + 1),
            false => Some(value),
        })
    }

    /// A template with substitutions whose values are strings or integers read statically
    /// (`${LEAD}`): its text, mapped to the whole template.
    fn template(&self, node: At<'t>, depth: usize) -> Option<Value> {
        let source = self.modules[node.module].source;
        let piece = |range: std::ops::Range<usize>| -> Option<String> {
            let quoted = format!("`{}`", source.get(range)?);
            Some(super::js_string::decode(&quoted, 0)?.0)
        };
        let mut value = String::new();
        let mut at = node.node.start_byte() + 1;
        for child in node.named_children() {
            if child.kind() != "template_substitution" {
                continue;
            }
            value += &piece(at..child.node.start_byte())?;
            match self.literal(child.named_child(0)?, depth + 1)? {
                Value::Str { value: text, .. } => value += &text,
                Value::Number(number, _) if number.is_i64() || number.is_u64() => {
                    value += &number.to_string();
                }
                _ => return None,
            }
            at = child.node.end_byte();
        }
        value += &piece(at..node.node.end_byte().checked_sub(1)?)?;
        Some(Value::made(&value, node.byte_range()))
    }

    /// A JSON value written as a literal: strings, numbers, booleans, `null`, arrays, objects.
    fn literal(&self, node: At<'t>, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        let node = self.resolve(node)?;
        let span = node.byte_range();
        match node.kind() {
            "true" => Some(Value::Bool(true, span)),
            "false" => Some(Value::Bool(false, span)),
            "null" => Some(Value::Null(span)),
            "number" => Some(Value::Number(number(self.text(node))?, span)),
            "unary_expression" => {
                let operand = node.child_by_field_name("argument")?;
                let operator = node.child_by_field_name("operator")?;
                if self.text(operator) != "-" || operand.kind() != "number" {
                    return None;
                }
                let negative = format!("-{}", self.text(operand));
                Some(Value::Number(number(&negative)?, span))
            }
            "binary_expression" => match self.arithmetic(node, depth) {
                Some(value) => Some(Value::Number(value.into(), span)),
                None => self.string(node, depth + 1),
            },
            "call_expression" => {
                if let Some(keys) = self.object_keys_call(node, depth) {
                    return Some(keys);
                }
                match self.nested(|| self.returned(node)) {
                    Some(value) => self.literal(value, depth + 1),
                    None => self.string(node, depth + 1),
                }
            }
            "array" => {
                let mut items = Vec::new();
                for item in node.named_children() {
                    match item.kind() {
                        "comment" => {}
                        // `[...GRANT_TYPES]`: the items of an array read the same way.
                        "spread_element" => match self.literal(item.named_child(0)?, depth + 1)? {
                            Value::Array(spread, _) => items.extend(spread),
                            _ => return None,
                        },
                        _ => items.push(self.literal(item, depth + 1)?),
                    }
                }
                Some(Value::Array(items, span))
            }
            // `GRANT_TYPES.length` of an array read statically.
            "member_expression"
                if node
                    .child_by_field_name("property")
                    .is_some_and(|property| self.text(property) == "length") =>
            {
                match self.literal(node.child_by_field_name("object")?, depth + 1)? {
                    Value::Array(items, _) => Some(Value::Number(items.len().into(), span)),
                    _ => None,
                }
            }
            "object" => {
                let members = self
                    .members(node, depth + 1)?
                    .into_iter()
                    .map(|(key, key_node, value)| {
                        Some(Member::new(
                            key,
                            key_node.byte_range(),
                            self.literal(value, depth + 1)?,
                        ))
                    })
                    .collect::<Option<Vec<_>>>()?;
                Some(Value::Object(members, span))
            }
            _ => self.string(node, depth + 1),
        }
    }

    /// `Object.keys(LANGUAGES)` or `Object.values(…)` of an object literal, in the order
    /// JavaScript gives them; an object with a key that reads as an array index (which comes
    /// first whatever its place) is not read.
    fn object_keys_call(&self, call: At<'t>, depth: usize) -> Option<Value> {
        let (receiver, method) = self.method_call(call)?;
        if self.text(receiver) != "Object" || !matches!(method, "keys" | "values") {
            return None;
        }
        let [object] = self.arguments(call)[..] else {
            return None;
        };
        let span = call.byte_range();
        let members = self.members(object, depth + 1)?;
        if members
            .iter()
            .any(|(key, _, _)| key.bytes().all(|b| b.is_ascii_digit()))
        {
            return None;
        }
        let items = members
            .into_iter()
            .map(|(key, _, value)| match method {
                "keys" => Some(Value::made(key, span.clone())),
                _ => self.literal(value, depth + 1),
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Value::Array(items, span))
    }

    /// An integer computed from integers (`50 * 1024`, `DEFAULT_MAX_BYTES / 1024`), when each
    /// step is exact and safe: a fraction or an overflow is not read.
    fn arithmetic(&self, node: At<'t>, depth: usize) -> Option<i64> {
        if depth > MAX_DEPTH {
            return None;
        }
        let node = self.resolve(node)?;
        match node.kind() {
            "number" => number(self.text(node))?.as_i64(),
            "binary_expression" => {
                let left = self.arithmetic(node.child_by_field_name("left")?, depth + 1)?;
                let right = self.arithmetic(node.child_by_field_name("right")?, depth + 1)?;
                let value = match self.text(node.child_by_field_name("operator")?) {
                    "+" => left.checked_add(right)?,
                    "-" => left.checked_sub(right)?,
                    "*" => left.checked_mul(right)?,
                    "/" if right != 0 && left % right == 0 => left / right,
                    _ => return None,
                };
                (value.abs() <= SAFE_INTEGER).then_some(value)
            }
            _ => None,
        }
    }

    /// The JSON Schema of an object schema as the SDK sends it: from a zod shape (`{ query:
    /// z.string() }`), a `z.object(…)`, or `schema.shape`.
    fn object_schema(&self, node: At<'t>, io: Io) -> Option<Value> {
        let node = self.resolve(node)?;
        let span = node.byte_range();
        let mut schema = match node.kind() {
            "object" => self.shape(node, io, span.clone(), 0)?,
            "member_expression" if self.text(node.child_by_field_name("property")?) == "shape" => {
                self.zod_with(node.child_by_field_name("object")?, io, 0)?
            }
            _ => self.zod_with(node, io, 0)?,
        };
        if schema.get("type").and_then(Value::as_str) != Some("object") {
            return None;
        }
        schema.members.insert(
            0,
            Member::new("$schema", span.clone(), Value::made(DRAFT_07, span)),
        );
        Some(schema.into_value())
    }

    /// `{ type: "object", properties, required }` of a zod shape.
    fn shape(&self, node: At<'t>, io: Io, span: Span, depth: usize) -> Option<Zod> {
        let mut properties = Vec::new();
        let mut required = Vec::new();
        for (key, key_node, value) in self.object_members(node, depth + 1)? {
            let property = self.zod_with(value, io, depth + 1)?;
            if !property.optional {
                required.push(Value::made(key, key_node.byte_range()));
            }
            properties.push(Member::new(
                key,
                key_node.byte_range(),
                property.into_value(),
            ));
        }
        let mut members = vec![
            Member::new("type", span.clone(), Value::made("object", span.clone())),
            Member::new(
                "properties",
                span.clone(),
                Value::Object(properties, span.clone()),
            ),
        ];
        if !required.is_empty() {
            members.push(Member::new(
                "required",
                span.clone(),
                Value::Array(required, span.clone()),
            ));
        }
        if io == Io::Output {
            members.push(Member::new(
                "additionalProperties",
                span.clone(),
                Value::Bool(false, span.clone()),
            ));
        }
        Some(Zod {
            members,
            optional: false,
            span,
        })
    }

    /// The keys of a zod object's shape: a shape literal, `z.object(shape)`, `schema.shape`,
    /// `schema.extend(shape)`, `a.merge(b)`, `schema.pick({ key: true })` and `.omit(…)`.
    fn object_members(&self, node: At<'t>, depth: usize) -> Option<Vec<(&'t str, At<'t>, At<'t>)>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let node = self.resolve(node)?;
        if node.kind() == "object" {
            return self.members(node, depth + 1);
        }
        if let Some(schema) = shape_of(self, node) {
            return self.object_members(schema, depth + 1);
        }
        let (receiver, method) = self.method_call(node)?;
        let arguments = self.arguments(node);
        if self.is_zod(receiver) {
            return match (method, arguments.as_slice()) {
                ("object" | "looseObject" | "strictObject", [shape, ..]) => {
                    self.members(*shape, depth + 1)
                }
                _ => None,
            };
        }
        let mut members = self.object_members(receiver, depth + 1)?;
        match (method, arguments.as_slice()) {
            ("extend", [shape]) => overlay(&mut members, self.members(*shape, depth + 1)?),
            ("merge", [other]) => overlay(&mut members, self.object_members(*other, depth + 1)?),
            ("pick" | "omit", [keys]) => {
                let keys = self.members(*keys, depth + 1)?;
                let pick = method == "pick";
                members.retain(|(key, _, _)| keys.iter().any(|(named, _, _)| named == key) == pick);
            }
            // Checks that keep the keys (a description is lost to `extend`, as in zod).
            ("strict" | "passthrough" | "strip" | "describe", _) => {}
            _ => return None,
        }
        Some(members)
    }

    /// Whether `node` is a zod schema toolcheck reads (for telling a shape from annotations).
    fn zod(&self, node: At<'t>, depth: usize) -> Option<Zod> {
        self.zod_with(node, Io::Input, depth)
    }

    /// A zod schema: `z.<type>(…)` and the methods chained on it.
    fn zod_with(&self, node: At<'t>, io: Io, depth: usize) -> Option<Zod> {
        if depth > MAX_DEPTH {
            return None;
        }
        let node = self.resolve(node)?;
        // `lenientString()`: a function of the server's own that returns a schema.
        if let Some(returned) = self.nested(|| self.returned(node)) {
            return self.zod_with(returned, io, depth + 1);
        }
        let (receiver, method) = self.method_call(node)?;
        let arguments = self.arguments(node);
        let span = node.byte_range();
        if self.is_zod(receiver) {
            return self.zod_type(method, &arguments, io, span, depth);
        }
        if matches!(method, "extend" | "merge" | "pick" | "omit") {
            return self.shape(node, io, span, depth + 1);
        }
        let mut zod = self.zod_with(receiver, io, depth + 1)?;
        zod.span = span.clone();
        let method_span = node
            .child_by_field_name("function")
            .and_then(|function| function.child_by_field_name("property"))
            .map_or(span.clone(), |property| property.byte_range());
        let number = |index: usize| -> Option<Value> {
            let value = self.literal(*arguments.get(index)?, depth + 1)?;
            matches!(value, Value::Number(..)).then_some(value)
        };
        let kind = zod.get("type").and_then(Value::as_str).map(str::to_string);
        let bound = |min: bool| -> Option<&'static str> {
            Some(match (kind.as_deref()?, min) {
                ("string", true) => "minLength",
                ("string", false) => "maxLength",
                ("number" | "integer", true) => "minimum",
                ("number" | "integer", false) => "maximum",
                ("array", true) => "minItems",
                ("array", false) => "maxItems",
                _ => return None,
            })
        };
        match method {
            "describe" => {
                let description = self.string(*arguments.first()?, depth + 1)?;
                zod.set("description", method_span, description);
            }
            "optional" => zod.optional = true,
            // Every key may be left out.
            "partial" if arguments.is_empty() => zod.members.retain(|m| m.key != "required"),
            "nullable" => zod = nullable(zod),
            "nullish" => {
                zod = nullable(zod);
                zod.optional = true;
            }
            "default" => {
                let value = self.literal(*arguments.first()?, depth + 1)?;
                zod.set("default", method_span, value);
                zod.optional = true;
            }
            "min" | "gte" | "nonempty" => {
                let value = if method == "nonempty" {
                    Value::Number(1.into(), method_span.clone())
                } else {
                    number(0)?
                };
                zod.set(bound(true)?, method_span, value);
            }
            "max" | "lte" => zod.set(bound(false)?, method_span, number(0)?),
            "length" => {
                let value = number(0)?;
                zod.set(bound(true)?, method_span.clone(), value.clone());
                zod.set(bound(false)?, method_span, value);
            }
            "int" => integer(&mut zod, method_span),
            "positive" => zod.set(
                "exclusiveMinimum",
                method_span.clone(),
                Value::Number(0.into(), method_span),
            ),
            "nonnegative" => zod.set(
                "minimum",
                method_span.clone(),
                Value::Number(0.into(), method_span),
            ),
            // `regex(/^\d+[hdw]$/, message)`: the pattern as written. A second pattern, or one
            // beside a format zod writes one for, is sent as an `allOf`: not read.
            "regex" if kind.as_deref() == Some("string") => {
                let regex = self.resolve(*arguments.first()?)?;
                let pattern = regex.child_by_field_name("pattern")?;
                let formatted = zod
                    .get("format")
                    .is_some_and(|format| format.as_str() != Some("uri"));
                if regex.kind() != "regex" || zod.get("pattern").is_some() || formatted {
                    return None;
                }
                let source = Value::made(self.text(pattern), pattern.byte_range());
                zod.set("pattern", method_span, source);
            }
            "email" | "url" | "uuid" | "datetime" => {
                if zod.get("pattern").is_some() {
                    return None;
                }
                let format = match method {
                    "url" => "uri",
                    "datetime" => "date-time",
                    other => other,
                };
                zod.set(
                    "format",
                    method_span.clone(),
                    Value::made(format, method_span),
                );
            }
            "strict" | "passthrough" if kind.as_deref() == Some("object") => {
                closed(&mut zod, method == "strict", method_span);
            }
            // Checks and conversions that do not change the schema a client is sent.
            "trim" | "toLowerCase" | "toUpperCase" | "refine" | "superRefine" | "transform"
            | "catch" | "brand" | "readonly" => {}
            _ => return None,
        }
        Some(zod)
    }

    /// zod itself: a name it is imported under, or its `coerce` (`z.coerce.number()` sends
    /// what `z.number()` sends).
    fn is_zod(&self, node: At<'t>) -> bool {
        match node.kind() {
            "identifier" => self.modules[node.module]
                .zod_names
                .contains(&self.text(node)),
            "member_expression" => {
                let (Some(object), Some(property)) = (
                    node.child_by_field_name("object"),
                    node.child_by_field_name("property"),
                ) else {
                    return false;
                };
                match self.text(property) {
                    "coerce" => self.is_zod(object),
                    "z" => self.modules[node.module]
                        .zod_namespaces
                        .contains(&self.text(object)),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// `z.<method>(arguments)`.
    fn zod_type(
        &self,
        method: &str,
        arguments: &[At<'t>],
        io: Io,
        span: Span,
        depth: usize,
    ) -> Option<Zod> {
        let typed = |name: &str| Zod {
            members: vec![Member::new(
                "type",
                span.clone(),
                Value::made(name, span.clone()),
            )],
            optional: false,
            span: span.clone(),
        };
        Some(match method {
            "string" => typed("string"),
            "number" => typed("number"),
            "boolean" => typed("boolean"),
            "null" => typed("null"),
            // zod 4's string formats of their own: `z.url()` is `z.string().url()`.
            "email" | "url" | "uuid" => {
                let mut zod = typed("string");
                let format = if method == "url" { "uri" } else { method };
                zod.set("format", span.clone(), Value::made(format, span.clone()));
                zod
            }
            "int" => {
                let mut zod = typed("number");
                integer(&mut zod, span.clone());
                zod
            }
            "any" | "unknown" => Zod {
                members: Vec::new(),
                optional: false,
                span,
            },
            "literal" => {
                let value = self.literal(*arguments.first()?, depth + 1)?;
                let mut zod = typed(literal_type(&value)?);
                zod.set("const", value.span(), value);
                zod
            }
            "enum" => {
                let values = self.literal(*arguments.first()?, depth + 1)?;
                let Value::Array(items, _) = &values else {
                    return None;
                };
                if !items.iter().all(|item| item.as_str().is_some()) {
                    return None;
                }
                let mut zod = typed("string");
                zod.set("enum", values.span(), values);
                zod
            }
            "array" => {
                let items = self.zod_with(*arguments.first()?, io, depth + 1)?;
                let mut zod = typed("array");
                zod.set("items", items.span.clone(), items.into_value());
                zod
            }
            "object" => self.shape(*arguments.first()?, io, span, depth + 1)?,
            // zod 4's objects that keep unknown keys, or refuse them, in both directions.
            "looseObject" | "strictObject" => {
                let mut zod = self.shape(*arguments.first()?, io, span.clone(), depth + 1)?;
                closed(&mut zod, method == "strictObject", span);
                zod
            }
            "union" => {
                let options = self.resolve(*arguments.first()?)?;
                if options.kind() != "array" {
                    return None;
                }
                let any_of: Option<Vec<Value>> = options
                    .named_children()
                    .into_iter()
                    .filter(|option| option.kind() != "comment")
                    .map(|option| Some(self.zod_with(option, io, depth + 1)?.into_value()))
                    .collect();
                let any_of = any_of?;
                let at = options.byte_range();
                // Options that are each a bare type become one `type` list, as zod 4 writes them.
                let types: Option<Vec<Value>> = any_of
                    .iter()
                    .map(|option| match option {
                        Value::Object(members, _)
                            if members.len() == 1 && members[0].key == "type" =>
                        {
                            Some(members[0].value.clone())
                        }
                        _ => None,
                    })
                    .collect();
                let member = match types {
                    Some(types) => Member::new("type", at.clone(), Value::Array(types, at)),
                    None => Member::new("anyOf", at.clone(), Value::Array(any_of, at)),
                };
                Zod {
                    members: vec![member],
                    optional: false,
                    span,
                }
            }
            "record" => {
                let (keys, values) = match arguments {
                    [values] => (None, *values),
                    [keys, values] => (Some(*keys), *values),
                    _ => return None,
                };
                let mut zod = typed("object");
                if let Some(keys) = keys {
                    let keys = self.zod_with(keys, io, depth + 1)?;
                    zod.set("propertyNames", keys.span.clone(), keys.into_value());
                }
                let values = self.zod_with(values, io, depth + 1)?;
                zod.set(
                    "additionalProperties",
                    values.span.clone(),
                    values.into_value(),
                );
                zod
            }
            // `z.preprocess(fn, schema)` sends the schema's.
            "preprocess" => self.zod_with(*arguments.get(1)?, io, depth + 1)?,
            "optional" => {
                let mut inner = self.zod_with(*arguments.first()?, io, depth + 1)?;
                inner.optional = true;
                inner
            }
            _ => return None,
        })
    }
}

/// `schema` of `schema.shape`.
fn shape_of<'t>(reader: &Reader<'t>, node: At<'t>) -> Option<At<'t>> {
    let property = node.child_by_field_name("property")?;
    (node.kind() == "member_expression" && reader.text(property) == "shape")
        .then(|| node.child_by_field_name("object"))
        .flatten()
}

/// `members` with `later`'s keys added, as JavaScript adds keys: a key already there keeps its
/// place and takes the later value.
fn overlay<'t>(
    members: &mut Vec<(&'t str, At<'t>, At<'t>)>,
    later: Vec<(&'t str, At<'t>, At<'t>)>,
) {
    for member in later {
        match members.iter_mut().find(|(key, _, _)| *key == member.0) {
            Some(earlier) => *earlier = member,
            None => members.push(member),
        }
    }
}

/// The module an `import` names, without its quotes.
fn import_source<'t>(source: &'t str, import: Ts<'t>) -> Option<&'t str> {
    let module = import.child_by_field_name("source")?;
    Some(source[module.byte_range()].trim_matches(['"', '\'', '`']))
}

/// The names an `import` binds, each with the name it imports (`None` for a namespace):
/// `import { z as z4 } from "zod/v4"` binds `z4` to `z`, `import * as ns from "./a.js"` binds
/// `ns`, `import d from "./a.js"` binds `d` to `default`.
fn imported_names<'t>(source: &'t str, import: Ts<'t>) -> Vec<(&'t str, Option<&'t str>)> {
    let text = |node: Ts<'t>| &source[node.byte_range()];
    let mut names = Vec::new();
    let mut cursor = import.walk();
    let mut stack: Vec<(Ts<'t>, bool)> = import
        .named_children(&mut cursor)
        .map(|node| (node, false))
        .collect();
    while let Some((node, namespace)) = stack.pop() {
        match node.kind() {
            "import_clause" | "named_imports" | "namespace_import" => {
                let namespace = node.kind() == "namespace_import";
                let mut cursor = node.walk();
                stack.extend(
                    node.named_children(&mut cursor)
                        .map(|child| (child, namespace)),
                );
            }
            "import_specifier" => {
                let name = node.child_by_field_name("name");
                let bound = node.child_by_field_name("alias").or(name);
                if let (Some(name), Some(bound)) = (name, bound) {
                    names.push((text(bound), Some(text(name))));
                }
            }
            "identifier" if namespace => names.push((text(node), None)),
            "identifier" => names.push((text(node), Some("default"))),
            _ => {}
        }
    }
    names
}

/// The JSON Schema type of a literal's value (`z.literal("a")`, `Type.Literal(2)`).
fn literal_type(value: &Value) -> Option<&'static str> {
    match value {
        Value::Str { .. } => Some("string"),
        Value::Number(..) => Some("number"),
        Value::Bool(..) => Some("boolean"),
        _ => None,
    }
}

/// `{ ...members, ...over }`: a key of `over` takes the value, and keeps the place, of the same
/// key in `members`.
fn overlay_members(members: &mut Vec<Member>, over: Vec<Member>) {
    for member in over {
        match members.iter_mut().find(|old| old.key == member.key) {
            Some(old) => old.value = member.value,
            None => members.push(member),
        }
    }
}

/// An object schema that refuses unknown keys (`additionalProperties: false`, `.strict()`) or
/// keeps them (`additionalProperties: {}`, `.passthrough()`, `z.looseObject`).
fn closed(zod: &mut Zod, strict: bool, span: Span) {
    let value = if strict {
        Value::Bool(false, span.clone())
    } else {
        Value::Object(Vec::new(), span.clone())
    };
    zod.set("additionalProperties", span, value);
}

/// `{ anyOf: [schema, { type: "null" }] }`, keeping the description outside as zod 4 does.
fn nullable(zod: Zod) -> Zod {
    let span = zod.span.clone();
    let optional = zod.optional;
    let null = Value::Object(
        vec![Member::new(
            "type",
            span.clone(),
            Value::made("null", span.clone()),
        )],
        span.clone(),
    );
    Zod {
        members: vec![Member::new(
            "anyOf",
            span.clone(),
            Value::Array(vec![zod.into_value(), null], span.clone()),
        )],
        optional,
        span,
    }
}

/// An integer as zod 4 writes one: bounded to the safe integers, unless bounded already.
fn integer(zod: &mut Zod, span: Span) {
    zod.set("type", span.clone(), Value::made("integer", span.clone()));
    for (key, bound) in [("minimum", -SAFE_INTEGER), ("maximum", SAFE_INTEGER)] {
        if zod.get(key).is_none() {
            zod.set(key, span.clone(), Value::Number(bound.into(), span.clone()));
        }
    }
}

/// What the SDK sends for a tool registered without a schema.
fn empty_schema(span: Span) -> Value {
    Value::Object(
        vec![
            Member::new("type", span.clone(), Value::made("object", span.clone())),
            Member::new(
                "properties",
                span.clone(),
                Value::Object(Vec::new(), span.clone()),
            ),
        ],
        span,
    )
}

/// A JavaScript number literal as JSON: decimal, with `_` separators, or hex/octal/binary.
fn number(text: &str) -> Option<serde_json::Number> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, text),
    };
    let digits = digits.replace('_', "");
    let radix = match digits.get(..2).map(str::to_ascii_lowercase).as_deref() {
        Some("0x") => 16,
        Some("0o") => 8,
        Some("0b") => 2,
        _ => 10,
    };
    if radix != 10 {
        let value = i64::from_str_radix(&digits[2..], radix).ok()?;
        return Some(if negative { -value } else { value }.into());
    }
    let signed = if negative {
        format!("-{digits}")
    } else {
        digits
    };
    if let Ok(integer) = signed.parse::<i64>() {
        return Some(integer.into());
    }
    serde_json::Number::from_f64(signed.parse::<f64>().ok()?)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value as Json, json};

    use super::super::{Imports, Language, parse};

    fn tools(source: &str) -> Json {
        parse(source, Language::TypeScript, None).unwrap().to_json()["tools"].clone()
    }

    #[test]
    fn values_imported_by_relative_path_are_read_where_they_are_used() {
        let main = r#"import { z } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";
import * as files from "./operations/files.js";
import { DESCRIPTION, limit as max } from "../shared";
server.registerTool("a", {
  description: DESCRIPTION,
  inputSchema: { path: files.Path, n: z.number().max(max) },
}, cb);
const listed = [{ name: "b", description: "B.", inputSchema: zodToJsonSchema(files.Args) }];
"#;
        let read = |path: &std::path::Path| -> Option<String> {
            Some(
                match path.to_str()? {
                    "src/operations/files.ts" => {
                        "import { z as zod } from \"zod/v4\";\n\
                         export const Path = zod.string().describe(\"Where \" + \"it is.\");\n\
                         export const Args = zod.object({ path: Path, mode: zod.enum([\"r\", \"w\"]) });\n"
                    }
                    "shared/index.ts" => "export const DESCRIPTION = `Reads a file.`;\nexport const limit = 5;\n",
                    _ => return None,
                }
                .to_string(),
            )
        };
        let imports = Imports {
            path: std::path::Path::new("src/server.ts"),
            read: &read,
            list: &|_| Vec::new(),
        };
        let root = parse(main, Language::TypeScript, Some(&imports)).unwrap();
        let listed = root.to_json()["tools"].clone();
        assert_eq!(listed[0]["description"], "Reads a file.");
        let path = &listed[0]["inputSchema"]["properties"]["path"];
        assert_eq!(path["description"], "Where it is.");
        assert_eq!(listed[0]["inputSchema"]["properties"]["n"]["maximum"], 5);
        let args = &listed[1]["inputSchema"];
        assert_eq!(args["properties"]["mode"]["enum"], json!(["r", "w"]));
        assert_eq!(args["required"], json!(["path", "mode"]));
        // Each value points at the name that brings it into the linted file.
        let a = &root.get("tools").unwrap().as_array().unwrap()[0];
        let at = |node: &crate::parse::Node| &main[node.span()];
        assert_eq!(at(a.get("description").unwrap()), "DESCRIPTION");
        let properties = a.get("inputSchema").unwrap().get("properties").unwrap();
        let path = properties.get("path").unwrap().get("description").unwrap();
        assert_eq!(at(path), "files.Path");
        // Without a way to read imports, the tool is left out, not guessed.
        assert_eq!(tools(main), json!([]));
    }

    /// The tools `main` (at `path`) registers, the files it imports being `files`.
    fn tools_beside(main: &str, path: &str, files: &[(&str, &str)]) -> Json {
        let read = |wanted: &std::path::Path| -> Option<String> {
            let wanted = wanted.to_str()?;
            let (_, text) = files.iter().find(|(name, _)| *name == wanted)?;
            Some(text.to_string())
        };
        let path = std::path::Path::new(path);
        let imports = Imports {
            path,
            read: &read,
            list: &|_| Vec::new(),
        };
        let language = Language::of(path).unwrap();
        parse(main, language, Some(&imports)).unwrap().to_json()["tools"].clone()
    }

    #[test]
    fn values_re_exported_by_a_file_read_are_followed() {
        let main = r#"import { z } from "zod";
import { DESCRIPTION, Query, LIMIT, Missing } from "./index.js";
import { Loop } from "./a.js";
server.registerTool("a", { description: DESCRIPTION, inputSchema: { q: Query.max(LIMIT) } }, cb);
server.registerTool("b", { description: Missing }, cb);
server.registerTool("c", { description: Loop }, cb);
"#;
        let files = [
            (
                "src/index.ts",
                "export { TEXT as DESCRIPTION } from \"./text.js\";\n\
                 export * from \"./schemas.js\";\n\
                 import { LIMIT } from \"./limits.js\";\nexport { LIMIT };\n",
            ),
            ("src/text.ts", "export const TEXT = \"Finds things.\";\n"),
            (
                "src/schemas.ts",
                "import { z } from \"zod\";\nexport const Query = z.string().describe(\"Words.\");\n",
            ),
            ("src/limits.ts", "export const LIMIT = 9;\n"),
            // Files that export from each other.
            ("src/a.ts", "export * from \"./b.js\";\n"),
            ("src/b.ts", "export * from \"./a.js\";\n"),
        ];
        let tools = tools_beside(main, "src/server.ts", &files);
        assert_eq!(names(&tools), ["a"]);
        assert_eq!(tools[0]["description"], "Finds things.");
        assert_eq!(
            tools[0]["inputSchema"]["properties"]["q"],
            json!({"type": "string", "description": "Words.", "maxLength": 9})
        );
    }

    #[test]
    fn commonjs_requires_and_exports_are_read() {
        // As TypeScript compiles a server to CommonJS.
        let main = r#""use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const zod_1 = require("zod");
const text_js_1 = require("./text.js");
const { LIMIT, WORDS: words } = require("./limits.js");
server.registerTool("a", {
    description: text_js_1.DESCRIPTION,
    inputSchema: { q: zod_1.z.string().max(LIMIT).describe(words) },
}, cb);
server.registerTool("b", { description: text_js_1.MISSING }, cb);
"#;
        let files = [
            (
                "dist/text.js",
                "\"use strict\";\nexports.DESCRIPTION = void 0;\n\
                 exports.DESCRIPTION = \"Finds things.\";\n",
            ),
            (
                "dist/limits.js",
                "module.exports = { LIMIT: 9, WORDS: \"Words.\" };\n",
            ),
        ];
        let tools = tools_beside(main, "dist/server.js", &files);
        assert_eq!(names(&tools), ["a"]);
        assert_eq!(tools[0]["description"], "Finds things.");
        assert_eq!(
            tools[0]["inputSchema"]["properties"]["q"],
            json!({"type": "string", "maxLength": 9, "description": "Words."})
        );
    }

    /// The names of the tools read, in order.
    fn names(tools: &Json) -> Vec<&str> {
        let tools = tools.as_array().unwrap();
        tools.iter().map(|t| t["name"].as_str().unwrap()).collect()
    }

    fn schema(shape: &str) -> Json {
        let source = format!("s.registerTool('t', {{ inputSchema: {shape} }}, async () => 1);");
        let mut schema = tools(&source)[0]["inputSchema"].clone();
        schema.as_object_mut().unwrap().remove("$schema");
        schema
    }

    #[test]
    fn zod_schemas_become_the_json_schema_the_sdk_sends() {
        assert_eq!(
            schema(
                "{ q: z.string().describe('Words.'), n: z.number().int().min(1).max(9).default(3) }"
            ),
            json!({"type": "object", "properties": {
                "q": {"type": "string", "description": "Words."},
                "n": {"type": "integer", "minimum": 1, "maximum": 9, "default": 3}},
                "required": ["q"]})
        );
        assert_eq!(
            schema(
                "z.object({ kind: z.enum(['a', 'b']).optional(), at: z.literal('x'), \
                    tags: z.array(z.string()).nonempty(), \
                    v: z.union([z.string(), z.number()]).nullable(), \
                    m: z.record(z.string(), z.any()) })"
            ),
            json!({"type": "object", "properties": {
                "kind": {"type": "string", "enum": ["a", "b"]},
                "at": {"type": "string", "const": "x"},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "v": {"anyOf": [{"type": ["string", "number"]}, {"type": "null"}]},
                "m": {"type": "object", "propertyNames": {"type": "string"}, "additionalProperties": {}}},
                "required": ["at", "tags", "v", "m"]})
        );
        // Objects that keep unknown keys or refuse them, as zod 4 converts them (checked with
        // zod 4's `toJSONSchema`).
        assert_eq!(
            schema(
                "{ loose: z.looseObject({}), strict: z.strictObject({ a: z.string() }), \
                    kept: z.object({}).passthrough(), refused: z.object({}).strict() }"
            )["properties"],
            json!({
                "loose": {"type": "object", "properties": {}, "additionalProperties": {}},
                "strict": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
                           "additionalProperties": false},
                "kept": {"type": "object", "properties": {}, "additionalProperties": {}},
                "refused": {"type": "object", "properties": {}, "additionalProperties": false}})
        );
        // A schema named once in the file, and its `.shape`.
        let named = "const S = z.object({ a: z.boolean() });\n\
                     s.registerTool('t', { inputSchema: S.shape }, async () => 1);";
        assert_eq!(
            tools(named)[0]["inputSchema"]["properties"],
            json!({"a": {"type": "boolean"}})
        );
    }

    #[test]
    fn registrations_are_read_as_the_sdk_reads_their_arguments() {
        let source = r#"
            const base = { title: "T" };
            const config = { ...base, description: ["One.", "Two."].join(" ") };
            server.registerTool("a", config, async () => 1);
            server.tool("b", async () => 1);
            server.tool("c", "Does c.", { x: z.string() }, { readOnlyHint: true }, async () => 1);
            server.tool("d", { destructiveHint: true }, async () => 1);
        "#;
        let tools = tools(source);
        let empty = json!({"type": "object", "properties": {}});
        assert_eq!(tools[0]["title"], "T");
        assert_eq!(tools[0]["description"], "One. Two.");
        assert_eq!(tools[0]["inputSchema"], empty);
        assert_eq!(tools[1], json!({"name": "b", "inputSchema": empty}));
        assert_eq!(tools[2]["description"], "Does c.");
        assert_eq!(tools[2]["inputSchema"]["required"], json!(["x"]));
        assert_eq!(tools[2]["annotations"], json!({"readOnlyHint": true}));
        assert_eq!(tools[3]["annotations"], json!({"destructiveHint": true}));
        assert_eq!(tools[3]["inputSchema"], empty);
    }

    #[test]
    fn task_tools_are_listed_with_their_execution() {
        // As the SDK's `registerToolTask` lists them: `{ taskSupport: "required", ...execution }`.
        let source = r#"
            server.experimental.tasks.registerToolTask("a", { description: "A." }, handler);
            server.experimental.tasks.registerToolTask("b", { execution: { taskSupport: "optional" } }, handler);
            server.experimental.tasks.registerToolTask("c", { execution: { taskSupport: "forbidden" } }, handler);
            server.registerTool("d", { execution: { taskSupport: "required" } }, cb);
        "#;
        let tools = tools(source);
        assert_eq!(names(&tools), ["a", "b", "d"]);
        assert_eq!(tools[0]["execution"], json!({"taskSupport": "required"}));
        assert_eq!(tools[1]["execution"], json!({"taskSupport": "optional"}));
        // `registerTool` takes no `execution` from its config.
        assert_eq!(tools[2].get("execution"), None);
    }

    #[test]
    fn tools_written_as_listed_and_fastmcp_tools_are_read() {
        let source = r#"
            import { z as z4 } from "zod/v4";
            const SEARCH = {
                name: "search",
                description: "Finds pages.",
                inputSchema: { type: "object", properties: { q: { type: "string" } } },
            };
            const FETCH = { name: "fetch", inputSchema: zodToJsonSchema(z4.object({ id: z4.string() })) };
            server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [SEARCH, FETCH] }));
            // A helper hands a zod `inputSchema` to the SDK, which converts it.
            const OPEN = { name: "open", inputSchema: z4.object({ url: z4.string().describe("Page.") }) };
            server.addTool({
                name: "crawl",
                description: "Crawls a site.",
                parameters: z4.object({ depth: z4.coerce.number().int().min(1).optional() }),
                execute: async () => "",
            });
            // Not a tool: no `inputSchema`.
            const config = { name: "x", version: "1" };
            // One pattern is read as written; two are sent as an `allOf`: not read.
            const PERIOD = { name: "period", inputSchema: z4.object({
                p: z4.string().regex(/^\d+[hdw]$/, "A period.").max(9),
            }) };
            const TWICE = { name: "twice", inputSchema: z4.object({ p: z4.string().regex(/a/).regex(/b/) }) };
            // A schema a function returns.
            function period(max = 9) { return z4.string().regex(/^\d+[hdw]$/, "A period.").max(max); }
            const MADE = { name: "made", inputSchema: z4.object({ p: period() }) };
            // An empty JSON Schema, or an empty zod shape a helper converts: not read.
            const WHOAMI = { name: "whoami", inputSchema: {} };
        "#;
        let tools = tools(source);
        let names = names(&tools);
        assert_eq!(
            names,
            ["search", "fetch", "open", "crawl", "period", "made"]
        );
        assert_eq!(
            tools[4]["inputSchema"]["properties"]["p"],
            json!({"type": "string", "pattern": "^\\d+[hdw]$", "maxLength": 9})
        );
        assert_eq!(tools[5]["inputSchema"], tools[4]["inputSchema"]);
        assert_eq!(
            tools[2]["inputSchema"],
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": ["url"],
                   "properties": {"url": {"type": "string", "description": "Page."}}})
        );
        assert_eq!(
            tools[0]["inputSchema"]["properties"]["q"],
            json!({"type": "string"})
        );
        assert_eq!(
            tools[1]["inputSchema"],
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"],
                   "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#"})
        );
        assert_eq!(
            tools[3]["inputSchema"]["properties"]["depth"],
            json!({"type": "integer", "minimum": 1, "maximum": 9_007_199_254_740_991_i64})
        );
        assert_eq!(tools[3]["inputSchema"]["additionalProperties"], false);
    }

    #[test]
    fn tools_written_as_the_messages_api_takes_them_are_read() {
        // `{ name, description, input_schema }`, with values a function returns.
        let source = r#"
            function readOnly(overrides = {}) {
                return { readOnlyHint: true, destructiveHint: false, ...overrides };
            }
            const limit = () => ({ type: "number", minimum: 1 });
            export const LIST = {
                name: "list_issues",
                annotations: readOnly({ openWorldHint: true }),
                description: "Lists issues.",
                input_schema: { type: "object", properties: { limit: limit() } },
                output_schema: { type: "array", items: { type: "string" } },
            };
            const GET = { name: "get_issue", annotations: readOnly(), input_schema: { type: "object" } };
            // Not read: the function does more than return a value, or is given too little.
            function computed(x) { const y = x; return { readOnlyHint: y }; }
            function needs(x) { return { readOnlyHint: x }; }
            const A = { name: "a", annotations: computed(true), input_schema: { type: "object" } };
            const B = { name: "b", annotations: needs(), input_schema: { type: "object" } };
            // A tool a function makes of its arguments, read at each call.
            const KINDS = ["bug", "task"];
            function parentTool(name, description, id) {
                return {
                    name, description,
                    input_schema: { type: "object", properties: {
                        [id]: { type: "string" },
                        kind: { enum: [...KINDS, "epic"], maxItems: KINDS.length },
                    }, required: [id] },
                };
            }
            export const DOCS = parentTool("issue_documents", "Lists an issue's documents.", "issueId");
            const TWICE = parentTool(`cycle_documents`, "Lists a cycle's documents.", "cycleId");
            const RUNNERS = { javascript: "node", "python": "python -u" };
            const RUN = { name: "run", input_schema: { type: "object", properties: {
                language: { enum: Object.keys(RUNNERS) },
                runner: { enum: Object.values(RUNNERS) },
            } } };
            // `Object.keys` puts keys that read as array indexes first: not read.
            const INDEXED = { name: "indexed", input_schema: { enum: Object.keys({ b: 1, 2: 1 }) } };
        "#;
        let tools = tools(source);
        assert_eq!(
            names(&tools),
            [
                "list_issues",
                "get_issue",
                "issue_documents",
                "cycle_documents",
                "run"
            ]
        );
        assert_eq!(
            tools[4]["input_schema"]["properties"],
            json!({"language": {"enum": ["javascript", "python"]},
                   "runner": {"enum": ["node", "python -u"]}})
        );
        assert_eq!(
            tools[3]["input_schema"],
            json!({"type": "object", "properties": {
                "cycleId": {"type": "string"},
                "kind": {"enum": ["bug", "task", "epic"], "maxItems": 2},
            }, "required": ["cycleId"]})
        );
        assert_eq!(tools[2]["description"], "Lists an issue's documents.");
        assert_eq!(
            tools[0]["annotations"],
            json!({"readOnlyHint": true, "destructiveHint": false, "openWorldHint": true})
        );
        assert_eq!(
            tools[0]["input_schema"]["properties"]["limit"],
            json!({"type": "number", "minimum": 1})
        );
        assert_eq!(tools[0]["output_schema"]["type"], "array");
        assert_eq!(
            tools[1]["annotations"],
            json!({"readOnlyHint": true, "destructiveHint": false})
        );
    }

    #[test]
    fn unions_of_bare_types_become_a_type_list_and_preprocess_sends_its_schema() {
        assert_eq!(
            schema("{ b: z.preprocess((v) => v, z.union([z.boolean(), z.string()])) }"),
            json!({"type": "object", "properties": {"b": {"type": ["boolean", "string"]}},
                   "required": ["b"]})
        );
    }

    #[test]
    fn object_schemas_built_from_others_have_their_keys() {
        let source = "const Base = z.object({ owner: z.string(), repo: z.string() });
const Options = z.object({ title: z.string(), body: z.string().optional() });
s.registerTool('a', { inputSchema: Base.extend({ repo: z.number(), n: z.number() }) }, cb);
s.registerTool('b', { inputSchema: { ...Base.shape, ...Options.shape } }, cb);
s.registerTool('c', { inputSchema: Base.merge(Options).omit({ owner: true }).partial() }, cb);
s.registerTool('d', { inputSchema: z.object({ ...Options.pick({ body: true }).shape }) }, cb);
";
        let keys = |tool: &Json| -> (Vec<String>, Json) {
            let schema = &tool["inputSchema"];
            let properties = schema["properties"].as_object().unwrap();
            (
                properties.keys().cloned().collect(),
                schema["required"].clone(),
            )
        };
        let tools = tools(source);
        // A key extended keeps its place and takes the new schema, as a JavaScript spread does.
        assert_eq!(keys(&tools[0]).0, ["owner", "repo", "n"]);
        assert_eq!(
            tools[0]["inputSchema"]["properties"]["repo"]["type"],
            "number"
        );
        assert_eq!(
            keys(&tools[1]),
            (
                vec!["owner".into(), "repo".into(), "title".into(), "body".into()],
                json!(["owner", "repo", "title"])
            )
        );
        assert_eq!(
            keys(&tools[2]),
            (
                vec!["repo".into(), "title".into(), "body".into()],
                Json::Null
            )
        );
        assert_eq!(keys(&tools[3]), (vec!["body".into()], Json::Null));
    }

    #[test]
    fn template_substitutions_of_constants_are_read() {
        let source = "const LEAD = 'Searches notes.';\nconst MAX = 50;\n\
            s.registerTool('a', { description: `${LEAD} At most ${MAX}\\u0021` }, cb);\n\
            s.registerTool('b', { description: `${LEAD} ${Date.now()}` }, cb);\n";
        let tools = tools(source);
        assert_eq!(tools[0]["description"], "Searches notes. At most 50!");
        let url = &schema("{ u: z.url() }")["properties"]["u"];
        assert_eq!(url, &json!({"type": "string", "format": "uri"}));
        // A substitution computed at run time leaves the tool out.
        assert_eq!(tools.as_array().unwrap().len(), 1);
    }

    #[test]
    fn helpers_that_register_what_they_are_given_are_read_at_each_call() {
        let source = r#"
            function auditTool(name, description) {
                return { register(server) { server.registerTool(name, { description }, cb); } };
            }
            const registerDb = (server, name, config) => {
                const schema = { ...config.inputSchema, caller: z.string() };
                server.registerTool(name, {
                    title: config.title, description: config.description, inputSchema: schema,
                }, cb);
            };
            function registerFixed(server) { server.registerTool("fixed", {}, cb); }
            const tools = [auditTool("seo", "Audits SEO."), auditTool("a11y", "Audits a11y.")];
            registerDb(server, "list", { description: "Lists.", inputSchema: { n: z.number() } });
            registerFixed(server);
            registerFixed(server);
        "#;
        let tools = tools(source);
        let names = names(&tools);
        // `fixed` is read once, where it is written; the others once per call.
        assert_eq!(names, ["fixed", "seo", "a11y", "list"]);
        assert_eq!(tools[2]["description"], "Audits a11y.");
        assert_eq!(tools[3].get("title"), None);
        let properties = tools[3]["inputSchema"]["properties"].as_object().unwrap();
        assert_eq!(properties.keys().collect::<Vec<_>>(), ["n", "caller"]);
    }

    #[test]
    fn a_helper_parameter_given_no_argument_is_its_default_or_undefined() {
        let source = r#"
            function registerSearch(server, config, toolName, title = "Search") {
                server.tool(toolName || "web_search_exa", "Searches the web.", {}, cb);
                server.registerTool(toolName ?? "web_fetch_exa", { title, description: "Fetches." }, cb);
            }
            registerSearch(server, config);
            registerSearch(server, config, "custom_search", "Custom");
            registerSearch(server, config, "");
            function registerOther(server, name) {
                server.registerTool(name || fallback, { description: "Other." }, cb);
                server.registerTool(name && "never", { description: "Other." }, cb);
            }
            registerOther(server);
        "#;
        let tools = tools(source);
        assert_eq!(
            names(&tools),
            [
                "web_search_exa",
                "web_fetch_exa",
                "custom_search",
                "custom_search",
                "web_search_exa",
                "",
            ]
        );
        assert_eq!(tools[1]["title"], "Search");
        assert_eq!(tools[3]["title"], "Custom");
        // `""` is falsy for `||` and kept by `??`; a fallback not read, or `&&`, leaves the tool
        // out.
        assert_eq!(tools[5]["title"], "Search");
    }

    #[test]
    fn a_name_assigned_again_is_known_at_run_time_only() {
        let source = r#"
            let categories = [];
            let count = 1;
            let label = "Searches.";
            function registerCategoryTool(server, categories) {
                server.tool("by_category", `One of: ${categories.join(", ")}`, {}, cb);
            }
            registerCategoryTool(server, categories);
            server.tool("counted", `Up to ${count}`, {}, cb);
            server.tool("labelled", label, {}, cb);
            async function main() { categories = await load(); count++; label += "!"; }
            const extra = { description: "Extra." };
            const kinds = ["a"];
            server.registerTool("extra", extra, cb);
            server.tool("kinds", kinds.join(", "), {}, cb);
            const more = { description: "More." };
            server.registerTool("more", more, cb);
            if (beta) { extra.description = "Beta."; kinds.push("b"); Object.assign(more, x); }
        "#;
        assert_eq!(tools(source), json!([]));
    }

    #[test]
    fn a_file_that_only_calls_an_imported_helper_is_read() {
        let main = "import { registerSearchTool } from \"./tools/search.js\";\n\
                    export function init(server, config) {\n\
                    \x20 if (enabled(\"search\")) registerSearchTool(server, config);\n}\n";
        let helper = "export function registerSearchTool(server: S, config?: C, name?: string) {\n\
                      \x20 server.tool(name || \"search\", \"Searches.\", { q: z.string() }, cb);\n}\n";
        let tools = tools_beside(main, "src/index.ts", &[("src/tools/search.ts", helper)]);
        assert_eq!(names(&tools), ["search"]);
        assert_eq!(tools[0]["description"], "Searches.");
    }

    #[test]
    fn a_parse_that_takes_too_long_is_given_up_on() {
        // A fuzzer's input on which the TSX grammar's error recovery ran for minutes.
        let slow = include_str!("../../../fixtures/sources/slow-recovery.tsx");
        let start = std::time::Instant::now();
        let error = super::super::parse(slow, Language::Tsx, None).unwrap_err();
        assert!(error.message.contains("gave up"), "{}", error.message);
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn objects_made_of_themselves_end_the_read() {
        // Cycles through spreads and keys, and a long chain, are left out without a stack
        // overflow.
        let chain = format!("const a = {{ b: 1 }};\nconst c = a{};\n", ".b".repeat(5000));
        let source = format!(
            "{chain}const x = {{ ...y.k, k: x.k }};\nconst y = {{ ...x.k, k: y }};\n\
             s.registerTool('a', {{ description: x.k, ...y }}, cb);\n\
             s.registerTool('b', {{ description: c }}, cb);\n"
        );
        assert_eq!(tools(&source), json!([]));
    }

    #[test]
    fn what_cannot_be_read_statically_is_left_out_not_guessed() {
        let source = r#"
            server.registerTool("a", { description: t("key") }, async () => 1);
            server.registerTool(name, { description: "x" }, async () => 1);
            server.registerTool("b", { inputSchema: { q: z.string().customCheck() } }, cb);
            server.registerTool("c", { description: `Hi ${who}` }, cb);
            let twice = "one"; { let twice = "two"; }
            server.registerTool("d", { description: twice }, cb);
            agent.tool("e", { timeout: 5 });
        "#;
        assert_eq!(tools(source), json!([]));
    }
}
