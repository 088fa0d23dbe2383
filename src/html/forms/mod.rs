//! Form controls and the element state that depends on the tree around an element, as a parsed
//! (never user-edited) document holds them.
//!
//! A parsed document is a snapshot: form controls hold their default values (the `value`,
//! `checked` and `selected` attributes, a `textarea`'s text), nothing is dirty, nothing was
//! typed. Under that reading this module computes, per element:
//!
//! - the state several layers need: disabledness (HTML, "Enabling and disabling form
//!   controls"), checkedness and selectedness (radio button groups, the `select` element's
//!   selectedness setting algorithm), the form owner ("Association of controls and forms"),
//!   editability (`contenteditable`), the language ("The lang and xml:lang attributes");
//! - constraint validation ("Constraint validation"): candidates, each control's value after
//!   its type's value sanitization algorithm ([`sanitize`]), and its validity states
//!   ([`validity`]);
//! - directionality ("The dir attribute", in `html/direction.rs`).
//!
//! The state of all elements of a tree is computed in one pass the first time something asks
//! for it, and kept with the document's element index, which every mutation drops. Validity
//! and directionality are computed on their own first use, so a query for `:checked` never
//! pays for them.
//!
//! The public API is on [`ElementRef`]: [`ElementRef::validity`],
//! [`ElementRef::will_validate`], [`ElementRef::value`], [`ElementRef::form_owner`],
//! [`ElementRef::directionality`].
//!
//! What a static document cannot know: the parser associates a control with the form its
//! "form element pointer" names even when the control ends up outside that form
//! (`<div><form></div><input>`); the tree does not record that pointer, so such a control's
//! form owner is its nearest ancestor form (or its `form` attribute's), as after any later
//! re-association.

pub(crate) mod numbers;
#[cfg(feature = "forms")]
pub(crate) mod pattern;
pub(crate) mod sanitize;
pub(crate) mod validity;

use std::borrow::Cow;
use std::collections::HashMap as StdHashMap;
use std::sync::OnceLock;

pub use validity::ValidityState;

/// The maps the tree-wide pass builds (ids, radio groups, forms): keyed by strings and
/// positions from the document, hashed fast.
type HashMap<K, V> = StdHashMap<K, V, foldhash::fast::RandomState>;

use super::names::{AttrNamespace, LocalName, Namespace, local_name as ln};
use super::{Document, ElementRef};
use crate::query::index::{Elem, NONE, TreeIndex};

/// Flag: the element is actually disabled.
pub(crate) const DISABLED: u8 = 1;
/// Flag: checked (checkbox, radio) or selected (option).
pub(crate) const CHECKED: u8 = 2;
/// Flag: the default button of its form owner.
pub(crate) const DEFAULT: u8 = 4;
/// Flag: a radio button whose group has no checked button.
pub(crate) const INDETERMINATE: u8 = 8;
/// Flag: matches `:read-write`.
pub(crate) const READ_WRITE: u8 = 16;
/// Flag: a radio button whose group has a required button and no checked one.
pub(crate) const GROUP_MISSING: u8 = 32;

/// The states of the `type` attribute of `input` (HTML, "States of the type attribute").
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum InputType {
    Hidden,
    Text,
    Search,
    Tel,
    Url,
    Email,
    Password,
    Date,
    Month,
    Week,
    Time,
    DateTimeLocal,
    Number,
    Range,
    Color,
    Checkbox,
    Radio,
    File,
    Submit,
    Image,
    Reset,
    Button,
}

