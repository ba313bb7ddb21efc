//! Globs and the directory they are written relative to. The globs of `toolcheck.yaml`
//! (`include`, `exclude`, `per-file-ignores`) are relative to the config file's directory,
//! those of the command line (`--include`, `--exclude`, `--extend-exclude`) to the working
//! directory. A glob matches a file by the file's path from that directory, whatever way the
//! file was named: `.`, a subdirectory, the file itself, an absolute path, `./a/../a/x`, or a
//! relative path from a subdirectory.

use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

use globset::{Glob, GlobMatcher};

use crate::error::{Error, Result};

/// `path` made absolute, with `.` and `..` resolved in the text (not through links).
pub fn absolute(path: &Path) -> PathBuf {
    let path = if path.as_os_str().is_empty() {
        Path::new(".")
    } else {
        path
    };
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                normal.pop();
            }
            Component::CurDir => {}
            other => normal.push(other),
        }
    }
    normal
}

/// A directory that globs are relative to.
#[derive(Debug)]
pub struct Base {
    /// Absolute, resolved in the text.
    lexical: PathBuf,
    /// Resolved through links, computed the first time a path is not below `lexical`.
    canonical: OnceLock<Option<PathBuf>>,
}

/// A path as globs see it, with `/` separators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    /// From the base directory (`""` for the directory itself); for a path outside it, its
    /// absolute path, so a glob of the project (`tools/**`) never matches a file elsewhere by
    /// accident, while `**/*.tool.yaml` still does.
    pub relative: String,
    /// Absolute, for globs written as absolute paths or starting with `../`.
    pub absolute: String,
}

impl Name {
    /// The name of the path `relative` (with `/` separators) below this one.
    pub fn join(&self, relative: &str) -> Name {
        Name {
            relative: below(&self.relative, relative),
            absolute: below(&self.absolute, relative),
        }
    }
}

fn below(dir: &str, relative: &str) -> String {
    match dir {
        "" => relative.to_string(),
        _ if dir.ends_with('/') => format!("{dir}{relative}"),
        _ => format!("{dir}/{relative}"),
    }
}

impl Base {
    pub fn new(dir: &Path) -> Base {
        Base {
            lexical: absolute(dir),
            canonical: OnceLock::new(),
        }
    }

    /// How globs see `path` (a file or directory), however it was typed. A path below the base
    /// only through a link (a link to the project, `/tmp` that is `/private/tmp`) counts as
    /// below it.
    pub fn name(&self, path: &Path) -> Name {
        let lexical = absolute(path);
        let absolute = slashed(&lexical);
        if let Ok(below) = lexical.strip_prefix(&self.lexical) {
            return Name {
                relative: slashed(below),
                absolute,
            };
        }
        let canonical = self
            .canonical
            .get_or_init(|| std::fs::canonicalize(&self.lexical).ok());
        let relative = match (canonical, real_path(&lexical)) {
            (Some(base), Some(real)) => real.strip_prefix(base).ok().map(slashed),
            _ => None,
        };
        Name {
            relative: relative.unwrap_or_else(|| absolute.clone()),
            absolute,
        }
    }
}

/// `path` with its directory resolved through links but its own name kept: a file that is a
/// link is named by the link, as the user sees it.
fn real_path(path: &Path) -> Option<PathBuf> {
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => Some(std::fs::canonicalize(parent).ok()?.join(name)),
        _ => std::fs::canonicalize(path).ok(),
    }
}

/// A path with `/` separators, as globs are written.
pub(crate) fn slashed(path: &Path) -> String {
    let text = path.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '/' {
        text.into_owned()
    } else {
        text.replace(std::path::MAIN_SEPARATOR, "/")
    }
}

/// One glob, resolved against its base directory.
#[derive(Debug)]
pub struct Pattern {
    matcher: GlobMatcher,
    /// Matched against [`Name::absolute`]: the glob was absolute, or started with `../`.
    absolute: bool,
}

