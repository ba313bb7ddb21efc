//! `--format json`: one stable, versioned document; the README documents its fields.

use std::io::{self, Write};

use serde::Serialize;

use super::{Output, PrettyArray, Spill, Summary, Totals};
use crate::diagnostic::{Diagnostic, Field, Severity};
use crate::lint::FileReport;
use crate::parse::Pointer;
use crate::parse::source::LineColumn;
use crate::tokens::Encoding;

/// The document's first fields; its findings follow.
#[derive(Serialize)]
struct Header {
    version: u32,
    toolcheck: &'static str,
    tokenizer: &'static str,
    summary: Summary,
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
    pointer: &'a Pointer,
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

/// Writes the document of a whole run to `out`.
pub fn write(reports: &[FileReport], encoding: Encoding, out: &mut impl Write) -> io::Result<()> {
    super::write_all(
        Box::new(JsonOutput::new(out, encoding, Spill::memory)),
        reports,
    )
}

/// The document, written as the run goes. Its summary comes first, so the findings wait in a
/// [`Spill`] (`spill` makes one for the findings, one for the suppressed findings) until the
/// end: a run with many findings holds neither them nor an output-sized string in memory.
pub struct JsonOutput<W> {
    out: W,
    encoding: Encoding,
    diagnostics: PrettyArray<Spill>,
    suppressed: PrettyArray<Spill>,
}

impl<W: Write> JsonOutput<W> {
    pub fn new(out: W, encoding: Encoding, spill: fn() -> Spill) -> Self {
        JsonOutput {
            out,
            encoding,
            diagnostics: PrettyArray::new(spill(), 2),
            suppressed: PrettyArray::new(spill(), 2),
        }
    }
}

impl<W: Write> Output for JsonOutput<W> {
    fn report(&mut self, report: &FileReport) -> io::Result<()> {
        self.diagnostics.push_all(&report.diagnostics, to_json)?;
        for suppressed in &report.suppressed {
            self.suppressed.push(&JsonSuppressed {
                diagnostic: to_json(&suppressed.diagnostic),
                reason: suppressed.reason.as_deref(),
            })?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>, totals: &Totals) -> io::Result<()> {
        let JsonOutput {
            mut out,
            encoding,
            diagnostics,
            suppressed,
        } = *self;
        let header = Header {
            version: 1,
            toolcheck: env!("CARGO_PKG_VERSION"),
            tokenizer: encoding.as_str(),
            summary: totals.summary,
        };
        let mut text = serde_json::to_string_pretty(&header).map_err(io::Error::other)?;
        // The header's closing brace: the findings go before it.
        text.truncate(text.len().saturating_sub(2));
        out.write_all(text.as_bytes())?;
        out.write_all(b",\n  \"diagnostics\": ")?;
        diagnostics.close()?.copy_to(&mut out)?;
        // Present only when there are any.
        if !suppressed.is_empty() {
            out.write_all(b",\n  \"suppressed\": ")?;
            suppressed.close()?.copy_to(&mut out)?;
        }
        out.write_all(b"\n}\n")
    }
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
