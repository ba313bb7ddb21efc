//! The check of `cryptic-tool-name`. Its code, docs and default options are in
//! `rules/names/cryptic-tool-name.yaml`.

use std::collections::HashSet;

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};
use crate::search::derive::first_sentence;
use crate::text::identifier::split_identifier;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CrypticToolName {
    /// Abbreviations models know (`ls`, `gcd`, `api`), in lower case.
    known: HashSet<String>,
}

impl Rule for CrypticToolName {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let (Some(entry), Some(description)) = (tool.name, tool.description()) else {
            return;
        };
        let name = tool.name();
        let words: Vec<String> = split_identifier(name)
            .into_iter()
            .filter(|word| word.chars().all(|c| c.is_ascii_alphanumeric()))
            .collect();
        if !words.iter().any(|word| self.is_abbreviation(word, name)) {
            return;
        }
        let sentence: Vec<String> = first_sentence(description.as_str().unwrap_or_default())
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(str::to_lowercase)
            .collect();
        // A sentence in another script, or too short to compare with.
        let latin = sentence
            .iter()
            .filter(|word| word.len() >= 3 && word.chars().all(|c| c.is_ascii_alphabetic()))
            .count();
        if latin < 3 || words.iter().any(|word| shares(word, &sentence)) {
            return;
        }
        ctx.report(
            Field::Name,
            Anchor::Value(&entry.value),
            format!(
                "`{name}` is abbreviated and shares no word with the first sentence of its \
                 description"
            ),
        )
        .help(
            "name the tool with the words its description uses for what it does (a verb and \
             its object, `modify_lua_source`): the model and a tool search match a request \
             against the name",
        );
    }
}

impl CrypticToolName {
    /// A word without a vowel (`scr`, `sm`, `rg`), a run of one- to three-letter camel-case
    /// pieces (`vOe`, `ChaScr`), or a name of one or two letters, unless models know it.
    fn is_abbreviation(&self, word: &str, name: &str) -> bool {
        if self.known.contains(word) || word.chars().all(|c| c.is_ascii_digit()) {
            return false;
        }
        let no_vowel = word.len() >= 2 && !word.chars().any(|c| "aeiouy".contains(c));
        let pieces = name.chars().any(|c| c.is_ascii_uppercase())
            && name.len() <= 8
            && !name.contains(['_', '-', '.'])
            && split_identifier(name).iter().all(|piece| piece.len() <= 3);
        no_vowel || pieces || name.chars().count() <= 2
    }
}

/// Whether the first sentence has the word: the same word, or one that begins like it for
/// five letters or the whole shorter word (`translation` in `Translate`, `kvs` in `KV`).
/// Initials do not count: `sm` is a private abbreviation even beside "social media".
fn shares(word: &str, sentence: &[String]) -> bool {
    let alike = |other: &String| {
        let shorter = word.len().min(other.len());
        let common = word
            .chars()
            .zip(other.chars())
            .take_while(|(a, b)| a == b)
            .count();
        word == other || (shorter >= 2 && common >= shorter.min(5))
    };
    sentence.iter().any(alike)
}

#[cfg(test)]
mod tests {
    use super::shares;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_lowercase).collect()
    }

    #[test]
    fn a_word_is_shared_by_its_beginning() {
        assert!(shares("search", &words("Searches the code")));
        assert!(!shares("sm", &words("Publish to social media")));
        assert!(shares("translation", &words("Translate text")));
        assert!(shares("kvs", &words("List KV namespaces")));
        assert!(!shares("scr", &words("Modifies the Lua source code")));
        assert!(!shares("sm", &words("Publish to some social media")));
    }
}
