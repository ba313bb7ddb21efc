//! The rule engine: resolves selection, severities and options once, then lints files,
//! in parallel, with output in a deterministic order.

use std::path::Path;
use std::sync::Arc;

use crate::config::{Config, Level, Spanned};
use crate::diagnostic::{Diagnostic, Field, Related, Severity};
use crate::error::{Error, Result};
use crate::model::{self, ShapeError, ToolSet};
use crate::registry::{Registered, Registry};
use crate::rule::{Ctx, Finding, Rule, RuleMeta, RunCtx, SetRef};
use crate::source::SourceFile;
use crate::suggest::did_you_mean;
use crate::suppression::{self, Directive};
use crate::syntax::{self, Node, Span};
use crate::tokens::Encoding;

/// Selection and severity flags from the command line; they apply after the config file.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    /// Replaces `rules.select` when given.
    pub select: Option<Vec<String>>,
    /// Added to `rules.ignore`.
    pub ignore: Vec<String>,
    /// Applied after `rules.severity`.
    pub severity: Vec<(String, Level)>,
    pub tokenizer: Option<Encoding>,
}

const INVALID_MANIFEST: (&str, &str) = ("TC001", "invalid-manifest");

/// A rule that runs, with its resolved severity.
struct Active {
    code: Arc<str>,
    name: Arc<str>,
    severity: Severity,
    rule: Box<dyn Rule>,
}

/// Everything needed to lint files, resolved once per run.
pub struct Linter {
    rules: Vec<Active>,
    pub encoding: Encoding,
    /// Every registered rule, for matching the rules that suppressions name.
    metas: Vec<RuleMeta>,
    per_file_ignores: Vec<PerFileIgnore>,
    config_file: Option<Arc<SourceFile>>,
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
}

/// A finding silenced by an inline directive or `per-file-ignores`.
#[derive(Debug)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    pub reason: Option<String>,
}

/// A `rules.per-file-ignores` entry: a glob, optionally narrowed to a JSON Pointer subtree.
struct PerFileIgnore {
    pattern: Spanned,
    glob: globset::GlobMatcher,
    pointer: Option<String>,
    rules: Vec<Spanned>,
}

/// One file on its way through the run: its report, its parsed tree (for the checks across
/// files) and its inline suppressions.
struct Linted {
    report: FileReport,
    root: Option<Node>,
    directives: Vec<Directive>,
}

