//! `toolcheck compat`: where can this server ship? A matrix of tools × targets: each file is
//! read and parsed once, then linted once per target with only that target selected and only
//! the `targets` rules (TC6xx) and `invalid-manifest` running. A tool fails (✖) under a target
//! when an error finding names it, or when a file-level error finding (too many tools, ...)
//! applies to its whole file; a warning (truncated, rewritten) is a third mark (`!`).

use std::collections::HashMap;

use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::{FileReport, ToolSpan};

/// Version of the JSON document; bumped only on incompatible changes.
mod human;

const VERSION: u32 = 1;

/// How one tool fares under one target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// No error and no warning.
    Pass,
    /// Warnings only: the tool ships, changed (truncated, rewritten).
    Warn,
    /// An error: the target rejects the request or drops the tool.
    Fail,
}

impl Status {
    fn mark(self) -> &'static str {
        match self {
            Status::Pass => "✔",
            Status::Warn => "!",
            Status::Fail => "✖",
        }
    }

    fn color(self) -> &'static str {
        match self {
            Status::Pass => "\x1b[32m",
            Status::Warn => "\x1b[33m",
            Status::Fail => "\x1b[31m",
        }
    }
}

/// A finding behind a mark.
#[derive(Debug, Clone, Serialize)]
pub struct Reason {
    pub code: String,
    pub rule: String,
    pub severity: Severity,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    pub line: usize,
    pub column: usize,
    /// A file-level finding (it applies to every tool of the file).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub file_level: bool,
    /// Which finding of the target's run it is (numbers the human legend).
    #[serde(skip)]
    id: (usize, usize),
}

impl Reason {
    fn of(diagnostic: &Diagnostic, file_level: bool, id: (usize, usize)) -> Reason {
        let at = diagnostic.file.line_column(diagnostic.span.start);
        Reason {
            code: diagnostic.code.to_string(),
            rule: diagnostic.rule.to_string(),
            severity: diagnostic.severity,
            message: diagnostic.message.clone(),
            help: diagnostic.help.as_ref().map(|help| help.to_string()),
            line: at.line,
            column: at.column,
            file_level,
            id,
        }
    }
}

/// One tool under one target.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    pub target: String,
    pub status: Status,
    /// Every error and warning, in output order (the tool's own and its file's).
    pub reasons: Vec<Reason>,
}

impl Cell {
    /// The reason the mark shows: the first finding of the cell's severity.
    fn first(&self) -> Option<&Reason> {
        let severity = match self.status {
            Status::Pass => return None,
            Status::Warn => Severity::Warning,
            Status::Fail => Severity::Error,
        };
        self.reasons
            .iter()
            .find(|reason| reason.severity == severity)
    }
}

/// One tool: its cells, one per target, in the targets' order.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub name: String,
    pub line: usize,
    pub results: Vec<Cell>,
}

impl Row {
    /// The name as the table shows it, in at most `room` characters (at least 24).
    fn label(&self, room: usize) -> String {
        if self.name.is_empty() {
            return format!("(no name, line {})", self.line);
        }
        let room = room.max(24);
        let chars = self.name.chars().count();
        if chars <= room {
            return self.name.clone();
        }
        // The end of a long name tells tools apart as often as its start.
        let start: String = self.name.chars().take(room - room / 2 - 1).collect();
        let end: String = self.name.chars().skip(chars - room / 2).collect();
        format!("{start}…{end}")
    }
}

/// One file's matrix.
#[derive(Debug, Clone, Serialize)]
pub struct FileMatrix {
    pub file: String,
    pub tools: Vec<Row>,
    /// `invalid-manifest` findings that name no tool: the parts of the file that could not be
    /// read (all of it when it has no tools).
    pub unread: Vec<Reason>,
    /// A bug in toolcheck stopped the linting of this file under some target.
    #[serde(skip)]
    pub internal_error: Option<String>,
}

