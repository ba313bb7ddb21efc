//! What every target checks: spans inside the text on character boundaries, and a linter
//! built once per process.
#![allow(dead_code)]

use std::sync::OnceLock;

use toolcheck::catalog::Registry;
use toolcheck::lint::{FileReport, Linter};
use toolcheck::parse::{Node, NodeKind};

/// Every node's span, and every key's, lies inside `text` on character boundaries.
pub fn check_tree(text: &str, root: &Node) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        check_span(text, &node.span());
        match &node.kind {
            NodeKind::Array(items) => stack.extend(items),
            NodeKind::Object(entries) => {
                for entry in entries {
                    check_span(text, &entry.key_span());
                    stack.push(&entry.value);
                }
            }
            _ => {}
        }
    }
}

pub fn check_span(text: &str, span: &std::ops::Range<usize>) {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "{span:?} outside the text"
    );
    assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{span:?} inside a character"
    );
}

pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| Registry::builtin().expect("the catalog loads"))
}

pub fn linter() -> &'static Linter {
    static LINTER: OnceLock<Linter> = OnceLock::new();
    LINTER.get_or_init(|| {
        let config = toolcheck::config::Config::defaults(".".into());
        Linter::new(registry(), &config, &Default::default()).expect("the defaults are valid")
    })
}

/// The linter with every target selected, so that the `targets` rules (which find nothing
/// without one) run too.
pub fn targeted_linter() -> &'static Linter {
    static LINTER: OnceLock<Linter> = OnceLock::new();
    LINTER.get_or_init(|| {
        let config = toolcheck::config::Config::defaults(".".into());
        let overrides = toolcheck::lint::Overrides {
            targets: Some(toolcheck::targets::known()),
            ..Default::default()
        };
        Linter::new(registry(), &config, &overrides).expect("every target loads")
    })
}

/// Lints `data` as one file named `name`; no internal error, every span in place.
pub fn lint(name: &str, data: &[u8]) -> Vec<FileReport> {
    lint_with(linter(), name, data)
}

/// [`lint`] with `linter`.
pub fn lint_with(linter: &Linter, name: &str, data: &[u8]) -> Vec<FileReport> {
    let input = toolcheck::read::Input {
        name: name.to_string(),
        bytes: data.to_vec(),
    };
    let reports = linter.lint_all(vec![input]);
    for report in &reports {
        assert_eq!(report.internal_error, None, "a panic while linting");
        for diagnostic in &report.diagnostics {
            check_span(&diagnostic.file.text, &diagnostic.span);
            for related in &diagnostic.related {
                check_span(&related.file.text, &related.span);
            }
        }
    }
    reports
}
