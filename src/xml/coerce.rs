//! 13.2.9 "Coercing an HTML DOM into an infoset": the changes that make any tree the HTML
//! parser builds serializable as namespace-well-formed XML 1.0.
//!
//! [`coerce`] rewrites a document in place (one pass over the arena, no tree walk, linear);
//! [`Document::coerce_to_infoset`] does it on a copy. After it, [`serialize`] with "require
//! well-formed" never fails on a tree the parser made, and parsing that XML back gives the
//! coerced tree (namespace declarations aside: see `crate::xml::parse`).
//!
//! The rules, each one of the section's "may"s taken as follows:
//!
//! 1. **Names.** "the tool may map all element and attribute local names that the API
//!    wouldn't support": every element and attribute local name that is not an `NCName` is
//!    mapped, each character that cannot stand where it is (not a `NameStartChar` first, not
//!    a `NameChar` after, or `:`) replaced by `U` and six uppercase hexadecimal digits:
//!    `foo<bar` → `fooU00003Cbar`, `xml:lang` on an HTML element (one local name with a colon,
//!    not a prefixed name) → `xmlU00003Alang`, `1x` → `U000031x`. The parser lowercases
//!    every name it does not adjust, so a mapped name never clashes with a parsed one.
//! 2. **Namespace declarations written in HTML.** "the tool may drop such attributes": an
//!    attribute in no namespace named `xmlns` or starting with `xmlns:`, and every attribute
//!    in the XMLNS namespace, is dropped. The serializer writes the declarations the tree's
//!    namespaces need ("The tool may annotate the output with any namespace declarations
//!    required").
//! 3. **Characters.** "may replace any U+000C FORM FEED (FF) character with a U+0020 SPACE
//!    character, and any other literal non-XML character with a U+FFFD REPLACEMENT
//!    CHARACTER": in text, attribute values, comments and processing instructions. A CR is
//!    an XML character and stays; the well-formed serializer writes it as `&#13;` in text
//!    (and as `&#13;` in attribute values always) so that reading it back keeps it.
//! 4. **Comments.** "may insert a single U+0020 SPACE character between any such offending
//!    characters" (`--` → `- -`, so `---` → `- - -`) and "at the end of such comments"
//!    (a comment ending in `-` gets a trailing space).
//! 5. **DOCTYPEs.** Kept, but only with a name (mapped like an element name, colon
//!    included) and without public and system identifiers: XML needs a system identifier
//!    wherever there is a public one, and an identifier invites XML tools to fetch a DTD.
//!    A DOCTYPE with an empty name is not written by the serializer.
//! 6. **Processing instructions** (never made by the HTML parser; the mutation API can):
//!    the target is mapped like a name, and a target `xml` in any case gets its first letter
//!    mapped (`U000078ml`); `?>` in the data becomes `? >`.
//! 7. **Duplicate attributes** (only the mutation API can make them): after mapping, the
//!    first of two attributes with the same namespace and local name is kept.
//! 8. **Kept as they are**: template contents (the XML serializer writes them as the
//!    template's children, and `crate::xml::parse` puts an XHTML `template`'s children
//!    back into its contents, as the "Parsing XHTML documents" rules do); the quirks mode and
//!    form owners are not written by any serializer, so they are dropped by serializing.
//!
//! ```
//! use html_arena::{Document, xml::XmlSerializeOptions};
//!
//! let doc = Document::parse("<p xml:lang=en fb:like=1>a\u{c}b<!-- x -- y -->");
//! let coerced = doc.coerce_to_infoset();
//! let p = coerced.body().unwrap().first_child().unwrap();
//! assert_eq!(
//!     p.xml_with(&XmlSerializeOptions::well_formed())?,
//!     r#"<p xmlns="http://www.w3.org/1999/xhtml" xmlU00003Alang="en" fbU00003Alike="1">a b<!-- x - - y --></p>"#
//! );
//! # Ok::<(), html_arena::xml::XmlSerializeError>(())
//! ```
//!
//! [`serialize`]: fn@crate::xml::serialize

