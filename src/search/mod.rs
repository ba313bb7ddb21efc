//! Tool-search simulation: how a host or provider that defers tools would rank them for a
//! query. An [`Index`] is built once over the tools ([`Doc`]s); each query then runs against
//! it. Three engines (docs/search.md says where each comes from):
//!
//! - [`Engine::ClaudeCode`]: Claude Code's `ToolSearch` keyword scoring as its current
//!   releases (2.1.x) run it, with the whole-name bonus; [`Engine::ClaudeCode20`] is the
//!   2.0.x reading, without it.
//! - [`Engine::Bm25`]: Anthropic's `tool_search_tool_bm25`, simulated with standard BM25
//!   (k1 = 1.2, b = 0.75) over names, descriptions, argument names and their descriptions.
//! - [`Engine::Regex`]: Anthropic's `tool_search_tool_regex`: a Python-style pattern of at
//!   most 200 characters searched in the same fields.

mod bm25;
pub mod derive;
pub mod docs;
mod keyword;
mod pattern;
mod terms;

use std::sync::OnceLock;

use foldhash::{HashMap, HashMapExt};
use serde::Serialize;

use bm25::{Bm25, Counts};
use keyword::Keywords;
pub use pattern::{QueryError, compile};
pub use terms::{name_parts, query_terms, tokens};

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
    /// The current releases (2.1.x); `claude-code-2.1`, its name before it became the default,
    /// is read as it.
    #[serde(rename = "claude-code", alias = "claude-code-2.1")]
    ClaudeCode,
    /// The 2.0.x reading: no whole-name bonus.
    #[serde(rename = "claude-code-2.0")]
    ClaudeCode20,
    Bm25,
    Regex,
}

impl Engine {
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::ClaudeCode => "claude-code",
            Engine::ClaudeCode20 => "claude-code-2.0",
            Engine::Bm25 => "bm25",
            Engine::Regex => "regex",
        }
    }

    /// How many tools one search returns.
    pub fn default_top(self) -> usize {
        match self {
            Engine::ClaudeCode | Engine::ClaudeCode20 => CLAUDE_CODE_TOP,
            Engine::Bm25 => BM25_TOP,
            Engine::Regex => CLAUDE_CODE_TOP,
        }
    }

    /// Whether the engine sees the names a host sends (`mcp__server__tool`).
    pub fn host_names(self) -> bool {
        matches!(self, Engine::ClaudeCode | Engine::ClaudeCode20)
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
    /// The whole name without `mcp__server__` equals the term (Claude Code 2.1.x).
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

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Every tool `query` finds under `engine`, best first (ties in input order).
    pub fn search(&self, engine: Engine, query: &str) -> Result<Answer, QueryError> {
        match engine {
            Engine::ClaudeCode => Ok(self.claude_code(query, true)),
            Engine::ClaudeCode20 => Ok(self.claude_code(query, false)),
            Engine::Bm25 => Ok(self.bm25(query)),
            Engine::Regex => self.regex(query),
        }
    }

    /// Every tool `query`'s words find under `engine`, skipping claude-code's `select:`,
    /// exact-name and `mcp__` paths: what the words alone score (for derived queries, which
    /// are words, not names).
    pub fn search_words(&self, engine: Engine, query: &str) -> Result<Answer, QueryError> {
        match engine {
            Engine::ClaudeCode => Ok(self.keywords(query, true)),
            Engine::ClaudeCode20 => Ok(self.keywords(query, false)),
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
}

/// Best first; ties keep input order.
fn sort(hits: &mut [Hit]) {
    hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc)));
}

#[cfg(test)]
mod tests {
    use super::terms::{whole_word, words};
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
    fn claude_code_adds_the_whole_name_bonus() {
        let index = Index::new(vec![
            doc("mcp__github__search", "Search code."),
            doc("mcp__github__search_issues", "Search issues."),
        ]);
        // 2.0.x: both have the name part `search` (12).
        assert_eq!(
            scores(&index, Engine::ClaudeCode20, "search"),
            vec![
                ("mcp__github__search".to_string(), 12.0),
                ("mcp__github__search_issues".to_string(), 12.0)
            ]
        );
        // 2.1.x (the default): `search` is the first one's whole name: 12 more.
        assert_eq!(
            scores(&index, Engine::ClaudeCode, "search"),
            vec![
                ("mcp__github__search".to_string(), 24.0),
                ("mcp__github__search_issues".to_string(), 12.0)
            ]
        );
        // A term with `_` matches no single part: only the whole-name bonus counts.
        assert_eq!(
            scores(&index, Engine::ClaudeCode, "search_issues"),
            vec![("mcp__github__search_issues".to_string(), 12.0)]
        );
        assert!(scores(&index, Engine::ClaudeCode20, "search_issues").is_empty());
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
            for engine in [Engine::ClaudeCode, Engine::ClaudeCode20, Engine::Bm25] {
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
