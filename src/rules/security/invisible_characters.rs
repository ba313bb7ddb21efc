//! The check of `invisible-characters`. Its code, docs and default options are in
//! `rules/security/invisible-characters.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::{Tool, ToolSet};
use crate::parse::{Entry, Node, NodeKind};
use crate::rule::{Anchor, Ctx, Rule};
use crate::text::invisible;
use crate::text::invisible::Run;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct InvisibleCharacters {}

/// Hidden text longer than this is cut in the message.
const SHOWN_TEXT: usize = 120;

impl Rule for InvisibleCharacters {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        // Every key and string of the definition: name, texts, the schema's property names,
        // enum values, defaults and examples all reach the model.
        for entry in tool.node.as_object().unwrap_or_default() {
            let field = field_of(&entry.key);
            check_key(entry, field, ctx);
            walk(&entry.value, field, ctx);
        }
    }

    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        for (entry, field) in [
            (set.instructions, Field::Instructions),
            (set.server, Field::File),
        ] {
            if let Some(entry) = entry {
                walk(&entry.value, field, ctx);
            }
        }
    }
}

/// The field a key of a tool definition holds.
pub(crate) fn field_of(key: &str) -> Field {
    match key {
        "name" => Field::Name,
        "title" => Field::Title,
        "description" | "search_hint" => Field::Description,
        "snippet" | "promptSnippet" => Field::Snippet,
        "guidelines" | "promptGuidelines" => Field::Guidelines,
        "input_schema" | "inputSchema" | "parameters" | "parametersJsonSchema" | "schema" => {
            Field::InputSchema
        }
        "output_schema" | "outputSchema" => Field::OutputSchema,
        "limits" => Field::Limits,
        "results" => Field::Results,
        _ => Field::File,
    }
}

fn walk(node: &Node, field: Field, ctx: &mut Ctx<'_>) {
    match &node.kind {
        NodeKind::String(_) => {
            let value = node.as_str().unwrap_or_default();
            for run in invisible::runs(value) {
                let message = message(&run);
                ctx.report(field, Anchor::Text(node, run.range.clone()), message)
                    .label(invisible::marker(&run.chars))
                    .help(help(&run));
            }
        }
        NodeKind::Array(items) => {
            for item in items {
                walk(item, field, ctx);
            }
        }
        NodeKind::Object(entries) => {
            for entry in entries {
                check_key(entry, field, ctx);
                walk(&entry.value, field, ctx);
            }
        }
        _ => {}
    }
}

/// A key (a property name, an `enum` label's key): the finding points at the characters when
/// the key is written as it reads, else at the whole key.
fn check_key(entry: &Entry, field: Field, ctx: &mut Ctx<'_>) {
    let runs = invisible::runs(&entry.key);
    if runs.is_empty() {
        return;
    }
    let written = ctx
        .file
        .text
        .get(entry.key_span())
        .and_then(|source| source.find(entry.key.as_str()))
        .map(|at| entry.key_span().start + at);
    for run in runs {
        let (shown, _) = invisible::make_visible(&entry.key, 0..0, false);
        let message = format!("{} in the key `{shown}`", message(&run));
        let finding = ctx
            .report(field, Anchor::Key(entry), message)
            .label(invisible::marker(&run.chars))
            .help(help(&run));
        if let Some(start) = written {
            finding.span = start + run.range.start..start + run.range.end;
        }
    }
}

fn message(run: &Run) -> String {
    let count = run.chars.len();
    if run.chars.iter().all(|&c| invisible::is_tag(c))
        && let Some(text) = invisible::hidden_text(&run.chars)
    {
        let shown: String = text.chars().take(SHOWN_TEXT).collect();
        let cut = if shown.len() < text.len() { "…" } else { "" };
        return format!("{count} invisible Unicode tag characters spell out `{shown}{cut}`");
    }
    let first = run.chars.first().copied().unwrap_or_default();
    if count == 1 {
        return format!("invisible character {}", invisible::describe(first));
    }
    if run.chars.iter().all(|&c| c == first) {
        return format!(
            "{count} invisible characters {}",
            invisible::describe(first)
        );
    }
    let mut distinct: Vec<char> = Vec::new();
    for &c in &run.chars {
        if distinct.len() == 3 {
            break;
        }
        if !distinct.contains(&c) {
            distinct.push(c);
        }
    }
    let listed: Vec<String> = distinct.iter().map(|&c| invisible::describe(c)).collect();
    let more = if run.chars.iter().any(|c| !distinct.contains(c)) {
        ", …"
    } else {
        ""
    };
    format!("{count} invisible characters: {}{more}", listed.join(", "))
}

fn help(run: &Run) -> &'static str {
    if run.chars.iter().any(|&c| invisible::is_tag(c)) {
        "remove them: tag characters show as nothing to a reviewer, but a model reads them as \
         text, which is how instructions are smuggled past review"
    } else if run.chars.iter().any(|&c| invisible::is_bidi(c)) {
        "remove it: a bidirectional control reorders how the text is displayed, so a reviewer \
         does not see what the model reads"
    } else if run.chars == ['\u{00AD}'] {
        "remove it: a soft hyphen shows as nothing in most places, but splits the word for the \
         model and for keyword search"
    } else {
        "remove it: it shows as nothing to a reviewer, but the model reads it and it splits words \
         for the model and for keyword search"
    }
}
