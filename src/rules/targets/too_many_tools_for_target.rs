//! The check of `too-many-tools-for-target`. Its code and docs are in
//! `rules/targets/too-many-tools-for-target.yaml`.

use serde::Deserialize;

use super::helpers::file_target;
use crate::diagnostic::Field;
use crate::normalize::ToolSet;
use crate::rule::{Ctx, Rule};
use crate::targets::profile::{Check, Effect};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TooManyToolsForTarget {}

impl Rule for TooManyToolsForTarget {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        if targets.is_empty() {
            return;
        }
        // Every entry of the list counts, deferred or not: a provider's cap is on the
        // request's `tools` array, which carries the deferred definitions too, and a host
        // counts the tools a server offers (`defer_loading` is a provider field it does not
        // read). Provider built-ins without a schema are entries of that array as well.
        let count = set.tools.len() + set.skipped();
        let deferred = set.tools.iter().filter(|tool| tool.defer_loading).count();
        for active in targets.checks(|check| matches!(check, Check::MaxTools(_))) {
            let Check::MaxTools(max) = active.constraint.check else {
                continue;
            };
            if count as u64 <= max {
                continue;
            }
            let mut message = format!("{count} tools in this file, over {max}");
            if deferred > 0 {
                message.push_str(&format!(" ({deferred} deferred, which count too)"));
            }
            let does = match active.constraint.effect {
                Effect::Dropped => "drops the tools past the limit",
                effect => effect.verb(),
            };
            message.push_str(&format!("; {} {does}", active.who()));
            let help = format!(
                "split the tools into servers of at most {max}, or merge endpoint-shaped tools \
                 into task-shaped ones; {}",
                active.cite()
            );
            let Some(target) = file_target(set) else {
                continue;
            };
            ctx.report(Field::File, target, message).help(help);
        }
    }
}
