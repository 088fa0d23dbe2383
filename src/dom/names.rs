//! Interned names and namespaces.
//!
//! Every tag and attribute name the parser knows (all HTML, SVG and MathML element names the
//! specification mentions, and the common attribute names) has a static id, so the tokenizer
//! and tree builder compare integers, never strings. The constants live in [`local_name`]; an
//! unknown name (a custom element, a `data-*` attribute) is interned per [`Document`] instead.
//!
//! [`Document`]: crate::Document

use std::collections::HashMap;
use std::fmt;

#[rustfmt::skip]
#[path = "name_table.rs"]
mod name_table;

/// Constants for every statically interned local name: `local_name::DIV`,
/// `local_name::FOREIGN_OBJECT` (`foreignObject`), `local_name::FOREIGNOBJECT` (`foreignobject`),
/// `local_name::XLINK_HREF` (`xlink:href`, as an attribute is spelled on a tag).
///
/// ```
/// use html_arena::local_name;
/// assert_eq!(local_name::DIV.as_static_str(), Some("div"));
/// assert_eq!(local_name::FOREIGN_OBJECT.as_static_str(), Some("foreignObject"));
/// ```
pub mod local_name {
    pub use super::name_table::consts::*;
}

/// An interned local name (of an element or attribute).
///
/// Static names (see [`local_name`]) compare equal across documents. A dynamic name (one the
/// crate does not know statically) is an index into its document's name table: compare dynamic
/// names only within one document, or compare their strings.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalName(pub(crate) u32);

const DYNAMIC_BIT: u32 = 1 << 31;

impl LocalName {
    /// Looks up a name in the static table (exact, case-sensitive match).
    ///
    /// ```
    /// use html_arena::{LocalName, local_name};
    /// assert_eq!(LocalName::from_static_str("table"), Some(local_name::TABLE));
    /// assert_eq!(LocalName::from_static_str("TABLE"), None);
    /// assert_eq!(LocalName::from_static_str("my-widget"), None);
    /// ```
    #[inline]
    pub fn from_static_str(name: &str) -> Option<LocalName> {
        let bytes = name.as_bytes();
        if bytes.is_empty() || bytes.len() > name_table::MAX_LEN {
            return None;
        }
        let mut slot = (fnv1a(bytes) as usize) & name_table::LOOKUP_MASK;
        // The table is at most half full, so the probe sequence always reaches an empty slot.
        loop {
            let entry = name_table::LOOKUP[slot];
            if entry == 0 {
                return None;
            }
            let id = usize::from(entry - 1);
            if padded_eq(&name_table::PADDED[id], bytes) {
                return Some(LocalName(id as u32));
            }
            slot = (slot + 1) & name_table::LOOKUP_MASK;
        }
    }

    /// The name's text if it is a static name.
    #[inline]
    pub fn as_static_str(self) -> Option<&'static str> {
        name_table::STATIC_NAMES.get(self.0 as usize).copied()
    }

    /// Whether the name is in the static table.
    #[inline]
    pub fn is_static(self) -> bool {
        self.0 & DYNAMIC_BIT == 0
    }

    #[inline]
    pub(crate) fn dynamic(index: u32) -> LocalName {
        LocalName(index | DYNAMIC_BIT)
    }

    #[inline]
    pub(crate) fn dynamic_index(self) -> Option<usize> {
        if self.is_static() {
            None
        } else {
            Some((self.0 & !DYNAMIC_BIT) as usize)
        }
    }
}

impl fmt::Debug for LocalName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_static_str() {
            Some(s) => write!(f, "LocalName({s:?})"),
            None => write!(f, "LocalName(dynamic #{})", self.0 & !DYNAMIC_BIT),
        }
    }
}

/// Whether a zero-padded table entry holds exactly `bytes` (at most 24 of them). A byte loop:
/// names are short, and a `memcmp` call costs more than comparing them.
#[inline]
fn padded_eq(padded: &[u8; 24], bytes: &[u8]) -> bool {
    // Names hold no U+0000: the entry ends where its padding starts.
    if bytes.len() < 24 && padded[bytes.len()] != 0 {
        return false;
    }
    for (a, b) in padded.iter().zip(bytes) {
        if a != b {
            return false;
        }
    }
    true
}

