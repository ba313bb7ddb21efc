//! The per-file run: read → parse ([`Parsed`]), then normalize once → the per-tool and
//! per-file checks ([`check`]). A panic in either is caught and becomes the file's internal
//! error, so one bug loses one file's findings, never the run's.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use super::select::Selection;
use super::{Extras, FileReport, panic_message};
use crate::diagnostic::{Diagnostic, Field};
use crate::normalize::{self, Tool};
use crate::parse::source::SourceFile;
use crate::parse::{self, Node, NodeKind, StrStyle};
use crate::read::{Input, not_utf8};
use crate::rule::{ActiveRule, Anchor, Ctx, Outline, Rule};
use crate::suppress::Pending;
use crate::suppress::directives::{self, Directive};
use crate::tokens::Encoding;

/// One input after read → parse: its text and its tree, or the `invalid-manifest` finding
/// that says why it has none.
pub(crate) struct Parsed {
    pub file: Arc<SourceFile>,
    pub json: bool,
    /// Read from server source (`.ts`, `.js`, …) rather than a manifest.
    pub source_code: bool,
    pub root: Option<Node>,
    /// The `invalid-manifest` finding of a file that has no tree.
    pub unreadable: Vec<Diagnostic>,
    pub internal_error: Option<String>,
}

impl Parsed {
    /// Decodes and parses one input.
    pub fn read(input: Input, invalid_manifest: &ActiveRule) -> Parsed {
        let name = input.name.clone();
        catch_unwind(AssertUnwindSafe(|| {
            let json = input.is_json();
            match input.decode() {
                Ok(file) => Parsed::from_text(file, json, invalid_manifest),
                Err((file, offset)) => {
                    let rule = invalid_manifest;
                    // The invalid bytes read as U+FFFD in the text: underline that character.
                    let span = offset..offset + '\u{FFFD}'.len_utf8();
                    let help = Some("save the file as UTF-8");
                    let unreadable = unreadable(&file, rule, span, not_utf8(offset), help);
                    Parsed::new(file, json, None, unreadable)
                }
            }
        }))
        .unwrap_or_else(|payload| Parsed {
            internal_error: Some(panic_message(&*payload)),
            ..Parsed::new(
                SourceFile::new(name, String::new()),
                false,
                None,
                Vec::new(),
            )
        })
    }

    /// Parses a file's text: the tools a source file registers (by its name's extension),
    /// else JSON (`json`) or YAML.
    pub fn from_text(file: Arc<SourceFile>, json: bool, invalid_manifest: &ActiveRule) -> Parsed {
        let language = parse::code::Language::of(std::path::Path::new(&file.name));
        let parsed = match language {
            Some(language) => {
                let imports = parse::code::Imports {
                    path: std::path::Path::new(&file.name),
                    read: &crate::read::imported_text,
                    list: &crate::read::directory_files,
                };
                parse::code::parse(&file.text, language, Some(&imports))
            }
            None => parse::parse(&file.text, json),
        };
        match parsed {
            Ok(root) => Parsed {
                source_code: language.is_some(),
                ..Parsed::new(file, json, Some(root), Vec::new())
            },
            Err(error) => {
                let unreadable =
                    unreadable(&file, invalid_manifest, error.span, error.message, None);
                Parsed::new(file, json, None, unreadable)
            }
        }
    }

    fn new(
        file: Arc<SourceFile>,
        json: bool,
        root: Option<Node>,
        unreadable: Vec<Diagnostic>,
    ) -> Parsed {
        Parsed {
            file,
            json,
            source_code: false,
            root,
            unreadable,
            internal_error: None,
        }
    }
}

/// The finding of `rule` (`invalid-manifest`) at a span of a file that has no tree.
fn unreadable(
    file: &Arc<SourceFile>,
    rule: &ActiveRule,
    span: parse::Span,
    message: String,
    help: Option<&str>,
) -> Vec<Diagnostic> {
    let mut ctx = Ctx::new(file, Encoding::default(), rule);
    let diagnostic = ctx.report(Field::File, Anchor::Source(span), message);
    if let Some(help) = help {
        diagnostic.help(help.to_string());
    }
    ctx.take_findings()
}

