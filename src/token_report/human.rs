//! The human report of `toolcheck tokens`: a table per file (or a bar per server of a
//! session), its totals and, over the threshold, what to defer.

use std::fmt::Write;

use super::{FileTokens, Report, RowTokens, SessionTokens};
use crate::text::group_digits;
use crate::tokens::budget::THRESHOLD;

/// How the human table is drawn.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// ANSI colors, and `█` bars (else `#`).
    pub color: bool,
}

const BAR_WIDTH: usize = 20;
const NAME_WIDTH: usize = 32;

/// The human report: one table per file, then a total when there are several files.
pub fn render_human(report: &Report, style: Style) -> String {
    let paint = |code: &str, text: &str| {
        if style.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    };
    let mut out = String::new();
    if let Some(session) = &report.session {
        render_session(&mut out, session, report, style, &paint);
        return out;
    }
    for (index, file) in report.files.iter().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        render_file(&mut out, file, report, style, &paint);
    }
    if report.files.len() > 1 {
        let total = &report.total;
        let _ = writeln!(
            out,
            "\n{}",
            paint(
                "1",
                &format!(
                    "total: {} files, {} tools ({} deferred), {} tokens loaded, {} deferred ({})",
                    group_digits(total.files),
                    group_digits(total.tools),
                    group_digits(total.deferred_tools),
                    group_digits(total.loaded_tokens),
                    group_digits(total.deferred_tokens),
                    report.tokenizer
                )
            )
        );
    }
    out
}

fn render_file(
    out: &mut String,
    file: &FileTokens,
    report: &Report,
    style: Style,
    paint: &dyn Fn(&str, &str) -> String,
) {
    let deferred = file.tools.len() - file.loaded().count();
    write_file_header(out, file, deferred, report, paint);
    if let Some(error) = &file.error {
        write_unreadable(out, file, error, paint);
        return;
    }
    if file.tools.is_empty() {
        let _ = writeln!(out, "  no tools");
        return;
    }
    write_tool_table(out, file, style, paint);
    write_file_totals(out, file, deferred, report, paint);
    if file.over_threshold {
        write_file_recommendation(out, file, paint);
    }
}

/// The file's name, its tool count and what counted them.
fn write_file_header(
    out: &mut String,
    file: &FileTokens,
    deferred: usize,
    report: &Report,
    paint: &dyn Fn(&str, &str) -> String,
) {
    let mut header = format!(
        "{}: {} {}",
        file.file,
        file.tools.len(),
        plural(file.tools.len(), "tool", "tools")
    );
    if deferred > 0 {
        let _ = write!(header, " ({deferred} deferred)");
    }
    match &report.count {
        Some(count) => {
            let _ = write!(header, ", `{}` tokens", count.target);
        }
        None => {
            let _ = write!(header, ", {} tokens", report.tokenizer);
        }
    }
    let _ = writeln!(out, "{}", paint("1", &header));
    write_count(out, report);
}

/// Under a target's count: how it counts (`counted as `anthropic` counts: ...`).
fn write_count(out: &mut String, report: &Report) {
    if let Some(count) = &report.count {
        let kind = match count.approximate {
            true => "an estimate (≈): its tokenizer is not published",
            false => "its tokenizer's exact counts",
        };
        let _ = writeln!(
            out,
            "  counted as `{}` counts: {}, {kind}; the parts are exact {} counts",
            count.target, count.method, report.tokenizer
        );
    }
}

/// `≈ ` before a total that is an estimate.
fn about(report: &Report) -> &'static str {
    match &report.count {
        Some(count) if count.approximate => "≈ ",
        _ => "",
    }
}

/// Why the file could not be read: as `lint` reports it (code, rule, place and message).
fn write_unreadable(
    out: &mut String,
    file: &FileTokens,
    error: &str,
    paint: &dyn Fn(&str, &str) -> String,
) {
    let label = paint("31", "error: cannot read:");
    if file.diagnostics.is_empty() {
        let _ = writeln!(out, "  {label} {error}");
    }
    // As `lint` reports them: code, rule, place and message.
    for finding in &file.diagnostics {
        let text = |key: &str| finding[key].as_str().unwrap_or_default();
        let start = &finding["span"]["start"];
        let _ = writeln!(
            out,
            "  {label} {} {} at {}:{}: {}",
            text("code"),
            text("rule"),
            start["line"],
            start["column"],
            text("message")
        );
    }
}

