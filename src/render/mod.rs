//! Output formats. Each is an [`Output`]: it writes a run's reports as they arrive, in input
//! order, then the run's totals, so a run's memory does not grow with its findings.

pub mod concise;
pub mod github;
pub mod human;
pub mod json;
pub mod sarif;
pub mod statistics;

use std::collections::BTreeMap;
use std::io::{self, Seek, Write};
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::{FileReport, Suppressed};
use crate::suppress::directives::Comments;

/// A format written as a run goes: each file's report as soon as it is final, in input
/// order, then the end of the run.
pub trait Output {
    fn report(&mut self, report: &FileReport) -> io::Result<()>;
    fn finish(self: Box<Self>, totals: &Totals) -> io::Result<()>;
}

/// Writes a whole run to `output`.
pub fn write_all(mut output: Box<dyn Output + '_>, reports: &[FileReport]) -> io::Result<()> {
    let mut totals = Totals::default();
    for report in reports {
        totals.add(report);
        output.report(report)?;
    }
    output.finish(&totals)
}

/// What the end of a run's output needs: its counts, and its findings by rule.
#[derive(Debug, Default)]
pub struct Totals {
    pub summary: Summary,
    by_code: BTreeMap<Arc<str>, RuleTotal>,
}

/// One rule's findings in a run.
#[derive(Debug)]
struct RuleTotal {
    rule: Arc<str>,
    /// The highest severity among them.
    severity: Severity,
    count: usize,
    errors: usize,
    /// Some are in a manifest.
    in_manifests: bool,
    /// How comments start in the files they are in: `//` when all are in TypeScript or
    /// JavaScript.
    comments: Comments,
}

impl Totals {
    pub fn add(&mut self, report: &FileReport) {
        self.summary.add(report);
        self.count(&report.diagnostics);
    }

    /// Counts findings by rule (not in the summary).
    pub fn count<'a>(&mut self, diagnostics: impl IntoIterator<Item = &'a Diagnostic>) {
        for diagnostic in diagnostics {
            let total = self
                .by_code
                .entry(diagnostic.code.clone())
                .or_insert_with(|| RuleTotal {
                    rule: diagnostic.rule.clone(),
                    severity: diagnostic.severity,
                    count: 0,
                    errors: 0,
                    in_manifests: false,
                    comments: Comments::Slashes,
                });
            total.severity = total.severity.max(diagnostic.severity);
            let path = std::path::Path::new(&*diagnostic.file.name);
            total.in_manifests |= crate::parse::code::Language::of(path).is_none();
            if Comments::of_file(&diagnostic.file.name) == Comments::Hash {
                total.comments = Comments::Hash;
            }
            total.count += 1;
            total.errors += usize::from(diagnostic.severity == Severity::Error);
        }
    }

    /// The code the footer's hints name: the one with the most findings of the run's highest
    /// severity (the first in code order among equals), so that an error rule comes before a
    /// more frequent info one.
    pub fn hint_code(&self) -> Option<&str> {
        self.hint_rule().map(|(code, _)| code)
    }

    /// [`Totals::hint_code`] and its findings.
    fn hint_rule(&self) -> Option<(&str, &RuleTotal)> {
        let mut best: Option<(&Arc<str>, &RuleTotal)> = None;
        for (code, total) in &self.by_code {
            let better = best.is_none_or(|(_, most)| {
                (total.severity, total.count) > (most.severity, most.count)
            });
            if better {
                best = Some((code, total));
            }
        }
        best.map(|(code, total)| (&**code, total))
    }

    /// `(errors, code, rule)` of each rule with errors, the most first (code order among
    /// equals).
    fn errors_by_rule(&self) -> Vec<(usize, &str, &str)> {
        let mut rows: Vec<(usize, &str, &str)> = self
            .by_code
            .iter()
            .filter(|(_, total)| total.errors > 0)
            .map(|(code, total)| (total.errors, &**code, &*total.rule))
            .collect();
        rows.sort_by_key(|row| std::cmp::Reverse(row.0));
        rows
    }
}

/// Counts for the summary line and the JSON `summary` object.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    pub files: usize,
    pub tools: usize,
    pub skipped: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Findings a baseline recorded (not shown); absent from JSON when there are none.
    #[serde(skip_serializing_if = "is_zero")]
    pub baselined: usize,
    /// Findings `--fix` can fix (not part of the JSON contract).
    #[serde(skip)]
    pub fixable: usize,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

