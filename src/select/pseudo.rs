//! HTML's pseudo-classes and pseudo-elements, for a static document.
//!
//! The HTML standard defines when its elements match the dynamic pseudo-classes
//! (<https://html.spec.whatwg.org/multipage/semantics-other.html#pseudo-classes>). A parsed
//! document is a snapshot nobody interacts with: nothing is hovered, focused, active,
//! visited, targeted, autofilled, shown modally or in full screen, and form controls hold
//! their default values (the `value`, `checked` and `selected` attributes). Under that reading
//! every pseudo-class here is either computed from the tree or never matches.
//!
//! Several of them depend on more than the element: a radio button's checkedness on its
//! group, an option's selectedness on its `select`, a control's disabledness on its fieldsets,
//! a button's defaultness on its form, an element's language and editability on its
//! ancestors. [`HtmlState`] computes all of that in one pass over the tree the first time a
//! query needs it, and keeps it with the document's index.

use std::collections::HashMap;
use std::fmt;

use cssparser::{ParseError, Parser as CssParser, ToCss, match_ignore_ascii_case};
use selectors::context::MatchingContext;
use selectors::parser::NonTSPseudoClass;

use super::element::{El, Tree};
use super::parser::{Custom, HasArg, HtmlImpl};
use crate::dom::Document;
use crate::dom::index::{Elem, FLAG_LINK, NONE, TreeIndex};
use crate::dom::names::{AttrNamespace, LocalName, Namespace, local_name as ln};

/// A pseudo-class this crate implements (beyond the tree-structural ones the `selectors` crate
/// matches itself: `:root`, `:empty`, `:first-child`, `:nth-child()`, `:scope`, `:is()`, ...).
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum PseudoClass {
    /// A state a static document never has (user action, focus, navigation, top layer).
    Never(&'static str),
    Link,
    AnyLink,
    Checked,
    Default,
    Defined,
    Disabled,
    Enabled,
    Indeterminate,
    Open,
    Optional,
    PlaceholderShown,
    ReadOnly,
    ReadWrite,
    Required,
    /// `:lang()`, with its language ranges.
    Lang(Box<[Box<str>]>),
    /// `:has()`.
    Has(std::sync::Arc<HasArg>),
}

/// The states that never match, spelled as they serialize. `:visited` is among them: links
/// are all unvisited.
const NEVER: [&str; 14] = [
    "active",
    "autofill",
    "focus",
    "focus-visible",
    "focus-within",
    "fullscreen",
    "hover",
    "modal",
    "picture-in-picture",
    "popover-open",
    "target",
    "user-invalid",
    "user-valid",
    "visited",
];

impl PseudoClass {
    /// The pseudo-class named `name` (ASCII case-insensitive), if it takes no argument.
    pub(crate) fn from_name(name: &str) -> Option<PseudoClass> {
        use PseudoClass::*;
        let pc = match_ignore_ascii_case! { name,
            "link" => Link,
            "any-link" => AnyLink,
            "checked" => Checked,
            "default" => Default,
            "defined" => Defined,
            "disabled" => Disabled,
            "enabled" => Enabled,
            "indeterminate" => Indeterminate,
            "open" => Open,
            "optional" => Optional,
            "placeholder-shown" => PlaceholderShown,
            "read-only" => ReadOnly,
            "read-write" => ReadWrite,
            "required" => Required,
            _ => {
                let lower = name.to_ascii_lowercase();
                return NEVER.iter().find(|n| **n == lower).map(|n| Never(n));
            },
        };
        Some(pc)
    }

    fn name(&self) -> &'static str {
        use PseudoClass::*;
        match self {
            Never(name) => name,
            Link => "link",
            AnyLink => "any-link",
            Checked => "checked",
            Default => "default",
            Defined => "defined",
            Disabled => "disabled",
            Enabled => "enabled",
            Indeterminate => "indeterminate",
            Open => "open",
            Optional => "optional",
            PlaceholderShown => "placeholder-shown",
            ReadOnly => "read-only",
            ReadWrite => "read-write",
            Required => "required",
            Lang(_) => "lang",
            Has(_) => "has",
        }
    }
}

