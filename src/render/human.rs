//! `--format human`: miette reports with an excerpt of the source (a long line cut to a window
//! around the span, a long span to its first lines), then one summary line.

use std::fmt;

use miette::{GraphicalReportHandler, GraphicalTheme};

use super::Summary;
use crate::lint::diagnostic::Diagnostic;
use crate::read::source::Excerpt;

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
        if handler
            .render_report(&mut out, &Drawn::new(diagnostic))
            .is_err()
        {
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

/// A diagnostic as drawn: what it says, shown on the excerpt of its span
/// ([`SourceFile::excerpt`](crate::read::source::SourceFile::excerpt): long lines cut to a
/// window around the span, a long span to its first lines), the label re-based into it. Its
/// related locations are drawn the same way.
struct Drawn<'a> {
    inner: &'a dyn miette::Diagnostic,
    excerpt: Excerpt,
    label: Option<&'a str>,
    related: Vec<Drawn<'a>>,
}

impl<'a> Drawn<'a> {
    fn new(diagnostic: &'a Diagnostic) -> Self {
        let related = diagnostic
            .related
            .iter()
            .map(|related| Drawn {
                inner: related,
                excerpt: related.file.excerpt(related.span.clone()),
                label: None,
                related: Vec::new(),
            })
            .collect();
        Drawn {
            inner: diagnostic,
            excerpt: diagnostic.file.excerpt(diagnostic.span.clone()),
            label: diagnostic.label.as_deref(),
            related,
        }
    }
}

impl fmt::Debug for Drawn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.inner, f)
    }
}

impl fmt::Display for Drawn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.inner, f)
    }
}

impl std::error::Error for Drawn<'_> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.inner.source()
    }
}

impl miette::Diagnostic for Drawn<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.code()
    }

    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.help()
    }

    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.url()
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.excerpt)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(self.excerpt.label(self.label))))
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

    fn diagnostic_source(&self) -> Option<&dyn miette::Diagnostic> {
        self.inner.diagnostic_source()
    }
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
