//! Anthropic's `tool_search_tool_bm25`, simulated: standard BM25 (k1 = 1.2, b = 0.75) over
//! names, descriptions, argument names and their descriptions.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use super::terms::tokens;
use super::{Answer, B, Field, Hit, Index, K1, Match, Path, sort};

/// What BM25 knows about one term in one tool: its count in each field.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Counts {
    pub(super) name: u32,
    pub(super) description: u32,
    pub(super) argument_name: u32,
    pub(super) argument_description: u32,
}

impl Counts {
    fn total(self) -> u32 {
        self.name + self.description + self.argument_name + self.argument_description
    }
}

#[derive(Debug, Default)]
pub(super) struct Bm25 {
    pub(super) postings: HashMap<String, Vec<(usize, Counts)>>,
    pub(super) lengths: Vec<usize>,
    pub(super) average: f64,
}

impl Index {
    /// Each tool `term` occurs in, with its counts and the term's BM25 weight there.
    fn weighted(&self, term: &str) -> impl Iterator<Item = (usize, Counts, f64)> + '_ {
        let postings = self.bm25.postings.get(term).map_or(&[][..], Vec::as_slice);
        let df = postings.len();
        postings
            .iter()
            .map(move |&(doc, counts)| (doc, counts, self.weight(df, doc, counts)))
    }

    /// The BM25 weight of a term found in `df` tools, in `doc` with `counts`.
    fn weight(&self, df: usize, doc: usize, counts: Counts) -> f64 {
        let (n, df) = (self.docs.len() as f64, df as f64);
        let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
        let tf = f64::from(counts.total());
        let length = self.bm25.lengths[doc] as f64;
        let norm = if self.bm25.average > 0.0 {
            1.0 - B + B * length / self.bm25.average
        } else {
            1.0
        };
        idf * tf * (K1 + 1.0) / (tf + K1 * norm)
    }

    /// Standard BM25 (k1 = 1.2, b = 0.75) with Lucene's idf, `ln(1 + (N − n + 0.5)/(n + 0.5))`,
    /// which stays positive for terms in most tools.
    pub(super) fn bm25(&self, query: &str) -> Answer {
        let mut scores: HashMap<usize, Hit> = HashMap::new();
        let mut seen = HashSet::new();
        for term in tokens(query) {
            if !seen.insert(term.clone()) {
                continue;
            }
            for (doc, counts, weight) in self.weighted(&term) {
                let tf = f64::from(counts.total());
                let hit = scores.entry(doc).or_insert_with(|| Self::listed(doc));
                hit.score += weight;
                // The term's weight, shared among its fields by their counts.
                for (field, count) in [
                    (Field::Name, counts.name),
                    (Field::Description, counts.description),
                    (Field::ArgumentName, counts.argument_name),
                    (Field::ArgumentDescription, counts.argument_description),
                ] {
                    if count > 0 {
                        hit.why.push(Match {
                            term: term.clone(),
                            field,
                            count: Some(count as usize),
                            weight: weight * f64::from(count) / tf,
                        });
                    }
                }
            }
        }
        let mut hits: Vec<Hit> = scores.into_values().filter(|hit| hit.score > 0.0).collect();
        sort(&mut hits);
        Self::answer(Path::Scored, hits)
    }

    /// The BM25 score of one tool for a query's distinct terms ([`query_terms`]), summed in
    /// their order as [`Engine::Bm25`] sums them, without the "why": for checks that score a
    /// few chosen tools per query (a binary search per term, no pass over other tools).
    pub fn bm25_score(&self, terms: &[String], doc: usize) -> f64 {
        let mut score = 0.0;
        for term in terms {
            let postings = self.bm25.postings.get(term).map_or(&[][..], Vec::as_slice);
            if let Ok(at) = postings.binary_search_by_key(&doc, |&(doc, _)| doc) {
                score += self.weight(postings.len(), doc, postings[at].1);
            }
        }
        score
    }
}
