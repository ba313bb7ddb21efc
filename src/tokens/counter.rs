//! Counting with a memo: each node of a parsed file counted once, schemas serialized once,
//! and the threads that check one file sharing what was counted before them.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;

use super::{Encoding, Mixed, ToolParts, ToolTokens};
use crate::parse::Node;

/// A node's identity within one parsed file: its address plus its span (a reused address
/// would also need the same span to collide), the span's offsets in one word as the tree keeps
/// them (32 bits each).
type NodeKey = (usize, u64);

fn key(node: &Node) -> NodeKey {
    let span = node.span();
    (
        std::ptr::from_ref(node) as usize,
        (span.start as u64) << 32 | span.end as u64,
    )
}

/// An input schema's compact JSON, kept until it is counted.
#[derive(Debug, Clone)]
struct Schema {
    bytes: usize,
    compact: Option<String>,
    tokens: Option<usize>,
}

/// Memoized token counts for the nodes of one parsed file. Every rule of a file shares one
/// (through [`crate::rule::Ctx`]), so a description over several budgets is tokenized once,
/// and a schema is serialized to compact JSON once; the threads that check a large file's
/// tools share what was counted before them ([`Counter::fork`]).
///
/// Keys are node identities: a `Counter` must not outlive the tree its nodes come from
/// (the engine makes one per file, after parsing, and drops it before the tree).
#[derive(Debug)]
pub struct Counter {
    pub encoding: Encoding,
    /// Counts made before [`Counter::fork`], read-only.
    shared: Arc<Memo>,
    own: Memo,
}

#[derive(Debug, Default, Clone)]
struct Memo {
    texts: HashMap<NodeKey, usize, Mixed>,
    schemas: HashMap<NodeKey, Schema, Mixed>,
}

/// The tokens of each text, each distinct text counted once (a generated set repeats its
/// descriptions and schemas), on all cores when `parallel`.
pub(super) fn count_all<T: AsRef<str> + Sync>(
    texts: &[(NodeKey, T)],
    encoding: Encoding,
    parallel: bool,
) -> Vec<usize> {
    let mut first: HashMap<&str, usize, foldhash::fast::RandomState> =
        HashMap::with_capacity_and_hasher(texts.len(), Default::default());
    let mut distinct: Vec<&str> = Vec::new();
    let which: Vec<usize> = texts
        .iter()
        .map(|(_, text)| {
            let text = text.as_ref();
            *first.entry(text).or_insert_with(|| {
                distinct.push(text);
                distinct.len() - 1
            })
        })
        .collect();
    drop(first);
    let count = |text: &&str| encoding.count(text);
    let counts: Vec<usize> = if parallel {
        distinct.par_iter().map(count).collect()
    } else {
        distinct.iter().map(count).collect()
    };
    which.into_iter().map(|index| counts[index]).collect()
}

impl Counter {
    pub fn new(encoding: Encoding) -> Counter {
        Counter {
            encoding,
            shared: Arc::default(),
            own: Memo::default(),
        }
    }

    /// A counter for another thread that starts from everything this one has counted (which
    /// becomes read-only, shared by both); what either counts next is its own.
    pub fn fork(&mut self) -> Counter {
        if !self.own.texts.is_empty() || !self.own.schemas.is_empty() {
            let own = std::mem::take(&mut self.own);
            if self.shared.texts.is_empty() && self.shared.schemas.is_empty() {
                self.shared = Arc::new(own);
            } else {
                let shared = Arc::make_mut(&mut self.shared);
                shared.texts.extend(own.texts);
                shared.schemas.extend(own.schemas);
            }
        }
        Counter {
            encoding: self.encoding,
            shared: self.shared.clone(),
            own: Memo::default(),
        }
    }

