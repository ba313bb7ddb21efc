//! Declarative rules: a catalog entry whose `then:` names one `function` from a small fixed
//! set, applied to the fields its `given:` selects (built-in entries and a team's own
//! `rulesets:` alike).
//!
//! ```yaml
//! code: TC209
//! name: absolute-words
//! family: wording
//! severity: error
//! summary: absolute words such as `always`, `never` and `must`
//! docs: |
//!   ## What it does
//!   ...
//! given: [text]                 # which fields; see `Given`
//! then:
//!   function: pattern           # pattern | missing-pattern | property-name | root-keyword | max-tokens
//!   options: { words: [never, always, must] }
//! message: "absolute word `{{match}}`"
//! help: state the condition plainly
//! ```
//!
//! A user's `rules.options.<name>` overrides the function's options key by key.

use regex::Regex;
use serde::Deserialize;
use serde_json::Value;

use crate::diagnostic::Field;
use crate::normalize::{Text, Tool, ToolSet};
use crate::options::Options;
use crate::rule::{Anchor, Ctx, Rule};
use crate::text;
use crate::text::identifier::split_identifier;

/// What a declarative entry says besides its metadata: where to look, what to look for, and
/// what to say.
#[derive(Debug, Clone)]
pub struct DeclarativeRule {
    pub(crate) given: Vec<Given>,
    pub(crate) function: FunctionName,
    pub(crate) message: String,
    pub(crate) help: Option<String>,
    pub(crate) label: Option<String>,
}

impl DeclarativeRule {
    /// Checks that the function can look at every `given` field and accepts `options`.
    pub(crate) fn validate(&self, options: &Options) -> Result<(), String> {
        self.validate_given()?;
        Function::build(self.function, options).map(drop)
    }

    /// Whether the function can look at every `given`.
    pub(crate) fn validate_given(&self) -> Result<(), String> {
        if let Some(bad) = self
            .given
            .iter()
            .find(|given| !Function::accepts(self.function, **given))
        {
            return Err(
                format!("function `{:?}` cannot look at `{bad:?}`", self.function).to_lowercase(),
            );
        }
        Ok(())
    }

    /// The rule ready to run with `options`; the error names what is wrong with them.
    pub(crate) fn build(&self, options: &Options) -> Result<Box<dyn Rule>, String> {
        Ok(Box::new(CompiledRule {
            given: self.given.clone(),
            function: Function::build(self.function, options)?,
            message: self.message.clone(),
            help: self.help.clone(),
            label: self.label.clone(),
        }))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum FunctionName {
    /// A word, phrase or regex found in the selected texts: one finding per match.
    Pattern,
    /// None of the words, phrases or regex in a selected field (for a list field such as
    /// `guidelines`: in none of its items): one finding per field.
    MissingPattern,
    /// An input-schema property name (any depth) that matches: one finding per property key.
    PropertyName,
    /// A keyword present at the input schema's root: one finding per keyword.
    RootKeyword,
    /// A selected text over a token budget.
    MaxTokens,
}

/// Where a rule looks. `text` is every model-facing text field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Given {
    Name,
    Title,
    Description,
    Snippet,
    Guidelines,
    Instructions,
    /// `description` and `title` strings inside the input schema.
    SchemaText,
    Results,
    /// All of description, snippet, guidelines, instructions, schema-text and results.
    Text,
    /// The input schema itself (for `property-name`, `root-keyword`, `max-tokens`).
    InputSchema,
}

pub(crate) fn one_or_many<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<Given>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(Given),
        Many(Vec<Given>),
    }
    Ok(match OneOrMany::deserialize(deserializer)? {
        OneOrMany::One(given) => vec![given],
        OneOrMany::Many(given) => given,
    })
}

