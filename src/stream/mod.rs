//! Selecting while parsing: the matches of CSS selectors, in document order, each handed out
//! as soon as the tree construction algorithm can no longer change it, with memory bounded by
//! what is still open.
//!
//! [`StreamParser`] takes the input in chunks of any size (bytes, sniffed and decoded as
//! [`Document::parse_bytes`] does, or text), runs the standard's tree construction on a lean
//! document ([`ParseOptions::keep_source`] off), and after each piece of input walks the tree
//! in document order as far as the tree is *final*: each element a selector matches is copied
//! into a small [`StreamMatch`] (its subtree, and its ancestors when the selector looks at
//! them), and each subtree the walk has left is freed (its slots, strings and attributes are
//! reused). The answers are those of [`Document::select`] on the whole document: the same
//! elements, in the same order, serializing the same.
//!
//! ```
//! use html_arena::stream::StreamParser;
//! use html_arena::{ParseOptions, Selector};
//!
//! let selector = Selector::parse("tr.total > td")?;
//! let mut parser = StreamParser::new(&[selector], &ParseOptions::default())?;
//! let mut cells = Vec::new();
//! for chunk in ["<table><tr class=total><td>1", "2<td>3</table>", "<p>after"] {
//!     parser.write_str(chunk)?;
//!     while let Some(m) = parser.next_match() {
//!         cells.push(m.element().text());
//!     }
//! }
//! parser.finish()?;
//! while let Some(m) = parser.next_match() {
//!     cells.push(m.element().text());
//! }
//! assert_eq!(cells, ["12", "3"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # When is an element final
//!
//! The walk keeps a path from the document to where it is. It *enters* an element (looks at
//! its children) when the element can no longer be moved nor have its children moved, and
//! *leaves* it (and frees it) when nothing can be inserted into it any more. A selector's
//! answer for an element is decided when the walk enters it and the element is closed as
//! well: then the element, its subtree and its ancestors are what they will be in the
//! finished document. Between pieces of input the parser's state says which elements are
//! *open* (on the stack of open elements, or an ancestor of one) and which are *volatile*:
//!
//! 1. An element on the stack of open elements, or an ancestor of one, is open: nodes are
//!    still inserted into it (13.2.6.1 "the appropriate place for inserting a node": the
//!    current node, or the foster parent just before an open `table`, whose previous text
//!    node may grow). Elements leave the stack from the middle while their descendants stay
//!    on it (the "in body" `</form>` end tag, the `a` and `nobr` start tags' run of the
//!    adoption agency algorithm, its inner loop's "remove node from the stack"): such an
//!    element is open through its descendants, so the walk never leaves it early.
//! 2. The adoption agency algorithm (13.2.6.4.7, steps 4.x) takes a formatting element that
//!    is both in the list of active formatting elements and on the stack, and moves the
//!    elements below it on the stack (the furthest block and the nodes of its inner loop,
//!    with all their descendants, closed ones included), and the children of the furthest
//!    block. So every element on the stack below the topmost element that is in the list
//!    (markers are ignored: a marker's section is cleared when its element is popped, and
//!    the elements between the formatting element and that one stay movable) is volatile.
//!    Elements above it stay where they are: new formatting elements only ever go below.
//! 3. The "in body" `frameset` start tag removes the second element of the stack (the `body`)
//!    with everything in it while the frameset-ok flag is "ok": the `body` is volatile until
//!    the flag is "not ok" (it never goes back).
//! 4. "After head" pushes the `head` element back on the stack for `base`, `link`, `meta`,
//!    `noframes`, `script`, `style`, `template` and `title` start tags: the `head` is
//!    volatile until a `body` or `frameset` is the second element on the stack.
//! 5. Popping an `option` clones it into its `select`'s `selectedcontent` (4.10.10 "maybe
//!    clone an option into selectedcontent"), which may come earlier: an open `select` is
//!    volatile.
//! 6. An element kept out of the tree while it is open deep in the stack (the parser's
//!    stand-ins for depth beyond 64 open elements, see `dom/build.rs`) is volatile.
//! 7. The `html` and `body` elements take the attributes of later `<html>` and `<body>` tags
//!    until the end of the input (the "in body" `html` and `body` start tags). They are open
//!    until the end, so their own answers wait; a selector that tests the attributes of an
//!    ancestor compound that could be `html` or `body` (no type selector other than those)
//!    is refused (see below).
//!
//! 8. Foster parenting (13.2.6.1, with the "in table" insertion mode's "anything else"
//!    entry) inserts before an open `table` only nodes the "in body" rules make, the nodes
//!    the adoption agency algorithm moves (elements pushed after a formatting element that
//!    is in table scope, so made by the "in body" rules too: the table-row and cell modes
//!    clear the stack back to a table context, and cells push a marker), and their
//!    descendants, made by the "in body" rules or as foreign elements. The "in body" rules
//!    ignore `caption`, `col`, `colgroup`, `tbody`, `td`, `tfoot`, `th`, `thead` and `tr`
//!    start tags ("Parse error. Ignore the token."), so an HTML element of one of those
//!    names is never foster-parented. A match inside an open table is held back (see
//!    [`HOLD_LIMIT`]) in case a fostered match comes before it, unless every selector's
//!    subject has one of those types (`tr`, `table.data td`): then it is handed out at once,
//!    and only a foreign element of such a name (an `svg` child named `tr`) fostered later
//!    could come too late ([`StreamError::OutOfOrder`]).
//!
//! The walk does not enter a volatile element (nor, so, anything under it), does not decide
//! an open element, and does not leave an open one. Template contents are not in the
//! document tree (`select` does not look into them); a `template` element is decided when it
//! is closed, which closes its contents too.
//!
//! While the encoding of byte input may still change (the bytes are held for sniffing, or
//! decoded with a tentative confidence, when a `<meta>` can restart the parse: 13.2.3.4),
//! nothing is decided.
//!
//! One option counts differently: [`ParseOptions::max_nodes`] limits the nodes the parse's
//! document holds, and a streaming parse holds few, so a document so amplified that a full
//! parse stops at the limit is parsed further here.
//!
//! # Selectors
//!
//! Accepted: type, universal, id, class and attribute selectors, the descendant and child
//! combinators, the next-sibling combinator `+` (see below), `:is()`, `:where()`, `:not()`,
//! `:root`, `:empty`, `:first-child`,
//! `:nth-child(an+b)`, `:first-of-type`, `:nth-of-type(an+b)` (see below), `:has()` with
//! descendant and child relative selectors (anything inside them: the match's subtree is
//! copied whole), the text pseudo-classes on the subject, `:link`,
//! `:any-link`, `:defined`, `:required`, `:optional`, `:placeholder-shown`, `:open`, the
//! pseudo-classes that never match a static document, and pseudo-elements (which match
//! nothing). [`StreamParser::new`] refuses the rest with [`StreamError::Unsupported`],
//! naming the part:
//!
//! - the subsequent-sibling combinator `~` and chains of `+` (`h1 + h2 + p`: the walk frees
//!   what it leaves, and keeps only the last element before each), `+` with a previous
//!   sibling compound that looks at content or position (`p:empty + p`), `+` together
//!   with position tests, `:nth-child(an+b of S)`, and the pseudo-classes that need later
//!   siblings (`:last-child`, `:only-child`, `:nth-last-*()`, `:last-of-type`,
//!   `:only-of-type`);
//! - a position test (or `+`) on an ancestor compound that could match a `table`
//!   (`:first-child td`:
//!   foster parenting inserts before an open table, so its position is not final while
//!   its cells are decided; name the type, `tr:first-child td`), and `an+b` tests whose
//!   `b`, or least common multiple of `a`s, pass 1,024 (see below);
//! - `:has()` with `+` or `~`, and `:has()` or a text pseudo-class on an ancestor compound:
//!   they need content parsed later;
//! - `:checked`, `:default`, `:indeterminate`, `:disabled`, `:enabled`, `:valid`,
//!   `:invalid`, `:in-range`, `:out-of-range` (other elements decide them), `:lang()`,
//!   `:dir()`, `:read-only`, `:read-write` (inherited from `html`/`body`, whose attributes
//!   can still change), `:scope`, and the shadow-tree selectors;
//! - an ancestor compound that tests attributes and could match `html` or `body` (`.content
//!   p`, `:not(.x) p`): a later `<body class=content>` would change the answer of elements
//!   already handed out. Name the type (`div.content p`).
//!
//! Positions among element siblings are final when the walk reaches an element: the walk
//! has passed every previous sibling (each final, rule 1 to 7), and nodes are only ever
//! inserted as a last child or, by foster parenting, before an open `table` (13.2.6.1), which
//! the walk decides only once closed. The walk counts the element children it enters (and
//! those of each type; elements fostered before a table it had entered are counted before
//! it), and a match's copy gets, before it and before each of its ancestors, empty stand-in
//! siblings: as many as make every `an+b` test of the selectors answer as for the real
//! position (the positions up to the largest `b` as they are, the later ones by their
//! residue modulo the least common multiple of the `a`s), removed again once matched.
//!
//! For `+` the previous element sibling is final for the same reasons: the walk keeps the
//! last element child it passed of each open element (instead of freeing it at once), and a
//! match's copy gets a copy of that element (without its content) before it and before each
//! of its ancestors, removed again once matched.
//!
//! # Memory
//!
//! What is held at a time: the open elements with the children not yet left behind (and,
//! with `+`, the last element child passed of each, with its subtree), the
//! subtree of a match waiting to close (a match's whole subtree is copied anyway), what is
//! volatile, and the queue of matches not yet taken. It grows with the document only in
//! these shapes: content under a volatile element (a formatting element such as `<font>`
//! left open around the rest of the page; a `body` with the frameset-ok flag still "ok"; more
//! than 64 nested open elements), a match that contains much of the document (`body`, `*`),
//! byte input whose encoding is never certain (undeclared input with detection on: the
//! bytes are held to the end, as [`Parser::write`] does; declare the encoding or set
//! [`ParseOptions::transport_encoding`]), many distinct element or attribute names (they
//! are interned), and parse errors (at most [`ParseOptions::max_errors`]).
//!
//! Time: each match is copied with its chain of ancestor elements when a selector looks at
//! ancestors (a descendant or child combinator), and with a bounded number of stand-ins
//! per level when a selector tests positions: the cost of a match grows with its depth.
//! On ordinary pages that is a few dozen levels; a document with thousands of nested
//! elements and many matches inside them costs depth × matches (a known limit of the
//! copy-per-match design: a full parse does not pay it).

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::io::Read;

