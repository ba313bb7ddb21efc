//! A target profile as written in `targets/<name>.yaml`: what one provider, host or spec
//! revision accepts, one sourced and dated constraint at a time. The `targets` rules
//! (`src/rules/targets/`) read the constraints; `toolcheck explain --target NAME` prints them.

use serde::Deserialize;
use serde_json::Value;

/// A profile file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ProfileFile {
    pub name: String,
    pub kind: Kind,
    /// One line: what the target is.
    pub title: String,
    /// Profiles whose constraints this one inherits (a host inherits its provider's).
    #[serde(default)]
    pub extends: Vec<String>,
    /// Sources that disagree and the reading this profile takes (`providers.md` §8).
    #[serde(default)]
    pub readings: Vec<String>,
    /// How the target counts tokens; a profile without inherits its first parent's.
    #[serde(default)]
    pub tokens: Option<TokenCount>,
    /// A host's own tools, which share the window with the tools it loads (not inherited).
    #[serde(default)]
    pub host_tools: Option<HostTools>,
    /// How the target defers tools and searches them, as toolcheck models it (not inherited:
    /// a host runs its own search).
    #[serde(default)]
    pub tool_search: Vec<Behaviour>,
    /// `constraints:` with nothing under it is an empty list.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub constraints: Vec<RawConstraint>,
}

fn null_as_empty<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Vec<T>, D::Error> {
    Ok(Option::<Vec<T>>::deserialize(deserializer)?.unwrap_or_default())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// An LLM API that receives the tool definitions.
    Provider,
    /// An application that loads tools (MCP servers, extensions) and sends them to a provider.
    Host,
    /// A revision of a protocol specification.
    Spec,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Provider => "provider",
            Kind::Host => "host",
            Kind::Spec => "spec",
        }
    }
}

/// One constraint as written: the check with its value, where the fact comes from and when it
/// was last verified.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawConstraint {
    pub check: String,
    #[serde(default)]
    pub value: Value,
    /// A URL or `owner/repo:path`.
    pub source: String,
    /// `YYYY-MM-DD`.
    pub verified: String,
    /// What the target does when the constraint is broken.
    pub effect: Effect,
    /// Evidence grade or caveat (observed, not documented; the reading taken where sources
    /// conflict).
    #[serde(default)]
    pub note: Option<String>,
}

/// How a target's tokens are counted: tiktoken's `encoding`, times `factor` for a provider
/// whose tokenizer is not published (then `approximate`), plus the documented overhead per
/// tool and per request.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TokenCount {
    pub encoding: crate::tokens::Encoding,
    #[serde(default = "one")]
    pub factor: f64,
    pub approximate: bool,
    #[serde(default)]
    pub per_tool: usize,
    #[serde(default)]
    pub per_request: usize,
    pub source: String,
    pub verified: String,
    #[serde(default)]
    pub note: Option<String>,
}

/// What a host's own (built-in) tools take of the window: a reported, versioned estimate, in
/// the host's tokens.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct HostTools {
    /// Loaded up front.
    pub loaded: usize,
    /// Deferred behind the host's tool search.
    #[serde(default)]
    pub deferred: usize,
    /// The host release the figures are of.
    pub version: String,
    pub source: String,
    pub verified: String,
    #[serde(default)]
    pub note: Option<String>,
}

/// One behaviour toolcheck models, with where it comes from and when it was read (or the
/// release it is of).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Behaviour {
    pub behaviour: String,
    /// What in toolcheck follows it (a rule, an engine, a command).
    pub modelled_by: String,
    pub source: String,
    /// The date the source was read, or the release it describes.
    pub verified: String,
    #[serde(default)]
    pub note: Option<String>,
}

fn one() -> f64 {
    1.0
}

impl TokenCount {
    /// The target's count for `exact` tokens of `encoding` (no overhead).
    pub fn scale(&self, exact: usize) -> usize {
        if self.factor == 1.0 {
            exact
        } else {
            (exact as f64 * self.factor).round() as usize
        }
    }

    /// How the count is made, for a report: `o200k_base × 1.25 + 497 per request (≈)`.
    pub fn method(&self) -> String {
        let mut method = self.encoding.as_str().to_string();
        if self.factor != 1.0 {
            method.push_str(&format!(" × {}", self.factor));
        }
        if self.per_tool > 0 {
            method.push_str(&format!(" + {} per tool", self.per_tool));
        }
        if self.per_request > 0 {
            method.push_str(&format!(" + {} per request", self.per_request));
        }
        method
    }
}

/// What a target does with a definition that breaks a constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// The API answers 400: the whole request fails, not only the tool.
    Rejected,
    /// The host leaves the tool out without an error.
    Dropped,
    /// The host cuts the text: the model never reads the rest.
    Truncated,
    /// The host changes it (a name rewritten) before the model sees it.
    Rewritten,
    /// Not what the specification says a conforming server sends.
    Nonconforming,
    /// The target accepts it and does nothing with it.
    Ignored,
}

impl Effect {
    /// How a finding says it: `Anthropic rejects the request`, `Cursor drops the tool`.
    pub fn verb(self) -> &'static str {
        match self {
            Effect::Rejected => "rejects the request",
            Effect::Dropped => "drops the tool",
            Effect::Truncated => "truncates it",
            Effect::Rewritten => "rewrites it",
            Effect::Nonconforming => "does not allow it",
            Effect::Ignored => "ignores it",
        }
    }
}

