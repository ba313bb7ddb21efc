//! What a rule is to the engine: the [`Rule`] trait and the [`Ctx`] it reports through.
//! Rules only report; configuration decides whether a rule runs and at which severity.

use std::ops::Range;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Field, Severity};
use crate::normalize::{Tool, ToolSet};
use crate::parse::source::SourceFile;
use crate::parse::{Entry, Node, Pointer, Span};
use crate::targets::Targets;
use crate::tokens::{Counter, Encoding};

/// A check. Each hook runs once per tool, once per file (tool set), across the files of a run
/// ([`Rule::across_files`]), or once per session (`sessions:` in the config: the files one
/// host loads together).
pub trait Rule: Send + Sync {
    fn check_tool(&self, _tool: &Tool<'_>, _ctx: &mut Ctx<'_>) {}
    fn check_set(&self, _set: &ToolSet<'_>, _ctx: &mut Ctx<'_>) {}
    /// The rule's per-tool check counts tokens (`ctx.tokens`): on a file of a few large tools
    /// it runs after the set checks and finds their counts, rather than beside them counting
    /// the same texts again.
    fn counts_tokens(&self) -> bool {
        false
    }
    /// A check across files starts with each run: it sees every file's [`Outline`] in input
    /// order, after the file's own checks, and keeps what it needs of the earlier ones. (A
    /// file's tree is gone by then: a run's memory does not grow with its files.)
    fn across_files(&self) -> Option<Box<dyn AcrossFiles + '_>> {
        None
    }
    /// `sets` are the session's files among the run's inputs, in input order (never empty);
    /// `session.servers[i]` is the server name of `sets[i]`.
    fn check_session(
        &self,
        _session: &SessionRef<'_>,
        _sets: &[SetRef<'_>],
        _ctx: &mut RunCtx<'_>,
    ) {
    }
}

/// One run's check across files ([`Rule::across_files`]).
pub trait AcrossFiles {
    /// Checks one file against the earlier ones; its findings go to this file.
    fn check(&mut self, file: &Outline, ctx: &mut Ctx<'_>);
}

/// What the checks across files see of a file: its tools' names and guideline texts, and where
/// they are.
#[derive(Debug, Default)]
pub struct Outline {
    pub tools: Vec<OutlineTool>,
}

#[derive(Debug)]
pub struct OutlineTool {
    /// Empty when the tool has none, as in [`crate::normalize::Tool::name`].
    pub name: String,
    pub guidelines: Vec<Placed>,
}

/// A string of a file and where it is: what a finding about it needs once the tree is gone.
#[derive(Debug, Clone)]
pub struct Placed {
    pub text: String,
    pub span: Span,
    pub pointer: Pointer,
}

impl Outline {
    /// The outline of a tool set.
    pub fn of(set: &ToolSet<'_>) -> Outline {
        let tools = set.tools.iter().map(|tool| OutlineTool {
            name: tool.name().to_string(),
            guidelines: tool
                .guidelines()
                .filter_map(|node| {
                    Some(Placed {
                        text: node.as_str()?.to_string(),
                        span: node.span(),
                        pointer: node.pointer.clone(),
                    })
                })
                .collect(),
        });
        Outline {
            tools: tools.collect(),
        }
    }
}

/// A session as a session check sees it.
pub struct SessionRef<'a> {
    pub name: &'a str,
    /// The host's profile: its `wire-name` says how tool names are sent, its `max-tools` caps
    /// the session.
    pub host: &'a crate::targets::Profile,
    /// The context window, in tokens.
    pub window: usize,
    /// The server name of each file, in the order of the sets.
    pub servers: Vec<&'a str>,
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
    /// The first character of a node: a finding about a whole document or object that should
    /// not print all of it.
    Start(&'a Node),
    /// A byte range of the source that is no node, such as a comment; no pointer.
    Source(Span),
    /// A byte range of a string's decoded value; mapped back to the source exactly.
    Text(&'a Node, Range<usize>),
    /// A string kept in an [`Outline`], whole.
    Placed(&'a Placed),
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
    /// The run's targets (none unless `--target` or `targets:` selects some).
    pub targets: &'a Targets,
    /// Token counts shared by every rule of the file, so nothing is tokenized twice.
    pub tokens: Counter,
    /// The file is in a session of this run: the set rules that judge a session as a whole
    /// (`toolset-too-large`, `too-many-tools`) leave the file to its session.
    pub in_session: bool,
    /// The server name the file's (first) session gives it, which hosts prefix its tool
    /// names with.
    pub session_server: Option<String>,
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

impl<'a> Ctx<'a> {
    /// A context whose findings are `rule`'s until [`Ctx::set_rule`].
    pub fn new(file: &'a Arc<SourceFile>, encoding: Encoding, rule: &ActiveRule) -> Self {
        Ctx {
            file,
            encoding,
            targets: Targets::none(),
            tokens: Counter::new(encoding),
            in_session: false,
            session_server: None,
            rule: rule.clone(),
            tool: None,
            tool_shared: None,
            findings: Vec::new(),
            run: None,
            over_cap: None,
            dropped: None,
        }
    }

    /// A context for another thread: the same file, settings and rule, the token counts made
    /// so far (shared), and no findings.
    pub fn fork(&mut self) -> Ctx<'a> {
        let mut fork = Ctx::new(self.file, self.encoding, &self.rule);
        fork.targets = self.targets;
        fork.tokens = self.tokens.fork();
        fork.in_session = self.in_session;
        fork.session_server.clone_from(&self.session_server);
        fork
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
        target: Target<'_>,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let text = match &target {
            Target::Text(node, _) => Some(&node.pointer),
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
        let (span, pointer) = match target {
            // Past the cap the finding is dropped: mapping its words back is wasted work.
            Target::Text(node, _) if dropped => (node.span(), node.pointer.clone()),
            Target::Placed(placed) => (placed.span.clone(), placed.pointer.clone()),
            Target::Value(node) => (node.span(), node.pointer.clone()),
            Target::Key(entry) => (entry.key_span(), entry.value.pointer.clone()),
            Target::Start(node) => {
                let start = node.span().start;
                // The first character, whole: a span never ends inside a UTF-8 sequence.
                let first = self.file.text.get(start..node.span().end.max(start));
                let end = start
                    + first
                        .and_then(|text| text.chars().next())
                        .map_or(0, char::len_utf8);
                (start..end, node.pointer.clone())
            }
            Target::Source(span) => (span, Pointer::root()),
            Target::Text(node, range) => (
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
        let mut ctx = Ctx::new(&file, Encoding::default(), &rule);
        for _ in 0..120 {
            ctx.report(Field::Description, Target::Text(a, 0..6), "hit")
                .help("help");
        }
        // Another text starts a new run.
        for _ in 0..3 {
            ctx.report(Field::Description, Target::Text(b, 0..6), "hit");
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
