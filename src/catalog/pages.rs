//! The rule pages users link to: `docs/rules/<CODE>-<name>.md`, one per built-in rule, and
//! their index `docs/rules/README.md`, generated from the catalog (`tests/docs.rs` fails when
//! the files in the repository are stale). Every finding of a built-in rule carries its
//! page's URL ([`url`]): SARIF `helpUri`, JSON `url`, a hyperlink in human output.

use std::collections::HashSet;
use std::sync::LazyLock;

use serde_json::Value;

use super::{BUILTIN, Registered, Registry};

/// The pages' folder, relative to the repository root.
pub const DIR: &str = "docs/rules";

/// How to regenerate the pages, for the comment at their top and the staleness test.
pub const REGENERATE: &str = "UPDATE_DOCS=1 cargo test --test docs";

/// Where the pages are published; `None` when Cargo.toml names no `repository`, or only its
/// placeholder.
static BASE: LazyLock<Option<String>> =
    LazyLock::new(|| base(env!("CARGO_PKG_REPOSITORY"), env!("CARGO_PKG_VERSION")));

/// `docs/rules/` in `repository` at the tag of `version` (`v0.1.0`), so a link printed by one
/// release keeps showing that release's rules after the next one changes them. The path
/// layout (`/blob/<ref>/<path>`) is GitHub's, where README and action.yml say toolcheck is
/// hosted. Only `repository` is used: a `homepage` is a web site whose layout is unknown.
/// Until the project has its public home, `repository` names the owner [`PLACEHOLDER`] and no
/// output links anywhere: a link to a page that does not exist is worse than none.
fn base(repository: &str, version: &str) -> Option<String> {
    let repository = repository.trim().trim_end_matches('/');
    let repository = repository.strip_suffix(".git").unwrap_or(repository);
    let placeholder = repository.split('/').any(|segment| segment == PLACEHOLDER);
    (!repository.is_empty() && !placeholder).then(|| format!("{repository}/blob/v{version}/{DIR}/"))
}

/// The owner Cargo.toml's `repository` names until toolcheck has its public home.
const PLACEHOLDER: &str = "OWNER";

/// The published folder of the pages, ending in `/`.
pub fn base_url() -> Option<&'static str> {
    BASE.as_deref()
}

/// A rule's page, relative to [`DIR`].
pub fn file_name(code: &str, name: &str) -> String {
    format!("{code}-{name}.md")
}

/// The names of the built-in rules, from their catalog files' names.
static BUILTIN_NAMES: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    BUILTIN
        .iter()
        .filter_map(|builtin| builtin.path.rsplit('/').next()?.strip_suffix(".yaml"))
        .collect()
});

/// The URL of a built-in rule's page; `None` for a team's own rule, which has none.
pub fn url(code: &str, name: &str) -> Option<String> {
    url_in(base_url()?, code, name)
}

/// A built-in rule's page under `base`.
fn url_in(base: &str, code: &str, name: &str) -> Option<String> {
    // Names are unique across a registry (`Registry::finish`), so a team's rule never shares
    // a built-in rule's name.
    BUILTIN_NAMES
        .contains(name)
        .then(|| format!("{base}{}", file_name(code, name)))
}

/// A rule's page: what `toolcheck explain` shows (summary, family, default severity, whether
/// it is fixable, where it is defined, its docs), and its default options as configuration.
pub fn page(rule: &Registered) -> String {
    let meta = &rule.meta;
    let mut out = format!(
        "<!-- Generated from {} by `{REGENERATE}`: edit the catalog entry, not this page. -->\n\n",
        meta.source
    );
    out.push_str(&format!(
        "# {} {}\n\n{}\n\n",
        meta.code, meta.name, meta.summary
    ));
    out.push_str(&format!(
        "- Family: `{}` ([all rules](README.md))\n",
        meta.family.as_str()
    ));
    out.push_str(&format!(
        "- Default severity: `{}`\n",
        meta.default_severity.as_str()
    ));
    out.push_str(&format!(
        "- Fixable: {}\n",
        if meta.fixable {
            "yes, `toolcheck lint --fix` applies its fixes (`--diff` shows them)"
        } else {
            "no"
        }
    ));
    out.push_str(&format!("- Defined in: {}", repo_link(&meta.source)));
    if let Some(native) = &meta.native {
        out.push_str(&format!(", checked by {}", repo_link(native)));
    }
    out.push_str(&format!(
        "\n- In the terminal: `toolcheck explain {}`\n\n",
        meta.code
    ));
    out.push_str(meta.docs.trim_end());
    out.push('\n');
    if !rule.defaults.is_empty() {
        out.push_str(&format!(
            "\n## Configuration\n\nThe default options, to change in `toolcheck.yaml`:\n\n\
             ```yaml\nrules:\n  options:\n    {}: {}\n```\n",
            meta.name,
            flow(&Value::Object(rule.defaults.clone()))
        ));
    }
    out
}

