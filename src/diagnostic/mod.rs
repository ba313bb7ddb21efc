//! The one finding type, from the rule that reports it to the renderer that prints it.

mod report;
pub mod reporter;

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use rayon::slice::ParallelSliceMut;
use serde::{Deserialize, Serialize};

use crate::parse::source::SourceFile;
use crate::parse::{Pointer, Span};

pub use report::{FileReport, Suppressed};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which part of a tool (or file) a diagnostic is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    Name,
    Title,
    Description,
    Snippet,
    Guidelines,
    Instructions,
    InputSchema,
    OutputSchema,
    Limits,
    Results,
    File,
}

impl Field {
    pub fn as_str(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Title => "title",
            Field::Description => "description",
            Field::Snippet => "snippet",
            Field::Guidelines => "guidelines",
            Field::Instructions => "instructions",
            Field::InputSchema => "input_schema",
            Field::OutputSchema => "output_schema",
            Field::Limits => "limits",
            Field::Results => "results",
            Field::File => "file",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A finding: which rule, what is wrong, where, and how to fix it. A rule creates it through
/// [`Ctx::report`](crate::rule::Ctx::report), which fills in the rule and the severity
/// configuration gave it; the rule adds help, a label or a related location.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub code: Arc<str>,
    pub rule: Arc<str>,
    pub severity: Severity,
    pub message: String,
    /// Most helps are a rule's fixed text, shared rather than copied into every finding.
    pub help: Option<Cow<'static, str>>,
    /// A short label under the underlined span.
    pub label: Option<Cow<'static, str>>,
    pub file: Arc<SourceFile>,
    /// The tool's name; `None` for file-level findings.
    pub tool: Option<Arc<str>>,
    pub field: Field,
    /// JSON Pointer of the node the finding is about: the tree's own, shared rather than
    /// written out for each finding.
    pub pointer: Pointer,
    /// Byte range in `file.text`.
    pub span: Span,
    /// Secondary locations, e.g. the first definition of a duplicated name.
    pub related: Box<[Related]>,
    /// A change of the source that fixes the finding without changing what the text means
    /// (applied by `lint --fix`). Boxed, as `related`: few findings have one, and a large set
    /// can have hundreds of thousands of findings.
    pub fix: Option<Box<Fix>>,
}

/// Sorts findings into output order ([`Diagnostic::sort_key`]), keeping the order of equal
/// ones. Their indices are sorted and each finding is then moved into place along the
/// permutation's cycles: a stable sort of the findings themselves takes a scratch copy of half
/// of them (19 MB for 200,000).
pub fn sort(diagnostics: &mut [Diagnostic]) {
    // Below this, threads cost more than they save.
    const PARALLEL: usize = 4096;
    let mut order: Vec<usize> = (0..diagnostics.len()).collect();
    let compare = |&a: &usize, &b: &usize| diagnostics[a].output_order(&diagnostics[b]);
    if order.len() >= PARALLEL {
        order.par_sort_by(compare);
    } else {
        order.sort_by(compare);
    }
    // `order[i]` is the finding that belongs at `i`; a slot is marked done by pointing at itself.
    for start in 0..order.len() {
        let mut current = start;
        loop {
            let next = order[current];
            order[current] = current;
            if next == start {
                break;
            }
            diagnostics.swap(current, next);
            current = next;
        }
    }
}

// A large tool set can have hundreds of thousands of findings: keep them small.
const _: () = assert!(std::mem::size_of::<Diagnostic>() <= 184);

/// Edits of one file that fix one finding; they never overlap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub edits: Vec<Edit>,
}

/// Replace the bytes of `span` with `replacement` (an empty span inserts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub replacement: String,
}

/// A secondary location (e.g. the first of two duplicates).
#[derive(Debug, Clone)]
pub struct Related {
    pub message: String,
    pub file: Arc<SourceFile>,
    pub span: Span,
}

