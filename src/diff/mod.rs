//! `toolcheck diff`: what a change does to what the model reads. Both sides are read through
//! the same read → parse → normalize path as `lint`, their tools matched by name within files
//! paired by path ([`load`]), and every difference classified:
//!
//! - **breaking**: a tool removed or renamed, a required parameter added, a parameter removed,
//!   made required or its type narrowed, an enum value removed (or an enum imposed);
//! - **risky**: a trigger ("Use when …") or anti-trigger ("Do not use …") sentence of the
//!   description or guidelines changed (as `missing-trigger` and `missing-anti-trigger` read
//!   them), a limit changed (`maxItems`, `maximum`, `maxLength`, …, or a number of the
//!   description), a default changed, the tool's token cost up more than 20% (and 10 tokens);
//! - **additive**: everything else (a tool or optional parameter added, a rewording, ...).
//!
//! Values are compared as JSON, so a reordering (of tools, keys, `required`, enum values,
//! guidelines) or a reformatting (YAML ↔ JSON, spaces) is no change. Both sides are linted with
//! the same config; findings are matched by rule, tool and location path inside the tool (not by
//! line), giving the new and the fixed ones.

pub mod load;
pub mod render;

use std::collections::BTreeSet;
use std::sync::{Arc, LazyLock};

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use rayon::prelude::*;
use regex::Regex;
use serde::Serialize;
use serde_json::Value;

use crate::catalog::Registry;
use crate::diagnostic::{Diagnostic, Field, Severity};
use crate::lint::{Extras, FileReport, Linter};
use crate::normalize::Tool;
use crate::read::Input;
use crate::rules::wording::missing_anti_trigger::MissingAntiTrigger;
use crate::rules::wording::missing_trigger::MissingTrigger;
use crate::tokens::{Counter, Encoding};

pub use load::{Side, Spec};

/// Version of the JSON document; bumped only on incompatible changes.
pub const VERSION: u32 = 1;

/// A tool whose token cost grows by more than this share is a risky change...
const TOKEN_GROWTH: f64 = 0.20;
/// ...when it grows by at least this many tokens (a 5-token tool gaining 2 is no risk).
const TOKEN_GROWTH_MIN: usize = 10;
/// Tools per job where a side's tools are read or compared on all cores: a tool takes
/// microseconds, so a job of one would cost more to hand out than to do.
const BLOCK: usize = 256;

/// How much a change can hurt the callers and the model, least first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    Additive,
    Risky,
    Breaking,
}

impl Class {
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Additive => "additive",
            Class::Risky => "risky",
            Class::Breaking => "breaking",
        }
    }
}

/// One difference.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    pub class: Class,
    /// The tool's field (`name`, `description`, `input_schema`, `guidelines`, `tokens`, `file`,
    /// ...).
    pub field: &'static str,
    /// Where in the field: a parameter's path (`filter.state`, `labels[]`), empty for the field
    /// as a whole.
    pub path: String,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Removed,
    Renamed,
    Changed,
    Added,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Removed => "removed",
            Status::Renamed => "renamed",
            Status::Changed => "changed",
            Status::Added => "added",
        }
    }
}

/// Token counts of both sides (o200k_base unless configured otherwise).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tokens {
    pub old: usize,
    pub new: usize,
    pub delta: i64,
}

impl Tokens {
    fn of(old: usize, new: usize) -> Tokens {
        Tokens {
            old,
            new,
            delta: new as i64 - old as i64,
        }
    }

    fn add(&mut self, other: Tokens) {
        *self = Tokens::of(self.old + other.old, self.new + other.new);
    }
}

/// One tool that differs.
#[derive(Debug, Clone, Serialize)]
pub struct ToolDiff {
    /// Its name on the new side (on the old side for a removed tool).
    pub name: String,
    /// Its old name, for a renamed tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_name: Option<String>,
    pub status: Status,
    /// The worst class among its changes.
    pub class: Class,
    pub tokens: Tokens,
    pub changes: Vec<Change>,
}

/// A finding that is new or fixed.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub code: String,
    pub rule: String,
    pub severity: Severity,
    pub file: String,
    pub line: usize,
    pub column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The JSON Pointer of the finding inside its tool (inside the file for a file-level one):
    /// what findings are matched by, with the rule and the tool.
    pub path: String,
    pub message: String,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Findings {
    pub new: Vec<Finding>,
    pub fixed: Vec<Finding>,
}

/// One pair of files (or a file on one side only).
#[derive(Debug, Clone, Serialize)]
pub struct FileDiff {
    pub old: Option<String>,
    pub new: Option<String>,
    pub tokens: Tokens,
    /// Changes of the file itself (unreadable, server instructions).
    pub changes: Vec<Change>,
    /// The tools that differ: removed, renamed, changed, then added.
    pub tools: Vec<ToolDiff>,
    pub unchanged: usize,
    pub findings: Findings,
}

impl FileDiff {
    /// The name the file is shown under.
    pub fn label(&self) -> String {
        match (&self.old, &self.new) {
            (Some(old), Some(new)) if old != new => format!("{old} → {new}"),
            (_, Some(name)) | (Some(name), None) => name.clone(),
            (None, None) => String::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.changes.is_empty()
            && self.tools.is_empty()
            && self.findings.new.is_empty()
            && self.findings.fixed.is_empty()
    }
}

#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct ToolCounts {
    pub added: usize,
    pub removed: usize,
    pub renamed: usize,
    pub changed: usize,
    pub unchanged: usize,
}

#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct FindingCounts {
    pub new: usize,
    pub fixed: usize,
}

#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Summary {
    /// Changes of each class (a tool can have several).
    pub breaking: usize,
    pub risky: usize,
    pub additive: usize,
    pub tools: ToolCounts,
    pub tokens: Tokens,
    pub findings: FindingCounts,
}

/// The whole diff.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub version: u32,
    pub toolcheck: &'static str,
    pub tokenizer: &'static str,
    pub old: String,
    pub new: String,
    pub summary: Summary,
    /// Every file pair with a change or a new or fixed finding, in path order.
    pub files: Vec<FileDiff>,
    /// Files that could not be linted for a bug in toolcheck (exit code 2).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub internal_errors: Vec<String>,
    /// Files that cannot be read as tools on either side (`name: why`): nothing of them was
    /// compared (exit code 2).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
}

/// When `toolcheck diff` exits 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOn {
    Breaking,
    Risky,
    Any,
    Never,
}

impl Report {
    /// 2 when a file could not be linted for a bug or read as tools on either side, 1 when a
    /// change of the class `fail_on` names (or worse) is found, else 0.
    pub fn exit_code(&self, fail_on: FailOn) -> i32 {
        if !self.internal_errors.is_empty() || !self.unreadable.is_empty() {
            return 2;
        }
        let s = &self.summary;
        let fails = match fail_on {
            FailOn::Breaking => s.breaking > 0,
            FailOn::Risky => s.breaking + s.risky > 0,
            FailOn::Any => s.breaking + s.risky + s.additive > 0,
            FailOn::Never => false,
        };
        i32::from(fails)
    }
}