impl InputType {
    /// The state of a `type` attribute's value: an ASCII case-insensitive keyword; missing or
    /// invalid values are the Text state.
    pub(crate) fn from_attr(value: Option<&str>) -> InputType {
        use InputType::*;
        const KEYWORDS: [(&str, InputType); 21] = [
            ("hidden", Hidden),
            ("search", Search),
            ("tel", Tel),
            ("url", Url),
            ("email", Email),
            ("password", Password),
            ("date", Date),
            ("month", Month),
            ("week", Week),
            ("time", Time),
            ("datetime-local", DateTimeLocal),
            ("number", Number),
            ("range", Range),
            ("color", Color),
            ("checkbox", Checkbox),
            ("radio", Radio),
            ("file", File),
            ("submit", Submit),
            ("image", Image),
            ("reset", Reset),
            ("button", Button),
        ];
        let Some(value) = value else {
            return Text;
        };
        KEYWORDS
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(value))
            .map_or(Text, |(_, t)| *t)
    }

    /// Whether the `readonly` attribute applies (HTML, "Input type attribute summary").
    pub(crate) fn readonly_applies(self) -> bool {
        use InputType::*;
        matches!(
            self,
            Text | Search
                | Url
                | Tel
                | Email
                | Password
                | Date
                | Month
                | Week
                | Time
                | DateTimeLocal
                | Number
        )
    }

    /// Whether the `required` attribute applies.
    pub(crate) fn required_applies(self) -> bool {
        use InputType::*;
        !matches!(
            self,
            Hidden | Range | Color | Submit | Image | Reset | Button
        )
    }

    /// Whether the `placeholder` attribute applies.
    pub(crate) fn placeholder_applies(self) -> bool {
        use InputType::*;
        matches!(self, Text | Search | Url | Tel | Email | Password | Number)
    }

    /// Whether `min`, `max` and `step` apply.
    pub(crate) fn range_applies(self) -> bool {
        use InputType::*;
        matches!(
            self,
            Date | Month | Week | Time | DateTimeLocal | Number | Range
        )
    }

    /// Whether the `pattern` attribute applies.
    pub(crate) fn pattern_applies(self) -> bool {
        use InputType::*;
        matches!(self, Text | Search | Url | Tel | Email | Password)
    }
}

/// An element of an index, with the document, for reading attributes.
#[derive(Clone, Copy)]
pub(crate) struct Control<'a> {
    pub(crate) doc: &'a Document,
    pub(crate) index: &'a TreeIndex,
    pub(crate) pos: u32,
}

impl<'a> Control<'a> {
    #[inline]
    pub(crate) fn elem(self) -> &'a Elem {
        self.index.elem(self.pos)
    }

    /// The value of the attribute `name` in no namespace.
    #[inline]
    pub(crate) fn attr(self, name: LocalName) -> Option<&'a str> {
        attr(self.doc, self.elem(), name)
    }

    /// Whether the element is the HTML element `name`.
    #[inline]
    pub(crate) fn is(self, name: LocalName) -> bool {
        let e = self.elem();
        e.ns == Namespace::Html && e.name == name
    }

    /// The state of an `input`'s `type` attribute.
    #[inline]
    pub(crate) fn input_type(self) -> InputType {
        InputType::from_attr(self.attr(ln::TYPE))
    }

    /// The element at `pos` of the same index.
    #[inline]
    pub(crate) fn at(self, pos: u32) -> Control<'a> {
        Control { pos, ..self }
    }

    /// The element children, in order.
    pub(crate) fn children(self) -> impl Iterator<Item = Control<'a>> + 'a {
        let index = self.index;
        let end = self.elem().end;
        let first = if self.pos + 1 < end {
            self.pos + 1
        } else {
            NONE
        };
        std::iter::successors((first != NONE).then_some(first), move |&c| {
            let next = index.elem(c).next;
            (next != NONE).then_some(next)
        })
        .map(move |pos| self.at(pos))
    }

    /// The concatenated data of the element's Text children ("child text content").
    pub(crate) fn child_text(self) -> Cow<'a, str> {
        let node = super::NodeRef::new(self.doc, self.elem().node);
        let mut texts = node.children().filter_map(|c| c.as_text());
        let Some(first) = texts.next() else {
            return Cow::Borrowed("");
        };
        match texts.next() {
            None => Cow::Borrowed(first),
            Some(second) => {
                let mut s = String::from(first);
                s.push_str(second);
                texts.for_each(|t| s.push_str(t));
                Cow::Owned(s)
            }
        }
    }

    /// The states of the element's index.
    pub(crate) fn states(self) -> &'a ElementStates {
        states(self.doc, self.index)
    }
}

/// The value of the attribute `name` in no namespace of the element `e`.
#[inline]
pub(crate) fn attr<'d>(doc: &'d Document, e: &Elem, name: LocalName) -> Option<&'d str> {
    doc.attrs
        .get(e.attrs.range())?
        .iter()
        .find(|a| a.name == name && a.ns == AttrNamespace::None)
        .map(|a| doc.str(a.value))
}

