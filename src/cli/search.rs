//! `toolcheck search QUERY PATHS...`: the files' tools (or a session's) ranked as an engine
//! would rank them, with the reason of each score.

use std::fmt::Write;
use std::sync::Arc;

use serde::Serialize;

use crate::catalog::Registry;
use crate::config::Config;
use crate::error::{Error, Result};

use super::args::{CompatFormat, SearchArgs, SearchEngine};
use super::{gather, load_config, print, registry};
use crate::read::Input;
use crate::read::discover::shell_word;
use crate::targets::Profile;
use crate::tokens::Encoding;

use crate::search::docs::{Deferral, Naming, docs_of, is_server, searchable};
use crate::search::{Answer, Engine, Hit, Index, Match, Path};

/// `toolcheck search`: the files' (or a session's) tools in one index, one query.
pub(super) fn run(args: SearchArgs) -> Result<i32> {
    let engine = match args.engine {
        SearchEngine::ClaudeCode => Engine::ClaudeCode,
        SearchEngine::ClaudeCode20 => Engine::ClaudeCode20,
        SearchEngine::Bm25 => Engine::Bm25,
        SearchEngine::Regex => Engine::Regex,
    };
    if engine == Engine::Regex {
        crate::search::compile(&args.query).map_err(|error| {
            Error::new(error.0).with_help("write the pattern as Python's `re` would take it")
        })?;
    }
    let config = load_config(&args.config)?;
    let registry = registry(&config)?;
    let (inputs, servers, host, deferral) = match &args.session {
        Some(name) => {
            let session = session_inputs(&config, name)?;
            (
                session.inputs,
                Some(session.servers),
                Some(session.host),
                session.deferral,
            )
        }
        None => {
            // The hints' commands repeat the query before the paths.
            let command = format!("search {}", shell_word(&args.query));
            let (inputs, errors) = gather(&config, &args.discovery, &args.paths, &command, None)?;
            let inputs = Error::after(errors, Ok(inputs))?;
            let host = if engine.host_names() {
                Some(crate::targets::find("claude-code")?)
            } else {
                None
            };
            (inputs, None, host, Deferral::of_engine(engine))
        }
    };
    let loaded = load(
        inputs,
        &registry,
        config.tokenizer,
        &Load {
            host,
            server_name: args.server_name.as_deref(),
            servers,
            deferral,
        },
    );
    for unread in &loaded.unread {
        eprintln!("warning: no tools read from {unread}");
    }
    if loaded.index.is_empty() {
        return Err(Error::new("no tools to search in the given files")
            .with_help("name MCP `tools/list` captures or tool manifests"));
    }
    let answer = loaded
        .index
        .search(engine, &args.query)
        .map_err(|error| Error::new(error.0))?;
    // Claude Code's `select:` returns every tool it names, in the order named, whatever its
    // `max_results` (ToolSearch of the release docs/search.md names).
    let top = match answer.path {
        Path::Select => answer.hits.len(),
        _ => args.top.unwrap_or(engine.default_top()),
    };
    print(&match args.format {
        CompatFormat::Json => render_json(&loaded, &answer, &args.query, engine, top),
        CompatFormat::Human => render_human(&loaded, &answer, &args.query, engine, top),
    });
    Ok(if answer.hits.is_empty() { 1 } else { 0 })
}

/// Version of the JSON document; bumped only on incompatible changes.
const VERSION: u32 = 1;

/// Where the tools come from and how their names are written.
pub struct Load<'a> {
    /// The host whose wire names the engine sees (a session's host; `claude-code` for the
    /// claude-code engines).
    pub host: Option<Arc<Profile>>,
    /// `--server-name`.
    pub server_name: Option<&'a str>,
    /// A session's server name of each input, in order.
    pub servers: Option<Vec<String>>,
    /// Which tools the search can return.
    pub deferral: Deferral,
}

/// The index of the tools a search can return, how many were left out as loaded, and the
/// files that held no tools (with why).
pub struct Loaded {
    pub index: Index,
    pub loaded: usize,
    pub unread: Vec<String>,
}

/// Reads every input's tools into one index.
pub fn load(
    inputs: Vec<Input>,
    registry: &Registry,
    encoding: Encoding,
    load: &Load<'_>,
) -> Loaded {
    let wire = load
        .host
        .as_deref()
        .and_then(crate::rules::targets::helpers::wire_of);
    let mut docs = Vec::new();
    let mut unread = Vec::new();
    for (index, input) in inputs.into_iter().enumerate() {
        let name = input.name.clone();
        let session_server = load
            .servers
            .as_ref()
            .and_then(|servers| servers.get(index))
            .cloned();
        let result = crate::lint::with_tool_set(input, registry, encoding, |set| {
            let own = set
                .server
                .and_then(|entry| entry.value.as_str())
                .map(str::to_string);
            let server = load
                .server_name
                .map(str::to_string)
                .or(session_server)
                .or(own)
                .or_else(|| {
                    // Standard input has no file name to take the server's from.
                    is_server(set).then(|| match name.as_str() {
                        "-" => "server".to_string(),
                        name => crate::config::sessions::server_of_path(name),
                    })
                });
            let naming = Naming {
                wire,
                server: server.as_deref(),
            };
            // Every file of a session is a server the host connects to.
            let server = load.servers.is_some() || is_server(set);
            docs_of(set, &name, &naming)
                .map(|(index, doc)| (doc, load.deferral.defers(&set.tools[index], server)))
                .collect::<Vec<_>>()
        });
        match result {
            Ok(found) => docs.extend(found),
            Err(none) => unread.push(format!("{name}: {}", none.message())),
        }
    }
    let (docs, loaded) = searchable(docs);
    Loaded {
        index: Index::new(docs),
        loaded,
        unread,
    }
}

