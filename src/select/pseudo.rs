//! HTML's pseudo-classes and pseudo-elements, for a static document.
//!
//! The HTML standard defines when its elements match the dynamic pseudo-classes (HTML,
//! "Pseudo-classes", <https://html.spec.whatwg.org/multipage/semantics-other.html#pseudo-classes>).
//! A parsed document is a snapshot nobody interacts with: nothing is hovered, focused, active,
//! visited, targeted, autofilled, shown modally or in full screen, and form controls
//! hold their default values (the `value`, `checked` and `selected` attributes). Under that
//! reading every pseudo-class here is either computed from the tree or never matches.
//!
//! Several of them depend on more than the element: a radio button's checkedness on its
//! group, an option's selectedness on its `select`, a control's disabledness on its fieldsets,
//! a button's defaultness and a form's validity on the form's controls, an element's
//! language, editability and directionality on its ancestors and its text. That state lives
//! below this layer, in `html::forms` and `html::direction` (it is public API there too:
//! `ElementRef::validity`, `value`, `form_owner`, `directionality`), computed for the whole
//! tree on first use and kept with the document's element index until the next mutation.
//!
//! The pseudo-classes accepted are the standard ones Chromium accepts in `querySelectorAll`;
//! the ones a static document never matches are listed in [`NEVER`].
//!
//! # Where browsers and the HTML Standard's text differ
//!
//! Checked against Chromium 148's `querySelectorAll` on `DOMParser` documents (form-heavy
//! markup of every `input` type and the 51 pages of the benchmark corpus). Where browsers and
//! web-platform-tests agree against the text we follow them; otherwise the text:
//!
//! - `:optional` matches every `input` that is not required, including the types `required`
//!   does not apply to (`hidden`, `range`, `color` and the buttons), as Chromium and WebKit do
//!   and WPT's `html/semantics/selectors/pseudo-classes/required-optional-hidden.html`
//!   expects; the text limits it to inputs "to which the required attribute applies"
//!   (whatwg/html#11273). `:required` stays limited to those.
//! - `readonly` bars an `input` of any type from constraint validation (WPT's
//!   `form-validation-willValidate.html` expects it for `color`, `file` and `submit`, and
//!   Chromium agrees), not only the types it applies to.
//! - `:read-only` and `:read-write` match HTML elements only ("all other HTML elements"), as
//!   Chromium does; an SVG or MathML element matches neither.
//! - `:placeholder-shown` matches a control with an empty value and a `placeholder` attribute,
//!   even an empty one (`placeholder=""`), as Chromium does.
//! - A `select`'s list of options holds its option descendants (not only children and
//!   `optgroup` children), and an option in another element than an `optgroup` can be its
//!   placeholder label option, as Chromium parses and answers with the relaxed `select`
//!   content model.
//!
//! Chromium differs from the text, and we follow the text, in these cases:
//!
//! - Chromium matches `:in-range` on `date`, `month`, `week`, `time`, `datetime-local` and
//!   `number` inputs without `min` and `max`; the text and WPT's `inrange-outofrange.html`
//!   say such inputs have no range limitations, so neither `:in-range` nor `:out-of-range`.
//! - Chromium matches `:optional` on `button` elements; the text names `input`, `select` and
//!   `textarea` only (WPT does not test buttons).
//! - Chromium does not validate `input type=image` (neither `:valid` nor `:invalid`); the text
//!   makes it a candidate for constraint validation, so `:valid`.
//! - Chromium does not make a required radio button without a `name` suffer from being
//!   missing; the text puts it in a group of its own, which has no checked button.
//! - `min`, `max` and `step` of `number` and `range` inputs are read with the text's lenient
//!   "rules for parsing floating-point number values" (`min="5abc"` is 5); Chromium requires a
//!   valid floating-point number and ignores such a `min`.
//! - A `range` input whose maximum is below its minimum keeps suffering from an overflow (the
//!   text clamps only "if the maximum is not less than the minimum"); Chromium clamps.
//! - A `range` input's value is rewritten (clamped, stepped, defaulted) only when the value
//!   sanitization algorithm says it suffers; browsers also re-serialize a valid value
//!   (`1e1` → `10`). This changes no match: `ElementRef::value` follows the text.
//! - `dir` with an invalid value (`dir=bogus`) is the undefined state, so a `dir=auto`
//!   ancestor reads that element's text, as the text says.
//!
//! And where a static document cannot do what a browser does:
//!
//! - The `pattern` attribute: a match the cost estimate says could backtrack for too long is
//!   not run, and the control does not suffer from a pattern mismatch (a browser would hang);
//!   see `html::forms::pattern`.
//! - The form owner ignores the parser's form element pointer (see `html::forms`).

