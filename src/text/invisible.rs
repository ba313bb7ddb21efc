//! Invisible characters: the Unicode format (Cf) characters a reader does not see but a model
//! reads, found in runs, with their names. Shared by `invisible-characters` (which reports the
//! runs) and the human renderer (which draws them as `<U+200B>` so a span on one shows).

use std::ops::Range;

/// A run of consecutive invisible characters in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// Byte range in the text.
    pub range: Range<usize>,
    /// The characters, in order.
    pub chars: Vec<char>,
}

/// Whether `c` is a format character that displays as nothing (or reorders what is displayed):
/// the Cf category except the Arabic, Syriac and Kaithi number signs, which are drawn.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

/// A Unicode tag character (U+E0000–U+E007F).
pub fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

/// A bidirectional control: embeddings, overrides, isolates and the marks.
pub fn is_bidi(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// The character's Unicode name (for a tag character, what it stands for).
pub fn name(c: char) -> String {
    let fixed = match c {
        '\u{00AD}' => "SOFT HYPHEN",
        '\u{061C}' => "ARABIC LETTER MARK",
        '\u{180E}' => "MONGOLIAN VOWEL SEPARATOR",
        '\u{200B}' => "ZERO WIDTH SPACE",
        '\u{200C}' => "ZERO WIDTH NON-JOINER",
        '\u{200D}' => "ZERO WIDTH JOINER",
        '\u{200E}' => "LEFT-TO-RIGHT MARK",
        '\u{200F}' => "RIGHT-TO-LEFT MARK",
        '\u{202A}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202B}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202C}' => "POP DIRECTIONAL FORMATTING",
        '\u{202D}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202E}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2060}' => "WORD JOINER",
        '\u{2061}' => "FUNCTION APPLICATION",
        '\u{2062}' => "INVISIBLE TIMES",
        '\u{2063}' => "INVISIBLE SEPARATOR",
        '\u{2064}' => "INVISIBLE PLUS",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        '\u{2069}' => "POP DIRECTIONAL ISOLATE",
        '\u{206A}' => "INHIBIT SYMMETRIC SWAPPING",
        '\u{206B}' => "ACTIVATE SYMMETRIC SWAPPING",
        '\u{206C}' => "INHIBIT ARABIC FORM SHAPING",
        '\u{206D}' => "ACTIVATE ARABIC FORM SHAPING",
        '\u{206E}' => "NATIONAL DIGIT SHAPES",
        '\u{206F}' => "NOMINAL DIGIT SHAPES",
        '\u{FEFF}' => "ZERO WIDTH NO-BREAK SPACE",
        '\u{FFF9}' => "INTERLINEAR ANNOTATION ANCHOR",
        '\u{FFFA}' => "INTERLINEAR ANNOTATION SEPARATOR",
        '\u{FFFB}' => "INTERLINEAR ANNOTATION TERMINATOR",
        '\u{1BCA0}' => "SHORTHAND FORMAT LETTER OVERLAP",
        '\u{1BCA1}' => "SHORTHAND FORMAT CONTINUING OVERLAP",
        '\u{1BCA2}' => "SHORTHAND FORMAT DOWN STEP",
        '\u{1BCA3}' => "SHORTHAND FORMAT UP STEP",
        '\u{E0001}' => "LANGUAGE TAG",
        '\u{E0020}' => "TAG SPACE",
        '\u{E007F}' => "CANCEL TAG",
        '\u{13430}'..='\u{1343F}' => "EGYPTIAN HIEROGLYPH FORMAT CONTROL",
        '\u{1D173}'..='\u{1D17A}' => "MUSICAL SYMBOL FORMAT CONTROL",
        _ => "",
    };
    if !fixed.is_empty() {
        return fixed.to_string();
    }
    match tag_ascii(c) {
        Some(ascii) => format!("TAG {}", ascii_name(ascii)),
        None if is_tag(c) => "TAG (unassigned)".to_string(),
        None => "FORMAT CHARACTER".to_string(),
    }
}

/// `U+200B ZERO WIDTH SPACE`.
pub fn describe(c: char) -> String {
    format!("{} {}", code_point(c), name(c))
}

/// `U+200B`.
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// The ASCII character a tag character stands for (U+E0021–U+E007E → `!`–`~`, U+E0020 → space).
pub fn tag_ascii(c: char) -> Option<char> {
    let value = (c as u32).checked_sub(0xE0000)?;
    (0x20..=0x7E)
        .contains(&value)
        .then(|| char::from_u32(value))
        .flatten()
}

fn ascii_name(c: char) -> String {
    match c {
        'A'..='Z' => format!("LATIN CAPITAL LETTER {c}"),
        'a'..='z' => format!("LATIN SMALL LETTER {}", c.to_ascii_uppercase()),
        '0'..='9' => format!("DIGIT {c}"),
        _ => format!("`{c}`"),
    }
}

/// The text a run of tag characters spells out in ASCII, when it spells any.
pub fn hidden_text(chars: &[char]) -> Option<String> {
    let text: String = chars.iter().filter_map(|&c| tag_ascii(c)).collect();
    (!text.trim().is_empty()).then_some(text)
}

/// The runs of invisible characters in `text` that are not legitimate where they stand: a zero
/// width joiner between two emoji (👨‍👩‍👧), a joiner or non-joiner between two letters of a
/// script that needs them (Arabic, Persian, the Indic scripts), the tag characters of an emoji
/// flag (🏴 + `gbsct` + cancel tag). One pass over the text.
pub fn runs(text: &str) -> Vec<Run> {
    let mut runs = Vec::new();
    let mut current: Option<Run> = None;
    // The last visible character before the current run.
    let mut before: Option<char> = None;
    let mut last_visible: Option<char> = None;
    let mut next = 0;
    while next < text.len() {
        let rest = &text[next..];
        if current.is_none() {
            // No invisible character is ASCII: a run of ASCII only moves the last visible one.
            let ascii = rest.bytes().take_while(u8::is_ascii).count();
            if ascii > 0 {
                last_visible = Some(char::from(rest.as_bytes()[ascii - 1]));
                next += ascii;
                continue;
            }
        }
        let Some(c) = rest.chars().next() else { break };
        let at = next;
        next += c.len_utf8();
        if is_invisible(c) {
            match &mut current {
                Some(run) => {
                    run.range.end = at + c.len_utf8();
                    run.chars.push(c);
                }
                None => {
                    before = last_visible;
                    current = Some(Run {
                        range: at..at + c.len_utf8(),
                        chars: vec![c],
                    });
                }
            }
            continue;
        }
        if let Some(run) = current.take()
            && !legitimate(&run.chars, before, Some(c))
        {
            runs.push(run);
        }
        last_visible = Some(c);
    }
    if let Some(run) = current.take()
        && !legitimate(&run.chars, before, None)
    {
        runs.push(run);
    }
    runs
}

/// Whether a run between `before` and `after` is a legitimate use.
fn legitimate(chars: &[char], before: Option<char>, after: Option<char>) -> bool {
    match chars {
        ['\u{200D}'] => {
            let (Some(before), Some(after)) = (before, after) else {
                return false;
            };
            (is_pictograph(before) && is_pictograph(after))
                || (uses_joiners(before) && uses_joiners(after))
        }
        ['\u{200C}'] => before.is_some_and(uses_joiners) && after.is_some_and(uses_joiners),
        [tags @ .., '\u{E007F}'] => {
            // An emoji flag of a subdivision: 🏴 then 2 to 6 lowercase letters or digits.
            before == Some('\u{1F3F4}')
                && (2..=6).contains(&tags.len())
                && tags.iter().all(|&c| {
                    tag_ascii(c).is_some_and(|a| a.is_ascii_lowercase() || a.is_ascii_digit())
                })
        }
        _ => false,
    }
}

/// An emoji or pictograph (or the variation selector and skin-tone modifiers inside an emoji
/// sequence), which a zero width joiner may join.
fn is_pictograph(c: char) -> bool {
    matches!(
        c,
        '\u{2194}'..='\u{21FF}'
            | '\u{2300}'..='\u{23FF}'
            | '\u{2460}'..='\u{27BF}'
            | '\u{2900}'..='\u{297F}'
            | '\u{2B00}'..='\u{2BFF}'
            | '\u{FE0F}'
            | '\u{1F000}'..='\u{1FAFF}'
    )
}

/// A letter or mark of a script whose spelling uses the joiners: Arabic, Syriac, Thaana, N'Ko,
/// the Indic scripts, Sinhala, Myanmar, Khmer, Mongolian.
fn uses_joiners(c: char) -> bool {
    matches!(
        c,
        '\u{0600}'..='\u{08FF}'
            | '\u{0900}'..='\u{0DFF}'
            | '\u{1000}'..='\u{109F}'
            | '\u{1780}'..='\u{18AF}'
            | '\u{A8E0}'..='\u{A8FF}'
            | '\u{FB50}'..='\u{FDFF}'
            | '\u{FE70}'..='\u{FEFE}'
    )
}

/// How a run is drawn in an excerpt: `<U+200B>`, `<U+200B U+200C>`, or for a long run its ends
/// and length, `<U+E0049…U+E007F, 40 chars>`.
pub fn marker(chars: &[char]) -> String {
    match chars {
        [] => String::new(),
        [_] | [_, _] | [_, _, _] => {
            let points: Vec<String> = chars.iter().map(|&c| code_point(c)).collect();
            format!("<{}>", points.join(" "))
        }
        [first, .., last] => format!(
            "<{}…{}, {} chars>",
            code_point(*first),
            code_point(*last),
            chars.len()
        ),
    }
}

/// `text` with each run of invisible characters drawn as its [`marker`], and `span` (a byte
/// range of `text`) moved along; a span end inside a run moves to the end of its marker. A
/// U+FEFF at the start of the text is left alone when `keep_bom` (a file's byte order mark).
pub fn make_visible(text: &str, span: Range<usize>, keep_bom: bool) -> (String, Range<usize>) {
    let mut found = runs(text);
    if keep_bom
        && let Some(first) = found.first_mut()
        && first.range.start == 0
        && first.chars.first() == Some(&'\u{FEFF}')
    {
        first.chars.remove(0);
        first.range.start = '\u{FEFF}'.len_utf8();
        if first.chars.is_empty() {
            found.remove(0);
        }
    }
    if found.is_empty() {
        return (text.to_string(), span);
    }
    let mut out = String::with_capacity(text.len() + 16 * found.len());
    let (mut start, mut end) = (None, None);
    let mut copied = 0;
    let map = |offset: usize, out_len: usize, copied: usize| out_len + (offset - copied);
    for run in &found {
        if start.is_none() && span.start <= run.range.start {
            start = Some(map(span.start, out.len(), copied));
        }
        if end.is_none() && span.end <= run.range.start {
            end = Some(map(span.end, out.len(), copied));
        }
        out.push_str(&text[copied..run.range.start]);
        let marker_start = out.len();
        out.push_str(&marker(&run.chars));
        if start.is_none() && span.start < run.range.end {
            start = Some(marker_start);
        }
        if end.is_none() && span.end <= run.range.end {
            end = Some(out.len());
        }
        copied = run.range.end;
    }
    let start = start.unwrap_or_else(|| map(span.start.max(copied), out.len(), copied));
    let end = end.unwrap_or_else(|| map(span.end.max(copied), out.len(), copied));
    out.push_str(&text[copied..]);
    (out, start..end.max(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        runs(text).into_iter().map(|run| &text[run.range]).collect()
    }

    #[test]
    fn runs_of_invisible_characters() {
        assert_eq!(found("pass\u{200B}word"), ["\u{200B}"]);
        assert_eq!(
            found("a\u{200B}\u{200C}\u{2060}b c\u{202E}"),
            ["\u{200B}\u{200C}\u{2060}", "\u{202E}"]
        );
        assert_eq!(found("\u{FEFF}start"), ["\u{FEFF}"]);
        assert_eq!(found("soft\u{00AD}hyphen"), ["\u{00AD}"]);
        assert!(found("plain text, é and 😀\u{FE0F}").is_empty());
    }

    #[test]
    fn legitimate_joiners_and_flags_are_not_runs() {
        // Family emoji, a profession with a skin tone, a flag of a subdivision.
        assert!(found("👨\u{200D}👩\u{200D}👧 family").is_empty());
        assert!(found("🧑🏽\u{200D}💻 coder").is_empty());
        assert!(found("❤\u{FE0F}\u{200D}🔥").is_empty());
        assert!(
            found("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Scotland").is_empty()
        );
        // Persian and Hindi spelling.
        assert!(found("می\u{200C}خواهم").is_empty());
        assert!(found("क्\u{200D}ष").is_empty());
        // A joiner between Latin letters, or at the end, is not.
        assert_eq!(found("a\u{200D}b"), ["\u{200D}"]);
        assert_eq!(found("😀\u{200D}"), ["\u{200D}"]);
    }

    #[test]
    fn tag_characters_spell_hidden_text() {
        let hidden: String = "Ignore all"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap())
            .collect();
        let text = format!("Adds numbers.{hidden}");
        let runs = runs(&text);
        assert_eq!(runs.len(), 1);
        assert_eq!(hidden_text(&runs[0].chars).as_deref(), Some("Ignore all"));
        assert_eq!(name('\u{E0041}'), "TAG LATIN CAPITAL LETTER A");
        assert_eq!(describe('\u{200B}'), "U+200B ZERO WIDTH SPACE");
    }

    #[test]
    fn runs_are_drawn_as_markers_and_spans_follow() {
        let text = "ab\u{200B}cd";
        let (shown, span) = make_visible(text, 2..5, false);
        assert_eq!(shown, "ab<U+200B>cd");
        assert_eq!(&shown[span], "<U+200B>");
        let (shown, span) = make_visible(text, 5..7, false);
        assert_eq!(&shown[span], "cd");
        let (shown, span) = make_visible(text, 0..1, false);
        assert_eq!(&shown[span], "a");
        let (shown, _) = make_visible("\u{FEFF}x\u{200B}", 0..0, true);
        assert_eq!(shown, "\u{FEFF}x<U+200B>");
        let long: String = std::iter::repeat_n('\u{E0041}', 40).collect();
        assert_eq!(
            marker(&long.chars().collect::<Vec<_>>()),
            "<U+E0041…U+E0041, 40 chars>"
        );
    }
}
