//! The two sides of a diff: two files, two directories (their files paired by relative path),
//! or the files of some paths at a git revision (read with `git ls-tree` and `git cat-file`,
//! without a checkout) against the working tree or another revision.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::config::Config;
use crate::error::{Error, Result};
use crate::read::Input;
use crate::read::discover::{
    Discovery, DiscoveryMode, DiscoveryOverrides, InputPath, display_name,
};
use crate::read::globs::slashed;
use crate::read::sniff;

/// What to compare.
#[derive(Debug, Clone)]
pub enum Spec {
    /// Two files, or two directories.
    Paths { old: PathBuf, new: PathBuf },
    /// `paths` at the revision `old`, against the working tree (`new` is `None`) or the
    /// revision `new`.
    Git {
        old: String,
        new: Option<String>,
        paths: Vec<PathBuf>,
    },
}

/// One side's files, each with the key it is paired by (the relative path; `""` for the one
/// file of a file-to-file diff).
#[derive(Debug, Default)]
pub struct Side {
    /// What the side is, for the report's header (`old.json`, `main`, `working tree`).
    pub label: String,
    pub files: Vec<(String, Input)>,
}

/// Reads both sides of `spec`, with the discovery of `config` and the command line.
pub fn load(
    spec: &Spec,
    config: &Config,
    overrides: &DiscoveryOverrides,
    max: u64,
) -> Result<(Side, Side)> {
    match spec {
        Spec::Paths { old, new } => {
            let (old_dir, new_dir) = (old.is_dir(), new.is_dir());
            for path in [old, new] {
                if !path.exists() {
                    return Err(Error::new(format!(
                        "path `{}` does not exist",
                        path.display()
                    )));
                }
            }
            if old_dir != new_dir {
                return Err(Error::new(format!(
                    "`{}` is a {} but `{}` is a {}",
                    old.display(),
                    if old_dir { "directory" } else { "file" },
                    new.display(),
                    if new_dir { "directory" } else { "file" },
                ))
                .with_help(
                    "compare two files or two directories (files are paired by their path \
                     below each directory)",
                ));
            }
            let discovery = Discovery::new(config.discovery_settings(), overrides, "diff")?;
            let side = |path: &Path| -> Result<Side> {
                let label = display_name(path);
                if !old_dir {
                    let bytes = crate::read::read_file(path, "file", max)?;
                    let input = Input {
                        name: label.clone(),
                        bytes,
                    };
                    return Ok(Side {
                        label,
                        files: vec![(String::new(), input)],
                    });
                }
                let found = discovery.discover(&[path.to_path_buf()])?;
                let mut files = Vec::with_capacity(found.paths.len());
                for input in found.paths {
                    let InputPath::File(file) = input else {
                        continue;
                    };
                    let key = slashed(file.strip_prefix(path).unwrap_or(&file));
                    let name = display_name(&file);
                    let bytes = crate::read::read_file(&file, "file", max)?;
                    files.push((key, Input { name, bytes }));
                }
                Ok(Side { label, files })
            };
            Ok((side(old)?, side(new)?))
        }
        Spec::Git { old, new, paths } => {
            let default = [PathBuf::from(".")];
            let paths = if paths.is_empty() {
                &default[..]
            } else {
                paths
            };
            let filter = Filter::new(config, overrides)?;
            // Files are paired by their path in the repository, whatever the working directory.
            let prefix = String::from_utf8_lossy(&git(&["rev-parse", "--show-prefix"], None)?)
                .trim()
                .to_string();
            let old_side = at_revision(old, paths, &prefix, &filter, max)?;
            let new_side = match new {
                Some(new) => at_revision(new, paths, &prefix, &filter, max)?,
                None => working_tree(paths, &prefix, config, overrides, max)?,
            };
            if old_side.files.is_empty() && new_side.files.is_empty() {
                return Err(Error::new(format!(
                    "no tool files in {} at `{old}` nor {}",
                    list(paths),
                    new.as_ref()
                        .map_or("in the working tree".to_string(), |new| format!(
                            "at `{new}`"
                        ))
                ))
                .with_help("name the files or directories that hold your tool definitions"));
            }
            Ok((old_side, new_side))
        }
    }
}

