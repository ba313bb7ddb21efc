//! The lint stage, which drives the whole pipeline for a run: every input is read, parsed and
//! normalized once ([`file`]), the per-tool and per-file checks run on all cores, then the
//! checks across files ([`across_files`]) and the suppressions ([`crate::suppress`]). Which
//! rules run, and how severe their findings are, is resolved once up front ([`select`]).
//! Reports come back in input order, whatever the thread scheduling.

mod across_files;
pub mod diagnostic;
mod file;
pub mod rule;
pub(crate) mod select;
mod sessions;

use std::sync::Arc;

use crate::catalog::Registry;
use crate::config::Config;
use crate::error::Result;
use crate::normalize::ToolSet;
use crate::read::Input;
use crate::read::source::SourceFile;
use crate::rules::meta::invalid_manifest::InvalidManifest;
use crate::suppress::baseline::Baseline;
use crate::suppress::{Pending, Suppressor};
use crate::tokens::Encoding;
use diagnostic::{Diagnostic, Severity};
use select::Selection;

pub use select::{Overrides, RuleSetting};

/// Everything needed to lint files, resolved once per run.
pub struct Linter {
    selection: Selection,
    suppressor: Suppressor,
    baseline: Option<Baseline>,
    pub encoding: Encoding,
}

/// What linting one file found.
#[derive(Debug)]
pub struct FileReport {
    pub file: Arc<SourceFile>,
    /// `false` for the config file, which only carries findings about its own suppressions.
    pub linted: bool,
    pub tools: usize,
    pub skipped: usize,
    pub diagnostics: Vec<Diagnostic>,
    /// Findings a suppression silenced, with the reason it gave.
    pub suppressed: Vec<Suppressed>,
    /// A bug in toolcheck stopped the linting of this file (a panic, with its message): the
    /// run fails with exit code 2, the other files' results stand.
    pub internal_error: Option<String>,
}

/// A finding silenced by an inline directive or `per-file-ignores`.
#[derive(Debug)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    pub reason: Option<String>,
}

impl Linter {
    pub fn new(registry: &Registry, config: &Config, overrides: &Overrides) -> Result<Linter> {
        let selection = Selection::resolve(registry, config, overrides)?;
        let encoding = overrides.tokenizer.unwrap_or(config.tokenizer);
        let suppressor = Suppressor::new(registry, config, &selection, encoding)?;
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

    /// Reports only findings that `baseline` does not record.
    pub fn with_baseline(mut self, baseline: Baseline) -> Linter {
        self.baseline = Some(baseline);
        self
    }

    /// Lints one file's text. `json` says whether to read it as JSON (else YAML).
    pub fn lint(&self, file: Arc<SourceFile>, json: bool) -> FileReport {
        let parsed = vec![file::Parsed::from_text(
            file,
            json,
            &self.selection.invalid_manifest,
        )];
        self.finish(&parsed).remove(0)
    }

    /// Lints every input, then runs the checks across files; reports come back in input
    /// order. A report for the config file comes last when its suppressions need a finding.
    pub fn lint_all(&self, inputs: Vec<Input>) -> Vec<FileReport> {
        let parsed = crate::parallel::map_in_order(inputs, |input| {
            file::Parsed::read(input, &self.selection.invalid_manifest)
        });
        self.finish(&parsed)
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
        self.finish(&inputs.parsed)
    }

    fn finish(&self, parsed: &[file::Parsed]) -> Vec<FileReport> {
        let sessions = &self.selection.sessions;
        let membership: Vec<Vec<(usize, String)>> = parsed
            .iter()
            .map(|parsed| sessions.of(&parsed.file.name))
            .collect();
        let mut checked = crate::parallel::map_in_order(
            parsed.iter().zip(&membership).collect(),
            |(parsed, member_of)| {
                file::check(
                    parsed,
                    &self.selection,
                    self.encoding,
                    member_of.first().map(|(_, server)| server.as_str()),
                )
            },
        );
        across_files::check(&mut checked, &self.selection, self.encoding);
        sessions::check(&mut checked, &membership, &self.selection, self.encoding);
        let mut pending: Vec<Pending> = checked
            .into_iter()
            .map(file::Checked::into_pending)
            .collect();
        let config_report = self.suppressor.apply(&mut pending);
        let mut reports: Vec<FileReport> = pending
            .into_iter()
            .map(|pending| pending.report)
            .chain(config_report)
            .collect();
        if let Some(baseline) = &self.baseline {
            let stale = baseline.apply(&mut reports, self.suppressor.unused(), self.encoding);
            reports.extend(stale);
        }
        reports
    }
}

/// Inputs read and parsed once ([`Linter::parse_all`]), in input order.
pub struct ParsedInputs {
    parsed: Vec<file::Parsed>,
    invalid_manifest: rule::ActiveRule,
}

/// One tool of a file as `normalize` reads it: its name (empty when it has none, as in
/// [`Diagnostic::tool`]) and the span of its definition.
#[derive(Debug, Clone)]
pub struct ToolSpan {
    pub name: String,
    pub span: crate::parse::Span,
}

impl ParsedInputs {
    /// Each file's tools, in input order and file order; none for a file without a tree (or
    /// whose reading panicked: linting it reports that).
    pub fn tools(&self, encoding: Encoding) -> Vec<Vec<ToolSpan>> {
        crate::parallel::map_in_order(self.parsed.iter().collect(), |parsed: &file::Parsed| {
            let Some(root) = &parsed.root else {
                return Vec::new();
            };
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut ctx = rule::Ctx::new(&parsed.file, encoding, &self.invalid_manifest);
                let set = crate::normalize::normalize(root, &mut ctx);
                set.tools
                    .iter()
                    .map(|tool| ToolSpan {
                        name: tool.name().to_string(),
                        span: tool.node.span.clone(),
                    })
                    .collect()
            }))
            .unwrap_or_default()
        })
    }
}

