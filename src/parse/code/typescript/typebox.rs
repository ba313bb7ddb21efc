//! TypeBox schemas (`Type.Object({ path: Type.String({ description }) })`) and the harness tool
//! objects that carry them: `pi.registerTool({ name, description, promptSnippet,
//! promptGuidelines, parameters, execute })`, or the same object returned by a function that
//! defines a built-in tool. A schema is written as TypeBox 1 builds it (the JSON the harness
//! sends): the type's own keys first, then its options, an option of the same name taking the
//! key's place. `@sinclair/typebox` is read as TypeBox 1 too: the harness loads its bundled
//! TypeBox in its place.

use super::{At, MAX_DEPTH, Reader, Zod, literal_type};
use crate::parse::code::value::{Member, Value};

/// The modules TypeBox's `Type` is imported from: TypeBox 1, TypeBox 0.x, and the harness's AI
/// package, which re-exports it beside its `StringEnum`.
pub(super) fn is_typebox_module(specifier: &str) -> bool {
    matches!(specifier, "typebox" | "@sinclair/typebox")
        || specifier == "pi-ai"
        || specifier.ends_with("/pi-ai")
}

impl<'t> Reader<'t> {
    /// A harness tool object: `name` and a TypeBox `parameters`, with `description`,
    /// `promptSnippet` and `promptGuidelines` (what the model reads of it); the rest of the
    /// object (`label`, `execute`, renderers) is the harness's own.
    pub(super) fn harness_tool(&self, node: At<'t>) -> Option<Value> {
        let members = self.members(node, 0)?;
        let parameters = members.iter().find(|(key, _, _)| *key == "parameters")?;
        if !self.is_typebox(parameters.2) || !members.iter().any(|(key, _, _)| *key == "name") {
            return None;
        }
        let mut tool = Vec::new();
        for (key, key_node, value) in members {
            if self.is_undefined(value) {
                continue;
            }
            let value = match key {
                "name" | "description" | "promptSnippet" => self.string(value, 0)?,
                "promptGuidelines" => self.literal(value, 0)?,
                "parameters" => self.typebox(value, 0)?.into_value(),
                _ => continue,
            };
            tool.push(Member::new(key, key_node.byte_range(), value));
        }
        Some(Value::Object(tool, node.byte_range()))
    }

    /// Whether `node` is a TypeBox schema built by a call: `Type.<kind>(…)` or `StringEnum(…)`.
    fn is_typebox(&self, node: At<'t>) -> bool {
        self.resolve(node)
            .and_then(|node| self.typebox_call(node))
            .is_some()
    }

    /// The builder a call names: `("Object", arguments)` for `Type.Object(…)` (`Type` as
    /// imported), `("StringEnum", arguments)` for the harness's `StringEnum(…)`.
    fn typebox_call(&self, node: At<'t>) -> Option<(&'t str, Vec<At<'t>>)> {
        if node.kind() != "call_expression" {
            return None;
        }
        let function = node.child_by_field_name("function")?;
        let module = &self.modules[node.module];
        let kind = match function.kind() {
            "member_expression" => {
                let object = function.child_by_field_name("object")?;
                if !module.typebox_names.contains(&self.text(object)) {
                    return None;
                }
                self.text(function.child_by_field_name("property")?)
            }
            "identifier" if module.string_enum_names.contains(&self.text(function)) => "StringEnum",
            _ => return None,
        };
        Some((kind, self.arguments(node)))
    }