/// How many tools pass one target.
#[derive(Debug, Clone, Serialize)]
pub struct TargetSummary {
    pub target: String,
    pub tools: usize,
    /// Tools without an error (warnings allowed).
    pub pass: usize,
    /// Tools that pass with warnings (counted in `pass`).
    pub warn: usize,
    pub fail: usize,
}

/// The whole matrix: every file, in input order.
#[derive(Debug, Clone, Serialize)]
pub struct Matrix {
    pub version: u32,
    pub targets: Vec<String>,
    pub files: Vec<FileMatrix>,
    pub summary: Vec<TargetSummary>,
}

/// The reports of one target's run, in input order (`lint_parsed` of its linter).
pub struct TargetRun {
    pub target: String,
    pub reports: Vec<FileReport>,
}

/// Builds the matrix from each file's tools and each target's run over the same inputs.
/// `invalid_manifest` is that rule's code.
pub fn build(tools: &[Vec<ToolSpan>], runs: Vec<TargetRun>, invalid_manifest: &str) -> Matrix {
    let targets: Vec<String> = runs.iter().map(|run| run.target.clone()).collect();
    let mut files: Vec<FileMatrix> = Vec::with_capacity(tools.len());
    // The config file's report (its suppressions) is no input: only linted reports count.
    let mut runs: Vec<std::vec::IntoIter<FileReport>> = runs
        .into_iter()
        .map(|run| {
            let reports: Vec<FileReport> = run
                .reports
                .into_iter()
                .filter(|report| report.linted)
                .collect();
            reports.into_iter()
        })
        .collect();
    for file_tools in tools {
        let mut matrix: Option<FileMatrix> = None;
        let finder = ToolFinder::new(file_tools);
        for (target_index, run) in runs.iter_mut().enumerate() {
            let Some(report) = run.next() else {
                continue;
            };
            let matrix = matrix.get_or_insert_with(|| FileMatrix {
                file: report.file.name.clone(),
                tools: file_tools
                    .iter()
                    .map(|tool| Row {
                        name: tool.name.clone(),
                        line: report.file.line_column(tool.span.start).line,
                        results: Vec::with_capacity(targets.len()),
                    })
                    .collect(),
                unread: Vec::new(),
                internal_error: None,
            });
            if matrix.internal_error.is_none() {
                matrix.internal_error = report.internal_error.clone();
            }
            fill(
                matrix,
                &finder,
                &report,
                target_index,
                &targets,
                invalid_manifest,
            );
        }
        files.extend(matrix);
    }
    let summary = targets
        .iter()
        .enumerate()
        .map(|(index, target)| {
            let mut summary = TargetSummary {
                target: target.clone(),
                tools: 0,
                pass: 0,
                warn: 0,
                fail: 0,
            };
            for row in files.iter().flat_map(|file| &file.tools) {
                summary.tools += 1;
                match row.results.get(index).map(|cell| cell.status) {
                    Some(Status::Fail) => summary.fail += 1,
                    Some(Status::Warn) => {
                        summary.pass += 1;
                        summary.warn += 1;
                    }
                    _ => summary.pass += 1,
                }
            }
            summary
        })
        .collect();
    Matrix {
        version: VERSION,
        targets,
        files,
        summary,
    }
}

