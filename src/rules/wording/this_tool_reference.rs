//! The check of `this-tool-reference`. Its code, docs and default options are in
//! `rules/wording/this-tool-reference.yaml`.

use std::ops::Range;

use serde::Deserialize;

use super::helpers::{Words, name_mentions, paragraph_start, word_after};
use crate::diagnostic::{Edit, Field};
use crate::normalize::{Text, Tool, ToolSet};
use crate::rule::{Anchor, Ctx, Rule};
use crate::text;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ThisToolReference {
    words: Words,
}

impl Rule for ThisToolReference {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        for field in [Field::Snippet, Field::Guidelines] {
            for text in tool.texts(field) {
                for hit in self.references(text.value()) {
                    report_in_list(tool, &text, hit, ctx);
                }
            }
        }
    }

    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let Some(instructions) = set.instructions else {
            return;
        };
        let node = &instructions.value;
        let value = node.as_str().unwrap_or_default();
        let names: Vec<&str> = set
            .tools
            .iter()
            .map(Tool::name)
            .filter(|name| !name.is_empty())
            .collect();
        for hit in self.references(value) {
            // In prose about a whole server, `the tool` is a tool in general (`when the tool
            // fails, retry`), not a pointer to one: only `this tool` needs a referent.
            if value[hit.clone()]
                .get(..4)
                .is_some_and(|first| first.eq_ignore_ascii_case("the "))
            {
                continue;
            }
            // Instructions are prose under the server's heading: a tool named earlier in the
            // same paragraph or list item is what `this tool` points back to.
            let context = &value[paragraph_start(value, hit.start)..hit.start];
            if names
                .iter()
                .any(|name| !name_mentions(context, name).is_empty())
            {
                continue;
            }
            let phrase = value[hit.clone()].to_string();
            ctx.report(
                Field::Instructions,
                Anchor::Text(node, hit),
                format!("`{phrase}` has no referent: no tool is named before it in this paragraph"),
            )
            .help("write the name of the tool you mean; the instructions are read apart from any one tool");
        }
    }
}

impl ThisToolReference {
    /// The phrases of `value` that refer to a tool, leaving out the generic uses of `the tool`.
    fn references(&self, value: &str) -> Vec<Range<usize>> {
        text::find_all(&self.words.0, value, true)
            .into_iter()
            .filter(|hit| !is_generic(value, hit))
            .collect()
    }
}

/// A snippet or guideline: hosts list it among other tools' lines, where `this tool` can mean
/// any of them.
fn report_in_list(tool: &Tool<'_>, text: &Text<'_>, hit: Range<usize>, ctx: &mut Ctx<'_>) {
    let name = tool.name();
    let value = text.value();
    let phrase = &value[hit.clone()];
    let edit = replacement(text, &hit, name, &ctx.file.text);
    let help = if name.is_empty() {
        "write the tool's name instead".to_string()
    } else {
        format!("write `{name}` instead")
    };
    let finding = ctx
        .report(
            text.field,
            Anchor::Text(text.node, hit.clone()),
            format!("`{phrase}` has no referent in a flat list"),
        )
        .help(format!(
            "{help}; hosts list this {} among other tools' text",
            match text.field {
                Field::Snippet => "snippet",
                _ => "guideline",
            }
        ));
    if let Some(edit) = edit {
        finding.fix(vec![edit]);
    }
}

/// The edit that writes the tool's name over `this tool`, when that cannot change the meaning:
/// the phrase is exactly `this tool` (not `this function`, which can mean code the tool works
/// on), it is used rather than quoted, the name is a plain identifier (nothing to escape in
/// JSON or YAML), the phrase is not the whole text (a YAML scalar `true` would change type),
/// and its source is the two words as written (no escapes).
fn replacement(text: &Text<'_>, hit: &Range<usize>, name: &str, source: &str) -> Option<Edit> {
    let value = text.value();
    let words: Vec<String> = value[hit.clone()]
        .split_whitespace()
        .map(str::to_lowercase)
        .collect();
    let plain_name = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let quoted = is_quote(value[..hit.start].chars().next_back())
        && is_quote(value[hit.end..].chars().next());
    let whole = value.trim().len() == hit.len();
    if words != ["this", "tool"] || !plain_name || quoted || whole {
        return None;
    }
    let span = text.node.source_range(source, hit.clone());
    let written: Vec<String> = source
        .get(span.clone())?
        .split_whitespace()
        .map(str::to_lowercase)
        .collect();
    (written == words).then(|| Edit {
        span,
        replacement: name.to_string(),
    })
}

fn is_quote(c: Option<char>) -> bool {
    c.is_some_and(|c| "\"'“”‘’«»".contains(c))
}

