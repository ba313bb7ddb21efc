//! The stack of `src/`'s top-level modules, bottom to top: a module imports only modules on
//! lower layers. Every `crate::` path outside `#[cfg(test)] mod` blocks is checked against
//! [`LAYERS`]; an import against the order fails with its file and line. (The upward imports
//! from before the guard are gone, and with them its allow-list: none may come back.)

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Bottom to top. Modules on one layer do not import each other either.
const LAYERS: &[(&str, &[&str])] = &[
    ("shared pieces", &["text", "parallel", "atomic_write"]),
    ("parsing", &["parse"]),
    ("errors", &["error"]),
    ("option values", &["options"]),
    ("findings", &["diagnostic"]),
    ("token counting", &["tokens"]),
    ("target profiles", &["targets"]),
    ("normalizing", &["normalize"]),
    // Above normalize: discovery knows a tool file by what normalize reads.
    ("reading", &["read"]),
    ("the rule API", &["rule"]),
    ("the search engine", &["search"]),
    ("the checks", &["rules"]),
    ("the catalog", &["catalog"]),
    ("configuration", &["config"]),
    ("suppression", &["suppress"]),
    ("the engine", &["lint"]),
    ("rendering", &["render"]),
    (
        "commands",
        &[
            "compat",
            "diff",
            "fix",
            "init",
            "snapshot",
            "token_report",
            "watch",
        ],
    ),
    ("the command line", &["cli"]),
    ("entry points", &["lib", "main"]),
];

/// One `crate::` path: where it is and which top-level module it names.
#[derive(Debug, PartialEq)]
struct Use {
    line: usize,
    module: String,
    path: String,
}

/// One import of a module by another, where it is written.
struct Import {
    from: String,
    place: String,
    used: Use,
}

#[test]
fn imports_run_down_the_stack() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect_rust_files(&src, &mut files);
    files.sort();

    let mut modules: Vec<String> = files.iter().map(|file| top_module(&src, file)).collect();
    modules.sort();
    modules.dedup();
    let mut imports = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("src file is UTF-8");
        for used in crate_paths(&text) {
            imports.push(Import {
                from: top_module(&src, file),
                place: format!("{}:{}", shown(file), used.line),
                used,
            });
        }
    }

    let problems = judge(&modules, &imports);
    assert!(
        problems.is_empty(),
        "imports against the stack of src/ (CONTRIBUTING.md, \"The layers\"):\n{problems}"
    );
}

#[test]
fn an_upward_import_fails_with_its_place_and_a_module_off_the_stack_is_named() {
    let import = |from: &str, module: &str, line: usize| Import {
        from: from.to_string(),
        place: format!("src/{from}/x.rs:{line}"),
        used: Use {
            line,
            module: module.to_string(),
            path: format!("crate::{module}::Thing"),
        },
    };
    let modules: Vec<String> = LAYERS
        .iter()
        .flat_map(|(_, modules)| modules.iter().map(|module| module.to_string()))
        .collect();
    let imports = [import("rules", "lint", 3), import("lint", "rules", 4)];

    let upward = judge(&modules, &imports);
    assert!(
        upward.contains("rules imports lint, which sits above it")
            && upward.contains("(1 use)")
            && upward.contains("    src/rules/x.rs:3: crate::lint::Thing"),
        "{upward}"
    );
    assert!(
        !upward.contains("x.rs:4"),
        "a downward import passes: {upward}"
    );
    assert_eq!(judge(&modules, &imports[1..]), "");
    let new_module = judge(&["newcomer".to_string()], &[]);
    assert!(
        new_module.contains("module `newcomer` is on no layer"),
        "{new_module}"
    );
    let same_layer = judge(&modules, &[import("diff", "fix", 5)]);
    assert!(
        same_layer.contains("diff imports fix, which sits on its own layer (commands)"),
        "{same_layer}"
    );
}

