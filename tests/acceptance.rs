//! The example manifest of the README (`fixtures/examples/ask_user_question.tool.yaml`) lints
//! clean with every rule on; the same manifest with six flaws produces exactly one finding per
//! flaw, each at the flawed words or key.

mod common;

fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

#[test]
fn the_spec_example_lints_clean() {
    let name = "fixtures/examples/ask_user_question.tool.yaml";
    let report = common::lint_text(name, &read(name));
    assert_eq!(report.tools, 1);
    assert!(
        report.diagnostics.is_empty(),
        "{}",
        common::render_human(&report.diagnostics)
    );
}

#[test]
fn each_flaw_gives_exactly_one_finding_at_its_words() {
    let name = "fixtures/acceptance/ask_user_question_flawed.tool.yaml";
    let report = common::lint_text(name, &read(name));
    let found: Vec<(&str, &str, usize)> = report
        .diagnostics
        .iter()
        .map(|d| {
            (
                &*d.code,
                &d.file.text[d.span.clone()],
                d.file.line_column(d.span.start).line,
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("TC201", "\n", 6),
            ("TC204", "this tool", 10),
            ("TC209", "Always", 14),
            ("TC401", "anyOf", 17),
            ("TC301", "api_key", 20),
            ("TC403", "minItems", 31),
        ]
    );
    insta::assert_snapshot!(common::render_human(&report.diagnostics));
}

/// Two tools that overlap a third equally: the help names the first of them in the file, on
/// every run (the scores once summed in hash order, so the pick changed between runs).
#[test]
fn the_tool_named_in_the_anti_trigger_help_is_the_same_on_every_run() {
    let tool = |name: &str, description: &str| {
        serde_json::json!({"name": name, "description": description,
            "inputSchema": {"type": "object"}})
    };
    let text = serde_json::json!({"tools": [
        tool("book_flight", "Book a flight on an airline between two airports on a date."),
        tool("flights.search", "Search flights between two airports on a date. Not for hotels."),
        tool("flight.search", "Search flights between two airports on a date. Not for hotels."),
        tool("get_weather", "Get the weather of a city. Not for forecasts past a week."),
        tool("send_email", "Send an email to one person. Not for newsletters."),
        tool("read_file", "Read a text file from the disk. Not for directories."),
    ]})
    .to_string();
    for _ in 0..20 {
        let report = common::lint_text("flights.json", &text);
        let help = report
            .diagnostics
            .iter()
            .find(|d| &*d.code == "TC207" && d.tool.as_deref() == Some("book_flight"))
            .and_then(|d| d.help.as_deref())
            .expect("TC207 on book_flight, with a help");
        assert!(help.contains("use flights.search instead"), "{help}");
    }
}

/// Issue 31: the design's question tool (`fixtures/model-tool/`). Version 2, each text where
/// the model needs it, lints clean with the default rules and under `--target pi`; version 1
/// is flagged for each of its three faults: (1) no snippet (pi leaves it out of `Available
/// tools:`); (2) the recommendation a format on a condition (`If you recommend one`), never a
/// request; (3) its two log-style results, which do not say what to do next and which its
/// description never explains; and for the `minItems` a validating host answers with a
/// generic error.
#[test]
fn the_design_s_question_tool() {
    let dir = common::scratch("acceptance_model_tool");
    let lint = |file: &str, target: Option<&str>| {
        let path = common::root().join("fixtures/model-tool").join(file);
        let path = path.to_str().unwrap();
        let mut args = vec!["lint", "--no-config", "--format", "concise", "-q", path];
        if let Some(target) = target {
            args.extend(["--target", target]);
        }
        let (code, stdout, stderr) = common::run(&dir, &args, None);
        assert!(code == 0 || code == 1, "{stderr}");
        let codes: Vec<String> = stdout
            .lines()
            .filter_map(|line| line.split_whitespace().nth(2).map(str::to_string))
            .collect();
        codes
    };
    for target in [None, Some("pi")] {
        assert_eq!(
            lint("question-tool-v2.tool.yaml", target),
            Vec::<String>::new(),
            "{target:?}"
        );
    }
    assert_eq!(
        lint("question-tool-v1.tool.yaml", None),
        ["TC216", "TC403", "TC803", "TC801", "TC803", "TC801"]
    );
    assert_eq!(
        lint("question-tool-v1.tool.yaml", Some("pi")),
        [
            "TC611", "TC216", "TC403", "TC803", "TC801", "TC803", "TC801"
        ]
    );
}