/// Compares the two sides: each is read as tools and linted with `linter`.
pub fn diff(old: Side, new: Side, registry: &Registry, linter: &Linter) -> Report {
    let encoding = linter.encoding;
    let detectors = Detectors::new(registry, linter);
    let (old_label, new_label) = (old.label.clone(), new.label.clone());
    let (old_files, old_findings) = read_side(old, linter, encoding);
    let (new_files, new_findings) = read_side(new, linter, encoding);
    let internal_errors: Vec<String> = old_findings
        .internal_errors
        .iter()
        .chain(&new_findings.internal_errors)
        .cloned()
        .collect();
    // Pair the files by key, in key order.
    let mut keys: Vec<&str> = old_files
        .iter()
        .chain(&new_files)
        .map(|f| f.key.as_str())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let old_by_key: HashMap<&str, usize> = index_by_key(&old_files);
    let new_by_key: HashMap<&str, usize> = index_by_key(&new_files);
    let none: Vec<Found> = Vec::new();
    let mut files = Vec::new();
    let mut summary = Summary::default();
    let mut unreadable = Vec::new();
    for key in keys {
        let old = old_by_key.get(key).map(|&i| &old_files[i]);
        let new = new_by_key.get(key).map(|&i| &new_files[i]);
        // No side read as tools: there is nothing to compare, and no change to claim.
        if old.is_none_or(|f| f.error.is_some()) && new.is_none_or(|f| f.error.is_some()) {
            for side in old.into_iter().chain(new) {
                if let Some(error) = &side.error {
                    unreadable.push(format!("{}: {error}", side.name));
                }
            }
            continue;
        }
        let mut file = compare_files(old, new, &detectors);
        let renamed: HashMap<&str, &str> = file
            .tools
            .iter()
            .filter_map(|t| Some((t.old_name.as_deref()?, t.name.as_str())))
            .collect();
        file.findings = compare_findings(
            old.map_or(&none, |f| {
                old_findings.by_file.get(&f.name).unwrap_or(&none)
            }),
            new.map_or(&none, |f| {
                new_findings.by_file.get(&f.name).unwrap_or(&none)
            }),
            old,
            new,
            &renamed,
        );
        summary.tokens.add(file.tokens);
        summary.tools.unchanged += file.unchanged;
        for tool in &file.tools {
            match tool.status {
                Status::Added => summary.tools.added += 1,
                Status::Removed => summary.tools.removed += 1,
                Status::Renamed => summary.tools.renamed += 1,
                Status::Changed => summary.tools.changed += 1,
            }
        }
        for change in file
            .changes
            .iter()
            .chain(file.tools.iter().flat_map(|t| &t.changes))
        {
            match change.class {
                Class::Breaking => summary.breaking += 1,
                Class::Risky => summary.risky += 1,
                Class::Additive => summary.additive += 1,
            }
        }
        summary.findings.new += file.findings.new.len();
        summary.findings.fixed += file.findings.fixed.len();
        if !file.is_empty() {
            files.push(file);
        }
    }
    crate::parallel::drop_in_background((old_files, new_files, old_findings, new_findings));
    Report {
        version: VERSION,
        toolcheck: env!("CARGO_PKG_VERSION"),
        tokenizer: encoding.as_str(),
        old: old_label,
        new: new_label,
        summary,
        files,
        internal_errors,
        unreadable,
    }
}

fn index_by_key(files: &[FileSide]) -> HashMap<&str, usize> {
    files
        .iter()
        .enumerate()
        .map(|(index, file)| (file.key.as_str(), index))
        .collect()
}

/// A JSON value kept as its compact text: a side of 100,000 tools holds each schema in a few
/// dozen bytes rather than a tree of maps ten times that, and two equal texts are equal values
/// without reading either. Read back only where the texts differ.
#[derive(Debug, Clone, PartialEq)]
struct Json(Box<str>);

impl Json {
    fn of(node: &crate::parse::Node) -> Json {
        Json(node.to_json_string().into_boxed_str())
    }

    fn value(&self) -> Value {
        // Read as the file was (serde_json's reader stops at 128 levels; a schema may have 256).
        crate::parse::json::parse(&self.0).map_or(Value::Null, |node| node.to_json())
    }

    /// Whether the two are different values (objects compare without their key order).
    fn differs(old: Option<&Json>, new: Option<&Json>) -> bool {
        old != new && old.map(Json::value) != new.map(Json::value)
    }
}

/// One tool as the model reads it, detached from its tree.
#[derive(Debug, Clone)]
struct ToolDef {
    name: String,
    title: Option<String>,
    description: Option<String>,
    snippet: Option<String>,
    guidelines: Vec<String>,
    schema: Option<Json>,
    output_schema: Option<Json>,
    annotations: Option<Json>,
    deferred: bool,
    tokens: usize,
    /// The JSON Pointer of its definition in its file.
    pointer: String,
}

/// One file of one side, read as tools.
#[derive(Debug)]
struct FileSide {
    key: String,
    name: String,
    tools: Vec<ToolDef>,
    instructions: Option<String>,
    /// Why the file could not be read as tools.
    error: Option<String>,
}

/// A finding as `diff` matches and shows it: without the file's text, the help or the fix, so
/// that one side's findings weigh little while the other side is read.
#[derive(Debug)]
struct Found {
    code: Arc<str>,
    rule: Arc<str>,
    severity: Severity,
    field: Field,
    tool: Option<Arc<str>>,
    pointer: String,
    line: usize,
    column: usize,
    message: String,
}

impl Found {
    fn of(d: Diagnostic) -> Found {
        let at = d.file.line_column(d.span.start);
        Found {
            code: d.code,
            rule: d.rule,
            severity: d.severity,
            field: d.field,
            tool: d.tool,
            pointer: d.pointer.written(),
            line: at.line,
            column: at.column,
            message: d.message,
        }
    }
}

/// One side's findings, by file name, and the files whose linting failed.
#[derive(Default)]
struct SideFindings {
    by_file: HashMap<String, Vec<Found>>,
    internal_errors: Vec<String>,
}

impl SideFindings {
    fn of(reports: Vec<FileReport>) -> SideFindings {
        let mut side = SideFindings::default();
        for report in reports {
            if let Some(message) = &report.internal_error {
                side.internal_errors
                    .push(format!("{}: {message}", report.file.name));
            }
            if report.linted {
                // On all cores: a large set has findings by the hundred thousand.
                let found = report
                    .diagnostics
                    .into_par_iter()
                    .with_min_len(BLOCK)
                    .map(Found::of)
                    .collect();
                side.by_file.insert(report.file.name.clone(), found);
            }
        }
        side
    }
}

