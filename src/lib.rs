//! toolcheck: a linter for the text an LLM agent reads about its tools.
//!
//! The folders are the stages of the pipeline a file goes through:
//! [`read`] (discover files, decode UTF-8) → [`parse`] (YAML/JSON with spans) → [`normalize`]
//! (every dialect into one [`normalize::ToolSet`]) → [`lint`] (the rules of the [`catalog`],
//! their checks in [`rules`]) → [`suppress`] (inline and config suppressions) → [`render`].

pub mod atomic_write;
pub mod catalog;
pub mod cli;
pub mod compat;
pub mod config;
pub mod diagnostic;
pub mod diff;
pub mod error;
pub mod fix;
pub mod init;
pub mod lint;
pub mod normalize;
pub mod options;
pub mod parallel;
pub mod parse;
pub mod read;
pub mod render;
pub mod rule;
pub mod rules;
pub mod search;
pub mod snapshot;
pub mod suppress;
pub mod targets;
pub mod text;
pub mod token_report;
pub mod tokens;
pub mod watch;