/// Why a file has no tool set for [`with_tool_set`].
#[derive(Debug)]
pub struct NoToolSet {
    /// The `invalid-manifest` findings `lint` reports for the file (at error severity).
    pub findings: Vec<Diagnostic>,
    /// A bug in toolcheck stopped the reading (a panic's message).
    pub internal_error: Option<String>,
}

impl NoToolSet {
    /// One line: the first finding's message, or the internal error.
    pub fn message(&self) -> String {
        self.internal_error
            .clone()
            .or_else(|| self.findings.first().map(|d| d.message.clone()))
            .unwrap_or_default()
    }
}

/// One input through read → parse → normalize exactly as `lint` reads it, for a command that
/// needs the tool set but no rules (`toolcheck tokens`). `with_set` gets the tool set; the
/// error holds the `invalid-manifest` findings `lint` gives the file. Problems of shape stop
/// it only when no tool could be read.
pub fn with_tool_set<R>(
    input: Input,
    registry: &Registry,
    encoding: Encoding,
    with_set: impl FnOnce(&ToolSet<'_>) -> R,
) -> std::result::Result<R, NoToolSet> {
    let invalid_manifest = select::active(registry.native::<InvalidManifest>(), Severity::Error);
    let parsed = file::Parsed::read(input, &invalid_manifest);
    let root = match (&parsed.root, &parsed.internal_error) {
        (Some(root), None) => root,
        _ => {
            return Err(NoToolSet {
                findings: parsed.unreadable.clone(),
                internal_error: parsed.internal_error.clone(),
            });
        }
    };
    let mut ctx = rule::Ctx::new(&parsed.file, encoding, &invalid_manifest);
    let set = crate::normalize::normalize(root, &mut ctx);
    // Nothing readable at all (an empty document, no tool shape) is an error here as in
    // `lint`; a few bad fields among readable tools are not.
    let mut findings = ctx.take_findings();
    if set.tools.is_empty() && !findings.is_empty() {
        findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        return Err(NoToolSet {
            findings,
            internal_error: None,
        });
    }
    Ok(with_set(&set))
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
    use super::rule::{ActiveRule, Ctx, Rule, RunCtx, SetRef};
    use super::*;
    use crate::normalize::Tool;

    /// A rule that panics on purpose: on the tool named `boom`, or across files.
    struct Panics {
        across_files: bool,
    }

    impl Rule for Panics {
        fn check_tool(&self, tool: &Tool<'_>, _ctx: &mut Ctx<'_>) {
            assert_ne!(tool.name(), "boom", "a rule panicked on purpose");
        }

        fn check_run(&self, _sets: &[SetRef<'_>], _ctx: &mut RunCtx<'_>) {
            assert!(
                !self.across_files,
                "a rule panicked across files on purpose"
            );
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
        assert_eq!(crate::cli::exit_code(&reports, &summary, None), 2);
        assert_eq!(crate::cli::exit_code(&expected, &summary, None), 1);
    }

    #[test]
    fn a_panic_across_files_is_reported_and_keeps_each_files_findings() {
        let expected = linter_with(None).lint_all(inputs());
        let mut no_boom = inputs();
        no_boom.remove(3);
        let reports = linter_with(Some(Panics { across_files: true })).lint_all(no_boom);
        let error = reports[0].internal_error.as_deref().unwrap_or_default();
        assert!(error.contains("`panics` across files"), "{error}");
        assert_eq!(codes(&reports[1]), codes(&expected[1]));
    }
}
