//! `toolcheck tokens`: what each tool of a file costs in context, as a table (human) or a
//! stable JSON document. The counts are the ones `tool-too-long` (TC106) and
//! `toolset-too-large` (TC107) budget: name, description, snippet, guidelines and the input
//! schema as compact JSON, each counted on its own with the configured encoding.

use std::fmt::Write;

use serde::Serialize;

use crate::catalog::Registry;
use crate::read::Input;
use crate::text::group_digits;
use crate::tokens::budget::{THRESHOLD, fewest_to_defer};
use crate::tokens::{Counter, Encoding, ToolTokens};

/// Version of the JSON document; bumped only on incompatible changes.
pub const JSON_VERSION: u32 = 1;

/// The context window the report relates set totals to.
pub const DEFAULT_WINDOW: usize = 200_000;

/// One tool's row.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ToolRow {
    /// The tool's name (`""` when it has none).
    pub name: String,
    /// `defer_loading: true`: shown, but not in the loaded total.
    pub deferred: bool,
    pub tokens: RowTokens,
}

/// A row's counts: the parts and their sum.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct RowTokens {
    #[serde(flatten)]
    pub parts: ToolTokens,
    pub total: usize,
}

/// The report of one file (one server or tool set).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FileTokens {
    /// The path as given.
    pub file: String,
    /// Why the file could not be read as a manifest; its tools are then empty.
    pub error: Option<String>,
    /// The `invalid-manifest` (TC001) findings `lint` reports for such a file, written as in
    /// `lint --format json`.
    pub diagnostics: Vec<serde_json::Value>,
    /// Sorted by total, largest first; equal totals keep file order.
    pub tools: Vec<ToolRow>,
    /// Provider built-ins without a schema, not counted.
    pub skipped: usize,
    /// Tokens of the set's `instructions` (system-prompt text), not in the totals.
    pub instructions: Option<usize>,
    /// Sum of the totals of the tools that are not deferred.
    pub loaded_tokens: usize,
    /// Sum of the totals of the deferred tools.
    pub deferred_tokens: usize,
    /// `loaded_tokens / window`.
    pub window_share: f64,
    /// `window_share` is over [`THRESHOLD`]: the report recommends deferring tools.
    pub over_threshold: bool,
}

impl FileTokens {
    pub fn loaded(&self) -> impl Iterator<Item = &ToolRow> {
        self.tools.iter().filter(|row| !row.deferred)
    }
}

/// The whole run.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Report {
    pub version: u32,
    pub toolcheck: &'static str,
    pub tokenizer: &'static str,
    pub window: usize,
    pub threshold: f64,
    pub files: Vec<FileTokens>,
    pub total: Total,
    /// `tokens --session NAME`: the session's total, by server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<SessionTokens>,
    /// `tokens --target NAME`: the totals are that target's count, not the encoding's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<TargetCount>,
}

/// How the totals were counted under `tokens --target NAME`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TargetCount {
    pub target: String,
    /// `o200k_base × 1.25 + 497 per request`.
    pub method: String,
    /// The target's tokenizer is not published: the totals are an estimate (`≈`).
    pub approximate: bool,
    /// Tokens a request adds once, in each file's loaded total.
    pub per_request: usize,
}

impl Report {
    /// Counts as `target` counts (its profile's `tokens`): each tool's total scaled and with
    /// the overhead per tool, each file's loaded total with the overhead per request. The parts
    /// stay the encoding's exact counts.
    pub fn count_as(&mut self, target: &str, count: &crate::targets::profile::TokenCount) {
        let mut total = Total {
            files: self.files.len(),
            ..Total::default()
        };
        for file in &mut self.files {
            file.loaded_tokens = 0;
            file.deferred_tokens = 0;
            for row in &mut file.tools {
                row.tokens.total = count.scale(row.tokens.total) + count.per_tool;
                if row.deferred {
                    file.deferred_tokens += row.tokens.total;
                } else {
                    file.loaded_tokens += row.tokens.total;
                }
            }
            if file.loaded().next().is_some() {
                file.loaded_tokens += count.per_request;
            }
            file.window_share = file.loaded_tokens as f64 / self.window.max(1) as f64;
            file.over_threshold = file.window_share > THRESHOLD;
            total.tools += file.tools.len();
            total.deferred_tools += file.tools.iter().filter(|row| row.deferred).count();
            total.loaded_tokens += file.loaded_tokens;
            total.deferred_tokens += file.deferred_tokens;
        }
        self.total = total;
        self.count = Some(TargetCount {
            target: target.to_string(),
            method: count.method(),
            approximate: count.approximate,
            per_request: count.per_request,
        });
    }
}