fn list(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|path| format!("`{}`", path.display()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The working tree's files of `paths` (those that still exist), discovered as `lint` does.
fn working_tree(
    paths: &[PathBuf],
    prefix: &str,
    config: &Config,
    overrides: &DiscoveryOverrides,
    max: u64,
) -> Result<Side> {
    let existing: Vec<PathBuf> = paths.iter().filter(|p| p.exists()).cloned().collect();
    let mut side = Side {
        label: "working tree".to_string(),
        files: Vec::new(),
    };
    if existing.is_empty() {
        return Ok(side);
    }
    let found =
        Discovery::new(config.discovery_settings(), overrides, "diff")?.discover(&existing)?;
    for input in found.paths {
        if let InputPath::File(file) = input {
            let name = display_name(&file);
            let bytes = crate::read::read_file(&file, "file", max)?;
            side.files
                .push((in_repository(prefix, &name), Input { name, bytes }));
        }
    }
    Ok(side)
}

/// Which files of a directory at a revision are read: the discovery's `include` and `exclude`
/// (and, with `discovery: content`, the JSON and YAML files that hold tools), as `lint` reads a
/// walked directory.
struct Filter {
    discovery: Discovery,
}

impl Filter {
    fn new(config: &Config, overrides: &DiscoveryOverrides) -> Result<Filter> {
        Ok(Filter {
            discovery: Discovery::new(config.discovery_settings(), overrides, "diff")?,
        })
    }

    /// `Some(true)`: read it; `Some(false)`: skip it; `None`: read it if it holds tools.
    fn wants(&self, dir: &Path, relative: &str) -> Option<bool> {
        let Discovery {
            include,
            exclude,
            mode,
            ..
        } = &self.discovery;
        let excluded = exclude
            .iter()
            .any(|globs| globs.matches(&globs.base().name(dir).join(relative)));
        if excluded {
            return Some(false);
        }
        if include.matches(&include.base().name(dir).join(relative)) {
            return Some(true);
        }
        let candidate = *mode == DiscoveryMode::Content
            && sniff::manifest_extension(Path::new(relative)).is_some();
        if candidate { None } else { Some(false) }
    }
}

/// Runs git with `args` in the working directory; its standard output.
fn git(args: &[&str], input: Option<&[u8]>) -> Result<Vec<u8>> {
    let mut child = Command::new("git")
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| {
            Error::new(format!("cannot run `git`: {error}")).with_help(
                "install git, or compare two checkouts with `toolcheck diff OLD_DIR NEW_DIR`",
            )
        })?;
    // Written from another thread: git's output would otherwise fill its pipe and both wait.
    let writer = input.map(|bytes| {
        let mut stdin = child.stdin.take();
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            if let Some(stdin) = stdin.as_mut() {
                let _ = stdin.write_all(&bytes);
            }
        })
    });
    let output = child
        .wait_with_output()
        .map_err(|error| Error::new(format!("cannot run `git`: {error}")))?;
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(Error::new(format!(
            "`git {}` failed: {}",
            args.join(" "),
            stderr.trim()
        )));
    }
    Ok(output.stdout)
}

/// The path in the repository of `name` (relative to the working directory, which is
/// `prefix` in the repository, as `git rev-parse --show-prefix` says), resolved in the text.
fn in_repository(prefix: &str, name: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in prefix.split('/').chain(name.split('/')) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    parts.join("/")
}

/// The files of `paths` at `revision`.
fn at_revision(
    revision: &str,
    paths: &[PathBuf],
    prefix: &str,
    filter: &Filter,
    max: u64,
) -> Result<Side> {
    if revision.is_empty() || revision.starts_with('-') {
        return Err(Error::new(format!("`{revision}` is not a git revision")));
    }
    let commit = format!("{revision}^{{commit}}");
    if git(&["rev-parse", "--verify", "--quiet", &commit], None).is_err() {
        return Err(
            Error::new(format!("`{revision}` is not a commit of this repository")).with_help(
                "fetch it first (`git fetch origin main`); in GitHub Actions, check out with \
             `fetch-depth: 0` so the base commit is there",
            ),
        );
    }
    let mut args = vec!["ls-tree", "-r", "-z", "--full-name", revision, "--"];
    let written: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    args.extend(written.iter().map(String::as_str));
    let listing = git(&args, None)?;
    // Each path argument: its path in the repository (as ls-tree names the files), and the
    // argument as written, which the files below it are named after.
    let roots: Vec<(String, PathBuf)> = paths
        .iter()
        .map(|path| (in_repository(prefix, &display_name(path)), path.clone()))
        .collect();
    let chosen = choose(&listing, &roots, filter);
    let blobs = read_blobs(chosen.iter().map(|(_, _, object, _)| object.as_str()), max)?;
    let mut files = Vec::with_capacity(chosen.len());
    for ((key, path, _, wants), bytes) in chosen.into_iter().zip(blobs) {
        let bytes = match bytes {
            Some(bytes) => bytes,
            None => {
                return Err(Error::new(format!(
                    "file `{path}` at `{revision}` is larger than {max} bytes"
                ))
                .with_help(
                    "raise `max-file-size` in toolcheck.yaml if this really is a tool set",
                ));
            }
        };
        if wants.is_none() && !holds_tools(&path, &bytes) {
            continue;
        }
        files.push((key, Input { name: path, bytes }));
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Side {
        label: revision.to_string(),
        files,
    })
}

/// A file of a revision's listing to read: (its path in the repository, the name it is shown
/// under, its object, whether the filter wants it: `None` when its content decides).
type Chosen = (String, String, String, Option<bool>);

