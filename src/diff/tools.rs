//! Comparing a file pair's tools: matched by name, a removed and an added tool alike in all
//! but the name taken for a rename, and each matched pair compared field by field.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use rayon::prelude::*;
use serde_json::Value;

use super::report::{Change, Class, FileDiff, Findings, Status, Tokens, ToolDiff};
use super::schema::compare_schema;
use super::sides::{FileSide, Json, ToolDef, fingerprint};
use super::text::{
    Detectors, Names, compare_prose, difference, numbers, or_none, sentences, shorten,
};
use super::{BLOCK, TOKEN_GROWTH, TOKEN_GROWTH_MIN};

/// The differences of one file pair: the file's own, then its tools', worst first.
pub(super) fn compare_files(
    old: Option<&FileSide>,
    new: Option<&FileSide>,
    detectors: &Detectors,
) -> FileDiff {
    let empty: Vec<ToolDef> = Vec::new();
    let old_tools = old.map_or(&empty, |f| &f.tools);
    let new_tools = new.map_or(&empty, |f| &f.tools);
    let mut file = FileDiff {
        old: old.map(|f| f.name.clone()),
        new: new.map(|f| f.name.clone()),
        tokens: Tokens::of(
            old_tools.iter().map(|t| t.tokens).sum(),
            new_tools.iter().map(|t| t.tokens).sum(),
        ),
        changes: file_changes(old, new),
        tools: Vec::new(),
        unchanged: 0,
        findings: Findings::default(),
    };
    let pairs = Pairs::of(old_tools, new_tools);
    let (renamed, renamed_old) = renames(old_tools, new_tools, &pairs, &mut file.tools);
    let removed = pairs
        .removed
        .iter()
        .filter(|index| !renamed_old.contains(index));
    file.tools
        .extend(removed.map(|&index| one_sided(&old_tools[index], Status::Removed)));
    // Each pair is compared on its own: on all cores, in blocks, the results in the pairs' order.
    let compared: Vec<Vec<Change>> = pairs
        .matched
        .par_iter()
        .with_min_len(BLOCK)
        .map(|&(old, new)| compare_tools(&old_tools[old], &new_tools[new], detectors, &pairs.names))
        .collect();
    for (&(old_index, new_index), changes) in pairs.matched.iter().zip(compared) {
        let (old, new) = (&old_tools[old_index], &new_tools[new_index]);
        if changes.is_empty() {
            file.unchanged += 1;
        } else {
            file.tools.push(tool_diff(
                new.name.clone(),
                None,
                Status::Changed,
                Tokens::of(old.tokens, new.tokens),
                changes,
            ));
        }
    }
    let added = pairs.added.iter().filter(|index| !renamed.contains(index));
    file.tools
        .extend(added.map(|&index| one_sided(&new_tools[index], Status::Added)));
    file.tools
        .sort_by(|a, b| (b.class, a.status, &a.name).cmp(&(a.class, b.status, &b.name)));
    file
}

/// A tool on one side only, not taken for a rename: removed (breaking) or added.
fn one_sided(tool: &ToolDef, status: Status) -> ToolDiff {
    let (tokens, change) = match status {
        Status::Removed => (
            Tokens::of(tool.tokens, 0),
            whole_tool(Class::Breaking, "tool removed"),
        ),
        _ => (
            Tokens::of(0, tool.tokens),
            whole_tool(Class::Additive, "tool added"),
        ),
    };
    tool_diff(tool.name.clone(), None, status, tokens, vec![change])
}

/// A change of a whole tool (its name stands for it).
fn whole_tool(class: Class, message: &str) -> Change {
    Change {
        class,
        field: "name",
        path: String::new(),
        message: message.to_string(),
    }
}

/// The changes of the file itself: read as tools on one side only, its server instructions.
fn file_changes(old: Option<&FileSide>, new: Option<&FileSide>) -> Vec<Change> {
    let mut changes = Vec::new();
    let change = |class, field, message: String| Change {
        class,
        field,
        path: String::new(),
        message,
    };
    match (
        old.and_then(|f| f.error.as_ref()),
        new.and_then(|f| f.error.as_ref()),
    ) {
        (None, Some(error)) if old.is_some() => changes.push(change(
            Class::Breaking,
            "file",
            format!("the file can no longer be read as tools: {error}"),
        )),
        (Some(_), None) if new.is_some() => changes.push(change(
            Class::Additive,
            "file",
            "the file can be read as tools again".to_string(),
        )),
        _ => {}
    }
    let (old_instructions, new_instructions) = (
        old.and_then(|f| f.instructions.as_deref()),
        new.and_then(|f| f.instructions.as_deref()),
    );
    if old.is_some() && new.is_some() && old_instructions != new_instructions {
        changes.push(change(
            Class::Additive,
            "instructions",
            match (old_instructions, new_instructions) {
                (None, _) => "server instructions added".to_string(),
                (_, None) => "server instructions removed".to_string(),
                _ => "server instructions changed".to_string(),
            },
        ));
    }
    changes
}

