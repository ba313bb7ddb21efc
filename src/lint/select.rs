//! Selection and severity: which rules run, at which severity, with which options, resolved
//! once per run from the config file and the command line.

use std::sync::Arc;

use crate::catalog::{Registered, Registry, RuleMeta, RuleSetting};
use crate::config::{Config, Level, Spanned};
use crate::diagnostic::Severity;
use crate::error::{Error, Result};
use crate::rule::{ActiveRule, Rule};
use crate::rules::meta::invalid_manifest::InvalidManifest;
use crate::targets::Targets;
use crate::text::suggest::did_you_mean;
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
    /// Replaces `targets:` when given.
    pub targets: Option<Vec<String>>,
    /// The server name hosts prefix tool names with (`--server-name`).
    pub server_name: Option<String>,
}

/// The rules of a run, resolved.
pub(crate) struct Selection {
    /// The rules that run, in code order, each with its check built with its options.
    pub rules: Vec<(ActiveRule, Box<dyn Rule>)>,
    /// `invalid-manifest`, which the engine reports itself and which always runs.
    pub invalid_manifest: ActiveRule,
    /// Every rule of the registry as this run resolved it, off ones included.
    pub settings: Vec<RuleSetting>,
    /// The targets the `targets` rules check against.
    pub targets: Targets,
    /// The config's sessions (`sessions:`).
    pub sessions: crate::config::sessions::Sessions,
}

/// The selectors of a run: the config's, then the command line's.
struct Selectors {
    select: Vec<Spanned>,
    ignore: Vec<Spanned>,
    severities: Vec<(Spanned, Level)>,
}

impl Selectors {
    fn of(config: &Config, overrides: &Overrides) -> Self {
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
        Selectors {
            select,
            ignore,
            severities,
        }
    }

    /// Every unknown selector, every attempt to turn `invalid-manifest` off and every option
    /// of an unknown rule; the config's `select` too when `--select` replaces it.
    fn errors(
        &self,
        registry: &Registry,
        config: &Config,
        overrides: &Overrides,
        invalid_manifest: &RuleMeta,
    ) -> Vec<Error> {
        let mut errors = Vec::new();
        let overridden = overrides.select.as_ref().and(config.select.as_ref());
        for selector in self
            .select
            .iter()
            .chain(overridden.into_iter().flatten())
            .chain(&self.ignore)
            .chain(self.severities.iter().map(|(s, _)| s))
        {
            errors.extend(check_selector(registry, config, selector).err());
        }
        for selector in self.ignore.iter().chain(
            self.severities
                .iter()
                .filter(|(_, level)| *level == Level::Off)
                .map(|(s, _)| s),
        ) {
            if invalid_manifest.is_named(&selector.value) {
                errors.push(
                    config
                        .error_at(
                            &selector.span,
                            format!(
                                "`{}` ({}) cannot be disabled",
                                invalid_manifest.name, invalid_manifest.code
                            ),
                        )
                        .with_help(
                            "a file toolcheck cannot read cannot be checked by any other rule",
                        ),
                );
            }
        }
        for (rule, _) in &config.options {
            if registry.find(&rule.value).is_none() {
                errors.push(unknown_rule(registry, config, rule));
            }
        }
        errors
    }

    /// The rule's severity in this run, `None` when it is off (not selected, ignored, or set
    /// to `off`): the most specific selector wins, and among equals the last.
    fn severity(&self, meta: &RuleMeta) -> Option<Severity> {
        let selected = most_specific(meta, &self.select).is_some_and(|chosen| {
            most_specific(meta, &self.ignore).is_none_or(|ignored| ignored < chosen)
        });
        if !selected {
            return None;
        }
        let level = self
            .severities
            .iter()
            .enumerate()
            .filter_map(|(index, (selector, level))| {
                meta.specificity(&selector.value)
                    .map(|specific| ((specific, index), *level))
            })
            .max_by_key(|(rank, _)| *rank)
            .map(|(_, level)| level);
        match level {
            None => Some(meta.default_severity),
            Some(Level::Off) => None,
            Some(Level::Error) => Some(Severity::Error),
            Some(Level::Warning) => Some(Severity::Warning),
            Some(Level::Info) => Some(Severity::Info),
        }
    }
}

