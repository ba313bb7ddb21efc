//! The lint stage, which drives the whole pipeline for a run: every input is read, parsed and
//! normalized once ([`file`]), the per-tool and per-file checks run on all cores, then the
//! checks across files ([`across_files`]) and the suppressions ([`crate::suppress`]). Which
//! rules run, and how severe their findings are, is resolved once up front ([`select`]).
//! Reports come back in input order, whatever the thread scheduling.

mod across_files;
mod file;
mod parsed;
pub(crate) mod select;
mod sessions;

use std::borrow::Borrow;
use std::sync::Arc;

use crate::catalog::Registry;
use crate::config::Config;
use crate::error::Result;
use crate::parse::source::SourceFile;
use crate::read::Input;
use crate::suppress::baseline::{Baseline, Matching};
use crate::suppress::{Suppressing, Suppressor};
use crate::tokens::Encoding;
use select::Selection;

pub use crate::catalog::RuleSetting;
pub use crate::diagnostic::{FileReport, Suppressed};
pub use parsed::{NoToolSet, ParsedInputs, ToolSpan, with_tool_set};
pub use select::Overrides;

/// Everything needed to lint files, resolved once per run.
pub struct Linter {
    selection: Selection,
    suppressor: Suppressor,
    baseline: Option<Baseline>,
    pub encoding: Encoding,
}

/// What a caller asks of the lint beyond the findings.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extras {
    /// Each tool's tokens ([`FileReport::tool_tokens`]), counted with the checks' counts.
    pub tool_tokens: bool,
    /// The set rules of many tools run one a job on all cores rather than one after the
    /// other: 0.05-0.07 s faster for 100,000 tools, but the indexes of every tool that several
    /// rules build at once add 13-16 MB, which a caller can afford when its own peak comes
    /// later (`diff` holds the other side's tools and findings beside the lint).
    pub set_rules_at_once: bool,
}

impl Linter {
    pub fn new(registry: &Registry, config: &Config, overrides: &Overrides) -> Result<Linter> {
        let selection = Selection::resolve(registry, config, overrides)?;
        let encoding = overrides.tokenizer.unwrap_or(config.tokenizer);
        let suppressor = Suppressor::new(
            registry,
            config,
            selection.rules.iter().map(|(rule, _)| rule),
            &selection.invalid_manifest,
        )?;
        Ok(Linter {
            selection,
            suppressor,
            baseline: None,
            encoding,
        })
    }

    /// Every rule as this run resolved it: severity (`None` when off) and options.
    pub fn settings(&self) -> &[RuleSetting] {
        &self.selection.settings
    }

    /// The targets this run checks against (`--target`, else `targets:`), resolved.
    pub fn targets(&self) -> &crate::targets::Targets {
        &self.selection.targets
    }

    /// Reports only findings that `baseline` does not record.
    pub fn with_baseline(mut self, baseline: Baseline) -> Linter {
        self.baseline = Some(baseline);
        self
    }

    /// Lints one file's text. `json` says whether to read it as JSON (else YAML).
    pub fn lint(&self, file: Arc<SourceFile>, json: bool) -> FileReport {
        let parsed = file::Parsed::from_text(file, json, &self.selection.invalid_manifest);
        let mut reports = self.run(vec![&parsed], Extras::default());
        reports.remove(0)
    }

    /// Lints every input, then runs the checks across files; reports come back in input
    /// order. A report for the config file comes last when its suppressions need a finding.
    pub fn lint_all(&self, inputs: Vec<Input>) -> Vec<FileReport> {
        let mut reports = Vec::with_capacity(inputs.len());
        self.lint_each(inputs, |report| reports.push(report));
        reports
    }

    /// Lints every input and hands each file's report to `each` in input order, as soon as
    /// that file and every earlier one are done (the reports of the config file and of the
    /// baseline, when they have findings, come last). A file's tree is dropped after its own
    /// checks, so memory does not grow with the number of files; only the files of a session
    /// keep theirs, and their reports (and the later ones) wait for the session checks.
    pub fn lint_each(&self, inputs: Vec<Input>, each: impl FnMut(FileReport)) {
        let invalid_manifest = &self.selection.invalid_manifest;
        self.stream(
            inputs,
            |input| input.name.clone(),
            |input| file::Parsed::read(input, invalid_manifest),
            Extras::default(),
            each,
        );
    }

