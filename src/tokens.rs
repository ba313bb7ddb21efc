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