use std::collections::HashSet;

use super::chars::{all_xml_chars, is_name_char, is_name_start_char, is_ncname, is_xml_char};
use crate::dom::names::AttrNamespace;
use crate::dom::{Attr, AttrRange, Document, NodeData};

/// Coerces `doc` in place (see the [module docs](self) for the rules).
///
/// ```
/// use html_arena::{Document, xml};
/// let mut doc = Document::parse("<a::>x</a::>");
/// xml::coerce(&mut doc);
/// assert_eq!(doc.body().unwrap().first_child().unwrap().as_element().unwrap().local_name(), "aU00003AU00003A");
/// ```
pub fn coerce(doc: &mut Document) {
    let Document {
        arena,
        strings,
        attrs,
        names,
        ..
    } = doc;
    let mut new_attrs: Vec<Attr> = Vec::new();
    let mut seen: HashSet<(AttrNamespace, crate::LocalName)> = HashSet::new();
    for node in arena.iter_mut() {
        if node.is_removed() {
            continue;
        }
        match node.get_mut() {
            NodeData::Element(e) => {
                // Rule 1: the element's local name.
                let local = names.resolve(e.name);
                if !is_ncname(local) {
                    let mapped = map_name(local, false);
                    e.name = names.intern(&mapped);
                }
                // Rules 1, 2, 3, 7: the attributes.
                let run = attrs.get(e.attrs.range()).unwrap_or(&[]);
                let needs_change = run.len() > 1
                    || run.iter().any(|a| {
                        let local = names.resolve(a.name);
                        drops(a.ns, local)
                            || !is_ncname(local)
                            || needs_char_fix(strings.get(a.value))
                    });
                if !needs_change {
                    continue;
                }
                new_attrs.clear();
                seen.clear();
                let mut changed = false;
                for a in run {
                    let local = names.resolve(a.name);
                    if drops(a.ns, local) {
                        changed = true;
                        continue;
                    }
                    let mut a = *a;
                    if !is_ncname(local) {
                        let mapped = map_name(local, false);
                        a.name = names.intern(&mapped);
                        changed = true;
                    }
                    if !seen.insert((a.ns, a.name)) {
                        changed = true;
                        continue;
                    }
                    let value = strings.get(a.value);
                    if needs_char_fix(value) {
                        let fixed = fix_chars(value);
                        let fixed = strings.push(&fixed);
                        a.value = strings.pack(fixed);
                        changed = true;
                    }
                    new_attrs.push(a);
                }
                if changed {
                    let start = u32::try_from(attrs.len()).unwrap_or(u32::MAX);
                    attrs.extend_from_slice(&new_attrs);
                    e.attrs = AttrRange {
                        start,
                        len: u32::try_from(new_attrs.len()).unwrap_or(0),
                    };
                }
            }
            // Rule 3.
            NodeData::Text(r) => {
                let text = strings.get(*r);
                if needs_char_fix(text) {
                    let fixed = fix_chars(text);
                    strings.replace(r, &fixed);
                }
            }
            // Rules 3 and 4.
            NodeData::Comment(r) => {
                let text = strings.get(*r);
                if needs_char_fix(text) || text.contains("--") || text.ends_with('-') {
                    let fixed = fix_comment(&fix_chars(text));
                    strings.replace(r, &fixed);
                }
            }
            // Rule 5.
            NodeData::Doctype(d) => {
                if !d.name.is_empty() && !is_ncname(&d.name) {
                    d.name = map_name(&d.name, false).into();
                }
                d.public_id = "".into();
                d.system_id = "".into();
            }
            // Rule 6.
            NodeData::ProcessingInstruction(pi) => {
                let target = strings.get(pi.target);
                if !is_ncname(target) || target.eq_ignore_ascii_case("xml") {
                    let mapped = map_name(target, target.eq_ignore_ascii_case("xml"));
                    pi.target = strings.push(&mapped);
                }
                let data = strings.get(pi.data);
                if needs_char_fix(data) || data.contains("?>") {
                    let fixed = fix_chars(data).replace("?>", "? >");
                    pi.data = strings.push(&fixed);
                }
            }
            NodeData::Document | NodeData::Fragment => {}
        }
    }
    doc.tree_changed();
}