/// Takes the fix off a finding in a source file unless each of its edits changes words inside
/// one string literal, as written there, to words no literal of any language escapes: an edit
/// anywhere else would change code (a schema toolcheck made from a call, a value another file
/// holds, a template's substitution), and a quote or a backslash would need escaping.
fn hold_fixes_outside_literals(root: &Node, text: &str, diagnostics: &mut [Diagnostic]) {
    if !diagnostics.iter().any(|d| d.fix.is_some()) {
        return;
    }
    let mut literals = Vec::new();
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        match &node.kind {
            NodeKind::String(literal) if literal.style != StrStyle::Opaque => {
                literals.push(literal.raw());
            }
            NodeKind::Array(items) => pending.extend(items),
            NodeKind::Object(entries) => pending.extend(entries.iter().map(|entry| &entry.value)),
            _ => {}
        }
    }
    let plain =
        |words: &str| !words.contains(['"', '\'', '`', '\\', '$', '{', '}', '%', '\n', '\r']);
    let in_literal = |edit: &crate::diagnostic::Edit| {
        // Inside the quotes: not at the literal's first or last byte.
        literals
            .iter()
            .any(|raw| raw.start < edit.span.start && edit.span.end < raw.end)
            && text.get(edit.span.clone()).is_some_and(plain)
            && plain(&edit.replacement)
    };
    for diagnostic in diagnostics {
        if let Some(fix) = &diagnostic.fix
            && !fix.edits.iter().all(in_literal)
        {
            diagnostic.fix = None;
        }
    }
}

/// Takes the fix off a finding whose edits would change text that other places of the YAML
/// file share, an anchored value or an alias (`type: &t dict` that `default: *t` repeats): the
/// fix would change them all. The help says why it is not fixed.
fn hold_fixes_on_shared_text(text: &str, diagnostics: &mut [Diagnostic]) {
    if !diagnostics.iter().any(|d| d.fix.is_some()) {
        return;
    }
    let shared = crate::parse::yaml::shared_spans(text);
    if shared.is_empty() {
        return;
    }
    // An edit changes a span it overlaps, or one it inserts into or at the edge of.
    let changes = |edit: &crate::diagnostic::Edit| {
        let (start, end) = (edit.span.start, edit.span.end);
        shared.iter().any(|span| {
            if start == end {
                span.start <= start && start <= span.end
            } else {
                start < span.end && span.start < end
            }
        })
    };
    for diagnostic in diagnostics {
        if diagnostic
            .fix
            .as_ref()
            .is_some_and(|fix| fix.edits.iter().any(changes))
        {
            diagnostic.fix = None;
            let why = "not fixed by `--fix`: the fix would edit a YAML anchor or alias, which \
                       other places share; change it by hand";
            diagnostic.help = Some(match diagnostic.help.take() {
                Some(help) => format!("{help} ({why})").into(),
                None => why.into(),
            });
        }
    }
}

/// One file after normalize → its own checks. Its tree is not needed any more: what the checks
/// across files need of it is in its outline.
pub(crate) struct Checked {
    pub file: Arc<SourceFile>,
    /// The checks ran to the end on a tool set (the file has a tree, and nothing panicked).
    pub checked: bool,
    pub tools: usize,
    pub skipped: usize,
    pub diagnostics: Vec<Diagnostic>,
    directives: Vec<Directive>,
    pub internal_error: Option<String>,
    /// For the checks across files (when a rule of the run has one).
    pub outline: Option<Outline>,
    /// Each tool's tokens, in the set's order, when the caller asked for them.
    pub tool_tokens: Option<Vec<usize>>,
}