use indextree::NodeId as Id;

use crate::dom::names::{LocalName, Namespace, local_name as n};
use crate::dom::{AttrRange, Document, ElementData, ElementRef, IdHash, NodeData, NodeRef};
use crate::encoding::EncodingError;
use crate::select::stream_check::{self, Prefilter, Window};
use crate::tree_builder::TreeBuilder;
use crate::{ParseOptions, Parser, Selector};

/// How much input is parsed between two walks.
const PIECE: usize = 64 * 1024;

/// A selector a streaming parse cannot answer exactly.
///
/// ```
/// use html_arena::stream::{StreamError, StreamParser};
/// use html_arena::{ParseOptions, Selector};
///
/// let err = StreamParser::new(&[Selector::parse("li:last-child")?], &ParseOptions::default())
///     .err()
///     .unwrap();
/// assert!(matches!(&err, StreamError::Unsupported { part, .. } if part == ":last-child"));
/// # Ok::<(), html_arena::SelectorError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StreamError {
    /// The selector has a part that needs what a streaming parse does not keep.
    Unsupported {
        /// The selector, as written.
        selector: String,
        /// The part refused.
        part: String,
        /// Why.
        reason: String,
    },
    /// An encoding label in the options is unknown (on the first write of bytes).
    Encoding(EncodingError),
    /// Foster parenting put a match before a `table` after the matches inside that table
    /// had been handed out (more than [`HOLD_LIMIT`] nodes or [`HOLD_MATCHES`] matches of
    /// them, or any number when every subject is a table part: see rule 8 of the module
    /// docs): the match cannot be handed out in document order any more. The parse stops.
    OutOfOrder {
        /// The outer HTML of the match that came too late.
        html: String,
    },
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Unsupported {
                selector,
                part,
                reason,
            } => write!(
                f,
                "`{part}` in `{selector}` is not supported while streaming: {reason}"
            ),
            StreamError::Encoding(e) => e.fmt(f),
            StreamError::OutOfOrder { html } => {
                let head: String = html.chars().take(80).collect();
                write!(
                    f,
                    "a match foster-parented before a table came after the matches inside \
                     the table were handed out, so it cannot be handed out in document order: \
                     {head}"
                )
            }
        }
    }
}

impl std::error::Error for StreamError {}

/// Checks that a selector can be answered while streaming (what [`StreamParser::new`] does
/// for each of its selectors).
///
/// ```
/// use html_arena::{Selector, stream};
///
/// assert!(stream::check_selector(&Selector::parse("table.data td")?).is_ok());
/// assert!(stream::check_selector(&Selector::parse("h2 ~ p")?).is_err());
/// # Ok::<(), html_arena::SelectorError>(())
/// ```
pub fn check_selector(selector: &Selector) -> Result<(), StreamError> {
    stream_check::plan(selector)
        .map(|_| ())
        .map_err(|r| refusal(selector, r))
}

