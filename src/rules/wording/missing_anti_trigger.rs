//! The check of `missing-anti-trigger`. Its code, docs and default options are in
//! `rules/wording/missing-anti-trigger.yaml`.

use std::ops::Range;

use foldhash::HashSet;
use serde::Deserialize;

use super::helpers::{NamedPhrases, identifiers};
use crate::diagnostic::Field;
use crate::normalize::{Tool, ToolSet};
use crate::rule::{Anchor, Ctx, Rule};
use crate::text;

mod clause;
mod overlap;
mod vocabulary;

use clause::clause_around;
use overlap::Overlap;
use vocabulary::{
    ARTICLES, CHOICE, CONDITION, DIRECTING, FALLBACK, MARKERS, NOT_ORDERS, OPENERS,
    OTHER_WORDING_NEED, OTHER_WORDINGS, OUTCOME, PARAMETER, RESULT, SIDE_EFFECTS, WORKFLOW,
};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct MissingAntiTrigger {
    words: NamedPhrases,
}

impl MissingAntiTrigger {
    /// Which of `sentences` say where the tool `name` stops, as this rule reads a boundary;
    /// `names` are the tool names of its file (`toolcheck diff` compares the boundary
    /// sentences of two versions of a description).
    pub(crate) fn boundaries(
        &self,
        name: &str,
        sentences: &[&str],
        names: &HashSet<&str>,
    ) -> Vec<bool> {
        let siblings = Siblings { names, own: name };
        sentences
            .iter()
            .map(|value| self.has_boundary(name, value, &siblings))
            .collect()
    }
}

impl Rule for MissingAntiTrigger {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let all_names: HashSet<&str> = set
            .tools
            .iter()
            .map(Tool::name)
            .filter(|name| !name.is_empty())
            .collect();
        // Built on the first finding: most files have one, and the index costs a pass.
        let mut overlap: Option<Overlap> = None;
        for (index, tool) in set.tools.iter().enumerate() {
            let name = tool.name();
            let siblings = Siblings {
                names: &all_names,
                own: name,
            };
            let says_where_it_stops = |value: &str| self.has_boundary(name, value, &siblings);
            let mut missing: Vec<(Field, Anchor<'_>)> = Vec::new();
            if let Some(description) = tool.description() {
                let value = description.as_str().unwrap_or_default();
                if !value.trim().is_empty() && !says_where_it_stops(value) {
                    missing.push((Field::Description, Anchor::Value(description)));
                }
            }
            if let Some(entry) = tool.guidelines {
                let texts: Vec<&str> = tool
                    .guidelines()
                    .filter_map(|node| node.as_str())
                    .filter(|value| !value.trim().is_empty())
                    .collect();
                if !texts.is_empty() && !texts.iter().any(|value| says_where_it_stops(value)) {
                    missing.push((Field::Guidelines, Anchor::Key(entry)));
                }
            }
            if missing.is_empty() {
                continue;
            }
            // A tool alone in its file has no other to hand over to.
            let closest = (set.tools.len() > 1)
                .then(|| {
                    overlap
                        .get_or_insert_with(|| Overlap::new(&set.tools))
                        .closest(index)
                })
                .flatten()
                .map(|other| set.tools[other].name());
            ctx.set_tool(Some(name).filter(|name| !name.is_empty()));
            for (field, target) in missing {
                let help = match closest {
                    Some(other) => format!(
                        "add when not to call it and which tool takes over, e.g. \"Do not use \
                         {name} for ...; use {other} instead\" ({other} is the tool in this file \
                         whose name and description overlap most); trigger language alone \
                         makes models over-use a tool"
                    ),
                    None => format!(
                        "add when not to call it, e.g. \"Do not use {name} for ...\"; trigger \
                         language alone makes models over-use a tool"
                    ),
                };
                ctx.report(
                    field,
                    target,
                    format!("nothing in the {field} says when not to use `{name}`"),
                )
                .help(help);
            }
        }
        ctx.set_tool(None);
    }
}