/// A constraint's check and value (`check:` names the variant, `value:` holds its fields).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub enum Check {
    /// How the host writes a tool's name before the provider sees it, in this order: the
    /// server name as the host writes it (`server`), the template (`mcp__{server}__{tool}`),
    /// `prefix` prepended unless the name already starts with it, characters outside `keep`
    /// (or inside `replace`) replaced by `_`, a `_` prepended when the first character is not
    /// in `first`, names over `shorten-over` characters cut to their first and last
    /// `shorten-keep` around `...`, and a plain cut after `cut` characters. See
    /// `src/targets/wire.rs`.
    WireName(WireName),
    /// The name on the wire (after [`Check::WireName`]) must be 1..=`max-length` characters
    /// from `charset` (a regex character class body; none: any character), starting with one
    /// from `first`.
    /// `counted` is what the host measures when it is not the wire name (Cursor counts
    /// `{server}_{tool}`).
    ToolName(ToolName),
    /// Keywords the target does not accept, `at` the root, below it, or anywhere.
    Keywords(Keywords),
    /// The only keywords the target accepts (every other one is rejected).
    AllowedKeywords(Vec<String>),
    /// `type` written as a list (`["string", "null"]`).
    TypeArray,
    /// Which `enum` values are accepted: `strings` or `primitives`.
    EnumValues(EnumValues),
    /// A `$ref` with sibling keywords.
    RefSiblings,
    /// A `$ref` that is not a fragment of the same document.
    ExternalRef,
    /// A `$ref` to one of its own ancestors.
    Recursion,
    /// `$defs`/`definitions` anywhere but the root.
    DefsBelowRoot,
    /// The only string `format`s accepted.
    Formats(Vec<String>),
    /// The largest `minItems` accepted.
    MaxMinItems(u64),
    /// Every object has `additionalProperties: false`.
    ClosedObjects,
    /// Every property of every object is in `required`.
    AllRequired,
    /// Object/array nesting depth.
    MaxNesting(u64),
    /// Object properties in one schema, all depths.
    MaxProperties(u64),
    /// `enum` values in one schema, all depths.
    MaxEnumValues(u64),
    /// Characters of property names, definition names, enum and const values in one schema.
    MaxSchemaChars(u64),
    /// Characters of one string enum that has more than `over` values.
    MaxLargeEnumChars(LargeEnum),
    /// Optional parameters across all (strict) tools of a request.
    MaxOptionalParameters(u64),
    /// Parameters typed as a union (type arrays or `anyOf`) across all (strict) tools.
    MaxUnionParameters(u64),
    /// Tools of a request that are strict.
    MaxStrictTools(u64),
    /// Bytes of a text before the host cuts it: `fields` (`description`, `instructions`).
    TruncateBytes(Truncate),
    /// Tools per request (or per host session).
    MaxTools(u64),
    /// At least one tool must not be deferred (`defer_loading`).
    NotAllDeferred,
    /// `defer_loading` is read only on tools of these shapes (`openai-responses`); elsewhere
    /// the tool is loaded with every request.
    DeferLoadingIn(Vec<String>),
    /// A tool without a snippet is left out of the system prompt's tool list.
    SnippetRequired,
    /// The schema root's `type` must be this one type (`object`), written as a string.
    RootType(String),
    /// A `$ref` as (or at the top of) an `allOf` branch.
    RefInAllOf,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct WireName {
    #[serde(default = "tool_template")]
    pub template: String,
    /// How the host writes the server name inside the template.
    #[serde(default)]
    pub server: Option<ServerPart>,
    /// Prepended unless the templated name already starts with it (Gemini CLI's `mcp_`).
    #[serde(default)]
    pub prefix: Option<String>,
    /// The characters kept; every other one becomes `_` (one per UTF-16 unit, as the
    /// JavaScript hosts replace).
    #[serde(default)]
    pub keep: Option<String>,
    /// The characters that become `_`, for a host that replaces only these (VS Code: `.`).
    #[serde(default)]
    pub replace: Option<String>,
    #[serde(default)]
    pub first: Option<String>,
    #[serde(default)]
    pub shorten_over: Option<usize>,
    #[serde(default)]
    pub shorten_keep: Option<usize>,
    /// The name is cut after this many UTF-16 units, without a marker.
    #[serde(default)]
    pub cut: Option<usize>,
}

/// How a host writes the server name inside a tool name.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ServerPart {
    /// Lower-cased first.
    #[serde(default)]
    pub lower: bool,
    /// The characters kept; each run of other characters becomes one `_`.
    #[serde(default)]
    pub keep: Option<String>,
    /// Cut after this many characters.
    #[serde(default)]
    pub max: Option<usize>,
}

fn tool_template() -> String {
    "{tool}".to_string()
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ToolName {
    #[serde(default)]
    pub charset: Option<String>,
    pub max_length: usize,
    #[serde(default)]
    pub first: Option<String>,
    #[serde(default)]
    pub counted: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    Root,
    BelowRoot,
    Anywhere,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Keywords {
    pub keywords: Vec<String>,
    pub at: Place,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EnumValues {
    Strings,
    Primitives,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LargeEnum {
    pub over: u64,
    pub max: u64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Truncate {
    pub bytes: usize,
    pub fields: Vec<String>,
}
