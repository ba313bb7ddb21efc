//! Live MCP servers (`lint --mcp`, `--host-config`, `snapshot`), against an MCP server of this
//! test's own: this binary is that server when `TOOLCHECK_TEST_SERVER` names a behaviour
//! (pages, 500 tools, slow, crashing, broken JSON, ...), so the tests need nothing installed.
//! Every server records its process id (and those of what it starts) in
//! `TOOLCHECK_TEST_PIDS`; each test then checks that none of them outlived toolcheck.
//!
//! A custom harness (`harness = false`): the test runner's own output on standard output
//! would not be MCP. Arguments that are not flags filter the tests by name.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const MODE: &str = "TOOLCHECK_TEST_SERVER";
const PIDS: &str = "TOOLCHECK_TEST_PIDS";

fn main() {
    if let Ok(mode) = std::env::var(MODE) {
        serve(&mode);
    }
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with('-'))
        .collect();
    let tests: &[(&str, fn())] = &[
        (
            "pages_are_followed_and_instructions_kept",
            pages_are_followed_and_instructions_kept,
        ),
        ("five_hundred_tools", five_hundred_tools),
        (
            "a_slow_server_times_out_and_its_group_ends",
            a_slow_server_times_out_and_its_group_ends,
        ),
        (
            "a_crashing_server_shows_its_stderr",
            a_crashing_server_shows_its_stderr,
        ),
        (
            "a_line_that_is_not_json_is_tc001_where_it_breaks",
            a_line_that_is_not_json_is_tc001_where_it_breaks,
        ),
        (
            "invalid_tools_are_tc001_at_their_place",
            invalid_tools_are_tc001_at_their_place,
        ),
        (
            "a_server_that_ignores_sigterm_is_killed",
            a_server_that_ignores_sigterm_is_killed,
        ),
        ("not_an_mcp_server", not_an_mcp_server),
        ("a_missing_command", a_missing_command),
        (
            "a_host_config_is_one_session_and_a_failure_does_not_stop_the_others",
            a_host_config_is_one_session_and_a_failure_does_not_stop_the_others,
        ),
        (
            "a_server_claude_code_always_loads_is_never_deferred",
            a_server_claude_code_always_loads_is_never_deferred,
        ),
        ("snapshot_writes_and_checks", snapshot_writes_and_checks),
        (
            "a_detached_helper_ends_with_toolcheck_on_exit_sigterm_and_sighup",
            a_detached_helper_ends_with_toolcheck_on_exit_sigterm_and_sighup,
        ),
        (
            "a_message_over_the_limit_fails_at_once",
            a_message_over_the_limit_fails_at_once,
        ),
        (
            "a_listing_that_loops_or_never_ends_fails",
            a_listing_that_loops_or_never_ends_fails,
        ),
        (
            "servers_that_would_share_a_snapshot_are_refused",
            servers_that_would_share_a_snapshot_are_refused,
        ),
        (
            "server_everything_matches_the_shared_capture",
            server_everything_matches_the_shared_capture,
        ),
        ("ctrl_c_stops_the_servers", ctrl_c_stops_the_servers),
        ("readme_commands_work", readme_commands_work),
        (
            "readme_host_config_reads_as_it_says",
            readme_host_config_reads_as_it_says,
        ),
        ("action_checks_snapshots", action_checks_snapshots),
    ];
    let mut failed = Vec::new();
    let mut ran = 0;
    for (name, test) in tests {
        if !filters.is_empty() && !filters.iter().any(|filter| name.contains(filter.as_str())) {
            continue;
        }
        ran += 1;
        print!("test {name} ... ");
        let _ = std::io::stdout().flush();
        match std::panic::catch_unwind(test) {
            Ok(()) => println!("ok"),
            Err(_) => {
                println!("FAILED");
                failed.push(*name);
            }
        }
    }
    println!(
        "\ntest result: {}. {} passed; {} failed",
        if failed.is_empty() { "ok" } else { "FAILED" },
        ran - failed.len(),
        failed.len()
    );
    if !failed.is_empty() {
        std::process::exit(101);
    }
}

// ---------------------------------------------------------------------------------------------
// The server.

