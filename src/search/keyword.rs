//! Claude Code's `ToolSearch`: each tool's name parts, description and hint, and the keyword
//! scoring of a query over them.

use foldhash::{HashSet, HashSetExt};

use super::terms::{bare_name, name_parts, whole_word, words};
use super::{Answer, Field, Hit, Index, Match, Path, sort};

/// A tool as Claude Code's `ToolSearch` parses it.
#[derive(Debug)]
pub(super) struct Keywords {
    pub(super) parts: Vec<String>,
    pub(super) mcp: bool,
    /// The lower-case name without `mcp__server__`.
    pub(super) bare: String,
    pub(super) lower_name: String,
    pub(super) description: String,
    /// The description's words (runs of `[a-z0-9_]`), for whole-word terms.
    pub(super) words: HashSet<String>,
    pub(super) hint: String,
}

impl Index {
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

    /// Claude Code's `ToolSearch`: `select:`, an exact name, an `mcp__` prefix, else keyword
    /// scoring; each term scores once, at the best field it matches.
    pub(super) fn claude_code(&self, query: &str, whole_name_bonus: bool) -> Answer {
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
    pub(super) fn keywords(&self, query: &str, whole_name_bonus: bool) -> Answer {
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
}