/// Options of `pattern` and `missing-pattern`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct PatternOptions {
    /// Words or phrases, matched case-insensitively as whole words; `{name}` is the tool name.
    #[serde(default)]
    words: Vec<String>,
    /// A regular expression (Rust `regex` syntax); a group named `hit` narrows the span.
    regex: Option<String>,
    #[serde(default)]
    case_sensitive: bool,
    /// Text in backticks is quoted material and is not matched.
    #[serde(default = "yes")]
    skip_backticks: bool,
    /// Report only the first match in each text.
    #[serde(default)]
    first_only: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct PropertyNameOptions {
    /// Names matched case-insensitively against the whole property name and against its last
    /// segment (split on `_`, `-` and camelCase).
    #[serde(default)]
    names: Vec<String>,
    /// A regular expression over the whole property name.
    regex: Option<String>,
    /// Property names never reported.
    #[serde(default)]
    allow: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RootKeywordOptions {
    keywords: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct MaxTokensOptions {
    max_tokens: usize,
}

/// A function with its options checked and compiled.
#[derive(Debug, Clone)]
enum Function {
    Pattern(Matcher, PatternOptions),
    MissingPattern(Matcher, PatternOptions),
    PropertyName(PropertyNameOptions, Option<Regex>),
    RootKeyword(RootKeywordOptions),
    MaxTokens(MaxTokensOptions),
}

/// Words (compiled per tool, because of `{name}`) or a fixed regex.
#[derive(Debug, Clone)]
enum Matcher {
    Regex(Regex),
    Words(text::Phrases),
}

impl Matcher {
    fn new(options: &PatternOptions) -> Result<Matcher, String> {
        match (&options.regex, options.words.is_empty()) {
            (Some(_), false) => Err("give either `words` or `regex`, not both".to_string()),
            (None, true) => Err("give `words` (a list of phrases) or `regex`".to_string()),
            (Some(pattern), true) => Regex::new(pattern)
                .map(Matcher::Regex)
                .map_err(|error| format!("invalid regex: {error}")),
            (None, false) => text::Phrases::new(&options.words, options.case_sensitive)
                .map(Matcher::Words)
                .map_err(|error| format!("invalid words: {error}")),
        }
    }

    /// The regex for the tool `tool_name`, to search `text` with.
    fn regex(&self, tool_name: &str, text: &str) -> Option<std::borrow::Cow<'_, Regex>> {
        match self {
            Matcher::Regex(regex) => Some(std::borrow::Cow::Borrowed(regex)),
            Matcher::Words(phrases) => phrases.regex(tool_name, text),
        }
    }
}

impl Function {
    fn build(
        name: FunctionName,
        options: &serde_json::Map<String, Value>,
    ) -> Result<Function, String> {
        fn parse<T: serde::de::DeserializeOwned>(
            options: &serde_json::Map<String, Value>,
        ) -> Result<T, String> {
            serde_json::from_value(Value::Object(options.clone()))
                .map_err(|error| error.to_string())
        }
        Ok(match name {
            FunctionName::Pattern => {
                let options: PatternOptions = parse(options)?;
                Function::Pattern(Matcher::new(&options)?, options)
            }
            FunctionName::MissingPattern => {
                let options: PatternOptions = parse(options)?;
                Function::MissingPattern(Matcher::new(&options)?, options)
            }
            FunctionName::PropertyName => {
                let options: PropertyNameOptions = parse(options)?;
                let regex = match &options.regex {
                    Some(pattern) => Some(
                        Regex::new(pattern).map_err(|error| format!("invalid regex: {error}"))?,
                    ),
                    None if options.names.is_empty() => {
                        return Err("give `names` or `regex`".to_string());
                    }
                    None => None,
                };
                Function::PropertyName(options, regex)
            }
            FunctionName::RootKeyword => Function::RootKeyword(parse(options)?),
            FunctionName::MaxTokens => Function::MaxTokens(parse(options)?),
        })
    }

    /// The `given` selectors this function can work on.
    fn accepts(name: FunctionName, given: Given) -> bool {
        match name {
            FunctionName::Pattern | FunctionName::MissingPattern => given != Given::InputSchema,
            FunctionName::PropertyName | FunctionName::RootKeyword => given == Given::InputSchema,
            FunctionName::MaxTokens => !matches!(given, Given::Text),
        }
    }
}

/// A loaded rule file: metadata, examples, and the function's default options.
/// A declarative rule ready to run.
struct CompiledRule {
    given: Vec<Given>,
    function: Function,
    message: String,
    help: Option<String>,
    label: Option<String>,
}

/// Values for `{{placeholders}}` in messages.
#[derive(Default)]
struct Vars<'a> {
    matched: &'a str,
    /// The whole text (for `missing-pattern`: the text that lacks the pattern).
    value: &'a str,
    field: &'a str,
    tool: &'a str,
    key: &'a str,
    count: usize,
    budget: usize,
    encoding: &'a str,
}

