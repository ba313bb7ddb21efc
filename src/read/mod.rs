//! The first stage: which files to lint ([`discover`]), their bytes ([`Input`]), and their
//! text ([`source`]).

pub mod discover;
pub mod source;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Config;
use crate::error::{Error, Result};
use discover::{Discovery, Target};
use source::SourceFile;

/// One file to lint: its display name and bytes.
#[derive(Debug)]
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

/// The message for a file whose byte at `offset` is not UTF-8.
pub fn not_utf8(offset: usize) -> String {
    format!("the file is not valid UTF-8 (invalid byte at offset {offset})")
}

/// Discovers the files for `paths` under `config` and reads them (`-` is standard input,
/// named `stdin_name`).
pub fn read_inputs(
    config: &Config,
    paths: &[PathBuf],
    stdin_name: Option<&str>,
) -> Result<Vec<Input>> {
    Discovery::new(&config.include, &config.exclude)?
        .discover(paths)?
        .into_iter()
        .map(|target| read(target, stdin_name))
        .collect()
}

fn read(target: Target, stdin_name: Option<&str>) -> Result<Input> {
    match target {
        Target::Stdin => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|error| Error::new(format!("cannot read standard input: {error}")))?;
            Ok(Input {
                name: stdin_name.unwrap_or("-").to_string(),
                bytes,
            })
        }
        Target::File(path) => {
            let bytes = std::fs::read(&path).map_err(|error| {
                Error::new(format!("cannot read `{}`: {error}", path.display()))
            })?;
            let name = path.display().to_string();
            let name = name.strip_prefix("./").map(str::to_string).unwrap_or(name);
            Ok(Input { name, bytes })
        }
    }
}
