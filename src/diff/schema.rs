//! Comparing two versions of an input schema, keyword by keyword, down the properties and
//! items.

use std::collections::BTreeSet;

use foldhash::HashSet;
use serde_json::Value;

use super::report::{Change, Class};
use super::tools::DESCRIPTION_OF;

/// Keywords that bound a value: a change moves what the model may send.
const LIMITS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
];

/// Keywords [`compare_schema`] compares itself; any other keyword that differs is an additive
/// change.
const HANDLED: &[&str] = &[
    "type",
    "enum",
    "properties",
    "required",
    "items",
    "default",
    "description",
    "title",
    "additionalProperties",
];

/// Deeper than this, schemas are compared as wholes (a change is one additive change).
const MAX_DEPTH: usize = 32;

fn label(path: &str) -> String {
    if path.is_empty() {
        "the input schema".to_string()
    } else {
        format!("`{path}`")
    }
}

/// The changes between two versions of a schema node at `path` (`""` for the root).
pub(super) fn compare_schema(
    old: &Value,
    new: &Value,
    path: &str,
    depth: usize,
    out: &mut Vec<Change>,
) {
    if old == new {
        return;
    }
    // Not both schemas, or too deep: compared as wholes.
    let (Some(o), Some(n), true) = (old.as_object(), new.as_object(), depth <= MAX_DEPTH) else {
        push(
            out,
            path,
            Class::Additive,
            format!("{} changed", label(path)),
        );
        return;
    };
    compare_types(o, n, path, out);
    compare_enums(o, n, path, out);
    compare_bounds(o, n, path, out);
    compare_properties(o, n, path, depth, out);
    match (o.get("items"), n.get("items")) {
        (Some(old), Some(new)) => {
            compare_schema(old, new, &format!("{path}[]"), depth + 1, out);
        }
        (None, None) => {}
        _ => push(
            out,
            path,
            Class::Additive,
            format!("`items` of {} changed", label(path)),
        ),
    }
    compare_other_keywords(o, n, path, out);
}

type Object = serde_json::Map<String, Value>;

/// A change of the input schema at `path`.
fn push(out: &mut Vec<Change>, path: &str, class: Class, message: String) {
    out.push(Change {
        class,
        field: "input_schema",
        path: path.to_string(),
        message,
    });
}

/// `type`: narrowed (a value it took is refused now) is breaking, widened additive.
fn compare_types(o: &Object, n: &Object, path: &str, out: &mut Vec<Change>) {
    let (old_types, new_types) = (types(o.get("type")), types(n.get("type")));
    if old_types != new_types {
        let show = |t: &Option<BTreeSet<String>>| match t {
            None => "any".to_string(),
            Some(t) => t.iter().cloned().collect::<Vec<_>>().join(" | "),
        };
        let narrowed = match (&old_types, &new_types) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(old), Some(new)) => !old.iter().all(|t| accepts(new, t)),
        };
        push(
            out,
            path,
            if narrowed {
                Class::Breaking
            } else {
                Class::Additive
            },
            format!(
                "type of {} {} from {} to {}",
                label(path),
                if narrowed { "narrowed" } else { "widened" },
                show(&old_types),
                show(&new_types)
            ),
        );
    }
}

/// `enum`, as sets: a value removed (or an enum imposed) is breaking.
fn compare_enums(o: &Object, n: &Object, path: &str, out: &mut Vec<Change>) {
    let set = |v: Option<&Value>| -> Option<BTreeSet<String>> {
        v.and_then(Value::as_array)
            .map(|items| items.iter().map(Value::to_string).collect())
    };
    match (set(o.get("enum")), set(n.get("enum"))) {
        (Some(old), Some(new)) => {
            let gone: Vec<&String> = old.difference(&new).collect();
            let came: Vec<&String> = new.difference(&old).collect();
            if !gone.is_empty() {
                push(
                    out,
                    path,
                    Class::Breaking,
                    format!(
                        "enum value{} {} removed from {}",
                        plural(gone.len()),
                        join(&gone),
                        label(path)
                    ),
                );
            }
            if !came.is_empty() {
                push(
                    out,
                    path,
                    Class::Additive,
                    format!(
                        "enum value{} {} added to {}",
                        plural(came.len()),
                        join(&came),
                        label(path)
                    ),
                );
            }
        }
        (None, Some(new)) => push(
            out,
            path,
            Class::Breaking,
            format!(
                "{} now only takes {}",
                label(path),
                join(&new.iter().collect::<Vec<_>>())
            ),
        ),
        (Some(_), None) => push(
            out,
            path,
            Class::Additive,
            format!("{} no longer restricted to an enum", label(path)),
        ),
        (None, None) => {}
    }
}

