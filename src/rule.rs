//! What a rule is: its metadata, the [`Rule`] trait, and the [`Ctx`] it reports through.
//! Rules only report; the engine decides whether a rule runs and at which severity.

use std::ops::Range;

use std::sync::Arc;

use crate::diagnostic::{Field, Severity};
use crate::model::{Tool, ToolSet};
use crate::source::SourceFile;
use crate::syntax::{Entry, Node, Span};
use crate::tokens::{Counter, Encoding};

/// The rule families; a family selector (`TC2`) and its name select the same rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Meta,
    Budget,
    Wording,
    Security,
    Schema,
    Names,
    Targets,
}

impl Family {
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Meta => "meta",
            Family::Budget => "budget",
            Family::Wording => "wording",
            Family::Security => "security",
            Family::Schema => "schema",
            Family::Names => "names",
            Family::Targets => "targets",
        }
    }
}

/// Where a rule is defined, for `toolcheck explain` and "where does TC301 live".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A Rust rule: its source file.
    Rust(&'static str),
    /// A declarative rule: built in (`rules/<name>.yaml`) or from a ruleset directory.
    Yaml(String),
}

/// Everything about a rule except its check.
#[derive(Debug, Clone)]
pub struct RuleMeta {
    pub code: String,
    pub name: String,
    pub family: Family,
    pub default_severity: Severity,
    /// One line: what it checks.
    pub summary: String,
    /// Markdown: What it does / Why is this bad? / Example / Use instead / Options.
    pub docs: String,
    pub origin: Origin,
}

/// A check. Each hook runs once per tool, once per file (tool set), or once per run over
/// every file (for findings across files, such as the same tool name in two servers).
pub trait Rule: Send + Sync {
    fn check_tool(&self, _tool: &Tool<'_>, _ctx: &mut Ctx<'_>) {}
    fn check_set(&self, _set: &ToolSet<'_>, _ctx: &mut Ctx<'_>) {}
    fn check_run(&self, _sets: &[SetRef<'_>], _ctx: &mut RunCtx<'_>) {}
}

/// One file's tool set, as a run-level check sees it.
pub struct SetRef<'a> {
    pub file: &'a Arc<SourceFile>,
    pub set: &'a ToolSet<'a>,
}

/// The context of a run-level check: one [`Ctx`] per file, in the order of the `sets`.
pub struct RunCtx<'a> {
    files: Vec<Ctx<'a>>,
}

impl<'a> RunCtx<'a> {
    pub fn new(files: Vec<Ctx<'a>>) -> Self {
        RunCtx { files }
    }

    /// The context to report into for `sets[index]`.
    pub fn file(&mut self, index: usize) -> &mut Ctx<'a> {
        &mut self.files[index]
    }

    /// The findings, by index into the `sets`.
    pub fn take_findings(&mut self) -> Vec<(usize, Finding)> {
        self.files
            .iter_mut()
            .enumerate()
            .flat_map(|(index, ctx)| ctx.take_findings().into_iter().map(move |f| (index, f)))
            .collect()
    }
}

