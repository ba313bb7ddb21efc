//! Tools read from TypeScript/JavaScript, Python and Go source: never panics; every span is in place, and a
//! string's words map to source text that holds them.
#![no_main]

#[path = "common.rs"]
mod common;

use toolcheck::parse::NodeKind;
use toolcheck::parse::code::{Imports, Language, parse};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The first two relative imports read the input again: values crossing files keep their
    // spans in the linted text. (More would only parse the same text again.)
    let reads = std::cell::Cell::new(0);
    let read = |_: &std::path::Path| {
        reads.set(reads.get() + 1);
        (reads.get() <= 2).then(|| text.to_string())
    };
    // A Go package's other file: the input again.
    let list = |_: &std::path::Path| vec![std::path::PathBuf::from("src/other.go")];
    let imports = Imports {
        path: std::path::Path::new("src/server.ts"),
        read: &read,
        list: &list,
    };
    for language in [
        Language::TypeScript,
        Language::Tsx,
        Language::Python,
        Language::Go,
    ] {
        let Ok(root) = parse(text, language, Some(&imports)) else {
            continue;
        };
        common::check_tree(text, &root);
        let mut stack = vec![&root];
        while let Some(node) = stack.pop() {
            match &node.kind {
                NodeKind::String(s) => {
                    let span = node.source_range(text, 0..s.value.len());
                    common::check_span(text, &span);
                }
                NodeKind::Array(items) => stack.extend(items),
                NodeKind::Object(entries) => stack.extend(entries.iter().map(|e| &e.value)),
                _ => {}
            }
        }
    }
});
