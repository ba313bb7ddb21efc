//! The check of `confusable-tools`. Its code, docs and default options are in
//! `rules/search/confusable-tools.yaml`.
//!
//! Similarity is BM25 cross-ranking: each tool's derived query (its name's words and its
//! first sentence's content words) is searched over the set or session; two tools are
//! confusable when each one's query scores the other at least `similarity` times its own
//! score (1.0: the other ranks first or tied).

use std::collections::HashSet;

use serde::Deserialize;

use super::helpers::{Searched, number, of_session, of_set};
use crate::lint::diagnostic::Field;
use crate::lint::rule::{Ctx, Rule, RunCtx, SessionRef, SetRef, Target};
use crate::normalize::ToolSet;
use crate::parse::Node;
use crate::search::Engine;
use crate::search::derive::{content_words, derive, first_sentence};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConfusableTools {
    /// The least share of its own score a tool's query must give the other tool, both ways.
    similarity: f64,
}

struct Finding<'a> {
    set: usize,
    tool: &'a str,
    at: &'a Node,
    other_set: usize,
    other_at: &'a Node,
    message: String,
    help: String,
}

/// The derived query of each doc: its name's words, then its first sentence's.
fn query_of(doc: &crate::search::Doc) -> String {
    let derived = derive(&doc.tool, &doc.description);
    let mut words = derived.name;
    for word in derived.sentence {
        if !words.contains(&word) {
            words.push(word);
        }
    }
    words.join(" ")
}

/// The content words of a tool's name and first sentence that the other's name and whole
/// description lack.
fn distinguishing(own: &crate::search::Doc, other: &crate::search::Doc) -> Vec<String> {
    let theirs: HashSet<String> = crate::search::tokens(&other.tool)
        .into_iter()
        .chain(crate::search::tokens(&other.description))
        .collect();
    let mut words = derive(&own.tool, "").name;
    words.extend(content_words(first_sentence(&own.description), 12));
    let mut seen = HashSet::new();
    words
        .into_iter()
        .filter(|word| word.len() >= 3 && !crate::search::derive::is_stop_word(word))
        .filter(|word| !theirs.contains(word) && seen.insert(word.clone()))
        .take(5)
        .collect()
}

/// Function words a name may hold (`celsius_to_fahrenheit`) that say nothing of the tool.
const NAME_FILLER: &[&str] = &[
    "a", "an", "and", "by", "for", "from", "in", "of", "on", "the", "to", "with",
];

/// The words of a tool's own name, each once, in order: no filler, none of its server's name
/// (`playwright_navigate` of the server `playwright` is `navigate`).
fn name_words(doc: &crate::search::Doc) -> Vec<String> {
    let server: HashSet<String> = doc
        .name
        .strip_suffix(doc.tool.as_str())
        .map(crate::search::tokens)
        .unwrap_or_default()
        .into_iter()
        .collect();
    let mut words: Vec<String> = Vec::new();
    for word in crate::search::tokens(&doc.tool) {
        if !NAME_FILLER.contains(&word.as_str())
            && !server.contains(&word)
            && !words.contains(&word)
        {
            words.push(word);
        }
    }
    words
}

/// Whether the words of one name are the other's, or some of them in the same order, the
/// names being different. Two names that each have a word of their own (`retrieve_page`,
/// `retrieve_database`; `get_cost`, `confirm_cost`) tell the tools apart, and so does word
/// order (`celsius_to_fahrenheit`, `fahrenheit_to_celsius`); one name twice is
/// `duplicate-tool-name`'s.
fn names_nest(a: &crate::search::Doc, b: &crate::search::Doc) -> bool {
    if a.name == b.name {
        return false;
    }
    let (a, b) = (name_words(a), name_words(b));
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if short.is_empty() {
        return false;
    }
    let mut rest = long.iter();
    short.iter().all(|word| rest.any(|other| other == word))
}