    /// Reads and parses every input once, to lint them more than once with
    /// [`Linter::lint_parsed`] (`toolcheck compat` lints them once per target).
    pub fn parse_all(&self, inputs: Vec<Input>) -> ParsedInputs {
        let invalid_manifest = self.selection.invalid_manifest.clone();
        let parsed = crate::parallel::map_in_order(inputs, |input| {
            file::Parsed::read(input, &invalid_manifest)
        });
        ParsedInputs {
            parsed,
            invalid_manifest,
        }
    }

    /// Lints inputs parsed by [`Linter::parse_all`] (of this or another linter), as
    /// [`Linter::lint_all`] lints them.
    pub fn lint_parsed(&self, inputs: &ParsedInputs) -> Vec<FileReport> {
        self.run(inputs.parsed.iter().collect(), Extras::default())
    }

    /// [`Linter::lint_parsed`], with what `extras` asks.
    pub fn lint_parsed_with(&self, inputs: &ParsedInputs, extras: Extras) -> Vec<FileReport> {
        self.run(inputs.parsed.iter().collect(), extras)
    }

    fn run(&self, parsed: Vec<&file::Parsed>, extras: Extras) -> Vec<FileReport> {
        let mut reports = Vec::with_capacity(parsed.len());
        self.stream(
            parsed,
            |parsed| parsed.file.name.clone(),
            |parsed| parsed,
            extras,
            |report| reports.push(report),
        );
        reports
    }

    /// The pipeline after reading: each item is parsed (`parse`) and checked on all cores;
    /// then, in input order, the checks across files, the session checks, the suppressions
    /// and the baseline, and the report goes to `each`.
    fn stream<T: Send, P: Borrow<file::Parsed> + Send>(
        &self,
        items: Vec<T>,
        name: impl Fn(&T) -> String,
        parse: impl Fn(T) -> P + Sync,
        extras: Extras,
        each: impl FnMut(FileReport),
    ) {
        let sessions = &self.selection.sessions;
        let membership: Vec<Vec<(usize, String)>> =
            items.iter().map(|item| sessions.of(&name(item))).collect();
        // The reports of a session's files get its findings at the end of the run, and reports
        // go out in input order: with a session among the inputs, all of them wait.
        let hold = membership.iter().any(|member_of| !member_of.is_empty());
        let mut across = across_files::Across::start(&self.selection, self.encoding);
        let outline = across.any();
        let mut out = Out {
            suppressing: self.suppressor.start(),
            matching: self.baseline.as_ref().map(Baseline::start),
            each,
        };
        // With `hold`: each file after its own checks, its sessions, and its tree.
        let (mut held, mut held_membership, mut trees) = (Vec::new(), Vec::new(), Vec::new());
        let work = |(item, member_of): (T, Vec<(usize, String)>)| {
            let parsed = parse(item);
            let server = member_of.first().map(|(_, server)| server.as_str());
            let checked = file::check(
                parsed.borrow(),
                &self.selection,
                self.encoding,
                server,
                outline,
                extras,
            );
            // Only a file of a session keeps its tree, for the session checks.
            let kept = (!member_of.is_empty()).then_some(parsed);
            (checked, member_of, kept)
        };
        crate::parallel::for_each_in_order(
            items.into_iter().zip(membership).collect(),
            work,
            |(mut checked, member_of, kept)| {
                across.check(&mut checked);
                if hold {
                    held.push(checked);
                    held_membership.push(member_of);
                    trees.push(kept);
                } else {
                    out.send(checked);
                }
            },
        );
        if hold {
            let parsed: Vec<Option<&file::Parsed>> = trees
                .iter()
                .map(|kept| kept.as_ref().map(Borrow::borrow))
                .collect();
            sessions::check(
                &mut held,
                &parsed,
                &held_membership,
                &self.selection,
                self.encoding,
            );
            for checked in held {
                out.send(checked);
            }
        }
        let Out {
            suppressing,
            matching,
            mut each,
        } = out;
        if let Some(report) = suppressing.finish() {
            each(report);
        }
        let unused = self.suppressor.unused();
        if let Some(report) = matching.and_then(|matching| matching.finish(unused)) {
            each(report);
        }
    }
}

/// Where a run's reports go, suppressions and the baseline applied.
struct Out<'l, F> {
    suppressing: Suppressing<'l>,
    matching: Option<Matching<'l>>,
    each: F,
}

impl<F: FnMut(FileReport)> Out<'_, F> {
    fn send(&mut self, checked: file::Checked) {
        let mut pending = checked.into_pending();
        self.suppressing.apply(&mut pending);
        if let Some(matching) = &mut self.matching {
            matching.apply(&mut pending.report);
        }
        (self.each)(pending.report);
    }
}

