//! `--format human`: miette reports with an excerpt of the source (a long line cut to a window
//! around the span, a long span to its first lines), then one summary line.

use std::fmt;
use std::io;

use miette::{GraphicalReportHandler, GraphicalTheme};
use rayon::prelude::*;

use super::{Output, Summary, Totals};
use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::FileReport;
use crate::parse::source::Excerpt;

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
    let handler = GraphicalReportHandler::new_themed(theme).with_width(style.width);
    if style.links {
        // The code is the link, as ruff draws it, without miette's `(link)` after it.
        handler.with_links(true).with_link_display_text("")
    } else {
        // Not even as text: a report reads the same whatever the terminal.
        handler.with_urls(false)
    }
}

/// Whether rule codes are terminal hyperlinks (OSC 8) to the rules' pages. io.md allows
/// none unless asked: asking is `FORCE_HYPERLINK` set to anything but `0` (the variable of
/// `supports-hyperlinks`, which cargo, miette and ruff use), and colors must be on, since a
/// link is an escape sequence like a color.
pub fn links(color: bool) -> bool {
    color && std::env::var("FORCE_HYPERLINK").is_ok_and(|value| value.trim() != "0")
}

pub fn render<'a>(
    diagnostics: impl Iterator<Item = &'a Diagnostic>,
    summary: &Summary,
    style: Style,
    quiet: bool,
) -> String {
    let mut out = Vec::new();
    // Writing into a `Vec` cannot fail, and every piece written is a `str`.
    let _ = write(diagnostics, summary, style, quiet, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes the reports to `out` one at a time, never holding all of them: a run with many
/// findings costs no output-sized string.
pub fn write<'a>(
    diagnostics: impl Iterator<Item = &'a Diagnostic>,
    summary: &Summary,
    style: Style,
    quiet: bool,
    out: &mut impl io::Write,
) -> io::Result<()> {
    let mut human = HumanOutput::new(out, style, quiet);
    let mut totals = Totals {
        summary: *summary,
        ..Totals::default()
    };
    for diagnostic in diagnostics {
        human.draw(diagnostic)?;
        totals.count([diagnostic]);
    }
    human.end(&totals)
}

/// The reports, drawn as the run goes, then the summary.
pub struct HumanOutput<W> {
    out: W,
    handler: GraphicalReportHandler,
    quiet: bool,
    /// Whether a report was drawn (a blank line goes before the next).
    any: bool,
    scratch: String,
}

impl<W: io::Write> HumanOutput<W> {
    pub fn new(out: W, style: Style, quiet: bool) -> Self {
        HumanOutput {
            out,
            handler: handler(style),
            quiet,
            any: false,
            scratch: String::new(),
        }
    }

    fn draw(&mut self, diagnostic: &Diagnostic) -> io::Result<()> {
        self.scratch.clear();
        draw(&self.handler, &mut self.scratch, diagnostic);
        self.write_drawn()
    }

    /// Writes the reports drawn into `scratch`, a blank line before them if there were
    /// others, as rustc and ruff print them.
    fn write_drawn(&mut self) -> io::Result<()> {
        if self.any {
            self.out.write_all(b"\n")?;
        }
        self.any = true;
        self.out.write_all(self.scratch.as_bytes())
    }

    /// Draws many reports on all cores in blocks, a few blocks per thread at a time; the same
    /// text as drawing them one by one.
    fn draw_all(&mut self, diagnostics: &[Diagnostic]) -> io::Result<()> {
        // A few hundred microseconds of work a block.
        const BLOCK: usize = 32;
        if diagnostics.len() <= BLOCK {
            return diagnostics.iter().try_for_each(|d| self.draw(d));
        }
        let wave = BLOCK * rayon::current_num_threads().max(1) * 4;
        for diagnostics in diagnostics.chunks(wave) {
            let handler = &self.handler;
            let blocks: Vec<String> = diagnostics
                .par_chunks(BLOCK)
                .map(|block| {
                    let mut drawn = String::new();
                    for (index, diagnostic) in block.iter().enumerate() {
                        if index > 0 {
                            drawn.push('\n');
                        }
                        draw(handler, &mut drawn, diagnostic);
                    }
                    drawn
                })
                .collect();
            for drawn in blocks {
                self.scratch = drawn;
                self.write_drawn()?;
            }
        }
        Ok(())
    }

    fn end(&mut self, totals: &Totals) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        let report = &mut self.scratch;
        report.clear();
        if self.any {
            report.push('\n');
        }
        report.push_str(&summary_line(&totals.summary));
        report.push('\n');
        report.push_str(&super::footer(totals, super::Listing::Full));
        self.out.write_all(report.as_bytes())
    }
}

/// Appends the report of `diagnostic` to `out`.
fn draw(handler: &GraphicalReportHandler, out: &mut String, diagnostic: &Diagnostic) {
    if handler.render_report(out, &Drawn::new(diagnostic)).is_err() {
        // Only a formatter error can get here; fall back to one plain line.
        out.push_str(&format!(
            "{}: {} {}\n",
            diagnostic.file.name, diagnostic.code, diagnostic.message
        ));
    }
}

impl<W: io::Write> Output for HumanOutput<W> {
    fn report(&mut self, report: &FileReport) -> io::Result<()> {
        self.draw_all(&report.diagnostics)
    }