/// Reads one side's files once: linted, and each read as tools.
fn read_side(side: Side, linter: &Linter, encoding: Encoding) -> (Vec<FileSide>, SideFindings) {
    let (keys, inputs): (Vec<String>, Vec<Input>) = side.files.into_iter().unzip();
    let names: Vec<String> = inputs.iter().map(|input| input.name.clone()).collect();
    let parsed = linter.parse_all(inputs);
    // Linted, then read as tools. The lint counts the tools' tokens (its budget rules count
    // most of them anyway: counting them here too cost 0.3 CPU-s a side of 100,000 tools), and
    // runs its set rules at once, on all cores, rather than one after the other, while the
    // rest of the lint's memory is not yet taken. The tools are read after it: beside it, they
    // would be read while its set rules hold their indexes (100,000 tools: 20 MB more).
    let extras = Extras {
        tool_tokens: true,
        set_rules_at_once: true,
    };
    let mut reports = linter.lint_parsed_with(&parsed, extras);
    // Reports come in input order (the config's, if any, after them).
    let counts: Vec<Option<Vec<usize>>> = names
        .iter()
        .enumerate()
        .map(|(index, name)| {
            let report = reports.get_mut(index).filter(|r| &r.file.name == name)?;
            report.tool_tokens.take()
        })
        .collect();
    let sets = parsed.with_tool_sets(encoding, |index, set| {
        tools_of(set, counts[index].as_deref(), encoding)
    });
    let findings = SideFindings::of(reports);
    let files = keys
        .into_iter()
        .zip(names)
        .zip(sets)
        .map(|((key, name), read)| {
            let ((tools, instructions), error) = match read {
                Ok(read) => (read, None),
                Err(error) => ((Vec::new(), None), Some(error.message())),
            };
            FileSide {
                key,
                name,
                tools,
                instructions,
                error,
            }
        })
        .collect();
    crate::parallel::drop_in_background(parsed);
    (files, findings)
}

/// A file's tools as the diff compares them, and its instructions. Their tokens are the
/// lint's `counted`; without them (the file's lint failed: an internal error) they are counted
/// here.
fn tools_of(
    set: &crate::normalize::ToolSet<'_>,
    counted: Option<&[usize]>,
    encoding: Encoding,
) -> (Vec<ToolDef>, Option<String>) {
    let tokens: Vec<usize> = match counted {
        Some(counted) if counted.len() == set.tools.len() => counted.to_vec(),
        _ => {
            let tools: Vec<&Tool<'_>> = set.tools.iter().collect();
            Counter::new(encoding).totals(&tools)
        }
    };
    let text =
        |node: Option<&crate::parse::Node>| node.and_then(|node| node.as_str()).map(str::to_string);
    let defs: Vec<ToolDef> = set
        .tools
        .par_iter()
        .with_min_len(BLOCK)
        .zip(tokens)
        .map(|(tool, tokens)| ToolDef {
            name: tool.name().to_string(),
            title: text(tool.title.map(|e| &e.value)),
            description: text(tool.description()),
            snippet: text(tool.snippet()),
            guidelines: tool
                .guidelines()
                .filter_map(|node| node.as_str().map(str::to_string))
                .collect(),
            schema: tool.input_schema().map(Json::of),
            output_schema: tool.output_schema.map(|e| Json::of(&e.value)),
            annotations: tool.annotations.map(|e| Json::of(&e.value)),
            deferred: tool.defer_loading,
            tokens,
            pointer: tool.node.pointer.to_string(),
        })
        .collect();
    (defs, text(set.instructions.map(|e| &e.value)))
}

/// The wording rules' readings of triggers and anti-triggers, with the run's options.
struct Detectors {
    triggers: Option<MissingTrigger>,
    boundaries: Option<MissingAntiTrigger>,
}

impl Detectors {
    fn new(registry: &Registry, linter: &Linter) -> Detectors {
        fn build<T: crate::catalog::NativeCheck>(
            registry: &Registry,
            linter: &Linter,
        ) -> Option<T> {
            let code = &registry.native::<T>().code;
            let setting = linter.settings().iter().find(|s| &s.code == code)?;
            serde_json::from_value(Value::Object(setting.options.clone())).ok()
        }
        Detectors {
            triggers: build(registry, linter),
            boundaries: build(registry, linter),
        }
    }

    /// The trigger and the boundary sentences among `refs`.
    fn read(
        &self,
        name: &str,
        refs: &[&str],
        names: &HashSet<&str>,
    ) -> (BTreeSet<String>, BTreeSet<String>) {
        let triggers = self
            .triggers
            .as_ref()
            .map_or_else(|| vec![false; refs.len()], |t| t.triggers(name, refs));
        let boundaries = self.boundaries.as_ref().map_or_else(
            || vec![false; refs.len()],
            |b| b.boundaries(name, refs, names),
        );
        // A sentence that says both (`If the user names an author, do not use this tool`) is
        // where the tool stops.
        let triggers: Vec<bool> = triggers
            .iter()
            .zip(&boundaries)
            .map(|(trigger, boundary)| *trigger && !*boundary)
            .collect();
        let pick = |flags: &[bool]| {
            refs.iter()
                .zip(flags)
                .filter(|(_, flag)| **flag)
                .map(|(s, _)| s.to_string())
                .collect()
        };
        (pick(&triggers), pick(&boundaries))
    }
}

/// The sentences of a text: split after `.`, `!`, `?` followed by a space, and at line
/// breaks; whitespace collapsed.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut start = 0;
        let bytes = line.as_bytes();
        for (index, &byte) in bytes.iter().enumerate() {
            let end = matches!(byte, b'.' | b'!' | b'?')
                && bytes.get(index + 1).is_some_and(u8::is_ascii_whitespace)
                && !abbreviation(&line[..index]);
            if end {
                push_sentence(&line[start..=index], &mut out);
                start = index + 1;
            }
        }
        push_sentence(&line[start..], &mut out);
    }
    out
}

/// Whether the text before a `.` ends with an abbreviation (`e.g`, `i.e`, `etc`, `vs`).
fn abbreviation(before: &str) -> bool {
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    matches!(
        word.as_str(),
        "e.g" | "i.e" | "etc" | "vs" | "cf" | "approx"
    )
}

fn push_sentence(text: &str, out: &mut Vec<String>) {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let bare = collapsed.trim_start_matches(['-', '*', '•', ' ']);
    if bare.chars().any(char::is_alphanumeric) {
        out.push(bare.to_string());
    }
}