impl Linter {
    pub fn new(registry: &Registry, config: &Config, overrides: &Overrides) -> Result<Linter> {
        let select = match &overrides.select {
            Some(select) => select.iter().map(Spanned::cli).collect(),
            None => config
                .select
                .clone()
                .unwrap_or_else(|| vec![Spanned::cli("ALL")]),
        };
        let ignore: Vec<Spanned> = config
            .ignore
            .iter()
            .cloned()
            .chain(overrides.ignore.iter().map(Spanned::cli))
            .collect();
        let severities: Vec<(Spanned, Level)> = config
            .severity
            .iter()
            .cloned()
            .chain(
                overrides
                    .severity
                    .iter()
                    .map(|(rule, level)| (Spanned::cli(rule), *level)),
            )
            .collect();
        for selector in select
            .iter()
            .chain(&ignore)
            .chain(severities.iter().map(|(s, _)| s))
        {
            check_selector(registry, config, selector)?;
        }
        for selector in ignore.iter().chain(
            severities
                .iter()
                .filter(|(_, level)| *level == Level::Off)
                .map(|(s, _)| s),
        ) {
            if [INVALID_MANIFEST.0, INVALID_MANIFEST.1].contains(&selector.value.as_str()) {
                return Err(config
                    .error_at(
                        &selector.span,
                        "`invalid-manifest` (TC001) cannot be disabled",
                    )
                    .with_help(
                        "a file toolcheck cannot read cannot be checked by any other rule",
                    ));
            }
        }
        for (rule, _) in &config.options {
            if registry.find(&rule.value).is_none() {
                return Err(unknown_rule(registry, config, rule));
            }
        }

        let mut rules = Vec::new();
        for registered in &registry.rules {
            let meta = &registered.meta;
            let options = config
                .options
                .iter()
                .rev()
                .find(|(rule, _)| rule.value == meta.name || rule.value == meta.code)
                .map(|(_, node)| node);
            // Build even when disabled, so bad options are reported either way.
            let rule = registered.build(options, config.file.as_ref())?;
            if meta.code == INVALID_MANIFEST.0 {
                continue;
            }
            let selected = most_specific(meta, &select).is_some_and(|chosen| {
                most_specific(meta, &ignore).is_none_or(|ignored| ignored < chosen)
            });
            if !selected {
                continue;
            }
            let level = severities
                .iter()
                .enumerate()
                .filter_map(|(index, (selector, level))| {
                    specificity(&selector.value, meta).map(|specific| ((specific, index), *level))
                })
                .max_by_key(|(rank, _)| *rank)
                .map(|(_, level)| level);
            let severity = match level {
                None => meta.default_severity,
                Some(Level::Off) => continue,
                Some(Level::Error) => Severity::Error,
                Some(Level::Warning) => Severity::Warning,
                Some(Level::Info) => Severity::Info,
            };
            rules.push(Active {
                code: meta.code.as_str().into(),
                name: meta.name.as_str().into(),
                severity,
                rule,
            });
        }
        let mut per_file_ignores = Vec::new();
        for (pattern, rules) in &config.per_file_ignores {
            let (glob, pointer) = match pattern.value.split_once('#') {
                Some((glob, pointer)) => (glob, Some(pointer.to_string())),
                None => (pattern.value.as_str(), None),
            };
            let glob = globset::Glob::new(glob)
                .map_err(|error| {
                    config.error_at(&pattern.span, format!("invalid glob `{glob}`: {error}"))
                })?
                .compile_matcher();
            per_file_ignores.push(PerFileIgnore {
                pattern: pattern.clone(),
                glob,
                pointer,
                rules: rules.clone(),
            });
        }
        Ok(Linter {
            rules,
            encoding: overrides.tokenizer.unwrap_or(config.tokenizer),
            metas: registry
                .rules
                .iter()
                .map(|rule| rule.meta.clone())
                .collect(),
            per_file_ignores,
            config_file: config.file.clone(),
        })
    }

    /// Lints one file's text. `json` says whether to read it as JSON (else YAML).
    pub fn lint(&self, file: Arc<SourceFile>, json: bool) -> FileReport {
        let mut reports = self.finish(vec![self.lint_file(file, json)]);
        reports.remove(0)
    }

    /// Lints every input on all cores, then runs the checks across files; reports come back
    /// in input order.
    /// A report for the config file comes last when its suppressions need a finding.
    pub fn lint_all(&self, inputs: Vec<Input>) -> Vec<FileReport> {
        let linted = crate::parallel::map_in_order(inputs, |input| self.lint_input(input));
        self.finish(linted)
    }

    /// The checks across files, then suppressions.
    fn finish(&self, mut linted: Vec<Linted>) -> Vec<FileReport> {
        self.check_run(&mut linted);
        let config_report = self.suppress(&mut linted);
        let mut reports: Vec<FileReport> = linted.into_iter().map(|linted| linted.report).collect();
        reports.extend(config_report);
        reports
    }