/// A row per tool: its parts, its total and its share of the loaded total.
fn write_tool_table(
    out: &mut String,
    file: &FileTokens,
    style: Style,
    paint: &dyn Fn(&str, &str) -> String,
) {
    // Results only where a tool declares some: after the total, which they are not in.
    let with_results = file.tools.iter().any(|row| row.tokens.results > 0);
    let all_columns = [
        "name",
        "description",
        "snippet",
        "guidelines",
        "schema",
        "total",
        "results",
    ];
    let columns = &all_columns[..all_columns.len() - usize::from(!with_results)];
    let name_width = file
        .tools
        .iter()
        .map(|row| clip(&row.name, NAME_WIDTH).chars().count())
        .chain(["tool".len()])
        .max()
        .unwrap_or(4);
    let widths: Vec<usize> = columns
        .iter()
        .enumerate()
        .map(|(index, column)| {
            file.tools
                .iter()
                .map(|row| group_digits(cells(&row.tokens)[index]).len())
                .chain([column.len()])
                .max()
                .unwrap_or(column.len())
        })
        .collect();
    let mut line = format!("  {:<name_width$}", "tool");
    for (column, width) in columns.iter().zip(&widths) {
        let _ = write!(line, "  {column:>width$}");
    }
    let _ = write!(line, "  share of loaded");
    let _ = writeln!(out, "{}", paint("2", line.trim_end()));

    let loaded = file.loaded_tokens.max(1);
    for row in &file.tools {
        let name = if row.name.is_empty() {
            "(unnamed)".to_string()
        } else {
            clip(&row.name, NAME_WIDTH)
        };
        let mut line = format!("  {name:<name_width$}");
        for (value, width) in cells(&row.tokens).iter().zip(&widths) {
            let _ = write!(line, "  {:>width$}", group_digits(*value));
        }
        if row.deferred {
            let _ = write!(line, "  deferred");
            let _ = writeln!(out, "{}", paint("2", &line));
            continue;
        }
        let share = row.tokens.total as f64 / loaded as f64;
        let _ = writeln!(
            out,
            "{line}  {} {:>5.1}%",
            paint("36", &bar(share, style.color)),
            share * 100.0
        );
    }
    if with_results {
        let _ = writeln!(
            out,
            "  {}",
            paint(
                "2",
                "results: the declared results, read after a call and kept in the history; not \
                 in the total (`results-too-long` budgets each)"
            )
        );
    }
}

/// The loaded and deferred totals, the instructions and what was skipped.
fn write_file_totals(
    out: &mut String,
    file: &FileTokens,
    deferred: usize,
    report: &Report,
    paint: &dyn Fn(&str, &str) -> String,
) {
    let loaded_count = file.tools.len() - deferred;
    let _ = writeln!(
        out,
        "  loaded: {} {}, {}{} tokens = {:.2}% of a {}-token window",
        loaded_count,
        plural(loaded_count, "tool", "tools"),
        about(report),
        group_digits(file.loaded_tokens),
        file.window_share * 100.0,
        group_digits(report.window)
    );
    if deferred > 0 {
        let _ = writeln!(
            out,
            "  deferred: {} {}, {} tokens, loaded through tool search when needed",
            deferred,
            plural(deferred, "tool", "tools"),
            group_digits(file.deferred_tokens)
        );
    }
    if let Some(tokens) = file.instructions {
        let _ = writeln!(
            out,
            "  instructions: {} tokens of system-prompt text, not in the totals",
            group_digits(tokens)
        );
    }
    if file.skipped > 0 {
        let _ = writeln!(
            out,
            "  skipped: {} provider built-in {} without a schema",
            file.skipped,
            plural(file.skipped, "tool", "tools")
        );
    }
    let note = match &report.count {
        Some(count) if count.per_request > 0 => format!(
            "note: the loaded total includes the target's {}-token tool-use overhead per request",
            count.per_request
        ),
        _ => "note: the provider's tool-use system prompt (a few hundred tokens) comes on top"
            .to_string(),
    };
    let _ = writeln!(out, "  {}", paint("2", &note));
}