fn serve(mode: &str) -> ! {
    record_pid(std::process::id());
    if let Ok(path) = std::env::var(PIDS) {
        // Its process group: toolcheck gives each server one of its own.
        #[cfg(unix)]
        let group = unsafe { libc::getpgrp() };
        #[cfg(not(unix))]
        let group = 0;
        let _ = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(format!("{path}.group"))
            .and_then(|mut file| {
                // One write per line: two servers of a host config append at once.
                file.write_all(format!("{} {group}\n", std::process::id()).as_bytes())
            });
    }
    match mode {
        "slow" => {
            start_grandchild();
            std::thread::sleep(Duration::from_secs(60));
            std::process::exit(0);
        }
        "detach" => start_detached(),
        "detach_slow" => {
            start_detached();
            std::thread::sleep(Duration::from_secs(60));
            std::process::exit(0);
        }
        "crash" => {
            for line in 1..=25 {
                eprintln!("boom line {line}");
            }
            std::process::exit(3);
        }
        "stubborn" => {
            #[cfg(unix)]
            unsafe {
                libc::signal(libc::SIGTERM, libc::SIG_IGN);
            }
        }
        _ => {}
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let (Some(id), Some(method)) = (message.get("id"), message["method"].as_str()) else {
            continue;
        };
        let result = match method {
            "initialize" => json!({
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": format!("fake-{mode}"), "version": "1.0.0"},
                "instructions": "Use these tools to test toolcheck. Do not use them in production."
            }),
            "tools/list" => {
                let cursor = message["params"]["cursor"].as_str().unwrap_or("");
                if mode == "broken" {
                    // A trailing comma: not JSON. Written as is.
                    let text = format!(
                        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"tools\":[{{\"name\":\"a\",}}]}}}}"
                    );
                    let _ = writeln!(out, "{text}");
                    let _ = out.flush();
                    if let Ok(path) = std::env::var(PIDS) {
                        let _ = std::fs::write(format!("{path}.sent"), &text);
                    }
                    continue;
                }
                list(mode, cursor)
            }
            "ping" => json!({}),
            _ => {
                let error = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no such method"}});
                let _ = writeln!(out, "{error}");
                let _ = out.flush();
                continue;
            }
        };
        let _ = writeln!(
            out,
            "{}",
            json!({"jsonrpc": "2.0", "id": id, "result": result})
        );
        let _ = out.flush();
    }
    if mode == "stubborn" {
        start_grandchild();
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
    std::process::exit(0);
}

fn tool(name: &str) -> Value {
    json!({
        "name": name,
        "description": format!("Returns the {name} record of a test fixture. Use when a test asks for {name}; do not use it for anything else."),
        "inputSchema": {
            "type": "object",
            "properties": {"id": {"type": "string", "description": "The record's id, e.g. `r-1`."}},
            "required": ["id"]
        }
    })
}

fn list(mode: &str, cursor: &str) -> Value {
    match (mode, cursor) {
        ("pages", "") => json!({"tools": [tool("alpha"), tool("beta")], "nextCursor": "page-2"}),
        ("pages", "page-2") => {
            json!({"tools": [tool("gamma"), tool("delta")], "nextCursor": "page-3"})
        }
        // No description: `missing-description` has a place to point at.
        ("pages", _) => json!({"tools": [{"name": "epsilon", "inputSchema": {"type": "object"}}]}),
        ("many", _) => {
            json!({"tools": (0..500).map(|i| tool(&format!("tool_{i:03}"))).collect::<Vec<_>>()})
        }
        // Cursors that come back to one already sent.
        ("loop", "") => json!({"tools": [tool("alpha")], "nextCursor": "a"}),
        ("loop", "a") => json!({"tools": [tool("beta")], "nextCursor": "b"}),
        ("loop", _) => json!({"tools": [tool("gamma")], "nextCursor": "a"}),
        // Cursors that never end.
        ("endless", cursor) => {
            let page: u64 = cursor.parse().unwrap_or(0);
            json!({"tools": [], "nextCursor": (page + 1).to_string()})
        }
        ("invalid", _) => json!({"tools": [
            tool("fine"),
            {"name": 42, "description": "A name that is a number.", "inputSchema": {"type": "object"}},
        ]}),
        _ => json!({"tools": [tool("only")]}),
    }
}

fn start_grandchild() {
    if let Ok(child) = Command::new("sleep").arg("60").spawn() {
        record_pid(child.id());
    }
}

/// A helper that leaves the server's process group and session (`setsid`), as a daemon or a
/// local settings page does: ending the server's group does not reach it.
fn start_detached() {
    let mut command = Command::new("sleep");
    command.arg("60");
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: `setsid` is async-signal-safe and touches no memory.
        unsafe {
            command.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
    }
    if let Ok(child) = command.spawn() {
        record_pid(child.id());
    }
}

fn record_pid(pid: u32) {
    if let Ok(path) = std::env::var(PIDS) {
        let _ = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .and_then(|mut file| file.write_all(format!("{pid}\n").as_bytes()));
    }
}

// ---------------------------------------------------------------------------------------------
// The tests.

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("live")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the target dir is writable");
    dir
}

