//! The command line: argument parsing and the commands. `main.rs` only calls [`main`].

mod search;

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::catalog::Registry;
use crate::config::{Config, Level};
use crate::error::{Error, Result};
use crate::lint::{FileReport, Linter, Overrides};
use crate::read::Input;
use crate::read::discover::{Discovery, DiscoveryMode, DiscoveryOverrides, Target};
use crate::read::read_targets;
use crate::render::{self, Output, Summary, Totals};
use crate::suppress::baseline::Baseline;
use crate::tokens::Encoding;

#[derive(Debug, Parser)]
#[command(
    name = "toolcheck",
    version,
    about = "Lint the text an LLM agent reads about its tools"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Lint tool manifests (YAML or JSON); exits 1 when an error is found
    Lint(LintArgs),
    /// Show what each tool costs in tokens, per file, and its share of a context window
    Tokens(TokensArgs),
    /// List every rule
    Rules(RulesArgs),
    /// Show one rule's documentation
    Explain {
        /// A rule code (`TC209`) or name (`absolute-words`)
        #[arg(required_unless_present = "target", conflicts_with = "target")]
        rule: Option<String>,
        /// Show a target's profile instead: what a provider or host accepts, with sources
        #[arg(long, value_name = "TARGET")]
        target: Option<String>,
        #[command(flatten)]
        config: ConfigArgs,
    },
    /// Write a commented `toolcheck.yaml` (and, with `--example`, an example manifest)
    Init(crate::init::InitArgs),
    /// Where can this server ship? Each tool against each target: ✔ passes, ! ships changed
    /// (a warning), ✖ fails; exits 1 when a tool fails a target
    Compat(CompatArgs),
    /// What a change does to what the model reads: tools added, removed, renamed, changed,
    /// each change breaking, risky or additive, tokens and findings; exits 1 on a breaking
    /// change
    Diff(DiffArgs),
    /// Start MCP servers and write what each lists (`{server, instructions, tools}`) as pretty
    /// JSON, one file per server, to commit and lint offline; `--check` compares instead
    Snapshot(SnapshotArgs),
    /// Will the model find it? Rank the tools as a host's or provider's tool search would for
    /// QUERY, with why each scores; exits 1 when nothing is found
    Search(SearchArgs),
}

#[derive(Debug, Args)]
struct SnapshotArgs {
    /// With `--mcp`: the server's command and its arguments, after `--`
    command: Vec<PathBuf>,
    #[command(flatten)]
    live: LiveArgs,
    /// The name the host knows the `--mcp` server by, and its snapshot's file name; default:
    /// the server's own `serverInfo.name`
    #[arg(long, value_name = "NAME")]
    server_name: Option<String>,
    /// The folder the snapshots are written to (or compared with): `<DIR>/<server>.tools.json`
    #[arg(long, short, value_name = "DIR", default_value = ".")]
    output: PathBuf,
    /// Compare with the snapshots in the folder instead of writing them; exit 1 with a summary
    /// of what changed when one differs or is missing
    #[arg(long)]
    check: bool,
}

#[derive(Debug, Args)]
struct ConfigArgs {
    /// Use this config file instead of discovering `toolcheck.yaml`
    #[arg(long, value_name = "PATH", conflicts_with = "no_config")]
    config: Option<PathBuf>,
    /// Ignore any `toolcheck.yaml`
    #[arg(long)]
    no_config: bool,
}

/// Which files of a walked directory are read. The globs are relative to the working
/// directory (those of `toolcheck.yaml` to its own directory).
#[derive(Debug, Args)]
struct DiscoveryArgs {
    /// Globs of the files to read in walked directories, comma-separated, relative to the
    /// working directory (those of toolcheck.yaml are relative to its directory); replace
    /// `include`
    #[arg(long, value_delimiter = ',', value_name = "GLOBS")]
    include: Option<Vec<String>>,
    /// Globs of the files never read in walked directories, relative to the working directory;
    /// replace `exclude`
    #[arg(long, value_delimiter = ',', value_name = "GLOBS")]
    exclude: Option<Vec<String>>,
    /// Globs of more files never read in walked directories, relative to the working
    /// directory; added to `exclude`
    #[arg(long, value_delimiter = ',', value_name = "GLOBS")]
    extend_exclude: Vec<String>,
    /// `include` (the files `include` matches) or `content` (also the JSON and YAML files
    /// that hold tool definitions, whatever their names); overrides `discovery`
    #[arg(long, value_name = "include|content", value_parser = parse_discovery)]
    discovery: Option<DiscoveryMode>,
}

impl DiscoveryArgs {
    fn overrides(&self) -> DiscoveryOverrides {
        DiscoveryOverrides {
            include: self.include.clone(),
            exclude: self.exclude.clone(),
            extend_exclude: self.extend_exclude.clone(),
            mode: self.discovery,
        }
    }
}

/// Tools that live in a server rather than a file. Nothing is started or contacted without one
/// of these flags.
#[derive(Debug, Args)]
struct LiveArgs {
    /// Start the MCP server whose command follows `--` (`--mcp -- npx -y @scope/server`), read
    /// the tools it lists, under its name, and stop it
    #[arg(long, help_heading = "Live servers", conflicts_with = "host_config")]
    mcp: bool,
    /// Start every server of this host config (Claude Code `.mcp.json`, Claude Desktop
    /// `claude_desktop_config.json`, Cursor `.cursor/mcp.json`, VS Code `.vscode/mcp.json`), two
    /// at a time, and read their tools as one session of that host
    #[arg(long, value_name = "PATH", help_heading = "Live servers")]
    host_config: Option<PathBuf>,
    /// The host whose config `--host-config` is, when its file name does not say:
    /// claude-code, claude-desktop, cursor or vscode
    #[arg(
        long,
        value_name = "HOST",
        requires = "host_config",
        help_heading = "Live servers"
    )]
    host: Option<String>,
    /// How long a server may take to answer `initialize` or a page of `tools/list`, in seconds
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "30",
        value_parser = parse_timeout,
        help_heading = "Live servers"
    )]
    timeout: std::time::Duration,
    /// The largest message a server may send, in bytes (a listing page is one message): a
    /// larger one fails that server
    #[arg(
        long,
        value_name = "BYTES",
        default_value_t = crate::read::live::DEFAULT_MAX_MESSAGE,
        help_heading = "Live servers"
    )]
    max_message_size: usize,
}

