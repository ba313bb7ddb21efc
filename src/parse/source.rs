//! A file's text with a line index: byte offsets to 1-based line/column, the excerpts the human
//! renderer shows (a few lines around a span, long lines cut to a window) as miette
//! `SourceCode`s that never rescan the file.

use std::ops::Range;
use std::sync::Arc;

use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Columns of one source line an excerpt shows at most (a wide char counts 2, a tab 4), besides
/// the `…` that mark a cut.
pub const EXCERPT_WIDTH: usize = 120;
/// Lines of a span an excerpt shows whole; a longer span shows `SPAN_LINES - 1` of them, then
/// `… N more lines` (so N is at least 2).
pub const SPAN_LINES: usize = 5;
/// Lines shown before and after the span: miette's default, which `render::human` keeps.
const CONTEXT_LINES: usize = 1;
/// Columns kept before a span too wide for the window.
const LEAD: usize = 16;
/// Marks the side of a line an excerpt cut.
const ELLIPSIS: &str = "…";
/// A non-ASCII text keeps the count of chars before every `CHECKPOINT`-th byte, so a column
/// costs at most this many bytes of counting, however long its line.
const CHECKPOINT: usize = 256;

/// One input file as read: the path as the user gave it and its text.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as given (relative paths stay relative), or the `--stdin-filename`.
    pub name: String,
    pub text: String,
    /// Byte offset of the start of every line.
    line_starts: Vec<usize>,
    /// Chars in `text[..k * CHECKPOINT]` for every `k`; empty for an ASCII text, where a
    /// column is a byte count.
    char_checkpoints: Vec<usize>,
}