impl CompiledRule {
    fn render(&self, template: &str, vars: &Vars<'_>) -> String {
        template
            .replace("{{match}}", vars.matched)
            .replace("{{value}}", vars.value)
            .replace("{{field}}", vars.field)
            .replace("{{tool}}", vars.tool)
            .replace("{{key}}", vars.key)
            .replace("{{count}}", &vars.count.to_string())
            .replace("{{budget}}", &vars.budget.to_string())
            .replace("{{encoding}}", vars.encoding)
    }

    fn emit(&self, ctx: &mut Ctx<'_>, field: Field, target: Anchor<'_>, vars: &Vars<'_>) {
        let message = self.render(&self.message, vars);
        let help = self.help.as_ref().map(|help| self.render(help, vars));
        let label = self.label.as_ref().map(|label| self.render(label, vars));
        let finding = ctx.report(field, target, message);
        finding.help = help.map(Into::into);
        finding.label = label.map(Into::into);
    }

    /// The fields of `tool` this rule looks at, each with its texts.
    fn tool_fields<'a>(&self, tool: &Tool<'a>) -> Vec<(Field, Vec<Text<'a>>)> {
        let mut fields = Vec::new();
        for given in &self.given {
            let selected: &[Field] = match given {
                Given::Name => &[Field::Name],
                Given::Title => &[Field::Title],
                Given::Description => &[Field::Description],
                Given::Snippet => &[Field::Snippet],
                Given::Guidelines => &[Field::Guidelines],
                Given::SchemaText => &[Field::InputSchema],
                Given::Results => &[Field::Results],
                Given::Text => &[
                    Field::Description,
                    Field::Snippet,
                    Field::Guidelines,
                    Field::InputSchema,
                    Field::Results,
                ],
                Given::Instructions | Given::InputSchema => &[],
            };
            for &field in selected {
                if !fields.iter().any(|(seen, _)| *seen == field) {
                    fields.push((field, tool.texts(field)));
                }
            }
        }
        fields
    }

    fn check_texts(
        &self,
        tool: &Tool<'_>,
        field: Field,
        texts: &[Text<'_>],
        list_key: Option<&crate::parse::Entry>,
        ctx: &mut Ctx<'_>,
    ) {
        let tool_name = tool.name();
        match &self.function {
            Function::Pattern(matcher, options) => {
                for text in texts {
                    let value = text.value();
                    let Some(regex) = matcher.regex(tool_name, value) else {
                        continue;
                    };
                    let mut hits = text::find_all(&regex, value, options.skip_backticks);
                    if options.first_only {
                        hits.truncate(1);
                    }
                    for hit in hits {
                        let vars = Vars {
                            matched: &value[hit.clone()],
                            field: field.as_str(),
                            tool: tool_name,
                            ..Vars::default()
                        };
                        self.emit(ctx, field, Anchor::Text(text.node, hit), &vars);
                    }
                }
            }
            Function::MissingPattern(matcher, options) => {
                let non_empty: Vec<&Text<'_>> = texts
                    .iter()
                    .filter(|t| !t.value().trim().is_empty())
                    .collect();
                if non_empty.is_empty() {
                    return;
                }
                // A list that does not compile for this tool's name (too large) cannot tell.
                let found = non_empty.iter().any(|text| {
                    let value = text.value();
                    matcher.regex(tool_name, value).is_none_or(|regex| {
                        !text::find_all(&regex, value, options.skip_backticks).is_empty()
                    })
                });
                if found {
                    return;
                }
                let vars = Vars {
                    value: non_empty
                        .first()
                        .map(|text| text.value())
                        .unwrap_or_default(),
                    field: field.as_str(),
                    tool: tool_name,
                    ..Vars::default()
                };
                // A list field (guidelines, results) is reported once, at its key.
                let target = match (list_key, non_empty.as_slice()) {
                    (Some(entry), _) => Anchor::Key(entry),
                    (None, [text]) => Anchor::Value(text.node),
                    (None, _) => return,
                };
                self.emit(ctx, field, target, &vars);
            }
            Function::MaxTokens(options) => {
                for text in texts {
                    if let Some(count) = ctx.tokens.text_over(text.node, options.max_tokens) {
                        let encoding = ctx.encoding.as_str();
                        let vars = Vars {
                            field: field.as_str(),
                            tool: tool_name,
                            count,
                            budget: options.max_tokens,
                            encoding,
                            ..Vars::default()
                        };
                        self.emit(ctx, field, Anchor::Value(text.node), &vars);
                    }
                }
            }
            Function::PropertyName(..) | Function::RootKeyword(_) => {}
        }
    }

    fn check_schema(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        let tool_name = tool.name();
        match &self.function {
            Function::PropertyName(options, regex) => {
                crate::normalize::schema::walk_properties(schema, &mut |entry| {
                    let name = entry.key.as_str();
                    if options.allow.iter().any(|allowed| allowed == name) {
                        return;
                    }
                    let hit = match regex {
                        Some(regex) => regex.is_match(name),
                        None => name_matches(name, &options.names),
                    };
                    if hit {
                        let vars = Vars {
                            field: "input_schema",
                            tool: tool_name,
                            key: name,
                            ..Vars::default()
                        };
                        self.emit(ctx, Field::InputSchema, Anchor::Key(entry), &vars);
                    }
                });
            }
            Function::RootKeyword(options) => {
                for entry in schema.as_object().unwrap_or_default() {
                    if options.keywords.iter().any(|keyword| entry.key == *keyword) {
                        let vars = Vars {
                            field: "input_schema",
                            tool: tool_name,
                            key: &entry.key,
                            ..Vars::default()
                        };
                        self.emit(ctx, Field::InputSchema, Anchor::Key(entry), &vars);
                    }
                }
            }
            Function::MaxTokens(options) => {
                if let Some(count) = ctx.tokens.schema_over(schema, options.max_tokens) {
                    let vars = Vars {
                        field: "input_schema",
                        tool: tool_name,
                        count,
                        budget: options.max_tokens,
                        encoding: ctx.encoding.as_str(),
                        ..Vars::default()
                    };
                    self.emit(ctx, Field::InputSchema, Anchor::Value(schema), &vars);
                }
            }
            _ => {}
        }
    }
}

