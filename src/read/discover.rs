//! Which files a run lints: explicit files always, directories walked with `include` /
//! `exclude` and `.gitignore` (symbolic links followed), `-` for standard input. Each file is
//! linted once, however many names reach it, and the order is sorted by path (standard input
//! first), whatever the order of the command line.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::error::{Error, Result};

/// A path to lint, or standard input.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    File(PathBuf),
    Stdin,
}

pub struct Discovery {
    include: GlobSet,
    exclude: GlobSet,
    include_patterns: Vec<String>,
}

impl Discovery {
    pub fn new(include: &[String], exclude: &[String]) -> Result<Discovery> {
        Ok(Discovery {
            include: glob_set(include)?,
            exclude: glob_set(exclude)?,
            include_patterns: include.to_vec(),
        })
    }

    /// The files to lint for `paths` (the current directory when empty).
    pub fn discover(&self, paths: &[PathBuf]) -> Result<Vec<Target>> {
        let default = [PathBuf::from(".")];
        let paths = if paths.is_empty() {
            &default[..]
        } else {
            paths
        };
        let mut found = Vec::new();
        let mut stdin = false;
        for path in paths {
            if path.as_os_str() == "-" {
                stdin = true;
            } else if path.is_dir() {
                found.extend(self.walk(path)?);
            } else if path.exists() {
                found.push(path.clone());
            } else if path.symlink_metadata().is_ok() {
                return Err(Error::new(format!(
                    "`{}` is a symbolic link that cannot be followed",
                    path.display()
                ))
                .with_help("its target does not exist, or the links form a loop"));
            } else {
                return Err(Error::new(format!(
                    "path `{}` does not exist",
                    path.display()
                )));
            }
        }
        // One file, one report: `a.json` and `./a.json`, or a link and its target, are the same
        // file. The name first in path order wins, whatever order the walk found them in.
        found.sort_by_cached_key(|path| display_name(path));
        let mut seen = std::collections::HashSet::new();
        found.retain(|path| seen.insert(std::fs::canonicalize(path).unwrap_or(path.clone())));
        let targets: Vec<Target> = stdin
            .then_some(Target::Stdin)
            .into_iter()
            .chain(found.into_iter().map(Target::File))
            .collect();
        if targets.is_empty() {
            return Err(Error::new(format!(
                "no files to lint in {} (include: {})",
                paths
                    .iter()
                    .map(|p| format!("`{}`", p.display()))
                    .collect::<Vec<_>>()
                    .join(", "),
                self.include_patterns.join(", ")
            ))
            .with_help(
                "name files explicitly, or set `include` in toolcheck.yaml to match your manifests",
            ));
        }
        Ok(targets)
    }

    fn walk(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        let mut found = Vec::new();
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
                    return Err(Error::new(format!(
                        "cannot read `{}`: {error}",
                        dir.display()
                    )));
                }
            };
            if !entry.file_type().is_some_and(|kind| kind.is_file()) {
                continue;
            }
            let path = entry.path();
            let relative = path.strip_prefix(dir).unwrap_or(path);
            if self.include.is_match(relative)
                && !self.exclude.is_match(relative)
                && !self.exclude.is_match(path)
            {
                found.push(path.to_path_buf());
            }
        }
        Ok(found)
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

fn glob_set(patterns: &[String]) -> Result<GlobSet> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let glob = Glob::new(pattern)
            .map_err(|error| Error::new(format!("invalid glob `{pattern}`: {error}")))?;
        builder.add(glob);
    }
    builder
        .build()
        .map_err(|error| Error::new(format!("invalid globs: {error}")))
}

#[cfg(test)]
mod tests {
    use super::{Discovery, Target};
    use std::path::PathBuf;

    #[test]
    fn each_file_once_sorted_by_path() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/examples");
        let discovery = Discovery::new(&["**/*.tool*.{yaml,json}".to_string()], &[]).unwrap();
        let named = root.join("search.tools.json");
        let again = root.join(".").join("search.tools.json");
        let targets = discovery
            .discover(&[named.clone(), root.clone(), again, root.clone()])
            .unwrap();
        assert_eq!(
            targets,
            vec![
                Target::File(root.join("ask_user_question.tool.yaml")),
                Target::File(named),
            ]
        );
    }
}
