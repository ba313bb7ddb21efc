//! `toolcheck diff`: what a change does to what the model reads. Both sides are read through
//! the same read → parse → normalize path as `lint`, their tools matched by name within files
//! paired by path ([`load`]), and every difference classified:
//!
//! - **breaking**: a tool removed or renamed, a required parameter added, a parameter removed,
//!   made required or its type narrowed, an enum value removed (or an enum imposed);
//! - **risky**: a trigger ("Use when …") or anti-trigger ("Do not use …") sentence of the
//!   description or guidelines changed (as `missing-trigger` and `missing-anti-trigger` read
//!   them), a limit changed (`maxItems`, `maximum`, `maxLength`, …, or a number of the
//!   description), a default changed, the tool's token cost up more than 20% (and 10 tokens);
//! - **additive**: everything else (a tool or optional parameter added, a rewording, ...).
//!
//! Values are compared as JSON, so a reordering (of tools, keys, `required`, enum values,
//! guidelines) or a reformatting (YAML ↔ JSON, spaces) is no change. Both sides are linted with
//! the same config; findings are matched by rule, tool and location path inside the tool (not by
//! line), giving the new and the fixed ones.

mod findings;
pub mod load;
pub mod render;
mod report;
mod schema;
mod sides;
mod text;
mod tools;

use foldhash::HashMap;

use crate::catalog::Registry;
use crate::lint::Linter;

use findings::compare_findings;
use sides::{FileSide, Found, read_side};
use text::Detectors;
use tools::compare_files;

pub use load::{Side, Spec};
pub use report::*;

/// Version of the JSON document; bumped only on incompatible changes.
pub const VERSION: u32 = 1;

/// A tool whose token cost grows by more than this share is a risky change...
const TOKEN_GROWTH: f64 = 0.20;
/// ...when it grows by at least this many tokens (a 5-token tool gaining 2 is no risk).
const TOKEN_GROWTH_MIN: usize = 10;
/// Tools per job where a side's tools are read or compared on all cores: a tool takes
/// microseconds, so a job of one would cost more to hand out than to do.
const BLOCK: usize = 256;

/// Compares the two sides: each is read as tools and linted with `linter`.
pub fn diff(old: Side, new: Side, registry: &Registry, linter: &Linter) -> Report {
    let encoding = linter.encoding;
    let detectors = Detectors::new(registry, linter);
    let (old_label, new_label) = (old.label.clone(), new.label.clone());
    let (old_files, old_findings) = read_side(old, linter, encoding);
    let (new_files, new_findings) = read_side(new, linter, encoding);
    let internal_errors: Vec<String> = old_findings
        .internal_errors
        .iter()
        .chain(&new_findings.internal_errors)
        .cloned()
        .collect();
    // Pair the files by key, in key order.
    let mut keys: Vec<&str> = old_files
        .iter()
        .chain(&new_files)
        .map(|f| f.key.as_str())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let old_by_key: HashMap<&str, usize> = index_by_key(&old_files);
    let new_by_key: HashMap<&str, usize> = index_by_key(&new_files);
    let none: Vec<Found> = Vec::new();
    let mut files = Vec::new();
    let mut summary = Summary::default();
    let mut unreadable = Vec::new();
    for key in keys {
        let old = old_by_key.get(key).map(|&i| &old_files[i]);
        let new = new_by_key.get(key).map(|&i| &new_files[i]);
        // No side read as tools: there is nothing to compare, and no change to claim.
        if old.is_none_or(|f| f.error.is_some()) && new.is_none_or(|f| f.error.is_some()) {
            for side in old.into_iter().chain(new) {
                if let Some(error) = &side.error {
                    unreadable.push(format!("{}: {error}", side.name));
                }
            }
            continue;
        }
        let mut file = compare_files(old, new, &detectors);
        let renamed: HashMap<&str, &str> = file
            .tools
            .iter()
            .filter_map(|t| Some((t.old_name.as_deref()?, t.name.as_str())))
            .collect();
        file.findings = compare_findings(
            old.map_or(&none, |f| {
                old_findings.by_file.get(&f.name).unwrap_or(&none)
            }),
            new.map_or(&none, |f| {
                new_findings.by_file.get(&f.name).unwrap_or(&none)
            }),
            old,
            new,
            &renamed,
        );
        summary.tokens.add(file.tokens);
        summary.tools.unchanged += file.unchanged;
        for tool in &file.tools {
            match tool.status {
                Status::Added => summary.tools.added += 1,
                Status::Removed => summary.tools.removed += 1,
                Status::Renamed => summary.tools.renamed += 1,
                Status::Changed => summary.tools.changed += 1,
            }
        }
        for change in file
            .changes
            .iter()
            .chain(file.tools.iter().flat_map(|t| &t.changes))
        {
            match change.class {
                Class::Breaking => summary.breaking += 1,
                Class::Risky => summary.risky += 1,
                Class::Additive => summary.additive += 1,
            }
        }
        summary.findings.new += file.findings.new.len();
        summary.findings.fixed += file.findings.fixed.len();
        // A prompt cache holds the tools, then the system prompt, then the messages.
        let level = if !file.tools.is_empty() {
            Some(CacheLevel::Tools)
        } else if file
            .changes
            .iter()
            .any(|change| change.field == "instructions")
        {
            Some(CacheLevel::System)
        } else {
            None
        };
        summary.cache_invalidated_from = summary.cache_invalidated_from.max(level);
        if !file.is_empty() {
            files.push(file);
        }
    }
    crate::parallel::drop_in_background((old_files, new_files, old_findings, new_findings));
    Report {
        version: VERSION,
        toolcheck: env!("CARGO_PKG_VERSION"),
        tokenizer: encoding.as_str(),
        old: old_label,
        new: new_label,
        summary,
        files,
        internal_errors,
        unreadable,
    }
}

fn index_by_key(files: &[FileSide]) -> HashMap<&str, usize> {
    files
        .iter()
        .enumerate()
        .map(|(index, file)| (file.key.as_str(), index))
        .collect()
}
