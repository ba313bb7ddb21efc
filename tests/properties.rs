//! Properties that hold for any input, checked on mutated fixtures (a seeded, dependency-free
//! generator, bounded to a few seconds): linting never panics, every span lies inside its file
//! on character boundaries, the JSON output parses, every renderer renders, and the binary exits
//! 0, 1 or 2 only. The fuzz targets in `fuzz/` explore the same properties without bounds.

mod common;

use std::path::{Path, PathBuf};

use toolcheck::lint::FileReport;
use toolcheck::parse::source::SourceFile;
use toolcheck::tokens::Encoding;

/// How many mutated inputs the in-process check lints, and how many of them go through the
/// binary as well (slower: one process each).
const CASES: usize = 400;
const BINARY_CASES: usize = 24;

/// xorshift64*: deterministic, so a failure names a case that reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Fragments that stress the parsers and the span mapping: multibyte and zero-width text,
/// escapes, YAML anchors and block scalars, brackets, comments and suppressions.
const FRAGMENTS: &[&str] = &[
    "é",
    "€",
    "😀",
    "\u{200b}",
    "\u{feff}",
    "\\u00e9",
    "\\ud83d\\ude00",
    "\\\"",
    "\\n",
    "\n",
    "\r\n",
    "\t",
    " ",
    "\"",
    "'",
    ":",
    ": ",
    "- ",
    "{",
    "}",
    "[",
    "]",
    ",",
    "&a ",
    "*a",
    "<<: *a",
    "|\n  ",
    ">\n  ",
    "#",
    "# toolcheck: ignore[TC209]",
    "always",
    "this tool",
    "api_key",
    "anyOf",
    "null",
    "~",
    "1e999",
    "-0",
    "true",
    "$ref",
    "\u{0}",
];

fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(6) {
            0 => {
                let fragment = FRAGMENTS[rng.below(FRAGMENTS.len())].as_bytes();
                bytes.splice(at..at, fragment.iter().copied());
            }
            1 if at < bytes.len() => {
                let end = (at + 1 + rng.below(16)).min(bytes.len());
                bytes.drain(at..end);
            }
            2 if at < bytes.len() => bytes[at] = rng.next() as u8,
            3 => bytes.truncate(at),
            4 if at < bytes.len() => {
                let end = (at + 1 + rng.below(64)).min(bytes.len());
                let copy: Vec<u8> = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
            }
            _ => {
                let depth = 1 + rng.below(40);
                let (open, close) = if rng.below(2) == 0 {
                    ("[", "]")
                } else {
                    ("{\"a\":", "}")
                };
                let nested = format!("{}1{}", open.repeat(depth), close.repeat(depth));
                bytes.splice(at..at, nested.bytes());
            }
        }
    }
    bytes
}

fn seeds() -> Vec<(PathBuf, Vec<u8>)> {
    let mut seeds = Vec::new();
    let mut dirs = vec![common::root().join("fixtures")];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .collect();
        entries.sort();
        for path in entries {
            let name = path.to_string_lossy();
            if path.is_dir() {
                if !name.ends_with("snapshots") && !name.ends_with("sarif") {
                    dirs.push(path);
                }
            } else if (name.ends_with(".yaml") || name.ends_with(".json"))
                && std::fs::metadata(&path).is_ok_and(|m| m.len() < 64 * 1024)
            {
                seeds.push((path.clone(), std::fs::read(&path).unwrap()));
            }
        }
    }
    seeds
}

fn check_report(case: &str, report: &FileReport) {
    common::assert_spans_on_char_boundaries(report);
    let json = toolcheck::render::json::render(std::slice::from_ref(report), Encoding::O200kBase);
    serde_json::from_str::<serde_json::Value>(&json)
        .unwrap_or_else(|error| panic!("{case}: JSON output does not parse: {error}"));
    let human = common::render_human(&report.diagnostics);
    assert!(
        report.diagnostics.is_empty() || !human.is_empty(),
        "{case}: nothing rendered"
    );
}

#[test]
fn linting_mutated_fixtures_keeps_every_invariant() {
    let seeds = seeds();
    assert!(seeds.len() > 50, "the fixtures are the seeds");
    let linter = common::linter(
        &toolcheck::config::Config::defaults(".".into()),
        &Default::default(),
    );
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for index in 0..CASES {
        let (path, seed) = &seeds[rng.below(seeds.len())];
        let bytes = mutate(seed, &mut rng);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let case = format!("case {index} (mutated {})", path.display());
        let input = toolcheck::read::Input {
            name: name.clone(),
            bytes: bytes.clone(),
        };
        let reports = linter.lint_all(vec![input]);
        for report in &reports {
            assert_eq!(report.internal_error, None, "{case}: panicked");
            check_report(&case, report);
        }
        // The in-memory entry point (`Linter::lint`) keeps them too.
        if let Ok(text) = String::from_utf8(bytes) {
            let report = linter.lint(
                SourceFile::new(name, text),
                path.extension().is_some_and(|e| e == "json"),
            );
            check_report(&case, &report);
        }
    }
}

#[test]
fn the_binary_exits_zero_one_or_two_on_mutated_fixtures() {
    let seeds = seeds();
    let dir = common::scratch("properties-binary");
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for index in 0..BINARY_CASES {
        let (path, seed) = &seeds[rng.below(seeds.len())];
        let extension = path.extension().unwrap().to_string_lossy().into_owned();
        let file = dir.join(format!("case{index}.tool.{extension}"));
        std::fs::write(&file, mutate(seed, &mut rng)).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        // One format per case, in turn: every renderer sees mutated input.
        let format = ["human", "json", "sarif", "github"][index % 4];
        let args = ["lint", "--no-config", "--format", format, &name];
        let (code, stdout, stderr) = common::run(&dir, &args, None);
        assert!(
            matches!(code, 0..=2),
            "case {index} ({}), --format {format}: exit {code}\n{stderr}",
            path.display()
        );
        if format == "json" && code != 2 {
            serde_json::from_str::<serde_json::Value>(&stdout)
                .unwrap_or_else(|error| panic!("case {index}: {error}"));
        }
        std::fs::remove_file(Path::new(&file)).unwrap();
    }
}
