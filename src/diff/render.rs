//! The diff's outputs: human (a terminal), JSON (stable, versioned) and Markdown (a pull
//! request comment or `$GITHUB_STEP_SUMMARY`: a table and a token bar chart in text).

use std::fmt::Write;

use super::{CacheLevel, Class, FileDiff, Report, Status, Tokens, ToolDiff};
use crate::text::group_digits;

/// Writes the report as JSON to `out` as it is serialized: a diff of two large sets is tens
/// of megabytes, not worth a copy in memory.
pub fn write_json(report: &Report, out: &mut impl std::io::Write) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report)?;
    out.write_all(b"\n")
}

fn mark(class: Class) -> &'static str {
    match class {
        Class::Breaking => "✖",
        Class::Risky => "!",
        Class::Additive => "+",
    }
}

fn color(class: Class) -> &'static str {
    match class {
        Class::Breaking => "\x1b[31m",
        Class::Risky => "\x1b[33m",
        Class::Additive => "\x1b[32m",
    }
}

/// `+12` or `-3`.
fn signed(delta: i64) -> String {
    if delta > 0 {
        format!("+{}", group_digits(delta.unsigned_abs() as usize))
    } else if delta < 0 {
        format!("-{}", group_digits(delta.unsigned_abs() as usize))
    } else {
        "±0".to_string()
    }
}

/// `1,234 → 1,500 (+266, +21.6%)`.
fn tokens_text(tokens: &Tokens) -> String {
    let mut text = format!(
        "{} → {} ({}",
        group_digits(tokens.old),
        group_digits(tokens.new),
        signed(tokens.delta)
    );
    if tokens.old > 0 && tokens.delta != 0 {
        let _ = write!(
            text,
            ", {}{:.1}%",
            if tokens.delta > 0 { "+" } else { "" },
            tokens.delta as f64 * 100.0 / tokens.old as f64
        );
    }
    text.push(')');
    text
}

/// The lines every format opens with.
fn summary_lines(report: &Report) -> [String; 4] {
    let s = &report.summary;
    let t = &s.tools;
    [
        format!(
            "{} breaking, {} risky, {} additive change{}",
            s.breaking,
            s.risky,
            s.additive,
            if s.breaking + s.risky + s.additive == 1 {
                ""
            } else {
                "s"
            }
        ),
        format!(
            "tools: {} added, {} removed, {} renamed, {} changed, {} unchanged",
            t.added, t.removed, t.renamed, t.changed, t.unchanged
        ),
        format!("tokens ({}): {}", report.tokenizer, tokens_text(&s.tokens)),
        format!(
            "findings: {} new, {} fixed",
            s.findings.new, s.findings.fixed
        ),
    ]
}

/// What the change does to a prompt cache, when it touches what the model reads.
fn cache_note(report: &Report) -> Option<&'static str> {
    Some(match report.summary.cache_invalidated_from? {
        CacheLevel::Tools => {
            "cache: a cached prompt prefix stops matching from the tool definitions on (tools, \
             then system prompt, then messages)"
        }
        CacheLevel::System => {
            "cache: a cached prompt prefix stops matching from the system prompt on"
        }
    })
}

fn tool_label(tool: &ToolDiff) -> String {
    match &tool.old_name {
        Some(old) => format!("{old} → {}", tool.name),
        None if tool.name.is_empty() => "(no name)".to_string(),
        None => tool.name.clone(),
    }
}

/// How many new (and fixed) findings of a file the human report lists.
const HUMAN_FINDINGS: usize = 20;