fn compare_files(
    old: Option<&FileSide>,
    new: Option<&FileSide>,
    detectors: &Detectors,
) -> FileDiff {
    let empty: Vec<ToolDef> = Vec::new();
    let old_tools = old.map_or(&empty, |f| &f.tools);
    let new_tools = new.map_or(&empty, |f| &f.tools);
    let mut file = FileDiff {
        old: old.map(|f| f.name.clone()),
        new: new.map(|f| f.name.clone()),
        tokens: Tokens::of(
            old_tools.iter().map(|t| t.tokens).sum(),
            new_tools.iter().map(|t| t.tokens).sum(),
        ),
        changes: Vec::new(),
        tools: Vec::new(),
        unchanged: 0,
        findings: Findings::default(),
    };
    match (
        old.and_then(|f| f.error.as_ref()),
        new.and_then(|f| f.error.as_ref()),
    ) {
        (None, Some(error)) if old.is_some() => file.changes.push(Change {
            class: Class::Breaking,
            field: "file",
            path: String::new(),
            message: format!("the file can no longer be read as tools: {error}"),
        }),
        (Some(_), None) if new.is_some() => file.changes.push(Change {
            class: Class::Additive,
            field: "file",
            path: String::new(),
            message: "the file can be read as tools again".to_string(),
        }),
        _ => {}
    }
    let (old_instructions, new_instructions) = (
        old.and_then(|f| f.instructions.as_deref()),
        new.and_then(|f| f.instructions.as_deref()),
    );
    if old.is_some() && new.is_some() && old_instructions != new_instructions {
        file.changes.push(Change {
            class: Class::Additive,
            field: "instructions",
            path: String::new(),
            message: match (old_instructions, new_instructions) {
                (None, _) => "server instructions added".to_string(),
                (_, None) => "server instructions removed".to_string(),
                _ => "server instructions changed".to_string(),
            },
        });
    }
    // Tools are matched by name (a name written twice: by its order among those); the two
    // sides' keys and names are made at once.
    fn key(tools: &[ToolDef]) -> (Vec<(&str, usize)>, HashSet<&str>) {
        let mut seen: HashMap<&str, usize> = HashMap::with_capacity(tools.len());
        let keys = tools
            .iter()
            .map(|t| {
                let n = seen.entry(t.name.as_str()).or_insert(0);
                *n += 1;
                (t.name.as_str(), *n)
            })
            .collect();
        (keys, seen.into_keys().collect())
    }
    let ((old_keys, old_names), (new_keys, new_names)) =
        rayon::join(|| key(old_tools), || key(new_tools));
    let mut old_index: HashMap<(&str, usize), usize> = old_keys
        .into_iter()
        .enumerate()
        .map(|(i, k)| (k, i))
        .collect();
    let names = Names {
        same: old_names == new_names,
        old: old_names,
        new: new_names,
    };
    let mut added: Vec<usize> = Vec::new();
    let mut matched: Vec<(usize, usize)> = Vec::new();
    for (index, key) in new_keys.iter().enumerate() {
        match old_index.remove(key) {
            Some(old) => matched.push((old, index)),
            None => added.push(index),
        }
    }
    let mut removed: Vec<usize> = old_index.into_values().collect();
    removed.sort_unstable();
    // A removed and an added tool alike in all but the name are a rename.
    let mut by_print: HashMap<String, Vec<usize>> = HashMap::new();
    for &index in removed.iter().rev() {
        if let Some(print) = fingerprint(&old_tools[index]) {
            by_print.entry(print).or_default().push(index);
        }
    }
    let mut renamed: HashSet<usize> = HashSet::new();
    let mut renamed_old: HashSet<usize> = HashSet::new();
    for &index in &added {
        let new = &new_tools[index];
        let Some(old) = fingerprint(new)
            .and_then(|print| by_print.get_mut(&print))
            .and_then(Vec::pop)
        else {
            continue;
        };
        renamed.insert(index);
        renamed_old.insert(old);
        let old = &old_tools[old];
        let mut changes = vec![Change {
            class: Class::Breaking,
            field: "name",
            path: String::new(),
            message: format!(
                "renamed from `{}`: callers and prompts that name it break",
                old.name
            ),
        }];
        changes.extend(token_growth(old.tokens, new.tokens));
        file.tools.push(tool_diff(
            new.name.clone(),
            Some(old.name.clone()),
            Status::Renamed,
            Tokens::of(old.tokens, new.tokens),
            changes,
        ));
    }
    for &index in &removed {
        if renamed_old.contains(&index) {
            continue;
        }
        let old = &old_tools[index];
        file.tools.push(tool_diff(
            old.name.clone(),
            None,
            Status::Removed,
            Tokens::of(old.tokens, 0),
            vec![Change {
                class: Class::Breaking,
                field: "name",
                path: String::new(),
                message: "tool removed".to_string(),
            }],
        ));
    }
    // Each pair is compared on its own: on all cores, in blocks, the results in the pairs' order.
    let compared: Vec<Vec<Change>> = matched
        .par_iter()
        .with_min_len(BLOCK)
        .map(|&(old, new)| compare_tools(&old_tools[old], &new_tools[new], detectors, &names))
        .collect();
    for ((old_index, new_index), changes) in matched.into_iter().zip(compared) {
        let (old, new) = (&old_tools[old_index], &new_tools[new_index]);
        if changes.is_empty() {
            file.unchanged += 1;
        } else {
            file.tools.push(tool_diff(
                new.name.clone(),
                None,
                Status::Changed,
                Tokens::of(old.tokens, new.tokens),
                changes,
            ));
        }
    }
    for &index in &added {
        if renamed.contains(&index) {
            continue;
        }
        let new = &new_tools[index];
        file.tools.push(tool_diff(
            new.name.clone(),
            None,
            Status::Added,
            Tokens::of(0, new.tokens),
            vec![Change {
                class: Class::Additive,
                field: "name",
                path: String::new(),
                message: "tool added".to_string(),
            }],
        ));
    }
    file.tools
        .sort_by(|a, b| (b.class, a.status, &a.name).cmp(&(a.class, b.status, &b.name)));
    file
}

fn tool_diff(
    name: String,
    old_name: Option<String>,
    status: Status,
    tokens: Tokens,
    changes: Vec<Change>,
) -> ToolDiff {
    let class = changes
        .iter()
        .map(|c| c.class)
        .max()
        .unwrap_or(Class::Additive);
    ToolDiff {
        name,
        old_name,
        status,
        class,
        tokens,
        changes,
    }
}

/// What a tool is besides its name, for rename detection: `None` for a tool with neither a
/// description nor a schema (two such tools are not alike for anything they say).
fn fingerprint(tool: &ToolDef) -> Option<String> {
    if tool
        .description
        .as_deref()
        .is_none_or(|d| d.trim().is_empty())
        && tool.schema.is_none()
    {
        return None;
    }
    // The description may name the tool itself.
    let own = |text: &Option<String>| {
        text.as_deref()
            .map(|text| text.replace(tool.name.as_str(), "\u{0}"))
    };
    let value = serde_json::json!([
        own(&tool.description),
        tool.title,
        own(&tool.snippet),
        tool.guidelines
            .iter()
            .map(|g| g.replace(tool.name.as_str(), "\u{0}"))
            .collect::<Vec<_>>(),
        tool.schema.as_ref().map(Json::value),
        tool.output_schema.as_ref().map(Json::value),
        tool.annotations.as_ref().map(Json::value),
    ]);
    let mut out = String::new();
    canonical(&value, &mut out);
    Some(out)
}

/// `value` as JSON with object keys sorted, at every depth.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (index, (key, item)) in entries.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical(item, out);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn token_growth(old: usize, new: usize) -> Option<Change> {
    let grew = new.saturating_sub(old);
    (grew >= TOKEN_GROWTH_MIN && grew as f64 > old as f64 * TOKEN_GROWTH).then(|| Change {
        class: Class::Risky,
        field: "tokens",
        path: String::new(),
        message: if old == 0 {
            format!("token cost up from 0 to {new}")
        } else {
            format!(
                "token cost up {:.1}% ({old} → {new}): every request carries it",
                grew as f64 * 100.0 / old as f64
            )
        },
    })
}

