//! `--format human`: miette reports with the source excerpt, then one summary line.

use miette::{GraphicalReportHandler, GraphicalTheme};

use super::Summary;
use crate::lint::diagnostic::Diagnostic;

/// How to draw: colors, hyperlinks and width are decided by the caller (`--color`, TTY).
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub color: bool,
    pub links: bool,
    pub width: usize,
}

pub fn handler(style: Style) -> GraphicalReportHandler {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme)
        .with_links(style.links)
        .with_width(style.width)
}

pub fn render<'a>(
    diagnostics: impl Iterator<Item = &'a Diagnostic>,
    summary: &Summary,
    style: Style,
    quiet: bool,
) -> String {
    let handler = handler(style);
    let mut out = String::new();
    for diagnostic in diagnostics {
        // A blank line between reports, as rustc and ruff print them.
        if !out.is_empty() {
            out.push('\n');
        }
        if handler.render_report(&mut out, diagnostic).is_err() {
            // Only a formatter error can get here; fall back to one plain line.
            out.push_str(&format!(
                "{}: {} {}\n",
                diagnostic.file.name, diagnostic.code, diagnostic.message
            ));
        }
    }
    if !quiet {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&summary_line(summary));
        out.push('\n');
    }
    out
}

/// `3 errors, 2 warnings in 4 files (12 tools)`.
pub fn summary_line(summary: &Summary) -> String {
    let plural =
        |count: usize, word: &str| format!("{count} {word}{}", if count == 1 { "" } else { "s" });
    let mut counts = vec![
        plural(summary.errors, "error"),
        plural(summary.warnings, "warning"),
    ];
    if summary.infos > 0 {
        counts.push(plural(summary.infos, "info"));
    }
    let mut tools = plural(summary.tools, "tool");
    if summary.skipped > 0 {
        tools.push_str(&format!(", {} skipped", summary.skipped));
    }
    format!(
        "{} in {} ({tools})",
        counts.join(", "),
        plural(summary.files, "file")
    )
}
