//! The check of `not-found-by-search`. Its code, docs and default options are in
//! `rules/search/not-found-by-search.yaml`.

use std::collections::HashMap;

use serde::Deserialize;

use super::helpers::{Finding, Searched, explain, of_session, of_set, ordinal, report, why};
use crate::normalize::ToolSet;
use crate::rule::{Ctx, Rule, RunCtx, SessionRef, SetRef};
use crate::search::Engine;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct NotFoundBySearch {
    engine: Engine,
    /// How many results count as found; default: what the engine returns.
    top: Option<usize>,
    /// Queries by tool name (the tool's own name), for files without `search_queries`.
    queries: HashMap<String, Vec<String>>,
}

impl NotFoundBySearch {
    fn check<'a>(&self, searched: &Searched<'_, 'a>) -> Vec<Finding<'a>> {
        let top = self.top.unwrap_or(self.engine.default_top()).max(1);
        let mut findings = Vec::new();
        for (doc, &(set, tool)) in searched.owners.iter().enumerate() {
            let name = tool.name();
            let Some(name_node) = tool.name.map(|entry| &entry.value) else {
                continue;
            };
            // The manifest's own queries, each pointed at; then the config's, at the name.
            let native = tool
                .search_queries
                .and_then(|entry| entry.value.as_array())
                .unwrap_or_default()
                .iter()
                .filter_map(|node| Some((node.as_str()?, node)));
            let configured = self
                .queries
                .get(name)
                .into_iter()
                .flatten()
                .map(|query| (query.as_str(), name_node));
            for (query, at) in native.chain(configured) {
                let seen = &searched.index.docs[doc].name;
                let answer = match searched.index.search(self.engine, query) {
                    Ok(answer) => answer,
                    Err(error) => {
                        findings.push(Finding {
                            set,
                            tool: name,
                            at,
                            message: format!("search query `{query}` cannot run: {error}"),
                            help: "write the query as the engine takes it".to_string(),
                        });
                        continue;
                    }
                };
                let rank = answer.rank_of(doc);
                if rank.is_some_and(|rank| rank < top) {
                    continue;
                }
                let engine = self.engine.as_str();
                let message = match rank {
                    Some(rank) => format!(
                        "search query `{query}` does not find `{seen}` in the top {top} of \
                         {engine}: it ranks {} of {}",
                        ordinal(rank + 1),
                        answer.hits.len()
                    ),
                    None => format!(
                        "search query `{query}` does not find `{seen}` at all with {engine} \
                         ({} searched)",
                        match searched.index.len() {
                            1 => "1 tool".to_string(),
                            count => format!("{count} tools"),
                        }
                    ),
                };
                let above: Vec<String> = answer
                    .hits
                    .iter()
                    .take(rank.unwrap_or(top).min(3))
                    .map(|hit| explain(&searched.index, hit))
                    .collect();
                let own = rank
                    .map(|rank| format!("; it scores {}", why(&answer.hits[rank])))
                    .unwrap_or_default();
                let help = if above.is_empty() {
                    format!(
                        "no tool matches the query's words{own}: put them in the tool's name, \
                         the first sentence of its description, or `search_hint`"
                    )
                } else {
                    format!(
                        "ranked above it: {}{own}; put the query's words in the tool's name, \
                         the first sentence of its description, or `search_hint`",
                        above.join(", ")
                    )
                };
                findings.push(Finding {
                    set,
                    tool: name,
                    at,
                    message,
                    help,
                });
            }
        }
        findings
    }
}

impl Rule for NotFoundBySearch {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        // A file of a session is searched with the session's other tools.
        if ctx.in_session || !has_queries(self, set) {
            return;
        }
        let searched = of_set(set, ctx, self.engine);
        for finding in self.check(&searched) {
            report(ctx, &finding);
        }
    }

    fn check_session(&self, session: &SessionRef<'_>, sets: &[SetRef<'_>], ctx: &mut RunCtx<'_>) {
        if !sets.iter().any(|set| has_queries(self, set.set)) {
            return;
        }
        let searched = of_session(session, sets);
        for finding in self.check(&searched) {
            report(ctx.file(finding.set), &finding);
        }
    }
}

/// Whether any tool of `set` has a query to check (most files have none: no index then).
fn has_queries(rule: &NotFoundBySearch, set: &ToolSet<'_>) -> bool {
    set.tools
        .iter()
        .any(|tool| tool.search_queries.is_some() || rule.queries.contains_key(tool.name()))
}
