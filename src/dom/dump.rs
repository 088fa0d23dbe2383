//! The html5lib-tests tree format: what the conformance tests compare, and what the `tree`
//! example prints.
//!
//! ```text
//! | <!DOCTYPE html>
//! | <html>
//! |   <head>
//! |   <body>
//! |     <p>
//! |       class="x"
//! |       "Hi"
//! ```

use std::fmt::Write as _;

use super::Document;
use super::names::{AttrNamespace, Namespace};
use super::node::{NodeKind, NodeRef};

impl Document {
    /// The tree in the html5lib-tests format: one line per node, `| ` then two spaces per
    /// level; attributes sorted by name one level deeper; a template's contents under a
    /// `content` line. For a fragment, the fragment's children are at depth 0.
    ///
    /// ```
    /// let doc = html_arena::Document::parse("<!DOCTYPE html><p class=x>Hi");
    /// assert_eq!(doc.dump_tree(), "\
    /// | <!DOCTYPE html>
    /// | <html>
    /// |   <head>
    /// |   <body>
    /// |     <p>
    /// |       class=\"x\"
    /// |       \"Hi\"
    /// ");
    /// ```
    pub fn dump_tree(&self) -> String {
        let mut out = String::new();
        dump_children(self.root(), 0, &mut out, usize::MAX);
        out
    }

    /// The start of [`Document::dump_tree`]: whole lines, stopping once `limit` bytes are
    /// written (a single longer line, such as a huge text node's, is cut at `limit` bytes);
    /// the second value says whether it stopped early. The dump of a tree `d` levels
    /// deep has lines `2d` bytes long, so whole dumps of hostile pages can be enormous; this
    /// is what `Debug` prints.
    ///
    /// ```
    /// let doc = html_arena::Document::parse(&"<div>".repeat(10_000));
    /// let (start, cut) = doc.dump_tree_prefix(1_000);
    /// assert!(cut && start.len() < 1_000 + 100);
    /// assert!(start.starts_with("| <html>\n|   <head>\n"));
    /// ```
    pub fn dump_tree_prefix(&self, limit: usize) -> (String, bool) {
        let mut out = String::new();
        let mut cut = dump_children(self.root(), 0, &mut out, limit);
        // One node's line can be long (a 20 MB text): cut it too, at a character boundary,
        // and end the cut line.
        if out.len() > limit {
            let mut end = limit;
            while !out.is_char_boundary(end) {
                end -= 1;
            }
            out.truncate(end);
            out.push('\n');
            cut = true;
        }
        (out, cut)
    }
}

impl NodeRef<'_> {
    /// This node and its subtree in the html5lib-tests format, this node at depth 0.
    pub fn dump_tree(self) -> String {
        let mut out = String::new();
        dump_from(vec![(self, 0)], &mut out, usize::MAX);
        out
    }
}

fn dump_children(parent: NodeRef<'_>, depth: usize, out: &mut String, limit: usize) -> bool {
    let stack: Vec<(NodeRef<'_>, usize)> = parent.children().rev().map(|c| (c, depth)).collect();
    dump_from(stack, out, limit)
}

fn line(out: &mut String, depth: usize) {
    out.push_str("| ");
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// Walks with an explicit stack (nodes pushed in reverse), so depth costs no call stack.
/// Stops before a node once `out` holds `limit` bytes; returns whether it stopped early.
fn dump_from<'a>(mut stack: Vec<(NodeRef<'a>, usize)>, out: &mut String, limit: usize) -> bool {
    while let Some((node, depth)) = stack.pop() {
        if out.len() >= limit {
            return true;
        }
        line(out, depth);
        match node.kind() {
            NodeKind::Document | NodeKind::Fragment => out.push_str("#document"),
            NodeKind::Doctype {
                name,
                public_id,
                system_id,
            } => {
                if public_id.is_empty() && system_id.is_empty() {
                    let _ = write!(out, "<!DOCTYPE {name}>");
                } else {
                    let _ = write!(out, "<!DOCTYPE {name} \"{public_id}\" \"{system_id}\">");
                }
            }
            NodeKind::Text(t) => {
                let _ = write!(out, "\"{t}\"");
            }
            NodeKind::Comment(t) => {
                let _ = write!(out, "<!-- {t} -->");
            }
            NodeKind::ProcessingInstruction { target, data } => {
                let _ = write!(out, "<?{target} {data}?>");
            }
            NodeKind::Element(e) => {
                match e.namespace() {
                    Namespace::Html => out.push('<'),
                    Namespace::Svg => out.push_str("<svg "),
                    Namespace::MathMl => out.push_str("<math "),
                    // XML documents: `<{URI} local>`, `<{} local>` for no namespace.
                    ns @ (Namespace::None | Namespace::Other(_)) => {
                        out.push_str("<{");
                        out.push_str(e.document().namespace_url(ns));
                        out.push_str("} ");
                    }
                }
                out.push_str(e.local_name());
                out.push('>');
                let mut attrs: Vec<(String, &str)> = e
                    .attrs()
                    .map(|a| {
                        let name = match a.namespace {
                            AttrNamespace::None => a.local_name.to_owned(),
                            AttrNamespace::XLink => format!("xlink {}", a.local_name),
                            AttrNamespace::Xml => format!("xml {}", a.local_name),
                            AttrNamespace::Xmlns => format!("xmlns {}", a.local_name),
                            ns @ AttrNamespace::Other(_) => format!(
                                "{{{}}} {}",
                                e.document().attr_namespace_url(ns).unwrap_or(""),
                                a.local_name
                            ),
                        };
                        (name, a.value)
                    })
                    .collect();
                attrs.sort();
                for (name, value) in attrs {
                    out.push('\n');
                    line(out, depth + 1);
                    let _ = write!(out, "{name}=\"{value}\"");
                }
                // Own children come after the template contents; the stack is LIFO.
                stack.extend(node.children().rev().map(|c| (c, depth + 1)));
                if let Some(contents) = e.template_contents() {
                    out.push('\n');
                    line(out, depth + 1);
                    out.push_str("content");
                    stack.extend(contents.children().rev().map(|c| (c, depth + 2)));
                }
            }
        }
        out.push('\n');
    }
    false
}
