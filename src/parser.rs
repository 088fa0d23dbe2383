//! Parsing entry points and their options: [`Document::parse`], [`Document::parse_with`],
//! [`Document::parse_fragment`] and the streaming [`Parser`].
//!
//! The driver is small: text goes into the document's source buffer, then through the
//! tokenizer, whose tokens go to the tree builder; at the end the parse errors get their line
//! and column from their byte offsets.

use crate::dom::{Document, NodeData};
use crate::error::LineCol;
use crate::tokenizer::{Tokenizer, TokenizerOptions};
use crate::tree_builder::{FragmentContext, FragmentContextError, TreeBuilder};

/// Options for parsing a document or fragment.
///
/// Fields are public; start from [`ParseOptions::default`] and set what you need:
///
/// ```
/// let mut options = html_arena::ParseOptions::default();
/// options.scripting = true;
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ParseOptions {
    /// The scripting flag (default off, like a `DOMParser` or a crawler that runs no scripts).
    /// With it on, `<noscript>` content is raw text, as in a browser with JavaScript.
    pub scripting: bool,
    /// The transport-layer encoding label (e.g. the `charset` of an HTTP `Content-Type`
    /// header), for [`Document::parse_bytes`](crate::Document). An unknown label is an error
    /// of the parse call.
    pub transport_encoding: Option<String>,
    /// The encoding to use when nothing in or around the bytes declares one (a label; default
    /// `windows-1252`).
    pub fallback_encoding: Option<String>,
    /// Keep parse errors in [`Document::errors`](crate::Document::errors) (default on).
    pub collect_errors: bool,
    /// The most parse errors kept (the count goes on: [`Document::error_count`](crate::Document::error_count)).
    pub max_errors: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            scripting: false,
            transport_encoding: None,
            fallback_encoding: None,
            collect_errors: true,
            max_errors: 10_000,
        }
    }
}

impl ParseOptions {
    /// Sets the scripting flag.
    pub fn with_scripting(mut self, scripting: bool) -> Self {
        self.scripting = scripting;
        self
    }

    /// The number of errors to keep (0 when collection is off).
    pub(crate) fn error_limit(&self) -> usize {
        if self.collect_errors {
            self.max_errors
        } else {
            0
        }
    }
}

/// A streaming HTML parser: write the text in chunks of any size, then [`finish`](Parser::finish).
///
/// Any chunking gives the same document as parsing the whole text at once.
///
/// ```
/// use html_arena::{ParseOptions, Parser};
///
/// let mut parser = Parser::new(&ParseOptions::default());
/// parser.write_str("<ul><li>one<l");
/// parser.write_str("i>two</ul>");
/// let doc = parser.finish();
/// assert_eq!(doc.body().unwrap().text(), "onetwo");
/// ```
pub struct Parser {
    tokenizer: Tokenizer,
    builder: TreeBuilder,
}

impl Parser {
    /// A parser for a whole document.
    pub fn new(options: &ParseOptions) -> Parser {
        let doc = Document::with_source(String::new(), NodeData::Document);
        Parser {
            tokenizer: new_tokenizer(),
            builder: TreeBuilder::new(doc, options.scripting, options.error_limit()),
        }
    }

    /// A parser for a fragment (the HTML fragment parsing algorithm), as if the text were the
    /// content of a `context` element: an HTML local name such as `"td"`, or `"svg NAME"` /
    /// `"math NAME"`. The finished document's root is a `DocumentFragment` holding the parsed
    /// nodes.
    ///
    /// ```
    /// use html_arena::{ParseOptions, Parser};
    ///
    /// let mut parser = Parser::new_fragment("tr", &ParseOptions::default()).unwrap();
    /// parser.write_str("<td>1<td>2");
    /// let frag = parser.finish();
    /// assert_eq!(frag.root().children().count(), 2);
    /// ```
    pub fn new_fragment(
        context: &str,
        options: &ParseOptions,
    ) -> Result<Parser, FragmentContextError> {
        let context = FragmentContext::parse(context)?;
        let (builder, state) = TreeBuilder::new_fragment(
            String::new(),
            &context,
            options.scripting,
            options.error_limit(),
        );
        let mut tokenizer = new_tokenizer();
        tokenizer.set_state(state);
        Ok(Parser { tokenizer, builder })
    }

