//! Python: `@mcp.tool(…)` on a function, of the official SDK's FastMCP (its name, its docstring
//! as `__doc__` holds it, its typed parameters as the JSON Schema pydantic generates for them)
//! and of FastMCP the standalone package (as its current release makes tools: the docstring
//! cleaned, titles pruned), and the low-level server's `types.Tool(name=…, inputSchema={…})`,
//! wherever it is written (tool classes included).
//!
//! Values are read, never run: string literals (adjacent ones joined, f-strings whose fields
//! name constants), numbers, `True`, `False`, `None`, dicts and lists of them, names bound once
//! at module level or imported from a file of the package (`modules`), class attributes and
//! enum members, `self.name` of tool classes, calls of
//! functions without parameters that return a value, and pydantic models.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use tree_sitter::Node as Ts;

mod modules;

use self::modules::{Links, Modules, Target};
use super::value::{Member, Value};
use super::{Imports, Language, each_node, gave_up, syntax_tree, tool_set};
use crate::parse::{Node, ParseError, Span, StrStyle};

/// How deep a value is followed (names through names, types in types) before giving up.
const MAX_DEPTH: usize = 64;

/// The steps one registration may take: dicts made of names bound to dicts made of the same
/// names would otherwise be read again and again.
const STEPS_PER_REGISTRATION: usize = 100_000;

pub(super) fn tools(source: &str, imports: Option<&Imports>) -> Result<Node, ParseError> {
    let tree = syntax_tree(source, Language::Python).ok_or_else(|| gave_up("Python"))?;
    let modules = modules::read(source, &tree, imports);
    let reader = Reader::new(&modules, &tree);
    let mut tools = Vec::new();
    each_node(tree.root_node(), |node| {
        reader.budget.set(STEPS_PER_REGISTRATION);
        reader.defs.take();
        reader.frames.take();
        let tool = match node.kind() {
            "decorated_definition" => reader.decorated_tool(node),
            "call" => reader
                .tool_literal(node)
                .or_else(|| reader.added_tool(node)),
            _ => None,
        };
        // What was read from another file is located where the linted file uses it.
        tools.extend(tool.map(|tool| {
            let span = tool.span();
            tool.kept_within(source.len(), &span)
        }));
    });
    Ok(tool_set(source, tools))
}

struct Reader<'t> {
    /// The text of the linted file, then of each file read for the values it imports.
    source: &'t str,
    /// The files read: the linted one first.
    modules: Vec<Module<'t>>,
    /// Whose `@tool` decorator the file's are.
    framework: Framework,
    /// The names each class binds, by the class's node id: read once per class.
    classes: RefCell<HashMap<usize, Rc<Bindings<'t>>>>,
    /// The names each function binds, by the function's node id: read once per function.
    functions: RefCell<HashMap<usize, Rc<Bindings<'t>>>>,
    /// The models a schema being read refers to, by name, in the order pydantic defines them.
    defs: RefCell<Vec<(String, Value)>>,
    /// The calls of helpers read for the registration being read (`writes(destructive=True)`):
    /// the helper's body and what each of its parameters is given. A registration reads one
    /// call of a helper at a time, and the latest call's values are its parameters'.
    frames: RefCell<Vec<Frame<'t>>>,
    budget: Cell<usize>,
}

/// A file read: where its text is in [`Reader::source`], and the names its top level binds.
struct Module<'t> {
    range: Span,
    root: Ts<'t>,
    /// Names assigned or defined once at the top level, and what they are assigned.
    bindings: Bindings<'t>,
    /// Names its imports bind.
    links: &'t Links,
}

/// A call of a module function that returns a value: inside `body`, each parameter's name
/// stands for its argument (or its default).
struct Frame<'t> {
    body: std::ops::Range<usize>,
    bound: HashMap<&'t str, Ts<'t>>,
}

impl<'t> Reader<'t> {
    fn new(files: &'t Modules, tree: &'t tree_sitter::Tree) -> Self {
        let source = files.text.as_str();
        let mut framework = Framework::Sdk;
        let root = tree.root_node();
        let mut cursor = root.walk();
        for statement in root.named_children(&mut cursor) {
            if matches!(
                statement.kind(),
                "import_from_statement" | "import_statement"
            ) {
                let module = statement
                    .child_by_field_name("module_name")
                    .or_else(|| statement.child_by_field_name("name"))
                    .map(|name| &source[name.byte_range()]);
                if module.is_some_and(|m| m == "fastmcp" || m.starts_with("fastmcp.")) {
                    framework = Framework::FastMcp;
                }
            }
        }
        let roots = std::iter::once(root).chain(files.trees.iter().map(|tree| tree.root_node()));
        let modules = roots
            .zip(&files.ranges)
            .zip(&files.links)
            .map(|((root, range), links)| Module {
                range: range.clone(),
                root,
                bindings: module_bindings(source, root),
                links,
            })
            .collect();
        Reader {
            source,
            modules,
            framework,
            classes: RefCell::new(HashMap::new()),
            functions: RefCell::new(HashMap::new()),
            defs: RefCell::new(Vec::new()),
            frames: RefCell::new(Vec::new()),
            budget: Cell::new(STEPS_PER_REGISTRATION),
        }
    }

    /// What `name` is bound to where `at` uses it: the enclosing functions' binding, else the
    /// module's.
    fn named(&self, at: Ts<'t>, name: &str) -> Option<Ts<'t>> {
        match self.local(at, name) {
            Some(bound) => bound,
            None => self.module_name(self.module_of(at), name, 0),
        }
    }

    /// The file a node is in (an index of `modules`).
    fn module_of(&self, node: Ts<'t>) -> usize {
        let start = node.start_byte();
        self.modules
            .partition_point(|module| module.range.start <= start)
            .saturating_sub(1)
    }

    /// What the top level of the file `module` binds `name` to: an assignment or definition,
    /// or what it imports under that name (a name of another file read, or that file itself).
    fn module_name(&self, module: usize, name: &str, depth: usize) -> Option<Ts<'t>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let module = self.modules.get(module)?;
        match (module.bindings.get(name), module.links.names.get(name)) {
            (Some(bound), None) => *bound,
            (None, Some(Target::Module(file))) => Some(self.modules.get(*file)?.root),
            (
                None,
                Some(Target::Name {
                    module: from,
                    name: imported,
                    submodule,
                }),
            ) => from
                .and_then(|from| self.module_name(from, imported, depth + 1))
                .or_else(|| Some(self.modules.get((*submodule)?)?.root)),
            // `from .text import *` brings in the names not marked private.
            (None, None) if !name.starts_with('_') => module
                .links
                .stars
                .iter()
                .find_map(|star| self.module_name(*star, name, depth + 1)),
            // Assigned and imported: bound twice.
            _ => None,
        }
    }

    /// Whether the top level of the file `at` is in binds `name`.
    fn module_binds(&self, at: Ts<'t>, name: &str) -> bool {
        let module = &self.modules[self.module_of(at)];
        module.bindings.contains_key(name) || module.links.names.contains_key(name)
    }