fn refusal(selector: &Selector, r: stream_check::Refusal) -> StreamError {
    StreamError::Unsupported {
        selector: selector.as_str().to_string(),
        part: r.part,
        reason: r.reason.to_string(),
    }
}

/// A match: a copy of the matched element with its subtree (and its ancestors, without their
/// other children, when the selector looks at ancestors), in a small document of its own.
pub struct StreamMatch {
    doc: Document,
    element: Id,
    selectors: Picked,
}

/// The selectors that matched (one, without an allocation, in the common case).
enum Picked {
    One([usize; 1]),
    Many(Box<[usize]>),
}

impl StreamMatch {
    /// The matched element.
    ///
    /// ```
    /// use html_arena::{ParseOptions, Selector, stream::StreamParser};
    ///
    /// let mut p = StreamParser::new(&[Selector::parse("a")?], &ParseOptions::default())?;
    /// p.write_str("<a href=/x>X</a>")?;
    /// p.finish()?;
    /// let m = p.next_match().unwrap();
    /// assert_eq!(m.element().attr("href"), Some("/x"));
    /// assert_eq!(m.html(), r#"<a href="/x">X</a>"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn element(&self) -> ElementRef<'_> {
        match NodeRef::new(&self.doc, self.element).as_element() {
            Some(e) => e,
            // A StreamMatch is only made around the copy of an element, and node kinds
            // never change.
            None => unreachable!("a stream match holds an element"),
        }
    }

    /// The element's outer HTML (as [`NodeRef::html`] gives it in the whole document).
    pub fn html(&self) -> String {
        self.element().html()
    }

    /// The element's text content.
    pub fn text(&self) -> String {
        self.element().text()
    }

    /// The indices (into the parser's selectors) of the selectors that matched.
    pub fn selectors(&self) -> &[usize] {
        match &self.selectors {
            Picked::One(one) => one,
            Picked::Many(many) => many,
        }
    }

    /// The document holding the copy.
    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// The document holding the copy, to keep or change.
    pub fn into_document(self) -> Document {
        self.doc
    }
}

impl fmt::Debug for StreamMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamMatch")
            .field("html", &self.html())
            .field("selectors", &self.selectors())
            .finish()
    }
}

/// A streaming parser that selects: write the input in chunks, take the matches as they come
/// ([`next_match`](StreamParser::next_match)), [`finish`](StreamParser::finish) at the end.
/// See the [module docs](self) for what is decided when and what is held.
pub struct StreamParser {
    parser: Option<Parser>,
    ctx: Ctx,
    walk: Walk,
    /// Input parsed since the last walk.
    since_walk: usize,
    /// String and attribute bytes after the last compaction.
    compacted: usize,
    /// The most nodes alive at once in the parse's document (for tests and benchmarks).
    peak_nodes: usize,
}

/// How many nodes of matches found inside open tables are held back (see
/// [`StreamError::OutOfOrder`]): foster parenting can still put a match before the table,
/// which comes first in document order. Past this (or past [`HOLD_MATCHES`] matches), they
/// are handed out. Nothing is held when every selector's subject is a table part (`tr`,
/// `td`, ...: rule 8 of the module docs).
pub const HOLD_LIMIT: usize = 16_384;

/// The most matches held back inside open tables (see [`HOLD_LIMIT`]).
pub const HOLD_MATCHES: usize = 1_024;

/// One entered node of the walk's path.
struct Level {
    node: Id,
    /// Its last child the walk has passed.
    last: Option<Id>,
    /// It was open when the walk entered it: the children the walk passes are freed one by
    /// one (a closed element is freed whole when the walk leaves it).
    open: bool,
    /// Its position among its parent's element children, and among those of its type
    /// (from 1; when a selector tests positions).
    pos: (u64, u64),
    /// The element children the walk has entered so far...
    children: u64,
    /// ...and how many of each type (when a selector tests positions of a type).
    types: HashMap<(Namespace, LocalName), u64>,
    /// With a `+` combinator: its last element child the walk has passed (not freed until
    /// the next one is passed)...
    keep: Option<Id>,
    /// ...and its own previous element sibling.
    prev: Option<Id>,
    /// For a `table` that was open when the walk entered it: foster parenting may still
    /// insert nodes before it.
    guard: Option<Guard>,
}

impl Level {
    /// The position a new element child `e` has: among the element children, and among
    /// those of its type.
    fn position_of(&self, e: &ElementData) -> (u64, u64) {
        let of_type = self.types.get(&(e.ns, e.name)).copied().unwrap_or(0);
        (self.children.saturating_add(1), of_type.saturating_add(1))
    }

    /// Counts the element child `e` (`by` 1), or takes it back (-1).
    fn count(&mut self, e: &ElementData, by: i32, types: bool) {
        let add = |n: u64| n.saturating_add_signed(i64::from(by));
        self.children = add(self.children);
        if types {
            let n = self.types.entry((e.ns, e.name)).or_insert(0);
            *n = add(*n);
        }
    }
}

/// Where a decided element is: the walk's path to its parent, and its position.
struct Place<'a> {
    path: &'a [Level],
    pos: (u64, u64),
    /// Its previous element sibling (with a `+` combinator).
    prev: Option<Id>,
}

/// An open `table` the walk entered.
struct Guard {
    /// The walk's last passed node before the table, when it entered it.
    prev: Option<Id>,
    /// Where its matches start in `held`.
    held_from: usize,
    /// Its matches were handed out (past [`HOLD_LIMIT`]).
    flushed: bool,
}

/// A table left with nodes foster-parented before it: the walk goes back to them.
struct Refoster {
    table: Id,
    /// Where their matches go in `held`.
    at: usize,
    flushed: bool,
}

/// Where the walk is, and what it holds.
struct Walk {
    /// The serial number of the document the path is in (a restart makes a new one).
    serial: u32,
    /// The entered nodes from the root down.
    path: Vec<Level>,
    /// Unflushed guards on the path.
    guards: usize,
    refoster: Option<Refoster>,
    /// Matches inside open tables, held back, in document order.
    held: Vec<StreamMatch>,
    held_nodes: usize,
    /// Matches to hand out.
    out: VecDeque<StreamMatch>,
    error: Option<StreamError>,
    /// Nodes passed, to free after the walk.
    passed: Vec<Id>,
    /// Freed from the tree but still referred to by the parser (the list of active
    /// formatting elements, the `form` and `head` element pointers).
    kept: Vec<Id>,
    /// A buffer for `release`.
    scratch: Vec<Id>,
    /// A `body` or `frameset` has been the second element on the stack.
    head_done: bool,
    /// Count the matches instead of handing them out ([`StreamParser::count_only`]).
    count_only: bool,
    /// Keep each level's last passed element child (`Level::keep`).
    keep_elements: bool,
    counted: usize,
}

