//! What `toolcheck diff` finds: each change with its class (breaking, risky, additive), the
//! tools and files that differ, the new and fixed findings, and the summary and exit code.

use serde::Serialize;

use crate::diagnostic::Severity;

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
    pub(super) fn of(old: usize, new: usize) -> Tokens {
        Tokens {
            old,
            new,
            delta: new as i64 - old as i64,
        }
    }

    pub(super) fn add(&mut self, other: Tokens) {
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

    pub(super) fn is_empty(&self) -> bool {
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
    /// Where a prompt cache stops matching: `tools` when a tool's definition changed (tools
    /// are cached first), `system` when only server instructions did; `null` when neither.
    pub cache_invalidated_from: Option<CacheLevel>,
}

/// The first level of a prompt cache a change invalidates: it caches the tools, then the
/// system prompt, then the messages, and a change invalidates its level and every later one.
/// Ordered so that the larger loss is the greater.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheLevel {
    /// Server instructions changed (the system prompt).
    System,
    /// A tool's definition changed.
    Tools,
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
