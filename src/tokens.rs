//! Exact tiktoken counts, with the encoding built only when a text could exceed a budget.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

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
        let bpe = match self {
            Encoding::O200kBase => tiktoken_rs::o200k_base_singleton(),
            Encoding::Cl100kBase => tiktoken_rs::cl100k_base_singleton(),
        };
        bpe.encode_ordinary(text).len()
    }

    /// The token count when it exceeds `budget`, else `None`. A token is at least one byte,
    /// so a text of at most `budget` bytes never loads the encoding.
    pub fn count_over(self, text: &str, budget: usize) -> Option<usize> {
        if text.len() <= budget {
            return None;
        }
        let count = self.count(text);
        (count > budget).then_some(count)
    }

    /// The token count of each part when together they exceed `budget`, else `None`. Each part
    /// is counted on its own, as the separate field a host sends. Parts of at most `budget`
    /// bytes in all never load the encoding.
    pub fn count_parts_over(self, parts: &[&str], budget: usize) -> Option<Vec<usize>> {
        let bytes: usize = parts.iter().map(|part| part.len()).sum();
        if bytes <= budget {
            return None;
        }
        let counts: Vec<usize> = parts.iter().map(|part| self.count(part)).collect();
        (counts.iter().sum::<usize>() > budget).then_some(counts)
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

    #[test]
    fn count_over_reports_only_counts_over_the_budget() {
        let text = "hello world"; // 2 tokens, 11 bytes
        for encoding in Encoding::ALL {
            assert_eq!(encoding.count_over(text, 1), Some(2));
            assert_eq!(
                encoding.count_over(text, 2),
                None,
                "equal to the budget is fine"
            );
            assert_eq!(encoding.count_over(text, 10), None);
        }
    }

    #[test]
    fn short_texts_never_load_the_encoding() {
        let before = loads();
        for encoding in Encoding::ALL {
            for &(text, ..) in CASES {
                // A token is at least one byte: a text of at most `budget` bytes fits.
                assert_eq!(encoding.count_over(text, text.len()), None);
                assert_eq!(
                    encoding.count_parts_over(&[text, text], 2 * text.len()),
                    None
                );
            }
            assert_eq!(encoding.count_over(&"a".repeat(10_000), 10_000), None);
        }
        assert_eq!(loads(), before, "the encoding was asked to count");
    }

    #[test]
    fn count_parts_over_counts_each_part() {
        let parts = ["hello world", "hello world", ""];
        assert_eq!(O200kBase.count_parts_over(&parts, 3), Some(vec![2, 2, 0]));
        assert_eq!(O200kBase.count_parts_over(&parts, 4), None);
        assert_eq!(Cl100kBase.count_parts_over(&[], 0), None);
    }
}