impl Walk {
    fn new(doc: &Document) -> Walk {
        Walk {
            serial: doc.serial,
            path: vec![Level {
                node: doc.root,
                last: None,
                open: true,
                pos: (1, 1),
                children: 0,
                types: HashMap::new(),
                keep: None,
                prev: None,
                guard: None,
            }],
            guards: 0,
            refoster: None,
            held: Vec::new(),
            held_nodes: 0,
            out: VecDeque::new(),
            error: None,
            passed: Vec::new(),
            kept: Vec::new(),
            scratch: Vec::new(),
            head_done: false,
            count_only: false,
            keep_elements: false,
            counted: 0,
        }
    }

    /// Hands out a decided match, or holds it back (see [`HOLD_LIMIT`]).
    fn emit(&mut self, m: StreamMatch) {
        if let Some(r) = self.refoster.as_mut() {
            if r.flushed {
                if self.error.is_none() {
                    self.error = Some(StreamError::OutOfOrder { html: m.html() });
                }
                return;
            }
            let at = r.at.min(self.held.len());
            self.held_nodes += m.doc.arena.len();
            self.held.insert(at, m);
            r.at = at + 1;
        } else if self.guards > 0 {
            self.held_nodes += m.doc.arena.len();
            self.held.push(m);
        } else {
            self.out.push_back(m);
            return;
        }
        if self.held_nodes > HOLD_LIMIT || self.held.len() > HOLD_MATCHES {
            self.flush();
            for level in &mut self.path {
                if let Some(g) = level.guard.as_mut() {
                    g.flushed = true;
                    g.held_from = 0;
                }
            }
            self.guards = 0;
            if let Some(r) = self.refoster.as_mut() {
                r.flushed = true;
                r.at = 0;
            }
        }
    }

    /// Hands out what is held.
    fn flush(&mut self) {
        self.out.extend(self.held.drain(..));
        self.held_nodes = 0;
    }

    /// Sets the last passed child of the current level to `node` (the previous one is freed).
    fn pass(&mut self, node: Id, element: bool) {
        let keep_elements = self.keep_elements;
        if let Some(top) = self.path.last_mut() {
            let prev = top.last.replace(node);
            if let (Some(prev), true) = (prev, top.open) {
                if top.keep != Some(prev) {
                    self.passed.push(prev);
                }
            }
            if keep_elements && element {
                if let (Some(old), true) = (top.keep.replace(node), top.open) {
                    self.passed.push(old);
                }
            }
        }
    }
}

impl StreamParser {
    /// A parser selecting the elements that match any of `selectors` (each element once).
    /// `options` are those of [`Parser::new`], except that the document is always lean
    /// ([`ParseOptions::keep_source`] off) and without source positions.
    ///
    /// # Errors
    ///
    /// [`StreamError::Unsupported`] for the first selector that cannot be answered while
    /// streaming.
    pub fn new(
        selectors: &[Selector],
        options: &ParseOptions,
    ) -> Result<StreamParser, StreamError> {
        let mut prefilters = Vec::new();
        let mut needs_ancestors = false;
        let (mut nth_child, mut nth_of_type) = (Vec::new(), Vec::new());
        let mut needs_subtree = false;
        let mut prev_sibling = false;
        for s in selectors {
            let plan = stream_check::plan(s).map_err(|r| refusal(s, r))?;
            needs_ancestors |= plan.needs_ancestors;
            needs_subtree |= plan.needs_subtree;
            prev_sibling |= plan.prev_sibling;
            prefilters.push(plan.prefilters);
            nth_child.extend(plan.nth_child);
            nth_of_type.extend(plan.nth_of_type);
        }
        let window = |tests: &[(i32, i32)]| {
            if tests.is_empty() {
                return Ok(None);
            }
            Window::of(tests)
                .map(Some)
                .ok_or_else(|| StreamError::Unsupported {
                    selector: selectors
                        .last()
                        .map(|s| s.as_str().to_string())
                        .unwrap_or_default(),
                    part: String::new(),
                    reason: "the selectors' positions are too far from the start together".into(),
                })
        };
        let child_window = window(&nth_child)?;
        let type_window = window(&nth_of_type)?;
        if prev_sibling && (child_window.is_some() || type_window.is_some()) {
            return Err(StreamError::Unsupported {
                selector: selectors
                    .last()
                    .map(|s| s.as_str().to_string())
                    .unwrap_or_default(),
                part: "+".into(),
                reason: "`+` and position tests together are not supported while streaming".into(),
            });
        }
        // Per static name: whether an element of that name may be a subject.
        let static_names = (0..)
            .map_while(|i| LocalName(i).as_static_str())
            .map(|name| {
                prefilters
                    .iter()
                    .flatten()
                    .any(|p: &Prefilter| p.may_match_name(name))
            })
            .collect();
        // Rule 8 of the module docs: subjects that foster parenting never inserts.
        let hold_in_tables = !prefilters
            .iter()
            .flatten()
            .all(|p: &Prefilter| p.never || p.names.iter().any(|n| TABLE_PARTS.contains(&&**n)));
        let mut options = options.clone();
        options.keep_source = false;
        options.source_positions = false;
        let mut parser = Parser::new(&options);
        let (tb, _) = parser.stream_view();
        let mut walk = Walk::new(&tb.doc);
        walk.keep_elements = prev_sibling;
        Ok(StreamParser {
            parser: Some(parser),
            ctx: Ctx {
                selectors: selectors.to_vec(),
                prefilters,
                needs_ancestors,
                needs_subtree,
                scripting: options.scripting,
                static_names,
                hold_in_tables,
                positions: child_window.is_some() || type_window.is_some(),
                prev_sibling,
                child_window,
                type_window,
            },
            walk,
            since_walk: 0,
            compacted: 0,
            peak_nodes: 0,
        })
    }

    /// Parses the next chunk of bytes (sniffed and decoded as [`Parser::write`] does).
    ///
    /// # Errors
    ///
    /// [`StreamError::Encoding`] for an unknown encoding label in the options (on the first
    /// write); [`StreamError::OutOfOrder`] (then the parse stops).
    pub fn write(&mut self, chunk: &[u8]) -> Result<(), StreamError> {
        for piece in chunk.chunks(PIECE) {
            let Some(parser) = self.parser.as_mut() else {
                break;
            };
            parser.write(piece).map_err(StreamError::Encoding)?;
            self.since_walk += piece.len();
            self.step();
        }
        self.check()
    }