/// What is wrong with `imports` against [`LAYERS`], one problem a line; empty when nothing is.
fn judge(modules: &[String], imports: &[Import]) -> String {
    let layer_of = layer_of_module();
    let mut problems = String::new();
    for module in modules {
        if !layer_of.contains_key(module.as_str()) {
            let _ = writeln!(
                problems,
                "src/{module}: module `{module}` is on no layer: add it to LAYERS in tests/layers.rs"
            );
        }
    }
    for &(_, on_layer) in LAYERS {
        for module in on_layer {
            if !modules.iter().any(|known| known == module) {
                let _ = writeln!(
                    problems,
                    "LAYERS names `{module}`, which is not a module of src/: remove it"
                );
            }
        }
    }

    // (from, to) -> the upward uses, in file and line order.
    let mut upward: BTreeMap<(&str, &str), Vec<String>> = BTreeMap::new();
    for import in imports {
        let (from, to) = (import.from.as_str(), import.used.module.as_str());
        let Some(&from_layer) = layer_of.get(from) else {
            continue;
        };
        if to == from {
            continue;
        }
        let Some(&to_layer) = layer_of.get(to) else {
            let _ = writeln!(
                problems,
                "{}: `{}` names no module of src/",
                import.place, import.used.path
            );
            continue;
        };
        if to_layer >= from_layer {
            upward
                .entry((from, to))
                .or_default()
                .push(format!("{}: {}", import.place, import.used.path));
        }
    }

    for (&(from, to), places) in &upward {
        let (from_layer, to_layer) = (layer_of[from], layer_of[to]);
        let direction = if from_layer == to_layer {
            format!("on its own layer ({})", LAYERS[to_layer].0)
        } else {
            format!(
                "above it ({to} is on layer {}, {}; {from} on layer {}, {})",
                to_layer + 1,
                LAYERS[to_layer].0,
                from_layer + 1,
                LAYERS[from_layer].0
            )
        };
        let _ = writeln!(
            problems,
            "{from} imports {to}, which sits {direction} ({}). Move what {from} needs down to a \
             lower layer (or {from} up) rather than import upward:",
            uses(places.len())
        );
        for place in places {
            let _ = writeln!(problems, "    {place}");
        }
    }
    problems
}

fn uses(count: usize) -> String {
    if count == 1 {
        "1 use".to_string()
    } else {
        format!("{count} uses")
    }
}

fn layer_of_module() -> BTreeMap<&'static str, usize> {
    let mut layer_of = BTreeMap::new();
    for (layer, &(_, modules)) in LAYERS.iter().enumerate() {
        for &module in modules {
            assert!(
                layer_of.insert(module, layer).is_none(),
                "`{module}` is on two layers in LAYERS"
            );
        }
    }
    layer_of
}

