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

/// Issue 31: the declared results get a column of their own, after the total they are not
/// in; a file without results shows none, and its JSON has no `results` count.
#[test]
fn results_have_a_column_outside_the_total() {
    let file = "fixtures/diff/results/new.tools.yaml";
    let document = json(&[file]);
    let tokens = &document["files"][0]["tools"][0]["tokens"];
    let texts = [
        "A question with a single option has no decision in it. Instead, state the one path you \
         were going to offer as the approach you are taking, then continue with the task.",
        "User declined to answer (cancelled the dialog).",
        "The user wants to discuss it. This is a request for conversation, not a refusal.",
    ];
    assert_eq!(
        tokens["results"].as_u64(),
        Some(texts.iter().map(|text| count(text)).sum::<u64>())
    );
    let parts: u64 = ["name", "description", "snippet", "guidelines", "schema"]
        .iter()
        .map(|part| tokens[part].as_u64().unwrap())
        .sum();
    assert_eq!(tokens["total"].as_u64(), Some(parts));
    let (_, stdout, _) = toolcheck(&["tokens", "--no-config", "--color", "never", file]);
    assert!(
        stdout.contains("total  results  share of loaded"),
        "{stdout}"
    );
    assert!(stdout.contains("results: the declared results"), "{stdout}");
    assert!(
        json(&[SMALL])["files"][0]["tools"][0]["tokens"]
            .get("results")
            .is_none()
    );
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

// The oracle: `Encoding::count` (toolcheck's own counter, src/tokens/bpe.rs) against tiktoken-rs
// `encode_ordinary`, a dev-dependency only, so the default binary never links it. (The exact
// counts from Python tiktoken are the unit tests in src/tokens.rs.)

fn oracle(encoding: Encoding) -> &'static tiktoken_rs::CoreBPE {
    match encoding {
        Encoding::O200kBase => tiktoken_rs::o200k_base_singleton(),
        Encoding::Cl100kBase => tiktoken_rs::cl100k_base_singleton(),
    }
}

