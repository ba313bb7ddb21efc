//! The first stage: which files to lint ([`discover`]), their bytes ([`Input`]), and their
//! text ([`source`]).

pub mod discover;
pub mod globs;
pub mod live;
pub mod sniff;

use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::parse::source::SourceFile;
use discover::InputPath;

/// One file to lint: its display name and bytes.
#[derive(Debug, Clone)]
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl Input {
    /// JSON by extension; for other names, by the first non-blank character.
    pub fn is_json(&self) -> bool {
        let extension = Path::new(&self.name)
            .extension()
            .and_then(|ext| ext.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("json") => true,
            Some("yaml" | "yml") => false,
            _ => {
                let text = self
                    .bytes
                    .strip_prefix("\u{feff}".as_bytes())
                    .unwrap_or(&self.bytes);
                matches!(
                    text.iter().find(|b| !b.is_ascii_whitespace()),
                    Some(b'{' | b'[')
                )
            }
        }
    }

    /// The text; for bytes that are not UTF-8, a lossy text and the offset of the first
    /// invalid byte.
    pub fn decode(self) -> std::result::Result<Arc<SourceFile>, (Arc<SourceFile>, usize)> {
        match String::from_utf8(self.bytes) {
            Ok(text) => Ok(SourceFile::new(self.name, text)),
            Err(error) => {
                let offset = error.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(error.as_bytes()).into_owned();
                Err((SourceFile::new(self.name, text), offset))
            }
        }
    }
}

/// The text of a file a source file imports values from (`parse::code::Imports`); `None` when
/// it is not there, is not a regular file, is larger than [`MAX_IMPORTED_FILE_SIZE`] or is not
/// UTF-8.
pub fn imported_text(path: &Path) -> Option<String> {
    let bytes = read_file(path, "file", MAX_IMPORTED_FILE_SIZE).ok()?;
    String::from_utf8(bytes).ok()
}

/// The largest file read for the values another imports, in bytes. Each linted file parses the
/// files it imports anew: chrome-devtools-mcp's 13 tool files import a 7.9 MB bundle of
/// third-party code (2 s to parse, each time), where no tool's words are written.
const MAX_IMPORTED_FILE_SIZE: u64 = 1 << 20;

