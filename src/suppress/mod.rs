//! Suppressions, applied after every rule has run: inline `# toolcheck: ignore[...]`
//! directives ([`directives`]) and `rules.per-file-ignores` in `toolcheck.yaml`. A suppression
//! that silenced nothing, names an unknown rule or names none is reported as
//! `unused-suppression`.

pub mod baseline;
pub mod directives;

use std::path::Path;
use std::sync::Arc;

use crate::catalog::{Registry, RuleMeta};
use crate::config::{Config, Spanned};
use crate::diagnostic::reporter::{ActiveRule, Anchor, Reporter};
use crate::diagnostic::{Field, FileReport, Suppressed};
use crate::error::Result;
use crate::parse::Span;
use crate::parse::source::SourceFile;
use crate::read::globs::{Base, Pattern};
use crate::rules::meta::unused_suppression::UnusedSuppression;
use crate::text::suggest::did_you_mean;
use directives::Directive;

/// A `rules.per-file-ignores` entry: a glob, optionally narrowed to a JSON Pointer subtree.
struct PerFileIgnore {
    pattern: Spanned,
    glob: Pattern,
    pointer: Option<String>,
    rules: Vec<Spanned>,
}

/// One file's findings and its inline directives, on the way to its report.
pub(crate) struct Pending {
    pub report: FileReport,
    pub directives: Vec<Directive>,
}

/// The suppressions of a run and what they need to know about its rules.
pub(crate) struct Suppressor {
    per_file_ignores: Vec<PerFileIgnore>,
    /// The config's directory: `per-file-ignores` globs match a file's path from it.
    root: Base,
    config_file: Option<Arc<SourceFile>>,
    /// Every registered rule, for matching the rules that suppressions name.
    metas: Vec<RuleMeta>,
    /// The codes of the rules that run.
    active: Vec<Arc<str>>,
    /// `unused-suppression`, when it runs.
    unused: Option<ActiveRule>,
    /// `invalid-manifest`, which cannot be suppressed.
    invalid_manifest: ActiveRule,
}

impl Suppressor {
    /// `active`: the rules that run; `invalid_manifest`, which always runs, as this run has it.
    pub fn new<'a>(
        registry: &Registry,
        config: &Config,
        active: impl IntoIterator<Item = &'a ActiveRule>,
        invalid_manifest: &ActiveRule,
    ) -> Result<Self> {
        let root = Base::new(&config.root);
        let mut per_file_ignores = Vec::new();
        for (pattern, rules) in &config.per_file_ignores {
            let (glob, pointer) = match pattern.value.split_once('#') {
                Some((glob, pointer)) => (glob, Some(pointer.to_string())),
                None => (pattern.value.as_str(), None),
            };
            let glob = Pattern::new(&root, glob).map_err(|error| {
                config.error_at(&pattern.span, format!("invalid glob `{glob}`: {error}"))
            })?;
            per_file_ignores.push(PerFileIgnore {
                pattern: pattern.clone(),
                glob,
                pointer,
                rules: rules.clone(),
            });
        }
        let unused_name = &registry.native::<UnusedSuppression>().name;
        let active: Vec<&ActiveRule> = active.into_iter().collect();
        Ok(Suppressor {
            per_file_ignores,
            root,
            config_file: config.file.clone(),
            metas: registry
                .rules
                .iter()
                .map(|rule| rule.meta.clone())
                .collect(),
            active: active.iter().map(|rule| rule.code.clone()).collect(),
            unused: active
                .iter()
                .find(|rule| *rule.name == **unused_name)
                .map(|&rule| rule.clone()),
            invalid_manifest: invalid_manifest.clone(),
        })
    }

    /// Whether the rule selector `name` (code, name, prefix) covers the rule `code`.
    fn names_rule(&self, name: &str, code: &str) -> bool {
        self.metas
            .iter()
            .find(|meta| meta.code == code)
            .is_some_and(|meta| meta.specificity(name).is_some())
    }

    /// Whether a rule the selector names runs in this run: a suppression of a rule that is
    /// off here (another selection, say in CI) is not "unused".
    fn is_active(&self, name: &str) -> bool {
        self.active.iter().any(|code| self.names_rule(name, code))
    }

    fn is_known(&self, name: &str) -> bool {
        self.metas
            .iter()
            .any(|meta| meta.specificity(name).is_some())
    }

    fn cannot_be_suppressed(&self, name: &str) -> bool {
        self.invalid_manifest.code.eq_ignore_ascii_case(name)
            || *self.invalid_manifest.name == *name
    }

    /// Moves suppressed findings aside, then reports suppressions that matched nothing:
    /// inline ones in their file, `per-file-ignores` in a report of the config file (which
    /// comes back when it has findings).
    /// `unused-suppression`, when it runs (a stale baseline entry is reported by it too).
    pub fn unused(&self) -> Option<&ActiveRule> {
        self.unused.as_ref()
    }

    /// Starts applying the suppressions to a run's files, one at a time in input order.
    pub fn start(&self) -> Suppressing<'_> {
        Suppressing {
            suppressor: self,
            config_used: self
                .per_file_ignores
                .iter()
                .map(|entry| vec![false; entry.rules.len()])
                .collect(),
            config_matched: vec![false; self.per_file_ignores.len()],
        }
    }
}