impl MissingAntiTrigger {
    /// Whether `value` says where the tool `name` stops: an anti-trigger phrase used as one, a
    /// boundary in other words, or another tool of the file offered for some case.
    fn has_boundary(&self, name: &str, value: &str, siblings: &Siblings<'_>) -> bool {
        // A list that does not compile for this name (too large) cannot tell: no finding.
        let Some(phrases) = self.words.regex(name, value) else {
            return true;
        };
        text::find_all(&phrases, value, true)
            .into_iter()
            .any(|hit| !is_not_a_boundary(value, &hit, siblings))
            || has_other_wording(value)
            || siblings
                .mentions(value)
                .into_iter()
                .any(|at| offers_sibling(value, &at))
    }
}

/// Whether `value` says where the tool stops in other words than the phrase list.
fn has_other_wording(value: &str) -> bool {
    if !OTHER_WORDING_NEED.may_match(value) {
        return false;
    }
    let quoted = text::backtick_ranges(value);
    OTHER_WORDINGS.captures_iter(value).any(|found| {
        let Some(whole) = found.get(0) else {
            return false;
        };
        let in_quotes = quoted
            .iter()
            .any(|q| q.start <= whole.start() && whole.end() <= q.end);
        // `must not invoke any other tools until …` is about the other tools.
        let about_others = found.name("other").is_some();
        // `read only`, `write only` say what the tool does, not where it stops.
        let access = found.name("restricted").is_some_and(|word| {
            matches!(
                word.as_str().to_lowercase().as_str(),
                "read" | "write" | "append"
            )
        });
        // `only <verb> once …` restricts an action; `only results when` is a plural noun and
        // `only needed when` is about something else than the tool as often as not.
        let not_a_verb = found.name("verb").is_some_and(|verb| {
            let verb = verb.as_str().to_lowercase();
            (verb.ends_with('s') && !verb.ends_with("ss")) || verb.ends_with("ed")
        });
        !in_quotes && !about_others && !not_a_verb && !access
    })
}

/// Whether an anti-trigger phrase at `hit` says something else than where the tool stops:
/// `rather than`, `instead` or `unless` about what the tool returns or does by default
/// (`returns false rather than an error`, `defaults to the subject unless …`), `rather than`
/// between two example values (`'Python asyncio' rather than 'Python'`), `does not` in a
/// condition on the data (`creates the file if it doesn't exist`), `skip` or `avoid` naming
/// what a parameter does (`number of rows to skip`, `an option to avoid tolls`).
fn is_not_a_boundary(value: &str, hit: &Range<usize>, siblings: &Siblings<'_>) -> bool {
    let phrase = value[hit.clone()]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let clause = clause_around(value, hit);
    let before = words(&value[clause.start..hit.start]);
    let after = words(&value[hit.end..clause.end]);
    match phrase.as_str() {
        "rather than" | "instead" | "unless" => {
            let example_value = phrase == "rather than"
                && value[hit.end..]
                    .trim_start()
                    .starts_with(['\'', '"', '“', '‘']);
            let about_a_tool = before
                .iter()
                .chain(&after)
                .any(|w| CHOICE.contains(&w.as_str()))
                || mentions_a_tool(&value[clause.clone()], siblings);
            let behaviour = before.iter().any(|w| RESULT.contains(&w.as_str()))
                || value[clause.start..hit.start]
                    .to_lowercase()
                    .contains("by default")
                || (phrase != "unless"
                    && after.first().is_some_and(|w| OUTCOME.contains(&w.as_str())))
                || (phrase != "unless"
                    && after.first().is_some_and(|w| w == "of")
                    && after.get(1).is_some_and(|w| OUTCOME.contains(&w.as_str())));
            // `Use this tool instead of kubectl get` pushes this tool: the opposite of a
            // boundary.
            let pushes_this = phrase == "instead"
                && after.first().is_some_and(|w| w == "of")
                && before.windows(2).any(|pair| {
                    CHOICE.contains(&pair[0].as_str()) && matches!(pair[1].as_str(), "this" | "it")
                });
            example_value || pushes_this || (behaviour && !about_a_tool)
        }
        "does not" | "doesn't" => {
            // `If that doesn't work, use this` makes the tool a fallback: a boundary.
            let fallback = after
                .first()
                .is_some_and(|w| FALLBACK.contains(&w.as_str()));
            // `does not modify data`, `does not require auth`: what the tool does, in passing.
            let side_effect = after
                .first()
                .is_some_and(|w| SIDE_EFFECTS.iter().any(|verb| w.starts_with(verb)));
            !fallback
                && (before.iter().any(|w| CONDITION.contains(&w.as_str()))
                    || after.first().is_some_and(|w| w.starts_with("exist"))
                    || side_effect)
        }
        "skip" | "avoid" => {
            before.last().is_some_and(|w| w == "to")
                && before
                    .iter()
                    .rev()
                    .take(4)
                    .any(|w| PARAMETER.contains(&w.as_str()))
        }
        _ => false,
    }
}

