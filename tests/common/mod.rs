//! Shared by the integration tests that run the real binary.
// Each test crate uses its own subset of these helpers.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs toolcheck in `dir` with `stdin`, no colors and 80 columns; returns exit code, stdout
/// and stderr.
pub fn run(dir: &Path, args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolcheck"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    // A binary that stops before reading (a usage error) closes the pipe: not a failure here,
    // the exit code and output say what happened.
    if let Err(error) = input.write_all(stdin.unwrap_or_default().as_bytes()) {
        assert_eq!(
            error.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing the binary's input: {error}"
        );
    }
    drop(input);
    let output = child.wait_with_output().expect("the binary exits");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A fresh, empty directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the target dir is writable");
    dir
}

/// Lints `path` (named `name` in output) with only `rule` selected, under the sibling
/// `<stem>.toolcheck.yaml` config when there is one.
pub fn lint_with_rule(path: &Path, name: &str, rule: &str) -> toolcheck::lint::FileReport {
    let config_path = path.with_extension("toolcheck.yaml");
    let config = if config_path.is_file() {
        toolcheck::config::Config::load(&config_path).expect("fixture config is valid")
    } else {
        toolcheck::config::Config::defaults(".".into())
    };
    let overrides = toolcheck::lint::Overrides {
        select: Some(vec![rule.to_string()]),
        ..Default::default()
    };
    let bytes = std::fs::read(path).expect("fixture is readable");
    linter(&config, &overrides)
        .lint_all(vec![toolcheck::read::Input {
            name: name.to_string(),
            bytes,
        }])
        .pop()
        .expect("one input gives one report")
}

/// Lints a text with the default settings.
pub fn lint_text(name: &str, text: &str) -> toolcheck::lint::FileReport {
    let config = toolcheck::config::Config::defaults(".".into());
    linter(&config, &Default::default()).lint(
        toolcheck::parse::source::SourceFile::new(name, text.to_string()),
        name.ends_with(".json"),
    )
}

pub fn linter(
    config: &toolcheck::config::Config,
    overrides: &toolcheck::lint::Overrides,
) -> toolcheck::lint::Linter {
    let registry = toolcheck::catalog::Registry::builtin().expect("the built-in catalog loads");
    toolcheck::lint::Linter::new(&registry, config, overrides).expect("the settings are valid")
}

/// The human rendering used in snapshots: no colors, no hyperlinks, 80 columns.
pub fn render_human(diagnostics: &[toolcheck::diagnostic::Diagnostic]) -> String {
    let style = toolcheck::render::human::Style {
        color: false,
        links: false,
        width: 80,
    };
    toolcheck::render::human::render(
        diagnostics.iter(),
        &toolcheck::render::Summary::default(),
        style,
        true,
    )
}

/// Every span of a report, its related spans included, starts and ends on a character boundary
/// inside its file.
pub fn assert_spans_on_char_boundaries(report: &toolcheck::lint::FileReport) {
    for diagnostic in &report.diagnostics {
        let spans = std::iter::once((&diagnostic.file, &diagnostic.span)).chain(
            diagnostic
                .related
                .iter()
                .map(|related| (&related.file, &related.span)),
        );
        for (file, span) in spans {
            let text = &file.text;
            assert!(
                span.start <= span.end
                    && span.end <= text.len()
                    && text.is_char_boundary(span.start)
                    && text.is_char_boundary(span.end),
                "{}: {} {} at {span:?} is not on character boundaries",
                file.name,
                diagnostic.code,
                diagnostic.message
            );
        }
    }
}

/// The files a `--format json` document has findings in, in output order, each once.
pub fn files_of(document: &serde_json::Value) -> Vec<String> {
    let mut files: Vec<String> = document["diagnostics"]
        .as_array()
        .expect("a diagnostics array")
        .iter()
        .map(|d| d["file"].as_str().expect("a file").to_string())
        .collect();
    files.dedup();
    files
}

/// The user documentation: README.md, then every page of `docs/` (not the generated rule
/// pages), each file once, in path order, joined by blank lines.
#[allow(dead_code)]
pub fn docs() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ is readable")
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
        .collect();
    pages.sort();
    std::iter::once(root.join("README.md"))
        .chain(pages)
        .map(|path| std::fs::read_to_string(&path).expect("a docs page is readable"))
        .collect::<Vec<_>>()
        .join("\n\n")
}