/// The state of `index`'s elements, computed on first use.
/// They are kept in the index's opaque slot for this room (`TreeIndex::html`: the index,
/// below this room, does not know their type), so every mutation that changes the index
/// drops them.
pub(crate) fn states<'i>(doc: &Document, index: &'i TreeIndex) -> &'i ElementStates {
    match crate::dom::hooks::slot(&index.html.0, || ElementStates::compute(doc, index)) {
        Some(states) => states,
        // (The slot holds this type: not reached.)
        None => {
            static EMPTY: OnceLock<ElementStates> = OnceLock::new();
            EMPTY.get_or_init(ElementStates::default)
        }
    }
}

/// What the tree gives each element of an index (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct ElementStates {
    flags: Vec<u8>,
    /// The attribute (index into the document's attributes) that gives each element its
    /// language, or `NONE`.
    lang: Vec<u32>,
    /// The pragma-set default language (`<meta http-equiv=content-language>`), for elements
    /// of the document's tree with no `lang` in scope.
    default_lang: Option<Box<str>>,
    /// The form owner of each form-associated element, or `NONE`.
    form_owner: Vec<u32>,
    /// `validity::V_*` bits, computed on first use.
    validity: OnceLock<Vec<u8>>,
    /// `super::direction::RTL` bits, computed on first use.
    direction: OnceLock<Vec<u8>>,
}

impl ElementStates {
    /// The `DISABLED`, `CHECKED`, ... flags of the element at `pos`.
    #[inline]
    pub(crate) fn flags(&self, pos: u32) -> u8 {
        self.flags.get(pos as usize).copied().unwrap_or(0)
    }

    /// The form owner of the element at `pos`, or `NONE`.
    #[inline]
    pub(crate) fn form_owner(&self, pos: u32) -> u32 {
        self.form_owner.get(pos as usize).copied().unwrap_or(NONE)
    }

    /// The `validity::V_*` bits of the element at `pos`.
    #[inline]
    pub(crate) fn validity_bits(&self, doc: &Document, index: &TreeIndex, pos: u32) -> u8 {
        let bits = self
            .validity
            .get_or_init(|| validity::compute_all(doc, index, self));
        bits.get(pos as usize).copied().unwrap_or(0)
    }

    /// Whether the element at `pos` has the directionality 'rtl'.
    #[inline]
    pub(crate) fn is_rtl(&self, doc: &Document, index: &TreeIndex, pos: u32) -> bool {
        let bits = self
            .direction
            .get_or_init(|| super::direction::compute_all(doc, index, self));
        bits.get(pos as usize).is_some_and(|b| b & 1 != 0)
    }