/// Normalizes a parsed file once and runs every per-tool and per-file check on it;
/// `session_server`: the file is in a session of the run (see [`super::sessions`]), which
/// names its server so. `outline`: the run has checks across files.
pub(crate) fn check(
    parsed: &Parsed,
    selection: &Selection,
    encoding: Encoding,
    session_server: Option<&str>,
    outline: bool,
    extras: Extras,
) -> Checked {
    let mut checked = Checked {
        file: parsed.file.clone(),
        checked: false,
        tools: 0,
        skipped: 0,
        diagnostics: parsed.unreadable.clone(),
        directives: Vec::new(),
        internal_error: parsed.internal_error.clone(),
        outline: None,
        tool_tokens: None,
    };
    let Some(root) = &parsed.root else {
        return checked;
    };
    let run = catch_unwind(AssertUnwindSafe(|| {
        let mut ctx = Ctx::new(&parsed.file, encoding, &selection.invalid_manifest);
        ctx.targets = &selection.targets;
        ctx.in_session = session_server.is_some();
        ctx.session_server = session_server.map(str::to_string);
        let set = normalize::normalize(root, &mut ctx);
        let mut diagnostics = ctx.take_findings();
        // The checks of the whole set first: some index every tool, and they do it while few
        // findings are held (100,000 tools with two findings each: 90 MB less at the peak).
        let jobs = Jobs {
            set_rules_at_once: extras.set_rules_at_once,
            ..JOBS
        };
        check_rules(&set, selection, &mut ctx, &mut diagnostics, jobs);
        // Most tokens are counted already, by the budget rules: what is left is one core's
        // look-ups, done while the findings are sorted.
        let tokens = &mut ctx.tokens;
        let (tool_tokens, ()) = rayon::join(
            || {
                extras.tool_tokens.then(|| {
                    let tools: Vec<_> = set.tools.iter().collect();
                    tokens.totals(&tools)
                })
            },
            || crate::diagnostic::sort(&mut diagnostics),
        );
        if parsed.source_code {
            // A literal in a helper stands for each tool a call of the helper makes: one
            // finding per place and message.
            diagnostics.dedup_by(|a, b| a.sort_key() == b.sort_key());
            hold_fixes_outside_literals(root, &parsed.file.text, &mut diagnostics);
        } else if !parsed.json {
            hold_fixes_on_shared_text(&parsed.file.text, &mut diagnostics);
        }
        let directives = if parsed.json {
            Vec::new()
        } else {
            let comments = directives::Comments::of_file(&parsed.file.name);
            directives::directives(&parsed.file.text, Some(root), comments)
        };
        let outline = outline.then(|| Outline::of(&set));
        (
            set.tools.len(),
            set.skipped(),
            diagnostics,
            directives,
            outline,
            tool_tokens,
        )
    }));
    match run {
        Ok((tools, skipped, diagnostics, directives, outline, tool_tokens)) => {
            checked.checked = true;
            checked.tools = tools;
            checked.skipped = skipped;
            checked.diagnostics = diagnostics;
            checked.directives = directives;
            checked.outline = outline;
            checked.tool_tokens = tool_tokens;
        }
        Err(payload) => checked.internal_error = Some(panic_message(&*payload)),
    }
    checked
}

/// How a large file's checks are cut into jobs for all cores.
#[derive(Debug, Clone, Copy)]
pub(super) struct Jobs {
    /// More tools than this: per-tool checks run this many tools a job, every rule.
    pub tools: usize,
    /// Fewer tools of this many bytes or more: one rule a job, every tool.
    pub bytes: usize,
    /// Many tools have their set rules run one a job too ([`super::Extras`]).
    pub set_rules_at_once: bool,
}

/// A few hundred microseconds of work a job at least, enough to pay for starting it.
const JOBS: Jobs = Jobs {
    tools: 64,
    bytes: 256 * 1024,
    set_rules_at_once: false,
};

type RuleEntry = (ActiveRule, Box<dyn Rule>);

type Rules<'r> = &'r [RuleEntry];

/// How a set is checked on all cores, if it is worth it.
#[derive(PartialEq)]
enum Split {
    /// Few or small tools: one job.
    None,
    /// Many tools: jobs of tools.
    Tools,
    /// A few large tools: one rule a job.
    Rules,
}