/// The human report: the summary, then per file each tool that differs with its changes, and
/// the new and fixed findings.
pub fn human(report: &Report, use_color: bool) -> String {
    let paint = |class: Class, text: &str| {
        if use_color {
            format!("{}{text}\x1b[0m", color(class))
        } else {
            text.to_string()
        }
    };
    let mut out = String::new();
    let _ = writeln!(out, "{} → {}", report.old, report.new);
    for line in summary_lines(report) {
        let _ = writeln!(out, "{line}");
    }
    if let Some(note) = cache_note(report) {
        let _ = writeln!(out, "{note}");
    }
    let single = report.files.len() == 1 && report.files[0].old != report.files[0].new;
    for file in &report.files {
        out.push('\n');
        // Two files compared: the summary above is the file's.
        if !single {
            let _ = writeln!(
                out,
                "{} (tokens {})",
                file.label(),
                tokens_text(&file.tokens)
            );
        }
        for change in &file.changes {
            let _ = writeln!(
                out,
                "  {} {}",
                paint(change.class, mark(change.class)),
                change.message
            );
        }
        let width = file
            .tools
            .iter()
            .map(|t| tool_label(t).chars().count())
            .max()
            .unwrap_or(0);
        for tool in &file.tools {
            let label = tool_label(tool);
            let pad = width.saturating_sub(label.chars().count());
            let tokens = match tool.status {
                Status::Added | Status::Removed => {
                    format!("{} tokens", signed(tool.tokens.delta))
                }
                _ if tool.tokens.delta == 0 => format!("{} tokens", group_digits(tool.tokens.new)),
                _ => format!("tokens {}", tokens_text(&tool.tokens)),
            };
            let _ = writeln!(
                out,
                "  {} {label}{}  {:<8} {tokens}",
                paint(tool.class, mark(tool.class)),
                " ".repeat(pad),
                tool.status.as_str(),
            );
            // An added or removed tool says all in its line.
            if matches!(tool.status, Status::Changed | Status::Renamed) {
                for change in &tool.changes {
                    let _ = writeln!(
                        out,
                        "      {} {}",
                        paint(change.class, mark(change.class)),
                        change.message
                    );
                }
            }
        }
        list_findings(file, &mut out);
    }
    if report.files.is_empty() && report.unreadable.is_empty() {
        out.push_str("\nno change in what the model reads\n");
    }
    out
}

/// A file's new and fixed findings, the first [`HUMAN_FINDINGS`] of each.
fn list_findings(file: &FileDiff, out: &mut String) {
    for (title, findings) in [
        ("new finding", &file.findings.new),
        ("fixed finding", &file.findings.fixed),
    ] {
        if findings.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "  {} {title}{}:",
            findings.len(),
            if findings.len() == 1 { "" } else { "s" }
        );
        for f in findings.iter().take(HUMAN_FINDINGS) {
            let _ = writeln!(
                out,
                "    {}:{}:{}: {} {} {}",
                f.file, f.line, f.column, f.code, f.rule, f.message
            );
        }
        if findings.len() > HUMAN_FINDINGS {
            let _ = writeln!(
                out,
                "    … and {} more (`--format json` lists them all)",
                findings.len() - HUMAN_FINDINGS
            );
        }
    }
}

/// A cell of a Markdown table: `|` escaped, lines joined.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Text in backticks, safe whatever it holds.
fn code(text: &str) -> String {
    let text = text.replace('`', "'");
    format!("`{}`", cell(&text))
}

/// A bar of `value` out of `max` in `width` cells, with eighths.
fn bar(value: usize, max: usize, width: usize) -> String {
    const EIGHTHS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    if max == 0 {
        return String::new();
    }
    let eighths = (value as u128 * width as u128 * 8 / max as u128) as usize;
    let mut out = "█".repeat(eighths / 8);
    out.push_str(EIGHTHS[eighths % 8]);
    if value > 0 && out.is_empty() {
        out.push('▏');
    }
    out
}

/// How many tools the Markdown table and the bar chart show at most.
const MARKDOWN_ROWS: usize = 50;
const CHART_ROWS: usize = 15;
/// How many additive changes a tool's cell lists (its breaking and risky ones are all listed).
const MARKDOWN_ADDITIVE: usize = 3;