    /// The language of the element at `pos`: the `xml:lang` or `lang` attribute of it or its
    /// nearest ancestor that has one, else the document's default language (HTML, "The lang
    /// and xml:lang attributes"); `None` when unknown.
    pub(crate) fn language<'d>(
        &'d self,
        doc: &'d Document,
        index: &TreeIndex,
        pos: u32,
    ) -> Option<&'d str> {
        match self.lang.get(pos as usize).copied().unwrap_or(NONE) {
            NONE if index.has_lists && index.tree_of(pos) == 0 => self.default_lang.as_deref(),
            NONE => None,
            attr => doc.attrs.get(attr as usize).map(|a| doc.str(a.value)),
        }
    }

    /// Computes the state of every element of `index`: one pass in document order (parents
    /// before children), plus small maps for forms, radio groups and ids.
    pub(crate) fn compute(doc: &Document, index: &TreeIndex) -> ElementStates {
        let n = index.elems.len();
        let mut flags = vec![0u8; n];
        let mut lang = vec![NONE; n];
        let mut form_owner = vec![NONE; n];
        // Inherited: inside a disabled fieldset (not in its first legend); editable
        // (contenteditable); the nearest form ancestor.
        let mut in_disabled_fieldset = vec![false; n];
        let mut editable = vec![false; n];
        let mut form_ancestor = vec![NONE; n];
        // Inside a select (not inside a datalist or another select within it): the select
        // decides the selectedness of such options.
        let mut in_select = vec![false; n];
        let mut default_lang: Option<Box<str>> = None;
        let c0 = Control { doc, index, pos: 0 };

        let is_html = |pos: u32, name: LocalName| -> bool {
            index
                .elems
                .get(pos as usize)
                .is_some_and(|e| e.ns == Namespace::Html && e.name == name)
        };
        let main_tree = index.trees.first().copied().unwrap_or((0, 0));
        let is_document_index = index.has_lists;
        let mut fieldset_legend: HashMap<u32, u32> = HashMap::default();
        let mut any_form_attr = false;

        for pos in 0..n as u32 {
            let e = &index.elems[pos as usize];
            let p = e.parent;
            let html = e.ns == Namespace::Html;
            // Inherited state, from the parent (computed first: document order).
            if p != NONE {
                let pi = p as usize;
                // "A form control is disabled if ... it is a descendant of a fieldset element
                // whose disabled attribute is specified, and is not a descendant of that
                // fieldset element's first legend element child, if any."
                in_disabled_fieldset[pos as usize] = in_disabled_fieldset[pi]
                    || (is_html(p, ln::FIELDSET)
                        && attr(doc, &index.elems[pi], ln::DISABLED).is_some()
                        && *fieldset_legend.entry(p).or_insert_with(|| {
                            c0.at(p)
                                .children()
                                .find(|c| c.is(ln::LEGEND))
                                .map_or(NONE, |c| c.pos)
                        }) != pos);
                editable[pos as usize] = editable[pi];
                in_select[pos as usize] = if is_html(p, ln::SELECT) {
                    true
                } else if is_html(p, ln::DATALIST) {
                    false
                } else {
                    in_select[pi]
                };
                lang[pos as usize] = lang[pi];
                form_ancestor[pos as usize] = if is_html(p, ln::FORM) {
                    p
                } else {
                    form_ancestor[pi]
                };
            }
            // The element's own language: xml:lang, else lang (on HTML and SVG elements).
            let range = e.attrs.range();
            let (mut xml_lang, mut plain_lang) = (NONE, NONE);
            for (i, a) in doc
                .attrs
                .get(range.clone())
                .unwrap_or(&[])
                .iter()
                .enumerate()
            {
                if a.name == ln::LANG {
                    if a.ns == AttrNamespace::Xml {
                        xml_lang = (range.start + i) as u32;
                    } else if a.ns == AttrNamespace::None && (html || e.ns == Namespace::Svg) {
                        plain_lang = (range.start + i) as u32;
                    }
                }
            }
            if xml_lang != NONE {
                lang[pos as usize] = xml_lang;
            } else if plain_lang != NONE {
                lang[pos as usize] = plain_lang;
            }
            if !html {
                continue;
            }
            if let Some(v) = attr(doc, e, ln::CONTENTEDITABLE) {
                // "true", "" and "plaintext-only" make an editing host; "false" stops
                // editability; anything else inherits.
                if v.is_empty()
                    || v.eq_ignore_ascii_case("true")
                    || v.eq_ignore_ascii_case("plaintext-only")
                {
                    editable[pos as usize] = true;
                } else if v.eq_ignore_ascii_case("false") {
                    editable[pos as usize] = false;
                }
            }
            if attr(doc, e, ln::FORM).is_some() {
                any_form_attr = true;
            }
            // The pragma-set default language: the last such <meta> in the document's tree
            // (HTML, "Pragma directives", Content language state).
            if e.name == ln::META
                && pos >= main_tree.0
                && pos < main_tree.1
                && is_document_index
                && attr(doc, e, ln::HTTP_EQUIV)
                    .is_some_and(|v| v.eq_ignore_ascii_case("content-language"))
            {
                if let Some(content) = attr(doc, e, ln::CONTENT) {
                    if !content.contains(',') {
                        let candidate = content
                            .trim_start_matches([' ', '\t', '\n', '\x0C', '\r'])
                            .split([' ', '\t', '\n', '\x0C', '\r'])
                            .next()
                            .unwrap_or("");
                        if !candidate.is_empty() {
                            default_lang = Some(candidate.into());
                        }
                    }
                }
            }
        }

        // Ids, for `form` attributes (only when some element has one).
        let mut first_with_id: HashMap<&str, u32> = HashMap::default();
        if any_form_attr {
            for pos in main_tree.0..main_tree.1 {
                let e = &index.elems[pos as usize];
                if let Some(a) = doc.attrs.get(e.id_attr as usize) {
                    first_with_id.entry(doc.str(a.value)).or_insert(pos);
                }
            }
        }
        // The form owner (HTML, "Association of controls and forms", reset the form owner):
        // with a form attribute in a connected tree, the first element with that id if it is
        // a form (else none); otherwise the nearest form ancestor.
        let owner_of = |pos: u32| -> u32 {
            let e = &index.elems[pos as usize];
            if let Some(id) = attr(doc, e, ln::FORM) {
                if pos >= main_tree.0 && pos < main_tree.1 && is_document_index {
                    return match first_with_id.get(id) {
                        Some(&f) if is_html(f, ln::FORM) => f,
                        _ => NONE,
                    };
                }
            }
            form_ancestor[pos as usize]
        };

        // Radio button groups: the same tree, form owner and non-empty name. The parser
        // inserts radios in document order and each checked one unchecks the rest of its
        // group, so the last checked radio of a group is the checked one. Per group: the last
        // checked radio, and whether any is required.
        let mut groups: HashMap<(usize, u32, &str), (u32, bool)> = HashMap::default();
        let mut default_buttons: HashMap<u32, ()> = HashMap::default();
        for pos in 0..n as u32 {
            let e = &index.elems[pos as usize];
            if e.ns != Namespace::Html {
                continue;
            }
            let c = c0.at(pos);
            let disabled_control =
                attr(doc, e, ln::DISABLED).is_some() || in_disabled_fieldset[pos as usize];
            let name = e.name;
            // Listed elements have a form owner.
            if [
                ln::BUTTON,
                ln::FIELDSET,
                ln::INPUT,
                ln::OBJECT,
                ln::OUTPUT,
                ln::SELECT,
                ln::TEXTAREA,
            ]
            .contains(&name)
            {
                form_owner[pos as usize] = owner_of(pos);
            } else if name == ln::IMG {
                // img is form-associated but not listed: no form attribute.
                form_owner[pos as usize] = form_ancestor[pos as usize];
            }
            if name == ln::INPUT {
                let t = c.input_type();
                if disabled_control {
                    flags[pos as usize] |= DISABLED;
                }
                match t {
                    InputType::Checkbox if attr(doc, e, ln::CHECKED).is_some() => {
                        flags[pos as usize] |= CHECKED;
                    }
                    InputType::Radio => {
                        let group_name = attr(doc, e, ln::NAME).unwrap_or("");
                        let checked = attr(doc, e, ln::CHECKED).is_some();
                        let required = attr(doc, e, ln::REQUIRED).is_some();
                        if group_name.is_empty() {
                            flags[pos as usize] |= if checked {
                                CHECKED
                            } else if required {
                                INDETERMINATE | GROUP_MISSING
                            } else {
                                INDETERMINATE
                            };
                        } else {
                            let key = (index.tree_of(pos), form_owner[pos as usize], group_name);
                            let group = groups.entry(key).or_insert((NONE, false));
                            if checked {
                                group.0 = pos;
                            }
                            group.1 |= required;
                        }
                    }
                    InputType::Submit | InputType::Image => {
                        let owner = form_owner[pos as usize];
                        if owner != NONE && default_buttons.insert(owner, ()).is_none() {
                            flags[pos as usize] |= DEFAULT;
                        }
                    }
                    _ => {}
                }
                if t.readonly_applies() && attr(doc, e, ln::READONLY).is_none() && !disabled_control
                {
                    flags[pos as usize] |= READ_WRITE;
                }
            } else if name == ln::BUTTON {
                if disabled_control {
                    flags[pos as usize] |= DISABLED;
                }
                let owner = form_owner[pos as usize];
                if is_submit_button(c)
                    && owner != NONE
                    && default_buttons.insert(owner, ()).is_none()
                {
                    flags[pos as usize] |= DEFAULT;
                }
            } else if name == ln::SELECT || name == ln::FIELDSET {
                if disabled_control {
                    flags[pos as usize] |= DISABLED;
                }
                if name == ln::SELECT {
                    select_options(c, &mut flags);
                }
            } else if name == ln::TEXTAREA {
                if disabled_control {
                    flags[pos as usize] |= DISABLED;
                } else if attr(doc, e, ln::READONLY).is_none() {
                    flags[pos as usize] |= READ_WRITE;
                }
            } else if name == ln::OPTGROUP {
                if attr(doc, e, ln::DISABLED).is_some() {
                    flags[pos as usize] |= DISABLED;
                }
            } else if name == ln::OPTION {
                // "Except where otherwise specified, when the element is created, its
                // selectedness must be set to true if the element has a selected attribute":
                // a select adjusts its own options (above); others keep that.
                if attr(doc, e, ln::SELECTED).is_some() && !in_select[pos as usize] {
                    flags[pos as usize] |= CHECKED;
                }
                // "An option element is disabled if its disabled attribute is present or if it
                // is a child of an optgroup element whose disabled attribute is present."
                let p = e.parent;
                if attr(doc, e, ln::DISABLED).is_some()
                    || (is_html(p, ln::OPTGROUP)
                        && attr(doc, &index.elems[p as usize], ln::DISABLED).is_some())
                {
                    flags[pos as usize] |= DISABLED;
                }
            }
            // Editing hosts and editable HTML elements match :read-write (form controls have
            // their own rule above).
            if name != ln::INPUT && name != ln::TEXTAREA && editable[pos as usize] {
                flags[pos as usize] |= READ_WRITE;
            }
        }
        // Radio groups: the last checked radio is checked; a group with none checked makes
        // all its radios indeterminate, and missing if one is required.
        for pos in 0..n as u32 {
            let c = c0.at(pos);
            if !c.is(ln::INPUT) || c.input_type() != InputType::Radio {
                continue;
            }
            let group_name = c.attr(ln::NAME).unwrap_or("");
            if group_name.is_empty() {
                continue;
            }
            let key = (index.tree_of(pos), form_owner[pos as usize], group_name);
            match groups.get(&key) {
                Some(&(last, _)) if last == pos => flags[pos as usize] |= CHECKED,
                Some(&(NONE, true)) => flags[pos as usize] |= INDETERMINATE | GROUP_MISSING,
                Some(&(NONE, false)) | None => flags[pos as usize] |= INDETERMINATE,
                Some(_) => {}
            }
        }
        ElementStates {
            flags,
            lang,
            default_lang,
            form_owner,
            validity: OnceLock::new(),
            direction: OnceLock::new(),
        }
    }
}

