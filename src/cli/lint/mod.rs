//! `toolcheck lint`: one run, or one per change with `--watch`.

mod fix;
mod settings;

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

use crate::catalog::Registry;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::lint::{FileReport, Linter, Overrides};
use crate::read::Input;
use crate::read::discover::{Discovery, InputPath};
use crate::render::{self, Output, Summary, Totals};
use crate::suppress::baseline::Baseline;

use super::args::{Format, LintArgs};
use super::tokens::live_tokens;
use super::{
    gather, input_paths, load_config, load_config_all, print, print_error, registry,
    terminal_width, use_color,
};
use fix::lint_whole;
use settings::show_settings;

pub(super) fn run(mut args: LintArgs) -> Result<i32> {
    if args.live.mcp || args.live.host_config.is_some() {
        let flag = if args.live.mcp {
            "--mcp"
        } else {
            "--host-config"
        };
        let other = [
            (args.watch, "--watch"),
            (args.fix, "--fix"),
            (args.diff, "--diff"),
            (args.stdin_filename.is_some(), "--stdin-filename"),
        ];
        if let Some((_, other)) = other.iter().find(|(set, _)| *set) {
            return Err(
                Error::new(format!("`{flag}` cannot be used with `{other}`")).with_help(
                    "a server's tools are not a file to watch or rewrite: snapshot them \
                            with `toolcheck snapshot` and lint the snapshot",
                ),
            );
        }
        return lint_once(&args);
    }
    args.paths = input_paths(&args.paths, args.stdin_filename.as_deref())?;
    if !args.watch {
        return lint_once(&args);
    }
    if args.paths.iter().any(|path| path.as_os_str() == "-") {
        return Err(Error::new("`--watch` cannot watch standard input")
            .with_help("name the files or directories to watch"));
    }
    let clear = std::io::stdout().is_terminal();
    crate::watch::run(
        || watched_files(&args),
        || {
            if clear {
                print("\x1b[2J\x1b[H");
            }
            if let Err(error) = lint_once(&args) {
                print_error(&error);
            }
            eprintln!("[watching for changes; Ctrl-C to stop]");
        },
    )
}

/// The files a run over `args.paths` reads: the config file, the rule files and the manifests
/// (none when the config cannot be read: then only a change to it is noticed).
pub(super) fn watched_files(args: &LintArgs) -> Vec<PathBuf> {
    let Ok(config) = load_config(&args.config) else {
        let named = args.config.config.clone();
        return named
            .or_else(|| Config::discover(&std::env::current_dir().unwrap_or_default()))
            .into_iter()
            .collect();
    };
    let mut files: Vec<PathBuf> = config.file.iter().map(|f| PathBuf::from(&f.name)).collect();
    for dir in &config.rulesets {
        if let Ok(entries) = std::fs::read_dir(dir) {
            files.extend(entries.flatten().map(|entry| entry.path()));
        }
    }
    if let Ok(discovery) = Discovery::new(
        config.discovery_settings(),
        &args.discovery.overrides(),
        "lint",
    ) && let Ok(found) = discovery.discover(&args.paths)
    {
        files.extend(found.paths.into_iter().filter_map(|path| match path {
            InputPath::File(path) => Some(path),
            InputPath::Stdin => None,
        }));
    }
    files
}

pub(super) fn lint_once(args: &LintArgs) -> Result<i32> {
    let format = args.format.unwrap_or(if args.watch {
        Format::Concise
    } else {
        Format::Full
    });
    let Some(mut run) = prepare(args)? else {
        return Ok(0);
    };
    // Servers that could not be listed, paths and files that could not be read: the others'
    // findings stand, and the run fails.
    let (inputs, run_errors, session_total) = read_inputs(args, &mut run)?;
    let mut summary = Summary::default();
    let mut internal_errors = Vec::new();
    let written = match write_findings(args, format, &run, inputs, |report| {
        summary.add(report);
        if let Some(message) = &report.internal_error {
            internal_errors.push(internal_error(&report.file.name, message));
        }
    })? {
        ControlFlow::Continue(written) => written,
        ControlFlow::Break(code) => return Ok(code),
    };
    // A closed pipe (`| head`) is no error worth reporting; a full disk is.
    if let Err(error) = written
        && error.kind() != std::io::ErrorKind::BrokenPipe
    {
        print_error(&Error::new(format!("cannot write the output: {error}")));
        return Ok(2);
    }
    for error in &internal_errors {
        print_error(error);
    }
    if let Some(session) = session_total.filter(|_| !args.quiet) {
        eprintln!("{}", session_line(&session, run_errors.len()));
    }
    for error in &run_errors {
        print_error(error);
    }
    if !run_errors.is_empty() {
        return Ok(2);
    }
    if let Some(max) = args.max_warnings.filter(|max| summary.warnings > *max) {
        // Otherwise a run with no error would fail without a word.
        eprintln!(
            "{} warning{}, more than --max-warnings {max}",
            summary.warnings,
            if summary.warnings == 1 { "" } else { "s" }
        );
    }
    let code = exit_code(!internal_errors.is_empty(), &summary, args.max_warnings);
    Ok(if code == 1 && args.exit_zero { 0 } else { code })
}

