//! The check of `no-english-keywords`. Its code, docs and default options are in
//! `rules/wording/no-english-keywords.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct NoEnglishKeywords {
    /// The fewest ASCII words of 3+ letters a description with non-Latin text needs.
    min_keywords: usize,
}

impl Rule for NoEnglishKeywords {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(node) = tool.description() else {
            return;
        };
        let Some(value) = node.as_str() else {
            return;
        };
        let Some(script) = non_latin_script(value) else {
            return;
        };
        let keywords = ascii_keywords(value);
        if keywords >= self.min_keywords {
            return;
        }
        ctx.report(
            Field::Description,
            Anchor::Value(node),
            format!(
                "the description is in {script} text with {keywords} English keyword{} \
                 (ASCII words of 3+ letters), fewer than {}",
                if keywords == 1 { "" } else { "s" },
                self.min_keywords
            ),
        )
        .help(
            "add the English words a model would search for (what the tool acts on and does); \
             keyword tool search splits text on spaces and word boundaries",
        );
    }
}

/// The name of the non-Latin script of `value` when it holds non-Latin letters (two or more,
/// so a lone `π` or `µ` is not text in another script). Emoji and symbols are not letters.
pub(crate) fn non_latin_script(value: &str) -> Option<&'static str> {
    // Every non-Latin letter is outside ASCII: the ASCII runs between them are skipped whole.
    let mut rest = value;
    let mut first = None;
    while let Some(at) = rest.bytes().position(|byte| !byte.is_ascii()) {
        let mut chars = rest[at..].chars();
        let c = chars.next()?;
        rest = chars.as_str();
        if c.is_alphabetic() && !is_latin(c) {
            if first.is_some() {
                return first.map(script_name);
            }
            first = Some(c);
        }
    }
    None
}

/// Latin letters, with their accented and extended forms (`é`, `ß`, `ł`), fullwidth forms and
/// the modifier letters often seen in Latin text.
fn is_latin(c: char) -> bool {
    matches!(c as u32,
        0x0000..=0x024F
        | 0x0250..=0x02FF
        | 0x1D00..=0x1DBF
        | 0x1E00..=0x1EFF
        | 0x2070..=0x209F
        | 0x2C60..=0x2C7F
        | 0xA720..=0xA7FF
        | 0xAB30..=0xAB6F
        | 0xFB00..=0xFB06
        | 0xFF21..=0xFF3A
        | 0xFF41..=0xFF5A)
}

fn script_name(c: char) -> &'static str {
    match c as u32 {
        0x0370..=0x03FF | 0x1F00..=0x1FFF => "Greek",
        0x0400..=0x052F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => "Cyrillic",
        0x0530..=0x058F => "Armenian",
        0x0590..=0x05FF => "Hebrew",
        0x0600..=0x06FF | 0x0750..=0x077F | 0x08A0..=0x08FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => {
            "Arabic"
        }
        0x0900..=0x0DFF => "Indic",
        0x0E00..=0x0E7F => "Thai",
        0x10A0..=0x10FF => "Georgian",
        0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF => "Korean",
        0x3040..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => "Japanese",
        0x2E80..=0x2FDF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xF900..=0xFAFF
        | 0x20000..=0x3FFFF => "CJK",
        _ => "non-Latin",
    }
}

/// The ASCII words of 3+ letters, split as keyword search splits: on anything that is not an
/// ASCII letter (spaces, punctuation, digits, and the letters of other scripts, where a
/// Unicode-unaware `\b` also cuts), so `user数据` holds the word `user`.
fn ascii_keywords(value: &str) -> usize {
    value
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|word| word.len() >= 3)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flagged(value: &str) -> bool {
        non_latin_script(value).is_some() && ascii_keywords(value) < 3
    }

    #[test]
    fn non_latin_descriptions_without_keywords() {
        assert!(flagged("查询指定城市的天气预报"));
        assert!(flagged("ファイルを読み込みます"));
        assert!(flagged("Получить список файлов в каталоге"));
        assert!(flagged("احصل على قائمة الملفات"));
        assert!(flagged("查询 API 的天气 for 城市"));
        assert_eq!(non_latin_script("查询天气"), Some("CJK"));
        assert_eq!(non_latin_script("Получить"), Some("Cyrillic"));
        // The first of two non-Latin letters names the script, however far apart.
        let far = format!("Area of a circle: π r², {} and λ", "x".repeat(10_000));
        assert_eq!(non_latin_script(&far), Some("Greek"));
        assert_eq!(non_latin_script("é ü ß π µ 😀 r² and café"), None);
    }

    #[test]
    fn latin_emoji_and_bilingual_descriptions_are_not() {
        assert!(!flagged("Read a file from disk."));
        assert!(!flagged("Café résumé naïve straße łódź"));
        assert!(!flagged("🚀🔥✨ 🎉"));
        assert!(!flagged("Compute π"));
        assert!(!flagged("查询天气 (get weather forecast for a city)"));
        assert!(!flagged("获取user数据和file列表与search结果"));
        assert!(!flagged(""));
    }
}
