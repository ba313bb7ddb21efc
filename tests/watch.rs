//! `lint --watch`: a change to a watched file is linted again without a restart.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Reads stdout lines until one is a summary line; `None` after `timeout`.
fn next_summary(
    lines: &mpsc::Receiver<String>,
    timeout: Duration,
) -> Option<(Vec<String>, String)> {
    let mut before = Vec::new();
    loop {
        let line = lines.recv_timeout(timeout).ok()?;
        if line.contains(" in 1 file (") {
            return Some((before, line));
        }
        before.push(line);
    }
}

#[test]
fn a_saved_change_is_linted_again() {
    let dir = common::scratch("watch");
    let manifest = dir.join("ask.tool.yaml");
    let clean = "name: ask\ndescription: Ask the user a question. Do not use it for facts you can look up.\n\
                 input_schema: {type: object, properties: {q: {type: string, description: The question}}}\n";
    std::fs::write(&manifest, clean).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolcheck"))
        .args(["lint", "--no-config", "--watch", "ask.tool.yaml"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().expect("piped");
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let timeout = Duration::from_secs(20);
    let first = next_summary(&lines, timeout);
    // A flaw saved into the file: the next run, on its own, reports it in concise form.
    std::fs::write(
        &manifest,
        clean.replace("Ask the user", "ALWAYS ask the user"),
    )
    .unwrap();
    let second = next_summary(&lines, timeout);
    let _ = child.kill();
    let _ = child.wait();
    let (findings, summary) = first.expect("a first run");
    assert_eq!(
        (findings.len(), summary.as_str()),
        (0, "0 errors, 0 warnings in 1 file (1 tool)")
    );
    let (findings, summary) = second.expect("a run after the change");
    assert_eq!(summary, "1 error, 0 warnings in 1 file (1 tool)");
    assert_eq!(
        findings,
        ["ask.tool.yaml:2:14: error: TC209 absolute-words absolute word `ALWAYS`"]
    );
}

#[test]
fn standard_input_cannot_be_watched() {
    let (code, _, stderr) = common::run(common::root(), &["lint", "--watch", "-"], Some(""));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("`--watch` cannot watch standard input"),
        "{stderr}"
    );
}
