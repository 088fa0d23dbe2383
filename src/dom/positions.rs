//! Source positions: where each parsed node came from in the input (opt-in with
//! [`ParseOptions::source_positions`](crate::ParseOptions::source_positions)).
//!
//! An element has the span of its start tag and, when an end tag closed it, of that end tag;
//! a text node spans the input its characters came from (character references included); a
//! comment, DOCTYPE or processing instruction spans its markup. Nodes the parser made up
//! (an implied `<body>`, a reopened formatting element) and nodes created through the
//! mutation API have none.
//!
//! ```
//! use html_arena::{Document, ParseOptions};
//!
//! let mut options = ParseOptions::default();
//! options.source_positions = true;
//! let doc = Document::parse_with("<p>\n  <a href=x>link</a>\n</p>", &options);
//! let a = doc.root().descendants().find_map(|n| n.as_element().filter(|e| e.local_name() == "a")).unwrap();
//! let start = a.source_span().unwrap();
//! assert_eq!((start.start, start.end, start.line, start.column), (6, 16, 2, 3));
//! let source = doc.source().unwrap(); // (positions keep the source)
//! assert_eq!(&source[start.start..start.end], "<a href=x>");
//! let end = a.end_tag_span().unwrap();
//! assert_eq!(&source[end.start..end.end], "</a>");
//! ```

use super::node::{ElementRef, NodeRef};
use crate::error::LineCol;

/// A byte range of the source (the tokenizer's spans convert into it).
type Span = std::ops::Range<usize>;

/// A range of the source text, with the line and column where it starts.
///
/// `start..end` are byte offsets in [`Document::source`](crate::Document::source) (the decoded
/// input); `line` and `column` are 1-based, the column in UTF-16 code units, as for parse
/// errors.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct SourceSpan {
    /// Byte offset of the start.
    pub start: usize,
    /// Byte offset just past the end.
    pub end: usize,
    /// 1-based line of the start.
    pub line: u32,
    /// 1-based column of the start (UTF-16 code units).
    pub column: u32,
}

const NONE: usize = usize::MAX;

#[derive(Copy, Clone, Debug)]
struct Entry {
    start: usize,
    end: usize,
    line: u32,
    column: u32,
    end_tag_start: usize,
    end_tag_end: usize,
    end_tag_line: u32,
    end_tag_column: u32,
}

impl Default for Entry {
    fn default() -> Self {
        Entry {
            start: NONE,
            end: NONE,
            line: 0,
            column: 0,
            end_tag_start: NONE,
            end_tag_end: NONE,
            end_tag_line: 0,
            end_tag_column: 0,
        }
    }
}

/// The spans of a document's nodes, indexed by arena slot.
#[derive(Clone, Default, Debug)]
pub(crate) struct Positions {
    entries: Vec<Entry>,
}

#[inline]
fn slot(id: indextree::NodeId) -> usize {
    usize::from(id)
}

impl Positions {
    fn entry(&mut self, id: indextree::NodeId) -> &mut Entry {
        let i = slot(id);
        if i >= self.entries.len() {
            self.entries.resize(i + 1, Entry::default());
        }
        &mut self.entries[i]
    }

    /// Sets the span of a node (an element's start tag).
    pub(crate) fn set(&mut self, id: indextree::NodeId, span: impl Into<Span>) {
        let span = span.into();
        let e = self.entry(id);
        e.start = span.start;
        e.end = span.end;
    }

    /// Widens a text node's span to cover `span` too.
    pub(crate) fn extend(&mut self, id: indextree::NodeId, span: impl Into<Span>) {
        let span = span.into();
        let e = self.entry(id);
        if e.start == NONE {
            e.start = span.start;
            e.end = span.end;
        } else {
            e.start = e.start.min(span.start);
            e.end = e.end.max(span.end);
        }
    }

    /// Sets the span of the end tag that closed an element (the first one wins).
    pub(crate) fn set_end_tag(&mut self, id: indextree::NodeId, span: impl Into<Span>) {
        let span = span.into();
        let e = self.entry(id);
        if e.end_tag_start == NONE {
            e.end_tag_start = span.start;
            e.end_tag_end = span.end;
        }
    }

    /// Forgets a node's spans (its slot is freed, and may be reused by a new node).
    pub(crate) fn clear(&mut self, id: indextree::NodeId) {
        if let Some(e) = self.entries.get_mut(slot(id)) {
            *e = Entry::default();
        }
    }

    /// Computes the line and column of every span start, in one sweep over the source.
    pub(crate) fn resolve_lines(&mut self, source: &str) {
        let bytes = source.as_bytes();
        let mut starts: Vec<(usize, usize, bool)> = Vec::new();
        for (i, e) in self.entries.iter_mut().enumerate() {
            // A span that ends between the CR and LF of a CRLF pair (text whose token ended at
            // a chunk boundary there) takes the LF too: the pair is one newline, and the
            // whole input in one go gives that span.
            if e.start != NONE
                && e.end > 0
                && bytes.get(e.end - 1) == Some(&b'\r')
                && bytes.get(e.end) == Some(&b'\n')
            {
                e.end += 1;
            }
            if e.start != NONE {
                starts.push((e.start, i, false));
            }
            if e.end_tag_start != NONE {
                starts.push((e.end_tag_start, i, true));
            }
        }
        // Sorted offsets keep the tracker moving forward: linear after the sort.
        starts.sort_unstable();
        let mut line_col = LineCol::default();
        for (offset, i, end_tag) in starts {
            let (line, column) = line_col.position(source, offset);
            let e = &mut self.entries[i];
            if end_tag {
                (e.end_tag_line, e.end_tag_column) = (line, column);
            } else {
                (e.line, e.column) = (line, column);
            }
        }
    }

    fn get(&self, id: indextree::NodeId) -> Option<SourceSpan> {
        let e = self.entries.get(slot(id))?;
        (e.start != NONE).then_some(SourceSpan {
            start: e.start,
            end: e.end,
            line: e.line,
            column: e.column,
        })
    }

    fn get_end_tag(&self, id: indextree::NodeId) -> Option<SourceSpan> {
        let e = self.entries.get(slot(id))?;
        (e.end_tag_start != NONE).then_some(SourceSpan {
            start: e.end_tag_start,
            end: e.end_tag_end,
            line: e.end_tag_line,
            column: e.end_tag_column,
        })
    }
}

impl NodeRef<'_> {
    /// Where the node came from in the source, if the document was parsed with
    /// [`ParseOptions::source_positions`](crate::ParseOptions::source_positions): an element's
    /// start tag, the extent of a text node, comment, DOCTYPE or processing instruction.
    pub fn source_span(self) -> Option<SourceSpan> {
        self.document().positions.as_ref()?.get(self.raw_id())
    }
}

impl ElementRef<'_> {
    /// The span of the end tag that closed this element, if there was one (and the document
    /// was parsed with source positions). Elements closed implicitly have none.
    pub fn end_tag_span(self) -> Option<SourceSpan> {
        self.document()
            .positions
            .as_ref()?
            .get_end_tag(self.raw_id())
    }
}