/// A 1-based line and column; the column counts Unicode scalar values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LineColumn {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: String) -> Arc<Self> {
        // Counted first, so that the index is allocated at its size: a large file has a
        // million lines, which doubling would leave room for two million.
        let mut line_starts = Vec::with_capacity(1 + crate::text::line_starts(&text).count());
        line_starts.push(0);
        line_starts.extend(crate::text::line_starts(&text));
        let char_checkpoints = if text.is_ascii() {
            Vec::new()
        } else {
            let mut chars = 0;
            let mut checkpoints = vec![0];
            for block in text.as_bytes().chunks(CHECKPOINT) {
                chars += count_chars(block);
                checkpoints.push(chars);
            }
            checkpoints
        };
        Arc::new(SourceFile {
            name: name.into(),
            text,
            line_starts,
            char_checkpoints,
        })
    }

    /// The 0-based line holding byte `offset`.
    fn line_index(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= offset) - 1
    }

    /// Line and column of byte `offset` (clamped to the text, and to a char boundary).
    pub fn line_column(&self, offset: usize) -> LineColumn {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let column = if self.char_checkpoints.is_empty() {
            offset - start
        } else if offset - start <= CHECKPOINT {
            count_chars(&self.text.as_bytes()[start..offset])
        } else {
            self.chars_before(offset) - self.chars_before(start)
        };
        LineColumn {
            line: line + 1,
            column: column + 1,
        }
    }

    /// Chars in `text[..offset]` of a non-ASCII text.
    fn chars_before(&self, offset: usize) -> usize {
        let block = offset / CHECKPOINT;
        self.char_checkpoints[block]
            + count_chars(&self.text.as_bytes()[block * CHECKPOINT..offset])
    }

    fn floor_char_boundary(&self, mut offset: usize) -> usize {
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    /// `span` widened to whole characters and clamped to the text, so that no output (and no
    /// renderer) ever slices a UTF-8 sequence.
    pub fn whole_chars(&self, span: Range<usize>) -> Range<usize> {
        let start = self.floor_char_boundary(span.start.min(self.text.len()));
        let mut end = span.end.clamp(start, self.text.len());
        while !self.text.is_char_boundary(end) {
            end += 1;
        }
        start..end
    }

    /// Byte range of line `line` (0-based): its text, then its line break.
    fn line_bounds(&self, line: usize) -> (Range<usize>, usize) {
        let start = self.line_starts[line];
        let end = self
            .line_starts
            .get(line + 1)
            .copied()
            .unwrap_or(self.text.len());
        let break_len = crate::text::line_break_len(&self.text.as_bytes()[start..end]);
        (start..end - break_len, end)
    }

    /// The part of `content` (one line without its break) to show: all of it when it takes at
    /// most [`EXCERPT_WIDTH`] columns, else that many columns showing `focus` (a range inside
    /// `content`): from the line's start when they reach past it, else centered on it, or from a
    /// few columns before it when it is too wide. Linear in the width, not in the length of the
    /// line.
    fn window(&self, content: Range<usize>, focus: Range<usize>) -> Range<usize> {
        if width(&self.text[content.clone()], EXCERPT_WIDTH) <= EXCERPT_WIDTH {
            return content;
        }
        let focus_start = self.floor_char_boundary(focus.start.clamp(content.start, content.end));
        let focus_end = self
            .floor_char_boundary(focus.end.clamp(focus_start, content.end))
            .max(focus_start);
        let from_line_start = |end: usize| width(&self.text[content.start..end], EXCERPT_WIDTH);
        let focus_width =
            width(&self.text[focus_start..focus_end], EXCERPT_WIDTH).min(EXCERPT_WIDTH);
        let wide = focus_width + 2 * LEAD > EXCERPT_WIDTH;
        // The line's start, cut on the right only, when it shows the whole focus or, for a
        // focus too wide for any window, its start with the most left context.
        if from_line_start(focus_end) <= EXCERPT_WIDTH
            || (wide && from_line_start(focus_start) <= EXCERPT_WIDTH / 2)
        {
            let (end, _) = self.forward(content.start, content.end, EXCERPT_WIDTH);
            return content.start..end;
        }
        let lead = if wide {
            LEAD
        } else {
            (EXCERPT_WIDTH - focus_width) / 2
        };
        let (mut start, before) = self.back(content.start, focus_start, lead);
        let budget = EXCERPT_WIDTH - before;
        let (end, after) = self.forward(focus_start, content.end, budget);
        if after < budget {
            start = self.back(content.start, start, budget - after).0;
        }
        start..end
    }

    /// Back from `from` over at most `budget` columns, not before `floor`: where that lands,
    /// and how many columns it went back.
    fn back(&self, floor: usize, from: usize, budget: usize) -> (usize, usize) {
        let (mut at, mut used) = (from, 0);
        for (index, char) in self.text[floor..from].char_indices().rev() {
            if used + columns(char) > budget {
                break;
            }
            (at, used) = (floor + index, used + columns(char));
        }
        (at, used)
    }

    /// On from `from` over at most `budget` columns, not past `ceiling`: where that lands, and
    /// how many columns it went on.
    fn forward(&self, from: usize, ceiling: usize, budget: usize) -> (usize, usize) {
        let mut used = 0;
        for (index, char) in self.text[from..ceiling].char_indices() {
            if used + columns(char) > budget {
                return (from + index, used);
            }
            used += columns(char);
        }
        (ceiling, used)
    }

    /// What the human renderer shows of the span `span`: the lines around it, each at most
    /// [`EXCERPT_WIDTH`] columns (a longer line is cut around the span, `…` marking each cut
    /// side), and of a span of more than [`SPAN_LINES`] lines its first lines only. The excerpt
    /// is its own [`SourceCode`]; draw it with [`Excerpt::label`], the span re-based into it.
    /// Costs a few windows of text, whatever the length of the file, its lines or the span.
    pub fn excerpt(&self, span: Range<usize>) -> Excerpt {
        let (start, end) = (span.start, span.end.max(span.start));
        if end > self.text.len() {
            return Excerpt {
                name: self.name.clone(),
                text: String::new(),
                first_line: 0,
                span: (start, end - start).into(),
                line: 0,
                column: 0,
                more_lines: 0,
                in_bounds: false,
            };
        }
        let start_line = self.line_index(start);
        let end_line = self.line_index(end.saturating_sub(1).max(start));
        let (last, more_lines) = if end_line - start_line + 1 > SPAN_LINES {
            let last = start_line + SPAN_LINES - 2;
            (last, end_line - last)
        } else {
            let last = (end_line + CONTEXT_LINES).min(self.line_starts.len() - 1);
            (last, 0)
        };
        let first_line = start_line.saturating_sub(CONTEXT_LINES);
        let mut text = String::new();
        let (mut excerpt_start, mut excerpt_end) = (0, 0);
        for line in first_line..=last {
            let (content, line_end) = self.line_bounds(line);
            let focus = if line == start_line {
                let focus_end = if line == end_line { end } else { content.end };
                start..focus_end
            } else if line == end_line {
                end..end
            } else {
                content.start..content.start
            };
            let window = self.window(content.clone(), focus);
            let piece = Piece {
                at: text.len(),
                prefix: if window.start > content.start {
                    ELLIPSIS.len()
                } else {
                    0
                },
                suffix: if window.end < content.end {
                    ELLIPSIS.len()
                } else {
                    0
                },
                window: window.clone(),
                content_end: content.end,
            };
            if piece.prefix > 0 {
                text.push_str(ELLIPSIS);
            }
            text.push_str(&self.text[window.clone()]);
            if piece.suffix > 0 {
                text.push_str(ELLIPSIS);
            }
            // A `\r` alone breaks the line for the excerpt too (miette breaks at `\n` only).
            match &self.text[content.end..line_end] {
                "\r" => text.push('\n'),
                line_break => text.push_str(line_break),
            }
            if line == start_line {
                excerpt_start = piece.rebase(start);
            }
            if line == end_line {
                excerpt_end = piece.rebase(end);
            } else if more_lines > 0 && line == last {
                // The span runs on past the excerpt: it ends with the last line shown, whose
                // label says how many lines are left out.
                excerpt_end = piece.rebase(content.end);
            }
        }
        // Invisible characters are drawn as `<U+200B>`, so a span on one shows where it is
        // (a file's byte order mark stays as it is).
        let (text, shown) = if text.is_ascii() {
            (text, excerpt_start..excerpt_end.max(excerpt_start))
        } else {
            crate::text::invisible::make_visible(&text, excerpt_start..excerpt_end, first_line == 0)
        };
        Excerpt {
            name: self.name.clone(),
            text,
            first_line,
            span: (shown.start, shown.end - shown.start).into(),
            line: start_line,
            // In characters, as every other output counts them (miette would count bytes).
            column: self.line_column(start).column - 1,
            more_lines,
            in_bounds: true,
        }
    }
}

