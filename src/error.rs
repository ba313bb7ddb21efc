//! Errors that stop a run (exit code 2): bad usage, bad config or ruleset, missing paths.

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::parse::Span;
use crate::read::source::{Excerpt, SourceFile};

#[derive(Debug)]
pub struct Error {
    pub message: String,
    pub help: Option<String>,
    /// The file and span the error is about, when it comes from a file (config, rule file).
    pub location: Option<(Arc<SourceFile>, Span)>,
    /// What the human rendering shows of `location`, cut the first time it is drawn (boxed:
    /// an `Error` travels in every `Result`).
    excerpt: OnceLock<Option<Box<Excerpt>>>,
}

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            help: None,
            location: None,
            excerpt: OnceLock::new(),
        }
    }

    pub fn at(file: &Arc<SourceFile>, span: Span, message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            help: None,
            location: Some((file.clone(), span)),
            excerpt: OnceLock::new(),
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The excerpt of `location`: long lines cut to a window, a long span to its first lines.
    fn excerpt(&self) -> Option<&Excerpt> {
        self.excerpt
            .get_or_init(|| {
                let (file, span) = self.location.as_ref()?;
                Some(Box::new(file.excerpt(span.clone())))
            })
            .as_deref()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl miette::Diagnostic for Error {
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_deref()
            .map(|help| Box::new(help) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.excerpt()
            .map(|excerpt| excerpt as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let excerpt = self.excerpt()?;
        Some(Box::new(std::iter::once(excerpt.label(None))))
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