impl Summary {
    pub fn of(reports: &[FileReport]) -> Summary {
        let mut summary = Summary::default();
        for report in reports {
            summary.add(report);
        }
        summary
    }

    /// Counts one more report.
    pub fn add(&mut self, report: &FileReport) {
        self.files += usize::from(report.linted);
        self.tools += report.tools;
        self.skipped += report.skipped;
        self.baselined += report
            .suppressed
            .iter()
            .filter(|s| s.reason.as_deref() == Some(crate::suppress::baseline::REASON))
            .count();
        for diagnostic in &report.diagnostics {
            self.fixable += usize::from(diagnostic.fix.is_some());
            match diagnostic.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Info => self.infos += 1,
            }
        }
    }
}

/// How a run's findings were listed: the footer does not suggest the listing already used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    Full,
    Concise,
    Statistics,
}

/// A first run with at least this many findings gets the ways in (a screenful of concise lines).
const MANY_FINDINGS: usize = 30;

/// The rules the errors line names; the others are counted after them.
const ERROR_RULES_SHOWN: usize = 3;

/// The lines under the human summary of a run with findings: what failed the run (its errors
/// by rule), what `--fix` would fix, where to read about a rule and how to silence one, and,
/// on a first run with many findings, the ways to take them in.
pub fn footer(totals: &Totals, listing: Listing) -> String {
    let summary = &totals.summary;
    let mut out = String::new();
    let errors = totals.errors_by_rule();
    if !errors.is_empty() {
        // A last rule is named rather than counted as "1 more".
        let shown = match errors.len() {
            all if all <= ERROR_RULES_SHOWN + 1 => all,
            _ => ERROR_RULES_SHOWN,
        };
        let mut named: Vec<String> = errors[..shown]
            .iter()
            .map(|(count, code, rule)| format!("{count} {code} {rule}"))
            .collect();
        let rest = &errors[shown..];
        if !rest.is_empty() {
            let count: usize = rest.iter().map(|row| row.0).sum();
            named.push(format!("{count} more in {} rules", rest.len()));
        }
        out.push_str(&format!("errors by rule: {}\n", named.join(", ")));
    }
    if summary.fixable > 0 {
        out.push_str(&format!(
            "[*] {} fixable with `toolcheck lint --fix` (preview with `--diff`)\n",
            summary.fixable
        ));
    }
    if let Some((code, total)) = totals.hint_rule() {
        out.push_str(&format!(
            "hint: `toolcheck explain {code}` for a rule's details\n"
        ));
        // The meta rules (an unreadable manifest, an unused suppression) are fixed, not silenced.
        if !code.starts_with("TC0") {
            let comment = match (total.in_manifests, total.comments) {
                (true, _) => format!("`# toolcheck: ignore[{code}]` on its YAML line"),
                (false, comments) => format!(
                    "`{} toolcheck: ignore[{code}]` on its line or the line above",
                    comments.marker()
                ),
            };
            out.push_str(&format!(
                "hint: silence a finding with {comment}, or with `per-file-ignores` in \
                 toolcheck.yaml\n"
            ));
        }
    }
    let findings = summary.errors + summary.warnings + summary.infos;
    if findings >= MANY_FINDINGS && summary.baselined == 0 {
        out.push_str(&format!(
            "hint: {findings} findings; ways to take them in:\n"
        ));
        if listing != Listing::Statistics {
            out.push_str("  `--statistics` counts them by rule\n");
        }
        if listing != Listing::Concise {
            out.push_str("  `--output-format concise` prints one line each\n");
        }
        out.push_str(
            "  `--write-baseline toolcheck-baseline.json` records them; with `baseline: \
             toolcheck-baseline.json` in toolcheck.yaml, later runs report only new ones\n",
        );
    }
    out
}

/// All diagnostics of a run, in output order (file, offset, code).
pub fn diagnostics(reports: &[FileReport]) -> impl Iterator<Item = &Diagnostic> {
    reports.iter().flat_map(|report| &report.diagnostics)
}