impl ToCss for PseudoClass {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        dest.write_char(':')?;
        dest.write_str(self.name())?;
        match self {
            PseudoClass::Lang(ranges) => {
                dest.write_char('(')?;
                for (i, range) in ranges.iter().enumerate() {
                    if i > 0 {
                        dest.write_str(", ")?;
                    }
                    cssparser::serialize_string(range, dest)?;
                }
                dest.write_char(')')
            }
            PseudoClass::Has(arg) => {
                dest.write_char('(')?;
                arg.list.to_css(dest)?;
                dest.write_char(')')
            }
            _ => Ok(()),
        }
    }
}

impl NonTSPseudoClass for PseudoClass {
    fn is_active_or_hover(&self) -> bool {
        matches!(self, PseudoClass::Never("active" | "hover"))
    }

    /// The user-action pseudo-classes (Selectors 4, "User Action Pseudo-classes"), the only
    /// ones allowed after a pseudo-element.
    fn is_user_action_state(&self) -> bool {
        matches!(
            self,
            PseudoClass::Never("active" | "hover" | "focus" | "focus-visible" | "focus-within")
        )
    }
}

/// A pseudo-element: it parses, and matches nothing (a query returns elements, never
/// pseudo-elements).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct PseudoElement {
    name: &'static str,
    argument: Option<Box<str>>,
}

/// Pseudo-elements without arguments (CSS Pseudo-Elements 4, CSS UI, CSS Lists, HTML).
const PSEUDO_ELEMENTS: [&str; 16] = [
    "after",
    "backdrop",
    "before",
    "checkmark",
    "cue",
    "details-content",
    "file-selector-button",
    "first-letter",
    "first-line",
    "grammar-error",
    "marker",
    "picker-icon",
    "placeholder",
    "selection",
    "spelling-error",
    "target-text",
];

/// Pseudo-elements that take a name (or `*`) as their argument.
const FUNCTIONAL_PSEUDO_ELEMENTS: [&str; 6] = [
    "highlight",
    "picker",
    "view-transition-group",
    "view-transition-image-pair",
    "view-transition-new",
    "view-transition-old",
];

impl PseudoElement {
    pub(crate) fn from_name(name: &str) -> Option<PseudoElement> {
        let lower = name.to_ascii_lowercase();
        let name = PSEUDO_ELEMENTS
            .iter()
            .chain(["view-transition"].iter())
            .find(|n| **n == lower)?;
        Some(PseudoElement {
            name,
            argument: None,
        })
    }

    pub(crate) fn parse_functional(
        name: &str,
        input: &mut CssParser<'_>,
    ) -> Result<PseudoElement, ParseError<Custom>> {
        let lower = name.to_ascii_lowercase();
        let Some(name) = FUNCTIONAL_PSEUDO_ELEMENTS.iter().find(|n| **n == lower) else {
            return Err(ParseError::custom(Custom::UnknownPseudoElement(format!(
                "{name}("
            ))));
        };
        let argument: Box<str> = if *name == "highlight" || *name == "picker" {
            input.expect_ident()?.as_ref().into()
        } else if input.try_parse(|i| i.expect_delim('*')).is_ok() {
            "*".into()
        } else {
            input.expect_ident()?.as_ref().into()
        };
        input.expect_exhausted()?;
        Ok(PseudoElement {
            name,
            argument: Some(argument),
        })
    }
}

impl ToCss for PseudoElement {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        dest.write_str("::")?;
        dest.write_str(self.name)?;
        if let Some(argument) = &self.argument {
            dest.write_char('(')?;
            if &**argument == "*" {
                dest.write_char('*')?;
            } else {
                cssparser::serialize_identifier(argument, dest)?;
            }
            dest.write_char(')')?;
        }
        Ok(())
    }
}

impl selectors::parser::PseudoElement for PseudoElement {
    fn accepts_state_pseudo_classes(&self) -> bool {
        true
    }