/// Over the threshold: which tools to defer, the largest named.
fn write_file_recommendation(
    out: &mut String,
    file: &FileTokens,
    paint: &dyn Fn(&str, &str) -> String,
) {
    let largest: Vec<String> = file
        .loaded()
        .take(3)
        .map(|row| {
            let name = if row.name.is_empty() {
                "(unnamed)"
            } else {
                &row.name
            };
            format!("`{name}` ({})", group_digits(row.tokens.total))
        })
        .collect();
    let text = format!(
        "recommendation: the loaded tools take {:.1}% of the window, over {:.0}%; mark the \
         largest `defer_loading: true` so that tool search loads them when needed, and \
         keep the 3-5 most used loaded. Largest: {}",
        file.window_share * 100.0,
        THRESHOLD * 100.0,
        largest.join(", ")
    );
    let _ = writeln!(out, "  {}", paint("33", &text));
}

/// `tokens --session`: the session's total and a bar per server (the files that cannot be
/// read first, as `lint` reports them).
fn render_session(
    out: &mut String,
    session: &SessionTokens,
    report: &Report,
    style: Style,
    paint: &dyn Fn(&str, &str) -> String,
) {
    for file in report.files.iter().filter(|file| file.error.is_some()) {
        let error = file.error.as_deref().unwrap_or_default();
        let _ = writeln!(
            out,
            "{} {}: {error}",
            paint("31", "error: cannot read:"),
            file.file
        );
    }
    let servers = session.servers.len();
    let _ = writeln!(
        out,
        "{}",
        paint(
            "1",
            &format!(
                "session {} (host {}): {} {}, {} {}, {} tokens",
                session.name,
                session.host,
                servers,
                plural(servers, "server", "servers"),
                session.tools,
                plural(session.tools, "tool", "tools"),
                match &report.count {
                    Some(count) => format!("`{}`", count.target),
                    None => report.tokenizer.to_string(),
                }
            )
        )
    );
    write_count(out, report);
    write_server_table(out, session, style, paint);
    write_session_totals(out, session, report, paint);
    if session.over_threshold {
        write_session_recommendation(out, session, report, paint);
    }
}

/// A row per server: its loaded tools, tokens and share of the session.
fn write_server_table(
    out: &mut String,
    session: &SessionTokens,
    style: Style,
    paint: &dyn Fn(&str, &str) -> String,
) {
    let name_width = session
        .servers
        .iter()
        .map(|row| clip(&row.server, NAME_WIDTH).chars().count())
        .chain(["server".len()])
        .max()
        .unwrap_or(6);
    let tools_width = session
        .servers
        .iter()
        .map(|row| group_digits(row.loaded_tools).len())
        .chain(["tools".len()])
        .max()
        .unwrap_or(5);
    let tokens_width = session
        .servers
        .iter()
        .map(|row| group_digits(row.loaded_tokens).len())
        .chain(["tokens".len()])
        .max()
        .unwrap_or(6);
    let header = format!(
        "  {:<name_width$}  {:>tools_width$}  {:>tokens_width$}  share of the session",
        "server", "tools", "tokens"
    );
    let _ = writeln!(out, "{}", paint("2", &header));
    for row in &session.servers {
        let _ = writeln!(
            out,
            "  {:<name_width$}  {:>tools_width$}  {:>tokens_width$}  {} {:>5.1}%",
            clip(&row.server, NAME_WIDTH),
            group_digits(row.loaded_tools),
            group_digits(row.loaded_tokens),
            paint("36", &bar(row.share, style.color)),
            row.share * 100.0
        );
    }
}