/// Whether `text` names a tool: `this tool`, or another tool of the file.
fn mentions_a_tool(text: &str, siblings: &Siblings<'_>) -> bool {
    let lower = text.to_lowercase();
    lower.contains("this tool")
        || lower.contains("this function")
        || !siblings.mentions(text).is_empty()
}

/// The other tools of a file, found in a text by looking its identifiers up.
struct Siblings<'a> {
    names: &'a HashSet<&'a str>,
    own: &'a str,
}

impl Siblings<'_> {
    fn mentions(&self, text: &str) -> Vec<Range<usize>> {
        identifiers(text)
            .into_iter()
            .filter(|at| {
                let word = &text[at.clone()];
                word != self.own && self.names.contains(word)
            })
            .collect()
    }
}

/// Whether `value` offers `sibling` for some case: `Use recommend_x for full analysis`,
/// `For larger files, use create_record`, `to see the scene, use look`, `prefer fill_form`,
/// `fill_form is better for forms`, `remote URLs belong in scrape`. A step before or after
/// this tool (`call list_projects first to get the id`) is a workflow, not a boundary.
fn offers_sibling(value: &str, at: &Range<usize>) -> bool {
    let clause = clause_around(value, at);
    let before = words(&value[clause.start..at.start]);
    let after = words(&value[at.end..clause.end]);
    let all = || before.iter().chain(&after);
    if all().any(|w| WORKFLOW.contains(&w.as_str())) {
        return false;
    }
    // A comparison with the other tool: `prefer this tool over X`, `X is preferred`, `more
    // effective than X for …`.
    if before.iter().chain(&after).any(|w| w.starts_with("prefer"))
        || before.iter().any(|w| w == "than")
    {
        return true;
    }
    // The verb right before the name, over an article: `use the X tool`.
    let mut back = before
        .iter()
        .rev()
        .skip_while(|w| ARTICLES.contains(&w.as_str()));
    let verb = back.next().map(String::as_str);
    let before_verb = back.next().map(String::as_str);
    // `prefer X`, `… belong in X`, `… handled by X` name the case by themselves.
    let belongs = before_verb.is_some_and(|w| w.starts_with("belong"));
    // `For larger files, use X`, `If highlights are insufficient, follow up with X`.
    let opened = before
        .first()
        .is_some_and(|w| OPENERS.contains(&w.as_str()));
    let directed = match verb {
        Some("prefer") => return true,
        Some("in" | "to" | "with") if belongs => return true,
        Some("by") if matches!(before_verb, Some("handled" | "covered" | "done")) => {
            return true;
        }
        // `Retrieve one page with X`: an order to do something else, with another tool; not
        // the first sentence, which says what this tool does, nor a participle (`commands
        // started with X`, `a tool discovered through X`), which says where input comes from.
        Some("with" | "via" | "using" | "through") if opened => return true,
        Some("with" | "via" | "using" | "through") => {
            let first_sentence = !value[..clause.start].contains(['.', '\n', ';']);
            let participle = before_verb.is_some_and(|w| w.ends_with("ed"));
            return !first_sentence
                && !participle
                && before.len() >= 3
                && before.first().is_some_and(|w| looks_imperative(w));
        }
        Some("to") => matches!(before_verb, Some("switch" | "back" | "go" | "turn")),
        Some(verb) => DIRECTING.contains(&verb),
        None => false,
    };
    let better = after.first().is_some_and(|w| w == "is" || w == "are")
        && after
            .get(1)
            .is_some_and(|w| matches!(w.as_str(), "better" | "preferred" | "best" | "more"));
    if better {
        return true;
    }
    if !directed {
        return false;
    }
    // `If you need Y, call X`; `use X for …`, `use X when …`.
    let marked = after.iter().take(8).any(|w| MARKERS.contains(&w.as_str()));
    opened || marked
}

