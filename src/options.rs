//! Typed deserialization of a [`Node`] (rule options, rule files) whose errors point at the
//! offending key or value in the file.

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::Error;
use crate::parse::source::SourceFile;
use crate::parse::{Node, escape_pointer_token};

/// The options of a rule: the catalog entry's defaults, with a user's laid over them.
pub type Options = serde_json::Map<String, Value>;

/// Deserializes `node`; an error names the path and points at the node it is about.
pub fn deserialize<T: DeserializeOwned>(
    node: &Node,
    file: Option<&Arc<SourceFile>>,
) -> Result<T, Error> {
    deserialize_located(node.to_json(), node, file)
}

/// Deserializes a rule's options: the catalog entry's `defaults` with the user's `node` laid
/// over them key by key. Errors point into the user's node (the defaults are checked when the
/// catalog loads).
pub fn deserialize_over<T: DeserializeOwned>(
    defaults: &Options,
    node: Option<&Node>,
    file: Option<&Arc<SourceFile>>,
) -> Result<T, Error> {
    match node {
        None => serde_path_to_error::deserialize(Value::Object(defaults.clone()))
            .map_err(|error| Error::new(error.into_inner().to_string())),
        Some(node) => match node.to_json() {
            Value::Object(user) => {
                let mut merged = defaults.clone();
                merged.extend(user);
                deserialize_located(Value::Object(merged), node, file)
            }
            // Not a mapping: serde says what it expected.
            other => deserialize_located(other, node, file),
        },
    }
}

/// The user's options (a mapping) laid over `defaults`.
pub fn merge(
    defaults: &Options,
    node: Option<&Node>,
    file: Option<&Arc<SourceFile>>,
) -> Result<Options, Error> {
    let mut options = defaults.clone();
    if let Some(node) = node {
        let Value::Object(user) = node.to_json() else {
            let message = "rule options must be a mapping";
            return Err(match file {
                Some(file) => Error::at(file, node.span(), message),
                None => Error::new(message),
            });
        };
        options.extend(user);
    }
    Ok(options)
}

/// An options error at the key `message` is about (an unknown field, or the first name in
/// backticks), else at the whole options node.
pub fn error_at_key(
    error: String,
    message: &str,
    node: Option<&Node>,
    file: Option<&Arc<SourceFile>>,
) -> Error {
    let span = node.map(|node| {
        unknown_field(message)
            .or_else(|| message.split('`').nth(1))
            .and_then(|key| node.entry(key))
            .map_or(node.span(), |entry| entry.key_span())
    });
    match (file, span) {
        (Some(file), Some(span)) => Error::at(file, span, error),
        _ => Error::new(error),
    }
}

fn deserialize_located<T: DeserializeOwned>(
    value: Value,
    node: &Node,
    file: Option<&Arc<SourceFile>>,
) -> Result<T, Error> {
    serde_path_to_error::deserialize(value).map_err(|error| {
        let mut pointer = String::new();
        for segment in error.path().iter() {
            use serde_path_to_error::Segment;
            match segment {
                Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
                Segment::Map { key } | Segment::Enum { variant: key } => {
                    pointer.push('/');
                    pointer.push_str(&escape_pointer_token(key));
                }
                Segment::Unknown => {}
            }
        }
        let inner = error.into_inner().to_string();
        // An unknown key is best shown at the key itself.
        let span = unknown_field(&inner)
            .and_then(|key| {
                let parent = parent_pointer(&pointer, key);
                node.at_pointer(parent)?
                    .entry(key)
                    .map(|entry| entry.key_span())
            })
            .or_else(|| node.at_pointer(&pointer).map(|found| found.span()))
            .unwrap_or_else(|| node.span());
        let message = inner.replace(" at line 1 column 1", "");
        match file {
            Some(file) => Error::at(file, span, message),
            None => Error::new(message),
        }
    })
}

/// The key named by serde's "unknown field `x`, expected ..." message.
pub(crate) fn unknown_field(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("unknown field `")?;
    rest.split('`').next()
}

/// serde_path_to_error includes the unknown key as the last path segment; strip it.
fn parent_pointer<'p>(pointer: &'p str, key: &str) -> &'p str {
    let suffix = format!("/{}", escape_pointer_token(key));
    pointer.strip_suffix(suffix.as_str()).unwrap_or(pointer)
}
