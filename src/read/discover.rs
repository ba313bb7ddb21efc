//! Which files a run lints: explicit files always, directories walked with `include` /
//! `exclude` and `.gitignore`, `-` for standard input. The order is sorted and stable.

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
        let mut explicit = Vec::new();
        let mut walked = Vec::new();
        for path in paths {
            if path.as_os_str() == "-" {
                explicit.push(Target::Stdin);
            } else if path.is_dir() {
                walked.extend(self.walk(path)?);
            } else if path.exists() {
                explicit.push(Target::File(path.clone()));
            } else {
                return Err(Error::new(format!(
                    "path `{}` does not exist",
                    path.display()
                )));
            }
        }
        walked.sort();
        walked.dedup();
        // A set, not `Vec::contains`: a directory of thousands of files would be quadratic.
        let named: std::collections::BTreeSet<Target> = explicit.iter().cloned().collect();
        let mut targets = explicit;
        targets.extend(walked.into_iter().filter(|target| !named.contains(target)));
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

    fn walk(&self, dir: &Path) -> Result<Vec<Target>> {
        let mut found = Vec::new();
        let walker = ignore::WalkBuilder::new(dir)
            .hidden(false)
            .git_ignore(true)
            .require_git(false)
            .filter_entry(|entry| entry.file_name() != ".git")
            .build();
        for entry in walker {
            let entry = entry
                .map_err(|error| Error::new(format!("cannot read `{}`: {error}", dir.display())))?;
            if !entry.file_type().is_some_and(|kind| kind.is_file()) {
                continue;
            }
            let path = entry.path();
            let relative = path.strip_prefix(dir).unwrap_or(path);
            if self.include.is_match(relative)
                && !self.exclude.is_match(relative)
                && !self.exclude.is_match(path)
            {
                found.push(Target::File(path.to_path_buf()));
            }
        }
        Ok(found)
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
    fn each_file_once_named_files_first() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/examples");
        let discovery = Discovery::new(&["**/*.tool*.{yaml,json}".to_string()], &[]).unwrap();
        let named = root.join("search.tools.json");
        let targets = discovery
            .discover(&[named.clone(), root.clone(), root.clone()])
            .unwrap();
        assert_eq!(
            targets,
            vec![
                Target::File(named),
                Target::File(root.join("ask_user_question.tool.yaml")),
            ]
        );
    }
}