/// The session's loaded total against the window and the threshold, and what is deferred.
fn write_session_totals(
    out: &mut String,
    session: &SessionTokens,
    report: &Report,
    paint: &dyn Fn(&str, &str) -> String,
) {
    let budget = (report.window as f64 * THRESHOLD) as usize;
    let _ = writeln!(
        out,
        "  total: {}{} tokens loaded = {:.2}% of a {}-token window ({} {:.0}%, {} tokens)",
        about(report),
        group_digits(session.loaded_tokens),
        session.window_share * 100.0,
        group_digits(report.window),
        if session.over_threshold {
            "over"
        } else {
            "within"
        },
        THRESHOLD * 100.0,
        group_digits(budget)
    );
    if let Some(own) = &session.host_tools {
        let loading = match own.deferred_tokens {
            0 => format!("≈ {} tokens, all loaded", group_digits(own.loaded_tokens)),
            deferred => format!(
                "≈ {} tokens loaded, ≈ {} deferred",
                group_digits(own.loaded_tokens),
                group_digits(deferred)
            ),
        };
        let _ = writeln!(
            out,
            "  with {}'s own tools ({loading}; {}): ≈ {} tokens = {:.2}% of the window",
            session.host,
            own.version,
            group_digits(own.loaded_tokens + session.loaded_tokens),
            own.window_share_with_session * 100.0
        );
    }
    if session.deferred_tokens > 0 {
        let _ = writeln!(
            out,
            "  deferred: {} tokens, loaded through tool search when needed",
            group_digits(session.deferred_tokens)
        );
    }
    if let Some(loading) = &session.host_loading {
        let _ = writeln!(
            out,
            "  tool-search: {}: {} {} loaded, {} deferred; the list of deferred names costs {} \
             tokens",
            loading.tool_search,
            loading.loaded_tools,
            plural(loading.loaded_tools, "tool", "tools"),
            loading.deferred_tools,
            group_digits(loading.deferred_names_tokens)
        );
    }
    let prompt = match &report.count {
        Some(count) if count.per_request > 0 => format!(
            "{}{} tokens as `{}` counts",
            about(report),
            group_digits(count.per_request),
            count.target
        ),
        _ => "a few hundred tokens".to_string(),
    };
    let _ = writeln!(
        out,
        "  {}",
        paint(
            "2",
            &format!(
                "note: the provider's tool-use system prompt ({prompt}) comes on top, once \
                 per request"
            )
        )
    );
}

/// Over the threshold: the fewest servers to defer, or, when none fits, to defer tools.
fn write_session_recommendation(
    out: &mut String,
    session: &SessionTokens,
    report: &Report,
    paint: &dyn Fn(&str, &str) -> String,
) {
    let text = if session.defer_first.len() < session.servers.len() {
        let names: Vec<String> = session
            .defer_first
            .iter()
            .map(|server| format!("`{server}`"))
            .collect();
        format!(
            "recommendation: defer {} first (the fewest servers, largest first, that bring the \
             session under {:.0}%): it then loads {} tokens ({:.1}%); keep the 3-5 most used \
             tools loaded",
            names.join(", "),
            THRESHOLD * 100.0,
            group_digits(session.loaded_after_deferral),
            session.loaded_after_deferral as f64 * 100.0 / report.window.max(1) as f64
        )
    } else {
        format!(
            "recommendation: no server can stay loaded whole under {:.0}%: mark the rarely used \
             tools `defer_loading: true`, largest server first, and keep the 3-5 most used loaded",
            THRESHOLD * 100.0
        )
    };
    let _ = writeln!(out, "  {}", paint("33", &text));
}

fn cells(tokens: &RowTokens) -> [usize; 7] {
    let parts = &tokens.parts;
    [
        parts.name,
        parts.description,
        parts.snippet,
        parts.guidelines,
        parts.schema,
        tokens.total,
        tokens.results,
    ]
}

fn plural<'a>(count: usize, one: &'a str, many: &'a str) -> &'a str {
    if count == 1 { one } else { many }
}

/// A bar of `BAR_WIDTH` cells, `share` of them filled (at least one for a non-zero share).
fn bar(share: f64, unicode: bool) -> String {
    let filled = ((share * BAR_WIDTH as f64).round() as usize)
        .max(usize::from(share > 0.0))
        .min(BAR_WIDTH);
    let (full, empty) = if unicode { ('█', '·') } else { ('#', '.') };
    std::iter::repeat_n(full, filled)
        .chain(std::iter::repeat_n(empty, BAR_WIDTH - filled))
        .collect()
}

/// At most `width` characters, with `…` marking a cut.
fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut clipped: String = text.chars().take(width.saturating_sub(1)).collect();
    clipped.push('…');
    clipped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(bar(0.0, false), ".".repeat(20));
        assert_eq!(bar(0.001, false), format!("#{}", ".".repeat(19)));
        assert_eq!(
            bar(0.5, false),
            format!("{}{}", "#".repeat(10), ".".repeat(10))
        );
        assert_eq!(bar(1.0, true), "█".repeat(20));
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abcd", 4), "abcd");
    }
}
