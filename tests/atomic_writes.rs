//! Issue 30: a file toolcheck writes is replaced whole or not at all. A `--fix` run killed at
//! moments spread over its run leaves the manifest either as it was or fully fixed, never cut
//! short, and nothing beside it. (A write that fails halfway, and the unnamed file being
//! written, are tested where the write is: `src/atomic_write.rs`.)

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// A manifest of `count` tools whose roots say `dict`: `--fix` rewrites every one.
fn manifest(count: usize) -> String {
    let tools: Vec<String> = (0..count)
        .map(|i| {
            format!(
                r#"{{"name": "tool_{i}", "description": "Compute a value. Not for text.", "parameters": {{"type": "dict", "properties": {{"x": {{"type": "integer", "description": "The input."}}}}}}}}"#
            )
        })
        .collect();
    format!("[{}]\n", tools.join(",\n"))
}

fn fix(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolcheck"));
    command
        .args(["lint", "--no-config", "--fix", "--select", "TC402", "-q"])
        .arg("tools.json")
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_fix_run_killed_at_any_moment_leaves_the_old_file_or_the_new_one() {
    let dir = common::scratch("atomic_fix_killed");
    let path = dir.join("tools.json");
    let old = manifest(20_000);
    std::fs::write(&path, &old).unwrap();
    // The whole run, once: its output, and how long it takes.
    let started = Instant::now();
    fix(&dir).status().unwrap();
    let whole = started.elapsed();
    let new = std::fs::read_to_string(&path).unwrap();
    assert_ne!(new, old);
    assert!(!new.contains("\"dict\""));
    // Killed at moments spread over a run, from the start to past its end.
    let mut outcomes = (0, 0);
    for step in 0..16u32 {
        std::fs::write(&path, &old).unwrap();
        let mut child = fix(&dir).spawn().unwrap();
        std::thread::sleep(whole * step / 12);
        let _ = child.kill();
        child.wait().unwrap();
        let now = std::fs::read_to_string(&path).unwrap();
        assert!(
            now == old || now == new,
            "killed after {:?}: the manifest is {} bytes, neither the old {} nor the new {}",
            whole * step / 12,
            now.len(),
            old.len(),
            new.len()
        );
        if now == old {
            outcomes.0 += 1;
        } else {
            outcomes.1 += 1;
        }
        assert_eq!(entries(&dir), ["tools.json"], "nothing is left beside it");
    }
    eprintln!(
        "a whole run {whole:?}; killed runs left the old file {} times, the fixed one {}",
        outcomes.0, outcomes.1
    );
    // The last kills come after the run ended.
    assert!(outcomes.1 > 0, "{outcomes:?}");
}

#[test]
fn a_baseline_that_cannot_be_written_is_an_error_and_leaves_nothing() {
    let dir = common::scratch("atomic_baseline_fails");
    std::fs::write(dir.join("tools.json"), manifest(3)).unwrap();
    let (code, _, stderr) = common::run(
        &dir,
        &[
            "lint",
            "--no-config",
            "--write-baseline",
            "missing/baseline.json",
            "tools.json",
        ],
        None,
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("cannot write the baseline"), "{stderr}");
    assert_eq!(entries(&dir), ["tools.json"]);
}
