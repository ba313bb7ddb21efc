//! Targets: what each provider, host and spec revision accepts, as sourced and dated data
//! (`targets/<name>.yaml`, embedded at build time). A run selects targets with `--target` or
//! `targets:`; the `targets` rules check the definitions against the selected profiles'
//! constraints. No target selected: those rules find nothing.

pub mod profile;
pub mod tool_search;
pub mod wire;

use std::collections::HashSet;
use std::fmt::Write;
use std::sync::{Arc, OnceLock};

use crate::error::{Error, Result};
use crate::options;
use crate::parse;
use crate::parse::source::SourceFile;
use profile::{Check, Effect, Kind, ProfileFile};

include!(concat!(env!("OUT_DIR"), "/targets.rs"));

/// Short names for the newest revision of a family.
const ALIASES: &[(&str, &str)] = &[("mcp", "mcp-2026-07-28")];

/// One constraint of a profile, resolved.
#[derive(Debug)]
pub struct Constraint {
    pub check: Check,
    pub effect: Effect,
    pub source: String,
    pub verified: String,
    pub note: Option<String>,
    /// The profile whose file states it (a host's constraint may come from its provider).
    pub from: Arc<str>,
}

/// A target profile with the constraints of the profiles it extends.
#[derive(Debug)]
pub struct Profile {
    pub name: Arc<str>,
    pub kind: Kind,
    pub title: String,
    pub extends: Vec<String>,
    pub readings: Vec<String>,
    /// How it counts tokens (its own, else its first parent's that has one).
    pub tokens: Option<profile::TokenCount>,
    /// A host's own tools (its own figure, never inherited).
    pub host_tools: Option<profile::HostTools>,
    /// How it defers and searches tools (its own, never inherited).
    pub tool_search: Vec<profile::Behaviour>,
    /// Its own constraints, then those it inherits.
    pub constraints: Vec<Arc<Constraint>>,
}

/// Every built-in profile, loaded once.
pub fn builtin() -> Result<&'static [Arc<Profile>]> {
    static LOADED: OnceLock<std::result::Result<Vec<Arc<Profile>>, String>> = OnceLock::new();
    LOADED
        .get_or_init(|| load_builtin().map_err(|error| error.to_string()))
        .as_deref()
        .map_err(|error| Error::new(format!("a built-in target profile is invalid: {error}")))
}

fn load_builtin() -> Result<Vec<Arc<Profile>>> {
    let files: Vec<ProfileFile> = BUILTIN_TARGETS
        .iter()
        .map(|(path, text)| read_file(path, text))
        .collect::<Result<_>>()?;
    let mut resolved: Vec<Arc<Profile>> = Vec::new();
    // Parents first: a profile only extends profiles resolved before it.
    let mut pending: Vec<&ProfileFile> = files.iter().collect();
    let mut failed = Vec::new();
    while !pending.is_empty() {
        let before = pending.len();
        pending.retain(|file| {
            let parents: Option<Vec<Arc<Profile>>> = file
                .extends
                .iter()
                .map(|parent| resolved.iter().find(|p| *p.name == **parent).cloned())
                .collect();
            let Some(parents) = parents else {
                return true;
            };
            match resolve(file, &parents) {
                Ok(profile) => resolved.push(Arc::new(profile)),
                Err(error) => failed.push(error),
            }
            false
        });
        if let Some(error) = failed.pop() {
            return Err(error);
        }
        if pending.len() == before {
            let names: Vec<&str> = pending.iter().map(|file| file.name.as_str()).collect();
            return Err(Error::new(format!(
                "`extends` names a profile that does not exist or a cycle: {}",
                names.join(", ")
            )));
        }
    }
    resolved.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(resolved)
}

