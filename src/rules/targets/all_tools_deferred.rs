//! The check of `all-tools-deferred`. Its code and docs are in
//! `rules/targets/all-tools-deferred.yaml`.

use std::collections::HashSet;
use std::sync::Arc;

use serde::Deserialize;

use super::helpers::file_target;
use crate::diagnostic::Field;
use crate::normalize::ToolSet;
use crate::parse::Entry;
use crate::rule::{Anchor, Ctx, Rule};
use crate::targets::Active;
use crate::targets::profile::{Check, Kind};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllToolsDeferred {}

impl Rule for AllToolsDeferred {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        let Some(problem) = Problem::of(set) else {
            return;
        };
        if targets.is_empty() {
            return;
        }
        // Only where the file is the whole request: a host (Claude Code) sends its own
        // built-in tools beside a server's, and its own tool search.
        let mut seen = HashSet::new();
        for profile in &targets.selected {
            if profile.kind == Kind::Host {
                continue;
            }
            for constraint in &profile.constraints {
                if !matches!(constraint.check, Check::NotAllDeferred)
                    || !seen.insert(Arc::as_ptr(constraint))
                {
                    continue;
                }
                let active = Active {
                    target: profile.name.clone(),
                    constraint: constraint.clone(),
                };
                let Some(target) = problem.anchor(set) else {
                    continue;
                };
                let (message, help) = problem.describe(&active);
                ctx.report(Field::File, target, message).help(help);
            }
        }
    }
}

/// What is wrong with a request's deferral, where a provider serves deferred tools only
/// through a tool search tool of the same request that is itself loaded.
#[derive(Debug)]
enum Problem<'a> {
    /// Every entry of the list is deferred, the search tool too if there is one: rejected.
    AllDeferred { count: usize },
    /// A search tool that is deferred (`at`: its `defer_loading`): it must stay loaded.
    SearchToolDeferred { kind: &'a str, at: &'a Entry },
    /// Deferred tools and no tool search tool to load them: the model never sees them.
    NoSearchTool { deferred: usize },
}

impl<'a> Problem<'a> {
    fn of(set: &ToolSet<'a>) -> Option<Problem<'a>> {
        let deferred = set.tools.iter().filter(|tool| tool.defer_loading).count()
            + set
                .builtins
                .iter()
                .filter(|builtin| builtin.deferred)
                .count();
        if deferred == 0 {
            return None;
        }
        let count = set.tools.len() + set.builtins.len();
        if deferred == count {
            return Some(Problem::AllDeferred { count });
        }
        let mut search = set
            .builtins
            .iter()
            .filter(|builtin| builtin.is_tool_search());
        let deferred_search = search.clone().find_map(|builtin| {
            let at = builtin
                .node
                .entry("defer_loading")
                .filter(|_| builtin.deferred)?;
            Some(Problem::SearchToolDeferred {
                kind: builtin.kind,
                at,
            })
        });
        match deferred_search {
            Some(problem) => Some(problem),
            None if search.next().is_none() => Some(Problem::NoSearchTool { deferred }),
            None => None,
        }
    }

    /// Where the finding points: the search tool's `defer_loading`, else the `tools` key.
    fn anchor(&self, set: &ToolSet<'a>) -> Option<Anchor<'a>> {
        match self {
            Problem::SearchToolDeferred { at, .. } => Some(Anchor::Key(at)),
            _ => file_target(set),
        }
    }

    /// The finding's message and help under `active`.
    fn describe(&self, active: &Active) -> (String, String) {
        let effect = format!("{} {}", active.who(), active.constraint.effect.verb());
        // The constraint's note quotes the 400 of an all-deferred list: only that case's.
        let cite = match self {
            Problem::AllDeferred { .. } => active.cite(),
            _ => format!(
                "source: {} (verified {})",
                active.constraint.source, active.constraint.verified
            ),
        };
        match self {
            Problem::AllDeferred { count } => (
                format!("all {count} tools have `defer_loading: true`; {effect}"),
                format!(
                    "keep at least one tool loaded (the tool search tool itself, and the 3-5 \
                     tools used most); {cite}"
                ),
            ),
            Problem::SearchToolDeferred { kind, .. } => (
                format!("the tool search tool `{kind}` has `defer_loading: true`; {effect}"),
                format!("drop its `defer_loading`: it must stay loaded to load the others; {cite}"),
            ),
            Problem::NoSearchTool { deferred } => (
                format!(
                    "{deferred} tool{} `defer_loading: true` but the request has no tool search \
                     tool: the model can never load {}",
                    if *deferred == 1 { " has" } else { "s have" },
                    if *deferred == 1 { "it" } else { "them" }
                ),
                format!(
                    "add `{{\"type\": \"tool_search_tool_bm25_20251119\", \"name\": \
                     \"tool_search_tool_bm25\"}}` (or the regex variant) to the tools, or drop \
                     `defer_loading`; {cite}"
                ),
            ),
        }
    }
}
