//! `--format json`: one stable, versioned document; the README documents its fields.

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
    diagnostics: Vec<JsonDiagnostic<'a>>,
    /// Findings silenced by a suppression, with its reason; present only when there are any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressed: Vec<JsonSuppressed<'a>>,
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
    let document = Document {
        version: 1,
        toolcheck: env!("CARGO_PKG_VERSION"),
        tokenizer: encoding.as_str(),
        summary: Summary::of(reports),
        diagnostics: super::diagnostics(reports).map(to_json).collect(),
        suppressed: super::suppressed(reports)
            .map(|suppressed| JsonSuppressed {
                diagnostic: to_json(&suppressed.diagnostic),
                reason: suppressed.reason.as_deref(),
            })
            .collect(),
    };
    let mut out = serde_json::to_string_pretty(&document).unwrap_or_default();
    out.push('\n');
    out
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
