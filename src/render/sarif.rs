//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.
//!
//! Hand-written structs for the part of SARIF toolcheck emits; `tests/formats.rs` validates
//! the output against the official schema.

use std::collections::HashMap;
use std::io::{self, Write};

use serde::Serialize;

use super::{Output, PrettyArray, Totals};
use crate::lint::FileReport;

use crate::catalog::Registry;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::Span;
use crate::parse::source::SourceFile;

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The `partialFingerprints` key; bump the version when the fingerprint recipe changes.
pub const FINGERPRINT_KEY: &str = "toolcheck/v1";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool<'a>,
    column_kind: &'static str,
    /// Always empty here: [`SarifOutput`] writes the results one at a time in its place.
    results: [SarifResult; 0],
}

#[derive(Serialize)]
struct Tool<'a> {
    driver: Driver<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver<'a> {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    rules: Vec<Rule<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule<'a> {
    id: &'a str,
    name: &'a str,
    short_description: Text,
    /// The rule's page (`docs/rules/`); a team's own rules have none.
    #[serde(skip_serializing_if = "Option::is_none")]
    help_uri: Option<String>,
    help: Help,
    default_configuration: Configuration,
    properties: RuleProperties<'a>,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties<'a> {
    tags: [&'a str; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: Text,
    locations: [Location; 1],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location>,
    partial_fingerprints: HashMap<&'static str, String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
    byte_offset: usize,
    byte_length: usize,
}

/// SARIF's level for a severity.
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The log, written as the run goes: its rules first, then each result as its file's report
/// arrives, then the rest.
pub struct SarifOutput<W> {
    results: PrettyArray<W>,
    /// The log after its results.
    tail: String,
    /// Each rule's `ruleIndex`.
    index: HashMap<String, usize>,
    /// How many times each identity was seen, for the fingerprints.
    seen: HashMap<u64, usize>,
}

impl<W: Write> SarifOutput<W> {
    /// Starts the log. `rules` lists every rule of the registry (enabled or not), so a
    /// `ruleIndex` stays the same whatever the configuration selects.
    pub fn new(mut out: W, registry: &Registry) -> io::Result<Self> {
        let rules = registry
            .rules
            .iter()
            .map(|registered| {
                let meta = &registered.meta;
                Rule {
                    id: &meta.code,
                    name: &meta.name,
                    short_description: Text {
                        text: meta.summary.clone(),
                    },
                    help_uri: crate::catalog::pages::url(&meta.code, &meta.name),
                    help: Help {
                        text: format!(
                            "{}\n\nRun `toolcheck explain {}` for the full documentation \
                             ({}/{} in toolcheck's repository).",
                            meta.summary,
                            meta.code,
                            crate::catalog::pages::DIR,
                            crate::catalog::pages::file_name(&meta.code, &meta.name)
                        ),
                        markdown: meta.docs.clone(),
                    },
                    default_configuration: Configuration {
                        level: level(meta.default_severity),
                    },
                    properties: RuleProperties {
                        tags: [meta.family.as_str()],
                    },
                }
            })
            .collect();
        let index = registry
            .rules
            .iter()
            .enumerate()
            .map(|(index, rule)| (rule.meta.code.clone(), index))
            .collect();
        let log = Log {
            schema: SCHEMA,
            version: "2.1.0",
            runs: [Run {
                tool: Tool {
                    driver: Driver {
                        name: "toolcheck",
                        version: env!("CARGO_PKG_VERSION"),
                        semantic_version: env!("CARGO_PKG_VERSION"),
                        rules,
                    },
                },
                column_kind: "unicodeCodePoints",
                results: [],
            }],
        };
        let text = serde_json::to_string_pretty(&log).map_err(io::Error::other)?;
        // The results are the log's last array: what comes before `[]` is written now, what
        // comes after it at the end.
        const RESULTS: &str = "\"results\": []";
        let at = text.rfind(RESULTS).unwrap_or(text.len());
        let (head, tail) = text.split_at(at);
        let tail = tail.get(RESULTS.len()..).unwrap_or_default().to_string();
        out.write_all(head.as_bytes())?;
        out.write_all(b"\"results\": ")?;
        let indent = head.len() - head.trim_end_matches(' ').len();
        Ok(SarifOutput {
            results: PrettyArray::new(out, indent),
            tail,
            index,
            seen: HashMap::new(),
        })
    }

    fn result(&mut self, diagnostic: &Diagnostic) -> io::Result<()> {
        // Identical identities (the same word twice in one description) are told apart by
        // their order, which unrelated edits elsewhere do not change.
        let identity = identity(diagnostic);
        let occurrence = self.seen.entry(identity).or_insert(0);
        *occurrence += 1;
        let fingerprint = format!("{identity:016x}:{}", occurrence);
        let rule_index = self.index.get(&*diagnostic.code).copied();
        self.results
            .push(&result(diagnostic, rule_index, fingerprint))
    }
}

impl<W: Write> Output for SarifOutput<W> {
    fn report(&mut self, report: &FileReport) -> io::Result<()> {
        for diagnostic in &report.diagnostics {
            self.result(diagnostic)?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>, _totals: &Totals) -> io::Result<()> {
        let mut out = self.results.close()?;
        out.write_all(self.tail.as_bytes())?;
        out.write_all(b"\n")
    }
}

fn result(diagnostic: &Diagnostic, rule_index: Option<usize>, fingerprint: String) -> SarifResult {
    let related_locations = diagnostic
        .related
        .iter()
        .enumerate()
        .map(|(id, related)| Location {
            id: Some(id + 1),
            physical_location: physical(&related.file, &related.span),
            message: Some(Text {
                text: related.message.clone(),
            }),
        })
        .collect();
    SarifResult {
        rule_id: diagnostic.code.to_string(),
        rule_index,
        level: level(diagnostic.severity),
        message: Text {
            text: message_with_help(diagnostic),
        },
        locations: [Location {
            id: None,
            physical_location: physical(&diagnostic.file, &diagnostic.span),
            message: None,
        }],
        related_locations,
        partial_fingerprints: HashMap::from([(FINGERPRINT_KEY, fingerprint)]),
    }
}

/// The message, then `help: ...` on its own line (as the human output shows it).
pub fn message_with_help(diagnostic: &Diagnostic) -> String {
    match &diagnostic.help {
        Some(help) => format!("{}\nhelp: {help}", diagnostic.message),
        None => diagnostic.message.clone(),
    }
}

fn physical(file: &SourceFile, span: &Span) -> PhysicalLocation {
    let start = file.line_column(span.start);
    let end = file.line_column(span.end);
    PhysicalLocation {
        artifact_location: ArtifactLocation {
            uri: uri(&file.name),
        },
        region: Region {
            start_line: start.line,
            start_column: start.column,
            end_line: end.line,
            end_column: end.column,
            byte_offset: span.start,
            byte_length: span.len(),
        },
    }
}

/// The path as given, with `/` separators, as a relative URI reference: bytes outside the
/// unreserved set and `/` are percent-encoded (so `:` cannot read as a scheme).
pub fn uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// What identifies a finding independently of where its lines are: rule, file, tool,
/// JSON Pointer, and the flagged text when it is short (the word, the key). Line numbers
/// and messages (which may quote counts) are left out.
fn identity(diagnostic: &Diagnostic) -> u64 {
    let text = diagnostic
        .file
        .text
        .get(diagnostic.span.clone())
        .filter(|text| text.len() <= 80 && !text.contains('\n'))
        .unwrap_or_default();
    let mut hash = Fnv1a::new();
    for part in [
        &*diagnostic.code,
        &diagnostic.file.name.replace('\\', "/"),
        diagnostic.tool.as_deref().unwrap_or_default(),
        &diagnostic.pointer.written(),
        text,
    ] {
        hash.write(part.as_bytes());
        hash.write(&[0]);
    }
    hash.finish()
}

/// FNV-1a, 64 bits: tiny, and stable across Rust versions and platforms (unlike
/// `DefaultHasher`), which fingerprints stored by code scanning need.
struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_keep_paths_and_encode_the_rest() {
        assert_eq!(uri("tools/a.tool.yaml"), "tools/a.tool.yaml");
        assert_eq!(uri(r"tools\win.json"), "tools/win.json");
        assert_eq!(uri("c:/x y/é%.json"), "c%3A/x%20y/%C3%A9%25.json");
    }

    #[test]
    fn fnv1a_matches_the_reference_values() {
        let hash = |text: &str| {
            let mut hash = Fnv1a::new();
            hash.write(text.as_bytes());
            hash.finish()
        };
        assert_eq!(hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash("foobar"), 0x8594_4171_f739_67e8);
    }
}
