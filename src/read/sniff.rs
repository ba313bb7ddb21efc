//! Whether a `.json`, `.yaml` or `.yml` file holds tool definitions, for content discovery.
//! Only the first [`SNIFF_BYTES`] are read and parsed: the shape of a tool file shows at its
//! start, and a directory of large unrelated files must stay cheap to walk.

use std::io::Read;
use std::path::Path;

/// How much of a file is read to decide.
pub const SNIFF_BYTES: usize = 64 * 1024;

/// JSON (`Some(true)`) or YAML (`Some(false)`) by extension; `None` for other files, which
/// content discovery never reads.
pub fn manifest_extension(path: &Path) -> Option<bool> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    match extension.as_str() {
        "json" => Some(true),
        "yaml" | "yml" => Some(false),
        _ => None,
    }
}

/// Whether a walk reads `path` as a source file that may register tools: named as one, and not
/// a TypeScript declaration file (`.d.ts`), which describes types and registers nothing, or a
/// Go test (`_test.go`), which is not built into the server.
pub fn is_source(path: &Path) -> bool {
    let declaration = path
        .file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| {
            [".d.ts", ".d.mts", ".d.cts", "_test.go"]
                .iter()
                .any(|end| name.ends_with(end))
        });
    !declaration && crate::parse::code::Language::of(path).is_some()
}

/// Whether the source file at `path` registers a tool toolcheck can read: files without a
/// registration keyword are not parsed at all.
pub fn registers_tools(path: &Path) -> bool {
    let Some(language) = crate::parse::code::Language::of(path) else {
        return false;
    };
    let Ok(bytes) = super::read_file(path, "file", super::DEFAULT_MAX_FILE_SIZE) else {
        return false;
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return false;
    };
    let imports = crate::parse::code::Imports {
        path,
        read: &super::imported_text,
        list: &super::directory_files,
    };
    language.may_register_tools(text)
        && crate::parse::code::parse(text, language, Some(&imports)).is_ok_and(|root| {
            root.get("tools")
                .and_then(|tools| tools.as_array())
                .is_some_and(|tools| !tools.is_empty())
        })
}

/// Whether the file at `path` (`.json`, `.yaml` or `.yml`) holds tool definitions, judged
/// from its first [`SNIFF_BYTES`]. A file that cannot be read, is not UTF-8 or does not
/// parse is not one.
pub fn holds_tools(path: &Path) -> bool {
    let Some(json) = manifest_extension(path) else {
        return false;
    };
    let mut bytes = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|file| file.take(SNIFF_BYTES as u64 + 1).read_to_end(&mut bytes));
    if read.is_err() {
        return false;
    }
    let whole = bytes.len() <= SNIFF_BYTES;
    bytes.truncate(SNIFF_BYTES);
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        // A cut through the middle of a character is not an encoding error.
        Err(error) if !whole && bytes.len() - error.valid_up_to() < 4 => {
            std::str::from_utf8(&bytes[..error.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return false,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let complete = if whole {
        Some(text.to_string())
    } else if json {
        closed_json(text)
    } else {
        // Whole lines of YAML; a cut inside a flow collection or a quoted string fails to
        // parse and is not taken for tools.
        text.rfind('\n').map(|end| text[..=end].to_string())
    };
    complete
        .and_then(|text| crate::parse::parse(&text, json).ok())
        .is_some_and(|root| crate::normalize::looks_like_tools(&root))
}

/// A prefix of a JSON document made whole: cut after its last complete value (or opening
/// bracket) and closed with the brackets still open there. `None` when no bracket opens it.
fn closed_json(prefix: &str) -> Option<String> {
    let mut open: Vec<u8> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    // Where to cut, and how many brackets are open there.
    let mut cut: Option<(usize, usize)> = None;
    for (index, byte) in prefix.bytes().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                open.push(byte);
                cut = Some((index + 1, open.len()));
            }
            b'}' | b']' => {
                open.pop();
                cut = Some((index + 1, open.len()));
            }
            // The value before a comma is complete: cut before the comma.
            b',' => cut = Some((index, open.len())),
            _ => {}
        }
    }
    let (end, depth) = cut?;
    let mut text = prefix[..end].to_string();
    for bracket in open.iter().take(depth).rev() {
        text.push(if *bracket == b'{' { '}' } else { ']' });
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::closed_json;

    #[test]
    fn a_json_prefix_is_closed_after_its_last_complete_value() {
        let cases = [
            (
                r#"{"tools": [{"name": "a", "inputSchema": {"type": "obj"#,
                r#"{"tools": [{"name": "a", "inputSchema": {}}]}"#,
            ),
            (
                r#"{"tools": [{"name": "a"}, {"na"#,
                r#"{"tools": [{"name": "a"}, {}]}"#,
            ),
            (r#"[{"name": "a, [b", "x": 1"#, r#"[{"name": "a, [b"}]"#),
            (r#"{"a": "\"{", "b": [1, 2"#, r#"{"a": "\"{", "b": [1]}"#),
            (r#"{"#, r#"{}"#),
        ];
        for (prefix, closed) in cases {
            assert_eq!(closed_json(prefix).as_deref(), Some(closed), "{prefix}");
        }
        assert_eq!(closed_json(r#""just a string"#), None);
    }
}
