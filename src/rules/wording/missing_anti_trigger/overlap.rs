//! Which other tool of a file is closest to each tool (tf-idf cosine over the words of names
//! and descriptions), for the help of `missing-anti-trigger` to name.

use foldhash::{HashMap, HashMapExt};

use super::words;
use crate::normalize::Tool;
use crate::text::identifier::split_identifier;

/// Which other tool of a file is closest to each tool, by the words of their names and
/// descriptions, weighted by how rare each word is in the file (tf-idf cosine).
pub(super) struct Overlap {
    /// Each tool's terms and weights, by index into the tool set.
    vectors: Vec<Vec<(usize, f64)>>,
    /// For each term, the tools that have it.
    postings: Vec<Vec<(usize, f64)>>,
    names: Vec<String>,
    /// Scratch space of [`Overlap::closest`]: a score per tool, and the tools scored.
    scores: Vec<f64>,
    touched: Vec<usize>,
}

/// The least similarity (cosine, 0 to 1) at which another tool is named in the help: below
/// it, two tools share only words common in the file, and the suggestion would mislead.
const MIN_OVERLAP: f64 = 0.15;

/// The most tools a word may be in for [`Overlap::closest`] to follow it.
const MAX_SHARED: usize = 1000;

/// How much more a word of the name counts than a word of the description.
const NAME_WEIGHT: f64 = 3.0;

impl Overlap {
    pub(super) fn new(tools: &[Tool<'_>]) -> Overlap {
        let mut ids: HashMap<String, usize> = HashMap::new();
        let mut counts: Vec<Vec<(usize, f64)>> = Vec::with_capacity(tools.len());
        for tool in tools {
            let mut terms: HashMap<usize, f64> = HashMap::new();
            let mut add = |word: String, weight: f64| {
                let next = ids.len();
                let id = *ids.entry(word).or_insert(next);
                let slot = terms.entry(id).or_insert(0.0);
                *slot = slot.max(weight);
            };
            for word in split_identifier(tool.name()) {
                if word.chars().count() >= 3 && !STOP_WORDS.contains(&word.as_str()) {
                    // Two tools that only share a verb (`create_coupon`, `create_collection`)
                    // act on different things: the verb counts as a description word.
                    let weight = if NAME_VERBS.contains(&word.as_str()) {
                        1.0
                    } else {
                        NAME_WEIGHT
                    };
                    add(stem(&word), weight);
                }
            }
            let description = tool
                .description()
                .and_then(|node| node.as_str())
                .unwrap_or_default();
            for word in words(description) {
                if word.chars().count() >= 3
                    && word.chars().all(char::is_alphabetic)
                    && !STOP_WORDS.contains(&word.as_str())
                {
                    add(stem(&word), 1.0);
                }
            }
            // In term order: the scores are sums of floats, and a sum in hash order differs
            // in its last bits from run to run, which would pick another of two equal tools.
            let mut terms: Vec<(usize, f64)> = terms.into_iter().collect();
            terms.sort_unstable_by_key(|&(term, _)| term);
            counts.push(terms);
        }
        let mut documents = vec![0usize; ids.len()];
        for terms in &counts {
            for &(term, _) in terms {
                documents[term] += 1;
            }
        }
        let total = tools.len() as f64;
        let vectors: Vec<Vec<(usize, f64)>> = counts
            .into_iter()
            .map(|terms| {
                // A word every tool has tells them apart by nothing: its weight is 0.
                let weighted: Vec<(usize, f64)> = terms
                    .into_iter()
                    .map(|(term, weight)| (term, weight * (total / documents[term] as f64).ln()))
                    .filter(|&(_, weight)| weight > 0.0)
                    .collect();
                let norm = weighted.iter().map(|(_, w)| w * w).sum::<f64>().sqrt();
                weighted
                    .into_iter()
                    .map(|(term, weight)| (term, weight / norm))
                    .collect()
            })
            .collect();
        let mut postings: Vec<Vec<(usize, f64)>> = vec![Vec::new(); ids.len()];
        for (tool, terms) in vectors.iter().enumerate() {
            for &(term, weight) in terms {
                postings[term].push((tool, weight));
            }
        }
        Overlap {
            vectors,
            postings,
            names: tools.iter().map(|tool| tool.name().to_string()).collect(),
            scores: vec![0.0; tools.len()],
            touched: Vec::new(),
        }
    }

    /// The tool most like `tool` (not one of the same name), when one is close enough.
    pub(super) fn closest(&mut self, tool: usize) -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for &(term, weight) in &self.vectors[tool] {
            let postings = &self.postings[term];
            // A word of more than `MAX_SHARED` tools tells little about which one takes over,
            // and following it for every tool would make a large file's search quadratic.
            if postings.len() > MAX_SHARED {
                continue;
            }
            for &(other, other_weight) in postings {
                if self.scores[other] == 0.0 {
                    self.touched.push(other);
                }
                self.scores[other] += weight * other_weight;
            }
        }
        let name = &self.names[tool];
        for &other in &self.touched {
            let score = self.scores[other];
            let same_name = &self.names[other] == name || self.names[other].is_empty();
            // Highest score; the first in the file among equals.
            let better = best.is_none_or(|(at, top)| score > top || (score == top && other < at));
            if !same_name && score >= MIN_OVERLAP && better {
                best = Some((other, score));
            }
        }
        for &other in &self.touched {
            self.scores[other] = 0.0;
        }
        self.touched.clear();
        best.map(|(other, _)| other)
    }
}

/// Verbs that open tool names; what a tool acts on tells tools apart better.
const NAME_VERBS: &[&str] = &[
    "get", "list", "create", "update", "delete", "remove", "add", "set", "search", "find", "read",
    "write", "fetch", "run", "start", "stop", "put", "post", "patch", "edit", "make", "new",
    "retrieve", "query", "execute",
];

/// A crude plural stem, so `issue` and `issues` are one word.
pub(super) fn stem(word: &str) -> String {
    let stemmed = word
        .strip_suffix("ies")
        .map(|stem| format!("{stem}y"))
        .or_else(|| {
            (word.len() > 3 && !word.ends_with("ss") && !word.ends_with("us"))
                .then(|| word.strip_suffix('s'))
                .flatten()
                .map(str::to_string)
        });
    stemmed.unwrap_or_else(|| word.to_string())
}

const STOP_WORDS: &[&str] = &[
    "the",
    "and",
    "for",
    "with",
    "this",
    "that",
    "from",
    "into",
    "are",
    "was",
    "were",
    "will",
    "can",
    "may",
    "not",
    "you",
    "your",
    "its",
    "use",
    "used",
    "using",
    "tool",
    "tools",
    "function",
    "when",
    "what",
    "which",
    "who",
    "all",
    "any",
    "one",
    "get",
    "set",
    "has",
    "have",
    "been",
    "also",
    "such",
    "more",
    "than",
    "only",
    "each",
    "per",
    "other",
    "given",
    "specified",
    "specific",
    "provided",
    "based",
    "about",
    "their",
    "them",
    "they",
    "there",
    "then",
    "should",
    "must",
    "would",
    "could",
    "does",
    "don't",
    "like",
    "via",
    "e.g",
    "etc",
    "new",
    "list",
    "returns",
    "return",
    "optional",
    "required",
    "default",
];
