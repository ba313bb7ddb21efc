//! `toolcheck completions` and `toolcheck man`: the shell completion scripts and man pages that
//! the release archives carry (scripts/build-dist.sh), made from the arguments clap reads, so
//! they cannot fall behind them.

use clap::CommandFactory;

use crate::error::{Error, Result};

use super::args::{Cli, CompletionsArgs, ManArgs};
use super::print;

pub(super) fn completions(args: &CompletionsArgs) -> Result<i32> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "toolcheck", &mut script);
    print(&String::from_utf8_lossy(&script));
    Ok(0)
}

pub(super) fn man(args: &ManArgs) -> Result<i32> {
    let mut command = Cli::command();
    // Gives each command its display name (`toolcheck-lint`), the page's title.
    command.build();
    let page = match &args.command {
        None => command,
        Some(name) => {
            let commands: Vec<&clap::Command> = command
                .get_subcommands()
                .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
                .collect();
            let Some(page) = commands.iter().find(|sub| sub.get_name() == name) else {
                let names: Vec<&str> = commands.iter().map(|sub| sub.get_name()).collect();
                return Err(Error::new(format!(
                    "no command `{name}`: toolcheck's commands are {}",
                    names.join(", ")
                )));
            };
            (*page).clone()
        }
    };
    let mut roff = Vec::new();
    // A command's page names toolcheck's version, not the command's (it has none).
    clap_mangen::Man::new(page)
        .source(format!("toolcheck {}", env!("CARGO_PKG_VERSION")))
        .render(&mut roff)
        .map_err(|error| Error::new(format!("cannot render the man page: {error}")))?;
    print(&String::from_utf8_lossy(&roff));
    Ok(0)
}
