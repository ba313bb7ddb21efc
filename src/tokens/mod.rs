//! Exact tiktoken counts (our own byte-pair encoder over vocabulary tables read in place from
//! the binary, `bpe.rs`; tests/tokens.rs checks its counts against tiktoken-rs as the oracle),
//! with an encoding used only when a text could exceed a budget, and a per-file [`Counter`] so
//! that no text is tokenized twice however many rules ask.

mod bpe;
pub mod budget;
mod counter;
mod table;

use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::parse::Node;

pub use counter::Counter;

/// A tiktoken encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Encoding {
    #[default]
    O200kBase,
    Cl100kBase,
}

impl Encoding {
    pub const ALL: [Encoding; 2] = [Encoding::O200kBase, Encoding::Cl100kBase];

    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::O200kBase => "o200k_base",
            Encoding::Cl100kBase => "cl100k_base",
        }
    }

    /// Exact token count of `text` (special-token text counts as ordinary text).
    pub fn count(self, text: &str) -> usize {
        #[cfg(test)]
        tests::LOADS.with(|loads| loads.set(loads.get() + 1));
        bpe::count(self, text)
    }
}

/// What the counter counts of a tool: the parts a model reads, each a node of the file
/// (`normalize::Tool` is one).
pub trait ToolParts {
    fn name_node(&self) -> Option<&Node>;
    fn description(&self) -> Option<&Node>;
    fn snippet(&self) -> Option<&Node>;
    fn guidelines(&self) -> impl Iterator<Item = &Node>;
    fn input_schema(&self) -> Option<&Node>;
}

/// Token counts of the parts of one tool that a provider sends with every request: the budget
/// of `tool-too-long` (TC106), summed by `toolset-too-large` (TC107) and `toolcheck tokens`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ToolTokens {
    pub name: usize,
    pub description: usize,
    pub snippet: usize,
    /// All guidelines together, each counted on its own.
    pub guidelines: usize,
    /// The input schema as compact JSON.
    pub schema: usize,
}

impl ToolTokens {
    pub fn total(&self) -> usize {
        self.name + self.description + self.snippet + self.guidelines + self.schema
    }
}

/// A hasher for keys that are already hashes, packed ranks or node addresses: one multiply a
/// word spreads them (the memo's node keys through SipHash: 100,000 small tools 0.03-0.08 s
/// slower).
#[derive(Default, Clone, Copy)]
pub(crate) struct Mixed(u64);

impl Hasher for Mixed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }

    fn write_u64(&mut self, value: u64) {
        let mixed = (self.0 ^ value).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = mixed ^ (mixed >> 32);
    }
}

impl BuildHasher for Mixed {
    type Hasher = Mixed;