/// Terminal columns `char` takes at most: 2 in the wide (East Asian, emoji) blocks, 4 for a tab
/// (miette expands it to the next multiple of 4), else 1. An estimate without a Unicode table:
/// it only bounds how wide an excerpt line is.
fn columns(char: char) -> usize {
    match char {
        '\t' => 4,
        '\u{1100}'..='\u{115F}'
        | '\u{2E80}'..='\u{303E}'
        | '\u{3041}'..='\u{33FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{A000}'..='\u{A4CF}'
        | '\u{AC00}'..='\u{D7A3}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FE30}'..='\u{FE4F}'
        | '\u{FF00}'..='\u{FF60}'
        | '\u{FFE0}'..='\u{FFE6}'
        | '\u{1F300}'..='\u{1F64F}'
        | '\u{1F900}'..='\u{1F9FF}'
        | '\u{20000}'..='\u{3FFFD}' => 2,
        _ => 1,
    }
}

/// The columns `text` takes, counted no further than just past `limit`.
fn width(text: &str, limit: usize) -> usize {
    let mut total = 0;
    for char in text.chars() {
        total += columns(char);
        if total > limit {
            break;
        }
    }
    total
}

/// Not a UTF-8 continuation byte: the chars of valid UTF-8 are its non-continuation bytes.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&byte| (byte as i8) >= -0x40).count()
}

/// One line of an excerpt: where it starts in the excerpt, the window of the line it shows
/// and the `…` around it.
struct Piece {
    at: usize,
    prefix: usize,
    window: Range<usize>,
    suffix: usize,
    content_end: usize,
}

impl Piece {
    /// Where byte `offset` of the file (on this line) lands in the excerpt: inside the window
    /// as is, before it on its start, after it past the `…` (a span cut short underlines it).
    fn rebase(&self, offset: usize) -> usize {
        let Range { start, end } = self.window;
        let shown = offset.clamp(start, end) - start;
        let past = if offset > end {
            self.suffix + offset.saturating_sub(self.content_end)
        } else {
            0
        };
        self.at + self.prefix + shown + past
    }
}

