//! The messages of `schema-rejected-by-target`: each rejected construct named at its place
//! in the schema, with what to write instead.

use super::{Hit, Problem, enum_value_ok};
use crate::parse::{Entry, Node, NodeKind};
use crate::rule::Anchor;
use crate::rules::schema::helpers::relative_pointer;
use crate::targets::Active;
use crate::targets::profile::{Check, Effect, EnumValues};

/// The subschema that a hit's key or value is in (its parent object).
fn parent_place(schema: &Node, problem: Problem, at: &Anchor<'_>) -> String {
    let pointer = match at {
        Anchor::Key(entry) => relative_pointer(schema, &entry.value),
        Anchor::Value(node) => relative_pointer(schema, node),
        _ => String::new(),
    };
    // Drop the keyword itself, and for a value inside a keyword's list (an `enum` value, an
    // `allOf` branch's `$ref`) the list too.
    let tokens = match problem {
        Problem::EnumValue => 2,
        Problem::RefInAllOf => 3,
        _ => 1,
    };
    let mut parent = pointer.as_str();
    for _ in 0..tokens {
        parent = parent.rsplit_once('/').map_or("", |(parent, _)| parent);
    }
    match parent.strip_prefix('/') {
        Some(path) => path.to_string(),
        None => "the root".to_string(),
    }
}

/// The problem as a message (without who does what) and the fix, for a help.
pub(super) fn describe(hit: &Hit<'_>, schema: &Node, actives: &[&Active]) -> (String, String) {
    let at = parent_place(schema, hit.problem, &hit.at);
    let gemini = actives
        .iter()
        .any(|active| active.constraint.from.starts_with("gemini"));
    match (&hit.problem, &hit.at) {
        (Problem::Keyword, Anchor::Key(entry)) => {
            let keyword = entry.key.as_str();
            let is_root = at == "the root";
            (
                format!("`{keyword}` at {at}"),
                keyword_fix(keyword, is_root, gemini),
            )
        }
        (Problem::TypeList, Anchor::Value(node)) => describe_type_list(node, &at),
        (Problem::EnumValue, Anchor::Value(node)) => {
            describe_enum_value(node, schema, actives, &at)
        }
        (Problem::Format, Anchor::Value(node)) => describe_format(node, actives, &at),
        (Problem::RefSiblings, Anchor::Key(entry)) => describe_ref_siblings(entry, schema, &at),
        (Problem::ExternalRef, Anchor::Value(node)) => (
            format!(
                "`$ref` to another document (`{}`) at {at}",
                node.as_str().unwrap_or_default()
            ),
            "copy the schema it names into the root `$defs` and point at `#/$defs/NAME`"
                .to_string(),
        ),
        (Problem::Recursion, Anchor::Value(node)) => (
            format!(
                "recursive `$ref` (`{}`) at {at}",
                node.as_str().unwrap_or_default()
            ),
            "unroll the recursion to the depth the tool needs, or accept an untyped object at \
             the bottom"
                .to_string(),
        ),
        (Problem::DefsBelowRoot, Anchor::Key(entry)) => (
            format!("`{}` below the root, at {at}", entry.key),
            "move these definitions into the root `$defs` and point the `$ref`s there".to_string(),
        ),
        (Problem::MinItems, Anchor::Value(node)) => describe_min_items(node, actives, &at),
        (Problem::RootType, target) => describe_root_type(target, actives),
        (Problem::RefInAllOf, _) => (
            format!("`$ref` in an `allOf` branch at {at}"),
            "write the referenced schema's keywords into the `allOf`'s own schema instead"
                .to_string(),
        ),
        // Not reached: each problem is built with its own kind of target.
        _ => (format!("a construct at {at}"), "remove it".to_string()),
    }
}

/// `type` as a list: the one non-null type, made nullable where `null` was listed.
fn describe_type_list(node: &Node, at: &str) -> (String, String) {
    let types: Vec<&str> = node
        .as_array()
        .unwrap_or_default()
        .iter()
        .filter_map(Node::as_str)
        .collect();
    let others: Vec<&str> = types.iter().copied().filter(|t| *t != "null").collect();
    let fix = match (others.as_slice(), types.len() > others.len()) {
        ([one], true) => {
            format!("write `\"type\": \"{one}\"` with `\"nullable\": true`")
        }
        ([one], false) => format!("write `\"type\": \"{one}\"`"),
        _ => "write one `type`, or an `anyOf` with one branch per type".to_string(),
    };
    (format!("`type` written as a list at {at}"), fix)
}

