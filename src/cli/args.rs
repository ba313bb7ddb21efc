//! The command line's arguments: every command's flags, as clap reads them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::config::Level;
use crate::error::{Error, Result};
use crate::read::discover::{DiscoveryMode, DiscoveryOverrides};
use crate::tokens::Encoding;

#[derive(Debug, Parser)]
#[command(
    name = "toolcheck",
    version,
    about = "Lint the text an LLM agent reads about its tools"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint tool manifests (YAML or JSON); exits 1 when an error is found
    Lint(LintArgs),
    /// Show what each tool costs in tokens, per file, and its share of a context window
    Tokens(TokensArgs),
    /// List every rule
    Rules(RulesArgs),
    /// Show one rule's documentation
    Explain(ExplainArgs),
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
    /// Print a shell's completion script: bash, zsh, fish, powershell or elvish
    Completions(CompletionsArgs),
    /// Print a man page in roff: toolcheck's, or COMMAND's (`toolcheck-lint.1`); for packagers
    #[command(hide = true)]
    Man(ManArgs),
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell whose completion script to print
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// A command (`lint`) whose page to print instead of toolcheck's
    pub command: Option<String>,
}

#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// With `--mcp`: the server's command and its arguments, after `--`
    pub command: Vec<PathBuf>,
    #[command(flatten)]
    pub live: LiveArgs,
    /// The name the host knows the `--mcp` server by, and its snapshot's file name; default:
    /// the server's own `serverInfo.name`
    #[arg(long, value_name = "NAME")]
    pub server_name: Option<String>,
    /// The folder the snapshots are written to (or compared with): `<DIR>/<server>.tools.json`
    #[arg(long, short, value_name = "DIR", default_value = ".")]
    pub output: PathBuf,
    /// Compare with the snapshots in the folder instead of writing them; exit 1 with a summary
    /// of what changed when one differs or is missing
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// Use this config file instead of discovering `toolcheck.yaml`
    #[arg(long, value_name = "PATH", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Ignore any `toolcheck.yaml`
    #[arg(long)]
    pub no_config: bool,
}

/// Which files of a walked directory are read. The globs are relative to the working
/// directory (those of `toolcheck.yaml` to its own directory).
#[derive(Debug, Args)]
pub struct DiscoveryArgs {
    /// Globs of the files to read in walked directories, comma-separated, relative to the
    /// working directory (those of toolcheck.yaml are relative to its directory); replace
    /// `include`
    #[arg(long, value_delimiter = ',', value_name = "GLOBS")]
    pub include: Option<Vec<String>>,
    /// Globs of the files never read in walked directories, relative to the working directory;
    /// replace `exclude`
    #[arg(long, value_delimiter = ',', value_name = "GLOBS")]
    pub exclude: Option<Vec<String>>,
    /// Globs of more files never read in walked directories, relative to the working
    /// directory; added to `exclude`
    #[arg(long, value_delimiter = ',', value_name = "GLOBS")]
    pub extend_exclude: Vec<String>,
    /// `include` (the files `include` matches) or `content` (also the JSON and YAML files
    /// that hold tool definitions, whatever their names); overrides `discovery`
    #[arg(long, value_name = "include|content", value_parser = parse_discovery)]
    pub discovery: Option<DiscoveryMode>,
}

impl DiscoveryArgs {
    pub fn overrides(&self) -> DiscoveryOverrides {
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
pub struct LiveArgs {
    /// Start the MCP server whose command follows `--` (`--mcp -- npx -y @scope/server`), read
    /// the tools it lists, under its name, and stop it
    #[arg(long, help_heading = "Live servers", conflicts_with = "host_config")]
    pub mcp: bool,
    /// Start every server of this host config (Claude Code `.mcp.json`, Claude Desktop
    /// `claude_desktop_config.json`, Cursor `.cursor/mcp.json`, VS Code `.vscode/mcp.json`), two
    /// at a time, and read their tools as one session of that host
    #[arg(long, value_name = "PATH", help_heading = "Live servers")]
    pub host_config: Option<PathBuf>,
    /// The host whose config `--host-config` is, when its file name does not say:
    /// claude-code, claude-desktop, cursor or vscode
    #[arg(
        long,
        value_name = "HOST",
        requires = "host_config",
        help_heading = "Live servers"
    )]
    pub host: Option<String>,
    /// How long a server may take to answer `initialize` or a page of `tools/list`, in seconds
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "30",
        value_parser = parse_timeout,
        help_heading = "Live servers"
    )]
    pub timeout: std::time::Duration,
    /// The largest message a server may send, in bytes (a listing page is one message): a
    /// larger one fails that server
    #[arg(
        long,
        value_name = "BYTES",
        default_value_t = crate::read::live::DEFAULT_MAX_MESSAGE,
        help_heading = "Live servers"
    )]
    pub max_message_size: usize,
}