/// A session's files together (`tokens --session NAME`): what its host loads at once.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SessionTokens {
    pub name: String,
    /// The host's target profile.
    pub host: String,
    /// Largest first; equal totals keep input order.
    pub servers: Vec<ServerTokens>,
    pub tools: usize,
    pub loaded_tokens: usize,
    pub deferred_tokens: usize,
    /// `loaded_tokens / window`.
    pub window_share: f64,
    /// `window_share` is over [`THRESHOLD`].
    pub over_threshold: bool,
    /// The fewest servers to defer, largest first, to get under the threshold (empty when
    /// under it).
    pub defer_first: Vec<String>,
    /// The loaded tokens once `defer_first` are deferred.
    pub loaded_after_deferral: usize,
}

/// One server (file) of a session.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ServerTokens {
    pub server: String,
    pub file: String,
    /// Tools not deferred.
    pub loaded_tools: usize,
    pub loaded_tokens: usize,
    /// Of the session's loaded tokens.
    pub share: f64,
}

impl SessionTokens {
    /// The session of `report`'s files; `servers[i]` is the server name of `report.files[i]`.
    pub fn of(report: &Report, name: &str, host: &str, servers: &[String]) -> SessionTokens {
        let mut rows: Vec<ServerTokens> = report
            .files
            .iter()
            .zip(servers)
            .map(|(file, server)| ServerTokens {
                server: server.clone(),
                file: file.file.clone(),
                loaded_tools: file.loaded().count(),
                loaded_tokens: file.loaded_tokens,
                share: 0.0,
            })
            .collect();
        let loaded: usize = rows.iter().map(|row| row.loaded_tokens).sum();
        for row in &mut rows {
            row.share = row.loaded_tokens as f64 / loaded.max(1) as f64;
        }
        rows.sort_by_key(|row| std::cmp::Reverse(row.loaded_tokens));
        let window_share = loaded as f64 / report.window.max(1) as f64;
        let over_threshold = window_share > THRESHOLD;
        let budget = (report.window as f64 * THRESHOLD) as usize;
        let sizes: Vec<usize> = rows.iter().map(|row| row.loaded_tokens).collect();
        let (count, rest) = fewest_to_defer(&sizes, budget);
        SessionTokens {
            name: name.to_string(),
            host: host.to_string(),
            defer_first: rows
                .iter()
                .take(count)
                .map(|row| row.server.clone())
                .collect(),
            loaded_after_deferral: rest,
            tools: report.files.iter().map(|file| file.tools.len()).sum(),
            loaded_tokens: loaded,
            deferred_tokens: report.files.iter().map(|file| file.deferred_tokens).sum(),
            window_share,
            over_threshold,
            servers: rows,
        }
    }
}

/// Sums over every file.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct Total {
    pub files: usize,
    pub tools: usize,
    pub deferred_tools: usize,
    pub loaded_tokens: usize,
    pub deferred_tokens: usize,
}

impl Report {
    /// Whether some file could not be read as a manifest.
    pub fn has_errors(&self) -> bool {
        self.files.iter().any(|file| file.error.is_some())
    }
}

/// Counts every input, on all cores; files stay in input order.
pub fn report(
    inputs: Vec<Input>,
    registry: &Registry,
    encoding: Encoding,
    window: usize,
) -> Report {
    let window = window.max(1);
    let files = crate::parallel::map_in_order(inputs, |input| {
        count_file(input, registry, encoding, window)
    });
    let mut total = Total {
        files: files.len(),
        ..Total::default()
    };
    for file in &files {
        total.tools += file.tools.len();
        total.deferred_tools += file.tools.iter().filter(|row| row.deferred).count();
        total.loaded_tokens += file.loaded_tokens;
        total.deferred_tokens += file.deferred_tokens;
    }
    Report {
        version: JSON_VERSION,
        toolcheck: env!("CARGO_PKG_VERSION"),
        tokenizer: encoding.as_str(),
        window,
        threshold: THRESHOLD,
        files,
        total,
        session: None,
        count: None,
    }
}

