//! The labelled precision set: `tests/precision/labels.jsonl` holds, for every rule, a random
//! sample (up to 30) of its findings on `../shared/corpora`, each read by hand and labelled
//! `true` (the tool's author should change this), `false` or `debatable`, with a one-line
//! reason. Entries with `"sample": "before"` are a sample of the findings before a precision
//! fix (the false-positive classes of issues 11 and 28); `"fresh"` ones a second sample of the
//! current findings, none labelled before (issue 28); the others are the current findings.
//!
//! The test re-lints the corpora with the default settings, and once more with every target
//! selected for the `targets` rules (which find nothing without one), and fails when a finding labelled
//! true disappears, a false one of the `before` sample comes back, an entry is unlabelled, or
//! a rule falls under 95% precision (true / (true + false), debatable left out). It prints
//! the table and checks that `docs/precision.md` is that table.
//!
//! `UPDATE_PRECISION=1 cargo test --test precision` adds `unlabelled` entries until each rule
//! has 30 current findings in each sample and rewrites `docs/precision.md`. A finding's place in
//! the sample is a hash of its identity (rule, file, pointer, flagged text), so the sample is
//! random but stable: new findings elsewhere do not reshuffle it.
//!
//! Skips (with a message) when `../shared/corpora` is absent, as on a user's clone.

mod common;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toolcheck::catalog::Registry;
use toolcheck::config::Config;
use toolcheck::lint::{Linter, Overrides};
use toolcheck::read::Input;

const SAMPLE_SIZE: usize = 30;
const MIN_PRECISION: f64 = 0.95;
/// The flagged text is kept to this many characters (a TC207 span is a whole description).
const TEXT_CHARS: usize = 80;

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Label {
    code: String,
    file: String,
    pointer: String,
    /// The source text under the span, cut to [`TEXT_CHARS`].
    text: String,
    /// `true`, `false`, `debatable`, or `unlabelled` (added by `UPDATE_PRECISION=1`).
    label: String,
    reason: String,
    /// `after` (the current findings; the default), `fresh` (a second sample of the current
    /// findings, issue 28) or `before` (before a precision fix).
    #[serde(default = "after", skip_serializing_if = "is_after")]
    sample: String,
}

fn after() -> String {
    "after".to_string()
}

fn is_after(sample: &str) -> bool {
    sample == "after"
}

/// One finding's identity.
type Key = (String, String, String, String);

impl Label {
    fn key(&self) -> Key {
        (
            self.code.clone(),
            self.file.clone(),
            self.pointer.clone(),
            self.text.clone(),
        )
    }
}

struct Finding {
    key: Key,
    corpus: String,
    field: &'static str,
    /// A few characters of the source after the span.
    after: String,
    /// An error of the run at the default settings: it fails `toolcheck lint` on the file.
    fails: bool,
}

fn corpora() -> Option<PathBuf> {
    let dir = common::root().join("../shared/corpora");
    dir.is_dir().then_some(dir)
}

fn corpus_files(corpora: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpora)
        .unwrap()
        .flatten()
        .filter(|entry| entry.path().is_dir())
        .flat_map(|dir| std::fs::read_dir(dir.path()).unwrap().flatten())
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

/// Every finding on the corpora at the default settings, in one run; then those of the
/// `targets` rules with every target selected, in a second.
fn lint(corpora: &Path, registry: &Registry) -> Vec<Finding> {
    let mut findings = lint_with(corpora, registry, &Overrides::default());
    let targets = Overrides {
        select: Some(vec!["targets".to_string()]),
        targets: Some(toolcheck::targets::known()),
        ..Overrides::default()
    };
    findings.extend(
        lint_with(corpora, registry, &targets)
            .into_iter()
            .map(|finding| Finding {
                fails: false,
                ..finding
            }),
    );
    findings
}

