//! The check of `secret-like-field-names`. Its code, docs and default options are in
//! `rules/security/secret-like-field-names.yaml`.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::normalize::schema::walk_properties;
use crate::parse::{Entry, Node};
use crate::rule::{Anchor, Ctx, Rule};
use crate::text::identifier::split_identifier;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SecretLikeFieldNames {
    /// Names that are credentials whatever the description says, matched against the whole
    /// name and every trailing compound (`github_api_key` ends in `api_key`); normalized once,
    /// when the options are read.
    #[serde(deserialize_with = "normalized")]
    names: HashSet<String>,
    /// Last words that are credentials only when the description says so (`key` of a Redis
    /// entry, `page_token`).
    #[serde(deserialize_with = "normalized")]
    names_when_described: HashSet<String>,
    allow: HashSet<String>,
}

/// A credential named in the description's first sentence, with nothing before it that makes
/// it the object of a preposition (`Key of the secret`, `Key to store under the secret`).
static CREDENTIAL_NOUN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)\b(?:
            api[\s_-]?key | (?:access|auth|authentication|authorization|bearer|refresh|session
            |security|oauth|personal\s+access|id|jwt)[\s_-]?tokens? | (?:access|secret|private
            |authentication|encryption|signing)[\s_-]?key | bearer | secret | password | passphrase
            | passcode | credentials? | jwt
        )\b",
    )
    .expect("the credential pattern is valid")
});

/// A credential's purpose stated anywhere in the description.
static CREDENTIAL_PURPOSE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)\b(?:
            used\s+(?:for|to|in)\s+(?:authenticat|authoriz)\w* | to\s+authenticate
            | (?:for|enable)\s+(?:\w+\s+){0,3}?authentication\b
            | \busername\W+(?:\w+\W+){0,6}?password\b
            | (?:keep|kept)\s+(?:it\s+|this\s+\w+\s+)?(?:secret|confidential|private)
        )",
    )
    .expect("the credential pattern is valid")
});

/// Words that, before the credential noun, make the property something else: `Key of the
/// secret`, `Name of the password field`.
static PREPOSITION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:of|in|into|under|from|within|inside|on|at|to|for|with|by|about)\b")
        .expect("the preposition pattern is valid")
});

impl Rule for SecretLikeFieldNames {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        walk_properties(schema, &mut |entry| {
            if self.allow.contains(entry.key.as_str()) || !can_hold_a_secret(&entry.value) {
                return;
            }
            let Some(reason) = credential(entry, &self.names, &self.names_when_described) else {
                return;
            };
            let name = &entry.key;
            ctx.report(
                Field::InputSchema,
                Anchor::Key(entry),
                format!("property `{name}` asks the model for a credential"),
            )
            .label(reason)
            .help(
                "inject credentials server-side (configuration, environment, an auth header); \
                 if it is not a secret, add it to this rule's `allow` option",
            );
        });
    }
}

/// A list of names as `credential` compares them: `API_KEY`, `apiKey` and `apikey` alike.
fn normalized<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<HashSet<String>, D::Error> {
    let names = Vec::<String>::deserialize(deserializer)?;
    Ok(names
        .iter()
        .map(|name| squash(&split_identifier(name)))
        .collect())
}

/// Segments joined without separators: `API_KEY`, `apiKey` and `apikey` are all `apikey`.
fn squash(segments: &[String]) -> String {
    segments.concat()
}

/// Why `entry` names a credential, or `None`.
fn credential(
    entry: &Entry,
    names: &HashSet<String>,
    when_described: &HashSet<String>,
) -> Option<&'static str> {
    let mut segments = split_identifier(&entry.key);
    // `passwordValue`, `api_key_string`: a word that names the value itself leaves the
    // credential's name in front of it.
    while segments.len() > 1
        && segments
            .last()
            .is_some_and(|word| VALUE_WORDS.contains(&word.as_str()))
    {
        segments.pop();
    }
    let last = segments.last()?;
    let named = (0..segments.len()).any(|start| names.contains(&squash(&segments[start..])));
    if named {
        return Some("named like a credential");
    }
    if !when_described.contains(last) {
        return None;
    }
    let description = entry.value.get("description").and_then(Node::as_str)?;
    described_as_credential(description).then_some("described as a credential")
}

/// Last words that name a value as such, not a property of it (`password_length`,
/// `secret_name` and `token_expiry` are not the secret; `passwordValue` is).
const VALUE_WORDS: &[&str] = &["value", "val", "string", "str", "text", "plaintext", "raw"];

pub(crate) fn described_as_credential(description: &str) -> bool {
    if CREDENTIAL_PURPOSE.is_match(description) {
        return true;
    }
    let first_sentence = description
        .split_terminator(['.', ';', ':', '\n', '('])
        .next()
        .unwrap_or_default();
    CREDENTIAL_NOUN
        .find(first_sentence)
        .is_some_and(|noun| !PREPOSITION.is_match(&first_sentence[..noun.start()]))
}

/// A boolean, number or null cannot carry a secret (`byApiKey: true` groups usage by key), nor
/// can a value from a fixed list (`password: {enum: [on, off]}`, a feature toggle), nor a
/// union of such (`anyOf: [{type: boolean}, {type: null}]`).
pub(crate) fn can_hold_a_secret(schema: &Node) -> bool {
    const NOT_TEXT: &[&str] = &["boolean", "integer", "number", "null"];
    if schema.get("enum").is_some() || schema.get("const").is_some() {
        return false;
    }
    let typed = match schema.get("type") {
        Some(ty) => match (ty.as_str(), ty.as_array()) {
            (Some(name), _) => !NOT_TEXT.contains(&name),
            (None, Some(names)) => names
                .iter()
                .any(|name| name.as_str().is_none_or(|name| !NOT_TEXT.contains(&name))),
            _ => true,
        },
        None => true,
    };
    let branches: Vec<&Node> = ["anyOf", "oneOf"]
        .iter()
        .filter_map(|key| schema.get(key).and_then(Node::as_array))
        .flatten()
        .collect();
    // Branches only one level down: a generated nullable field is one union.
    let branch_holds = |branch: &&Node| {
        branch.get("enum").is_none()
            && branch.get("const").is_none()
            && branch
                .get("type")
                .and_then(Node::as_str)
                .is_none_or(|name| !NOT_TEXT.contains(&name))
    };
    typed && (branches.is_empty() || branches.iter().any(branch_holds))
}

#[cfg(test)]
mod tests {
    use super::described_as_credential;

    #[test]
    fn descriptions_that_say_credential() {
        for text in [
            "Bearer token for authorization",
            "Authentication token to verify the user's identity.",
            "Your personal API key for accessing the service. Keep it confidential.",
            "The unique key associated with the session, used for authentication.",
            "HTTP authentication credentials formatted as a (username, password) tuple.",
            "The access key that uniquely identifies the user's session",
            "Authentication tuple for HTTP authentication, in the format (username, password).",
            "A tuple to enable a certain HTTP authentication.",
        ] {
            assert!(described_as_credential(text), "{text}");
        }
    }

    #[test]
    fn descriptions_of_data_keys_and_cursors() {
        for text in [
            "Key to store the content under in the configmap/secret",
            "The key of the Figma file to fetch",
            "Redis key to retrieve",
            "A token to retrieve the next page of results",
            "Single-use token from a previous call, retained for up to one hour",
            "Key to press (e.g. 'Enter', 'ArrowDown', 'a')",
            "The name of the secret to read",
            "",
        ] {
            assert!(!described_as_credential(text), "{text}");
        }
    }
}
