//! The mutation API: create nodes, move and remove subtrees, edit attributes and text, clone
//! and import.
//!
//! Every method checks its arguments and keeps the tree valid: a misuse (a stale id, a cycle,
//! a second document element, text directly under the `Document`) is a [`MutationError`] and
//! leaves the document unchanged. Nothing here recurses on the tree's depth.
//!
//! ```
//! use html_arena::Document;
//!
//! let mut doc = Document::parse("<ul><li>one</li></ul>");
//! let ul = doc.body().unwrap().first_child().unwrap().node_id();
//! let li = doc.new_element("li").unwrap();
//! let text = doc.new_text("two");
//! doc.append(li, text).unwrap();
//! doc.append(ul, li).unwrap();
//! doc.set_attribute(li, "class", "new").unwrap();
//! assert_eq!(doc.node(ul).unwrap().text(), "onetwo");
//! // A node cannot go inside itself:
//! assert!(doc.append(li, ul).is_err());
//! ```

use std::fmt;

use super::names::{AttrNamespace, LocalName, Namespace};
use super::{Attr, AttrRange, Document, ElementData, NodeData, NodeId, PiData, StrRef};

/// Why a mutation was refused. The document is unchanged when one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MutationError {
    /// The id does not name a live node of this document: it was freed
    /// ([`Document::decompose`], or its parent's contents were replaced), or comes from
    /// another document. (A node that was only [`Document::remove`]d stays live.)
    InvalidNode(NodeId),
    /// The change would make the tree invalid; the message says how.
    HierarchyRequest(&'static str),
    /// The node must be an element for this operation.
    NotAnElement(NodeId),
    /// The node must be a text, comment or processing instruction node, or an element.
    NotCharacterData(NodeId),
    /// The name is not a valid element or attribute name.
    InvalidName(String),
}

/// What a stale node id is, in every error that reports one (the Python package's
/// `StaleNodeError` shows this `Display` too): the words after the node.
const STALE_NODE: &str = "is stale: it was freed (decompose(), or its parent's contents \
                              were replaced) or belongs to another document";

impl fmt::Display for MutationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MutationError::InvalidNode(id) => write!(f, "{id:?} {STALE_NODE}"),
            MutationError::HierarchyRequest(why) => write!(f, "invalid tree change: {why}"),
            MutationError::NotAnElement(id) => write!(f, "{id:?} is not an element"),
            MutationError::NotCharacterData(id) => {
                write!(f, "{id:?} has no text of its own to set")
            }
            MutationError::InvalidName(name) => write!(f, "invalid name {name:?}"),
        }
    }
}

impl std::error::Error for MutationError {}

type Result<T> = std::result::Result<T, MutationError>;

/// Where to insert.
#[derive(Copy, Clone)]
enum Place {
    /// As the last child of the parent.
    Append,
    /// As the first child of the parent.
    Prepend,
    /// Before this child of the parent.
    Before(indextree::NodeId),
}