/// FNV-1a, 32 bits: the hash the generated lookup table was built with.
#[inline]
pub(crate) fn fnv1a(bytes: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for &b in bytes {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// The number of statically interned names.
pub(crate) const STATIC_NAME_COUNT: usize = name_table::STATIC_NAMES.len();

/// A per-document table of names that are not in the static table.
#[derive(Clone, Default)]
pub(crate) struct DynamicNames {
    names: Vec<Box<str>>,
    index: HashMap<Box<str>, u32>,
}

impl DynamicNames {
    /// Interns `name`, returning its static id when it has one.
    pub(crate) fn intern(&mut self, name: &str) -> LocalName {
        if let Some(id) = LocalName::from_static_str(name) {
            return id;
        }
        if let Some(&i) = self.index.get(name) {
            return LocalName::dynamic(i);
        }
        // More than 2^31 distinct names cannot occur: each needs input bytes of its own, and
        // inputs are far smaller than that. Saturating keeps this total without a panic path.
        let i = u32::try_from(self.names.len()).unwrap_or(DYNAMIC_BIT - 1) & !DYNAMIC_BIT;
        self.names.push(name.into());
        self.index.insert(name.into(), i);
        LocalName::dynamic(i)
    }

    /// Looks `name` up without interning it.
    pub(crate) fn get(&self, name: &str) -> Option<LocalName> {
        LocalName::from_static_str(name)
            .or_else(|| self.index.get(name).map(|&i| LocalName::dynamic(i)))
    }

    /// The text of `name` (empty for a dynamic id from another document that is out of range).
    pub(crate) fn resolve(&self, name: LocalName) -> &str {
        match name.dynamic_index() {
            None => name.as_static_str().unwrap_or(""),
            Some(i) => self.names.get(i).map_or("", |s| s),
        }
    }
}

/// The namespace of an element.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Namespace {
    /// `http://www.w3.org/1999/xhtml`
    Html,
    /// `http://www.w3.org/2000/svg`
    Svg,
    /// `http://www.w3.org/1998/Math/MathML`
    MathMl,
}

impl Namespace {
    /// The namespace URL.
    pub fn url(self) -> &'static str {
        match self {
            Namespace::Html => "http://www.w3.org/1999/xhtml",
            Namespace::Svg => "http://www.w3.org/2000/svg",
            Namespace::MathMl => "http://www.w3.org/1998/Math/MathML",
        }
    }

    /// The namespace for a URL, if it is one of the three element namespaces.
    pub fn from_url(url: &str) -> Option<Namespace> {
        match url {
            "http://www.w3.org/1999/xhtml" => Some(Namespace::Html),
            "http://www.w3.org/2000/svg" => Some(Namespace::Svg),
            "http://www.w3.org/1998/Math/MathML" => Some(Namespace::MathMl),
            _ => None,
        }
    }
}

/// The namespace of an attribute: none for ordinary attributes, or one of the three namespaces
/// the parser's "adjust foreign attributes" step assigns (with their fixed prefixes).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub enum AttrNamespace {
    /// No namespace (every attribute on an HTML element, most on foreign elements).
    #[default]
    None,
    /// `http://www.w3.org/1999/xlink`, prefix `xlink`.
    XLink,
    /// `http://www.w3.org/XML/1998/namespace`, prefix `xml`.
    Xml,
    /// `http://www.w3.org/2000/xmlns/`, prefix `xmlns` (none for the `xmlns` attribute itself).
    Xmlns,
}

impl AttrNamespace {
    /// The namespace URL, or `None` for [`AttrNamespace::None`].
    pub fn url(self) -> Option<&'static str> {
        match self {
            AttrNamespace::None => None,
            AttrNamespace::XLink => Some("http://www.w3.org/1999/xlink"),
            AttrNamespace::Xml => Some("http://www.w3.org/XML/1998/namespace"),
            AttrNamespace::Xmlns => Some("http://www.w3.org/2000/xmlns/"),
        }
    }

    /// The prefix the parser gives an attribute with this namespace and `local` name.
    pub fn prefix(self, local: &str) -> Option<&'static str> {
        match self {
            AttrNamespace::None => None,
            AttrNamespace::XLink => Some("xlink"),
            AttrNamespace::Xml => Some("xml"),
            AttrNamespace::Xmlns if local == "xmlns" => None,
            AttrNamespace::Xmlns => Some("xmlns"),
        }
    }
}
