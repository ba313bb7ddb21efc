//! Which files a run lints: explicit files always, directories walked with `include` /
//! `exclude` and `.gitignore` (symbolic links followed), `-` for standard input. Each file is
//! linted once, however many names reach it, and the order is sorted by path (standard input
//! first), whatever the order of the command line. Globs match a file by its path relative to
//! their own directory ([`crate::read::globs`]): the config file's for its globs, the
//! working directory for the command line's.
//!
//! With `discovery: content`, a walked directory's `.json`, `.yaml` and `.yml` files whose
//! content is a tool definition are linted too. Without it, a walked directory where
//! `include` matches nothing but such files exist is reported with the commands that would
//! lint them ([`Unmatched`]), never silently skipped.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::read::globs::{Globs, Name, slashed};
use crate::read::sniff;

/// A path to lint, or standard input.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum InputPath {
    File(PathBuf),
    Stdin,
}

/// How the files of a walked directory are chosen (`discovery:`, `--discovery`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DiscoveryMode {
    /// The files whose path matches `include`.
    #[default]
    Include,
    /// Those, and the JSON and YAML files whose content is a tool definition, whatever their
    /// names (a directory of MCP `tools/list` captures).
    Content,
}

impl DiscoveryMode {
    pub fn parse(text: &str) -> Option<DiscoveryMode> {
        match text {
            "include" => Some(DiscoveryMode::Include),
            "content" => Some(DiscoveryMode::Content),
            _ => None,
        }
    }
}

/// What the config says about discovery (`include`, `exclude`, `discovery:`), which `config`
/// reads.
#[derive(Debug, Clone, Copy)]
pub struct DiscoverySettings<'a> {
    /// The directory the globs are written relative to: the config file's.
    pub root: &'a Path,
    pub include: &'a [String],
    pub exclude: &'a [String],
    pub mode: DiscoveryMode,
    /// Whether a walk reads the tools that source files (`.ts`, `.js`, …) register.
    pub source_files: bool,
}

/// What the command line says about discovery; it applies over the config. Its globs are
/// relative to the working directory.
#[derive(Debug, Default, Clone)]
pub struct DiscoveryOverrides {
    /// Replaces `include`.
    pub include: Option<Vec<String>>,
    /// Replaces `exclude`.
    pub exclude: Option<Vec<String>>,
    /// Excluded as well as `exclude`.
    pub extend_exclude: Vec<String>,
    pub mode: Option<DiscoveryMode>,
}

pub struct Discovery {
    pub(crate) include: Globs,
    /// The config's or the command line's `exclude`, and `--extend-exclude`.
    pub(crate) exclude: Vec<Globs>,
    pub(crate) mode: DiscoveryMode,
    source_files: bool,
    /// The command that runs it (`toolcheck lint`), for the commands a hint suggests.
    command: String,
}

/// The files to lint, and the walked directories whose tool files `include` missed.
#[derive(Debug)]
pub struct Found {
    pub paths: Vec<InputPath>,
    pub unmatched: Vec<Unmatched>,
    /// Paths that could not be found or walked, one error each: the other files are still
    /// linted, and the run fails.
    pub errors: Vec<Error>,
    /// What a walk left out and why (a link to nothing where a file would be linted).
    pub skipped: Vec<String>,
}

/// A walked directory where `include` matched nothing, though some of its files hold tool
/// definitions.
#[derive(Debug)]
pub struct Unmatched {
    dir: PathBuf,
    /// The files that hold tools, in path order.
    manifests: Vec<PathBuf>,
    /// Whether every `.json`/`.yaml`/`.yml` file of the directory with one of the manifests'
    /// extensions holds tools: then an `--include` by extension lints exactly these.
    only_manifests: bool,
    command: String,
}

/// A path given that is not there: a link to nothing (or a loop of links), or no file at all.
fn missing(path: &Path) -> Error {
    if path.symlink_metadata().is_ok() {
        return Error::new(format!(
            "`{}` is a symbolic link that cannot be followed",
            path.display()
        ))
        .with_help("its target does not exist, or the links form a loop");
    }
    Error::new(format!("path `{}` does not exist", path.display()))
}

impl Discovery {
    /// The discovery of the config's `settings` with the command line's `overrides`, for
    /// `command`: its name and the arguments that come before the paths (`search 'a query'`).
    pub fn new(
        settings: DiscoverySettings<'_>,
        overrides: &DiscoveryOverrides,
        command: &str,
    ) -> Result<Self> {
        // The command line's globs are relative to the working directory.
        let cwd = Path::new(".");
        let include = match &overrides.include {
            Some(include) => Globs::new(cwd, include)?,
            None => Globs::new(settings.root, settings.include)?,
        };
        let mut exclude = vec![match &overrides.exclude {
            Some(exclude) => Globs::new(cwd, exclude)?,
            None => Globs::new(settings.root, settings.exclude)?,
        }];
        if !overrides.extend_exclude.is_empty() {
            exclude.push(Globs::new(cwd, &overrides.extend_exclude)?);
        }
        Ok(Discovery {
            include,
            exclude,
            mode: overrides.mode.unwrap_or(settings.mode),
            source_files: settings.source_files,
            command: format!("toolcheck {command}"),
        })
    }