impl LiveArgs {
    /// How long a server may take, and how much it may send at once.
    pub fn limits(&self) -> crate::read::live::Limits {
        crate::read::live::Limits {
            timeout: self.timeout,
            max_message: self.max_message_size,
        }
    }

    /// The servers to start, when there are any: with `--mcp`, `paths` is the command.
    pub fn request(
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

pub fn parse_timeout(text: &str) -> std::result::Result<std::time::Duration, String> {
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
pub struct LintArgs {
    /// Files or directories to lint (`-` reads standard input); default: the current directory.
    /// With `--mcp`: the server's command and its arguments, after `--`
    pub paths: Vec<PathBuf>,
    /// How to print the findings (`--format` is an alias)
    /// [default: full, concise with --watch]
    #[arg(
        long = "output-format",
        visible_alias = "format",
        value_enum,
        value_name = "FORMAT"
    )]
    pub format: Option<Format>,
    /// Print how many findings each rule has (most first, with how many `--fix` fixes)
    /// instead of the findings
    #[arg(long)]
    pub statistics: bool,
    /// When to use colors in human output
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    /// Print only the diagnostics, without the summary line
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub discovery: DiscoveryArgs,
    /// Rules to enable (codes in any case, prefixes such as `TC2`, names, `ALL`); replaces
    /// `rules.select`
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub select: Option<Vec<String>>,
    /// Rules to disable; added to `rules.ignore`
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub ignore: Vec<String>,
    /// Set a rule's severity: `RULE=error|warning|info|off` (repeatable)
    #[arg(long, value_name = "RULE=LEVEL", value_parser = parse_severity)]
    pub severity: Vec<(String, Level)>,
    /// Token encoding for budgets
    #[arg(long, value_parser = parse_encoding)]
    pub tokenizer: Option<Encoding>,
    /// Check against these providers and hosts (`toolcheck explain --target NAME` shows one);
    /// replaces `targets:`
    #[arg(long, value_delimiter = ',', value_name = "TARGETS")]
    pub target: Option<Vec<String>>,
    /// The server name hosts prefix tool names with (`mcp__<server>__<tool>`); default: the
    /// file's session, else its `server` key; without one, a name is measured without it
    #[arg(long, value_name = "NAME")]
    pub server_name: Option<String>,
    /// Exit 1 when there are more than this many warnings
    #[arg(long, value_name = "N")]
    pub max_warnings: Option<usize>,
    /// Print the resolved settings (config file, discovery, files, every rule's severity and
    /// options) for PATHS, and lint nothing
    #[arg(long)]
    pub show_settings: bool,
    /// Lint again whenever a file changes (for writing prompts): clear the screen, concise output
    #[arg(long, conflicts_with_all = ["fix", "diff", "write_baseline", "show_settings"])]
    pub watch: bool,
    /// Exit 0 even when there are errors (2 still means toolcheck could not do its job)
    #[arg(long)]
    pub exit_zero: bool,
    /// The name standard input is reported under (config globs match it); its extension picks
    /// YAML or JSON. Without paths, standard input is read
    #[arg(long, value_name = "NAME")]
    pub stdin_filename: Option<String>,
    /// Report only findings this baseline file does not record (overrides `baseline:`)
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record every finding of this run in FILE, as a baseline, and exit 0
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub write_baseline: Option<PathBuf>,
    /// Apply the fixes that cannot change meaning, then report what is left
    #[arg(long)]
    pub fix: bool,
    /// Print the fixes as a unified diff instead of writing them (exit 1 when there are any)
    #[arg(long, conflicts_with = "fix")]
    pub diff: bool,
    #[command(flatten)]
    pub live: LiveArgs,
}

#[derive(Debug, Args)]
pub struct TokensArgs {
    /// Files or directories (`-` reads standard input); default: the current directory
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = TokensFormat::Human)]
    pub format: TokensFormat,
    /// When to use colors (and Unicode bars) in human output
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub discovery: DiscoveryArgs,
    /// Token encoding
    #[arg(long, value_parser = parse_encoding)]
    pub tokenizer: Option<Encoding>,
    /// The context window each set total is related to, in tokens [default: 200000, or the
    /// session's `window`]
    #[arg(long, value_name = "TOKENS", value_parser = parse_window)]
    pub window: Option<usize>,
    /// Count as this target counts (`toolcheck explain --target NAME` says how): its encoding,
    /// its estimate factor and overhead; an estimate is marked `≈`
    #[arg(long, value_name = "TARGET")]
    pub target: Option<String>,
    /// Count the files of this session of toolcheck.yaml (`sessions:`) together: its total,
    /// its share of the window, a bar per server, and which servers to defer first
    #[arg(long, value_name = "NAME", conflicts_with_all = ["paths", "stdin_filename"])]
    pub session: Option<String>,
    #[command(flatten)]
    pub live: LiveArgs,
    /// The name standard input is reported under; its extension picks YAML or JSON. Without
    /// paths, standard input is read
    #[arg(long, value_name = "NAME")]
    pub stdin_filename: Option<String>,
}