/// Whether a `button` element is in the Submit Button state: `type=submit`, or the Auto state
/// (missing or invalid type) without a `commandfor` attribute (HTML, "The button element").
pub(crate) fn is_submit_button(c: Control<'_>) -> bool {
    match c.attr(ln::TYPE) {
        Some(t) if t.eq_ignore_ascii_case("submit") => true,
        Some(t) if t.eq_ignore_ascii_case("reset") || t.eq_ignore_ascii_case("button") => false,
        _ => c
            .doc
            .names
            .get("commandfor")
            .is_none_or(|name| c.attr(name).is_none()),
    }
}

/// The `select` element's list of options, each with whether an `optgroup` it is in is
/// disabled and whether it is in an `optgroup` at all. With the relaxed `select` content model
/// (HTML, "The select element", as browsers now parse it) options may sit inside other
/// elements: the list holds the option descendants in tree order, leaving out those of nested
/// `select` and `datalist` elements (Chromium answers the same).
pub(crate) fn list_of_options(select: Control<'_>) -> Vec<(Control<'_>, bool, bool)> {
    let mut options = Vec::new();
    // The optgroups open around the current position: (end of subtree, disabled).
    let mut groups: Vec<(u32, bool)> = Vec::new();
    let mut disabled_groups = 0usize;
    let end = select.elem().end;
    let mut pos = select.pos + 1;
    while pos < end {
        while groups
            .last()
            .is_some_and(|&(group_end, _)| group_end <= pos)
        {
            if groups.pop().is_some_and(|(_, disabled)| disabled) {
                disabled_groups -= 1;
            }
        }
        let c = select.at(pos);
        if c.is(ln::SELECT) || c.is(ln::DATALIST) {
            pos = c.elem().end.max(pos + 1);
            continue;
        }
        if c.is(ln::OPTION) {
            options.push((c, disabled_groups > 0, !groups.is_empty()));
        } else if c.is(ln::OPTGROUP) {
            let disabled = c.attr(ln::DISABLED).is_some();
            disabled_groups += usize::from(disabled);
            groups.push((c.elem().end, disabled));
        }
        pos += 1;
    }
    options
}

