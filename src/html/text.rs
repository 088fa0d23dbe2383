//! Rendered text: [`NodeRef::rendered_text`](super::NodeRef::rendered_text).

use super::names::{AttrNamespace, Namespace, local_name as n};
use crate::dom::{Edge, ElementRef, NodeKind, NodeRef};

/// How an element takes part in rendered text.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Display {
    /// Not rendered: skip the subtree.
    None,
    /// Inline: no breaks around.
    Inline,
    /// A block box: a line break before and after.
    Block,
    /// A paragraph: a blank line before and after.
    Paragraph,
    /// A table row: a line break after.
    Row,
    /// A table cell: a tab before the next cell.
    Cell,
}

fn display(e: ElementRef<'_>, scripting: bool) -> Display {
    match e.namespace() {
        Namespace::Html => {}
        // SVG and MathML: text shows, except the metadata-like SVG elements.
        Namespace::Svg => {
            return if matches!(
                e.local_name(),
                "title" | "desc" | "style" | "script" | "metadata" | "defs"
            ) {
                Display::None
            } else {
                Display::Inline
            };
        }
        Namespace::MathMl => return Display::Inline,
        // Elements of XML documents outside the three namespaces: text shows.
        Namespace::None | Namespace::Other(_) => return Display::Inline,
    }
    if e.attrs().any(|a| {
        a.name == n::HIDDEN && a.namespace == AttrNamespace::None && a.value != "until-found"
    }) {
        return Display::None;
    }
    match e.name().id() {
        n::HEAD
        | n::SCRIPT
        | n::STYLE
        | n::TEMPLATE
        | n::TITLE
        | n::META
        | n::LINK
        | n::BASE
        | n::BASEFONT
        | n::DATALIST
        | n::NOEMBED
        | n::NOFRAMES
        | n::PARAM
        | n::RP
        | n::AREA
        | n::IFRAME
        | n::VIDEO
        | n::AUDIO
        | n::CANVAS
        | n::OBJECT
        | n::EMBED
        | n::IMG
        | n::MAP => Display::None,
        n::NOSCRIPT if scripting => Display::None,
        n::DIALOG if !e.has_attr("open") => Display::None,
        n::INPUT
            if e.attr("type")
                .is_some_and(|t| t.eq_ignore_ascii_case("hidden")) =>
        {
            Display::None
        }
        n::P => Display::Paragraph,
        n::TR => Display::Row,
        n::TD | n::TH => Display::Cell,
        n::HTML
        | n::BODY
        | n::ADDRESS
        | n::BLOCKQUOTE
        | n::CENTER
        | n::DIV
        | n::FIGURE
        | n::FIGCAPTION
        | n::FOOTER
        | n::FORM
        | n::HEADER
        | n::HR
        | n::LEGEND
        | n::LISTING
        | n::MAIN
        | n::PRE
        | n::XMP
        | n::PLAINTEXT
        | n::SEARCH
        | n::ARTICLE
        | n::ASIDE
        | n::H1
        | n::H2
        | n::H3
        | n::H4
        | n::H5
        | n::H6
        | n::HGROUP
        | n::NAV
        | n::SECTION
        | n::DIR
        | n::DD
        | n::DL
        | n::DT
        | n::MENU
        | n::OL
        | n::UL
        | n::LI
        | n::FIELDSET
        | n::DETAILS
        | n::SUMMARY
        | n::TABLE
        | n::CAPTION
        | n::OPTGROUP
        | n::OPTION
        | n::NOSCRIPT
        | n::TEXTAREA
        | n::SELECT => Display::Block,
        _ => Display::Inline,
    }
}

/// Elements whose text keeps its white space (`white-space: pre` and friends).
fn preserves_white_space(e: ElementRef<'_>) -> bool {
    e.namespace() == Namespace::Html
        && matches!(
            e.name().id(),
            n::PRE | n::TEXTAREA | n::LISTING | n::XMP | n::PLAINTEXT
        )
}

fn is_ascii_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

/// The output being built, with the breaks and space not yet written: "required line break
/// count" items only turn into line feeds between pieces of text, never at the start or end.
struct Collector {
    out: String,
    pending_breaks: u8,
    pending_space: bool,
    at_line_start: bool,
}

impl Collector {
    fn require_breaks(&mut self, n: u8) {
        self.pending_breaks = self.pending_breaks.max(n);
        self.pending_space = false;
    }

    fn flush_breaks(&mut self) {
        if self.pending_breaks > 0 && !self.out.is_empty() {
            for _ in 0..self.pending_breaks {
                self.out.push('\n');
            }
            self.at_line_start = true;
        }
        self.pending_breaks = 0;
    }

    /// Writes literal text (a line feed for `<br>`, a tab between cells, preformatted text).
    fn literal(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        self.flush_breaks();
        if self.pending_space && !self.at_line_start {
            self.out.push(' ');
        }
        self.pending_space = false;
        self.out.push_str(s);
        self.at_line_start = s.ends_with('\n');
    }