/// What a finding points at.
#[derive(Debug, Clone)]
pub enum Target<'a> {
    /// A whole value.
    Value(&'a Node),
    /// A mapping key (e.g. a property name).
    Key(&'a Entry),
    /// A byte range of a string's decoded value; mapped back to the source exactly.
    Text(&'a Node, Range<usize>),
}

/// One report from a rule, before the engine gives it a severity.
#[derive(Debug, Clone)]
pub struct Finding {
    pub message: String,
    pub help: Option<String>,
    pub label: Option<String>,
    pub field: Field,
    pub pointer: String,
    pub span: Span,
    pub tool: Option<String>,
    /// A secondary location, e.g. the first of two duplicates.
    pub related: Option<RelatedSpan>,
    /// The most severe level this finding may have, whatever the rule is configured to (a
    /// milder case of a rule, e.g. a duplicate across files rather than within one).
    pub at_most: Option<Severity>,
}

/// A secondary location of a finding; `file` is `None` for the finding's own file.
#[derive(Debug, Clone)]
pub struct RelatedSpan {
    pub message: String,
    pub file: Option<Arc<SourceFile>>,
    pub span: Span,
}

impl Finding {
    pub fn help(&mut self, help: impl Into<String>) -> &mut Self {
        self.help = Some(help.into());
        self
    }

    pub fn label(&mut self, label: impl Into<String>) -> &mut Self {
        self.label = Some(label.into());
        self
    }

    /// A secondary location in the same file.
    pub fn related(&mut self, message: impl Into<String>, span: Span) -> &mut Self {
        self.related = Some(RelatedSpan {
            message: message.into(),
            file: None,
            span,
        });
        self
    }

    /// A secondary location in another file.
    pub fn related_in(
        &mut self,
        message: impl Into<String>,
        file: &Arc<SourceFile>,
        span: Span,
    ) -> &mut Self {
        self.related = Some(RelatedSpan {
            message: message.into(),
            file: Some(file.clone()),
            span,
        });
        self
    }

    /// Caps the severity of this finding (the configured severity applies when lower).
    pub fn at_most(&mut self, severity: Severity) -> &mut Self {
        self.at_most = Some(severity);
        self
    }
}

/// The context one rule runs in: the file's text, the tool, the tokenizer, and the findings.
pub struct Ctx<'a> {
    pub source: &'a str,
    pub encoding: Encoding,
    /// Token counts shared by every rule of the file, so nothing is tokenized twice.
    pub tokens: Counter,
    tool: Option<String>,
    findings: Vec<Finding>,
}

impl<'a> Ctx<'a> {
    pub fn new(source: &'a str, encoding: Encoding) -> Self {
        Ctx {
            source,
            encoding,
            tokens: Counter::new(encoding),
            tool: None,
            findings: Vec::new(),
        }
    }

    /// Findings from now on belong to `tool` (`None`: file-level).
    pub fn set_tool(&mut self, tool: Option<&str>) {
        self.tool = tool.map(str::to_string);
    }

    pub fn report(
        &mut self,
        field: Field,
        target: Target<'_>,
        message: impl Into<String>,
    ) -> &mut Finding {
        let (span, pointer) = match target {
            Target::Value(node) => (node.span.clone(), node.pointer.clone()),
            Target::Key(entry) => (entry.key_span.clone(), entry.value.pointer.clone()),
            Target::Text(node, range) => {
                (node.source_range(self.source, range), node.pointer.clone())
            }
        };
        self.findings.push(Finding {
            message: message.into(),
            help: None,
            label: None,
            field,
            pointer,
            span,
            tool: self.tool.clone(),
            related: None,
            at_most: None,
        });
        self.findings.last_mut().expect("a finding was just pushed")
    }

    pub fn take_findings(&mut self) -> Vec<Finding> {
        std::mem::take(&mut self.findings)
    }
}

/// Declares a Rust rule's metadata next to its check; the doc comment is its documentation.
///
/// ```ignore
/// declare_rule! {
///     /// ## What it does
///     /// ...
///     SecretLikeFieldNames {
///         code: "TC301",
///         name: "secret-like-field-names",
///         family: Security,
///         severity: Error,
///         summary: "input-schema property names that look like credentials",
///     }
/// }
/// ```
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        $ty:ident {
            code: $code:literal,
            name: $name:literal,
            family: $family:ident,
            severity: $severity:ident,
            summary: $summary:literal $(,)?
        }
    ) => {
        impl $crate::rule::RustRule for $ty {
            fn meta() -> $crate::rule::RuleMeta {
                $crate::rule::RuleMeta {
                    code: $code.to_string(),
                    name: $name.to_string(),
                    family: $crate::rule::Family::$family,
                    default_severity: $crate::diagnostic::Severity::$severity,
                    summary: $summary.to_string(),
                    docs: $crate::rule::clean_docs(&[$($doc),*]),
                    origin: $crate::rule::Origin::Rust(file!()),
                }
            }
        }
    };
}
pub(crate) use declare_rule;

/// A rule written in Rust: metadata from [`declare_rule!`], options from
/// `rules.options.<name>` via serde (`Default` when none are given).
pub trait RustRule: Rule + Default + serde::de::DeserializeOwned + 'static {
    fn meta() -> RuleMeta;
}

/// Joins doc-comment lines, dropping the one space `///` leaves before each.
pub fn clean_docs(lines: &[&str]) -> String {
    let mut docs = String::new();
    for line in lines {
        docs.push_str(line.strip_prefix(' ').unwrap_or(line));
        docs.push('\n');
    }
    docs
}