fn lint_with(corpora: &Path, registry: &Registry, overrides: &Overrides) -> Vec<Finding> {
    let inputs = corpus_files(corpora)
        .iter()
        .map(|path| Input {
            name: path.strip_prefix(corpora).unwrap().display().to_string(),
            bytes: std::fs::read(path).unwrap(),
        })
        .collect();
    let linter = Linter::new(
        registry,
        &Config::defaults(common::root().into()),
        overrides,
    )
    .unwrap();
    let mut findings = Vec::new();
    for report in linter.lint_all(inputs) {
        assert!(
            report.internal_error.is_none(),
            "{:?}",
            report.internal_error
        );
        let corpus = report.file.name.split('/').next().unwrap().to_string();
        for d in &report.diagnostics {
            let text: String = d.file.text[d.span.clone()]
                .chars()
                .take(TEXT_CHARS)
                .collect();
            findings.push(Finding {
                key: (
                    d.code.to_string(),
                    report.file.name.clone(),
                    d.pointer.to_string(),
                    text,
                ),
                corpus: corpus.clone(),
                field: d.field.as_str(),
                after: d.file.text[d.span.end..].chars().take(20).collect(),
                fails: d.severity == toolcheck::diagnostic::Severity::Error,
            });
        }
    }
    findings
}

fn labels_path() -> PathBuf {
    common::root().join("tests/precision/labels.jsonl")
}

fn read_labels() -> Vec<Label> {
    let text = std::fs::read_to_string(labels_path()).unwrap_or_default();
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .enumerate()
        .map(|(index, line)| {
            serde_json::from_str(line)
                .unwrap_or_else(|error| panic!("labels.jsonl line {}: {error}", index + 1))
        })
        .collect()
}

fn write_labels(labels: &[Label]) {
    let mut text = String::new();
    for label in labels {
        text.push_str(&serde_json::to_string(label).unwrap());
        text.push('\n');
    }
    std::fs::write(labels_path(), text).unwrap();
}

