//! `sessions:` in `toolcheck.yaml`: groups of files that one host loads together (the MCP
//! servers of one Claude Code setup). The set rules judge a session as a whole: the token
//! budget and tool count over its total (`toolset-too-large`, `too-many-tools`) and tool
//! names that clash across its files as the host sends them (`duplicate-tool-name`).
//!
//! ```yaml
//! sessions:
//!   - name: dev-laptop
//!     host: claude-code        # a target profile: its `wire-name` gives the prefixing
//!     window: 200000           # tokens (the default)
//!     files:
//!       - servers/github.json  # the server is the file name's stem: `github`
//!       - { path: captures/fs-2026.json, server: filesystem }
//!       - "servers/db/*.json"
//! ```
//!
//! A `lint` run checks the sessions whose files are among its inputs, and a session rule sees
//! only those of its files (a session's other files are not read behind the user's back).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Config, Reader, Spanned};
use crate::error::{Error, Result};
use crate::parse::{Node, Span};
use crate::read::globs::{Base, Pattern, absolute, slashed};
use crate::targets::Profile;
pub use crate::targets::tool_search::ToolSearch;
use crate::text::suggest::did_you_mean;

pub const SESSION_KEYS: &[&str] = &["name", "host", "window", "tool-search", "files"];
pub const FILE_KEYS: &[&str] = &["path", "server"];

/// The window of a session that names none, in tokens.
pub const DEFAULT_WINDOW: usize = 200_000;

/// One session as written.
#[derive(Debug, Clone)]
pub struct Session {
    pub name: Spanned,
    /// A target profile name.
    pub host: Spanned,
    /// The host model's context window, in tokens.
    pub window: usize,
    /// How the host loads MCP tools (`tool-search:`).
    pub tool_search: ToolSearch,
    pub files: Vec<SessionFile>,
}

/// One `files:` item: a path or glob relative to the config's directory, and the server name
/// the host knows its tools by (default: the file name up to its first `.`).
#[derive(Debug, Clone)]
pub struct SessionFile {
    pub path: Spanned,
    pub server: Option<String>,
}

/// The server name of a file that `sessions:` gives none: its file name up to the first `.`
/// (`servers/github.tools.json` is `github`).
pub fn server_of_path(name: &str) -> String {
    let file = Path::new(name)
        .file_name()
        .and_then(|file| file.to_str())
        .unwrap_or(name);
    file.split('.').next().unwrap_or(file).to_string()
}

