//! The baseline: a run's findings recorded by fingerprint (`lint --write-baseline FILE`), so
//! that later runs (`--baseline FILE`, or `baseline:` in the config) report only new ones.
//! A fingerprint leaves out what unrelated edits change: line numbers, the tool's position in
//! its file, formatting and messages (which quote counts). An entry that no longer matches a
//! finding of a file this run linted is reported as `unused-suppression`, so the file only
//! shrinks; a run over some of the files (pre-commit passes the staged ones) says nothing of the
//! other files' entries, and `--write-baseline` on it rewrites only those files' entries.
//!
//! ```json
//! {"version": 1, "toolcheck": "0.1.0", "findings": [
//!   {"fingerprint": "TC209:5f0c9d2a31b4e677:1", "file": "tools/a.tool.yaml",
//!    "tool": "run_tests", "message": "absolute word `Always`"}
//! ]}
//! ```

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::diagnostic::reporter::{ActiveRule, Anchor, Reporter};
use crate::diagnostic::{Diagnostic, Field, FileReport, Suppressed};
use crate::error::{Error, Result};
use crate::parse::source::SourceFile;
use crate::parse::{Node, Span};
use crate::read::globs::absolute;

const VERSION: u64 = 1;
/// The reason a baselined finding carries in the JSON output's `suppressed` list.
pub const REASON: &str = "baseline";

/// A loaded baseline file.
pub struct Baseline {
    file: Arc<SourceFile>,
    /// The directory files are named relative to in fingerprints.
    dir: PathBuf,
    entries: Vec<Entry>,
}

struct Entry {
    fingerprint: String,
    /// The file the finding was in, as [`file_key`] names it (absent in a hand-written entry).
    file: Option<String>,
    tool: Option<String>,
    message: String,
    span: Span,
}

#[derive(Serialize)]
struct Document<'a> {
    version: u64,
    toolcheck: &'static str,
    findings: Vec<Written<'a>>,
}

#[derive(Serialize)]
struct Written<'a> {
    fingerprint: String,
    file: String,
    tool: Option<&'a str>,
    message: &'a str,
}

/// What [`write`] wrote.
pub struct WriteCount {
    /// The findings of this run.
    pub written: usize,
    /// The entries of files this run did not lint, kept from the baseline it replaced.
    pub kept: usize,
}

/// Writes the findings of `reports` to `path`, with the entries of the baseline already there
/// for the files `reports` did not lint.
pub fn write(path: &Path, reports: &[FileReport]) -> Result<WriteCount> {
    let dir = directory_of(path);
    let mut findings: Vec<Written<'_>> = Vec::new();
    let mut linted = HashSet::new();
    for report in reports.iter().filter(|report| report.linted) {
        let file = file_key(&report.file.name, &dir);
        for (diagnostic, fingerprint) in fingerprints(&report.diagnostics, &file) {
            findings.push(Written {
                fingerprint,
                file: file.clone(),
                tool: diagnostic.tool.as_deref(),
                message: &diagnostic.message,
            });
        }
        linted.insert(file);
    }
    let written = findings.len();
    let previous = match path.exists() {
        true => kept_entries(path, &linted)?,
        false => Vec::new(),
    };
    let kept = previous.len();
    findings.extend(previous.iter().map(|entry| Written {
        fingerprint: entry.fingerprint.clone(),
        file: entry.file.clone().unwrap_or_default(),
        tool: entry.tool.as_deref(),
        message: &entry.message,
    }));
    findings.sort_by(|a, b| (&a.file, &a.fingerprint).cmp(&(&b.file, &b.fingerprint)));
    let document = Document {
        version: VERSION,
        toolcheck: env!("CARGO_PKG_VERSION"),
        findings,
    };
    let mut text = serde_json::to_string_pretty(&document)
        .map_err(|error| Error::new(format!("cannot write the baseline: {error}")))?;
    text.push('\n');
    crate::atomic_write::replace(path, text.as_bytes()).map_err(|error| {
        Error::new(format!(
            "cannot write the baseline {}: {error}",
            path.display()
        ))
    })?;
    Ok(WriteCount { written, kept })
}

