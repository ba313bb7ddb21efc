//! `toolcheck.yaml`: discovery upward from the working directory, parsing with spans so that
//! every mistake points at its key, and the raw settings the engine resolves against the
//! rule registry.

pub mod sessions;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::parse::source::SourceFile;
use crate::parse::{self, Entry, Node, Span};
use crate::read::discover::{DiscoveryMode, DiscoverySettings};
use crate::text::suggest::did_you_mean;
use crate::tokens::Encoding;

pub const FILE_NAMES: [&str; 2] = ["toolcheck.yaml", ".toolcheck.yaml"];

pub const DEFAULT_INCLUDE: [&str; 2] = ["**/*.tool.{yaml,yml,json}", "**/*.tools.{yaml,yml,json}"];

pub const TOP_KEYS: &[&str] = &[
    "include",
    "exclude",
    "discovery",
    "source-files",
    "tokenizer",
    "max-file-size",
    "rules",
    "rulesets",
    "baseline",
    "targets",
    "sessions",
];
pub const RULES_KEYS: &[&str] = &[
    "select",
    "ignore",
    "severity",
    "options",
    "per-file-ignores",
];

/// A string from the config file with where it was written (for errors).
#[derive(Debug, Clone)]
pub struct Spanned {
    pub value: String,
    pub span: Option<Span>,
}

impl Spanned {
    pub fn cli(value: impl Into<String>) -> Self {
        Spanned {
            value: value.into(),
            span: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Info,
    Off,
}

impl Level {
    pub fn parse(text: &str) -> Option<Level> {
        match text {
            "error" => Some(Level::Error),
            "warning" | "warn" => Some(Level::Warning),
            "info" => Some(Level::Info),
            "off" => Some(Level::Off),
            _ => None,
        }
    }
}

/// The configuration as written, before it is resolved against the rules.
#[derive(Debug, Default)]
pub struct Config {
    /// The config file, for errors that point into it; `None` without a file.
    pub file: Option<Arc<SourceFile>>,
    /// The directory relative paths in the config are resolved from.
    pub root: PathBuf,
    /// Globs relative to `root`, as are `exclude` and `per_file_ignores`.
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub discovery: DiscoveryMode,
    /// Whether a walk reads the tools that source files register (`source-files:`).
    pub source_files: bool,
    pub tokenizer: Encoding,
    pub select: Option<Vec<Spanned>>,
    pub ignore: Vec<Spanned>,
    pub severity: Vec<(Spanned, Level)>,
    /// Rule name (or code) → its options node.
    pub options: Vec<(Spanned, Node)>,
    /// Glob (with an optional `#/json/pointer` suffix) → rule selectors.
    pub per_file_ignores: Vec<(Spanned, Vec<Spanned>)>,
    pub rulesets: Vec<PathBuf>,
    /// The largest input read, in bytes.
    pub max_file_size: u64,
    /// The baseline file (`baseline:`), resolved against `root`.
    pub baseline: Option<PathBuf>,
    /// The targets whose profiles the `targets` rules check against (`targets:`).
    pub targets: Vec<Spanned>,
    /// Groups of files one host loads together (`sessions:`), judged as a whole by the set
    /// rules.
    pub sessions: Vec<sessions::Session>,
}

impl Config {
    /// Defaults, as if an empty config file sat in `root`.
    pub fn defaults(root: PathBuf) -> Self {
        Config {
            root,
            include: DEFAULT_INCLUDE.iter().map(|s| s.to_string()).collect(),
            max_file_size: crate::read::DEFAULT_MAX_FILE_SIZE,
            source_files: true,
            ..Config::default()
        }
    }

    /// The config file for `start` (the working directory): `toolcheck.yaml` or
    /// `.toolcheck.yaml` there or in the nearest parent.
    pub fn discover(start: &Path) -> Option<PathBuf> {
        start.ancestors().find_map(|dir| {
            FILE_NAMES
                .iter()
                .map(|name| dir.join(name))
                .find(|path| path.is_file())
        })
    }

    /// The config file at `path`; every error in it is reported at once.
    pub fn load(path: &Path) -> Result<Config> {
        let (config, errors) = Config::load_all(path)?;
        Error::collect(errors)?;
        Ok(config)
    }

    /// The config file at `path` read as far as it goes: the valid settings (a setting with an
    /// error keeps its default) and every error. `Err` only when the file cannot be read or is
    /// not YAML.
    pub fn load_all(path: &Path) -> Result<(Config, Vec<Error>)> {
        let text = crate::read::read_text(path, "config file")?;
        // `toolcheck.yaml` has the parent ``: paths joined to it stay as short as typed.
        let root = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        Config::parse_all(SourceFile::new(path.display().to_string(), text), root)
    }

    /// Parses a config file's text; every error in it is reported at once.
    pub fn parse(file: Arc<SourceFile>, root: PathBuf) -> Result<Config> {
        let (config, errors) = Config::parse_all(file, root)?;
        Error::collect(errors)?;
        Ok(config)
    }

    /// Parses as far as it goes; see [`Config::load_all`].
    pub fn parse_all(file: Arc<SourceFile>, root: PathBuf) -> Result<(Config, Vec<Error>)> {
        let node = parse::yaml::parse(&file.text).map_err(|error| {
            Error::at(
                &file,
                error.span,
                format!("invalid config: {}", error.message),
            )
        })?;
        let mut config = Config::defaults(root);
        let reader = Reader {
            file: &file,
            errors: RefCell::new(Vec::new()),
        };
        if !matches!(node.kind, parse::NodeKind::Null) {
            for entry in reader.object(&node) {
                reader.top_level(entry, &mut config);
            }
        }
        let errors = reader.errors.into_inner();
        config.file = Some(file);
        Ok((config, errors))
    }

    /// An error pointing at `span` in the config file (or a plain one for CLI values).
    pub fn error_at(&self, span: &Option<Span>, message: impl Into<String>) -> Error {
        match (&self.file, span) {
            (Some(file), Some(span)) => Error::at(file, span.clone(), message),
            _ => Error::new(message),
        }
    }

    /// What discovery takes from the config.
    pub fn discovery_settings(&self) -> DiscoverySettings<'_> {
        DiscoverySettings {
            root: &self.root,
            include: &self.include,
            exclude: &self.exclude,
            mode: self.discovery,
            source_files: self.source_files,
        }
    }
}

/// The most globs one list (`include`, `exclude`, `per-file-ignores`) may hold.
const MAX_GLOBS: usize = 10_000;

/// Reads config nodes. A node of the wrong type is recorded as an error at the node and read
/// as absent, so that one run reports every mistake of the file.
struct Reader<'a> {
    file: &'a Arc<SourceFile>,
    errors: RefCell<Vec<Error>>,
}

