//! Reading one catalog entry (a rule file): its fields, checked with errors that point into
//! the file.

use std::sync::Arc;

use serde::Deserialize;

use super::declarative::{self, DeclarativeRule, FunctionName, Given};
use super::{Check, Family, NativeBuilder, Registered, RuleMeta};
use crate::diagnostic::Severity;
use crate::error::{Error, Result};
use crate::options;
use crate::options::Options;
use crate::parse;
use crate::parse::source::SourceFile;
use crate::parse::{Node, Span};

/// A rule file as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleFile {
    code: String,
    name: String,
    family: Family,
    severity: Severity,
    summary: String,
    docs: String,
    #[serde(default, deserialize_with = "declarative::one_or_many")]
    given: Vec<Given>,
    then: Then,
    message: Option<String>,
    help: Option<String>,
    label: Option<String>,
    /// The rule attaches fixes to its findings (`lint --fix`).
    #[serde(default)]
    fixable: bool,
}

/// How the rule checks: one declarative `function`, or (built-in rules only) the `native`
/// check at `src/rules/<family>/<rule_name>.rs`; either way with default `options`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Then {
    function: Option<FunctionName>,
    native: Option<String>,
    #[serde(default)]
    options: Options,
}

/// A built-in entry; `native` is its check when `build.rs` found one. Its default options are
/// not built here: they are fixed at compile time, and every run would pay for compiling the
/// patterns of unselected rules; `Registry::build_defaults` checks them (tests/registry.rs).
pub(super) fn load(file: &Arc<SourceFile>, native: Option<NativeBuilder>) -> Result<Registered> {
    read(file, true, native)
}

/// A team's own entry, from a `rulesets:` directory.
pub(super) fn load_team(file: &Arc<SourceFile>) -> Result<Registered> {
    read(file, false, None)
}

fn read(
    file: &Arc<SourceFile>,
    builtin: bool,
    native: Option<NativeBuilder>,
) -> Result<Registered> {
    let node = parse::yaml::parse(&file.text).map_err(|error| {
        Error::at(
            file,
            error.span,
            format!("invalid rule file: {}", error.message),
        )
    })?;
    let spec: RuleFile = options::deserialize(&node, Some(file))?;
    check_code_and_name(file, &node, &spec, builtin)?;
    let check = match (spec.then.function, &spec.then.native, native) {
        (Some(function), None, _) => {
            Check::Declarative(declarative_rule(file, &node, &spec, function, builtin)?)
        }
        (None, Some(_), Some(build)) => Check::Native(build),
        (None, Some(path), None) => {
            let help = if builtin {
                "a native check is `src/rules/<family>/<rule_name>.rs`; build.rs links it"
            } else {
                "a team's rules use a `function`; native checks are compiled into toolcheck"
            };
            return Err(Error::at(
                file,
                then_span(&node, "native"),
                format!("no native check `{path}`"),
            )
            .with_help(help));
        }
        _ => {
            return Err(Error::at(
                file,
                key_span(&node, "then"),
                "`then` needs exactly one of `function` and `native`",
            ));
        }
    };
    Ok(Registered {
        meta: RuleMeta {
            code: spec.code,
            name: spec.name,
            family: spec.family,
            default_severity: spec.severity,
            summary: spec.summary,
            docs: spec.docs,
            source: file.name.clone(),
            native: spec.then.native,
            fixable: spec.fixable,
        },
        defaults: spec.then.options,
        check,
    })
}

/// Where `key` is written, else the whole file.
fn key_span(node: &Node, key: &str) -> Span {
    node.get(key).map(|n| n.span()).unwrap_or(node.span())
}

/// Where `then.key` is written, else `then`, else the whole file.
fn then_span(node: &Node, key: &str) -> Span {
    node.get("then")
        .and_then(|then| then.get(key).or(Some(then)))
        .map_or(node.span(), |n| n.span())
}

/// A built-in code is `TC` and three digits, a team's its own prefix; a name is kebab-case.
fn check_code_and_name(
    file: &Arc<SourceFile>,
    node: &Node,
    spec: &RuleFile,
    builtin: bool,
) -> Result<()> {
    let code_ok = if builtin {
        is_code(&spec.code, "TC")
    } else {
        !spec.code.starts_with("TC") && is_code(&spec.code, "")
    };
    if !code_ok {
        let help = if builtin {
            "built-in codes are `TC` and three digits"
        } else {
            "a team's own rules use their own prefix and digits, e.g. `X001`; `TC` is reserved"
        };
        return Err(Error::at(
            file,
            key_span(node, "code"),
            format!("invalid rule code `{}`", spec.code),
        )
        .with_help(help));
    }
    if !is_kebab(&spec.name) {
        return Err(Error::at(
            file,
            key_span(node, "name"),
            format!("rule name `{}` is not kebab-case", spec.name),
        ));
    }
    Ok(())
}

/// The declarative check of an entry with a `function`: its `given` and `message` present,
/// its paths (and a team's options) valid, and not `fixable`.
fn declarative_rule(
    file: &Arc<SourceFile>,
    node: &Node,
    spec: &RuleFile,
    function: FunctionName,
    builtin: bool,
) -> Result<DeclarativeRule> {
    // What serde said when both were required of every entry.
    let missing = |field: &str| Error::at(file, node.span(), format!("missing field `{field}`"));
    if spec.given.is_empty() {
        return Err(missing("given"));
    }
    let Some(message) = spec.message.clone() else {
        return Err(missing("message"));
    };
    let rule = DeclarativeRule {
        given: spec.given.clone(),
        function,
        message,
        help: spec.help.clone(),
        label: spec.label.clone(),
    };
    let validated = if builtin {
        rule.validate_given()
    } else {
        rule.validate(&spec.then.options)
    };
    validated.map_err(|message| {
        let span = if message.starts_with("function") {
            key_span(node, "given")
        } else {
            then_span(node, "options")
        };
        let message = if message.starts_with("function") {
            message
        } else {
            format!("invalid options for `{function:?}`: {message}").to_lowercase()
        };
        Error::at(file, span, message)
    })?;
    if spec.fixable {
        return Err(Error::at(
            file,
            key_span(node, "fixable"),
            "a rule with a `function` cannot be `fixable`",
        )
        .with_help("fixes come from native checks compiled into toolcheck; remove `fixable`"));
    }
    Ok(rule)
}

fn is_code(code: &str, prefix: &str) -> bool {
    let Some(rest) = code.strip_prefix(prefix) else {
        return false;
    };
    let letters = rest.chars().take_while(|c| c.is_ascii_uppercase()).count();
    let digits = &rest[letters..];
    (prefix.is_empty() == (letters > 0))
        && digits.len() == 3
        && digits.chars().all(|c| c.is_ascii_digit())
}

fn is_kebab(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && !name.ends_with('-')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}