/// FNV-1a: a finding's fixed pseudo-random place in its rule's sample.
fn rank(key: &Key) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [&key.0, &key.1, &key.2, &key.3] {
        for byte in part.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// Adds `unlabelled` entries until every rule has [`SAMPLE_SIZE`] current findings in the
/// `after` sample, then in the `fresh` one: findings no sample holds, in their fixed random
/// order (all of them when fewer).
fn extend_sample(labels: &mut Vec<Label>, findings: &[Finding]) {
    for sample in ["after", "fresh"] {
        let labelled: HashSet<Key> = labels.iter().map(Label::key).collect();
        let in_sample: HashSet<Key> = labels
            .iter()
            .filter(|label| label.sample == sample)
            .map(Label::key)
            .collect();
        let present: HashSet<&Key> = findings.iter().map(|f| &f.key).collect();
        let mut by_rule: BTreeMap<&str, Vec<&Key>> = BTreeMap::new();
        for key in present {
            by_rule.entry(&key.0).or_default().push(key);
        }
        for (code, mut keys) in by_rule {
            keys.sort_by_key(|key| (rank(key), (*key).clone()));
            let have = keys.iter().filter(|key| in_sample.contains(**key)).count();
            let missing = keys
                .iter()
                .filter(|key| !labelled.contains(**key))
                .take(SAMPLE_SIZE.saturating_sub(have));
            for key in missing {
                labels.push(Label {
                    code: code.to_string(),
                    file: key.1.clone(),
                    pointer: key.2.clone(),
                    text: key.3.clone(),
                    label: "unlabelled".to_string(),
                    reason: String::new(),
                    sample: sample.to_string(),
                });
            }
        }
    }
}

#[derive(Default)]
struct Tally {
    true_: usize,
    false_: usize,
    debatable: usize,
}

impl Tally {
    fn add(&mut self, label: &str) {
        match label {
            "true" => self.true_ += 1,
            "false" => self.false_ += 1,
            _ => self.debatable += 1,
        }
    }

    fn precision(&self) -> Option<f64> {
        let decided = self.true_ + self.false_;
        (decided > 0).then(|| self.true_ as f64 / decided as f64)
    }

    fn labelled(&self) -> usize {
        self.true_ + self.false_ + self.debatable
    }
}

fn percent(precision: Option<f64>) -> String {
    precision.map_or("—".to_string(), |p| format!("{:.0}%", p * 100.0))
}

/// `docs/precision.md` for these labels and findings.
/// How many files (servers, harnesses, tool sets) of each corpus `toolcheck lint` fails at
/// the default settings, and the rules whose errors fail them.
fn write_failing_files(out: &mut String, findings: &[Finding], corpus_names: &[&str]) {
    let corpora = corpora().unwrap();
    let files = corpus_files(&corpora);
    writeln!(
        out,
        "## Files that fail by default\n\nA file fails `toolcheck lint` when it has an error at \
         the default settings (no target). Per corpus: the files that fail, of all, and the \
         rules behind them (a rule counts each file once).\n"
    )
    .unwrap();
    writeln!(
        out,
        "| corpus | files | fail | by rule |\n|---|---|---|---|"
    )
    .unwrap();
    for corpus in corpus_names {
        let total = files
            .iter()
            .filter(|path| path.strip_prefix(&corpora).unwrap().starts_with(corpus))
            .count();
        let mut failing: BTreeMap<&str, HashSet<&str>> = BTreeMap::new();
        for finding in findings.iter().filter(|f| f.fails && f.corpus == *corpus) {
            failing
                .entry(&finding.key.0)
                .or_default()
                .insert(&finding.key.1);
        }
        let failed: HashSet<&str> = failing.values().flatten().copied().collect();
        let mut rules: Vec<(&str, usize)> = failing
            .iter()
            .map(|(code, files)| (*code, files.len()))
            .collect();
        rules.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let rules: Vec<String> = rules
            .iter()
            .map(|(code, count)| format!("{code} {count}"))
            .collect();
        writeln!(
            out,
            "| {corpus} | {total} | {} | {} |",
            failed.len(),
            if rules.is_empty() {
                "—".to_string()
            } else {
                rules.join(", ")
            }
        )
        .unwrap();
    }
    writeln!(out).unwrap();
}

/// The head of a per-rule table: rule, severity, a column per corpus, then the tally's.
fn table_head(out: &mut String, corpus_names: &[&str]) {
    write!(out, "| rule | severity |").unwrap();
    for corpus in corpus_names {
        write!(out, " {corpus} |").unwrap();
    }
    writeln!(out, " sampled | true | false | debatable | precision |").unwrap();
    writeln!(
        out,
        "|---|---|{}---|---|---|---|---|",
        "---|".repeat(corpus_names.len())
    )
    .unwrap();
}

/// The first cells of a rule's row: its code and name, its default severity.
fn rule_cells(out: &mut String, rule: &toolcheck::catalog::Registered) {
    write!(
        out,
        "| {} {} | {} |",
        rule.meta.code,
        rule.meta.name,
        rule.meta.default_severity.as_str()
    )
    .unwrap();
}

/// The `fresh` sample (issue 28): per rule and per corpus, findings no earlier sample held.
fn write_fresh_sample(
    out: &mut String,
    registry: &Registry,
    labels: &[Label],
    findings: &[Finding],
    corpus_names: &[&str],
) {
    let corpus_of: HashMap<&Key, &str> = findings
        .iter()
        .map(|f| (&f.key, f.corpus.as_str()))
        .collect();
    let mut tallies: BTreeMap<&str, BTreeMap<&str, Tally>> = BTreeMap::new();
    for label in labels.iter().filter(|l| l.sample == "fresh") {
        if let Some(corpus) = corpus_of.get(&label.key()) {
            tallies
                .entry(&label.code)
                .or_default()
                .entry(corpus)
                .or_default()
                .add(&label.label);
        }
    }
    if tallies.is_empty() {
        return;
    }
    writeln!(
        out,
        "## Fresh sample\n\nA second random sample of each rule's current findings, up to \
         {SAMPLE_SIZE}, none of them labelled before (issue 28), pooled across the corpora. \
         Per corpus: true / (true + false) of its sampled findings, and how many were debatable. The test fails when a \
         default-on rule falls under {:.0}% here too.\n",
        MIN_PRECISION * 100.0
    )
    .unwrap();
    table_head(out, corpus_names);
    for rule in &registry.rules {
        let code = rule.meta.code.as_str();
        let Some(per_corpus) = tallies.get(code) else {
            continue;
        };
        rule_cells(out, rule);
        let mut total = Tally::default();
        for corpus in corpus_names {
            match per_corpus.get(corpus) {
                Some(tally) => {
                    let debatable = match tally.debatable {
                        0 => String::new(),
                        n => format!(" ({n} debatable)"),
                    };
                    write!(
                        out,
                        " {}/{}{debatable} |",
                        tally.true_,
                        tally.true_ + tally.false_
                    )
                    .unwrap();
                    total.true_ += tally.true_;
                    total.false_ += tally.false_;
                    total.debatable += tally.debatable;
                }
                None => write!(out, " — |").unwrap(),
            }
        }
        writeln!(
            out,
            " {} | {} | {} | {} | {} |",
            total.labelled(),
            total.true_,
            total.false_,
            total.debatable,
            percent(total.precision())
        )
        .unwrap();
    }
    writeln!(out).unwrap();
}

fn report(registry: &Registry, labels: &[Label], findings: &[Finding]) -> String {
    let present: HashSet<&Key> = findings.iter().map(|f| &f.key).collect();
    let mut counts: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
    let mut corpus_names: Vec<&str> = findings.iter().map(|f| f.corpus.as_str()).collect();
    corpus_names.sort_unstable();
    corpus_names.dedup();
    for finding in findings {
        *counts
            .entry(&finding.key.0)
            .or_default()
            .entry(&finding.corpus)
            .or_default() += 1;
    }
    let mut now: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut before: BTreeMap<&str, Tally> = BTreeMap::new();
    for label in labels {
        if label.sample == "before" {
            before.entry(&label.code).or_default().add(&label.label);
        } else if present.contains(&label.key()) {
            now.entry(&label.code).or_default().add(&label.label);
        }
    }
    let mut out = String::new();
    writeln!(out, "# Precision on real tool sets\n").unwrap();
    writeln!(
        out,
        "Generated by `UPDATE_PRECISION=1 cargo test --test precision` from \
         `tests/precision/labels.jsonl`; do not edit by hand.\n"
    )
    .unwrap();
    writeln!(
        out,
        "Every rule at its default settings, all {} files of `../shared/corpora` in one run; \
         the `targets` rules (TC6xx), which find nothing without a target, in a second run \
         with every target selected. \
         Precision is true / (true + false) over a random sample of up to {SAMPLE_SIZE} of the \
         rule's findings, each read by hand; debatable findings are left out of it. The test \
         fails when a default-on rule falls under {:.0}%.\n",
        corpus_files(&corpora().unwrap()).len(),
        MIN_PRECISION * 100.0
    )
    .unwrap();
    table_head(&mut out, &corpus_names);
    for rule in &registry.rules {
        let code = rule.meta.code.as_str();
        let Some(per_corpus) = counts.get(code) else {
            continue;
        };
        rule_cells(&mut out, rule);
        for corpus in &corpus_names {
            write!(out, " {} |", per_corpus.get(corpus).copied().unwrap_or(0)).unwrap();
        }
        let tally = now.remove(code).unwrap_or_default();
        writeln!(
            out,
            " {} | {} | {} | {} | {} |",
            tally.labelled(),
            tally.true_,
            tally.false_,
            tally.debatable,
            percent(tally.precision())
        )
        .unwrap();
    }
    let silent: Vec<String> = registry
        .rules
        .iter()
        .filter(|rule| !counts.contains_key(rule.meta.code.as_str()))
        .map(|rule| format!("{} {}", rule.meta.code, rule.meta.name))
        .collect();
    writeln!(
        out,
        "\nNo findings on the corpora: {}.\n",
        silent.join(", ")
    )
    .unwrap();
    write_fresh_sample(&mut out, registry, labels, findings, &corpus_names);
    write_failing_files(&mut out, findings, &corpus_names);
    if !before.is_empty() {
        writeln!(
            out,
            "## Before the precision fixes\n\nA random sample of each rule's findings before \
             the fixes of issue 11, labelled the same way. The test checks that none labelled \
             false comes back.\n"
        )
        .unwrap();
        writeln!(
            out,
            "| rule | sampled | true | false | debatable | precision |"
        )
        .unwrap();
        writeln!(out, "|---|---|---|---|---|---|").unwrap();
        for (code, tally) in &before {
            writeln!(
                out,
                "| {code} | {} | {} | {} | {} | {} |",
                tally.labelled(),
                tally.true_,
                tally.false_,
                tally.debatable,
                percent(tally.precision())
            )
            .unwrap();
        }
    }
    out
}

#[test]
fn labelled_findings_hold_and_rules_keep_their_precision() {
    let Some(corpora) = corpora() else {
        eprintln!("skipped: no ../shared/corpora (they are not part of a clone)");
        return;
    };
    let registry = Registry::builtin().unwrap();
    let findings = lint(&corpora, &registry);
    let mut labels = read_labels();
    if std::env::var_os("UPDATE_PRECISION").is_some() {
        extend_sample(&mut labels, &findings);
        write_labels(&labels);
        std::fs::write(
            common::root().join("docs/precision.md"),
            report(&registry, &labels, &findings),
        )
        .unwrap();
    }

    let present: HashMap<&Key, usize> = findings.iter().fold(HashMap::new(), |mut m, f| {
        *m.entry(&f.key).or_default() += 1;
        m
    });
    let mut problems = Vec::new();
    for label in &labels {
        let fires = present.contains_key(&label.key());
        let shown = format!(
            "{} {} {} {:?}",
            label.code, label.file, label.pointer, label.text
        );
        match (label.label.as_str(), label.sample.as_str(), fires) {
            ("unlabelled", _, _) => problems.push(format!("unlabelled: {shown}")),
            ("true", "after" | "fresh", false) => {
                problems.push(format!("a true finding is gone: {shown}"))
            }
            ("false", "before", true) => {
                problems.push(format!("a fixed false positive is back: {shown}"))
            }
            ("true" | "false" | "debatable", "after" | "before" | "fresh", _) => {}
            (label, sample, _) => problems.push(format!("bad label {label:?}/{sample:?}: {shown}")),
        }
    }
    // Every rule that fires is sampled and keeps its precision.
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut fresh: BTreeMap<&str, Tally> = BTreeMap::new();
    for label in &labels {
        if present.contains_key(&label.key()) {
            match label.sample.as_str() {
                "after" => tallies.entry(&label.code).or_default().add(&label.label),
                "fresh" => fresh.entry(&label.code).or_default().add(&label.label),
                _ => {}
            }
        }
    }
    let firing: HashSet<&str> = findings.iter().map(|f| f.key.0.as_str()).collect();
    for rule in &registry.rules {
        let code = rule.meta.code.as_str();
        if !firing.contains(code) {
            continue;
        }
        let tally = tallies.get(code);
        let fresh = fresh.get(code);
        eprintln!(
            "{code:6} {:28} sampled {:3} precision {:5} fresh {:3} precision {}",
            rule.meta.name,
            tally.map_or(0, Tally::labelled),
            percent(tally.and_then(Tally::precision)),
            fresh.map_or(0, Tally::labelled),
            percent(fresh.and_then(Tally::precision))
        );
        if tally.is_none_or(|tally| tally.labelled() == 0) {
            problems.push(format!("{code} fires but none of its findings is sampled"));
        }
        for (sample, tally) in [("", tally), (" on the fresh sample", fresh)] {
            match tally.and_then(Tally::precision) {
                Some(p) if p < MIN_PRECISION => problems.push(format!(
                    "{code} precision{sample} {:.1}% is under {:.0}%: fix the false-positive \
                     class, or lower its default severity",
                    p * 100.0,
                    MIN_PRECISION * 100.0
                )),
                _ => {}
            }
        }
    }
    let expected = report(&registry, &labels, &findings);
    let written =
        std::fs::read_to_string(common::root().join("docs/precision.md")).unwrap_or_default();
    if written != expected {
        problems.push(
            "docs/precision.md is stale: run `UPDATE_PRECISION=1 cargo test --test precision`"
                .to_string(),
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Issue 11's acceptance on the MCP servers: no credential finding on a data key or a cursor,
/// no absolute-words finding on a parameter's `Must be …` constraint.
#[test]
fn no_known_false_positive_class_fires_on_the_mcp_servers() {
    let Some(corpora) = corpora() else {
        eprintln!("skipped: no ../shared/corpora (they are not part of a clone)");
        return;
    };
    let findings = lint(&corpora, &Registry::builtin().unwrap());
    let mcp: Vec<&Finding> = findings.iter().filter(|f| f.corpus == "mcp").collect();
    let bad: Vec<String> = mcp
        .iter()
        .filter(|f| {
            let name = f.key.3.trim_matches('"').to_lowercase();
            let cursor = ["page", "next", "continuation", "version", "cursor"]
                .iter()
                .any(|word| name.contains(word))
                && name.ends_with("token");
            let data_key = name == "key" || name.ends_with("key") && !name.contains("api");
            f.key.0 == "TC301" && (cursor || data_key)
        })
        .chain(mcp.iter().filter(|f| {
            f.key.0 == "TC209"
                && f.field == "input_schema"
                && f.key.3 == "Must"
                && f.after.starts_with(" be ")
        }))
        .map(|f| format!("{} {} {} {:?}", f.key.0, f.key.1, f.key.2, f.key.3))
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The classes that must still fire there: orders to the model and credentials by name.
    assert!(
        mcp.iter()
            .any(|f| f.key.0 == "TC209" && f.key.3 == "Always")
    );
    assert!(
        mcp.iter()
            .any(|f| f.key.0 == "TC301" && f.key.3.contains("Secret"))
    );
}

/// Issue 11's classes of `this-tool-reference` and `missing-anti-trigger` on the corpora: a
/// generic `the tool` is no reference; a boundary stated in other words counts; what a tool
/// returns or does by default is no boundary.
#[test]
fn reference_and_boundary_classes_hold_on_the_corpora() {
    let Some(corpora) = corpora() else {
        eprintln!("skipped: no ../shared/corpora (they are not part of a clone)");
        return;
    };
    let findings = lint(&corpora, &Registry::builtin().unwrap());
    let fires = |code: &str, file: &str, pointer: &str| {
        findings
            .iter()
            .any(|f| f.key.0 == code && f.key.1 == file && f.key.2 == pointer)
    };
    // "Match the requested operation to the tool boundary: …"
    assert!(!fires("TC204", "mcp/firecrawl-mcp.json", "/instructions"));
    for (file, pointer) in [
        // "Only use this tool with URLs you're confident will work"
        (
            "mcp/browserbasehq__mcp-server-browserbase.json",
            "/tools/2/description",
        ),
        // "For performance audits, run performance_start_trace"
        ("mcp/chrome-devtools-mcp.json", "/tools/12/description"),
        // "use browser_snapshot for actions"
        ("mcp/playwright__mcp.json", "/tools/17/description"),
        // "Returns matching URLs rather than page bodies. Retrieve one page with `firecrawl_scrape`"
        ("mcp/firecrawl-mcp.json", "/tools/1/description"),
        // "Prefer this tool over assign_copilot_to_issue when available"
        ("github-mcp-server/toolsnaps.json", "/tools/12/description"),
        // "This tool is only available in Plan mode"
        (
            "harness/codex-cli-0.171.0-model-gpt-4.1-responses-request.json",
            "/2/description",
        ),
    ] {
        assert!(
            !fires("TC207", file, pointer),
            "{file} {pointer} states a boundary"
        );
    }
    for (file, pointer) in [
        // "it is returned unchanged instead of erroring"
        ("mcp/pinecone-database__mcp.json", "/tools/4/description"),
        // "If the database doesn't exist, it will be created automatically"
        ("mcp/mongodb-mcp-server.json", "/tools/7/description"),
        // "By default, all <script> tags are removed … unless removeScripts …"
        (
            "mcp/executeautomation__playwright-mcp-server.json",
            "/tools/26/description",
        ),
        // "Optional number of collections to skip before returning results"
        ("mcp/chroma-mcp.json", "/tools/0/description"),
    ] {
        assert!(
            fires("TC207", file, pointer),
            "{file} {pointer} states no boundary"
        );
    }
}
