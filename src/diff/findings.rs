//! The new and the fixed findings of a file pair, matched by rule, tool and place inside the
//! tool rather than by line.

use foldhash::{HashMap, HashMapExt};
use rayon::prelude::*;

use super::BLOCK;
use super::report::{Finding, Findings};
use super::sides::{FileSide, Found};

/// New and fixed findings of one file pair, matched by rule, tool and the finding's pointer
/// inside its tool.
pub(super) fn compare_findings<'a>(
    old: &'a [Found],
    new: &'a [Found],
    old_file: Option<&'a FileSide>,
    new_file: Option<&'a FileSide>,
    renamed: &'a HashMap<&str, &str>,
) -> Findings {
    let pointers = |file: Option<&'a FileSide>| -> HashMap<&'a str, &'a str> {
        let mut map = HashMap::new();
        for tool in file.map(|f| f.tools.as_slice()).unwrap_or_default() {
            map.entry(tool.name.as_str())
                .or_insert(tool.pointer.as_str());
        }
        map
    };
    let (old_pointers, new_pointers) = (pointers(old_file), pointers(new_file));
    // A side's findings are those of its file: without the file, there are none.
    let (old_name, new_name) = (
        old_file.map_or("", |f| f.name.as_str()),
        new_file.map_or("", |f| f.name.as_str()),
    );
    let key = |d: &'a Found, pointers: &HashMap<&str, &str>, rename: bool| FoundKey {
        code: &d.code,
        tool: d.tool.as_deref().map(|name| match renamed.get(name) {
            Some(new) if rename => new,
            _ => name,
        }),
        place: place(d, pointers),
    };
    // The keys on all cores (a large set has findings by the hundred thousand), matched in order.
    let keys = |found: &'a [Found], pointers, rename| -> Vec<_> {
        found
            .par_iter()
            .with_min_len(BLOCK)
            .map(|d| key(d, pointers, rename))
            .collect()
    };
    let (old_keyed, new_keyed) = (
        keys(old, &old_pointers, true),
        keys(new, &new_pointers, false),
    );
    // Each new finding takes the first old one with its key. Where both sides list the same
    // keys in the same order, that is the one at the same index: only the rest is looked up.
    let same = old_keyed
        .iter()
        .zip(&new_keyed)
        .take_while(|(old, new)| old == new)
        .count();
    let mut old_keys: HashMap<FoundKey<'_>, Vec<usize>> = HashMap::new();
    for (index, key) in old_keyed.into_iter().enumerate().skip(same).rev() {
        old_keys.entry(key).or_default().push(index);
    }
    let mut findings = Findings::default();
    for (d, key) in new.iter().zip(new_keyed).skip(same) {
        let matched = old_keys.get_mut(&key).and_then(Vec::pop);
        if matched.is_none() {
            findings.new.push(finding(d, new_name, &new_pointers));
        }
    }
    let mut left: Vec<usize> = old_keys.into_values().flatten().collect();
    left.sort_unstable();
    findings.fixed = left
        .into_iter()
        .map(|i| finding(&old[i], old_name, &old_pointers))
        .collect();
    findings
}

/// What matches a finding of one version with one of the other: its rule, its tool (by its
/// new name) and its place.
#[derive(PartialEq, Eq, Hash)]
pub(super) struct FoundKey<'a> {
    pub(super) code: &'a str,
    pub(super) tool: Option<&'a str>,
    pub(super) place: Place<'a>,
}

/// A finding's place inside its tool's definition, its field named as toolcheck names it
/// (`input_schema/properties/limit` whether the file says `inputSchema`, `input_schema` or
/// `parameters`); the file's pointer for a file-level finding. Kept in parts: two are equal
/// when their texts are (a field's name has no `/`; what is below it is empty or starts with
/// one; a pointer is empty or starts with one).
#[derive(PartialEq, Eq, Hash)]
pub(super) enum Place<'a> {
    InTool { field: &'static str, below: &'a str },
    File(&'a str),
}