/// The suppressions applied to a run so far: which `per-file-ignores` entries matched a file
/// and which of their rules silenced a finding.
pub(crate) struct Suppressing<'s> {
    suppressor: &'s Suppressor,
    config_used: Vec<Vec<bool>>,
    /// Entries whose glob matched a file of this run: only those can be "unused". A run over
    /// some files (pre-commit passes the staged ones) says nothing of the others.
    config_matched: Vec<bool>,
}

impl Suppressing<'_> {
    /// Moves the findings of one file that a suppression covers to its `suppressed` list, and
    /// reports its inline directives that silenced nothing.
    pub fn apply(&mut self, file: &mut Pending) {
        let this = self.suppressor;
        let (config_used, config_matched) = (&mut self.config_used, &mut self.config_matched);
        // The name as given on the command line (or --stdin-filename), seen from the config.
        let name = this.root.name(Path::new(&file.report.file.name));
        let matching: Vec<usize> = (0..this.per_file_ignores.len())
            .filter(|&index| this.per_file_ignores[index].glob.matches(&name))
            .collect();
        for &index in &matching {
            config_matched[index] = true;
        }
        let mut inline_used: Vec<Vec<bool>> = file
            .directives
            .iter()
            .map(|directive| vec![false; directive.rules.len()])
            .collect();
        // Nothing can silence a finding of this file (the common case): its findings stay
        // where they are, rather than move one by one into a second list as long.
        let silencers = !file.directives.is_empty() || !matching.is_empty();
        let diagnostics = if silencers {
            std::mem::take(&mut file.report.diagnostics)
        } else {
            Vec::new()
        };
        for diagnostic in diagnostics {
            // A file toolcheck cannot read is never clean.
            let silenceable = diagnostic.code != this.invalid_manifest.code;
            let by_directive = file
                .directives
                .iter()
                .enumerate()
                .find_map(|(d, directive)| {
                    let covered = directive.problem.is_none()
                        && directive
                            .covers
                            .as_ref()
                            .is_none_or(|range| range.contains(&diagnostic.span.start));
                    let rule = directive
                        .rules
                        .iter()
                        .position(|rule| this.names_rule(&rule.name, &diagnostic.code))?;
                    covered.then_some((d, rule))
                });
            let by_config = || {
                matching.iter().find_map(|&index| {
                    let entry = &this.per_file_ignores[index];
                    let in_subtree = entry.pointer.as_deref().is_none_or(|pointer| {
                        let written = diagnostic.pointer.written();
                        written
                            .strip_prefix(pointer)
                            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                    });
                    let rule = entry
                        .rules
                        .iter()
                        .position(|rule| this.names_rule(&rule.value, &diagnostic.code))?;
                    in_subtree.then_some((index, rule))
                })
            };
            if let (true, Some((d, rule))) = (silenceable, by_directive) {
                inline_used[d][rule] = true;
                let reason = file.directives[d].reason.clone();
                file.report
                    .suppressed
                    .push(Suppressed { diagnostic, reason });
            } else if let (true, Some((index, rule))) = (silenceable, by_config()) {
                config_used[index][rule] = true;
                file.report.suppressed.push(Suppressed {
                    diagnostic,
                    reason: None,
                });
            } else {
                file.report.diagnostics.push(diagnostic);
            }
        }
        if let Some(unused) = &this.unused {
            let source = file.report.file.clone();
            let mut reporter = Reporter::new(&source, unused);
            for (directive, used) in file.directives.iter().zip(&inline_used) {
                this.unused_directive(directive, used, &mut reporter);
            }
            file.report.diagnostics.extend(reporter.take_findings());
            crate::diagnostic::sort(&mut file.report.diagnostics);
        }
    }

    /// Ends the run: a report on the config file for its `per-file-ignores` rules that
    /// silenced nothing or name no rule (when `unused-suppression` runs).
    pub fn finish(self) -> Option<FileReport> {
        let this = self.suppressor;
        let (config_used, config_matched) = (self.config_used, self.config_matched);
        let (unused, config) = (this.unused.as_ref()?, this.config_file.as_ref()?);
        let mut reporter = Reporter::new(config, unused);
        let entries = this.per_file_ignores.iter().zip(&config_used);
        for ((entry, used), matched) in entries.zip(config_matched) {
            for (rule, used) in entry.rules.iter().zip(used) {
                let Some(span) = rule.span.clone() else {
                    continue;
                };
                let message = if !this.is_known(&rule.value) {
                    format!("unknown rule `{}` in per-file-ignores", rule.value)
                } else if matched && !used && this.is_active(&rule.value) {
                    format!(
                        "`{}` in per-file-ignores for `{}` suppressed nothing",
                        rule.value, entry.pattern.value
                    )
                } else {
                    continue;
                };
                report(
                    &mut reporter,
                    message,
                    span,
                    "delete it, or fix the rule name or the pattern",
                );
            }
        }
        let diagnostics = reporter.take_findings();
        (!diagnostics.is_empty()).then(|| FileReport {
            file: config.clone(),
            linted: false,
            tools: 0,
            skipped: 0,
            diagnostics,
            suppressed: Vec::new(),
            internal_error: None,
            tool_tokens: None,
        })
    }
}

