//! The rule engine: resolves selection, severities and options once, then lints files,
//! in parallel, with output in a deterministic order.

use std::path::Path;
use std::sync::Arc;

use crate::config::{Config, Level, Spanned};
use crate::diagnostic::{Diagnostic, Field, Related, Severity};
use crate::error::{Error, Result};
use crate::model::{self, ShapeError};
use crate::registry::{Registered, Registry};
use crate::rule::{Ctx, Finding, Rule, RuleMeta};
use crate::source::SourceFile;
use crate::suggest::did_you_mean;
use crate::syntax::{self, Span};
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
}

/// What linting one file found.
#[derive(Debug)]
pub struct FileReport {
    pub file: Arc<SourceFile>,
    pub tools: usize,
    pub skipped: usize,
    pub diagnostics: Vec<Diagnostic>,
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
        Ok(Linter {
            rules,
            encoding: overrides.tokenizer.unwrap_or(config.tokenizer),
        })
    }

    /// Lints one file's text. `json` says whether to read it as JSON (else YAML).
    pub fn lint(&self, file: Arc<SourceFile>, json: bool) -> FileReport {
        let parsed = if json {
            syntax::json::parse(&file.text)
        } else {
            syntax::yaml::parse(&file.text)
        };
        let root = match parsed {
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
                return FileReport {
                    file,
                    tools: 0,
                    skipped: 0,
                    diagnostics: vec![diagnostic],
                };
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
            diagnostics.extend(ctx.take_findings().into_iter().map(|finding| {
                diagnostic(&file, &active.code, &active.name, active.severity, finding)
            }));
        }
        diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        FileReport {
            tools: set.tools.len(),
            skipped: set.skipped,
            file,
            diagnostics,
        }
    }

    /// Lints every input on all cores; reports come back in input order.
    pub fn lint_all(&self, inputs: Vec<Input>) -> Vec<FileReport> {
        crate::parallel::map_in_order(inputs, |input| self.lint_input(input))
    }

    fn lint_input(&self, input: Input) -> FileReport {
        let json = input.is_json();
        match String::from_utf8(input.bytes) {
            Ok(text) => self.lint(SourceFile::new(input.name, text), json),
            Err(error) => {
                let offset = error.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(error.as_bytes()).into_owned();
                let file = SourceFile::new(input.name, text);
                let diagnostic = invalid_manifest(
                    &file,
                    format!("the file is not valid UTF-8 (invalid byte at offset {offset})"),
                    Some("save the file as UTF-8".to_string()),
                    offset..offset + 1,
                    String::new(),
                    Field::File,
                    None,
                );
                FileReport {
                    file,
                    tools: 0,
                    skipped: 0,
                    diagnostics: vec![diagnostic],
                }
            }
        }
    }
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
            .map(|(message, span)| Related {
                message,
                file: file.clone(),
                span,
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
