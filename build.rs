//! Embeds the rule catalog (`rules/<family>/<rule-name>.yaml`) and links each native check
//! (`src/rules/<family>/<rule_name>.rs`) to its entry. The build fails when an entry sits in
//! the wrong family folder, when an entry names a native check that does not exist, or when a
//! native check has no entry, so the catalog and the code cannot drift apart.
//!
//! Also embeds the target profiles (`targets/<name>.yaml`) and turns the token vocabularies (`src/tokens/vocab/*.tokens`) into tables the binary reads
//! in place (`token_tables`).

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Files of `src/rules/<family>/` that are not checks of their own.
const NOT_CHECKS: &[&str] = &["mod.rs", "helpers.rs"];

struct Entry {
    path: PathBuf,
    family: String,
    name: String,
    native: Option<String>,
}

fn main() {
    // Read when the script runs, not when it was compiled: a build of another checkout that
    // shares this target directory (scripts/pre-commit-check.sh) reuses the compiled script.
    let manifest_dir =
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest_dir);
    println!("cargo:rerun-if-changed=rules");
    println!("cargo:rerun-if-changed=src/rules");
    let mut problems = Vec::new();
    let entries = read_catalog(root, &mut problems);
    check_native_files(root, &entries, &mut problems);
    if !problems.is_empty() {
        panic!(
            "the rule catalog and the native checks disagree:\n  - {}\n",
            problems.join("\n  - ")
        );
    }
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out).join("catalog.rs"), generate(root, &entries))
        .expect("OUT_DIR is writable");
    token_tables(root, Path::new(&out));
    std::fs::write(Path::new(&out).join("targets.rs"), target_profiles(root))
        .expect("OUT_DIR is writable");
}

