//! `--output-format concise`: one line per finding, `path:line:col: CODE [*] name message`
//! (`[*]` when `--fix` can fix it), as ruff and eslint's compact format print them; then the
//! summary and the footer.

use super::Summary;
use crate::lint::diagnostic::{Diagnostic, Severity};

/// One finding's line, without its line break.
pub fn line(diagnostic: &Diagnostic, color: bool) -> String {
    let at = diagnostic.file.line_column(diagnostic.span.start);
    let code = if color {
        let tint = match diagnostic.severity {
            Severity::Error => "31",
            Severity::Warning => "33",
            Severity::Info => "36",
        };
        format!("\x1b[1;{tint}m{}\x1b[0m", diagnostic.code)
    } else {
        diagnostic.code.to_string()
    };
    let fixable = if diagnostic.fix.is_some() { " [*]" } else { "" };
    // One line per finding, whatever the message holds.
    let message = diagnostic.message.replace(['\n', '\r'], " ");
    format!(
        "{}:{}:{}: {code}{fixable} {} {message}",
        diagnostic.file.name, at.line, at.column, diagnostic.rule
    )
}

pub fn render<'a>(
    diagnostics: impl Iterator<Item = &'a Diagnostic> + Clone,
    summary: &Summary,
    color: bool,
    quiet: bool,
) -> String {
    let mut out = String::new();
    for diagnostic in diagnostics.clone() {
        out.push_str(&line(diagnostic, color));
        out.push('\n');
    }
    if !quiet {
        out.push_str(&super::human::summary_line(summary));
        out.push('\n');
        let code = super::most_common_code(diagnostics);
        out.push_str(&super::footer(summary, code));
    }
    out
}