/// The two sides' tools matched by name (a name written twice: by its order among those).
struct Pairs<'t> {
    /// (old index, new index), in the new side's order.
    matched: Vec<(usize, usize)>,
    /// New tools without an old one, in order.
    added: Vec<usize>,
    /// Old tools without a new one, in order.
    removed: Vec<usize>,
    names: Names<'t>,
}

impl<'t> Pairs<'t> {
    fn of(old_tools: &'t [ToolDef], new_tools: &'t [ToolDef]) -> Pairs<'t> {
        // The two sides' keys and names are made at once.
        fn key(tools: &[ToolDef]) -> (Vec<(&str, usize)>, HashSet<&str>) {
            let mut seen: HashMap<&str, usize> = HashMap::with_capacity(tools.len());
            let keys = tools
                .iter()
                .map(|t| {
                    let n = seen.entry(t.name.as_str()).or_insert(0);
                    *n += 1;
                    (t.name.as_str(), *n)
                })
                .collect();
            (keys, seen.into_keys().collect())
        }
        let ((old_keys, old_names), (new_keys, new_names)) =
            rayon::join(|| key(old_tools), || key(new_tools));
        let mut old_index: HashMap<(&str, usize), usize> = old_keys
            .into_iter()
            .enumerate()
            .map(|(i, k)| (k, i))
            .collect();
        let names = Names {
            same: old_names == new_names,
            old: old_names,
            new: new_names,
        };
        let mut added: Vec<usize> = Vec::new();
        let mut matched: Vec<(usize, usize)> = Vec::new();
        for (index, key) in new_keys.iter().enumerate() {
            match old_index.remove(key) {
                Some(old) => matched.push((old, index)),
                None => added.push(index),
            }
        }
        let mut removed: Vec<usize> = old_index.into_values().collect();
        removed.sort_unstable();
        Pairs {
            matched,
            added,
            removed,
            names,
        }
    }
}

/// A removed and an added tool alike in all but the name are a rename: each is pushed to
/// `tools`; returns the added and the removed tools taken for renames.
fn renames(
    old_tools: &[ToolDef],
    new_tools: &[ToolDef],
    pairs: &Pairs<'_>,
    tools: &mut Vec<ToolDiff>,
) -> (HashSet<usize>, HashSet<usize>) {
    let mut by_print: HashMap<String, Vec<usize>> = HashMap::new();
    for &index in pairs.removed.iter().rev() {
        if let Some(print) = fingerprint(&old_tools[index]) {
            by_print.entry(print).or_default().push(index);
        }
    }
    let mut renamed: HashSet<usize> = HashSet::new();
    let mut renamed_old: HashSet<usize> = HashSet::new();
    for &index in &pairs.added {
        let new = &new_tools[index];
        let Some(old) = fingerprint(new)
            .and_then(|print| by_print.get_mut(&print))
            .and_then(Vec::pop)
        else {
            continue;
        };
        renamed.insert(index);
        renamed_old.insert(old);
        let old = &old_tools[old];
        let mut changes = vec![whole_tool(
            Class::Breaking,
            &format!(
                "renamed from `{}`: callers and prompts that name it break",
                old.name
            ),
        )];
        changes.extend(token_growth(old.tokens, new.tokens));
        tools.push(tool_diff(
            new.name.clone(),
            Some(old.name.clone()),
            Status::Renamed,
            Tokens::of(old.tokens, new.tokens),
            changes,
        ));
    }
    (renamed, renamed_old)
}

fn tool_diff(
    name: String,
    old_name: Option<String>,
    status: Status,
    tokens: Tokens,
    changes: Vec<Change>,
) -> ToolDiff {
    let class = changes
        .iter()
        .map(|c| c.class)
        .max()
        .unwrap_or(Class::Additive);
    ToolDiff {
        name,
        old_name,
        status,
        class,
        tokens,
        changes,
    }
}

fn token_growth(old: usize, new: usize) -> Option<Change> {
    let grew = new.saturating_sub(old);
    (grew >= TOKEN_GROWTH_MIN && grew as f64 > old as f64 * TOKEN_GROWTH).then(|| Change {
        class: Class::Risky,
        field: "tokens",
        path: String::new(),
        message: if old == 0 {
            format!("token cost up from 0 to {new}")
        } else {
            format!(
                "token cost up {:.1}% ({old} → {new}): every request carries it",
                grew as f64 * 100.0 / old as f64
            )
        },
    })
}