    fn valid_after_slotted(&self) -> bool {
        matches!(self.name, "before" | "after" | "marker" | "placeholder")
    }

    fn valid_after_before_or_after(&self) -> bool {
        self.name == "marker"
    }

    fn is_before_or_after(&self) -> bool {
        matches!(self.name, "before" | "after")
    }
}

// ---------------------------------------------------------------------------------------------
// Matching.

/// Whether `el` matches `pc`.
pub(crate) fn matches(
    el: El<'_>,
    pc: &PseudoClass,
    context: &mut MatchingContext<'_, HtmlImpl>,
) -> bool {
    use PseudoClass::*;
    let e = el.elem();
    let html = e.ns == Namespace::Html;
    match pc {
        Never(_) => false,
        // :link, :any-link: "All a elements that have an href attribute, and all area elements
        // that have an href attribute" (and SVG's a elements, which browsers treat as links).
        // No link is visited, so :link and :any-link match the same elements.
        Link | AnyLink => matches_link(el),
        // :checked, :indeterminate, :default, :disabled, :enabled, :read-write: from the
        // tree-wide state.
        Checked => html && el.html_state().flags(el.pos) & CHECKED != 0,
        Indeterminate => {
            html && (el.html_state().flags(el.pos) & INDETERMINATE != 0
                // "progress elements with no value content attribute"
                || (e.name == ln::PROGRESS && el.attr(ln::VALUE).is_none()))
        }
        Default => {
            html && (el.html_state().flags(el.pos) & DEFAULT != 0
                // "input elements to which the checked attribute applies and that have a
                // checked attribute; option elements that have a selected attribute"
                || (e.name == ln::INPUT
                    && matches!(input_type(el), InputType::Checkbox | InputType::Radio)
                    && el.attr(ln::CHECKED).is_some())
                || (e.name == ln::OPTION && el.attr(ln::SELECTED).is_some()))
        }
        // "The :disabled pseudo-class must match any element that is actually disabled."
        Disabled => html && el.html_state().flags(el.pos) & DISABLED != 0,
        // ":enabled ... button, input, select, textarea, optgroup, option, fieldset elements
        // ... that are not actually disabled."
        Enabled => html && is_disableable(e.name) && el.html_state().flags(el.pos) & DISABLED == 0,
        ReadWrite => el.html_state().flags(el.pos) & READ_WRITE != 0,
        // ":read-only must match all other elements" (browsers apply this to every element,
        // not only HTML ones).
        ReadOnly => el.html_state().flags(el.pos) & READ_WRITE == 0,
        Required => html && required_applies(el) == Some(true),
        Optional => html && required_applies(el) == Some(false),
        PlaceholderShown => html && placeholder_shown(el),
        // :defined: "any element that is defined". Without custom element definitions, an
        // HTML element whose name is a valid custom element name, or that was created with an
        // `is` value, is "undefined"; every other element is "uncustomized", so defined.
        Defined => {
            !html || !(is_valid_custom_element_name(el.local_name()) || el.attr(ln::IS).is_some())
        }
        // :open: details and dialog elements with an open attribute (pickers are never shown).
        Open => {
            html && (e.name == ln::DETAILS || e.name == ln::DIALOG) && el.attr(ln::OPEN).is_some()
        }
        Lang(ranges) => {
            let lang = el.html_state().language(el.doc(), el.index(), el.pos);
            lang.is_some_and(|lang| ranges.iter().any(|r| lang_matches(lang, r)))
        }
        Has(arg) => super::query::has_matches(el, arg, context),
    }
}

/// `:link` and `:any-link` (see `FLAG_LINK`, computed with the index).
#[inline]
pub(crate) fn matches_link(el: El<'_>) -> bool {
    el.elem().flags & FLAG_LINK != 0
}

