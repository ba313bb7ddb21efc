//! The check of `schema-enforced-minimum`. Its code, docs and default options are in
//! `rules/schema/schema-enforced-minimum.yaml`.

use serde::Deserialize;

use super::helpers::{self, Bound, Limit, Refs, Resolved, format_number};
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::parse::{Entry, Node};
use crate::rule::{Anchor, Ctx, Rule};

/// Keywords the `keywords` option can add to the default `minItems`, `minProperties` and
/// `minContains`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ExtraKeyword {
    #[serde(rename = "minLength")]
    MinLength,
    #[serde(rename = "minimum")]
    Minimum,
    #[serde(rename = "exclusiveMinimum")]
    ExclusiveMinimum,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SchemaEnforcedMinimum {
    /// Further keywords to flag: `minLength` (from 2), `minimum`, `exclusiveMinimum` (any value).
    keywords: Vec<ExtraKeyword>,
}

impl SchemaEnforcedMinimum {
    /// Whether `keyword: value` is a minimum this rule reports.
    fn flags(&self, keyword: &str, value: f64) -> bool {
        let enabled = |extra: ExtraKeyword| self.keywords.contains(&extra);
        match keyword {
            "minItems" | "minProperties" => value >= 2.0,
            // `minContains: 0` switches `contains` off; it enforces nothing.
            "minContains" => value > 0.0,
            "minLength" => enabled(ExtraKeyword::MinLength) && value >= 2.0,
            "minimum" => enabled(ExtraKeyword::Minimum),
            "exclusiveMinimum" => enabled(ExtraKeyword::ExclusiveMinimum),
            _ => false,
        }
    }
}

const KEYWORDS: &[&str] = &[
    "minItems",
    "minProperties",
    "minContains",
    "minLength",
    "minimum",
    "exclusiveMinimum",
];

impl Rule for SchemaEnforcedMinimum {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        let limits = helpers::limits(tool);
        let refs = Refs::new(schema);
        crate::normalize::schema::walk(schema, &mut |subschema| {
            // Written out for the first finding only: most subschemas have none.
            let mut at: Option<String> = None;
            for entry in subschema.as_object().unwrap_or_default() {
                if !KEYWORDS.contains(&entry.key.as_str()) {
                    continue;
                }
                let Some(value) = entry.value.as_f64() else {
                    continue;
                };
                if !self.flags(&entry.key, value)
                    || (entry.key == "minItems"
                        && (is_tuple(subschema, value)
                            || (value <= 3.0 && is_point(&refs, subschema))
                            || is_point_sequence(&refs, subschema)))
                    || is_inert(subschema, &entry.key)
                {
                    continue;
                }
                let at = at.get_or_insert_with(|| helpers::relative_pointer(schema, subschema));
                let limit = limits.iter().find(|limit| limit.pointer() == at.as_str());
                let help = help(entry, value, at, limit);
                ctx.report(
                    Field::InputSchema,
                    Anchor::Key(entry),
                    format!(
                        "the schema enforces `{}: {}`; a validating host rejects less with a \
                         generic error",
                        entry.key,
                        format_number(value)
                    ),
                )
                .help(help);
            }
        });
    }
}

/// An array of fixed shape rather than a list with a minimum: `minItems` equal to `maxItems`
/// (a coordinate pair), or no more than the positional items (`prefixItems`, or draft-07's
/// `items` list) describe. A model does not pad a pair with filler.
fn is_tuple(schema: &Node, min_items: f64) -> bool {
    let max_items = schema.get("maxItems").and_then(Node::as_f64);
    let positional = ["prefixItems", "items"]
        .iter()
        .filter_map(|key| schema.get(key).and_then(Node::as_array))
        .map(<[Node]>::len)
        .max()
        .unwrap_or(0);
    max_items == Some(min_items) || (positional as f64) >= min_items
}