fn collect_rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("src/ entry").path();
        if path.is_dir() {
            collect_rust_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

/// `src/lint/file.rs` -> `lint`, `src/cli.rs` -> `cli`.
fn top_module(src: &Path, file: &Path) -> String {
    let first = file
        .strip_prefix(src)
        .expect("under src/")
        .components()
        .next()
        .expect("a file under src/");
    let name = first.as_os_str().to_string_lossy();
    name.strip_suffix(".rs").unwrap_or(&name).to_string()
}

fn shown(file: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    file.strip_prefix(root)
        .unwrap_or(file)
        .display()
        .to_string()
}

/// Every `crate::` path in Rust source, with comments, string and character literals and
/// `#[cfg(test)] mod … { … }` blocks left out; a grouped `crate::{a, b::c}` gives one use per
/// member.
fn crate_paths(text: &str) -> Vec<Use> {
    let code = code_only(text);
    let bytes = code.as_bytes();
    let mut uses = Vec::new();
    let mut at = 0;
    while let Some(found) = code[at..].find("crate::") {
        let start = at + found;
        at = start + "crate::".len();
        let preceded_by_identifier = start > 0 && is_identifier_byte(bytes[start - 1]);
        if preceded_by_identifier || code[..start].ends_with("$") {
            continue;
        }
        let line = 1 + code[..start].matches('\n').count();
        if bytes.get(at) == Some(&b'{') {
            for member in group_members(&code[at + 1..]) {
                let module = identifier_at(member);
                if !module.is_empty() && module != "self" {
                    uses.push(Use {
                        line,
                        module: module.to_string(),
                        path: format!("crate::{}", member.trim()),
                    });
                }
            }
        } else {
            let module = identifier_at(&code[at..]);
            if !module.is_empty() {
                let rest = &code[at..];
                let path_len = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .unwrap_or(rest.len());
                uses.push(Use {
                    line,
                    module: module.to_string(),
                    path: format!("crate::{}", rest[..path_len].trim_end_matches(':')),
                });
            }
        }
    }
    uses
}

/// The members of a group that starts just after its `{`, split at the commas of its own
/// level (a member may hold a group of its own).
fn group_members(text: &str) -> Vec<&str> {
    let mut members = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (index, byte) in text.bytes().enumerate() {
        match byte {
            b'{' => depth += 1,
            b'}' if depth == 0 => {
                members.push(&text[start..index]);
                break;
            }
            b'}' => depth -= 1,
            b',' if depth == 0 => {
                members.push(&text[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    members.retain(|member| !member.trim().is_empty());
    members
}

fn identifier_at(text: &str) -> &str {
    let text = text.trim_start();
    let len = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..len]
}

fn is_identifier_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// The source with comments, literals and test modules blanked out; newlines are kept so
/// that line numbers stay right.
fn code_only(text: &str) -> String {
    let without_literals = blank_comments_and_literals(text);
    blank_test_modules(&without_literals)
}

fn blank_comments_and_literals(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    // Blanks bytes[from..to], keeping newlines.
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        out.extend(
            bytes[from..to]
                .iter()
                .map(|&b| if b == b'\n' { b'\n' } else { b' ' }),
        );
    };
    while at < bytes.len() {
        let rest = &bytes[at..];
        if rest.starts_with(b"//") {
            let end = text[at..].find('\n').map_or(bytes.len(), |n| at + n);
            blank(&mut out, at, end);
            at = end;
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut end) = (0usize, at);
            while end < bytes.len() {
                if bytes[end..].starts_with(b"/*") {
                    depth += 1;
                    end += 2;
                } else if bytes[end..].starts_with(b"*/") {
                    depth -= 1;
                    end += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    end += 1;
                }
            }
            blank(&mut out, at, end);
            at = end;
        } else if let Some(end) = raw_string_end(bytes, at) {
            blank(&mut out, at, end);
            at = end;
        } else if bytes[at] == b'"' {
            let mut end = at + 1;
            while end < bytes.len() && bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            let end = (end + 1).min(bytes.len());
            blank(&mut out, at, end);
            at = end;
        } else if bytes[at] == b'\'' {
            // A character literal ('x', '\n', '\u{1F600}', 'é') or a lifetime ('a).
            let end = if rest.get(1) == Some(&b'\\') {
                text[at + 2..]
                    .find('\'')
                    .map_or(bytes.len(), |n| at + 2 + n + 1)
            } else {
                let next = text[at + 1..].chars().next().map_or(0, char::len_utf8);
                if bytes.get(at + 1 + next) == Some(&b'\'') {
                    at + 1 + next + 1
                } else {
                    at + 1
                }
            };
            blank(&mut out, at, end);
            at = end;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII was blanked")
}

/// Where a raw string (`r"…"`, `r#"…"#`, `br"…"`) that starts at `at` ends.
fn raw_string_end(bytes: &[u8], at: usize) -> Option<usize> {
    if at > 0 && is_identifier_byte(bytes[at - 1]) {
        return None;
    }
    let mut cursor = at;
    if bytes.get(cursor) == Some(&b'b') {
        cursor += 1;
    }
    if bytes.get(cursor) != Some(&b'r') {
        return None;
    }
    cursor += 1;
    let hashes = bytes[cursor..].iter().take_while(|&&b| b == b'#').count();
    cursor += hashes;
    if bytes.get(cursor) != Some(&b'"') {
        return None;
    }
    let mut closing = vec![b'"'];
    closing.extend(std::iter::repeat_n(b'#', hashes));
    let body = cursor + 1;
    let end = bytes[body..]
        .windows(closing.len())
        .position(|window| window == closing.as_slice())
        .map_or(bytes.len(), |n| body + n + closing.len());
    Some(end)
}

/// Blanks each `#[cfg(test)] mod name { … }` (after comments and literals are gone, so its
/// braces balance).
fn blank_test_modules(code: &str) -> String {
    let mut out = code.as_bytes().to_vec();
    let mut at = 0;
    while let Some(found) = code[at..].find("#[cfg(test)]") {
        let start = at + found;
        at = start + "#[cfg(test)]".len();
        let after = code[at..].trim_start();
        let Some(module) = after.strip_prefix("mod ") else {
            continue;
        };
        let name = identifier_at(module);
        let after_name = module.trim_start()[name.len()..].trim_start();
        if !after_name.starts_with('{') {
            continue;
        }
        let open = code.len() - after_name.len();
        let mut depth = 0usize;
        let mut end = code.len();
        for (index, byte) in code[open..].bytes().enumerate() {
            match byte {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + index + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        for byte in &mut out[start..end] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
        at = end;
    }
    String::from_utf8(out).expect("only ASCII was blanked")
}

#[test]
fn paths_are_read_as_the_compiler_reads_them() {
    let source = r##"
use crate::lint::rule::Ctx;
use crate::{parse::{Node, source::Span}, text};
// use crate::config;
/* crate::catalog /* nested */ crate::render */
const URL: &str = "https://example.com/crate::diff";
const RAW: &str = r#"crate::fix "quoted""#;
fn f<'a>(x: &'a str) -> char { let _ = crate::tokens::count(x); '"' }
mycrate::snapshot::run();
#[cfg(test)]
mod tests {
    use crate::watch;
    fn g() { let s = "}"; }
}
fn after() { crate::diagnostic::Finding::new(); }
"##;
    let found: Vec<String> = crate_paths(source)
        .iter()
        .map(|found| format!("{} {} {}", found.line, found.module, found.path))
        .collect();
    assert_eq!(
        found,
        [
            "2 lint crate::lint::rule::Ctx",
            "3 parse crate::parse::{Node, source::Span}",
            "3 text crate::text",
            "8 tokens crate::tokens::count",
            "15 diagnostic crate::diagnostic::Finding::new",
        ]
    );
}