impl Reader<'_> {
    /// `sessions:`: a list of sessions; each mistake is an error at its key or value.
    pub(super) fn sessions(&self, node: &Node) -> Vec<Session> {
        let Some(items) = node.as_array() else {
            self.expected(node, "a list of sessions");
            return Vec::new();
        };
        let mut sessions = Vec::new();
        let mut names: HashMap<String, ()> = HashMap::new();
        for item in items {
            let Some(session) = self.session(item) else {
                continue;
            };
            if names.insert(session.name.value.clone(), ()).is_some() {
                self.push(
                    Error::at(
                        self.file,
                        session.name.span.clone().unwrap_or_default(),
                        format!("two sessions are named `{}`", session.name.value),
                    )
                    .with_help("give each session its own name"),
                );
                continue;
            }
            sessions.push(session);
        }
        sessions
    }

    fn session(&self, item: &Node) -> Option<Session> {
        let entries = self.object(item);
        // Not a mapping: `object` reported it.
        item.as_object()?;
        let (mut name, mut host, mut window, mut files) = (None, None, DEFAULT_WINDOW, None);
        let mut tool_search = ToolSearch::Default;
        for entry in entries {
            match entry.key.as_str() {
                "name" => match self.string(&entry.value) {
                    Some(value) if value.value.trim().is_empty() => {
                        self.expected(&entry.value, "a session name")
                    }
                    Some(value) => name = Some(value),
                    None => {}
                },
                "host" => {
                    if let Some(value) = self.string(&entry.value) {
                        match crate::targets::find(&value.value) {
                            Ok(_) => host = Some(value),
                            Err(_) => self.unknown_host(&value, entry.value.span()),
                        }
                    }
                }
                "window" => match entry.value.as_f64() {
                    Some(tokens) if tokens >= 1.0 && tokens.fract() == 0.0 && tokens < 1e12 => {
                        window = tokens as usize
                    }
                    _ => self.expected(&entry.value, "a number of tokens (a positive integer)"),
                },
                "tool-search" => {
                    let text = match &entry.value {
                        value if value.as_bool().is_some() => {
                            value.as_bool().map(|b| b.to_string())
                        }
                        value => value.as_str().map(str::to_string),
                    };
                    match text.as_deref().and_then(ToolSearch::parse) {
                        Some(mode) => tool_search = mode,
                        None => self.expected(
                            &entry.value,
                            "`true`, `false`, `auto` or `auto:N` (N a percentage of the window)",
                        ),
                    }
                }
                "files" => files = Some(self.session_files(&entry.value)),
                _ => self.unknown_key(entry, SESSION_KEYS),
            }
        }
        let at = item.span().start..item.span().start;
        // A key that is there with a wrong value has its own error.
        let missing = |key: &str, help: &str| {
            if entries.iter().all(|entry| entry.key != key) {
                self.push(
                    Error::at(self.file, at.clone(), format!("a session needs `{key}`"))
                        .with_help(help.to_string()),
                )
            }
        };
        missing("name", "name it: `name: dev-laptop`");
        missing(
            "host",
            "name the target profile that loads its files: `host: claude-code` \
             (`toolcheck explain --target NAME` shows one)",
        );
        missing(
            "files",
            "list the files the host loads together: `files: [servers/github.json]`",
        );
        Some(Session {
            name: name?,
            host: host?,
            window,
            tool_search,
            files: files.filter(|files| !files.is_empty())?,
        })
    }

    fn unknown_host(&self, host: &Spanned, span: Span) {
        let known = crate::targets::known();
        let error = Error::at(self.file, span, format!("unknown host `{}`", host.value));
        self.push(
            match did_you_mean(&host.value, known.iter().map(String::as_str)) {
                Some(close) => error.with_help(format!("did you mean `{close}`?")),
                None => error.with_help(format!("known targets: {}", known.join(", "))),
            },
        );
    }

    /// `files:`: paths or globs, or `{path, server}` mappings.
    fn session_files(&self, node: &Node) -> Vec<SessionFile> {
        let items: Vec<&Node> = match (node.as_array(), node.as_str()) {
            (Some(items), _) if !items.is_empty() => items.iter().collect(),
            (None, Some(_)) => vec![node],
            _ => {
                self.expected(node, "a non-empty list of files");
                return Vec::new();
            }
        };
        let mut files = Vec::new();
        for item in items {
            if item.as_str().is_some() {
                if let Some(path) = self.string(item).filter(|p| self.check_glob(p, &p.value)) {
                    files.push(SessionFile { path, server: None });
                }
                continue;
            }
            let Some(entries) = item.as_object() else {
                self.expected(item, "a path or a mapping `{path, server}`");
                continue;
            };
            let (mut path, mut server) = (None, None);
            for entry in entries {
                match entry.key.as_str() {
                    "path" => path = self.string(&entry.value),
                    "server" => {
                        server = self
                            .string(&entry.value)
                            .filter(|name| !name.value.is_empty())
                            .map(|name| name.value)
                    }
                    _ => self.unknown_key(entry, FILE_KEYS),
                }
            }
            match path {
                Some(path) if self.check_glob(&path, &path.value) => {
                    files.push(SessionFile { path, server })
                }
                Some(_) => {}
                None if entries.iter().all(|entry| entry.key != "path") => self.push(
                    Error::at(
                        self.file,
                        item.span().start..item.span().start,
                        "a session file needs `path`",
                    )
                    .with_help("write `{path: servers/github.json, server: github}`"),
                ),
                None => {}
            }
        }
        files
    }
}

/// Whether a `files:` item is a glob rather than a path.
fn is_glob(written: &str) -> bool {
    written.contains(['*', '?', '[', '{'])
}

/// A session resolved for a run: its host's profile and its files' globs.
#[derive(Debug)]
pub struct Resolved {
    pub name: String,
    pub host: Arc<Profile>,
    pub window: usize,
    pub tool_search: ToolSearch,
    files: Vec<(Pattern, Option<String>)>,
}

/// The sessions of a run, and which input belongs to which.
#[derive(Debug)]
pub struct Sessions {
    base: Base,
    pub list: Vec<Resolved>,
}

impl Default for Sessions {
    fn default() -> Self {
        Sessions {
            base: Base::new(Path::new(".")),
            list: Vec::new(),
        }
    }
}