/// Checks every text with both encodings; returns how many (text, encoding) pairs it checked.
fn assert_same_counts_as_tiktoken_rs<'t>(texts: impl IntoIterator<Item = &'t str>) -> usize {
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for text in texts {
        for encoding in Encoding::ALL {
            let expected = oracle(encoding).encode_ordinary(text).len();
            let actual = encoding.count(text);
            if actual != expected {
                let shown: String = text.chars().take(80).collect();
                mismatches.push(format!(
                    "{encoding}: {actual} (tiktoken-rs {expected}) for {} bytes {shown:?}",
                    text.len()
                ));
            }
            checked += 1;
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {checked} counts differ from tiktoken-rs:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    checked
}

/// Hand-picked texts where tokenizers tend to differ: the pre-tokenizer's case, letter, digit,
/// contraction and whitespace rules (o200k and cl100k split differently), and non-Latin scripts.
const ORACLE_TEXTS: &[&str] = &[
    "",
    "a",
    "hello world",
    "Search the documentation by keyword and return the ten best matching pages.",
    "Don't call this tool for code; it's for docs. I'm sure THEY'RE fine, we'll see, you've 'quoted' it",
    "camelCaseIdentifier HTTPServerError snake_case_name SCREAMING_CASE kebab-case-name ALLCAPS",
    "v1.2.3 3.14159 1,000,000 -42 0x1F 1e-9 2026-11-30T06:25Z 12345678901234567890",
    "Hello!!! ...? (yes) [no] {maybe} <tag> a/b\\c @user #tag $5 50% ^_^ ~/path `cmd` | & *",
    "<|endoftext|> <|im_start|>system<|im_end|> <|fim_prefix|>",
    "https://example.com/api/v2/search?q=rust+tokenizer&limit=10#results",
    // Unicode: Latin with diacritics (composed and decomposed), Greek, Cyrillic, Arabic,
    // Hebrew, Devanagari with combining marks, Thai, Georgian.
    "Caf\u{e9} d\u{e9}j\u{e0} vu, na\u{ef}ve fa\u{e7}ade, \u{c6}r\u{f8}sk\u{f8}bing, Stra\u{df}e, \u{130}stanbul",
    "Cafe\u{301} de\u{301}ja\u{300} vu, n\u{303}o, a\u{308}\u{332}",
    "\u{395}\u{3bb}\u{3bb}\u{3b7}\u{3bd}\u{3b9}\u{3ba}\u{3ac} \u{420}\u{443}\u{441}\u{441}\u{43a}\u{438}\u{439} \u{627}\u{644}\u{639}\u{631}\u{628}\u{64a}\u{629} \u{5e2}\u{5d1}\u{5e8}\u{5d9}\u{5ea}",
    "\u{939}\u{93f}\u{928}\u{94d}\u{926}\u{940} \u{92e}\u{947}\u{902} \u{916}\u{94b}\u{91c}\u{947}\u{902} \u{e20}\u{e32}\u{e29}\u{e32}\u{e44}\u{e17}\u{e22} \u{10e5}\u{10d0}\u{10e0}\u{10d7}\u{10e3}\u{10da}\u{10d8}",
    "non\u{a0}breaking\u{2003}em\u{3000}ideographic\u{200b}zero-width\u{feff}bom\u{200e}lrm\u{2028}ls\u{2029}ps",
    "\u{1d54f}\u{1d552}\u{1d565}\u{1d559} \u{2160}\u{2161}\u{2162} \u{bd}\u{b2}\u{2075} \u{661}\u{662}\u{663} \u{ff11}\u{ff12}\u{ff13}",
    // CJK: Chinese with full-width punctuation, Japanese, Korean, full-width Latin.
    "\u{5929}\u{6c14}\u{9884}\u{62a5}\u{ff1a}\u{67e5}\u{8be2}\u{57ce}\u{5e02}\u{7684}\u{5f53}\u{524d}\u{5929}\u{6c14}\u{3002}\u{8fd4}\u{56de}\u{6e29}\u{5ea6}\u{ff08}\u{6444}\u{6c0f}\u{5ea6}\u{ff09}\u{3002}",
    "\u{6771}\u{4eac}\u{306e}\u{5929}\u{6c17}\u{3092}\u{8abf}\u{3079}\u{3066}\u{304f}\u{3060}\u{3055}\u{3044}\u{3002}\u{30ab}\u{30bf}\u{30ab}\u{30ca}\u{3082}\u{3002}",
    "\u{c11c}\u{c6b8}\u{c758} \u{b0a0}\u{c528}\u{b97c} \u{c54c}\u{b824}\u{c8fc}\u{c138}\u{c694}. \u{ff21}\u{ff22}\u{ff23} \u{ff41}\u{ff42}\u{ff43}",
    // Emoji: ZWJ sequences, skin tones, flags, keycaps, variation selectors.
    "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}\u{200d}\u{1f466} family \u{1f3f3}\u{fe0f}\u{200d}\u{1f308} \u{1f44d}\u{1f3fd} \u{1f1fa}\u{1f1f8}\u{1f1ef}\u{1f1f5} 1\u{fe0f}\u{20e3} \u{2764}\u{fe0f} \u{1f600}\u{1f600}\u{1f600}",
    "Deploy \u{1f680} done \u{2705} failed \u{274c} warning \u{26a0}\u{fe0f}",
    // Whitespace: runs before words, punctuation and line ends, CRLF, tabs, trailing runs.
    "a \n\n\t  b",
    "   leading and trailing   ",
    "line one\r\nline two\r\n\r\n  indented\n\t\ttabbed\n\n\n",
    "word     word\n     \n     word\t \t \tword \u{a0} \u{a0}word",
    "  \n  \n  \n",
    " ! ? . , ; : \n!\n?\n",
    "1 2  3   4    5     6      7       8",
    // Code.
    "fn main() {\n    let xs: Vec<u32> = (0..10).map(|x| x * 2).collect();\n    println!(\"{xs:?}\");\n}\n",
    "def search(query: str, limit: int = 10) -> list[dict]:\n    \"\"\"Return the best pages.\"\"\"\n    if not query:\n        raise ValueError('empty')\n    return [p for p in pages if query in p][:limit]\n",
    "const x = await fetch(`/api?q=${encodeURIComponent(q)}`).then(r => r.json()); // ok?\n",
    "for f in *.json; do jq -r '.tools[].name' \"$f\" 2>/dev/null || echo \"bad: $f\"; done",
    "SELECT id, name FROM tools WHERE name LIKE '%search%' ORDER BY 2 DESC LIMIT 10;",
    "^[a-zA-Z0-9_-]{1,64}$ (?:\\s+|\\d{3,}) [^\\p{L}]",
    // JSON, compact and pretty, with escapes.
    r#"{"type":"object","properties":{"query":{"type":"string"}}}"#,
    "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 100},\n    \"tags\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}\n  },\n  \"required\": [\"limit\"],\n  \"additionalProperties\": false\n}",
    r#"{"text":"caf\u00e9 \ud83d\ude00 \"quoted\" \\ back\/slash\n","n":[1,2.5,-3e10,null,true,false,{}]}"#,
];

#[test]
fn counts_match_tiktoken_rs_on_fixed_texts() {
    assert_same_counts_as_tiktoken_rs(ORACLE_TEXTS.iter().copied());
}

#[test]
fn counts_match_tiktoken_rs_on_long_runs() {
    const UNITS: [&str; 11] = [
        " ", "\n", "\t", " \n", "\r\n", "a", "A", "7", "!", "\u{a0}", "\u{4e00}",
    ];
    let mut texts = Vec::new();
    for n in (1..=40).chain([63, 64, 65, 127, 128, 129, 255, 256, 1000, 4097]) {
        for unit in UNITS {
            texts.push(unit.repeat(n));
        }
        texts.push(format!("{}word", " ".repeat(n)));
        texts.push(format!("word{}", " ".repeat(n)));
        texts.push(format!("a{}b", " ".repeat(n)));
        texts.push(format!("x{}\n{}y", " ".repeat(n), "\t".repeat(n % 5)));
    }
    texts.push("a".repeat(20_000));
    texts.push(" ".repeat(20_000));
    texts.push("1234567890".repeat(2_000));
    texts.push("\u{1f600}".repeat(2_000));
    // A base64-like string: no spaces, mixed classes.
    let mut state = 0x9e37_79b9_u32;
    let base64: String = (0..20_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[state as usize % 64]
                as char
        })
        .collect();
    texts.push(base64);
    assert_same_counts_as_tiktoken_rs(texts.iter().map(String::as_str));
}

/// Random concatenations (fixed seed) of the fixed texts' characters and fragments, so that
/// pieces meet at every kind of boundary: letters after marks, digits after spaces, etc.
#[test]
fn counts_match_tiktoken_rs_on_mixed_fragments() {
    let fragments: Vec<String> = ORACLE_TEXTS
        .iter()
        .flat_map(|text| {
            let words: Vec<String> = text.split_inclusive(' ').map(str::to_string).collect();
            let chars: Vec<String> = text.chars().map(String::from).collect();
            words.into_iter().chain(chars)
        })
        .chain(["  ", "\n", "\n\n", " \t", "'s", "'S", "'ll", "123", "4567"].map(String::from))
        .collect();
    let mut state = 0x2545_f491_u64;
    let mut next = move |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % below as u64) as usize
    };
    let texts: Vec<String> = (0..2_000)
        .map(|_| {
            (0..1 + next(24))
                .map(|_| fragments[next(fragments.len())].as_str())
                .collect()
        })
        .collect();
    assert_eq!(
        assert_same_counts_as_tiktoken_rs(texts.iter().map(String::as_str)),
        4_000
    );
}

