//! A file's text with a line index: byte offsets to 1-based line/column, and a miette
//! `SourceCode` that does not rescan the file for every diagnostic.

use std::sync::Arc;

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// One input file as read: the path as the user gave it and its text.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as given (relative paths stay relative), or the `--stdin-filename`.
    pub name: String,
    pub text: String,
    /// Byte offset of the start of every line.
    line_starts: Vec<usize>,
}

/// A 1-based line and column; the column counts Unicode scalar values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LineColumn {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: String) -> Arc<Self> {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, byte)| byte == b'\n')
                .map(|(index, _)| index + 1),
        );
        Arc::new(SourceFile {
            name: name.into(),
            text,
            line_starts,
        })
    }

    /// The 0-based line holding byte `offset`.
    fn line_index(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= offset) - 1
    }

    /// Line and column of byte `offset` (clamped to the text, and to a char boundary).
    pub fn line_column(&self, offset: usize) -> LineColumn {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let column = self.text[start..offset].chars().count() + 1;
        LineColumn {
            line: line + 1,
            column,
        }
    }
}

impl SourceCode for SourceFile {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let start = span.offset();
        let end = start + span.len();
        if end > self.text.len() {
            return Err(MietteError::OutOfBounds);
        }
        // Slice a window of whole lines around the span and let miette's `str` impl do the
        // rest on that window only; then re-base its offsets onto the whole file.
        let first = self.line_index(start).saturating_sub(context_lines_before);
        let last = self.line_index(end.saturating_sub(1).max(start)) + context_lines_after;
        let window_start = self.line_starts[first];
        let window_end = self
            .line_starts
            .get(last + 1)
            .copied()
            .unwrap_or(self.text.len());
        let window = &self.text[window_start..window_end];
        let inner = window.read_span(
            &(start - window_start, span.len()).into(),
            context_lines_before,
            context_lines_after,
        )?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            (inner.span().offset() + window_start, inner.span().len()).into(),
            inner.line() + first,
            inner.column(),
            inner.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
