//! docs/custom-rules.md names every `given` value, every declarative function,
//! each function's options and every message placeholder, as the code has them: the lists come
//! from serde's own "expected one of" errors and from the templates in `declarative.rs`, so a
//! new value fails this test until README documents it.

use super::declarative::{DeclarativeRule, FunctionName, Given};

fn section() -> String {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/custom-rules.md"))
            .expect("docs/custom-rules.md is readable");
    let heading = "## Writing your own rules";
    let start = readme
        .find(heading)
        .expect("docs/custom-rules.md has the section");
    let rest = &readme[start + heading.len()..];
    rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
}

/// The names in backticks after "expected" in a serde error: `expected one of `a`, `b``.
fn expected_names(error: &str) -> Vec<String> {
    let Some((_, list)) = error.split_once("expected") else {
        panic!("not an unknown-name error: {error}");
    };
    list.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn unknown_variant<T: serde::de::DeserializeOwned + std::fmt::Debug>() -> Vec<String> {
    let error = serde_json::from_value::<T>(serde_json::json!("no-such-name"))
        .expect_err("an unknown name is refused");
    expected_names(&error.to_string())
}

fn assert_documented(section: &str, what: &str, names: &[String]) {
    assert!(!names.is_empty(), "no {what} found");
    for name in names {
        assert!(
            section.contains(&format!("`{name}`")),
            "docs/custom-rules.md does not document the {what} `{name}`"
        );
    }
}

#[test]
fn every_given_value_and_function_is_documented() {
    let section = section();
    assert_documented(&section, "given value", &unknown_variant::<Given>());
    assert_documented(&section, "function", &unknown_variant::<FunctionName>());
}

#[test]
fn every_option_of_every_function_is_documented() {
    let section = section();
    for name in unknown_variant::<FunctionName>() {
        let function: FunctionName = serde_json::from_value(serde_json::json!(name)).unwrap();
        let given = match function {
            FunctionName::PropertyName | FunctionName::RootKeyword => Given::InputSchema,
            _ => Given::Description,
        };
        let rule = DeclarativeRule {
            given: vec![given],
            function,
            message: String::new(),
            help: None,
            label: None,
        };
        let mut options = crate::options::Options::new();
        options.insert("no-such-option".into(), serde_json::Value::Null);
        let error = rule
            .validate(&options)
            .expect_err("an unknown option is refused");
        let options = expected_names(&error);
        assert_documented(&section, &format!("option of `{name}`"), &options);
    }
}

#[test]
fn every_placeholder_is_documented() {
    let source = include_str!("declarative.rs");
    let placeholders: Vec<String> = source
        .split("\"{{")
        .skip(1)
        .filter_map(|rest| rest.split_once("}}\""))
        .map(|(name, _)| format!("{{{{{name}}}}}"))
        .collect();
    assert!(placeholders.len() >= 8, "{placeholders:?}");
    assert_documented(&section(), "placeholder", &placeholders);
}