/// A `select`'s display size: its `size` attribute if the "rules for parsing non-negative
/// integers" give a number above zero (leading ASCII whitespace, an optional `+`, digits,
/// anything after ignored), else 4 with `multiple` and 1 without.
pub(crate) fn display_size(select: Control<'_>) -> u64 {
    let size = select.attr(ln::SIZE).and_then(|s| {
        let s = s.trim_start_matches([' ', '\t', '\n', '\x0C', '\r']);
        let s = s.strip_prefix('+').unwrap_or(s);
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        // Saturates: any size above 1 gives the same answers here.
        s.get(..digits.min(18))?.parse::<u64>().ok()
    });
    match size.filter(|&s| s > 0) {
        Some(size) => size,
        None if select.attr(ln::MULTIPLE).is_some() => 4,
        None => 1,
    }
}

/// Selectedness of the options of a `select` (HTML, "The select element": the selectedness
/// setting algorithm, as it stands after parsing). Without `multiple` and with a display
/// size of 1, the last option with a `selected` attribute is selected, or else the first
/// option that is not disabled; otherwise every option with a `selected` attribute is.
fn select_options(select: Control<'_>, flags: &mut [u8]) {
    let options = list_of_options(select);
    if select.attr(ln::MULTIPLE).is_some() || display_size(select) > 1 {
        for &(o, _, _) in &options {
            if o.attr(ln::SELECTED).is_some() {
                flags[o.pos as usize] |= CHECKED;
            }
        }
        return;
    }
    let chosen = options
        .iter()
        .rev()
        .find(|(o, _, _)| o.attr(ln::SELECTED).is_some())
        .or_else(|| {
            options
                .iter()
                .find(|(o, group_disabled, _)| !group_disabled && o.attr(ln::DISABLED).is_none())
        });
    if let Some((o, _, _)) = chosen {
        flags[o.pos as usize] |= CHECKED;
    }
}