/// An `enum` value the target does not take, and how many more of its list.
fn describe_enum_value(
    node: &Node,
    schema: &Node,
    actives: &[&Active],
    at: &str,
) -> (String, String) {
    let strings_only = actives.iter().any(|active| {
        matches!(
            active.constraint.check,
            Check::EnumValues(EnumValues::Strings)
        )
    });
    let fix = if strings_only {
        let example = match &node.kind {
            NodeKind::String(_) | NodeKind::Array(_) | NodeKind::Object(_) => String::new(),
            _ => format!(" (`\"{}\"`)", shown(node).trim_matches('`')),
        };
        format!(
            "write the values as strings{example}, with `\"type\": \"string\"`, and \
             convert them at run time"
        )
    } else {
        "keep `enum` to strings, numbers, booleans and null; describe compound values \
         with `anyOf` branches"
            .to_string()
    };
    let accepted = match strings_only {
        true => EnumValues::Strings,
        false => EnumValues::Primitives,
    };
    let more = parent_node(schema, node)
        .and_then(Node::as_array)
        .unwrap_or_default()
        .iter()
        .filter(|item| !enum_value_ok(accepted, item))
        .count()
        .saturating_sub(1);
    let more = match more {
        0 => String::new(),
        more => format!(" and {more} more"),
    };
    (
        format!(
            "`enum` value {} ({}){more} at {at}",
            shown(node),
            node.type_name()
        ),
        fix,
    )
}

