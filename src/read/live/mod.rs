//! Reading tools where they live: a running MCP server (`lint --mcp -- CMD`), every server of
//! a host's config (`--host-config`), captured as the text `toolcheck snapshot` writes.
//!
//! Nothing here runs unless the user named a server on the command line. A server's tools
//! are kept as the server sent them (the raw JSON of each `tools/list` page, keys in its
//! order), not as the SDK's typed model, which drops fields it does not know and cannot hold
//! a tool that is not valid: the linter must see exactly what a host would.

pub mod host_config;
mod process;
mod stdio;

use std::collections::VecDeque;
use std::future::Future;
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// How many servers of a host config start at once.
const AT_ONCE: usize = 2;

/// The largest message a server may send by default (`--max-message-size`): as large as the
/// largest file toolcheck reads by default (`max-file-size`).
pub const DEFAULT_MAX_MESSAGE: usize = 32 << 20;

/// What a server may take: time for each answer, and bytes for each message.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub timeout: Duration,
    pub max_message: usize,
}

/// A server to start: a command, or (later) a URL.
#[derive(Debug, Clone)]
pub struct Server {
    /// The name the host knows the server by (a host config's key, `--server-name`); `None`:
    /// the server's own `serverInfo.name`.
    pub name: Option<String>,
    pub launch: Launch,
    /// `alwaysLoad: true` in a Claude Code host config: its tools are never deferred.
    pub always_load: bool,
}

#[derive(Debug, Clone)]
pub enum Launch {
    Command {
        program: String,
        args: Vec<String>,
        /// Variables set for the server, over those it inherits.
        env: Vec<(String, String)>,
        inherit: Inherit,
        /// Where it runs; `None`: where toolcheck runs.
        cwd: Option<std::path::PathBuf>,
    },
    Url {
        url: String,
        headers: Vec<(String, String)>,
    },
}

/// Which of toolcheck's environment variables a server inherits, as its host would pass them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inherit {
    All,
    /// Only these (the MCP SDK's default environment, which Claude Desktop passes).
    Only(&'static [&'static str]),
}

impl Server {
    /// What the user would recognize: the name, else the command line or URL.
    pub fn label(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        match &self.launch {
            Launch::Command { program, args, .. } => std::iter::once(program.as_str())
                .chain(args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" "),
            Launch::Url { url, .. } => url.clone(),
        }
    }
}

/// What a server said about itself and its tools.
#[derive(Debug, Clone)]
pub struct Capture {
    /// The name the output shows and the host prefixes tool names with.
    pub name: String,
    /// The document to lint and to snapshot: `{server, instructions, tools}` as pretty JSON;
    /// or, when the server sent a line that is not JSON, that line as it came.
    pub text: String,
}

impl Capture {
    fn new(name: String, instructions: Option<String>, tools: Value, always_load: bool) -> Capture {
        let mut document = Map::new();
        document.insert("server".into(), Value::String(name.clone()));
        if let Some(instructions) = instructions {
            document.insert("instructions".into(), Value::String(instructions));
        }
        // The host config's word, kept with the tools it applies to.
        if always_load {
            document.insert("alwaysLoad".into(), Value::Bool(true));
        }
        document.insert("tools".into(), tools);
        let mut text = serde_json::to_string_pretty(&Value::Object(document))
            .unwrap_or_else(|error| format!("{{\"error\": \"{error}\"}}"));
        text.push('\n');
        Capture { name, text }
    }

    /// The input the lint stage reads: named after the server, JSON.
    pub fn input(&self) -> super::Input {
        super::Input {
            name: self.name.clone(),
            bytes: self.text.clone().into_bytes(),
        }
    }
}

/// What the command line asks to start: one server, or every server of a host config.
#[derive(Debug, Default)]
pub struct Request {
    pub servers: Vec<Server>,
    /// Servers of the host config that cannot start (a missing variable, a wrong type).
    pub errors: Vec<Error>,
    /// A host config's servers are one session of its host: (session name, host).
    pub session: Option<(String, String)>,
}

impl Request {
    /// `--mcp -- PROGRAM ARGS...`.
    pub fn command(command: &[String], name: Option<&str>) -> Result<Request> {
        let Some((program, args)) = command.split_first() else {
            return Err(
                Error::new("`--mcp` needs the command that starts the server")
                    .with_help("put it after `--`, last: `--mcp -- npx -y @scope/server`"),
            );
        };
        Ok(Request {
            servers: vec![Server {
                name: name.map(str::to_string),
                launch: Launch::Command {
                    program: program.clone(),
                    args: args.to_vec(),
                    env: Vec::new(),
                    inherit: Inherit::All,
                    cwd: None,
                },
                always_load: false,
            }],
            ..Request::default()
        })
    }

