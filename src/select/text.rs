//! The text pseudo-classes of the extended selector syntax ([`Selector::parse_extended`]):
//! not CSS (no browser matches them), but what scrapers write.
//!
//! - `:contains(s, ...)` and soupsieve's `:-soup-contains(s, ...)`: the element's text content
//!   (`textContent`: every descendant text node, template contents left out) contains one of
//!   the strings, compared case-sensitively (as jQuery and soupsieve do; jsoup's
//!   case-insensitive `:contains` is `:has-text` here).
//! - `:-soup-contains-own(s, ...)`: one of the element's own text nodes (its text children)
//!   contains one of the strings (soupsieve: "own text", not its descendants').
//! - `:has-text(s, ...)` (Playwright, dom_query): the text content contains one of the
//!   strings, ignoring case (Unicode lowercase) and white space differences: runs of white
//!   space count as one space, and the string is trimmed.
//!
//! Each argument is a CSS string or an identifier. An empty string is in every text: every
//! element's text content, every text node (so `:-soup-contains-own("")` matches the elements
//! that have a text child).
//!
//! # Cost
//!
//! Asking each element whether its text content contains a string would read every text
//! node once per ancestor: O(text × depth). Instead, the first time a query needs one of these
//! pseudo-classes, it computes the answer for every element of the index in one iterative
//! pass over the tree ([`all`]), keeping for each open element only whether a match was found
//! and the first and last `m - 1` bytes of its text so far (`m`: the string's length): a match
//! that spans pieces of the text lies within the last `m - 1` bytes of what comes before the
//! joint and the first `m - 1` after. Folding a child into its parent costs O(m), so the pass
//! costs O(text + elements × m) per string, whatever the depth, with no recursion.
//!
//! [`Selector::parse_extended`]: super::Selector::parse_extended

use memchr::memmem::Finder;
use selectors::context::MatchingContext;

use super::element::El;
use super::parser::HtmlImpl;
use crate::dom::{Document, NodeData};
use crate::query::index::{NONE, TreeIndex};

/// Which text, and how it is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TextKind {
    /// `:contains()`, `:-soup-contains()`: the text content, case-sensitively.
    Contains,
    /// `:-soup-contains()`, spelled so (kept for serialization).
    SoupContains,
    /// `:-soup-contains-own()`: each own text node, case-sensitively.
    Own,
    /// `:has-text()`: the text content, ignoring case and white space differences.
    HasText,
}

impl TextKind {
    /// The pseudo-class's name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            TextKind::Contains => "contains",
            TextKind::SoupContains => "-soup-contains",
            TextKind::Own => "-soup-contains-own",
            TextKind::HasText => "has-text",
        }
    }
}

/// The argument of a text pseudo-class.
pub(crate) struct TextArg {
    /// Which entry of the query's per-selector results holds this one's (shared with
    /// `:has()`).
    pub(crate) id: usize,
    pub(crate) kind: TextKind,
    /// The strings as written.
    pub(crate) strings: Box<[Box<str>]>,
    /// The strings as compared (for `:has-text()`, normalized).
    needles: Box<[Box<[u8]>]>,
}

impl TextArg {
    pub(crate) fn new(id: usize, kind: TextKind, strings: Vec<Box<str>>) -> TextArg {
        let needles = strings
            .iter()
            .map(|s| match kind {
                TextKind::HasText => {
                    let mut out = Vec::new();
                    normalize_into(s, true, &mut out);
                    if out.last() == Some(&b' ') {
                        out.pop();
                    }
                    out.into_boxed_slice()
                }
                _ => s.as_bytes().into(),
            })
            .collect();
        TextArg {
            id,
            kind,
            strings: strings.into_boxed_slice(),
            needles,
        }
    }
}

impl PartialEq for TextArg {
    fn eq(&self, other: &TextArg) -> bool {
        self.kind == other.kind && self.strings == other.strings
    }
}

impl Eq for TextArg {}

/// `:has-text()`'s form of `text`, appended to `out`: lowercase, each run of white space one
/// space, none at the start when `after_space` (the text before ended with one).
fn normalize_into(text: &str, mut after_space: bool, out: &mut Vec<u8>) {
    let mut buf = [0u8; 4];
    for c in text.chars() {
        if c.is_whitespace() {
            if !after_space {
                out.push(b' ');
                after_space = true;
            }
            continue;
        }
        after_space = false;
        for lower in c.to_lowercase() {
            out.extend_from_slice(lower.encode_utf8(&mut buf).as_bytes());
        }
    }
}

/// Whether `el` matches the text pseudo-class `arg`: the answer for every element of its
/// index is computed once per query (see the module docs) and kept in the query's state.
pub(crate) fn text_matches(
    el: El<'_>,
    arg: &TextArg,
    context: &mut MatchingContext<'_, HtmlImpl>,
) -> bool {
    let compute = || all(el.doc(), el.index(), arg);
    let pos = el.pos as usize;
    match context.extra_data.and_then(|s| s.has.get(arg.id)) {
        Some(cell) => cell.get_or_init(compute).get(pos).copied(),
        None => compute().get(pos).copied(),
    }
    .unwrap_or(false)
}

/// What is known of a piece of text (a text node, an element's text so far): whether the
/// string was found in it, and its first and last `k = m - 1` bytes (all of it, in both, when
/// it is that short).
#[derive(Default)]
struct Piece {
    found: bool,
    head: Vec<u8>,
    tail: Vec<u8>,
}

impl Piece {
    /// The piece for the bytes `text`.
    fn of(text: &[u8], finder: &Finder<'_>, k: usize) -> Piece {
        let cut = k.min(text.len());
        Piece {
            found: finder.find(text).is_some(),
            head: text[..cut].to_vec(),
            tail: text[text.len() - cut..].to_vec(),
        }
    }

