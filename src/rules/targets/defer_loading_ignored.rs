//! The check of `defer-loading-ignored`. Its code and docs are in
//! `rules/targets/defer-loading-ignored.yaml`.

use std::collections::HashSet;
use std::sync::Arc;

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::ToolSet;
use crate::rule::{Anchor, Ctx, Rule};
use crate::targets::profile::Check;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeferLoadingIgnored {}

impl Rule for DeferLoadingIgnored {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        if targets.is_empty() || !set.tools.iter().any(|tool| tool.defer_loading) {
            return;
        }
        let mut seen = HashSet::new();
        for profile in &targets.selected {
            for constraint in &profile.constraints {
                let Check::DeferLoadingIn(shapes) = &constraint.check else {
                    continue;
                };
                if !seen.insert(Arc::as_ptr(constraint)) {
                    continue;
                }
                for tool in &set.tools {
                    let Some(at) = tool.defer_loading_at.filter(|_| tool.defer_loading) else {
                        continue;
                    };
                    let shape = tool.dialect.as_str();
                    if shapes.iter().any(|honoured| honoured == shape) {
                        continue;
                    }
                    ctx.set_tool(Some(tool.name()));
                    ctx.report(
                        Field::File,
                        Anchor::Key(at),
                        format!(
                            "{} ignores `defer_loading` on {} (`{shape}`): `{}` is loaded \
                             with every request",
                            profile.name,
                            tool.dialect.a_tool(),
                            tool.name()
                        ),
                    )
                    .help(format!(
                        "{} reads `defer_loading` only on tools written as {}: write the tool \
                         so, beside the target's tool search tool, or drop the key and count \
                         the tool as loaded; source: {} (verified {})",
                        profile.name,
                        shapes
                            .iter()
                            .map(|shape| format!("`{shape}`"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        constraint.source,
                        constraint.verified
                    ));
                    ctx.set_tool(None);
                }
            }
        }
    }
}
