//! Tool-search simulation: how a host or provider that defers tools would rank them for a
//! query. An [`Index`] is built once over the tools ([`Doc`]s); each query then runs against
//! it. Three engines (docs/search.md says where each comes from):
//!
//! - [`Engine::ClaudeCode`]: Claude Code's `ToolSearch` keyword scoring (2.0.x reading);
//!   [`Engine::ClaudeCode21`] adds the 2.1.x whole-name bonus.
//! - [`Engine::Bm25`]: Anthropic's `tool_search_tool_bm25`, simulated with standard BM25
//!   (k1 = 1.2, b = 0.75) over names, descriptions, argument names and their descriptions.
//! - [`Engine::Regex`]: Anthropic's `tool_search_tool_regex`: a Python-style pattern of at
//!   most 200 characters searched in the same fields.

pub mod derive;
pub mod docs;
mod terms;

use terms::{bare_name, whole_word, words};
pub use terms::{name_parts, query_terms, tokens};

use std::sync::OnceLock;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use serde::Serialize;

/// Claude Code's `ToolSearch` returns this many tools.
pub const CLAUDE_CODE_TOP: usize = 5;
/// Anthropic's server-side tool search returns 3–5 tools; the rules assume the lower bound.
pub const BM25_TOP: usize = 3;
/// Anthropic's regex variant rejects longer patterns (`pattern_too_long`).
pub const MAX_PATTERN: usize = 200;
pub const K1: f64 = 1.2;
pub const B: f64 = 0.75;

/// A search engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    #[serde(rename = "claude-code")]
    ClaudeCode,
    #[serde(rename = "claude-code-2.1")]
    ClaudeCode21,
    Bm25,
    Regex,
}

impl Engine {
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::ClaudeCode => "claude-code",
            Engine::ClaudeCode21 => "claude-code-2.1",
            Engine::Bm25 => "bm25",
            Engine::Regex => "regex",
        }
    }

    /// How many tools one search returns.
    pub fn default_top(self) -> usize {
        match self {
            Engine::ClaudeCode | Engine::ClaudeCode21 => CLAUDE_CODE_TOP,
            Engine::Bm25 => BM25_TOP,
            Engine::Regex => CLAUDE_CODE_TOP,
        }
    }

    /// Whether the engine sees the names a host sends (`mcp__server__tool`).
    pub fn host_names(self) -> bool {
        matches!(self, Engine::ClaudeCode | Engine::ClaudeCode21)
    }
}

/// One tool as a search engine sees it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Doc {
    /// The name the engine sees (for Claude Code, the name it sends: `mcp__server__tool`).
    pub name: String,
    /// The tool's own name, as its file writes it.
    pub tool: String,
    /// The file the tool comes from.
    pub file: String,
    #[serde(skip)]
    pub description: String,
    #[serde(skip)]
    pub hint: String,
    /// Argument names and descriptions (every `properties` entry, at any depth).
    #[serde(skip)]
    pub args: Vec<(String, String)>,
}

/// Where a term matched, for the "why" of a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Field {
    /// A name part equal to the term.
    NamePart,
    /// A name part containing the term.
    InNamePart,
    /// The whole name without `mcp__server__` equals the term (claude-code 2.1.x).
    WholeName,
    SearchHint,
    Description,
    /// BM25 and regex: the name's words.
    Name,
    ArgumentName,
    ArgumentDescription,
}

impl Field {
    pub fn as_str(self) -> &'static str {
        match self {
            Field::NamePart => "name part",
            Field::InNamePart => "within a name part",
            Field::WholeName => "whole name",
            Field::SearchHint => "search hint",
            Field::Description => "description",
            Field::Name => "name",
            Field::ArgumentName => "argument name",
            Field::ArgumentDescription => "argument description",
        }
    }
}

/// One term's contribution to a score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Match {
    pub term: String,
    pub field: Field,
    /// For BM25, how often the term occurs in the field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    pub weight: f64,
}

