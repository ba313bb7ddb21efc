//! `toolcheck tokens`: the human table (snapshot), the JSON document (counts checked against
//! the tokenizer part by part), deferred tools, the recommendation, and exit codes.

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use toolcheck::tokens::Encoding;

const SMALL: &str = "fixtures/tokens/small.tools.yaml";

fn toolcheck(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_toolcheck"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn json(args: &[&str]) -> Value {
    let mut all = vec!["tokens", "--no-config", "--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = toolcheck(&all);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).expect("valid JSON")
}

fn count(text: &str) -> u64 {
    Encoding::O200kBase.count(text) as u64
}

#[test]
fn human_table() {
    let (code, stdout, stderr) = toolcheck(&["tokens", "--no-config", "--color", "never", SMALL]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn recommendation_when_the_set_crosses_ten_percent_of_the_window() {
    let (code, stdout, _) = toolcheck(&[
        "tokens",
        "--no-config",
        "--color",
        "never",
        "--window",
        "1000",
        SMALL,
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(stdout);
    let (_, stdout, _) = toolcheck(&["tokens", "--no-config", "--window", "100000", SMALL]);
    assert!(!stdout.contains("recommendation"), "{stdout}");
}

#[test]
fn json_counts_are_the_tokenizer_counts_of_each_part() {
    let report = json(&[SMALL]);
    assert_eq!(report["version"], 1);
    assert_eq!(report["tokenizer"], "o200k_base");
    assert_eq!(report["window"], 200_000);
    let file = &report["files"][0];
    assert_eq!(file["file"], SMALL);
    assert_eq!(file["error"], Value::Null);
    let tools = file["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["search_docs", "export_everything", "open_page", "ping"],
        "sorted by total, largest first"
    );

    let search = &tools[0]["tokens"];
    assert_eq!(search["name"], count("search_docs"));
    assert_eq!(
        search["snippet"],
        count("Search the product manual by keyword")
    );
    assert_eq!(
        search["description"],
        count("Search the product manual by keyword and return the ten best pages. Not for code.")
    );
    assert_eq!(
        search["guidelines"],
        count("Call search_docs when the user asks how the product works.")
            + count("Do not call search_docs for questions about source code.")
    );
    let schema = r#"{"type":"object","properties":{"query":{"type":"string","description":"Words to search for"},"limit":{"type":"integer","description":"How many pages to return"}},"required":["query"]}"#;
    assert_eq!(search["schema"], count(schema));
    let parts: u64 = ["name", "description", "snippet", "guidelines", "schema"]
        .iter()
        .map(|part| search[part].as_u64().unwrap())
        .sum();
    assert_eq!(search["total"], parts);

    let ping = &tools[3]["tokens"];
    assert_eq!(
        ping["total"],
        count("ping") + count("Check that the server is up.")
    );
    assert_eq!(ping["schema"], 0);

    // The deferred tool is listed but only in the deferred total.
    assert_eq!(tools[1]["deferred"], true);
    let total = |deferred: bool| -> u64 {
        tools
            .iter()
            .filter(|t| t["deferred"] == deferred)
            .map(|t| t["tokens"]["total"].as_u64().unwrap())
            .sum()
    };
    assert_eq!(file["loaded_tokens"], total(false));
    assert_eq!(file["deferred_tokens"], total(true));
    assert!(total(true) > 0);
    let share = file["window_share"].as_f64().unwrap();
    assert!((share - total(false) as f64 / 200_000.0).abs() < 1e-12);
    assert_eq!(file["over_threshold"], false);
    assert_eq!(
        file["instructions"],
        count("Use search_docs before answering questions about the product.")
    );
    assert_eq!(report["total"]["loaded_tokens"], total(false));
    assert_eq!(report["total"]["deferred_tools"], 1);
}

#[test]
fn json_window_and_tokenizer_options() {
    let report = json(&["--window", "1000", "--tokenizer", "cl100k_base", SMALL]);
    assert_eq!(report["tokenizer"], "cl100k_base");
    let file = &report["files"][0];
    assert_eq!(file["over_threshold"], true);
    let search = &file["tools"][0]["tokens"];
    assert_eq!(
        search["name"],
        Encoding::Cl100kBase.count("search_docs") as u64
    );
}

#[test]
fn same_totals_as_tool_too_long_and_toolset_too_large() {
    // TC107 with a budget one below the loaded total fires, and reports the same total.
    let report = json(&[SMALL]);
    let loaded = report["files"][0]["loaded_tokens"].as_u64().unwrap();
    let dir = std::env::temp_dir().join(format!("toolcheck-tokens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("toolcheck.yaml");
    std::fs::write(
        &config,
        format!(
            "rules:\n  options:\n    toolset-too-large: {{ max-tokens: {} }}\n",
            loaded - 1
        ),
    )
    .unwrap();
    let (_, stdout, stderr) = toolcheck(&[
        "lint",
        "--config",
        config.to_str().unwrap(),
        "--select",
        "toolset-too-large",
        "--format",
        "json",
        SMALL,
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    let lint: Value = serde_json::from_str(&stdout).expect(&stderr);
    let message = lint["diagnostics"][0]["message"].as_str().unwrap();
    assert_eq!(
        message,
        format!(
            "3 loaded tools are {loaded} tokens (o200k_base), budget {}",
            loaded - 1
        )
    );
}

#[test]
fn unreadable_file_is_reported_and_exits_one() {
    let (code, stdout, _) = toolcheck(&[
        "tokens",
        "--no-config",
        "--color",
        "never",
        "fixtures/tokens/broken.json",
        SMALL,
    ]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains(
            "fixtures/tokens/broken.json: 0 tools, o200k_base tokens\n  error: cannot read:"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("search_docs"),
        "the other file is still reported"
    );
}

#[test]
fn zero_window_is_a_usage_error() {
    let (code, _, stderr) = toolcheck(&["tokens", "--no-config", "--window", "0", SMALL]);
    assert_eq!(code, 2);
    assert!(stderr.contains("positive"), "{stderr}");
}

/// Every corpus file (`../shared/corpora`, present in development and CI) is read and counted:
/// no file errors, every file has tools, and the file totals add up.
#[test]
fn every_corpus_file_is_counted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    let Ok(dirs) = std::fs::read_dir(&root) else {
        eprintln!("skipped: {} not found", root.display());
        return;
    };
    let mut files: Vec<String> = dirs
        .filter_map(|dir| std::fs::read_dir(dir.ok()?.path()).ok())
        .flatten()
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            (path.extension()? == "json").then(|| path.display().to_string())
        })
        .collect();
    files.sort();
    assert!(files.len() > 60, "{} corpus files", files.len());
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    let report = json(&args);
    let reported = report["files"].as_array().unwrap();
    assert_eq!(reported.len(), files.len());
    let mut sum = 0;
    for file in reported {
        let name = file["file"].as_str().unwrap();
        assert_eq!(file["error"], Value::Null, "{name}");
        let tools = file["tools"].as_array().unwrap();
        assert!(!tools.is_empty(), "{name} has no tools");
        let totals: Vec<u64> = tools
            .iter()
            .map(|t| t["tokens"]["total"].as_u64().unwrap())
            .collect();
        assert!(totals.windows(2).all(|w| w[0] >= w[1]), "{name} not sorted");
        assert_eq!(file["loaded_tokens"], totals.iter().sum::<u64>(), "{name}");
        sum += totals.iter().sum::<u64>();
        if name.ends_with("bfcl-functions.json") {
            assert_eq!(tools.len(), 3526);
        }
    }
    assert_eq!(report["total"]["loaded_tokens"], sum);
}
