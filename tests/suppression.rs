//! Suppressions end to end (`fixtures/suppression/`): same-line and line-above comments,
//! `ignore-file`, `per-file-ignores` with and without a JSON Pointer, unused and unknown
//! suppressions (TC002), and reasons carried into JSON.

use std::path::Path;
use std::process::Command;

fn lint(format: &str) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_toolcheck"))
        .args(["lint", "--format", format])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/suppression"))
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .output()
        .expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// (file, code, line, message or reason) of each entry of a JSON array.
fn rows(entries: &serde_json::Value, text: &str) -> Vec<(String, String, u64, String)> {
    entries
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|entry| {
            (
                entry["file"].as_str().unwrap().to_string(),
                entry["code"].as_str().unwrap().to_string(),
                entry["span"]["start"]["line"].as_u64().unwrap(),
                entry[text].as_str().unwrap_or("-").to_string(),
            )
        })
        .collect()
}

fn row(file: &str, code: &str, line: u64, text: &str) -> (String, String, u64, String) {
    (file.to_string(), code.to_string(), line, text.to_string())
}

#[test]
fn suppressions_silence_exactly_what_they_name() {
    let (code, stdout) = lint("json");
    assert_eq!(code, 1);
    let document: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        rows(&document["suppressed"], "reason"),
        [
            row("legacy/old.tools.json", "TC209", 1, "-"),
            row("tools/file_level.tool.yaml", "TC209", 3, "-"),
            row(
                "tools/line_above.tool.yaml",
                "TC209",
                5,
                "quoted from the upstream README"
            ),
            row("tools/same_line.tool.yaml", "TC209", 2, "vendor wording"),
            row("tools/search.tools.json", "TC301", 1, "-"),
        ]
    );
    let remaining: Vec<(String, String, u64)> = rows(&document["diagnostics"], "message")
        .into_iter()
        .map(|(file, code, line, _)| (file, code, line))
        .collect();
    let expected = [
        // ignore-file names TC209 only.
        ("tools/file_level.tool.yaml", "TC301", 7),
        // The comment above `description: >` covers the block, not the snippet below it.
        ("tools/line_above.tool.yaml", "TC209", 6),
        // A trailing comment covers its own line only.
        ("tools/same_line.tool.yaml", "TC209", 3),
        // The pointer narrows per-file-ignores to `token`; `api_key` and the description stay.
        ("tools/search.tools.json", "TC209", 1),
        ("tools/search.tools.json", "TC301", 1),
        // Bare directive, unused rule, unknown rules, and a `#` inside a quoted string that is text.
        ("tools/unused.tool.yaml", "TC002", 1),
        ("tools/unused.tool.yaml", "TC002", 2),
        ("tools/unused.tool.yaml", "TC002", 2),
        ("tools/unused.tool.yaml", "TC002", 3),
        ("tools/unused.tool.yaml", "TC209", 4),
        // A per-file-ignores entry that matched nothing points into the config file.
        ("toolcheck.yaml", "TC002", 6),
    ];
    let expected: Vec<(String, String, u64)> = expected
        .iter()
        .map(|(f, c, l)| (f.to_string(), c.to_string(), *l))
        .collect();
    assert_eq!(remaining, expected);
    assert_eq!(
        document["summary"]["files"], 6,
        "the config file is not counted as linted"
    );
}

#[test]
fn unused_suppressions_render_with_their_spans() {
    let (_, stdout) = lint("human");
    let start = stdout.find("TC002").unwrap();
    insta::assert_snapshot!(&stdout[start..]);
}
