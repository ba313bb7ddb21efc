//! `toolcheck snapshot`: a live server's `{server, instructions, tools}` written as pretty
//! JSON, one file per server, to commit and lint offline (as GitHub's MCP server commits its
//! `toolsnaps`); `--check` compares with the committed files instead.
//!
//! The text is exactly what `lint --mcp` lints, so a finding's line and column are the same in
//! both. Keys and tools keep the server's order: the order is part of what the model reads.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{Error, Result};
use crate::read::live::Capture;

/// The file a server's snapshot goes to: its name, with what a file name cannot hold made `-`,
/// and `.tools.json`, which the default `include` reads (`toolcheck lint toolsnaps`).
pub fn file_name(server: &str) -> String {
    let mut name: String = server
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '_' | '-' | '@' => c,
            _ => '-',
        })
        .collect();
    let trimmed = name.trim_matches(['.', '-']);
    name = if trimmed.is_empty() {
        "server".to_string()
    } else {
        trimmed.to_string()
    };
    format!("{name}.tools.json")
}

/// The first two servers whose snapshots would be one file (`a/b` and `a-b`, `.x` and `x`;
/// `X` and `x` too, one file where the file system ignores case), and that file's name.
pub fn collision<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> Option<(&'a str, &'a str, String)> {
    let mut seen: HashMap<String, &str> = HashMap::new();
    for name in names {
        let file = file_name(name);
        if let Some(first) = seen.insert(file.to_lowercase(), name) {
            return Some((first, name, file));
        }
    }
    None
}

/// Refuses a run whose servers would write one snapshot file.
pub fn refuse_collisions<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<()> {
    match collision(names) {
        Some((first, second, file)) => Err(Error::new(format!(
            "the servers `{first}` and `{second}` would both be snapshotted to {file}"
        ))
        .with_help("rename one of them in the host config (or with `--server-name`)")),
        None => Ok(()),
    }
}

/// What `--check` found for one server.
#[derive(Debug, PartialEq, Eq)]
pub enum Check {
    Same,
    Missing,
    /// The differences, one line each.
    Differs(Vec<String>),
}

/// Writes each capture to `dir`; returns the paths written.
pub fn write(captures: &[Capture], dir: &Path) -> Result<Vec<PathBuf>> {
    refuse_collisions(captures.iter().map(|capture| capture.name.as_str()))?;
    std::fs::create_dir_all(dir)
        .map_err(|error| Error::new(format!("cannot create `{}`: {error}", dir.display())))?;
    let mut written = Vec::new();
    for capture in captures {
        let path = dir.join(file_name(&capture.name));
        crate::atomic_write::replace(&path, capture.text.as_bytes())
            .map_err(|error| Error::new(format!("cannot write `{}`: {error}", path.display())))?;
        written.push(path);
    }
    Ok(written)
}

/// Compares a capture with the snapshot at `path`.
pub fn check(capture: &Capture, path: &Path) -> Result<Check> {
    let committed = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Check::Missing),
        Err(error) => {
            return Err(Error::new(format!(
                "cannot read `{}`: {error}",
                path.display()
            )));
        }
    };
    if committed == capture.text {
        return Ok(Check::Same);
    }
    let (old, new) = match (
        serde_json::from_str::<Value>(&committed),
        serde_json::from_str::<Value>(&capture.text),
    ) {
        (Ok(old), Ok(new)) => (old, new),
        _ => return Ok(Check::Differs(vec!["the text differs".to_string()])),
    };
    let mut lines = Vec::new();
    for key in ["server", "instructions"] {
        if old.get(key) != new.get(key) {
            lines.push(format!("~ {key}"));
        }
    }
    lines.extend(tool_changes(old.get("tools"), new.get("tools")));
    if lines.is_empty() {
        lines.push("the formatting differs (the content is the same)".to_string());
    }
    Ok(Check::Differs(lines))
}

