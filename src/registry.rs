//! The one list of rules: Rust rules named below, declarative rules embedded from `rules/`
//! at build time, and a team's own rule files from `rulesets:` directories.

use std::sync::Arc;

use crate::declarative::{DeclarativeRule, Examples};
use crate::error::{Error, Result};
use crate::options;
use crate::rule::{Origin, Rule, RuleMeta, RustRule};
use crate::rules;
use crate::source::SourceFile;
use crate::syntax::Node;

include!(concat!(env!("OUT_DIR"), "/builtin_rules.rs"));

/// The Rust rules. Adding a Rust rule means one line here.
fn rust_rules() -> Vec<Registered> {
    macro_rules! rust_rules {
        ($($rule:ty),* $(,)?) => { vec![$(Registered::rust::<$rule>()),*] };
    }
    rust_rules![
        rules::meta::InvalidManifest,
        rules::meta::UnusedSuppression,
        rules::schema::NonObjectRoot,
        rules::schema::SchemaEnforcedMinimum,
        rules::schema::InvalidJsonSchema,
        rules::schema::RuntimeLimitNotStated,
        rules::schema::LimitMismatch,
        rules::budget::GuidelinesTooLong,
        rules::budget::ToolTooLong,
        rules::budget::ToolsetTooLarge,
        rules::budget::TooManyTools,
        rules::budget::ResultsTooLong,
        rules::names::DuplicateToolName,
    ]
}

type RustBuilder = fn(Option<&Node>, Option<&Arc<SourceFile>>) -> Result<Box<dyn Rule>>;

enum Builder {
    Rust(RustBuilder),
    Yaml(Box<DeclarativeRule>),
}

/// A rule in the registry: its metadata and how to build it with options.
pub struct Registered {
    pub meta: RuleMeta,
    builder: Builder,
}

impl Registered {
    fn rust<R: RustRule>() -> Registered {
        fn build<R: RustRule>(
            options: Option<&Node>,
            file: Option<&Arc<SourceFile>>,
        ) -> Result<Box<dyn Rule>> {
            let rule: R = match options {
                Some(node) => options::deserialize(node, file)?,
                None => R::default(),
            };
            Ok(Box::new(rule))
        }
        Registered {
            meta: R::meta(),
            builder: Builder::Rust(build::<R>),
        }
    }

    fn yaml(rule: DeclarativeRule) -> Registered {
        Registered {
            meta: rule.meta.clone(),
            builder: Builder::Yaml(Box::new(rule)),
        }
    }

    /// Builds the rule with `options` (from `rules.options.<name>` in `file`).
    pub fn build(
        &self,
        options: Option<&Node>,
        file: Option<&Arc<SourceFile>>,
    ) -> Result<Box<dyn Rule>> {
        match &self.builder {
            Builder::Rust(build) => build(options, file),
            Builder::Yaml(rule) => rule.build(options, file),
        }
    }

    /// The embedded examples of a declarative rule.
    pub fn examples(&self) -> Option<&Examples> {
        match &self.builder {
            Builder::Yaml(rule) => Some(&rule.examples),
            Builder::Rust(_) => None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self.meta.origin {
            Origin::Rust(_) => "rust",
            Origin::Yaml(_) => "yaml",
        }
    }
}

pub struct Registry {
    /// Sorted by code.
    pub rules: Vec<Registered>,
}

impl Registry {
    /// The built-in rules.
    pub fn builtin() -> Result<Registry> {
        let mut rules = rust_rules();
        for (path, text) in BUILTIN_RULES {
            let file = SourceFile::new(*path, text.to_string());
            rules.push(Registered::yaml(DeclarativeRule::load(&file, true)?));
        }
        let mut registry = Registry { rules };
        registry.finish()?;
        Ok(registry)
    }

    /// Adds a team's rule files from `dirs`.
    pub fn add_rulesets(&mut self, dirs: &[std::path::PathBuf]) -> Result<()> {
        for dir in dirs {
            for rule in DeclarativeRule::load_dir(dir)? {
                self.rules.push(Registered::yaml(rule));
            }
        }
        self.finish()
    }

    /// Sorts, and rejects duplicate codes or names.
    fn finish(&mut self) -> Result<()> {
        self.rules.sort_by(|a, b| a.meta.code.cmp(&b.meta.code));
        for pair in self.rules.windows(2) {
            if pair[0].meta.code == pair[1].meta.code {
                return Err(duplicate(
                    "code",
                    &pair[0].meta.code,
                    &pair[0].meta,
                    &pair[1].meta,
                ));
            }
        }
        let mut names: Vec<&RuleMeta> = self.rules.iter().map(|rule| &rule.meta).collect();
        names.sort_by(|a, b| a.name.cmp(&b.name));
        for pair in names.windows(2) {
            if pair[0].name == pair[1].name {
                return Err(duplicate("name", &pair[0].name, pair[0], pair[1]));
            }
        }
        Ok(())
    }

    /// The rule with this code or name.
    pub fn find(&self, code_or_name: &str) -> Option<&Registered> {
        self.rules
            .iter()
            .find(|rule| rule.meta.code == code_or_name || rule.meta.name == code_or_name)
    }
}

fn duplicate(what: &str, value: &str, first: &RuleMeta, second: &RuleMeta) -> Error {
    Error::new(format!(
        "two rules share the {what} `{value}`: {} and {}",
        origin(first),
        origin(second)
    ))
    .with_help("rule codes and names must be unique; rename one of them")
}

fn origin(meta: &RuleMeta) -> String {
    match &meta.origin {
        Origin::Rust(file) => format!("`{}` ({file})", meta.name),
        Origin::Yaml(file) => format!("`{}` ({file})", meta.name),
    }
}