/// The changes between two versions of one tool.
fn compare_tools(
    old: &ToolDef,
    new: &ToolDef,
    detectors: &Detectors,
    names: &Names<'_>,
) -> Vec<Change> {
    let mut changes = Vec::new();
    let change = |class, field, path: &str, message: String| Change {
        class,
        field,
        path: path.to_string(),
        message,
    };
    if old.title != new.title {
        changes.push(change(
            Class::Additive,
            "title",
            "",
            "title changed".to_string(),
        ));
    }
    let old_description = old.description.as_deref().unwrap_or_default();
    let new_description = new.description.as_deref().unwrap_or_default();
    if old_description != new_description {
        let before = changes.len();
        compare_prose(
            "description",
            (&old.name, &[old_description]),
            (&new.name, &[new_description]),
            names,
            detectors,
            &mut changes,
        );
        let (old_numbers, new_numbers) = (numbers(old_description), numbers(new_description));
        if old_numbers != new_numbers {
            let gone: Vec<&str> = difference(&old_numbers, &new_numbers);
            let came: Vec<&str> = difference(&new_numbers, &old_numbers);
            changes.push(change(
                Class::Risky,
                "description",
                "",
                format!(
                    "numbers of the description changed ({} → {}): a limit the model reads may \
                     have moved",
                    or_none(&gone),
                    or_none(&came)
                ),
            ));
        }
        if changes.len() == before {
            changes.push(change(
                Class::Additive,
                "description",
                "",
                match (old.description.is_some(), new.description.is_some()) {
                    (false, true) => "description added".to_string(),
                    (true, false) => "description removed".to_string(),
                    _ => "description reworded".to_string(),
                },
            ));
        }
    }
    if old.snippet != new.snippet {
        changes.push(change(
            Class::Additive,
            "snippet",
            "",
            "snippet changed".to_string(),
        ));
    }
    let mut old_guidelines: Vec<&str> = old.guidelines.iter().map(String::as_str).collect();
    let mut new_guidelines: Vec<&str> = new.guidelines.iter().map(String::as_str).collect();
    old_guidelines.sort_unstable();
    new_guidelines.sort_unstable();
    if old_guidelines != new_guidelines {
        let before = changes.len();
        compare_prose(
            "guidelines",
            (&old.name, &old_guidelines),
            (&new.name, &new_guidelines),
            names,
            detectors,
            &mut changes,
        );
        if changes.len() == before {
            changes.push(change(
                Class::Additive,
                "guidelines",
                "",
                "guidelines reworded".to_string(),
            ));
        }
    }
    if old.schema != new.schema {
        let schema = |json: &Option<Json>| {
            json.as_ref()
                .map_or_else(|| Value::Object(serde_json::Map::new()), Json::value)
        };
        // Every keyword is compared (the unknown ones as wholes), so a schema that differs only
        // in order (`required`, `enum`) gives no change.
        compare_schema(
            &schema(&old.schema),
            &schema(&new.schema),
            "",
            0,
            &mut changes,
        );
    }
    if Json::differs(old.output_schema.as_ref(), new.output_schema.as_ref()) {
        changes.push(change(
            Class::Additive,
            "output_schema",
            "",
            "output schema changed".to_string(),
        ));
    }
    if Json::differs(old.annotations.as_ref(), new.annotations.as_ref()) {
        let (old_annotations, new_annotations) = (
            old.annotations.as_ref().map(Json::value),
            new.annotations.as_ref().map(Json::value),
        );
        let keys = changed_keys(old_annotations.as_ref(), new_annotations.as_ref());
        changes.push(change(
            Class::Additive,
            "annotations",
            "",
            format!("annotations changed: {}", keys.join(", ")),
        ));
    }
    if old.deferred != new.deferred {
        changes.push(change(
            Class::Additive,
            "defer_loading",
            "",
            if new.deferred {
                "now deferred (loaded through tool search)".to_string()
            } else {
                "no longer deferred (sent with every request)".to_string()
            },
        ));
    }
    if !changes.is_empty() {
        changes.extend(token_growth(old.tokens, new.tokens));
    }
    merge_parameter_descriptions(&mut changes);
    // Worst first; within a class, in the order found.
    changes.sort_by_key(|change| std::cmp::Reverse(change.class));
    changes
}

/// The message of a parameter's description change (merged into one change per tool).
const DESCRIPTION_OF: &str = "description of ";

/// One change for all the parameters whose description changed.
fn merge_parameter_descriptions(changes: &mut Vec<Change>) {
    let is_one = |c: &Change| {
        c.field == "input_schema" && !c.path.is_empty() && c.message.starts_with(DESCRIPTION_OF)
    };
    let paths: Vec<String> = changes
        .iter()
        .filter(|c| is_one(c))
        .map(|c| c.path.clone())
        .collect();
    if paths.len() < 2 {
        return;
    }
    let Some(first) = changes.iter().position(is_one) else {
        return;
    };
    let listed: Vec<String> = paths.iter().map(|p| format!("`{p}`")).collect();
    let merged = Change {
        class: Class::Additive,
        field: "input_schema",
        path: String::new(),
        message: format!(
            "descriptions of {} parameters changed: {}",
            paths.len(),
            listed.join(", ")
        ),
    };
    let mut index = 0;
    changes.retain(|c| {
        let keep = index < first || !is_one(c);
        index += 1;
        keep
    });
    changes.insert(first, merged);
}

fn or_none(items: &[&str]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}

/// The items of `a` not in `b`, counting repeats (both sorted).
fn difference<'a>(a: &'a [String], b: &[String]) -> Vec<&'a str> {
    let mut left: HashMap<&str, usize> = HashMap::new();
    for item in b {
        *left.entry(item).or_insert(0) += 1;
    }
    a.iter()
        .filter(|item| match left.get_mut(item.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .map(String::as_str)
        .collect()
}

static NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b\d+(?:[.,]\d+)*\b").expect("the built-in pattern compiles"));

/// The numbers of a text, sorted.
fn numbers(text: &str) -> Vec<String> {
    let mut found: Vec<String> = NUMBER
        .find_iter(text)
        .map(|m| m.as_str().to_string())
        .collect();
    found.sort_unstable();
    found
}

/// The tool names of a file's two versions, for the sentences that name a sibling.
struct Names<'a> {
    old: HashSet<&'a str>,
    new: HashSet<&'a str>,
    same: bool,
}

/// Trigger and anti-trigger sentences added or removed between two versions of a text (the
/// tool's name, and its texts).
fn compare_prose(
    field: &'static str,
    old: (&str, &[&str]),
    new: (&str, &[&str]),
    names: &Names<'_>,
    detectors: &Detectors,
    changes: &mut Vec<Change>,
) {
    let split =
        |texts: &[&str]| -> Vec<String> { texts.iter().flat_map(|text| sentences(text)).collect() };
    let (old_sentences, new_sentences) = (split(old.1), split(new.1));
    let mut old_refs: Vec<&str> = old_sentences.iter().map(String::as_str).collect();
    let mut new_refs: Vec<&str> = new_sentences.iter().map(String::as_str).collect();
    // A sentence reads alike in both versions when the tool and its siblings keep their
    // names: one in both is neither added nor removed, and need not be read.
    if old.0 == new.0 && names.same {
        let in_old: HashSet<&str> = old_refs.iter().copied().collect();
        let in_new: HashSet<&str> = new_refs.iter().copied().collect();
        old_refs.retain(|sentence| !in_new.contains(sentence));
        new_refs.retain(|sentence| !in_old.contains(sentence));
    }
    let (old_triggers, old_boundaries) = detectors.read(old.0, &old_refs, &names.old);
    let (new_triggers, new_boundaries) = detectors.read(new.0, &new_refs, &names.new);
    for (kind, old, new) in [
        ("trigger", &old_triggers, &new_triggers),
        ("anti-trigger", &old_boundaries, &new_boundaries),
    ] {
        for sentence in old.difference(new) {
            changes.push(Change {
                class: Class::Risky,
                field,
                path: String::new(),
                message: format!("{kind} removed: \"{}\"", shorten(sentence)),
            });
        }
        for sentence in new.difference(old) {
            changes.push(Change {
                class: Class::Risky,
                field,
                path: String::new(),
                message: format!("{kind} added: \"{}\"", shorten(sentence)),
            });
        }
    }
}