    /// Reserves room for `len` more bytes of input (and the nodes they are likely to make).
    fn reserve(&mut self, len: usize) {
        let doc = &mut self.builder.doc;
        doc.strings.source.reserve_exact(len);
        // Real pages average one node per 20 to 40 bytes.
        doc.arena.reserve(len / 24 + 4);
    }

    /// Parses the next chunk of text.
    pub fn write_str(&mut self, chunk: &str) {
        // Tokens that are verbatim input refer to the document's copy of it.
        self.builder.doc.strings.source.push_str(chunk);
        self.tokenizer.feed(chunk, &mut self.builder);
    }

    /// Ends the input and returns the document.
    pub fn finish(mut self) -> Document {
        self.tokenizer.end(&mut self.builder);
        let mut doc = self.builder.finish();
        resolve_error_positions(&mut doc);
        doc
    }
}

fn new_tokenizer() -> Tokenizer {
    // Positions are resolved once, at the end, from the offsets.
    Tokenizer::with_options(TokenizerOptions {
        error_positions: false,
        ..TokenizerOptions::default()
    })
}

/// Sorts the kept errors by offset (stably: errors at one offset keep their order) and gives
/// each its line and column.
fn resolve_error_positions(doc: &mut Document) {
    doc.errors.sort_by_key(|e| e.offset);
    let mut line_col = LineCol::default();
    let source = &doc.strings.source;
    for error in &mut doc.errors {
        let (line, column) = line_col.position(source, error.offset.min(source.len()));
        error.line = line;
        error.column = column;
    }
}

impl Document {
    /// Parses a whole document, with scripting disabled (as a `DOMParser` or a crawler that
    /// runs no scripts would).
    ///
    /// ```
    /// let doc = html_arena::Document::parse("<title>T</title><p>Hi");
    /// assert_eq!(doc.head().unwrap().text(), "T");
    /// assert_eq!(doc.body().unwrap().text(), "Hi");
    /// ```
    pub fn parse(html: &str) -> Document {
        Document::parse_with(html, &ParseOptions::default())
    }