impl LiveArgs {
    /// How long a server may take, and how much it may send at once.
    fn limits(&self) -> crate::read::live::Limits {
        crate::read::live::Limits {
            timeout: self.timeout,
            max_message: self.max_message_size,
        }
    }

    /// The servers to start, when there are any: with `--mcp`, `paths` is the command.
    fn request(
        &self,
        paths: &[PathBuf],
        server_name: Option<&str>,
    ) -> Result<Option<crate::read::live::Request>> {
        use crate::read::live::Request;
        if self.mcp {
            let command: Vec<String> = paths
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            return Request::command(&command, server_name).map(Some);
        }
        let Some(path) = &self.host_config else {
            return Ok(None);
        };
        if !paths.is_empty() {
            return Err(
                Error::new("`--host-config` lints the servers of the config, not files")
                    .with_help("lint the files in a run of their own"),
            );
        }
        Request::host_config(path, self.host.as_deref()).map(Some)
    }
}

fn parse_timeout(text: &str) -> std::result::Result<std::time::Duration, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs.is_finite() && secs < 1e9 => {
            Ok(std::time::Duration::from_secs_f64(secs))
        }
        _ => Err(format!(
            "expected a positive number of seconds, found `{text}`"
        )),
    }
}

#[derive(Debug, Args)]
struct LintArgs {
    /// Files or directories to lint (`-` reads standard input); default: the current directory.
    /// With `--mcp`: the server's command and its arguments, after `--`
    paths: Vec<PathBuf>,
    /// How to print the findings (`--format` is an alias)
    /// [default: full, concise with --watch]
    #[arg(
        long = "output-format",
        visible_alias = "format",
        value_enum,
        value_name = "FORMAT"
    )]
    format: Option<Format>,
    /// Print how many findings each rule has (most first, with how many `--fix` fixes)
    /// instead of the findings
    #[arg(long)]
    statistics: bool,
    /// When to use colors in human output
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Print only the diagnostics, without the summary line
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    config: ConfigArgs,
    #[command(flatten)]
    discovery: DiscoveryArgs,
    /// Rules to enable (codes in any case, prefixes such as `TC2`, names, `ALL`); replaces
    /// `rules.select`
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    select: Option<Vec<String>>,
    /// Rules to disable; added to `rules.ignore`
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    ignore: Vec<String>,
    /// Set a rule's severity: `RULE=error|warning|info|off` (repeatable)
    #[arg(long, value_name = "RULE=LEVEL", value_parser = parse_severity)]
    severity: Vec<(String, Level)>,
    /// Token encoding for budgets
    #[arg(long, value_parser = parse_encoding)]
    tokenizer: Option<Encoding>,
    /// Check against these providers and hosts (`toolcheck explain --target NAME` shows one);
    /// replaces `targets:`
    #[arg(long, value_delimiter = ',', value_name = "TARGETS")]
    target: Option<Vec<String>>,
    /// The server name hosts prefix tool names with (`mcp__<server>__<tool>`); default: the
    /// file's session, else its `server` key; without one, a name is measured without it
    #[arg(long, value_name = "NAME")]
    server_name: Option<String>,
    /// Exit 1 when there are more than this many warnings
    #[arg(long, value_name = "N")]
    max_warnings: Option<usize>,
    /// Print the resolved settings (config file, discovery, files, every rule's severity and
    /// options) for PATHS, and lint nothing
    #[arg(long)]
    show_settings: bool,
    /// Lint again whenever a file changes (for writing prompts): clear the screen, concise output
    #[arg(long, conflicts_with_all = ["fix", "diff", "write_baseline", "show_settings"])]
    watch: bool,
    /// Exit 0 even when there are errors (2 still means toolcheck could not do its job)
    #[arg(long)]
    exit_zero: bool,
    /// The name standard input is reported under (config globs match it); its extension picks
    /// YAML or JSON. Without paths, standard input is read
    #[arg(long, value_name = "NAME")]
    stdin_filename: Option<String>,
    /// Report only findings this baseline file does not record (overrides `baseline:`)
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Record every finding of this run in FILE, as a baseline, and exit 0
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    write_baseline: Option<PathBuf>,
    /// Apply the fixes that cannot change meaning, then report what is left
    #[arg(long)]
    fix: bool,
    /// Print the fixes as a unified diff instead of writing them (exit 1 when there are any)
    #[arg(long, conflicts_with = "fix")]
    diff: bool,
    #[command(flatten)]
    live: LiveArgs,
}

#[derive(Debug, Args)]
struct TokensArgs {
    /// Files or directories (`-` reads standard input); default: the current directory
    paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = TokensFormat::Human)]
    format: TokensFormat,
    /// When to use colors (and Unicode bars) in human output
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    #[command(flatten)]
    config: ConfigArgs,
    #[command(flatten)]
    discovery: DiscoveryArgs,
    /// Token encoding
    #[arg(long, value_parser = parse_encoding)]
    tokenizer: Option<Encoding>,
    /// The context window each set total is related to, in tokens [default: 200000, or the
    /// session's `window`]
    #[arg(long, value_name = "TOKENS", value_parser = parse_window)]
    window: Option<usize>,
    /// Count as this target counts (`toolcheck explain --target NAME` says how): its encoding,
    /// its estimate factor and overhead; an estimate is marked `≈`
    #[arg(long, value_name = "TARGET")]
    target: Option<String>,
    /// Count the files of this session of toolcheck.yaml (`sessions:`) together: its total,
    /// its share of the window, a bar per server, and which servers to defer first
    #[arg(long, value_name = "NAME", conflicts_with_all = ["paths", "stdin_filename"])]
    session: Option<String>,
    #[command(flatten)]
    live: LiveArgs,
    /// The name standard input is reported under; its extension picks YAML or JSON. Without
    /// paths, standard input is read
    #[arg(long, value_name = "NAME")]
    stdin_filename: Option<String>,
}