fn read_file(path: &str, text: &str) -> Result<ProfileFile> {
    let file = SourceFile::new(path, text.to_string());
    let node =
        parse::yaml::parse(text).map_err(|error| Error::at(&file, error.span, error.message))?;
    // A key written twice would silently lose one of its values (a union merge of two
    // branches that both added `constraints:` did exactly that).
    let mut keys = HashSet::new();
    for entry in node.as_object().unwrap_or_default() {
        if !keys.insert(entry.key.as_str()) {
            return Err(Error::at(
                &file,
                entry.key_span(),
                format!("`{}` is written twice", entry.key),
            ));
        }
    }
    let profile: ProfileFile = options::deserialize(&node, Some(&file))?;
    let stem = path
        .rsplit('/')
        .next()
        .and_then(|name| name.strip_suffix(".yaml"));
    if stem != Some(profile.name.as_str()) {
        return Err(Error::new(format!(
            "{path}: `name: {}` must be the file's name",
            profile.name
        )));
    }
    Ok(profile)
}

fn resolve(file: &ProfileFile, parents: &[Arc<Profile>]) -> Result<Profile> {
    let name: Arc<str> = file.name.as_str().into();
    let mut constraints = Vec::new();
    for raw in &file.constraints {
        constraints.push(Arc::new(Constraint {
            check: parse_check(raw).map_err(|error| {
                Error::new(format!("{}: check `{}`: {error}", file.name, raw.check))
            })?,
            effect: raw.effect,
            source: raw.source.clone(),
            verified: raw.verified.clone(),
            note: raw.note.clone(),
            from: name.clone(),
        }));
    }
    for parent in parents {
        constraints.extend(parent.constraints.iter().cloned());
    }
    Ok(Profile {
        name,
        kind: file.kind,
        title: file.title.clone(),
        extends: file.extends.clone(),
        readings: file.readings.clone(),
        tokens: file
            .tokens
            .clone()
            .or_else(|| parents.iter().find_map(|parent| parent.tokens.clone())),
        host_tools: file.host_tools.clone(),
        tool_search: file.tool_search.clone(),
        constraints,
    })
}

/// `check: name` with its `value:` as the check enum reads it: `{name: value}`, or the bare
/// name for a check without a value.
fn parse_check(raw: &profile::RawConstraint) -> serde_json::Result<Check> {
    let value = match &raw.value {
        serde_json::Value::Null => serde_json::Value::String(raw.check.clone()),
        value => serde_json::json!({ raw.check.clone(): value.clone() }),
    };
    serde_json::from_value(value)
}

/// The built-in profile `name` (or alias), or an error that lists them.
pub fn find(name: &str) -> Result<Arc<Profile>> {
    let profiles = builtin()?;
    let name = ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name, |(_, target)| target);
    profiles
        .iter()
        .find(|profile| &*profile.name == name)
        .cloned()
        .ok_or_else(|| {
            let names = profiles.iter().map(|profile| &*profile.name);
            let error = Error::new(format!("unknown target `{name}`"));
            match crate::text::suggest::did_you_mean(name, names) {
                Some(close) => error.with_help(format!("did you mean `{close}`?")),
                None => error.with_help(format!("known targets: {}", known().join(", "))),
            }
        })
}

/// The profiles `names` name (a target or an alias each), each once, in the order first named:
/// how `--target` and `targets:` are read, by every command.
pub fn find_all(names: &[String]) -> Result<Vec<Arc<Profile>>> {
    let mut profiles: Vec<Arc<Profile>> = Vec::new();
    for name in names {
        let profile = find(name)?;
        if !profiles.iter().any(|known| known.name == profile.name) {
            profiles.push(profile);
        }
    }
    Ok(profiles)
}

/// The names of the built-in profiles, and the aliases.
pub fn known() -> Vec<String> {
    let mut names: Vec<String> = builtin()
        .map(|profiles| profiles.iter().map(|p| p.name.to_string()).collect())
        .unwrap_or_default();
    names.extend(ALIASES.iter().map(|(alias, _)| alias.to_string()));
    names
}

/// The targets of a run: the selected profiles, and the server name hosts prefix tool names
/// with (`--server-name`; else each file's own).
#[derive(Debug, Default)]
pub struct Targets {
    pub selected: Vec<Arc<Profile>>,
    pub server_name: Option<String>,
    active: Vec<Active>,
}

/// A constraint a run checks, and the selected target that brought it in.
#[derive(Debug)]
pub struct Active {
    pub target: Arc<str>,
    pub constraint: Arc<Constraint>,
}

