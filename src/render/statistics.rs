//! `--statistics`: instead of the findings, how many each rule has, most first, with their
//! severity and how many of them `--fix` fixes (as ruff's `--statistics` prints them).

use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};

/// One rule's count.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct RuleCount<'a> {
    pub code: &'a str,
    pub name: &'a str,
    /// The highest severity among its findings (configuration sets it per rule, or per file).
    pub severity: Severity,
    pub count: usize,
    pub fixable: usize,
}

/// Counts per rule, sorted by count (most first), then code.
pub fn count<'a>(diagnostics: impl Iterator<Item = &'a Diagnostic>) -> Vec<RuleCount<'a>> {
    let mut by_code: std::collections::BTreeMap<&str, RuleCount<'a>> = Default::default();
    for diagnostic in diagnostics {
        let entry = by_code.entry(&diagnostic.code).or_insert(RuleCount {
            code: &diagnostic.code,
            name: &diagnostic.rule,
            severity: diagnostic.severity,
            count: 0,
            fixable: 0,
        });
        entry.severity = entry.severity.max(diagnostic.severity);
        entry.count += 1;
        entry.fixable += usize::from(diagnostic.fix.is_some());
    }
    let mut counts: Vec<RuleCount<'a>> = by_code.into_values().collect();
    // The map gave code order; a stable sort keeps it among equal counts.
    counts.sort_by_key(|row| std::cmp::Reverse(row.count));
    counts
}

/// The table: count, code, `[*]` when some are fixable, severity, name, and the fixable share.
pub fn table(counts: &[RuleCount<'_>]) -> String {
    let count_width = counts
        .iter()
        .map(|row| row.count.to_string().len())
        .max()
        .unwrap_or(1);
    let name_width = counts.iter().map(|row| row.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for row in counts {
        let marker = if row.fixable > 0 { "[*]" } else { "   " };
        let share = match row.fixable {
            0 => String::new(),
            all if all == row.count => "all fixable".to_string(),
            some => format!("{some} fixable"),
        };
        let line = format!(
            "{:>count_width$}  {}  {marker} {:<7}  {:<name_width$}  {share}",
            row.count,
            row.code,
            row.severity.as_str(),
            row.name
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

pub fn json(counts: &[RuleCount<'_>]) -> String {
    let mut out = serde_json::to_string_pretty(counts).unwrap_or_default();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::{RuleCount, table};
    use crate::diagnostic::Severity;

    #[test]
    fn most_first_with_the_fixable_share() {
        let rows = [
            RuleCount {
                code: "TC207",
                name: "missing-anti-trigger",
                severity: Severity::Info,
                count: 12,
                fixable: 0,
            },
            RuleCount {
                code: "TC402",
                name: "non-object-root",
                severity: Severity::Error,
                count: 3,
                fixable: 2,
            },
        ];
        assert_eq!(
            table(&rows),
            "12  TC207      info     missing-anti-trigger\n \
             3  TC402  [*] error    non-object-root       2 fixable\n"
        );
    }
}
