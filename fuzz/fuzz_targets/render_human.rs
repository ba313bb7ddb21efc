//! Lint, then every renderer: human, JSON (which must parse), SARIF and GitHub annotations.
#![no_main]

#[path = "common.rs"]
mod common;

use toolcheck::render::{self, Summary};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let name = if data.first().is_some_and(|b| b % 2 == 0) {
        "f.json"
    } else {
        "f.yaml"
    };
    let reports = common::lint(name, data);
    let summary = Summary::of(&reports);
    let style = render::human::Style {
        color: false,
        links: false,
        width: 100,
    };
    let _ = render::human::render(render::diagnostics(&reports), &summary, style, false);
    let json = render::json::render(&reports, Default::default());
    serde_json::from_str::<serde_json::Value>(&json).expect("the JSON output parses");
    let registry = common::registry();
    let _ = render::sarif::render(render::diagnostics(&reports), registry);
    let _ = render::github::render(render::diagnostics(&reports), &summary, false);
});
