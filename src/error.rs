//! Errors that stop a run (exit code 2): bad usage, bad config or ruleset, missing paths.

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::parse::Span;
use crate::parse::source::{Excerpt, SourceFile};

#[derive(Debug)]
pub struct Error {
    pub message: String,
    pub help: Option<String>,
    /// The file and span the error is about, when it comes from a file (config, rule file).
    pub location: Option<(Arc<SourceFile>, Span)>,
    /// What the human rendering shows of `location`, cut the first time it is drawn (boxed:
    /// an `Error` travels in every `Result`).
    excerpt: OnceLock<Option<Box<Excerpt>>>,
    /// Errors reported together with this one (every mistake of a config file at once).
    more: Vec<Error>,
}

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            help: None,
            location: None,
            excerpt: OnceLock::new(),
            more: Vec::new(),
        }
    }

    pub fn at(file: &Arc<SourceFile>, span: Span, message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            help: None,
            location: Some((file.clone(), span)),
            excerpt: OnceLock::new(),
            more: Vec::new(),
        }
    }

    /// `Err` carrying every one of `errors` (see [`Error::many`]), `Ok` when there is none.
    pub fn collect(errors: Vec<Error>) -> Result<()> {
        let mut errors = errors.into_iter();
        match errors.next() {
            None => Ok(()),
            Some(first) => Err(Error::many(first, errors.collect())),
        }
    }

    /// `result`, or, when there are `earlier` errors, all of them with `result`'s.
    pub fn after<T>(earlier: Vec<Error>, result: Result<T>) -> Result<T> {
        match result {
            Ok(value) => Error::collect(earlier).map(|()| value),
            Err(error) => Err(Error::many(error, earlier)),
        }
    }

    /// One error that reports `first` and `rest` together, ordered by where they point:
    /// command-line values (no location) first, then by file and offset.
    pub fn many(first: Error, rest: Vec<Error>) -> Error {
        let mut errors: Vec<Error> = std::iter::once(first)
            .chain(rest)
            .flat_map(Error::into_all)
            .collect();
        errors.sort_by_cached_key(|error| {
            error
                .location
                .as_ref()
                .map(|(file, span)| (file.name.clone(), span.start))
        });
        let mut errors = errors.into_iter();
        // `first` is in it: never empty.
        let mut head = errors.next().unwrap_or_else(|| Error::new("no error"));
        head.more = errors.collect();
        head
    }

    /// This error and those reported with it, in order.
    pub fn all(&self) -> impl Iterator<Item = &Error> {
        std::iter::once(self).chain(&self.more)
    }

    /// This error and those reported with it, to merge with more.
    pub fn into_all(mut self) -> Vec<Error> {
        let more = std::mem::take(&mut self.more);
        std::iter::once(self).chain(more).collect()
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
