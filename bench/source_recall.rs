//! Recall of tools read from server source (docs/sources.md): for each server of a list, the
//! tools toolcheck reads statically from its published package, compared with the same
//! version's live `tools/list`. `bench/source-recall.sh` fetches the packages and runs this.
//!
//! Usage: `cargo run --release --example source_recall -- LIST`, where each line of LIST is
//! `NAME LISTING.json PACKAGE_DIR`. Prints a Markdown table, the totals and the misses.
//!
//! A tool is found when a registration of its name is read; its description is the same when
//! byte-identical (absent on both sides counts; a harness tool's `promptSnippet` and
//! `promptGuidelines` too); its schema (`inputSchema`, a harness tool's `parameters`, a Messages API tool's
//! `input_schema`) is equivalent when the properties,
//! their types and descriptions, and `required` are the same.
//!
//! `SOURCE_RECALL_SHOW=NAME` prints the tool NAME as read and as listed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use serde_json::Value;
use toolcheck::parse::code::{Imports, Language, parse};

#[derive(Default)]
struct Counts {
    tools: usize,
    found: usize,
    same_description: usize,
    same_schema: usize,
}

fn main() {
    let list = std::env::args().nth(1).expect("usage: source_recall LIST");
    let list = std::fs::read_to_string(&list).expect("the list reads");
    let mut totals = Counts::default();
    let mut misses = Vec::new();
    println!("| server | tools | found | same description | same schema |");
    println!("|---|---:|---:|---:|---:|");
    for line in list.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let [name, listing, dir] = line.split_whitespace().collect::<Vec<_>>()[..] else {
            panic!("a line is `NAME LISTING DIR`: {line}");
        };
        let listing: Value =
            serde_json::from_str(&std::fs::read_to_string(listing).expect("the listing reads"))
                .expect("the listing is JSON");
        let read = read_tools(Path::new(dir));
        let mut counts = Counts::default();
        // A `tools/list` result, or a harness's bare array of tools.
        let listed = listing["tools"].as_array().or(listing.as_array());
        for live in listed.expect("a tools array") {
            let tool = live["name"].as_str().unwrap_or_default();
            counts.tools += 1;
            let Some(registrations) = read.get(tool) else {
                misses.push(format!("{name}: `{tool}` not found"));
                continue;
            };
            counts.found += 1;
            // A harness tool's snippet and guidelines are read with its description.
            let text = |tool: &Value| {
                ["description", "promptSnippet", "promptGuidelines"]
                    .map(|key| tool.get(key).cloned())
            };
            let same_schema =
                |source: &Value| shape(input_schema(live)) == shape(input_schema(source));
            // A name registered more than once (tools that replace one another, variants
            // chosen by a setting): the registration that agrees best with the listing.
            let source = registrations
                .iter()
                .max_by_key(|source| (text(live) == text(source), same_schema(source)))
                .expect("a name read has a registration");
            if std::env::var("SOURCE_RECALL_SHOW").is_ok_and(|show| show == tool) {
                println!("read: {source:#}\nlisted: {live:#}");
            }
            if text(live) == text(source) {
                counts.same_description += 1;
            } else {
                misses.push(format!("{name}: `{tool}` description differs"));
            }
            if same_schema(source) {
                counts.same_schema += 1;
            } else {
                misses.push(format!("{name}: `{tool}` schema differs"));
            }
        }
        println!(
            "| {name} | {} | {} | {} | {} |",
            counts.tools, counts.found, counts.same_description, counts.same_schema
        );
        totals.tools += counts.tools;
        totals.found += counts.found;
        totals.same_description += counts.same_description;
        totals.same_schema += counts.same_schema;
    }
    let percent = |part: usize, whole: usize| 100.0 * part as f64 / whole.max(1) as f64;
    println!(
        "| **all** | {} | {} ({:.1}%) | {} ({:.1}% of found) | {} ({:.1}% of found) |",
        totals.tools,
        totals.found,
        percent(totals.found, totals.tools),
        totals.same_description,
        percent(totals.same_description, totals.found),
        totals.same_schema,
        percent(totals.same_schema, totals.found),
    );
    println!();
    for miss in misses {
        println!("- {miss}");
    }
}

/// The tools the source files under `dir` register, by name (each registration of a name),
/// read as `toolcheck lint` reads them: installed dependencies left out, files
/// without a registration keyword not parsed.
fn read_tools(dir: &Path) -> HashMap<String, Vec<Value>> {
    let mut tools = HashMap::new();
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if entry.file_name() != "node_modules" {
                    pending.push(path);
                }
            } else if Language::of(&path).is_some() && !path.to_string_lossy().ends_with("_test.go")
            {
                files.push(path);
            }
        }
    }
    files.sort();
    for path in files {
        let Some(language) = Language::of(&path) else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if !language.may_register_tools(&text) {
            continue;
        }
        let read = |path: &Path| std::fs::read_to_string(path).ok();
        let imports = Imports {
            path: &path,
            read: &read,
            list: &|directory: &Path| {
                let mut files: Vec<_> = std::fs::read_dir(directory)
                    .map(|entries| entries.filter_map(|e| Some(e.ok()?.path())).collect())
                    .unwrap_or_default();
                files.sort();
                files
            },
        };
        let Ok(root) = parse(&text, language, Some(&imports)) else {
            continue;
        };
        for tool in root.to_json()["tools"].as_array().into_iter().flatten() {
            if let Some(name) = tool["name"].as_str() {
                tools
                    .entry(name.to_string())
                    .or_insert_with(Vec::new)
                    .push(tool.clone());
            }
        }
    }
    tools
}

/// An MCP tool's `inputSchema`, a harness tool's `parameters`, a Messages API tool's
/// `input_schema`.
fn input_schema(tool: &Value) -> &Value {
    ["inputSchema", "input_schema"]
        .iter()
        .find_map(|key| tool.get(key))
        .unwrap_or(&tool["parameters"])
}

/// What "an equivalent input schema" compares: each property's type and description, and
/// which are required.
fn shape(schema: &Value) -> (BTreeMap<String, (Value, Value)>, BTreeSet<String>) {
    let properties = schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, property)| {
            let kind = property.get("type").cloned().unwrap_or(Value::Null);
            let description = property.get("description").cloned().unwrap_or(Value::Null);
            (name.clone(), (kind, description))
        })
        .collect();
    let required = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|name| name.as_str().map(str::to_string))
        .collect();
    (properties, required)
}
