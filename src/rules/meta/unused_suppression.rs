//! `unused-suppression` is reported by the suppression stage (`src/suppress/mod.rs`), after
//! every other rule has run, because only then is it known what a suppression silenced. This
//! type gives it its place in the catalog; it has nothing to check on its own.

use serde::Deserialize;

use crate::rule::Rule;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnusedSuppression {}

impl Rule for UnusedSuppression {}