/// A tool a query found.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    /// Index into the index's docs.
    pub doc: usize,
    pub score: f64,
    pub why: Vec<Match>,
}

/// Which of the engine's paths answered the query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Path {
    /// `select:A,B`: the named tools.
    Select,
    /// The query is a tool's exact name: that tool alone.
    ExactName,
    /// The query starts with `mcp__`: the tools whose names start with it.
    McpPrefix,
    /// Keyword scoring (claude-code), BM25 or regex.
    Scored,
}

/// The answer to a query: every tool found, best first (not cut to the engine's top).
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    pub path: Path,
    /// `+term`s of a claude-code query.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub required: Vec<String>,
    pub hits: Vec<Hit>,
}

impl Answer {
    /// The 0-based rank of `doc`, if found.
    pub fn rank_of(&self, doc: usize) -> Option<usize> {
        self.hits.iter().position(|hit| hit.doc == doc)
    }
}

/// A query that cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError(pub String);

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A tool as Claude Code's `ToolSearch` parses it.
#[derive(Debug)]
struct Keywords {
    parts: Vec<String>,
    mcp: bool,
    /// The lower-case name without `mcp__server__`.
    bare: String,
    lower_name: String,
    description: String,
    /// The description's words (runs of `[a-z0-9_]`), for whole-word terms.
    words: HashSet<String>,
    hint: String,
}

/// What BM25 knows about one term in one tool: its count in each field.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    name: u32,
    description: u32,
    argument_name: u32,
    argument_description: u32,
}

impl Counts {
    fn total(self) -> u32 {
        self.name + self.description + self.argument_name + self.argument_description
    }
}

#[derive(Debug, Default)]
struct Bm25 {
    postings: HashMap<String, Vec<(usize, Counts)>>,
    lengths: Vec<usize>,
    average: f64,
}

/// The tools, indexed once for every engine.
#[derive(Debug)]
pub struct Index {
    pub docs: Vec<Doc>,
    /// Claude Code's view of each doc, made on its first search (BM25 alone never needs it).
    keywords: OnceLock<Vec<Keywords>>,
    by_name: HashMap<String, usize>,
    by_lower_name: HashMap<String, usize>,
    bm25: Bm25,
}

impl Index {
    pub fn new(docs: Vec<Doc>) -> Index {
        let mut by_name = HashMap::new();
        let mut by_lower_name = HashMap::new();
        let mut bm25 = Bm25::default();
        for (index, doc) in docs.iter().enumerate() {
            by_name.entry(doc.name.clone()).or_insert(index);
            by_lower_name
                .entry(doc.name.to_lowercase())
                .or_insert(index);
            let mut counts: HashMap<String, Counts> = HashMap::new();
            let mut length = 0;
            let mut add = |text: &str, field: fn(&mut Counts) -> &mut u32| {
                for token in tokens(text) {
                    *field(counts.entry(token).or_default()) += 1;
                    length += 1;
                }
            };
            add(&doc.name, |c| &mut c.name);
            add(&doc.description, |c| &mut c.description);
            for (name, description) in &doc.args {
                add(name, |c| &mut c.argument_name);
                add(description, |c| &mut c.argument_description);
            }
            bm25.lengths.push(length);
            for (term, counts) in counts {
                bm25.postings.entry(term).or_default().push((index, counts));
            }
        }
        let total: usize = bm25.lengths.iter().sum();
        bm25.average = if docs.is_empty() {
            0.0
        } else {
            total as f64 / docs.len() as f64
        };
        Index {
            docs,
            keywords: OnceLock::new(),
            by_name,
            by_lower_name,
            bm25,
        }
    }

    pub fn len(&self) -> usize {
        self.docs.len()
    }