    /// Parses the next chunk of text.
    ///
    /// # Errors
    ///
    /// [`StreamError::OutOfOrder`] (then the parse stops).
    pub fn write_str(&mut self, chunk: &str) -> Result<(), StreamError> {
        let mut rest = chunk;
        while !rest.is_empty() {
            let mut at = rest.len().min(PIECE);
            while !rest.is_char_boundary(at) {
                at -= 1;
            }
            if at == 0 {
                at = rest.len();
            }
            let (piece, tail) = rest.split_at(at);
            rest = tail;
            let Some(parser) = self.parser.as_mut() else {
                break;
            };
            parser.write_str(piece);
            self.since_walk += piece.len();
            self.step();
        }
        self.check()
    }

    /// The error the walk ran into, if any (the parse stops then).
    fn check(&mut self) -> Result<(), StreamError> {
        match &self.walk.error {
            Some(e) => {
                self.parser = None;
                Err(e.clone())
            }
            None => Ok(()),
        }
    }

    /// Counts the matches instead of handing them out (call it before writing):
    /// [`next_match`](StreamParser::next_match) then gives nothing, and
    /// [`count`](StreamParser::count) the number decided so far. Matches are not copied
    /// unless a selector needs the copy to be matched.
    ///
    /// ```
    /// use html_arena::{ParseOptions, Selector, stream::StreamParser};
    ///
    /// let mut p = StreamParser::new(&[Selector::parse("li")?], &ParseOptions::default())?;
    /// p.count_only();
    /// p.write_str("<ul><li>a<li>b</ul>")?;
    /// p.finish()?;
    /// assert_eq!(p.count(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count_only(&mut self) {
        self.walk.count_only = true;
    }

    /// The number of matches counted so far ([`count_only`](StreamParser::count_only)).
    pub fn count(&self) -> usize {
        self.walk.counted
    }

    /// The next match, in document order, if one is decided.
    pub fn next_match(&mut self) -> Option<StreamMatch> {
        self.walk.out.pop_front()
    }

    /// Ends the input: every remaining match is decided (take them with
    /// [`next_match`](StreamParser::next_match)). Later writes do nothing.
    ///
    /// # Errors
    ///
    /// [`StreamError::OutOfOrder`].
    pub fn finish(&mut self) -> Result<(), StreamError> {
        let Some(parser) = self.parser.take() else {
            return self.check();
        };
        let doc = parser.finish();
        if doc.serial != self.walk.serial {
            let (count_only, keep) = (self.walk.count_only, self.walk.keep_elements);
            self.walk = Walk::new(&doc);
            self.walk.count_only = count_only;
            self.walk.keep_elements = keep;
        }
        self.walk.head_done = true;
        self.peak_nodes = self.peak_nodes.max(doc.arena.live_count());
        self.ctx.walk(&doc, None, &mut self.walk);
        self.walk.passed.clear();
        self.walk.flush();
        self.check()
    }

    /// Stops: the rest of the input is not parsed, and matches not taken yet are dropped.
    pub fn stop(&mut self) {
        self.parser = None;
        self.walk.out.clear();
        self.walk.held.clear();
    }

    /// The most nodes the parse's document held at once so far (a measure of the memory
    /// the stream needs).
    pub fn peak_nodes(&self) -> usize {
        self.peak_nodes
    }

    /// After a piece of input: walks as far as the tree is final and frees what it left.
    fn step(&mut self) {
        let Some(parser) = self.parser.as_mut() else {
            return;
        };
        if parser.may_restart() {
            return;
        }
        let (tb, _) = parser.stream_view();
        // A walk costs about the stack's depth (and the elements kept aside): it waits for
        // input in proportion, so that walks add up to linear time.
        let cost = tb.open.len().saturating_add(self.walk.kept.len());
        if self.since_walk < cost.saturating_mul(16) {
            return;
        }
        self.since_walk = 0;
        if tb.doc.serial != self.walk.serial {
            let (count_only, keep) = (self.walk.count_only, self.walk.keep_elements);
            self.walk = Walk::new(&tb.doc);
            self.walk.count_only = count_only;
            self.walk.keep_elements = keep;
        }
        self.peak_nodes = self.peak_nodes.max(tb.doc.arena.live_count());
        let hot = hot_set(tb, &mut self.walk);
        self.ctx.walk(&tb.doc, Some(&hot), &mut self.walk);
        release(tb, &mut self.walk);
        let bytes = tb.doc.storage_bytes();
        if bytes > self.compacted.saturating_mul(2).saturating_add(1 << 20) {
            tb.doc.compact_storage();
            tb.forget_attr_room();
            self.compacted = tb.doc.storage_bytes();
        }
    }
}

/// The open elements (on the stack, or an ancestor of one), each with whether it is
/// volatile (see the module docs).
fn hot_set(tb: &TreeBuilder, walk: &mut Walk) -> HashMap<Id, bool, IdHash> {
    let doc = &tb.doc;
    // Rule 2: the topmost element of the stack that is in the list of active formatting
    // elements.
    let mut topmost = usize::MAX;
    let mut entry = tb.active.last();
    while let Some(e) = entry {
        if let Some(p) = tb.active.element(e).and_then(|node| tb.open.position(node)) {
            topmost = topmost.min(p);
        }
        entry = tb.active.prev(e);
    }
    // Rule 4.
    if !walk.head_done {
        if let Some(second) = tb.open.get(1) {
            if second.is_html(n::BODY) || second.is_html(n::FRAMESET) {
                walk.head_done = true;
            }
        }
        if let Some(html) = tb.open.get(0) {
            let mut child = doc.arena.get(html.node).and_then(|h| h.last_child());
            for _ in 0..8 {
                let Some(c) = child else { break };
                if let Some(e) = doc.element_data(c) {
                    if e.ns == Namespace::Html && (e.name == n::BODY || e.name == n::FRAMESET) {
                        walk.head_done = true;
                    }
                }
                child = doc.arena[c].previous_sibling();
            }
        }
    }
    let mut hot: HashMap<Id, bool, IdHash> = HashMap::default();
    for i in 0..tb.open.len() {
        let Some(e) = tb.open.get(i) else { continue };
        let node = e.node;
        let volatile = i > topmost
            || (i == 1 && tb.frameset_ok && e.is_html(n::BODY))
            || e.is_html(n::SELECT)
            || doc.tree_node(node) != node;
        *hot.entry(node).or_insert(false) |= volatile;
        let mut up = doc.parent_node(node);
        while let Some(a) = up {
            if hot.contains_key(&a) {
                break;
            }
            hot.insert(a, false);
            up = doc.parent_node(a);
        }
    }
    if !walk.head_done {
        if let Some(head) = tb.head {
            hot.insert(head, true);
        }
    }
    hot
}