impl Run {
    /// Whether stderr says `text`, wherever the error renderer wrapped its lines: the wrap
    /// depends on the length of the paths in the message, so of where the repository is.
    fn says(&self, text: &str) -> bool {
        let squeeze = |text: &str| -> String {
            text.chars()
                .filter(|c| !c.is_whitespace() && *c != '│')
                .collect()
        };
        squeeze(&self.stderr).contains(&squeeze(text))
    }
}

/// `toolcheck lint --no-config OPTIONS --mcp -- <this test binary>`, the binary serving `mode`.
fn lint_this_server(dir: &Path, mode: &str, options: &[&str]) -> Run {
    let server = this_server();
    let mut args = vec!["lint", "--no-config"];
    args.extend_from_slice(options);
    args.extend(["--mcp", "--", &server]);
    toolcheck(dir, mode, &args)
}

fn this_server() -> String {
    std::env::current_exe()
        .expect("the test binary has a path")
        .display()
        .to_string()
}

/// Runs toolcheck in `dir`, with `mode` for the servers it starts; then checks that every
/// process those servers recorded is gone, and that each ran in a process group of its own.
fn toolcheck(dir: &Path, mode: &str, args: &[&str]) -> Run {
    toolcheck_with(dir, mode, args, &[])
}

/// [`toolcheck`] with more variables in its environment.
fn toolcheck_with(dir: &Path, mode: &str, args: &[&str], env: &[(&str, &str)]) -> Run {
    let pids = dir.join("pids");
    let _ = std::fs::remove_file(&pids);
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_toolcheck"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .env(MODE, mode)
        .env(PIDS, &pids)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("toolcheck runs");
    let run = Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        elapsed: start.elapsed(),
    };
    assert_no_survivors(&pids);
    run
}

/// Every recorded process has ended (a zombie has ended: only its parent's bookkeeping is
/// left), and each server was the leader of its own process group.
fn assert_no_survivors(pids: &Path) {
    let Ok(text) = std::fs::read_to_string(pids) else {
        return;
    };
    #[cfg(target_os = "linux")]
    for pid in text.lines() {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // `pid (comm) state ...`: the state follows the last `)`.
        let state = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .unwrap_or("gone");
        assert!(
            state == "gone" || state == "Z" || state == "X",
            "process {pid} outlived toolcheck (state {state}): {stat}"
        );
    }
    let groups = std::fs::read_to_string(pids.with_extension("group")).unwrap_or_default();
    #[cfg(unix)]
    for line in groups.lines() {
        let (pid, group) = line.split_once(' ').expect("pid and group");
        assert_eq!(pid, group, "the server ran in its parent's process group");
    }
    let _ = (text, groups);
}

fn json(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|error| panic!("JSON output ({error}): {}\n{}", run.stdout, run.stderr))
}

fn pages_are_followed_and_instructions_kept() {
    let dir = scratch("pages");
    let server = this_server();
    let run = toolcheck(
        &dir,
        "pages",
        &["snapshot", "--mcp", "-o", "snaps", "--", &server],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.says("wrote snaps/fake-pages.tools.json"),
        "{}",
        run.stderr
    );
    let text = std::fs::read_to_string(dir.join("snaps/fake-pages.tools.json")).unwrap();
    let snapshot: Value = serde_json::from_str(&text).unwrap();
    let names: Vec<&str> = snapshot["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["alpha", "beta", "gamma", "delta", "epsilon"]);
    assert_eq!(snapshot["server"], "fake-pages");
    assert!(
        snapshot["instructions"]
            .as_str()
            .unwrap()
            .starts_with("Use these tools")
    );
    // The keys in the server's order, pretty-printed: `name` first.
    assert!(
        text.contains("{\n      \"name\": \"alpha\",\n      \"description\""),
        "{text}"
    );

    let run = lint_this_server(&dir, "pages", &["--format", "json"]);
    let report = json(&run);
    assert_eq!(report["summary"]["tools"], 5, "{}", run.stdout);
    // Findings are named after the server and point where the snapshot has the words.
    let finding = &report["diagnostics"][0];
    assert_eq!(finding["code"], "TC214", "{}", run.stdout);
    assert_eq!(finding["file"], "fake-pages");
    assert_eq!(finding["tool"], "epsilon");
    let line = text
        .lines()
        .position(|line| line.contains("\"epsilon\""))
        .unwrap()
        + 1;
    assert_eq!(finding["span"]["start"]["line"], line);
}

/// The findings of `report`: (file, code) each.
fn findings(report: &Value) -> Vec<(String, String)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| {
            let text = |key: &str| finding[key].as_str().unwrap_or_default().to_string();
            (text("file"), text("code"))
        })
        .collect()
}

