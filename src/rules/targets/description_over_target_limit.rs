//! The check of `description-over-target-limit`. Its code and docs are in
//! `rules/targets/description-over-target-limit.yaml`.

use serde::Deserialize;

use crate::lint::diagnostic::Field;
use crate::lint::rule::{Ctx, Rule, Target};
use crate::normalize::Tool;
use crate::targets::profile::Check;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DescriptionOverTargetLimit {}

impl Rule for DescriptionOverTargetLimit {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        if targets.is_empty() {
            return;
        }
        let Some(node) = tool.description() else {
            return;
        };
        let Some(value) = node.as_str() else {
            return;
        };
        let limits: Vec<_> = targets
            .checks(|check| matches!(check, Check::MaxDescriptionChars(_)))
            .collect();
        if limits.is_empty() {
            return;
        }
        // Characters, as the API measures a string's length; not bytes.
        let length = value.chars().count();
        for active in limits {
            let Check::MaxDescriptionChars(max) = active.constraint.check else {
                continue;
            };
            if length as u64 <= max {
                continue;
            }
            let message = format!(
                "the description is {length} characters, over {max}; {} {}",
                active.who(),
                active.constraint.effect.verb()
            );
            let help = format!(
                "cut the description to {max} characters or fewer: what the tool does and when to \
                 use it, with the detail moved into parameter descriptions; {}",
                active.cite()
            );
            ctx.report(Field::Description, Target::Value(node), message)
                .help(help);
        }
    }
}