/// The message of a panic caught while linting a file.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|message| message.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

/// Lints a text with the default settings (for unit tests of rules).
#[cfg(test)]
pub(crate) fn lint_text(name: &str, text: &str) -> FileReport {
    let registry = Registry::builtin().expect("the built-in catalog loads");
    let config = Config::defaults(".".into());
    let linter =
        Linter::new(&registry, &config, &Overrides::default()).expect("defaults are valid");
    linter.lint(
        SourceFile::new(name, text.to_string()),
        name.ends_with(".json"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::normalize::Tool;
    use crate::rule::{AcrossFiles, ActiveRule, Ctx, Outline, Rule};

    /// A rule that panics on purpose: on the tool named `boom`, or across files.
    struct Panics {
        across_files: bool,
    }

    impl Rule for Panics {
        fn check_tool(&self, tool: &Tool<'_>, _ctx: &mut Ctx<'_>) {
            assert_ne!(tool.name(), "boom", "a rule panicked on purpose");
        }

        fn across_files(&self) -> Option<Box<dyn AcrossFiles + '_>> {
            self.across_files
                .then(|| Box::new(PanicsAcross) as Box<dyn AcrossFiles>)
        }
    }

    struct PanicsAcross;

    impl AcrossFiles for PanicsAcross {
        fn check(&mut self, _file: &Outline, _ctx: &mut Ctx<'_>) {
            panic!("a rule panicked across files on purpose");
        }
    }

    fn inputs() -> Vec<Input> {
        (0..8)
            .map(|index| {
                let name = if index == 3 { "boom" } else { "search" };
                Input {
                    name: format!("f{index}.json"),
                    bytes: format!(r#"{{"name": "{name}", "description": "Always search."}}"#)
                        .into_bytes(),
                }
            })
            .collect()
    }

    fn linter_with(rule: Option<Panics>) -> Linter {
        let registry = Registry::builtin().unwrap();
        let mut linter = Linter::new(
            &registry,
            &Config::defaults(".".into()),
            &Overrides::default(),
        )
        .unwrap();
        if let Some(rule) = rule {
            let active = ActiveRule {
                code: "X999".into(),
                name: "panics".into(),
                severity: Severity::Error,
            };
            linter.selection.rules.push((active, Box::new(rule)));
        }
        linter
    }

    fn codes(report: &FileReport) -> Vec<String> {
        let found = report.diagnostics.iter();
        found
            .map(|d| format!("{} {}", d.code, d.span.start))
            .collect()
    }

    /// Asked for, each tool's tokens come with the report, deferred tools (which the budget
    /// rules do not count) included, as a counter of their own counts them; not asked, none.
    #[test]
    fn tool_tokens_come_with_the_report_when_asked() {
        let mut json = String::from(r#"{"tools": ["#);
        for index in 0..200 {
            let defer = if index % 3 == 0 {
                r#", "defer_loading": true"#
            } else {
                ""
            };
            let separator = if index == 0 { "" } else { ", " };
            let schema = format!(
                r#"{{"type": "object", "properties": {{"n": {{"type": "integer", "minimum": {index}}}}}}}"#
            );
            json.push_str(&format!(
                r#"{separator}{{"name": "tool_{index}", "description": "Fetch page {index} of the index by its number.", "inputSchema": {schema}{defer}}}"#
            ));
        }
        json.push_str("]}");
        let linter = linter_with(None);
        let parsed = linter.parse_all(vec![Input {
            name: "set.json".into(),
            bytes: json.into_bytes(),
        }]);
        let expected = parsed.with_tool_sets(linter.encoding, |_, set| {
            let tools: Vec<&Tool<'_>> = set.tools.iter().collect();
            crate::tokens::Counter::new(linter.encoding).totals(&tools)
        });
        let expected = expected.into_iter().next().unwrap().ok().unwrap();
        assert_eq!(expected.len(), 200);
        assert!(expected.iter().all(|&tokens| tokens > 10));
        for set_rules_at_once in [false, true] {
            let extras = Extras {
                tool_tokens: true,
                set_rules_at_once,
            };
            let reports = linter.lint_parsed_with(&parsed, extras);
            assert_eq!(reports[0].tool_tokens.as_ref(), Some(&expected));
        }
        assert_eq!(linter.lint_parsed(&parsed)[0].tool_tokens, None);
    }

    /// A large set's rules, and its tools or their rules, are checked in jobs on all cores:
    /// the same findings in the same order as one job's, tools sharing nodes (YAML aliases)
    /// included.
    #[test]
    fn tools_checked_in_jobs_find_what_one_job_finds() {
        let mut yaml = String::from("tools:\n");
        for index in 0..300 {
            let description = match index % 4 {
                0 => format!("description: &d{index} \"ALWAYS call this first, always.\""),
                1 => format!("description: *d{}", index - 1),
                2 => "description: Search.".to_string(),
                _ => format!(
                    "description: \"Use tool_{} to fetch one page by its URL.\"",
                    index % 7
                ),
            };
            yaml.push_str(&format!(
                "  - name: tool_{index}\n    {description}\n    inputSchema: {{type: object, \
                 properties: {{q: {{type: strin}}}}, required: [q, r]}}\n"
            ));
        }
        let linter = linter_with(None);
        let file = SourceFile::new("set.tool.yaml", yaml.clone());
        let root = crate::parse::yaml::parse(&yaml).unwrap();
        let encoding = linter.encoding;
        let found = |jobs: file::Jobs| {
            let mut ctx = Ctx::new(&file, encoding, &linter.selection.invalid_manifest);
            let set = crate::normalize::normalize(&root, &mut ctx);
            assert_eq!(set.tools.len(), 300);
            let (selection, mut diagnostics) = (&linter.selection, ctx.take_findings());
            file::check_rules(&set, selection, &mut ctx, &mut diagnostics, jobs);
            crate::diagnostic::sort(&mut diagnostics);
            let found = diagnostics.iter().map(|d| {
                let tool = d.tool.as_deref().unwrap_or_default();
                format!("{} {:?} {tool} {} {}", d.code, d.span, d.pointer, d.message)
            });
            found.collect::<Vec<_>>()
        };
        let jobs = |tools, bytes| file::Jobs {
            tools,
            bytes,
            set_rules_at_once: false,
        };
        let one_job = found(jobs(usize::MAX, usize::MAX));
        assert!(one_job.len() > 600, "{}", one_job.len());
        // By tools, and by rules (as a few large tools are).
        assert_eq!(found(jobs(7, usize::MAX)), one_job);
        assert_eq!(found(jobs(1, usize::MAX)), one_job);
        assert_eq!(found(jobs(usize::MAX, 0)), one_job);
        // By tools, the set rules one a job (as `diff` asks).
        let at_once = file::Jobs {
            set_rules_at_once: true,
            ..jobs(7, usize::MAX)
        };
        assert_eq!(found(at_once), one_job);
    }

    #[test]
    fn a_panic_on_one_file_is_its_internal_error_and_every_other_file_survives() {
        let expected = linter_with(None).lint_all(inputs());
        let reports = linter_with(Some(Panics {
            across_files: false,
        }))
        .lint_all(inputs());
        assert_eq!(reports.len(), 8);
        for (index, (report, expected)) in reports.iter().zip(&expected).enumerate() {
            assert_eq!(report.file.name, format!("f{index}.json"));
            if index == 3 {
                let error = report.internal_error.as_deref().unwrap_or_default();
                assert!(error.contains("panicked on purpose"), "{error}");
            } else {
                assert_eq!(report.internal_error, None);
                assert!(!report.diagnostics.is_empty());
                assert_eq!(codes(report), codes(expected), "{}", report.file.name);
            }
        }
        let summary = crate::render::Summary::of(&reports);
        let internal = |reports: &[FileReport]| reports.iter().any(|r| r.internal_error.is_some());
        assert!(internal(&reports) && !internal(&expected));
        assert_eq!(crate::cli::exit_code(true, &summary, None), 2);
        assert_eq!(crate::cli::exit_code(false, &summary, None), 1);
    }

    #[test]
    fn a_panic_across_files_is_reported_and_keeps_each_files_findings() {
        let expected = linter_with(None).lint_all(inputs());
        let mut no_boom = inputs();
        no_boom.remove(3);
        let reports = linter_with(Some(Panics { across_files: true })).lint_all(no_boom);
        let error = reports[0].internal_error.as_deref().unwrap_or_default();
        assert!(error.contains("`panics` across files"), "{error}");
        // The check that panicked stops; the other files are linted as ever.
        assert_eq!(reports[1].internal_error, None);
        assert_eq!(codes(&reports[1]), codes(&expected[1]));
    }
}