/// Real tool text: every string of every corpus file (`../shared/corpora`, present in
/// development and CI) and of the repository's fixtures, plus each fixture file whole.
#[test]
fn counts_match_tiktoken_rs_on_corpus_and_fixture_strings() {
    fn strings(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::String(text) => out.push(text.clone()),
            Value::Array(items) => items.iter().for_each(|item| strings(item, out)),
            Value::Object(map) => {
                for (key, item) in map {
                    out.push(key.clone());
                    strings(item, out);
                }
            }
            _ => {}
        }
    }
    fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                files(&path, out);
            } else if path
                .extension()
                .is_some_and(|ext| ext == "json" || ext == "yaml" || ext == "yml")
            {
                out.push(path);
            }
        }
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files(&manifest.join("fixtures"), &mut paths);
    let fixtures = paths.len();
    files(&manifest.join("../shared/corpora"), &mut paths);
    if paths.len() == fixtures {
        eprintln!("corpus not found: checking the fixtures only");
    }
    let mut texts = Vec::new();
    for (index, path) in paths.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        if let Ok(value) = serde_json::from_str::<Value>(&text) {
            strings(&value, &mut texts);
        }
        if index < fixtures {
            texts.push(text);
        }
    }
    texts.sort();
    texts.dedup();
    assert!(texts.len() > 1_000, "only {} texts", texts.len());
    assert_same_counts_as_tiktoken_rs(texts.iter().map(String::as_str));
}