/// The Markdown report: the summary, a table of the tools that differ (added tools folded),
/// the token bar chart, and the new and fixed findings.
pub fn markdown(report: &Report) -> String {
    let s = &report.summary;
    let mut out = String::new();
    out.push_str("## toolcheck diff\n\n");
    let _ = writeln!(out, "{} → {}\n", code(&report.old), code(&report.new));
    let verdict = if s.breaking > 0 {
        format!("**✖ {} breaking**", s.breaking)
    } else {
        "✔ 0 breaking".to_string()
    };
    let _ = writeln!(
        out,
        "{verdict} · **{} risky** · {} additive · tools: {} added, {} removed, {} renamed, {} \
         changed, {} unchanged · tokens ({}): {} · findings: {} new, {} fixed\n",
        s.risky,
        s.additive,
        s.tools.added,
        s.tools.removed,
        s.tools.renamed,
        s.tools.changed,
        s.tools.unchanged,
        report.tokenizer,
        tokens_text(&s.tokens),
        s.findings.new,
        s.findings.fixed
    );
    if let Some(note) = cache_note(report) {
        let _ = writeln!(out, "{note}\n");
    }
    let several = report.files.len() > 1;
    let rows: Vec<(&FileDiff, &ToolDiff)> = report
        .files
        .iter()
        .flat_map(|file| file.tools.iter().map(move |tool| (file, tool)))
        .collect();
    let (added, others): (Vec<_>, Vec<_>) = rows
        .iter()
        .partition(|(_, tool)| tool.status == Status::Added);
    let file_changes: Vec<_> = report
        .files
        .iter()
        .flat_map(|file| file.changes.iter().map(move |c| (file, c)))
        .collect();
    if !others.is_empty() || !file_changes.is_empty() {
        out.push_str("| | tool | change | tokens |\n|---|---|---|---|\n");
        for (file, change) in &file_changes {
            let _ = writeln!(
                out,
                "| {} {} | {} | {} | |",
                mark(change.class),
                change.class.as_str(),
                code(&file.label()),
                cell(&change.message)
            );
        }
        for (file, tool) in others.iter().take(MARKDOWN_ROWS) {
            let name = if several {
                format!("{} ({})", code(&tool_label(tool)), cell(&file.label()))
            } else {
                code(&tool_label(tool))
            };
            let _ = writeln!(
                out,
                "| {} {} | {name} | {} | {} |",
                mark(tool.class),
                tool.class.as_str(),
                changes_cell(tool),
                tokens_text(&tool.tokens)
            );
        }
        if others.len() > MARKDOWN_ROWS {
            let _ = writeln!(
                out,
                "\n{} more changed tools: `toolcheck diff` lists them all.",
                others.len() - MARKDOWN_ROWS
            );
        }
        out.push('\n');
    }
    added_tools(&added, &mut out);
    chart(report, &rows, &mut out);
    findings(report, &mut out);
    for unreadable in &report.unreadable {
        out.push_str(&format!(
            "Not compared, it cannot be read as tools: `{unreadable}`.\n"
        ));
    }
    if report.files.is_empty() && report.unreadable.is_empty() {
        out.push_str("No change in what the model reads.\n");
    }
    out
}

/// The added tools, folded: their names and tokens.
fn added_tools(added: &[(&FileDiff, &ToolDiff)], out: &mut String) {
    if added.is_empty() {
        return;
    }
    let total: i64 = added.iter().map(|(_, t)| t.tokens.delta).sum();
    let _ = writeln!(
        out,
        "<details><summary>{} tool{} added ({} tokens)</summary>\n",
        added.len(),
        if added.len() == 1 { "" } else { "s" },
        signed(total)
    );
    let names: Vec<String> = added
        .iter()
        .map(|(_, t)| format!("{} ({})", code(&t.name), signed(t.tokens.delta)))
        .collect();
    let _ = writeln!(out, "{}\n\n</details>\n", names.join(", "));
}

/// A tool's changes in one cell: every breaking and risky one, the additive ones up to
/// [`MARKDOWN_ADDITIVE`].
fn changes_cell(tool: &ToolDiff) -> String {
    let mut changes: Vec<String> = Vec::new();
    let mut additive = 0;
    for change in &tool.changes {
        if change.class == Class::Additive {
            additive += 1;
            if additive > MARKDOWN_ADDITIVE {
                continue;
            }
        }
        changes.push(format!("{} {}", mark(change.class), cell(&change.message)));
    }
    if additive > MARKDOWN_ADDITIVE {
        changes.push(format!(
            "+ {} more additive changes",
            additive - MARKDOWN_ADDITIVE
        ));
    }
    changes.join("<br>")
}