    /// Parses, normalizes and runs the per-tool and per-file checks. The parsed tree is
    /// returned for the checks across files.
    fn lint_file(&self, file: Arc<SourceFile>, json: bool) -> Linted {
        let root = match syntax::parse(&file.text, json) {
            Ok(root) => root,
            Err(error) => {
                let diagnostic = invalid_manifest(
                    &file,
                    error.message,
                    None,
                    error.span,
                    String::new(),
                    Field::File,
                    None,
                );
                return unreadable(file, diagnostic);
            }
        };
        let (set, shape_errors) = model::normalize(&root);
        let mut diagnostics: Vec<Diagnostic> = shape_errors
            .into_iter()
            .map(
                |ShapeError {
                     message,
                     help,
                     span,
                     pointer,
                     field,
                     tool,
                 }| {
                    invalid_manifest(&file, message, help, span, pointer, field, tool)
                },
            )
            .collect();
        let mut ctx = Ctx::new(&file.text, self.encoding);
        for active in &self.rules {
            for tool in &set.tools {
                ctx.set_tool(Some(tool.name()).filter(|name| !name.is_empty()));
                active.rule.check_tool(tool, &mut ctx);
            }
            ctx.set_tool(None);
            active.rule.check_set(&set, &mut ctx);
            diagnostics.extend(
                ctx.take_findings()
                    .into_iter()
                    .map(|finding| active.diagnostic(&file, finding)),
            );
        }
        diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let directives = if json {
            Vec::new()
        } else {
            suppression::directives(&file.text, Some(&root))
        };
        let report = FileReport {
            linted: true,
            tools: set.tools.len(),
            skipped: set.skipped,
            file,
            diagnostics,
            suppressed: Vec::new(),
        };
        Linted {
            report,
            root: Some(root),
            directives,
        }
    }