    fn build_hasher(&self) -> Mixed {
        Mixed(0)
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Encoding {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Encoding::ALL
            .into_iter()
            .find(|encoding| encoding.as_str() == name)
            .ok_or_else(|| {
                format!("unknown tokenizer `{name}`: expected `o200k_base` or `cl100k_base`")
            })
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::Encoding::{self, Cl100kBase, O200kBase};

    thread_local! {
        /// How often this thread asked an encoding to count (and so possibly to load).
        pub(super) static LOADS: Cell<usize> = const { Cell::new(0) };
    }

    fn loads() -> usize {
        LOADS.with(Cell::get)
    }

    /// (text, o200k_base, cl100k_base). Expected counts were computed once with Python
    /// `tiktoken` 0.14.0 `encode_ordinary`, on the same `.tiktoken` vocabularies (whose SHA-256
    /// tiktoken verified), so they check tiktoken-rs against an independent implementation.
    const CASES: &[(&str, usize, usize)] = &[
        ("", 0, 0),
        ("hello world", 2, 2),
        (
            "Search the documentation by keyword and return the ten best matching pages.",
            13,
            13,
        ),
        // CJK (Chinese, with full-width punctuation).
        (
            "\u{5929}\u{6c14}\u{9884}\u{62a5}\u{ff1a}\u{67e5}\u{8be2}\u{57ce}\u{5e02}\u{7684}\u{5f53}\u{524d}\u{5929}\u{6c14}\u{3002}",
            10,
            15,
        ),
        // Japanese (kanji and hiragana).
        (
            "\u{6771}\u{4eac}\u{306e}\u{5929}\u{6c17}\u{3092}\u{8abf}\u{3079}\u{3066}\u{304f}\u{3060}\u{3055}\u{3044}",
            9,
            13,
        ),
        // Family emoji joined by ZWJ, and a rainbow flag with VS16 + ZWJ.
        (
            "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}\u{200d}\u{1f466} family \u{1f3f3}\u{fe0f}\u{200d}\u{1f308}",
            19,
            28,
        ),
        // Precomposed accented Latin letters.
        (
            "Caf\u{e9} d\u{e9}j\u{e0} vu, na\u{ef}ve fa\u{e7}ade, \u{c6}r\u{f8}sk\u{f8}bing",
            15,
            18,
        ),
        // Greek, Cyrillic, Arabic.
        (
            "\u{395}\u{3bb}\u{3bb}\u{3b7}\u{3bd}\u{3b9}\u{3ba}\u{3ac} \u{420}\u{443}\u{441}\u{441}\u{43a}\u{438}\u{439} \u{627}\u{644}\u{639}\u{631}\u{628}\u{64a}\u{629}",
            6,
            18,
        ),
        (
            r#"{"type":"object","properties":{"query":{"type":"string"}}}"#,
            14,
            14,
        ),
        // Special-token text is ordinary text.
        ("<|endoftext|>", 7, 7),
        ("a \n\n\t  b", 4, 4),
    ];

    #[test]
    fn repeated_texts_are_counted_once_each_with_its_count() {
        let texts: Vec<((usize, u64), &str)> = ["hello world", "<|endoftext|>", "hello world", ""]
            .into_iter()
            .enumerate()
            .map(|(at, text)| ((at, 0), text))
            .collect();
        for parallel in [false, true] {
            let before = loads();
            assert_eq!(
                super::counter::count_all(&texts, O200kBase, parallel),
                [2, 7, 2, 0],
                "parallel: {parallel}"
            );
            if !parallel {
                // Three distinct texts, the empty one among them.
                assert_eq!(loads() - before, 3);
            }
        }
    }

    #[test]
    fn exact_counts_for_fixed_texts() {
        for &(text, o200k, cl100k) in CASES {
            assert_eq!(O200kBase.count(text), o200k, "o200k_base: {text:?}");
            assert_eq!(Cl100kBase.count(text), cl100k, "cl100k_base: {text:?}");
        }
    }

    #[test]
    fn exact_counts_for_long_repetitive_input() {
        let a = "a".repeat(10_000);
        let spaces = " ".repeat(10_000);
        // Digits split into groups of at most three: ceil(1000 / 3) = 334.
        let digits = "1234567890".repeat(100);
        for encoding in Encoding::ALL {
            assert_eq!(encoding.count(&a), 1250, "{encoding}: a x 10000");
            assert_eq!(encoding.count(&spaces), 79, "{encoding}: space x 10000");
            assert_eq!(encoding.count(&digits), 334, "{encoding}: digits x 1000");
        }
    }

    /// A string node holding `text`.
    fn text_node(text: &str) -> crate::parse::Node {
        crate::parse::json::parse(&serde_json::Value::from(text).to_string()).unwrap()
    }

    #[test]
    fn text_over_reports_only_counts_over_the_budget() {
        let node = text_node("hello world"); // 2 tokens, 11 bytes
        for encoding in Encoding::ALL {
            let mut counter = super::Counter::new(encoding);
            assert_eq!(counter.text_over(&node, 1), Some(2));
            assert_eq!(
                counter.text_over(&node, 2),
                None,
                "equal to the budget is fine"
            );
            assert_eq!(counter.text_over(&node, 10), None);
        }
    }

    #[test]
    fn short_texts_and_schemas_never_load_the_encoding() {
        let before = loads();
        let schema = crate::parse::json::parse(r#"{"type": "object"}"#).unwrap();
        for encoding in Encoding::ALL {
            let mut counter = super::Counter::new(encoding);
            for &(text, ..) in CASES {
                // A token is at least one byte: a text of at most `budget` bytes fits.
                assert_eq!(counter.text_over(&text_node(text), text.len()), None);
            }
            assert_eq!(
                counter.text_over(&text_node(&"a".repeat(10_000)), 10_000),
                None
            );
            assert_eq!(
                counter.schema_over(&schema, 17),
                None,
                "17 bytes of compact JSON"
            );
        }
        assert_eq!(loads(), before, "the encoding was asked to count");
    }

    #[test]
    fn counter_counts_each_node_once_and_matches_count() {
        let text = r#"{"name": "search", "description": "Search the documentation by keyword and return the ten best matching pages.", "guidelines": ["Call search for docs.", "Not for code."], "schema": {"type": "object", "properties": {"query": {"type": "string"}}}}"#;
        let root = crate::parse::json::parse(text).unwrap();
        let (set, errors) = crate::normalize::normalize_alone(&root);
        assert!(errors.is_empty(), "{errors:?}");
        let tool = &set.tools[0];
        let mut counter = super::Counter::new(O200kBase);
        let tokens = counter.tool(tool);
        let schema = r#"{"type":"object","properties":{"query":{"type":"string"}}}"#;
        assert_eq!(tokens.name, O200kBase.count("search"));
        assert_eq!(
            tokens.description,
            O200kBase.count(tool.description().unwrap().as_str().unwrap())
        );
        assert_eq!(
            tokens.guidelines,
            O200kBase.count("Call search for docs.") + O200kBase.count("Not for code.")
        );
        assert_eq!(tokens.schema, O200kBase.count(schema));
        assert_eq!(
            counter.schema_bytes(tool.input_schema().unwrap()),
            schema.len()
        );
        assert_eq!(
            tokens.total(),
            tokens.name + tokens.description + tokens.snippet + tokens.guidelines + tokens.schema
        );
        let before = loads();
        assert_eq!(counter.tool(tool), tokens);
        assert_eq!(
            counter.text(tool.description().unwrap()),
            tokens.description
        );
        assert_eq!(counter.schema(tool.input_schema().unwrap()), tokens.schema);
        assert_eq!(loads(), before, "a cached count was tokenized again");
        // Over-budget checks reuse the cache and skip texts that fit by their bytes.
        assert_eq!(
            counter.text_over(tool.description().unwrap(), 5),
            Some(tokens.description)
        );
        assert_eq!(
            counter.schema_over(tool.input_schema().unwrap(), 1000),
            None
        );
        assert_eq!(loads(), before);
    }

    /// A fork reads what was counted before it without counting again, and what it counts
    /// itself stays its own.
    #[test]
    fn a_fork_shares_the_counts_made_before_it() {
        let text = r#"[{"name": "a", "description": "Search the docs.", "inputSchema": {"type": "object"}},
                       {"name": "b", "description": "Fetch one page.", "inputSchema": {"type": "object", "required": []}}]"#;
        let root = crate::parse::json::parse(text).unwrap();
        let (set, _) = crate::normalize::normalize_alone(&root);
        let (a, b) = (&set.tools[0], &set.tools[1]);
        let mut counter = super::Counter::new(O200kBase);
        let a_tokens = counter.tool(a);
        let mut fork = counter.fork();
        let before = loads();
        assert_eq!(fork.tool(a), a_tokens);
        assert_eq!(loads(), before, "a shared count was tokenized again");
        let b_tokens = fork.tool(b);
        assert!(loads() > before);
        assert_eq!(fork.tools(&[a, b]), vec![a_tokens, b_tokens]);
        // The fork's counts are not the parent's: the parent counts `b` itself.
        let before = loads();
        assert_eq!(counter.tool(b), b_tokens);
        assert!(loads() > before);
        // A second fork starts from both of the parent's.
        let before = loads();
        assert_eq!(counter.fork().tools(&[a, b]), vec![a_tokens, b_tokens]);
        assert_eq!(loads(), before);
        // What forks counted, their parent takes in, beside what it counted itself.
        let mut parent = super::Counter::new(O200kBase);
        let (mut fork_a, mut fork_b) = (parent.fork(), parent.fork());
        fork_a.tool(a);
        fork_b.tool(b);
        parent.absorb(fork_a);
        parent.absorb(fork_b);
        let before = loads();
        assert_eq!(parent.tools(&[a, b]), vec![a_tokens, b_tokens]);
        assert_eq!(loads(), before);
    }

    #[test]
    fn counting_many_tools_at_once_equals_one_by_one() {
        // Over the parallel threshold: 300 tools of about 400 bytes each.
        let tools: Vec<String> = (0..300)
            .map(|i| {
                format!(
                    r#"{{"name": "tool_{i}", "description": "{} {i}", "guidelines": ["Call tool_{i} first."], "inputSchema": {{"type": "object", "properties": {{"q{i}": {{"type": "string"}}}}}}}}"#,
                    "Search the manual by keyword and return the best pages. ".repeat(4 + i % 7)
                )
            })
            .collect();
        let text = format!(r#"{{"tools": [{}]}}"#, tools.join(","));
        let root = crate::parse::json::parse(&text).unwrap();
        let (set, _) = crate::normalize::normalize_alone(&root);
        let all: Vec<_> = set.tools.iter().collect();
        let mut together = super::Counter::new(O200kBase);
        // Some parts already cached, as earlier rules leave them.
        together.text(all[0].description().unwrap());
        together.schema(all[1].input_schema().unwrap());
        let at_once = together.tools(&all);
        let mut single = super::Counter::new(O200kBase);
        let one_by_one: Vec<_> = all.iter().map(|tool| single.tool(*tool)).collect();
        assert_eq!(at_once.len(), 300);
        assert_eq!(at_once, one_by_one);
        assert_ne!(at_once[0], at_once[1]);
        // The schemas serialized all at once, then counted.
        let mut serialized = super::Counter::new(O200kBase);
        let bytes: usize = all.iter().map(|tool| single.tool_bytes(*tool)).sum();
        assert_eq!(serialized.tools_bytes(&all), bytes);
        assert_eq!(serialized.tools(&all), one_by_one);
    }
}