impl Sessions {
    /// The config's sessions (hosts and globs were checked when it was read).
    pub fn resolve(config: &Config) -> Result<Sessions> {
        let base = Base::new(&config.root);
        let mut list = Vec::new();
        for session in &config.sessions {
            let host = crate::targets::find(&session.host.value)
                .map_err(|error| config.error_at(&session.host.span, error.message))?;
            let mut files = Vec::new();
            for file in &session.files {
                // A plain path matches that file however it is written (`a/../b.json`).
                let written = match is_glob(&file.path.value) {
                    true => file.path.value.clone(),
                    false => {
                        globset::escape(&slashed(&absolute(&config.root.join(&file.path.value))))
                    }
                };
                let pattern = Pattern::new(&base, &written).map_err(|error| {
                    config.error_at(
                        &file.path.span,
                        format!("invalid glob `{}`: {error}", file.path.value),
                    )
                })?;
                files.push((pattern, file.server.clone()));
            }
            list.push(Resolved {
                name: session.name.value.clone(),
                host,
                window: session.window,
                tool_search: session.tool_search,
                files,
            });
        }
        Ok(Sessions { base, list })
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The sessions the input named `name` (as given on the command line) belongs to, each
    /// with the server name its host knows it by.
    pub fn of(&self, name: &str) -> Vec<(usize, String)> {
        if self.list.is_empty() || name == "-" {
            return Vec::new();
        }
        let seen = self.base.name(Path::new(name));
        self.list
            .iter()
            .enumerate()
            .filter_map(|(index, session)| {
                let (_, server) = session
                    .files
                    .iter()
                    .find(|(pattern, _)| pattern.matches(&seen))?;
                let server = server.clone().unwrap_or_else(|| server_of_path(name));
                Some((index, server))
            })
            .collect()
    }
}

/// The files of `session` on disk, in the order written (each once; a glob's in path
/// order): a path is taken as it is (it must exist), a glob is matched below its literal
/// directory.
pub fn session_files(config: &Config, session: &Session) -> Result<Vec<PathBuf>> {
    let base = Base::new(&config.root);
    let mut files: Vec<PathBuf> = Vec::new();
    let mut seen = HashSet::new();
    for file in &session.files {
        let written = file.path.value.trim_start_matches("./");
        if !is_glob(written) {
            let path = config.root.join(written);
            if !path.is_file() {
                return Err(config.error_at(
                    &file.path.span,
                    format!(
                        "`{}` of the session `{}` is not a file",
                        path.display(),
                        session.name.value
                    ),
                ));
            }
            if seen.insert(path.clone()) {
                files.push(path);
            }
            continue;
        }
        let pattern = Pattern::new(&base, &file.path.value)
            .map_err(|error| config.error_at(&file.path.span, error))?;
        // The directories before the first wildcard: the walk starts there.
        let literal: Vec<&str> = written
            .split('/')
            .take_while(|part| !part.contains(['*', '?', '[', '{']))
            .collect();
        let dir = config.root.join(literal.join("/"));
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        let mut matched = Vec::new();
        let walker = ignore::WalkBuilder::new(&dir)
            .hidden(false)
            .git_ignore(false)
            .git_global(false)
            .git_exclude(false)
            .ignore(false)
            .parents(false)
            .follow_links(true)
            .build();
        for entry in walker.flatten() {
            if entry.file_type().is_some_and(|kind| kind.is_file())
                && pattern.matches(&base.name(entry.path()))
            {
                let path = entry.path();
                matched.push(path.strip_prefix(".").unwrap_or(path).to_path_buf());
            }
        }
        matched.sort();
        files.extend(matched.into_iter().filter(|path| seen.insert(path.clone())));
    }
    Ok(files)
}

/// Session `name` of `config`, its files read, and each file's server name (in file order).
pub struct SessionInputs<'a> {
    pub session: &'a Session,
    pub inputs: Vec<crate::read::Input>,
    pub servers: Vec<String>,
}