impl Reader<'_> {
    fn push(&self, error: Error) {
        self.errors.borrow_mut().push(error);
    }

    fn expected(&self, node: &Node, expected: &str) {
        self.push(Error::at(
            self.file,
            node.span(),
            format!("expected {expected}, found {}", node.type_name()),
        ));
    }

    fn top_level(&self, entry: &Entry, config: &mut Config) {
        match entry.key.as_str() {
            "include" => config.include = self.globs(&entry.value),
            "exclude" => config.exclude = self.globs(&entry.value),
            "discovery" => {
                if let Some(mode) = self.string(&entry.value) {
                    match DiscoveryMode::parse(&mode.value) {
                        Some(parsed) => config.discovery = parsed,
                        None => self.push(
                            Error::at(
                                self.file,
                                entry.value.span(),
                                format!("unknown discovery `{}`", mode.value),
                            )
                            .with_help("use include or content"),
                        ),
                    }
                }
            }
            "source-files" => match entry.value.as_bool() {
                Some(read) => config.source_files = read,
                None => self.expected(&entry.value, "true or false"),
            },
            "tokenizer" => {
                if let Some(name) = self.string(&entry.value) {
                    match name.value.parse() {
                        Ok(encoding) => config.tokenizer = encoding,
                        Err(message) => {
                            self.push(Error::at(self.file, entry.value.span(), message))
                        }
                    }
                }
            }
            "max-file-size" => match entry.value.as_f64() {
                Some(bytes) if bytes >= 1.0 && bytes.fract() == 0.0 => {
                    config.max_file_size = bytes as u64
                }
                _ => self.expected(&entry.value, "a number of bytes (a positive integer)"),
            },
            "rules" => self.rules(&entry.value, config),
            "baseline" => {
                let path = match entry.value.kind {
                    parse::NodeKind::Null => None,
                    _ => self.string(&entry.value),
                };
                if let Some(path) = path {
                    config.baseline = Some(config.root.join(path.value));
                }
            }
            "targets" => config.targets = self.strings(&entry.value),
            "sessions" => config.sessions = self.sessions(&entry.value),
            "rulesets" => {
                for dir in self.strings(&entry.value) {
                    config.rulesets.push(config.root.join(dir.value));
                }
            }
            _ => self.unknown_key(entry, TOP_KEYS),
        }
    }

    /// The entries of a mapping; none when the node is not one.
    fn object<'n>(&self, node: &'n Node) -> &'n [Entry] {
        node.as_object().unwrap_or_else(|| {
            self.expected(node, "a mapping");
            &[]
        })
    }

    fn string(&self, node: &Node) -> Option<Spanned> {
        match node.as_str() {
            Some(value) => Some(Spanned {
                value: value.to_string(),
                span: Some(node.span()),
            }),
            None => {
                self.expected(node, "a string");
                None
            }
        }
    }

    /// A list of strings (each item that is not one is an error); a single string is accepted
    /// as a list of one.
    fn strings(&self, node: &Node) -> Vec<Spanned> {
        match (node.as_array(), node.as_str()) {
            (Some(items), _) => items.iter().filter_map(|item| self.string(item)).collect(),
            (None, Some(_)) => self.string(node).into_iter().collect(),
            (None, None) => {
                self.expected(node, "a list of strings");
                Vec::new()
            }
        }
    }

    /// A list of globs; one that does not compile is an error at its item.
    fn globs(&self, node: &Node) -> Vec<String> {
        if !self.few_globs(node, node.as_array().map_or(0, <[Node]>::len)) {
            return Vec::new();
        }
        self.strings(node)
            .into_iter()
            .filter(|glob| self.check_glob(glob, &glob.value))
            .map(|glob| glob.value)
            .collect()
    }

    /// Whether a list of `count` globs is within [`MAX_GLOBS`]; records the error when not
    /// (each glob is compiled on its own and tried on every file: tens of thousands take
    /// hundreds of megabytes).
    fn few_globs(&self, node: &Node, count: usize) -> bool {
        if count <= MAX_GLOBS {
            return true;
        }
        self.push(
            Error::at(
                self.file,
                node.span(),
                format!("{count} globs in one list, more than {MAX_GLOBS}"),
            )
            .with_help("fewer, wider globs match the same files (`tools/**/*.tool.yaml`)"),
        );
        false
    }

    /// Whether `glob` (the glob part of `written`) compiles; records the error when not.
    fn check_glob(&self, written: &Spanned, glob: &str) -> bool {
        match globset::Glob::new(glob) {
            Ok(_) => true,
            Err(error) => {
                let span = written.span.clone().unwrap_or_default();
                let message = format!("invalid glob `{glob}`: {}", error.kind());
                self.push(Error::at(self.file, span, message));
                false
            }
        }
    }

    fn unknown_key(&self, entry: &Entry, known: &[&str]) {
        let error = Error::at(
            self.file,
            entry.key_span(),
            format!("unknown config key `{}`", entry.key),
        );
        self.push(match did_you_mean(&entry.key, known.iter().copied()) {
            Some(close) => error.with_help(format!("did you mean `{close}`?")),
            None => error.with_help(format!("known keys here: {}", known.join(", "))),
        });
    }

    fn rules(&self, node: &Node, config: &mut Config) {
        for entry in self.object(node) {
            match entry.key.as_str() {
                "select" => config.select = Some(self.strings(&entry.value)),
                "ignore" => config.ignore = self.strings(&entry.value),
                "severity" => {
                    for rule in self.object(&entry.value) {
                        let Some(level) = self.string(&rule.value) else {
                            continue;
                        };
                        match Level::parse(&level.value) {
                            Some(parsed) => config.severity.push((spanned_key(rule), parsed)),
                            None => self.push(
                                Error::at(
                                    self.file,
                                    rule.value.span(),
                                    format!("unknown severity `{}`", level.value),
                                )
                                .with_help("use one of: error, warning, info, off"),
                            ),
                        }
                    }
                }
                "options" => {
                    for rule in self.object(&entry.value) {
                        config.options.push((spanned_key(rule), rule.value.clone()));
                    }
                }
                "per-file-ignores" => {
                    let patterns = self.object(&entry.value);
                    if !self.few_globs(&entry.value, patterns.len()) {
                        continue;
                    }
                    for pattern in patterns {
                        let key = spanned_key(pattern);
                        let glob = key
                            .value
                            .split_once('#')
                            .map_or(&*key.value, |(glob, _)| glob);
                        if self.check_glob(&key, glob) {
                            let rules = self.strings(&pattern.value);
                            config.per_file_ignores.push((key, rules));
                        }
                    }
                }
                _ => self.unknown_key(entry, RULES_KEYS),
            }
        }
    }
}

fn spanned_key(entry: &Entry) -> Spanned {
    Spanned {
        value: entry.key.to_string(),
        span: Some(entry.key_span()),
    }
}