/// Adds one target's column to a file's matrix.
fn fill(
    matrix: &mut FileMatrix,
    finder: &ToolFinder<'_>,
    report: &FileReport,
    target_index: usize,
    targets: &[String],
    invalid_manifest: &str,
) {
    let mut own: Vec<Vec<Reason>> = vec![Vec::new(); matrix.tools.len()];
    let mut whole_file: Vec<Reason> = Vec::new();
    for (index, diagnostic) in report.diagnostics.iter().enumerate() {
        if diagnostic.severity == Severity::Info {
            continue;
        }
        let id = (target_index, index);
        match finder.find(diagnostic) {
            Some(row) => own[row].push(Reason::of(diagnostic, false, id)),
            // What could not be read is the same under every target: listed once.
            None if &*diagnostic.code == invalid_manifest => {
                if target_index == 0 {
                    matrix.unread.push(Reason::of(diagnostic, true, id));
                }
            }
            None => whole_file.push(Reason::of(diagnostic, true, id)),
        }
    }
    let target = &targets[target_index];
    for (row, own) in matrix.tools.iter_mut().zip(own) {
        // Both lists are in output order; merged, so is the cell's.
        let mut reasons = Vec::with_capacity(own.len() + whole_file.len());
        let (mut a, mut b) = (own.into_iter().peekable(), whole_file.iter().peekable());
        loop {
            let take_own = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => x.id <= y.id,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            if take_own {
                reasons.extend(a.next());
            } else {
                reasons.extend(b.next().cloned());
            }
        }
        let status = if reasons.iter().any(|r| r.severity == Severity::Error) {
            Status::Fail
        } else if reasons.is_empty() {
            Status::Pass
        } else {
            Status::Warn
        };
        row.results.push(Cell {
            target: target.clone(),
            status,
            reasons,
        });
    }
}

/// Which tool of a file a finding is about: the tool it names (`Diagnostic::tool`) when that
/// name is one tool's, else the tool whose definition holds the finding's span.
struct ToolFinder<'t> {
    tools: &'t [ToolSpan],
    /// Row of each name; `None` for a name two tools share.
    by_name: HashMap<&'t str, Option<usize>>,
    /// Rows by the start of their span.
    by_start: Vec<usize>,
}

impl<'t> ToolFinder<'t> {
    fn new(tools: &'t [ToolSpan]) -> ToolFinder<'t> {
        let mut by_name: HashMap<&str, Option<usize>> = HashMap::with_capacity(tools.len());
        for (row, tool) in tools.iter().enumerate() {
            if !tool.name.is_empty() {
                by_name
                    .entry(&tool.name)
                    .and_modify(|found| *found = None)
                    .or_insert(Some(row));
            }
        }
        let mut by_start: Vec<usize> = (0..tools.len()).collect();
        by_start.sort_by_key(|&row| {
            (
                tools[row].span.start,
                std::cmp::Reverse(tools[row].span.end),
            )
        });
        ToolFinder {
            tools,
            by_name,
            by_start,
        }
    }

    fn find(&self, diagnostic: &Diagnostic) -> Option<usize> {
        let named = diagnostic.tool.as_deref().filter(|name| !name.is_empty());
        if let Some(Some(row)) = named.and_then(|name| self.by_name.get(name)) {
            return Some(*row);
        }
        // The last tool starting at or before the finding; tools do not nest.
        let span = &diagnostic.span;
        let after = self
            .by_start
            .partition_point(|&row| self.tools[row].span.start <= span.start);
        let holding = after
            .checked_sub(1)
            .map(|index| self.by_start[index])
            .filter(|&row| span.end <= self.tools[row].span.end);
        holding.or_else(|| {
            // A name two tools share, pointing outside both: the first of them.
            let name = named?;
            self.tools.iter().position(|tool| tool.name == name)
        })
    }
}

impl Matrix {
    /// 1 when a tool fails a target or part of a file could not be read, else 0.
    pub fn exit_code(&self) -> i32 {
        let fails = self.summary.iter().any(|target| target.fail > 0);
        let unread = self.files.iter().any(|file| !file.unread.is_empty());
        i32::from(fails || unread)
    }

