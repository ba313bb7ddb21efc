//! The check of `too-many-tools`. Its code, docs and default options are in
//! `rules/budget/too-many-tools.yaml`.

use serde::Deserialize;

use std::sync::Arc;

use super::helpers::{auto_defers_all, report_session, report_set, shown};
use crate::normalize::ToolSet;
use crate::rule::{Ctx, Rule, RunCtx, SessionRef, SetRef};
use crate::targets::Active;
use crate::targets::profile::Check;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TooManyTools {
    /// The most tools one file may load up front.
    max_tools: usize,
}

impl Rule for TooManyTools {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        // A file of a session counts towards its session's total (`check_session`).
        if ctx.in_session {
            return;
        }
        let loaded = set.tools.iter().filter(|tool| !tool.defer_loading).count();
        if loaded <= self.max_tools {
            return;
        }
        let deferred = set.tools.len() - loaded;
        let message = format!(
            "{loaded} tools are loaded at once, limit {}{}",
            self.max_tools,
            if deferred > 0 {
                format!(" ({deferred} more deferred)")
            } else {
                String::new()
            }
        );
        if let Some(finding) = report_set(set, ctx, message) {
            finding.help(
                "models choose worse past 30-50 tools; mark rarely used tools \
                 `defer_loading: true` so that tool search loads them when needed, or merge \
                 endpoint-shaped tools into task-shaped ones",
            );
        }
    }

    /// The session's loaded tools over `max-tools`, or over the tool cap of the session's
    /// host (a `max-tools` constraint of its profile), which wins: it is what the host does.
    fn check_session(&self, session: &SessionRef<'_>, sets: &[SetRef<'_>], ctx: &mut RunCtx<'_>) {
        // `auto:N` past its share of the window defers all but the `alwaysLoad` tools.
        let all_deferred = auto_defers_all(session, sets, ctx);
        let counts: Vec<usize> = sets
            .iter()
            .map(|set| {
                set.set
                    .tools
                    .iter()
                    .filter(|tool| match all_deferred {
                        true => tool.always_load,
                        false => session.loads(tool),
                    })
                    .count()
            })
            .collect();
        let loaded: usize = counts.iter().sum();
        let cap = session
            .host
            .constraints
            .iter()
            .filter_map(|constraint| match constraint.check {
                Check::MaxTools(max) => {
                    Some((usize::try_from(max).unwrap_or(usize::MAX), constraint))
                }
                _ => None,
            })
            .min_by_key(|(max, _)| *max)
            .filter(|(max, _)| loaded > *max);
        if cap.is_none() && loaded <= self.max_tools {
            return;
        }
        let mut servers: Vec<(&str, usize)> = session.servers.iter().copied().zip(counts).collect();
        servers.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
        let by_server: Vec<String> = servers
            .iter()
            .map(|(server, count)| format!("{} {count}", shown(server)))
            .collect();
        let from = format!(
            "session `{}` loads {loaded} tools from {} {}",
            session.name,
            servers.len(),
            if servers.len() == 1 {
                "server"
            } else {
                "servers"
            }
        );
        let (message, help) = match cap {
            Some((max, constraint)) => {
                let active = Active {
                    target: session.host.name.clone(),
                    constraint: Arc::clone(constraint),
                };
                (
                    format!(
                        "{from}, more than the {max} {} takes: it {}",
                        active.who(),
                        constraint.effect.verb()
                    ),
                    format!(
                        "by server: {}; turn off the servers and tools this session does not \
                         need; {}",
                        by_server.join(", "),
                        active.cite()
                    ),
                )
            }
            None => (
                format!("{from} at once, limit {}", self.max_tools),
                format!(
                    "by server: {}; models choose worse past 30-50 tools: defer the servers \
                     used least so that tool search loads their tools when needed, or turn \
                     them off in this session",
                    by_server.join(", ")
                ),
            ),
        };
        if let Some(finding) = report_session(sets, ctx, message) {
            finding.help(help);
        }
    }
}
