//! `--pretty`: HTML indented for reading, a line per block.
//!
//! An element whose children are all text and phrasing elements (`a`, `b`, `span`, ...) is
//! printed on one line, as the serialization algorithm writes it; so are elements whose
//! white space matters (`pre`, `textarea`, `script`, `style`, ...) and templates. Other
//! elements get their start tag, their children indented by two spaces a line each, and
//! their end tag. Text between blocks is trimmed, and dropped when only white space. The
//! result is for reading: parsed again, it differs from the input in that white space.
//!
//! The walk is iterative (a page nested a million deep is fine), every node is looked at a
//! bounded number of times and indentation stops growing at 40 levels: the cost is linear in
//! the input.

use html_arena::dom::Edge;
use html_arena::{ElementRef, Namespace, NodeKind, NodeRef};

/// The pretty-printed HTML of `node` and its subtree (a document's or fragment's children).
pub fn pretty(node: NodeRef<'_>) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut walk = node.traverse();
    while let Some(edge) = walk.next() {
        match edge {
            Edge::Open(n) => match n.kind() {
                NodeKind::Document | NodeKind::Fragment => {}
                NodeKind::Element(e) if expands(e) => {
                    line(&mut out, depth);
                    start_tag(&mut out, e);
                    depth += 1;
                }
                NodeKind::Element(_) => {
                    line(&mut out, depth);
                    out.push_str(&n.html());
                    walk.skip_subtree();
                }
                NodeKind::Text(text) => {
                    let text = text.trim_matches(is_white_space);
                    if !text.is_empty() {
                        line(&mut out, depth);
                        // Runs of white space inside the text become one space.
                        let mut words = text.split(is_white_space).filter(|w| !w.is_empty());
                        if let Some(word) = words.next() {
                            escape(&mut out, word, false);
                        }
                        for word in words {
                            out.push(' ');
                            escape(&mut out, word, false);
                        }
                    }
                }
                _ => {
                    line(&mut out, depth);
                    out.push_str(&n.html());
                }
            },
            Edge::Close(n) => {
                if let Some(e) = n.as_element().filter(|&e| expands(e)) {
                    depth = depth.saturating_sub(1);
                    line(&mut out, depth);
                    out.push_str("</");
                    out.push_str(e.local_name());
                    out.push('>');
                }
            }
        }
    }
    out
}

/// The deepest indentation: deeper levels are indented as much (else a page nested 100,000
/// deep would print gigabytes of spaces).
const MAX_INDENT: usize = 40;

/// Starts a line at `depth` (no line break before the first).
fn line(out: &mut String, depth: usize) {
    if !out.is_empty() {
        out.push('\n');
    }
    for _ in 0..depth.min(MAX_INDENT) {
        out.push_str("  ");
    }
}

/// ASCII white space (HTML's).
fn is_white_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

/// Whether `e` is printed as a block: it has children, and one of them is an element that
/// is not phrasing content, and its white space does not matter. (Looks at `e`'s children
/// only, so the whole walk stays linear.)
fn expands(e: ElementRef<'_>) -> bool {
    if e.namespace() == Namespace::Html
        && matches!(
            e.local_name(),
            "pre"
                | "textarea"
                | "listing"
                | "xmp"
                | "plaintext"
                | "script"
                | "style"
                | "template"
                | "title"
                | "noscript"
                | "iframe"
                | "noembed"
                | "noframes"
        )
    {
        return false;
    }
    e.as_node()
        .children()
        .filter_map(|c| c.as_element())
        .any(|c| c.namespace() != Namespace::Html || !is_phrasing(c.local_name()))
}

/// Elements that sit inside a line of text.
fn is_phrasing(name: &str) -> bool {
    matches!(
        name,
        "a" | "abbr"
            | "b"
            | "bdi"
            | "bdo"
            | "big"
            | "br"
            | "button"
            | "cite"
            | "code"
            | "data"
            | "del"
            | "dfn"
            | "em"
            | "font"
            | "i"
            | "img"
            | "input"
            | "ins"
            | "kbd"
            | "label"
            | "mark"
            | "nobr"
            | "q"
            | "s"
            | "samp"
            | "small"
            | "span"
            | "strike"
            | "strong"
            | "sub"
            | "sup"
            | "time"
            | "tt"
            | "u"
            | "var"
            | "wbr"
    )
}

/// The start tag as the serialization algorithm writes it (13.3 "Serializing HTML
/// fragments": the tag name, then each attribute's serialized name and escaped value).
fn start_tag(out: &mut String, e: ElementRef<'_>) {
    out.push('<');
    out.push_str(e.local_name());
    for a in e.attrs() {
        out.push(' ');
        if let Some(prefix) = a.prefix() {
            out.push_str(prefix);
            out.push(':');
        }
        out.push_str(a.local_name);
        out.push_str("=\"");
        escape(out, a.value, true);
        out.push('"');
    }
    out.push('>');
}

/// "Escaping a string": `&`, no-break space, `<` and `>`, and in attribute mode `"`.
fn escape(out: &mut String, s: &str, attribute: bool) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '\u{A0}' => out.push_str("&nbsp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use html_arena::Document;

    #[test]
    fn blocks_indent_and_lines_stay_whole() {
        let doc = Document::parse(
            "<div id=a class='x\"y'>\n  <p>One <b>two</b>  three</p>\n <ul><li>a<li>b</ul>\
             <pre>\n keep  this</pre>tail &amp; <!--c--></div>",
        );
        let div = doc.body().unwrap().first_child().unwrap();
        assert_eq!(
            pretty(div),
            "<div id=\"a\" class=\"x&quot;y\">\n  <p>One <b>two</b>  three</p>\n  <ul>\n    \
             <li>a</li>\n    <li>b</li>\n  </ul>\n  <pre> keep  this</pre>\n  tail &amp;\n  \
             <!--c-->\n</div>"
        );
    }

    #[test]
    fn a_deep_tree_is_fine() {
        let doc = Document::parse(&"<div>".repeat(100_000));
        let text = pretty(doc.root());
        // <html>, <head></head>, <body>, 99,999 <div> and </div>, the innermost <div></div>,
        // </body>, </html>.
        assert_eq!(text.lines().count(), 5 + 2 * 99_999 + 1);
        assert!(text.lines().all(|l| l.len() <= 2 * MAX_INDENT + 11));
    }
}