fn five_hundred_tools() {
    let dir = scratch("many");
    let run = lint_this_server(&dir, "many", &["--format", "json", "--server-name", "bulk"]);
    let report = json(&run);
    assert_eq!(report["summary"]["tools"], 500, "{}", run.stderr);
    assert!(
        findings(&report).contains(&("bulk".into(), "TC108".into())),
        "{}",
        run.stdout
    );
}

fn a_slow_server_times_out_and_its_group_ends() {
    let dir = scratch("slow");
    let run = lint_this_server(&dir, "slow", &["--timeout", "0.5"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.says("did not answer `initialize` within 0.5 s"),
        "{}",
        run.stderr
    );
    assert!(run.says("--timeout SECONDS"), "{}", run.stderr);
    // The wait, the grace period and the group's end: seconds, not the server's minute.
    assert!(run.elapsed < Duration::from_secs(20), "{:?}", run.elapsed);
    let pids = std::fs::read_to_string(dir.join("pids")).unwrap_or_default();
    assert_eq!(
        pids.lines().count(),
        2,
        "the server and the process it started: {pids}"
    );
}

fn a_crashing_server_shows_its_stderr() {
    let dir = scratch("crash");
    let run = lint_this_server(&dir, "crash", &["--server-name", "crash"]);
    assert_eq!(run.code, 2);
    assert!(
        run.says("`crash` exited with code 3 before answering `initialize`"),
        "{}",
        run.stderr
    );
    assert!(
        run.says("the last 20 lines of its standard error"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("| boom line 25"), "{}", run.stderr);
    assert!(run.stderr.contains("| boom line 6\n"), "{}", run.stderr);
    assert!(!run.stderr.contains("| boom line 5\n"), "{}", run.stderr);
}

fn a_line_that_is_not_json_is_tc001_where_it_breaks() {
    let dir = scratch("broken");
    let run = lint_this_server(&dir, "broken", &["--format", "concise", "--timeout", "20"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    // `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a",}]}}`, linted as it was sent.
    let line = run.stdout.lines().next().unwrap_or_default();
    assert!(line.starts_with("fake-broken:1:"), "{}", run.stdout);
    assert!(line.contains("TC001"), "{}", run.stdout);
    let column: usize = line.split(':').nth(2).unwrap().parse().unwrap();
    let sent = std::fs::read_to_string(dir.join("pids.sent")).unwrap();
    // The comma (1-based column) that makes it not JSON.
    let comma = sent.find(",}").unwrap() + 1;
    assert_eq!(column, comma, "{line}\n{sent}");
    // Not a wait for the timeout: the line ends the request at once.
    assert!(run.elapsed < Duration::from_secs(15), "{:?}", run.elapsed);
}

fn invalid_tools_are_tc001_at_their_place() {
    let dir = scratch("invalid");
    let server = this_server();
    let run = lint_this_server(&dir, "invalid", &["--select", "TC001", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    let findings = report["diagnostics"].as_array().unwrap().clone();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0]["code"], "TC001");
    assert_eq!(findings[0]["pointer"], "/tools/1/name", "{findings:#?}");
    // The line of `"name": 42` in the pretty capture, as the snapshot file has it.
    let dir2 = scratch("invalid-snap");
    toolcheck(&dir2, "invalid", &["snapshot", "--mcp", "--", &server]);
    let text = std::fs::read_to_string(dir2.join("fake-invalid.tools.json")).unwrap();
    let line = text
        .lines()
        .position(|line| line.contains("\"name\": 42"))
        .unwrap()
        + 1;
    assert_eq!(findings[0]["span"]["start"]["line"], line, "{findings:#?}");
}

fn a_server_that_ignores_sigterm_is_killed() {
    let dir = scratch("stubborn");
    let run = lint_this_server(&dir, "stubborn", &["--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(json(&run)["summary"]["tools"], 1);
    assert!(run.elapsed < Duration::from_secs(20), "{:?}", run.elapsed);
}

/// Interrupted while a server is starting: toolcheck ends its group and exits 130.
fn ctrl_c_stops_the_servers() {
    #[cfg(unix)]
    {
        let dir = scratch("interrupt");
        let pids = dir.join("pids");
        let child = Command::new(env!("CARGO_BIN_EXE_toolcheck"))
            .args(["lint", "--no-config", "--mcp", "--", &this_server()])
            .current_dir(&dir)
            .env(MODE, "slow")
            .env(PIDS, &pids)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Until the server and the process it starts are up.
        let start = Instant::now();
        while std::fs::read_to_string(&pids)
            .unwrap_or_default()
            .lines()
            .count()
            < 2
        {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the server did not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        unsafe {
            libc::kill(child.id() as i32, libc::SIGINT);
        }
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(130), "{output:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("interrupted"));
        assert!(start.elapsed() < Duration::from_secs(20));
        assert_no_survivors(&pids);
    }
}

fn not_an_mcp_server() {
    let dir = scratch("echo");
    let run = toolcheck(
        &dir,
        "none",
        &[
            "lint",
            "--no-config",
            "--timeout",
            "5",
            "--mcp",
            "--",
            "echo",
            "hello",
        ],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.says("`echo hello` exited with code 0 before answering `initialize`"),
        "{}",
        run.stderr
    );
}

fn a_missing_command() {
    let dir = scratch("missing");
    let run = toolcheck(
        &dir,
        "none",
        &["lint", "--no-config", "--mcp", "--", "no-such-server-xyz"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.says("cannot start `no-such-server-xyz`: no such command"),
        "{}",
        run.stderr
    );
    let run = toolcheck(&dir, "none", &["lint", "--no-config", "--mcp"]);
    assert_eq!(run.code, 2);
    assert!(run.says("`--mcp` needs the command"), "{}", run.stderr);
}

fn a_host_config_is_one_session_and_a_failure_does_not_stop_the_others() {
    let dir = scratch("host");
    let server = this_server();
    let config = json!({"mcpServers": {
        "records": {"command": &server, "env": {MODE: "pages"}},
        "broken": {"command": &server, "env": {MODE: "crash"}},
        "bulk": {"command": &server, "args": [], "env": {MODE: "many"}},
        "missing": {"command": "no-such-server-xyz"},
    }});
    std::fs::write(dir.join(".mcp.json"), config.to_string()).unwrap();
    // Everything loaded up front, as Claude Code does with this variable (by default it
    // defers MCP tools, and the session would load none).
    let run = toolcheck_with(
        &dir,
        "none",
        &[
            "lint",
            "--no-config",
            "--format",
            "json",
            "--host-config",
            ".mcp.json",
        ],
        &[("ENABLE_TOOL_SEARCH", "false")],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    let report = json(&run);
    assert_eq!(report["summary"]["files"], 2);
    assert_eq!(report["summary"]["tools"], 505);
    assert!(
        run.says("`missing`: cannot start `no-such-server-xyz`: no such command"),
        "{}",
        run.stderr
    );
    assert!(run.says("`broken` exited with code 3"), "{}", run.stderr);
    assert!(
        run.says(
            "session .mcp.json (claude-code): 2 servers (2 more could not be listed), 505 tools"
        ),
        "{}",
        run.stderr
    );
    let found = findings(&report);
    assert!(
        found.contains(&("records".into(), "TC214".into())),
        "{found:?}"
    );
    // The tool count is the session's, over both servers: one finding, at the first.
    let messages: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|finding| finding["code"] == "TC108")
        .map(|finding| finding["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].starts_with("session `.mcp.json` loads 505 tools from 2 servers"),
        "{messages:?}"
    );
}

/// Issue 32: `alwaysLoad: true` on a server of a Claude Code host config keeps its tools
/// loaded while tool search defers the other servers'; a value that is not a boolean is the
/// config's error.
fn a_server_claude_code_always_loads_is_never_deferred() {
    let dir = scratch("always-load");
    let server = this_server();
    let config = json!({"mcpServers": {
        "records": {"command": &server, "env": {MODE: "pages"}, "alwaysLoad": true},
        "bulk": {"command": &server, "env": {MODE: "many"}},
    }});
    std::fs::write(dir.join(".mcp.json"), config.to_string()).unwrap();
    let run = toolcheck_with(
        &dir,
        "none",
        &[
            "tokens",
            "--no-config",
            "--format",
            "json",
            "--host-config",
            ".mcp.json",
        ],
        &[("ENABLE_TOOL_SEARCH", "true")],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = json(&run);
    let loading = &report["session"]["host_loading"];
    assert_eq!(loading["loaded_tools"], 5, "{loading}");
    assert_eq!(loading["deferred_tools"], 500, "{loading}");
    let config = json!({"mcpServers": {
        "records": {"command": &server, "env": {MODE: "pages"}, "alwaysLoad": "yes"},
    }});
    std::fs::write(dir.join(".mcp.json"), config.to_string()).unwrap();
    let run = toolcheck(
        &dir,
        "none",
        &["tokens", "--no-config", "--host-config", ".mcp.json"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.says("server `records`: `alwaysLoad` is `true` or `false`"),
        "{}",
        run.stderr
    );
}

fn snapshot_writes_and_checks() {
    let dir = scratch("check");
    let server = this_server();
    let snapshot = [
        "snapshot",
        "--mcp",
        "--server-name",
        "records",
        "-o",
        "toolsnaps",
        "--",
        &server,
    ];
    let run = toolcheck(&dir, "pages", &snapshot);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut check = snapshot.to_vec();
    check.insert(1, "--check");
    let run = toolcheck(&dir, "pages", &check);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.says("toolsnaps/records.tools.json: up to date"),
        "{}",
        run.stderr
    );
    // The server changed: another mode lists other tools.
    let run = toolcheck(&dir, "many", &check);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("toolsnaps/records.tools.json: `records` lists something else now"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("+ tool `tool_000`"), "{}", run.stdout);
    assert!(run.stdout.contains("- tool `alpha`"), "{}", run.stdout);
    assert!(!run.stdout.contains("~ instructions"), "{}", run.stdout);
    std::fs::remove_file(dir.join("toolsnaps/records.tools.json")).unwrap();
    let run = toolcheck(&dir, "pages", &check);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("no snapshot of `records` yet"),
        "{}",
        run.stdout
    );
}

/// Issue 30: a server's helper that detached itself (a session of its own) ends with
/// toolcheck: after a clean run, and when toolcheck is terminated (`SIGTERM`, a CI cancel) or
/// hung up on (`SIGHUP`) during the listing, with the signal's exit code.
fn a_detached_helper_ends_with_toolcheck_on_exit_sigterm_and_sighup() {
    let dir = scratch("detached");
    let server = this_server();
    // `toolcheck` checks that no recorded process outlived the run.
    let run = toolcheck(&dir, "detach", &["lint", "--mcp", "--", &server]);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    #[cfg(target_os = "linux")]
    for (signal, code, said) in [
        (libc::SIGTERM, 143, "terminated: the servers were stopped"),
        (libc::SIGHUP, 129, "hung up: the servers were stopped"),
    ] {
        let pids = dir.join("pids");
        let _ = std::fs::remove_file(&pids);
        let child = Command::new(env!("CARGO_BIN_EXE_toolcheck"))
            .args(["lint", "--mcp", "--", &server])
            .current_dir(&dir)
            .env(MODE, "detach_slow")
            .env(PIDS, &pids)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The server and its helper are running.
        let started = Instant::now();
        while std::fs::read_to_string(&pids).map_or(0, |text| text.lines().count()) < 2 {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the server did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let id = i32::try_from(child.id()).unwrap();
        // SAFETY: plain integers.
        unsafe { libc::kill(id, signal) };
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{stderr}");
        assert!(stderr.contains(said), "{stderr}");
        assert_no_survivors(&pids);
    }
}

/// Issue 30: a message over `--max-message-size` fails its server at once, naming it and the
/// limit, without waiting for the timeout and without holding the message.
fn a_message_over_the_limit_fails_at_once() {
    let dir = scratch("too_large");
    let server = this_server();
    let run = toolcheck(
        &dir,
        "many",
        &[
            "lint",
            "--mcp",
            "--max-message-size",
            "50000",
            "--",
            &server,
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.says("sent a message of more than 50000 bytes while answering `tools/list`"),
        "{}",
        run.stderr
    );
    assert!(run.elapsed < Duration::from_secs(10), "{:?}", run.elapsed);
    // Within the limit, the same server lists its 500 tools.
    let run = toolcheck(
        &dir,
        "many",
        &["lint", "--mcp", "--format", "json", "--", &server],
    );
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    assert_eq!(json(&run)["summary"]["tools"], 500);
}

/// Issue 30: a listing whose cursor comes back, or that goes on past 10,000 pages, is an error
/// naming the server, not a partial listing linted as whole.
fn a_listing_that_loops_or_never_ends_fails() {
    let dir = scratch("cursors");
    let server = this_server();
    let run = toolcheck(&dir, "loop", &["lint", "--mcp", "--", &server]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.says("listed its tools in a loop: page 3 came with the cursor `a`"),
        "{}",
        run.stderr
    );
    let run = toolcheck(&dir, "endless", &["lint", "--mcp", "--", &server]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.says("still had more tools after 10000 pages of `tools/list`"),
        "{}",
        run.stderr
    );
}

/// Issue 30: `a/b` and `a-b` would both write `a-b.tools.json`: the run is refused before
/// any server starts, naming both.
fn servers_that_would_share_a_snapshot_are_refused() {
    let dir = scratch("clash");
    let server = this_server();
    let config = json!({"mcpServers": {
        "a/b": {"command": &server, "env": {MODE: "pages"}},
        "a-b": {"command": &server, "env": {MODE: "pages"}},
    }});
    std::fs::write(dir.join(".mcp.json"), config.to_string()).unwrap();
    for check in [false, true] {
        let mut args = vec!["snapshot", "--host-config", ".mcp.json", "-o", "snaps"];
        if check {
            args.insert(1, "--check");
        }
        let run = toolcheck(&dir, "none", &args);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.says("the servers `a/b` and `a-b` would both be snapshotted to a-b.tools.json"),
            "{}",
            run.stderr
        );
        assert!(!dir.join("pids").exists(), "no server was started");
        assert!(!dir.join("snaps").exists());
    }
}

/// The real reference server, when `npx` can fetch it: its snapshot is the shared capture
/// (`../shared/corpora/mcp/`), tool for tool.
fn server_everything_matches_the_shared_capture() {
    let capture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora/mcp/modelcontextprotocol__server-everything.json");
    let npx_works = Command::new("npx")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !npx_works {
        print!("(skipped: no npx) ");
        return;
    }
    let dir = scratch("everything");
    let run = toolcheck(
        &dir,
        "none",
        &[
            "snapshot",
            "--timeout",
            "120",
            "--mcp",
            "--server-name",
            "everything",
            "--",
            "npx",
            "-y",
            "@modelcontextprotocol/server-everything",
        ],
    );
    if run.code == 2 && run.stderr.contains("npm") {
        print!("(skipped: npx could not fetch the server) ");
        return;
    }
    assert_eq!(run.code, 0, "{}", run.stderr);
    let ours: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("everything.tools.json")).unwrap())
            .unwrap();
    assert_eq!(ours["server"], "everything");
    assert!(
        ours["tools"]
            .as_array()
            .is_some_and(|tools| !tools.is_empty())
    );
    let Ok(shared) = std::fs::read_to_string(&capture) else {
        print!("(compared only its shape: no ../shared/corpora) ");
        return;
    };
    let shared: Value = serde_json::from_str(&shared).unwrap();
    let by_name = |value: &Value| -> std::collections::BTreeMap<String, Value> {
        value["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| (tool["name"].as_str().unwrap().to_string(), tool.clone()))
            .collect()
    };
    // Another release of the server may list other tools: then say so rather than fail.
    let (ours_tools, shared_tools) = (by_name(&ours), by_name(&shared));
    if ours_tools.keys().ne(shared_tools.keys()) {
        print!("(a newer server-everything than the shared capture: compared names only) ");
        return;
    }
    assert_eq!(ours_tools, shared_tools);
    assert_eq!(ours["instructions"], shared["instructions"]);
}

/// The fenced blocks of `language` in the docs section "Live servers and snapshots" (an
/// indented block counts, its indentation removed).
fn readme_blocks(language: &str) -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/live-servers.md"))
            .unwrap();
    let start = readme.find("## Live servers and snapshots").unwrap();
    let section = &readme[start..];
    let section = &section[..section[3..]
        .find("\n## ")
        .map_or(section.len(), |end| end + 3)];
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for line in section.lines() {
        let indent = line.len() - line.trim_start().len();
        match &mut open {
            Some((_, block)) if line.trim() == "```" => {
                blocks.push(std::mem::take(block));
                open = None;
            }
            Some((indent, block)) => {
                block.push_str(line.get(*indent..).unwrap_or(line.trim_start()));
                block.push('\n');
            }
            None if line.trim() == format!("```{language}") => open = Some((indent, String::new())),
            None => {}
        }
    }
    blocks
}

/// A `.mcp.json` of two of this test's servers, named as the README's snippets name theirs.
fn write_host_config(dir: &Path) {
    let server = this_server();
    let config = json!({"mcpServers": {
        "everything": {"command": &server, "env": {MODE: "pages"}},
        "memory": {"command": &server, "env": {MODE: "many"}},
    }});
    std::fs::write(dir.join(".mcp.json"), config.to_string()).unwrap();
}

/// Each command of the README's snippet, in order, in a folder with a `.mcp.json`; the npx
/// server is this test's. None fails to do its job (exit code 2).
fn readme_commands_work() {
    let dir = scratch("readme");
    write_host_config(&dir);
    let server = this_server();
    let block = &readme_blocks("sh")[0];
    assert!(block.lines().count() >= 5, "{block}");
    for line in block.lines() {
        let line = line.replace("npx -y @modelcontextprotocol/server-everything", &server);
        let args: Vec<&str> = line.split_whitespace().skip(1).collect();
        let run = toolcheck(&dir, "pages", &args);
        assert_ne!(run.code, 2, "{line}: {}", run.stderr);
        if line.contains("snapshot --check") {
            assert_eq!(run.code, 0, "{line}: {}{}", run.stdout, run.stderr);
        }
        if line.ends_with("lint toolsnaps") {
            assert!(
                run.stdout.contains("in 2 files (505 tools)"),
                "{line}: {}",
                run.stdout
            );
        }
        if line.contains("tokens --host-config") {
            assert!(run.stdout.contains("everything"), "{line}: {}", run.stdout);
            assert!(run.stdout.contains("memory"), "{line}: {}", run.stdout);
        }
    }
    assert!(dir.join("toolsnaps/everything.tools.json").is_file());
    assert!(dir.join("toolsnaps/memory.tools.json").is_file());
}

/// The README's `.mcp.json`: two servers of Claude Code, with `${HOME}` expanded.
fn readme_host_config_reads_as_it_says() {
    let dir = scratch("readme-config");
    let block = &readme_blocks("json")[0];
    let path = dir.join(".mcp.json");
    std::fs::write(&path, block).unwrap();
    let config = toolcheck::read::live::host_config::read(&path, None).unwrap();
    assert_eq!(config.host, "claude-code");
    let servers: Vec<_> = config.servers.into_iter().map(Result::unwrap).collect();
    let names: Vec<_> = servers
        .iter()
        .map(|server| server.name.clone().unwrap())
        .collect();
    assert_eq!(names, ["everything", "memory"]);
    let toolcheck::read::live::Launch::Command { env, .. } = &servers[1].launch else {
        panic!("a command");
    };
    let home = std::env::var("HOME").unwrap_or_default();
    assert_eq!(
        env[0],
        (
            "MEMORY_FILE_PATH".to_string(),
            format!("{home}/.cache/memory.json")
        )
    );
}

/// The action's "Check snapshots" step, run as the runner runs it, with the README's input.
fn action_checks_snapshots() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let action =
        toolcheck::parse::yaml::parse(&std::fs::read_to_string(root.join("action.yml")).unwrap())
            .unwrap()
            .to_json();
    let step = action["runs"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|step| step["name"] == "Check snapshots")
        .expect("a Check snapshots step")
        .clone();
    assert_eq!(step["if"], "inputs.snapshot-check != ''");
    let workflow = readme_blocks("yaml")
        .into_iter()
        .find(|block| block.contains("snapshot-check:"))
        .expect("a workflow with snapshot-check in the README");
    let workflow = toolcheck::parse::yaml::parse(&workflow).unwrap().to_json();
    let input = workflow["jobs"]["lint"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|step| step["with"]["snapshot-check"].as_str())
        .unwrap()
        .to_string();
    let dir = scratch("action");
    write_host_config(&dir);
    let binary = Path::new(env!("CARGO_BIN_EXE_toolcheck"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run_step = || {
        Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c"])
            .arg(step["run"].as_str().unwrap())
            .current_dir(&dir)
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .env("INPUT_SNAPSHOT_CHECK", &input)
            .output()
            .unwrap()
    };
    // No snapshot committed yet: the check fails and says so.
    let output = run_step();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(shown.contains("no snapshot of `everything` yet"), "{shown}");
    let run = toolcheck(
        &dir,
        "none",
        &["snapshot", "--host-config", ".mcp.json", "-o", "toolsnaps"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let output = run_step();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
}