/// The token bar chart: the set, then the tools whose cost moved most.
fn chart(report: &Report, rows: &[(&FileDiff, &ToolDiff)], out: &mut String) {
    let mut moved: Vec<&ToolDiff> = rows
        .iter()
        .map(|(_, tool)| *tool)
        .filter(|tool| tool.tokens.delta != 0)
        .collect();
    if moved.is_empty() && report.summary.tokens.delta == 0 {
        return;
    }
    moved.sort_by_key(|tool| std::cmp::Reverse(tool.tokens.delta.unsigned_abs()));
    let hidden = moved.len().saturating_sub(CHART_ROWS);
    moved.truncate(CHART_ROWS);
    const WIDTH: usize = 20;
    let total = report.summary.tokens;
    let mut lines: Vec<(String, String, String, String)> = Vec::new();
    let set_max = total.old.max(total.new);
    lines.push((
        "all tools".to_string(),
        format!(
            "{} {}",
            bar(total.old, set_max, WIDTH),
            group_digits(total.old)
        ),
        format!(
            "{} {}",
            bar(total.new, set_max, WIDTH),
            group_digits(total.new)
        ),
        signed(total.delta),
    ));
    let tool_max = moved
        .iter()
        .map(|t| t.tokens.old.max(t.tokens.new))
        .max()
        .unwrap_or(0);
    for tool in &moved {
        lines.push((
            tool_label(tool),
            format!(
                "{} {}",
                bar(tool.tokens.old, tool_max, WIDTH),
                group_digits(tool.tokens.old)
            ),
            format!(
                "{} {}",
                bar(tool.tokens.new, tool_max, WIDTH),
                group_digits(tool.tokens.new)
            ),
            signed(tool.tokens.delta),
        ));
    }
    let w0 = lines.iter().map(|l| l.0.chars().count()).max().unwrap_or(0);
    let w1 = lines
        .iter()
        .map(|l| l.1.chars().count())
        .max()
        .unwrap_or(0)
        .max(3);
    let w2 = lines
        .iter()
        .map(|l| l.2.chars().count())
        .max()
        .unwrap_or(0)
        .max(3);
    out.push_str("Tokens per request (tools scaled to the largest shown):\n\n```text\n");
    let _ = writeln!(out, "{:<w0$}  {:<w1$}  {:<w2$}  delta", "", "old", "new");
    for (name, old, new, delta) in &lines {
        let line = format!("{name:<w0$}  {old:<w1$}  {new:<w2$}  {delta}");
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if hidden > 0 {
        let _ = writeln!(out, "… and {hidden} more tools whose cost changed");
    }
    out.push_str("```\n\n");
}

fn findings(report: &Report, out: &mut String) {
    let new: Vec<_> = report.files.iter().flat_map(|f| &f.findings.new).collect();
    let fixed: Vec<_> = report
        .files
        .iter()
        .flat_map(|f| &f.findings.fixed)
        .collect();
    for (title, list, open) in [("new", &new, true), ("fixed", &fixed, false)] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "<details{}><summary>{} {title} finding{}</summary>\n",
            if open && list.len() <= 20 {
                " open"
            } else {
                ""
            },
            list.len(),
            if list.len() == 1 { "" } else { "s" }
        );
        out.push_str("| finding | where | message |\n|---|---|---|\n");
        for f in list.iter().take(MARKDOWN_ROWS) {
            let tool = f
                .tool
                .as_deref()
                .map_or(String::new(), |tool| format!(" {}", code(tool)));
            let _ = writeln!(
                out,
                "| {} {} {} | {}:{}{tool} | {} |",
                f.severity,
                f.code,
                f.rule,
                cell(&f.file),
                f.line,
                cell(&f.message)
            );
        }
        if list.len() > MARKDOWN_ROWS {
            let _ = writeln!(out, "\n{} more.", list.len() - MARKDOWN_ROWS);
        }
        out.push_str("\n</details>\n\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_with_eighths() {
        assert_eq!(bar(10, 10, 4), "████");
        assert_eq!(bar(5, 10, 4), "██");
        assert_eq!(bar(1, 16, 2), "▏");
        assert_eq!(bar(1, 1000, 4), "▏");
        assert_eq!(bar(0, 10, 4), "");
        assert_eq!(bar(3, 0, 4), "");
    }

    #[test]
    fn cells_escape_pipes_and_backticks() {
        assert_eq!(code("a|b`c"), "`a\\|b'c`");
    }
}
