//! `toolcheck tokens`: what each tool of a file costs in context, as a table (human) or a
//! stable JSON document. The counts are the ones `tool-too-long` (TC106) and
//! `toolset-too-large` (TC107) budget: name, description, snippet, guidelines and the input
//! schema as compact JSON, each counted on its own with the configured encoding.

use serde::Serialize;

use crate::catalog::Registry;
use crate::read::Input;
use crate::targets::tool_search::{DEFERRING_HOST, ToolSearch};
use crate::tokens::budget::{THRESHOLD, fewest_to_defer};
use crate::tokens::{Counter, Encoding, ToolTokens};

mod human;
pub use human::{Style, render_human};

/// Version of the JSON document; bumped only on incompatible changes.
pub const JSON_VERSION: u32 = 1;

/// The context window the report relates set totals to.
pub const DEFAULT_WINDOW: usize = 200_000;

/// One tool's row.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ToolRow {
    /// The tool's name (`""` when it has none).
    pub name: String,
    /// `defer_loading: true` (or deferred by its session's host): shown, but not in the
    /// loaded total.
    pub deferred: bool,
    /// Kept loaded by a host that defers (`always_load`, `_meta["anthropic/alwaysLoad"]`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub always_load: bool,
    pub tokens: RowTokens,
}

/// A row's counts: the parts and their sum.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct RowTokens {
    #[serde(flatten)]
    pub parts: ToolTokens,
    pub total: usize,
    /// The declared results (`results:`), each counted: read after a call, never sent with
    /// the definition, so not in `total` (`results-too-long` budgets them).
    #[serde(skip_serializing_if = "is_zero")]
    pub results: usize,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
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
    /// Tokens a request adds once, in each file's loaded total (a target's count).
    #[serde(skip)]
    pub per_request: usize,
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
        for row in self.files.iter_mut().flat_map(|file| &mut file.tools) {
            row.tokens.total = count.scale(row.tokens.total) + count.per_tool;
            row.tokens.results = count.scale(row.tokens.results);
        }
        self.per_request = count.per_request;
        self.retotal();
        self.count = Some(TargetCount {
            target: target.to_string(),
            method: count.method(),
            approximate: count.approximate,
            per_request: count.per_request,
        });
    }

    /// Each file's loaded and deferred tokens and the run's totals, again from the rows (with
    /// [`Report::per_request`] in each loaded total).
    fn retotal(&mut self) {
        let mut total = Total {
            files: self.files.len(),
            ..Total::default()
        };
        for file in &mut self.files {
            file.loaded_tokens = 0;
            file.deferred_tokens = 0;
            for row in &file.tools {
                match row.deferred {
                    true => file.deferred_tokens += row.tokens.total,
                    false => file.loaded_tokens += row.tokens.total,
                }
            }
            if file.loaded().next().is_some() {
                file.loaded_tokens += self.per_request;
            }
            file.window_share = file.loaded_tokens as f64 / self.window.max(1) as f64;
            file.over_threshold = file.window_share > THRESHOLD;
            total.tools += file.tools.len();
            total.deferred_tools += file.tools.iter().filter(|row| row.deferred).count();
            total.loaded_tokens += file.loaded_tokens;
            total.deferred_tokens += file.deferred_tokens;
        }
        self.total = total;
    }

    /// Loads the files as Claude Code loads MCP servers under `mode` (`tool-search:`): which
    /// tools it defers, whatever their `defer_loading` (a provider field it does not read), and
    /// what the list of deferred names it puts in the prompt costs. `servers[i]` is the
    /// server of `files[i]`.
    pub fn load_as_host(
        &mut self,
        mode: ToolSearch,
        servers: &[String],
        encoding: Encoding,
    ) -> HostLoading {
        let definitions: usize = self
            .files
            .iter()
            .flat_map(|file| &file.tools)
            .filter(|row| !row.always_load)
            .map(|row| row.tokens.total)
            .sum();
        let defer = mode.defers(definitions, self.window);
        for row in self.files.iter_mut().flat_map(|file| &mut file.tools) {
            row.deferred = defer && !row.always_load;
        }
        self.retotal();
        let wire = crate::targets::find(DEFERRING_HOST)
            .ok()
            .and_then(|profile| crate::rules::targets::helpers::wire_of(&profile).cloned());
        let names: Vec<String> = self
            .files
            .iter()
            .zip(servers)
            .flat_map(|(file, server)| {
                let wire = wire.as_ref();
                file.tools
                    .iter()
                    .filter(|row| row.deferred)
                    .map(move |row| match wire {
                        Some(wire) => crate::targets::wire::wire_name(wire, server, &row.name),
                        None => row.name.clone(),
                    })
            })
            .collect();
        HostLoading {
            tool_search: mode.as_string(),
            loaded_tools: self.total.tools - self.total.deferred_tools,
            deferred_tools: self.total.deferred_tools,
            deferred_names_tokens: match names.is_empty() {
                true => 0,
                false => encoding.count(&names.join("\n")),
            },
        }
    }
}