    /// The JSON Schema of a TypeBox schema, and whether it is `Type.Optional(…)`. Anything
    /// TypeBox builds that is not read here (`Type.Intersect`, `Type.Ref`, …) leaves the tool
    /// out.
    fn typebox(&self, node: At<'t>, depth: usize) -> Option<Zod> {
        if depth > MAX_DEPTH {
            return None;
        }
        let node = self.resolve(node)?;
        let (kind, arguments) = self.typebox_call(node)?;
        let span = node.byte_range();
        let mut schema = Zod {
            members: Vec::new(),
            optional: false,
            span: span.clone(),
        };
        let made = |text: &str| Value::made(text, span.clone());
        let typed = |schema: &mut Zod, name: &str| schema.set("type", span.clone(), made(name));
        // The arguments before the options.
        let fixed = match kind {
            "String" | "Number" | "Integer" | "Boolean" | "Null" => {
                typed(&mut schema, &kind.to_lowercase());
                0
            }
            "Any" | "Unknown" => 0,
            "Optional" => {
                let [inner] = arguments.as_slice() else {
                    return None;
                };
                let mut inner = self.typebox(*inner, depth + 1)?;
                inner.optional = true;
                return Some(inner);
            }
            "Object" => {
                let properties = *arguments.first()?;
                let mut required = Vec::new();
                let mut members = Vec::new();
                for (key, key_node, value) in self.members(properties, depth + 1)? {
                    let property = self.typebox(value, depth + 1)?;
                    let key_span = key_node.byte_range();
                    if !property.optional {
                        required.push(Value::made(key, key_span.clone()));
                    }
                    members.push(Member::new(key, key_span, property.into_value()));
                }
                typed(&mut schema, "object");
                if !required.is_empty() {
                    schema.set(
                        "required",
                        span.clone(),
                        Value::Array(required, span.clone()),
                    );
                }
                let properties = Value::Object(members, properties.byte_range());
                schema.set("properties", span.clone(), properties);
                1
            }
            "Array" => {
                let items = self.typebox(*arguments.first()?, depth + 1)?;
                typed(&mut schema, "array");
                schema.set("items", span.clone(), items.into_value());
                1
            }
            "Union" => {
                let list = self.resolve(*arguments.first()?)?;
                if list.kind() != "array" {
                    return None;
                }
                let schemas = list
                    .named_children()
                    .into_iter()
                    .filter(|item| item.kind() != "comment")
                    .map(|item| Some(self.typebox(item, depth + 1)?.into_value()))
                    .collect::<Option<Vec<_>>>()?;
                schema.set(
                    "anyOf",
                    span.clone(),
                    Value::Array(schemas, list.byte_range()),
                );
                1
            }
            "Literal" => {
                let value = self.literal(*arguments.first()?, depth + 1)?;
                typed(&mut schema, literal_type(&value)?);
                schema.set("const", span.clone(), value);
                1
            }
            // A record keyed by any string; other keys make other patterns, not read.
            "Record" => {
                let [key, value, ..] = arguments.as_slice() else {
                    return None;
                };
                let key = self.resolve(*key)?;
                if !matches!(self.typebox_call(key), Some(("String", ref options)) if options.is_empty())
                {
                    return None;
                }
                let value = self.typebox(*value, depth + 1)?.into_value();
                typed(&mut schema, "object");
                let pattern = vec![Member::new("^.*$", span.clone(), value)];
                schema.set(
                    "patternProperties",
                    span.clone(),
                    Value::Object(pattern, span.clone()),
                );
                2
            }
            // `Type.Unsafe({ … })`: the object as written.
            "Unsafe" => {
                let Value::Object(members, _) = self.literal(*arguments.first()?, depth + 1)?
                else {
                    return None;
                };
                schema.members = members;
                return (arguments.len() == 1).then_some(schema);
            }
            // The harness's `StringEnum(values, { description, default })`: a string enum with
            // the description and default it is given, when they are set.
            "StringEnum" => {
                let values = self.literal(*arguments.first()?, depth + 1)?;
                if !matches!(values, Value::Array(..)) {
                    return None;
                }
                typed(&mut schema, "string");
                schema.set("enum", span.clone(), values);
                if let Some(options) = arguments.get(1) {
                    let Value::Object(options, _) = self.literal(*options, depth + 1)? else {
                        return None;
                    };
                    for key in ["description", "default"] {
                        let option = options.iter().find(|option| option.key == key);
                        if let Some(option) = option.filter(|option| is_truthy(&option.value)) {
                            schema.set(key, option.key_span.clone(), option.value.clone());
                        }
                    }
                }
                return (arguments.len() <= 2).then_some(schema);
            }
            _ => return None,
        };
        match arguments.get(fixed..)? {
            [] => {}
            [options] => {
                let Value::Object(options, _) = self.literal(*options, depth + 1)? else {
                    return None;
                };
                for option in options {
                    schema.set(&option.key, option.key_span, option.value);
                }
            }
            _ => return None,
        }
        Some(schema)
    }
}

/// Whether JavaScript reads a value as true (`...(options?.description && {…})`).
fn is_truthy(value: &Value) -> bool {
    match value {
        Value::Str { value, .. } => !value.is_empty(),
        Value::Bool(value, _) => *value,
        Value::Number(number, _) => number.as_f64().is_some_and(|n| n != 0.0),
        Value::Null(_) => false,
        Value::Array(..) | Value::Object(..) => true,
    }
}

#[cfg(test)]
mod tests {
    use crate::parse::code::{Language, parse};

    fn tools(source: &str) -> serde_json::Value {
        parse(source, Language::TypeScript, None).unwrap().to_json()["tools"].clone()
    }

