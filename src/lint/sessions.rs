//! The session checks (`Rule::check_session`): for each session of the config
//! (`sessions:`, [`crate::config::sessions`]) whose files are among the run's inputs, every
//! rule sees those files together, after each file's own checks and the checks across files.
//! A session's findings go to its files (the set rules put theirs at the first one).

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::file::{Checked, Parsed};
use super::panic_message;
use super::select::Selection;
use crate::normalize::{self, ToolSet};
use crate::rule::{Ctx, RunCtx, SessionRef, SetRef};
use crate::tokens::Encoding;

/// `membership[i]`: the sessions `files[i]` is in, each with the file's server name;
/// `parsed[i]`: its tree, kept for these checks when it is in a session.
pub(crate) fn check(
    files: &mut [Checked],
    parsed: &[Option<&Parsed>],
    membership: &[Vec<(usize, String)>],
    selection: &Selection,
    encoding: Encoding,
) {
    let sessions = &selection.sessions;
    if sessions.is_empty() {
        return;
    }
    // The tool set of every file of a session whose own checks ran: normalized again from its
    // tree (its findings were reported then).
    let sets: Vec<Option<ToolSet<'_>>> = files
        .iter()
        .zip(parsed)
        .map(|(checked, parsed)| {
            let parsed = parsed.filter(|_| checked.checked)?;
            let root = parsed.root.as_ref()?;
            let mut ctx = Ctx::new(&parsed.file, encoding, &selection.invalid_manifest);
            Some(normalize::normalize(root, &mut ctx))
        })
        .collect();
    let mut found = Vec::new();
    let mut failed = None;
    for (index, session) in sessions.list.iter().enumerate() {
        // The session's files that were read into a tool set, in input order.
        let members: Vec<(usize, &str)> = membership
            .iter()
            .enumerate()
            .filter(|(file, _)| sets[*file].is_some())
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
                Some(SetRef {
                    file: &files[file].file,
                    set: sets[file].as_ref()?,
                })
            })
            .collect();
        let session_ref = SessionRef {
            name: &session.name,
            host: &session.host,
            window: session.window,
            tool_search: session.tool_search,
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
            crate::diagnostic::sort(&mut file.diagnostics);
        }
    }
    if let (Some(message), Some(first)) = (failed, files.first_mut()) {
        first.internal_error.get_or_insert(message);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::catalog::Registry;
    use crate::config::Config;
    use crate::lint::{Linter, Overrides};
    use crate::parse::source::SourceFile;
    use crate::read::Input;
    use crate::targets::profile::{Check, Effect, Kind};
    use crate::targets::{Constraint, Profile};

    fn input(name: &str, tools: &[&str]) -> Input {
        let tools: Vec<String> = tools
            .iter()
            .map(|tool| format!(r#"{{"name": "{tool}", "description": "Run {tool}. Not for x."}}"#))
            .collect();
        Input {
            name: name.to_string(),
            bytes: format!(r#"{{"tools": [{}]}}"#, tools.join(", ")).into_bytes(),
        }
    }

    /// A host whose profile caps the tools of a session: `too-many-tools` reports the cap with
    /// the host's effect and source, under `max-tools` (30).
    #[test]
    fn a_hosts_tool_cap_is_reported_over_the_session() {
        let text = "sessions:\n  - {name: dev, host: anthropic, files: [a.json, b.json]}\n";
        let file = SourceFile::new("toolcheck.yaml", text.to_string());
        let config = Config::parse(file, ".".into()).unwrap();
        let registry = Registry::builtin().unwrap();
        let overrides = Overrides {
            select: Some(vec!["TC108".into()]),
            ..Overrides::default()
        };
        let mut linter = Linter::new(&registry, &config, &overrides).unwrap();
        let host = &mut linter.selection.sessions.list[0].host;
        *host = Arc::new(Profile {
            name: "capped".into(),
            kind: Kind::Host,
            title: "a host that caps tools".into(),
            extends: Vec::new(),
            readings: Vec::new(),
            tokens: None,
            host_tools: None,
            tool_search: Vec::new(),
            constraints: vec![Arc::new(Constraint {
                check: Check::MaxTools(2),
                effect: Effect::Dropped,
                source: "https://example.com/caps".into(),
                verified: "2026-08-22".into(),
                note: None,
                from: "capped".into(),
            })],
        });
        let reports = linter.lint_all(vec![
            input("a.json", &["one", "two"]),
            input("b.json", &["three"]),
            input("c.json", &["four", "five", "six"]),
        ]);
        let found: Vec<(&str, &str)> = reports
            .iter()
            .flat_map(|report| report.diagnostics.iter())
            .map(|d| (d.file.name.as_str(), d.message.as_str()))
            .collect();
        assert_eq!(
            found,
            [(
                "a.json",
                "session `dev` loads 3 tools from 2 servers, more than the 2 `capped` takes: it \
                 drops the tool"
            )]
        );
        let help = reports[0].diagnostics[0]
            .help
            .as_deref()
            .unwrap_or_default();
        assert!(help.starts_with("by server: `a` 2, `b` 1;"), "{help}");
        assert!(help.ends_with("source: https://example.com/caps (verified 2026-08-22)"));
    }
}