/// A sentence of at most 120 characters.
fn shorten(text: &str) -> String {
    if text.chars().count() <= 120 {
        return text.to_string();
    }
    let cut: String = text.chars().take(119).collect();
    format!("{}…", cut.trim_end())
}

fn changed_keys(old: Option<&Value>, new: Option<&Value>) -> Vec<String> {
    let empty = serde_json::Map::new();
    let old = old.and_then(Value::as_object).unwrap_or(&empty);
    let new = new.and_then(Value::as_object).unwrap_or(&empty);
    let mut keys: Vec<String> = old
        .keys()
        .chain(new.keys())
        .filter(|key| old.get(*key) != new.get(*key))
        .map(|key| {
            let show = |v: Option<&Value>| v.map_or("unset".to_string(), Value::to_string);
            format!("`{key}` {} → {}", show(old.get(key)), show(new.get(key)))
        })
        .collect();
    keys.sort();
    keys.dedup();
    if keys.is_empty() {
        keys.push("(not an object)".to_string());
    }
    keys
}

/// Keywords that bound a value: a change moves what the model may send.
const LIMITS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
];

/// Keywords [`compare_schema`] compares itself; any other keyword that differs is an additive
/// change.
const HANDLED: &[&str] = &[
    "type",
    "enum",
    "properties",
    "required",
    "items",
    "default",
    "description",
    "title",
    "additionalProperties",
];

/// Deeper than this, schemas are compared as wholes (a change is one additive change).
const MAX_DEPTH: usize = 32;

fn label(path: &str) -> String {
    if path.is_empty() {
        "the input schema".to_string()
    } else {
        format!("`{path}`")
    }
}

/// The changes between two versions of a schema node at `path` (`""` for the root).
fn compare_schema(old: &Value, new: &Value, path: &str, depth: usize, out: &mut Vec<Change>) {
    if old == new {
        return;
    }
    let push = |out: &mut Vec<Change>, class, message: String| {
        out.push(Change {
            class,
            field: "input_schema",
            path: path.to_string(),
            message,
        })
    };
    let (Some(o), Some(n)) = (old.as_object(), new.as_object()) else {
        push(out, Class::Additive, format!("{} changed", label(path)));
        return;
    };
    if depth > MAX_DEPTH {
        push(out, Class::Additive, format!("{} changed", label(path)));
        return;
    }
    // Types.
    let (old_types, new_types) = (types(o.get("type")), types(n.get("type")));
    if old_types != new_types {
        let show = |t: &Option<BTreeSet<String>>| match t {
            None => "any".to_string(),
            Some(t) => t.iter().cloned().collect::<Vec<_>>().join(" | "),
        };
        let narrowed = match (&old_types, &new_types) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(old), Some(new)) => !old.iter().all(|t| accepts(new, t)),
        };
        push(
            out,
            if narrowed {
                Class::Breaking
            } else {
                Class::Additive
            },
            format!(
                "type of {} {} from {} to {}",
                label(path),
                if narrowed { "narrowed" } else { "widened" },
                show(&old_types),
                show(&new_types)
            ),
        );
    }
    // Enums, as sets.
    let set = |v: Option<&Value>| -> Option<BTreeSet<String>> {
        v.and_then(Value::as_array)
            .map(|items| items.iter().map(Value::to_string).collect())
    };
    match (set(o.get("enum")), set(n.get("enum"))) {
        (Some(old), Some(new)) => {
            let gone: Vec<&String> = old.difference(&new).collect();
            let came: Vec<&String> = new.difference(&old).collect();
            if !gone.is_empty() {
                push(
                    out,
                    Class::Breaking,
                    format!(
                        "enum value{} {} removed from {}",
                        plural(gone.len()),
                        join(&gone),
                        label(path)
                    ),
                );
            }
            if !came.is_empty() {
                push(
                    out,
                    Class::Additive,
                    format!(
                        "enum value{} {} added to {}",
                        plural(came.len()),
                        join(&came),
                        label(path)
                    ),
                );
            }
        }
        (None, Some(new)) => push(
            out,
            Class::Breaking,
            format!(
                "{} now only takes {}",
                label(path),
                join(&new.iter().collect::<Vec<_>>())
            ),
        ),
        (Some(_), None) => push(
            out,
            Class::Additive,
            format!("{} no longer restricted to an enum", label(path)),
        ),
        (None, None) => {}
    }
    for key in LIMITS {
        let (before, after) = (o.get(*key), n.get(*key));
        if before != after {
            let show = |v: Option<&Value>| v.map_or("unset".to_string(), Value::to_string);
            push(
                out,
                Class::Risky,
                format!(
                    "`{key}` of {} changed: {} → {}",
                    label(path),
                    show(before),
                    show(after)
                ),
            );
        }
    }
    if o.get("default") != n.get("default") {
        let show = |v: Option<&Value>| v.map_or("none".to_string(), Value::to_string);
        push(
            out,
            Class::Risky,
            format!(
                "default of {} changed: {} → {}",
                label(path),
                show(o.get("default")),
                show(n.get("default"))
            ),
        );
    }
    if o.get("description") != n.get("description") || o.get("title") != n.get("title") {
        push(
            out,
            Class::Additive,
            format!("{DESCRIPTION_OF}{} changed", label(path)),
        );
    }
    if o.get("additionalProperties") != n.get("additionalProperties") {
        let closed = |m: &serde_json::Map<String, Value>| {
            m.get("additionalProperties") == Some(&Value::Bool(false))
        };
        push(
            out,
            if closed(n) && !closed(o) {
                Class::Risky
            } else {
                Class::Additive
            },
            format!("`additionalProperties` of {} changed", label(path)),
        );
    }
    compare_properties(o, n, path, depth, out);
    match (o.get("items"), n.get("items")) {
        (Some(old), Some(new)) => {
            compare_schema(old, new, &format!("{path}[]"), depth + 1, out);
        }
        (None, None) => {}
        _ => push(
            out,
            Class::Additive,
            format!("`items` of {} changed", label(path)),
        ),
    }
    let mut others: Vec<&String> = o
        .keys()
        .chain(n.keys())
        .filter(|key| {
            !HANDLED.contains(&key.as_str())
                && !LIMITS.contains(&key.as_str())
                && o.get(*key) != n.get(*key)
        })
        .collect();
    others.sort();
    others.dedup();
    for key in others {
        push(
            out,
            Class::Additive,
            format!("`{key}` of {} changed", label(path)),
        );
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn join(items: &[&String]) -> String {
    const SHOWN: usize = 8;
    let mut text = items
        .iter()
        .take(SHOWN)
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > SHOWN {
        text.push_str(&format!(" and {} more", items.len() - SHOWN));
    }
    text
}

fn compare_properties(
    o: &serde_json::Map<String, Value>,
    n: &serde_json::Map<String, Value>,
    path: &str,
    depth: usize,
    out: &mut Vec<Change>,
) {
    fn props<'m>(
        m: &'m serde_json::Map<String, Value>,
        empty: &'m serde_json::Map<String, Value>,
    ) -> &'m serde_json::Map<String, Value> {
        m.get("properties")
            .and_then(Value::as_object)
            .unwrap_or(empty)
    }
    let empty = serde_json::Map::new();
    let required = |m: &serde_json::Map<String, Value>| -> HashSet<String> {
        m.get("required")
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (old_props, new_props) = (props(o, &empty), props(n, &empty));
    let (old_required, new_required) = (required(o), required(n));
    let at = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    let push = |out: &mut Vec<Change>, key: &str, class, message: String| {
        out.push(Change {
            class,
            field: "input_schema",
            path: at(key),
            message,
        })
    };
    for (key, old) in old_props {
        let name = at(key);
        match new_props.get(key) {
            None => push(
                out,
                key,
                Class::Breaking,
                format!("parameter `{name}` removed: callers that send it break"),
            ),
            Some(new) => {
                match (old_required.contains(key), new_required.contains(key)) {
                    (false, true) => push(
                        out,
                        key,
                        Class::Breaking,
                        format!("parameter `{name}` is now required"),
                    ),
                    (true, false) => push(
                        out,
                        key,
                        Class::Additive,
                        format!("parameter `{name}` is now optional"),
                    ),
                    _ => {}
                }
                compare_schema(old, new, &name, depth + 1, out);
            }
        }
    }
    for key in new_props.keys() {
        if old_props.contains_key(key) {
            continue;
        }
        let name = at(key);
        if new_required.contains(key) {
            push(
                out,
                key,
                Class::Breaking,
                format!("required parameter `{name}` added: callers that omit it break"),
            );
        } else {
            push(
                out,
                key,
                Class::Additive,
                format!("optional parameter `{name}` added"),
            );
        }
    }
}