    /// The files to lint for `paths` (the current directory when empty).
    pub fn discover(&self, paths: &[PathBuf]) -> Result<Found> {
        let default = [PathBuf::from(".")];
        let paths = if paths.is_empty() {
            &default[..]
        } else {
            paths
        };
        let mut found = Vec::new();
        let mut unmatched = Vec::new();
        let mut errors = Vec::new();
        let mut skipped = Vec::new();
        let mut stdin = false;
        for path in paths {
            if path.as_os_str() == "-" {
                stdin = true;
            } else if path.is_dir() {
                let mut walked = self.walk(path);
                errors.append(&mut walked.errors);
                skipped.append(&mut walked.skipped);
                let sniff = match self.mode {
                    DiscoveryMode::Content => true,
                    // Only to say what would lint them.
                    DiscoveryMode::Include => walked.matched.is_empty(),
                };
                let manifests = if sniff {
                    holding_tools(&walked.candidates)
                } else {
                    Vec::new()
                };
                found.extend(walked.matched);
                found.extend(registering_tools(&walked.sources));
                match self.mode {
                    DiscoveryMode::Content => found.extend(manifests),
                    DiscoveryMode::Include if !manifests.is_empty() => {
                        let only_manifests = same_extensions(&walked.candidates, &manifests);
                        unmatched.push(Unmatched {
                            dir: path.clone(),
                            manifests,
                            only_manifests,
                            command: self.command.clone(),
                        });
                    }
                    DiscoveryMode::Include => {}
                }
            } else if path.exists() {
                found.push(path.clone());
            } else {
                errors.push(missing(path));
            }
        }
        // One file, one report: `a.json` and `./a.json`, or a link and its target, are the same
        // file. The name first in path order wins, whatever order the walk found them in.
        found.sort_by_cached_key(|path| display_name(path));
        let mut seen = std::collections::HashSet::new();
        found.retain(|path| seen.insert(std::fs::canonicalize(path).unwrap_or(path.clone())));
        let found_paths: Vec<InputPath> = stdin
            .then_some(InputPath::Stdin)
            .into_iter()
            .chain(found.into_iter().map(InputPath::File))
            .collect();
        if found_paths.is_empty() && !errors.is_empty() {
            // Nothing to lint but what failed: the failures are the answer.
            let first = errors.remove(0);
            return Err(Error::many(first, errors));
        }
        if found_paths.is_empty() {
            return Err(self.nothing_to_lint(paths, &unmatched));
        }
        Ok(Found {
            paths: found_paths,
            unmatched,
            errors,
            skipped,
        })
    }

    /// No file found under `paths`: what `include` is, and what would lint the manifests
    /// it missed.
    fn nothing_to_lint(&self, paths: &[PathBuf], unmatched: &[Unmatched]) -> Error {
        let error = Error::new(format!(
            "no files to {} in {} (include: {})",
            verb(&self.command),
            paths
                .iter()
                .map(|p| format!("`{}`", p.display()))
                .collect::<Vec<_>>()
                .join(", "),
            self.include.written().join(", ")
        ));
        if unmatched.is_empty() {
            error.with_help(
                "name files explicitly, or set `include` in toolcheck.yaml to match your \
                 manifests",
            )
        } else {
            let hints: Vec<String> = unmatched.iter().map(Unmatched::hint).collect();
            error.with_help(hints.join("\n"))
        }
    }

    /// Whether the walk of `dir` would lint the file at `path` (below `dir`): included, not
    /// excluded, or a candidate manifest.
    fn would_lint(&self, dir: &Path, path: &Path) -> bool {
        let relative = slashed(path.strip_prefix(dir).unwrap_or(path));
        let excluded = self
            .exclude
            .iter()
            .any(|globs| globs.matches(&globs.base().name(dir).join(&relative)));
        !excluded
            && (self
                .include
                .matches(&self.include.base().name(dir).join(&relative))
                || sniff::manifest_extension(path).is_some())
    }

