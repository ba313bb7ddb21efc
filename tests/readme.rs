//! The README's copy-paste snippets work as the README says.

mod common;

use std::path::Path;

use toolcheck::config::Config;
use toolcheck::read::source::SourceFile;

/// The fenced ```yaml blocks of the README section that starts with `heading`.
fn yaml_blocks(heading: &str) -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme
        .find(heading)
        .unwrap_or_else(|| panic!("README has no `{heading}`"));
    let section = &readme[start + heading.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    section
        .split("```yaml\n")
        .skip(1)
        .map(|block| block[..block.find("```").unwrap()].to_string())
        .collect()
}

#[test]
fn the_suppression_example_silences_every_finding_it_names() {
    let blocks = yaml_blocks("## Suppressions");
    let report = common::lint_text("readme.tool.yaml", &blocks[0]);
    assert!(
        report.diagnostics.is_empty(),
        "{}",
        common::render_human(&report.diagnostics)
    );
    let silenced: Vec<(&str, Option<&str>)> = report
        .suppressed
        .iter()
        .map(|s| (&*s.diagnostic.code, s.reason.as_deref()))
        .collect();
    assert_eq!(
        silenced,
        [
            (
                "TC207",
                Some("vendor copy; its host prompt says when not to call it")
            ),
            ("TC209", Some("quoted from the upstream README")),
            ("TC209", None),
        ]
    );
    let config = Config::parse(
        SourceFile::new("toolcheck.yaml", blocks[1].clone()),
        ".".into(),
    )
    .unwrap();
    assert_eq!(config.per_file_ignores.len(), 2);
}

#[test]
fn the_configuration_example_is_a_valid_config() {
    let block = &yaml_blocks("## Configuration")[0];
    let config =
        Config::parse(SourceFile::new("toolcheck.yaml", block.clone()), ".".into()).unwrap();
    assert_eq!(config.exclude, ["vendor/**"]);
    assert_eq!(config.options.len(), 3);
}