/// Counts one file, read as `lint` reads it.
pub fn count_file(
    input: Input,
    registry: &Registry,
    encoding: Encoding,
    window: usize,
) -> FileTokens {
    let mut file = FileTokens {
        file: input.name.clone(),
        error: None,
        diagnostics: Vec::new(),
        tools: Vec::new(),
        skipped: 0,
        instructions: None,
        loaded_tokens: 0,
        deferred_tokens: 0,
        window_share: 0.0,
        over_threshold: false,
    };
    let counted = crate::lint::with_tool_set(input, registry, encoding, |set| {
        let mut counter = Counter::new(encoding);
        file.skipped = set.skipped;
        file.instructions = set.instructions.map(|entry| counter.text(&entry.value));
        let tools: Vec<_> = set.tools.iter().collect();
        tools
            .iter()
            .zip(counter.tools(&tools))
            .map(|(tool, parts)| ToolRow {
                name: tool.name().to_string(),
                deferred: tool.defer_loading,
                tokens: RowTokens {
                    parts,
                    total: parts.total(),
                },
            })
            .collect::<Vec<_>>()
    });
    match counted {
        Ok(tools) => file.tools = tools,
        Err(unreadable) => {
            file.error = Some(unreadable.message());
            file.diagnostics = unreadable
                .findings
                .iter()
                .map(crate::render::json::diagnostic_value)
                .collect();
            return file;
        }
    }
    file.tools
        .sort_by_key(|row| std::cmp::Reverse(row.tokens.total));
    for row in &file.tools {
        if row.deferred {
            file.deferred_tokens += row.tokens.total;
        } else {
            file.loaded_tokens += row.tokens.total;
        }
    }
    file.window_share = file.loaded_tokens as f64 / window as f64;
    file.over_threshold = file.window_share > THRESHOLD;
    file
}

/// The JSON document (`--format json`).
pub fn render_json(report: &Report) -> String {
    let mut out = serde_json::to_string_pretty(report).unwrap_or_default();
    out.push('\n');
    out
}

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
    if let Some(error) = &file.error {
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
        return;
    }
    if file.tools.is_empty() {
        let _ = writeln!(out, "  no tools");
        return;
    }

    let columns = [
        "name",
        "description",
        "snippet",
        "guidelines",
        "schema",
        "total",
    ];
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

    let loaded_count = file.tools.len() - deferred;
    let _ = writeln!(
        out,
        "  loaded: {} {}, {}{} tokens = {:.2}% of a {}-token window",
        loaded_count,
        plural(loaded_count, "tool", "tools"),
        match &report.count {
            Some(count) if count.approximate => "≈ ",
            _ => "",
        },
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
    if file.over_threshold {
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
    let unicode = style.color;
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
                report.tokenizer
            )
        )
    );
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
            paint("36", &bar(row.share, unicode)),
            row.share * 100.0
        );
    }
    let budget = (report.window as f64 * THRESHOLD) as usize;
    let _ = writeln!(
        out,
        "  total: {} tokens loaded = {:.2}% of a {}-token window ({} {:.0}%, {} tokens)",
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
    if session.deferred_tokens > 0 {
        let _ = writeln!(
            out,
            "  deferred: {} tokens, loaded through tool search when needed",
            group_digits(session.deferred_tokens)
        );
    }
    let _ = writeln!(
        out,
        "  {}",
        paint(
            "2",
            "note: the provider's tool-use system prompt (a few hundred tokens) comes on top"
        )
    );
    if !session.over_threshold {
        return;
    }
    let text = if session.defer_first.len() < servers {
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

fn cells(tokens: &RowTokens) -> [usize; 6] {
    let parts = &tokens.parts;
    [
        parts.name,
        parts.description,
        parts.snippet,
        parts.guidelines,
        parts.schema,
        tokens.total,
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