    /// Appends the piece `next` (`window` is scratch space).
    fn append(&mut self, next: &Piece, finder: &Finder<'_>, k: usize, window: &mut Vec<u8>) {
        if self.found {
            return;
        }
        if next.found {
            *self = Piece {
                found: true,
                ..Piece::default()
            };
            return;
        }
        // A match across the joint: within the last k bytes before it and the first k after.
        if !self.tail.is_empty() && !next.head.is_empty() {
            window.clear();
            window.extend_from_slice(&self.tail);
            window.extend_from_slice(&next.head);
            if finder.find(window).is_some() {
                *self = Piece {
                    found: true,
                    ..Piece::default()
                };
                return;
            }
        }
        if self.head.len() < k {
            let more = (k - self.head.len()).min(next.head.len());
            self.head.extend_from_slice(&next.head[..more]);
        }
        if next.tail.len() >= k {
            self.tail.clone_from(&next.tail);
        } else {
            self.tail.extend_from_slice(&next.tail);
            let excess = self.tail.len().saturating_sub(k);
            self.tail.drain(..excess);
        }
    }
}

/// For every element of `index`: whether it matches the text pseudo-class `arg`.
fn all(doc: &Document, index: &TreeIndex, arg: &TextArg) -> Box<[bool]> {
    let n = index.elems.len();
    let mut result = vec![false; n];
    let tops: Vec<indextree::NodeId> = index
        .elems
        .iter()
        .enumerate()
        .filter(|&(pos, e)| e.parent == NONE && !index.is_dead(pos as u32))
        .map(|(_, e)| e.node)
        .collect();
    for needle in arg.needles.iter() {
        if needle.is_empty() && arg.kind != TextKind::Own {
            // The empty string is in every text content (an own text needs a text node).
            for (pos, r) in result.iter_mut().enumerate() {
                *r |= !index.is_dead(pos as u32);
            }
            break;
        }
        let finder = Finder::new(needle);
        for &top in &tops {
            if arg.kind == TextKind::Own {
                own_text(doc, index, top, &finder, &mut result);
            } else {
                text_content(
                    doc,
                    index,
                    top,
                    arg.kind,
                    &finder,
                    needle.len() - 1,
                    &mut result,
                );
            }
        }
    }
    result.into_boxed_slice()
}

/// The next node after `node`'s subtree within `top`'s, in document order, calling `exit`
/// for each element left on the way (`node` included); `None` at the end of `top`'s subtree.
fn next_after(
    doc: &Document,
    top: indextree::NodeId,
    mut node: indextree::NodeId,
    mut exit: impl FnMut(indextree::NodeId),
) -> Option<indextree::NodeId> {
    let arena = &doc.arena;
    loop {
        if matches!(arena[node].get(), NodeData::Element(_)) {
            exit(node);
        }
        if node == top {
            return None;
        }
        if let Some(sibling) = arena[node].next_sibling() {
            return Some(sibling);
        }
        node = arena[node].parent()?;
    }
}

/// `:contains()` and `:has-text()` over the subtree of the element `top`: one pass in document
/// order with a stack of the open elements' pieces (iterative: any depth).
fn text_content(
    doc: &Document,
    index: &TreeIndex,
    top: indextree::NodeId,
    kind: TextKind,
    finder: &Finder<'_>,
    k: usize,
    result: &mut [bool],
) {
    let arena = &doc.arena;
    let mut open: Vec<(u32, Piece)> = Vec::new();
    let mut window = Vec::new();
    let mut normalized = Vec::new();
    // (`:has-text()`: whether the text so far ends with white space; a run of white space
    // across text nodes counts once.)
    let mut after_space = true;
    let mut node = Some(top);
    while let Some(n) = node {
        match arena[n].get() {
            NodeData::Element(_) => {
                open.push((index.pos_of(n).unwrap_or(NONE), Piece::default()));
                if let Some(child) = arena[n].first_child() {
                    node = Some(child);
                    continue;
                }
            }
            NodeData::Text(r) => {
                let text = doc.str(*r);
                let bytes = if kind == TextKind::HasText {
                    normalized.clear();
                    normalize_into(text, after_space, &mut normalized);
                    if let Some(&last) = normalized.last() {
                        after_space = last == b' ';
                    }
                    &normalized[..]
                } else {
                    text.as_bytes()
                };
                if let Some((_, piece)) = open.last_mut() {
                    if !bytes.is_empty() && !piece.found {
                        piece.append(&Piece::of(bytes, finder, k), finder, k, &mut window);
                    }
                }
            }
            _ => {}
        }
        node = next_after(doc, top, n, |_| {
            if let Some((pos, piece)) = open.pop() {
                if let Some(r) = result.get_mut(pos as usize) {
                    *r |= piece.found;
                }
                if let Some((_, parent)) = open.last_mut() {
                    parent.append(&piece, finder, k, &mut window);
                }
            }
        });
    }
}

/// `:-soup-contains-own()` over the subtree of the element `top`: each element whose text
/// children include one that contains the string.
fn own_text(
    doc: &Document,
    index: &TreeIndex,
    top: indextree::NodeId,
    finder: &Finder<'_>,
    result: &mut [bool],
) {
    let arena = &doc.arena;
    let mut node = Some(top);
    while let Some(n) = node {
        if let NodeData::Text(r) = arena[n].get() {
            if finder.find(doc.str(*r).as_bytes()).is_some() {
                if let Some(pos) = arena[n].parent().and_then(|p| index.pos_of(p)) {
                    result[pos as usize] = true;
                }
            }
        }
        if let Some(child) = arena[n].first_child() {
            node = Some(child);
            continue;
        }
        node = next_after(doc, top, n, |_| {});
    }
}