    pub fn json(&self) -> String {
        let mut out = serde_json::to_string_pretty(self).unwrap_or_default();
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::human::wrap;
    use super::*;

    use std::sync::Arc;

    use crate::diagnostic::Field;
    use crate::parse::source::SourceFile;

    const TEXT: &str = r#"{"tools": [{"name": "a"}, {"name": "b"}]}"#;

    fn finding(
        file: &Arc<SourceFile>,
        code: &str,
        severity: Severity,
        tool: Option<&str>,
        at: &str,
    ) -> Diagnostic {
        let start = TEXT.find(at).expect("the text holds it");
        Diagnostic {
            code: code.into(),
            rule: "some-rule".into(),
            severity,
            message: format!("{code} at {at}"),
            help: None,
            label: None,
            file: file.clone(),
            tool: tool.map(Arc::from),
            field: Field::Name,
            pointer: crate::parse::Pointer::root(),
            span: start..start + at.len(),
            related: Box::default(),
            fix: None,
        }
    }

    fn report(file: &Arc<SourceFile>, diagnostics: Vec<Diagnostic>) -> FileReport {
        FileReport {
            file: file.clone(),
            linted: true,
            tools: 2,
            skipped: 0,
            diagnostics,
            suppressed: Vec::new(),
            internal_error: None,
            tool_tokens: None,
        }
    }

    fn tools() -> Vec<Vec<ToolSpan>> {
        let span = |at: &str| {
            let start = TEXT.find(at).unwrap();
            start..start + at.len()
        };
        vec![vec![
            ToolSpan {
                name: "a".into(),
                span: span(r#"{"name": "a"}"#),
            },
            ToolSpan {
                name: "b".into(),
                span: span(r#"{"name": "b"}"#),
            },
        ]]
    }

    #[test]
    fn a_file_level_error_fails_every_tool_and_a_span_finds_its_tool() {
        let file = SourceFile::new("s.json", TEXT.to_string());
        let runs = vec![
            TargetRun {
                target: "t1".into(),
                reports: vec![report(
                    &file,
                    vec![
                        finding(&file, "TC690", Severity::Error, None, r#""tools""#),
                        // No tool named, but inside `b`'s definition.
                        finding(&file, "TC691", Severity::Warning, None, r#""b""#),
                    ],
                )],
            },
            TargetRun {
                target: "t2".into(),
                reports: vec![report(
                    &file,
                    vec![
                        finding(&file, "TC692", Severity::Warning, Some("a"), r#""a""#),
                        finding(&file, "TC693", Severity::Info, Some("b"), r#""b""#),
                    ],
                )],
            },
        ];
        let matrix = build(&tools(), runs, "TC001");
        let statuses: Vec<Vec<Status>> = matrix.files[0]
            .tools
            .iter()
            .map(|row| row.results.iter().map(|cell| cell.status).collect())
            .collect();
        assert_eq!(
            statuses,
            [[Status::Fail, Status::Warn], [Status::Fail, Status::Pass]]
        );
        let b = &matrix.files[0].tools[1].results[0];
        let codes: Vec<&str> = b.reasons.iter().map(|r| r.code.as_str()).collect();
        assert_eq!(codes, ["TC690", "TC691"]);
        assert_eq!(b.first().map(|r| r.code.as_str()), Some("TC690"));
        let summary: Vec<(usize, usize, usize)> = matrix
            .summary
            .iter()
            .map(|s| (s.pass, s.warn, s.fail))
            .collect();
        assert_eq!(summary, [(0, 0, 2), (2, 1, 0)]);
        assert_eq!(matrix.exit_code(), 1);
        // The file-level reason has one number, shown in both rows.
        let human = matrix.human(false, 100);
        assert_eq!(human.matches("✖ 1").count(), 2, "{human}");
        assert_eq!(human.matches("t1: TC690").count(), 1, "{human}");
    }

    #[test]
    fn wrap_breaks_at_spaces_and_indents_like_the_lead() {
        let mut out = String::new();
        wrap("  1. ", &"word ".repeat(12), 30, &mut out);
        for line in out.lines() {
            assert!(line.chars().count() <= 30, "{line:?}");
        }
        assert!(
            out.lines().nth(1).unwrap().starts_with("     word"),
            "{out}"
        );
    }

    #[test]
    fn a_long_name_keeps_its_start_and_end() {
        let row = Row {
            name: format!("start_{}_end", "x".repeat(80)),
            line: 1,
            results: Vec::new(),
        };
        assert_eq!(row.label(100), row.name);
        let label = row.label(30);
        assert_eq!(label.chars().count(), 30);
        assert!(
            label.starts_with("start_") && label.ends_with("_end"),
            "{label}"
        );
    }
}
