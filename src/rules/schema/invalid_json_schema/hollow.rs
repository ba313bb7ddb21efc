//! A large schema validated in pieces: each subschema slot hollowed out of its parent (a
//! marker left in its place) so that no piece is larger than the validator handles at once.

use std::collections::HashMap;

use jsonschema::{Draft, ValidationError};
use serde_json::Value;

use super::validate_at;
use crate::parse::{Node, NodeKind, escape_pointer_token};

/// A schema object as the validator is given it, with the subschemas [`validate`](super::validate) splits off
/// replaced.
pub(super) struct Hollow<'n> {
    pub(super) value: Value,
    pub(super) slots: Vec<Slot<'n>>,
}

/// One keyword's subschemas, split off.
pub(super) struct Slot<'n> {
    pub(super) keyword: &'n str,
    /// The subschemas in the validator's order, with their pointers relative to the schema
    /// that holds the keyword.
    pub(super) members: Vec<(String, &'n Node)>,
    /// The instance path of the marker's error.
    pub(super) marker: String,
}

/// How a keyword holds the subschemas the meta-schema applies itself to.
#[derive(Clone, Copy)]
pub(super) enum SlotKind {
    /// One subschema (`not`).
    Single,
    /// A list of them (`allOf`).
    List,
    /// Names to subschemas (`properties`).
    Map,
}

/// The keywords whose subschemas the meta-schema of `draft` validates with a reference to
/// itself and nothing else (`{"$ref": "#"}`, `{"$dynamicRef": "#meta"}`), read off the
/// meta-schemas. Not those it validates through `anyOf` (draft-07 `items` and
/// `dependencies`, draft-04 `additionalProperties`): there a subschema's errors become one
/// error about the keyword.
fn slot(draft: Draft, keyword: &str) -> Option<SlotKind> {
    use Draft::{Draft4, Draft6, Draft7, Draft201909, Draft202012};
    if !matches!(draft, Draft4 | Draft6 | Draft7 | Draft201909 | Draft202012) {
        // A meta-schema not read here: its schemas are validated whole.
        return None;
    }
    let since_2019 = matches!(draft, Draft201909 | Draft202012);
    Some(match keyword {
        "properties" | "patternProperties" | "definitions" => SlotKind::Map,
        "$defs" | "dependentSchemas" if since_2019 => SlotKind::Map,
        "allOf" | "anyOf" | "oneOf" => SlotKind::List,
        "prefixItems" if draft == Draft202012 => SlotKind::List,
        "not" => SlotKind::Single,
        "items" if draft == Draft202012 => SlotKind::Single,
        // 2020-12 has no `additionalItems`: there it is an unknown keyword.
        "additionalItems" if !matches!(draft, Draft4 | Draft202012) => SlotKind::Single,
        "additionalProperties" | "contains" | "propertyNames" if draft != Draft4 => {
            SlotKind::Single
        }
        "if" | "then" | "else" if !matches!(draft, Draft4 | Draft6) => SlotKind::Single,
        "unevaluatedItems" | "unevaluatedProperties" | "contentSchema" if since_2019 => {
            SlotKind::Single
        }
        _ => return None,
    })
}

/// A schema that draws exactly one error from the meta-schema of every draft, at `/minimum`.
fn marker() -> Value {
    serde_json::json!({ "minimum": null })
}

/// `{}`: valid in every draft, so it draws no error.
fn empty() -> Value {
    Value::Object(serde_json::Map::new())
}

impl<'n> Hollow<'n> {
    /// `None` for a schema that is not an object or has no subschema to split off.
    pub(super) fn new(schema: &'n Node, draft: Draft) -> Option<Hollow<'n>> {
        let entries = schema.as_object()?;
        let mut value = serde_json::Map::new();
        let mut slots: Vec<Slot<'n>> = Vec::new();
        for entry in entries {
            // A repeated key replaces the value before it, as in `Node::to_json`.
            slots.retain(|slot| entry.key != slot.keyword);
            let split =
                slot(draft, &entry.key).and_then(|kind| Slot::new(&entry.key, kind, &entry.value));
            let hollowed = match split {
                Some((slot, hollowed)) => {
                    slots.push(slot);
                    hollowed
                }
                None => entry.value.to_json(),
            };
            value.insert(entry.key.to_string(), hollowed);
        }
        (!slots.is_empty()).then_some(Hollow {
            value: Value::Object(value),
            slots,
        })
    }
}

impl<'n> Slot<'n> {
    /// The slot and the keyword's hollowed value; `None` when `node` does not have the
    /// keyword's shape or holds no subschema (it is then validated as it is).
    pub(super) fn new(
        keyword: &'n str,
        kind: SlotKind,
        node: &'n Node,
    ) -> Option<(Slot<'n>, Value)> {
        let at = format!("/{}", escape_pointer_token(keyword));
        let hollow = |index: usize| if index == 0 { marker() } else { empty() };
        let (members, hollowed) = match (kind, &node.kind) {
            (SlotKind::Single, _) => (vec![(at, node)], marker()),
            (SlotKind::List, NodeKind::Array(items)) => {
                let members = items
                    .iter()
                    .enumerate()
                    .map(|(index, item)| (format!("{at}/{index}"), item))
                    .collect();
                let hollowed = (0..items.len()).map(hollow).collect();
                (members, Value::Array(hollowed))
            }
            (SlotKind::Map, NodeKind::Object(entries)) => {
                // A repeated name keeps its first place and its last value, as in
                // `Node::to_json`.
                let mut named: Vec<(&str, &Node)> = Vec::with_capacity(entries.len());
                let mut places: HashMap<&str, usize> = HashMap::with_capacity(entries.len());
                for entry in entries {
                    match places.get(entry.key.as_str()) {
                        Some(&place) => named[place].1 = &entry.value,
                        None => {
                            places.insert(&entry.key, named.len());
                            named.push((&entry.key, &entry.value));
                        }
                    }
                }
                let hollowed = named
                    .iter()
                    .enumerate()
                    .map(|(index, (name, _))| (name.to_string(), hollow(index)))
                    .collect();
                let members = named
                    .into_iter()
                    .map(|(name, node)| (format!("{at}/{}", escape_pointer_token(name)), node))
                    .collect();
                (members, Value::Object(hollowed))
            }
            _ => return None,
        };
        let (first, _) = members.first()?;
        let marker = format!("{first}/minimum");
        Some((
            Slot {
                keyword,
                members,
                marker,
            },
            hollowed,
        ))
    }

    pub(super) fn validate(
        &self,
        at: &mut String,
        draft: Draft,
        whole_nodes: usize,
        sink: &mut dyn FnMut(&str, &ValidationError<'_>),
    ) {
        let len = at.len();
        for (pointer, member) in &self.members {
            at.push_str(pointer);
            validate_at(member, at, draft, whole_nodes, sink);
            at.truncate(len);
        }
    }
}