impl Selection {
    pub fn resolve(registry: &Registry, config: &Config, overrides: &Overrides) -> Result<Self> {
        let selectors = Selectors::of(config, overrides);
        let invalid_manifest = registry.native::<InvalidManifest>();
        // Every unknown selector and bad option is reported at once, with the config's errors.
        let mut errors = selectors.errors(registry, config, overrides, invalid_manifest);

        let mut rules = Vec::new();
        let mut settings = Vec::new();
        for registered in &registry.rules {
            let meta = &registered.meta;
            let options = config
                .options
                .iter()
                .rev()
                .find(|(rule, _)| meta.is_named(&rule.value))
                .map(|(_, node)| node);
            // Build even when disabled, so bad options are reported either way.
            let rule = match registered.build(options, config.file.as_ref()) {
                Ok(rule) => rule,
                Err(error) => {
                    errors.push(error);
                    continue;
                }
            };
            let severity = match meta.code == invalid_manifest.code {
                true => Some(meta.default_severity),
                false => selectors.severity(meta),
            };
            settings.push(RuleSetting {
                code: meta.code.clone(),
                name: meta.name.clone(),
                severity,
                // The rule was built from these options, so they merge.
                options: registered
                    .options(options, config.file.as_ref())
                    .unwrap_or_default(),
            });
            if let Some(severity) = severity
                && meta.code != invalid_manifest.code
            {
                rules.push((active(meta, severity), rule));
            }
        }
        let targets = resolve_targets(config, overrides).unwrap_or_else(|error| {
            errors.push(error);
            Targets::default()
        });
        let sessions = crate::config::sessions::Sessions::resolve(config).unwrap_or_else(|error| {
            errors.push(error);
            Default::default()
        });
        Error::collect(errors)?;
        Ok(Selection {
            rules,
            invalid_manifest: active(invalid_manifest, invalid_manifest.default_severity),
            settings,
            targets,
            sessions,
        })
    }
}

/// `--target` when given, else the config's `targets:` (an error pointing at the one it names).
fn resolve_targets(config: &Config, overrides: &Overrides) -> Result<Targets> {
    match &overrides.targets {
        Some(names) => Targets::select(names, overrides.server_name.clone()),
        None => {
            let names: Vec<String> = config.targets.iter().map(|t| t.value.clone()).collect();
            Targets::select(&names, overrides.server_name.clone()).map_err(|error| {
                // Point at the target the config names, when it is one of its.
                let at = config
                    .targets
                    .iter()
                    .find(|t| error.to_string().contains(&format!("`{}`", t.value)));
                match at {
                    Some(target) => config.error_at(&target.span, error.to_string()),
                    None => error,
                }
            })
        }
    }
}

pub(crate) fn active(meta: &RuleMeta, severity: Severity) -> ActiveRule {
    ActiveRule {
        code: Arc::from(meta.code.as_str()),
        name: Arc::from(meta.name.as_str()),
        severity,
    }
}

fn most_specific(meta: &RuleMeta, selectors: &[Spanned]) -> Option<usize> {
    selectors
        .iter()
        .filter_map(|selector| meta.specificity(&selector.value))
        .max()
}

fn check_selector(registry: &Registry, config: &Config, selector: &Spanned) -> Result<()> {
    if registry
        .rules
        .iter()
        .any(|rule| rule.meta.specificity(&selector.value).is_some())
    {
        Ok(())
    } else {
        Err(unknown_rule(registry, config, selector))
    }
}

fn unknown_rule(registry: &Registry, config: &Config, selector: &Spanned) -> Error {
    // Codes, names and families: `wordng` is a family misspelt.
    let candidates = registry.rules.iter().flat_map(|rule: &Registered| {
        [
            rule.meta.code.as_str(),
            rule.meta.name.as_str(),
            rule.meta.family.as_str(),
        ]
    });
    let error = config.error_at(&selector.span, format!("unknown rule `{}`", selector.value));
    match did_you_mean(&selector.value, candidates) {
        Some(close) => error.with_help(format!("did you mean `{close}`?")),
        None => error.with_help("`toolcheck rules` lists every rule; selectors are codes, code prefixes (`TC2`), names, families or `ALL`"),
    }
}