// ---------------------------------------------------------------------------------------------
// The public API.

/// Runs `f` on the element's index and position: the document's index, or a temporary index
/// of the detached tree the element belongs to.
pub(crate) fn with_control<'a, R>(el: ElementRef<'a>, f: impl FnOnce(Control<'_>) -> R) -> R {
    let doc = el.document();
    let shared = doc.select_index();
    if let Some(pos) = shared.pos_of(el.raw_id()) {
        return f(Control {
            doc,
            index: shared,
            pos,
        });
    }
    let top = el.ancestors().last().unwrap_or(el.as_node());
    let owned = TreeIndex::for_tree(doc, top.raw_id());
    let pos = owned.pos_of(el.raw_id()).unwrap_or(0);
    f(Control {
        doc,
        index: &owned,
        pos,
    })
}

impl<'a> ElementRef<'a> {
    /// The element's validity states (HTML, "Constraint validation": the `validity` IDL
    /// attribute), for the listed form elements (`button`, `fieldset`, `input`, `object`,
    /// `output`, `select`, `textarea`); `None` for other elements.
    ///
    /// A parsed document is never user-edited, so `too_long`, `too_short`, `bad_input` and
    /// `custom_error` are always false; an element that is not a candidate for constraint
    /// validation (see [`will_validate`](Self::will_validate)) is always valid.
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    /// let doc = Document::parse(
    ///     "<input required><input type=email value='a@b'><input type=number min=5 value=3>",
    /// );
    /// let inputs: Vec<_> = doc.select(&"input".parse::<Selector>().unwrap()).collect();
    /// assert!(inputs[0].validity().unwrap().value_missing);
    /// assert!(inputs[1].validity().unwrap().valid());
    /// assert!(inputs[2].validity().unwrap().range_underflow);
    /// assert!(doc.body().unwrap().validity().is_none());
    /// ```
    #[cfg(feature = "forms")]
    pub fn validity(self) -> Option<ValidityState> {
        with_control(self, validity::validity_of)
    }

