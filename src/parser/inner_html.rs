//! The `innerHTML` setter on the mutation API (HTML Standard, "The innerHTML property" and
//! "Parsing HTML fragments"): the fragment parser's nodes replace an element's children. It
//! lives with the parser (it runs one), above the tree's mutation primitives.

use crate::dom::names::Namespace;
use crate::dom::{Document, MutationError, NodeId};

type Result<T> = std::result::Result<T, MutationError>;

impl Document {
    /// Replaces the children of `element` (for a `template`, its contents) with the nodes
    /// parsed from `html` as the element's contents: the DOM's `innerHTML` setter, running
    /// the fragment parsing algorithm with `element` as the context.
    ///
    /// ```
    /// use html_arena::Document;
    /// let mut doc = Document::parse("<table><tr id=row><td>old</table>");
    /// let row = doc.root().descendants().find(|n| n.as_element().is_some_and(|e| e.id() == Some("row"))).unwrap().node_id();
    /// doc.set_inner_html(row, "<td>a<td>b").unwrap();
    /// assert_eq!(doc.node(row).unwrap().inner_html(), "<td>a</td><td>b</td>");
    /// ```
    pub fn set_inner_html(&mut self, element: NodeId, html: &str) -> Result<()> {
        let e = self.live_element(element)?;
        let data = *self
            .element_data(e)
            .ok_or(MutationError::NotAnElement(element))?;
        let name = self.name_str(data.name);
        let context = match data.ns {
            Namespace::Html => name.to_owned(),
            Namespace::Svg => format!("svg {name}"),
            Namespace::MathMl => format!("math {name}"),
            // An element of an XML document outside the three namespaces: no HTML context.
            Namespace::None | Namespace::Other(_) => {
                return Err(MutationError::InvalidName(name.to_owned()));
            }
        };
        let options = super::ParseOptions::default().with_scripting(self.scripting);
        let fragment = Document::parse_fragment(html, &context, &options)
            .map_err(|_| MutationError::InvalidName(context.clone()))?;
        let target = self.template_contents_of(e).unwrap_or(e);
        // The old children are freed (as `remove_children` does).
        while let Some(child) = self.arena[target].first_child() {
            self.decompose(self.id_of(child))?;
        }
        for child in fragment.root().children() {
            let copy = self.import_subtree(&fragment, child.node_id())?;
            (self.hooks.inserting)(self, target, copy.raw);
            target.append(copy.raw, &mut self.arena);
            self.steps_after_insert(copy.raw);
            self.index_inserted(target, &[copy.raw]);
        }
        self.tree_changed();
        Ok(())
    }
}
