//! Lint, then every renderer: human, JSON and SARIF (which must parse), GitHub annotations.
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
    let mut sarif = Vec::new();
    let output = render::sarif::SarifOutput::new(&mut sarif, registry).expect("a Vec takes it");
    render::write_all(Box::new(output), &reports).expect("a Vec takes it");
    serde_json::from_slice::<serde_json::Value>(&sarif).expect("the SARIF output parses");
    let mut github = Vec::new();
    let output = render::github::GithubOutput {
        out: &mut github,
        quiet: false,
    };
    render::write_all(Box::new(output), &reports).expect("a Vec takes it");
});