/// The elements that can be actually disabled (HTML, "Disabled elements"); form-associated
/// custom elements need a definition, which a static document has none of.
fn is_disableable(name: LocalName) -> bool {
    [
        ln::BUTTON,
        ln::INPUT,
        ln::SELECT,
        ln::TEXTAREA,
        ln::OPTGROUP,
        ln::OPTION,
        ln::FIELDSET,
    ]
    .contains(&name)
}

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

/// The state of an `input`'s `type` attribute: an ASCII case-insensitive keyword; missing or
/// invalid values are the Text state.
pub(crate) fn input_type(el: El<'_>) -> InputType {
    use InputType::*;
    let Some(value) = el.attr(ln::TYPE) else {
        return Text;
    };
    match_ignore_ascii_case! { value,
        "hidden" => Hidden,
        "search" => Search,
        "tel" => Tel,
        "url" => Url,
        "email" => Email,
        "password" => Password,
        "date" => Date,
        "month" => Month,
        "week" => Week,
        "time" => Time,
        "datetime-local" => DateTimeLocal,
        "number" => Number,
        "range" => Range,
        "color" => Color,
        "checkbox" => Checkbox,
        "radio" => Radio,
        "file" => File,
        "submit" => Submit,
        "image" => Image,
        "reset" => Reset,
        "button" => Button,
        _ => Text,
    }
}

/// Whether the `readonly` attribute applies to an input of this type.
fn readonly_applies(t: InputType) -> bool {
    use InputType::*;
    matches!(
        t,
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

/// For `input`, `select` and `textarea`: whether the element is required (`Some(true)`) or
/// optional (`Some(false)`); `None` where `required` does not apply. HTML: ":required matches
/// input elements that are required, select elements that have a required attribute, and
/// textarea elements that have a required attribute; :optional matches input elements to which
/// the required attribute applies that are not required, and select and textarea elements
/// that do not have a required attribute."
fn required_applies(el: El<'_>) -> Option<bool> {
    use InputType::*;
    let e = el.elem();
    let applies = if e.name == ln::INPUT {
        !matches!(
            input_type(el),
            Hidden | Range | Color | Submit | Image | Reset | Button
        )
    } else {
        e.name == ln::SELECT || e.name == ln::TEXTAREA
    };
    applies.then(|| el.attr(ln::REQUIRED).is_some())
}

/// :placeholder-shown: "input elements that have a placeholder attribute whose value is
/// currently being presented to the user", and textarea elements likewise. The placeholder
/// shows when the control's value is empty; as in browsers, a placeholder that is empty once
/// line breaks are stripped shows nothing.
fn placeholder_shown(el: El<'_>) -> bool {
    use InputType::*;
    let e = el.elem();
    let Some(placeholder) = el.attr(ln::PLACEHOLDER) else {
        return false;
    };
    if placeholder.chars().all(|c| c == '\n' || c == '\r') {
        return false;
    }
    if e.name == ln::TEXTAREA {
        // The raw value starts as the child text content.
        return el
            .node()
            .children()
            .all(|c| c.as_text().is_none_or(str::is_empty));
    }
    if e.name != ln::INPUT {
        return false;
    }
    let t = input_type(el);
    let value = el.attr(ln::VALUE).unwrap_or("");
    // The value after the type's value sanitization algorithm.
    match t {
        Text | Search | Tel | Password => value.chars().all(|c| c == '\n' || c == '\r'),
        Url | Email => value
            .chars()
            .all(|c| matches!(c, '\n' | '\r' | ' ' | '\t' | '\x0C')),
        Number => !is_valid_float(value),
        _ => false,
    }
}

/// "Valid floating-point number" (HTML, "Common microsyntaxes").
fn is_valid_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - start;
        if frac_digits == 0 {
            return false;
        }
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

/// "Valid custom element name" (HTML, "Custom elements core concepts"): a
/// PotentialCustomElementName that is not one of the reserved names.
fn is_valid_custom_element_name(name: &str) -> bool {
    let mut chars = name.chars();
    if !chars.next().is_some_and(|c| c.is_ascii_lowercase()) || !name.contains('-') {
        return false;
    }
    let pcen = |c: char| {
        matches!(c,
            '-' | '.' | '0'..='9' | '_' | 'a'..='z' | '\u{B7}'
            | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{37D}'
            | '\u{37F}'..='\u{1FFF}' | '\u{200C}'..='\u{200D}' | '\u{203F}'..='\u{2040}'
            | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}' | '\u{3001}'..='\u{D7FF}'
            | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}' | '\u{10000}'..='\u{EFFFF}')
    };
    chars.all(pcen)
        && !matches!(
            name,
            "annotation-xml"
                | "color-profile"
                | "font-face"
                | "font-face-src"
                | "font-face-uri"
                | "font-face-format"
                | "font-face-name"
                | "missing-glyph"
        )
}

/// Extended filtering (RFC 4647, section 3.3.2), which Selectors 4 uses for `:lang()`:
/// ASCII case-insensitive, `*` matches any subtag, and a range's subtags may skip over the
/// tag's (but not over a singleton). An empty range matches an explicitly empty language.
fn lang_matches(tag: &str, range: &str) -> bool {
    if range.is_empty() || tag.is_empty() {
        return range.is_empty() && tag.is_empty();
    }
    let mut range = range.split('-');
    let mut tag = tag.split('-');
    let (Some(r0), Some(t0)) = (range.next(), tag.next()) else {
        return false;
    };
    if r0 != "*" && !r0.eq_ignore_ascii_case(t0) {
        return false;
    }
    'subtags: for r in range {
        if r == "*" {
            continue;
        }
        for t in tag.by_ref() {
            if t.eq_ignore_ascii_case(r) {
                continue 'subtags;
            }
            if t.len() == 1 {
                return false;
            }
        }
        return false;
    }
    true
}