/// All suppressed findings of a run, in output order.
pub fn suppressed(reports: &[FileReport]) -> impl Iterator<Item = &Suppressed> {
    reports.iter().flat_map(|report| &report.suppressed)
}

/// A JSON array written one element at a time, pretty-printed as `serde_json` prints it inside
/// a document at `indent` spaces (the indentation of the line that holds its key).
pub struct PrettyArray<W> {
    out: W,
    indent: usize,
    /// The indentation of the elements' lines.
    pad: String,
    len: usize,
    scratch: Vec<u8>,
    indented: Vec<u8>,
}

impl<W: Write> PrettyArray<W> {
    pub fn new(out: W, indent: usize) -> Self {
        PrettyArray {
            out,
            indent,
            pad: " ".repeat(indent + 2),
            len: 0,
            scratch: Vec::new(),
            indented: Vec::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, value: &impl Serialize) -> io::Result<()> {
        self.indented.clear();
        render_elements(&mut self.scratch, &mut self.indented, &self.pad, [value])?;
        self.push_rendered(1)
    }

    /// Pushes many values, rendered on all cores in blocks, a few blocks per thread at a
    /// time; the same bytes as pushing them one by one.
    pub fn push_all<'a, T: Sync, S: Serialize>(
        &mut self,
        items: &'a [T],
        value: impl Fn(&'a T) -> S + Sync,
    ) -> io::Result<()> {
        // A few hundred microseconds of work a block.
        const BLOCK: usize = 256;
        if items.len() <= BLOCK {
            return items.iter().try_for_each(|item| self.push(&value(item)));
        }
        let pad = self.pad.clone();
        let wave = BLOCK * rayon::current_num_threads().max(1) * 4;
        for items in items.chunks(wave) {
            let blocks: Vec<io::Result<Vec<u8>>> = items
                .par_chunks(BLOCK)
                .map(|block| {
                    let mut rendered = Vec::new();
                    render_elements(
                        &mut Vec::new(),
                        &mut rendered,
                        &pad,
                        block.iter().map(&value),
                    )?;
                    Ok(rendered)
                })
                .collect();
            for (block, rendered) in items.chunks(BLOCK).zip(blocks) {
                self.indented = rendered?;
                self.push_rendered(block.len())?;
            }
        }
        Ok(())
    }

    /// Writes `count` elements rendered into `indented`.
    fn push_rendered(&mut self, count: usize) -> io::Result<()> {
        let separator: &[u8] = if self.len == 0 { b"[\n" } else { b",\n" };
        self.len += count;
        // Written at once: a write per line costs more than the serializing.
        self.out.write_all(separator)?;
        self.out.write_all(&self.indented)
    }

    /// The array's last bytes (`]`, or `[]` when it is empty); gives back the writer.
    pub fn close(mut self) -> io::Result<W> {
        if self.len == 0 {
            self.out.write_all(b"[]")?;
        } else {
            write!(self.out, "\n{}]", " ".repeat(self.indent))?;
        }
        Ok(self.out)
    }
}

/// Appends `values` to `out` as the elements of a pretty-printed array whose lines are
/// indented by `pad`, separated by `,\n` (`scratch` holds each while it is indented).
fn render_elements<S: Serialize>(
    scratch: &mut Vec<u8>,
    out: &mut Vec<u8>,
    pad: &str,
    values: impl IntoIterator<Item = S>,
) -> io::Result<()> {
    for (index, value) in values.into_iter().enumerate() {
        if index > 0 {
            out.extend_from_slice(b",\n");
        }
        scratch.clear();
        serde_json::to_writer_pretty(&mut *scratch, &value).map_err(io::Error::other)?;
        // A JSON string never holds a raw line break: every line is the value's own.
        for (line_index, line) in scratch.split(|&byte| byte == b'\n').enumerate() {
            if line_index > 0 {
                out.push(b'\n');
            }
            out.extend_from_slice(pad.as_bytes());
            out.extend_from_slice(line);
        }
    }
    Ok(())
}

/// Output held back until the end of a run (the JSON document's findings, which follow its
/// summary): in a temporary file, so that it does not stay in memory, or in memory when no
/// temporary file can be made.
pub enum Spill {
    Memory(Vec<u8>),
    File(TempFile),
}

/// A temporary file of a [`Spill`], removed when dropped (on Unix as soon as it is open).
pub struct TempFile {
    writer: Option<io::BufWriter<std::fs::File>>,
    path: std::path::PathBuf,
}

impl Drop for TempFile {
    fn drop(&mut self) {
        // Closed first: Windows removes no open file.
        drop(self.writer.take());
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Spill {
    pub fn memory() -> Spill {
        Spill::Memory(Vec::new())
    }

    /// A temporary file, or memory when none can be made.
    pub fn file() -> Spill {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "toolcheck-{}-{}.spill",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path);
        match file {
            Ok(file) => {
                // Gone from the folder at once where the system allows it (it lives on while
                // open), so that nothing is left behind even if the run is killed.
                #[cfg(unix)]
                let _ = std::fs::remove_file(&path);
                Spill::File(TempFile {
                    writer: Some(io::BufWriter::new(file)),
                    path,
                })
            }
            Err(_) => Spill::memory(),
        }
    }

    /// Writes what was held to `out`.
    pub fn copy_to(self, out: &mut impl Write) -> io::Result<()> {
        match self {
            Spill::Memory(bytes) => out.write_all(&bytes),
            Spill::File(mut temp) => {
                let Some(writer) = temp.writer.take() else {
                    return Ok(());
                };
                let mut file = writer
                    .into_inner()
                    .map_err(io::IntoInnerError::into_error)?;
                file.rewind()?;
                io::copy(&mut io::BufReader::new(file), out).map(|_| ())
            }
        }
    }
}

impl Write for Spill {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Spill::Memory(held) => held.write(bytes),
            Spill::File(TempFile {
                writer: Some(writer),
                ..
            }) => writer.write(bytes),
            Spill::File(_) => Err(io::Error::other("the temporary file is closed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Spill::File(TempFile {
                writer: Some(writer),
                ..
            }) => writer.flush(),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pretty_array_is_written_as_serde_json_writes_it_in_a_document() {
        let values = [
            serde_json::json!({"a": 1, "b": [1, 2], "c": {}}),
            serde_json::json!({"text": "two\nlines"}),
        ];
        for count in 0..=values.len() {
            let document = serde_json::json!({"x": {"items": &values[..count]}});
            let expected = serde_json::to_string_pretty(&document).unwrap();
            let mut array = PrettyArray::new(Vec::new(), 4);
            for value in &values[..count] {
                array.push(value).unwrap();
            }
            let written = String::from_utf8(array.close().unwrap()).unwrap();
            let framed = format!("{{\n  \"x\": {{\n    \"items\": {written}\n  }}\n}}");
            assert_eq!(framed, expected, "{count} elements");
        }
    }