    /// Runs the checks across files over every file that parsed.
    fn check_run(&self, linted: &mut [Linted]) {
        let mut found: Vec<(usize, Diagnostic)> = Vec::new();
        {
            let parsed: Vec<(usize, ToolSet<'_>)> = linted
                .iter()
                .enumerate()
                .filter_map(|(index, linted)| {
                    Some((index, model::normalize(linted.root.as_ref()?).0))
                })
                .collect();
            let sets: Vec<SetRef<'_>> = parsed
                .iter()
                .map(|(index, set)| SetRef {
                    file: &linted[*index].report.file,
                    set,
                })
                .collect();
            for active in &self.rules {
                let ctxs = sets
                    .iter()
                    .map(|set| Ctx::new(&set.file.text, self.encoding))
                    .collect();
                let mut run = RunCtx::new(ctxs);
                active.rule.check_run(&sets, &mut run);
                for (set_index, finding) in run.take_findings() {
                    let (index, _) = parsed[set_index];
                    found.push((
                        index,
                        active.diagnostic(&linted[index].report.file, finding),
                    ));
                }
            }
        }
        for (index, diagnostic) in found {
            let report = &mut linted[index].report;
            report.diagnostics.push(diagnostic);
            report
                .diagnostics
                .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        }
    }

    fn lint_input(&self, input: Input) -> Linted {
        let json = input.is_json();
        match String::from_utf8(input.bytes) {
            Ok(text) => self.lint_file(SourceFile::new(input.name, text), json),
            Err(error) => {
                let offset = error.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(error.as_bytes()).into_owned();
                let file = SourceFile::new(input.name, text);
                let diagnostic = invalid_manifest(
                    &file,
                    not_utf8(offset),
                    Some("save the file as UTF-8".to_string()),
                    offset..offset + 1,
                    String::new(),
                    Field::File,
                    None,
                );
                unreadable(file, diagnostic)
            }
        }
    }
}

impl Active {
    fn diagnostic(&self, file: &Arc<SourceFile>, finding: Finding) -> Diagnostic {
        let severity = finding
            .at_most
            .map_or(self.severity, |cap| cap.min(self.severity));
        diagnostic(file, &self.code, &self.name, severity, finding)
    }
}

fn unreadable(file: Arc<SourceFile>, diagnostic: Diagnostic) -> Linted {
    Linted {
        report: FileReport {
            file,
            linted: true,
            tools: 0,
            skipped: 0,
            diagnostics: vec![diagnostic],
            suppressed: Vec::new(),
        },
        root: None,
        directives: Vec::new(),
    }
}

/// The message for a file whose byte at `offset` is not UTF-8.
pub fn not_utf8(offset: usize) -> String {
    format!("the file is not valid UTF-8 (invalid byte at offset {offset})")
}

/// One file to lint: its display name and bytes.
#[derive(Debug)]
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl Input {
    /// JSON by extension; for other names, by the first non-blank character.
    pub fn is_json(&self) -> bool {
        let extension = Path::new(&self.name)
            .extension()
            .and_then(|ext| ext.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("json") => true,
            Some("yaml" | "yml") => false,
            _ => {
                let text = self
                    .bytes
                    .strip_prefix("\u{feff}".as_bytes())
                    .unwrap_or(&self.bytes);
                matches!(
                    text.iter().find(|b| !b.is_ascii_whitespace()),
                    Some(b'{' | b'[')
                )
            }
        }
    }
}

fn invalid_manifest(
    file: &Arc<SourceFile>,
    message: String,
    help: Option<String>,
    span: Span,
    pointer: String,
    field: Field,
    tool: Option<String>,
) -> Diagnostic {
    let finding = Finding {
        message,
        help,
        label: None,
        field,
        pointer,
        span,
        tool,
        related: None,
        at_most: None,
    };
    diagnostic(
        file,
        INVALID_MANIFEST.0,
        INVALID_MANIFEST.1,
        Severity::Error,
        finding,
    )
}

fn diagnostic(
    file: &Arc<SourceFile>,
    code: &str,
    name: &str,
    severity: Severity,
    finding: Finding,
) -> Diagnostic {
    Diagnostic {
        code: code.into(),
        rule: name.into(),
        severity,
        message: finding.message,
        help: finding.help,
        label: finding.label,
        file: file.clone(),
        tool: finding.tool,
        field: finding.field,
        pointer: finding.pointer,
        span: finding.span,
        related: finding
            .related
            .map(|related| Related {
                message: related.message,
                file: related.file.unwrap_or_else(|| file.clone()),
                span: related.span,
            })
            .into_iter()
            .collect(),
    }
}

/// How specifically `selector` names the rule: `ALL` < family < code prefix (longer is more
/// specific) < exact code or name. `None` when it does not match.
fn specificity(selector: &str, meta: &RuleMeta) -> Option<usize> {
    if selector == "ALL" {
        Some(0)
    } else if selector == meta.code || selector == meta.name {
        Some(usize::MAX)
    } else if selector == meta.family.as_str() {
        Some(1)
    } else if selector.len() >= 2 && meta.code.starts_with(selector) {
        Some(selector.len())
    } else {
        None
    }
}

fn most_specific(meta: &RuleMeta, selectors: &[Spanned]) -> Option<usize> {
    selectors
        .iter()
        .filter_map(|selector| specificity(&selector.value, meta))
        .max()
}

fn check_selector(registry: &Registry, config: &Config, selector: &Spanned) -> Result<()> {
    if registry
        .rules
        .iter()
        .any(|rule| specificity(&selector.value, &rule.meta).is_some())
    {
        Ok(())
    } else {
        Err(unknown_rule(registry, config, selector))
    }
}

fn unknown_rule(registry: &Registry, config: &Config, selector: &Spanned) -> Error {
    let candidates = registry
        .rules
        .iter()
        .flat_map(|rule: &Registered| [rule.meta.code.as_str(), rule.meta.name.as_str()]);
    let error = config.error_at(&selector.span, format!("unknown rule `{}`", selector.value));
    match did_you_mean(&selector.value, candidates) {
        Some(close) => error.with_help(format!("did you mean `{close}`?")),
        None => error.with_help("`toolcheck rules` lists every rule; selectors are codes, code prefixes (`TC2`), names, families or `ALL`"),
    }
}

const UNUSED_SUPPRESSION: &str = "TC002";

impl Linter {
    /// Whether the rule selector `name` (code, name, prefix) covers the rule `code`.
    fn names_rule(&self, name: &str, code: &str) -> bool {
        self.metas
            .iter()
            .find(|meta| meta.code == code)
            .is_some_and(|meta| specificity(name, meta).is_some())
    }

    /// Whether a rule the selector names runs in this run: a suppression of a rule that is
    /// off here (another selection, say in CI) is not "unused".
    fn is_active(&self, name: &str) -> bool {
        self.rules
            .iter()
            .any(|active| self.names_rule(name, &active.code))
    }

    fn is_known(&self, name: &str) -> bool {
        self.metas
            .iter()
            .any(|meta| specificity(name, meta).is_some())
    }

