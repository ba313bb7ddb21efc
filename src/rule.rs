//! What a rule is to the engine: the [`Rule`] trait and the [`Ctx`] it reports through.
//! Rules only report; configuration decides whether a rule runs and at which severity.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::normalize::{Tool, ToolSet};
use crate::parse::source::SourceFile;
use crate::targets::Targets;
use crate::tokens::{Counter, Encoding};

pub use crate::diagnostic::reporter::{ActiveRule, Anchor, MAX_SHOWN, Placed, Reporter};

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
    /// How the host loads MCP tools (`tool-search:`).
    pub tool_search: crate::targets::tool_search::ToolSearch,
    /// The server name of each file, in the order of the sets.
    pub servers: Vec<&'a str>,
}

impl SessionRef<'_> {
    /// Whether the host defers the session's MCP tools by `tool-search:` (Claude Code).
    pub fn host_defers(&self) -> bool {
        &*self.host.name == crate::targets::tool_search::DEFERRING_HOST
    }

    /// Whether the host loads `tool` up front: a deferring host by its mode and the tool's
    /// `alwaysLoad` (`auto` counted as loading: it defers only past its threshold, which
    /// [`SessionRef::auto_defers`] tells), another host unless the tool is `defer_loading`.
    pub fn loads(&self, tool: &Tool<'_>) -> bool {
        match self.host_defers() {
            true => tool.always_load || !self.tool_search.always_defers(),
            false => !tool.defer_loading,
        }
    }

    /// Whether `auto:N` defers everything at `tokens` of tool definitions.
    pub fn auto_defers(&self, tokens: usize) -> bool {
        use crate::targets::tool_search::ToolSearch;
        matches!(self.tool_search, ToolSearch::Auto(_))
            && self.host_defers()
            && self.tool_search.defers(tokens, self.window)
    }
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

/// The context a rule runs in: the file's [`Reporter`] (which it derefs to, so a rule reports
/// with `ctx.report`), the tokenizer, and the run's settings.
pub struct Ctx<'a> {
    reporter: Reporter<'a>,
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
}

impl<'a> Ctx<'a> {
    /// A context whose findings are `rule`'s until [`Reporter::set_rule`].
    pub fn new(file: &'a Arc<SourceFile>, encoding: Encoding, rule: &ActiveRule) -> Self {
        Ctx {
            reporter: Reporter::new(file, rule),
            encoding,
            targets: Targets::none(),
            tokens: Counter::new(encoding),
            in_session: false,
            session_server: None,
        }
    }

    /// A context for another thread: the same file, settings and rule, the token counts made
    /// so far (shared), and no findings.
    pub fn fork(&mut self) -> Ctx<'a> {
        Ctx {
            reporter: self.reporter.fork(),
            encoding: self.encoding,
            targets: self.targets,
            tokens: self.tokens.fork(),
            in_session: self.in_session,
            session_server: self.session_server.clone(),
        }
    }
}

impl<'a> Deref for Ctx<'a> {
    type Target = Reporter<'a>;

    fn deref(&self) -> &Reporter<'a> {
        &self.reporter
    }
}

impl DerefMut for Ctx<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.reporter
    }
}