/// The index of the pages: one table row per rule.
pub fn index(registry: &Registry) -> String {
    let mut out = format!(
        "<!-- Generated from rules/ by `{REGENERATE}`: edit the catalog entries, not this page. -->\n\n\
         # Rules\n\n\
         Every built-in rule, by code. `toolcheck rules` lists them in the terminal and \
         `toolcheck explain CODE` prints one rule's page. To write your own, see \
         [Writing your own rules](../custom-rules.md).\n\n\
         | code | name | family | default severity | fixable | summary |\n\
         |---|---|---|---|---|---|\n"
    );
    for rule in &registry.rules {
        let meta = &rule.meta;
        out.push_str(&format!(
            "| [{}]({}) | `{}` | {} | {} | {} | {} |\n",
            meta.code,
            file_name(&meta.code, &meta.name),
            meta.name,
            meta.family.as_str(),
            meta.default_severity.as_str(),
            if meta.fixable { "yes" } else { "no" },
            meta.summary.replace('|', r"\|")
        ));
    }
    out
}

/// A Markdown link from a page to a file of the repository (`rules/...`, `src/...`).
fn repo_link(path: &str) -> String {
    format!("[`{path}`](../../{path})")
}

/// A value as a YAML flow collection (`{words: [never, always], mode: directive}`): plain
/// scalars where YAML reads them back as the same string, JSON-quoted strings elsewhere.
fn flow(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(key, value)| format!("{}: {}", scalar(key), flow(value)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", items.join(", "))
        }
        Value::String(text) => scalar(text),
        other => other.to_string(),
    }
}

fn scalar(text: &str) -> String {
    // Words YAML would read as a boolean or null, and anything that is not plainly letters,
    // digits, spaces, `-` and `_` starting with a letter, are quoted.
    const RESERVED: &[&str] = &["true", "false", "null", "yes", "no", "on", "off", "y", "n"];
    let plain = text.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && !text.ends_with(' ')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        && !RESERVED.contains(&text.to_ascii_lowercase().as_str());
    if plain {
        text.to_string()
    } else {
        Value::String(text.to_string()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_is_the_repository_at_the_version_tag() {
        assert_eq!(
            base("https://github.com/acme/toolcheck", "0.1.0").as_deref(),
            Some("https://github.com/acme/toolcheck/blob/v0.1.0/docs/rules/")
        );
        assert_eq!(
            base("https://github.com/acme/toolcheck.git/", "1.2.3").as_deref(),
            Some("https://github.com/acme/toolcheck/blob/v1.2.3/docs/rules/")
        );
        assert_eq!(base("", "0.1.0"), None);
        // The placeholder links nowhere; an owner that merely contains it is a real one.
        assert_eq!(base("https://github.com/OWNER/toolcheck", "0.1.0"), None);
        assert!(base("https://github.com/OWNERSHIP/toolcheck", "0.1.0").is_some());
    }

    #[test]
    fn only_built_in_rules_have_a_page() {
        let base = "https://example.com/toolcheck/blob/v1/docs/rules/";
        assert_eq!(
            url_in(base, "TC209", "absolute-words").as_deref(),
            Some("https://example.com/toolcheck/blob/v1/docs/rules/TC209-absolute-words.md")
        );
        assert_eq!(url_in(base, "X101", "internal-codename"), None);
    }

    #[test]
    fn options_are_written_as_yaml_that_reads_back_the_same() {
        let value = serde_json::json!({
            "words": ["never", "don't use", "on", "x: y", r"\bre"],
            "max-tokens": 600,
            "first-only": true,
        });
        let text = flow(&value);
        assert_eq!(
            text,
            r#"{words: [never, "don't use", "on", "x: y", "\\bre"], max-tokens: 600, first-only: true}"#
        );
        let node = crate::parse::yaml::parse(&text).unwrap();
        assert_eq!(node.to_json(), value);
    }
}