/// The limits, the default (risky: what the model may or will send moves), the description and title, `additionalProperties`.
fn compare_bounds(o: &Object, n: &Object, path: &str, out: &mut Vec<Change>) {
    for key in LIMITS {
        let (before, after) = (o.get(*key), n.get(*key));
        if before != after {
            let show = |v: Option<&Value>| v.map_or("unset".to_string(), Value::to_string);
            push(
                out,
                path,
                Class::Risky,
                format!(
                    "`{key}` of {} changed: {} → {}",
                    label(path),
                    show(before),
                    show(after)
                ),
            );
        }
    }
    if o.get("default") != n.get("default") {
        let show = |v: Option<&Value>| v.map_or("none".to_string(), Value::to_string);
        push(
            out,
            path,
            Class::Risky,
            format!(
                "default of {} changed: {} → {}",
                label(path),
                show(o.get("default")),
                show(n.get("default"))
            ),
        );
    }
    if o.get("description") != n.get("description") || o.get("title") != n.get("title") {
        push(
            out,
            path,
            Class::Additive,
            format!("{DESCRIPTION_OF}{} changed", label(path)),
        );
    }
    if o.get("additionalProperties") != n.get("additionalProperties") {
        let closed = |m: &serde_json::Map<String, Value>| {
            m.get("additionalProperties") == Some(&Value::Bool(false))
        };
        push(
            out,
            path,
            if closed(n) && !closed(o) {
                Class::Risky
            } else {
                Class::Additive
            },
            format!("`additionalProperties` of {} changed", label(path)),
        );
    }
}

/// Every other keyword that differs, as a whole: an additive change.
fn compare_other_keywords(o: &Object, n: &Object, path: &str, out: &mut Vec<Change>) {
    let mut others: Vec<&String> = o
        .keys()
        .chain(n.keys())
        .filter(|key| {
            !HANDLED.contains(&key.as_str())
                && !LIMITS.contains(&key.as_str())
                && o.get(*key) != n.get(*key)
        })
        .collect();
    others.sort();
    others.dedup();
    for key in others {
        push(
            out,
            path,
            Class::Additive,
            format!("`{key}` of {} changed", label(path)),
        );
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn join(items: &[&String]) -> String {
    const SHOWN: usize = 8;
    let mut text = items
        .iter()
        .take(SHOWN)
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > SHOWN {
        text.push_str(&format!(" and {} more", items.len() - SHOWN));
    }
    text
}

fn compare_properties(
    o: &serde_json::Map<String, Value>,
    n: &serde_json::Map<String, Value>,
    path: &str,
    depth: usize,
    out: &mut Vec<Change>,
) {
    fn props<'m>(
        m: &'m serde_json::Map<String, Value>,
        empty: &'m serde_json::Map<String, Value>,
    ) -> &'m serde_json::Map<String, Value> {
        m.get("properties")
            .and_then(Value::as_object)
            .unwrap_or(empty)
    }
    let empty = serde_json::Map::new();
    let required = |m: &serde_json::Map<String, Value>| -> HashSet<String> {
        m.get("required")
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (old_props, new_props) = (props(o, &empty), props(n, &empty));
    let (old_required, new_required) = (required(o), required(n));
    let at = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    let push = |out: &mut Vec<Change>, key: &str, class, message: String| {
        out.push(Change {
            class,
            field: "input_schema",
            path: at(key),
            message,
        })
    };
    for (key, old) in old_props {
        let name = at(key);
        match new_props.get(key) {
            None => push(
                out,
                key,
                Class::Breaking,
                format!("parameter `{name}` removed: callers that send it break"),
            ),
            Some(new) => {
                match (old_required.contains(key), new_required.contains(key)) {
                    (false, true) => push(
                        out,
                        key,
                        Class::Breaking,
                        format!("parameter `{name}` is now required"),
                    ),
                    (true, false) => push(
                        out,
                        key,
                        Class::Additive,
                        format!("parameter `{name}` is now optional"),
                    ),
                    _ => {}
                }
                compare_schema(old, new, &name, depth + 1, out);
            }
        }
    }
    for key in new_props.keys() {
        if old_props.contains_key(key) {
            continue;
        }
        let name = at(key);
        if new_required.contains(key) {
            push(
                out,
                key,
                Class::Breaking,
                format!("required parameter `{name}` added: callers that omit it break"),
            );
        } else {
            push(
                out,
                key,
                Class::Additive,
                format!("optional parameter `{name}` added"),
            );
        }
    }
}

/// The JSON types a `type` keyword allows; `None` for any.
fn types(value: Option<&Value>) -> Option<BTreeSet<String>> {
    match value? {
        Value::String(one) => Some([one.clone()].into()),
        Value::Array(many) => Some(
            many.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
        ),
        _ => None,
    }
}

/// Whether the types `set` accept every value of type `t` (`number` accepts `integer`).
fn accepts(set: &BTreeSet<String>, t: &str) -> bool {
    set.contains(t) || (t == "integer" && set.contains("number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_narrow_and_widen() {
        let mut out = Vec::new();
        let schema = |t: Value| serde_json::json!({"type": t});
        compare_schema(
            &schema(serde_json::json!("number")),
            &schema(serde_json::json!("integer")),
            "n",
            0,
            &mut out,
        );
        compare_schema(
            &schema(serde_json::json!("integer")),
            &schema(serde_json::json!(["integer", "string"])),
            "m",
            0,
            &mut out,
        );
        let classes: Vec<Class> = out.iter().map(|c| c.class).collect();
        assert_eq!(classes, [Class::Breaking, Class::Additive], "{out:#?}");
    }
}