/// Whether a property name, whole or by its last segment (split on `_`, `-`, camelCase), is
/// one of `names` (compared case-insensitively, with `-` and `_` alike).
pub fn name_matches(name: &str, names: &[String]) -> bool {
    let segments = split_identifier(name);
    let whole = segments.join("_");
    let last = segments.last().cloned().unwrap_or_default();
    names.iter().any(|candidate| {
        let candidate = candidate.to_lowercase().replace('-', "_");
        candidate == whole || candidate == last || candidate == name.to_lowercase()
    })
}

impl Rule for CompiledRule {
    fn counts_tokens(&self) -> bool {
        matches!(self.function, Function::MaxTokens(_))
    }

    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        if self.given.contains(&Given::InputSchema) {
            self.check_schema(tool, ctx);
        }
        for (field, texts) in self.tool_fields(tool) {
            let list_key = match field {
                Field::Guidelines => tool.guidelines,
                Field::Results => tool.results,
                // The schema's descriptions and titles, like guidelines, are judged together.
                Field::InputSchema => tool.input_schema,
                _ => None,
            };
            self.check_texts(tool, field, &texts, list_key, ctx);
        }
    }

    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        if !self
            .given
            .iter()
            .any(|g| matches!(g, Given::Instructions | Given::Text))
        {
            return;
        }
        let Some(instructions) = set.instructions else {
            return;
        };
        let text = Text {
            field: Field::Instructions,
            node: &instructions.value,
        };
        // Set-level text has no tool: match `{name}` against nothing.
        let placeholder = Tool::placeholder(&instructions.value);
        self.check_texts(&placeholder, Field::Instructions, &[text], None, ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_whole_or_last_segment() {
        let names: Vec<String> = ["key", "token", "api_key"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(name_matches("apiKey", &names));
        assert!(name_matches("access_token", &names));
        assert!(name_matches("API-KEY", &names));
        assert!(!name_matches("key_name", &names));
        assert!(!name_matches("token_count", &names));
        assert!(!name_matches("max_tokens", &names));
        assert!(!name_matches("monkey", &names));
    }
}