/// A list of points (`[[lon, lat], …]`, `[{x, y}, …]`) or of such lists: its minimum is the
/// geometry's (a line has 2 points, a hull 3, a closed ring 4), a fact about the data, not a
/// count of choices the model could pad with filler.
fn is_point_sequence<'a>(refs: &Refs<'a>, schema: &'a Node) -> bool {
    let mut sequence = schema;
    for _ in 0..SHAPE_DEPTH {
        let Some(items) = sequence.get("items").and_then(|items| resolve(refs, items)) else {
            return false;
        };
        if is_point(refs, items) {
            return true;
        }
        sequence = items;
    }
    false
}

/// How many lists deep a point may sit (a polygon's rings hold points).
const SHAPE_DEPTH: usize = 3;

/// A point: two to four numbers, as a tuple (`[lon, lat]`, `prefixItems` of numbers) or as an
/// object of numeric properties only (`{lat, lng}`, `{x, y, z}`).
fn is_point<'a>(refs: &Refs<'a>, schema: &'a Node) -> bool {
    let numeric = |node: &'a Node| {
        resolve(refs, node).is_some_and(|node| {
            let types = helpers::declared_types(node);
            !types.is_empty() && types.iter().all(|ty| matches!(*ty, "number" | "integer"))
        })
    };
    let types = helpers::declared_types(schema);
    if types.contains(&"array") {
        let coordinates = match schema.get("prefixItems").or_else(|| schema.get("items")) {
            Some(node) => match node.as_array() {
                Some(positional) => {
                    (2..=4).contains(&positional.len()) && positional.iter().all(numeric)
                }
                None => numeric(node),
            },
            None => false,
        };
        let max_items = schema.get("maxItems").and_then(Node::as_f64);
        return coordinates && max_items.is_none_or(|max| max <= 4.0);
    }
    if types.contains(&"object") {
        let properties = helpers::root_properties(schema);
        return (2..=4).contains(&properties.len())
            && properties.iter().all(|property| numeric(&property.value));
    }
    false
}

/// `node`, or what its local `$ref` points at.
fn resolve<'a>(refs: &Refs<'a>, node: &'a Node) -> Option<&'a Node> {
    match node.get("$ref").and_then(Node::as_str) {
        Some(reference) => match refs.resolve(reference) {
            Resolved::Found(target) => Some(target),
            Resolved::Remote | Resolved::Missing => None,
        },
        None => Some(node),
    }
}

/// A keyword that cannot apply because the schema declares only other types (`minItems` on
/// `type: integer`): validators ignore it, so nothing is enforced.
fn is_inert(schema: &Node, keyword: &str) -> bool {
    let types = helpers::declared_types(schema);
    let applies: &[&str] = match keyword {
        "minItems" | "minContains" => &["array"],
        "minProperties" => &["object"],
        "minLength" => &["string"],
        _ => &["number", "integer"],
    };
    !types.is_empty() && !applies.iter().any(|ty| types.contains(ty))
}

/// The `limits` key that declares the same minimum, if the manifest has one.
fn limit_key(keyword: &str) -> Option<&'static str> {
    match keyword {
        "exclusiveMinimum" => Some("minimum"),
        _ => Bound::from_schema_keyword(keyword).map(Bound::limit_key),
    }
}

fn help(entry: &Entry, value: f64, at: &str, limit: Option<&Limit<'_>>) -> String {
    let keyword = &entry.key;
    let number = format_number(value);
    let at_text = if at.is_empty() { "\"\"" } else { at };
    match (limit, limit_key(keyword)) {
        (Some(limit), Some(key)) if !limit.bounds.iter().any(|(b, _, _)| b.limit_key() == key) => {
            format!(
                "the `limits` entry at `{at_text}` lacks `{key}`: add `{key}: {number}` there, \
                 then delete `{keyword}` from the schema"
            )
        }
        (Some(_), _) => format!(
            "the tool declares this limit under `limits` (at `{at_text}`) and enforces it at run \
             time: delete `{keyword}` from the schema"
        ),
        (None, key) => {
            let declare = match key {
                Some(key) => {
                    format!("declare it under `limits` (`at: {at_text}`, `{key}: {number}`)")
                }
                None => format!("declare it under `limits` (`at: {at_text}`)"),
            };
            format!(
                "enforce the minimum at run time with an error that tells the model what is \
                 missing, {declare}, and state it in the description"
            )
        }
    }
}