use std::fmt;

use cssparser::{ParseError, Parser as CssParser, ToCss, match_ignore_ascii_case};
use selectors::context::MatchingContext;
use selectors::parser::NonTSPseudoClass;

use super::element::El;
use super::parser::{Custom, HasArg, HtmlImpl};
use crate::dom::names::{LocalName, Namespace, local_name as ln};
use crate::html::Direction;
use crate::html::forms::validity::{
    V_CANDIDATE, V_HAS_INVALID, V_INVALID, V_OUT_OF_RANGE, V_RANGE_LIMITED,
};
use crate::html::forms::{
    CHECKED, DEFAULT, DISABLED, INDETERMINATE, InputType, READ_WRITE, sanitize,
};
use crate::query::index::FLAG_LINK;

/// A pseudo-class this crate implements (beyond the tree-structural ones the `selectors` crate
/// matches itself: `:root`, `:empty`, `:first-child`, `:nth-child()`, `:scope`, `:is()`, ...).
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum PseudoClass {
    /// A state a static document never has (user action, focus, navigation, top layer,
    /// autofill).
    Never(&'static str),
    Link,
    AnyLink,
    /// `:-webkit-any-link`, Chromium's alias of `:any-link`.
    WebkitAnyLink,
    Checked,
    Default,
    Defined,
    Disabled,
    Enabled,
    InRange,
    Indeterminate,
    Invalid,
    Open,
    Optional,
    OutOfRange,
    PlaceholderShown,
    ReadOnly,
    ReadWrite,
    Required,
    Valid,
    /// `:dir()`, with its argument as written and the direction it names (an identifier other
    /// than `ltr` and `rtl` names none and matches nothing).
    Dir(Box<str>, Option<Direction>),
    /// `:state()`: custom states need a custom element definition, so it never matches.
    State(Box<str>),
    /// `:active-view-transition-type()`: never matches.
    ActiveViewTransitionType(Box<[Box<str>]>),
    /// `:lang()`, with its language ranges.
    Lang(Box<[Box<str>]>),
    /// `:has()`.
    Has(std::sync::Arc<HasArg>),
    /// A text pseudo-class of the extended syntax (`:contains()`, `:-soup-contains()`,
    /// `:-soup-contains-own()`, `:has-text()`; see `text.rs`).
    Text(std::sync::Arc<super::text::TextArg>),
}

/// The pseudo-classes without arguments that a static document never matches, spelled as they
/// serialize. `:visited` is among them: links are all unvisited; `:current`, `:past` and
/// `:future` need a timed presentation (WebVTT), `:target-current` a scroll marker. The media
/// pseudo-classes (`:playing`, `:paused`, ...) are not accepted: Chromium does not accept
/// them.
pub(crate) const NEVER: [&str; 22] = [
    "-webkit-autofill",
    "-webkit-full-screen",
    "active",
    "active-view-transition",
    "autofill",
    "current",
    "focus",
    "focus-visible",
    "focus-within",
    "fullscreen",
    "future",
    "hover",
    "modal",
    "past",
    "picture-in-picture",
    "popover-open",
    "target",
    "target-current",
    "user-invalid",
    "user-valid",
    "visited",
    "xr-overlay",
];

impl PseudoClass {
    /// The pseudo-class named `name` (ASCII case-insensitive), if it takes no argument.
    pub(crate) fn from_name(name: &str) -> Option<PseudoClass> {
        use PseudoClass::*;
        let pc = match_ignore_ascii_case! { name,
            "link" => Link,
            "any-link" => AnyLink,
            "-webkit-any-link" => WebkitAnyLink,
            "checked" => Checked,
            "default" => Default,
            "defined" => Defined,
            "disabled" => Disabled,
            "enabled" => Enabled,
            "in-range" => InRange,
            "indeterminate" => Indeterminate,
            "invalid" => Invalid,
            "open" => Open,
            "optional" => Optional,
            "out-of-range" => OutOfRange,
            "placeholder-shown" => PlaceholderShown,
            "read-only" => ReadOnly,
            "read-write" => ReadWrite,
            "required" => Required,
            "valid" => Valid,
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
            WebkitAnyLink => "-webkit-any-link",
            Checked => "checked",
            Default => "default",
            Defined => "defined",
            Disabled => "disabled",
            Enabled => "enabled",
            InRange => "in-range",
            Indeterminate => "indeterminate",
            Invalid => "invalid",
            Open => "open",
            Optional => "optional",
            OutOfRange => "out-of-range",
            PlaceholderShown => "placeholder-shown",
            ReadOnly => "read-only",
            ReadWrite => "read-write",
            Required => "required",
            Valid => "valid",
            Dir(..) => "dir",
            State(_) => "state",
            ActiveViewTransitionType(_) => "active-view-transition-type",
            Lang(_) => "lang",
            Has(_) => "has",
            Text(arg) => arg.kind.name(),
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
            PseudoClass::Text(arg) => {
                dest.write_char('(')?;
                for (i, s) in arg.strings.iter().enumerate() {
                    if i > 0 {
                        dest.write_str(", ")?;
                    }
                    cssparser::serialize_string(s, dest)?;
                }
                dest.write_char(')')
            }
            PseudoClass::Dir(ident, _) | PseudoClass::State(ident) => {
                dest.write_char('(')?;
                cssparser::serialize_identifier(ident, dest)?;
                dest.write_char(')')
            }
            PseudoClass::ActiveViewTransitionType(types) => {
                dest.write_char('(')?;
                for (i, t) in types.iter().enumerate() {
                    if i > 0 {
                        dest.write_str(", ")?;
                    }
                    cssparser::serialize_identifier(t, dest)?;
                }
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
        Never(_) | State(_) | ActiveViewTransitionType(_) => false,
        // :link, :any-link: "All a elements that have an href attribute, and all area elements
        // that have an href attribute" (and SVG's a elements, which browsers treat as links).
        // No link is visited, so :link and :any-link match the same elements.
        Link | AnyLink | WebkitAnyLink => matches_link(el),
        // :checked: "input elements whose type attribute is in the Checkbox state and whose
        // checkedness state is true; input elements whose type attribute is in the Radio
        // Button state and whose checkedness state is true; option elements whose
        // selectedness is true".
        Checked => html && el.states().flags(el.pos) & CHECKED != 0,
        // :indeterminate: radio buttons whose group has no checked button, and "progress
        // elements with no value content attribute" (a checkbox's indeterminate IDL
        // attribute needs a script).
        Indeterminate => {
            html && (el.states().flags(el.pos) & INDETERMINATE != 0
                || (e.name == ln::PROGRESS && el.attr(ln::VALUE).is_none()))
        }
        // :default: "button elements that are their form's default button; input elements
        // whose type attribute is in the Submit Button or Image Button state, and that are
        // their form's default button; input elements to which the checked attribute applies
        // and that have a checked attribute; option elements that have a selected attribute".
        Default => {
            html && (el.states().flags(el.pos) & DEFAULT != 0
                || (e.name == ln::INPUT
                    && matches!(
                        el.control().input_type(),
                        InputType::Checkbox | InputType::Radio
                    )
                    && el.attr(ln::CHECKED).is_some())
                || (e.name == ln::OPTION && el.attr(ln::SELECTED).is_some()))
        }
        // "The :disabled pseudo-class must match any element that is actually disabled."
        Disabled => html && el.states().flags(el.pos) & DISABLED != 0,
        // ":enabled ... button, input, select, textarea, optgroup, option, fieldset elements
        // ... that are not actually disabled."
        Enabled => html && is_disableable(e.name) && el.states().flags(el.pos) & DISABLED == 0,
        // ":read-write must match any element falling into one of the following categories
        // ... input elements to which the readonly attribute applies, and that are mutable;
        // textarea elements that do not have a readonly attribute, and that are not actually
        // disabled; elements that are editing hosts or editable and are neither input elements
        // nor textarea elements". ":read-only must match all other HTML elements."
        ReadWrite => html && el.states().flags(el.pos) & READ_WRITE != 0,
        ReadOnly => html && el.states().flags(el.pos) & READ_WRITE == 0,
        // ":required ... input elements that are required, select elements that have a
        // required attribute, and textarea elements that have a required attribute"; for
        // :optional see the module docs.
        Required => html && required(el) == Some(true),
        Optional => html && required(el) == Some(false),
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
        // :valid: "elements that are candidates for constraint validation and that satisfy
        // their constraints; form elements that are not the form owner of any elements that
        // themselves are candidates for constraint validation but do not satisfy their
        // constraints; fieldset elements that have no descendant elements that themselves are
        // candidates for constraint validation but do not satisfy their constraints".
        // :invalid: the complement within the same three categories.
        Valid | Invalid => {
            if !html {
                return false;
            }
            let bits = el.validity_bits();
            let invalid = if bits & V_CANDIDATE != 0 {
                bits & V_INVALID != 0
            } else if e.name == ln::FORM || e.name == ln::FIELDSET {
                bits & V_HAS_INVALID != 0
            } else {
                return false;
            };
            invalid == matches!(pc, Invalid)
        }
        // :in-range / :out-of-range: "elements that are candidates for constraint validation,
        // have range limitations, and that are neither suffering from an underflow nor
        // suffering from an overflow" / "... and that are either suffering from an underflow
        // or suffering from an overflow".
        InRange | OutOfRange => {
            if !html || e.name != ln::INPUT {
                return false;
            }
            let bits = el.validity_bits();
            bits & (V_CANDIDATE | V_RANGE_LIMITED) == V_CANDIDATE | V_RANGE_LIMITED
                && (bits & V_OUT_OF_RANGE != 0) == matches!(pc, OutOfRange)
        }
        // :dir(ltr) / :dir(rtl): "elements whose directionality is 'ltr' / 'rtl'".
        Dir(_, direction) => direction.is_some_and(|wanted| {
            let rtl = el.states().is_rtl(el.doc(), el.index(), el.pos);
            (wanted == Direction::Rtl) == rtl
        }),
        Lang(ranges) => {
            let lang = el.states().language(el.doc(), el.index(), el.pos);
            lang.is_some_and(|lang| ranges.iter().any(|r| lang_matches(lang, r)))
        }
        Has(arg) => super::query::has_matches(el, arg, context),
        Text(arg) => super::text::text_matches(el, arg, context),
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

/// For `input`, `select` and `textarea`: whether the element is required (`Some(true)`) or
/// optional (`Some(false)`); `None` for other elements. An `input` is required when the
/// `required` attribute applies to its type and it has one; every other `input` is optional
/// (see the module docs).
fn required(el: El<'_>) -> Option<bool> {
    let e = el.elem();
    if e.name == ln::INPUT {
        let required = el.attr(ln::REQUIRED).is_some();
        Some(required && el.control().input_type().required_applies())
    } else if e.name == ln::SELECT || e.name == ln::TEXTAREA {
        Some(el.attr(ln::REQUIRED).is_some())
    } else {
        None
    }
}

/// :placeholder-shown: "input elements that have a placeholder attribute whose value is
/// currently being presented to the user", and textarea elements likewise (CSS Selectors 4).
/// The placeholder is presented when the attribute applies and the control's value is empty.
fn placeholder_shown(el: El<'_>) -> bool {
    let e = el.elem();
    if el.attr(ln::PLACEHOLDER).is_none() {
        return false;
    }
    let c = el.control();
    if e.name == ln::TEXTAREA {
        return c.child_text().is_empty();
    }
    if e.name != ln::INPUT {
        return false;
    }
    let t = c.input_type();
    t.placeholder_applies() && sanitize::input_value(c, t).is_empty()
}

/// "Valid custom element name" (HTML, 4.13.3 "Core concepts" of custom elements, as relaxed
/// by whatwg/html#7991): the name is a "valid element local name" (DOM, "Namespaces"), its
/// 0th code point is an ASCII lower alpha, it contains no ASCII upper alpha, it contains a
/// U+002D (-), and it is not one of the reserved names. With an ASCII alpha first, a valid
/// element local name is any name without ASCII whitespace, U+0000, `/` or `>`, so `x-y:z`,
/// `x-y.z`, `x-\u{e9}` and `us-gaap:foo.domain` are custom element names.
fn is_valid_custom_element_name(name: &str) -> bool {
    // "name's 0th code point is an ASCII lower alpha" (so the DOM's step 2 applies).
    if !name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
        return false;
    }
    // "Valid element local name", step 2.1: no ASCII whitespace, U+0000 NULL, U+002F (/) or
    // U+003E (>).
    let local_name_ok = !name
        .chars()
        .any(|c| matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ' | '\0' | '/' | '>'));
    local_name_ok
        && !name.chars().any(|c| c.is_ascii_uppercase())
        && name.contains('-')
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
    fn custom_element_names() {
        assert!(is_valid_custom_element_name("my-widget"));
        assert!(is_valid_custom_element_name("x-\u{e9}"));
        assert!(!is_valid_custom_element_name("div"));
        assert!(!is_valid_custom_element_name("font-face"));
        assert!(!is_valid_custom_element_name("My-widget"));
        assert!(!is_valid_custom_element_name("-x"));
        // Relaxed by whatwg/html#7991: any valid element local name.
        for name in ["x-y:z", "x-y.z", "us-gaap:foo.domain", "a-\u{1F600}", "x-"] {
            assert!(is_valid_custom_element_name(name), "{name}");
        }
        for name in [
            "foo:bar",
            "x-Y",
            "x-y/z",
            "x-y z",
            "x-y>",
            "\u{e9}-x",
            ":x-y",
            "missing-glyph",
        ] {
            assert!(!is_valid_custom_element_name(name), "{name}");
        }
    }
}
