//! read → parse → normalize, as `toolcheck tokens` runs it: never panics, whatever the shape.
#![no_main]

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let registry = common::registry();
    // The first byte picks the syntax, so both readers see every shape.
    let name = if data.first().is_some_and(|b| b % 2 == 0) {
        "f.json"
    } else {
        "f.yaml"
    };
    let input = toolcheck::read::Input {
        name: name.to_string(),
        bytes: data.to_vec(),
    };
    let _ = toolcheck::lint::with_tool_set(input, registry, Default::default(), |set| {
        set.tools
            .iter()
            .map(|tool| tool.name().len())
            .sum::<usize>()
    });
});