// ---------------------------------------------------------------------------------------------
// Tree-wide state.

const DISABLED: u8 = 1;
const CHECKED: u8 = 2;
const DEFAULT: u8 = 4;
const INDETERMINATE: u8 = 8;
const READ_WRITE: u8 = 16;

/// What the HTML pseudo-classes derive from the whole tree, per element of an index.
#[derive(Clone, Debug, Default)]
pub(crate) struct HtmlState {
    flags: Vec<u8>,
    /// The attribute (index into the document's attributes) that gives each element its
    /// language, or `NONE`.
    lang: Vec<u32>,
    /// The pragma-set default language (`<meta http-equiv=content-language>`), for elements
    /// of the document's tree with no `lang` in scope.
    default_lang: Option<Box<str>>,
}

impl HtmlState {
    #[inline]
    fn flags(&self, pos: u32) -> u8 {
        self.flags.get(pos as usize).copied().unwrap_or(0)
    }

    /// The language of the element at `pos`: the `xml:lang` or `lang` attribute of it or its
    /// nearest ancestor that has one, else the document's default language (HTML, "The lang
    /// and xml:lang attributes"); `None` when unknown.
    fn language<'d>(&'d self, doc: &'d Document, index: &TreeIndex, pos: u32) -> Option<&'d str> {
        match self.lang.get(pos as usize).copied().unwrap_or(NONE) {
            NONE if index.has_lists && index.tree_of(pos) == 0 => self.default_lang.as_deref(),
            NONE => None,
            attr => doc.attrs.get(attr as usize).map(|a| doc.str(a.value)),
        }
    }

