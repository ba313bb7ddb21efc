//! Files parsed once and kept: what compat and diff read the tool sets of, each tool with the
//! span of its definition.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::{file, panic_message, select};
use crate::catalog::Registry;
use crate::diagnostic::{Diagnostic, Severity};
use crate::error::Result;
use crate::normalize::ToolSet;
use crate::read::Input;
use crate::rules::meta::invalid_manifest::InvalidManifest;
use crate::tokens::Encoding;

/// Inputs read and parsed once ([`Linter::parse_all`]), in input order.
pub struct ParsedInputs {
    pub(super) parsed: Vec<file::Parsed>,
    pub(super) invalid_manifest: crate::rule::ActiveRule,
}

/// One tool of a file as `normalize` reads it: its name (empty when it has none, as in
/// [`Diagnostic::tool`]) and the span of its definition.
#[derive(Debug, Clone)]
pub struct ToolSpan {
    pub name: String,
    pub span: crate::parse::Span,
}

impl ParsedInputs {
    /// Each file's tools, in input order and file order; none for a file without a tree (or
    /// whose reading panicked: linting it reports that).
    pub fn tools(&self, encoding: Encoding) -> Vec<Vec<ToolSpan>> {
        self.with_tool_sets(encoding, |_, set| {
            set.tools
                .iter()
                .map(|tool| ToolSpan {
                    name: tool.name().to_string(),
                    span: tool.node.span(),
                })
                .collect()
        })
        .into_iter()
        .map(Result::unwrap_or_default)
        .collect()
    }

    /// Each file's tool set through `with_set` (with the file's index), in input order, on all
    /// cores, as [`with_tool_set`] reads one file (a panic while reading is the file's internal
    /// error).
    pub fn with_tool_sets<R: Send>(
        &self,
        encoding: Encoding,
        with_set: impl Fn(usize, &ToolSet<'_>) -> R + Sync,
    ) -> Vec<std::result::Result<R, NoToolSet>> {
        let files = self.parsed.iter().enumerate().collect();
        crate::parallel::map_in_order(files, |(index, parsed): (usize, &file::Parsed)| {
            catch_unwind(AssertUnwindSafe(|| {
                tool_set_of(parsed, &self.invalid_manifest, encoding, |set| {
                    with_set(index, set)
                })
            }))
            .unwrap_or_else(|payload| {
                Err(NoToolSet {
                    findings: Vec::new(),
                    internal_error: Some(panic_message(&*payload)),
                })
            })
        })
    }
}

/// Why a file has no tool set for [`with_tool_set`].
#[derive(Debug)]
pub struct NoToolSet {
    /// The `invalid-manifest` findings `lint` reports for the file (at error severity).
    pub findings: Vec<Diagnostic>,
    /// A bug in toolcheck stopped the reading (a panic's message).
    pub internal_error: Option<String>,
}

impl NoToolSet {
    /// One line: the first finding's message, or the internal error.
    pub fn message(&self) -> String {
        self.internal_error
            .clone()
            .or_else(|| self.findings.first().map(|d| d.message.clone()))
            .unwrap_or_default()
    }
}

/// One input through read → parse → normalize exactly as `lint` reads it, for a command that
/// needs the tool set but no rules (`toolcheck tokens`). `with_set` gets the tool set; the
/// error holds the `invalid-manifest` findings `lint` gives the file. Problems of shape stop
/// it only when no tool could be read.
pub fn with_tool_set<R>(
    input: Input,
    registry: &Registry,
    encoding: Encoding,
    with_set: impl FnOnce(&ToolSet<'_>) -> R,
) -> std::result::Result<R, NoToolSet> {
    let invalid_manifest = select::active(registry.native::<InvalidManifest>(), Severity::Error);
    let parsed = file::Parsed::read(input, &invalid_manifest);
    tool_set_of(&parsed, &invalid_manifest, encoding, with_set)
}

/// [`with_tool_set`] of a parsed file.
pub(super) fn tool_set_of<R>(
    parsed: &file::Parsed,
    invalid_manifest: &crate::rule::ActiveRule,
    encoding: Encoding,
    with_set: impl FnOnce(&ToolSet<'_>) -> R,
) -> std::result::Result<R, NoToolSet> {
    let root = match (&parsed.root, &parsed.internal_error) {
        (Some(root), None) => root,
        _ => {
            return Err(NoToolSet {
                findings: parsed.unreadable.clone(),
                internal_error: parsed.internal_error.clone(),
            });
        }
    };
    let mut ctx = crate::rule::Ctx::new(&parsed.file, encoding, invalid_manifest);
    let set = crate::normalize::normalize(root, &mut ctx);
    // Nothing readable at all (an empty document, no tool shape) is an error here as in
    // `lint`; a few bad fields among readable tools are not.
    let mut findings = ctx.take_findings();
    if set.tools.is_empty() && !findings.is_empty() {
        crate::diagnostic::sort(&mut findings);
        return Err(NoToolSet {
            findings,
            internal_error: None,
        });
    }
    Ok(with_set(&set))
}