    fn walk(&self, dir: &Path) -> Walked {
        let mut walked = Walked::default();
        // Each glob set names the walked directory once; a file is named below it.
        let include_dir = self.include.base().name(dir);
        let exclude_dirs: Vec<Name> = self
            .exclude
            .iter()
            .map(|globs| globs.base().name(dir))
            .collect();
        let walker = ignore::WalkBuilder::new(dir)
            .hidden(false)
            .git_ignore(true)
            .require_git(false)
            .follow_links(true)
            .filter_entry(|entry| entry.file_name() != ".git")
            .build();
        for entry in walker {
            let entry = match entry {
                Ok(entry) => entry,
                // A link back up the tree: everything below it is walked already.
                Err(error) if is_loop(&error) => continue,
                Err(error) => {
                    // A file the walk would not lint is never looked at, whatever is wrong with
                    // it (an editor's `.#name` lock file is a link to nothing); a directory that
                    // cannot be read may hold some.
                    let path = error_path(&error);
                    if path.is_some_and(|path| !path.is_dir() && !self.would_lint(dir, path)) {
                        continue;
                    }
                    if let Some(path) = path.filter(|path| is_dangling_link(path)) {
                        walked.skipped.push(format!(
                            "skipped `{}`: a symbolic link to nothing",
                            path.display()
                        ));
                        continue;
                    }
                    let at = path.unwrap_or(dir);
                    walked.errors.push(Error::new(format!(
                        "cannot read `{}`: {}",
                        at.display(),
                        io_cause(&error)
                    )));
                    continue;
                }
            };
            if !entry.file_type().is_some_and(|kind| kind.is_file()) {
                continue;
            }
            let path = entry.path();
            let relative = slashed(path.strip_prefix(dir).unwrap_or(path));
            let excluded = self
                .exclude
                .iter()
                .zip(&exclude_dirs)
                .any(|(globs, dir)| globs.matches(&dir.join(&relative)));
            if excluded {
                continue;
            }
            if self.include.matches(&include_dir.join(&relative)) {
                walked.matched.push(path.to_path_buf());
            } else if sniff::manifest_extension(path).is_some() {
                walked.candidates.push(path.to_path_buf());
            } else if self.source_files && sniff::is_source(path) && !in_dependencies(&relative) {
                walked.sources.push(path.to_path_buf());
            }
        }
        walked
    }
}

/// The files of one walked directory.
#[derive(Default)]
struct Walked {
    /// Matched by `include`, not excluded.
    matched: Vec<PathBuf>,
    /// Not matched by `include`, not excluded, named `.json`, `.yaml` or `.yml`.
    candidates: Vec<PathBuf>,
    /// Not matched by `include`, not excluded, source files (`.ts`, `.js`, …) outside
    /// installed dependencies.
    sources: Vec<PathBuf>,
    /// Entries the walk would lint but could not read.
    errors: Vec<Error>,
    skipped: Vec<String>,
}

/// The path a walk error is about.
fn error_path(error: &ignore::Error) -> Option<&Path> {
    match error {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        _ => None,
    }
}

/// What went wrong, without the path the message already names.
fn io_cause(error: &ignore::Error) -> String {
    match error {
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => io_cause(err),
        ignore::Error::Io(error) => error.to_string(),
        other => other.to_string(),
    }
}

/// A symbolic link whose target does not exist.
fn is_dangling_link(path: &Path) -> bool {
    path.symlink_metadata()
        .is_ok_and(|meta| meta.file_type().is_symlink())
        && std::fs::metadata(path).is_err()
}

/// The `candidates` that hold tool definitions, in path order (read on all cores).
fn holding_tools(candidates: &[PathBuf]) -> Vec<PathBuf> {
    let holds =
        crate::parallel::map_in_order(candidates.iter().collect(), |path| sniff::holds_tools(path));
    let mut manifests: Vec<PathBuf> = candidates
        .iter()
        .zip(holds)
        .filter(|(_, holds)| *holds)
        .map(|(path, _)| path.clone())
        .collect();
    manifests.sort_by_cached_key(|path| display_name(path));
    manifests
}

/// The `sources` that register tools (read on all cores).
fn registering_tools(sources: &[PathBuf]) -> Vec<PathBuf> {
    let registers = crate::parallel::map_in_order(sources.iter().collect(), |path| {
        sniff::registers_tools(path)
    });
    sources
        .iter()
        .zip(registers)
        .filter(|(_, registers)| *registers)
        .map(|(path, _)| path.clone())
        .collect()
}

/// Whether a walked file is inside installed packages (`node_modules`, a virtual
/// environment's `site-packages`, a Go module's `vendor`), whose tools are not the project's to
/// lint (as ruff and eslint leave them out).
fn in_dependencies(relative: &str) -> bool {
    let go = relative.ends_with(".go");
    relative.split('/').any(|part| {
        matches!(
            part,
            "node_modules" | "site-packages" | "dist-packages" | "__pypackages__"
        ) || (go && part == "vendor")
    })
}

