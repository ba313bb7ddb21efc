//! The one diagnostic type every rule reports, Rust or declarative.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::source::SourceFile;
use crate::syntax::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which part of a tool (or file) a diagnostic is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    Name,
    Title,
    Description,
    Snippet,
    Guidelines,
    Instructions,
    InputSchema,
    OutputSchema,
    Limits,
    Results,
    File,
}

impl Field {
    pub fn as_str(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Title => "title",
            Field::Description => "description",
            Field::Snippet => "snippet",
            Field::Guidelines => "guidelines",
            Field::Instructions => "instructions",
            Field::InputSchema => "input_schema",
            Field::OutputSchema => "output_schema",
            Field::Limits => "limits",
            Field::Results => "results",
            Field::File => "file",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A finding: what is wrong, where, and how to fix it.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub code: Arc<str>,
    pub rule: Arc<str>,
    pub severity: Severity,
    pub message: String,
    pub help: Option<String>,
    /// A short label under the underlined span.
    pub label: Option<String>,
    pub file: Arc<SourceFile>,
    /// The tool's name; `None` for file-level findings.
    pub tool: Option<String>,
    pub field: Field,
    /// JSON Pointer of the node the finding is about.
    pub pointer: String,
    /// Byte range in `file.text`.
    pub span: Span,
    /// Secondary locations, e.g. the first definition of a duplicated name.
    pub related: Vec<Related>,
}

/// A secondary location (e.g. the first of two duplicates).
#[derive(Debug, Clone)]
pub struct Related {
    pub message: String,
    pub file: Arc<SourceFile>,
    pub span: Span,
}

impl Diagnostic {
    /// Output order: file, offset, code (io.md §4).
    pub fn sort_key(&self) -> (&str, usize, &str, usize, &str) {
        (
            &self.file.name,
            self.span.start,
            &self.code,
            self.span.end,
            &self.message,
        )
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(format!("{} {}", self.code, self.rule)))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_deref()
            .map(|help| Box::new(help) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&*self.file)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let primary = miette::LabeledSpan::new_primary_with_span(
            self.label.clone(),
            (self.span.start, self.span.len()),
        );
        Some(Box::new(std::iter::once(primary)))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related
                .iter()
                .map(|related| related as &dyn miette::Diagnostic),
        ))
    }
}

impl fmt::Display for Related {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Related {}

impl miette::Diagnostic for Related {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Advice)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&*self.file)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_primary_with_span(None, (self.span.start, self.span.len())),
        )))
    }
}
