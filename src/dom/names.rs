//! Interned names and namespaces.
//!
//! Every tag and attribute name the parser knows (all HTML, SVG and MathML element names the
//! specification mentions, and the common attribute names) has a static id, so the tokenizer
//! and tree builder compare integers, never strings. The constants live in [`local_name`]; an
//! unknown name (a custom element, a `data-*` attribute) is interned per [`Document`] instead.
//!
//! [`Document`]: crate::Document

use std::fmt;
use std::hash::BuildHasher;

use hashbrown::HashTable;

#[rustfmt::skip]
#[path = "name_table.rs"]
mod name_table;

/// Constants for every statically interned local name (about 580 of them): every element
/// name of HTML, SVG and MathML and the common attribute names.
///
/// A constant's name is the local name in upper case, with `-` and `:` as `_` and camelCase
/// split by `_`: `local_name::DIV`, `local_name::ACCEPT_CHARSET` (`accept-charset`),
/// `local_name::FOREIGN_OBJECT` (`foreignObject`), `local_name::FOREIGNOBJECT`
/// (`foreignobject`, as a tag is spelled before the tree builder adjusts it),
/// `local_name::XLINK_HREF` (`xlink:href`, as an attribute is spelled on a tag). They are not
/// listed one by one here; [`LocalName::from_static_str`] looks a name up at run time, and
/// [`LocalName::as_static_str`] gives a constant's text.
///
/// Use them to compare or `match` names without comparing strings:
///
/// ```
/// use html_arena::{Document, LocalName, local_name};
///
/// assert_eq!(local_name::DIV.as_static_str(), Some("div"));
/// assert_eq!(local_name::FOREIGN_OBJECT.as_static_str(), Some("foreignObject"));
/// assert_eq!(LocalName::from_static_str("accept-charset"), Some(local_name::ACCEPT_CHARSET));
///
/// let doc = Document::parse("<h2>Title</h2><p>Text");
/// for e in doc.body().unwrap().element_children() {
///     let heading = matches!(e.name().id(), local_name::H1 | local_name::H2 | local_name::H3);
///     assert_eq!(heading, e.name() == "h2");
/// }
/// ```
pub mod local_name {
    // Hidden from the documentation's item lists (they would crowd "All items"); the module
    // documentation gives the naming rule.
    #[doc(hidden)]
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
        lookup_words(padded_words(bytes))
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

/// Looks up a name given as its zero-padded words.
#[inline]
fn lookup_words(words: [u64; 3]) -> Option<LocalName> {
    let mut slot = name_hash(words) >> name_table::LOOKUP_SHIFT;
    // The table is at most half full, so the probe sequence always reaches an empty slot.
    loop {
        let at = slot & name_table::LOOKUP_MASK;
        let entry = name_table::LOOKUP[at];
        if entry == 0 {
            return None;
        }
        // Names hold no U+0000: equal zero-padded words mean equal names. The first word is
        // in the hash table itself; only a name longer than 8 bytes needs its other words.
        // (Word by word: comparing arrays as a whole reloads `words` from the stack in one
        // wide load, which stalls on the narrower stores that wrote it.)
        if name_table::LOOKUP_FIRST[at] == words[0] {
            let id = usize::from(entry & !name_table::LOOKUP_LONG) - 1;
            let [_, second, third] = if entry & name_table::LOOKUP_LONG != 0 {
                name_table::PADDED[id]
            } else {
                [0; 3]
            };
            if (second ^ words[1]) | (third ^ words[2]) == 0 {
                return Some(LocalName(id as u32));
            }
        }
        slot += 1;
    }
}

/// `bytes` (1 to 24 of them) zero-padded to 24 and read as three little-endian words, with
/// overlapping loads instead of a loop or a `memcpy` call.
#[inline]
fn padded_words(bytes: &[u8]) -> [u64; 3] {
    let n = bytes.len();
    match n {
        0 => [0; 3],
        1..=3 => {
            // The first, middle and last bytes cover every byte of such a short name.
            let w = u64::from(bytes[0])
                | u64::from(bytes[n / 2]) << (8 * (n / 2))
                | u64::from(bytes[n - 1]) << (8 * (n - 1));
            [w, 0, 0]
        }
        4..=8 => {
            // Two overlapping 4-byte loads: the bytes they share are the same, so OR keeps them.
            let lo = u64::from(load_u32(bytes, 0));
            let hi = u64::from(load_u32(bytes, n - 4));
            [lo | hi << (8 * (n - 4)), 0, 0]
        }
        9..=16 => [
            load_u64(bytes, 0),
            load_u64(bytes, n - 8) >> (8 * (16 - n)),
            0,
        ],
        _ => [
            load_u64(bytes, 0),
            load_u64(bytes, 8),
            load_u64(bytes, n.min(24) - 8) >> (8 * (24 - n.min(24))),
        ],
    }
}

#[inline(always)]
fn load_u32(bytes: &[u8], at: usize) -> u32 {
    let mut w = [0; 4];
    w.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(w)
}

#[inline(always)]
fn load_u64(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(w)
}

/// The static names, by id (for tables indexed by a static [`LocalName`]).
pub(crate) fn static_names() -> &'static [&'static str] {
    &name_table::STATIC_NAMES
}