/// Every `targets/<name>.yaml`, embedded as `(path, text)` (src/targets/mod.rs reads them).
fn target_profiles(root: &Path) -> String {
    println!("cargo:rerun-if-changed=targets");
    let mut out = String::from(
        "/// Every built-in target profile: its path and its text.\n\
         static BUILTIN_TARGETS: &[(&str, &str)] = &[\n",
    );
    for path in sorted_dir(&root.join("targets")) {
        if path.extension().is_none_or(|ext| ext != "yaml") {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        writeln!(
            out,
            "    ({:?}, include_str!({:?})),",
            shown.replace('\\', "/"),
            path.display().to_string()
        )
        .expect("writing to a String");
    }
    out.push_str("];\n");
    out
}

fn sorted_dir(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.sort();
    paths
}

/// The value of a top-level `key:` (or, with `indented`, a nested one) written on one line.
fn scalar(text: &str, key: &str, indented: bool) -> Option<String> {
    text.lines().find_map(|line| {
        let trimmed = line.trim_start();
        if !indented && trimmed.len() != line.len() {
            return None;
        }
        let value = trimmed.strip_prefix(key)?.strip_prefix(':')?;
        Some(value.trim().trim_matches('"').to_string())
    })
}

fn read_catalog(root: &Path, problems: &mut Vec<String>) -> Vec<Entry> {
    let mut entries = Vec::new();
    for dir in sorted_dir(&root.join("rules")) {
        let folder = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if !dir.is_dir() {
            problems.push(format!(
                "rules/{folder}: a catalog entry belongs in its family's folder, rules/<family>/"
            ));
            continue;
        }
        for path in sorted_dir(&dir) {
            if path.extension().is_none_or(|ext| ext != "yaml") {
                continue;
            }
            println!("cargo:rerun-if-changed={}", path.display());
            let shown = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            let family = scalar(&text, "family", false).unwrap_or_default();
            let name = scalar(&text, "name", false).unwrap_or_default();
            if family != folder {
                problems.push(format!(
                    "{shown}: `family: {family}` but the file is in rules/{folder}/"
                ));
            }
            if name != stem {
                problems.push(format!(
                    "{shown}: `name: {name}` but the file is named {stem}.yaml"
                ));
            }
            let native = scalar(&text, "native", true);
            if let Some(native) = &native {
                let expected = format!("src/rules/{family}/{}.rs", name.replace('-', "_"));
                if *native != expected {
                    problems.push(format!(
                        "{shown}: `native: {native}`, but rule `{name}`'s check is {expected}"
                    ));
                } else if !root.join(native).is_file() {
                    problems.push(format!("{shown}: its native check {native} does not exist"));
                }
            }
            entries.push(Entry {
                path: path.strip_prefix(root).unwrap_or(&path).to_path_buf(),
                family,
                name,
                native,
            });
        }
    }
    entries
}

fn check_native_files(root: &Path, entries: &[Entry], problems: &mut Vec<String>) {
    let named: BTreeSet<&str> = entries.iter().filter_map(|e| e.native.as_deref()).collect();
    for dir in sorted_dir(&root.join("src/rules")) {
        if !dir.is_dir() {
            continue;
        }
        let family = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let module = std::fs::read_to_string(dir.join("mod.rs")).unwrap_or_default();
        for path in sorted_dir(&dir) {
            let file = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if !file.ends_with(".rs") || NOT_CHECKS.contains(&file) {
                continue;
            }
            let shown = format!("src/rules/{family}/{file}");
            let stem = file.trim_end_matches(".rs");
            if !named.contains(shown.as_str()) {
                problems.push(format!(
                    "{shown} has no catalog entry: add rules/{family}/{}.yaml with \
                     `then: {{ native: {shown} }}` (or move shared code into helpers.rs)",
                    stem.replace('_', "-")
                ));
            }
            if !module.contains(&format!("pub mod {stem};")) {
                problems.push(format!(
                    "{shown} is not declared in src/rules/{family}/mod.rs: add `pub mod {stem};`"
                ));
            }
        }
    }
}

/// `guidelines_too_long` → `GuidelinesTooLong`.
fn camel(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or(String::new(), |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

fn generate(root: &Path, entries: &[Entry]) -> String {
    let mut out = String::from(
        "/// Every built-in catalog entry: its path, its text, and its native check, if any.\n\
         pub(crate) static BUILTIN: &[Builtin] = &[\n",
    );
    let mut impls = String::new();
    for entry in entries {
        let path = entry.path.display().to_string().replace('\\', "/");
        let native = match &entry.native {
            Some(_) => {
                let module = entry.name.replace('-', "_");
                let ty = format!(
                    "crate::rules::{}::{module}::{}",
                    entry.family,
                    camel(&module)
                );
                writeln!(
                    impls,
                    "impl crate::catalog::NativeCheck for {ty} {{\n    const NAME: &'static str = {:?};\n}}",
                    entry.name
                )
                .expect("writing to a String");
                format!("Some(crate::catalog::build_native::<{ty}>)")
            }
            None => "None".to_string(),
        };
        writeln!(
            out,
            "    Builtin {{ path: {path:?}, text: include_str!({:?}), native: {native} }},",
            root.join(&entry.path).display().to_string()
        )
        .expect("writing to a String");
    }
    out.push_str("];\n\n");
    out.push_str(&impls);
    out
}

// Token vocabularies ------------------------------------------------------------------------

#[path = "src/tokens/table.rs"]
mod table;

/// Writes `<name>.bytes`, `<name>.offsets` and `<name>.slots` into `OUT_DIR` for each
/// vocabulary of `src/tokens/vocab/` (layout: src/tokens/table.rs), so that the binary maps
/// them with `include_bytes!` and looks tokens up in place: nothing is deserialized at run time.
fn token_tables(root: &Path, out: &Path) {
    for name in ["o200k_base", "cl100k_base"] {
        let source = root.join(format!("src/tokens/vocab/{name}.tokens"));
        println!("cargo:rerun-if-changed={}", source.display());
        let vocab = std::fs::read(&source).expect("src/tokens/vocab/*.tokens are readable");
        let mut bytes = Vec::with_capacity(vocab.len());
        let mut offsets: Vec<u32> = vec![0];
        let mut at = 0;
        while at < vocab.len() {
            let len = usize::from(vocab[at]);
            let token = vocab
                .get(at + 1..at + 1 + len)
                .expect("a token's bytes follow its length");
            bytes.extend_from_slice(token);
            offsets.push(u32::try_from(bytes.len()).expect("under 4 GB"));
            at += 1 + len;
        }
        let tokens = offsets.len() - 1;
        assert!(
            tokens < table::RANK_MASK as usize,
            "{name}: too many tokens"
        );
        // The tokenizer counts a one-byte piece as one token without a look-up.
        let single: BTreeSet<u8> = offsets
            .windows(2)
            .filter(|w| w[1] - w[0] == 1)
            .map(|w| bytes[w[0] as usize])
            .collect();
        assert_eq!(single.len(), 256, "{name}: not every byte is a token");
        // At most half full (both vocabularies: 38%), so that misses, most pair look-ups, end
        // after a probe or two.
        let size = (tokens * 2).next_power_of_two();
        let mut slots = vec![table::EMPTY; size];
        for rank in 0..tokens {
            let token = &bytes[offsets[rank] as usize..offsets[rank + 1] as usize];
            let hash = table::hash(token);
            let mut slot = hash as usize & (size - 1);
            while slots[slot] != table::EMPTY {
                let other = (slots[slot] & table::RANK_MASK) as usize;
                assert!(
                    &bytes[offsets[other] as usize..offsets[other + 1] as usize] != token,
                    "{name}: token {rank} repeats token {other}"
                );
                slot = (slot + 1) & (size - 1);
            }
            slots[slot] = table::tag(hash) | rank as u32;
        }
        let words = |values: &[u32]| -> Vec<u8> {
            values
                .iter()
                .flat_map(|value| value.to_le_bytes())
                .collect()
        };
        let write = |ext: &str, data: &[u8]| {
            std::fs::write(out.join(format!("{name}.{ext}")), data).expect("OUT_DIR is writable");
        };
        write("bytes", &bytes);
        write("offsets", &words(&offsets));
        write("slots", &words(&slots));
    }
}