fn place<'a>(d: &'a Found, pointers: &HashMap<&str, &str>) -> Place<'a> {
    let tool = d.tool.as_deref().and_then(|name| pointers.get(name));
    match tool.and_then(|prefix| d.pointer.strip_prefix(*prefix)) {
        Some("") => Place::InTool {
            field: d.field.as_str(),
            below: "",
        },
        Some(rest) if rest.starts_with('/') => Place::InTool {
            field: d.field.as_str(),
            below: rest[1..].find('/').map_or("", |slash| &rest[1 + slash..]),
        },
        _ => Place::File(&d.pointer),
    }
}

/// [`Place`] as the report writes it.
fn relative_pointer(d: &Found, pointers: &HashMap<&str, &str>) -> String {
    match place(d, pointers) {
        Place::InTool { field, below } => format!("{field}{below}"),
        Place::File(pointer) => pointer.to_string(),
    }
}

fn finding(d: &Found, file: &str, pointers: &HashMap<&str, &str>) -> Finding {
    Finding {
        code: d.code.to_string(),
        rule: d.rule.to_string(),
        severity: d.severity,
        file: file.to_string(),
        line: d.line,
        column: d.column,
        tool: d.tool.as_deref().map(str::to_string),
        path: relative_pointer(d, pointers),
        message: d.message.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Field, Severity};

    #[test]
    fn findings_match_the_first_old_one_with_their_key() {
        let found = |code: &str, line: usize| Found {
            code: code.into(),
            rule: "rule".into(),
            severity: Severity::Info,
            field: Field::Description,
            tool: Some("t".into()),
            pointer: "/tools/0/description".to_string(),
            line,
            column: 1,
            message: String::new(),
        };
        let lines = |found: Vec<Finding>| -> Vec<(String, usize)> {
            found.into_iter().map(|f| (f.code, f.line)).collect()
        };
        let compare = |old: &[(&str, usize)], new: &[(&str, usize)]| {
            let old: Vec<Found> = old.iter().map(|&(code, line)| found(code, line)).collect();
            let new: Vec<Found> = new.iter().map(|&(code, line)| found(code, line)).collect();
            let findings = compare_findings(&old, &new, None, None, &HashMap::new());
            (lines(findings.new), lines(findings.fixed))
        };
        let same = [("A", 1), ("B", 2), ("A", 3)];
        assert_eq!(compare(&same, &same), (vec![], vec![]));
        // Past the keys both sides list in order, each new finding takes the first old one.
        assert_eq!(
            compare(
                &[("A", 1), ("B", 2), ("A", 3), ("C", 4)],
                &[("A", 1), ("A", 2), ("D", 3), ("A", 4)]
            ),
            (
                vec![("D".to_string(), 3), ("A".to_string(), 4)],
                vec![("B".to_string(), 2), ("C".to_string(), 4)]
            )
        );
        assert_eq!(
            compare(&[("A", 1), ("A", 2)], &[("B", 1), ("A", 2)]),
            (vec![("B".to_string(), 1)], vec![("A".to_string(), 2)])
        );
    }

    #[test]
    fn places_are_equal_exactly_when_their_texts_are() {
        let fields = [
            Field::Name,
            Field::Description,
            Field::InputSchema,
            Field::File,
        ];
        let pointers = HashMap::from_iter([("t", "/tools/0"), ("u", "/tools/1")]);
        let mut found = Vec::new();
        for field in fields {
            for tool in [Some("t"), Some("u"), Some("gone"), None] {
                for pointer in [
                    "",
                    "/tools",
                    "/tools/0",
                    "/tools/0/description",
                    "/tools/0/inputSchema/properties/a",
                    "/tools/1/parameters/properties/a",
                    "/tools/10/description",
                    "/description",
                ] {
                    found.push(Found {
                        code: "A".into(),
                        rule: "rule".into(),
                        severity: Severity::Info,
                        field,
                        tool: tool.map(Into::into),
                        pointer: pointer.to_string(),
                        line: 1,
                        column: 1,
                        message: String::new(),
                    });
                }
            }
        }
        for a in &found {
            for b in &found {
                assert_eq!(
                    place(a, &pointers) == place(b, &pointers),
                    relative_pointer(a, &pointers) == relative_pointer(b, &pointers),
                    "{a:?} and {b:?}"
                );
            }
        }
    }
}
