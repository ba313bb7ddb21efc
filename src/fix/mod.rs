//! The fix stage (`lint --fix`, `lint --diff`): applies the edits that findings carry to the
//! exact bytes of their spans, leaving every other byte of the file as it was.

use crate::diagnostic::{Diagnostic, Edit};

/// `text` with the fixes of `diagnostics` applied, and how many findings they fix; `None` when
/// none has a fix. A fix whose edits overlap one applied before is left for the next pass.
pub fn apply(text: &str, diagnostics: &[Diagnostic]) -> Option<(String, usize)> {
    let mut fixes: Vec<&[Edit]> = diagnostics
        .iter()
        .filter_map(|diagnostic| diagnostic.fix.as_ref())
        .map(|fix| fix.edits.as_slice())
        .filter(|edits| !edits.is_empty())
        .collect();
    fixes.sort_by_key(|edits| edits.iter().map(|edit| edit.span.start).min());
    let mut chosen: Vec<&Edit> = Vec::new();
    let mut fixed = 0;
    // Edits sorted by start never overlap when each starts at or after the last one's end.
    let mut end = 0;
    for edits in fixes {
        let mut sorted: Vec<&Edit> = edits.iter().collect();
        sorted.sort_by_key(|edit| edit.span.start);
        let fits = sorted
            .iter()
            .all(|edit| text.get(edit.span.clone()).is_some())
            && sorted.first().is_some_and(|edit| edit.span.start >= end)
            && sorted
                .windows(2)
                .all(|pair| pair[1].span.start >= pair[0].span.end);
        if !fits {
            continue;
        }
        end = sorted
            .last()
            .map_or(end, |edit| edit.span.end.max(edit.span.start));
        chosen.extend(sorted);
        fixed += 1;
    }
    if fixed == 0 {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in chosen {
        out.push_str(&text[at..edit.span.start]);
        out.push_str(&edit.replacement);
        at = edit.span.end;
    }
    out.push_str(&text[at..]);
    Some((out, fixed))
}

/// A unified diff of `old` → `new` for `name`, with one line of context around each change.
pub fn diff(name: &str, old: &str, new: &str) -> String {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let mut out = format!("--- a/{name}\n+++ b/{name}\n");
    // The changed lines lie between the common head and the common tail; the changes are
    // few and local, so each maximal run of differing lines is found by a linear walk that
    // realigns the two sides at the next line they share.
    let (mut i, mut j) = (0, 0);
    while i < old_lines.len() || j < new_lines.len() {
        if i < old_lines.len() && j < new_lines.len() && old_lines[i] == new_lines[j] {
            i += 1;
            j += 1;
            continue;
        }
        let (old_end, new_end) = realign(&old_lines, &new_lines, i, j);
        let context_before = usize::from(i > 0);
        let context_after = usize::from(old_end < old_lines.len() && new_end < new_lines.len());
        out.push_str(&format!(
            "@@ -{},{} +{},{} @@\n",
            i + 1 - context_before,
            old_end - i + context_before + context_after,
            j + 1 - context_before,
            new_end - j + context_before + context_after
        ));
        if context_before == 1 {
            push_line(&mut out, ' ', old_lines[i - 1]);
        }
        for line in &old_lines[i..old_end] {
            push_line(&mut out, '-', line);
        }
        for line in &new_lines[j..new_end] {
            push_line(&mut out, '+', line);
        }
        if context_after == 1 {
            push_line(&mut out, ' ', old_lines[old_end]);
        }
        i = old_end;
        j = new_end;
    }
    out
}

/// The first lines at or after `i`/`j` where the two sides agree again: an edit changes a few
/// lines, and inserts at most a line or two, so looking a few lines ahead on each side finds
/// the place; at the end, the rest of both sides.
fn realign(old: &[&str], new: &[&str], i: usize, j: usize) -> (usize, usize) {
    const AHEAD: usize = 8;
    for distance in 1..=2 * AHEAD {
        for old_skip in 0..=distance.min(AHEAD) {
            let new_skip = distance - old_skip;
            if new_skip > AHEAD {
                continue;
            }
            let (a, b) = (i + old_skip, j + new_skip);
            if a < old.len() && b < new.len() && old[a] == new[b] {
                return (a, b);
            }
        }
    }
    (old.len(), new.len())
}

fn push_line(out: &mut String, marker: char, line: &str) {
    out.push(marker);
    out.push_str(line);
    if !line.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}

#[cfg(test)]
mod tests {
    use super::diff;

    #[test]
    fn a_changed_line_is_shown_with_its_neighbours() {
        let old = "a\nb\nc\nd\n";
        let new = "a\nB\nc\nd\n";
        assert_eq!(
            diff("f.yaml", old, new),
            "--- a/f.yaml\n+++ b/f.yaml\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
        );
    }

    #[test]
    fn an_inserted_line_and_a_change_on_one_long_line() {
        let old = "x:\n  properties: {}\n";
        let new = "x:\n  type: object\n  properties: {}\n";
        assert_eq!(
            diff("f.yaml", old, new),
            "--- a/f.yaml\n+++ b/f.yaml\n@@ -1,2 +1,3 @@\n x:\n+  type: object\n   properties: {}\n"
        );
        assert_eq!(
            diff("f.json", "{\"type\": \"dict\"}", "{\"type\": \"object\"}"),
            "--- a/f.json\n+++ b/f.json\n@@ -1,1 +1,1 @@\n-{\"type\": \"dict\"}\n\\ No newline at end of file\n+{\"type\": \"object\"}\n\\ No newline at end of file\n"
        );
    }
}
