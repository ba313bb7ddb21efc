//! The check of `mixed-service-prefix`. Its code, docs and default options are in
//! `rules/names/mixed-service-prefix.yaml`.

use std::collections::HashMap;

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::ToolSet;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct MixedServicePrefix {
    /// The fewest tools that must share the prefix.
    min_tools: usize,
    /// The share of the file's tools that must have it (0 to 1).
    min_share: f64,
    /// First words that are verbs or plain words, not a service (`get_issue`, `list_tables`).
    not_prefixes: Vec<String>,
}

/// The service prefix of a name as written, separator included (`playwright_` of
/// `playwright_navigate`); `None` without a separator after a first word.
fn prefix(name: &str) -> Option<&str> {
    let end = name.find(['_', '-', '.'])?;
    let first = &name[..end];
    let plain = !first.is_empty() && first.chars().all(|c| c.is_ascii_alphanumeric());
    (plain && end + 1 < name.len()).then(|| &name[..=end])
}

impl Rule for MixedServicePrefix {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let names: Vec<&str> = set
            .tools
            .iter()
            .map(|tool| tool.name())
            .filter(|name| !name.is_empty())
            .collect();
        // Prefixes compared by their word in lower case: `GitHub_` and `github-` are one.
        let mut counts: HashMap<String, (usize, &str)> = HashMap::new();
        for name in &names {
            if let Some(prefix) = prefix(name) {
                let word = prefix[..prefix.len() - 1].to_lowercase();
                counts.entry(word).or_insert((0, prefix)).0 += 1;
            }
        }
        let Some((word, (count, written))) = counts
            .into_iter()
            .max_by(|a, b| a.1.0.cmp(&b.1.0).then_with(|| b.0.cmp(&a.0)))
        else {
            return;
        };
        let service = count >= self.min_tools
            && count as f64 >= self.min_share * names.len() as f64
            && count < names.len()
            && !self
                .not_prefixes
                .iter()
                .any(|verb| verb.eq_ignore_ascii_case(&word));
        if !service {
            return;
        }
        for tool in &set.tools {
            let name = tool.name();
            let has = prefix(name)
                .is_some_and(|prefix| prefix[..prefix.len() - 1].eq_ignore_ascii_case(&word));
            let Some(entry) = tool.name.filter(|_| !name.is_empty() && !has) else {
                continue;
            };
            ctx.set_tool(Some(name));
            ctx.report(
                Field::Name,
                Anchor::Value(&entry.value),
                format!(
                    "`{name}` has no `{written}` prefix, unlike {count} of the {} tools here",
                    names.len()
                ),
            )
            .help(format!(
                "name it `{written}{name}`: among several servers' tools, the model and a tool \
                 search find this server's tools by the prefix"
            ));
        }
        ctx.set_tool(None);
    }
}

#[cfg(test)]
mod tests {
    use super::prefix;

    #[test]
    fn a_prefix_is_a_first_word_and_its_separator() {
        assert_eq!(prefix("playwright_navigate"), Some("playwright_"));
        assert_eq!(prefix("API-get-self"), Some("API-"));
        assert_eq!(prefix("navigate"), None);
        assert_eq!(prefix("_private"), None);
        assert_eq!(prefix("trailing_"), None);
    }
}
