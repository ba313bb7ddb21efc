//! The YAML parser: never panics; on success every span is in place.
#![no_main]

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(root) = toolcheck::parse::yaml::parse(text)
    {
        common::check_tree(text, &root);
    }
});
