//! Directionality (HTML, "The dir attribute"): every element is 'ltr' or 'rtl'.
//!
//! "To compute the directionality given an element element, switch on element's dir
//! attribute state": `ltr` and `rtl` give themselves; `auto` gives the element's auto
//! directionality, or 'ltr' when it has none; the undefined state gives a `bdi` element's auto
//! directionality (or 'ltr'), 'ltr' for an `input` in the Telephone state, and otherwise the
//! parent's directionality ('ltr' at the root). Only HTML elements have a `dir` attribute.
//!
//! "Auto directionality": for an `input` of type hidden, text, search, tel, url, email,
//! password, submit, reset or button, or a `textarea` (the "auto-directionality
//! form-associated elements"), its value: 'rtl' if its first strong character (bidirectional
//! type L, R or AL) is R or AL, 'ltr' if the value is not empty, none otherwise. For other
//! elements, "contained text auto directionality": the first strong character of the
//! element's Text descendants in tree order, skipping `bdi`, `script`, `style` and `textarea`
//! elements and elements with a `dir` attribute in a defined state, with their subtrees.
//!
//! All elements of a tree are computed in one pass in document order (a parent before its
//! children). The text scans are linear overall: an element's scan stops at descendants that
//! have their own `dir` (and `bdi`s), so each Text node is scanned for at most one element.

use unicode_bidi::{BidiClass, bidi_class};

use super::forms::{Control, ElementStates, InputType, sanitize};
use super::names::{Namespace, local_name as ln};
use super::{Document, ElementRef, NodeData};
use crate::query::index::{NONE, TreeIndex};

/// The directionality of an element ([`ElementRef::directionality`]).
///
/// ```
/// use html_arena::{Direction, Document};
///
/// let doc = Document::parse("<body dir=rtl>");
/// assert_eq!(doc.body().unwrap().directionality(), Direction::Rtl);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Left to right.
    Ltr,
    /// Right to left.
    Rtl,
}

/// The `dir` attribute's state.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DirState {
    Ltr,
    Rtl,
    Auto,
    Undefined,
}

/// The `dir` state of an element: "ltr", "rtl" and "auto" (ASCII case-insensitive) on HTML
/// elements; anything else, or a non-HTML element, is the undefined state.
fn dir_state(c: Control<'_>) -> DirState {
    if c.elem().ns != Namespace::Html {
        return DirState::Undefined;
    }
    match c.attr(ln::DIR) {
        Some(v) if v.eq_ignore_ascii_case("ltr") => DirState::Ltr,
        Some(v) if v.eq_ignore_ascii_case("rtl") => DirState::Rtl,
        Some(v) if v.eq_ignore_ascii_case("auto") => DirState::Auto,
        _ => DirState::Undefined,
    }
}

/// "Text node directionality" of a string: the direction of its first character of
/// bidirectional type L, R or AL, if any.
fn first_strong(text: &str) -> Option<Direction> {
    text.chars().find_map(|c| match bidi_class(c) {
        BidiClass::L => Some(Direction::Ltr),
        BidiClass::R | BidiClass::AL => Some(Direction::Rtl),
        _ => None,
    })
}

/// Whether the element is an "auto-directionality form-associated element".
fn auto_form_element(c: Control<'_>) -> Option<InputType> {
    use InputType::*;
    if c.is(ln::TEXTAREA) {
        return Some(Text);
    }
    if !c.is(ln::INPUT) {
        return None;
    }
    let t = c.input_type();
    matches!(
        t,
        Hidden | Text | Search | Tel | Url | Email | Password | Submit | Reset | Button
    )
    .then_some(t)
}

/// "Auto directionality" of the element `c`, or `None` when it has none.
fn auto_directionality(c: Control<'_>) -> Option<Direction> {
    if let Some(t) = auto_form_element(c) {
        let value = if c.is(ln::TEXTAREA) {
            c.child_text()
        } else {
            sanitize::input_value(c, t)
        };
        return match first_strong(&value) {
            Some(d) => Some(d),
            None if !value.is_empty() => Some(Direction::Ltr),
            None => None,
        };
    }
    contained_text_auto_directionality(c)
}