/// Frees the subtrees the walk passed, keeping (detached) the nodes in them the parser
/// still refers to (the list of active formatting elements, the `form` and `head` element
/// pointers: a formatting element popped with a closed ancestor stays in the list, 13.2.4.3,
/// and is cloned from when the list is reconstructed).
fn release(tb: &mut TreeBuilder, walk: &mut Walk) {
    let referenced = |tb: &TreeBuilder, id: Id| {
        tb.active.contains(id) || tb.form == Some(id) || tb.head == Some(id) || tb.open.contains(id)
    };
    // Whether a subtree can hold a referenced node at all (then each subtree is looked
    // through before it is freed).
    let mut any_active = false;
    let mut entry = tb.active.last();
    while let Some(e) = entry {
        if tb.active.element(e).is_some() {
            any_active = true;
            break;
        }
        entry = tb.active.prev(e);
    }
    let scan = any_active || tb.form.is_some();
    let mut free = std::mem::take(&mut walk.passed);
    let mut kept = std::mem::take(&mut walk.kept);
    kept.retain(|&id| {
        if id.is_removed(&tb.doc.arena) {
            return false;
        }
        if referenced(tb, id) {
            return true;
        }
        free.push(id);
        false
    });
    let mut found = std::mem::take(&mut walk.scratch);
    for id in free.drain(..) {
        if id.is_removed(&tb.doc.arena) {
            continue;
        }
        if referenced(tb, id) {
            id.detach(&mut tb.doc.arena);
            kept.push(id);
            continue;
        }
        if scan {
            found.extend(
                id.descendants(&tb.doc.arena)
                    .skip(1)
                    .filter(|&d| referenced(tb, d)),
            );
            for d in found.drain(..) {
                d.detach(&mut tb.doc.arena);
                kept.push(d);
            }
        }
        tb.doc.free_subtree(id);
    }
    walk.passed = free;
    walk.kept = kept;
    walk.scratch = found;
}

/// What a walk needs of the parser's selectors.
struct Ctx {
    selectors: Vec<Selector>,
    prefilters: Vec<Vec<Prefilter>>,
    needs_ancestors: bool,
    /// Matching looks at a match's content (when counting, the copy is of the element alone
    /// otherwise).
    needs_subtree: bool,
    /// The scripting flag (the parse's document learns it only at the end).
    scripting: bool,
    /// Per static name (by its number): whether a selector's subject may have it.
    static_names: Vec<bool>,
    /// Matches inside an open table are held back (see [`HOLD_LIMIT`]): a subject may be
    /// foster-parented before the table.
    hold_in_tables: bool,
    /// A selector tests positions among siblings: the walk counts them, and a match's copy
    /// gets stand-ins for the previous siblings of it and its ancestors (see [`Window`]).
    positions: bool,
    /// A `+` combinator: a match's copy gets the previous element sibling of it and of each
    /// ancestor (shallow copies; the walk keeps each level's last passed element).
    prev_sibling: bool,
    child_window: Option<Window>,
    type_window: Option<Window>,
}

/// The HTML elements foster parenting never inserts (rule 8 of the module docs).
const TABLE_PARTS: &[&str] = &[
    "caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr",
];

impl Ctx {
    /// Walks `doc` in document order as far as it is final (`hot`: the open elements; `None`
    /// at the end of the input, when everything is), deciding elements on the way.
    fn walk(&self, doc: &Document, hot: Option<&HashMap<Id, bool, IdHash>>, walk: &mut Walk) {
        let is_open = |id: Id| hot.is_some_and(|h| h.contains_key(&id));
        let is_volatile = |id: Id| hot.is_some_and(|h| h.get(&id).copied().unwrap_or(false));
        while walk.error.is_none() {
            let Some(level) = walk.path.last() else {
                return;
            };
            let (parent, last) = (level.node, level.last);
            let next = match last {
                Some(y) => doc.arena.get(y).and_then(|y| y.next_sibling()),
                None => doc.arena.get(parent).and_then(|p| p.first_child()),
            };
            let Some(c) = next else {
                // Leave `parent`.
                if walk.path.len() == 1 || is_open(parent) || is_volatile(parent) {
                    return;
                }
                let Some(level) = walk.path.pop() else { return };
                if let (Some(y), true) = (last, level.open) {
                    walk.passed.push(y);
                }
                if let (Some(k), true) = (level.keep, level.open) {
                    if last != Some(k) {
                        walk.passed.push(k);
                    }
                }
                match level.guard {
                    Some(g) => {
                        if !g.flushed {
                            walk.guards -= 1;
                        }
                        let before = doc.arena.get(parent).and_then(|t| t.previous_sibling());
                        if before != g.prev {
                            // Foster parenting put nodes before the table: walk them first
                            // (13.2.6.1, "foster parenting"; their matches come before the
                            // table's).
                            // (The table was counted among its parent's children: the
                            // fostered elements come before it.)
                            if let (true, Some(top), Some(e)) = (
                                self.positions,
                                walk.path.last_mut(),
                                doc.element_data(parent),
                            ) {
                                top.count(e, -1, self.type_window.is_some());
                            }
                            walk.refoster = Some(Refoster {
                                table: parent,
                                at: g.held_from,
                                flushed: g.flushed,
                            });
                            continue;
                        }
                        walk.pass(parent, true);
                        if walk.guards == 0 {
                            walk.flush();
                        }
                    }
                    None => walk.pass(parent, true),
                }
                continue;
            };
            if walk.refoster.as_ref().is_some_and(|r| r.table == c) {
                // Back at the table: its matches follow those before it.
                walk.refoster = None;
                if let (true, Some(top), Some(e)) =
                    (self.positions, walk.path.last_mut(), doc.element_data(c))
                {
                    top.count(e, 1, self.type_window.is_some());
                }
                walk.pass(c, true);
                if walk.guards == 0 {
                    walk.flush();
                }
                continue;
            }
            if doc.resolve_stand_in(c) != c {
                return;
            }
            let Some(e) = doc.element_data(c) else {
                walk.pass(c, false);
                continue;
            };
            // (One look-up: `Some(volatile)` for an open element.)
            let state = hot.and_then(|h| h.get(&c).copied());
            if state == Some(true) {
                return;
            }
            let open = hot.is_some() && state.is_some();
            let pos = match (self.positions, walk.path.last()) {
                (true, Some(level)) => level.position_of(e),
                _ => (1, 1),
            };
            let prev = walk.path.last().and_then(|l| l.keep);
            if self.is_candidate(doc, c, e) {
                if open {
                    return;
                }
                let place = Place {
                    path: &walk.path,
                    pos,
                    prev,
                };
                if walk.count_only {
                    walk.counted += usize::from(self.decide_count(doc, c, &place));
                } else if let Some(m) = self.decide(doc, c, &place) {
                    walk.emit(m);
                }
            }
            if self.positions {
                if let Some(level) = walk.path.last_mut() {
                    level.count(e, 1, self.type_window.is_some());
                }
            }
            let guard = (e.ns == Namespace::Html && e.name == n::TABLE && open).then(|| {
                if self.hold_in_tables {
                    walk.guards += 1;
                }
                Guard {
                    prev: last,
                    held_from: walk.held.len(),
                    flushed: !self.hold_in_tables,
                }
            });
            walk.path.push(Level {
                node: c,
                last: None,
                open,
                pos,
                children: 0,
                types: HashMap::new(),
                keep: None,
                prev,
                guard,
            });
        }
    }