/// Random strings (fixed seed) drawn from character classes where pre-tokens and merges tend to
/// go wrong: letters of each case and script, combining marks, digits of several scripts,
/// punctuation, every kind of whitespace, CJK, emoji and its joiners, and characters whose
/// UTF-8 bytes only merge partly (so tokens end inside characters).
#[test]
fn counts_match_tiktoken_rs_on_random_unicode() {
    const CLASSES: &[&[char]] = &[
        &['a', 'e', 's', 't', 'Z', 'Q', '\'', 'S', 'l', 'L', 'D'],
        &[
            '\u{e9}', '\u{df}', '\u{130}', '\u{131}', '\u{1c5}', '\u{2b0}', '\u{3a3}', '\u{3c2}',
        ],
        &[
            '\u{301}', '\u{308}', '\u{332}', '\u{93f}', '\u{94d}', '\u{e31}', '\u{fe0f}',
        ],
        &[
            '0',
            '7',
            '9',
            '\u{661}',
            '\u{ff11}',
            '\u{bd}',
            '\u{2160}',
            '\u{1d7ce}',
        ],
        &[
            '!', '.', ',', '/', '-', '_', '"', '{', '}', '\\', '\u{3002}', '\u{ff1a}', '\u{2014}',
        ],
        &[
            ' ', ' ', '\n', '\r', '\t', '\u{a0}', '\u{3000}', '\u{2028}', '\u{b}', '\u{c}',
        ],
        &[
            '\u{4e00}', '\u{5929}', '\u{6c14}', '\u{3042}', '\u{30ab}', '\u{ac00}', '\u{d7a3}',
        ],
        &[
            '\u{1f600}',
            '\u{1f468}',
            '\u{200d}',
            '\u{1f3fd}',
            '\u{1f1fa}',
            '\u{20e3}',
            '\u{2764}',
        ],
        &[
            '\u{10e5}',
            '\u{5d0}',
            '\u{627}',
            '\u{e01}',
            '\u{f0000}',
            '\u{10ffff}',
            '\u{fffd}',
        ],
    ];
    let mut state = 0x5851_f42d_4c95_7f2d_u64;
    let mut next = move |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % below as u64) as usize
    };
    let texts: Vec<String> = (0..3_000)
        .map(|_| {
            let mut text = String::new();
            for _ in 0..1 + next(12) {
                let class = CLASSES[next(CLASSES.len())];
                // Runs of one class, up to 150 characters (past the short-merge limit).
                let run = if next(10) == 0 { 150 } else { 1 + next(8) };
                for _ in 0..1 + next(run) {
                    text.push(class[next(class.len())]);
                }
            }
            text
        })
        .collect();
    assert_eq!(
        assert_same_counts_as_tiktoken_rs(texts.iter().map(String::as_str)),
        6_000
    );
}

#[test]
fn a_target_counts_as_its_profile_says() {
    let exact = json(&[SMALL]);
    let exact_file = &exact["files"][0];
    let exact_total = |index: usize| {
        exact_file["tools"][index]["tokens"]["total"]
            .as_u64()
            .unwrap()
    };
    // OpenAI: the encoding's exact count, 7 more per tool and 12 more per request.
    let openai = json(&["--target", "openai", SMALL]);
    assert_eq!(
        openai["count"],
        serde_json::json!({"target": "openai", "method": "o200k_base + 7 per tool + 12 per request",
                           "approximate": false, "per_request": 12})
    );
    let file = &openai["files"][0];
    assert_eq!(
        file["tools"][0]["tokens"]["total"].as_u64().unwrap(),
        exact_total(0) + 7
    );
    // The parts stay exact.
    assert_eq!(
        file["tools"][0]["tokens"]["name"],
        exact_file["tools"][0]["tokens"]["name"]
    );
    let loaded = exact_file["loaded_tokens"].as_u64().unwrap();
    let loaded_tools = 3;
    assert_eq!(
        file["loaded_tokens"].as_u64().unwrap(),
        loaded + 7 * loaded_tools + 12
    );
    // Anthropic: an estimate, o200k_base x 1.25 plus the tool-use system prompt, marked.
    let anthropic = json(&["--target", "claude-code", SMALL]);
    assert_eq!(anthropic["count"]["approximate"], true);
    let total = anthropic["files"][0]["tools"][0]["tokens"]["total"]
        .as_u64()
        .unwrap();
    assert_eq!(total, (exact_total(0) as f64 * 1.25).round() as u64);
    let (code, stdout, _) = toolcheck(&[
        "tokens",
        "--no-config",
        "--color",
        "never",
        "--target",
        "anthropic",
        SMALL,
    ]);
    assert_eq!(code, 0);
    assert!(stdout.contains("an estimate (≈)"), "{stdout}");
    assert!(stdout.contains("tools, ≈ "), "{stdout}");
    // A host whose model varies has no count of its own: a clear error.
    let (code, _, stderr) = toolcheck(&["tokens", "--no-config", "--target", "cursor", SMALL]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("does not say how it counts tokens"),
        "{stderr}"
    );
}