/// "Contained text auto directionality": the first strong character of the Text descendants,
/// skipping the subtrees of `bdi`, `script`, `style`, `textarea` and elements with a defined
/// `dir`.
fn contained_text_auto_directionality(c: Control<'_>) -> Option<Direction> {
    let arena = &c.doc.arena;
    let root = c.elem().node;
    let mut node = arena[root].first_child();
    while let Some(n) = node {
        let entry = &arena[n];
        let mut descend = false;
        match entry.get() {
            NodeData::Text(_) => {
                if let Some(d) = super::NodeRef::new(c.doc, n)
                    .as_text()
                    .and_then(first_strong)
                {
                    return Some(d);
                }
            }
            NodeData::Element(data) => {
                let skip = data.ns == Namespace::Html
                    && (matches!(data.name, ln::BDI | ln::SCRIPT | ln::STYLE | ln::TEXTAREA)
                        || c.index
                            .pos_of(n)
                            .is_some_and(|pos| dir_state(c.at(pos)) != DirState::Undefined));
                descend = !skip;
            }
            _ => {}
        }
        // Next node in tree order within `root`'s subtree.
        node = if descend { entry.first_child() } else { None };
        let mut m = n;
        while node.is_none() && m != root {
            node = arena[m].next_sibling();
            if node.is_none() {
                m = match arena[m].parent() {
                    Some(p) => p,
                    None => break,
                };
            }
        }
    }
    None
}

/// The directionality of every element of `index`: bit 1 set for 'rtl'.
pub(crate) fn compute_all(doc: &Document, index: &TreeIndex, _states: &ElementStates) -> Vec<u8> {
    let n = index.elems.len();
    let mut rtl = vec![0u8; n];
    let c0 = Control { doc, index, pos: 0 };
    for pos in 0..n as u32 {
        let c = c0.at(pos);
        let parent = c.elem().parent;
        // "The parent directionality": the parent element's, or 'ltr' (a Document or
        // DocumentFragment parent).
        let parent_rtl = parent != NONE && rtl[parent as usize] != 0;
        let d = match dir_state(c) {
            DirState::Ltr => Direction::Ltr,
            DirState::Rtl => Direction::Rtl,
            DirState::Auto => auto_directionality(c).unwrap_or(Direction::Ltr),
            DirState::Undefined if c.is(ln::BDI) => {
                auto_directionality(c).unwrap_or(Direction::Ltr)
            }
            DirState::Undefined if c.is(ln::INPUT) && c.input_type() == InputType::Tel => {
                Direction::Ltr
            }
            DirState::Undefined if parent_rtl => Direction::Rtl,
            DirState::Undefined => Direction::Ltr,
        };
        rtl[pos as usize] = u8::from(d == Direction::Rtl);
    }
    rtl
}

impl ElementRef<'_> {
    /// The element's directionality (HTML, "The dir attribute"): from its `dir` attribute,
    /// its text or value for `dir=auto` (and for `bdi`), else inherited from its parent,
    /// `Ltr` at the root. What `:dir(ltr)` and `:dir(rtl)` match.
    ///
    /// ```
    /// use html_arena::{Direction, Document, Selector};
    /// let doc = Document::parse(
    ///     "<div dir=rtl><p>inherits</p></div><p dir=auto>\u{5e9}\u{5dc}\u{5d5}\u{5dd} hello</p>",
    /// );
    /// let ps: Vec<_> = doc.select(&"p".parse::<Selector>().unwrap()).collect();
    /// assert_eq!(ps[0].directionality(), Direction::Rtl);
    /// assert_eq!(ps[1].directionality(), Direction::Rtl);
    /// assert_eq!(doc.body().unwrap().directionality(), Direction::Ltr);
    /// ```
    pub fn directionality(self) -> Direction {
        super::forms::with_control(self, |c| {
            if c.states().is_rtl(c.doc, c.index, c.pos) {
                Direction::Rtl
            } else {
                Direction::Ltr
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strong_characters() {
        assert_eq!(first_strong("123 abc"), Some(Direction::Ltr));
        assert_eq!(first_strong("123 \u{5d0}bc"), Some(Direction::Rtl));
        assert_eq!(first_strong("\u{627}"), Some(Direction::Rtl));
        assert_eq!(first_strong("123 !?"), None);
    }
}