    fn keywords_of_docs(&self) -> &[Keywords] {
        self.keywords.get_or_init(|| {
            self.docs
                .iter()
                .map(|doc| {
                    let (parts, mcp) = name_parts(&doc.name);
                    let description = doc.description.to_lowercase();
                    Keywords {
                        parts,
                        mcp,
                        bare: bare_name(&doc.name),
                        lower_name: doc.name.to_lowercase(),
                        words: words(&description),
                        description,
                        hint: doc.hint.to_lowercase(),
                    }
                })
                .collect()
        })
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Every tool `query` finds under `engine`, best first (ties in input order).
    pub fn search(&self, engine: Engine, query: &str) -> Result<Answer, QueryError> {
        match engine {
            Engine::ClaudeCode => Ok(self.claude_code(query, false)),
            Engine::ClaudeCode21 => Ok(self.claude_code(query, true)),
            Engine::Bm25 => Ok(self.bm25(query)),
            Engine::Regex => self.regex(query),
        }
    }

    /// Every tool `query`'s words find under `engine`, skipping claude-code's `select:`,
    /// exact-name and `mcp__` paths: what the words alone score (for derived queries, which
    /// are words, not names).
    pub fn search_words(&self, engine: Engine, query: &str) -> Result<Answer, QueryError> {
        match engine {
            Engine::ClaudeCode => Ok(self.keywords(query, false)),
            Engine::ClaudeCode21 => Ok(self.keywords(query, true)),
            _ => self.search(engine, query),
        }
    }

    fn answer(path: Path, hits: Vec<Hit>) -> Answer {
        Answer {
            path,
            required: Vec::new(),
            hits,
        }
    }

    fn listed(doc: usize) -> Hit {
        Hit {
            doc,
            score: 0.0,
            why: Vec::new(),
        }
    }

    /// Claude Code's `ToolSearch`: `select:`, an exact name, an `mcp__` prefix, else keyword
    /// scoring; each term scores once, at the best field it matches.
    fn claude_code(&self, query: &str, whole_name_bonus: bool) -> Answer {
        let query = query.trim();
        let lower = query.to_lowercase();
        // `select:` in any case; the names after it as written (lower-casing can change a
        // text's length, so the original is sliced by the prefix's own length).
        let selected = query
            .get(..7)
            .filter(|prefix| prefix.eq_ignore_ascii_case("select:"))
            .map(|_| &query[7..]);
        if let Some(list) = selected {
            let mut seen = HashSet::new();
            let hits = list
                .split(',')
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .filter_map(|name| {
                    self.by_name
                        .get(name)
                        .or_else(|| self.by_lower_name.get(&name.to_lowercase()))
                })
                .filter(|&&doc| seen.insert(doc))
                .map(|&doc| Self::listed(doc))
                .collect();
            return Self::answer(Path::Select, hits);
        }
        if let Some(&doc) = self.by_lower_name.get(&lower) {
            return Self::answer(Path::ExactName, vec![Self::listed(doc)]);
        }
        if lower.starts_with("mcp__") {
            let hits = self
                .keywords_of_docs()
                .iter()
                .enumerate()
                .filter(|(_, tool)| tool.lower_name.starts_with(&lower))
                .map(|(doc, _)| Self::listed(doc))
                .collect();
            return Self::answer(Path::McpPrefix, hits);
        }
        self.keywords(&lower, whole_name_bonus)
    }

    /// Claude Code's keyword scoring of a lower-case query.
    fn keywords(&self, query: &str, whole_name_bonus: bool) -> Answer {
        let lower = query.to_lowercase();
        let mut required = Vec::new();
        let mut terms: Vec<String> = Vec::new();
        for word in lower.split_whitespace() {
            match word.strip_prefix('+') {
                Some(term) if !term.is_empty() => {
                    required.push(term.to_string());
                    terms.push(term.to_string());
                }
                Some(_) => {}
                None => terms.push(word.to_string()),
            }
        }
        let mut hits = Vec::new();
        for (doc, tool) in self.keywords_of_docs().iter().enumerate() {
            let matches_term = |term: &str| {
                tool.parts.iter().any(|part| part.contains(term))
                    || whole_word(term, &tool.description, &tool.words)
                    || (!tool.hint.is_empty() && tool.hint.contains(term))
            };
            if !required.iter().all(|term| matches_term(term)) {
                continue;
            }
            let mut why = Vec::new();
            for term in &terms {
                let (exact, inside) = if tool.mcp { (12.0, 6.0) } else { (10.0, 5.0) };
                let field = if tool.parts.iter().any(|part| part == term) {
                    Some((Field::NamePart, exact))
                } else if tool.parts.iter().any(|part| part.contains(term.as_str())) {
                    Some((Field::InNamePart, inside))
                } else if !tool.hint.is_empty() && tool.hint.contains(term.as_str()) {
                    Some((Field::SearchHint, 4.0))
                } else if whole_word(term, &tool.description, &tool.words) {
                    Some((Field::Description, 2.0))
                } else {
                    None
                };
                if let Some((field, weight)) = field {
                    why.push(Match {
                        term: term.clone(),
                        field,
                        count: None,
                        weight,
                    });
                }
                if whole_name_bonus && *term == tool.bare {
                    why.push(Match {
                        term: term.clone(),
                        field: Field::WholeName,
                        count: None,
                        weight: 12.0,
                    });
                }
            }
            let score: f64 = why.iter().map(|m| m.weight).sum();
            if score > 0.0 {
                hits.push(Hit { doc, score, why });
            }
        }
        sort(&mut hits);
        Answer {
            path: Path::Scored,
            required,
            hits,
        }
    }

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
    fn bm25(&self, query: &str) -> Answer {
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

    /// Python's `re.search` over each field; a tool scores one per field that matches.
    fn regex(&self, pattern: &str) -> Result<Answer, QueryError> {
        let regex = compile(pattern)?;
        let mut hits = Vec::new();
        for (doc, tool) in self.docs.iter().enumerate() {
            let mut why = Vec::new();
            let mut test = |field: Field, text: &str| {
                if let Some(found) = regex.find(text) {
                    why.push(Match {
                        term: found.as_str().to_string(),
                        field,
                        count: None,
                        weight: 1.0,
                    });
                }
            };
            test(Field::Name, &tool.name);
            test(Field::Description, &tool.description);
            for (name, description) in &tool.args {
                test(Field::ArgumentName, name);
                test(Field::ArgumentDescription, description);
            }
            if !why.is_empty() {
                let score = why.len() as f64;
                hits.push(Hit { doc, score, why });
            }
        }
        sort(&mut hits);
        Ok(Self::answer(Path::Scored, hits))
    }
}

/// Best first; ties keep input order.
fn sort(hits: &mut [Hit]) {
    hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc)));
}