#[derive(Debug, Args)]
struct CompatArgs {
    /// Files or directories (`-` reads standard input); default: the current directory
    paths: Vec<PathBuf>,
    /// The providers and hosts to check against, comma-separated (`toolcheck explain --target
    /// NAME` shows one); default: `targets:` of toolcheck.yaml
    #[arg(long, value_delimiter = ',', value_name = "TARGETS")]
    target: Option<Vec<String>>,
    /// The server name hosts prefix tool names with (`mcp__<server>__<tool>`); default: the
    /// file's session, else its `server` key; without one, a name is measured without it
    #[arg(long, value_name = "NAME")]
    server_name: Option<String>,
    #[arg(long, value_enum, default_value_t = CompatFormat::Human)]
    format: CompatFormat,
    /// When to use colors in human output
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    #[command(flatten)]
    config: ConfigArgs,
    #[command(flatten)]
    discovery: DiscoveryArgs,
    /// The name standard input is reported under; its extension picks YAML or JSON. Without
    /// paths, standard input is read
    #[arg(long, value_name = "NAME")]
    stdin_filename: Option<String>,
}

#[derive(Debug, Args)]
struct DiffArgs {
    /// OLD and NEW: two files or two directories (files paired by their path below each);
    /// with `--git`, the paths to compare [default: .]
    paths: Vec<PathBuf>,
    /// Compare PATHS at this git revision with the working tree (`REV..REV2`: with REV2),
    /// read from git without a checkout
    #[arg(long, value_name = "REV")]
    git: Option<String>,
    #[arg(long, value_enum, default_value_t = DiffFormat::Human)]
    format: DiffFormat,
    /// Exit 1 when a change of this class (or worse) is found
    #[arg(long, value_enum, default_value_t = DiffFailOn::Breaking)]
    fail_on: DiffFailOn,
    /// When to use colors in human output
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    #[command(flatten)]
    config: ConfigArgs,
    #[command(flatten)]
    discovery: DiscoveryArgs,
    /// Token encoding
    #[arg(long, value_parser = parse_encoding)]
    tokenizer: Option<Encoding>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DiffFormat {
    Human,
    Json,
    /// For a pull request comment or `$GITHUB_STEP_SUMMARY`
    Markdown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DiffFailOn {
    Breaking,
    Risky,
    /// Any change at all
    Any,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CompatFormat {
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TokensFormat {
    Human,
    Json,
}

#[derive(Debug, Args)]
struct SearchArgs {
    /// The query as the model would write it (for `--engine regex`, a Python-style pattern)
    query: String,
    /// Files or directories (`-` reads standard input); default: the current directory
    paths: Vec<PathBuf>,
    /// `claude-code` (Claude Code's ToolSearch), `claude-code-2.1` (with its whole-name bonus),
    /// `bm25` or `regex` (Anthropic's server-side tool search)
    #[arg(long, value_enum, default_value_t = SearchEngine::ClaudeCode)]
    engine: SearchEngine,
    /// How many results to show [default: what the engine returns: 5, 3 for bm25]
    #[arg(long, value_name = "N")]
    top: Option<usize>,
    #[arg(long, value_enum, default_value_t = CompatFormat::Human)]
    format: CompatFormat,
    /// Search the files of this session of toolcheck.yaml (`sessions:`), named as its host
    /// sends them
    #[arg(long, value_name = "NAME", conflicts_with = "paths")]
    session: Option<String>,
    /// The server name hosts prefix tool names with (`mcp__<server>__<tool>`); default: the
    /// session's (with `--session`), else the file's `server` key, else (for an MCP file) its
    /// file name up to the first dot (`server` for standard input)
    #[arg(long, value_name = "NAME")]
    server_name: Option<String>,
    #[command(flatten)]
    config: ConfigArgs,
    #[command(flatten)]
    discovery: DiscoveryArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SearchEngine {
    ClaudeCode,
    #[value(name = "claude-code-2.1")]
    ClaudeCode21,
    Bm25,
    Regex,
}

#[derive(Debug, Args)]
struct RulesArgs {
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    format: ListFormat,
    #[command(flatten)]
    config: ConfigArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Each finding with its source excerpt, label and help (`human` is an alias)
    #[value(alias = "human")]
    Full,
    /// One line per finding: `path:line:col: CODE name message`
    Concise,
    /// One versioned document for scripts (fields in the README)
    Json,
    /// SARIF 2.1.0, for GitHub code scanning
    Sarif,
    /// GitHub Actions annotations (workflow commands)
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ListFormat {
    Table,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

fn parse_severity(text: &str) -> std::result::Result<(String, Level), String> {
    let (rule, level) = text
        .split_once('=')
        .ok_or_else(|| format!("expected RULE=LEVEL, found `{text}`"))?;
    let level = Level::parse(level)
        .ok_or_else(|| format!("unknown severity `{level}`: use error, warning, info or off"))?;
    Ok((rule.to_string(), level))
}

fn parse_discovery(text: &str) -> std::result::Result<DiscoveryMode, String> {
    DiscoveryMode::parse(text).ok_or_else(|| format!("expected include or content, found `{text}`"))
}

fn parse_window(text: &str) -> std::result::Result<usize, String> {
    match text.parse::<usize>() {
        Ok(window) if window > 0 => Ok(window),
        _ => Err(format!(
            "expected a positive number of tokens, found `{text}`"
        )),
    }
}

fn parse_encoding(text: &str) -> std::result::Result<Encoding, String> {
    text.parse()
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
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
    let handler = render::human::handler(style);
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
        Command::Lint(args) => lint(args),
        Command::Tokens(args) => tokens(args),
        Command::Compat(args) => compat(args),
        Command::Diff(args) => diff(args),
        Command::Snapshot(args) => snapshot(args),
        Command::Search(args) => search(args),
        Command::Rules(args) => {
            let config = load_config(&args.config)?;
            let registry = registry(&config)?;
            let linter = Linter::new(&registry, &config, &Overrides::default())?;
            print(&match args.format {
                ListFormat::Table => {
                    crate::catalog::docs::rules_table(&registry, linter.settings())
                }
                ListFormat::Json => crate::catalog::docs::rules_json(&registry, linter.settings()),
            });
            Ok(0)
        }
        Command::Explain {
            target: Some(target),
            ..
        } => {
            print(&crate::targets::explain(&*crate::targets::find(&target)?));
            Ok(0)
        }
        Command::Explain { rule, config, .. } => {
            let rule = rule.unwrap_or_default();
            let registry = registry(&load_config(&config)?)?;
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

fn lint(mut args: LintArgs) -> Result<i32> {
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
fn watched_files(args: &LintArgs) -> Vec<PathBuf> {
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
        files.extend(found.targets.into_iter().filter_map(|target| match target {
            Target::File(path) => Some(path),
            Target::Stdin => None,
        }));
    }
    files
}

fn lint_once(args: &LintArgs) -> Result<i32> {
    let format = args.format.unwrap_or(if args.watch {
        Format::Concise
    } else {
        Format::Full
    });
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
        return Ok(0);
    }
    let baseline = args.baseline.clone().or_else(|| config.baseline.clone());
    if let (Some(path), None) = (baseline, &args.write_baseline) {
        linter = linter.with_baseline(Baseline::load(&path)?);
    }
    let mut session_total = None;
    // Servers that could not be listed, paths and files that could not be read: the others'
    // findings stand, and the run fails.
    let (inputs, run_errors) = match live {
        Some(live) => {
            let session = live.session.clone();
            let (captures, errors) = live.capture(args.live.limits());
            if let Some(session) = &session {
                let report = live_tokens(
                    &captures,
                    Some(session),
                    linter.encoding,
                    crate::config::sessions::DEFAULT_WINDOW,
                )?;
                session_total = report.session;
            }
            let inputs = captures.iter().map(|capture| capture.input()).collect();
            (inputs, errors)
        }
        None => gather(
            &config,
            &args.discovery,
            &args.paths,
            "lint",
            args.stdin_filename.as_deref(),
        )?,
    };
    let color = use_color(args.color);
    // The output is written as it is made (its size grows with the findings); an error ends
    // the writing, not the run.
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let mut totals = Totals::default();
    let mut internal_errors = Vec::new();
    let mut note = |report: &FileReport, totals: &mut Totals| {
        totals.add(report);
        if let Some(message) = &report.internal_error {
            internal_errors.push(internal_error(&report.file.name, message));
        }
    };
    let written = if args.fix || args.diff || args.write_baseline.is_some() || args.statistics {
        // These need the whole run before they write anything.
        let reports = match lint_whole(&linter, args, inputs)? {
            ControlFlow::Continue(reports) => reports,
            ControlFlow::Break(code) => return Ok(code),
        };
        reports.iter().for_each(|report| note(report, &mut totals));
        let written = if args.statistics {
            let diagnostics = render::diagnostics(&reports);
            let text = statistics(args, format, diagnostics, &totals.summary);
            stdout.write_all(text.as_bytes())
        } else {
            output(format, args, color, &linter, &registry, &mut stdout)
                .and_then(|output| render::write_all(output, &reports))
        };
        written.and_then(|()| stdout.flush())
    } else {
        // Each file's findings are written as soon as they and the earlier files' are final,
        // and then dropped: a run's memory does not grow with its files.
        let mut output = output(format, args, color, &linter, &registry, &mut stdout);
        linter.lint_each(inputs, |report| {
            note(&report, &mut totals);
            if let Ok(out) = &mut output
                && let Err(error) = out.report(&report)
            {
                output = Err(error);
            }
        });
        output
            .and_then(|output| output.finish(&totals))
            .and_then(|()| stdout.flush())
    };
    drop(stdout);
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
    let summary = totals.summary;
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

/// Lints the whole run for the options that need all of it: `--diff` (printed here),
/// `--fix` (applied here), `--write-baseline` (written here) and `--statistics`. `Break`:
/// nothing more to print; exit with this code.
fn lint_whole(
    linter: &Linter,
    args: &LintArgs,
    mut inputs: Vec<Input>,
) -> Result<ControlFlow<i32, Vec<FileReport>>> {
    let mut reports = linter.lint_all(if args.fix {
        inputs.clone()
    } else {
        std::mem::take(&mut inputs)
    });
    if args.diff {
        return Ok(ControlFlow::Break(print_diff(&reports)));
    }
    if args.fix {
        // A fix can reveal another (two findings on one span): a few passes at most, each on
        // the inputs as fixed (standard input is read once, and never rewritten).
        let mut fixed = 0;
        for _ in 0..4 {
            let count = fix_files(&reports, args, &mut inputs)?;
            if count == 0 {
                break;
            }
            fixed += count;
            reports = linter.lint_all(inputs.clone());
        }
        if fixed > 0 {
            eprintln!("fixed {fixed} finding{}", if fixed == 1 { "" } else { "s" });
        }
    }
    if let Some(path) = &args.write_baseline {
        let count = crate::suppress::baseline::write(path, &reports)?;
        eprintln!(
            "wrote {count} finding{} to the baseline {}",
            if count == 1 { "" } else { "s" },
            path.display()
        );
        return Ok(ControlFlow::Break(0));
    }
    Ok(ControlFlow::Continue(reports))
}

/// The output of `format` to `out`.
fn output<'w>(
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

/// `toolcheck snapshot`: write (or `--check`) each server's snapshot.
fn snapshot(args: SnapshotArgs) -> Result<i32> {
    let Some(live) = args
        .live
        .request(&args.command, args.server_name.as_deref())?
    else {
        return Err(Error::new("name the servers to snapshot").with_help(
            "`toolcheck snapshot --mcp -- CMD ARGS...` or `toolcheck snapshot --host-config \
             .mcp.json`",
        ));
    };
    let names = live.names();
    crate::snapshot::refuse_collisions(names.iter().map(String::as_str))?;
    let (captures, errors) = live.capture(args.live.limits());
    let mut code = 0;
    if args.check {
        crate::snapshot::refuse_collisions(captures.iter().map(|capture| capture.name.as_str()))?;
        for capture in &captures {
            let path = args.output.join(crate::snapshot::file_name(&capture.name));
            let shown = path.display();
            match crate::snapshot::check(capture, &path)? {
                crate::snapshot::Check::Same => eprintln!("{shown}: up to date"),
                crate::snapshot::Check::Missing => {
                    println!("{shown}: no snapshot of `{}` yet", capture.name);
                    code = 1;
                }
                crate::snapshot::Check::Differs(changes) => {
                    println!("{shown}: `{}` lists something else now", capture.name);
                    for change in changes {
                        println!("  {change}");
                    }
                    code = 1;
                }
            }
        }
        if code == 1 {
            eprintln!(
                "hint: run the same `toolcheck snapshot` without `--check` to update the \
                 snapshots, and review the change"
            );
        }
    } else {
        for path in crate::snapshot::write(&captures, &args.output)? {
            eprintln!("wrote {}", path.display());
        }
    }
    for error in &errors {
        print_error(error);
    }
    Ok(if errors.is_empty() { code } else { 2 })
}

/// The total of a host config's session, in one line: what its host would load at once.
fn session_line(session: &crate::token_report::SessionTokens, failed: usize) -> String {
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
fn add_host_session(config: &mut Config, live: &crate::read::live::Request) -> Result<()> {
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
        files,
    });
    Ok(())
}

/// `--show-settings`: what a run over `args.paths` would use, resolved.
fn show_settings(config: &Config, linter: &Linter, args: &LintArgs) -> Result<String> {
    let list = |items: &[String]| {
        if items.is_empty() {
            "(none)".to_string()
        } else {
            items.join(", ")
        }
    };
    let mut out = String::new();
    let file = config.file.as_ref().map(|file| file.name.as_str());
    out.push_str(&format!(
        "config file: {}\n",
        file.unwrap_or("(none: defaults)")
    ));
    let root = std::path::absolute(&config.root).unwrap_or_else(|_| config.root.clone());
    out.push_str(&format!("root: {}\n", root.display()));
    let flags = &args.discovery;
    out.push_str(&format!(
        "include: {}\n",
        list(flags.include.as_ref().unwrap_or(&config.include))
    ));
    let mut exclude = flags.exclude.clone().unwrap_or(config.exclude.clone());
    exclude.extend(flags.extend_exclude.iter().cloned());
    out.push_str(&format!("exclude: {}\n", list(&exclude)));
    let discovery = flags.discovery.unwrap_or(config.discovery);
    out.push_str(&format!("discovery: {discovery:?}\n").to_lowercase());
    out.push_str(&format!("tokenizer: {}\n", linter.encoding.as_str()));
    out.push_str(&format!("max-file-size: {} bytes\n", config.max_file_size));
    let baseline = args.baseline.clone().or_else(|| config.baseline.clone());
    out.push_str(&format!(
        "baseline: {}\n",
        baseline.map_or("(none)".to_string(), |path| path.display().to_string())
    ));
    let rulesets: Vec<String> = config
        .rulesets
        .iter()
        .map(|dir| dir.display().to_string())
        .collect();
    out.push_str(&format!("rulesets: {}\n", list(&rulesets)));
    out.push_str("per-file-ignores:");
    if config.per_file_ignores.is_empty() {
        out.push_str(" (none)");
    }
    out.push('\n');
    for (pattern, rules) in &config.per_file_ignores {
        let rules: Vec<String> = rules.iter().map(|rule| rule.value.clone()).collect();
        out.push_str(&format!("  {}: {}\n", pattern.value, rules.join(", ")));
    }
    out.push_str("sessions:");
    if config.sessions.is_empty() {
        out.push_str(" (none)");
    }
    out.push('\n');
    for session in &config.sessions {
        let files: Vec<String> = session
            .files
            .iter()
            .map(|file| match &file.server {
                Some(server) => format!("{} (server {server})", file.path.value),
                None => file.path.value.clone(),
            })
            .collect();
        out.push_str(&format!(
            "  {}: host {}, window {}, files: {}\n",
            session.name.value,
            session.host.value,
            session.window,
            files.join(", ")
        ));
    }
    let targets = Discovery::new(
        config.discovery_settings(),
        &args.discovery.overrides(),
        "lint",
    )?
    .discover(&args.paths)?
    .targets;
    out.push_str(&format!("files ({}):\n", targets.len()));
    for target in targets {
        match target {
            Target::Stdin => out.push_str("  - (standard input)\n"),
            Target::File(path) => out.push_str(&format!(
                "  {}\n",
                crate::read::discover::display_name(&path)
            )),
        }
    }
    out.push_str("rules:\n");
    let width = linter
        .settings()
        .iter()
        .map(|rule| rule.name.len())
        .max()
        .unwrap_or(0);
    for rule in linter.settings() {
        let severity = rule.severity.map_or("off", |severity| severity.as_str());
        let mut line = format!("  {} {:<width$} {:<7}", rule.code, rule.name, severity);
        if !rule.options.is_empty() {
            line.push(' ');
            line.push_str(&serde_json::to_string(&rule.options).unwrap_or_default());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    Ok(out)
}

/// `--statistics`: the count per rule, as a table (then the summary) or as JSON.
fn statistics<'a>(
    args: &LintArgs,
    format: Format,
    diagnostics: impl Iterator<Item = &'a crate::diagnostic::Diagnostic>,
    summary: &Summary,
) -> String {
    let counts = render::statistics::count(diagnostics);
    if format == Format::Json {
        return render::statistics::json(&counts);
    }
    let mut out = render::statistics::table(&counts);
    if !args.quiet {
        out.push_str(&render::human::summary_line(summary));
        out.push('\n');
        out.push_str(&render::footer(summary, counts.first().map(|row| row.code)));
    }
    out
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
) -> Result<(Vec<Target>, Vec<Error>)> {
    let found =
        Discovery::new(config.discovery_settings(), &args.overrides(), command)?.discover(paths)?;
    for unmatched in &found.unmatched {
        eprintln!("warning: {}", unmatched.hint());
    }
    for skipped in &found.skipped {
        eprintln!("warning: {skipped}");
    }
    Ok((found.targets, found.errors))
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
    let (targets, mut errors) = discover(config, args, paths, command)?;
    let (inputs, unread) = read_targets(&targets, stdin_name, config.max_file_size);
    errors.extend(unread);
    Ok((inputs, errors))
}

/// Prints each file's fixes as a unified diff; 1 when there is any, else 0.
fn print_diff(reports: &[FileReport]) -> i32 {
    let mut any = false;
    for report in reports.iter().filter(|report| report.linted) {
        if let Some((fixed, _)) = crate::fix::apply(&report.file.text, &report.diagnostics) {
            print(&crate::fix::diff(
                &report.file.name,
                &report.file.text,
                &fixed,
            ));
            any = true;
        }
    }
    i32::from(any)
}

/// Writes the fixes of every file read from disk (standard input is left alone: use `--diff`),
/// and puts the fixed text in its `inputs`; returns how many findings they fixed.
fn fix_files(reports: &[FileReport], args: &LintArgs, inputs: &mut [Input]) -> Result<usize> {
    let by_name: std::collections::HashMap<String, usize> = inputs
        .iter()
        .enumerate()
        .map(|(index, input)| (input.name.clone(), index))
        .collect();
    let stdin = args
        .paths
        .iter()
        .any(|path| path.as_os_str() == "-")
        .then(|| args.stdin_filename.as_deref().unwrap_or("-"));
    let mut fixed = 0;
    for report in reports.iter().filter(|report| report.linted) {
        if Some(report.file.name.as_str()) == stdin {
            continue;
        }
        let Some(&index) = by_name.get(&report.file.name) else {
            continue;
        };
        if let Some((text, count)) = crate::fix::apply(&report.file.text, &report.diagnostics) {
            let path = std::path::Path::new(&report.file.name);
            // Another run or an editor may have written the file since it was read: its
            // changes would be lost under these fixes.
            if std::fs::read(path).ok().as_deref() != Some(inputs[index].bytes.as_slice()) {
                return Err(Error::new(format!(
                    "{} changed while toolcheck was fixing it; its fixes were not written",
                    report.file.name
                ))
                .with_help("run `toolcheck lint --fix` again on the file as it is now"));
            }
            crate::atomic_write::replace(path, text.as_bytes()).map_err(|error| {
                Error::new(format!(
                    "cannot write the fixes to {}: {error}",
                    report.file.name
                ))
            })?;
            inputs[index].bytes = text.into_bytes();
            fixed += count;
        }
    }
    Ok(fixed)
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

fn internal_error(file: &str, message: &str) -> Error {
    Error::new(format!("internal error while linting `{file}`: {message}")).with_help(
        "this is a bug in toolcheck, not a problem of the file; the other files were linted. \
         Please report it with the file that triggers it (and the panic message above)",
    )
}

/// `toolcheck tokens`: the same config, discovery and inputs as `lint`.
fn tokens(args: TokensArgs) -> Result<i32> {
    let live = args.live.request(&args.paths, None)?;
    let paths = match live {
        Some(_) => Vec::new(),
        None => input_paths(&args.paths, args.stdin_filename.as_deref())?,
    };
    let config = load_config(&args.config)?;
    let target = match &args.target {
        Some(name) => {
            let profile = crate::targets::find(name)?;
            let Some(count) = profile.tokens.clone() else {
                return Err(Error::new(format!(
                    "`{}` does not say how it counts tokens (the model behind it varies)",
                    profile.name
                ))
                .with_help("count as its model's provider does, e.g. `--target anthropic`"));
            };
            Some((profile.name.to_string(), count))
        }
        None => None,
    };
    // The target's encoding, unless `--tokenizer` says otherwise.
    let encoding = args
        .tokenizer
        .or(target.as_ref().map(|(_, count)| count.encoding))
        .unwrap_or(config.tokenizer);
    if let Some(name) = &args.session {
        return tokens_of_session(&args, &config, name, encoding);
    }
    if let Some(live) = live {
        let session = live.session.clone();
        let (captures, errors) = live.capture(args.live.limits());
        let window = args.window.unwrap_or(crate::token_report::DEFAULT_WINDOW);
        let mut report = live_tokens(&captures, session.as_ref(), encoding, window)?;
        if let Some((name, count)) = &target {
            report.count_as(name, count);
        }
        print_tokens(&args, &report);
        for error in &errors {
            print_error(error);
        }
        return Ok(match (errors.is_empty(), report.has_errors()) {
            (false, _) => 2,
            (true, true) => 1,
            (true, false) => 0,
        });
    }
    let (inputs, errors) = gather(
        &config,
        &args.discovery,
        &paths,
        "tokens",
        args.stdin_filename.as_deref(),
    )?;
    let window = args.window.unwrap_or(crate::token_report::DEFAULT_WINDOW);
    let mut report = crate::token_report::report(inputs, &Registry::builtin()?, encoding, window);
    if let Some((name, count)) = &target {
        report.count_as(name, count);
    }
    print_tokens(&args, &report);
    // A file that could not be read: the others' counts stand, and the run fails.
    for error in &errors {
        print_error(error);
    }
    Ok(match (errors.is_empty(), report.has_errors()) {
        (false, _) => 2,
        (true, true) => 1,
        (true, false) => 0,
    })
}

/// The token report of captured servers; a host config's servers as one session of its host.
fn live_tokens(
    captures: &[crate::read::live::Capture],
    session: Option<&(String, String)>,
    encoding: Encoding,
    window: usize,
) -> Result<crate::token_report::Report> {
    let inputs = captures.iter().map(|capture| capture.input()).collect();
    let mut report = crate::token_report::report(inputs, &Registry::builtin()?, encoding, window);
    if let Some((name, host)) = session {
        let servers: Vec<String> = captures.iter().map(|c| c.name.clone()).collect();
        report.session = Some(crate::token_report::SessionTokens::of(
            &report, name, host, &servers,
        ));
    }
    Ok(report)
}

/// `toolcheck tokens --session NAME`: the session's files of toolcheck.yaml, counted together.
fn tokens_of_session(
    args: &TokensArgs,
    config: &Config,
    name: &str,
    encoding: Encoding,
) -> Result<i32> {
    let crate::config::sessions::SessionInputs {
        session,
        inputs,
        servers,
    } = crate::config::sessions::session_inputs(config, name)?;
    let window = args.window.unwrap_or(session.window);
    let mut report = crate::token_report::report(inputs, &Registry::builtin()?, encoding, window);
    report.session = Some(crate::token_report::SessionTokens::of(
        &report,
        name,
        &session.host.value,
        &servers,
    ));
    print_tokens(args, &report);
    Ok(if report.has_errors() { 1 } else { 0 })
}

fn print_tokens(args: &TokensArgs, report: &crate::token_report::Report) {
    print(&match args.format {
        TokensFormat::Json => crate::token_report::render_json(report),
        TokensFormat::Human => crate::token_report::render_human(
            report,
            crate::token_report::Style {
                color: use_color(args.color),
            },
        ),
    });
}

/// `toolcheck compat`: the same config, discovery and inputs as `lint`; the inputs are parsed
/// once and linted once per target, with only the `targets` rules (and `invalid-manifest`).
fn compat(args: CompatArgs) -> Result<i32> {
    let paths = input_paths(&args.paths, args.stdin_filename.as_deref())?;
    let (config, config_errors) = load_config_all(&args.config)?;
    let overrides = |targets: Option<Vec<String>>| Overrides {
        select: Some(vec![crate::catalog::Family::Targets.as_str().to_string()]),
        targets,
        server_name: args.server_name.clone(),
        ..Overrides::default()
    };
    // Every error of the config and of the targets it or `--target` names, at once.
    let (registry, linter) = Error::after(
        config_errors,
        registry(&config).and_then(|registry| {
            let linter = Linter::new(&registry, &config, &overrides(args.target.clone()))?;
            Ok((registry, linter))
        }),
    )?;
    let names = match &args.target {
        Some(names) => names.clone(),
        None => config.targets.iter().map(|t| t.value.clone()).collect(),
    };
    let mut targets: Vec<String> = Vec::new();
    for name in &names {
        let profile = crate::targets::find(name)?;
        if !targets.iter().any(|known| **known == *profile.name) {
            targets.push(profile.name.to_string());
        }
    }
    if targets.is_empty() {
        return Err(
            Error::new("`compat` needs at least one target").with_help(format!(
                "name them with `--target a,b` or `targets:` in toolcheck.yaml; known targets: {}",
                crate::targets::known().join(", ")
            )),
        );
    }
    let (inputs, errors) = gather(
        &config,
        &args.discovery,
        &paths,
        "compat",
        args.stdin_filename.as_deref(),
    )?;
    let inputs = Error::after(errors, Ok(inputs))?;
    let parsed = linter.parse_all(inputs);
    let tools = parsed.tools(linter.encoding);
    let mut runs = Vec::with_capacity(targets.len());
    for target in &targets {
        let linter = Linter::new(&registry, &config, &overrides(Some(vec![target.clone()])))?;
        runs.push(crate::compat::TargetRun {
            target: target.clone(),
            reports: linter.lint_parsed(&parsed),
        });
    }
    let invalid_manifest = &registry
        .native::<crate::rules::meta::invalid_manifest::InvalidManifest>()
        .code;
    let matrix = crate::compat::build(&tools, runs, invalid_manifest);
    print(&match args.format {
        CompatFormat::Json => matrix.json(),
        CompatFormat::Human => matrix.human(use_color(args.color), terminal_width()),
    });
    let mut internal = false;
    for file in &matrix.files {
        if let Some(message) = &file.internal_error {
            print_error(&internal_error(&file.file, message));
            internal = true;
        }
    }
    Ok(if internal { 2 } else { matrix.exit_code() })
}

/// `toolcheck diff`: both sides read with the config and discovery of `lint`, and linted with
/// the same settings.
fn diff(args: DiffArgs) -> Result<i32> {
    use crate::diff::{FailOn, Spec};
    let spec = match (&args.git, args.paths.as_slice()) {
        (Some(range), paths) => {
            let (old, new) = match range.split_once("..") {
                Some((old, new)) => (old.to_string(), Some(new.to_string())),
                None => (range.clone(), None),
            };
            Spec::Git {
                old,
                new,
                paths: paths.to_vec(),
            }
        }
        (None, [old, new]) => Spec::Paths {
            old: old.clone(),
            new: new.clone(),
        },
        (None, _) => {
            return Err(Error::new(format!(
                "`toolcheck diff` takes OLD and NEW, got {} path{}",
                args.paths.len(),
                if args.paths.len() == 1 { "" } else { "s" }
            ))
            .with_help(
                "give two files or two directories, or `--git REV [PATHS]` to compare PATHS at a \
                 revision with the working tree",
            ));
        }
    };
    let (config, config_errors) = load_config_all(&args.config)?;
    let overrides = Overrides {
        tokenizer: args.tokenizer,
        ..Overrides::default()
    };
    let (registry, linter) = Error::after(
        config_errors,
        registry(&config).and_then(|registry| {
            let linter = Linter::new(&registry, &config, &overrides)?;
            Ok((registry, linter))
        }),
    )?;
    let (old, new) = crate::diff::load::load(
        &spec,
        &config,
        &args.discovery.overrides(),
        config.max_file_size,
    )?;
    let report = crate::diff::diff(old, new, &registry, &linter);
    match args.format {
        DiffFormat::Human => print(&crate::diff::render::human(&report, use_color(args.color))),
        DiffFormat::Json => {
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            // As `print`: a closed pipe is the reader's choice.
            let _ = crate::diff::render::write_json(&report, &mut stdout);
            let _ = stdout.flush();
        }
        DiffFormat::Markdown => print(&crate::diff::render::markdown(&report)),
    }
    for error in &report.internal_errors {
        let (file, message) = error.split_once(": ").unwrap_or((error, ""));
        print_error(&internal_error(file, message));
    }
    for unreadable in &report.unreadable {
        let (file, why) = unreadable.split_once(": ").unwrap_or((unreadable, ""));
        print_error(
            &Error::new(format!(
                "cannot compare {file}: it cannot be read as tools: {why}"
            ))
            .with_help("`toolcheck lint` on the file shows where it breaks"),
        );
    }
    let code = report.exit_code(match args.fail_on {
        DiffFailOn::Breaking => FailOn::Breaking,
        DiffFailOn::Risky => FailOn::Risky,
        DiffFailOn::Any => FailOn::Any,
        DiffFailOn::Never => FailOn::Never,
    });
    crate::parallel::drop_in_background(report);
    Ok(code)
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

/// `toolcheck search`: the files' (or a session's) tools in one index, one query.
fn search(args: SearchArgs) -> Result<i32> {
    use crate::search::Engine;
    let engine = match args.engine {
        SearchEngine::ClaudeCode => Engine::ClaudeCode,
        SearchEngine::ClaudeCode21 => Engine::ClaudeCode21,
        SearchEngine::Bm25 => Engine::Bm25,
        SearchEngine::Regex => Engine::Regex,
    };
    if engine == Engine::Regex {
        crate::search::compile(&args.query).map_err(|error| {
            Error::new(error.0).with_help("write the pattern as Python's `re` would take it")
        })?;
    }
    let config = load_config(&args.config)?;
    let registry = registry(&config)?;
    let (inputs, servers, host) = match &args.session {
        Some(name) => {
            let (inputs, servers, host) = search::session_inputs(&config, name)?;
            (inputs, Some(servers), Some(host))
        }
        None => {
            let (inputs, errors) = gather(&config, &args.discovery, &args.paths, "search", None)?;
            let inputs = Error::after(errors, Ok(inputs))?;
            let host = if engine.host_names() {
                Some(crate::targets::find("claude-code")?)
            } else {
                None
            };
            (inputs, None, host)
        }
    };
    let loaded = search::load(
        inputs,
        &registry,
        config.tokenizer,
        &search::Load {
            host,
            server_name: args.server_name.as_deref(),
            servers,
        },
    );
    for unread in &loaded.unread {
        eprintln!("warning: no tools read from {unread}");
    }
    if loaded.index.is_empty() {
        return Err(Error::new("no tools to search in the given files")
            .with_help("name MCP `tools/list` captures or tool manifests"));
    }
    let answer = loaded
        .index
        .search(engine, &args.query)
        .map_err(|error| Error::new(error.0))?;
    let top = args.top.unwrap_or(engine.default_top());
    print(&match args.format {
        CompatFormat::Json => search::render_json(&loaded.index, &answer, &args.query, engine, top),
        CompatFormat::Human => {
            search::render_human(&loaded.index, &answer, &args.query, engine, top)
        }
    });
    Ok(if answer.hits.is_empty() { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Another run or an editor writes the file between toolcheck's read and its fix: the fix
    /// is refused, and the other writer's text stays.
    #[test]
    fn fixes_are_not_written_over_a_file_changed_since_it_was_read() {
        let dir = std::env::temp_dir().join(format!("toolcheck-fix-race-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tools.yaml");
        let text = "name: area\ndescription: Calculate an area. Not for volumes.\n\
                    input_schema: { type: dict, properties: { base: { type: integer } } }\n";
        std::fs::write(&path, text).unwrap();
        let name = path.display().to_string();
        let Command::Lint(args) =
            Cli::parse_from(["toolcheck", "lint", "--fix", "--no-config", &name]).command
        else {
            unreachable!("a lint command")
        };
        let config = load_config(&args.config).unwrap();
        let registry = registry(&config).unwrap();
        let linter = Linter::new(&registry, &config, &Overrides::default()).unwrap();
        let mut inputs = vec![Input {
            name: name.clone(),
            bytes: text.as_bytes().to_vec(),
        }];
        let reports = linter.lint_all(inputs.clone());
        assert!(
            crate::fix::apply(&reports[0].file.text, &reports[0].diagnostics).is_some(),
            "the fixture has a fix to write"
        );
        std::fs::write(&path, "edited meanwhile\n").unwrap();
        let error = fix_files(&reports, &args, &mut inputs).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("changed while toolcheck was fixing it"),
            "{error}"
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "edited meanwhile\n"
        );
        // Unchanged, the same fix is written.
        std::fs::write(&path, text).unwrap();
        assert_eq!(fix_files(&reports, &args, &mut inputs).unwrap(), 1);
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .contains("type: object")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