    /// Whether the element is a candidate for constraint validation (HTML, "Constraint
    /// validation": the `willValidate` IDL attribute): a submittable element (`button`,
    /// `input`, `select`, `textarea`) that is not barred (disabled, `readonly`, inside a
    /// `datalist`, `input` of type `hidden`, `reset` or `button`, a `button` that is not a
    /// submit button).
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    /// let doc = Document::parse("<input><input type=hidden><fieldset disabled><input>");
    /// let inputs: Vec<_> = doc.select(&"input".parse::<Selector>().unwrap()).collect();
    /// let candidates: Vec<bool> = inputs.iter().map(|i| i.will_validate()).collect();
    /// assert_eq!(candidates, [true, false, false]);
    /// ```
    #[cfg(feature = "forms")]
    pub fn will_validate(self) -> bool {
        with_control(self, |c| {
            c.states().validity_bits(c.doc, c.index, c.pos) & validity::V_CANDIDATE != 0
        })
    }

    /// The element's value as a form control holds it after parsing (its `value` IDL
    /// attribute): for `input`, the `value` attribute after the value sanitization algorithm
    /// of its type (HTML, "States of the type attribute"), or the value mode's default (`on`
    /// for checkboxes and radio buttons without a value, the empty string for files); for
    /// `textarea`, its text; for `select`, the value of its first selected option; for
    /// `option`, its `value` attribute or its text; for `button`, its `value` attribute; for
    /// `output`, its text. `None` for other elements.
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    /// let doc = Document::parse(
    ///     "<input type=email value=' a@b.c '><input type=number value=1x>\
    ///      <input type=range min=0 max=10 value=15><input type=color value='#ABCDEF'>\
    ///      <select><option>A<option selected value=b>B</select>",
    /// );
    /// let values: Vec<String> = doc
    ///     .select(&"input, select".parse::<Selector>().unwrap())
    ///     .map(|e| e.value().unwrap().into_owned())
    ///     .collect();
    /// assert_eq!(values, ["a@b.c", "", "10", "#abcdef", "b"]);
    /// ```
    pub fn value(self) -> Option<Cow<'a, str>> {
        let owned = with_control(self, |c| sanitize::value_of(c).map(Cow::into_owned))?;
        // A borrow when the value is the `value` attribute unchanged.
        match self.attr("value") {
            Some(v) if v == owned => Some(Cow::Borrowed(v)),
            _ => Some(Cow::Owned(owned)),
        }
    }

    /// The element's form owner (HTML, "Association of controls and forms"): for a listed
    /// element (`button`, `fieldset`, `input`, `object`, `output`, `select`, `textarea`), the
    /// form its `form` attribute names, else its nearest ancestor `form`; for `img`, its
    /// nearest ancestor `form`. `None` when it has none.
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    /// let doc = Document::parse("<form id=f></form><form><input form=f><input></form>");
    /// let inputs: Vec<_> = doc.select(&"input".parse::<Selector>().unwrap()).collect();
    /// let forms: Vec<_> = doc.select(&"form".parse::<Selector>().unwrap()).collect();
    /// assert_eq!(inputs[0].form_owner(), Some(forms[0]));
    /// assert_eq!(inputs[1].form_owner(), Some(forms[1]));
    /// ```
    pub fn form_owner(self) -> Option<ElementRef<'a>> {
        let doc = self.document();
        let node = with_control(self, |c| {
            let owner = c.states().form_owner(c.pos);
            (owner != NONE).then(|| c.index.elem(owner).node)
        })?;
        super::NodeRef::new(doc, node).as_element()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_types() {
        assert_eq!(InputType::from_attr(None), InputType::Text);
        assert_eq!(InputType::from_attr(Some("EMAIL")), InputType::Email);
        assert_eq!(InputType::from_attr(Some("datetime")), InputType::Text);
        assert_eq!(
            InputType::from_attr(Some("datetime-local")),
            InputType::DateTimeLocal
        );
    }
}
