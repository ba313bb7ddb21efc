//! The command line: the arguments (`args`), one module per command, and what they share:
//! loading the config, discovering and reading the files, colors and the terminal, printing
//! errors. `main.rs` only calls [`main`].

mod args;
mod compat;
mod completions;
mod diff;
mod explain;
mod lint;
mod rules;
mod search;
mod snapshot;
mod tokens;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Parser;

use crate::catalog::Registry;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::read::Input;
use crate::read::discover::{Discovery, InputPath};
use crate::read::read_paths;
use crate::render;

use args::{Cli, Color, Command, ConfigArgs, DiscoveryArgs};

pub use lint::exit_code;

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let error = args::with_idiom(error);
            let _ = error.print();
            return if error.use_stderr() { 2 } else { 0 };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            print_error(&error);
            2
        }
    }
}

/// Writes an error that stops the run (exit code 2) to stderr: each of the errors it carries
/// with its excerpt, then how many there are when more than one.
fn print_error(error: &Error) {
    let style = render::human::Style {
        color: std::io::stderr().is_terminal() && no_color_unset(),
        links: false,
        width: 100,
    };
    // Lines break at spaces only: a glob or a path in an error stays whole, to copy.
    let handler = render::human::handler(style)
        .with_word_separator(textwrap::WordSeparator::AsciiSpace)
        .with_break_words(false);
    let mut out = String::new();
    let count = error.all().count();
    for (index, error) in error.all().take(MAX_ERRORS_SHOWN).enumerate() {
        if index > 0 {
            out.push('\n');
        }
        let _ = handler.render_report(&mut out, error);
    }
    if count > MAX_ERRORS_SHOWN {
        out.push_str(&format!(
            "\n… and {} more, not shown: fix these and run again\n",
            count - MAX_ERRORS_SHOWN
        ));
    }
    if count > 1 {
        out.push_str(&format!("\n{count} errors in the configuration\n"));
    }
    eprint!("{out}");
}

/// The most errors of one kind a run prints (a generated config can hold thousands of wrong
/// names): the first ones, then how many more.
const MAX_ERRORS_SHOWN: usize = 50;

fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Lint(args) => lint::run(args),
        Command::Tokens(args) => tokens::run(args),
        Command::Compat(args) => compat::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Snapshot(args) => snapshot::run(args),
        Command::Search(args) => search::run(args),
        Command::Rules(args) => rules::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Completions(args) => completions::completions(&args),
        Command::Man(args) => completions::man(&args),
        Command::Init(args) => {
            print(&crate::init::run(&args)?);
            Ok(0)
        }
    }
}

fn load_config(args: &ConfigArgs) -> Result<Config> {
    let (config, errors) = load_config_all(args)?;
    Error::collect(errors)?;
    Ok(config)
}

/// The config and every error in its file, to be reported together with the errors found
/// when it is resolved against the rules.
fn load_config_all(args: &ConfigArgs) -> Result<(Config, Vec<Error>)> {
    let cwd = std::env::current_dir()
        .map_err(|error| Error::new(format!("cannot read the current directory: {error}")))?;
    if args.no_config {
        return Ok((Config::defaults(cwd), Vec::new()));
    }
    match args.config.clone().or_else(|| Config::discover(&cwd)) {
        // Shown relative to the working directory, as paths given on the command line are.
        Some(path) => Config::load_all(path.strip_prefix(&cwd).unwrap_or(&path)),
        None => Ok((Config::defaults(cwd), Vec::new())),
    }
}

fn registry(config: &Config) -> Result<Registry> {
    let mut registry = Registry::builtin()?;
    registry.add_rulesets(&config.rulesets)?;
    Ok(registry)
}

/// The paths to read: `-` alone when only `--stdin-filename` is given (standard input has a
/// name, so it is what the user means to lint). A name for standard input beside paths that do
/// not read it is a mistake: the current directory is never linted in its place.
fn input_paths(paths: &[PathBuf], stdin_filename: Option<&str>) -> Result<Vec<PathBuf>> {
    let reads_stdin = paths.iter().any(|path| path.as_os_str() == "-");
    match stdin_filename {
        Some(_) if paths.is_empty() => Ok(vec![PathBuf::from("-")]),
        Some(name) if !reads_stdin => Err(Error::new(format!(
            "--stdin-filename `{name}` names standard input, but `-` is not among the paths"
        ))
        .with_help("add `-` to the paths to lint standard input, or drop --stdin-filename")),
        _ => Ok(paths.to_vec()),
    }
}

/// The files for `paths` under the config and the command line's discovery flags. A walked
/// directory whose tool files `include` missed is named on stderr with the commands that would
/// read them (when nothing at all is found, that is the error).
fn discover(
    config: &Config,
    args: &DiscoveryArgs,
    paths: &[PathBuf],
    command: &str,
) -> Result<(Vec<InputPath>, Vec<Error>)> {
    let found =
        Discovery::new(config.discovery_settings(), &args.overrides(), command)?.discover(paths)?;
    for unmatched in &found.unmatched {
        eprintln!("warning: {}", unmatched.hint());
    }
    for skipped in &found.skipped {
        eprintln!("warning: {skipped}");
    }
    Ok((found.paths, found.errors))
}

/// The files for `paths`, read: those read, and one error for each path or file that could
/// not be found or read (the others are still read; the run fails, exit 2).
fn gather(
    config: &Config,
    args: &DiscoveryArgs,
    paths: &[PathBuf],
    command: &str,
    stdin_name: Option<&str>,
) -> Result<(Vec<Input>, Vec<Error>)> {
    let (found, mut errors) = discover(config, args, paths, command)?;
    let (inputs, unread) = read_paths(&found, stdin_name, config.max_file_size);
    errors.extend(unread);
    Ok((inputs, errors))
}

fn use_color(color: Color) -> bool {
    match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal() && no_color_unset(),
    }
}

fn no_color_unset() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
}

fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|columns| columns.parse().ok())
        .unwrap_or(100)
}

/// Writes to stdout; a closed pipe (`| head`) is not an error worth a panic.
fn print(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}