    fn finish(mut self: Box<Self>, totals: &Totals) -> io::Result<()> {
        self.end(totals)
    }
}

/// A diagnostic as miette draws it: what it says, shown on the excerpt of its span
/// ([`SourceFile::excerpt`](crate::parse::source::SourceFile::excerpt): long lines cut to a
/// window around the span, a long span to its first lines), the label re-based into it. Its
/// related locations are drawn the same way. This is the one bridge from findings to miette.
#[derive(Debug)]
struct Drawn<'a> {
    message: &'a str,
    code: Option<String>,
    severity: miette::Severity,
    help: Option<&'a str>,
    /// The rule's page, drawn as a hyperlink on the code when links are on.
    url: Option<String>,
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
                message: &related.message,
                code: None,
                severity: miette::Severity::Advice,
                help: None,
                url: None,
                excerpt: related.file.excerpt(related.span.clone()),
                label: None,
                related: Vec::new(),
            })
            .collect();
        Drawn {
            message: &diagnostic.message,
            code: Some(format!("{} {}", diagnostic.code, diagnostic.rule)),
            severity: match diagnostic.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
                Severity::Info => miette::Severity::Advice,
            },
            help: diagnostic.help.as_deref(),
            url: crate::catalog::pages::url(&diagnostic.code, &diagnostic.rule),
            excerpt: diagnostic.file.excerpt(diagnostic.span.clone()),
            label: diagnostic.label.as_deref(),
            related,
        }
    }
}

impl fmt::Display for Drawn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }
}

impl std::error::Error for Drawn<'_> {}

impl miette::Diagnostic for Drawn<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code
            .as_ref()
            .map(|code| Box::new(code) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .map(|help| Box::new(help) as Box<dyn fmt::Display>)
    }

    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.url
            .as_ref()
            .map(|url| Box::new(url) as Box<dyn fmt::Display>)
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
    let line = format!(
        "{} in {} ({tools})",
        counts.join(", "),
        plural(summary.files, "file")
    );
    match summary.baselined {
        0 => line,
        baselined => format!("{line}; {baselined} in the baseline"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drawn in blocks on all cores, or one by one: the same text.
    #[test]
    fn reports_drawn_in_blocks_are_drawn_as_one_by_one() {
        let tools: Vec<String> = (0..40)
            .map(|index| format!(r#"{{"name": "t{index}", "description": "ALWAYS call this."}}"#))
            .collect();
        let report = crate::lint::lint_text(
            "set.json",
            &format!(r#"{{"tools": [{}]}}"#, tools.join(",")),
        );
        assert!(
            report.diagnostics.len() > 100,
            "{}",
            report.diagnostics.len()
        );
        let style = Style {
            color: false,
            links: false,
            width: 100,
        };
        let mut in_blocks = HumanOutput::new(Vec::new(), style, false);
        in_blocks.report(&report).unwrap();
        let mut one_by_one = HumanOutput::new(Vec::new(), style, false);
        for diagnostic in &report.diagnostics {
            one_by_one.draw(diagnostic).unwrap();
        }
        // After a first file's reports, a blank line still comes first.
        in_blocks.report(&report).unwrap();
        for diagnostic in &report.diagnostics {
            one_by_one.draw(diagnostic).unwrap();
        }
        let text = |output: HumanOutput<Vec<u8>>| String::from_utf8(output.out).unwrap();
        let (in_blocks, one_by_one) = (text(in_blocks), text(one_by_one));
        assert!(one_by_one.contains("\n\n"));
        assert_eq!(in_blocks, one_by_one);
    }

    /// With links on, the code is an OSC 8 link to the rule's page and reads as it does
    /// without them once the escapes are taken out (a page URL exists only once Cargo.toml's
    /// `repository` is the project's home: given here).
    #[test]
    fn the_code_links_to_the_rule_page_when_links_are_on() {
        let report = crate::lint::lint_text(
            "run.tool.yaml",
            "name: run_tests\ndescription: Always run the suite. Not for docs-only changes.\n",
        );
        let diagnostic = report
            .diagnostics
            .iter()
            .find(|diagnostic| &*diagnostic.code == "TC209")
            .expect("TC209 fires");
        let url = "https://example.com/docs/rules/TC209-absolute-words.md";
        let draw = |links| {
            let mut drawn = Drawn::new(diagnostic);
            drawn.url = Some(url.to_string());
            let handler = handler(Style {
                color: false,
                links,
                width: 80,
            });
            let mut out = String::new();
            handler.render_report(&mut out, &drawn).unwrap();
            out
        };
        let (linked, plain) = (draw(true), draw(false));
        const OSC8: &str = "\u{1b}]8;;";
        assert!(
            linked.contains(&format!(
                "{OSC8}{url}\u{1b}\\TC209 absolute-words \u{1b}]8;;\u{1b}\\"
            )),
            "{linked:?}"
        );
        assert!(
            !plain.contains(OSC8) && !plain.contains("https://"),
            "{plain}"
        );
        let stripped = linked
            .replace(&format!("{OSC8}{url}\u{1b}\\"), "")
            .replace("absolute-words \u{1b}]8;;\u{1b}\\", "absolute-words");
        assert_eq!(stripped, plain);
    }
}