/// The hash the generated lookup table was built with (its top bits pick the slot).
#[inline(always)]
pub(crate) fn name_hash(words: [u64; 3]) -> usize {
    let mixed = (words[0] ^ words[1].rotate_left(21) ^ words[2].rotate_left(42))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> 32) as usize
}

/// The number of statically interned names.
pub(crate) const STATIC_NAME_COUNT: usize = name_table::STATIC_NAMES.len();

/// The table hash of a 32-bit name hash: a bijection spreading it over 64 bits (hash tables
/// take their control bits from the top).
#[inline]
pub(crate) fn spread(h: u32) -> u64 {
    u64::from(h).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// NULs after the last dynamic name (see [`DynamicNames::locate`]).
const NAME_PADDING: usize = 32;

/// A per-document table of names that are not in the static table.
///
/// The names live back to back in one string (no allocation per name); the index is a hash
/// table of their ids, keyed by a per-process random seed so that no page can make names
/// collide on purpose. A name costs its bytes, its end (4 bytes) and an index entry (4 bytes
/// and a control byte): growing the index hashes the names again instead of keeping each
/// hash, which would make an entry 8 bytes (a page with a hundred thousand distinct attribute
/// names keeps them all here).
#[derive(Clone, Default)]
pub(crate) struct DynamicNames {
    /// Every name, back to back.
    text: String,
    /// Each name's end in `text` (its start is the previous name's end).
    ends: Vec<u32>,
    /// Each name's id, by the hash of its text.
    index: HashTable<u32>,
    keys: foldhash::fast::RandomState,
}

/// The text of the dynamic name `i` of `text` and `ends` (a [`DynamicNames`]' fields, apart
/// so that the index can be borrowed mutably while its hasher reads them).
#[inline]
fn name_text<'a>(text: &'a str, ends: &[u32], i: usize) -> &'a str {
    let (start, end) = name_span(ends, i);
    text.get(start..end).unwrap_or("")
}

/// The table hash of a name, under a table's keys.
#[inline]
fn table_hash(keys: &foldhash::fast::RandomState, name: &str) -> u64 {
    spread(keys.hash_one(name) as u32)
}

/// The table hash of each id in a table, for growing it (from a [`DynamicNames`]' fields,
/// so that its index can be borrowed mutably meanwhile).
fn rehash<'a>(
    text: &'a str,
    ends: &'a [u32],
    keys: &'a foldhash::fast::RandomState,
) -> impl Fn(&u32) -> u64 + 'a {
    move |&j| table_hash(keys, name_text(text, ends, j as usize))
}

/// Where the dynamic name `i` starts and ends in the names' text, given each name's end.
#[inline]
fn name_span(ends: &[u32], i: usize) -> (usize, usize) {
    let end = ends.get(i).map_or(0, |&e| e as usize);
    let start = match i.checked_sub(1) {
        Some(p) => ends.get(p).map_or(0, |&e| e as usize),
        None => 0,
    };
    (start, end)
}

impl DynamicNames {
    /// The text of the dynamic name `i`.
    #[inline]
    fn text_of(&self, i: usize) -> &str {
        name_text(&self.text, &self.ends, i)
    }

    /// The table hash of a name.
    #[inline]
    fn hash(&self, name: &str) -> u64 {
        table_hash(&self.keys, name)
    }

    fn find(&self, name: &str, hash: u64) -> Option<u32> {
        self.index
            .find(hash, |&i| self.text_of(i as usize) == name)
            .copied()
    }