    /// Pushed all at once (in blocks on all cores) or after single pushes: the same document
    /// as serde_json's.
    #[test]
    fn values_pushed_all_at_once_are_written_as_one_by_one() {
        let values: Vec<serde_json::Value> = (0..3000)
            .map(|index| serde_json::json!({"n": index, "lines": "a\nb", "list": [index, {}]}))
            .collect();
        for (single, count) in [(0, 3000), (1, 600), (0, 100), (2, 0)] {
            let document = serde_json::json!({"x": {"items": &values[..single + count]}});
            let expected = serde_json::to_string_pretty(&document).unwrap();
            let mut array = PrettyArray::new(Vec::new(), 4);
            for value in &values[..single] {
                array.push(value).unwrap();
            }
            array
                .push_all(&values[single..single + count], |value| value)
                .unwrap();
            let written = String::from_utf8(array.close().unwrap()).unwrap();
            let framed = format!("{{\n  \"x\": {{\n    \"items\": {written}\n  }}\n}}");
            assert_eq!(framed, expected, "{single} then {count}");
        }
    }

    #[test]
    fn a_spill_gives_back_what_was_written_and_leaves_no_file() {
        let file = Spill::file();
        let Spill::File(temp) = &file else {
            panic!("the temporary folder takes a file");
        };
        let path = temp.path.clone();
        for mut spill in [Spill::memory(), file] {
            spill.write_all(b"held ").unwrap();
            spill.write_all(b"back").unwrap();
            let mut out = Vec::new();
            spill.copy_to(&mut out).unwrap();
            assert_eq!(out, b"held back");
        }
        assert!(!path.exists(), "{}", path.display());
    }
}