/// Tools added, removed and changed (with the fields that changed), by name.
fn tool_changes(old: Option<&Value>, new: Option<&Value>) -> Vec<String> {
    let named = |tools: Option<&Value>| -> Vec<(String, Value)> {
        tools
            .and_then(Value::as_array)
            .map(|tools| {
                tools
                    .iter()
                    .map(|tool| {
                        let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
                        (name.to_string(), tool.clone())
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let (old, new) = (named(old), named(new));
    let old_by_name: HashMap<&str, &Value> = old.iter().map(|(n, t)| (n.as_str(), t)).collect();
    let new_by_name: HashMap<&str, &Value> = new.iter().map(|(n, t)| (n.as_str(), t)).collect();
    let mut lines = Vec::new();
    for (name, tool) in &new {
        match old_by_name.get(name.as_str()) {
            None => lines.push(format!("+ tool `{name}`")),
            Some(before) if *before != tool => {
                let mut fields: Vec<&str> = Vec::new();
                let keys = |value: &Value| -> Vec<String> {
                    value
                        .as_object()
                        .map(|object| object.keys().cloned().collect())
                        .unwrap_or_default()
                };
                let mut all = keys(before);
                for key in keys(tool) {
                    if !all.contains(&key) {
                        all.push(key);
                    }
                }
                for key in &all {
                    if before.get(key) != tool.get(key) {
                        fields.push(key);
                    }
                }
                lines.push(format!("~ tool `{name}`: {}", fields.join(", ")));
            }
            Some(_) => {}
        }
    }
    for (name, _) in &old {
        if !new_by_name.contains_key(name.as_str()) {
            lines.push(format!("- tool `{name}`"));
        }
    }
    let order = |tools: &[(String, Value)], other: &HashMap<&str, &Value>| -> Vec<String> {
        tools
            .iter()
            .filter(|(name, _)| other.contains_key(name.as_str()))
            .map(|(name, _)| name.clone())
            .collect()
    };
    if lines.is_empty() && order(&old, &new_by_name) != order(&new, &old_by_name) {
        lines.push("~ the order of the tools".to_string());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn capture(tools: Value) -> Capture {
        let text = serde_json::to_string_pretty(&json!({"server": "s", "tools": tools})).unwrap();
        Capture {
            name: "s".into(),
            text: text + "\n",
        }
    }

    #[test]
    fn file_names_keep_what_a_file_name_can_hold() {
        assert_eq!(
            file_name("mcp-servers/everything"),
            "mcp-servers-everything.tools.json"
        );
        assert_eq!(file_name("github"), "github.tools.json");
        assert_eq!(file_name("../x"), "x.tools.json");
        assert_eq!(file_name(""), "server.tools.json");
    }

    #[test]
    fn servers_whose_snapshots_would_be_one_file_are_refused_by_name() {
        assert_eq!(
            collision(["a/b", "github", "a-b"]),
            Some(("a/b", "a-b", "a-b.tools.json".to_string()))
        );
        assert_eq!(
            collision([".x", "x"]),
            Some((".x", "x", "x.tools.json".to_string()))
        );
        assert!(collision(["GitHub", "github"]).is_some());
        assert_eq!(collision(["a-b", "a_b", "a.b"]), None);
        // Nothing is written when two captures would share a file.
        let dir = std::env::temp_dir().join(format!("toolcheck-snap-clash-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let clash = |name: &str| Capture {
            name: name.into(),
            text: "{}\n".into(),
        };
        let error = write(&[clash("a/b"), clash("a-b")], &dir).unwrap_err();
        assert!(error.to_string().contains("`a/b` and `a-b`"), "{error}");
        assert!(!dir.join("a-b.tools.json").exists());
    }

    #[test]
    fn a_check_names_each_tool_added_removed_or_changed() {
        let dir = std::env::temp_dir().join(format!("toolcheck-snap-{}", std::process::id()));
        let old = capture(json!([
            {"name": "a", "description": "A."},
            {"name": "b", "description": "B."}
        ]));
        let paths = write(std::slice::from_ref(&old), &dir).unwrap();
        assert_eq!(check(&old, &paths[0]).unwrap(), Check::Same);
        let new = capture(json!([
            {"name": "a", "description": "A, changed."},
            {"name": "c", "description": "C."}
        ]));
        assert_eq!(
            check(&new, &paths[0]).unwrap(),
            Check::Differs(vec![
                "~ tool `a`: description".into(),
                "+ tool `c`".into(),
                "- tool `b`".into(),
            ])
        );
        let reordered = capture(json!([
            {"name": "b", "description": "B."},
            {"name": "a", "description": "A."}
        ]));
        assert_eq!(
            check(&reordered, &paths[0]).unwrap(),
            Check::Differs(vec!["~ the order of the tools".into()])
        );
        assert_eq!(
            check(&old, &dir.join("missing.json")).unwrap(),
            Check::Missing
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
