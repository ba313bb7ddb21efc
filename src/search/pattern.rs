//! Anthropic's `tool_search_tool_regex`: a Python-style pattern of at most 200 characters,
//! searched in the same fields as BM25.

use super::{Answer, Field, Hit, Index, MAX_PATTERN, Match, Path, sort};

/// A query that cannot run (a pattern too long or invalid).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError(pub String);

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Index {
    /// Python's `re.search` over each field; a tool scores one per field that matches.
    pub(super) fn regex(&self, pattern: &str) -> Result<Answer, QueryError> {
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