    /// Takes in what a fork of this counter counted.
    pub fn absorb(&mut self, fork: Counter) {
        // Most often the fork is the one that counted anything.
        if self.own.texts.is_empty() && self.own.schemas.is_empty() {
            self.own = fork.own;
            return;
        }
        for (node, count) in fork.own.texts {
            self.own.texts.entry(node).or_insert(count);
        }
        for (node, schema) in fork.own.schemas {
            match self.own.schemas.entry(node) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(schema);
                }
                std::collections::hash_map::Entry::Occupied(mut slot) => {
                    if slot.get().tokens.is_none() && schema.tokens.is_some() {
                        slot.insert(schema);
                    }
                }
            }
        }
    }

    /// Tokens of a string node (0 for any other node).
    pub fn text(&mut self, node: &Node) -> usize {
        let Some(text) = node.as_str() else {
            return 0;
        };
        if let Some(count) = self.shared.texts.get(&key(node)) {
            return *count;
        }
        let encoding = self.encoding;
        *self
            .own
            .texts
            .entry(key(node))
            .or_insert_with(|| encoding.count(text))
    }

    /// Tokens of a string node when over `budget`; texts of at most `budget` bytes are never
    /// tokenized.
    pub fn text_over(&mut self, node: &Node, budget: usize) -> Option<usize> {
        if node.as_str().is_none_or(|text| text.len() <= budget) {
            return None;
        }
        Some(self.text(node)).filter(|count| *count > budget)
    }

    /// This counter's own entry of a schema (a copy of the shared one, if there is one).
    fn schema_entry(&mut self, node: &Node) -> &mut Schema {
        let shared = &self.shared;
        self.own.schemas.entry(key(node)).or_insert_with(|| {
            if let Some(schema) = shared.schemas.get(&key(node)) {
                return schema.clone();
            }
            let compact = node.to_json_string();
            Schema {
                bytes: compact.len(),
                compact: Some(compact),
                tokens: None,
            }
        })
    }

    /// Bytes of a schema as compact JSON.
    pub fn schema_bytes(&mut self, node: &Node) -> usize {
        if let Some(schema) = self.shared.schemas.get(&key(node)) {
            return schema.bytes;
        }
        self.schema_entry(node).bytes
    }

    /// Tokens of a schema as compact JSON (what a provider sends).
    pub fn schema(&mut self, node: &Node) -> usize {
        if let Some(tokens) = self
            .shared
            .schemas
            .get(&key(node))
            .and_then(|schema| schema.tokens)
        {
            return tokens;
        }
        let encoding = self.encoding;
        let schema = self.schema_entry(node);
        if let Some(tokens) = schema.tokens {
            return tokens;
        }
        let tokens = encoding.count(schema.compact.take().as_deref().unwrap_or_default());
        schema.tokens = Some(tokens);
        tokens
    }

    /// Tokens of a schema when over `budget`; a schema of at most `budget` bytes of compact
    /// JSON is never tokenized.
    pub fn schema_over(&mut self, node: &Node, budget: usize) -> Option<usize> {
        if self.schema_bytes(node) <= budget {
            return None;
        }
        Some(self.schema(node)).filter(|count| *count > budget)
    }

    /// Bytes of everything [`ToolTokens`] counts: an upper bound of its total.
    pub fn tool_bytes(&mut self, tool: &impl ToolParts) -> usize {
        let text = |node: Option<&Node>| node.and_then(Node::as_str).map_or(0, str::len);
        let guidelines: usize = tool.guidelines().map(|node| text(Some(node))).sum();
        let schema = tool
            .input_schema()
            .map_or(0, |node| self.schema_bytes(node));
        text(tool.name_node())
            + text(tool.description())
            + text(tool.snippet())
            + guidelines
            + schema
    }

    /// The sum of [`Counter::tool_bytes`] over `tools`, their schemas serialized on all cores
    /// when there are many.
    pub fn tools_bytes<T: ToolParts>(&mut self, tools: &[&T]) -> usize {
        self.serialize_schemas(tools);
        tools.iter().map(|tool| self.tool_bytes(*tool)).sum()
    }

    /// Serializes to compact JSON the schemas of `tools` not serialized yet, on all cores when
    /// there are many (100,000 small schemas: a tenth of a second on one core); a few are left
    /// to [`Counter::schema_entry`].
    fn serialize_schemas<T: ToolParts>(&mut self, tools: &[&T]) {
        const PARALLEL_SCHEMAS: usize = 256;
        let fresh: Vec<&Node> = tools
            .iter()
            .filter_map(|tool| tool.input_schema())
            .filter(|node| {
                !self.shared.schemas.contains_key(&key(node))
                    && !self.own.schemas.contains_key(&key(node))
            })
            .collect();
        if fresh.len() < PARALLEL_SCHEMAS {
            return;
        }
        let compacts: Vec<String> = fresh
            .par_iter()
            .with_min_len(PARALLEL_SCHEMAS / 4)
            .map(|node| node.to_json_string())
            .collect();
        // A schema shared by several tools (YAML aliases) is kept once.
        for (node, compact) in fresh.into_iter().zip(compacts) {
            self.own.schemas.entry(key(node)).or_insert(Schema {
                bytes: compact.len(),
                compact: Some(compact),
                tokens: None,
            });
        }
    }

    /// Token counts of many tools, as [`Counter::tool`] gives them one by one; the texts not
    /// counted yet are tokenized on all cores when there are enough of them, so that one
    /// large file is not a single thread's work.
    pub fn tools<T: ToolParts>(&mut self, tools: &[&T]) -> Vec<ToolTokens> {
        // What is not counted yet, each once: a text is claimed in the memo as it is queued
        // (0 until counted), a schema's compact text taken out of its entry.
        self.serialize_schemas(tools);
        let mut texts: Vec<(NodeKey, &str)> = Vec::new();
        let mut schemas: Vec<(NodeKey, String)> = Vec::new();
        for tool in tools {
            let nodes = [tool.name_node(), tool.description(), tool.snippet()]
                .into_iter()
                .flatten()
                .chain(tool.guidelines());
            for node in nodes {
                if let Some(text) = node.as_str()
                    && !self.shared.texts.contains_key(&key(node))
                    && let std::collections::hash_map::Entry::Vacant(slot) =
                        self.own.texts.entry(key(node))
                {
                    slot.insert(0);
                    texts.push((key(node), text));
                }
            }
            if let Some(node) = tool.input_schema()
                && self
                    .shared
                    .schemas
                    .get(&key(node))
                    .is_none_or(|schema| schema.tokens.is_none())
            {
                let schema = self.schema_entry(node);
                if schema.tokens.is_none()
                    && let Some(compact) = schema.compact.take()
                {
                    schemas.push((key(node), compact));
                }
            }
        }
        let bytes: usize = texts.iter().map(|(_, text)| text.len()).sum::<usize>()
            + schemas.iter().map(|(_, text)| text.len()).sum::<usize>();
        // Below this, threads cost more than they save.
        const PARALLEL_BYTES: usize = 64 * 1024;
        let encoding = self.encoding;
        // Rayon splits the texts adaptively (further when a thread steals), so texts of very
        // different sizes still spread over all cores.
        let parallel = bytes >= PARALLEL_BYTES;
        let text_counts = count_all(&texts, encoding, parallel);
        let schema_counts = count_all(&schemas, encoding, parallel);
        for ((node_key, _), count) in texts.into_iter().zip(text_counts) {
            self.own.texts.insert(node_key, count);
        }
        for ((node_key, _), count) in schemas.into_iter().zip(schema_counts) {
            if let Some(entry) = self.own.schemas.get_mut(&node_key) {
                entry.tokens = Some(count);
            }
        }
        tools.iter().map(|tool| self.tool(*tool)).collect()
    }

    /// Each tool's total tokens ([`Counter::tools`] summed per tool).
    pub fn totals<T: ToolParts>(&mut self, tools: &[&T]) -> Vec<usize> {
        self.tools(tools).iter().map(ToolTokens::total).collect()
    }

    /// Token counts of a tool's parts; each part is counted once per file (the sum is not
    /// kept: it is a few lookups, and a large set has a hundred thousand tools).
    pub fn tool(&mut self, tool: &impl ToolParts) -> ToolTokens {
        let mut count = |node: Option<&Node>| node.map_or(0, |node| self.text(node));
        ToolTokens {
            name: count(tool.name_node()),
            description: count(tool.description()),
            snippet: count(tool.snippet()),
            guidelines: tool.guidelines().map(|node| count(Some(node))).sum(),
            schema: tool.input_schema().map_or(0, |node| self.schema(node)),
        }
    }
}