    /// Whether selector `i`'s subject compound's type, id and class tests pass for `el`.
    fn may_match(&self, i: usize, el: ElementRef<'_>) -> bool {
        let local = el.local_name();
        self.prefilters[i].iter().any(|p| {
            p.may_match_name(local)
                && (!p.reads_attributes() || p.may_match(local, el.attr("id"), el.attr("class")))
        })
    }

    /// Whether any selector may match `node`.
    fn is_candidate(&self, doc: &Document, node: Id, e: &ElementData) -> bool {
        if e.name.is_static()
            && !self
                .static_names
                .get(e.name.0 as usize)
                .copied()
                .unwrap_or(true)
        {
            return false;
        }
        match NodeRef::new(doc, node).as_element() {
            Some(el) => (0..self.selectors.len()).any(|i| self.may_match(i, el)),
            None => false,
        }
    }

    /// Whether the final element `node` matches, copying it only when a selector needs the
    /// copy to be matched.
    fn decide_count(&self, doc: &Document, node: Id, place: &Place<'_>) -> bool {
        let Some(live) = NodeRef::new(doc, node).as_element() else {
            return false;
        };
        let html = live.namespace() == Namespace::Html && !doc.is_xml();
        let local = live.local_name();
        let mut rest = Vec::new();
        for i in (0..self.selectors.len()).filter(|&i| self.may_match(i, live)) {
            match self.exact(i, html, local) {
                Some(true) => return true,
                Some(false) => {}
                None => rest.push(i),
            }
        }
        if rest.is_empty() {
            return false;
        }
        let (copy, element, _) = self.copy(doc, node, place, self.needs_subtree);
        NodeRef::new(&copy, element)
            .as_element()
            .is_some_and(|el| rest.iter().any(|&i| el.matches(&self.selectors[i])))
    }

    /// Whether selector `i` is one type selector (decided here, exactly: `Prefilter::
    /// type_only`) and matches the element named `local` (`html`: an HTML element of an
    /// HTML document); `None` when the selector is matched on the copy.
    fn exact(&self, i: usize, html: bool, local: &str) -> Option<bool> {
        let mut any = false;
        for p in &self.prefilters[i] {
            let (name, lower) = p.type_only.as_ref()?;
            any |= if html {
                **lower == *local
            } else {
                **name == *local
            };
        }
        Some(any)
    }

    /// Copies the final element `node` and matches it.
    fn decide(&self, doc: &Document, node: Id, place: &Place<'_>) -> Option<StreamMatch> {
        let live = NodeRef::new(doc, node).as_element()?;
        let html = live.namespace() == Namespace::Html && !doc.is_xml();
        let local = live.local_name();
        if self.selectors.len() == 1 {
            // (The common case, without the lists.)
            if !self.may_match(0, live) {
                return None;
            }
            let exact = self.exact(0, html, local);
            if exact == Some(false) {
                return None;
            }
            let (mut copy, element, stand_ins) = self.copy(doc, node, place, true);
            if exact.is_none()
                && !NodeRef::new(&copy, element)
                    .as_element()
                    .is_some_and(|el| el.matches(&self.selectors[0]))
            {
                return None;
            }
            remove_stand_ins(&mut copy, stand_ins);
            return Some(StreamMatch {
                doc: copy,
                element,
                selectors: Picked::One([0]),
            });
        }
        let mut matched = Vec::new();
        let mut rest = Vec::new();
        for i in (0..self.selectors.len()).filter(|&i| self.may_match(i, live)) {
            match self.exact(i, html, local) {
                Some(true) => matched.push(i),
                Some(false) => {}
                None => rest.push(i),
            }
        }
        if matched.is_empty() && rest.is_empty() {
            return None;
        }
        let (mut copy, element, stand_ins) = self.copy(doc, node, place, true);
        if !rest.is_empty() {
            if let Some(el) = NodeRef::new(&copy, element).as_element() {
                matched.extend(rest.into_iter().filter(|&i| el.matches(&self.selectors[i])));
                matched.sort_unstable();
            }
        }
        remove_stand_ins(&mut copy, stand_ins);
        (!matched.is_empty()).then(|| StreamMatch {
            doc: copy,
            element,
            selectors: Picked::Many(matched.into_boxed_slice()),
        })
    }
}

