//! `toolcheck explain`: one rule's documentation, or (`--target`) one target's profile.

use crate::error::{Error, Result};

use super::args::ExplainArgs;
use super::{load_config, print, registry};

pub(super) fn run(args: ExplainArgs) -> Result<i32> {
    if let Some(target) = &args.target {
        print(&crate::targets::explain(&*crate::targets::find(target)?));
        return Ok(0);
    }
    let rule = args.rule.unwrap_or_default();
    let registry = registry(&load_config(&args.config)?)?;
    let found = registry.find(&rule).ok_or_else(|| {
        let candidates = registry
            .rules
            .iter()
            .flat_map(|r| [r.meta.code.as_str(), r.meta.name.as_str()]);
        let error = Error::new(format!("unknown rule `{rule}`"));
        match crate::text::suggest::did_you_mean(&rule, candidates) {
            Some(close) => error.with_help(format!("did you mean `{close}`?")),
            None => error.with_help("`toolcheck rules` lists every rule"),
        }
    })?;
    print(&crate::catalog::docs::explain(found));
    Ok(0)
}