/// Whether every candidate with one of the manifests' extensions is a manifest.
fn same_extensions(candidates: &[PathBuf], manifests: &[PathBuf]) -> bool {
    let extensions: Vec<String> = extensions(manifests);
    let with_those = candidates
        .iter()
        .filter(|path| extensions.contains(&extension(path)))
        .count();
    with_those == manifests.len()
}

fn extension(path: &Path) -> String {
    path.extension()
        .map(|extension| extension.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The distinct extensions of `paths`, sorted.
fn extensions(paths: &[PathBuf]) -> Vec<String> {
    let mut extensions: Vec<String> = paths.iter().map(|path| extension(path)).collect();
    extensions.sort();
    extensions.dedup();
    extensions
}

impl Unmatched {
    /// What to tell the user: how many files hold tools, one of them, and the commands that
    /// would lint them.
    pub fn hint(&self) -> String {
        let dir = display_name(&self.dir);
        let count = self.manifests.len();
        let example = self
            .manifests
            .first()
            .map(|path| display_name(path))
            .unwrap_or_default();
        let mut commands = Vec::new();
        let command = &self.command;
        // The command's path argument: none for the working directory.
        let argument = if dir == "." {
            String::new()
        } else {
            format!(" {}", shell_word(&dir))
        };
        if self.only_manifests {
            let extensions = extensions(&self.manifests);
            let all_at_top = self
                .manifests
                .iter()
                .all(|path| path.parent() == Some(self.dir.as_path()));
            if let ([extension], true) = (extensions.as_slice(), all_at_top) {
                let files = match dir.as_str() {
                    "." => format!("*.{extension}"),
                    _ => format!("{}/*.{extension}", shell_word(&dir)),
                };
                commands.push(format!("{command} {files}"));
            }
            let pattern = match extensions.as_slice() {
                [one] => format!("**/*.{one}"),
                many => format!("**/*.{{{}}}", many.join(",")),
            };
            commands.push(format!("{command} --include '{pattern}'{argument}"));
        }
        commands.push(format!("{command} --discovery content{argument}"));
        let verb = verb(command);
        let what = match count {
            1 => format!(
                "`{example}` holds tool definitions, but `include` does not match its name; \
                 {verb} it with:"
            ),
            _ => format!(
                "{count} files in `{dir}` hold tool definitions, but `include` does not match \
                 their names (e.g. `{example}`); {verb} them with:"
            ),
        };
        let commands: Vec<String> = commands
            .iter()
            .map(|command| format!("  {command}"))
            .collect();
        format!(
            "{what}\n{}\nor set `discovery: content` in toolcheck.yaml",
            commands.join("\n")
        )
    }
}

/// What `command` (`toolcheck tokens ...`) does to the files it is given, for messages.
fn verb(command: &str) -> &'static str {
    match command.split_whitespace().nth(1) {
        Some("tokens") => "count",
        Some("search") => "search",
        Some("compat") => "check",
        Some("diff") => "compare",
        _ => "lint",
    }
}

/// `word` as typed in a shell: quoted when it holds anything but plain path characters.
pub fn shell_word(word: &str) -> String {
    let plain = word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._/-+@%:,=".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The name a path is reported under, which the order follows: as given, without `.`
/// components (`./a/./b.json` is `a/b.json`).
pub fn display_name(path: &Path) -> String {
    let parts = path
        .components()
        .filter(|part| !matches!(part, std::path::Component::CurDir));
    let name = parts.collect::<PathBuf>().display().to_string();
    if name.is_empty() {
        ".".to_string()
    } else {
        name
    }
}

fn is_loop(error: &ignore::Error) -> bool {
    match error {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. } | ignore::Error::WithDepth { err, .. } => is_loop(err),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{Discovery, DiscoveryOverrides, InputPath};
    use crate::config::Config;
    use std::path::PathBuf;

    #[test]
    fn each_file_once_sorted_by_path() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/examples");
        let overrides = DiscoveryOverrides {
            include: Some(vec!["**/*.tool*.{yaml,json}".to_string()]),
            ..DiscoveryOverrides::default()
        };
        let config = Config::defaults(".".into());
        let discovery = Discovery::new(config.discovery_settings(), &overrides, "lint").unwrap();
        let named = root.join("search.tools.json");
        let again = root.join(".").join("search.tools.json");
        let targets = discovery
            .discover(&[named.clone(), root.clone(), again, root.clone()])
            .unwrap()
            .paths;
        assert_eq!(
            targets,
            vec![
                InputPath::File(root.join("ask_user_question.tool.yaml")),
                InputPath::File(named),
            ]
        );
    }
}