/// The files of `ls-tree -z` output `listing` that the path arguments `roots` (each as the
/// repository names it, and as written) and `filter` take.
fn choose(listing: &[u8], roots: &[(String, PathBuf)], filter: &Filter) -> Vec<Chosen> {
    let below = |dir: &Path, relative: &str| {
        let dir = display_name(dir);
        match dir.as_str() {
            "." => relative.to_string(),
            _ => format!("{}/{relative}", dir.trim_end_matches('/')),
        }
    };
    // (path in the repository, name, object, wanted)
    let mut chosen: Vec<Chosen> = Vec::new();
    let mut seen = HashSet::new();
    for entry in listing.split(|&b| b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let Some((meta, path)) = entry.split_once('\t') else {
            continue;
        };
        let mut meta = meta.split(' ');
        let (mode, kind, object) = (meta.next(), meta.next(), meta.next());
        // Files only: no submodule, no symbolic link (its blob is the link's target).
        if kind != Some("blob") || mode == Some("120000") {
            continue;
        }
        let Some(object) = object else {
            continue;
        };
        if !seen.insert(path.to_string()) {
            continue;
        }
        let mut wants = Some(false);
        let mut name = String::new();
        for (root, dir) in roots {
            let relative = if root.is_empty() {
                Some(path)
            } else if path == root {
                // A file named on the command line is always read.
                wants = Some(true);
                name = display_name(dir);
                break;
            } else {
                path.strip_prefix(root.as_str())
                    .and_then(|rest| rest.strip_prefix('/'))
            };
            if let Some(relative) = relative {
                wants = filter.wants(dir, relative);
                if wants != Some(false) {
                    name = below(dir, relative);
                    break;
                }
            }
        }
        if wants != Some(false) {
            chosen.push((path.to_string(), name, object.to_string(), wants));
        }
    }
    chosen
}

/// Whether `bytes` (of a `.json`, `.yaml` or `.yml` file) hold tool definitions.
fn holds_tools(path: &str, bytes: &[u8]) -> bool {
    let Some(json) = sniff::manifest_extension(Path::new(path)) else {
        return false;
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    crate::parse::parse(text, json).is_ok_and(|root| crate::normalize::looks_like_tools(&root))
}

/// The contents of `objects`, in order, through one `git cat-file --batch`; `None` for one
/// larger than `max` bytes.
fn read_blobs<'a>(
    objects: impl Iterator<Item = &'a str>,
    max: u64,
) -> Result<Vec<Option<Vec<u8>>>> {
    let mut request = String::new();
    let mut count = 0;
    for object in objects {
        request.push_str(object);
        request.push('\n');
        count += 1;
    }
    if count == 0 {
        return Ok(Vec::new());
    }
    let output = git(&["cat-file", "--batch"], Some(request.as_bytes()))?;
    parse_batch(&output, count, max)
}

/// The `count` objects of a `git cat-file --batch` answer (`<object> blob <size>\n<bytes>\n`
/// each); `None` for one larger than `max` bytes.
fn parse_batch(output: &[u8], count: usize, max: u64) -> Result<Vec<Option<Vec<u8>>>> {
    let mut blobs = Vec::with_capacity(count);
    let mut rest = output;
    let malformed = || Error::new("cannot read the output of `git cat-file --batch`");
    for _ in 0..count {
        let end = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(malformed)?;
        let header = String::from_utf8_lossy(&rest[..end]).into_owned();
        rest = &rest[end + 1..];
        let size: usize = header
            .rsplit(' ')
            .next()
            .and_then(|size| size.parse().ok())
            .ok_or_else(|| Error::new(format!("git cannot read an object: {header}")))?;
        let body = rest.get(..size).ok_or_else(malformed)?;
        blobs.push((size as u64 <= max).then(|| body.to_vec()));
        rest = rest.get(size + 1..).unwrap_or_default();
    }
    Ok(blobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_in_the_repository_are_resolved_in_the_text() {
        assert_eq!(in_repository("", "tools/a.json"), "tools/a.json");
        assert_eq!(in_repository("tools/", "a.json"), "tools/a.json");
        assert_eq!(in_repository("tools/", "../tools/a.json"), "tools/a.json");
        assert_eq!(in_repository("a/b/", "../../c/./d.yaml"), "c/d.yaml");
        assert_eq!(in_repository("tools/", "."), "tools");
        assert_eq!(in_repository("", "."), "");
    }

    #[test]
    fn a_batch_answer_is_split_by_the_sizes_it_gives() {
        let answer = b"aaa blob 3\nx\ny\nbbb blob 0\n\nccc blob 5\nhello\n";
        let blobs = parse_batch(answer, 3, 4).unwrap();
        assert_eq!(
            blobs,
            [Some(b"x\ny".to_vec()), Some(Vec::new()), None],
            "the third is over the limit"
        );
        assert!(parse_batch(b"aaa missing\n", 1, 10).is_err());
        assert!(parse_batch(b"aaa blob 9\nshort\n", 1, 10).is_err());
    }
}
