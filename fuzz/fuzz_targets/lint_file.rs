//! The whole lint of one file with every rule on, as YAML and as JSON, and as JSON once more
//! with every target selected (the `targets` rules).
#![no_main]

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::lint("f.yaml", data);
    common::lint("f.json", data);
    common::lint_with(common::targeted_linter(), "f.json", data);
});
