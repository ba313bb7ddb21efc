//! Replacing a file whole or not at all (`--fix`, `--write-baseline`, `snapshot`, `init`).
//!
//! The new text goes to a temporary file in the target's directory, is flushed to the disk,
//! and is then renamed over the target: a full disk, an error or a killed run leaves the old
//! file as it was. On Linux the temporary file has no name until it is complete (`O_TMPFILE`),
//! so a run killed while writing leaves nothing behind; elsewhere, and on file systems without
//! `O_TMPFILE`, it is `.NAME.toolcheck-PID-N.tmp`, removed on any error. The target keeps its
//! permissions, and a symbolic link keeps pointing where it did: its target is replaced.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Replaces the file at `path` with `contents`, or creates it.
pub fn replace(path: &Path, contents: &[u8]) -> io::Result<()> {
    replace_with(path, |file| file.write_all(contents))
}

/// [`replace`], with what writes the contents: a test injects a writer that fails halfway.
fn replace_with(path: &Path, write: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    // A link is followed: the file it names is replaced, and the link stays.
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let permissions = std::fs::metadata(&target).ok().map(|m| m.permissions());
    let mut temp = Temp::create(&dir, &target)?;
    let result = (|| {
        write(&mut temp.file)?;
        if let Some(permissions) = permissions {
            temp.file.set_permissions(permissions)?;
        }
        temp.file.sync_all()?;
        let named = temp.name(&dir, &target)?;
        std::fs::rename(named, &target)?;
        temp.renamed = true;
        Ok(())
    })();
    if result.is_ok() {
        // The rename itself reaches the disk with the directory.
        let _ = File::open(&dir).and_then(|dir| dir.sync_all());
    }
    result
}

/// A temporary file being written, removed on drop unless it was renamed.
struct Temp {
    file: File,
    /// Its path, once it has one.
    path: Option<PathBuf>,
    renamed: bool,
}

/// Makes the temporary names of one process distinct.
static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn temp_path(dir: &Path, target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    dir.join(format!(
        ".{name}.toolcheck-{}-{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ))
}

impl Temp {
    fn create(dir: &Path, target: &Path) -> io::Result<Temp> {
        #[cfg(target_os = "linux")]
        if let Ok(file) = unnamed(dir) {
            return Ok(Temp {
                file,
                path: None,
                renamed: false,
            });
        }
        let path = temp_path(dir, target);
        let file = File::options().write(true).create_new(true).open(&path)?;
        Ok(Temp {
            file,
            path: Some(path),
            renamed: false,
        })
    }

    /// The file's path, giving an unnamed file one in `dir`.
    fn name(&mut self, dir: &Path, target: &Path) -> io::Result<PathBuf> {
        if let Some(path) = &self.path {
            return Ok(path.clone());
        }
        let path = temp_path(dir, target);
        #[cfg(target_os = "linux")]
        link(&self.file, &path)?;
        self.path = Some(path.clone());
        Ok(path)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if let (Some(path), false) = (&self.path, self.renamed) {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A file in `dir` with no name (`O_TMPFILE`): if the run dies before [`link`], it is gone.
#[cfg(target_os = "linux")]
fn unnamed(dir: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    File::options()
        .write(true)
        .custom_flags(libc::O_TMPFILE)
        .open(dir)
}

/// Gives the unnamed `file` the name `path`, through `/proc/self/fd` (no privilege needed).
#[cfg(target_os = "linux")]
fn link(file: &File, path: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::io::AsRawFd;
    let from = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
    let to = CString::new(path.as_os_str().as_bytes())?;
    // SAFETY: both paths are NUL-terminated C strings that live through the call.
    let linked = unsafe {
        libc::linkat(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            libc::AT_SYMLINK_FOLLOW,
        )
    };
    if linked == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("toolcheck-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_is_replaced_whole_and_nothing_is_left_beside_it() {
        let dir = scratch("replace");
        let path = dir.join("tools.yaml");
        std::fs::write(&path, "old").unwrap();
        replace(&path, b"new text").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new text");
        replace(&dir.join("created.json"), b"{}").unwrap();
        assert_eq!(entries(&dir), ["created.json", "tools.yaml"]);
    }

    #[test]
    fn a_write_that_fails_halfway_leaves_the_old_file_and_no_temporary_one() {
        let dir = scratch("fails");
        let path = dir.join("tools.yaml");
        std::fs::write(&path, "old text").unwrap();
        let failed = replace_with(&path, |file| {
            file.write_all(b"half of the new")?;
            Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
        });
        assert_eq!(failed.unwrap_err().kind(), io::ErrorKind::StorageFull);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old text");
        assert_eq!(entries(&dir), ["tools.yaml"]);
    }

    /// A run killed while writing leaves nothing: the file being written has no name yet.
    #[cfg(target_os = "linux")]
    #[test]
    fn while_it_is_written_the_new_file_has_no_name() {
        let dir = scratch("unnamed");
        if unnamed(&dir).is_err() {
            eprintln!("skipped: the temporary directory's file system has no O_TMPFILE");
            return;
        }
        let path = dir.join("tools.yaml");
        std::fs::write(&path, "old").unwrap();
        let mut seen = Vec::new();
        replace_with(&path, |file| {
            seen = entries(&dir);
            file.write_all(b"new")
        })
        .unwrap();
        assert_eq!(seen, ["tools.yaml"]);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }

    #[test]
    fn a_rename_that_fails_removes_the_named_temporary_file() {
        // The target is a directory: the rename fails after the temporary file was named.
        let dir = scratch("rename");
        std::fs::create_dir(dir.join("tools.yaml")).unwrap();
        std::fs::write(dir.join("tools.yaml/inside"), "x").unwrap();
        assert!(replace(&dir.join("tools.yaml"), b"new").is_err());
        assert_eq!(entries(&dir), ["tools.yaml"]);
    }

    #[cfg(unix)]
    #[test]
    fn the_mode_is_kept_and_a_link_still_points_at_the_replaced_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("mode");
        let real = dir.join("real.yaml");
        std::fs::write(&real, "old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.join("link.yaml");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        replace(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        assert_eq!(entries(&dir), ["link.yaml", "real.yaml"]);
    }
}