impl Active {
    /// Who enforces it, for a message: `anthropic`, or `anthropic (via claude-code)` when the
    /// selected target inherits the constraint.
    pub fn who(&self) -> String {
        if self.constraint.from == self.target {
            format!("`{}`", self.target)
        } else {
            format!("`{}` (via `{}`)", self.constraint.from, self.target)
        }
    }

    /// Where the fact comes from, for a help: `source: URL (verified 2026-08-22)`.
    pub fn cite(&self) -> String {
        let constraint = &self.constraint;
        let mut cite = format!(
            "source: {} (verified {})",
            constraint.source, constraint.verified
        );
        if let Some(note) = &constraint.note {
            let _ = write!(cite, "; {note}");
        }
        cite
    }
}

static NO_TARGETS: Targets = Targets {
    selected: Vec::new(),
    server_name: None,
    active: Vec::new(),
};

impl Targets {
    /// The run without targets.
    pub fn none() -> &'static Targets {
        &NO_TARGETS
    }

    /// The named targets (in the order given; repeats count once).
    pub fn select(names: &[String], server_name: Option<String>) -> Result<Targets> {
        let selected = find_all(names)?;
        // A constraint that two selected targets share (a host and its provider) is checked
        // once, for the first.
        let mut seen = HashSet::new();
        let mut active = Vec::new();
        for profile in &selected {
            for constraint in &profile.constraints {
                if seen.insert(Arc::as_ptr(constraint)) {
                    active.push(Active {
                        target: profile.name.clone(),
                        constraint: constraint.clone(),
                    });
                }
            }
        }
        Ok(Targets {
            selected,
            server_name,
            active,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.selected.is_empty()
    }

    /// Every constraint to check, each once.
    pub fn constraints(&self) -> &[Active] {
        &self.active
    }

    /// The constraints whose check `matches`.
    pub fn checks<'t>(
        &'t self,
        matches: impl Fn(&Check) -> bool + 't,
    ) -> impl Iterator<Item = &'t Active> + 't {
        self.active
            .iter()
            .filter(move |active| matches(&active.constraint.check))
    }
}

/// `toolcheck explain --target NAME`: the profile, each constraint with its source and date.
pub fn explain(profile: &Profile) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {} ({})", profile.name, profile.kind.as_str());
    let _ = writeln!(out, "\n{}", profile.title);
    if !profile.extends.is_empty() {
        let _ = writeln!(
            out,
            "\nExtends: {} (their constraints apply too, listed after its own).",
            profile.extends.join(", ")
        );
    }
    if !profile.readings.is_empty() {
        let _ = writeln!(out, "\n## Where sources disagree\n");
        for reading in &profile.readings {
            let _ = writeln!(out, "- {reading}");
        }
    }
    if let Some(tokens) = &profile.tokens {
        let kind = match tokens.approximate {
            true => "an estimate (≈): the tokenizer is not published",
            false => "exact",
        };
        let _ = writeln!(out, "\n## Token counts\n");
        let _ = writeln!(out, "- {}: {kind}", tokens.method());
        write_cited(
            &mut out,
            &tokens.source,
            &tokens.verified,
            tokens.note.as_deref(),
        );
    }
    if let Some(host) = &profile.host_tools {
        let _ = writeln!(out, "\n## Its own tools\n");
        let _ = writeln!(
            out,
            "- ≈ {} tokens loaded, ≈ {} deferred ({}), beside the tools it loads",
            crate::text::group_digits(host.loaded),
            crate::text::group_digits(host.deferred),
            host.version
        );
        write_cited(&mut out, &host.source, &host.verified, host.note.as_deref());
    }
    if !profile.tool_search.is_empty() {
        let _ = writeln!(out, "\n## Deferral and tool search\n");
        for behaviour in &profile.tool_search {
            let _ = writeln!(out, "- {}", behaviour.behaviour);
            let _ = writeln!(out, "  toolcheck: {}", behaviour.modelled_by);
            write_cited(
                &mut out,
                &behaviour.source,
                &behaviour.verified,
                behaviour.note.as_deref(),
            );
        }
    }
    let _ = writeln!(out, "\n## Constraints\n");
    for constraint in &profile.constraints {
        let inherited = match constraint.from == profile.name {
            true => String::new(),
            false => format!(" (from {})", constraint.from),
        };
        let _ = writeln!(
            out,
            "- {}{inherited}: {}",
            describe(&constraint.check),
            effect_text(constraint.effect)
        );
        write_cited(
            &mut out,
            &constraint.source,
            &constraint.verified,
            constraint.note.as_deref(),
        );
    }
    out
}

