//! Typed deserialization of a [`Node`] (rule options, rule files) whose errors point at the
//! offending key or value in the file.

use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::error::Error;
use crate::source::SourceFile;
use crate::syntax::{Node, escape_pointer_token};

/// Deserializes `node`; an error names the path and points at the node it is about.
pub fn deserialize<T: DeserializeOwned>(
    node: &Node,
    file: Option<&Arc<SourceFile>>,
) -> Result<T, Error> {
    let value = node.to_json();
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
                    .map(|entry| entry.key_span.clone())
            })
            .or_else(|| node.at_pointer(&pointer).map(|found| found.span.clone()))
            .unwrap_or_else(|| node.span.clone());
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