/// A Python `re` pattern as the `regex` crate runs it: at most [`MAX_PATTERN`] characters;
/// `\Z` becomes `\z`; lookaround and backreferences (which the crate does not run) are errors.
pub fn compile(pattern: &str) -> Result<regex::Regex, QueryError> {
    let length = pattern.chars().count();
    if length > MAX_PATTERN {
        return Err(QueryError(format!(
            "the pattern has {length} characters; Anthropic's regex tool search rejects patterns \
             over {MAX_PATTERN} (`pattern_too_long`)"
        )));
    }
    let translated = pattern.replace(r"\Z", r"\z");
    regex::RegexBuilder::new(&translated)
        .size_limit(1 << 20)
        .build()
        .map_err(|error| {
            let unsupported = ["(?=", "(?!", "(?<=", "(?<!"]
                .iter()
                .any(|look| pattern.contains(look))
                || pattern.contains("(?P=");
            let mut message =
                format!("the pattern is not a regular expression toolcheck can run: {error}");
            if unsupported {
                message.push_str(
                    " (lookaround and backreferences are Python `re` features toolcheck does not \
                     simulate)",
                );
            }
            QueryError(message)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str, description: &str) -> Doc {
        Doc {
            name: name.into(),
            tool: name.into(),
            description: description.into(),
            ..Doc::default()
        }
    }

    fn slack() -> Index {
        Index::new(vec![
            doc("mcp__slack__send_message", "Send a message to a channel."),
            doc("mcp__slack__send_file", "Upload a file to a channel."),
            doc(
                "mcp__slack__list_channels",
                "List channels a message can go to.",
            ),
        ])
    }

    fn scores(index: &Index, engine: Engine, query: &str) -> Vec<(String, f64)> {
        let answer = index
            .search(engine, query)
            .unwrap_or_else(|e| panic!("{e}"));
        answer
            .hits
            .iter()
            .map(|hit| (index.docs[hit.doc].name.clone(), hit.score))
            .collect()
    }

    #[test]
    fn claude_code_scores_the_issue_example() {
        let index = slack();
        assert_eq!(
            scores(&index, Engine::ClaudeCode, "slack send message"),
            vec![
                ("mcp__slack__send_message".to_string(), 36.0),
                ("mcp__slack__send_file".to_string(), 24.0),
                ("mcp__slack__list_channels".to_string(), 14.0),
            ]
        );
        // `+slack` is required, `send` optional: list_channels stays with slack's 12.
        assert_eq!(
            scores(&index, Engine::ClaudeCode, "+slack send"),
            vec![
                ("mcp__slack__send_message".to_string(), 24.0),
                ("mcp__slack__send_file".to_string(), 24.0),
                ("mcp__slack__list_channels".to_string(), 12.0),
            ]
        );
        // Case does not matter.
        assert_eq!(
            scores(&index, Engine::ClaudeCode, "Slack SEND Message")[0].1,
            36.0
        );
    }

    #[test]
    fn claude_code_required_terms_filter() {
        let index = slack();
        // Only send_message and list_channels have `message` (name part, description).
        let found = scores(&index, Engine::ClaudeCode, "+message slack");
        assert_eq!(
            found,
            vec![
                ("mcp__slack__send_message".to_string(), 24.0),
                ("mcp__slack__list_channels".to_string(), 14.0),
            ]
        );
        // A required term nothing has: nothing.
        assert!(scores(&index, Engine::ClaudeCode, "+zebra slack").is_empty());
    }

    #[test]
    fn claude_code_partial_parts_hint_and_non_mcp_names() {
        let mut hinted = doc("NotebookEdit", "Edit a cell.");
        hinted.hint = "jupyter ipynb".into();
        let index = Index::new(vec![
            hinted,
            doc("WebFetch", "Fetch a URL."),
            doc("mcp__docs__searching", "Find pages."),
        ]);
        // A non-MCP exact part is 10, a part containing the term 5.
        assert_eq!(
            scores(&index, Engine::ClaudeCode, "notebook"),
            vec![("NotebookEdit".to_string(), 10.0)]
        );
        assert_eq!(
            scores(&index, Engine::ClaudeCode, "note"),
            vec![("NotebookEdit".to_string(), 5.0)]
        );
        // MCP: a part containing the term is 6.
        assert_eq!(
            scores(&index, Engine::ClaudeCode, "search"),
            vec![("mcp__docs__searching".to_string(), 6.0)]
        );
        // The hint: 4, a whole word of the description: 2; `url` is a word, `ur` is not.
        assert_eq!(
            scores(&index, Engine::ClaudeCode, "jupyter"),
            vec![("NotebookEdit".to_string(), 4.0)]
        );
        assert_eq!(
            scores(&index, Engine::ClaudeCode, "url"),
            vec![("WebFetch".to_string(), 2.0)]
        );
        assert!(scores(&index, Engine::ClaudeCode, "ur").is_empty());
    }

    #[test]
    fn claude_code_select_exact_name_and_prefix_paths() {
        let index = slack();
        let answer = index
            .search(
                Engine::ClaudeCode,
                "select:mcp__slack__list_channels, mcp__slack__send_file,nope",
            )
            .unwrap();
        assert_eq!(answer.path, Path::Select);
        let docs: Vec<usize> = answer.hits.iter().map(|h| h.doc).collect();
        assert_eq!(docs, vec![2, 1]);

        let answer = index
            .search(Engine::ClaudeCode, "MCP__slack__send_file")
            .unwrap();
        assert_eq!(answer.path, Path::ExactName);
        assert_eq!(answer.hits.len(), 1);
        assert_eq!(answer.hits[0].doc, 1);

        let answer = index
            .search(Engine::ClaudeCode, "mcp__slack__send")
            .unwrap();
        assert_eq!(answer.path, Path::McpPrefix);
        let docs: Vec<usize> = answer.hits.iter().map(|h| h.doc).collect();
        assert_eq!(docs, vec![0, 1]);
    }

    #[test]
    fn claude_code_21_adds_the_whole_name_bonus() {
        let index = Index::new(vec![
            doc("mcp__github__search", "Search code."),
            doc("mcp__github__search_issues", "Search issues."),
        ]);
        // 2.0.x: both have the name part `search` (12).
        assert_eq!(
            scores(&index, Engine::ClaudeCode, "search"),
            vec![
                ("mcp__github__search".to_string(), 12.0),
                ("mcp__github__search_issues".to_string(), 12.0)
            ]
        );
        // 2.1.x: `search` is the first one's whole name: 12 more.
        assert_eq!(
            scores(&index, Engine::ClaudeCode21, "search"),
            vec![
                ("mcp__github__search".to_string(), 24.0),
                ("mcp__github__search_issues".to_string(), 12.0)
            ]
        );
        // A term with `_` matches no single part: only the whole-name bonus counts.
        assert_eq!(
            scores(&index, Engine::ClaudeCode21, "search_issues"),
            vec![("mcp__github__search_issues".to_string(), 12.0)]
        );
        assert!(scores(&index, Engine::ClaudeCode, "search_issues").is_empty());
    }

    #[test]
    fn name_parts_split_as_claude_code_does() {
        assert_eq!(
            name_parts("mcp__my_server__get_file__contents"),
            (
                vec!["my", "server", "get", "file", "contents"]
                    .into_iter()
                    .map(String::from)
                    .collect(),
                true
            )
        );
        assert_eq!(
            name_parts("getFileContents_v2").0,
            vec!["get", "file", "contents", "v2"]
        );
        assert_eq!(name_parts("URLFetch").0, vec!["urlfetch"]);
    }

    #[test]
    fn whole_word_follows_javascript_word_boundaries() {
        let text = "read a file (e.g. foo.txt) or a-b";
        let w = words(text);
        assert!(whole_word("file", text, &w));
        assert!(!whole_word("fil", text, &w));
        assert!(whole_word("foo.txt", text, &w));
        assert!(whole_word("a-b", text, &w));
        assert!(!whole_word("(e", text, &w) || text.contains(" (e"));
    }

    #[test]
    fn bm25_ranks_by_the_standard_formula() {
        let mut read = doc("read_file", "Read a file from disk.");
        read.args = vec![("path".into(), "The file path.".into())];
        let index = Index::new(vec![
            read,
            doc("list_dir", "List a directory."),
            doc("write_file", "Write text to a file."),
        ]);
        let answer = index.search(Engine::Bm25, "read file").unwrap();
        assert_eq!(answer.hits[0].doc, 0);
        // `file` is in two tools: idf = ln(1 + 1.5/2.5); `read` in one: ln(1 + 2.5/1.5).
        let idf_read = (1.0f64 + 2.5 / 1.5).ln();
        let idf_file = (1.0f64 + 1.5 / 2.5).ln();
        let lengths = [11.0f64, 5.0, 7.0];
        let average = lengths.iter().sum::<f64>() / 3.0;
        let part = |idf: f64, tf: f64, length: f64| {
            idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length / average))
        };
        let expected = part(idf_read, 2.0, 11.0) + part(idf_file, 3.0, 11.0);
        assert!((answer.hits[0].score - expected).abs() < 1e-9);
        // The score of one tool alone agrees, to the last bit.
        let terms = query_terms("read file read");
        assert_eq!(terms, ["read", "file"]);
        assert_eq!(index.bm25_score(&terms, 0), answer.hits[0].score);
        assert_eq!(index.bm25_score(&terms, 1), 0.0);
        assert_eq!(index.bm25_score(&query_terms("list"), 0), 0.0);
        // list_dir has neither word.
        assert!(answer.rank_of(1).is_none());
        // The why splits `file` over the name, description and argument description.
        let fields: Vec<Field> = answer.hits[0]
            .why
            .iter()
            .filter(|m| m.term == "file")
            .map(|m| m.field)
            .collect();
        assert_eq!(
            fields,
            vec![Field::Name, Field::Description, Field::ArgumentDescription]
        );
    }

    #[test]
    fn regex_searches_every_field_and_limits_the_pattern() {
        let mut read = doc("read_file", "Read a file.");
        read.args = vec![("encoding".into(), "Text encoding.".into())];
        let index = Index::new(vec![read, doc("list_dir", "List.")]);
        let answer = index.search(Engine::Regex, "(?i)encod").unwrap();
        assert_eq!(answer.hits.len(), 1);
        assert_eq!(answer.hits[0].score, 2.0);
        // Case-sensitive by default, as Python's `re`.
        assert!(index.search(Engine::Regex, "READ").unwrap().hits.is_empty());
        let long = "a".repeat(201);
        assert!(index.search(Engine::Regex, &long).is_err());
        assert!(index.search(Engine::Regex, &"a".repeat(200)).is_ok());
        let error = index.search(Engine::Regex, "read(?=_)").unwrap_err();
        assert!(error.0.contains("lookaround"), "{error}");
    }

    #[test]
    fn tokens_split_words_and_camel_case() {
        assert_eq!(
            tokens("listIssues: get_file-contents, v2 Ünïcode"),
            vec!["list", "issues", "get", "file", "contents", "v2", "ünïcode"]
        );
        // Split before an upper-case letter after a lower-case one only; the last token kept;
        // each character lower-cased on its own (`Σ` is `σ` wherever it stands).
        assert_eq!(tokens("HTTPServer2Go"), vec!["httpserver2go"]);
        assert_eq!(tokens("aB_ÉtéÀ ΟΔΟΣ"), vec!["a", "b", "été", "à", "οδοσ"]);
        assert_eq!(tokens("  "), Vec::<String>::new());
    }

    #[test]
    fn queries_whose_lower_case_is_longer_do_not_panic() {
        // `İ` lower-cases to two characters: the `select:` list is sliced from the original.
        let index = Index::new(vec![doc("İx", "Dotted İ."), doc("mcp__s__ẞ", "Sharp ß.")]);
        for query in [
            "İİİİİİİİ select:",
            "SELECT:İx",
            "select:",
            "İ",
            "+İ ẞ",
            "mcp__s__ẞ",
        ] {
            for engine in [Engine::ClaudeCode, Engine::ClaudeCode21, Engine::Bm25] {
                let _ = index.search(engine, query).unwrap();
            }
        }
        let answer = index.search(Engine::ClaudeCode, "SELECT:İx").unwrap();
        assert_eq!(answer.path, Path::Select);
        assert_eq!(answer.hits.len(), 1);
    }

    #[test]
    fn an_empty_index_and_empty_queries_find_nothing() {
        let index = Index::new(Vec::new());
        for engine in [Engine::ClaudeCode, Engine::Bm25, Engine::Regex] {
            assert!(index.search(engine, "").unwrap().hits.is_empty());
        }
        assert!(
            slack()
                .search(Engine::ClaudeCode, "  + ")
                .unwrap()
                .hits
                .is_empty()
        );
    }
}