    /// Parses a whole document with options.
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions};
    /// let options = ParseOptions::default().with_scripting(true);
    /// let doc = Document::parse_with("<noscript><p>x</p></noscript>", &options);
    /// // With scripting on, noscript content is raw text.
    /// assert_eq!(doc.head().unwrap().text(), "<p>x</p>");
    /// ```
    pub fn parse_with(html: &str, options: &ParseOptions) -> Document {
        let mut parser = Parser::new(options);
        parser.reserve(html.len());
        parser.write_str(html);
        parser.finish()
    }

    /// Parses a fragment as the content of a `context` element (13.4, the HTML fragment
    /// parsing algorithm): `context` is an HTML local name (`"td"`, `"template"`, ...) or
    /// `"svg NAME"` / `"math NAME"`. The returned document's root is a `DocumentFragment`
    /// holding the parsed nodes.
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions};
    /// let frag = Document::parse_fragment("<td>a<td>b", "tr", &ParseOptions::default()).unwrap();
    /// assert_eq!(frag.dump_tree(), "| <td>\n|   \"a\"\n| <td>\n|   \"b\"\n");
    /// assert!(Document::parse_fragment("x", "", &ParseOptions::default()).is_err());
    /// ```
    pub fn parse_fragment(
        html: &str,
        context: &str,
        options: &ParseOptions,
    ) -> Result<Document, FragmentContextError> {
        let mut parser = Parser::new_fragment(context, options)?;
        parser.reserve(html.len());
        parser.write_str(html);
        Ok(parser.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ErrorCode, QuirksMode};

    #[test]
    fn errors_have_positions_in_input_order() {
        let doc = Document::parse("<p>\n  <b>x</p>\n</i>");
        let codes: Vec<_> = doc
            .errors()
            .iter()
            .map(|e| (e.code, e.line, e.column))
            .collect();
        assert_eq!(
            codes,
            [
                (ErrorCode::MissingDoctype, 1, 1),
                (ErrorCode::UnclosedElements, 2, 7),
                (ErrorCode::UnexpectedEndTag, 3, 1),
                // The <b> closed by </p> is reopened for the line break after it.
                (ErrorCode::EofWithUnclosedElements, 3, 5),
            ]
        );
        assert_eq!(doc.errors()[2].message(), "unexpected-end-tag: </i>");
        assert_eq!(doc.errors()[2].to_string(), "3:1: unexpected-end-tag: </i>");
    }

    #[test]
    fn error_collection_options() {
        let html = "</a></b></c></d>";
        let all = Document::parse(html);
        assert_eq!(all.errors().len(), all.error_count());
        let mut options = ParseOptions {
            max_errors: 2,
            ..ParseOptions::default()
        };
        let some = Document::parse_with(html, &options);
        assert_eq!(some.errors().len(), 2);
        assert_eq!(some.error_count(), all.error_count());
        options.collect_errors = false;
        let none = Document::parse_with(html, &options);
        assert!(none.errors().is_empty());
        assert_eq!(none.error_count(), all.error_count());
    }

    #[test]
    fn quirks_mode_and_scripting_are_recorded() {
        assert_eq!(Document::parse("<p>").quirks_mode(), QuirksMode::Quirks);
        assert_eq!(
            Document::parse("<!DOCTYPE html><p>").quirks_mode(),
            QuirksMode::NoQuirks
        );
        let limited = "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"x\">";
        assert_eq!(
            Document::parse(limited).quirks_mode(),
            QuirksMode::LimitedQuirks
        );
        assert!(!Document::parse("").scripting());
        let on = Document::parse_with("", &ParseOptions::default().with_scripting(true));
        assert!(on.scripting());
    }

    #[test]
    fn fragment_contexts() {
        let options = ParseOptions::default();
        let frag = Document::parse_fragment("<path/><g>", "svg svg", &options).unwrap();
        assert_eq!(frag.dump_tree(), "| <svg path>\n| <svg g>\n");
        let frag = Document::parse_fragment("a</textarea>b", "TEXTAREA", &options).unwrap();
        assert_eq!(frag.dump_tree(), "| \"a</textarea>b\"\n");
        let frag = Document::parse_fragment("<form><input></form>", "form", &options).unwrap();
        // The form element pointer points at the context: the nested <form> is ignored.
        assert_eq!(frag.dump_tree(), "| <input>\n");
        assert!(frag.root().is_fragment());
        for bad in ["", "svg ", "math ", "a b", "<td>", "td/"] {
            let err = Document::parse_fragment("x", bad, &options).unwrap_err();
            assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn streaming_equals_whole() {
        let html = "<!DOCTYPE html><title>a&amp;b</title><table>\n <tr><td>x<b>y</td></table>\
                    <svg><foreignObject><p>z</svg><!-- c --><?pi d?>\r\ntext";
        let whole = Document::parse(html);
        for size in 1..8 {
            let mut parser = Parser::new(&ParseOptions::default());
            let mut rest = html;
            while !rest.is_empty() {
                let mut end = size.min(rest.len());
                while !rest.is_char_boundary(end) {
                    end += 1;
                }
                parser.write_str(&rest[..end]);
                rest = &rest[end..];
            }
            let doc = parser.finish();
            assert_eq!(doc.dump_tree(), whole.dump_tree(), "chunks of {size}");
            assert_eq!(doc.errors(), whole.errors(), "chunks of {size}");
        }
    }

    #[test]
    fn verbatim_text_is_not_copied() {
        let doc = Document::parse("<p>hello world</p>");
        let p = doc.body().unwrap().first_child().unwrap();
        let text = p.first_child().unwrap();
        assert_eq!(text.as_text(), Some("hello world"));
        if let NodeData::Text(r) = doc.data(text.node_id().0) {
            assert_eq!(r.source_offset(), Some(3));
        } else {
            panic!("not a text node");
        }
    }
}