/// Whether the phrase at `hit` uses `the tool` generically rather than pointing at one tool: a
/// compound (`the tool boundary`, `the tool call`, `the tool results`), a relative clause
/// (`the tool that created them`, `the tool you need`, `the tool used for …`). `this tool` is
/// never generic.
pub(super) fn is_generic(value: &str, hit: &Range<usize>) -> bool {
    let phrase = value[hit.clone()].to_lowercase();
    if !phrase.starts_with("the") {
        return false;
    }
    let rest = &value[hit.end..];
    // `the tool's output`, `the tool.`, `the tool,`: the tool itself.
    if !rest.starts_with(char::is_whitespace) {
        return false;
    }
    let (next, _) = word_after(value, hit.end);
    let next = next.to_lowercase();
    if next.is_empty() || next.contains('\'') {
        return false;
    }
    if RELATIVE.contains(&next.as_str()) {
        return true;
    }
    if REFERENCE_FOLLOWERS.contains(&next.as_str()) || next.ends_with("ly") {
        return false;
    }
    // A participle starts a reduced relative clause: `the tool used for`, `the tool named`.
    if next.len() > 3 && (next.ends_with("ed") || next.ends_with("en")) {
        return true;
    }
    if COMPOUND_PLURALS.contains(&next.as_str()) {
        return true;
    }
    // Any other `-s` word is a verb (`the tool returns`); a singular word that is not a
    // function word makes a compound noun (`the tool boundary`, `the tool call`).
    !next.ends_with('s') || next.ends_with("ss")
}

/// Words that open a relative clause or a new noun phrase right after `the tool`.
const RELATIVE: &[&str] = &[
    "that", "which", "who", "whose", "whom", "where", "you", "we", "they", "i", "he", "she", "it",
    "your", "their", "our", "its", "my", "the", "a", "an", "this", "these", "those", "each",
    "every", "any", "some", "one", "best", "most", "least", "needed", "required",
];

/// Function words that can follow a tool named as a subject or an object: `the tool is`,
/// `call the tool with`, `the tool again`.
const REFERENCE_FOLLOWERS: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "will", "would", "can", "could", "may", "might",
    "must", "should", "shall", "does", "did", "do", "has", "had", "have", "to", "for", "with",
    "in", "on", "at", "by", "from", "of", "when", "whenever", "if", "and", "or", "but", "nor",
    "again", "first", "only", "instead", "also", "now", "then", "once", "before", "after", "until",
    "unless", "as", "so", "not", "never", "always", "without", "into", "over", "under", "rather",
    "here", "there", "too", "since", "because", "while", "itself", "yet", "just", "still",
    "already", "more", "less", "than", "about", "like", "via", "per", "through", "whether", "even",
    "twice", "anyway", "again",
];

/// Plural nouns that make a compound with `the tool` (`the tool results`); other `-s` words
/// after `the tool` are read as verbs.
const COMPOUND_PLURALS: &[&str] = &[
    "calls",
    "results",
    "outputs",
    "inputs",
    "names",
    "definitions",
    "descriptions",
    "schemas",
    "responses",
    "errors",
    "arguments",
    "parameters",
    "options",
    "settings",
    "lists",
    "sets",
    "boundaries",
    "invocations",
    "specs",
    "messages",
    "logs",
    "ids",
    "capabilities",
    "permissions",
    "limits",
    "tokens",
    "annotations",
    "catalogs",
    "registries",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn references(value: &str) -> Vec<&str> {
        let words: Vec<String> = ["this tool", "this function", "the tool"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let rule = ThisToolReference {
            words: Words(text::phrases_regex(&words, "", false).unwrap()),
        };
        rule.references(value)
            .into_iter()
            .map(|hit| &value[hit])
            .collect()
    }

    #[test]
    fn generic_uses_of_the_tool_are_not_references() {
        for text in [
            "Match the requested operation to the tool boundary: scrape reads one page.",
            "Pass the ids to the tool that created them.",
            "Report the final token usage from the tool result.",
            "Ask for the missing information before making the tool call.",
            "Summarize the tool results for the user.",
            "Pick the tool you need.",
            "The name of the tool used for the search.",
        ] {
            assert!(
                references(text).is_empty(),
                "{text}: {:?}",
                references(text)
            );
        }
    }

    #[test]
    fn references_to_one_tool_are() {
        assert_eq!(references("Use this tool when asked."), ["this tool"]);
        assert_eq!(
            references("Call the tool again with a cursor."),
            ["the tool"]
        );
        assert_eq!(references("The tool returns ids."), ["The tool"]);
        assert_eq!(references("Read the tool's output first."), ["the tool"]);
        assert_eq!(references("Prefer the tool."), ["the tool"]);
        assert_eq!(references("Run this function once."), ["this function"]);
        assert_eq!(references("The tool will fail on binaries."), ["The tool"]);
        assert_eq!(references("Quoted `this tool` is not."), Vec::<&str>::new());
    }
}
