//! The `innerHTML` setter on the mutation API (HTML Standard, "The innerHTML property" and
//! "Parsing HTML fragments"): the fragment parser's nodes replace an element's children. It
//! lives with the parser (it runs one), above the tree's mutation primitives.

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
        let Some(context) = super::context_string(data.ns, name) else {
            return Err(MutationError::InvalidName(name.to_owned()));
        };
        let options = super::ParseOptions::default().with_scripting(self.scripting);
        let fragment = Document::parse_fragment(html, &context, &options)
            .map_err(|_| MutationError::InvalidName(context.clone()))?;
        let target = self.template_contents_of(e).unwrap_or(e);
        // "Replace all with fragment within context": the old children are freed, then the
        // fragment's nodes are inserted, each with the hooks' insertion steps.
        self.remove_children(self.id_of(target))?;
        for child in fragment.root().children() {
            let copy = self.import_subtree(&fragment, child.node_id())?;
            (self.hooks.inserting)(self, target, copy.raw);
            target.append(copy.raw, &mut self.arena);
            (self.hooks.inserted)(self, target, &[copy.raw]);
        }
        self.tree_changed();
        Ok(())
    }
}