/// The JSON types a `type` keyword allows; `None` for any.
fn types(value: Option<&Value>) -> Option<BTreeSet<String>> {
    match value? {
        Value::String(one) => Some([one.clone()].into()),
        Value::Array(many) => Some(
            many.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
        ),
        _ => None,
    }
}

/// Whether the types `set` accept every value of type `t` (`number` accepts `integer`).
fn accepts(set: &BTreeSet<String>, t: &str) -> bool {
    set.contains(t) || (t == "integer" && set.contains("number"))
}

/// New and fixed findings of one file pair, matched by rule, tool and the finding's pointer
/// inside its tool.
fn compare_findings<'a>(
    old: &'a [Found],
    new: &'a [Found],
    old_file: Option<&'a FileSide>,
    new_file: Option<&'a FileSide>,
    renamed: &'a HashMap<&str, &str>,
) -> Findings {
    let pointers = |file: Option<&'a FileSide>| -> HashMap<&'a str, &'a str> {
        let mut map = HashMap::new();
        for tool in file.map(|f| f.tools.as_slice()).unwrap_or_default() {
            map.entry(tool.name.as_str())
                .or_insert(tool.pointer.as_str());
        }
        map
    };
    let (old_pointers, new_pointers) = (pointers(old_file), pointers(new_file));
    // A side's findings are those of its file: without the file, there are none.
    let (old_name, new_name) = (
        old_file.map_or("", |f| f.name.as_str()),
        new_file.map_or("", |f| f.name.as_str()),
    );
    let key = |d: &'a Found, pointers: &HashMap<&str, &str>, rename: bool| FoundKey {
        code: &d.code,
        tool: d.tool.as_deref().map(|name| match renamed.get(name) {
            Some(new) if rename => new,
            _ => name,
        }),
        place: place(d, pointers),
    };
    // The keys on all cores (a large set has findings by the hundred thousand), matched in order.
    let keys = |found: &'a [Found], pointers, rename| -> Vec<_> {
        found
            .par_iter()
            .with_min_len(BLOCK)
            .map(|d| key(d, pointers, rename))
            .collect()
    };
    let (old_keyed, new_keyed) = (
        keys(old, &old_pointers, true),
        keys(new, &new_pointers, false),
    );
    // Each new finding takes the first old one with its key. Where both sides list the same
    // keys in the same order, that is the one at the same index: only the rest is looked up.
    let same = old_keyed
        .iter()
        .zip(&new_keyed)
        .take_while(|(old, new)| old == new)
        .count();
    let mut old_keys: HashMap<FoundKey<'_>, Vec<usize>> = HashMap::new();
    for (index, key) in old_keyed.into_iter().enumerate().skip(same).rev() {
        old_keys.entry(key).or_default().push(index);
    }
    let mut findings = Findings::default();
    for (d, key) in new.iter().zip(new_keyed).skip(same) {
        let matched = old_keys.get_mut(&key).and_then(Vec::pop);
        if matched.is_none() {
            findings.new.push(finding(d, new_name, &new_pointers));
        }
    }
    let mut left: Vec<usize> = old_keys.into_values().flatten().collect();
    left.sort_unstable();
    findings.fixed = left
        .into_iter()
        .map(|i| finding(&old[i], old_name, &old_pointers))
        .collect();
    findings
}

/// What matches a finding of one version with one of the other: its rule, its tool (by its
/// new name) and its place.
#[derive(PartialEq, Eq, Hash)]
struct FoundKey<'a> {
    code: &'a str,
    tool: Option<&'a str>,
    place: Place<'a>,
}

/// A finding's place inside its tool's definition, its field named as toolcheck names it
/// (`input_schema/properties/limit` whether the file says `inputSchema`, `input_schema` or
/// `parameters`); the file's pointer for a file-level finding. Kept in parts: two are equal
/// when their texts are (a field's name has no `/`; what is below it is empty or starts with
/// one; a pointer is empty or starts with one).
#[derive(PartialEq, Eq, Hash)]
enum Place<'a> {
    InTool { field: &'static str, below: &'a str },
    File(&'a str),
}

fn place<'a>(d: &'a Found, pointers: &HashMap<&str, &str>) -> Place<'a> {
    let tool = d.tool.as_deref().and_then(|name| pointers.get(name));
    match tool.and_then(|prefix| d.pointer.strip_prefix(*prefix)) {
        Some("") => Place::InTool {
            field: d.field.as_str(),
            below: "",
        },
        Some(rest) if rest.starts_with('/') => Place::InTool {
            field: d.field.as_str(),
            below: rest[1..].find('/').map_or("", |slash| &rest[1 + slash..]),
        },
        _ => Place::File(&d.pointer),
    }
}

/// [`Place`] as the report writes it.
fn relative_pointer(d: &Found, pointers: &HashMap<&str, &str>) -> String {
    match place(d, pointers) {
        Place::InTool { field, below } => format!("{field}{below}"),
        Place::File(pointer) => pointer.to_string(),
    }
}