/// The entries of the baseline at `path` whose file is not in `linted`. A file there that is
/// not a baseline is an error: writing over it would lose it.
fn kept_entries(path: &Path, linted: &HashSet<String>) -> Result<Vec<Entry>> {
    let mut entries = Baseline::load(path)
        .map_err(|mut error| {
            // A file that cannot be read says why; one that reads is not a baseline.
            if error.location.is_some() {
                error.message = format!(
                    "cannot write the baseline over {}: it holds something else",
                    path.display()
                );
                error.help = Some("remove the file, or write the baseline to another one".into());
            }
            error
        })?
        .entries;
    entries.retain(|entry| {
        entry
            .file
            .as_ref()
            .is_some_and(|file| !linted.contains(file))
    });
    Ok(entries)
}

impl Baseline {
    pub fn load(path: &Path) -> Result<Baseline> {
        let text = crate::read::read_text(path, "baseline")?;
        let file = SourceFile::new(path.display().to_string(), text);
        let not_ours = |span: Span| {
            Error::at(
                &file,
                span,
                "not a toolcheck baseline: write one with `toolcheck lint --write-baseline FILE`",
            )
        };
        let root = crate::parse::json::parse(&file.text).map_err(|error| {
            Error::at(
                &file,
                error.span,
                format!("invalid baseline: {}", error.message),
            )
        })?;
        if root.get("version").and_then(Node::as_f64) != Some(VERSION as f64) {
            return Err(not_ours(root.span()));
        }
        let Some(findings) = root.get("findings").and_then(Node::as_array) else {
            return Err(not_ours(root.span()));
        };
        let mut entries = Vec::with_capacity(findings.len());
        for finding in findings {
            let Some(fingerprint) = finding.get("fingerprint").and_then(Node::as_str) else {
                return Err(not_ours(finding.span()));
            };
            let text = |key| finding.get(key).and_then(Node::as_str).map(str::to_string);
            entries.push(Entry {
                fingerprint: fingerprint.to_string(),
                file: text("file"),
                tool: text("tool"),
                message: text("message").unwrap_or_default(),
                span: finding.span(),
            });
        }
        Ok(Baseline {
            dir: directory_of(path),
            file,
            entries,
        })
    }

    /// Starts matching a run's reports against the baseline, one at a time in input order.
    pub fn start(&self) -> Matching<'_> {
        let mut remaining: HashMap<&str, usize> = HashMap::new();
        for (index, entry) in self.entries.iter().enumerate() {
            remaining.entry(&entry.fingerprint).or_insert(index);
        }
        Matching {
            baseline: self,
            remaining,
            matched: vec![false; self.entries.len()],
            linted: HashSet::new(),
        }
    }
}

/// The baseline entries a run's findings matched so far.
pub struct Matching<'b> {
    baseline: &'b Baseline,
    remaining: HashMap<&'b str, usize>,
    matched: Vec<bool>,
    /// The files linted so far, as [`file_key`] names them.
    linted: HashSet<String>,
}

impl Matching<'_> {
    /// Moves every finding of a report that the baseline records to its `suppressed` list
    /// (reason [`REASON`]).
    pub fn apply(&mut self, report: &mut FileReport) {
        if !report.linted {
            return;
        }
        let file = file_key(&report.file.name, &self.baseline.dir);
        let keep: Vec<bool> = fingerprints(&report.diagnostics, &file)
            .into_iter()
            .map(
                |(_, fingerprint)| match self.remaining.remove(fingerprint.as_str()) {
                    Some(index) => {
                        self.matched[index] = true;
                        false
                    }
                    None => true,
                },
            )
            .collect();
        self.linted.insert(file);
        let diagnostics = std::mem::take(&mut report.diagnostics);
        for (diagnostic, keep) in diagnostics.into_iter().zip(keep) {
            if keep {
                report.diagnostics.push(diagnostic);
            } else {
                report.suppressed.push(Suppressed {
                    diagnostic,
                    reason: Some(REASON.to_string()),
                });
            }
        }
    }

    /// Ends the run: a report on the baseline file for its entries of the files linted that
    /// matched nothing (when `unused`, the `unused-suppression` rule, runs).
    pub fn finish(self, unused: Option<&ActiveRule>) -> Option<FileReport> {
        let (baseline, matched, linted) = (self.baseline, self.matched, self.linted);
        unused.and_then(|rule| {
            let mut reporter = Reporter::new(&baseline.file, rule);
            let stale = baseline
                .entries
                .iter()
                .zip(&matched)
                .filter(|(entry, matched)| {
                    !**matched && entry.file.as_ref().is_none_or(|file| linted.contains(file))
                });
            for (entry, _) in stale {
                let code = entry.fingerprint.split(':').next().unwrap_or_default();
                reporter
                    .report(
                        Field::File,
                        Anchor::Source(entry.span.clone()),
                        format!("baseline entry for `{code}` matched no finding"),
                    )
                    .help("the finding is fixed: rewrite the baseline with `--write-baseline`");
            }
            let diagnostics = reporter.take_findings();
            (!diagnostics.is_empty()).then(|| FileReport {
                file: baseline.file.clone(),
                linted: false,
                tools: 0,
                skipped: 0,
                diagnostics,
                suppressed: Vec::new(),
                internal_error: None,
                tool_tokens: None,
            })
        })
    }
}

