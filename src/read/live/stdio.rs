//! A server over stdio: toolcheck starts the command in a process group of its own, speaks MCP
//! through the SDK, keeps the raw text of every response it reads (a tee on the server's
//! standard output), and stops the whole group when done: standard input closed, a grace
//! period, then `SIGTERM` and `SIGKILL` to the group, as the MCP spec's shutdown describes
//! (process.rs).

use std::collections::VecDeque;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{ClientConfig, Implementation, PaginatedRequestParams};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, ReadBuf};
use tokio::process::Command;
use tokio::sync::Notify;

use super::process::Group;
use super::{Capture, Either, Inherit, Launch, Limits, Server, first, merge_pages, seconds};
use crate::error::{Error, Result};

/// How many lines of a failed server's standard error are shown.
const STDERR_LINES: usize = 20;
/// Longer lines of standard error are cut (a minified stack trace is one line).
const STDERR_LINE_CHARS: usize = 300;
/// A listing of more pages than this fails: a server whose cursors never end.
const MAX_PAGES: usize = 10_000;

/// toolcheck's side of the handshake: its name, no capabilities (it only lists).
#[derive(Clone)]
struct Client;

impl rmcp::ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.client_info = Implementation::new("toolcheck", env!("CARGO_PKG_VERSION"));
        info
    }
}

pub(super) async fn capture(server: &Server, limits: Limits) -> Result<Capture> {
    let timeout = limits.timeout;
    let Launch::Command {
        program,
        args,
        env,
        inherit,
        cwd,
    } = &server.launch
    else {
        return Err(Error::new("not a command"));
    };
    let label = server.label();
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Inherit::Only(names) = inherit {
        command.env_clear();
        for name in *names {
            if let Some(value) = std::env::var_os(name) {
                command.env(name, value);
            }
        }
    }
    command.envs(env.iter().map(|(key, value)| (key, value)));
    if let Some(cwd) = cwd {
        command.current_dir(cwd);
    }
    #[cfg(unix)]
    command.process_group(0);
    let mut child = command
        .spawn()
        .map_err(|error| cannot_start(server.name.as_deref(), program, &error))?;
    let group = Group::of(&child);
    let stderr = Tail::default();
    let stderr_read = child
        .stderr
        .take()
        .map(|pipe| tokio::spawn(stderr.clone().collect(pipe)));
    let wire = Arc::new(Wire::new(limits.max_message));
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        group.stop(&mut child).await;
        return Err(Error::new(format!(
            "`{label}`: its standard streams are not pipes"
        )));
    };
    let tee = Tee {
        inner: stdout,
        wire: wire.clone(),
    };
    let listed = list(server, tee, stdin, &wire, limits).await;
    // The client is gone: the server's standard input is closed.
    let status = group.stop(&mut child).await;
    if listed.is_err()
        && let Some(reading) = stderr_read
    {
        // The last lines are read once the pipe closes (what the server started may hold it).
        let _ = tokio::time::timeout(Duration::from_millis(500), reading).await;
    }
    match listed {
        Ok(capture) => Ok(capture),
        Err(Failure::Broken(line, name)) => Ok(Capture {
            name: name.unwrap_or(label),
            text: line,
        }),
        Err(failure) => Err(failure.into_error(&label, status, &stderr, timeout)),
    }
}