/// A session's files as a search reads them.
pub struct SessionSearch {
    pub inputs: Vec<Input>,
    /// Each file's server name.
    pub servers: Vec<String>,
    pub host: Arc<Profile>,
    /// Which tools the host defers.
    pub deferral: Deferral,
}

/// The files of session `name` of `config`.
pub fn session_inputs(config: &Config, name: &str) -> Result<SessionSearch> {
    let loaded = crate::config::sessions::session_inputs(config, name)?;
    let host = crate::targets::find(&loaded.session.host.value)?;
    let deferral = Deferral::of_host(&host.name, loaded.session.tool_search);
    Ok(SessionSearch {
        inputs: loaded.inputs,
        servers: loaded.servers,
        host,
        deferral,
    })
}

/// One result as printed.
#[derive(Debug, Serialize)]
struct Row<'a> {
    rank: usize,
    /// The name the engine sees.
    name: &'a str,
    /// The tool's own name.
    tool: &'a str,
    file: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    why: &'a [Match],
}

#[derive(Debug, Serialize)]
struct Document<'a> {
    version: u32,
    query: &'a str,
    engine: &'a str,
    path: Path,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    required: &'a [String],
    searched: usize,
    /// Tools left out of the search because the host loads them (only deferred tools are
    /// search results).
    loaded: usize,
    top: usize,
    /// How many tools the query found before the cut to `top`.
    found: usize,
    results: Vec<Row<'a>>,
}

fn rows<'a>(index: &'a Index, answer: &'a Answer, top: usize) -> Vec<Row<'a>> {
    answer
        .hits
        .iter()
        .take(top)
        .enumerate()
        .map(|(rank, hit): (usize, &'a Hit)| {
            let doc = &index.docs[hit.doc];
            Row {
                rank: rank + 1,
                name: &doc.name,
                tool: &doc.tool,
                file: &doc.file,
                score: (answer.path == Path::Scored).then_some(hit.score),
                why: &hit.why,
            }
        })
        .collect()
}

pub fn render_json(
    loaded: &Loaded,
    answer: &Answer,
    query: &str,
    engine: Engine,
    top: usize,
) -> String {
    let index = &loaded.index;
    let document = Document {
        version: VERSION,
        query,
        engine: engine.as_str(),
        path: answer.path,
        required: &answer.required,
        searched: index.len(),
        loaded: loaded.loaded,
        top,
        found: answer.hits.len(),
        results: rows(index, answer, top),
    };
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}

/// A score as printed: whole numbers without decimals, BM25 with two.
fn number(score: f64) -> String {
    if score.fract() == 0.0 {
        format!("{score:.0}")
    } else {
        format!("{score:.2}")
    }
}

pub fn render_human(
    loaded: &Loaded,
    answer: &Answer,
    query: &str,
    engine: Engine,
    top: usize,
) -> String {
    let index = &loaded.index;
    let mut out = String::new();
    let how = match answer.path {
        Path::Select => " (select: every tool named, whatever the cap)",
        Path::ExactName => " (an exact tool name: that tool alone)",
        Path::McpPrefix => " (an `mcp__` prefix: the tools whose names start with it)",
        Path::Scored => "",
    };
    let cut = match answer.path {
        Path::Select => String::new(),
        _ => format!(", top {top}"),
    };
    let (deferred, left_out) = match loaded.loaded {
        0 => ("", String::new()),
        1 => (" deferred", " (1 loaded tool is not searched)".to_string()),
        count => (
            " deferred",
            format!(" ({count} loaded tools are not searched)"),
        ),
    };
    let _ = writeln!(
        out,
        "`{query}` with {}{how}: {} of {}{deferred} tools found{cut}{left_out}",
        engine.as_str(),
        answer.hits.len(),
        index.len(),
    );
    if !answer.required.is_empty() {
        let _ = writeln!(out, "required: {}", answer.required.join(", "));
    }
    let rows = rows(index, answer, top);
    // Tools of two files under one name (an engine that sends names as they are) are told
    // apart by their file.
    let mut seen = std::collections::HashMap::new();
    for row in &rows {
        *seen.entry(row.name).or_insert(0) += 1;
    }
    let shown: Vec<String> = rows
        .iter()
        .map(|row| match seen.get(row.name) {
            Some(count) if *count > 1 => format!("{} ({})", row.name, row.file),
            _ => row.name.to_string(),
        })
        .collect();
    let width = shown
        .iter()
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(0);
    for (row, name) in rows.iter().zip(&shown) {
        let score = row.score.map_or("-".to_string(), number);
        let _ = write!(out, "{:>3}  {name:<width$}  {score:>6}", row.rank);
        let why: Vec<String> = row
            .why
            .iter()
            .map(|m| {
                let count = m.count.map_or(String::new(), |count| format!(" ×{count}"));
                format!(
                    "{}: {}{count} +{}",
                    m.term,
                    m.field.as_str(),
                    number(m.weight)
                )
            })
            .collect();
        if !why.is_empty() {
            let _ = write!(out, "  {}", why.join("; "));
        }
        out.push('\n');
    }
    if answer.hits.len() > top {
        let _ = writeln!(
            out,
            "{} more below the top {top} (the model does not see them; `--top N` shows them)",
            answer.hits.len() - top
        );
    }
    if rows.is_empty() {
        out.push_str("no tool found: the model would not find any tool with this query\n");
    }
    out
}