    /// Interns `name`, returning its static id when it has one.
    pub(crate) fn intern(&mut self, name: &str) -> LocalName {
        if let Some(id) = LocalName::from_static_str(name) {
            return id;
        }
        let hash = self.hash(name);
        if let Some(i) = self.find(name, hash) {
            return LocalName::dynamic(i);
        }
        // More than 2^31 distinct names, or 4 GiB of them, cannot occur: each needs input
        // bytes of its own, and inputs are far smaller than that. Saturating keeps this total
        // without a panic path.
        let i = u32::try_from(self.ends.len()).unwrap_or(DYNAMIC_BIT - 1) & !DYNAMIC_BIT;
        // The names are followed by NAME_PADDING NULs, so that a reader can copy a window of
        // that size from the start of any name (the serializer's `locate`).
        let names_end = self.ends.last().map_or(0, |&e| e as usize);
        self.text.truncate(names_end);
        self.text.push_str(name);
        self.ends
            .push(u32::try_from(self.text.len()).unwrap_or(u32::MAX));
        self.text.extend(std::iter::repeat_n('\0', NAME_PADDING));
        self.index
            .insert_unique(hash, i, rehash(&self.text, &self.ends, &self.keys));
        LocalName::dynamic(i)
    }

    /// Makes room for `count` more names of `bytes` bytes in all (some of which may be
    /// interned already: room for at most that many).
    pub(crate) fn reserve(&mut self, count: usize, bytes: usize) {
        // Room for the new names and, after them, the padding (see `intern`).
        let used = self.ends.last().map_or(0, |&e| e as usize);
        let want = used.saturating_add(bytes).saturating_add(NAME_PADDING);
        self.text.reserve(want.saturating_sub(self.text.len()));
        self.ends.reserve(count);
        self.index
            .reserve(count, rehash(&self.text, &self.ends, &self.keys));
    }

    /// Looks `name` up without interning it.
    pub(crate) fn get(&self, name: &str) -> Option<LocalName> {
        LocalName::from_static_str(name)
            .or_else(|| self.find(name, self.hash(name)).map(LocalName::dynamic))
    }

    /// The buffer holding every dynamic name and where the dynamic `name` starts and ends in
    /// it (for a reader copying a fixed-size window from the name's start: the serializer);
    /// `None` for a static name. The range may be out of bounds for a foreign id.
    #[inline]
    pub(crate) fn locate(&self, name: LocalName) -> Option<(&str, usize, usize)> {
        let (start, end) = name_span(&self.ends, name.dynamic_index()?);
        Some((&self.text, start, end))
    }

    /// The text of `name` (empty for a dynamic id from another document that is out of range).
    pub(crate) fn resolve(&self, name: LocalName) -> &str {
        match name.dynamic_index() {
            None => name.as_static_str().unwrap_or(""),
            Some(i) => self.text_of(i),
        }
    }
}

/// The namespace of an element.
///
/// The HTML parser makes elements in the first three; an XML document
/// ([`Document::parse_xml`](crate::Document::parse_xml)) may also hold elements in no
/// namespace and in any other namespace, whose URL its document keeps
/// ([`Document::namespace_url`](crate::Document::namespace_url)).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Namespace {
    /// `http://www.w3.org/1999/xhtml`
    Html,
    /// `http://www.w3.org/2000/svg`
    Svg,
    /// `http://www.w3.org/1998/Math/MathML`
    MathMl,
    /// No namespace (only in XML documents).
    None,
    /// Another namespace, by its index in its document's namespace table (compare these only
    /// within one document, or compare their URLs).
    Other(NamespaceId),
}

/// The index of a namespace URL in a document's namespace table (see
/// [`Document::namespace_url`](crate::Document::namespace_url)).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct NamespaceId(pub(crate) u16);

impl Namespace {
    /// The namespace URL: empty for [`Namespace::None`], and also for
    /// [`Namespace::Other`], whose URL only its document knows
    /// ([`Document::namespace_url`](crate::Document::namespace_url) gives every URL).
    pub fn url(self) -> &'static str {
        match self {
            Namespace::Html => "http://www.w3.org/1999/xhtml",
            Namespace::Svg => "http://www.w3.org/2000/svg",
            Namespace::MathMl => "http://www.w3.org/1998/Math/MathML",
            Namespace::None | Namespace::Other(_) => "",
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

/// The namespace of an attribute: none for ordinary attributes, one of the three namespaces
/// the parser's "adjust foreign attributes" step assigns (with their fixed prefixes), or, in
/// an XML document, any other namespace.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
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
    /// Another namespace (XML documents only), by its index in its document's namespace
    /// table ([`Document::attr_namespace_url`](crate::Document::attr_namespace_url)).
    Other(NamespaceId),
}

impl AttrNamespace {
    /// The namespace URL, or `None` for [`AttrNamespace::None`] and for
    /// [`AttrNamespace::Other`], whose URL only its document knows
    /// ([`Document::attr_namespace_url`](crate::Document::attr_namespace_url)).
    pub fn url(self) -> Option<&'static str> {
        match self {
            AttrNamespace::None | AttrNamespace::Other(_) => None,
            AttrNamespace::XLink => Some("http://www.w3.org/1999/xlink"),
            AttrNamespace::Xml => Some("http://www.w3.org/XML/1998/namespace"),
            AttrNamespace::Xmlns => Some("http://www.w3.org/2000/xmlns/"),
        }
    }