/// The entries of the directory `path`, sorted (none when it cannot be read).
pub fn directory_files(path: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(path)
        .map(|entries| {
            entries
                .filter_map(|entry| Some(entry.ok()?.path()))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The message for a file whose byte at `offset` is not UTF-8.
pub fn not_utf8(offset: usize) -> String {
    format!("the file is not valid UTF-8 (invalid byte at offset {offset})")
}

/// The largest input read by default (`max-file-size` in `toolcheck.yaml`), in bytes: far
/// above any real tool set (the largest corpus file is under 6 MB), far below what would
/// exhaust memory.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 32 * 1024 * 1024;

/// Reads the regular file at `path` (`what` it is, for messages: "config file", ...), at most
/// `max` bytes. A FIFO, device or directory is refused rather than read: it could block
/// forever or never end (`/dev/zero`).
pub fn read_file(path: &Path, what: &str, max: u64) -> Result<Vec<u8>> {
    let cannot = |error: std::io::Error| {
        Error::new(format!("cannot read {what} `{}`: {error}", path.display()))
    };
    let metadata = std::fs::metadata(path).map_err(cannot)?;
    if !metadata.is_file() {
        let kind = if metadata.is_dir() {
            "a directory"
        } else {
            "not a regular file (a FIFO, socket or device)"
        };
        return Err(Error::new(format!("{what} `{}` is {kind}", path.display()))
            .with_help("toolcheck reads regular files, and standard input as `-`"));
    }
    if metadata.len() > max {
        return Err(too_large(&path.display().to_string(), what, max));
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    read_at_most(file, max, metadata.len())
        .map_err(cannot)?
        .ok_or_else(|| too_large(&path.display().to_string(), what, max))
}

/// The text of a config or rule file (read as [`read_file`] reads, at most
/// [`DEFAULT_MAX_FILE_SIZE`]); `what` names it in messages.
pub fn read_text(path: &Path, what: &str) -> Result<String> {
    let bytes = read_file(path, what, DEFAULT_MAX_FILE_SIZE)?;
    String::from_utf8(bytes).map_err(|error| {
        Error::new(format!(
            "cannot read {what} `{}`: {}",
            path.display(),
            not_utf8(error.utf8_error().valid_up_to())
        ))
    })
}

/// Up to `max` bytes of `reader`; `None` when there are more (a file that grew, or a stream).
/// The buffer starts at `expected` + 1 bytes (a file's size: read at once, the `+ 1` to see its
/// end), then grows by half at a time and never past `max` + 1 bytes: doubling it would hold
/// three times `max` at once while refusing a stream that never ends.
fn read_at_most(
    mut reader: impl Read,
    max: u64,
    expected: u64,
) -> std::io::Result<Option<Vec<u8>>> {
    let limit = usize::try_from(max.saturating_add(1)).unwrap_or(usize::MAX);
    let expected = usize::try_from(expected.saturating_add(1)).unwrap_or(usize::MAX);
    let mut bytes: Vec<u8> = Vec::with_capacity(expected.min(limit));
    while bytes.len() < limit {
        let room = limit - bytes.len();
        bytes.reserve_exact(room.min((bytes.len() / 2).max(64 << 10)));
        // Into the spare capacity only: `read_to_end` on a `take` of it never grows the buffer.
        let spare = bytes.capacity().min(limit) - bytes.len();
        let read = reader.by_ref().take(spare as u64).read_to_end(&mut bytes)?;
        if read < spare {
            break;
        }
    }
    Ok((bytes.len() as u64 <= max).then_some(bytes))
}

fn too_large(name: &str, what: &str, max: u64) -> Error {
    let error = Error::new(format!("{what} `{name}` is larger than {max} bytes"));
    if what == INPUT || what == STDIN {
        error.with_help("raise `max-file-size` in toolcheck.yaml if this really is a tool set")
    } else {
        error
    }
}

/// What an input is called in messages.
const INPUT: &str = "file";
const STDIN: &str = "standard input";

/// Reads the files [`discover::Discovery`] found (standard input named `stdin_name`), each at
/// most `max` bytes: those read, and an error for each that could not be (deleted since it was
/// found, unreadable, too large).
pub fn read_paths(
    paths: &[InputPath],
    stdin_name: Option<&str>,
    max: u64,
) -> (Vec<Input>, Vec<Error>) {
    let mut inputs = Vec::with_capacity(paths.len());
    let mut errors = Vec::new();
    for path in paths {
        match read(path, stdin_name, max) {
            Ok(input) => inputs.push(input),
            Err(error) => errors.push(error),
        }
    }
    (inputs, errors)
}

fn read(input: &InputPath, stdin_name: Option<&str>, max: u64) -> Result<Input> {
    match input {
        InputPath::Stdin => {
            let name = stdin_name.unwrap_or("-").to_string();
            let bytes = read_at_most(std::io::stdin().lock(), max, 0)
                .map_err(|error| Error::new(format!("cannot read standard input: {error}")))?
                .ok_or_else(|| too_large(&name, STDIN, max))?;
            Ok(Input { name, bytes })
        }
        InputPath::File(path) => {
            let bytes = read_file(path, INPUT, max)?;
            Ok(Input {
                name: discover::display_name(path),
                bytes,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream is read up to `max` bytes into a buffer that never grows past `max` + 1.
    #[test]
    fn a_stream_is_read_whole_up_to_max_and_refused_past_it() {
        let data = vec![7u8; 300_000];
        let read = read_at_most(&data[..], 300_000, 0).unwrap().unwrap();
        assert_eq!(read, data);
        assert!(read.capacity() <= 300_001, "{}", read.capacity());
        assert_eq!(read_at_most(&data[..], 299_999, 0).unwrap(), None);
        assert_eq!(read_at_most(&b""[..], 10, 0).unwrap(), Some(Vec::new()));
        // A size known beforehand, right or wrong (a file that grew or shrank since).
        for expected in [0, 1000, 300_000, 5_000_000] {
            let read = read_at_most(&data[..], 300_000, expected).unwrap().unwrap();
            assert_eq!(read, data);
            assert!(read.capacity() <= 300_001, "{}", read.capacity());
            assert_eq!(read_at_most(&data[..], 299_999, expected).unwrap(), None);
        }
        // An endless stream is refused after max + 1 bytes.
        assert_eq!(read_at_most(std::io::repeat(0), 1 << 20, 0).unwrap(), None);
    }
}