/// Why listing stopped.
enum Failure {
    /// No answer in time to this request.
    Timeout(&'static str),
    /// The connection closed (the server exited, most likely) during this request.
    Closed(&'static str),
    /// The server answered this request with an error or something else than MCP.
    Protocol(&'static str, String),
    /// A line that is a JSON-RPC message but not JSON: linted as it is, under the server's
    /// name when it said one.
    Broken(String, Option<String>),
    /// A message over the size limit, during this request.
    TooLarge(&'static str, usize),
    /// The listing's cursors came back to one already followed, at this page.
    CursorLoop(String, usize),
    /// The listing went on past [`MAX_PAGES`].
    TooManyPages,
}

impl Failure {
    fn into_error(
        self,
        label: &str,
        status: Option<ExitStatus>,
        stderr: &Tail,
        timeout: Duration,
    ) -> Error {
        let error = match self {
            Failure::Timeout(request) => Error::new(format!(
                "`{label}` did not answer `{request}` within {}",
                seconds(timeout)
            ))
            .with_help(
                "is it an MCP server over stdio? A server that needs longer to start: raise \
                 the wait with `--timeout SECONDS`",
            ),
            Failure::Closed(request) => {
                let how = match status.and_then(|status| status.code()) {
                    Some(code) => format!("exited with code {code}"),
                    None if status.is_some() => "was stopped by a signal".to_string(),
                    None => "closed its standard output".to_string(),
                };
                Error::new(format!("`{label}` {how} before answering `{request}`"))
                    .with_help("run the command by itself to see why it stops")
            }
            Failure::Protocol(request, detail) => {
                Error::new(format!("`{label}` failed `{request}`: {detail}")).with_help(
                    "is it an MCP server over stdio? `toolcheck lint --mcp -- CMD ARGS...` \
                     starts one",
                )
            }
            Failure::Broken(..) => Error::new(format!("`{label}` sent a line that is not JSON")),
            // What the server sent says it all: no standard error with these.
            Failure::TooLarge(request, max) => {
                return Error::new(format!(
                    "`{label}` sent a message of more than {max} bytes while answering `{request}`"
                ))
                .with_help(
                    "raise the limit with `--max-message-size BYTES` if the server is right",
                );
            }
            Failure::CursorLoop(cursor, page) => {
                return Error::new(format!(
                    "`{label}` listed its tools in a loop: page {page} came with the cursor \
                     `{cursor}`, which an earlier page had sent"
                ))
                .with_help("the server's `nextCursor` must move on, and end (toolcheck lints no partial listing)");
            }
            Failure::TooManyPages => {
                return Error::new(format!(
                    "`{label}` still had more tools after {MAX_PAGES} pages of `tools/list`"
                ))
                .with_help("toolcheck lints no partial listing: the server's cursors must end");
            }
        };
        let lines = stderr.lines();
        if lines.is_empty() {
            let message = format!("{}, and wrote nothing to its standard error", error.message);
            let help = error.help.clone().unwrap_or_default();
            return Error::new(message).with_help(help);
        }
        let mut message = error.message.clone();
        message.push_str(&format!(
            "\nthe last {} of its standard error:",
            if lines.len() == 1 {
                "line".to_string()
            } else {
                format!("{} lines", lines.len())
            }
        ));
        for line in lines {
            message.push_str("\n  | ");
            message.push_str(&line);
        }
        let help = error.help.clone().unwrap_or_default();
        Error::new(message).with_help(help)
    }
}

/// The handshake and every page of `tools/list`, each within `timeout`.
async fn list<R, W>(
    server: &Server,
    read: R,
    write: W,
    wire: &Wire,
    limits: Limits,
) -> std::result::Result<Capture, Failure>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    const INITIALIZE: &str = "initialize";
    let timeout = limits.timeout;
    // The SDK drops a longer line without a word, and waits; the wire reports it first.
    let transport = rmcp::transport::async_rw::AsyncRwTransport::new_client(read, write)
        .with_max_line_length(limits.max_message.saturating_add(1));
    let client = match step(INITIALIZE, wire, timeout, Client.serve(transport)).await? {
        Ok(client) => client,
        Err(error) => {
            return Err(match error {
                // Closed, or closed before the request could be written (a broken pipe).
                rmcp::service::ClientInitializeError::ConnectionClosed(_)
                | rmcp::service::ClientInitializeError::TransportError { .. } => {
                    Failure::Closed(INITIALIZE)
                }
                other => Failure::Protocol(INITIALIZE, other.to_string()),
            });
        }
    };
    wire.take_responses();
    let info = client.peer_info();
    let name = server
        .name
        .clone()
        .or_else(|| {
            info.as_ref()
                .and_then(|info| info.server_info.as_ref())
                .map(|implementation| implementation.name.clone())
                .filter(|name| !name.trim().is_empty())
        })
        .unwrap_or_else(|| server.label());
    let instructions = info.as_ref().and_then(|info| info.instructions.clone());
    let pages = list_pages(&client, wire, timeout, &name).await;
    let _ = client.cancel().await;
    Ok(Capture::new(
        name,
        instructions,
        merge_pages(pages?),
        server.always_load,
    ))
}

/// Every page of `tools/list`, following `nextCursor` (each cursor once, at most `MAX_PAGES`).
async fn list_pages(
    client: &RunningService<RoleClient, Client>,
    wire: &Wire,
    timeout: Duration,
    name: &str,
) -> std::result::Result<Vec<Value>, Failure> {
    const LIST: &str = "tools/list";
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    let mut followed: std::collections::HashSet<String> = std::collections::HashSet::new();
    loop {
        let params = PaginatedRequestParams::default().with_cursor(cursor.clone());
        let answer = step(LIST, wire, timeout, client.list_tools(Some(params)))
            .await
            .map_err(|failure| match failure {
                Failure::Broken(line, _) => Failure::Broken(line, Some(name.to_string())),
                other => other,
            });
        let raw = wire.take_responses().pop();
        match answer? {
            Err(ServiceError::TransportClosed) => return Err(Failure::Closed(LIST)),
            Err(ServiceError::McpError(error)) => {
                return Err(Failure::Protocol(LIST, error.message.to_string()));
            }
            // A page the SDK cannot read (`UnexpectedResponse`) is linted as sent.
            _ => {}
        }
        let Some(mut result) =
            raw.and_then(|mut response| response.get_mut("result").map(Value::take))
        else {
            return Err(Failure::Protocol(LIST, "no result in its answer".into()));
        };
        let next = match result.get("nextCursor") {
            Some(Value::String(next)) if !next.is_empty() => Some(next.clone()),
            _ => None,
        };
        pages.push(
            result
                .get_mut("tools")
                .map(Value::take)
                .unwrap_or(Value::Null),
        );
        let Some(next) = next else {
            break;
        };
        if !followed.insert(next.clone()) {
            return Err(Failure::CursorLoop(next, pages.len()));
        }
        if pages.len() >= MAX_PAGES {
            return Err(Failure::TooManyPages);
        }
        cursor = Some(next);
    }
    Ok(pages)
}

/// `request` within `timeout`, unless the server first sends a JSON-RPC line that is not JSON
/// (the SDK skips such lines, so the request would wait for nothing).
async fn step<T>(
    request: &'static str,
    wire: &Wire,
    timeout: Duration,
    future: impl Future<Output = T>,
) -> std::result::Result<T, Failure> {
    let broken = async {
        loop {
            if let Some(wrong) = wire.wrong() {
                return wrong;
            }
            wire.notify.notified().await;
        }
    };
    match tokio::time::timeout(timeout, first(future, broken)).await {
        Err(_) => Err(Failure::Timeout(request)),
        Ok(Either::Left(value)) => Ok(value),
        Ok(Either::Right(Wrong::Broken(line))) => Err(Failure::Broken(line, None)),
        Ok(Either::Right(Wrong::TooLarge(max))) => Err(Failure::TooLarge(request, max)),
    }
}

fn cannot_start(name: Option<&str>, program: &str, error: &io::Error) -> Error {
    // In a host config, which server it is comes first.
    let server = name.map(|name| format!("`{name}`: ")).unwrap_or_default();
    match error.kind() {
        io::ErrorKind::NotFound => {
            Error::new(format!("{server}cannot start `{program}`: no such command"))
                .with_help("check the command's spelling and that it is on PATH")
        }
        io::ErrorKind::PermissionDenied => Error::new(format!(
            "{server}cannot start `{program}`: permission denied"
        ))
        .with_help("the file must be executable"),
        _ => Error::new(format!("{server}cannot start `{program}`: {error}")),
    }
}

/// What the server wrote to its standard output, as toolcheck needs it: the responses to
/// requests, in order, and the first thing wrong with it: a JSON-RPC line that is not JSON, or
/// a message over the size limit (never held whole: past the limit, nothing more is kept).
struct Wire {
    state: Mutex<WireState>,
    notify: Notify,
    max_message: usize,
}

#[derive(Default)]
struct WireState {
    /// The bytes after the last newline.
    partial: Vec<u8>,
    responses: Vec<Value>,
    broken: Option<String>,
    too_large: bool,
}

/// What is wrong with what a server sent.
enum Wrong {
    Broken(String),
    TooLarge(usize),
}

impl Wire {
    fn new(max_message: usize) -> Wire {
        Wire {
            state: Mutex::default(),
            notify: Notify::new(),
            max_message,
        }
    }

    fn wrong(&self) -> Option<Wrong> {
        let state = self.state.lock().ok()?;
        if state.too_large {
            return Some(Wrong::TooLarge(self.max_message));
        }
        state.broken.clone().map(Wrong::Broken)
    }

    fn take_responses(&self) -> Vec<Value> {
        self.state
            .lock()
            .map(|mut state| std::mem::take(&mut state.responses))
            .unwrap_or_default()
    }

    /// Takes in bytes as they are read; each complete line once.
    fn record(&self, mut bytes: &[u8]) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        let WireState {
            partial,
            responses,
            broken,
            too_large,
        } = &mut *state;
        if *too_large {
            return;
        }
        let mut broke = false;
        while let Some(end) = bytes.iter().position(|byte| *byte == b'\n') {
            if partial.len().saturating_add(end) > self.max_message {
                *too_large = true;
                break;
            }
            let line = if partial.is_empty() {
                &bytes[..end]
            } else {
                partial.extend_from_slice(&bytes[..end]);
                &partial[..]
            };
            match read_line(line) {
                Line::Response(value) => responses.push(value),
                Line::Broken(text) if broken.is_none() => {
                    *broken = Some(text);
                    broke = true;
                }
                _ => {}
            }
            partial.clear();
            bytes = &bytes[end + 1..];
        }
        if !*too_large && partial.len().saturating_add(bytes.len()) > self.max_message {
            *too_large = true;
        }
        if *too_large {
            *partial = Vec::new();
            broke = true;
        } else {
            partial.extend_from_slice(bytes);
        }
        drop(state);
        if broke {
            self.notify.notify_one();
        }
    }
}

enum Line {
    Response(Value),
    Broken(String),
    Other,
}

fn read_line(line: &[u8]) -> Line {
    let line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let trimmed = line.trim_ascii();
    if trimmed.is_empty() {
        return Line::Other;
    }
    match serde_json::from_slice::<Value>(trimmed) {
        Ok(value) => {
            let is_response = value.get("id").is_some()
                && value.get("method").is_none()
                && (value.get("result").is_some() || value.get("error").is_some());
            if is_response {
                Line::Response(value)
            } else {
                Line::Other
            }
        }
        // Log lines on standard output are skipped, as hosts skip them; a line that means to
        // be a JSON-RPC message and is not JSON is the server's mistake.
        Err(_) if trimmed.starts_with(b"{") && contains(trimmed, b"\"jsonrpc\"") => {
            let mut text = String::from_utf8_lossy(line).into_owned();
            text.push('\n');
            Line::Broken(text)
        }
        Err(_) => Line::Other,
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}

/// The server's standard output, recorded as the SDK reads it.
struct Tee<R> {
    inner: R,
    wire: Arc<Wire>,
}

impl<R: AsyncRead + Unpin> AsyncRead for Tee<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = &poll {
            self.wire.record(&buf.filled()[before..]);
        }
        poll
    }
}

/// The last lines of the server's standard error.
#[derive(Clone, Default)]
struct Tail(Arc<Mutex<VecDeque<String>>>);

impl Tail {
    /// Keeps the last lines, each cut to [`STDERR_LINE_CHARS`]: what a line holds past that is
    /// never kept, however long it runs (a server may write without end).
    async fn collect(self, mut pipe: tokio::process::ChildStderr) {
        let keep = STDERR_LINE_CHARS * 4;
        let mut line: Vec<u8> = Vec::new();
        let mut buffer = vec![0u8; 8192];
        loop {
            let read = match pipe.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(read) => read,
            };
            for chunk in buffer[..read].split_inclusive(|byte| *byte == b'\n') {
                let (text, ends) = match chunk.strip_suffix(b"\n") {
                    Some(text) => (text, true),
                    None => (chunk, false),
                };
                let room = keep.saturating_sub(line.len());
                line.extend_from_slice(&text[..text.len().min(room)]);
                if ends {
                    self.push(&line);
                    line.clear();
                }
            }
        }
        if !line.is_empty() {
            self.push(&line);
        }
    }

    fn push(&self, bytes: &[u8]) {
        let mut line = String::from_utf8_lossy(bytes).trim_end().to_string();
        if let Some((cut, _)) = line.char_indices().nth(STDERR_LINE_CHARS) {
            line.truncate(cut);
            line.push('…');
        }
        if let Ok(mut tail) = self.0.lock() {
            if tail.len() == STDERR_LINES {
                tail.pop_front();
            }
            tail.push_back(line);
        }
    }

    fn lines(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|tail| tail.iter().cloned().collect())
            .unwrap_or_default()
    }
}