    /// Moves suppressed findings aside, then reports suppressions that matched nothing
    /// (TC002): inline ones in their file, `per-file-ignores` in a report of the config file.
    fn suppress(&self, linted: &mut [Linted]) -> Option<FileReport> {
        let unused_rule = self
            .rules
            .iter()
            .find(|rule| &*rule.code == UNUSED_SUPPRESSION);
        let mut config_used: Vec<Vec<bool>> = self
            .per_file_ignores
            .iter()
            .map(|entry| vec![false; entry.rules.len()])
            .collect();
        for file in linted.iter_mut() {
            let name = file.report.file.name.replace('\\', "/");
            let matching: Vec<usize> = (0..self.per_file_ignores.len())
                .filter(|&index| self.per_file_ignores[index].glob.is_match(&name))
                .collect();
            let mut inline_used: Vec<Vec<bool>> = file
                .directives
                .iter()
                .map(|directive| vec![false; directive.rules.len()])
                .collect();
            let diagnostics = std::mem::take(&mut file.report.diagnostics);
            for diagnostic in diagnostics {
                // TC001 cannot be silenced: a file toolcheck cannot read is never clean.
                let silenceable = &*diagnostic.code != INVALID_MANIFEST.0;
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
                            .position(|rule| self.names_rule(&rule.name, &diagnostic.code))?;
                        covered.then_some((d, rule))
                    });
                let by_config = || {
                    matching.iter().find_map(|&index| {
                        let entry = &self.per_file_ignores[index];
                        let in_subtree = entry.pointer.as_deref().is_none_or(|pointer| {
                            diagnostic.pointer == pointer
                                || diagnostic.pointer.starts_with(&format!("{pointer}/"))
                        });
                        let rule = entry
                            .rules
                            .iter()
                            .position(|rule| self.names_rule(&rule.value, &diagnostic.code))?;
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
            if let Some(unused_rule) = unused_rule {
                let source = file.report.file.clone();
                for (directive, used) in file.directives.iter().zip(&inline_used) {
                    for finding in self.unused_directive(directive, used) {
                        file.report
                            .diagnostics
                            .push(unused_rule.diagnostic(&source, finding));
                    }
                }
                file.report
                    .diagnostics
                    .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            }
        }
        let (unused_rule, config) = (unused_rule?, self.config_file.as_ref()?);
        let mut diagnostics = Vec::new();
        for (entry, used) in self.per_file_ignores.iter().zip(&config_used) {
            for (rule, used) in entry.rules.iter().zip(used) {
                let Some(span) = rule.span.clone() else {
                    continue;
                };
                let message = if !self.is_known(&rule.value) {
                    format!("unknown rule `{}` in per-file-ignores", rule.value)
                } else if !used && self.is_active(&rule.value) {
                    format!(
                        "`{}` in per-file-ignores for `{}` suppressed nothing",
                        rule.value, entry.pattern.value
                    )
                } else {
                    continue;
                };
                let finding = suppression_finding(
                    message,
                    span,
                    "delete it, or fix the rule name or the pattern",
                );
                diagnostics.push(unused_rule.diagnostic(config, finding));
            }
        }
        (!diagnostics.is_empty()).then(|| FileReport {
            file: config.clone(),
            linted: false,
            tools: 0,
            skipped: 0,
            diagnostics,
            suppressed: Vec::new(),
        })
    }

    /// TC002 findings for one inline directive: malformed, unknown rules, unused rules.
    fn unused_directive(&self, directive: &Directive, used: &[bool]) -> Vec<Finding> {
        if let Some(problem) = &directive.problem {
            return vec![suppression_finding(
                problem.clone(),
                directive.span.clone(),
                "write `# toolcheck: ignore[rule-name]`, naming each rule it silences",
            )];
        }
        let mut findings = Vec::new();
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
            } else if [INVALID_MANIFEST.0, INVALID_MANIFEST.1].contains(&rule.name.as_str()) {
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
            findings.push(suppression_finding(message, rule.span.clone(), &help));
        }
        findings
    }
}

fn suppression_finding(message: String, span: Span, help: &str) -> Finding {
    Finding {
        message,
        help: Some(help.to_string()),
        label: None,
        field: Field::File,
        pointer: String::new(),
        span,
        tool: None,
        related: None,
        at_most: None,
    }
}