/// A `format` the target does not take, and the ones it does.
fn describe_format(node: &Node, actives: &[&Active], at: &str) -> (String, String) {
    let formats: Vec<String> = actives
        .iter()
        .find_map(|active| match &active.constraint.check {
            Check::Formats(formats) => Some(formats.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let list: Vec<String> = formats.iter().map(|f| format!("`{f}`")).collect();
    (
        format!("`format: {}` at {at}", node.as_str().unwrap_or_default()),
        format!(
            "use one of {}, or drop `format` and say the format in the description",
            list.join(", ")
        ),
    )
}

/// `$ref` with other keywords beside it (the first three named).
fn describe_ref_siblings(entry: &Entry, schema: &Node, at: &str) -> (String, String) {
    let node = parent_node(schema, &entry.value);
    let siblings: Vec<String> = node
        .and_then(Node::as_object)
        .unwrap_or_default()
        .iter()
        .filter(|sibling| sibling.key != "$ref")
        .take(3)
        .map(|sibling| format!("`{}`", sibling.key))
        .collect();
    (
        format!("`$ref` beside {} at {at}", siblings.join(", ")),
        "leave `$ref` alone in its schema: move the other keywords into the definition \
         it points at"
            .to_string(),
    )
}

/// `minItems` over the largest the target takes.
fn describe_min_items(node: &Node, actives: &[&Active], at: &str) -> (String, String) {
    let max = actives
        .iter()
        .find_map(|active| match active.constraint.check {
            Check::MaxMinItems(max) => Some(max),
            _ => None,
        })
        .unwrap_or_default();
    (
        format!(
            "`minItems: {}` at {at}, over {max}",
            crate::rules::schema::helpers::format_number(node.as_f64().unwrap_or(0.0))
        ),
        format!(
            "set `minItems` to {max} or less, say the minimum in the description and \
             check it at run time"
        ),
    )
}

/// A root that is not of the type the target wants.
fn describe_root_type(target: &Anchor<'_>, actives: &[&Active]) -> (String, String) {
    let wanted = actives
        .iter()
        .find_map(|active| match &active.constraint.check {
            Check::RootType(ty) => Some(ty.as_str()),
            _ => None,
        })
        .unwrap_or("object");
    let message = match target {
        Anchor::Value(node) => match node.as_str() {
            Some(ty) => format!("the root `type` is `{ty}`, not `{wanted}`"),
            None => format!("the root `type` is {}, not `{wanted}`", node.type_name()),
        },
        _ => format!("the schema root has no `\"type\": \"{wanted}\"`"),
    };
    (
        message,
        format!(
            "make the root `\"type\": \"{wanted}\"` and put anything else into its \
             `properties`"
        ),
    )
}

/// What to write instead of `keyword`.
fn keyword_fix(keyword: &str, is_root: bool, gemini: bool) -> String {
    match keyword {
        "anyOf" | "oneOf" | "allOf" if is_root => {
            "make the root one object with the properties of every branch, and check at run \
             time which apply"
                .into()
        }
        "oneOf" => "write `anyOf` instead".into(),
        "allOf" => "merge the branches into one schema".into(),
        "$schema" => "drop `$schema`".into(),
        "additionalProperties" if gemini => "drop `additionalProperties`, or declare the tool \
             with `parametersJsonSchema`, which accepts it"
            .into(),
        "default" => "drop `default` and say the default in the description".into(),
        "const" => "write `enum` with the one value".into(),
        "examples" if gemini => "write one `example` instead".into(),
        "definitions" if gemini => "rename it `$defs`, at the root".into(),
        "exclusiveMinimum" | "exclusiveMaximum" if gemini => {
            "use `minimum` or `maximum` (inclusive) instead".into()
        }
        "not" | "if" | "then" | "else" | "dependentRequired" | "dependentSchemas" => {
            format!(
                "drop `{keyword}`: say the condition in the description and check it at run time"
            )
        }
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf"
        | "minLength" | "maxLength" | "minItems" | "maxItems" | "uniqueItems" | "pattern"
        | "minProperties" | "maxProperties" => {
            format!("drop `{keyword}`: say the bound in the description and check it at run time")
        }
        _ if gemini => format!(
            "drop `{keyword}`, or declare the tool with `parametersJsonSchema`, which takes JSON \
             Schema"
        ),
        _ => format!("drop `{keyword}`"),
    }
}

/// The object or list that holds `value` (for a keyword's value, the schema it is in).
fn parent_node<'a>(schema: &'a Node, value: &Node) -> Option<&'a Node> {
    let pointer = relative_pointer(schema, value);
    let parent = pointer.rsplit_once('/').map_or("", |(parent, _)| parent);
    schema.at_pointer(parent)
}

/// A short rendering of an enum value: `1`, `true`, `null`, `[...]`, `{...}`.
fn shown(node: &Node) -> String {
    match &node.kind {
        NodeKind::Null => "`null`".into(),
        NodeKind::Bool(value) => format!("`{value}`"),
        NodeKind::Number(number) => format!("`{number}`"),
        NodeKind::String(text) => format!("`{}`", text.value),
        NodeKind::Array(_) => "`[...]`".into(),
        NodeKind::Object(_) => "`{...}`".into(),
    }
}

/// `` `openai-strict` and `gemini` reject the request ``.
pub(super) fn who_does(actives: &[&Active]) -> String {
    let mut groups: Vec<(Effect, Vec<String>)> = Vec::new();
    for active in actives {
        let effect = active.constraint.effect;
        match groups.iter_mut().find(|(seen, _)| *seen == effect) {
            Some((_, names)) => names.push(active.who()),
            None => groups.push((effect, vec![active.who()])),
        }
    }
    groups
        .into_iter()
        .map(|(effect, names)| match names.len() {
            1 => format!("{} {}", names.join(""), effect.verb()),
            _ => {
                let last = names.last().cloned().unwrap_or_default();
                let rest = names[..names.len() - 1].join(", ");
                format!("{rest} and {last} {}", plural(effect.verb()))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `rejects the request` → `reject the request`.
pub(super) fn plural(verb: &str) -> String {
    if let Some(rest) = verb.strip_prefix("does ") {
        return format!("do {rest}");
    }
    match verb.split_once(' ') {
        Some((first, rest)) => format!("{} {rest}", first.strip_suffix('s').unwrap_or(first)),
        None => verb.strip_suffix('s').unwrap_or(verb).to_string(),
    }
}
