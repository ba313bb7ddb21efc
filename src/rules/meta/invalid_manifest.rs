//! `invalid-manifest` is reported by the stages before any rule runs: reading (not UTF-8,
//! `src/lint/file.rs`), parsing (`src/parse/`) and normalizing (`src/normalize/`). This type
//! gives it its place in the catalog; it has nothing to check on its own.

use serde::Deserialize;

use crate::rule::Rule;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InvalidManifest {}

impl Rule for InvalidManifest {}
