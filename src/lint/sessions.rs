//! The session checks (`Rule::check_session`): for each session of the config
//! (`sessions:`, [`crate::config::sessions`]) whose files are among the run's inputs, every
//! rule sees those files together, after each file's own checks and the checks across files.
//! A session's findings go to its files (the set rules put theirs at the first one).

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::file::Checked;
use super::panic_message;
use super::rule::{Ctx, RunCtx, SessionRef, SetRef};
use super::select::Selection;
use crate::tokens::Encoding;

/// `membership[i]`: the sessions `files[i]` is in, each with the file's server name.
pub(crate) fn check(
    files: &mut [Checked<'_>],
    membership: &[Vec<(usize, String)>],
    selection: &Selection,
    encoding: Encoding,
) {
    let sessions = &selection.sessions;
    if sessions.is_empty() {
        return;
    }
    let mut found = Vec::new();
    let mut failed = None;
    for (index, session) in sessions.list.iter().enumerate() {
        // The session's files that were read into a tool set, in input order.
        let members: Vec<(usize, &str)> = membership
            .iter()
            .enumerate()
            .filter(|(file, _)| files[*file].set.is_some())
            .filter_map(|(file, member_of)| {
                let (_, server) = member_of.iter().find(|(s, _)| *s == index)?;
                Some((file, server.as_str()))
            })
            .collect();
        if members.is_empty() {
            continue;
        }
        let sets: Vec<SetRef<'_>> = members
            .iter()
            .filter_map(|&(file, _)| {
                let checked = &files[file];
                Some(SetRef {
                    file: checked.file,
                    set: checked.set.as_ref()?,
                })
            })
            .collect();
        let session_ref = SessionRef {
            name: &session.name,
            host: &session.host,
            window: session.window,
            servers: members.iter().map(|(_, server)| *server).collect(),
        };
        for (active, rule) in &selection.rules {
            let ctxs = sets
                .iter()
                .map(|set| {
                    let mut ctx = Ctx::new(set.file, encoding, active);
                    ctx.targets = &selection.targets;
                    ctx.in_session = true;
                    ctx
                })
                .collect();
            let mut run = RunCtx::new(ctxs);
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                rule.check_session(&session_ref, &sets, &mut run)
            }));
            if let Err(payload) = outcome {
                let message = panic_message(&*payload);
                failed = Some(format!(
                    "in `{}` over the session `{}`: {message}",
                    active.name, session.name
                ));
                break;
            }
            for (set_index, diagnostic) in run.take_findings() {
                found.push((members[set_index].0, diagnostic));
            }
        }
    }
    let mut touched = vec![false; files.len()];
    for (index, diagnostic) in found {
        files[index].diagnostics.push(diagnostic);
        touched[index] = true;
    }
    for (file, touched) in files.iter_mut().zip(touched) {
        if touched {
            file.diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        }
    }
    if let (Some(message), Some(first)) = (failed, files.first_mut()) {
        first.internal_error.get_or_insert(message);
    }
}