/// A run's settings, resolved: the config (with a host config's session), the rules and the
/// linter, and the servers to start.
struct Run {
    config: Config,
    registry: Registry,
    linter: Linter,
    live: Option<crate::read::live::Request>,
}

/// Resolves the run's settings; `None` when `--show-settings` printed them and nothing is
/// to be linted.
fn prepare(args: &LintArgs) -> Result<Option<Run>> {
    fix::check_fix_paths(args)?;
    let (mut config, config_errors) = load_config_all(&args.config)?;
    let live = args
        .live
        .request(&args.paths, args.server_name.as_deref())?;
    if let Some(live) = &live {
        add_host_session(&mut config, live)?;
    }
    let overrides = Overrides {
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        severity: args.severity.clone(),
        tokenizer: args.tokenizer,
        targets: args.target.clone(),
        server_name: args.server_name.clone(),
    };
    // The config's own errors and those of its rules, options and selectors, all at once.
    let (registry, mut linter) = Error::after(
        config_errors,
        registry(&config).and_then(|registry| {
            let linter = Linter::new(&registry, &config, &overrides)?;
            Ok((registry, linter))
        }),
    )?;
    if args.show_settings {
        print(&show_settings(&config, &linter, args)?);
        return Ok(None);
    }
    let baseline = args.baseline.clone().or_else(|| config.baseline.clone());
    if let (Some(path), None) = (baseline, &args.write_baseline) {
        linter = linter.with_baseline(Baseline::load(&path)?);
    }
    Ok(Some(Run {
        config,
        registry,
        linter,
        live,
    }))
}

/// The inputs: what the servers list (they are started here), or the files read; the errors
/// of those that could not be; a host config's session total.
fn read_inputs(
    args: &LintArgs,
    run: &mut Run,
) -> Result<(
    Vec<Input>,
    Vec<Error>,
    Option<crate::token_report::SessionTokens>,
)> {
    let Some(live) = run.live.take() else {
        let (inputs, errors) = gather(
            &run.config,
            &args.discovery,
            &args.paths,
            "lint",
            args.stdin_filename.as_deref(),
        )?;
        return Ok((inputs, errors, None));
    };
    let session = live.session.clone();
    let (captures, errors) = live.capture(args.live.limits());
    let mut session_total = None;
    if let Some(session) = &session {
        let report = live_tokens(
            &captures,
            Some(session),
            None,
            run.linter.encoding,
            crate::config::sessions::DEFAULT_WINDOW,
        )?;
        session_total = report.session;
    }
    let inputs = captures.iter().map(|capture| capture.input()).collect();
    Ok((inputs, errors, session_total))
}

/// Lints `inputs` and writes the findings in `format` to stdout, passing each file's report
/// to `note`; what writing them returned. `Break`: nothing more to print; exit with this
/// code.
fn write_findings(
    args: &LintArgs,
    format: Format,
    run: &Run,
    inputs: Vec<Input>,
    mut note: impl FnMut(&FileReport),
) -> Result<ControlFlow<i32, std::io::Result<()>>> {
    let Run {
        registry, linter, ..
    } = run;
    let color = use_color(args.color);
    // The output is written as it is made (its size grows with the findings); an error ends
    // the writing, not the run.
    // Fixing standard input, its text is the output and the findings go to stderr.
    let mut stdout: std::io::BufWriter<Box<dyn Write>> =
        std::io::BufWriter::new(match fix::fixes_stdin(args) {
            true => Box::new(std::io::stderr().lock()),
            false => Box::new(std::io::stdout().lock()),
        });
    if args.fix || args.diff || args.write_baseline.is_some() || args.statistics {
        // These need the whole run before they write anything.
        let reports = match lint_whole(linter, args, inputs)? {
            ControlFlow::Continue(reports) => reports,
            ControlFlow::Break(code) => return Ok(ControlFlow::Break(code)),
        };
        reports.iter().for_each(&mut note);
        let written = if args.statistics {
            let text = statistics(args, format, &reports);
            stdout.write_all(text.as_bytes())
        } else {
            output(format, args, color, linter, registry, &mut stdout)
                .and_then(|output| render::write_all(output, &reports))
        };
        return Ok(ControlFlow::Continue(written.and_then(|()| stdout.flush())));
    }
    // Each file's findings are written as soon as they and the earlier files' are final,
    // and then dropped: a run's memory does not grow with its files.
    let mut totals = Totals::default();
    let mut output = output(format, args, color, linter, registry, &mut stdout);
    linter.lint_each(inputs, |report| {
        totals.add(&report);
        note(&report);
        if let Ok(out) = &mut output
            && let Err(error) = out.report(&report)
        {
            output = Err(error);
        }
    });
    let written = output
        .and_then(|output| output.finish(&totals))
        .and_then(|()| stdout.flush());
    Ok(ControlFlow::Continue(written))
}

