use serde::Deserialize;

use crate::rule::{Rule, declare_rule};

/// Reported by the engine after all other rules, when it applies suppressions
/// (`src/suppression.rs`); this type holds its documentation.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnusedSuppression {}

declare_rule! {
    /// ## What it does
    /// Reports a suppression that suppressed nothing: a `# toolcheck: ignore[...]` or
    /// `ignore-file[...]` comment, or a `rules.per-file-ignores` entry in `toolcheck.yaml`,
    /// that names a rule with no finding there, names an unknown rule, or names no rule at all
    /// (a bare `# toolcheck: ignore`).
    ///
    /// ## Why is this bad?
    /// A stale suppression hides the next real finding at that place, and one that names no
    /// rule would hide every rule. Each suppression should say what it silences, and go when
    /// the finding goes.
    ///
    /// ## Example
    /// ```yaml
    /// # toolcheck: ignore[absolute-words]
    /// description: Search the documentation. Not for code.
    /// ```
    ///
    /// Use instead: delete the comment, since nothing on that line is flagged any more.
    ///
    /// ## Options
    /// None.
    UnusedSuppression {
        code: "TC002",
        name: "unused-suppression",
        family: Meta,
        severity: Warning,
        summary: "a suppression that suppressed nothing or names an unknown rule",
    }
}

impl Rule for UnusedSuppression {}