fn directory_of(path: &Path) -> PathBuf {
    let absolute = absolute(path);
    absolute.parent().map(Path::to_path_buf).unwrap_or_default()
}

/// A file as fingerprints name it: relative to the baseline's directory when it is below it,
/// with `/` separators, whatever the path typed on the command line.
fn file_key(name: &str, dir: &Path) -> String {
    let path = Path::new(name);
    let normal = absolute(path);
    let shown = normal.strip_prefix(dir).unwrap_or(path);
    shown.display().to_string().replace('\\', "/")
}

/// Each finding with its fingerprint: `CODE:identity:n`, the n-th finding of that identity in
/// the file (the same word twice in one description).
fn fingerprints<'a>(diagnostics: &'a [Diagnostic], file: &str) -> Vec<(&'a Diagnostic, String)> {
    let mut seen: HashMap<u64, usize> = HashMap::new();
    diagnostics
        .iter()
        .map(|diagnostic| {
            let identity = identity(diagnostic, file);
            let occurrence = seen.entry(identity).or_insert(0);
            *occurrence += 1;
            (
                diagnostic,
                format!("{}:{identity:016x}:{occurrence}", diagnostic.code),
            )
        })
        .collect()
}

/// Rule, file, tool name, the pointer without the tool's index in its file, and the flagged
/// text when it is a word, a phrase or a key (a whole description is identified by its
/// pointer, so editing it does not make its finding new). Lines and messages are left out.
fn identity(diagnostic: &Diagnostic, file: &str) -> u64 {
    let text = diagnostic
        .file
        .text
        .get(diagnostic.span.clone())
        .filter(|text| text.len() <= 40 && text.matches(char::is_whitespace).count() <= 2)
        .unwrap_or_default();
    // JSON and YAML quote a key differently: compare what is inside the quotes.
    let text = text.trim_matches(|c| c == '"' || c == '\'');
    let pointer = without_tool_index(&diagnostic.pointer.written());
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [
        &*diagnostic.code,
        file,
        diagnostic.tool.as_deref().unwrap_or_default(),
        &pointer,
        text,
    ] {
        for byte in part.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// `/tools/3/inputSchema/properties/q` → `/tools/*/inputSchema/properties/q`: the first index
/// of a pointer is the tool's place in its list (in every dialect that lists tools), which
/// reordering changes; the tool's name is part of the identity instead.
fn without_tool_index(pointer: &str) -> String {
    let mut starred = false;
    pointer
        .split('/')
        .map(|segment| {
            if !starred && !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
                starred = true;
                "*"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::without_tool_index;

    #[test]
    fn the_tool_index_is_starred() {
        assert_eq!(
            without_tool_index("/tools/3/inputSchema/anyOf/0"),
            "/tools/*/inputSchema/anyOf/0"
        );
        assert_eq!(without_tool_index("/12/function/name"), "/*/function/name");
        assert_eq!(without_tool_index("/description"), "/description");
        assert_eq!(without_tool_index(""), "");
    }
}
