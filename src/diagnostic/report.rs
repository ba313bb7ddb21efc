//! What linting one file found, on its way from the engine through the suppressions to the
//! renderers.

use std::sync::Arc;

use super::Diagnostic;
use crate::parse::source::SourceFile;

/// What linting one file found.
#[derive(Debug)]
pub struct FileReport {
    pub file: Arc<SourceFile>,
    /// `false` for the config file, which only carries findings about its own suppressions.
    pub linted: bool,
    pub tools: usize,
    pub skipped: usize,
    pub diagnostics: Vec<Diagnostic>,
    /// Findings a suppression silenced, with the reason it gave.
    pub suppressed: Vec<Suppressed>,
    /// A bug in toolcheck stopped the linting of this file (a panic, with its message): the
    /// run fails with exit code 2, the other files' results stand.
    pub internal_error: Option<String>,
    /// Each tool's tokens, in the order `normalize` reads the tools, when the lint was asked for
    /// them; `None` otherwise, or when linting failed.
    pub tool_tokens: Option<Vec<usize>>,
}

/// A finding silenced by an inline directive or `per-file-ignores`.
#[derive(Debug)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    pub reason: Option<String>,
}