    /// A small number for hashing (the variant's position; every `Other` is 4).
    pub(crate) fn key(self) -> u8 {
        match self {
            AttrNamespace::None => 0,
            AttrNamespace::XLink => 1,
            AttrNamespace::Xml => 2,
            AttrNamespace::Xmlns => 3,
            AttrNamespace::Other(_) => 4,
        }
    }

    /// The prefix the HTML parser gives an attribute with this namespace and `local` name
    /// (none for [`AttrNamespace::Other`]: an XML document keeps each attribute's own prefix,
    /// see [`Attribute::prefix`](crate::dom::Attribute::prefix)).
    pub fn prefix(self, local: &str) -> Option<&'static str> {
        match self {
            AttrNamespace::None | AttrNamespace::Other(_) => None,
            AttrNamespace::XLink => Some("xlink"),
            AttrNamespace::Xml => Some("xml"),
            AttrNamespace::Xmlns if local == "xmlns" => None,
            AttrNamespace::Xmlns => Some("xmlns"),
        }
    }
}

/// The namespace URLs and prefixes of an XML document (HTML documents have none): element
/// prefixes are ids into `prefixes` kept in the element data; attribute prefixes that differ
/// from [`AttrNamespace::prefix`] are kept by attribute index.
// (Filled by the XML parser: feature `xml`.)
#[cfg_attr(
    not(all(feature = "xml", feature = "xpath", feature = "url", feature = "forms")),
    allow(dead_code)
)]
#[derive(Clone, Default, Debug)]
pub(crate) struct XmlNames {
    uris: Vec<Box<str>>,
    uri_ids: std::collections::HashMap<Box<str>, u16>,
    /// Prefix `i` is `prefixes[i - 1]`; 0 is no prefix.
    prefixes: Vec<Box<str>>,
    prefix_ids: std::collections::HashMap<Box<str>, u16>,
    /// Attribute index in `Document::attrs` → prefix id.
    pub(crate) attr_prefixes: std::collections::HashMap<u32, u16>,
}

/// More distinct namespace URLs or prefixes than one document can hold (65,535 each).
#[cfg_attr(
    not(all(feature = "xml", feature = "xpath", feature = "url", feature = "forms")),
    allow(dead_code)
)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct TooManyNames;

#[cfg_attr(
    not(all(feature = "xml", feature = "xpath", feature = "url", feature = "forms")),
    allow(dead_code)
)]
impl XmlNames {
    /// The element namespace for `url` (the empty string: no namespace).
    pub(crate) fn namespace(&mut self, url: &str) -> Result<Namespace, TooManyNames> {
        if url.is_empty() {
            return Ok(Namespace::None);
        }
        if let Some(ns) = Namespace::from_url(url) {
            return Ok(ns);
        }
        Ok(Namespace::Other(self.uri_id(url)?))
    }

    /// The attribute namespace for `url` (the empty string: no namespace).
    pub(crate) fn attr_namespace(&mut self, url: &str) -> Result<AttrNamespace, TooManyNames> {
        Ok(match url {
            "" => AttrNamespace::None,
            "http://www.w3.org/1999/xlink" => AttrNamespace::XLink,
            "http://www.w3.org/XML/1998/namespace" => AttrNamespace::Xml,
            "http://www.w3.org/2000/xmlns/" => AttrNamespace::Xmlns,
            _ => AttrNamespace::Other(self.uri_id(url)?),
        })
    }

    fn uri_id(&mut self, url: &str) -> Result<NamespaceId, TooManyNames> {
        if let Some(&id) = self.uri_ids.get(url) {
            return Ok(NamespaceId(id));
        }
        let id = u16::try_from(self.uris.len()).map_err(|_| TooManyNames)?;
        self.uris.push(url.into());
        self.uri_ids.insert(url.into(), id);
        Ok(NamespaceId(id))
    }