    /// Writes text with white space collapsed.
    fn collapsible(&mut self, s: &str) {
        for word in s.split(is_ascii_whitespace) {
            if word.is_empty() {
                self.pending_space = true;
                continue;
            }
            self.flush_breaks();
            if self.pending_space && !self.at_line_start {
                self.out.push(' ');
            }
            self.out.push_str(word);
            self.at_line_start = false;
            self.pending_space = true;
        }
        // `split` yields a (non-empty) last word only if `s` does not end in white space.
        if !s.ends_with(is_ascii_whitespace) {
            self.pending_space = false;
        }
    }
}

impl NodeRef<'_> {
    /// Rendered text: what a reader of the page sees, in the spirit of the DOM's `innerText`.
    ///
    /// [`NodeRef::text`](super::NodeRef::text) is `textContent`: every text node, script source and
    /// style sheets included. [`NodeRef::rendered_text`] follows the standard's "rendered text
    /// collection steps" with the user agent style sheet's `display` values instead of a layout
    /// engine:
    ///
    /// - elements that are not rendered are skipped: `head` and its metadata, `script`, `style`,
    ///   `template`, `noscript` when scripting is on, `[hidden]`, `<dialog>` without `open`, a
    ///   closed `<details>` except its `summary`, the fallback content of `iframe`, `video`,
    ///   `audio`, `canvas` and `object`, and `<input type=hidden>`;
    /// - white space collapses as CSS `white-space: normal` does (runs become one space, none at
    ///   line starts or ends), except in `pre`, `textarea`, `listing`, `xmp` and `plaintext`;
    /// - `<br>` is a line break; block boxes (`div`, `li`, headings, ...) start and end lines,
    ///   paragraphs are separated by a blank line; table cells are separated by tabs and rows by
    ///   line breaks.
    ///
    /// ```
    /// let doc = html_arena::Document::parse(
    ///     "<title>T</title><style>p{}</style><h1>Title</h1>\n<p>One   two<br>three</p><p>Four</p>\
    ///      <script>var x;</script><table><tr><td>a<td>b<tr><td>c</table>",
    /// );
    /// assert_eq!(doc.root().rendered_text(), "Title\n\nOne two\nthree\n\nFour\n\na\tb\nc");
    /// ```
    pub fn rendered_text(self) -> String {
        let scripting = self.document().scripting();
        let mut c = Collector {
            out: String::new(),
            pending_breaks: 0,
            pending_space: false,
            at_line_start: true,
        };
        // Depth of elements that preserve white space, and a stack of the displays opened.
        let mut preserving = 0usize;
        let mut displays: Vec<Display> = Vec::new();
        let mut walk = self.traverse();
        while let Some(edge) = walk.next() {
            match edge {
                Edge::Open(node) if node == self => {}
                Edge::Close(node) if node == self => {}
                Edge::Open(node) => match node.kind() {
                    NodeKind::Text(t) => {
                        if preserving > 0 {
                            c.literal(t);
                        } else {
                            c.collapsible(t);
                        }
                    }
                    NodeKind::Element(e) => {
                        if e.is_html(n::BR) {
                            c.literal("\n");
                            walk.skip_subtree();
                            displays.push(Display::Inline);
                            continue;
                        }
                        let d = display(e, scripting);
                        if d == Display::None {
                            walk.skip_subtree();
                        } else if e.is_html(n::DETAILS) && !e.has_attr("open") {
                            // A closed details shows only its summary.
                            c.require_breaks(1);
                            if let Some(summary) =
                                e.element_children().find(|s| s.is_html(n::SUMMARY))
                            {
                                let text = summary.rendered_text();
                                c.literal(&text);
                            }
                            walk.skip_subtree();
                        }
                        match d {
                            Display::Block | Display::Row => c.require_breaks(1),
                            Display::Paragraph => c.require_breaks(2),
                            _ => {}
                        }
                        if preserves_white_space(e) {
                            preserving += 1;
                        }
                        displays.push(d);
                    }
                    _ => walk.skip_subtree(),
                },
                Edge::Close(node) => {
                    let Some(e) = node.as_element() else { continue };
                    let d = displays.pop().unwrap_or(Display::Inline);
                    if preserves_white_space(e) {
                        preserving = preserving.saturating_sub(1);
                    }
                    match d {
                        Display::Block | Display::Row => c.require_breaks(1),
                        Display::Paragraph => c.require_breaks(2),
                        // "If node's computed value of 'display' is 'table-cell', and node's
                        // CSS box is not the last 'table-cell' box of its enclosing
                        // 'table-row' box, then append a string containing a single U+0009."
                        Display::Cell
                            if e.next_element_sibling()
                                .is_some_and(|s| s.is_html(n::TD) || s.is_html(n::TH)) =>
                        {
                            c.pending_space = false;
                            c.literal("\t");
                        }
                        _ => {}
                    }
                }
            }
        }
        c.out
    }
}