impl Pattern {
    /// `written` relative to `base`: a leading `./` is dropped, leading `../` are resolved
    /// against the base into an absolute glob. The error is the glob's own.
    pub fn new(base: &Base, written: &str) -> std::result::Result<Pattern, String> {
        let mut glob = written;
        while let Some(rest) = glob.strip_prefix("./") {
            glob = rest;
        }
        let (glob, absolute) = if glob == ".." || glob.starts_with("../") {
            let mut dir = base.lexical.clone();
            while let Some(rest) = glob.strip_prefix("..") {
                dir.pop();
                glob = rest.trim_start_matches('/');
            }
            (below(&globset::escape(&slashed(&dir)), glob), true)
        } else {
            (glob.to_string(), Path::new(glob).is_absolute())
        };
        let matcher = Glob::new(&glob)
            .map_err(|error| error.kind().to_string())?
            .compile_matcher();
        Ok(Pattern { matcher, absolute })
    }

    pub fn matches(&self, name: &Name) -> bool {
        self.matcher.is_match(if self.absolute {
            &name.absolute
        } else {
            &name.relative
        })
    }
}

/// Globs written relative to one directory.
#[derive(Debug)]
pub struct Globs {
    base: Base,
    patterns: Vec<Pattern>,
    written: Vec<String>,
}

impl Globs {
    pub fn new(base: &Path, written: &[String]) -> Result<Globs> {
        let base = Base::new(base);
        let patterns = written
            .iter()
            .map(|glob| {
                Pattern::new(&base, glob)
                    .map_err(|error| Error::new(format!("invalid glob `{glob}`: {error}")))
            })
            .collect::<Result<_>>()?;
        Ok(Globs {
            base,
            patterns,
            written: written.to_vec(),
        })
    }

    pub fn base(&self) -> &Base {
        &self.base
    }

    /// The globs as written.
    pub fn written(&self) -> &[String] {
        &self.written
    }

    /// Whether a glob matches `name` (a name by this set's base).
    pub fn matches(&self, name: &Name) -> bool {
        self.patterns.iter().any(|pattern| pattern.matches(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_named_from_the_base_however_it_is_typed() {
        let cwd = std::env::current_dir().unwrap();
        let base = Base::new(&cwd.join("project"));
        for typed in [
            cwd.join("project/tools/x.yaml"),
            cwd.join("project/./tools/../tools/x.yaml"),
            PathBuf::from("project/tools/x.yaml"),
            PathBuf::from("./project/other/../tools/x.yaml"),
        ] {
            let name = base.name(&typed);
            assert_eq!(name.relative, "tools/x.yaml", "{typed:?}");
            assert_eq!(name.absolute, slashed(&cwd.join("project/tools/x.yaml")));
        }
        assert_eq!(base.name(&cwd.join("project")).relative, "");
        let outside = base.name(&cwd.join("elsewhere/x.yaml"));
        assert_eq!(outside.relative, slashed(&cwd.join("elsewhere/x.yaml")));
    }

    #[test]
    fn globs_are_resolved_against_their_base() {
        let cwd = std::env::current_dir().unwrap();
        let base = Base::new(&cwd.join("project/tools"));
        let inside = base.name(&cwd.join("project/tools/a/x.tool.yaml"));
        let sibling = base.name(&cwd.join("project/servers/x.json"));
        let elsewhere = base.name(Path::new("/elsewhere/x.tool.yaml"));
        let matches = |glob: &str, name: &Name| Pattern::new(&base, glob).unwrap().matches(name);
        assert!(matches("**/*.tool.yaml", &inside));
        assert!(matches("**/*.tool.yaml", &elsewhere));
        assert!(matches("./a/*.yaml", &inside));
        assert!(matches("a/**", &inside));
        assert!(!matches("a/**", &sibling));
        assert!(matches("../servers/*.json", &sibling));
        assert!(!matches("../servers/*.json", &inside));
        assert!(matches(&format!("{}/**", slashed(&cwd)), &inside));
        assert!(!matches(
            "tools/**",
            &base.name(Path::new("/elsewhere/tools/x.yaml"))
        ));
    }
}