/// "Valid element local name", as lenient as the DOM standard: non-empty, starting with an
/// ASCII letter, `_`, `:` or a non-ASCII character, with no ASCII whitespace, U+0000, `/` or
/// `>` anywhere.
fn valid_element_name(name: &str) -> bool {
    let Some(first) = name.chars().next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_' || first == ':' || !first.is_ascii())
        && !name
            .chars()
            .any(|c| matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ' | '\0' | '/' | '>'))
}

/// "Valid attribute local name": non-empty, with no ASCII whitespace, U+0000, `/`, `=` or `>`.
fn valid_attribute_name(name: &str) -> bool {
    !name.is_empty()
        && !name.chars().any(|c| {
            matches!(
                c,
                '\t' | '\n' | '\x0C' | '\r' | ' ' | '\0' | '/' | '=' | '>'
            )
        })
}

impl Document {
    fn live(&self, id: NodeId) -> Result<indextree::NodeId> {
        match self.arena.get(id.raw) {
            Some(n)
                if id.doc == self.serial && !n.is_removed() && !id.raw.is_removed(&self.arena) =>
            {
                Ok(id.raw)
            }
            _ => Err(MutationError::InvalidNode(id)),
        }
    }

    /// The public id of a node of this document.
    #[inline]
    pub(crate) fn id_of(&self, raw: indextree::NodeId) -> NodeId {
        NodeId {
            raw,
            doc: self.serial,
        }
    }

    pub(crate) fn live_element(&self, id: NodeId) -> Result<indextree::NodeId> {
        let raw = self.live(id)?;
        match self.data(raw) {
            NodeData::Element(_) => Ok(raw),
            _ => Err(MutationError::NotAnElement(id)),
        }
    }

    /// Marks caches derived from the tree as changed; every mutation calls this last. The
    /// layers above update their state first, through the other hooks (`hooks.rs`); the
    /// `changed` hook then drops what they derive from the whole tree.
    pub(crate) fn tree_changed(&mut self) {
        (self.hooks.changed)(self);
    }

    // ---------------------------------------------------------------------------------------
    // Creating nodes (detached: insert them with `append` and friends).

    /// Creates an HTML element (detached). The name is lowercased (ASCII), as the DOM's
    /// `createElement` does in an HTML document.
    ///
    /// ```
    /// let mut doc = html_arena::Document::new();
    /// assert!(doc.new_element("my-widget").is_ok());
    /// assert!(doc.new_element("no spaces").is_err());
    /// ```
    pub fn new_element(&mut self, local_name: &str) -> Result<NodeId> {
        self.new_element_ns(Namespace::Html, local_name)
    }

    /// Creates an element in `namespace` (detached). HTML names are lowercased (ASCII);
    /// SVG and MathML names are kept as given.
    pub fn new_element_ns(&mut self, namespace: Namespace, local_name: &str) -> Result<NodeId> {
        if !valid_element_name(local_name) {
            return Err(MutationError::InvalidName(local_name.to_owned()));
        }
        // (XML documents keep names as given.)
        let name = if namespace == Namespace::Html && !self.is_xml() {
            self.intern(&local_name.to_ascii_lowercase())
        } else {
            self.intern(local_name)
        };
        Ok({
            let raw = self.create_element_raw(name, namespace);
            self.id_of(raw)
        })
    }

    fn create_element_raw(&mut self, name: LocalName, ns: Namespace) -> indextree::NodeId {
        self.create_element(name, ns, AttrRange::default(), 0)
    }

    /// Creates a text node (detached).
    pub fn new_text(&mut self, text: &str) -> NodeId {
        let r = self.strings.push(text);
        {
            let raw = self.new_node(NodeData::Text(r));
            self.id_of(raw)
        }
    }

    /// Creates a comment (detached).
    pub fn new_comment(&mut self, text: &str) -> NodeId {
        {
            let raw = self.create_comment(text, None);
            self.id_of(raw)
        }
    }

    /// Creates a processing instruction (detached).
    pub fn new_processing_instruction(&mut self, target: &str, data: &str) -> NodeId {
        {
            let raw = self.create_processing_instruction(target, data);
            self.id_of(raw)
        }
    }

    /// Creates a DOCTYPE node (detached); it can only go directly under a `Document`.
    pub fn new_doctype(&mut self, name: &str, public_id: &str, system_id: &str) -> NodeId {
        {
            let raw = self.create_doctype(name, public_id, system_id);
            self.id_of(raw)
        }
    }

    /// Creates an empty `DocumentFragment` (detached). Inserting a fragment inserts its
    /// children instead, as in the DOM.
    pub fn new_fragment(&mut self) -> NodeId {
        {
            let raw = self.new_node(NodeData::Fragment);
            self.id_of(raw)
        }
    }

    // ---------------------------------------------------------------------------------------
    // Moving nodes.

    /// Appends `child` as the last child of `parent` (moving it if it is in the tree).
    pub fn append(&mut self, parent: NodeId, child: NodeId) -> Result<()> {
        let p = self.live(parent)?;
        self.insert(p, child, Place::Append)
    }

    /// Inserts `child` as the first child of `parent`.
    pub fn prepend(&mut self, parent: NodeId, child: NodeId) -> Result<()> {
        let p = self.live(parent)?;
        self.insert(p, child, Place::Prepend)
    }

    /// Inserts `node` right before `reference` (which must have a parent).
    pub fn insert_before(&mut self, reference: NodeId, node: NodeId) -> Result<()> {
        let r = self.live(reference)?;
        let parent = self.arena[r]
            .parent()
            .ok_or(MutationError::HierarchyRequest(
                "the reference node has no parent",
            ))?;
        if r == node.raw {
            return Ok(());
        }
        self.insert(parent, node, Place::Before(r))
    }

    /// Inserts `node` right after `reference` (which must have a parent).
    pub fn insert_after(&mut self, reference: NodeId, node: NodeId) -> Result<()> {
        let r = self.live(reference)?;
        let parent = self.arena[r]
            .parent()
            .ok_or(MutationError::HierarchyRequest(
                "the reference node has no parent",
            ))?;
        if r == node.raw {
            return Ok(());
        }
        match self.arena[r].next_sibling() {
            Some(next) if next == node.raw => Ok(()),
            Some(next) => self.insert(parent, node, Place::Before(next)),
            None => self.insert(parent, node, Place::Append),
        }
    }

    /// Replaces `old` with `new` (which moves from wherever it was). `old` is detached and
    /// stays live.
    pub fn replace(&mut self, old: NodeId, new: NodeId) -> Result<()> {
        let o = self.live(old)?;
        self.live(new)?;
        if o == new.raw {
            return Ok(());
        }
        let parent = self.arena[o]
            .parent()
            .ok_or(MutationError::HierarchyRequest(
                "the replaced node has no parent",
            ))?;
        // Validate as if `old` were already gone, so replacing the document element with
        // another element is allowed.
        self.check_insertion(parent, new.raw, Some(o))?;
        let mut n = new.raw;
        if matches!(self.data(n), NodeData::Fragment) && self.arena[n].first_child().is_none() {
            n = o; // Replacing with an empty fragment only removes `old`.
        }
        if n != o {
            (self.hooks.inserting)(self, parent, new.raw);
            self.insert_unchecked(parent, new.raw, Place::Before(o));
        }
        (self.hooks.removing)(self, o);
        self.detach_with_steps(o);
        self.tree_changed();
        Ok(())
    }

    /// Removes `node` from its parent; it stays live and can be inserted again. The same
    /// as [`Document::remove`], which is the DOM's name for it.
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    ///
    /// let mut doc = Document::parse("<p>a<b>b</b></p><i>i</i>");
    /// let b = doc.select_first(&Selector::parse("b")?).unwrap().node_id();
    /// doc.detach(b)?;
    /// assert_eq!(doc.body().unwrap().inner_html(), "<p>a</p><i>i</i>");
    /// let body = doc.body().unwrap().node_id();
    /// doc.append(body, b)?; // still live: it can go back in
    /// assert_eq!(doc.body().unwrap().inner_html(), "<p>a</p><i>i</i><b>b</b>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn detach(&mut self, node: NodeId) -> Result<()> {
        self.remove(node)
    }

    /// Removes `node` from its parent, as the DOM's `remove()` does: the node and its subtree
    /// stay live and detached (readable, and insertable again anywhere in this document);
    /// removing a node that has no parent does nothing. Removing the root is refused. A
    /// removed subtree keeps its memory until the document is dropped: [`Document::decompose`]
    /// frees it.
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    ///
    /// let mut doc = Document::parse("<nav><script>x()</script></nav><footer>f</footer>");
    /// let ids: Vec<_> = doc.select(&Selector::parse("script, nav, footer")?).map(|e| e.node_id()).collect();
    /// for &id in &ids {
    ///     // The script goes out of the removed nav: no error, the nav stays readable.
    ///     doc.remove(id)?;
    /// }
    /// assert_eq!(doc.body().unwrap().inner_html(), "");
    /// assert_eq!(doc.node(ids[0]).unwrap().html(), "<nav></nav>");
    /// doc.remove(ids[0])?; // already detached: nothing to do
    /// let body = doc.body().unwrap().node_id();
    /// doc.append(body, ids[2])?; // the footer goes back in
    /// assert_eq!(doc.body().unwrap().inner_html(), "<footer>f</footer>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remove(&mut self, node: NodeId) -> Result<()> {
        let n = self.live(node)?;
        if n == self.root {
            return Err(MutationError::HierarchyRequest(
                "the root node cannot be removed",
            ));
        }
        // DOM Standard, "remove" (ChildNode's remove()): if the parent is null, return.
        if self.arena[n].parent().is_none() {
            return Ok(());
        }
        (self.hooks.removing)(self, n);
        self.detach_with_steps(n);
        self.tree_changed();
        Ok(())
    }

    /// Removes `node` (if it has a parent) and frees it with its whole subtree (and any
    /// template contents in it): their ids become invalid ([`MutationError::InvalidNode`]),
    /// and their arena slots are reused by new nodes. BeautifulSoup's `decompose()`; use
    /// [`Document::remove`] to keep the subtree. Decomposing the root is refused.
    ///
    /// ```
    /// use html_arena::{Document, MutationError, Selector};
    ///
    /// let mut doc = Document::parse("<p>Text<script>x()</script></p>");
    /// let script = doc.select_first(&Selector::parse("script")?).unwrap().node_id();
    /// doc.decompose(script)?;
    /// assert_eq!(doc.body().unwrap().inner_html(), "<p>Text</p>");
    /// assert!(doc.node(script).is_none());
    /// assert!(matches!(doc.decompose(script), Err(MutationError::InvalidNode(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decompose(&mut self, node: NodeId) -> Result<()> {
        let n = self.live(node)?;
        if n == self.root {
            return Err(MutationError::HierarchyRequest(
                "the root node cannot be removed",
            ));
        }
        // The index learns of the removal while the node is still in place (the walk hints
        // move past it in document order), then the removing steps run.
        (self.hooks.removing)(self, n);
        self.detach_with_steps(n);
        // Template contents hang off their templates outside the tree: free them too.
        let mut work = vec![n];
        while let Some(top) = work.pop() {
            if top != n {
                (self.hooks.removing)(self, top);
            }
            // Freed slots are reused by new nodes, which must not inherit these spans.
            if let Some(positions) = self.positions.as_mut() {
                for d in top.descendants(&self.arena) {
                    positions.clear(d);
                }
            }
            let templates: Vec<indextree::NodeId> = top
                .descendants(&self.arena)
                .filter(|d| self.template_contents.contains_key(d))
                .collect();
            for t in templates {
                if let Some(contents) = self.template_contents.remove(&t) {
                    work.push(contents);
                }
            }
            top.remove_subtree(&mut self.arena);
        }
        self.tree_changed();
        Ok(())
    }

    /// Removes all children of `node` and frees them (as [`Document::decompose`] does): their
    /// ids become invalid. To keep a child, [`Document::remove`] it first.
    pub fn remove_children(&mut self, node: NodeId) -> Result<()> {
        let n = self.live(node)?;
        while let Some(c) = self.arena[n].first_child() {
            self.decompose(self.id_of(c))?;
        }
        Ok(())
    }

    /// Checks the DOM's "ensure pre-insertion validity" (simplified to this crate's node
    /// types): `parent` can have children, `node` is not an inclusive ancestor of `parent`,
    /// and a `Document` keeps at most one element and one DOCTYPE, no text, DOCTYPE first.
    /// `ignoring` is a child about to be replaced.
    fn check_insertion(
        &self,
        parent: indextree::NodeId,
        node: indextree::NodeId,
        ignoring: Option<indextree::NodeId>,
    ) -> Result<()> {
        match self.data(parent) {
            NodeData::Document | NodeData::Fragment | NodeData::Element(_) => {}
            _ => {
                return Err(MutationError::HierarchyRequest(
                    "only documents, fragments and elements have children",
                ));
            }
        }
        if matches!(self.data(node), NodeData::Document) {
            return Err(MutationError::HierarchyRequest(
                "a document cannot be inserted",
            ));
        }
        // A node without children cannot be an ancestor of anything: skip the walk for the
        // common case of inserting a new node.
        if node == parent
            || (self.arena[node].first_child().is_some()
                && parent.ancestors(&self.arena).any(|a| a == node))
        {
            return Err(MutationError::HierarchyRequest(
                "a node cannot be inserted inside itself",
            ));
        }
        let is_document = matches!(self.data(parent), NodeData::Document);
        if matches!(self.data(node), NodeData::Doctype(_)) && !is_document {
            return Err(MutationError::HierarchyRequest(
                "a DOCTYPE can only be a child of a document",
            ));
        }
        if !is_document {
            return Ok(());
        }
        // The nodes that would be inserted (a fragment's children, or the node).
        let incoming: Vec<indextree::NodeId> = if matches!(self.data(node), NodeData::Fragment) {
            node.children(&self.arena).collect()
        } else {
            vec![node]
        };
        let existing = parent
            .children(&self.arena)
            .filter(|&c| Some(c) != ignoring && !incoming.contains(&c));
        let (mut elements, mut doctypes) = (0, 0);
        for c in existing.chain(incoming.iter().copied()) {
            match self.data(c) {
                NodeData::Element(_) => elements += 1,
                NodeData::Doctype(_) => doctypes += 1,
                NodeData::Text(_) => {
                    return Err(MutationError::HierarchyRequest(
                        "a document cannot have text children",
                    ));
                }
                _ => {}
            }
        }
        if elements > 1 {
            return Err(MutationError::HierarchyRequest(
                "a document can have only one element child",
            ));
        }
        if doctypes > 1 {
            return Err(MutationError::HierarchyRequest(
                "a document can have only one DOCTYPE",
            ));
        }
        Ok(())
    }

    fn insert(&mut self, parent: indextree::NodeId, node: NodeId, place: Place) -> Result<()> {
        let n = self.live(node)?;
        self.check_insertion(parent, n, None)?;
        (self.hooks.inserting)(self, parent, n);
        self.insert_unchecked(parent, n, place);
        self.tree_changed();
        Ok(())
    }

    /// Inserts a validated node; a fragment contributes its children instead.
    fn insert_unchecked(
        &mut self,
        parent: indextree::NodeId,
        node: indextree::NodeId,
        place: Place,
    ) {
        let nodes: Vec<indextree::NodeId> = if matches!(self.data(node), NodeData::Fragment) {
            node.children(&self.arena).collect()
        } else {
            vec![node]
        };
        // Moving is removing (with the removing steps) and inserting.
        for &n in &nodes {
            self.detach_with_steps(n);
        }
        match place {
            Place::Append => {
                for n in nodes.iter().copied() {
                    n.detach(&mut self.arena);
                    parent.append(n, &mut self.arena);
                }
            }
            Place::Before(reference) => {
                for n in nodes.iter().copied() {
                    n.detach(&mut self.arena);
                    reference.insert_before(n, &mut self.arena);
                }
            }
            Place::Prepend => {
                for n in nodes.iter().copied().rev() {
                    n.detach(&mut self.arena);
                    parent.prepend(n, &mut self.arena);
                }
            }
        }
        // The insertion and post-connection steps.
        (self.hooks.inserted)(self, parent, &nodes);
    }

    // ---------------------------------------------------------------------------------------
    // Attributes.

    /// Sets an attribute (no namespace) on an element, replacing any existing value. On HTML
    /// elements the name is lowercased (ASCII), as `setAttribute` does.
    pub fn set_attribute(&mut self, element: NodeId, name: &str, value: &str) -> Result<()> {
        self.set_attribute_ns(element, AttrNamespace::None, name, value)
    }

    /// Sets an attribute with a namespace (`xlink:href` is `(AttrNamespace::XLink, "href")`).
    pub fn set_attribute_ns(
        &mut self,
        element: NodeId,
        namespace: AttrNamespace,
        name: &str,
        value: &str,
    ) -> Result<()> {
        let e = self.live_element(element)?;
        if !valid_attribute_name(name) {
            return Err(MutationError::InvalidName(name.to_owned()));
        }
        let data = *self
            .element_data(e)
            .ok_or(MutationError::NotAnElement(element))?;
        let lowered;
        let name =
            if data.ns == Namespace::Html && namespace == AttrNamespace::None && !self.is_xml() {
                lowered = name.to_ascii_lowercase();
                lowered.as_str()
            } else {
                name
            };
        let name = self.intern(name);
        let value = self.strings.push(value);
        let value = self.strings.pack(value);
        // Attribute runs are shared and never modified in place: write a new run.
        let old = self.attrs_of(&data).to_vec();
        let mark = self.attrs_mark();
        let mut replaced = false;
        for mut a in old {
            if a.name == name && a.ns == namespace {
                a.value = value;
                replaced = true;
            }
            self.attrs.push(a);
        }
        if !replaced {
            self.attrs.push(Attr {
                name,
                ns: namespace,
                value,
            });
        }
        let range = self.attrs_since(mark);
        if let NodeData::Element(d) = self.data_mut(e) {
            d.attrs = range;
        }
        (self.hooks.attribute_changed)(self, e, name, true);
        self.tree_changed();
        Ok(())
    }

    /// Removes an attribute (no namespace; lowercased on HTML elements). Returns whether it was
    /// there.
    pub fn remove_attribute(&mut self, element: NodeId, name: &str) -> Result<bool> {
        let e = self.live_element(element)?;
        let data = *self
            .element_data(e)
            .ok_or(MutationError::NotAnElement(element))?;
        let name = if data.ns == Namespace::Html && !self.is_xml() {
            name.to_ascii_lowercase()
        } else {
            name.to_owned()
        };
        let Some(id) = self.names.get(&name) else {
            return Ok(false);
        };
        let old = self.attrs_of(&data).to_vec();
        if !old
            .iter()
            .any(|a| a.name == id && a.ns == AttrNamespace::None)
        {
            return Ok(false);
        }
        let mark = self.attrs_mark();
        for a in old {
            if !(a.name == id && a.ns == AttrNamespace::None) {
                self.attrs.push(a);
            }
        }
        let range = self.attrs_since(mark);
        if let NodeData::Element(d) = self.data_mut(e) {
            d.attrs = range;
        }
        (self.hooks.attribute_changed)(self, e, id, false);
        self.tree_changed();
        Ok(true)
    }

    // ---------------------------------------------------------------------------------------
    // Text.

    /// Sets a node's text: the data of a text node, comment or processing instruction; for an
    /// element (or fragment, or document), replaces all children with one text node (the DOM's
    /// `textContent` setter; an empty string leaves no children).
    pub fn set_text(&mut self, node: NodeId, text: &str) -> Result<()> {
        let n = self.live(node)?;
        match self.data(n).clone() {
            NodeData::Text(mut r) => {
                self.strings.replace(&mut r, text);
                *self.data_mut(n) = NodeData::Text(r);
            }
            NodeData::Comment(mut r) => {
                self.strings.replace(&mut r, text);
                *self.data_mut(n) = NodeData::Comment(r);
            }
            NodeData::ProcessingInstruction(pi) => {
                let mut data = pi.data;
                self.strings.replace(&mut data, text);
                *self.data_mut(n) = NodeData::ProcessingInstruction(Box::new(PiData {
                    target: pi.target,
                    data,
                }));
            }
            NodeData::Element(_) | NodeData::Fragment => {
                self.remove_children(node)?;
                if !text.is_empty() {
                    let t = self.new_text(text);
                    n.append(t.raw, &mut self.arena);
                    self.children_changed(n);
                }
            }
            NodeData::Document => {
                return Err(MutationError::HierarchyRequest(
                    "a document cannot have text children",
                ));
            }
            NodeData::Doctype(_) => return Err(MutationError::NotCharacterData(node)),
        }
        self.tree_changed();
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // Cloning and importing.

    /// Deep-clones `node` (with template contents); the clone is detached. Strings and
    /// attribute runs are shared with the original, not copied.
    pub fn clone_subtree(&mut self, node: NodeId) -> Result<NodeId> {
        let n = self.live(node)?;
        let copy = self.deep_clone(n).ok_or(MutationError::InvalidNode(node))?;
        self.tree_changed();
        Ok(self.id_of(copy))
    }

    /// Copies the subtree at `node` of `source` (with template contents) into this document,
    /// detached: names are re-interned and strings copied.
    pub fn import_subtree(&mut self, source: &Document, node: NodeId) -> Result<NodeId> {
        let root = source.live(node)?;
        // (node of `source`, parent of its copy here, whether it goes into template contents)
        let mut work: Vec<(indextree::NodeId, Option<indextree::NodeId>, bool)> =
            vec![(root, None, false)];
        let mut copied_root = None;
        while let Some((from, parent, into_contents)) = work.pop() {
            let copy = self.import_node(source, from);
            match parent {
                Some(p) => {
                    let target = if into_contents {
                        self.template_contents_of(p).unwrap_or(p)
                    } else {
                        p
                    };
                    target.append(copy, &mut self.arena);
                }
                None => copied_root = Some(copy),
            }
            // LIFO: push in reverse so children are appended in order.
            for c in from.children(&source.arena).rev() {
                work.push((c, Some(copy), false));
            }
            if let Some(contents) = source.template_contents_of(from) {
                for c in contents.children(&source.arena).rev() {
                    work.push((c, Some(copy), true));
                }
            }
        }
        self.tree_changed();
        copied_root
            .map(|raw| self.id_of(raw))
            .ok_or(MutationError::InvalidNode(node))
    }

    /// Copies one node of another document (not its children).
    fn import_node(&mut self, src: &Document, from: indextree::NodeId) -> indextree::NodeId {
        let copy_str = |this: &mut Document, r: StrRef| this.strings.push(src.str(r));
        match src.data(from) {
            NodeData::Document | NodeData::Fragment => self.new_node(NodeData::Fragment),
            NodeData::Doctype(d) => self.create_doctype(&d.name, &d.public_id, &d.system_id),
            NodeData::Text(r) => {
                let r = copy_str(self, *r);
                self.new_node(NodeData::Text(r))
            }
            NodeData::Comment(r) => {
                let r = copy_str(self, *r);
                self.new_node(NodeData::Comment(r))
            }
            NodeData::ProcessingInstruction(pi) => {
                let target = copy_str(self, pi.target);
                let data = copy_str(self, pi.data);
                self.new_node(NodeData::ProcessingInstruction(Box::new(PiData {
                    target,
                    data,
                })))
            }
            NodeData::Element(e) => self.copy_element_data(src, e),
        }
    }

    /// A detached element of this document with the name, namespace, flags and attributes
    /// of `src`'s element data `e` (no children).
    pub(crate) fn copy_element_data(
        &mut self,
        src: &Document,
        e: &ElementData,
    ) -> indextree::NodeId {
        let name = self.copy_name(src, e.name);
        let range = self.copy_attrs(src, e);
        self.create_element(name, e.ns, range, e.flags)
    }
}