impl Diagnostic {
    pub fn help(&mut self, help: impl Into<Cow<'static, str>>) -> &mut Self {
        self.help = Some(help.into());
        self
    }

    pub fn label(&mut self, label: impl Into<Cow<'static, str>>) -> &mut Self {
        self.label = Some(label.into());
        self
    }

    /// The edits that fix this finding.
    pub fn fix(&mut self, edits: Vec<Edit>) -> &mut Self {
        self.fix = Some(Box::new(Fix { edits }));
        self
    }

    /// A secondary location in the same file.
    pub fn related(&mut self, message: impl Into<String>, span: Span) -> &mut Self {
        let file = self.file.clone();
        self.related_in(message, &file, span)
    }

    /// A secondary location in another file.
    pub fn related_in(
        &mut self,
        message: impl Into<String>,
        file: &Arc<SourceFile>,
        span: Span,
    ) -> &mut Self {
        let mut related = std::mem::take(&mut self.related).into_vec();
        related.push(Related {
            message: message.into(),
            file: file.clone(),
            span: file.whole_chars(span),
        });
        self.related = related.into_boxed_slice();
        self
    }

    /// Caps the severity (a milder case of a rule, e.g. a duplicate across files rather than
    /// within one); the configured severity applies when it is lower.
    pub fn at_most(&mut self, severity: Severity) -> &mut Self {
        self.severity = self.severity.min(severity);
        self
    }

    /// [`Diagnostic::sort_key`]'s order, without comparing the names of one file.
    fn output_order(&self, other: &Diagnostic) -> std::cmp::Ordering {
        let file = if Arc::ptr_eq(&self.file, &other.file) {
            std::cmp::Ordering::Equal
        } else {
            self.file.name.cmp(&other.file.name)
        };
        file.then(self.span.start.cmp(&other.span.start))
            .then_with(|| self.sort_key().cmp(&other.sort_key()))
    }

    /// Output order: file, offset, code.
    pub fn sort_key(&self) -> (&str, usize, &str, usize, &str) {
        (
            &self.file.name,
            self.span.start,
            &self.code,
            self.span.end,
            &self.message,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(file: &Arc<SourceFile>, start: usize, code: &str, message: &str) -> Diagnostic {
        Diagnostic {
            code: code.into(),
            rule: "rule".into(),
            severity: Severity::Info,
            message: message.to_string(),
            help: None,
            label: None,
            file: file.clone(),
            tool: None,
            field: Field::Description,
            pointer: Pointer::root(),
            span: start..start + 1,
            related: Box::default(),
            fix: None,
        }
    }

    #[test]
    fn sort_is_the_stable_sort_by_sort_key() {
        // Two files of one name (two reads of it) sort as one.
        let files = [
            SourceFile::new("a.json", "x".repeat(64)),
            SourceFile::new("b.json", "x".repeat(64)),
            SourceFile::new("a.json", "x".repeat(64)),
        ];
        let mut seed = 7u64;
        let mut next = |below: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % below
        };
        // 5,000: sorted on all cores.
        for length in [0, 1, 2, 3, 10, 100, 1000, 5000] {
            // Few distinct keys, so that equal ones are common; the pointer tells them apart.
            let mut findings: Vec<Diagnostic> = (0..length)
                .map(|index| {
                    let file = &files[next(3) as usize];
                    let code = ["TC001", "TC002"][next(2) as usize];
                    let mut d = finding(file, next(4) as usize, code, "m");
                    d.pointer = Pointer::root().index(index);
                    d
                })
                .collect();
            let expected: Vec<String> = {
                let mut sorted: Vec<&Diagnostic> = findings.iter().collect();
                sorted.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
                sorted.iter().map(|d| d.pointer.to_string()).collect()
            };
            sort(&mut findings);
            let got: Vec<String> = findings.iter().map(|d| d.pointer.to_string()).collect();
            assert_eq!(got, expected, "{length} findings");
        }
    }
}