fn finding(d: &Found, file: &str, pointers: &HashMap<&str, &str>) -> Finding {
    Finding {
        code: d.code.to_string(),
        rule: d.rule.to_string(),
        severity: d.severity,
        file: file.to_string(),
        line: d.line,
        column: d.column,
        tool: d.tool.as_deref().map(str::to_string),
        path: relative_pointer(d, pointers),
        message: d.message.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tool's tokens are the lint's when it counted them, and counted here when it did not
    /// (its lint failed) or counted another number of tools.
    #[test]
    fn tools_take_the_lints_counts_or_count_their_own() {
        let input = Input {
            name: "set.json".into(),
            bytes: br#"[{"name": "fetch_page", "description": "Fetch one page by its URL."},
                {"name": "search", "description": "Search the pages.", "inputSchema":
                {"type": "object", "properties": {"q": {"type": "string"}}}}]"#
                .to_vec(),
        };
        let registry = Registry::builtin().unwrap();
        let encoding = Encoding::O200kBase;
        let tokens = |counted: Option<&[usize]>| {
            crate::lint::with_tool_set(input.clone(), &registry, encoding, |set| {
                let (tools, _) = tools_of(set, counted, encoding);
                tools.iter().map(|tool| tool.tokens).collect::<Vec<usize>>()
            })
            .unwrap()
        };
        let own = tokens(None);
        assert_eq!(own.len(), 2);
        assert!(own[0] > 5 && own[1] > own[0], "{own:?}");
        assert_eq!(tokens(Some(&[7, 9])), [7, 9]);
        assert_eq!(tokens(Some(&[7])), own);
    }

    #[test]
    fn findings_match_the_first_old_one_with_their_key() {
        let found = |code: &str, line: usize| Found {
            code: code.into(),
            rule: "rule".into(),
            severity: Severity::Info,
            field: Field::Description,
            tool: Some("t".into()),
            pointer: "/tools/0/description".to_string(),
            line,
            column: 1,
            message: String::new(),
        };
        let lines = |found: Vec<Finding>| -> Vec<(String, usize)> {
            found.into_iter().map(|f| (f.code, f.line)).collect()
        };
        let compare = |old: &[(&str, usize)], new: &[(&str, usize)]| {
            let old: Vec<Found> = old.iter().map(|&(code, line)| found(code, line)).collect();
            let new: Vec<Found> = new.iter().map(|&(code, line)| found(code, line)).collect();
            let findings = compare_findings(&old, &new, None, None, &HashMap::new());
            (lines(findings.new), lines(findings.fixed))
        };
        let same = [("A", 1), ("B", 2), ("A", 3)];
        assert_eq!(compare(&same, &same), (vec![], vec![]));
        // Past the keys both sides list in order, each new finding takes the first old one.
        assert_eq!(
            compare(
                &[("A", 1), ("B", 2), ("A", 3), ("C", 4)],
                &[("A", 1), ("A", 2), ("D", 3), ("A", 4)]
            ),
            (
                vec![("D".to_string(), 3), ("A".to_string(), 4)],
                vec![("B".to_string(), 2), ("C".to_string(), 4)]
            )
        );
        assert_eq!(
            compare(&[("A", 1), ("A", 2)], &[("B", 1), ("A", 2)]),
            (vec![("B".to_string(), 1)], vec![("A".to_string(), 2)])
        );
    }

    #[test]
    fn places_are_equal_exactly_when_their_texts_are() {
        let fields = [
            Field::Name,
            Field::Description,
            Field::InputSchema,
            Field::File,
        ];
        let pointers = HashMap::from_iter([("t", "/tools/0"), ("u", "/tools/1")]);
        let mut found = Vec::new();
        for field in fields {
            for tool in [Some("t"), Some("u"), Some("gone"), None] {
                for pointer in [
                    "",
                    "/tools",
                    "/tools/0",
                    "/tools/0/description",
                    "/tools/0/inputSchema/properties/a",
                    "/tools/1/parameters/properties/a",
                    "/tools/10/description",
                    "/description",
                ] {
                    found.push(Found {
                        code: "A".into(),
                        rule: "rule".into(),
                        severity: Severity::Info,
                        field,
                        tool: tool.map(Into::into),
                        pointer: pointer.to_string(),
                        line: 1,
                        column: 1,
                        message: String::new(),
                    });
                }
            }
        }
        for a in &found {
            for b in &found {
                assert_eq!(
                    place(a, &pointers) == place(b, &pointers),
                    relative_pointer(a, &pointers) == relative_pointer(b, &pointers),
                    "{a:?} and {b:?}"
                );
            }
        }
    }

    #[test]
    fn json_texts_compare_as_values() {
        let json = |text: &str| Json::of(&crate::parse::json::parse(text).unwrap());
        let (a, b) = (json(r#"{"x": 1, "y": [2]}"#), json(r#"{"y": [2], "x": 1}"#));
        assert_ne!(a, b, "the texts keep the key order");
        assert!(!Json::differs(Some(&a), Some(&b)));
        assert!(Json::differs(
            Some(&a),
            Some(&json(r#"{"x": 1, "y": [3]}"#))
        ));
        assert!(Json::differs(Some(&a), None));
        assert!(!Json::differs(None, None));
        // Deeper than serde_json reads: still the same value.
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        let value = json(&deep).value();
        assert_eq!(value.to_string(), deep);
    }

    #[test]
    fn sentences_split_at_ends_and_lines() {
        assert_eq!(
            sentences("Search it. Use when asked!\n- Not for code\nv1.2 is out."),
            [
                "Search it.",
                "Use when asked!",
                "Not for code",
                "v1.2 is out."
            ]
        );
    }

    #[test]
    fn abbreviations_do_not_end_a_sentence() {
        assert_eq!(
            sentences("Best for vague queries (e.g. \"login fails\"). Not for code, i.e. files."),
            [
                "Best for vague queries (e.g. \"login fails\").",
                "Not for code, i.e. files."
            ]
        );
    }

    #[test]
    fn types_narrow_and_widen() {
        let mut out = Vec::new();
        let schema = |t: Value| serde_json::json!({"type": t});
        compare_schema(
            &schema(serde_json::json!("number")),
            &schema(serde_json::json!("integer")),
            "n",
            0,
            &mut out,
        );
        compare_schema(
            &schema(serde_json::json!("integer")),
            &schema(serde_json::json!(["integer", "string"])),
            "m",
            0,
            &mut out,
        );
        let classes: Vec<Class> = out.iter().map(|c| c.class).collect();
        assert_eq!(classes, [Class::Breaking, Class::Additive], "{out:#?}");
    }

    #[test]
    fn canonical_sorts_keys_at_every_depth() {
        let a = serde_json::json!({"b": 1, "a": {"d": [1, {"f": 1, "e": 2}], "c": null}});
        let mut out = String::new();
        canonical(&a, &mut out);
        assert_eq!(out, r#"{"a":{"c":null,"d":[1,{"e":2,"f":1}]},"b":1}"#);
    }

    #[test]
    fn token_growth_needs_a_fifth_and_ten_tokens() {
        assert!(token_growth(100, 121).is_some());
        assert!(token_growth(100, 120).is_none());
        assert!(token_growth(5, 14).is_none());
        assert!(token_growth(0, 10).is_some());
    }
}
