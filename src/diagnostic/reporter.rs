//! Where findings go as they are reported: the [`Reporter`] of one file and the [`Anchor`] a
//! finding points at, mapped to its span and pointer.

use std::ops::Range;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Field, Severity};
use crate::parse::source::SourceFile;
use crate::parse::{Entry, Node, Pointer, Span};

/// What a finding points at.
#[derive(Debug, Clone)]
pub enum Anchor<'a> {
    /// A whole value.
    Value(&'a Node),
    /// A mapping key (e.g. a property name).
    Key(&'a Entry),
    /// The first character of a node: a finding about a whole document or object that should
    /// not print all of it.
    Start(&'a Node),
    /// A byte range of the source that is no node, such as a comment; no pointer.
    Source(Span),
    /// A byte range of a string's decoded value; mapped back to the source exactly.
    Text(&'a Node, Range<usize>),
    /// A string kept with its place once its tree is gone (a checked file's outline), whole.
    Placed(&'a Placed),
}

/// A rule that runs: its code and name, and the severity configuration gave it.
#[derive(Debug, Clone)]
pub struct ActiveRule {
    pub code: Arc<str>,
    pub name: Arc<str>,
    pub severity: Severity,
}

/// A string of a file and where it is: what a finding about it needs once the tree is gone.
#[derive(Debug, Clone)]
pub struct Placed {
    pub text: String,
    pub span: Span,
    pub pointer: Pointer,
}

/// Where one file's findings go as rules report them: the rule and tool they belong to, and
/// the cap on one rule's findings in one place. Below the rules, so that reading a file's tools
/// (`normalize`) reports through it too.
pub struct Reporter<'a> {
    pub file: &'a Arc<SourceFile>,
    rule: ActiveRule,
    /// The current tool's name (its buffer reused from tool to tool), and the copy its findings
    /// share, made on its first finding: most tools of a large set have none.
    tool: Option<String>,
    tool_shared: Option<Arc<str>>,
    findings: Vec<Diagnostic>,
    /// The rule's consecutive findings in one place, to cap them at [`MAX_SHOWN`].
    run: Option<Run>,
    /// The first finding over the cap, which becomes the summary of the rest.
    over_cap: Option<Diagnostic>,
    /// Where findings past that one go (and are dropped).
    dropped: Option<Diagnostic>,
}

/// The most findings one rule shows in one place (one text, or else one field of one tool);
/// the next one sums up the rest, so that a huge text with thousands of hits, or a schema with
/// thousands of bad properties, stays readable and cheap to report.
pub const MAX_SHOWN: usize = 50;

/// One rule's run of findings in one place.
struct Run {
    code: Arc<str>,
    field: Field,
    /// The text's pointer for findings in a text; `None` for the field as a whole.
    text: Option<Pointer>,
    count: usize,
}

impl<'a> Reporter<'a> {
    /// A reporter whose findings are `rule`'s until [`Reporter::set_rule`].
    pub fn new(file: &'a Arc<SourceFile>, rule: &ActiveRule) -> Self {
        Reporter {
            file,
            rule: rule.clone(),
            tool: None,
            tool_shared: None,
            findings: Vec::new(),
            run: None,
            over_cap: None,
            dropped: None,
        }
    }

    /// A reporter for another thread: the same file and rule, no findings.
    pub fn fork(&self) -> Reporter<'a> {
        Reporter::new(self.file, &self.rule)
    }

    /// Findings from now on are `rule`'s.
    pub fn set_rule(&mut self, rule: &ActiveRule) {
        self.end_run();
        self.rule = rule.clone();
    }

    /// Findings from now on belong to `tool` (`None`: file-level).
    pub fn set_tool(&mut self, tool: Option<&str>) {
        self.end_run();
        match (tool, &mut self.tool) {
            (Some(name), Some(buffer)) => {
                buffer.clear();
                buffer.push_str(name);
            }
            (name, buffer) => *buffer = name.map(str::to_string),
        }
        self.tool_shared = None;
    }

    /// Closes the current run of findings in one place: when it went over the cap, its first
    /// finding past the cap stands for all of them.
    fn end_run(&mut self) {
        let Some(run) = self.run.take() else {
            return;
        };
        if let Some(mut summary) = self.over_cap.take() {
            let more = run.count - MAX_SHOWN - 1;
            if more > 0 {
                let place = match run.text {
                    Some(_) => "this text".to_string(),
                    None => format!("this `{}`", run.field),
                };
                summary.message = format!(
                    "{} (and {more} more like it in {place}, not shown)",
                    summary.message
                );
                summary.help = Some(
                    format!(
                        "`{}` shows its first {MAX_SHOWN} findings in one place and sums up the \
                     rest here; fix these and run again to see the others",
                        summary.rule
                    )
                    .into(),
                );
            }
            self.findings.push(summary);
        }
    }

    pub fn report(
        &mut self,
        field: Field,
        anchor: Anchor<'_>,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let text = match &anchor {
            Anchor::Text(node, _) => Some(&node.pointer),
            _ => None,
        };
        let same_run = self.run.as_ref().is_some_and(|run| {
            run.code == self.rule.code && run.field == field && run.text.as_ref() == text
        });
        if !same_run {
            self.end_run();
            self.run = Some(Run {
                code: self.rule.code.clone(),
                field,
                text: text.cloned(),
                count: 0,
            });
        }
        let count = self.run.as_mut().map_or(0, |run| {
            run.count += 1;
            run.count
        });
        let dropped = count > MAX_SHOWN + 1;
        let (span, pointer) = match anchor {
            // Past the cap the finding is dropped: mapping its words back is wasted work.
            Anchor::Text(node, _) if dropped => (node.span(), node.pointer.clone()),
            Anchor::Placed(placed) => (placed.span.clone(), placed.pointer.clone()),
            Anchor::Value(node) => (node.span(), node.pointer.clone()),
            Anchor::Key(entry) => (entry.key_span(), entry.value.pointer.clone()),
            Anchor::Start(node) => {
                let start = node.span().start;
                // The first character, whole: a span never ends inside a UTF-8 sequence.
                let first = self.file.text.get(start..node.span().end.max(start));
                let end = start
                    + first
                        .and_then(|text| text.chars().next())
                        .map_or(0, char::len_utf8);
                (start..end, node.pointer.clone())
            }
            Anchor::Source(span) => (span, Pointer::root()),
            Anchor::Text(node, range) => (
                node.source_range(&self.file.text, range),
                node.pointer.clone(),
            ),
        };
        let span = self.file.whole_chars(span);
        // Kept at its length: `format!` leaves room for twice its literal text, and a large
        // set keeps hundreds of thousands of findings (9 MB of room for 200,000).
        let message: String = message.into();
        let message = if message.capacity() > message.len() {
            message.as_str().to_owned()
        } else {
            message
        };
        let diagnostic = Diagnostic {
            code: self.rule.code.clone(),
            rule: self.rule.name.clone(),
            severity: self.rule.severity,
            message,
            help: None,
            label: None,
            file: self.file.clone(),
            tool: self.shared_tool(),
            field,
            pointer,
            span,
            related: Box::default(),
            fix: None,
        };
        if dropped {
            return self.dropped.insert(diagnostic);
        }
        if count == MAX_SHOWN + 1 {
            return self.over_cap.insert(diagnostic);
        }
        self.findings.push(diagnostic);
        self.findings.last_mut().expect("a finding was just pushed")
    }

    fn shared_tool(&mut self) -> Option<Arc<str>> {
        let name = self.tool.as_deref()?;
        Some(self.tool_shared.get_or_insert_with(|| name.into()).clone())
    }

    pub fn take_findings(&mut self) -> Vec<Diagnostic> {
        self.end_run();
        std::mem::take(&mut self.findings)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_in_one_place_are_capped_with_a_summary() {
        let text = r#"{"a": "always", "b": "always"}"#;
        let file = SourceFile::new("t.json", text.to_string());
        let root = crate::parse::json::parse(text).unwrap();
        let (a, b) = (root.get("a").unwrap(), root.get("b").unwrap());
        let rule = ActiveRule {
            code: "X001".into(),
            name: "x".into(),
            severity: Severity::Error,
        };
        let mut ctx = Reporter::new(&file, &rule);
        for _ in 0..120 {
            ctx.report(Field::Description, Anchor::Text(a, 0..6), "hit")
                .help("help");
        }
        // Another text starts a new run.
        for _ in 0..3 {
            ctx.report(Field::Description, Anchor::Text(b, 0..6), "hit");
        }
        let found = ctx.take_findings();
        assert_eq!(found.len(), MAX_SHOWN + 1 + 3);
        let summary = &found[MAX_SHOWN];
        assert_eq!(summary.pointer, "/a");
        assert_eq!(
            summary.message,
            "hit (and 69 more like it in this text, not shown)"
        );
        assert!(
            summary
                .help
                .as_deref()
                .unwrap()
                .contains("first 50 findings")
        );
        assert!(found[..MAX_SHOWN].iter().all(|d| d.message == "hit"));
        assert!(found[MAX_SHOWN + 1..].iter().all(|d| d.pointer == "/b"));
    }
}
