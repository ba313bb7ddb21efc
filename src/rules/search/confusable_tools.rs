//! The check of `confusable-tools`. Its code, docs and default options are in
//! `rules/search/confusable-tools.yaml`.
//!
//! Similarity is BM25 cross-ranking: each tool's derived query (its name's words and its
//! first sentence's content words) is searched over the set or session; two tools are
//! confusable when each one's query scores the other at least `similarity` times its own
//! score (1.0: the other ranks first or tied).

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use rayon::prelude::*;
use serde::Deserialize;

use super::helpers::{Searched, Unindexed, found_in_session, found_in_set, number};
use crate::diagnostic::Field;
use crate::normalize::ToolSet;
use crate::parse::Node;
use crate::rule::{Anchor, Ctx, Rule, RunCtx, SessionRef, SetRef};
use crate::search::derive::{base_form, content_words, derive, first_sentence};
use crate::search::{Doc, Engine};

mod nesting;

use nesting::{child_names_its_part, name_sequence, name_words, names_tool, nesting_pairs};

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

/// `f` of every doc, in order: a large set's on all cores, in blocks.
fn each_doc<T: Send>(docs: &[Doc], f: impl Fn(&Doc) -> T + Sync + Send) -> Vec<T> {
    docs.par_iter().with_min_len(256).map(f).collect()
}

/// Whether the tool's first sentence says it is deprecated: it points the model elsewhere,
/// and what it is confused with is that pointer's to settle.
fn is_deprecated(doc: &Doc) -> bool {
    crate::search::tokens(first_sentence(&doc.description))
        .iter()
        .any(|word| word == "deprecated")
}

/// A first sentence as the model compares two: its words, lower case, without articles,
/// nouns and verbs in their base form (`Lists the issues.` and `List issues` are one).
fn summary_key(doc: &Doc) -> Vec<String> {
    crate::search::tokens(first_sentence(&doc.description))
        .into_iter()
        .filter(|word| !matches!(word.as_str(), "a" | "an" | "the"))
        .map(|word| base_form(&word))
        .collect()
}

/// The fewest words a first sentence two tools share must have to be reported as the same.
const MIN_SUMMARY_WORDS: usize = 2;

/// A sentence more tools than this open with is their family's preamble (`This tool belongs
/// to the Math API.`), and the model reads on for what each one does.
const MAX_SAME_SUMMARY: usize = 3;

/// Tools that open with the same sentence ([`summary_key`]), as reported: pairs `(first,
/// later)`, each later tool once, with the first of its group that has another name; and
/// each tool's group, when it has one.
struct SameSummary {
    pairs: Vec<(usize, usize)>,
    group: Vec<Option<usize>>,
}

fn same_summary(docs: &[Doc], deprecated: &[bool]) -> SameSummary {
    let keys: Vec<Vec<String>> = each_doc(docs, summary_key);
    let mut groups: HashMap<Vec<String>, Vec<usize>> = HashMap::new();
    for (index, key) in keys.into_iter().enumerate() {
        if key.len() >= MIN_SUMMARY_WORDS && !deprecated[index] {
            groups.entry(key).or_default().push(index);
        }
    }
    let mut pairs = Vec::new();
    let mut group_of = vec![None; docs.len()];
    for group in groups.values() {
        let names: HashSet<&str> = group.iter().map(|&doc| docs[doc].name.as_str()).collect();
        if names.len() < 2 || names.len() > MAX_SAME_SUMMARY {
            continue;
        }
        // Each tool with the first before it of another name (one name twice is
        // duplicate-tool-name's).
        for (at, &later) in group.iter().enumerate() {
            let b = &docs[later];
            let first = group[..at]
                .iter()
                .find(|&&first| docs[first].name != b.name);
            if let Some(&first) = first {
                let a = &docs[first];
                if !names_tool(a, b) && !names_tool(b, a) {
                    pairs.push((first, later));
                }
            }
            group_of[later] = Some(group[0]);
        }
    }
    pairs.sort_unstable();
    SameSummary {
        pairs,
        group: group_of,
    }
}