fn split(tools: &[Tool<'_>], jobs: Jobs) -> Split {
    if tools.len() > jobs.tools {
        Split::Tools
    } else if tools
        .iter()
        .map(|tool| tool.node.span().len())
        .sum::<usize>()
        >= jobs.bytes
    {
        Split::Rules
    } else {
        Split::None
    }
}

/// Runs every rule's checks of the set and of each tool, adding their findings to
/// `diagnostics`: the set's first, while few findings are held (some index every tool; 100,000
/// tools with two findings each: 90 MB less at the peak), unless a few large tools have them
/// all run at once ([`check_by_rules`]).
pub(super) fn check_rules(
    set: &normalize::ToolSet<'_>,
    selection: &Selection,
    ctx: &mut Ctx<'_>,
    diagnostics: &mut Vec<Diagnostic>,
    jobs: Jobs,
) {
    if split(&set.tools, jobs) == Split::Rules {
        check_by_rules(set, selection, ctx, diagnostics);
    } else {
        check_set(set, selection, ctx, diagnostics, jobs);
        check_tools(&set.tools, selection, ctx, diagnostics, jobs);
    }
}

/// A few large tools: each rule's check of the set, and each rule's check of every tool, is a
/// job on all cores, all at once, so that the slowest (the token count of a long text, itself
/// on all cores) overlaps the others' reading of it. The per-tool checks that count tokens
/// come after, and find the set checks' counts (`toolset-too-large`) rather than count the same
/// texts again.
fn check_by_rules(
    set: &normalize::ToolSet<'_>,
    selection: &Selection,
    ctx: &mut Ctx<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    enum Check<'r> {
        Set(&'r RuleEntry),
        Tools(&'r RuleEntry),
    }
    let run = |ctx: &mut Ctx<'_>, check: Check<'_>| match check {
        Check::Set((active, rule)) => {
            ctx.set_rule(active);
            ctx.set_tool(None);
            rule.check_set(set, ctx);
        }
        Check::Tools((active, rule)) => {
            ctx.set_rule(active);
            for tool in &set.tools {
                ctx.set_tool(Some(tool.name()).filter(|name| !name.is_empty()));
                rule.check_tool(tool, ctx);
            }
        }
    };
    let rules = &selection.rules;
    let (counting, reading): (Vec<_>, Vec<_>) =
        rules.iter().partition(|(_, rule)| rule.counts_tokens());
    let first = rules.iter().map(Check::Set);
    let first = first.chain(reading.into_iter().map(Check::Tools)).collect();
    let then = counting.into_iter().map(Check::Tools).collect();
    for wave in [first, then] {
        // A few large tools have few findings a rule: every job of a wave is in flight at once.
        in_jobs(ctx, wave, usize::MAX, run, |ctx, mut done| {
            diagnostics.append(&mut done.take_findings());
            ctx.tokens.absorb(done.tokens);
        });
    }
}

/// Runs every rule's check of the whole set, adding their findings to `diagnostics` in rule
/// order. Many tools have their set rules run one a job on all cores when
/// `jobs.set_rules_at_once`: the indexes of every tool that several set rules build at once
/// raise the peak (13-16 MB for 100,000 tools).
fn check_set(
    set: &normalize::ToolSet<'_>,
    selection: &Selection,
    ctx: &mut Ctx<'_>,
    diagnostics: &mut Vec<Diagnostic>,
    jobs: Jobs,
) {
    let check = |ctx: &mut Ctx<'_>, rules: Rules<'_>| {
        for (active, rule) in rules {
            ctx.set_rule(active);
            ctx.set_tool(None);
            rule.check_set(set, ctx);
        }
    };
    let rules = &selection.rules[..];
    if !(jobs.set_rules_at_once && split(&set.tools, jobs) == Split::Tools) {
        check(ctx, rules);
        diagnostics.append(&mut ctx.take_findings());
        return;
    }
    // All at once: a set rule's findings are few.
    in_jobs(
        ctx,
        rules.chunks(1).collect(),
        usize::MAX,
        check,
        |ctx, mut done| {
            diagnostics.append(&mut done.take_findings());
            ctx.tokens.absorb(done.tokens);
        },
    );
}

/// Runs every rule's per-tool check on `tools`, adding their findings to `diagnostics` (in an
/// order [`crate::diagnostic::sort`] makes the same as one thread's: each rule sees the tools
/// in order). Many tools are checked on all cores, a few jobs of tools per thread at a time.
fn check_tools(
    tools: &[Tool<'_>],
    selection: &Selection,
    ctx: &mut Ctx<'_>,
    diagnostics: &mut Vec<Diagnostic>,
    jobs: Jobs,
) {
    let check = |ctx: &mut Ctx<'_>, (rules, tools): (Rules<'_>, &[Tool<'_>])| {
        for (active, rule) in rules {
            ctx.set_rule(active);
            for tool in tools {
                ctx.set_tool(Some(tool.name()).filter(|name| !name.is_empty()));
                rule.check_tool(tool, ctx);
            }
        }
    };
    let rules = &selection.rules[..];
    if split(tools, jobs) != Split::Tools {
        check(ctx, (rules, tools));
        diagnostics.append(&mut ctx.take_findings());
        return;
    }
    let split: Vec<(Rules<'_>, &[Tool<'_>])> = tools
        .chunks(jobs.tools)
        .map(|tools| (rules, tools))
        .collect();
    let wave = rayon::current_num_threads().max(1) * 4;
    let mut checked = 0;
    in_jobs(ctx, split, wave, check, |_, mut done| {
        let mut found = done.take_findings();
        checked = (checked + jobs.tools).min(tools.len());
        make_room(diagnostics, found.len(), checked, tools.len());
        diagnostics.append(&mut found);
    });
}

/// Makes room for `more` findings, `checked` of `total` tools checked: for what the tools
/// checked so far promise for all of them (and a quarter more), at most 16 times what is
/// held. A vector grown by doubling is copied while both copies are resident, 11 MB on the
/// peak of 100,000 tools with two findings each; room reserved early is copied while small,
/// and room never used is never touched.
fn make_room<T>(diagnostics: &mut Vec<T>, more: usize, checked: usize, total: usize) {
    let needed = diagnostics.len() + more;
    if needed <= diagnostics.capacity() {
        return;
    }
    let expected = needed.saturating_mul(total) / checked.max(1);
    let room = expected
        .saturating_add(expected / 4)
        .clamp(needed + needed / 2, needed.saturating_mul(16));
    diagnostics.reserve_exact(room - diagnostics.len());
}

/// Runs `work` on each job with a fork of `ctx` ([`Ctx::fork`]), on all cores, and hands each
/// fork to `done` in the order of the jobs. At most `wave` jobs are in flight at a time, so
/// that the findings held beside the file's are only theirs.
fn in_jobs<'a, J: Send>(
    ctx: &mut Ctx<'a>,
    jobs: Vec<J>,
    wave: usize,
    work: impl Fn(&mut Ctx<'a>, J) + Sync,
    mut done: impl FnMut(&mut Ctx<'a>, Ctx<'a>),
) {
    let mut jobs = jobs.into_iter().peekable();
    while jobs.peek().is_some() {
        let forks: Vec<_> = jobs
            .by_ref()
            .take(wave)
            .map(|job| (ctx.fork(), job))
            .collect();
        let forks = crate::parallel::map_in_order(forks, |(mut fork, job)| {
            work(&mut fork, job);
            fork
        });
        for fork in forks {
            done(ctx, fork);
        }
    }
}

impl Checked {
    /// The file's findings, ready for suppression.
    pub fn into_pending(self) -> Pending {
        Pending {
            report: FileReport {
                file: self.file,
                linted: true,
                tools: self.tools,
                skipped: self.skipped,
                diagnostics: self.diagnostics,
                suppressed: Vec::new(),
                internal_error: self.internal_error,
                tool_tokens: self.tool_tokens,
            },
            directives: self.directives,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::make_room;

    /// 100,000 tools with two findings each, in jobs of 64: the findings are copied into a
    /// larger vector while a sixth of them at most (doubling: at half of them), and the room
    /// is within a quarter more than they need.
    #[test]
    fn room_for_findings_is_made_early_from_the_tools_checked() {
        let (total, job) = (100_000, 64);
        let mut found: Vec<u64> = Vec::new();
        let mut grown = Vec::new();
        let mut checked = 0;
        while checked < total {
            checked = (checked + job).min(total);
            let capacity = found.capacity();
            make_room(&mut found, 2 * job, checked, total);
            if found.capacity() != capacity {
                grown.push(found.len());
            }
            found.extend(std::iter::repeat_n(0, 2 * job));
        }
        // Each time at 16 times the findings held, until the promise of all tools fits.
        assert_eq!(grown, [0, 2_048, 34_816]);
        assert!(found.capacity() <= found.len() * 5 / 4 + 2 * job);
        // Findings all in the first tools: room for 16 times what is held, no more.
        let mut found: Vec<u64> = vec![0; 1000];
        make_room(&mut found, 1000, 64, total);
        assert_eq!(found.capacity(), 32_000);
    }
}