/// Reads the files of session `name` (`tokens --session`, `search --session`).
pub fn session_inputs<'a>(config: &'a Config, name: &str) -> Result<SessionInputs<'a>> {
    let Some(index) = config.sessions.iter().position(|s| s.name.value == name) else {
        let names = config.sessions.iter().map(|s| s.name.value.as_str());
        let error = Error::new(format!("no session named `{name}`"));
        return Err(match did_you_mean(name, names) {
            Some(close) => error.with_help(format!("did you mean `{close}`?")),
            None if config.sessions.is_empty() => error.with_help(
                "declare it under `sessions:` in toolcheck.yaml: \
                 `{name: dev-laptop, host: claude-code, files: [...]}`",
            ),
            None => error.with_help(format!(
                "the sessions of {}: {}",
                config
                    .file
                    .as_ref()
                    .map_or("the config", |f| f.name.as_str()),
                config
                    .sessions
                    .iter()
                    .map(|s| s.name.value.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        });
    };
    let session = &config.sessions[index];
    let files = session_files(config, session)?;
    if files.is_empty() {
        return Err(config.error_at(
            &session.name.span,
            format!("the files of the session `{name}` match no file"),
        ));
    }
    let paths: Vec<crate::read::discover::InputPath> = files
        .into_iter()
        .map(crate::read::discover::InputPath::File)
        .collect();
    let (inputs, errors) = crate::read::read_paths(&paths, None, config.max_file_size);
    let inputs = crate::error::Error::after(errors, Ok(inputs))?;
    let resolved = Sessions::resolve(config)?;
    let servers = inputs
        .iter()
        .map(|input| {
            resolved
                .of(&input.name)
                .into_iter()
                .find(|(session, _)| *session == index)
                .map_or_else(|| server_of_path(&input.name), |(_, server)| server)
        })
        .collect();
    Ok(SessionInputs {
        session,
        inputs,
        servers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::source::SourceFile;

    fn parse(text: &str) -> (Config, Vec<String>) {
        let file = SourceFile::new("toolcheck.yaml", text.to_string());
        let (config, errors) = Config::parse_all(file, ".".into()).unwrap();
        let errors = errors
            .iter()
            .map(|error| {
                let at = error.location.as_ref().map_or(0, |(_, span)| span.start);
                format!("{at}: {}", error.message)
            })
            .collect();
        (config, errors)
    }

    #[test]
    fn a_session_reads_its_name_host_window_and_files() {
        let (config, errors) = parse(
            "sessions:\n  - name: dev\n    host: claude-code\n    window: 1000000\n    files:\n      \
             - a/github.json\n      - {path: b.json, server: fs}\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let session = &config.sessions[0];
        assert_eq!(session.name.value, "dev");
        assert_eq!(session.host.value, "claude-code");
        assert_eq!(session.window, 1_000_000);
        assert_eq!(session.files.len(), 2);
        assert_eq!(session.files[1].server.as_deref(), Some("fs"));
        let sessions = Sessions::resolve(&config).unwrap();
        assert_eq!(
            sessions.of("a/github.json"),
            vec![(0, "github".to_string())]
        );
        assert_eq!(sessions.of("./b.json"), vec![(0, "fs".to_string())]);
        assert!(sessions.of("c.json").is_empty());
        assert_eq!(server_of_path("x/github.tools.json"), "github");
    }

    #[test]
    fn every_mistake_is_an_error_at_its_key_or_value() {
        let text = "sessions:\n  - name: dev\n    host: claude-cod\n    windw: 5\n    files: []\n  \
                    - name: dev\n    host: anthropic\n    window: -3\n    files: [{server: x}]\n  \
                    - host: anthropic\n    files: [a.json]\n  - 7\n";
        let (config, errors) = parse(text);
        let has = |part: &str| errors.iter().any(|error| error.contains(part));
        assert!(has("unknown host `claude-cod`"), "{errors:?}");
        assert!(has("unknown config key `windw`"), "{errors:?}");
        assert!(has("expected a non-empty list of files"), "{errors:?}");
        assert!(has("expected a number of tokens"), "{errors:?}");
        assert!(has("a session file needs `path`"), "{errors:?}");
        assert!(has("a session needs `name`"), "{errors:?}");
        assert!(has("expected a mapping, found"), "{errors:?}");
        assert!(config.sessions.is_empty(), "{:?}", config.sessions);
        let (_, errors) = parse(
            "sessions:\n  - {name: a, host: anthropic, files: [x.json]}\n  \
             - {name: a, host: anthropic, files: [y.json]}\n",
        );
        assert!(
            errors
                .iter()
                .any(|e| e.contains("two sessions are named `a`"))
        );
        let (_, errors) = parse("sessions: {name: a}\n");
        assert!(
            errors[0].contains("expected a list of sessions"),
            "{errors:?}"
        );
    }
}