impl Ctx {
    /// A copy of the final element `node` (see [`copy_match`]), with, when a selector tests
    /// positions, stand-ins for the previous siblings of it and its ancestors: as many as
    /// make each `an+b` test answer as it does for the real position (see [`Window`]),
    /// each an empty element of the same type (for the `*-of-type` tests) or of a name no
    /// element has. Returns them too, to remove once matched.
    fn copy(
        &self,
        doc: &Document,
        node: Id,
        place: &Place<'_>,
        subtree: bool,
    ) -> (Document, Id, Vec<Id>) {
        let (mut copy, element) =
            copy_match(doc, node, self.needs_ancestors, subtree, self.scripting);
        let mut stand_ins = Vec::new();
        if self.prev_sibling {
            // The previous element siblings, shallow, for `+` (the path's first level is
            // the document).
            let mut x = element;
            let mut prevs = place.path.iter().skip(1).rev().map(|l| l.prev);
            let mut prev = Some(place.prev);
            while let Some(p) = prev {
                if let Some(c) = p.and_then(|p| copy.copy_element_from(doc, p)) {
                    if x.checked_insert_before(c, &mut copy.arena).is_ok() {
                        stand_ins.push(c);
                    }
                }
                let Some(up) = copy.arena.get(x).and_then(|n| n.parent()) else {
                    break;
                };
                if copy.element_data(up).is_none() {
                    break;
                }
                x = up;
                prev = prevs.next();
            }
            copy.tree_changed();
        }
        if !self.positions {
            return (copy, element, stand_ins);
        }
        let other = copy.intern(" ");
        // The copy's chain of elements, from the match up, with their positions; the path's
        // first level is the document.
        let mut x = element;
        let mut levels = place.path.iter().skip(1).rev().map(|l| l.pos);
        let mut pos = Some(place.pos);
        while let (Some((index, of_type)), Some(e)) = (pos, copy.element_data(x).copied()) {
            let same = self.type_window.map_or(1, |w| w.reduce(of_type, 1));
            let all = self.child_window.map_or(same, |w| w.reduce(index, same));
            for k in 1..all {
                let name = if k < same { e.name } else { other };
                let data = NodeData::Element(ElementData {
                    name,
                    ns: e.ns,
                    flags: 0,
                    prefix: 0,
                    attrs: AttrRange::default(),
                });
                stand_ins.push(x.insert_before_value(data, &mut copy.arena));
            }
            let Some(up) = copy.arena.get(x).and_then(|n| n.parent()) else {
                break;
            };
            x = up;
            pos = levels.next();
        }
        if !stand_ins.is_empty() {
            copy.tree_changed();
        }
        (copy, element, stand_ins)
    }
}

/// Removes the stand-ins [`Ctx::copy`] put into a match's copy.
fn remove_stand_ins(copy: &mut Document, stand_ins: Vec<Id>) {
    if stand_ins.is_empty() {
        return;
    }
    for s in stand_ins {
        s.remove_subtree(&mut copy.arena);
    }
    copy.tree_changed();
}

/// A small document holding a copy of `node`'s subtree (of `node` alone unless `subtree`),
/// under copies of its ancestor elements when `ancestors`.
fn copy_match(
    doc: &Document,
    node: Id,
    ancestors: bool,
    subtree: bool,
    scripting: bool,
) -> (Document, Id) {
    let mut copy = Document::new();
    copy.quirks_mode = doc.quirks_mode;
    copy.scripting = scripting;
    #[cfg(feature = "url")]
    {
        copy.url = doc.url.clone();
    }
    copy.encoding = doc.encoding;
    copy.encoding_confidence = doc.encoding_confidence;
    let mut parent = copy.root;
    if ancestors {
        let mut chain = Vec::new();
        let mut up = doc.arena.get(node).and_then(|x| x.parent());
        while let Some(a) = up {
            if doc.element_data(a).is_some() {
                chain.push(a);
            }
            up = doc.arena.get(a).and_then(|x| x.parent());
        }
        copy.arena.reserve(chain.len());
        for &a in chain.iter().rev() {
            if let Some(c) = copy.copy_element_from(doc, a) {
                parent.append(c, &mut copy.arena);
                parent = c;
            }
        }
    }
    let element = if subtree {
        copy.append_subtree_copy(doc, node, parent)
    } else {
        match copy.copy_element_from(doc, node) {
            Some(c) => {
                parent.append(c, &mut copy.arena);
                c
            }
            None => parent,
        }
    };
    (copy, element)
}

/// The matches of `selectors` in what `reader` yields, as they are decided: the input is
/// read 64 KiB at a time, as bytes (sniffed and decoded as [`Document::parse_bytes`] does).
///
/// ```
/// use html_arena::{ParseOptions, Selector, stream};
///
/// let page = "<meta charset=utf-8><ul><li>a<li>b</ul>".as_bytes();
/// let items: Vec<String> =
///     stream::select_reader(page, &[Selector::parse("li")?], &ParseOptions::default())?
///         .map(|m| m.map(|m| m.text()))
///         .collect::<Result<_, _>>()?;
/// assert_eq!(items, ["a", "b"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`StreamError::Unsupported`] for a selector that cannot be answered while streaming. The
/// iterator yields the other errors of [`StreamParser`] as `io::Error`s of kind `InvalidData`.
pub fn select_reader<R: Read>(
    reader: R,
    selectors: &[Selector],
    options: &ParseOptions,
) -> Result<ReaderMatches<R>, StreamError> {
    Ok(ReaderMatches {
        reader,
        parser: StreamParser::new(selectors, options)?,
        buf: vec![0; PIECE],
        done: false,
    })
}

/// The number of matches of `selectors` in what `reader` yields, counted while parsing
/// ([`StreamParser::count_only`]), reading 64 KiB at a time as bytes.
///
/// ```
/// use html_arena::{ParseOptions, Selector, stream};
///
/// let page = "<meta charset=utf-8><table><tr><td>1<tr><td>2</table>".as_bytes();
/// let rows = stream::count_reader(page, &[Selector::parse("tr")?], &ParseOptions::default())?;
/// assert_eq!(rows, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A read error; a [`StreamError`] as an `io::Error` of kind `InvalidData`.
pub fn count_reader<R: Read>(
    mut reader: R,
    selectors: &[Selector],
    options: &ParseOptions,
) -> std::io::Result<usize> {
    let invalid = |e: StreamError| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
    let mut parser = StreamParser::new(selectors, options).map_err(invalid)?;
    parser.count_only();
    let mut buf = vec![0; PIECE];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        match buf.get(..n) {
            Some([]) | None => break,
            Some(chunk) => parser.write(chunk).map_err(invalid)?,
        }
    }
    parser.finish().map_err(invalid)?;
    Ok(parser.count())
}

/// The iterator of [`select_reader`]: each match, or the read error (then it ends).
pub struct ReaderMatches<R> {
    reader: R,
    parser: StreamParser,
    buf: Vec<u8>,
    done: bool,
}

impl<R> ReaderMatches<R> {
    /// The streaming parser (for [`StreamParser::peak_nodes`]).
    pub fn parser(&self) -> &StreamParser {
        &self.parser
    }
}

impl<R: Read> Iterator for ReaderMatches<R> {
    type Item = std::io::Result<StreamMatch>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(m) = self.parser.next_match() {
                return Some(Ok(m));
            }
            if self.done {
                return None;
            }
            match self.reader.read(&mut self.buf) {
                Ok(n) => {
                    let result = match self.buf.get(..n) {
                        Some([]) | None => {
                            self.done = true;
                            self.parser.finish()
                        }
                        Some(chunk) => self.parser.write(chunk),
                    };
                    if let Err(e) = result {
                        self.done = true;
                        self.parser.stop();
                        return Some(Err(std::io::Error::new(std::io::ErrorKind::InvalidData, e)));
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.done = true;
                    self.parser.stop();
                    return Some(Err(e));
                }
            }
        }
    }
}
