//! The check of `weak-search-surface`. Its code, docs and default options are in
//! `rules/search/weak-search-surface.yaml`.

use serde::Deserialize;

use super::helpers::{Finding, Searched, explain, of_session, of_set, report};
use crate::normalize::ToolSet;
use crate::rule::{Ctx, Rule, RunCtx, SessionRef, SetRef};
use crate::search::Engine;
use crate::search::derive::derive;
use crate::targets::tool_search::DEFERRING_HOST;

/// The host that defers every MCP tool of a session behind its tool search.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct WeakSearchSurface {
    engine: Engine,
    /// How many results count as found; default: what the engine returns.
    top: Option<usize>,
    /// Sets and sessions with fewer tools are not judged (any query finds a tool among few).
    min_tools: usize,
}

impl WeakSearchSurface {
    /// How many other tools `query` ranks above `doc` when that is `top` or more (`None`
    /// inside: not found at all), with the answer; `None` when `doc` is found. Ties keep the
    /// tools' order, as Claude Code's sort does (a session's files in their order); another
    /// tool of the same name does not count (`duplicate-tool-name`'s).
    fn rank(
        &self,
        searched: &Searched<'_, '_>,
        doc: usize,
        query: &str,
        top: usize,
    ) -> Option<(Option<usize>, crate::search::Answer)> {
        let answer = searched.index.search_words(self.engine, query).ok()?;
        let own = &searched.index.docs[doc].name;
        let rank = answer.rank_of(doc).map(|at| {
            answer.hits[..at]
                .iter()
                .filter(|hit| searched.index.docs[hit.doc].name != *own)
                .count()
        });
        if rank.is_some_and(|rank| rank < top) {
            return None;
        }
        Some((rank, answer))
    }

    fn top(&self) -> usize {
        self.top.unwrap_or(self.engine.default_top()).max(1)
    }

    /// Whether `count` tools are too few to judge: any query finds a tool among few.
    fn too_few(&self, count: usize) -> bool {
        count < self.min_tools.max(self.top() + 1)
    }

    /// `all`: judge every tool (a session of a host that defers them); else only the tools
    /// marked `defer_loading`.
    fn check<'a>(&self, searched: &Searched<'_, 'a>, all: bool) -> Vec<Finding<'a>> {
        let top = self.top();
        let mut findings = Vec::new();
        if self.too_few(searched.index.len()) {
            return findings;
        }
        for (doc, &(set, tool)) in searched.owners.iter().enumerate() {
            // A tool kept loaded is in the context, never searched for.
            if tool.always_load || (!all && !tool.defer_loading) {
                continue;
            }
            let Some(name_node) = tool.name.map(|entry| &entry.value) else {
                continue;
            };
            let own = &searched.index.docs[doc];
            let derived = derive(&own.tool, &own.description);
            if derived.sentence.len() < 2 {
                // Too few words to search with (no description, or one in another language):
                // `missing-description` and `no-english-keywords` say so.
                continue;
            }
            let sentence = derived.sentence.join(" ");
            let name = derived.name.join(" ");
            let Some((sentence_rank, answer)) = self.rank(searched, doc, &sentence, top) else {
                continue;
            };
            // A tool its own name's words find is found: a model that knows what it wants
            // often writes the name's words.
            let Some((name_rank, _)) = self.rank(searched, doc, &name, top) else {
                continue;
            };
            let engine = self.engine.as_str();
            let place = |rank: Option<usize>| match rank {
                Some(rank) => format!("{rank} tools rank above it"),
                None => "it is not found".to_string(),
            };
            let above: Vec<String> = answer
                .hits
                .iter()
                .filter(|hit| hit.doc != doc)
                .take(3)
                .map(|hit| explain(&searched.index, hit))
                .collect();
            let split = if self.engine.host_names()
                && own.name.starts_with("mcp__")
                && own
                    .tool
                    .contains(|c: char| c == '-' || c.is_ascii_uppercase())
            {
                format!(
                    "; Claude Code splits an MCP tool's name only at `_`, so `{}` is {} to it: \
                     `{}` would make each word a name part",
                    own.tool,
                    if own.tool.contains('_') {
                        "few long words"
                    } else {
                        "one word"
                    },
                    derived.name.join("_")
                )
            } else {
                String::new()
            };
            findings.push(Finding {
                set,
                tool: tool.name(),
                at: name_node,
                message: format!(
                    "neither the words of `{}`'s name nor those of its first sentence find it \
                     with {engine}: `{name}`: {}; `{sentence}`: {} (of {} tools; the model \
                     sees the top {top})",
                    own.name,
                    place(name_rank),
                    place(sentence_rank),
                    searched.index.len()
                ),
                help: format!(
                    "found first for `{sentence}`: {}; start the description with what this \
                     tool does that the others do not, in the words a model would search \
                     for{split}",
                    above.join(", ")
                ),
            });
        }
        findings
    }
}

impl Rule for WeakSearchSurface {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        // Only deferred tools are searched for; a file's other tools are in the context.
        // The index is not built for a set too small to judge (a cold run's few tools).
        if ctx.in_session
            || self.too_few(set.tools.len())
            || !set.tools.iter().any(|tool| tool.defer_loading)
        {
            return;
        }
        let searched = of_set(set, ctx, self.engine);
        for finding in self.check(&searched, false) {
            report(ctx, &finding);
        }
    }

    fn check_session(&self, session: &SessionRef<'_>, sets: &[SetRef<'_>], ctx: &mut RunCtx<'_>) {
        // Claude Code defers MCP tools and finds them with ToolSearch (unless `tool-search:`
        // loads them; `auto` only past its threshold, so it is not judged); under another host
        // only the tools marked `defer_loading` are searched for.
        let all = &*session.host.name == DEFERRING_HOST && session.tool_search.always_defers();
        if !all
            && !sets
                .iter()
                .any(|set| set.set.tools.iter().any(|tool| tool.defer_loading))
        {
            return;
        }
        let searched = of_session(session, sets);
        for finding in self.check(&searched, all) {
            report(ctx.file(finding.set), &finding);
        }
    }
}