    /// Computes the state of every element of `index`: one pass in document order (parents
    /// before children), plus small maps for forms, radio groups and ids.
    pub(crate) fn compute(doc: &Document, index: &TreeIndex) -> HtmlState {
        let n = index.elems.len();
        let tree = Tree::new(doc, index);
        let mut flags = vec![0u8; n];
        let mut lang = vec![NONE; n];
        // Inherited: inside a disabled fieldset (not in its first legend); editable
        // (contenteditable); the nearest form ancestor.
        let mut in_disabled_fieldset = vec![false; n];
        let mut editable = vec![false; n];
        let mut form_ancestor = vec![NONE; n];
        let mut default_lang: Option<Box<str>> = None;

        let attr = |e: &Elem, name: LocalName| -> Option<&str> {
            doc.attrs
                .get(e.attrs.range())?
                .iter()
                .find(|a| a.name == name && a.ns == AttrNamespace::None)
                .map(|a| doc.str(a.value))
        };
        let is_html = |pos: u32, name: LocalName| -> bool {
            index
                .elems
                .get(pos as usize)
                .is_some_and(|e| e.ns == Namespace::Html && e.name == name)
        };
        // The first legend child of a fieldset.
        let first_legend = |pos: u32| -> u32 {
            let e = &index.elems[pos as usize];
            let mut c = if pos + 1 < e.end { pos + 1 } else { NONE };
            while c != NONE {
                if is_html(c, ln::LEGEND) {
                    return c;
                }
                c = index.elems[c as usize].next;
            }
            NONE
        };

        let main_tree = index.trees.first().copied().unwrap_or((0, 0));
        let is_document_index = index.has_lists;
        let mut fieldset_legend: HashMap<u32, u32> = HashMap::new();
        let mut any_form_attr = false;

        for pos in 0..n as u32 {
            let e = &index.elems[pos as usize];
            let p = e.parent;
            let html = e.ns == Namespace::Html;
            // Inherited state, from the parent (computed first: document order).
            if p != NONE {
                let pi = p as usize;
                in_disabled_fieldset[pos as usize] = in_disabled_fieldset[pi]
                    || (is_html(p, ln::FIELDSET)
                        && attr(&index.elems[pi], ln::DISABLED).is_some()
                        && *fieldset_legend.entry(p).or_insert_with(|| first_legend(p)) != pos);
                editable[pos as usize] = editable[pi];
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
            if let Some(v) = attr(e, ln::CONTENTEDITABLE) {
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
            if attr(e, ln::FORM).is_some() {
                any_form_attr = true;
            }
            // The pragma-set default language: the last such <meta> in the document's tree
            // (HTML, "Pragma directives", Content language state).
            if e.name == ln::META
                && pos >= main_tree.0
                && pos < main_tree.1
                && is_document_index
                && attr(e, ln::HTTP_EQUIV)
                    .is_some_and(|v| v.eq_ignore_ascii_case("content-language"))
            {
                if let Some(content) = attr(e, ln::CONTENT) {
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
        let mut first_with_id: HashMap<&str, u32> = HashMap::new();
        if any_form_attr {
            for pos in main_tree.0..main_tree.1 {
                let e = &index.elems[pos as usize];
                if let Some(a) = doc.attrs.get(e.id_attr as usize) {
                    first_with_id.entry(doc.str(a.value)).or_insert(pos);
                }
            }
        }
        // The form owner (HTML, "reset the form owner"): with a form attribute in a connected
        // tree, the first element with that id if it is a form (else none); otherwise the
        // nearest form ancestor.
        let form_owner = |pos: u32| -> u32 {
            let e = &index.elems[pos as usize];
            if let Some(id) = attr(e, ln::FORM) {
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
        // group, so the last checked radio of a group is the checked one.
        let mut groups: HashMap<(usize, u32, &str), u32> = HashMap::new();
        let mut default_buttons: HashMap<u32, ()> = HashMap::new();
        for pos in 0..n as u32 {
            let e = &index.elems[pos as usize];
            if e.ns != Namespace::Html {
                continue;
            }
            let el = El { tree: &tree, pos };
            let disabled_control =
                attr(e, ln::DISABLED).is_some() || in_disabled_fieldset[pos as usize];
            let name = e.name;
            if name == ln::INPUT {
                let t = input_type(el);
                if disabled_control {
                    flags[pos as usize] |= DISABLED;
                }
                match t {
                    InputType::Checkbox if attr(e, ln::CHECKED).is_some() => {
                        flags[pos as usize] |= CHECKED;
                    }
                    InputType::Radio => {
                        let group_name = attr(e, ln::NAME).unwrap_or("");
                        let checked = attr(e, ln::CHECKED).is_some();
                        if group_name.is_empty() {
                            flags[pos as usize] |= if checked { CHECKED } else { INDETERMINATE };
                        } else {
                            let key = (index.tree_of(pos), form_owner(pos), group_name);
                            let last = groups.entry(key).or_insert(NONE);
                            if checked {
                                *last = pos;
                            }
                        }
                    }
                    InputType::Submit | InputType::Image => {
                        let owner = form_owner(pos);
                        if owner != NONE && default_buttons.insert(owner, ()).is_none() {
                            flags[pos as usize] |= DEFAULT;
                        }
                    }
                    _ => {}
                }
                if readonly_applies(t) && attr(e, ln::READONLY).is_none() && !disabled_control {
                    flags[pos as usize] |= READ_WRITE;
                }
            } else if name == ln::BUTTON {
                if disabled_control {
                    flags[pos as usize] |= DISABLED;
                }
                // The Submit Button state: type=submit, or the Auto state (missing or invalid
                // type) without a commandfor attribute.
                let submit = match attr(e, ln::TYPE) {
                    Some(t) if t.eq_ignore_ascii_case("submit") => true,
                    Some(t)
                        if t.eq_ignore_ascii_case("reset") || t.eq_ignore_ascii_case("button") =>
                    {
                        false
                    }
                    _ => el.attr_str("commandfor").is_none(),
                };
                let owner = form_owner(pos);
                if submit && owner != NONE && default_buttons.insert(owner, ()).is_none() {
                    flags[pos as usize] |= DEFAULT;
                }
            } else if name == ln::SELECT || name == ln::FIELDSET {
                if disabled_control {
                    flags[pos as usize] |= DISABLED;
                }
                if name == ln::SELECT {
                    select_options(doc, index, pos, &mut flags);
                }
            } else if name == ln::TEXTAREA {
                if disabled_control {
                    flags[pos as usize] |= DISABLED;
                } else if attr(e, ln::READONLY).is_none() {
                    flags[pos as usize] |= READ_WRITE;
                }
            } else if name == ln::OPTGROUP {
                if attr(e, ln::DISABLED).is_some() {
                    flags[pos as usize] |= DISABLED;
                }
            } else if name == ln::OPTION {
                // "An option element is disabled if its disabled attribute is present or if it
                // is a child of an optgroup element whose disabled attribute is present."
                let p = e.parent;
                if attr(e, ln::DISABLED).is_some()
                    || (is_html(p, ln::OPTGROUP)
                        && attr(&index.elems[p as usize], ln::DISABLED).is_some())
                {
                    flags[pos as usize] |= DISABLED;
                }
            }
            if name != ln::INPUT && name != ln::TEXTAREA && editable[pos as usize] {
                flags[pos as usize] |= READ_WRITE;
            }
        }
        // Non-HTML elements inside editing hosts are editable too.
        for pos in 0..n {
            if index.elems[pos].ns != Namespace::Html && editable[pos] {
                flags[pos] |= READ_WRITE;
            }
        }
        // Radio groups: the last checked radio is checked; a group with none checked makes
        // all its radios indeterminate.
        for pos in 0..n as u32 {
            let e = &index.elems[pos as usize];
            if !(e.ns == Namespace::Html && e.name == ln::INPUT) {
                continue;
            }
            let el = El { tree: &tree, pos };
            if input_type(el) != InputType::Radio {
                continue;
            }
            let group_name = attr(e, ln::NAME).unwrap_or("");
            if group_name.is_empty() {
                continue;
            }
            let key = (index.tree_of(pos), form_owner(pos), group_name);
            match groups.get(&key) {
                Some(&last) if last == pos => flags[pos as usize] |= CHECKED,
                Some(&NONE) | None => flags[pos as usize] |= INDETERMINATE,
                Some(_) => {}
            }
        }
        HtmlState {
            flags,
            lang,
            default_lang,
        }
    }
}

/// Selectedness of the options of the `select` at `pos` (HTML, "The select element": the
/// selectedness setting algorithm, as it stands after parsing). Its list of options is its
/// option children and the option children of its optgroup children. Without `multiple` and
/// with a display size of 1, the last option with a `selected` attribute is selected, or
/// else the first option that is not disabled; otherwise every option with a `selected`
/// attribute is.
fn select_options(doc: &Document, index: &TreeIndex, select: u32, flags: &mut [u8]) {
    let attr = |pos: u32, name: LocalName| -> Option<&str> {
        let e = &index.elems[pos as usize];
        doc.attrs
            .get(e.attrs.range())?
            .iter()
            .find(|a| a.name == name && a.ns == AttrNamespace::None)
            .map(|a| doc.str(a.value))
    };
    let is_html = |pos: u32, name: LocalName| {
        let e = &index.elems[pos as usize];
        e.ns == Namespace::Html && e.name == name
    };
    let children = |pos: u32| {
        let end = index.elems[pos as usize].end;
        let first = if pos + 1 < end { pos + 1 } else { NONE };
        std::iter::successors((first != NONE).then_some(first), |&c| {
            let next = index.elems[c as usize].next;
            (next != NONE).then_some(next)
        })
    };
    let mut options = Vec::new();
    for c in children(select) {
        if is_html(c, ln::OPTION) {
            options.push((c, false));
        } else if is_html(c, ln::OPTGROUP) {
            let group_disabled = attr(c, ln::DISABLED).is_some();
            for o in children(c) {
                if is_html(o, ln::OPTION) {
                    options.push((o, group_disabled));
                }
            }
        }
    }
    let multiple = attr(select, ln::MULTIPLE).is_some();
    // "display size": the size attribute if it is a valid non-negative integer > 0, else 4 for
    // multiple and 1 otherwise.
    let size = attr(select, ln::SIZE)
        .and_then(|s| {
            s.trim_start_matches([' ', '\t', '\n', '\x0C', '\r'])
                .parse::<u64>()
                .ok()
        })
        .filter(|&s| s > 0);
    let display_size = size.unwrap_or(if multiple { 4 } else { 1 });
    if multiple || display_size > 1 {
        for &(o, _) in &options {
            if attr(o, ln::SELECTED).is_some() {
                flags[o as usize] |= CHECKED;
            }
        }
        return;
    }
    let chosen = options
        .iter()
        .rev()
        .find(|&&(o, _)| attr(o, ln::SELECTED).is_some())
        .or_else(|| {
            options
                .iter()
                .find(|&&(o, group_disabled)| !group_disabled && attr(o, ln::DISABLED).is_none())
        });
    if let Some(&(o, _)) = chosen {
        flags[o as usize] |= CHECKED;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extended_filtering() {
        assert!(lang_matches("en", "en"));
        assert!(lang_matches("en-US", "en"));
        assert!(lang_matches("EN-us", "en-US"));
        assert!(!lang_matches("en", "en-US"));
        assert!(lang_matches("de-Latn-DE", "de-DE"));
        assert!(!lang_matches("de-x-DE", "de-DE"));
        assert!(lang_matches("de-CH", "*-CH"));
        assert!(!lang_matches("fr", "en"));
        assert!(!lang_matches("english", "en"));
        assert!(lang_matches("", ""));
        assert!(!lang_matches("en", ""));
    }

    #[test]
    fn floats() {
        for ok in ["1", "-1", "1.5", ".5", "1e3", "1.5E-3", "0"] {
            assert!(is_valid_float(ok), "{ok}");
        }
        for bad in ["", "+1", "1.", "-", ".", "1e", "abc", " 1", "1 "] {
            assert!(!is_valid_float(bad), "{bad}");
        }
    }

    #[test]
    fn custom_element_names() {
        assert!(is_valid_custom_element_name("my-widget"));
        assert!(is_valid_custom_element_name("x-\u{e9}"));
        assert!(!is_valid_custom_element_name("div"));
        assert!(!is_valid_custom_element_name("font-face"));
        assert!(!is_valid_custom_element_name("My-widget"));
        assert!(!is_valid_custom_element_name("-x"));
    }
}
