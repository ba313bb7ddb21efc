//! The matrix for a terminal: a table per file, a tool per row and a target per column, and
//! the first reason of each cell that is not a pass, wrapped to the width.

use std::collections::HashMap;
use std::fmt::Write;

use super::{FileMatrix, Matrix, Reason, Status};

impl Matrix {
    /// One table per file (rows = tools, columns = targets), the reasons below it, then one
    /// line per target.
    pub fn human(&self, color: bool, width: usize) -> String {
        let width = width.max(40);
        let mut out = String::new();
        for file in &self.files {
            self.file_table(file, color, width, &mut out);
            out.push('\n');
        }
        let name_width = self
            .targets
            .iter()
            .map(|t| t.chars().count())
            .max()
            .unwrap_or(0);
        for summary in &self.summary {
            let _ = write!(
                out,
                "{:<w$} {}/{} tool{} pass",
                format!("{}:", summary.target),
                summary.pass,
                summary.tools,
                if summary.tools == 1 { "" } else { "s" },
                w = name_width + 1
            );
            if summary.warn > 0 {
                let _ = write!(out, " ({} with warnings)", summary.warn);
            }
            out.push('\n');
        }
        let unread = self.files.iter().filter(|f| !f.unread.is_empty()).count();
        if unread > 0 {
            let _ = writeln!(
                out,
                "{unread} file{} could not be read in full",
                if unread == 1 { "" } else { "s" }
            );
        }
        if self
            .summary
            .iter()
            .any(|target| target.fail + target.warn > 0)
        {
            out.push_str(
                "hint: `toolcheck lint --target NAME FILE` shows each finding with its fix\n",
            );
        }
        out
    }

    fn file_table(&self, file: &FileMatrix, color: bool, width: usize, out: &mut String) {
        let _ = writeln!(
            out,
            "{} ({} tool{})",
            file.file,
            file.tools.len(),
            if file.tools.len() == 1 { "" } else { "s" }
        );
        // Each reason a cell shows gets a number, in order of first appearance (a file-level
        // reason keeps one number for every tool).
        let mut numbers: HashMap<(usize, usize), usize> = HashMap::new();
        let mut legend: Vec<(&str, &Reason)> = Vec::new();
        let mut cells: Vec<Vec<(Status, String)>> = Vec::with_capacity(file.tools.len());
        for row in &file.tools {
            let mut texts = Vec::with_capacity(row.results.len());
            for cell in &row.results {
                let mut text = cell.status.mark().to_string();
                if let Some(reason) = cell.first() {
                    let next = numbers.len() + 1;
                    let number = *numbers.entry(reason.id).or_insert_with(|| {
                        legend.push((&cell.target, reason));
                        next
                    });
                    let _ = write!(text, " {number}");
                    let more = cell.reasons.len() - 1;
                    if more > 0 {
                        let _ = write!(text, " (+{more})");
                    }
                }
                texts.push((cell.status, text));
            }
            cells.push(texts);
        }
        if !file.tools.is_empty() {
            let widths: Vec<usize> = self
                .targets
                .iter()
                .enumerate()
                .map(|(index, target)| {
                    cells
                        .iter()
                        .filter_map(|row| row.get(index))
                        .map(|(_, text)| text.chars().count())
                        .chain([target.chars().count()])
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            // Names are cut (in the middle) only when the table would not fit otherwise.
            let room = width.saturating_sub(2 + widths.iter().map(|w| w + 2).sum::<usize>());
            let labels: Vec<String> = file.tools.iter().map(|row| row.label(room)).collect();
            let first = labels
                .iter()
                .map(|l| l.chars().count())
                .chain([4])
                .max()
                .unwrap_or(4);
            let mut header = format!("  {:<first$}", "tool");
            for (target, w) in self.targets.iter().zip(&widths) {
                let _ = write!(header, "  {target:<w$}");
            }
            out.push_str(header.trim_end());
            out.push('\n');
            for (label, row) in labels.iter().zip(&cells) {
                let mut line = format!("  {label:<first$}");
                for ((status, text), w) in row.iter().zip(&widths) {
                    let padded = format!("{text:<w$}");
                    if color {
                        let _ = write!(line, "  {}{padded}\x1b[0m", status.color());
                    } else {
                        let _ = write!(line, "  {padded}");
                    }
                }
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
        for (number, (target, reason)) in legend.iter().enumerate() {
            let lead = format!("  {}. ", number + 1);
            let text = format!(
                "{target}: {} ({} {}, line {})",
                reason.message, reason.code, reason.rule, reason.line
            );
            wrap(&lead, &text, width, out);
        }
        for reason in &file.unread {
            let text = format!(
                "could not be read: {} ({} {}, line {})",
                reason.message, reason.code, reason.rule, reason.line
            );
            wrap("  ✖ ", &text, width, out);
        }
        if let Some(error) = &file.internal_error {
            wrap("  ", &format!("internal error: {error}"), width, out);
        }
    }
}

/// Writes `text` after `lead`, broken at spaces to fit `width` columns; the lines after the
/// first are indented as far as the lead.
pub(super) fn wrap(lead: &str, text: &str, width: usize, out: &mut String) {
    let indent = lead.chars().count();
    let room = width.saturating_sub(indent).max(20);
    out.push_str(lead);
    let mut used = 0;
    for word in text.split(' ').filter(|word| !word.is_empty()) {
        let length = word.chars().count();
        if used > 0 && used + 1 + length > room {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            used = 0;
        } else if used > 0 {
            out.push(' ');
            used += 1;
        }
        out.push_str(word);
        used += length;
    }
    out.push('\n');
}
