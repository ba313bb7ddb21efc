//! toolcheck: a linter for the text an LLM agent reads about its tools.
//!
//! Pipeline: [`discover`] files → parse ([`syntax`]) → normalize ([`model`]) → run rules
//! ([`engine`], [`registry`]) → [`render`].

pub mod cli;
pub mod config;
pub mod declarative;
pub mod diagnostic;
pub mod discover;
pub mod docs;
pub mod engine;
pub mod error;
pub mod init;
pub mod model;
pub mod options;
pub mod parallel;
pub mod registry;
pub mod render;
pub mod rule;
pub mod rules;
pub mod schema;
pub mod source;
pub mod suggest;
pub mod suppression;
pub mod syntax;
pub mod testing;
pub mod text;
pub mod tokens;
pub mod tokens_report;
