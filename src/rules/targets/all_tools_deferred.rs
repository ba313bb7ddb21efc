//! The check of `all-tools-deferred`. Its code and docs are in
//! `rules/targets/all-tools-deferred.yaml`.

use std::collections::HashSet;
use std::sync::Arc;

use serde::Deserialize;

use super::helpers::file_target;
use crate::diagnostic::Field;
use crate::normalize::ToolSet;
use crate::rule::{Ctx, Rule};
use crate::targets::Active;
use crate::targets::profile::{Check, Kind};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllToolsDeferred {}

impl Rule for AllToolsDeferred {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        if targets.is_empty() || set.tools.is_empty() {
            return;
        }
        if !set.tools.iter().all(|tool| tool.defer_loading) {
            return;
        }
        // Only where the file is the whole request: a host (Claude Code) sends its own
        // built-in tools beside a server's, and those are never deferred.
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
                let count = set.tools.len();
                let message = format!(
                    "all {count} tools have `defer_loading: true`; {} {}",
                    active.who(),
                    constraint.effect.verb()
                );
                let help = format!(
                    "keep at least one tool loaded (the tool search tool itself, and the 3-5 \
                     tools used most); {}",
                    active.cite()
                );
                let Some(target) = file_target(set) else {
                    continue;
                };
                ctx.report(Field::File, target, message).help(help);
            }
        }
    }
}