impl Suppressor {
    /// Reports one inline directive if it is malformed, names unknown rules or silenced
    /// nothing.
    fn unused_directive(&self, directive: &Directive, used: &[bool], reporter: &mut Reporter<'_>) {
        if let Some(problem) = &directive.problem {
            report(
                reporter,
                problem.clone(),
                directive.span.clone(),
                "write `# toolcheck: ignore[rule-name]`, naming each rule it silences",
            );
            return;
        }
        for (rule, used) in directive.rules.iter().zip(used) {
            let (message, help) = if !self.is_known(&rule.name) {
                let names = self
                    .metas
                    .iter()
                    .flat_map(|meta| [meta.code.as_str(), meta.name.as_str()]);
                let help = match did_you_mean(&rule.name, names) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None => "`toolcheck rules` lists every rule".to_string(),
                };
                (format!("unknown rule `{}` in suppression", rule.name), help)
            } else if self.cannot_be_suppressed(&rule.name) {
                (
                    format!("`{}` cannot be suppressed", rule.name),
                    "fix the manifest; a file toolcheck cannot read is never clean".to_string(),
                )
            } else if !used && self.is_active(&rule.name) {
                (
                    format!("suppression of `{}` matched no finding", rule.name),
                    "delete it; nothing it covers is flagged by that rule".to_string(),
                )
            } else {
                continue;
            };
            report(reporter, message, rule.span.clone(), &help);
        }
    }
}

fn report(reporter: &mut Reporter<'_>, message: String, span: Span, help: &str) {
    reporter
        .report(Field::File, Anchor::Source(span), message)
        .help(help.to_string());
}