/// A few lines of a file around one span, as [`SourceFile::excerpt`] cut them: a
/// [`SourceCode`] whose line numbers and header position are the file's.
#[derive(Debug)]
pub struct Excerpt {
    name: String,
    text: String,
    /// 0-based line of the file the excerpt starts at.
    first_line: usize,
    /// The span, re-based into `text`.
    span: SourceSpan,
    /// 0-based line and column (in characters) of the span's start in the file.
    line: usize,
    column: usize,
    /// Lines of the span left out after the last one shown.
    more_lines: usize,
    /// `false` when the span lies outside the file: reading it fails, as for the file itself.
    in_bounds: bool,
}

impl Excerpt {
    /// The span to draw, re-based into the excerpt, labeled `label`, then `… N more lines` when
    /// the span runs on past the excerpt.
    pub fn label(&self, label: Option<&str>) -> LabeledSpan {
        let more = match self.more_lines {
            0 => None,
            1 => Some("… 1 more line".to_string()),
            lines => Some(format!("… {lines} more lines")),
        };
        let label = match (label, more) {
            (label, None) => label.map(str::to_string),
            (None, Some(more)) => Some(more),
            (Some(label), Some(more)) => Some(format!("{label}\n{more}")),
        };
        LabeledSpan::new_primary_with_span(label, self.span)
    }