impl ConfusableTools {
    fn check<'a>(&self, searched: &Searched<'_, 'a>) -> Vec<Finding<'a>> {
        let mut findings = Vec::new();
        if searched.index.len() < 2 {
            return findings;
        }
        // close[a] holds (b, score of b for a's query / a's own score) for b close to a.
        let count = searched.index.len();
        let mut close: Vec<Vec<(usize, f64)>> = vec![Vec::new(); count];
        let (mut scores, mut touched) = (Vec::new(), Vec::new());
        for (a, close_a) in close.iter_mut().enumerate() {
            let query = query_of(&searched.index.docs[a]);
            searched
                .index
                .bm25_scores(&query, &mut scores, &mut touched);
            let own = scores[a];
            if own <= 0.0 {
                continue;
            }
            for &b in &touched {
                if b != a && scores[b] >= self.similarity * own {
                    close_a.push((b, scores[b] / own));
                }
            }
        }
        for a in 0..close.len() {
            for &(b, share_ab) in &close[a] {
                // Each pair once, reported on the later tool.
                if b < a {
                    continue;
                }
                let Some(&(_, share_ba)) = close[b].iter().find(|(other, _)| *other == a) else {
                    continue;
                };
                let (set_a, tool_a) = searched.owners[a];
                let (set_b, tool_b) = searched.owners[b];
                if !names_nest(&searched.index.docs[a], &searched.index.docs[b]) {
                    continue;
                }
                let (Some(at_a), Some(at_b)) = (tool_a.name, tool_b.name) else {
                    continue;
                };
                let doc_a = &searched.index.docs[a];
                let doc_b = &searched.index.docs[b];
                let percent = |share: f64| format!("{}%", number((share * 100.0).round()));
                let only_b = distinguishing(doc_b, doc_a);
                let only_a = distinguishing(doc_a, doc_b);
                let list = |words: &[String]| {
                    if words.is_empty() {
                        "none".to_string()
                    } else {
                        words
                            .iter()
                            .map(|w| format!("`{w}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                };
                findings.push(Finding {
                    set: set_b,
                    tool: tool_b.name(),
                    at: &at_b.value,
                    other_set: set_a,
                    other_at: &at_a.value,
                    message: format!(
                        "`{}` and `{}` read alike to tool search: the words of each find the \
                         other ({} and {} of their own score)",
                        doc_b.name,
                        doc_a.name,
                        percent(share_ba),
                        percent(share_ab)
                    ),
                    help: if only_a.is_empty() && only_b.is_empty() {
                        "their names and first sentences have no word the other lacks: say in \
                         each what it is for, and when to use the other instead"
                            .to_string()
                    } else {
                        format!(
                            "say in each name and first sentence what sets it apart (and when \
                             to use the other); words only `{}` has: {}; only `{}`: {}",
                            doc_b.name,
                            list(&only_b),
                            doc_a.name,
                            list(&only_a)
                        )
                    },
                });
            }
        }
        findings
    }
}

impl Rule for ConfusableTools {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        if ctx.in_session {
            return;
        }
        let searched = of_set(set, ctx, Engine::Bm25);
        for finding in self.check(&searched) {
            ctx.set_tool(Some(finding.tool));
            ctx.report(Field::Name, Target::Value(finding.at), finding.message)
                .related(
                    "the other tool is defined here",
                    finding.other_at.span.clone(),
                )
                .help(finding.help);
            ctx.set_tool(None);
        }
    }

    fn check_session(&self, session: &SessionRef<'_>, sets: &[SetRef<'_>], ctx: &mut RunCtx<'_>) {
        let searched = of_session(session, sets);
        for finding in self.check(&searched) {
            let other_file = sets[finding.other_set].file;
            let file = ctx.file(finding.set);
            file.set_tool(Some(finding.tool));
            file.report(Field::Name, Target::Value(finding.at), finding.message)
                .related_in(
                    "the other tool is defined here",
                    other_file,
                    finding.other_at.span.clone(),
                )
                .help(finding.help);
            file.set_tool(None);
        }
    }
}
