//! The values read from source before they become [`Node`]s: built without pointers (a zod
//! schema is read before it is known where it goes), then placed under the root in one pass.

use crate::parse::{Entry, Keys, Node, NodeKind, Pointer, Segment, Span, Str, StrStyle};

#[derive(Debug, Clone)]
pub(super) enum Value {
    /// A string: its text, its source (`raw`) and how that source maps to the text.
    Str {
        value: String,
        raw: Span,
        style: StrStyle,
    },
    Bool(bool, Span),
    Number(serde_json::Number, Span),
    Null(Span),
    Array(Vec<Value>, Span),
    Object(Vec<Member>, Span),
}

/// One key of an object: its name, where the key is written (or what stands for it), its value.
#[derive(Debug, Clone)]
pub(super) struct Member {
    pub key: String,
    pub key_span: Span,
    pub value: Value,
}

impl Member {
    pub fn new(key: &str, key_span: Span, value: Value) -> Self {
        Member {
            key: key.to_string(),
            key_span,
            value,
        }
    }
}

impl Value {
    /// A string toolcheck made rather than read (`"string"` for `z.string()`): every range of
    /// it maps to `span`, the source it stands for.
    pub fn made(value: &str, span: Span) -> Value {
        Value::Str {
            value: value.to_string(),
            raw: span,
            style: StrStyle::Opaque,
        }
    }

    pub fn span(&self) -> Span {
        match self {
            Value::Str { raw, .. } => raw.clone(),
            Value::Bool(_, span)
            | Value::Number(_, span)
            | Value::Null(span)
            | Value::Array(_, span)
            | Value::Object(_, span) => span.clone(),
        }
    }

    /// This value with every range of it mapped to `span`: a value read from another file,
    /// located where the linted one brings it in.
    pub fn moved_to(self, span: &Span) -> Value {
        match self {
            Value::Str { value, .. } => Value::made(&value, span.clone()),
            Value::Bool(b, _) => Value::Bool(b, span.clone()),
            Value::Number(n, _) => Value::Number(n, span.clone()),
            Value::Null(_) => Value::Null(span.clone()),
            Value::Array(items, _) => Value::Array(
                items.into_iter().map(|item| item.moved_to(span)).collect(),
                span.clone(),
            ),
            Value::Object(members, _) => Value::Object(
                members
                    .into_iter()
                    .map(|member| Member {
                        key: member.key,
                        key_span: span.clone(),
                        value: member.value.moved_to(span),
                    })
                    .collect(),
                span.clone(),
            ),
        }
    }

    /// This value with what lies past byte `limit` (read from another file) mapped to
    /// `around`: the linted file is `0..limit`.
    pub fn kept_within(self, limit: usize, around: &Span) -> Value {
        if self.span().end > limit {
            return self.moved_to(around);
        }
        match self {
            Value::Array(items, span) => Value::Array(
                items
                    .into_iter()
                    .map(|item| item.kept_within(limit, around))
                    .collect(),
                span,
            ),
            Value::Object(members, span) => Value::Object(
                members
                    .into_iter()
                    .map(|member| Member {
                        key: member.key,
                        key_span: match member.key_span.end > limit {
                            true => around.clone(),
                            false => member.key_span,
                        },
                        value: member.value.kept_within(limit, around),
                    })
                    .collect(),
                span,
            ),
            value => value,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str { value, .. } => Some(value),
            _ => None,
        }
    }

    /// The tree of this value at `pointer`.
    pub fn into_node(self, pointer: Pointer, keys: &mut Keys) -> Node {
        match self {
            Value::Str { value, raw, style } => {
                let kind = NodeKind::String(Str::new(value, style, raw.clone()));
                Node::new(kind, raw, pointer)
            }
            Value::Bool(b, span) => Node::new(NodeKind::Bool(b), span, pointer),
            Value::Number(n, span) => Node::new(NodeKind::Number(n), span, pointer),
            Value::Null(span) => Node::new(NodeKind::Null, span, pointer),
            Value::Array(items, span) => {
                let items = items
                    .into_iter()
                    .enumerate()
                    .map(|(index, item)| item.into_node(pointer.index(index), keys))
                    .collect();
                Node::new(NodeKind::Array(items), span, pointer)
            }
            Value::Object(members, span) => {
                let entries = members
                    .into_iter()
                    .map(|member| {
                        let key = keys.get(&member.key);
                        let value = member.value.into_node(pointer.key(&key), keys);
                        Entry::new(key, member.key_span, value)
                    })
                    .collect();
                Node::new(NodeKind::Object(entries), span, pointer)
            }
        }
    }
}

/// A string decoded from literals in source, with the segments that map its bytes back.
#[derive(Default)]
pub(super) struct Decoded {
    pub value: String,
    pub segments: Vec<Segment>,
}

impl Decoded {
    /// Appends `raw[from..to]` as written; `raw` starts at byte `base` of the file.
    pub fn verbatim(&mut self, raw: &str, base: usize, from: usize, to: usize) {
        self.verbatim_at(&raw[from..to], base + from);
    }

    /// Appends `text`, written as it is at byte `source` of the file.
    pub fn verbatim_at(&mut self, text: &str, source: usize) {
        if !text.is_empty() {
            let decoded = self.value.len();
            self.value.push_str(text);
            self.segments.push(Segment {
                decoded: decoded..self.value.len(),
                source: source..source + text.len(),
                verbatim: true,
            });
        }
    }

    /// Appends `text`, written as the escape (or line end) at `source`.
    pub fn escaped(&mut self, text: &str, source: Span) {
        let decoded = self.value.len();
        self.value.push_str(text);
        self.segments.push(Segment {
            decoded: decoded..self.value.len(),
            source,
            verbatim: false,
        });
    }
}
