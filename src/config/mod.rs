//! `toolcheck.yaml`: discovery upward from the working directory, parsing with spans so that
//! every mistake points at its key, and the raw settings the engine resolves against the
//! rule registry.

pub mod options;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::parse::{self, Entry, Node, Span};
use crate::read::source::SourceFile;
use crate::suggest::did_you_mean;
use crate::tokens::Encoding;

pub const FILE_NAMES: [&str; 2] = ["toolcheck.yaml", ".toolcheck.yaml"];

pub const DEFAULT_INCLUDE: [&str; 2] = ["**/*.tool.{yaml,yml,json}", "**/*.tools.{yaml,yml,json}"];

pub const TOP_KEYS: &[&str] = &[
    "include",
    "exclude",
    "tokenizer",
    "max-file-size",
    "rules",
    "rulesets",
    "baseline",
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
    pub include: Vec<String>,
    pub exclude: Vec<String>,
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
}

impl Config {
    /// Defaults, as if an empty config file sat in `root`.
    pub fn defaults(root: PathBuf) -> Self {
        Config {
            root,
            include: DEFAULT_INCLUDE.iter().map(|s| s.to_string()).collect(),
            max_file_size: crate::read::DEFAULT_MAX_FILE_SIZE,
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

    pub fn load(path: &Path) -> Result<Config> {
        let text = crate::read::read_text(path, "config file")?;
        let root = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        Config::parse(SourceFile::new(path.display().to_string(), text), root)
    }

    pub fn parse(file: Arc<SourceFile>, root: PathBuf) -> Result<Config> {
        let node = parse::yaml::parse(&file.text).map_err(|error| {
            Error::at(
                &file,
                error.span,
                format!("invalid config: {}", error.message),
            )
        })?;
        let mut config = Config::defaults(root);
        let reader = Reader { file: &file };
        if !matches!(node.kind, parse::NodeKind::Null) {
            for entry in reader.object(&node)? {
                match entry.key.as_str() {
                    "include" => {
                        config.include = reader
                            .strings(&entry.value)?
                            .into_iter()
                            .map(|s| s.value)
                            .collect()
                    }
                    "exclude" => {
                        config.exclude = reader
                            .strings(&entry.value)?
                            .into_iter()
                            .map(|s| s.value)
                            .collect()
                    }
                    "tokenizer" => {
                        let name = reader.string(&entry.value)?;
                        config.tokenizer = name.value.parse().map_err(|message: String| {
                            Error::at(&file, entry.value.span.clone(), message)
                        })?;
                    }
                    "max-file-size" => {
                        config.max_file_size = match entry.value.as_f64() {
                            Some(bytes) if bytes >= 1.0 && bytes.fract() == 0.0 => bytes as u64,
                            _ => {
                                return Err(reader.error(
                                    &entry.value,
                                    "a number of bytes (a positive integer)",
                                ));
                            }
                        }
                    }
                    "rules" => reader.rules(&entry.value, &mut config)?,
                    "baseline" => {
                        if !matches!(entry.value.kind, parse::NodeKind::Null) {
                            let path = reader.string(&entry.value)?;
                            config.baseline = Some(config.root.join(path.value));
                        }
                    }
                    "rulesets" => {
                        for dir in reader.strings(&entry.value)? {
                            config.rulesets.push(config.root.join(dir.value));
                        }
                    }
                    _ => return Err(reader.unknown_key(entry, TOP_KEYS)),
                }
            }
        }
        config.file = Some(file);
        Ok(config)
    }

    /// An error pointing at `span` in the config file (or a plain one for CLI values).
    pub fn error_at(&self, span: &Option<Span>, message: impl Into<String>) -> Error {
        match (&self.file, span) {
            (Some(file), Some(span)) => Error::at(file, span.clone(), message),
            _ => Error::new(message),
        }
    }
}

/// Reads config nodes, turning every type mismatch into an error at the node.
struct Reader<'a> {
    file: &'a Arc<SourceFile>,
}

impl Reader<'_> {
    fn error(&self, node: &Node, expected: &str) -> Error {
        Error::at(
            self.file,
            node.span.clone(),
            format!("expected {expected}, found {}", node.type_name()),
        )
    }

    fn object<'n>(&self, node: &'n Node) -> Result<&'n [Entry]> {
        node.as_object()
            .ok_or_else(|| self.error(node, "a mapping"))
    }

    fn string(&self, node: &Node) -> Result<Spanned> {
        match node.as_str() {
            Some(value) => Ok(Spanned {
                value: value.to_string(),
                span: Some(node.span.clone()),
            }),
            None => Err(self.error(node, "a string")),
        }
    }

    /// A list of strings; a single string is accepted as a list of one.
    fn strings(&self, node: &Node) -> Result<Vec<Spanned>> {
        match node.as_array() {
            Some(items) => items.iter().map(|item| self.string(item)).collect(),
            None => self
                .string(node)
                .map(|single| vec![single])
                .map_err(|_| self.error(node, "a list of strings")),
        }
    }

    fn unknown_key(&self, entry: &Entry, known: &[&str]) -> Error {
        let error = Error::at(
            self.file,
            entry.key_span.clone(),
            format!("unknown config key `{}`", entry.key),
        );
        match did_you_mean(&entry.key, known.iter().copied()) {
            Some(close) => error.with_help(format!("did you mean `{close}`?")),
            None => error.with_help(format!("known keys here: {}", known.join(", "))),
        }
    }

    fn rules(&self, node: &Node, config: &mut Config) -> Result<()> {
        for entry in self.object(node)? {
            match entry.key.as_str() {
                "select" => config.select = Some(self.strings(&entry.value)?),
                "ignore" => config.ignore = self.strings(&entry.value)?,
                "severity" => {
                    for rule in self.object(&entry.value)? {
                        let level = self.string(&rule.value)?;
                        let level = Level::parse(&level.value).ok_or_else(|| {
                            Error::at(
                                self.file,
                                rule.value.span.clone(),
                                format!("unknown severity `{}`", level.value),
                            )
                            .with_help("use one of: error, warning, info, off")
                        })?;
                        config.severity.push((spanned_key(rule), level));
                    }
                }
                "options" => {
                    for rule in self.object(&entry.value)? {
                        config.options.push((spanned_key(rule), rule.value.clone()));
                    }
                }
                "per-file-ignores" => {
                    for pattern in self.object(&entry.value)? {
                        let rules = self.strings(&pattern.value)?;
                        config.per_file_ignores.push((spanned_key(pattern), rules));
                    }
                }
                _ => return Err(self.unknown_key(entry, RULES_KEYS)),
            }
        }
        Ok(())
    }
}

fn spanned_key(entry: &Entry) -> Spanned {
    Spanned {
        value: entry.key.clone(),
        span: Some(entry.key_span.clone()),
    }
}