/// The changes between two versions of one tool.
fn compare_tools(
    old: &ToolDef,
    new: &ToolDef,
    detectors: &Detectors,
    names: &Names<'_>,
) -> Vec<Change> {
    let mut changes = Vec::new();
    if old.title != new.title {
        changes.push(change(
            Class::Additive,
            "title",
            "",
            "title changed".to_string(),
        ));
    }
    compare_description(old, new, names, detectors, &mut changes);
    if old.snippet != new.snippet {
        changes.push(change(
            Class::Additive,
            "snippet",
            "",
            "snippet changed".to_string(),
        ));
    }
    compare_guidelines(old, new, names, detectors, &mut changes);
    compare_results(old, new, &mut changes);
    compare_definition(old, new, &mut changes);
    if !changes.is_empty() {
        changes.extend(token_growth(old.tokens, new.tokens));
    }
    merge_parameter_descriptions(&mut changes);
    // Worst first; within a class, in the order found.
    changes.sort_by_key(|change| std::cmp::Reverse(change.class));
    changes
}

/// A change of a tool's `field`, at `path` inside it.
fn change(class: Class, field: &'static str, path: &str, message: String) -> Change {
    Change {
        class,
        field,
        path: path.to_string(),
        message,
    }
}

/// The description's triggers, anti-triggers and numbers; a rewording when it is none of them.
fn compare_description(
    old: &ToolDef,
    new: &ToolDef,
    names: &Names<'_>,
    detectors: &Detectors,
    changes: &mut Vec<Change>,
) {
    let old_description = old.description.as_deref().unwrap_or_default();
    let new_description = new.description.as_deref().unwrap_or_default();
    if old_description != new_description {
        let before = changes.len();
        compare_prose(
            "description",
            (&old.name, &[old_description]),
            (&new.name, &[new_description]),
            names,
            detectors,
            changes,
        );
        let (old_numbers, new_numbers) = (numbers(old_description), numbers(new_description));
        if old_numbers != new_numbers {
            let gone: Vec<&str> = difference(&old_numbers, &new_numbers);
            let came: Vec<&str> = difference(&new_numbers, &old_numbers);
            changes.push(change(
                Class::Risky,
                "description",
                "",
                format!(
                    "numbers of the description changed ({} → {}): a limit the model reads may \
                     have moved",
                    or_none(&gone),
                    or_none(&came)
                ),
            ));
        }
        if changes.len() == before {
            changes.push(change(
                Class::Additive,
                "description",
                "",
                match (old.description.is_some(), new.description.is_some()) {
                    (false, true) => "description added".to_string(),
                    (true, false) => "description removed".to_string(),
                    _ => "description reworded".to_string(),
                },
            ));
        }
    }
}

/// The guidelines' triggers and anti-triggers (in any order); a rewording when none of them.
fn compare_guidelines(
    old: &ToolDef,
    new: &ToolDef,
    names: &Names<'_>,
    detectors: &Detectors,
    changes: &mut Vec<Change>,
) {
    let mut old_guidelines: Vec<&str> = old.guidelines.iter().map(String::as_str).collect();
    let mut new_guidelines: Vec<&str> = new.guidelines.iter().map(String::as_str).collect();
    old_guidelines.sort_unstable();
    new_guidelines.sort_unstable();
    if old_guidelines != new_guidelines {
        let before = changes.len();
        compare_prose(
            "guidelines",
            (&old.name, &old_guidelines),
            (&new.name, &new_guidelines),
            names,
            detectors,
            changes,
        );
        if changes.len() == before {
            changes.push(change(
                Class::Additive,
                "guidelines",
                "",
                "guidelines reworded".to_string(),
            ));
        }
    }
}