    /// The id of `prefix` (0 for none).
    pub(crate) fn prefix_id(&mut self, prefix: Option<&str>) -> Result<u16, TooManyNames> {
        let Some(prefix) = prefix else { return Ok(0) };
        if let Some(&id) = self.prefix_ids.get(prefix) {
            return Ok(id);
        }
        let id = u16::try_from(self.prefixes.len() + 1).map_err(|_| TooManyNames)?;
        self.prefixes.push(prefix.into());
        self.prefix_ids.insert(prefix.into(), id);
        Ok(id)
    }

    /// The URL of an `Other` namespace.
    pub(crate) fn url(&self, id: NamespaceId) -> &str {
        self.uris.get(usize::from(id.0)).map_or("", |u| u)
    }

    /// The prefix with id `id` (none for 0).
    pub(crate) fn prefix(&self, id: u16) -> Option<&str> {
        usize::from(id)
            .checked_sub(1)
            .and_then(|i| self.prefixes.get(i))
            .map(|p| &**p)
    }
}

impl super::Document {
    /// The URL of an element namespace, for every namespace (`""` for [`Namespace::None`]).
    ///
    /// ```
    /// # #[cfg(feature = "xml")]
    /// # fn main() -> Result<(), html_arena::xml::XmlParseError> {
    /// use html_arena::{Document, Namespace};
    /// let doc = Document::parse_xml(r#"<feed xmlns="http://www.w3.org/2005/Atom"/>"#)?;
    /// let feed = doc.document_element().unwrap();
    /// assert!(matches!(feed.namespace(), Namespace::Other(_)));
    /// assert_eq!(doc.namespace_url(feed.namespace()), "http://www.w3.org/2005/Atom");
    /// assert_eq!(doc.namespace_url(Namespace::Svg), "http://www.w3.org/2000/svg");
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "xml"))]
    /// # fn main() {}
    /// ```
    pub fn namespace_url(&self, ns: Namespace) -> &str {
        match ns {
            Namespace::Other(id) => self.xml_names.as_ref().map_or("", |x| x.url(id)),
            ns => ns.url(),
        }
    }

    /// The URL of an attribute namespace, for every namespace (`None` for
    /// [`AttrNamespace::None`]).
    pub fn attr_namespace_url(&self, ns: AttrNamespace) -> Option<&str> {
        match ns {
            AttrNamespace::Other(id) => Some(self.xml_names.as_ref().map_or("", |x| x.url(id))),
            ns => ns.url(),
        }
    }

    /// Whether the document was parsed as XML ([`Document::parse_xml`](crate::Document::parse_xml)):
    /// names are then case-sensitive everywhere, and elements may have prefixes.
    pub fn is_xml(&self) -> bool {
        self.xml_names.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_static_name_is_found_and_nothing_else() {
        for (id, name) in name_table::STATIC_NAMES.iter().enumerate() {
            assert_eq!(LocalName::from_static_str(name), Some(LocalName(id as u32)));
            // Near misses: one byte more, one less, one changed, another case.
            for other in [
                format!("{name}x"),
                format!("{name}\u{e9}"),
                format!("x{name}"),
                name[..name.len() - 1].to_owned(),
                name[1..].to_owned(),
                name.to_ascii_uppercase(),
                format!("{name}{name}"),
            ] {
                let expected = name_table::STATIC_NAMES
                    .iter()
                    .position(|n| *n == other)
                    .map(|i| LocalName(i as u32));
                assert_eq!(LocalName::from_static_str(&other), expected, "{other:?}");
            }
        }
        for miss in [
            "",
            "data-x",
            "my-element",
            "\u{e9}",
            "aaaaaaaaaaaaaaaaaaaaaaaaa",
        ] {
            assert_eq!(LocalName::from_static_str(miss), None);
        }
    }

    #[test]
    fn padded_words_are_the_bytes_zero_padded() {
        let text = b"abcdefghijklmnopqrstuvwx";
        for n in 1..=24 {
            let mut padded = [0u8; 24];
            padded[..n].copy_from_slice(&text[..n]);
            let word = |k: usize| {
                let mut w = [0; 8];
                w.copy_from_slice(&padded[8 * k..8 * k + 8]);
                u64::from_le_bytes(w)
            };
            assert_eq!(padded_words(&text[..n]), [word(0), word(1), word(2)], "{n}");
        }
    }
}
