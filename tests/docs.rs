//! The rule pages, `docs/rules/`: generated from the catalog, never stale, and each a valid
//! target of the links findings carry. `UPDATE_DOCS=1 cargo test --test docs` rewrites them.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use toolcheck::catalog::Registry;
use toolcheck::catalog::pages::{self, DIR, REGENERATE};
use toolcheck::config::Config;
use toolcheck::parse::source::SourceFile;

fn dir() -> PathBuf {
    common::root().join(DIR)
}

/// Every file of `docs/rules/` as it should be: one page per rule and the index.
fn expected(registry: &Registry) -> BTreeMap<String, String> {
    let mut files: BTreeMap<String, String> = registry
        .rules
        .iter()
        .map(|rule| {
            (
                pages::file_name(&rule.meta.code, &rule.meta.name),
                pages::page(rule),
            )
        })
        .collect();
    files.insert("README.md".to_string(), pages::index(registry));
    files
}

fn written() -> BTreeMap<String, String> {
    std::fs::read_dir(dir())
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok())
                .map(|entry| {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    (
                        name,
                        std::fs::read_to_string(entry.path()).unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn rule_pages_are_generated_from_the_catalog() {
    let registry = Registry::builtin().unwrap();
    let expected = expected(&registry);
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::create_dir_all(dir()).unwrap();
        for name in written()
            .keys()
            .filter(|name| !expected.contains_key(*name))
        {
            std::fs::remove_file(dir().join(name)).unwrap();
        }
        for (name, text) in &expected {
            std::fs::write(dir().join(name), text).unwrap();
        }
    }
    let written = written();
    let mut problems = Vec::new();
    for (name, text) in &expected {
        match written.get(name) {
            None => problems.push(format!("{DIR}/{name} is missing")),
            Some(old) if old != text => problems.push(format!("{DIR}/{name} is stale")),
            Some(_) => {}
        }
    }
    for name in written.keys().filter(|name| !expected.contains_key(*name)) {
        problems.push(format!("{DIR}/{name} is not a page of any rule"));
    }
    assert!(
        problems.is_empty(),
        "{}\nrun `{REGENERATE}` and commit the result",
        problems.join("\n")
    );
}

#[test]
fn every_rule_url_points_at_its_page_in_the_repository() {
    // While Cargo.toml's `repository` is the placeholder, no rule has a URL.
    let base = pages::base_url();
    if let Some(base) = base {
        assert!(
            base.ends_with(&format!("/blob/v{}/docs/rules/", env!("CARGO_PKG_VERSION"))),
            "{base}"
        );
    }
    let registry = Registry::builtin().unwrap();
    for rule in &registry.rules {
        let file = pages::file_name(&rule.meta.code, &rule.meta.name);
        assert!(
            dir().join(&file).is_file(),
            "no {DIR}/{file} in the repository"
        );
        assert_eq!(
            pages::url(&rule.meta.code, &rule.meta.name),
            base.map(|base| format!("{base}{file}"))
        );
    }
}

/// The configuration block of each page with options is a config that sets the defaults.
#[test]
fn the_configuration_on_each_page_is_valid() {
    let registry = Registry::builtin().unwrap();
    let mut checked = 0;
    for rule in &registry.rules {
        let page = pages::page(rule);
        let Some(start) = page.find("```yaml\nrules:\n  options:") else {
            continue;
        };
        let block = &page[start + "```yaml\n".len()..];
        let block = &block[..block.find("```").unwrap()];
        let config = Config::parse(
            SourceFile::new("toolcheck.yaml", block.to_string()),
            ".".into(),
        )
        .unwrap_or_else(|error| panic!("{}: {error}\n{block}", rule.meta.name));
        toolcheck::lint::Linter::new(&registry, &config, &Default::default())
            .unwrap_or_else(|error| panic!("{}: {error}\n{block}", rule.meta.name));
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} pages show options");
}
