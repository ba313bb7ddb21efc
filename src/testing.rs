//! Helpers the test suite shares: lint a fixture with one rule, render it the way snapshots
//! store it (no colors, no links, fixed width).

use std::path::Path;

use crate::config::Config;
use crate::diagnostic::Diagnostic;
use crate::engine::{FileReport, Input, Linter, Overrides};
use crate::registry::Registry;
use crate::render::{self, Summary};
use crate::source::SourceFile;

/// Lints `path` (named `name` in output) with only `rule` selected, under the sibling
/// `<stem>.toolcheck.yaml` config when there is one.
pub fn lint_with_rule(path: &Path, name: &str, rule: &str) -> FileReport {
    let config_path = path.with_extension("toolcheck.yaml");
    let config = if config_path.is_file() {
        Config::load(&config_path).expect("fixture config is valid")
    } else {
        Config::defaults(".".into())
    };
    let registry = Registry::builtin().expect("built-in rules load");
    let overrides = Overrides {
        select: Some(vec![rule.to_string()]),
        ..Overrides::default()
    };
    let linter = Linter::new(&registry, &config, &overrides).expect("fixture settings are valid");
    let bytes = std::fs::read(path).expect("fixture is readable");
    linter
        .lint_all(vec![Input {
            name: name.to_string(),
            bytes,
        }])
        .pop()
        .expect("one input gives one report")
}

/// Lints a text with the default settings.
pub fn lint_text(name: &str, text: &str) -> FileReport {
    let registry = Registry::builtin().expect("built-in rules load");
    let linter = Linter::new(
        &registry,
        &Config::defaults(".".into()),
        &Overrides::default(),
    )
    .expect("defaults are valid");
    linter.lint(
        SourceFile::new(name, text.to_string()),
        name.ends_with(".json"),
    )
}

/// The human rendering used in snapshots: no colors, no hyperlinks, 80 columns.
pub fn render_human(diagnostics: &[Diagnostic]) -> String {
    let style = render::human::Style {
        color: false,
        links: false,
        width: 80,
    };
    render::human::render(diagnostics.iter(), &Summary::default(), style, true)
}

pub fn render_json(report: &FileReport, encoding: crate::tokens::Encoding) -> String {
    render::json::render(std::slice::from_ref(report), encoding)
}