/// A clause's first word that reads as an order: a bare verb, by shape (`retrieve`, `collect`;
/// not `returns`, `loaded`, `using`, nor a determiner or pronoun).
fn looks_imperative(word: &str) -> bool {
    let third_person = word.ends_with('s') && !word.ends_with("ss");
    word.chars().all(char::is_alphabetic)
        && !third_person
        && !word.ends_with("ed")
        && !word.ends_with("ing")
        && !NOT_ORDERS.contains(&word)
}

/// The lowercase words of `text`, without punctuation or backticks.
pub(super) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '_' || c == '-'))
        .map(|w| w.trim_matches(['\'', '-']))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::overlap::stem;
    use super::*;

    fn rule() -> MissingAntiTrigger {
        let words = [
            "do not use",
            "not for",
            "avoid",
            "instead",
            "rather than",
            "unless",
            "skip",
            "only when",
            "only if",
            "does not",
            "doesn't",
        ]
        .map(String::from);
        MissingAntiTrigger {
            words: serde_json::from_value(serde_json::json!(words)).unwrap(),
        }
    }

    fn bounded(value: &str, siblings: &[&str]) -> bool {
        let names: HashSet<&str> = siblings.iter().copied().collect();
        let siblings = Siblings {
            names: &names,
            own: "this_tool",
        };
        rule().has_boundary("this_tool", value, &siblings)
    }

    #[test]
    fn boundaries_in_other_words_count() {
        for (value, siblings) in [
            // Issue 28: `X only` as the tool's scope, `only allowed`, `only … can be`,
            // `use Y to …`, and a sibling named after a line break inside a sentence.
            ("Lists the workspace's jobs (Cloud only).", &[][..]),
            ("Fetch a page. Supports HTTP/HTTPS only.", &[]),
            (
                "Edit a file. This tool is for surgical edits only; read it first.",
                &[],
            ),
            ("Delete a task. Only allowed when the task is closed.", &[]),
            ("Delete a task. Only uncompleted tasks can be deleted.", &[]),
            (
                "List requests. Use get_request to see one in full.",
                &["get_request"],
            ),
            (
                "Use browser_network_request with the number to get details.",
                &["browser_network_request"],
            ),
            (
                "Read a file. For large files, use\nread_chunk.",
                &["read_chunk"],
            ),
            ("Only use when the user asks for a plan.", &[][..]),
            ("Use this tool only for small files.", &[]),
            (
                "Use recommend_x for full analysis on a whole repository.",
                &["recommend_x"],
            ),
            (
                "Create a record. For larger files, use create_record_batch.",
                &["create_record_batch"],
            ),
            (
                "Describe the room. No image; to see the scene, use look.",
                &["look"],
            ),
            (
                "Fill one field. Prefer fill_form for whole forms.",
                &["fill_form"],
            ),
            (
                "Search pages. `scrape` is better for a known URL.",
                &["scrape"],
            ),
            (
                "Remote web URLs belong in firecrawl_scrape.",
                &["firecrawl_scrape"],
            ),
            ("It should not be used for bulk exports.", &[]),
            ("Only works with integrated-inference indexes.", &[]),
            ("Not suitable for binary files.", &[]),
            ("Deprecated compatibility entry point.", &[]),
            ("Use X rather than calling this tool twice.", &[]),
            (
                "Prefer the rerank parameter instead of calling this tool separately.",
                &[],
            ),
            (
                "Prefer this tool over assign_copilot when available.",
                &["assign_copilot"],
            ),
            (
                "If one option is the obvious default, decide it and keep going instead.",
                &[],
            ),
            (
                "Far more effective than regex-based search_files.",
                &["search_files"],
            ),
            (
                "If highlights are insufficient, follow up with web_fetch on the URLs.",
                &["web_fetch"],
            ),
            ("Lists URLs. Retrieve one page with `scrape`.", &["scrape"]),
            ("You should only submit once every step is verified.", &[]),
            ("If that doesn't work, you can submit evidence.", &[]),
            ("Read a file as text. DEPRECATED: use read_text_file.", &[]),
            ("This tool is only available in Plan mode.", &[]),
        ] {
            assert!(bounded(value, siblings), "{value}");
        }
    }

    #[test]
    fn phrases_about_results_and_parameters_do_not() {
        for (value, siblings) in [
            // Issue 28: a value restricted with `only`, `read only`, this tool pushed over
            // another, and `does not` about side effects.
            ("List files, optionally of one type only.", &[][..]),
            (
                "Fetch a page; mode 'main' (main content only) or 'text'.",
                &[],
            ),
            ("Query the cluster. This tool is read only.", &[]),
            ("Use this tool instead of kubectl get.", &[]),
            ("List pods. It does not mutate data.", &[]),
            ("Sort an array. It does not require any options.", &[]),
            ("Check a path; returns false rather than an error.", &[][..]),
            (
                "If it already exists, it is returned unchanged instead of erroring.",
                &[],
            ),
            (
                "If the manager is shutting down, it returns a dummy timeout instead.",
                &[],
            ),
            (
                "Defaults to the same repository unless related_repo is given.",
                &[],
            ),
            (
                "By default, all script tags are removed unless removeScripts is false.",
                &[],
            ),
            (
                "Be specific ('Python asyncio tutorial' rather than 'Python').",
                &[],
            ),
            ("Creates the file if it doesn't exist.", &[]),
            (
                "offset: number of documents to skip before returning results",
                &[],
            ),
            (
                "Find the fastest route, with an option to avoid toll roads.",
                &[],
            ),
            (
                "Call list_projects first to get the project id.",
                &["list_projects"],
            ),
            ("Use this to find a connectionId.", &["find"]),
            ("Returns only the first page.", &[]),
            (
                "Audit best practices: security, deprecated APIs and hygiene.",
                &[],
            ),
            (
                "Create a coupon. Only use one of percent_off or amount_off.",
                &[],
            ),
            ("Activate a skill. ONLY use names exactly as listed.", &[]),
            (
                "Run a query. Qualified names are only needed when joining.",
                &[],
            ),
            (
                "The LLM MUST NOT invoke any other tools until the user answers.",
                &[],
            ),
            (
                "Execute a tool discovered through search_tools.",
                &["search_tools"],
            ),
            (
                "Send input. Works with commands started with start_process.",
                &["start_process"],
            ),
            (
                "Start a job. Read the job with `job_status` until it completes.",
                &["job_status"],
            ),
        ] {
            assert!(!bounded(value, siblings), "{value}");
        }
    }

    #[test]
    fn stems_join_plurals() {
        assert_eq!(stem("issues"), "issue");
        assert_eq!(stem("entries"), "entry");
        assert_eq!(stem("address"), "address");
        assert_eq!(stem("status"), "status");
    }
}