impl Document {
    /// A copy of the document coerced into an XML infoset (13.2.9; see
    /// [`crate::xml::coerce()`] for the rules): its XML serialization with "require
    /// well-formed" always succeeds when the parser made the tree.
    ///
    /// ```
    /// use html_arena::{Document, xml::XmlSerializeOptions};
    /// let doc = Document::parse("<!DOCTYPE html><p a<b=1>x</p>");
    /// let xml = doc.coerce_to_infoset().root().xml_with(&XmlSerializeOptions::well_formed())?;
    /// assert!(xml.contains(r#"<p aU00003Cb="1">x</p>"#));
    /// # Ok::<(), html_arena::xml::XmlSerializeError>(())
    /// ```
    pub fn coerce_to_infoset(&self) -> Document {
        let mut copy = self.clone();
        coerce(&mut copy);
        copy
    }
}

/// Rule 2: namespace declarations written in HTML, and attributes in the XMLNS namespace.
fn drops(ns: AttrNamespace, local: &str) -> bool {
    match ns {
        AttrNamespace::Xmlns => true,
        AttrNamespace::None => local == "xmlns" || local.starts_with("xmlns:"),
        _ => false,
    }
}

/// Rule 1: each character that cannot stand where it is becomes `U` and six hexadecimal
/// digits. With `map_first`, the first character is mapped whatever it is.
pub(crate) fn map_name(name: &str, map_first: bool) -> String {
    let mut out = String::with_capacity(name.len() + 8);
    for (i, c) in name.chars().enumerate() {
        let allowed = c != ':'
            && if i == 0 {
                !map_first && is_name_start_char(c)
            } else {
                is_name_char(c)
            };
        if allowed {
            out.push(c);
        } else {
            out.push_str(&format!("U{:06X}", u32::from(c)));
        }
    }
    out
}

/// Whether `s` holds a form feed or another non-XML character.
fn needs_char_fix(s: &str) -> bool {
    s.contains('\u{C}') || !all_xml_chars(s)
}

/// Rule 3: FF → space, other non-XML characters → U+FFFD.
fn fix_chars(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{C}' => ' ',
            c if is_xml_char(c) => c,
            _ => '\u{FFFD}',
        })
        .collect()
}

/// Rule 4: a space between the hyphens of every `--`, and after a final `-`.
fn fix_comment(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    let mut previous_hyphen = false;
    for c in s.chars() {
        if c == '-' && previous_hyphen {
            out.push(' ');
        }
        out.push(c);
        previous_hyphen = c == '-';
    }
    if previous_hyphen {
        out.push(' ');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_character_by_character() {
        assert_eq!(map_name("foo<bar", false), "fooU00003Cbar");
        assert_eq!(map_name("xlink:href", false), "xlinkU00003Ahref");
        assert_eq!(map_name("1a", false), "U000031a");
        assert_eq!(map_name("a\u{1F600}", false), "a\u{1F600}");
        assert_eq!(map_name("a\u{FFFF}", false), "aU00FFFF");
        assert_eq!(map_name("xml", true), "U000078ml");
    }

    #[test]
    fn comments_and_characters() {
        assert_eq!(fix_comment("a--b"), "a- -b");
        assert_eq!(fix_comment("---"), "- - - ");
        assert_eq!(fix_comment("a-"), "a- ");
        assert_eq!(fix_chars("a\u{C}b\u{1}c\u{FFFE}"), "a b\u{FFFD}c\u{FFFD}");
        assert!(needs_char_fix("\u{C}"));
        assert!(!needs_char_fix("a\tb\n\r\u{EFFF}"));
    }
}