    /// `--host-config PATH` (`--host NAME` when its name does not say).
    pub fn host_config(path: &std::path::Path, host: Option<&str>) -> Result<Request> {
        let config = host_config::read(path, host)?;
        for name in &config.disabled {
            eprintln!(
                "note: `{name}` is disabled in {}: not started",
                path.display()
            );
        }
        let mut request = Request {
            session: Some((path.display().to_string(), config.host.clone())),
            ..Request::default()
        };
        for server in config.servers {
            match server {
                Ok(server) => request.servers.push(server),
                Err(error) => request.errors.push(error),
            }
        }
        Ok(request)
    }

    /// The names of the servers, as the host knows them (for the session).
    pub fn names(&self) -> Vec<String> {
        self.servers
            .iter()
            .filter_map(|server| server.name.clone())
            .collect()
    }

    /// Starts every server and lists its tools: the captures, and an error per server that
    /// could not be listed (with those of the config).
    pub fn capture(self, limits: Limits) -> (Vec<Capture>, Vec<Error>) {
        let mut errors = self.errors;
        let mut captures = Vec::new();
        for result in capture_all(&self.servers, limits) {
            match result {
                Ok(capture) => captures.push(capture),
                Err(error) => errors.push(error),
            }
        }
        (captures, errors)
    }
}

/// Starts each server (a few at a time), lists its tools and stops it; results in the order
/// of `servers`.
pub fn capture_all(servers: &[Server], limits: Limits) -> Vec<Result<Capture>> {
    // What a server starts and detaches from it (a helper in a session of its own) comes back
    // to toolcheck when its parent exits, to be ended with the rest.
    process::adopt_orphans();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            let message = format!("cannot start the runtime that talks to servers: {error}");
            return servers.iter().map(|_| Err(Error::new(&message))).collect();
        }
    };
    let work = async {
        let queue = Arc::new(Mutex::new(
            servers.iter().cloned().enumerate().collect::<VecDeque<_>>(),
        ));
        let workers: Vec<_> = (0..AT_ONCE.min(servers.len()))
            .map(|_| {
                let queue = queue.clone();
                tokio::spawn(async move {
                    let mut done = Vec::new();
                    loop {
                        let next = queue.lock().ok().and_then(|mut queue| queue.pop_front());
                        let Some((index, server)) = next else { break };
                        done.push((index, capture(&server, limits).await));
                    }
                    done
                })
            })
            .collect();
        let mut results: Vec<Option<Result<Capture>>> = servers.iter().map(|_| None).collect();
        for worker in workers {
            for (index, result) in worker.await.unwrap_or_default() {
                results[index] = Some(result);
            }
        }
        results
            .into_iter()
            .zip(servers)
            .map(|(result, server)| {
                result.unwrap_or_else(|| {
                    Err(Error::new(format!(
                        "`{}`: toolcheck stopped before listing its tools",
                        server.label()
                    )))
                })
            })
            .collect()
    };
    let results = runtime.block_on(async {
        match first(work, process::stop_signal()).await {
            Either::Left(results) => results,
            // Interrupted, terminated or hung up: no server outlives toolcheck.
            Either::Right((signal, what)) => {
                process::end_all();
                process::end_orphans();
                eprintln!("{what}: the servers were stopped");
                std::process::exit(128 + signal);
            }
        }
    });
    drop(runtime);
    process::end_orphans();
    results
}

pub(crate) enum Either<A, B> {
    Left(A),
    Right(B),
}

/// Whichever of `a` and `b` is ready first (`a` when both are).
pub(crate) async fn first<A: Future, B: Future>(a: A, b: B) -> Either<A::Output, B::Output> {
    let (mut a, mut b) = (pin!(a), pin!(b));
    std::future::poll_fn(|cx| {
        if let Poll::Ready(value) = a.as_mut().poll(cx) {
            return Poll::Ready(Either::Left(value));
        }
        b.as_mut().poll(cx).map(Either::Right)
    })
    .await
}

async fn capture(server: &Server, limits: Limits) -> Result<Capture> {
    match &server.launch {
        Launch::Command { .. } => stdio::capture(server, limits).await,
        Launch::Url { url, .. } => Err(Error::new(format!(
            "`{}`: servers over HTTP are not supported yet ({url})",
            server.label()
        ))
        .with_help("save its `tools/list` result with another client and name that file")),
    }
}

/// The pages of `tools/list`, merged: the tools of every page in order. A page whose `tools`
/// is not an array is kept as it is (the lint reports it where it stands).
fn merge_pages(pages: Vec<Value>) -> Value {
    let mut tools = Vec::new();
    for page in pages {
        match page {
            Value::Array(items) => tools.extend(items),
            other => return other,
        }
    }
    Value::Array(tools)
}

/// `s` as a duration for messages: `30 s`, `1.5 s`.
fn seconds(duration: Duration) -> String {
    let secs = duration.as_secs_f64();
    if secs.fract() == 0.0 {
        format!("{secs:.0} s")
    } else {
        format!("{secs} s")
    }
}