    /// The excerpt's text: the lines shown, each cut to its window.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        if !self.in_bounds {
            return Err(MietteError::OutOfBounds);
        }
        let inner =
            self.text
                .as_str()
                .read_span(span, context_lines_before, context_lines_after)?;
        // The header's `line:column` is where the span starts in the file, not in a cut line.
        let (line, column) = if context_lines_before == 0 && span.offset() == self.span.offset() {
            (self.line, self.column)
        } else {
            (inner.line() + self.first_line, inner.column())
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            line,
            column,
            inner.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_widened_to_whole_characters_and_clamped() {
        let file = SourceFile::new("t", "aé€b".to_string());
        // `é` is bytes 1..3, `€` 3..6.
        assert_eq!(file.whole_chars(2..2), 1..3);
        assert_eq!(file.whole_chars(1..2), 1..3);
        assert_eq!(file.whole_chars(2..4), 1..6);
        assert_eq!(file.whole_chars(0..1), 0..1);
        assert_eq!(file.whole_chars(5..100), 3..7);
        assert_eq!(file.whole_chars(100..200), 7..7);
    }

    #[test]
    fn columns_count_chars_and_lines_handle_crlf() {
        let file = SourceFile::new("t.yaml", "a: é\r\nbé: x\n".to_string());
        assert_eq!(file.line_column(0), LineColumn { line: 1, column: 1 });
        // `x` is after `bé: ` on line 2: column 5 in chars although byte 5 of the line.
        let x = file.text.find('x').unwrap();
        assert_eq!(file.line_column(x), LineColumn { line: 2, column: 5 });
        // Past the end clamps; inside a multibyte char clamps back to its start.
        assert_eq!(file.line_column(1000).line, 3);
        assert_eq!(file.line_column(4), file.line_column(3));
    }

    /// The checkpointed count against counting the chars from the line start, at every
    /// offset of long lines mixing ASCII with 2-, 3- and 4-byte chars (and of an ASCII file).
    #[test]
    fn line_column_matches_a_naive_char_count_on_long_mixed_lines() {
        let naive = |text: &str, offset: usize| {
            let mut offset = offset.min(text.len());
            while !text.is_char_boundary(offset) {
                offset -= 1;
            }
            let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
            LineColumn {
                line: text[..offset].matches('\n').count() + 1,
                column: text[line_start..offset].chars().count() + 1,
            }
        };
        let mut mixed = String::new();
        for index in 0..3000 {
            mixed.push_str(match index % 7 {
                0 => "é",
                1 => "€",
                2 => "😀",
                3 if index % 1000 == 3 => "\n",
                4 if index % 1500 == 4 => "\r\n",
                _ => "ab",
            });
        }
        let ascii = "x".repeat(700) + "\n" + &"y".repeat(900);
        for text in [mixed, ascii] {
            let file = SourceFile::new("t.json", text.clone());
            for offset in 0..=text.len() + 2 {
                assert_eq!(
                    file.line_column(offset),
                    naive(&text, offset),
                    "at {offset}"
                );
            }
        }
    }

    #[test]
    fn a_short_line_is_its_own_excerpt() {
        let text = "name: x\ndescription: Always do it.\nother: y\nlast: z\n";
        let file = SourceFile::new("t.yaml", text.to_string());
        let start = text.find("Always").unwrap();
        let excerpt = file.excerpt(start..start + 6);
        assert_eq!(
            excerpt.text(),
            "name: x\ndescription: Always do it.\nother: y\n"
        );
        let span = excerpt.label(None).inner().to_owned();
        assert_eq!(&excerpt.text()[span.offset()..][..span.len()], "Always");
        assert_eq!((excerpt.line, excerpt.column), (1, 13));
    }

    #[test]
    fn a_long_line_is_cut_around_the_span() {
        let text = format!(
            "{{\"d\": \"{} always {}\"}}\n",
            "é".repeat(70_000),
            "y".repeat(500)
        );
        let file = SourceFile::new("t.json", text.clone());
        let start = text.find("always").unwrap();
        let excerpt = file.excerpt(start..start + 6);
        let line = excerpt.text().trim_end();
        assert!(line.starts_with('…') && line.ends_with('…'), "{line}");
        assert!(line.chars().count() <= EXCERPT_WIDTH + 2, "{line}");
        let span = excerpt.label(None).inner().to_owned();
        assert_eq!(&excerpt.text()[span.offset()..][..span.len()], "always");
        // The word is centered: as many chars before as after, give or take one.
        let before = excerpt.text()[..span.offset()].chars().count();
        let after = line.chars().count() - before - 6;
        assert!(before.abs_diff(after) <= 1, "{before} {after}");
        // The header's column counts characters (0-based here).
        assert_eq!(excerpt.column, text[..start].chars().count());
    }

    #[test]
    fn a_line_of_wide_chars_is_cut_by_columns() {
        let text = format!("{}always{}\n", "漢".repeat(1000), "字".repeat(1000));
        let file = SourceFile::new("t.yaml", text.clone());
        let start = text.find("always").unwrap();
        let line = file.excerpt(start..start + 6).text().trim_end().to_string();
        assert!(line.starts_with('…') && line.ends_with('…'), "{line}");
        let wide = line.chars().filter(|&char| columns(char) == 2).count();
        assert!(
            (EXCERPT_WIDTH - 4..=EXCERPT_WIDTH).contains(&(6 + 2 * wide)),
            "{line}"
        );
    }

    #[test]
    fn a_wide_span_shows_its_start_and_underlines_the_cut() {
        let text = format!("a: b\nd: {}\n", "w".repeat(1000));
        let file = SourceFile::new("t.yaml", text.clone());
        let excerpt = file.excerpt(8..text.len() - 1);
        let span = excerpt.label(None).inner().to_owned();
        assert_eq!(excerpt.text(), format!("a: b\nd: {}…\n", "w".repeat(117)));
        assert_eq!(
            &excerpt.text()[span.offset()..][..span.len()],
            "w".repeat(117) + "…"
        );
    }

    #[test]
    fn a_long_span_shows_its_first_lines() {
        let text: String = (1..=40).map(|line| format!("line {line}\n")).collect();
        let file = SourceFile::new("t.yaml", text.clone());
        let start = text.find("line 3\n").unwrap();
        let end = text.find("line 30\n").unwrap() + 7;
        let excerpt = file.excerpt(start..end);
        assert_eq!(excerpt.text(), "line 2\nline 3\nline 4\nline 5\nline 6\n");
        let label = excerpt.label(Some("here"));
        assert_eq!(label.label(), Some("here\n… 24 more lines"));
        // The span ends at the end of the last line shown.
        assert_eq!(label.offset() + label.len(), excerpt.text().len() - 1);
        // Five lines are shown whole, with a line of context after.
        let end = text.find("line 7\n").unwrap() + 6;
        let excerpt = file.excerpt(start..end);
        assert_eq!(excerpt.more_lines, 0);
        assert_eq!(excerpt.text().lines().count(), 7);
    }
}
