//! What a rule is to the engine: the [`Rule`] trait and the [`Ctx`] it reports through.
//! Rules only report; configuration decides whether a rule runs and at which severity.

use std::ops::Range;
use std::sync::Arc;

use crate::lint::diagnostic::{Diagnostic, Field, Severity};
use crate::normalize::{Tool, ToolSet};
use crate::parse::{Entry, Node, Span};
use crate::read::source::SourceFile;
use crate::tokens::{Counter, Encoding};

/// A check. Each hook runs once per tool, once per file (tool set), or once per run over
/// every file (for findings across files, such as the same tool name in two servers).
pub trait Rule: Send + Sync {
    fn check_tool(&self, _tool: &Tool<'_>, _ctx: &mut Ctx<'_>) {}
    fn check_set(&self, _set: &ToolSet<'_>, _ctx: &mut Ctx<'_>) {}
    fn check_run(&self, _sets: &[SetRef<'_>], _ctx: &mut RunCtx<'_>) {}
}

/// One file's tool set, as a run-level check sees it.
pub struct SetRef<'a> {
    pub file: &'a Arc<SourceFile>,
    pub set: &'a ToolSet<'a>,
}

/// The context of a run-level check: one [`Ctx`] per file, in the order of the `sets`.
pub struct RunCtx<'a> {
    files: Vec<Ctx<'a>>,
}

impl<'a> RunCtx<'a> {
    pub fn new(files: Vec<Ctx<'a>>) -> Self {
        RunCtx { files }
    }

    /// The context to report into for `sets[index]`.
    pub fn file(&mut self, index: usize) -> &mut Ctx<'a> {
        &mut self.files[index]
    }

    /// The findings, by index into the `sets`.
    pub fn take_findings(&mut self) -> Vec<(usize, Diagnostic)> {
        self.files
            .iter_mut()
            .enumerate()
            .flat_map(|(index, ctx)| ctx.take_findings().into_iter().map(move |f| (index, f)))
            .collect()
    }

    /// Findings from now on are `rule`'s.
    pub fn set_rule(&mut self, rule: &ActiveRule) {
        for ctx in &mut self.files {
            ctx.set_rule(rule);
        }
    }
}

/// What a finding points at.
#[derive(Debug, Clone)]
pub enum Target<'a> {
    /// A whole value.
    Value(&'a Node),
    /// A mapping key (e.g. a property name).
    Key(&'a Entry),
    /// The first byte of a node: a finding about a whole document or object that should not
    /// print all of it.
    Start(&'a Node),
    /// A byte range of the source that is no node, such as a comment; no pointer.
    Source(Span),
    /// A byte range of a string's decoded value; mapped back to the source exactly.
    Text(&'a Node, Range<usize>),
}

/// A rule that runs: its code and name, and the severity configuration gave it.
#[derive(Debug, Clone)]
pub struct ActiveRule {
    pub code: Arc<str>,
    pub name: Arc<str>,
    pub severity: Severity,
}

/// The context a rule runs in: the file, the tokenizer, and the findings so far.
pub struct Ctx<'a> {
    pub file: &'a Arc<SourceFile>,
    pub encoding: Encoding,
    /// Token counts shared by every rule of the file, so nothing is tokenized twice.
    pub tokens: Counter,
    rule: ActiveRule,
    tool: Option<String>,
    findings: Vec<Diagnostic>,
}

impl<'a> Ctx<'a> {
    /// A context whose findings are `rule`'s until [`Ctx::set_rule`].
    pub fn new(file: &'a Arc<SourceFile>, encoding: Encoding, rule: &ActiveRule) -> Self {
        Ctx {
            file,
            encoding,
            tokens: Counter::new(encoding),
            rule: rule.clone(),
            tool: None,
            findings: Vec::new(),
        }
    }

    /// Findings from now on are `rule`'s.
    pub fn set_rule(&mut self, rule: &ActiveRule) {
        self.rule = rule.clone();
    }

    /// Findings from now on belong to `tool` (`None`: file-level).
    pub fn set_tool(&mut self, tool: Option<&str>) {
        self.tool = tool.map(str::to_string);
    }

    pub fn report(
        &mut self,
        field: Field,
        target: Target<'_>,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let (span, pointer) = match target {
            Target::Value(node) => (node.span.clone(), node.pointer.clone()),
            Target::Key(entry) => (entry.key_span.clone(), entry.value.pointer.clone()),
            Target::Start(node) => {
                let start = node.span.start;
                let end = start + usize::from(node.span.end > start);
                (start..end, node.pointer.clone())
            }
            Target::Source(span) => (span, String::new()),
            Target::Text(node, range) => (
                node.source_range(&self.file.text, range),
                node.pointer.clone(),
            ),
        };
        self.findings.push(Diagnostic {
            code: self.rule.code.clone(),
            rule: self.rule.name.clone(),
            severity: self.rule.severity,
            message: message.into(),
            help: None,
            label: None,
            file: self.file.clone(),
            tool: self.tool.clone(),
            field,
            pointer,
            span,
            related: Vec::new(),
        });
        self.findings.last_mut().expect("a finding was just pushed")
    }

    pub fn take_findings(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.findings)
    }
}