    #[test]
    fn typebox_schemas_are_written_as_typebox_1_builds_them() {
        let source = r#"
import { Type as T } from "typebox";
import { StringEnum } from "@mariozechner/pi-ai";
const KB = 50 * 1024;
const Edit = T.Object({ oldText: T.String({ description: "Old." }), newText: T.String() });
pi.registerTool({
  name: "edit",
  label: "Edit",
  description: "Edits a file.",
  parameters: T.Object({
    path: T.String({ description: "Path." }),
    offset: T.Optional(T.Integer({ minimum: 1, description: `At most ${KB / 1024}KB.` })),
    edits: T.Array(Edit, { description: "Edits.", minItems: 1 }),
    mode: StringEnum(["a", "b"] as const, { description: "Mode.", default: "" }),
    kind: T.Union([T.Literal("x"), T.Literal(2), T.Null()], { description: "Kind." }),
    meta: T.Optional(T.Record(T.String(), T.Boolean())),
    any: T.Any({ description: "Anything." }),
    raw: T.Unsafe({ type: "string", format: "uri" }),
    typed: T.String({ type: "number" }),
  }),
  async execute(id, params) { return { content: [] }; },
});
"#;
        // What TypeBox 1.4.3 serializes for the same schema (`JSON.stringify`), key for key.
        let expected = r#"{"type":"object","required":["path","edits","mode","kind","any","raw","typed"],"properties":{"path":{"type":"string","description":"Path."},"offset":{"type":"integer","minimum":1,"description":"At most 50KB."},"edits":{"type":"array","items":{"type":"object","required":["oldText","newText"],"properties":{"oldText":{"type":"string","description":"Old."},"newText":{"type":"string"}}},"description":"Edits.","minItems":1},"mode":{"type":"string","enum":["a","b"],"description":"Mode."},"kind":{"anyOf":[{"type":"string","const":"x"},{"type":"number","const":2},{"type":"null"}],"description":"Kind."},"meta":{"type":"object","patternProperties":{"^.*$":{"type":"boolean"}}},"any":{"description":"Anything."},"raw":{"type":"string","format":"uri"},"typed":{"type":"number"}}}"#;
        let tools = tools(source);
        assert_eq!(tools[0]["parameters"].to_string(), expected);
        // What the model reads of the tool; `label` and `execute` are the harness's own.
        let keys: Vec<_> = tools[0].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "description", "parameters"]);
    }

    #[test]
    fn harness_tools_are_read_with_their_snippet_and_guidelines_wherever_they_are_written() {
        let source = r#"
import { Type } from "@sinclair/typebox";
const LIMIT = 2000;
const readSchema = Type.Object({ path: Type.String() });
export function createReadTool(cwd) {
  return {
    name: "read",
    description: `Reads up to ${LIMIT} lines.`,
    promptSnippet: "Read file contents",
    promptGuidelines: ["Use read instead of cat."],
    parameters: readSchema,
    execute: async () => ({ content: [] }),
  };
}
// Not read: a schema from the harness at run time, a description made by a call, a
// builder TypeBox has that is not read, zod parameters of another framework's object.
pi.registerTool({ name: "bash", description: "Runs.", parameters: getBuiltIns(cwd).bash.parameters });
pi.registerTool({ name: "rg", description: `Up to ${formatSize(LIMIT)}.`, parameters: readSchema });
pi.registerTool({ name: "both", description: "B.", parameters: Type.Intersect([readSchema, readSchema]) });
const other = { name: "z", description: "Z.", parameters: z.object({}) };
"#;
        let tools = tools(source);
        assert_eq!(
            tools,
            serde_json::json!([{
                "name": "read",
                "description": "Reads up to 2000 lines.",
                "promptSnippet": "Read file contents",
                "promptGuidelines": ["Use read instead of cat."],
                "parameters": {"type": "object", "required": ["path"], "properties": {"path": {"type": "string"}}},
            }])
        );
    }

    #[test]
    fn arithmetic_is_read_only_when_exact() {
        let description = |expression: &str| {
            let source = format!(
                "import {{ Type }} from \"typebox\";\nconst tool = {{ name: \"t\", description: `${{{expression}}}`, parameters: Type.Object({{}}) }};"
            );
            tools(&source)[0]["description"]
                .as_str()
                .map(str::to_string)
        };
        assert_eq!(description("50 * 1024 / 1024").as_deref(), Some("50"));
        assert_eq!(description("(2 + 3) * 4 - 1").as_deref(), Some("19"));
        // A fraction, a division by zero, an overflow: not guessed.
        assert_eq!(description("3 / 2"), None);
        assert_eq!(description("1 / 0"), None);
        assert_eq!(description("9007199254740991 + 1"), None);
    }
}