#[derive(Debug, Args)]
pub struct CompatArgs {
    /// Files or directories (`-` reads standard input); default: the current directory
    pub paths: Vec<PathBuf>,
    /// The providers and hosts to check against, comma-separated (`toolcheck explain --target
    /// NAME` shows one); default: `targets:` of toolcheck.yaml
    #[arg(long, value_delimiter = ',', value_name = "TARGETS")]
    pub target: Option<Vec<String>>,
    /// The server name hosts prefix tool names with (`mcp__<server>__<tool>`); default: the
    /// file's session, else its `server` key; without one, a name is measured without it
    #[arg(long, value_name = "NAME")]
    pub server_name: Option<String>,
    #[arg(long, value_enum, default_value_t = CompatFormat::Human)]
    pub format: CompatFormat,
    /// When to use colors in human output
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub discovery: DiscoveryArgs,
    /// The name standard input is reported under; its extension picks YAML or JSON. Without
    /// paths, standard input is read
    #[arg(long, value_name = "NAME")]
    pub stdin_filename: Option<String>,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// OLD and NEW: two files or two directories (files paired by their path below each);
    /// with `--git`, the paths to compare [default: .]
    pub paths: Vec<PathBuf>,
    /// Compare PATHS at this git revision with the working tree (`REV..REV2`: with REV2),
    /// read from git without a checkout
    #[arg(long, value_name = "REV")]
    pub git: Option<String>,
    #[arg(long, value_enum, default_value_t = DiffFormat::Human)]
    pub format: DiffFormat,
    /// Exit 1 when a change of this class (or worse) is found
    #[arg(long, value_enum, default_value_t = DiffFailOn::Breaking)]
    pub fail_on: DiffFailOn,
    /// When to use colors in human output
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub discovery: DiscoveryArgs,
    /// Token encoding
    #[arg(long, value_parser = parse_encoding)]
    pub tokenizer: Option<Encoding>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Human,
    Json,
    /// For a pull request comment or `$GITHUB_STEP_SUMMARY`
    Markdown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFailOn {
    Breaking,
    Risky,
    /// Any change at all
    Any,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompatFormat {
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TokensFormat {
    Human,
    Json,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The query as the model would write it (for `--engine regex`, a Python-style pattern)
    pub query: String,
    /// Files or directories (`-` reads standard input); default: the current directory
    pub paths: Vec<PathBuf>,
    /// `claude-code` (Claude Code's ToolSearch, current 2.1.x releases), `claude-code-2.0`
    /// (2.0.x: no whole-name bonus), `bm25` or `regex` (Anthropic's server-side tool search)
    #[arg(long, value_enum, default_value_t = SearchEngine::ClaudeCode)]
    pub engine: SearchEngine,
    /// How many results to show [default: what the engine returns: 5, 3 for bm25]
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,
    #[arg(long, value_enum, default_value_t = CompatFormat::Human)]
    pub format: CompatFormat,
    /// Search the files of this session of toolcheck.yaml (`sessions:`), named as its host
    /// sends them
    #[arg(long, value_name = "NAME", conflicts_with = "paths")]
    pub session: Option<String>,
    /// The server name hosts prefix tool names with (`mcp__<server>__<tool>`); default: the
    /// session's (with `--session`), else the file's `server` key, else (for an MCP file) its
    /// file name up to the first dot (`server` for standard input)
    #[arg(long, value_name = "NAME")]
    pub server_name: Option<String>,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub discovery: DiscoveryArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SearchEngine {
    /// `claude-code-2.1` was its name before it became the default.
    #[value(alias = "claude-code-2.1")]
    ClaudeCode,
    #[value(name = "claude-code-2.0")]
    ClaudeCode20,
    Bm25,
    Regex,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A rule code (`TC209`) or name (`absolute-words`)
    #[arg(required_unless_present = "target", conflicts_with = "target")]
    pub rule: Option<String>,
    /// Show a target's profile instead: what a provider or host accepts, with sources
    #[arg(long, value_name = "TARGET")]
    pub target: Option<String>,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    pub format: ListFormat,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
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
pub enum ListFormat {
    Table,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

pub fn parse_severity(text: &str) -> std::result::Result<(String, Level), String> {
    let (rule, level) = text
        .split_once('=')
        .ok_or_else(|| format!("expected RULE=LEVEL, found `{text}`"))?;
    let level = Level::parse(level)
        .ok_or_else(|| format!("unknown severity `{level}`: use error, warning, info or off"))?;
    Ok((rule.to_string(), level))
}

pub fn parse_discovery(text: &str) -> std::result::Result<DiscoveryMode, String> {
    DiscoveryMode::parse(text).ok_or_else(|| format!("expected include or content, found `{text}`"))
}

pub fn parse_window(text: &str) -> std::result::Result<usize, String> {
    match text.parse::<usize>() {
        Ok(window) if window > 0 => Ok(window),
        _ => Err(format!(
            "expected a positive number of tokens, found `{text}`"
        )),
    }
}

pub fn parse_encoding(text: &str) -> std::result::Result<Encoding, String> {
    text.parse()
}

/// Flags other tools spell otherwise (ruff, eslint, `NO_COLOR` habits), and how toolcheck spells
/// them, the first the subcommand has: clap's own guess goes by spelling (`--no-colour` is
/// nearest `--no-config`).
const IDIOMS: &[(&[&str], &[&str])] = &[
    (
        &["--no-color", "--no-colour", "--nocolor"],
        &["--color never"],
    ),
    (&["--colour"], &["--color"]),
    (&["--json"], &["--output-format json", "--format json"]),
    (&["--sarif"], &["--output-format sarif"]),
    (&["--dry-run", "--fix-dry-run"], &["--diff"]),
    (&["--silent"], &["--quiet"]),
];

/// A clap error for an unknown flag, with toolcheck's spelling of the idiom instead of clap's
/// guess when the flag is one of [`IDIOMS`].
pub fn with_idiom(error: clap::Error) -> clap::Error {
    use clap::CommandFactory;
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::UnknownArgument {
        return error;
    }
    let Some(ContextValue::String(flag)) = error.get(ContextKind::InvalidArg) else {
        return error;
    };
    let flag = flag.split('=').next().unwrap_or_default();
    let Some((_, spellings)) = IDIOMS.iter().find(|(flags, _)| flags.contains(&flag)) else {
        return error;
    };
    let mut command = Cli::command();
    command.build();
    // The subcommand the flag was given to (toolcheck has no global flags).
    let name = std::env::args().nth(1).unwrap_or_default();
    let Some(subcommand) = command.find_subcommand_mut(&name) else {
        return error;
    };
    let has = |spelling: &&str| {
        let long = spelling.split_whitespace().next().unwrap_or_default();
        subcommand.get_arguments().any(|argument| {
            argument
                .get_long_and_visible_aliases()
                .is_some_and(|longs| longs.iter().any(|name| format!("--{name}") == long))
        })
    };
    let Some(instead) = spellings.iter().find(|spelling| has(spelling)) else {
        return error;
    };
    subcommand.error(
        ErrorKind::UnknownArgument,
        format!("unexpected argument '{flag}' found\n\n  tip: toolcheck spells it '{instead}'"),
    )
}