/// `words` as a help lists them: each in backticks, or `none`.
fn listed(words: &[String]) -> String {
    if words.is_empty() {
        return "none".to_string();
    }
    words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The finding on `later`, with `first` as the other tool; `None` when either has no name
/// node to point at.
fn finding<'a>(
    owners: &[(usize, &crate::normalize::Tool<'a>)],
    (first, later): (usize, usize),
    message: String,
    help: String,
) -> Option<Finding<'a>> {
    let (set_a, tool_a) = owners[first];
    let (set_b, tool_b) = owners[later];
    let (at_a, at_b) = (tool_a.name?, tool_b.name?);
    Some(Finding {
        set: set_b,
        tool: tool_b.name(),
        at: &at_b.value,
        other_set: set_a,
        other_at: &at_a.value,
        message,
        help,
    })
}

impl ConfusableTools {
    fn check<'a>(&self, tools: Unindexed<'_, 'a>) -> Vec<Finding<'a>> {
        let mut findings = Vec::new();
        // Two tools that open with the same sentence are told apart by their names alone.
        let deprecated = each_doc(&tools.docs, is_deprecated);
        let same = same_summary(&tools.docs, &deprecated);
        for &(a, b) in &same.pairs {
            let (doc_a, doc_b) = (&tools.docs[a], &tools.docs[b]);
            let message = format!(
                "`{}` and `{}` open with the same sentence: tool search and the model tell \
                 them apart by their names alone",
                doc_b.name, doc_a.name
            );
            let help = format!(
                "say in each first sentence what it does that the other does not (and when \
                 to use the other); words only `{}` has: {}; only `{}`: {}",
                doc_b.name,
                listed(&distinguishing(doc_b, doc_a)),
                doc_a.name,
                listed(&distinguishing(doc_a, doc_b))
            );
            findings.extend(finding(&tools.owners, (a, b), message, help));
        }
        // Otherwise only tools whose names nest can be confusable (most sets have no such
        // pair, and need no index), and not a child whose name says what it adds.
        let sequences: Vec<Vec<String>> = each_doc(&tools.docs, name_sequence);
        let words: Vec<Vec<&str>> = sequences.iter().map(|s| name_words(s)).collect();
        let pairs: Vec<(usize, usize)> = nesting_pairs(&tools.docs, &words)
            .into_iter()
            .filter(|&(a, b)| {
                let (short, long) = if sequences[a].len() <= sequences[b].len() {
                    (a, b)
                } else {
                    (b, a)
                };
                let (doc_a, doc_b) = (&tools.docs[a], &tools.docs[b]);
                (same.group[a].is_none() || same.group[a] != same.group[b])
                    && !deprecated[a]
                    && !deprecated[b]
                    && !names_tool(doc_a, doc_b)
                    && !names_tool(doc_b, doc_a)
                    && !child_names_its_part(
                        (&tools.docs[short], &sequences[short]),
                        &sequences[long],
                    )
            })
            .collect();
        if pairs.is_empty() {
            return findings;
        }
        let searched: Searched<'_, 'a> = tools.index();
        // Each paired tool's derived query, and what it scores the tool itself.
        let mut queries: HashMap<usize, (Vec<String>, f64)> = HashMap::new();
        for &doc in pairs.iter().flat_map(|(a, b)| [a, b]) {
            queries.entry(doc).or_insert_with(|| {
                let query = crate::search::query_terms(&query_of(&searched.index.docs[doc]));
                let own = searched.index.bm25_score(&query, doc);
                (query, own)
            });
        }
        // Whether `b` is close to `a`: `a`'s query scores it at least `similarity` times `a`.
        let share = |a: usize, b: usize| {
            let (query, own) = &queries[&a];
            let score = searched.index.bm25_score(query, b);
            (*own > 0.0 && score > 0.0 && score >= self.similarity * own).then(|| score / own)
        };
        let docs = &searched.index.docs;
        for (a, b) in pairs {
            let (Some(share_ab), Some(share_ba)) = (share(a, b), share(b, a)) else {
                continue;
            };
            let (doc_a, doc_b) = (&docs[a], &docs[b]);
            let percent = |share: f64| format!("{}%", number((share * 100.0).round()));
            let only_b = distinguishing(doc_b, doc_a);
            let only_a = distinguishing(doc_a, doc_b);
            let message = format!(
                "`{}` and `{}` read alike to tool search: the words of each find the other \
                 ({} and {} of their own score)",
                doc_b.name,
                doc_a.name,
                percent(share_ba),
                percent(share_ab)
            );
            let help = if only_a.is_empty() && only_b.is_empty() {
                "their names and first sentences have no word the other lacks: say in each \
                 what it is for, and when to use the other instead"
                    .to_string()
            } else {
                format!(
                    "say in each name and first sentence what sets it apart (and when to use \
                     the other); words only `{}` has: {}; only `{}`: {}",
                    doc_b.name,
                    listed(&only_b),
                    doc_a.name,
                    listed(&only_a)
                )
            };
            findings.extend(finding(&searched.owners, (a, b), message, help));
        }
        findings
    }
}

impl Rule for ConfusableTools {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        // One tool has no other to be confused with, and making its search doc costs 4% of a
        // run over one-tool files.
        if ctx.in_session || set.tools.len() < 2 {
            return;
        }
        for finding in self.check(found_in_set(set, ctx, Engine::Bm25).all()) {
            ctx.set_tool(Some(finding.tool));
            ctx.report(Field::Name, Anchor::Value(finding.at), finding.message)
                .related("the other tool is defined here", finding.other_at.span())
                .help(finding.help);
            ctx.set_tool(None);
        }
    }

    fn check_session(&self, session: &SessionRef<'_>, sets: &[SetRef<'_>], ctx: &mut RunCtx<'_>) {
        for finding in self.check(found_in_session(session, sets).all()) {
            let other_file = sets[finding.other_set].file;
            let file = ctx.file(finding.set);
            file.set_tool(Some(finding.tool));
            file.report(Field::Name, Anchor::Value(finding.at), finding.message)
                .related_in(
                    "the other tool is defined here",
                    other_file,
                    finding.other_at.span(),
                )
                .help(finding.help);
            file.set_tool(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::nesting::names_nest;
    use super::*;

    fn doc(name: &str) -> Doc {
        Doc {
            name: name.into(),
            tool: name.into(),
            ..Doc::default()
        }
    }

    /// Whether `long` is a child of `short` (described by `description`, with `args`) that
    /// its name tells apart.
    fn child(short: &str, description: &str, args: &[&str], long: &str) -> bool {
        let parent = Doc {
            description: description.into(),
            args: args
                .iter()
                .map(|arg| (arg.to_string(), String::new()))
                .collect(),
            ..doc(short)
        };
        let child = doc(long);
        child_names_its_part((&parent, &name_sequence(&parent)), &name_sequence(&child))
    }

    #[test]
    fn a_child_is_told_apart_by_words_its_parent_does_not_claim() {
        assert!(child(
            "get_task",
            "Get one task by its id.",
            &["id"],
            "get_task_list"
        ));
        assert!(child("reply", "Reply to the sender.", &[], "reply-all"));
        // The parent's text already has the child's word.
        assert!(!child(
            "hotel_booking",
            "Book a hotel room.",
            &[],
            "hotel_booking_book"
        ));
        assert!(!child(
            "update_pr",
            "Update a pull request.",
            &["state"],
            "update_pr_state"
        ));
        assert!(!child(
            "get_task",
            "Get the tasks of a list.",
            &[],
            "get_task_lists"
        ));
        // Words before or between the parent's are not a child's part.
        assert!(!child(
            "calculate_velocity",
            "Velocity.",
            &[],
            "calculate_final_velocity"
        ));
        assert!(!child("task", "A task.", &[], "get_task"));
        // Reordered words, or the same words, add nothing.
        assert!(!child("weather_get", "Weather.", &[], "get_weather"));
    }

    #[test]
    fn a_tool_is_named_whole_and_a_plain_word_only_in_quotes() {
        let with = |description: &str| Doc {
            description: description.into(),
            ..doc("a")
        };
        assert!(names_tool(
            &with("For rows use export_rows."),
            &doc("export_rows")
        ));
        assert!(!names_tool(
            &with("See export_rows_v2."),
            &doc("export_rows")
        ));
        assert!(names_tool(&with("Prefer `edit` here."), &doc("edit")));
        assert!(!names_tool(
            &with("Edit a file; edit is fast."),
            &doc("edit")
        ));
    }

    /// The pairs looked up by word subsets are exactly the nesting pairs a comparison of every
    /// tool with every other finds, names of more than `MAX_SUBSET_WORDS` words included.
    #[test]
    fn nesting_pairs_are_every_pair_whose_names_nest() {
        let words = ["get", "list", "file", "issue", "repo", "of", "user", "page"];
        let mut seed = 7u64;
        let mut next = |bound: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % bound
        };
        let mut docs: Vec<Doc> = (0..300)
            .map(|_| {
                let length = 1 + next(4);
                let parts: Vec<&str> = (0..length).map(|_| words[next(words.len())]).collect();
                doc(&parts.join("_"))
            })
            .collect();
        docs.push(doc(&words.repeat(2).join("_")));
        docs.push(doc("a_b_c_d_e_f_g_h_i_j_k_l"));
        docs.push(doc("c_f_k"));
        let sequences: Vec<Vec<String>> = docs.iter().map(name_sequence).collect();
        let words: Vec<Vec<&str>> = sequences.iter().map(|s| name_words(s)).collect();
        let mut expected = Vec::new();
        for a in 0..docs.len() {
            for b in a + 1..docs.len() {
                if names_nest(&docs[a], &docs[b], (&words[a], &words[b])) {
                    expected.push((a, b));
                }
            }
        }
        assert!(expected.len() > 100, "{}", expected.len());
        assert!(expected.contains(&(docs.len() - 2, docs.len() - 1)));
        assert_eq!(nesting_pairs(&docs, &words), expected);
    }
}