    /// What the class or module `owner` binds `name` to.
    fn member_of(&self, owner: Ts<'t>, name: &str, depth: usize) -> Option<Ts<'t>> {
        match owner.kind() {
            "class_definition" => self.class_scope(owner).get(name).copied()?,
            "module" => self.module_name(self.module_of(owner), name, depth),
            _ => None,
        }
    }

    /// What the functions `at` is in bind `text` to, innermost first: `Some(None)` for a
    /// parameter (its value is the caller's) or a name bound more than once; `None` when no
    /// enclosing function binds it (the module's name, if any, is the one used).
    fn local(&self, at: Ts<'t>, text: &str) -> Option<Option<Ts<'t>>> {
        let mut node = at;
        while let Some(parent) = node.parent() {
            node = parent;
            if node.kind() != "function_definition" {
                continue;
            }
            let mut functions = self.functions.borrow_mut();
            let scope = functions
                .entry(node.id())
                .or_insert_with(|| Rc::new(function_bindings(self.source, node)));
            if let Some(bound) = scope.get(text) {
                return Some(*bound);
            }
        }
        None
    }

    /// The names `class`'s body binds.
    fn class_scope(&self, class: Ts<'t>) -> Rc<Bindings<'t>> {
        let mut classes = self.classes.borrow_mut();
        let scope = classes
            .entry(class.id())
            .or_insert_with(|| Rc::new(scope_bindings(self.source, class)));
        Rc::clone(scope)
    }

    fn text(&self, node: Ts<'t>) -> &'t str {
        &self.source[node.byte_range()]
    }

    fn spend(&self) -> Option<()> {
        self.budget.set(self.budget.get().checked_sub(1)?);
        Some(())
    }

    /// `node` with parentheses and names bound once at module level looked through.
    fn resolve(&self, mut node: Ts<'t>, depth: usize) -> Option<Ts<'t>> {
        for _ in depth..MAX_DEPTH {
            match node.kind() {
                "parenthesized_expression" => node = node.named_child(0)?,
                "identifier" => {
                    node = match self.parameter(node) {
                        Some(argument) => argument,
                        None => self.named(node, self.text(node))?,
                    }
                }
                "attribute" => {
                    let object = node.child_by_field_name("object")?;
                    let attribute = self.text(node.child_by_field_name("attribute")?);
                    // `Tools.SEARCH.value`: the enum member's value, as `Tools.SEARCH` is read.
                    if attribute == "value" && object.kind() == "attribute" {
                        node = object;
                        continue;
                    }
                    // `self.name` in a method: the tool-class pattern.
                    if object.kind() == "identifier" && self.text(object) == "self" {
                        let class = enclosing_class(node)?;
                        node = self.instance_attribute(class, attribute, &[], depth + 1)?;
                        continue;
                    }
                    let owner = self.resolve(object, depth + 1)?;
                    node = self.member_of(owner, attribute, depth + 1)?;
                }
                // `_paper_id_property()`, `writes(destructive=True)`: a function that returns a
                // value.
                "call" => match self.returned(node, depth + 1) {
                    Some(returned) => node = returned,
                    None => return Some(node),
                },
                _ => return Some(node),
            }
        }
        None
    }

    /// `self.NAME` in a method of `class`: what the class's `__init__` assigns it once (a
    /// parameter of it standing for `arguments`, which a subclass passes to
    /// `super().__init__(…)`), else its class attribute, else a base class's.
    fn instance_attribute(
        &self,
        class: Ts<'t>,
        name: &str,
        arguments: &[Ts<'t>],
        depth: usize,
    ) -> Option<Ts<'t>> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.spend()?;
        let bindings = self.class_scope(class);
        let bases = self.base_classes(class, depth);
        if let Some(init) = bindings.get("__init__").copied().flatten()
            && init.kind() == "function_definition"
        {
            let parameters = init.child_by_field_name("parameters")?;
            let mut cursor = parameters.walk();
            // The parameters after `self`, by name.
            let names: Vec<&str> = parameters
                .named_children(&mut cursor)
                .skip(1)
                .map(|parameter| match parameter.kind() {
                    "identifier" => self.text(parameter),
                    _ => parameter
                        .child_by_field_name("name")
                        .or_else(|| parameter.named_child(0))
                        .map_or("", |name| self.text(name)),
                })
                .collect();
            // A value in `__init__`: a parameter stands for its argument.
            let argument = |value: Ts<'t>| -> Option<Ts<'t>> {
                let parameter = (value.kind() == "identifier")
                    .then(|| names.iter().position(|n| *n == self.text(value)))
                    .flatten();
                match parameter {
                    Some(index) => arguments.get(index).copied(),
                    None => Some(value),
                }
            };
            let body = init.child_by_field_name("body")?;
            let mut assigned = Vec::new();
            // Every statement of `__init__`, those in `if` and `try` blocks included.
            let mut pending = vec![body];
            while let Some(node) = pending.pop() {
                self.spend()?;
                let mut cursor = node.walk();
                pending.extend(node.named_children(&mut cursor));
                match node.kind() {
                    "assignment" => {
                        let left = node.child_by_field_name("left")?;
                        if left.kind() == "attribute" && self.text(left) == format!("self.{name}") {
                            assigned.push(argument(node.child_by_field_name("right")?));
                        }
                    }
                    // `super().__init__(TOOL_NAME)`: the base class's `__init__` given these.
                    "call"
                        if node
                            .child_by_field_name("function")
                            .is_some_and(|callee| self.text(callee) == "super().__init__") =>
                    {
                        let (positional, keywords) = self.arguments(node);
                        let passed: Option<Vec<Ts<'t>>> =
                            positional.into_iter().map(argument).collect();
                        if let (Some(passed), [base], true) =
                            (passed, bases.as_slice(), keywords.is_empty())
                            && let Some(value) =
                                self.instance_attribute(*base, name, &passed, depth + 1)
                        {
                            assigned.push(Some(value));
                        }
                    }
                    _ => {}
                }
            }
            match assigned.as_slice() {
                [] => {}
                [value] => return *value,
                // Assigned in more than one place: which one holds is the run's.
                _ => return None,
            }
        }
        if let Some(value) = bindings.get(name).copied() {
            return value.filter(|value| value.kind() != "function_definition");
        }
        bases
            .into_iter()
            .find_map(|base| self.instance_attribute(base, name, &[], depth + 1))
    }

    /// The classes of the module that `class` names as its bases.
    fn base_classes(&self, class: Ts<'t>, depth: usize) -> Vec<Ts<'t>> {
        let Some(bases) = class.child_by_field_name("superclasses") else {
            return Vec::new();
        };
        let mut cursor = bases.walk();
        bases
            .named_children(&mut cursor)
            .filter(|base| base.kind() == "identifier")
            .filter_map(|base| self.resolve(base, depth + 1))
            .filter(|base| base.kind() == "class_definition")
            .collect()
    }

    /// The argument a helper call gives the parameter `name` is at, when `name` is one.
    fn parameter(&self, name: Ts<'t>) -> Option<Ts<'t>> {
        let at = name.start_byte();
        let frames = self.frames.borrow();
        let frame = frames.iter().rev().find(|frame| frame.body.contains(&at))?;
        frame.bound.get(self.text(name)).copied()
    }

    /// What a call of a module's function returns, when its body (after its docstring) is one
    /// `return`: its parameters bound to the call's arguments, or their defaults.
    fn returned(&self, call: Ts<'t>, depth: usize) -> Option<Ts<'t>> {
        let callee = call.child_by_field_name("function")?;
        if !matches!(callee.kind(), "identifier" | "attribute") {
            return None;
        }
        let function = self.resolve(callee, depth)?;
        if function.kind() != "function_definition" {
            return None;
        }
        let bound = self.bind(call, function.child_by_field_name("parameters")?)?;
        let body = function.child_by_field_name("body")?;
        let mut cursor = body.walk();
        let statements: Vec<Ts<'t>> = body
            .named_children(&mut cursor)
            .filter(|statement| statement.kind() != "comment")
            .collect();
        let statement = match statements.as_slice() {
            [statement] => *statement,
            [docstring, statement]
                if docstring.kind() == "expression_statement"
                    && docstring
                        .named_child(0)
                        .is_some_and(|s| s.kind() == "string") =>
            {
                *statement
            }
            _ => return None,
        };
        if statement.kind() != "return_statement" {
            return None;
        }
        if !bound.is_empty() {
            self.frames.borrow_mut().push(Frame {
                body: body.byte_range(),
                bound,
            });
        }
        statement.named_child(0)
    }

    /// Each parameter of `parameters` bound to the argument of `call` it takes, or to its
    /// default; `None` when the call does not fit (`*args`, `**kwargs`, an argument missing or
    /// unknown).
    fn bind(&self, call: Ts<'t>, parameters: Ts<'t>) -> Option<HashMap<&'t str, Ts<'t>>> {
        let (positional, mut keywords) = self.arguments(call);
        if positional
            .iter()
            .any(|argument| matches!(argument.kind(), "list_splat" | "dictionary_splat"))
        {
            return None;
        }
        let mut positional = positional.into_iter();
        let mut bound = HashMap::new();
        let mut keyword_only = false;
        let mut cursor = parameters.walk();
        for parameter in parameters.named_children(&mut cursor) {
            let (name, default) = match parameter.kind() {
                "identifier" => (parameter, None),
                "typed_parameter" => (parameter.named_child(0)?, None),
                "default_parameter" | "typed_default_parameter" => (
                    parameter.child_by_field_name("name")?,
                    parameter.child_by_field_name("value"),
                ),
                "keyword_separator" => {
                    keyword_only = true;
                    continue;
                }
                "positional_separator" | "comment" => continue,
                _ => return None,
            };
            if name.kind() != "identifier" {
                return None;
            }
            let name = self.text(name);
            let argument = keywords
                .remove(name)
                .or_else(|| (!keyword_only).then(|| positional.next()).flatten())
                .or(default)?;
            bound.insert(name, argument);
        }
        (keywords.is_empty() && positional.next().is_none()).then_some(bound)
    }

    /// The keyword arguments of a call (`name=value`), and its positional ones.
    fn arguments(&self, call: Ts<'t>) -> (Vec<Ts<'t>>, HashMap<&'t str, Ts<'t>>) {
        let mut positional = Vec::new();
        let mut keywords = HashMap::new();
        let Some(list) = call.child_by_field_name("arguments") else {
            return (positional, keywords);
        };
        let mut cursor = list.walk();
        for argument in list.named_children(&mut cursor) {
            match argument.kind() {
                "keyword_argument" => {
                    if let (Some(name), Some(value)) = (
                        argument.child_by_field_name("name"),
                        argument.child_by_field_name("value"),
                    ) {
                        keywords.insert(self.text(name), value);
                    }
                }
                "comment" => {}
                _ => positional.push(argument),
            }
        }
        (positional, keywords)
    }

    /// The last name of a callee or type: `Tool` of `types.Tool`, `Optional` of
    /// `typing.Optional`.
    fn last_name(&self, node: Ts<'t>) -> Option<&'t str> {
        match node.kind() {
            "identifier" => Some(self.text(node)),
            "attribute" => Some(self.text(node.child_by_field_name("attribute")?)),
            "member_type" | "type" => {
                let last = u32::try_from(node.named_child_count().checked_sub(1)?).ok()?;
                self.last_name(node.named_child(last)?)
            }
            _ => None,
        }
    }

    /// `types.Tool(name=…, description=…, inputSchema={…})`: the tool as written, its keys in
    /// the order the SDK's model sends them.
    fn tool_literal(&self, call: Ts<'t>) -> Option<Value> {
        if self.last_name(call.child_by_field_name("function")?)? != "Tool" {
            return None;
        }
        let (positional, keywords) = self.arguments(call);
        if !positional.is_empty() {
            return None;
        }
        // SDK 2 names the fields in snake_case (`input_schema=`), SDK 1 as they are sent.
        let keywords: HashMap<String, Ts<'t>> = keywords
            .into_iter()
            .map(|(key, value)| (camel_case(key), value))
            .collect();
        let name = keywords.get("name")?;
        let input_schema = keywords.get("inputSchema")?;
        let mut members = vec![self.member("name", *name)?];
        for key in ["title", "description"] {
            if let Some(value) = keywords.get(key) {
                members.extend(self.optional_member(key, *value)?);
            }
        }
        members.push(self.member("inputSchema", *input_schema)?);
        if let Some(value) = keywords.get("outputSchema") {
            members.extend(self.optional_member("outputSchema", *value)?);
        }
        if let Some(value) = keywords.get("annotations") {
            members.push(Member::new(
                "annotations",
                key_span(*value),
                self.annotations(*value)?,
            ));
        }
        Some(Value::Object(members, call.byte_range()))
    }

    /// `key=value` of a call, as a member located at the keyword.
    fn member(&self, key: &str, value: Ts<'t>) -> Option<Member> {
        Some(Member::new(key, key_span(value), self.literal(value, 0)?))
    }

    /// As [`Self::member`], but `None` (the SDK leaves the key out) is no member.
    fn optional_member(&self, key: &str, value: Ts<'t>) -> Option<Option<Member>> {
        let member = self.member(key, value)?;
        Some((!matches!(member.value, Value::Null(_))).then_some(member))
    }

    /// `ToolAnnotations(readOnlyHint=True, …)` (or `read_only_hint=True`, as SDK 2 names them) or
    /// a dict of the same keys: the hints given, in the order the SDK's model sends them.
    fn annotations(&self, node: Ts<'t>) -> Option<Value> {
        const HINTS: [&str; 5] = [
            "title",
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ];
        let used = node;
        let node = self.resolve(node, 0)?;
        let given: Vec<(String, Span, Value)> = match node.kind() {
            "call"
                if self.last_name(node.child_by_field_name("function")?)? == "ToolAnnotations" =>
            {
                let (positional, keywords) = self.arguments(node);
                if !positional.is_empty() {
                    return None;
                }
                let mut given = Vec::new();
                for (key, value) in keywords {
                    given.push((camel_case(key), key_span(value), self.literal(value, 0)?));
                }
                given
            }
            "dictionary" => match self.literal(node, 0)? {
                Value::Object(members, _) => members
                    .into_iter()
                    .map(|member| (camel_case(&member.key), member.key_span, member.value))
                    .collect(),
                _ => return None,
            },
            _ => return None,
        };
        let mut members = Vec::new();
        for hint in HINTS {
            if let Some((key, span, value)) = given.iter().find(|(key, ..)| key == hint)
                && !matches!(value, Value::Null(_))
            {
                members.push(Member::new(key, span.clone(), value.clone()));
            }
        }
        if given.iter().any(|(key, ..)| !HINTS.contains(&key.as_str())) {
            return None;
        }
        Some(self.located(used, node, Value::Object(members, node.byte_range())))
    }

    /// A value written as a Python literal: strings, numbers, `True`/`False`/`None`, and dicts
    /// (string keys), lists and tuples of them.
    fn literal(&self, node: Ts<'t>, depth: usize) -> Option<Value> {
        self.spend()?;
        let resolved = self.resolve(node, depth)?;
        let value = self.resolved_literal(resolved, depth)?;
        Some(self.located(node, resolved, value))
    }

    /// `value`, read at `read` for the expression `used`: located at `used` when `read` is in
    /// another file (the finding goes where the linted file brings the value in).
    fn located(&self, used: Ts<'t>, read: Ts<'t>, value: Value) -> Value {
        match self.module_of(read) == self.module_of(used) {
            true => value,
            false => value.moved_to(&used.byte_range()),
        }
    }

    fn resolved_literal(&self, node: Ts<'t>, depth: usize) -> Option<Value> {
        let span = node.byte_range();
        match node.kind() {
            "string" | "concatenated_string" => self.string(node, depth),
            "integer" | "float" => {
                let text = self.text(node).replace('_', "");
                let number = if node.kind() == "integer" {
                    serde_json::Number::from(text.parse::<i64>().ok()?)
                } else {
                    serde_json::Number::from_f64(text.parse::<f64>().ok()?)?
                };
                Some(Value::Number(number, span))
            }
            "unary_operator" if self.text(node).starts_with('-') => {
                match self.literal(node.child_by_field_name("argument")?, depth + 1)? {
                    Value::Number(number, _) => {
                        let negative = if let Some(i) = number.as_i64() {
                            serde_json::Number::from(-i)
                        } else {
                            serde_json::Number::from_f64(-number.as_f64()?)?
                        };
                        Some(Value::Number(negative, span))
                    }
                    _ => None,
                }
            }
            // `"Converts " + NAME`: strings joined.
            "binary_operator"
                if node
                    .child_by_field_name("operator")
                    .is_some_and(|operator| self.text(operator) == "+") =>
            {
                let left = self.literal(node.child_by_field_name("left")?, depth + 1)?;
                let right = self.literal(node.child_by_field_name("right")?, depth + 1)?;
                Some(made(&[left.as_str()?, right.as_str()?].concat(), &span))
            }
            "call" => self
                .builtin_call(node, depth)
                .or_else(|| self.model_json_schema(node, depth)),
            "true" => Some(Value::Bool(true, span)),
            "false" => Some(Value::Bool(false, span)),
            "none" => Some(Value::Null(span)),
            "dictionary" => {
                let mut members: Vec<Member> = Vec::new();
                let mut cursor = node.walk();
                for pair in node.named_children(&mut cursor) {
                    match pair.kind() {
                        "pair" => {
                            let key = pair.child_by_field_name("key")?;
                            let key_text = self.literal(key, depth + 1)?.as_str()?.to_string();
                            let value =
                                self.literal(pair.child_by_field_name("value")?, depth + 1)?;
                            // A repeated key keeps its first place and its last value.
                            match members.iter_mut().find(|member| member.key == key_text) {
                                Some(member) => member.value = value,
                                None => {
                                    members.push(Member::new(&key_text, key.byte_range(), value))
                                }
                            }
                        }
                        // `{**common, "x": …}`: the keys of another dict, in its order.
                        "dictionary_splat" => {
                            let Value::Object(spread, _) =
                                self.literal(pair.named_child(0)?, depth + 1)?
                            else {
                                return None;
                            };
                            for member in spread {
                                match members.iter_mut().find(|m| m.key == member.key) {
                                    Some(existing) => existing.value = member.value,
                                    None => members.push(member),
                                }
                            }
                        }
                        "comment" => {}
                        _ => return None,
                    }
                }
                Some(Value::Object(members, span))
            }
            "list" | "tuple" => {
                let mut items = Vec::new();
                let mut cursor = node.walk();
                for item in node.named_children(&mut cursor) {
                    if item.kind() != "comment" {
                        items.push(self.literal(item, depth + 1)?);
                    }
                }
                Some(Value::Array(items, span))
            }
            _ => None,
        }
    }

    /// A builtin's result on values read statically: `list(FORMATS)` or `tuple(…)` of a list
    /// or tuple, `", ".join(FORMATS)` of strings.
    fn builtin_call(&self, call: Ts<'t>, depth: usize) -> Option<Value> {
        let callee = call.child_by_field_name("function")?;
        let (positional, keywords) = self.arguments(call);
        let [argument] = positional[..] else {
            return None;
        };
        if !keywords.is_empty() || argument.kind() == "list_splat" {
            return None;
        }
        let span = call.byte_range();
        match callee.kind() {
            "identifier" if matches!(self.text(callee), "list" | "tuple") => {
                // Unless the file binds the name to something else.
                let name = self.text(callee);
                let builtin =
                    self.local(callee, name).is_none() && !self.module_binds(callee, name);
                builtin.then_some(())?;
                match self.literal(argument, depth + 1)? {
                    Value::Array(items, _) => Some(Value::Array(items, span)),
                    _ => None,
                }
            }
            "attribute" if self.text(callee.child_by_field_name("attribute")?) == "join" => {
                let separator = callee.child_by_field_name("object")?;
                if separator.kind() != "string" {
                    return None;
                }
                let separator = self.literal(separator, depth + 1)?;
                let Value::Array(items, _) = self.literal(argument, depth + 1)? else {
                    return None;
                };
                let items: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
                Some(made(&items?.join(separator.as_str()?), &span))
            }
            _ => None,
        }
    }

    /// A string literal, or adjacent ones, with the segments that locate its words.
    /// An f-string's fields that name values read statically are replaced by their text; the
    /// string then maps to the whole literal.
    fn string(&self, node: Ts<'t>, depth: usize) -> Option<Value> {
        let (text, start) = (self.text(node), node.start_byte());
        if let Some((value, _)) = super::py_string::decode(text, start) {
            return Some(Value::Str {
                value,
                raw: node.byte_range(),
                style: StrStyle::Py,
            });
        }
        let mut field = |name: &str| self.field_text(node, name, depth + 1);
        let (value, _) = super::py_string::decode_with(text, start, &mut field)?;
        Some(Value::made(&value, node.byte_range()))
    }

    /// What an f-string's `{NAME}` or `{Class.NAME}` becomes: a string as it is, an integer,
    /// `True`, `False` or `None` as Python formats them.
    fn field_text(&self, at: Ts<'t>, name: &str, depth: usize) -> Option<String> {
        // `{', '.join(FORMATS)}`: strings joined.
        if let Some((separator, items)) = super::py_string::joined(name) {
            let Value::Array(items, _) = self.literal(self.named(at, items)?, depth)? else {
                return None;
            };
            let items: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
            return Some(items?.join(separator));
        }
        let mut parts = name.split('.');
        let mut node = self.named(at, parts.next()?)?;
        for part in parts {
            if part == "value" {
                continue;
            }
            let owner = self.resolve(node, depth)?;
            node = self.member_of(owner, part, depth)?;
        }
        match self.literal(node, depth)? {
            Value::Str { value, .. } => Some(value),
            Value::Number(number, _) if number.is_i64() => Some(number.to_string()),
            Value::Bool(b, _) => Some(if b { "True" } else { "False" }.to_string()),
            Value::Null(_) => Some("None".to_string()),
            _ => None,
        }
    }

    /// `@mcp.tool(…)` on a function: the tool the official SDK's FastMCP makes of it.
    fn decorated_tool(&self, decorated: Ts<'t>) -> Option<Value> {
        let function = decorated.child_by_field_name("definition")?;
        if function.kind() != "function_definition" {
            return None;
        }
        let mut cursor = decorated.walk();
        let decorator = decorated
            .named_children(&mut cursor)
            .filter(|child| child.kind() == "decorator")
            .filter_map(|decorator| decorator.named_child(0))
            .find(|expression| is_tool_decorator(self, *expression))?;
        let arguments = match decorator.kind() {
            "call" => self.arguments(decorator),
            _ => Default::default(),
        };
        self.function_tool(function, arguments, decorated.byte_range())
    }

    /// A function added as a tool: `server.add_tool(fn, name=…, description=…)` (the official
    /// SDK's FastMCP), `server.add_tool(Tool.from_function(fn, …))` (FastMCP the standalone
    /// package) or `server.tool(…)(fn)`, the function this file's or one it imports. What is read
    /// from another file is located at `fn`.
    fn added_tool(&self, call: Ts<'t>) -> Option<Value> {
        let callee = call.child_by_field_name("function")?;
        let (mut positional, keywords) = self.arguments(call);
        let (function, arguments) = match callee.kind() {
            "attribute" if self.last_name(callee) == Some("add_tool") => {
                if positional.is_empty() {
                    return None;
                }
                let first = positional.remove(0);
                let made = self.resolve(first, 0)?;
                let from_function = made.kind() == "call"
                    && self.last_name(made.child_by_field_name("function")?)
                        == Some("from_function");
                if from_function {
                    let (mut given, named) = self.arguments(made);
                    if !positional.is_empty() || !keywords.is_empty() || given.len() != 1 {
                        return None;
                    }
                    (given.remove(0), (Vec::new(), named))
                } else {
                    (first, (positional, keywords))
                }
            }
            "call" if is_tool_decorator(self, callee) => {
                let [function] = positional[..] else {
                    return None;
                };
                if !keywords.is_empty() {
                    return None;
                }
                (function, self.arguments(callee))
            }
            _ => return None,
        };
        let definition = self.resolve(function, 0)?;
        if definition.kind() != "function_definition" {
            return None;
        }
        let tool = self.function_tool(definition, arguments, call.byte_range())?;
        Some(tool.kept_within(self.modules[0].range.end, &function.byte_range()))
    }

    /// The tool the framework makes of `function`, given the arguments of `tool(name=None,
    /// title=None, description=None, annotations=None, …)`.
    fn function_tool(
        &self,
        function: Ts<'t>,
        (positional, keywords): (Vec<Ts<'t>>, HashMap<&'t str, Ts<'t>>),
        span: Span,
    ) -> Option<Value> {
        let fastmcp = self.framework == Framework::FastMcp;
        // Arguments that change the tool in ways not read (`exclude_args`, `output_schema`, …).
        let known: &[&str] = match self.framework {
            Framework::Sdk => &[
                "name",
                "title",
                "description",
                "annotations",
                "structured_output",
                "icons",
                "meta",
            ],
            Framework::FastMcp => &[
                "name",
                "title",
                "description",
                "annotations",
                "tags",
                "icons",
                "meta",
                "enabled",
            ],
        };
        if keywords.keys().any(|key| !known.contains(key)) {
            return None;
        }
        let name_node = function.child_by_field_name("name")?;
        let function_name = self.text(name_node);
        // `tool(name=None, title=None, description=None, annotations=None, …)`.
        let argument = |index: usize, key: &str| {
            keywords
                .get(key)
                .copied()
                .or(positional.get(index).copied())
        };
        let mut members = Vec::new();
        let name = match argument(0, "name") {
            Some(node) => self.literal(node, 0)?,
            None => Value::Null(name_node.byte_range()),
        };
        let name = match name {
            Value::Null(_) => Value::made(function_name, name_node.byte_range()),
            Value::Str { .. } => name,
            _ => return None,
        };
        let name_span = name.span();
        members.push(Member::new("name", name_span.clone(), name));
        let title = match argument(1, "title") {
            Some(title) => self.optional_member("title", title)?,
            None => None,
        };
        if let Some(title) = title {
            members.push(title);
        } else if fastmcp {
            // FastMCP titles every tool after its name, as some clients drop untitled ones.
            let name = members[0].value.as_str()?.replace('-', "_");
            members.push(Member::new(
                "title",
                name_span.clone(),
                made(&title_case(&name), &name_span),
            ));
        }
        let given = argument(2, "description").map(|node| self.literal(node, 0));
        // The docstring is read when it is the description, and by FastMCP, which splits it
        // into the description and the parameters' descriptions.
        let docstring = match given {
            Some(Some(Value::Str { .. })) if !fastmcp => None,
            _ => self.docstring(function)?,
        };
        let parsed = match (&docstring, fastmcp) {
            (Some(docstring), true) => Some(fastmcp_docstring(docstring, self.source)?),
            _ => None,
        };
        let description = match given {
            Some(Some(Value::Null(_))) | None => match &parsed {
                Some(parsed) => parsed.description.clone(),
                None => docstring,
            },
            Some(Some(value @ Value::Str { .. })) => Some(value),
            Some(_) => return None,
        };
        // The SDK sends `""` for no docstring; FastMCP sends no description.
        let description = match description {
            Some(description) => Some(description),
            None if fastmcp => None,
            None => Some(Value::made("", name_node.byte_range())),
        };
        if let Some(description) = description {
            members.push(Member::new("description", description.span(), description));
        }
        let mut schema = self.arguments_schema(function, function_name, name_node.byte_range())?;
        if let Some(parsed) = parsed {
            parsed.describe(&mut schema);
        }
        members.push(Member::new("inputSchema", name_span.clone(), schema));
        let structured = keywords
            .get("structured_output")
            .map(|node| self.text(*node));
        if structured != Some("False")
            && let Some(schema) = self.output_schema(function, function_name)
        {
            members.push(Member::new("outputSchema", name_span, schema));
        }
        if let Some(annotations) = argument(3, "annotations")
            && self.resolve(annotations, 0)?.kind() != "none"
        {
            members.push(Member::new(
                "annotations",
                key_span(annotations),
                self.annotations(annotations)?,
            ));
        }
        Some(Value::Object(members, span))
    }

    /// The docstring of a function as `__doc__` holds it (`Some(None)`: it has none; `None`: it
    /// cannot be read).
    fn docstring(&self, function: Ts<'t>) -> Option<Option<Value>> {
        let body = function.child_by_field_name("body")?;
        let Some(first) = body.named_child(0) else {
            return Some(None);
        };
        if first.kind() != "expression_statement" || first.named_child_count() != 1 {
            return Some(None);
        }
        let expression = first.named_child(0)?;
        // An f-string is no docstring (bytes decode to nothing, and are none either): its
        // `string_start` holds the prefix.
        let formatted = |string: Ts<'t>| {
            string
                .child(0)
                .is_some_and(|start| self.text(start).contains(['f', 'F']))
        };
        let mut cursor = expression.walk();
        let is_format = match expression.kind() {
            "concatenated_string" => expression.named_children(&mut cursor).any(formatted),
            _ => formatted(expression),
        };
        match expression.kind() {
            "string" | "concatenated_string" if !is_format => Some(self.string(expression, 0)),
            _ => Some(None),
        }
    }

    /// The JSON Schema pydantic generates for a function's parameters, as the SDK's
    /// `func_metadata` models them: `{name}Arguments`, one property per parameter but the
    /// `Context` one, keys sorted as pydantic sorts them.
    fn arguments_schema(&self, function: Ts<'t>, function_name: &str, at: Span) -> Option<Value> {
        let parameters = function.child_by_field_name("parameters")?;
        let mut properties = Vec::new();
        let mut required = Vec::new();
        let mut cursor = parameters.walk();
        for parameter in parameters.named_children(&mut cursor) {
            let (name, annotation, default) = match parameter.kind() {
                "identifier" => (parameter, None, None),
                "typed_parameter" => (
                    parameter
                        .named_child(0)
                        .filter(|name| name.kind() == "identifier")?,
                    parameter.child_by_field_name("type"),
                    None,
                ),
                "default_parameter" | "typed_default_parameter" => (
                    parameter.child_by_field_name("name")?,
                    parameter.child_by_field_name("type"),
                    parameter.child_by_field_name("value"),
                ),
                "keyword_separator" | "positional_separator" | "comment" => continue,
                // `*args` and `**kwargs` become fields of their own kind; not read.
                _ => return None,
            };
            let name_text = self.text(name);
            if annotation.is_some_and(|annotation| self.is_context(annotation)) {
                continue;
            }
            // The SDK refuses such a function; so does this reading.
            if name_text.starts_with('_') {
                return None;
            }
            let name_span = name.byte_range();
            let fastmcp = self.framework == Framework::FastMcp;
            let (schema, is_required) = match annotation {
                Some(annotation) => self.field_schema(name, annotation, default, fastmcp)?,
                // No annotation: the SDK gives `{"title": name, "type": "string"}`.
                None if !fastmcp => {
                    let mut field = Field {
                        title: Some(Value::made(name_text, name_span.clone())),
                        ..Field::default()
                    };
                    if let Some(default) = default {
                        self.default(default, &mut field)?;
                    }
                    let is_required = field.default.is_none();
                    let mut schema = vec![("type", made("string", &name_span))];
                    field.apply(&mut schema);
                    (sorted(schema, &name_span), is_required)
                }
                None => return None,
            };
            properties.push(Member::new(name_text, name_span.clone(), schema));
            if is_required {
                required.push(Value::made(name_text, name_span));
            }
        }
        let member = |key: &str, value: Value| Member::new(key, at.clone(), value);
        let defs = self.defs.take();
        if !defs.is_empty() && self.framework == Framework::FastMcp {
            // FastMCP may inline the definitions when it serves them: not guessed.
            return None;
        }
        let defs = (!defs.is_empty()).then(|| member("$defs", defs_object(defs, &at)));
        let properties = member("properties", Value::Object(properties, at.clone()));
        let required =
            (!required.is_empty()).then(|| member("required", Value::Array(required, at.clone())));
        let schema = match self.framework {
            Framework::Sdk => [defs, Some(properties), required]
                .into_iter()
                .flatten()
                .chain([
                    member("title", made(&format!("{function_name}Arguments"), &at)),
                    member("type", made("object", &at)),
                ])
                .collect(),
            // FastMCP closes the object and sends its keys in this order.
            Framework::FastMcp => [
                Some(member("type", made("object", &at))),
                Some(member(
                    "additionalProperties",
                    Value::Bool(false, at.clone()),
                )),
                Some(properties),
                required,
            ]
            .into_iter()
            .flatten()
            .collect(),
        };
        Some(Value::Object(schema, at))
    }

    /// The schema of what a function returns, as the SDK publishes it for structured output:
    /// `dict[str, T]` as itself, other types it can read as a `result` property. `None` for no
    /// return annotation, a bare `dict`, and types not read (models, content blocks): the
    /// SDK sends no schema for content blocks, and a model's is not guessed.
    fn output_schema(&self, function: Ts<'t>, function_name: &str) -> Option<Value> {
        let annotation = function.child_by_field_name("return_type")?;
        let span = annotation.byte_range();
        let node = unwrap_type(annotation);
        let fastmcp = self.framework == Framework::FastMcp;
        let is_dict = |node: Ts<'t>| matches!(self.last_name(node), Some("dict" | "Dict"));
        if matches!(node.kind(), "generic_type" | "subscript") {
            let (base, arguments) = self.generic(node)?;
            if is_dict(base) && arguments.len() == 2 {
                let mut schema = self.type_schema(node, &mut Field::default(), 0)?;
                if !fastmcp {
                    schema.push(("title", made(&format!("{function_name}DictOutput"), &span)));
                }
                return Some(sorted(schema, &span));
            }
        }
        if is_dict(node) {
            // FastMCP sends a bare `dict` as an open object; the SDK sends no schema.
            let schema = self.type_schema(node, &mut Field::default(), 0)?;
            return fastmcp.then(|| sorted(schema, &span));
        }
        let mut field = Field::default();
        let result = self.type_schema(node, &mut field, 0);
        // A model returned is its own schema, not a `result`: not read yet.
        if !self.defs.take().is_empty() {
            return None;
        }
        let mut result = result?;
        if !fastmcp {
            field.title = field.title.or_else(|| Some(made("Result", &span)));
        } else if result
            .iter()
            .any(|(_, value)| value.as_str() == Some("null"))
        {
            return None;
        }
        field.apply(&mut result);
        let member = |key: &str, value: Value| Member::new(key, span.clone(), value);
        let properties = vec![member("result", sorted(result, &span))];
        let mut schema = vec![
            member("properties", Value::Object(properties, span.clone())),
            member(
                "required",
                Value::Array(vec![made("result", &span)], span.clone()),
            ),
        ];
        if fastmcp {
            schema.push(member("type", made("object", &span)));
            schema.push(member(
                "x-fastmcp-wrap-result",
                Value::Bool(true, span.clone()),
            ));
        } else {
            schema.push(member(
                "title",
                made(&format!("{function_name}Output"), &span),
            ));
            schema.push(member("type", made("object", &span)));
        }
        Some(Value::Object(schema, span))
    }

    /// The schema of one field (a parameter, or a model's attribute) as pydantic makes it, and
    /// whether it is required. FastMCP prunes the titles.
    fn field_schema(
        &self,
        name: Ts<'t>,
        annotation: Ts<'t>,
        default: Option<Ts<'t>>,
        prune_title: bool,
    ) -> Option<(Value, bool)> {
        let name_span = name.byte_range();
        let mut field = Field::default();
        let mut schema = self.type_schema(annotation, &mut field, 0)?;
        if let Some(default) = default {
            self.default(default, &mut field)?;
        }
        // pydantic titles no field whose type is a model (or an optional one): the model's
        // definition has the title.
        let is_null = |value: &Value| match value {
            Value::Object(members, _) => members.iter().any(|m| m.value.as_str() == Some("null")),
            _ => false,
        };
        let is_ref = |value: &Value| match value {
            Value::Object(members, _) => members.len() == 1 && members[0].key == "$ref",
            _ => false,
        };
        let is_model = match schema.as_slice() {
            [("$ref", _)] => true,
            [("anyOf", Value::Array(options, _))] => {
                options.len() == 2 && options.iter().any(is_ref) && options.iter().any(is_null)
            }
            _ => false,
        };
        if field.title.is_none() && !is_model && !prune_title {
            field.title = Some(Value::made(&title_case(self.text(name)), name_span.clone()));
        }
        let is_required = field.default.is_none();
        field.apply(&mut schema);
        if prune_title {
            schema.retain(|(key, _)| *key != "title");
        }
        Some((sorted(schema, &name_span), is_required))
    }

    /// Whether `class` is a pydantic model: `class Name(BaseModel)`.
    fn is_model(&self, class: Ts<'t>) -> bool {
        let Some(bases) = class.child_by_field_name("superclasses") else {
            return false;
        };
        let mut cursor = bases.walk();
        bases
            .named_children(&mut cursor)
            .any(|base| self.last_name(base) == Some("BaseModel"))
    }

    /// A pydantic model's schema as `model_json_schema()` makes it, without its `$defs`: the
    /// models it uses are added to `self.defs`. `None` for a model configured
    /// (`model_config`), inheriting from another model, or with a field not read.
    fn model_schema(&self, class: Ts<'t>, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH || !self.is_model(class) {
            return None;
        }
        self.spend()?;
        let name = class.child_by_field_name("name")?;
        let span = name.byte_range();
        let body = class.child_by_field_name("body")?;
        let mut properties = Vec::new();
        let mut required = Vec::new();
        let mut description = None;
        let mut cursor = body.walk();
        for (index, statement) in body.named_children(&mut cursor).enumerate() {
            match statement.kind() {
                "expression_statement" => {
                    let inner = statement.named_child(0)?;
                    if index == 0 && matches!(inner.kind(), "string" | "concatenated_string") {
                        // pydantic describes a model by its docstring, cleaned.
                        let docstring = self.string(inner, depth)?;
                        description = Some(Value::made(
                            &cleandoc(docstring.as_str()?),
                            docstring.span(),
                        ));
                        continue;
                    }
                    let annotation = inner.child_by_field_name("type");
                    let field = inner
                        .child_by_field_name("left")
                        .filter(|left| left.kind() == "identifier");
                    let (Some(annotation), Some(field)) = (annotation, field) else {
                        // `model_config = …`, a class variable, or an expression.
                        return None;
                    };
                    if inner.kind() != "assignment" || self.text(field).starts_with('_') {
                        return None;
                    }
                    let default = inner.child_by_field_name("right");
                    let (schema, is_required) =
                        self.field_schema(field, annotation, default, false)?;
                    properties.push(Member::new(self.text(field), field.byte_range(), schema));
                    if is_required {
                        required.push(Value::made(self.text(field), field.byte_range()));
                    }
                }
                "function_definition" | "decorated_definition" | "comment" | "pass_statement" => {}
                _ => return None,
            }
        }
        let member = |key: &str, value: Value| Member::new(key, span.clone(), value);
        let members = [
            description.map(|description| member("description", description)),
            Some(member(
                "properties",
                Value::Object(properties, span.clone()),
            )),
            (!required.is_empty())
                .then(|| member("required", Value::Array(required, span.clone()))),
            Some(member("title", made(self.text(name), &span))),
            Some(member("type", made("object", &span))),
        ];
        Some(Value::Object(members.into_iter().flatten().collect(), span))
    }

    /// `Model.model_json_schema()`: the model's schema, its definitions first.
    fn model_json_schema(&self, call: Ts<'t>, depth: usize) -> Option<Value> {
        let callee = call.child_by_field_name("function")?;
        if callee.kind() != "attribute"
            || self.text(callee.child_by_field_name("attribute")?) != "model_json_schema"
            || call.child_by_field_name("arguments")?.named_child_count() != 0
        {
            return None;
        }
        let class = self.resolve(callee.child_by_field_name("object")?, depth + 1)?;
        let outer = self.defs.take();
        let schema = self.model_schema(class, depth + 1);
        let defs = self.defs.replace(outer);
        let Value::Object(mut members, span) = schema? else {
            return None;
        };
        // A model that refers to itself is sent as a `$ref` to its own definition: not read yet.
        let name = self.text(class.child_by_field_name("name")?);
        if defs.iter().any(|(defined, _)| defined == name) {
            return None;
        }
        if !defs.is_empty() {
            members.insert(
                0,
                Member::new("$defs", span.clone(), defs_object(defs, &span)),
            );
        }
        Some(Value::Object(members, span))
    }

    /// Whether a parameter's annotation is FastMCP's `Context` (the SDK passes it; no field).
    fn is_context(&self, annotation: Ts<'t>) -> bool {
        let mut node = annotation;
        while matches!(node.kind(), "type" | "generic_type" | "subscript") {
            let Some(inner) = (match node.kind() {
                "subscript" => node.child_by_field_name("value"),
                _ => node.named_child(0),
            }) else {
                return false;
            };
            node = inner;
        }
        self.last_name(node) == Some("Context")
    }

    /// A parameter's default: a value, or `Field(default, description=…, …)`.
    fn default(&self, node: Ts<'t>, field: &mut Field) -> Option<()> {
        if node.kind() == "call"
            && self.last_name(node.child_by_field_name("function")?)? == "Field"
        {
            return self.field_arguments(node, field, true);
        }
        field.default = Some(self.literal(node, 0)?);
        Some(())
    }

    /// The keywords of `Field(…)` that make the schema; `None` for one that changes it in a
    /// way not read (an alias, a factory the schema shows, extra JSON Schema).
    fn field_arguments(&self, call: Ts<'t>, field: &mut Field, may_default: bool) -> Option<()> {
        let (positional, keywords) = self.arguments(call);
        match positional.as_slice() {
            [] => {}
            [default] if may_default => {
                if self.text(*default) != "..." {
                    field.default = Some(self.literal(*default, 0)?);
                }
            }
            _ => return None,
        }
        for (key, value) in keywords {
            let literal = || self.literal(value, 0);
            match key {
                "default" if may_default => field.default = Some(literal()?),
                "default_factory" if may_default => {}
                "description" => field.description = Some(literal()?),
                "title" => field.title = Some(literal()?),
                "ge" => field.constraints.push(("minimum", literal()?)),
                "le" => field.constraints.push(("maximum", literal()?)),
                "gt" => field.constraints.push(("exclusiveMinimum", literal()?)),
                "lt" => field.constraints.push(("exclusiveMaximum", literal()?)),
                "min_length" => field.lengths.push((true, literal()?)),
                "max_length" => field.lengths.push((false, literal()?)),
                "pattern" => field.constraints.push(("pattern", literal()?)),
                "examples" => field.constraints.push(("examples", literal()?)),
                // Validation only: the schema is the same.
                "strict" => {}
                _ => return None,
            }
        }
        Some(())
    }

    /// The JSON Schema pydantic makes of a type annotation, as unsorted keys; what `Annotated`
    /// adds to the field goes into `field`.
    fn type_schema(&self, node: Ts<'t>, field: &mut Field, depth: usize) -> Option<Schema> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.spend()?;
        let span = node.byte_range();
        match node.kind() {
            "type" => self.type_schema(node.named_child(0)?, field, depth + 1),
            "none" => Some(vec![("type", made("null", &span))]),
            "identifier" | "attribute" | "member_type" => {
                let name = self.last_name(node)?;
                let simple = |json_type: &str| Some(vec![("type", made(json_type, &span))]);
                match name {
                    "str" => simple("string"),
                    "int" => simple("integer"),
                    "float" => simple("number"),
                    "bool" => simple("boolean"),
                    "bytes" => Some(vec![
                        ("format", made("binary", &span)),
                        ("type", made("string", &span)),
                    ]),
                    "list" | "List" | "Sequence" => Some(vec![
                        ("items", Value::Object(Vec::new(), span.clone())),
                        ("type", made("array", &span)),
                    ]),
                    "dict" | "Dict" | "Mapping" => Some(vec![
                        ("additionalProperties", Value::Bool(true, span.clone())),
                        ("type", made("object", &span)),
                    ]),
                    "Any" => Some(Vec::new()),
                    "AnyUrl" => Some(vec![
                        ("format", made("uri", &span)),
                        ("minLength", Value::Number(1.into(), span.clone())),
                        ("type", made("string", &span)),
                    ]),
                    "HttpUrl" => Some(vec![
                        ("format", made("uri", &span)),
                        ("maxLength", Value::Number(2083.into(), span.clone())),
                        ("minLength", Value::Number(1.into(), span.clone())),
                        ("type", made("string", &span)),
                    ]),
                    "Path" | "datetime" | "date" | "UUID" => {
                        let format = match name {
                            "Path" => "path",
                            "datetime" => "date-time",
                            "date" => "date",
                            _ => "uuid",
                        };
                        Some(vec![
                            ("format", made(format, &span)),
                            ("type", made("string", &span)),
                        ])
                    }
                    _ if node.kind() == "identifier" => self.model_reference(node, depth),
                    _ => None,
                }
            }
            "union_type" | "binary_operator" => {
                let mut options = Vec::new();
                self.union_options(node, &mut options, depth)?;
                Some(vec![("anyOf", Value::Array(options, span))])
            }
            "generic_type" | "subscript" => {
                let (base, arguments) = self.generic(node)?;
                let name = self.last_name(base)?;
                let item = |index: usize| -> Option<Value> {
                    let schema =
                        self.type_schema(*arguments.get(index)?, &mut Field::default(), depth + 1)?;
                    Some(sorted(schema, &span))
                };
                match name {
                    "Optional" if arguments.len() == 1 => Some(vec![(
                        "anyOf",
                        Value::Array(
                            vec![item(0)?, sorted(vec![("type", made("null", &span))], &span)],
                            span.clone(),
                        ),
                    )]),
                    "Union" => {
                        let options: Option<Vec<Value>> = (0..arguments.len()).map(item).collect();
                        Some(vec![("anyOf", Value::Array(options?, span.clone()))])
                    }
                    "list" | "List" | "Sequence" if arguments.len() == 1 => {
                        Some(vec![("items", item(0)?), ("type", made("array", &span))])
                    }
                    "set" | "Set" | "frozenset" | "FrozenSet" if arguments.len() == 1 => {
                        Some(vec![
                            ("items", item(0)?),
                            ("type", made("array", &span)),
                            ("uniqueItems", Value::Bool(true, span.clone())),
                        ])
                    }
                    "dict" | "Dict" | "Mapping" if arguments.len() == 2 => {
                        let value =
                            self.type_schema(arguments[1], &mut Field::default(), depth + 1)?;
                        let value = if value.is_empty() {
                            Value::Bool(true, span.clone())
                        } else {
                            sorted(value, &span)
                        };
                        Some(vec![
                            ("additionalProperties", value),
                            ("type", made("object", &span)),
                        ])
                    }
                    "Literal" => self.literal_type(&arguments, &span),
                    "Annotated" => {
                        let (first, metadata) = arguments.split_first()?;
                        let schema = self.type_schema(*first, field, depth + 1)?;
                        for metadata in metadata {
                            let metadata = unwrap_type(*metadata);
                            if metadata.kind() == "call"
                                && self.last_name(metadata.child_by_field_name("function")?)?
                                    == "Field"
                            {
                                self.field_arguments(metadata, field, false)?;
                            }
                        }
                        Some(schema)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A model used as a type: `{"$ref": "#/$defs/Name"}`, its schema added to `self.defs` once
    /// (a model that refers to itself included).
    fn model_reference(&self, node: Ts<'t>, depth: usize) -> Option<Schema> {
        let class = self.resolve(node, depth + 1)?;
        if class.kind() != "class_definition" || !self.is_model(class) {
            return None;
        }
        let name = self.text(class.child_by_field_name("name")?);
        let span = node.byte_range();
        let known = self
            .defs
            .borrow()
            .iter()
            .any(|(defined, _)| defined == name);
        if !known {
            // Placed first, as a model refers to itself.
            self.defs
                .borrow_mut()
                .push((name.to_string(), Value::Null(span.clone())));
            let schema = self.model_schema(class, depth + 1)?;
            let mut defs = self.defs.borrow_mut();
            let slot = defs.iter_mut().find(|(defined, _)| defined == name)?;
            slot.1 = schema;
        }
        Some(vec![("$ref", made(&format!("#/$defs/{name}"), &span))])
    }

    /// `A | B | None`, flattened.
    fn union_options(&self, node: Ts<'t>, options: &mut Vec<Value>, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let node = unwrap_type(node);
        if matches!(node.kind(), "union_type" | "binary_operator") {
            if node.kind() == "binary_operator"
                && self.text(node.child_by_field_name("operator")?) != "|"
            {
                return None;
            }
            let mut cursor = node.walk();
            let sides: Vec<Ts<'t>> = node.named_children(&mut cursor).collect();
            for side in sides {
                self.union_options(side, options, depth + 1)?;
            }
            return Some(());
        }
        let schema = self.type_schema(node, &mut Field::default(), depth + 1)?;
        options.push(sorted(schema, &node.byte_range()));
        Some(())
    }

    /// The base and the arguments of `list[str]` or `typing.Dict[str, Any]`.
    fn generic(&self, node: Ts<'t>) -> Option<(Ts<'t>, Vec<Ts<'t>>)> {
        let mut cursor = node.walk();
        match node.kind() {
            "generic_type" => {
                let base = node.named_child(0)?;
                let parameters = node.named_child(1)?;
                let arguments = parameters.named_children(&mut cursor).collect();
                Some((base, arguments))
            }
            _ => {
                let base = node.child_by_field_name("value")?;
                let arguments = node
                    .children_by_field_name("subscript", &mut cursor)
                    .collect();
                Some((base, arguments))
            }
        }
    }

    /// `Literal["a", "b"]`: an enum (a `const` for one value), typed when all values are of
    /// one JSON type.
    fn literal_type(&self, arguments: &[Ts<'t>], span: &Span) -> Option<Schema> {
        let mut values = Vec::new();
        for argument in arguments {
            let value = self.literal(unwrap_type(*argument), 0)?;
            if matches!(value, Value::Null(_) | Value::Object(..) | Value::Array(..)) {
                return None;
            }
            values.push(value);
        }
        let json_type = |value: &Value| match value {
            Value::Str { .. } => "string",
            Value::Bool(..) => "boolean",
            Value::Number(number, _) if number.is_i64() => "integer",
            _ => "number",
        };
        let first = json_type(values.first()?);
        let one_type = values.iter().all(|value| json_type(value) == first);
        let mut schema = match values.len() {
            1 => vec![("const", values.pop()?)],
            _ => vec![("enum", Value::Array(values, span.clone()))],
        };
        if one_type {
            schema.push(("type", made(first, span)));
        }
        Some(schema)
    }
}

/// Whose `@tool` decorator a file uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Framework {
    /// The official SDK's FastMCP (`mcp.server.fastmcp`, SDK 2's `MCPServer`).
    Sdk,
    /// FastMCP the standalone package (`from fastmcp import FastMCP`), as its current release
    /// makes tools.
    FastMcp,
}

/// What FastMCP makes of a docstring: the tool's description and its parameters'.
struct FastMcpDocstring {
    description: Option<Value>,
    /// Each parameter's description, in the docstring's order, with where it is written.
    parameters: Vec<(String, String, Span)>,
}

impl FastMcpDocstring {
    /// Gives each property of `schema` the docstring describes, and that has no description
    /// of its own (`Field(description=…)` wins), the docstring's words, after its other keys.
    fn describe(self, schema: &mut Value) {
        let Value::Object(members, _) = schema else {
            return;
        };
        let Some(Value::Object(properties, _)) = members
            .iter_mut()
            .find(|member| member.key == "properties")
            .map(|member| &mut member.value)
        else {
            return;
        };
        for (name, description, at) in self.parameters {
            let Some(Value::Object(property, _)) = properties
                .iter_mut()
                .find(|member| member.key == name)
                .map(|member| &mut member.value)
            else {
                continue;
            };
            if !property.iter().any(|member| member.key == "description") {
                let value = made(&description, &at);
                property.push(Member::new("description", at, value));
            }
        }
    }
}

/// FastMCP's reading of a docstring (read from `source`; `fastmcp.utilities.docstring_parsing`,
/// griffe's Google-style parser): `inspect.getdoc`'s cleaned text, split at its first section
/// (`Args:`, `Returns:`, `Raises:`, `Note:`, …) into the description before it and the
/// parameters an `Args:` section describes. A docstring without such a section is the
/// description whole, mapped word for word. `None` for one that may be NumPy or Sphinx style
/// (underlined headings, `:param x:` fields), which FastMCP reads with other parsers, or that
/// starts with a section: not guessed.
fn fastmcp_docstring(docstring: &Value, source: &str) -> Option<FastMcpDocstring> {
    let text = cleandoc(docstring.as_str()?);
    let raw = docstring.span();
    let lines: Vec<&str> = text.split('\n').collect();
    // Indents are counted in spaces; another leading whitespace (`\u{3000}`) is not read.
    if lines.iter().any(|line| {
        line.chars()
            .take_while(|c| c.is_whitespace())
            .any(|c| c != ' ')
    }) {
        return None;
    }
    let Some(google) = google_sections(&lines).ok()? else {
        let other_style = lines.iter().any(|line| {
            let line = line.trim();
            line.starts_with(':') || (!line.is_empty() && line.chars().all(|c| c == '-'))
        });
        if other_style {
            return None;
        }
        // Mapped word for word where the docstring's source is at hand and cleans the same.
        let description = match docstring {
            Value::Str {
                style: StrStyle::Py,
                ..
            } => match super::py_string::cleaned(&source[raw.clone()], raw.start) {
                Some((value, _)) if value == text => Value::Str {
                    value,
                    raw: raw.clone(),
                    style: StrStyle::PyDoc,
                },
                _ => Value::made(&text, raw.clone()),
            },
            _ => Value::made(&text, raw.clone()),
        };
        return Some(FastMcpDocstring {
            description: Some(description),
            parameters: Vec::new(),
        });
    };
    let (summary, parameters) = google;
    // Each part is located at its lines of the docstring, where they map one to one.
    let lines = docstring_lines(source, &raw);
    let at = |range: Range<usize>| {
        let spans = lines.as_ref()?.get(range)?;
        let start = spans.first()?.start;
        let end = spans.iter().rev().find(|span| !span.is_empty())?.end;
        Some(start..end)
    };
    let (summary, summary_lines) = summary?;
    Some(FastMcpDocstring {
        description: Some(Value::made(
            &summary,
            at(summary_lines).unwrap_or(raw.clone()),
        )),
        parameters: parameters
            .into_iter()
            .map(|(name, text, range)| (name, text, at(range).unwrap_or(raw.clone())))
            .collect(),
    })
}

/// Where each line of a docstring that `inspect.cleandoc` leaves is written (`raw`: the
/// literal), without its indentation and trailing spaces; `None` when the literal's lines are
/// not the docstring's one to one (an escape, literals joined).
fn docstring_lines(source: &str, raw: &Span) -> Option<Vec<Span>> {
    let literal = source.get(raw.clone())?;
    let prefix = literal.find(['"', '\''])?;
    let quotes = &literal[prefix..];
    let quote = match quotes.starts_with("\"\"\"") || quotes.starts_with("\'\'\'") {
        true => &quotes[..3],
        false => &quotes[..1],
    };
    let start = raw.start + prefix + quote.len();
    let end = raw.end.checked_sub(quote.len())?;
    let content = source.get(start..end)?;
    if content.contains('\\') || content.contains(quote) || !literal.ends_with(quote) {
        return None;
    }
    let mut spans = Vec::new();
    let mut offset = start;
    for line in content.split('\n') {
        let indent = line.len() - line.trim_start().len();
        let text = line.trim_end().len().max(indent);
        spans.push(offset + indent..offset + text);
        offset += line.len() + 1;
    }
    // cleandoc drops the blank lines it starts with.
    let blank = spans.iter().take_while(|span| span.is_empty()).count();
    Some(spans.split_off(blank))
}

/// What [`google_sections`] finds: the text before the first section (`None`: there is none)
/// and the lines it is on, and each parameter an `Args:` section describes, its description
/// and its lines.
type Sections = (
    Option<(String, Range<usize>)>,
    Vec<(String, String, Range<usize>)>,
);

/// The Google-style sections griffe finds in `lines` (a cleaned docstring), when one of them
/// is structure FastMCP splits at. `Err` for a section not read.
fn google_sections(lines: &[&str]) -> Result<Option<Sections>, ()> {
    let blank = |index: usize| lines.get(index).is_some_and(|line| line.trim().is_empty());
    let indented = |index: usize| {
        lines
            .get(index)
            .is_some_and(|line| !line.trim().is_empty() && line.starts_with(' '))
    };
    let mut summary: Option<(String, Range<usize>)> = None;
    let mut before_first: Vec<&str> = Vec::new();
    let mut sections_seen = false;
    let mut structured = false;
    let mut parameters = Vec::new();
    let mut in_code = false;
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        let fence = line.trim_start_matches(' ').starts_with("```");
        if in_code || fence {
            in_code = in_code != fence;
            if !sections_seen {
                before_first.push(line);
            }
            index += 1;
            continue;
        }
        let Some(kind) = heading(line) else {
            if !sections_seen {
                before_first.push(line);
            }
            index += 1;
            continue;
        };
        let one_below = indented(index + 1);
        let two_below =
            !blank(index + 2) && lines.get(index + 2).is_some_and(|l| l.starts_with(' '));
        let blank_above = index == 0 || blank(index - 1);
        if !(one_below || two_below) || !blank_above || (two_below && blank(index + 1)) {
            if !sections_seen {
                before_first.push(line);
            }
            index += 1;
            continue;
        }
        let (items, last) = block_items(lines, index + 1);
        let kind = kind.to_lowercase();
        if !sections_seen {
            sections_seen = true;
            if before_first.iter().any(|line| !line.is_empty()) {
                let text = before_first.join("\n").trim_end_matches('\n').to_string();
                summary = Some((text, 0..before_first.len()));
            }
        }
        // A section none of whose items griffe reads is dropped, and is no structure.
        match section_kind(&kind) {
            Some(SectionKind::Parameters) => {
                for (start, item) in items {
                    let Some((name, first)) = item[0].split_once(':') else {
                        continue;
                    };
                    // `path (str): …`: the name before the type.
                    let name = match name.split_once('(') {
                        Some((plain, _)) if name.ends_with(')') => plain.trim(),
                        _ => name,
                    };
                    let mut description = vec![first.trim_start()];
                    description.extend(item[1..].iter().copied());
                    let description = description.join("\n").trim_end_matches('\n').to_string();
                    parameters.push((name.to_string(), description, start..start + item.len()));
                    structured = true;
                }
            }
            Some(SectionKind::Items) => structured |= !items.is_empty(),
            Some(SectionKind::Named) => {
                structured |= items.iter().any(|(_, item)| item[0].contains(':'));
            }
            // Read by rules of their own (`Attributes:`, `Methods:`, …): not guessed.
            Some(SectionKind::Other) => return Err(()),
            // An admonition (`Note:`): structure only when it is one of Napoleon's sections.
            None => structured |= SECTION_ADMONITIONS.contains(&kind.replace(' ', "-").as_str()),
        }
        index = last + 1;
    }
    Ok(structured.then_some((summary, parameters)))
}

enum SectionKind {
    /// `Args:`: `name (type): description` items.
    Parameters,
    /// `Returns:`, `Examples:`: read whatever their items say.
    Items,
    /// `Raises:`: items that are `Type: description`.
    Named,
    Other,
}

/// griffe's Google-style section titles, by kind.
fn section_kind(title: &str) -> Option<SectionKind> {
    match title {
        "args" | "arguments" | "params" | "parameters" => Some(SectionKind::Parameters),
        "returns" | "yields" | "receives" | "examples" => Some(SectionKind::Items),
        "raises" | "exceptions" | "warns" | "warnings" => Some(SectionKind::Named),
        "keyword args" | "keyword arguments" | "other args" | "other arguments"
        | "other params" | "other parameters" | "type args" | "type arguments" | "type params"
        | "type parameters" | "attributes" | "functions" | "methods" | "classes"
        | "type aliases" | "modules" => Some(SectionKind::Other),
        _ => None,
    }
}

/// The admonitions FastMCP counts as structure that ends the description.
const SECTION_ADMONITIONS: &[&str] = &[
    "attention",
    "caution",
    "danger",
    "error",
    "example",
    "hint",
    "important",
    "note",
    "notes",
    "raise",
    "references",
    "return",
    "see-also",
    "tip",
    "todo",
    "warning",
    "yield",
];

/// The title of a heading line (`Args:`, `Note: Title`), as griffe's
/// `^(?P<type>[\w][\s\w-]*):(\s+(?P<title>[^\s].*))?\s*$` matches it.
fn heading(line: &str) -> Option<&str> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let (kind, rest) = line.split_once(':')?;
    let first = kind.chars().next()?;
    let fits = word(first)
        && kind
            .chars()
            .all(|c| word(c) || c.is_whitespace() || c == '-');
    let after = rest.is_empty() || rest.starts_with(char::is_whitespace);
    (fits && after).then_some(kind)
}

/// griffe's `_read_block_items`: the items of the indented block that starts at `start` (each
/// its lines without the item's indent), and the index of its last line.
fn block_items<'a>(lines: &[&'a str], start: usize) -> (Vec<(usize, Vec<&'a str>)>, usize) {
    let mut index = start;
    while lines.get(index).is_some_and(|line| line.trim().is_empty()) {
        index += 1;
    }
    let Some(first) = lines.get(index) else {
        return (Vec::new(), index.saturating_sub(1));
    };
    let indent = first.len() - first.trim_start().len();
    if indent == 0 {
        return (Vec::new(), index.saturating_sub(1));
    }
    let mut items = Vec::new();
    let mut item = (index, vec![&first[indent..]]);
    index += 1;
    while let Some(line) = lines.get(index) {
        if line.trim().is_empty() {
            item.1.push("");
        } else if line.starts_with(&" ".repeat(indent * 2)) {
            item.1.push(&line[indent * 2..]);
        } else if line.starts_with(&" ".repeat(indent + 1)) {
            item.1.push(line.trim_start());
        } else if line.starts_with(&" ".repeat(indent)) {
            items.push(std::mem::replace(&mut item, (index, vec![&line[indent..]])));
        } else {
            break;
        }
        index += 1;
    }
    items.push(item);
    (items, index - 1)
}

/// Python's `inspect.cleandoc`: tabs expanded, the first line's leading whitespace and the
/// other lines' common indentation removed, blank lines at either end dropped.
fn cleandoc(doc: &str) -> String {
    let expanded: Vec<String> = doc.split('\n').map(expand_tabs).collect();
    let margin = expanded
        .iter()
        .skip(1)
        .filter_map(|line| {
            let content = line.trim_start().chars().count();
            (content > 0).then(|| line.chars().count() - content)
        })
        .min();
    let mut lines: Vec<String> = expanded
        .iter()
        .enumerate()
        .map(|(index, line)| match (index, margin) {
            (0, _) => line.trim_start().to_string(),
            (_, Some(margin)) => line.chars().skip(margin).collect(),
            (_, None) => line.clone(),
        })
        .collect();
    while lines.last().is_some_and(|line| line.is_empty()) {
        lines.pop();
    }
    let leading = lines.iter().take_while(|line| line.is_empty()).count();
    lines[leading..].join("\n")
}

/// A line with its tabs expanded to Python's default stops of 8.
fn expand_tabs(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut column = 0;
    for c in line.chars() {
        match c {
            '\t' => {
                let spaces = 8 - column % 8;
                out.extend(std::iter::repeat_n(' ', spaces));
                column += spaces;
            }
            '\r' | '\n' => {
                out.push(c);
                column = 0;
            }
            _ => {
                out.push(c);
                column += 1;
            }
        }
    }
    out
}

/// Names and what they are bound to (`None`: bound more than once).
type Bindings<'t> = HashMap<&'t str, Option<Ts<'t>>>;

/// Keys of a schema before they are sorted.
type Schema = Vec<(&'static str, Value)>;

/// What a parameter's default and `Field(…)` add to its schema.
#[derive(Default)]
struct Field {
    default: Option<Value>,
    description: Option<Value>,
    title: Option<Value>,
    constraints: Vec<(&'static str, Value)>,
    /// `min_length` (true) and `max_length`: `minLength` on a string, `minItems` on an array.
    lengths: Vec<(bool, Value)>,
}

impl Field {
    fn apply(self, schema: &mut Schema) {
        let is_array = schema
            .iter()
            .any(|(key, value)| *key == "type" && value.as_str() == Some("array"));
        for (min, value) in self.lengths {
            let key = match (min, is_array) {
                (true, false) => "minLength",
                (false, false) => "maxLength",
                (true, true) => "minItems",
                (false, true) => "maxItems",
            };
            schema.push((key, value));
        }
        schema.extend(self.constraints);
        for (key, value) in [
            ("default", self.default),
            ("description", self.description),
            ("title", self.title),
        ] {
            if let Some(value) = value {
                schema.retain(|(k, _)| *k != key);
                schema.push((key, value));
            }
        }
    }
}

/// `$defs`: the models by name, sorted as pydantic sorts keys.
fn defs_object(mut defs: Vec<(String, Value)>, span: &Span) -> Value {
    defs.sort_by(|(a, _), (b, _)| a.cmp(b));
    let members = defs
        .into_iter()
        .map(|(name, schema)| Member::new(&name, schema.span(), schema))
        .collect();
    Value::Object(members, span.clone())
}

/// A schema's keys sorted as pydantic sorts them.
fn sorted(mut schema: Schema, span: &Span) -> Value {
    schema.sort_by_key(|(key, _)| *key);
    let members = schema
        .into_iter()
        .map(|(key, value)| {
            let key_span = value.span();
            Member::new(key, key_span, value)
        })
        .collect();
    Value::Object(members, span.clone())
}

fn made(text: &str, span: &Span) -> Value {
    Value::made(text, span.clone())
}

/// The names a module binds at its top level, as [`scope_bindings`]; a name the file changes
/// anywhere (`NAME += …`, `NAME[k] = …`, `NAME.key = …`, `NAME.append(…)`, `global NAME` in a
/// function) is bound to nothing: its value is known at run time only.
fn module_bindings<'t>(source: &'t str, module: Ts<'t>) -> Bindings<'t> {
    const MUTATORS: &[&str] = &[
        "append",
        "extend",
        "insert",
        "remove",
        "pop",
        "popitem",
        "clear",
        "update",
        "setdefault",
        "add",
        "discard",
        "sort",
        "reverse",
    ];
    let mut bindings = scope_bindings(source, module);
    // The name an assignment to `target` changes: `x` of `x[k]`, `x.key`, `x.a.b`.
    let base = |mut target: Ts<'t>| {
        while let Some(object) = match target.kind() {
            "subscript" => target.child_by_field_name("value"),
            "attribute" => target.child_by_field_name("object"),
            _ => None,
        } {
            target = object;
        }
        (target.kind() == "identifier").then(|| &source[target.byte_range()])
    };
    let mut changed = Vec::new();
    each_node(module, |node| match node.kind() {
        "augmented_assignment" => changed.extend(node.child_by_field_name("left").and_then(base)),
        "assignment" => changed.extend(
            node.child_by_field_name("left")
                .filter(|left| matches!(left.kind(), "subscript" | "attribute"))
                .and_then(base),
        ),
        "call" => changed.extend(
            node.child_by_field_name("function")
                .filter(|callee| callee.kind() == "attribute")
                .filter(|callee| {
                    callee
                        .child_by_field_name("attribute")
                        .is_some_and(|method| MUTATORS.contains(&&source[method.byte_range()]))
                })
                .and_then(|callee| callee.child_by_field_name("object"))
                .and_then(base),
        ),
        "global_statement" => {
            let mut cursor = node.walk();
            changed.extend(
                node.named_children(&mut cursor)
                    .map(|name| &source[name.byte_range()]),
            );
        }
        _ => {}
    });
    // Bound to nothing even when imported: a name both bound and imported is read as neither.
    for name in changed {
        bindings.insert(name, None);
    }
    bindings
}

/// The names a module or a class body binds, to what: `NAME = value`, `class Name` and `def name`; a name
/// bound twice is bound to nothing (which of the two holds depends on the run).
fn scope_bindings<'t>(source: &'t str, scope: Ts<'t>) -> Bindings<'t> {
    let body = match scope.kind() {
        "class_definition" => scope.child_by_field_name("body"),
        _ => Some(scope),
    };
    let mut bindings = Bindings::new();
    let Some(body) = body else {
        return bindings;
    };
    let mut cursor = body.walk();
    for statement in body.named_children(&mut cursor) {
        let (name, value) = match statement.kind() {
            "expression_statement" => {
                let Some(assignment) = statement
                    .named_child(0)
                    .filter(|a| a.kind() == "assignment")
                else {
                    continue;
                };
                match (
                    assignment.child_by_field_name("left"),
                    assignment.child_by_field_name("right"),
                ) {
                    (Some(left), Some(right)) if left.kind() == "identifier" => (left, right),
                    _ => continue,
                }
            }
            "class_definition" | "function_definition" => {
                match statement.child_by_field_name("name") {
                    Some(name) => (name, statement),
                    None => continue,
                }
            }
            _ => continue,
        };
        bindings
            .entry(&source[name.byte_range()])
            .and_modify(|bound| *bound = None)
            .or_insert(Some(value));
    }
    bindings
}

/// The names a function binds (Python's local scope): its parameters and the names declared
/// `nonlocal` to nothing, as their values come at run time; a name assigned once (`x = value`,
/// anywhere in the body outside nested functions and classes) or defined once (`def`,
/// `class`) to that; a name bound more than once, or by anything else (a loop, `with … as`, an
/// import, `+=`, unpacking), to nothing. Names declared `global` are the module's.
fn function_bindings<'t>(source: &'t str, function: Ts<'t>) -> Bindings<'t> {
    let mut bindings = Bindings::new();
    let bind = |bindings: &mut Bindings<'t>, name: Ts<'t>, value: Option<Ts<'t>>| {
        bindings
            .entry(&source[name.byte_range()])
            .and_modify(|bound| *bound = None)
            .or_insert(value);
    };
    // The names in a binding target (`a`, `a, b`, `(a, [b])`), each bound to nothing.
    let unknown = |bindings: &mut Bindings<'t>, target: Ts<'t>| {
        each_node(target, |node| {
            if node.kind() == "identifier" {
                bindings.insert(&source[node.byte_range()], None);
            }
        });
    };
    if let Some(parameters) = function.child_by_field_name("parameters") {
        let mut cursor = parameters.walk();
        for parameter in parameters.named_children(&mut cursor) {
            let name = match parameter.kind() {
                "identifier" => Some(parameter),
                _ => parameter
                    .child_by_field_name("name")
                    .or_else(|| parameter.named_child(0)),
            };
            if let Some(name) = name {
                unknown(&mut bindings, name);
            }
        }
    }
    let mut global = Vec::new();
    // Depth first with a stack of its own: a body nested thousands deep is no deeper a call.
    let mut stack: Vec<Ts<'t>> = function.child_by_field_name("body").into_iter().collect();
    while let Some(node) = stack.pop() {
        let mut cursor = node.walk();
        let children: Vec<Ts<'t>> = node.named_children(&mut cursor).collect();
        for child in children.into_iter().rev() {
            match child.kind() {
                "function_definition" | "class_definition" => {
                    if let Some(name) = child.child_by_field_name("name") {
                        bind(&mut bindings, name, Some(child));
                    }
                    // Their default values run here; their bodies are scopes of their own.
                    stack.extend(child.child_by_field_name("parameters"));
                    continue;
                }
                "lambda"
                | "list_comprehension"
                | "dictionary_comprehension"
                | "set_comprehension"
                | "generator_expression" => continue,
                "assignment" => match (
                    child.child_by_field_name("left"),
                    child.child_by_field_name("right"),
                ) {
                    (Some(left), Some(right)) if left.kind() == "identifier" => {
                        bind(&mut bindings, left, Some(right));
                    }
                    (Some(left), _) => unknown(&mut bindings, left),
                    _ => {}
                },
                "augmented_assignment" | "for_statement" | "for_in_clause" => {
                    if let Some(left) = child.child_by_field_name("left") {
                        unknown(&mut bindings, left);
                    }
                }
                "named_expression" => {
                    if let Some(name) = child.child_by_field_name("name") {
                        unknown(&mut bindings, name);
                    }
                }
                "as_pattern_target"
                | "import_statement"
                | "import_from_statement"
                | "delete_statement"
                | "nonlocal_statement" => unknown(&mut bindings, child),
                "global_statement" => {
                    let mut inner = child.walk();
                    global.extend(
                        child
                            .named_children(&mut inner)
                            .map(|name| &source[name.byte_range()]),
                    );
                    continue;
                }
                _ => {}
            }
            stack.push(child);
        }
    }
    for name in global {
        bindings.remove(name);
    }
    bindings
}

/// The class a method's node is written in.
fn enclosing_class(node: Ts<'_>) -> Option<Ts<'_>> {
    let mut node = node.parent()?;
    while node.kind() != "class_definition" {
        node = node.parent()?;
    }
    Some(node)
}

/// A node with its `type` wrapper taken off.
fn unwrap_type(node: Ts<'_>) -> Ts<'_> {
    match node.kind() {
        "type" => node.named_child(0).unwrap_or(node),
        _ => node,
    }
}

/// `@x.tool` or `@x.tool(…)`.
fn is_tool_decorator<'t>(reader: &Reader<'t>, expression: Ts<'t>) -> bool {
    let callee = match expression.kind() {
        "call" => expression.child_by_field_name("function"),
        _ => Some(expression),
    };
    callee.is_some_and(|callee| {
        callee.kind() == "attribute" && reader.last_name(callee) == Some("tool")
    })
}

/// Where `key=value` of a call is written: the keyword (the value itself when it is passed by
/// position).
fn key_span(value: Ts<'_>) -> Span {
    value
        .parent()
        .filter(|parent| parent.kind() == "keyword_argument")
        .and_then(|parent| parent.child_by_field_name("name"))
        .map_or_else(|| value.byte_range(), |name| name.byte_range())
}

/// `read_only_hint` as `readOnlyHint`; a name without `_` as it is.
fn camel_case(name: &str) -> String {
    let mut parts = name.split('_');
    let mut camel = parts.next().unwrap_or_default().to_string();
    for part in parts {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            camel.extend(first.to_uppercase());
            camel.push_str(chars.as_str());
        }
    }
    camel
}

/// Python's `str.title()` of a field name with `_` as spaces, as pydantic titles fields:
/// `max_results` → `Max Results`, `url2path` → `Url2Path`.
fn title_case(name: &str) -> String {
    let mut title = String::with_capacity(name.len());
    let mut after_cased = false;
    for c in name.replace('_', " ").chars() {
        if c.is_alphabetic() {
            if after_cased {
                title.extend(c.to_lowercase());
            } else {
                title.extend(c.to_uppercase());
            }
            after_cased = true;
        } else {
            title.push(c);
            after_cased = false;
        }
    }
    title
}

#[cfg(test)]
mod tests {
    use serde_json::{Value as Json, json};

    use super::super::{Language, parse};

    fn tools(source: &str) -> Json {
        parse(source, Language::Python, None).unwrap().to_json()["tools"].clone()
    }

    /// The listing of a fixture, as the official SDK (mcp 1.30.0, pydantic 2.14) sent it.
    fn listing(name: &str) -> Json {
        let path = format!(
            "{}/fixtures/sources/python/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        serde_json::from_str::<Json>(&text).unwrap()["tools"].clone()
    }

    fn fixture(name: &str) -> String {
        let path = format!(
            "{}/fixtures/sources/python/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(path).unwrap()
    }

    fn names(tools: &Json) -> Vec<&str> {
        let tools = tools.as_array().unwrap();
        tools
            .iter()
            .map(|tool| tool["name"].as_str().unwrap())
            .collect()
    }

    /// Same tools, same keys in the same order.
    fn assert_same(read: &Json, listed: &Json) {
        assert_eq!(read.to_string(), listed.to_string());
    }

    #[test]
    fn fastmcp_tools_are_the_tools_the_sdk_lists() {
        assert_same(
            &tools(&fixture("server.py")),
            &listing("server.listing.json"),
        );
    }

    #[test]
    fn standalone_fastmcp_tools_are_the_tools_it_lists() {
        // Listed by fastmcp 4.2.3; `_meta` (FastMCP's tags, not read by a model) is not read.
        let mut listed = listing("fastmcp_server.listing.json");
        for tool in listed.as_array_mut().unwrap() {
            tool.as_object_mut().unwrap().remove("_meta");
        }
        assert_same(&tools(&fixture("fastmcp_server.py")), &listed);
    }

    #[test]
    fn fastmcp_docstrings_are_cleaned_and_split_at_their_sections() {
        let source = "from fastmcp import FastMCP\nmcp = FastMCP('x')\n@mcp.tool\ndef a():\n    \"\"\"\n    First.\n\n\t  Indented.\n      \"\"\"\n@mcp.tool\ndef b(path: str):\n    \"\"\"Read.\n\n    Args:\n        path: The file.\n    \"\"\"\n@mcp.tool(exclude_args=['x'])\ndef c(x: str = ''):\n    'C.'\n@mcp.tool\ndef d(x):\n    'D.'\n";
        let read = tools(source);
        assert_eq!(names(&read), ["a", "b"], "{read}");
        // `Args:` describes the parameters, and the description ends before it.
        assert_eq!(read[1]["description"], "Read.");
        assert_eq!(
            read[1]["inputSchema"]["properties"]["path"]["description"],
            "The file."
        );
        // As Python 3.11's inspect.cleandoc gives it: the tab expands to 8 columns, the margin
        // is the smallest indent of a line with text (4), a last line of spaces stays.
        assert_eq!(read[0]["description"], "First.\n\n      Indented.\n  ");
        assert_eq!(
            super::cleandoc("  One.\n    two\n  three\n\n"),
            "One.\n  two\nthree"
        );
    }

    #[test]
    fn fastmcp_splits_docstrings_as_griffe_does() {
        // Each docstring with what fastmcp-slim 4.2.3's `parse_docstring` (griffelib 2.4.1)
        // makes of it.
        let cases = [
            (
                "Execute a SQL query.\n\nArgs:\n    sql: SQL query to execute (DuckDB SQL dialect)\n\nReturns:\n    JSON string with query results\n",
                "{\"description\": \"Execute a SQL query.\", \"parameters\": {\"sql\": \"SQL query to execute (DuckDB SQL dialect)\"}}",
            ),
            (
                "Read a file.\n\nArgs:\n    path (str): The file,\n        across lines.\n    n: Count.\n      Odd indent.\n\n    Some more text.\n",
                "{\"description\": \"Read a file.\", \"parameters\": {\"path\": \"The file,\\nacross lines.\", \"n\": \"Count.\\nOdd indent.\"}}",
            ),
            (
                "Plain.\n\nRules:\n    do this\n",
                "{\"description\": \"Plain.\\n\\nRules:\\n    do this\", \"parameters\": {}}",
            ),
            (
                "Plain.\n\nNote:\n    do this\n",
                "{\"description\": \"Plain.\", \"parameters\": {}}",
            ),
            (
                "Summary\nArgs:\n    x: not a section, no blank line above\n",
                "{\"description\": \"Summary\\nArgs:\\n    x: not a section, no blank line above\", \"parameters\": {}}",
            ),
            (
                "Summary.\n\nArgs:\n\n    x: extraneous blank line below\n",
                "{\"description\": \"Summary.\\n\\nArgs:\\n\\n    x: extraneous blank line below\", \"parameters\": {}}",
            ),
            (
                "Summary.\n\n```\nArgs:\n    x: in a code block\n```\n\nRaises:\n    ValueError: when bad\n",
                "{\"description\": \"Summary.\\n\\n```\\nArgs:\\n    x: in a code block\\n```\", \"parameters\": {}}",
            ),
            (
                "Summary.\n\nRaises:\n    no colon here\n",
                "{\"description\": \"Summary.\\n\\nRaises:\\n    no colon here\", \"parameters\": {}}",
            ),
            (
                "Summary.\n\nArgs: the title\n    x: The x.\n",
                "{\"description\": \"Summary.\", \"parameters\": {\"x\": \"The x.\"}}",
            ),
            (
                "Two lines\nof summary.\n\nArgs:\n    a: A.\n    b: B.\nTail text.\n",
                "{\"description\": \"Two lines\\nof summary.\", \"parameters\": {\"a\": \"A.\", \"b\": \"B.\"}}",
            ),
            (
                "Summary.\n\nArgs:\n    no colon\n",
                "{\"description\": \"Summary.\\n\\nArgs:\\n    no colon\", \"parameters\": {}}",
            ),
            (
                "Summary.\n\nExamples:\n    >>> f()\n",
                "{\"description\": \"Summary.\", \"parameters\": {}}",
            ),
            (
                "Summary.\n\nSee Also:\n    other\n",
                "{\"description\": \"Summary.\", \"parameters\": {}}",
            ),
        ];
        for (docstring, expected) in cases {
            let parsed = super::fastmcp_docstring(&super::made(docstring, &(0..0)), "").unwrap();
            let parameters: serde_json::Map<String, Json> = parsed
                .parameters
                .into_iter()
                .map(|(name, description, _)| (name, Json::String(description)))
                .collect();
            let read = json!({
                "description": parsed.description.as_ref().and_then(super::Value::as_str),
                "parameters": parameters,
            });
            let expected: Json = serde_json::from_str(expected).unwrap();
            assert_eq!(read, expected, "{docstring:?}");
        }
        // Read by FastMCP's NumPy or Sphinx parsers, or sections not read: not guessed.
        for docstring in [
            "Summary.\n\nParameters\n----------\nx : int\n    The x.\n",
            "Summary.\n\n:param x: The x.\n",
            "Summary.\n\nAttributes:\n    x: The x.\n",
            "Args:\n    x: A section first.\nText after it.\n",
        ] {
            assert!(
                super::fastmcp_docstring(&super::made(docstring, &(0..0)), "").is_none(),
                "{docstring:?}"
            );
        }
    }

    #[test]
    fn any_docstring_is_split_without_a_panic() {
        // Every docstring of up to four lines from these, multi-byte whitespace included.
        let lines = [
            "",
            "Args:",
            "Note: t",
            "  x: y",
            "    (z): w",
            "\u{3000}x: y",
            "```",
            "é:",
            "\u{3000}",
            "Returns:",
            "-",
            ":param x:",
            "Attributes:",
            " ",
        ];
        let count = lines.len();
        for index in 0..count.pow(4) {
            let picked: Vec<&str> = (0..4)
                .map(|place| lines[index / count.pow(place) % count])
                .collect();
            let docstring = format!("Summary.\n{}", picked.join("\n"));
            let _ = super::fastmcp_docstring(&super::made(&docstring, &(0..0)), "");
        }
    }

    #[test]
    fn low_level_tool_literals_are_the_tools_the_sdk_lists() {
        assert_same(
            &tools(&fixture("lowlevel.py")),
            &listing("lowlevel.listing.json"),
        );
    }

    #[test]
    fn return_annotations_become_the_output_schema_the_sdk_publishes() {
        // Listed by mcp 1.30.0 for these functions.
        let source = r#"
from typing import Any, Optional
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")
@mcp.tool()
def a() -> dict: return {}
@mcp.tool()
def b() -> dict[str, Any]: return {}
@mcp.tool()
def c() -> list[str]: return []
@mcp.tool()
def d() -> Optional[str]: return None
@mcp.tool()
def e() -> None: return None
@mcp.tool()
def f(x) -> int: return 1
@mcp.tool()
def g(x = 3): return 1
@mcp.tool(structured_output=False)
def h() -> int: return 1
"#;
        let read = tools(source);
        let output = |index: usize| read[index].get("outputSchema").cloned();
        assert_eq!(output(0), None);
        assert_same(
            &output(1).unwrap(),
            &json!({"additionalProperties": true, "title": "bDictOutput", "type": "object"}),
        );
        assert_same(
            &output(2).unwrap(),
            &json!({"properties": {"result": {"items": {"type": "string"}, "title": "Result", "type": "array"}}, "required": ["result"], "title": "cOutput", "type": "object"}),
        );
        assert_same(
            &output(3).unwrap()["properties"]["result"],
            &json!({"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Result"}),
        );
        assert_same(
            &output(4).unwrap()["properties"]["result"],
            &json!({"title": "Result", "type": "null"}),
        );
        assert_same(
            &read[5]["inputSchema"],
            &json!({"properties": {"x": {"title": "x", "type": "string"}}, "required": ["x"], "title": "fArguments", "type": "object"}),
        );
        assert_same(
            &read[6]["inputSchema"]["properties"]["x"],
            &json!({"default": 3, "title": "x", "type": "string"}),
        );
        assert_eq!(output(6), None);
        assert_eq!(output(7), None);
    }

    #[test]
    fn parameter_types_become_pydantic_schemas() {
        // Generated by pydantic 2.14 for the same fields.
        let source = r#"
from typing import Annotated, Any, Dict, List, Literal, Optional, Union
import typing
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")
@mcp.tool()
def t(
    one: Literal["x"],
    meta: dict[str, Any],
    d2: Dict,
    l2: List,
    u: Union[int, str],
    n: int | None,
    desc: Annotated[str, Field(description="The thing", min_length=2)],
    x: Any,
    td: typing.Dict[str, str],
    b: bytes = "x",
    f: float = 1.5,
    url2path: bool = False,
    mixed: Literal[1, "a"] = 1,
    items: Annotated[list[int], Field(max_length=3)] = [],
):
    pass
"#;
        let properties = &tools(source)[0]["inputSchema"]["properties"];
        let expected = json!({
            "one": {"const": "x", "title": "One", "type": "string"},
            "meta": {"additionalProperties": true, "title": "Meta", "type": "object"},
            "d2": {"additionalProperties": true, "title": "D2", "type": "object"},
            "l2": {"items": {}, "title": "L2", "type": "array"},
            "u": {"anyOf": [{"type": "integer"}, {"type": "string"}], "title": "U"},
            "n": {"anyOf": [{"type": "integer"}, {"type": "null"}], "title": "N"},
            "desc": {"description": "The thing", "minLength": 2, "title": "Desc", "type": "string"},
            "x": {"title": "X"},
            "b": {"default": "x", "format": "binary", "title": "B", "type": "string"},
            "td": {"additionalProperties": {"type": "string"}, "title": "Td", "type": "object"},
            "mixed": {"default": 1, "enum": [1, "a"], "title": "Mixed"},
            "items": {"default": [], "items": {"type": "integer"}, "maxItems": 3, "title": "Items", "type": "array"},
        });
        for (key, schema) in expected.as_object().unwrap() {
            assert_same(&properties[key], schema);
        }
    }

    #[test]
    fn enum_names_class_constants_and_sdk_2_annotations_are_read() {
        // As mcp-server-git and mcp-server-fetch write them for SDK 2's MCPServer.
        let source = r#"
from enum import Enum
from mcp.server import MCPServer
from mcp.types import ToolAnnotations
from pydantic import AnyUrl, Field

class GitTools(str, Enum):
    STATUS = "git_status"
    LOG = "git_log"

class Limits:
    DEFAULT = 10

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)

def create_server() -> MCPServer:
    server = MCPServer("git")

    @server.tool(name=GitTools.STATUS.value, description="Shows the status", annotations=READ_ONLY)
    def status(repo_path: str) -> str:
        return ""

    @server.tool(name=GitTools.LOG, annotations={"destructive_hint": False})
    def log(url: Annotated[AnyUrl, Field(description="Where", strict=True)], n: int = Limits.DEFAULT, tags: set[str] = []) -> str:
        """Shows the log."""
        return ""
"#;
        let read = tools(source);
        assert_eq!(read[0]["name"], "git_status");
        assert_same(
            &read[0]["annotations"],
            &json!({"readOnlyHint": true, "openWorldHint": false}),
        );
        assert_eq!(read[1]["name"], "git_log");
        assert_same(&read[1]["annotations"], &json!({"destructiveHint": false}));
        // Generated by pydantic 2.14 for the same fields.
        assert_same(
            &read[1]["inputSchema"]["properties"],
            &json!({
                "url": {"description": "Where", "format": "uri", "minLength": 1, "title": "Url", "type": "string"},
                "n": {"default": 10, "title": "N", "type": "integer"},
                "tags": {"default": [], "items": {"type": "string"}, "title": "Tags", "type": "array", "uniqueItems": true},
            }),
        );
    }

    #[test]
    fn helpers_are_read_with_the_arguments_of_each_call() {
        // As mcp-server-git gives its write tools their annotations.
        let source = r#"
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
server = MCPServer("git")

def writes(*, destructive: bool, idempotent: bool = False) -> ToolAnnotations:
    return ToolAnnotations(read_only_hint=False, destructive_hint=destructive, idempotent_hint=idempotent)

def hint(title, world=True):
    return ToolAnnotations(title=title, open_world_hint=world)

def spread(*args):
    return ToolAnnotations(title=args[0])

@server.tool(annotations=writes(destructive=True, idempotent=True))
def reset(repo_path: str) -> str:
    "Resets."

@server.tool(annotations=writes(destructive=False))
def commit(repo_path: str) -> str:
    "Commits."

@server.tool(annotations=hint("Status", False))
def status(repo_path: str) -> str:
    "Status."

@server.tool(annotations=writes(True, True))
def positional(repo_path: str) -> str:
    "A keyword-only parameter given by position: not read."

@server.tool(annotations=writes(idempotent=True))
def missing(repo_path: str) -> str:
    "A parameter without a default left out: not read."

@server.tool(annotations=writes(destructive=True, other=1))
def unknown(repo_path: str) -> str:
    "An argument the helper has no parameter for: not read."

@server.tool(annotations=spread("S"))
def splat(repo_path: str) -> str:
    "`*args`: not read."
"#;
        let read = tools(source);
        assert_eq!(names(&read), ["reset", "commit", "status"], "{read}");
        assert_eq!(
            read[0]["annotations"],
            json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true})
        );
        assert_eq!(
            read[1]["annotations"],
            json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false})
        );
        assert_eq!(
            read[2]["annotations"],
            json!({"title": "Status", "openWorldHint": false})
        );
    }

    #[test]
    fn f_string_constants_and_property_helpers_are_read() {
        // As arxiv-mcp-server writes its tools, and mcp-pandoc its SDK 2 `input_schema`.
        let source = r#"
import mcp.types as types
DEFAULT_MAX = 50
PAGE = {"start": {"type": "integer"}, "paper_id": {"type": "integer"}}

def _paper_id_property() -> dict[str, Any]:
    """The paper id, as every tool takes it."""
    return {"type": "string", "description": "The arXiv id"}

def _with_parameter(name):
    return {"type": "string"}

tool = types.Tool(
    name="citations",
    description=(
        "Return papers citing a paper "
        f"(default {DEFAULT_MAX}, {{bounded}})."
    ),
    input_schema={"type": "object", "properties": {"paper_id": _paper_id_property(), **PAGE}},
)
other = types.Tool(name="b", description=f"{missing}", inputSchema={})
third = types.Tool(name="c", description="C.", inputSchema={"properties": {"x": _with_parameter("x")}})
"#;
        let read = tools(source);
        assert_eq!(names(&read), ["citations", "c"], "{read}");
        assert_eq!(
            read[1]["inputSchema"]["properties"]["x"],
            json!({"type": "string"})
        );
        assert_eq!(
            read[0]["description"],
            "Return papers citing a paper (default 50, {bounded})."
        );
        assert_same(
            &read[0]["inputSchema"],
            &json!({"type": "object", "properties": {"paper_id": {"type": "integer"}, "start": {"type": "integer"}}}),
        );
        // f-strings that name themselves end the read.
        let cycle = "import mcp.types as types\nA = f\"{B}\"\nB = f\"{A}\"\nt = types.Tool(name=A, inputSchema={})\n";
        assert_eq!(tools(cycle), json!([]));
    }

    #[test]
    fn pydantic_models_become_their_schemas_with_definitions() {
        let source = r#"
from typing import Optional
from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel, Field
import mcp.types as types

class Item(BaseModel):
    """An item to add."""
    name: str
    qty: int = 1
    note: Optional[str] = Field(None, description="A note")

class GitStatus(BaseModel):
    repo_path: str
    items: list[Item] = []

mcp = FastMCP("x")

@mcp.tool()
def add(item: Item, other: Optional[Item] = None) -> Item:
    return item

status = types.Tool(name="git_status", description="Status.", inputSchema=GitStatus.model_json_schema())
"#;
        // As pydantic 2.14 and mcp 1.30.0 make them.
        let item = json!({"description": "An item to add.", "properties": {"name": {"title": "Name", "type": "string"}, "qty": {"default": 1, "title": "Qty", "type": "integer"}, "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "description": "A note", "title": "Note"}}, "required": ["name"], "title": "Item", "type": "object"});
        let read = tools(source);
        assert_same(
            &read[0]["inputSchema"],
            &json!({"$defs": {"Item": item}, "properties": {"item": {"$ref": "#/$defs/Item"}, "other": {"anyOf": [{"$ref": "#/$defs/Item"}, {"type": "null"}], "default": null}}, "required": ["item"], "title": "addArguments", "type": "object"}),
        );
        // A model returned is published as the model's schema: not read yet.
        assert_eq!(read[0].get("outputSchema"), None);
        assert_same(
            &read[1]["inputSchema"],
            &json!({"$defs": {"Item": item}, "properties": {"repo_path": {"title": "Repo Path", "type": "string"}, "items": {"default": [], "items": {"$ref": "#/$defs/Item"}, "title": "Items", "type": "array"}}, "required": ["repo_path"], "title": "GitStatus", "type": "object"}),
        );
        // A configured model, or one that inherits, is not guessed.
        let configured = "import mcp.types as types\nfrom pydantic import BaseModel\nclass A(BaseModel):\n    model_config = {'extra': 'forbid'}\n    x: str\nclass B(A):\n    y: str\nt = types.Tool(name='a', inputSchema=A.model_json_schema())\nu = types.Tool(name='b', inputSchema=B.model_json_schema())\n";
        assert_eq!(tools(configured), json!([]));
        // A model that refers to itself (pydantic sends a `$ref` to its definition) is not read,
        // and its reading ends.
        let recursive = "import mcp.types as types\nfrom pydantic import BaseModel\nclass Node(BaseModel):\n    parent: Node | None = None\nt = types.Tool(name='a', inputSchema=Node.model_json_schema())\n";
        assert_eq!(tools(recursive), json!([]));
    }

    #[test]
    fn tool_classes_name_their_tools_by_attributes() {
        // As mcp-obsidian (a base class given the name) and mcp-text-editor (class attributes)
        // write them.
        let source = r#"
from mcp.types import Tool
TOOL_LIST = "obsidian_list_files"

class ToolHandler():
    def __init__(self, tool_name: str):
        self.name = tool_name

class ListFiles(ToolHandler):
    def __init__(self):
        super().__init__(TOOL_LIST)

    def get_tool_description(self):
        return Tool(name=self.name, description="Lists files.", inputSchema={"type": "object"})

class ReadHandler:
    name = "read_text"
    description = "Reads text."

    def get_tool_description(self) -> Tool:
        return Tool(name=self.name, description=self.description, inputSchema={"type": "object"})

class Unknown(ToolHandler):
    def get_tool_description(self):
        return Tool(name=self.name, description="Its name is given at run time.", inputSchema={})

class Twice:
    def __init__(self, fast):
        self.name = "a"
        if fast:
            self.name = "b"

    def get_tool_description(self):
        return Tool(name=self.name, description="Either.", inputSchema={})
"#;
        let read = tools(source);
        assert_eq!(names(&read), ["obsidian_list_files", "read_text"]);
        assert_eq!(read[1]["description"], "Reads text.");
    }

    #[test]
    fn what_cannot_be_read_statically_is_left_out_not_guessed() {
        let source = r#"
from mcp.server.fastmcp import FastMCP
from .models import Query
mcp = FastMCP("x")
@mcp.tool()
def model_parameter(query: Query) -> str:
    """Takes a model defined elsewhere."""
@mcp.tool(description=f"Built {VERSION}")
def formatted(x: str): pass
@mcp.tool()
def splat(*args: str): pass
@mcp.tool
def bare(path: str):
    """Read."""
@server.tool()
def readable(path: str):
    "Read it."
THE = "the"
@mcp.tool()
def f_docstring():
    f"Not {THE} docstring."
"#;
        let read = tools(source);
        assert_eq!(names(&read), ["bare", "readable", "f_docstring"]);
        // `__doc__` of a function whose first statement is an f-string is None.
        assert_eq!(read[2]["description"], "");
        assert_eq!(read[1]["description"], "Read it.");
    }

    #[test]
    fn lists_and_joins_of_constants_are_read() {
        // As mcp-pandoc writes its formats once.
        let source = r#"
from mcp import types
FORMATS = ("markdown", "html", "pdf")
def tools():
    return [types.Tool(
        name="convert",
        description="Converts between " + ", ".join(FORMATS) + ".",
        inputSchema={"type": "object", "properties": {
            "to": {"type": "string", "enum": list(FORMATS),
                   "description": f"One of {' | '.join(FORMATS)}."},
        }},
    )]
def shadowed(list):
    return [types.Tool(name="x", inputSchema={"type": "object", "enum": list(FORMATS)})]
"#;
        let read = tools(source);
        assert_eq!(names(&read), ["convert"], "{read}");
        assert_eq!(
            read[0]["description"],
            "Converts between markdown, html, pdf."
        );
        assert_eq!(
            read[0]["inputSchema"]["properties"]["to"],
            json!({"type": "string", "enum": ["markdown", "html", "pdf"],
                   "description": "One of markdown | html | pdf."})
        );
    }

    #[test]
    fn names_a_function_binds_are_read_in_it() {
        // As mcp-server-motherduck registers its tools inside `create_server(read_only)`.
        let source = r#"
from fastmcp import FastMCP
TITLE = "Module title"
def create_server(read_only: bool, title: str):
    mcp = FastMCP("duck")
    catalog = {"readOnlyHint": True, "openWorldHint": False}
    query = {"readOnlyHint": read_only}
    if read_only:
        mode = "read"
    else:
        mode = "write"
    DESCRIPTION = "Lists tables."
    @mcp.tool(name="list_tables", description=DESCRIPTION, annotations=catalog)
    def list_tables(schema: str | None = None) -> str:
        return ""
    @mcp.tool(name="execute_query", annotations=query)
    def execute_query(sql: str) -> str:
        "A parameter's value is known at run time only: not read."
    @mcp.tool(name="switch", description=mode)
    def switch(path: str) -> str:
        "Bound twice: not read."
    @mcp.tool(name="titled", title=title)
    def titled(path: str) -> str:
        "A parameter hides the module's name of the same spelling: not read."
    def nested():
        @mcp.tool(name="inner", annotations=catalog, title=TITLE)
        def inner() -> str:
            "Names of the enclosing function and of the module."
    return mcp
"#;
        let read = tools(source);
        assert_eq!(names(&read), ["list_tables", "inner"], "{read}");
        assert_eq!(read[0]["description"], "Lists tables.");
        assert_eq!(
            read[1]["annotations"],
            json!({"readOnlyHint": true, "openWorldHint": false})
        );
        assert_eq!(read[1]["title"], "Module title");
        // A body nested deep is read without a call per level.
        let deep = format!(
            "from fastmcp import FastMCP\ndef make():\n    x = {}1{}\n    D = \"Deep.\"\n    @mcp.tool(name=\"deep\", description=D)\n    def deep() -> str:\n        return \"\"\n",
            "(".repeat(20_000),
            ")".repeat(20_000)
        );
        assert_eq!(names(&tools(&deep)), ["deep"]);
    }

    /// What `main` (at `path`) parses into, the files it may import being `files`.
    fn parsed_beside(main: &str, path: &str, files: &[(&str, &str)]) -> crate::parse::Node {
        let read = |wanted: &std::path::Path| -> Option<String> {
            let wanted = wanted.to_str()?;
            let (_, text) = files.iter().find(|(name, _)| *name == wanted)?;
            Some(text.to_string())
        };
        let imports = super::super::Imports {
            path: std::path::Path::new(path),
            read: &read,
            list: &|_| Vec::new(),
        };
        parse(main, Language::Python, Some(&imports)).unwrap()
    }

    fn tools_beside(main: &str, path: &str, files: &[(&str, &str)]) -> Json {
        parsed_beside(main, path, files).to_json()["tools"].clone()
    }

    #[test]
    fn values_imported_from_the_package_are_read_where_they_are_used() {
        let main = r#"from mcp.server.fastmcp import FastMCP
from .text import DESCRIPTION, LIMIT as MAX
from . import schemas
from server.helpers import read_only
import server.text as text
from .everything import *

mcp = FastMCP("s")

@mcp.tool(description=DESCRIPTION, annotations=read_only())
def search(q: str = Field(description=schemas.QUERY), n: int = Field(default=MAX, le=MAX)) -> str:
    return q

@mcp.tool(title=text.TITLE, description=SHARED)
def fetch(url: str) -> str:
    return url

@mcp.tool(description=_PRIVATE)
def hidden() -> str:
    return ""

@mcp.tool(description=MISSING)
def missing() -> str:
    return ""
"#;
        let files = [
            ("server/__init__.py", ""),
            (
                "server/text.py",
                "DESCRIPTION = \"Searches \" + NOUN\nNOUN = \"docs.\"\nLIMIT = 50\nTITLE = \"Fetch\"\n",
            ),
            (
                "server/schemas.py",
                "from .text import NOUN\nQUERY = f\"Words to find in {NOUN}\"\n",
            ),
            (
                "server/helpers.py",
                "def read_only():\n    return {\"readOnlyHint\": True}\n",
            ),
            (
                "server/everything.py",
                "from .text import *\nSHARED = TITLE + \"es a page.\"\n_PRIVATE = \"Hidden.\"\n",
            ),
        ];
        let root = parsed_beside(main, "server/tools.py", &files);
        let read = root.to_json()["tools"].clone();
        assert_eq!(names(&read), ["search", "fetch"]);
        assert_eq!(read[0]["description"], "Searches docs.");
        assert_eq!(read[0]["annotations"], json!({ "readOnlyHint": true }));
        let properties = &read[0]["inputSchema"]["properties"];
        assert_eq!(properties["q"]["description"], "Words to find in docs.");
        assert_eq!(properties["n"]["default"], 50);
        assert_eq!(properties["n"]["maximum"], 50);
        assert_eq!(read[1]["title"], "Fetch");
        assert_eq!(read[1]["description"], "Fetches a page.");
        // Each string read from another file points at the name that brings it in.
        for (pointer, name) in [
            ("/tools/0/description", "DESCRIPTION"),
            (
                "/tools/0/inputSchema/properties/q/description",
                "schemas.QUERY",
            ),
            ("/tools/0/inputSchema/properties/n/default", "MAX"),
            ("/tools/0/annotations/readOnlyHint", "read_only()"),
            ("/tools/1/title", "text.TITLE"),
            ("/tools/1/description", "SHARED"),
        ] {
            assert_eq!(
                &main[root.at_pointer(pointer).unwrap().span()],
                name,
                "{pointer}"
            );
        }
        // Without a way to read imports, those tools are left out, not guessed.
        assert_eq!(tools_beside(main, "server/tools.py", &[]), json!([]));
        assert_eq!(tools(main), json!([]));
    }

    #[test]
    fn functions_added_as_tools_are_the_tools_the_decorator_makes() {
        let function = r#"
def search(q: Annotated[str, Field(description="Words to find.")], limit: int = 10) -> str:
    """Searches the docs."""
    return q
"#;
        let decorated = format!(
            "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('s')\n\n\
             @mcp.tool(name='find', title='Find', annotations={{'readOnlyHint': True}})\n{}",
            function.trim_start()
        );
        let expected = tools(&decorated);
        assert_eq!(names(&expected), ["find"]);
        for registration in [
            "mcp.add_tool(search, name='find', title='Find', annotations={'readOnlyHint': True})",
            "mcp.add_tool(search, 'find', 'Find', None, {'readOnlyHint': True})",
            "mcp.tool(name='find', title='Find', annotations={'readOnlyHint': True})(search)",
        ] {
            let source = format!(
                "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('s')\n{function}\n{registration}\n"
            );
            assert_same(&tools(&source), &expected);
        }
        // FastMCP the standalone package: `Tool.from_function`.
        let standalone = |registration: &str| {
            tools(&format!(
                "from fastmcp import FastMCP\nfrom fastmcp.tools import Tool\nmcp = FastMCP('s')\n\
                 {function}\n{registration}\n"
            ))
        };
        let decorated = standalone("").as_array().unwrap().is_empty();
        assert!(decorated);
        let added = standalone("mcp.add_tool(Tool.from_function(search, name='find'))");
        let expected = tools(&format!(
            "from fastmcp import FastMCP\nmcp = FastMCP('s')\n\n@mcp.tool(name='find')\n{}",
            function.trim_start()
        ));
        assert_same(&added, &expected);
        // Near misses: arguments not read, a method, a lambda, a function not found.
        for registration in [
            "mcp.add_tool(Tool.from_function(search, name='find'), name='x')",
            "mcp.add_tool(Tool.from_function(search, exclude_args=['limit']))",
            "mcp.add_tool(search, output_schema={})",
            "mcp.add_tool(self.search)",
            "mcp.add_tool(lambda q: q)",
            "mcp.add_tool(missing)",
            "mcp.add_tool()",
            "mcp.tool(name='find')(search, 1)",
        ] {
            assert_eq!(standalone(registration), json!([]), "{registration}");
        }
    }

    #[test]
    fn a_function_imported_and_added_is_located_at_its_name() {
        let main = "from mcp.server.fastmcp import FastMCP\nfrom .tools import search\n\
                    mcp = FastMCP('s')\nmcp.add_tool(search, description='Finds pages.')\n";
        let files = [(
            "srv/tools.py",
            "def search(q: str) -> str:\n    \"\"\"Unused.\"\"\"\n    return q\n",
        )];
        let root = parsed_beside(main, "srv/server.py", &files);
        let read = root.to_json()["tools"].clone();
        assert_eq!(read[0]["name"], "search");
        assert_eq!(read[0]["description"], "Finds pages.");
        assert_eq!(read[0]["inputSchema"]["required"], json!(["q"]));
        let at = |pointer: &str| &main[root.at_pointer(pointer).unwrap().span()];
        assert_eq!(at("/tools/0/name"), "search");
        assert_eq!(at("/tools/0/description"), "'Finds pages.'");
        assert_eq!(at("/tools/0/inputSchema/properties/q/type"), "search");
    }

    #[test]
    fn a_name_the_file_changes_is_known_at_run_time_only() {
        let main = r#"from .text import KINDS
DESCRIPTION = "Searches."
FORMATS = ["md"]
LIMITS = {"max": 5}
PREFIX = "a"
TITLE = "Search"

@mcp.tool(description=DESCRIPTION)
def a() -> str:
    return ""

@mcp.tool(description=", ".join(FORMATS))
def b() -> str:
    return ""

@mcp.tool(description=f"Up to {LIMITS['max']}")
def c() -> str:
    return ""

@mcp.tool(description=", ".join(KINDS))
def d() -> str:
    return ""

@mcp.tool(name=PREFIX + "e")
def e() -> str:
    return ""

@mcp.tool(title=TITLE, description="Titled.")
def f() -> str:
    return ""

DESCRIPTION += " More."
if beta:
    FORMATS.append("pdf")
    LIMITS["max"] = 9
    KINDS.extend(["x"])

def configure(prefix):
    global PREFIX
    PREFIX = prefix
"#;
        let files = [("srv/text.py", "KINDS = ['a']\n")];
        let read = tools_beside(main, "srv/server.py", &files);
        // Only `f`, whose values nothing changes.
        assert_eq!(names(&read), ["f"]);
        assert_eq!(read[0]["title"], "Search");
    }

    #[test]
    fn imports_that_loop_or_name_nothing_read_leave_the_tool_out() {
        let main = "from .a import X\nfrom pkg.absent import Y\nimport os\n\n\
                    @mcp.tool(description=X)\ndef a() -> str:\n    return ''\n\n\
                    @mcp.tool(description=Y)\ndef b() -> str:\n    return ''\n\n\
                    @mcp.tool(description=os.sep)\ndef c() -> str:\n    return ''\n";
        let files = [
            ("pkg/__init__.py", ""),
            ("pkg/a.py", "from .b import X\n"),
            ("pkg/b.py", "from .a import X\n"),
        ];
        assert_eq!(tools_beside(main, "pkg/main.py", &files), json!([]));
        // More files than are read: the chain is cut, the tool left out.
        let mut chain: Vec<(String, String)> = (0..40)
            .map(|i| (format!("m{i}.py"), format!("from .m{} import X\n", i + 1)))
            .collect();
        chain.push(("m40.py".to_string(), "X = 'Deep.'\n".to_string()));
        let files: Vec<(&str, &str)> = chain
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let main =
            "from .m0 import X\n\n@mcp.tool(description=X)\ndef a() -> str:\n    return ''\n";
        assert_eq!(tools_beside(main, "main.py", &files), json!([]));
        let main = main.replace("m0", "m30");
        let tools = tools_beside(&main, "main.py", &files);
        assert_eq!(tools[0]["description"], "Deep.");
    }

    #[test]
    fn docstring_words_are_located_in_the_file() {
        let source = "from mcp.server.fastmcp import FastMCP\n@mcp.tool()\ndef f():\n    \"\"\"First line.\n\n    It will ALWAYS work.\n    \"\"\"\n";
        let root = parse(source, Language::Python, None).unwrap();
        let crate::parse::NodeKind::Array(tools) = &root.get("tools").unwrap().kind else {
            panic!("no tools");
        };
        let description = tools[0].get("description").unwrap();
        let crate::parse::NodeKind::String(text) = &description.kind else {
            panic!("not a string");
        };
        let start = text.value.find("ALWAYS").unwrap();
        let range = description.source_range(source, start..start + 6);
        assert_eq!(&source[range], "ALWAYS");
    }

    #[test]
    fn fastmcp_docstring_parts_are_located_at_their_lines() {
        let source = "from fastmcp import FastMCP\n@mcp.tool\ndef f(q: str, n: int = 1):\n    \
                      \"\"\"\n    Searches the notes.\n    Never edits them.\n\n    Args:\n        \
                      q: Words to find.\n        n: How many,\n            at most.\n\n    \
                      Returns:\n        Notes.\n    \"\"\"\n";
        let root = parse(source, Language::Python, None).unwrap();
        let at = |pointer: &str| &source[root.at_pointer(pointer).unwrap().span()];
        assert_eq!(
            at("/tools/0/description"),
            "Searches the notes.\n    Never edits them."
        );
        assert_eq!(
            at("/tools/0/inputSchema/properties/q/description"),
            "q: Words to find."
        );
        assert_eq!(
            at("/tools/0/inputSchema/properties/n/description"),
            "n: How many,\n            at most."
        );
        // An escape: the literal's lines are not the docstring's; the whole docstring it is.
        let escaped = source.replace("Words to find.", "Words\\tto find.");
        let root = parse(&escaped, Language::Python, None).unwrap();
        let span = root
            .at_pointer("/tools/0/inputSchema/properties/q/description")
            .unwrap()
            .span();
        assert!(escaped[span].starts_with("\"\"\"\n    Searches"));
    }
}
