//! The floor for `toolcheck lint` on a corpus: read the same files, parse them with serde_json,
//! and tokenize the text fields the budget rules count (name, description, snippet, guidelines,
//! compact input schema, results), each once, with tiktoken-rs o200k_base (or, with
//! `--toolcheck` first, with toolcheck's own counter, `toolcheck::tokens::Encoding::count`). Files are spread over all cores
//! as toolcheck spreads them. No spans, no rules, no output beyond a total.
//!
//! Run: `cargo run --release --example floor -- [--toolcheck] FILE...` (bench/run.sh does).

use serde_json::Value;

fn main() {
    let mut files: Vec<String> = std::env::args().skip(1).collect();
    let own = files.first().is_some_and(|first| first == "--toolcheck");
    if own {
        files.remove(0);
    }
    let count = |text: &str| -> usize {
        if own {
            return toolcheck::tokens::Encoding::O200kBase.count(text);
        }
        tiktoken_rs::o200k_base_singleton()
            .encode_ordinary(text)
            .len()
    };
    let totals = toolcheck::parallel::map_in_order(files, |path| {
        let Ok(bytes) = std::fs::read(&path) else {
            return 0;
        };
        let Ok(root) = serde_json::from_slice::<Value>(&bytes) else {
            return 0;
        };
        let mut texts: Vec<String> = Vec::new();
        for tool in tools(&root) {
            collect(tool, &mut texts);
        }
        texts.iter().map(|text| count(text)).sum::<usize>()
    });
    println!("{} tokens", totals.iter().sum::<usize>());
}

/// The tool objects of a document, in the shapes toolcheck reads.
fn tools(root: &Value) -> Vec<&Value> {
    let root = match (root.get("jsonrpc"), root.get("result")) {
        (Some(_), Some(result)) => result,
        _ => root,
    };
    let items: Vec<&Value> = if let Some(items) = root.as_array() {
        items.iter().collect()
    } else if let Some(items) = root.get("tools").and_then(Value::as_array) {
        items
            .iter()
            .flat_map(|item| match item.get("functionDeclarations") {
                Some(Value::Array(declarations)) => declarations.iter().collect(),
                _ => vec![item],
            })
            .collect()
    } else if let Some(Value::Array(declarations)) = root.get("functionDeclarations") {
        declarations.iter().collect()
    } else {
        vec![root]
    };
    items
        .into_iter()
        .map(|item| item.get("function").unwrap_or(item))
        .collect()
}

fn collect(tool: &Value, texts: &mut Vec<String>) {
    let text = |key: &str| tool.get(key).and_then(Value::as_str).map(str::to_string);
    texts.extend(text("name"));
    texts.extend(text("description"));
    texts.extend(text("snippet").or_else(|| text("promptSnippet")));
    for key in ["guidelines", "promptGuidelines"] {
        if let Some(Value::Array(items)) = tool.get(key) {
            texts.extend(items.iter().filter_map(Value::as_str).map(str::to_string));
        }
    }
    for key in [
        "input_schema",
        "inputSchema",
        "parameters",
        "parametersJsonSchema",
        "schema",
    ] {
        if let Some(schema) = tool.get(key) {
            texts.push(schema.to_string());
            break;
        }
    }
    if let Some(Value::Object(results)) = tool.get("results") {
        texts.extend(
            results
                .values()
                .filter_map(Value::as_str)
                .map(str::to_string),
        );
    }
}
