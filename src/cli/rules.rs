//! `toolcheck rules`: every rule, with its severity under the config.

use crate::error::Result;
use crate::lint::{Linter, Overrides};

use super::args::{ListFormat, RulesArgs};
use super::{load_config, print, registry};

pub(super) fn run(args: RulesArgs) -> Result<i32> {
    let config = load_config(&args.config)?;
    let registry = registry(&config)?;
    let linter = Linter::new(&registry, &config, &Overrides::default())?;
    print(&match args.format {
        ListFormat::Table => crate::catalog::docs::rules_table(&registry, linter.settings()),
        ListFormat::Json => crate::catalog::docs::rules_json(&registry, linter.settings()),
    });
    Ok(0)
}
