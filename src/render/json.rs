//! `--format json`: one stable, versioned document; the README documents its fields.

use std::io::{self, Write};

use serde::Serialize;

use super::Summary;
use crate::lint::FileReport;
use crate::lint::diagnostic::{Diagnostic, Field, Severity};
use crate::read::source::LineColumn;
use crate::tokens::Encoding;

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    toolcheck: &'static str,
    tokenizer: &'static str,
    summary: Summary,
    diagnostics: Findings<'a>,
    /// Findings silenced by a suppression, with its reason; present only when there are any.
    #[serde(skip_serializing_if = "Suppressions::is_empty")]
    suppressed: Suppressions<'a>,
}

/// The findings of a run, each converted as it is written: a run with 100,000 findings holds
/// no second copy of them.
struct Findings<'a>(&'a [FileReport]);

impl Serialize for Findings<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(super::diagnostics(self.0).map(to_json))
    }
}

/// The suppressed findings of a run, converted as they are written.
struct Suppressions<'a>(&'a [FileReport]);

impl Suppressions<'_> {
    fn is_empty(&self) -> bool {
        super::suppressed(self.0).next().is_none()
    }
}

impl Serialize for Suppressions<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(super::suppressed(self.0).map(|suppressed| JsonSuppressed {
            diagnostic: to_json(&suppressed.diagnostic),
            reason: suppressed.reason.as_deref(),
        }))
    }
}

#[derive(Serialize)]
struct JsonSuppressed<'a> {
    #[serde(flatten)]
    diagnostic: JsonDiagnostic<'a>,
    reason: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    rule: &'a str,
    severity: Severity,
    message: &'a str,
    help: Option<&'a str>,
    /// The rule's page (`docs/rules/`); null for a team's own rules, which have none.
    url: Option<String>,
    file: &'a str,
    tool: Option<&'a str>,
    field: Field,
    pointer: &'a str,
    span: JsonSpan,
}

#[derive(Serialize)]
struct JsonSpan {
    offset: usize,
    length: usize,
    start: LineColumn,
    end: LineColumn,
}

pub fn render(reports: &[FileReport], encoding: Encoding) -> String {
    let mut out = Vec::new();
    // Writing into a `Vec` cannot fail, and serde_json writes UTF-8.
    let _ = write(reports, encoding, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes the document to `out` as it goes, never holding all of it: a run with many findings
/// costs no output-sized string.
pub fn write(reports: &[FileReport], encoding: Encoding, out: &mut impl Write) -> io::Result<()> {
    let document = Document {
        version: 1,
        toolcheck: env!("CARGO_PKG_VERSION"),
        tokenizer: encoding.as_str(),
        summary: Summary::of(reports),
        diagnostics: Findings(reports),
        suppressed: Suppressions(reports),
    };
    serde_json::to_writer_pretty(&mut *out, &document).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// One diagnostic as this document writes it (for other documents that list findings, so
/// they are written the same way).
pub(crate) fn diagnostic_value(diagnostic: &Diagnostic) -> serde_json::Value {
    serde_json::to_value(to_json(diagnostic)).unwrap_or_default()
}

fn to_json(diagnostic: &Diagnostic) -> JsonDiagnostic<'_> {
    let span = &diagnostic.span;
    JsonDiagnostic {
        code: &diagnostic.code,
        rule: &diagnostic.rule,
        severity: diagnostic.severity,
        message: &diagnostic.message,
        help: diagnostic.help.as_deref(),
        url: crate::catalog::pages::url(&diagnostic.code, &diagnostic.rule),
        file: &diagnostic.file.name,
        tool: diagnostic.tool.as_deref(),
        field: diagnostic.field,
        pointer: &diagnostic.pointer,
        span: JsonSpan {
            offset: span.start,
            length: span.len(),
            start: diagnostic.file.line_column(span.start),
            end: diagnostic.file.line_column(span.end),
        },
    }
}