/// The output of `format` to `out`.
pub(super) fn output<'w>(
    format: Format,
    args: &LintArgs,
    color: bool,
    linter: &Linter,
    registry: &Registry,
    out: impl Write + 'w,
) -> std::io::Result<Box<dyn Output + 'w>> {
    Ok(match format {
        Format::Json => Box::new(render::json::JsonOutput::new(
            out,
            linter.encoding,
            render::Spill::file,
        )),
        Format::Sarif => Box::new(render::sarif::SarifOutput::new(out, registry)?),
        Format::Github => Box::new(render::github::GithubOutput {
            out,
            quiet: args.quiet,
        }),
        Format::Concise => Box::new(render::concise::ConciseOutput {
            out,
            color,
            quiet: args.quiet,
        }),
        Format::Full => {
            let style = render::human::Style {
                color,
                links: render::human::links(color),
                width: terminal_width(),
            };
            Box::new(render::human::HumanOutput::new(out, style, args.quiet))
        }
    })
}

/// The total of a host config's session, in one line: what its host would load at once.
pub(super) fn session_line(session: &crate::token_report::SessionTokens, failed: usize) -> String {
    use crate::text::group_digits;
    let servers = session.servers.len();
    let mut line = format!(
        "session {} ({}): {} server{}",
        session.name,
        session.host,
        servers,
        if servers == 1 { "" } else { "s" }
    );
    if failed > 0 {
        line.push_str(&format!(" ({failed} more could not be listed)"));
    }
    line.push_str(&format!(
        ", {} tool{}, {} tokens loaded, {:.1}% of a {}-token window",
        session.tools,
        if session.tools == 1 { "" } else { "s" },
        group_digits(session.loaded_tokens),
        session.window_share * 100.0,
        group_digits(crate::config::sessions::DEFAULT_WINDOW)
    ));
    line
}

/// A host config's servers are one session of its host (`sessions:`), named after the config:
/// the session rules see them together, by the names the host gives them.
pub(super) fn add_host_session(
    config: &mut Config,
    live: &crate::read::live::Request,
) -> Result<()> {
    use crate::config::Spanned;
    use crate::config::sessions::{DEFAULT_WINDOW, Session, SessionFile};
    let Some((name, host)) = &live.session else {
        return Ok(());
    };
    let cwd = std::env::current_dir()
        .map_err(|error| Error::new(format!("cannot read the current directory: {error}")))?;
    let files: Vec<SessionFile> = live
        .names()
        .into_iter()
        .map(|server| SessionFile {
            // Each server's input is named after it, relative to the working directory.
            path: Spanned::cli(cwd.join(&server).display().to_string()),
            server: Some(server),
        })
        .collect();
    if files.is_empty() {
        return Ok(());
    }
    config.sessions.push(Session {
        name: Spanned::cli(name.clone()),
        host: Spanned::cli(host.clone()),
        window: DEFAULT_WINDOW,
        tool_search: crate::targets::tool_search::ToolSearch::from_env(),
        files,
    });
    Ok(())
}

/// `--statistics`: the count per rule, as a table (then the summary) or as JSON.
pub(super) fn statistics(args: &LintArgs, format: Format, reports: &[FileReport]) -> String {
    let counts = render::statistics::count(render::diagnostics(reports));
    if format == Format::Json {
        return render::statistics::json(&counts);
    }
    let mut out = render::statistics::table(&counts);
    if !args.quiet {
        let mut totals = Totals::default();
        reports.iter().for_each(|report| totals.add(report));
        out.push_str(&render::human::summary_line(&totals.summary));
        out.push('\n');
        out.push_str(&render::footer(&totals, render::Listing::Statistics));
    }
    out
}

/// 2 when a file could not be linted for a bug in toolcheck (its findings are missing), else
/// 1 for an error or too many warnings, else 0.
/// `internal_error`: a file's linting failed on a bug of toolcheck.
pub fn exit_code(internal_error: bool, summary: &Summary, max_warnings: Option<usize>) -> i32 {
    let too_many_warnings = max_warnings.is_some_and(|max| summary.warnings > max);
    if internal_error {
        2
    } else if summary.errors > 0 || too_many_warnings {
        1
    } else {
        0
    }
}

pub(super) fn internal_error(file: &str, message: &str) -> Error {
    Error::new(format!("internal error while linting `{file}`: {message}")).with_help(
        "this is a bug in toolcheck, not a problem of the file; the other files were linted. \
         Please report it with the file that triggers it (and the panic message above)",
    )
}