/// The results, matched by outcome: each one added, removed or reworded is risky, as a result
/// is what the model reads next (whether to retry, what to tell the user); a rewording names
/// the sentences that went and came.
fn compare_results(old: &ToolDef, new: &ToolDef, changes: &mut Vec<Change>) {
    let text_of = |tool: &ToolDef, outcome: &str| {
        tool.results
            .iter()
            .find(|(key, _)| key == outcome)
            .map(|(_, text)| text.clone())
    };
    for (outcome, old_text) in &old.results {
        let Some(new_text) = text_of(new, outcome) else {
            changes.push(change(
                Class::Risky,
                "results",
                outcome,
                format!("result `{outcome}` removed: \"{}\"", shorten(old_text)),
            ));
            continue;
        };
        if *old_text == new_text {
            continue;
        }
        let (old_sentences, new_sentences) = (sentences(old_text), sentences(&new_text));
        let before = changes.len();
        for (side, other, what) in [
            (&old_sentences, &new_sentences, "removed"),
            (&new_sentences, &old_sentences, "added"),
        ] {
            for sentence in side.iter().filter(|sentence| !other.contains(sentence)) {
                changes.push(change(
                    Class::Risky,
                    "results",
                    outcome,
                    format!(
                        "result `{outcome}` reworded, sentence {what}: \"{}\"",
                        shorten(sentence)
                    ),
                ));
            }
        }
        if changes.len() == before {
            changes.push(change(
                Class::Risky,
                "results",
                outcome,
                format!("result `{outcome}` reworded"),
            ));
        }
    }
    for (outcome, new_text) in &new.results {
        if text_of(old, outcome).is_none() {
            changes.push(change(
                Class::Risky,
                "results",
                outcome,
                format!("result `{outcome}` added: \"{}\"", shorten(new_text)),
            ));
        }
    }
}

/// The input schema, the output schema, the annotations and deferral.
fn compare_definition(old: &ToolDef, new: &ToolDef, changes: &mut Vec<Change>) {
    if old.schema != new.schema {
        let schema = |json: &Option<Json>| {
            json.as_ref()
                .map_or_else(|| Value::Object(serde_json::Map::new()), Json::value)
        };
        // Every keyword is compared (the unknown ones as wholes), so a schema that differs only
        // in order (`required`, `enum`) gives no change.
        compare_schema(&schema(&old.schema), &schema(&new.schema), "", 0, changes);
    }
    if Json::differs(old.output_schema.as_ref(), new.output_schema.as_ref()) {
        changes.push(change(
            Class::Additive,
            "output_schema",
            "",
            "output schema changed".to_string(),
        ));
    }
    if Json::differs(old.annotations.as_ref(), new.annotations.as_ref()) {
        let (old_annotations, new_annotations) = (
            old.annotations.as_ref().map(Json::value),
            new.annotations.as_ref().map(Json::value),
        );
        let keys = changed_keys(old_annotations.as_ref(), new_annotations.as_ref());
        changes.push(change(
            Class::Additive,
            "annotations",
            "",
            format!("annotations changed: {}", keys.join(", ")),
        ));
    }
    if old.deferred != new.deferred {
        changes.push(change(
            Class::Additive,
            "defer_loading",
            "",
            if new.deferred {
                "now deferred (loaded through tool search)".to_string()
            } else {
                "no longer deferred (sent with every request)".to_string()
            },
        ));
    }
}

/// The message of a parameter's description change (merged into one change per tool).
pub(super) const DESCRIPTION_OF: &str = "description of ";

/// One change for all the parameters whose description changed.
fn merge_parameter_descriptions(changes: &mut Vec<Change>) {
    let is_one = |c: &Change| {
        c.field == "input_schema" && !c.path.is_empty() && c.message.starts_with(DESCRIPTION_OF)
    };
    let paths: Vec<String> = changes
        .iter()
        .filter(|c| is_one(c))
        .map(|c| c.path.clone())
        .collect();
    if paths.len() < 2 {
        return;
    }
    let Some(first) = changes.iter().position(is_one) else {
        return;
    };
    let listed: Vec<String> = paths.iter().map(|p| format!("`{p}`")).collect();
    let merged = Change {
        class: Class::Additive,
        field: "input_schema",
        path: String::new(),
        message: format!(
            "descriptions of {} parameters changed: {}",
            paths.len(),
            listed.join(", ")
        ),
    };
    let mut index = 0;
    changes.retain(|c| {
        let keep = index < first || !is_one(c);
        index += 1;
        keep
    });
    changes.insert(first, merged);
}

fn changed_keys(old: Option<&Value>, new: Option<&Value>) -> Vec<String> {
    let empty = serde_json::Map::new();
    let old = old.and_then(Value::as_object).unwrap_or(&empty);
    let new = new.and_then(Value::as_object).unwrap_or(&empty);
    let mut keys: Vec<String> = old
        .keys()
        .chain(new.keys())
        .filter(|key| old.get(*key) != new.get(*key))
        .map(|key| {
            let show = |v: Option<&Value>| v.map_or("unset".to_string(), Value::to_string);
            format!("`{key}` {} → {}", show(old.get(key)), show(new.get(key)))
        })
        .collect();
    keys.sort();
    keys.dedup();
    if keys.is_empty() {
        keys.push("(not an object)".to_string());
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_growth_needs_a_fifth_and_ten_tokens() {
        assert!(token_growth(100, 121).is_some());
        assert!(token_growth(100, 120).is_none());
        assert!(token_growth(5, 14).is_none());
        assert!(token_growth(0, 10).is_some());
    }
}