/// The `source:` line of a fact in `explain --target`, and its note.
fn write_cited(out: &mut String, source: &str, verified: &str, note: Option<&str>) {
    let _ = writeln!(out, "  source: {source} (verified {verified})");
    if let Some(note) = note {
        let _ = writeln!(out, "  note: {note}");
    }
}

fn effect_text(effect: Effect) -> &'static str {
    match effect {
        Effect::Rejected => "otherwise the request is rejected",
        Effect::Dropped => "otherwise the tool is dropped",
        Effect::Truncated => "the model never reads the rest",
        Effect::Rewritten => "the model sees the rewritten name",
        Effect::Nonconforming => "otherwise the server does not conform",
        Effect::Ignored => "elsewhere it is ignored",
    }
}

/// One line of plain English for a check and its value.
pub fn describe(check: &Check) -> String {
    use profile::{EnumValues, Place};
    let list = |items: &[String]| {
        items
            .iter()
            .map(|item| format!("`{item}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match check {
        Check::WireName(wire) => describe_wire_name(wire),
        Check::ToolName(name) => describe_tool_name(name),
        Check::Keywords(keywords) => {
            let place = match keywords.at {
                Place::Root => "at the schema root",
                Place::BelowRoot => "below the schema root",
                Place::Anywhere => "anywhere in the schema",
            };
            format!("no {} {place}", list(&keywords.keywords))
        }
        Check::AllowedKeywords(keywords) => {
            format!("only these schema keywords: {}", list(keywords))
        }
        Check::TypeArray => "no `type` written as a list (`[\"string\", \"null\"]`)".into(),
        Check::EnumValues(EnumValues::Strings) => "`enum` values are strings only".into(),
        Check::EnumValues(EnumValues::Primitives) => {
            "`enum` values are strings, numbers, booleans or null".into()
        }
        Check::RefSiblings => "no keywords beside `$ref`".into(),
        Check::ExternalRef => "`$ref` points inside the same schema only".into(),
        Check::Recursion => "no recursive `$ref`".into(),
        Check::DefsBelowRoot => "`$defs` only at the schema root".into(),
        Check::Formats(formats) => format!("string `format` only {}", list(formats)),
        Check::MaxMinItems(max) => format!("`minItems` at most {max}"),
        Check::ClosedObjects => "every object has `additionalProperties: false`".into(),
        Check::AllRequired => "every property is listed in `required`".into(),
        Check::MaxNesting(max) => format!("at most {max} levels of nesting"),
        Check::MaxProperties(max) => format!("at most {max} object properties per schema"),
        Check::MaxEnumValues(max) => format!("at most {max} enum values per schema"),
        Check::MaxSchemaChars(max) => format!(
            "at most {max} characters of property names, definition names, enum and const \
             values per schema"
        ),
        Check::MaxLargeEnumChars(large) => format!(
            "a string enum of more than {} values has at most {} characters",
            large.over, large.max
        ),
        Check::MaxOptionalParameters(max) => {
            format!("at most {max} optional parameters across the strict tools of a request")
        }
        Check::MaxUnionParameters(max) => format!(
            "at most {max} union-typed parameters (type lists or `anyOf`) across the strict \
             tools of a request"
        ),
        Check::MaxStrictTools(max) => format!("at most {max} strict tools per request"),
        Check::TruncateBytes(cut) => {
            format!("{} are cut after {} bytes", list(&cut.fields), cut.bytes)
        }
        Check::MaxTools(max) => format!("at most {max} tools"),
        Check::NotAllDeferred => "at least one tool is not deferred (`defer_loading`)".into(),
        Check::DeferLoadingIn(shapes) => format!(
            "`defer_loading` is read only on tools written as {}: every other tool is loaded \
             with every request",
            list(shapes)
        ),
        Check::SnippetRequired => {
            "a tool without a snippet is left out of the system prompt's tool list".into()
        }
        Check::RootType(ty) => format!("the schema root is `\"type\": \"{ty}\"`"),
        Check::RefInAllOf => "no `$ref` in an `allOf` branch".into(),
    }
}

/// How a host builds the name it sends: its template, then each rewrite in order.
fn describe_wire_name(wire: &profile::WireName) -> String {
    let mut text = format!("tool names are sent as `{}`", wire.template);
    if let Some(server) = &wire.server {
        let _ = write!(text, " with the server name");
        if server.lower {
            let _ = write!(text, " lower-cased");
        }
        if let Some(keep) = &server.keep {
            let _ = write!(text, ", each run of characters outside [{keep}] as one `_`");
        }
        if let Some(max) = server.max {
            let _ = write!(text, ", cut to {max} characters");
        }
    }
    if let Some(prefix) = &wire.prefix {
        let _ = write!(text, ", `{prefix}` prepended unless already there");
    }
    if let Some(keep) = &wire.keep {
        let _ = write!(text, ", characters outside [{keep}] become `_`");
    }
    if let Some(replace) = &wire.replace {
        let _ = write!(text, ", characters of [{replace}] become `_`");
    }
    if let Some(first) = &wire.first {
        let _ = write!(
            text,
            ", `_` is prepended unless the name starts with [{first}]"
        );
    }
    if let (Some(over), Some(keep)) = (wire.shorten_over, wire.shorten_keep) {
        let _ = write!(
            text,
            ", names over {over} characters are cut to their first and last {keep} \
             around `...`"
        );
    }
    if let Some(cut) = wire.cut {
        let _ = write!(text, ", names are cut after {cut} characters");
    }
    text
}

/// The length and characters a tool name may have.
fn describe_tool_name(name: &profile::ToolName) -> String {
    let counted = name.counted.as_deref().unwrap_or("the name on the wire");
    let mut text = format!("{counted}: 1 to {} characters", name.max_length);
    if let Some(charset) = &name.charset {
        let _ = write!(text, " of [{charset}]");
    }
    if let Some(first) = &name.first {
        let _ = write!(text, ", starting with [{first}]");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_profile_loads_with_every_constraint() {
        for (path, text) in BUILTIN_TARGETS {
            let file = read_file(path, text).unwrap_or_else(|error| panic!("{path}: {error}"));
            for raw in &file.constraints {
                if let Err(error) = parse_check(raw) {
                    panic!("{path}: check `{}`: {error}", raw.check);
                }
                assert!(
                    raw.verified.len() == 10 && raw.verified.as_bytes()[4] == b'-',
                    "{path}: `verified: {}` is not YYYY-MM-DD",
                    raw.verified
                );
            }
        }
        assert_eq!(builtin().unwrap().len(), BUILTIN_TARGETS.len());
    }

    #[test]
    fn a_host_counts_tokens_as_its_provider_does() {
        let claude_code = find("claude-code").unwrap();
        let tokens = claude_code.tokens.as_ref().unwrap();
        assert!(tokens.approximate);
        assert_eq!(tokens.scale(100), 125);
        assert_eq!(tokens.method(), "o200k_base × 1.25 + 497 per request");
        let openai = find("openai").unwrap();
        let tokens = openai.tokens.as_ref().unwrap();
        assert!(!tokens.approximate);
        assert_eq!(tokens.scale(100), 100);
        assert_eq!(tokens.method(), "o200k_base + 7 per tool + 12 per request");
        // A host whose model varies has no count of its own.
        assert!(find("cursor").unwrap().tokens.is_none());
    }

    #[test]
    fn an_unknown_target_suggests_the_closest() {
        let error = find("cursr").unwrap_err().to_string();
        assert!(error.contains("unknown target `cursr`"), "{error}");
    }
}