/// How a session's host loaded its tools (`tool-search:`).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct HostLoading {
    /// `default`, `true`, `false` or `auto:N`.
    pub tool_search: String,
    pub loaded_tools: usize,
    pub deferred_tools: usize,
    /// The list of deferred tool names the host puts in the prompt, one per line.
    pub deferred_names_tokens: usize,
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
    /// How its host loaded the tools, when the host defers by `tool-search:`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_loading: Option<HostLoading>,
    /// The host's own tools, when its profile says what they take.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_tools: Option<HostToolTokens>,
}

/// A host's own (built-in) tools beside a session's: a reported, versioned estimate (≈).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct HostToolTokens {
    pub loaded_tokens: usize,
    pub deferred_tokens: usize,
    /// The host release the figures are of.
    pub version: String,
    pub source: String,
    /// The session's loaded tokens and the host's own, of the window.
    pub window_share_with_session: f64,
}

impl HostToolTokens {
    /// `host`'s figures beside `session`'s loaded tools in a `window`-token context; `defers`:
    /// its tool search is on (else it loads its deferrable tools too).
    pub fn of(
        host: &crate::targets::profile::HostTools,
        session: &SessionTokens,
        window: usize,
        defers: bool,
    ) -> HostToolTokens {
        let (loaded, deferred) = match defers {
            true => (host.loaded, host.deferred),
            false => (host.loaded + host.deferred, 0),
        };
        HostToolTokens {
            loaded_tokens: loaded,
            deferred_tokens: deferred,
            version: host.version.clone(),
            source: host.source.clone(),
            window_share_with_session: (loaded + session.loaded_tokens) as f64
                / window.max(1) as f64,
        }
    }
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
    /// Its totals are the tools' definitions: a target's overhead per request is in each
    /// file's loaded total, not once per server (the host's 10% is of its definitions).
    pub fn of(report: &Report, name: &str, host: &str, servers: &[String]) -> SessionTokens {
        let mut rows: Vec<ServerTokens> = report
            .files
            .iter()
            .zip(servers)
            .map(|(file, server)| {
                let loaded_tools = file.loaded().count();
                let overhead = if loaded_tools > 0 {
                    report.per_request
                } else {
                    0
                };
                ServerTokens {
                    server: server.clone(),
                    file: file.file.clone(),
                    loaded_tools,
                    loaded_tokens: file.loaded_tokens - overhead,
                    share: 0.0,
                }
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
            host_loading: None,
            host_tools: None,
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
        per_request: 0,
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
        file.skipped = set.skipped();
        file.instructions = set.instructions.map(|entry| counter.text(&entry.value));
        let tools: Vec<_> = set.tools.iter().collect();
        let mut rows = tools
            .iter()
            .zip(counter.tools(&tools))
            .map(|(tool, parts)| ToolRow {
                name: tool.name().to_string(),
                deferred: tool.defer_loading,
                always_load: tool.always_load,
                tokens: RowTokens {
                    parts,
                    total: parts.total(),
                    results: 0,
                },
            })
            .collect::<Vec<_>>();
        for (row, tool) in rows.iter_mut().zip(&tools) {
            row.tokens.results = tool.results().map(|entry| counter.text(&entry.value)).sum();
        }
        rows
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
