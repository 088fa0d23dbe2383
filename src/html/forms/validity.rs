//! Constraint validation (HTML, "Constraint validation", "The constraint validation API"), for
//! controls whose value is the one parsing gave them.
//!
//! "A submittable element is a candidate for constraint validation except when a condition
//! has barred the element from constraint validation." The conditions a static document can
//! meet: disabled (HTML, "Enabling and disabling form controls"), a `datalist` ancestor,
//! `readonly` on any `input` or on a `textarea`, `input` in the Hidden, Reset
//! Button or Button state, a `button` not in the Submit Button state; `object` elements are
//! always barred. `fieldset` and `output` are not submittable.
//!
//! The validity states that can hold without user edits are computed from each type's
//! "Constraint validation" paragraphs; `tooLong` and `tooShort` need a dirty value ("the
//! element's value was last changed by a user edit"), `badInput` a user's input, and
//! `customError` a script: never, here.

#[cfg(feature = "forms")]
use super::pattern::Patterns;

/// Without the `forms` feature nothing compiles a `pattern` (no regular expression engine):
/// the API that reports validity ([`ElementRef::validity`](crate::ElementRef)) is absent and
/// the selector parser refuses `:valid`, `:invalid`, `:in-range` and `:out-of-range`, so the
/// checks here are not reached from outside.
#[cfg(not(feature = "forms"))]
#[derive(Default)]
struct Patterns {}

#[cfg(not(feature = "forms"))]
impl Patterns {
    fn matches(&mut self, _pattern: &str, _value: &str) -> Option<bool> {
        None
    }
}
use super::sanitize::{Limits, input_value, option_value, step_mismatch};
use super::{
    CHECKED, Control, DISABLED, ElementStates, GROUP_MISSING, InputType, display_size,
    is_submit_button, list_of_options,
};
use crate::dom::Document;
use crate::dom::names::{Namespace, local_name as ln};
use crate::query::index::{NONE, TreeIndex};

/// Bit: a candidate for constraint validation.
pub(crate) const V_CANDIDATE: u8 = 1;
/// Bit: a candidate that does not satisfy its constraints.
pub(crate) const V_INVALID: u8 = 2;
/// Bit: a candidate with range limitations (a defined minimum or maximum).
pub(crate) const V_RANGE_LIMITED: u8 = 4;
/// Bit: suffering from an underflow or an overflow.
pub(crate) const V_OUT_OF_RANGE: u8 = 8;
/// Bit: a `form` that is the form owner of an invalid candidate, or a `fieldset` with an
/// invalid candidate among its descendants.
pub(crate) const V_HAS_INVALID: u8 = 16;

/// The validity states of an element (HTML, "The constraint validation API": the
/// `ValidityState` interface), as a parsed document holds them.
///
/// With the `forms` feature (see [`ElementRef::validity`](crate::ElementRef)):
///
/// ```
/// # #[cfg(feature = "forms")]
/// # {
/// use html_arena::{Document, Selector};
/// let doc = Document::parse("<input pattern='[0-9]+' value='12a'>");
/// let input = doc.select_first(&"input".parse::<Selector>().unwrap()).unwrap();
/// let validity = input.validity().unwrap();
/// assert!(validity.pattern_mismatch);
/// assert!(!validity.valid());
/// # }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ValidityState {
    /// "Suffering from being missing": required, and empty, unchecked or unselected.
    pub value_missing: bool,
    /// "Suffering from a type mismatch": an `email` or `url` input whose value is not a valid
    /// email address (list) or absolute URL.
    pub type_mismatch: bool,
    /// "Suffering from a pattern mismatch": the `pattern` does not match the value.
    pub pattern_mismatch: bool,
    /// "Suffering from being too long": needs a user edit, so always false here.
    pub too_long: bool,
    /// "Suffering from being too short": needs a user edit, so always false here.
    pub too_short: bool,
    /// "Suffering from an underflow": the value is below the minimum.
    pub range_underflow: bool,
    /// "Suffering from an overflow": the value is above the maximum.
    pub range_overflow: bool,
    /// "Suffering from a step mismatch": the value is not on a step from the step base.
    pub step_mismatch: bool,
    /// "Suffering from bad input": needs a user's input, so always false here.
    pub bad_input: bool,
    /// "Suffering from a custom error": needs a script, so always false here.
    pub custom_error: bool,
}

impl ValidityState {
    /// Whether the element satisfies its constraints: none of the states holds (the `valid`
    /// IDL attribute).
    ///
    /// ```
    /// # #[cfg(feature = "forms")]
    /// # {
    /// # use html_arena::{Document, Selector};
    /// let doc = Document::parse("<input type=url value='https://example.com/'>");
    /// let input = doc.select_first(&"input".parse::<Selector>().unwrap()).unwrap();
    /// assert!(input.validity().unwrap().valid());
    /// # }
    /// ```
    pub fn valid(&self) -> bool {
        *self == ValidityState::default()
    }
}

/// Whether the element is a candidate for constraint validation (see the module docs);
/// `in_datalist` says whether it has a `datalist` ancestor.
fn is_candidate(c: Control<'_>, states: &ElementStates, in_datalist: bool) -> bool {
    let e = c.elem();
    if e.ns != Namespace::Html || in_datalist || states.flags(c.pos) & DISABLED != 0 {
        return false;
    }
    match e.name {
        ln::INPUT => {
            let t = c.input_type();
            // "If the readonly attribute is specified on an input element, the element is
            // barred from constraint validation": whatever its type (WPT's
            // form-validation-willValidate.html and browsers agree: color, file, submit too).
            let barred_type = matches!(t, InputType::Hidden | InputType::Reset | InputType::Button);
            !barred_type && c.attr(ln::READONLY).is_none()
        }
        ln::BUTTON => is_submit_button(c),
        ln::TEXTAREA => c.attr(ln::READONLY).is_none(),
        ln::SELECT => true,
        _ => false,
    }
}

/// The validity states of a candidate `input`, `select` or `textarea`.
fn check(c: Control<'_>, patterns: &mut Patterns) -> ValidityState {
    let mut v = ValidityState::default();
    let required = c.attr(ln::REQUIRED).is_some();
    match c.elem().name {
        ln::INPUT => check_input(c, c.input_type(), required, patterns, &mut v),
        // "The textarea element": "If the element has its required attribute specified, and
        // the element is mutable, and the element's value is the empty string, then the
        // element is suffering from being missing."
        ln::TEXTAREA => v.value_missing = required && c.child_text().is_empty(),
        // "The select element": required, and no option selected, or only the placeholder
        // label option.
        ln::SELECT if required => {
            let options = list_of_options(c);
            let flags = c.states();
            let mut selected = options
                .iter()
                .filter(|(o, _, _)| flags.flags(o.pos) & CHECKED != 0);
            v.value_missing = match (selected.next(), selected.next()) {
                (None, _) => true,
                (Some((only, _, _)), None) => is_placeholder_label_option(c, &options, *only),
                _ => false,
            };
        }
        _ => {}
    }
    v
}

/// "Placeholder label option": for a required `select` without `multiple` and with a display
/// size of 1, its first option, if that option's value is empty and it is not in an `optgroup`
/// (the text says "its parent is the select"; with the relaxed content model an option may sit
/// in other elements, which Chromium accepts, as here).
fn is_placeholder_label_option(
    select: Control<'_>,
    options: &[(Control<'_>, bool, bool)],
    option: Control<'_>,
) -> bool {
    select.attr(ln::MULTIPLE).is_none()
        && display_size(select) == 1
        && options.first().is_some_and(|(first, _, in_optgroup)| {
            first.pos == option.pos && !in_optgroup && option_value(*first).is_empty()
        })
}

/// The "Constraint validation" paragraphs of each `input` type.
fn check_input(
    c: Control<'_>,
    t: InputType,
    required: bool,
    patterns: &mut Patterns,
    v: &mut ValidityState,
) {
    use InputType::*;
    let value = input_value(c, t);
    match t {
        Checkbox => v.value_missing = required && c.states().flags(c.pos) & CHECKED == 0,
        // "If an element in the radio button group is required, and all of the input elements
        // in the radio button group have a checkedness that is false, then the element is
        // suffering from being missing."
        Radio => v.value_missing = c.states().flags(c.pos) & GROUP_MISSING != 0,
        // No file is ever selected.
        File => v.value_missing = required,
        Text | Search | Tel | Password | Url | Email | Date | Month | Week | Time
        | DateTimeLocal | Number => v.value_missing = required && value.is_empty(),
        _ => {}
    }
    let multiple = t == Email && c.attr(ln::MULTIPLE).is_some();
    // "Email state": each value must be a valid email address; "URL state": a valid absolute
    // URL. The empty string never mismatches.
    if t == Email && !value.is_empty() {
        v.type_mismatch = if multiple {
            value.split(',').any(|token| !is_valid_email(token))
        } else {
            !is_valid_email(&value)
        };
    } else if t == Url && !value.is_empty() {
        v.type_mismatch = !is_valid_absolute_url(&value);
    }
    // "The pattern attribute": "If the element's value is not the empty string, ... and the
    // element has a compiled pattern regular expression but that regular expression does not
    // match the element's value (each of the element's values, with multiple)".
    if t.pattern_applies() && !value.is_empty() {
        if let Some(pattern) = c.attr(ln::PATTERN) {
            let mismatch = if multiple {
                value
                    .split(',')
                    .any(|token| patterns.matches(pattern, token) == Some(false))
            } else {
                patterns.matches(pattern, &value) == Some(false)
            };
            v.pattern_mismatch = mismatch;
        }
    }
    if t.range_applies() {
        if let Some(number) = super::sanitize::convert(t, &value) {
            let limits = Limits::of(c, t);
            let reversed = t == Time
                && matches!((limits.min, limits.max), (Some(min), Some(max)) if max < min);
            if reversed {
                // "Time state": a reversed range ("periodic domain"): a value above the maximum
                // and below the minimum suffers from both at once.
                let (min, max) = (limits.min.unwrap_or(0.0), limits.max.unwrap_or(0.0));
                let outside = number > max && number < min;
                v.range_underflow = outside;
                v.range_overflow = outside;
            } else {
                v.range_underflow = limits.min.is_some_and(|min| number < min);
                v.range_overflow = limits.max.is_some_and(|max| number > max);
            }
            v.step_mismatch = limits
                .step
                .is_some_and(|step| step_mismatch(number, limits.base, step));
        }
    }
}

/// "Valid email address": the spec's ABNF (a willful violation of RFC 5322): a local part of
/// `[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+`, `@`, then dot-separated labels of 1 to 63 ASCII
/// alphanumerics and hyphens that neither start nor end with a hyphen.
pub(crate) fn is_valid_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"..!#$%&'*+/=?^_`{|}~-".contains(&b));
    local_ok
        && domain.split('.').all(|label| {
            let b = label.as_bytes();
            !b.is_empty()
                && b.len() <= 63
                && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        })
}

/// "Valid absolute URL", as browsers check it (the URL parser does not fail): a scheme (an
/// ASCII letter, then letters, digits, `+`, `-`, `.`) and `:`; for the special schemes
/// other than `file`, a non-empty host without forbidden host code points and a port of at
/// most 65535.
pub(crate) fn is_valid_absolute_url(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut bytes = scheme.bytes();
    if !bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        || !bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
    {
        return false;
    }
    let scheme = scheme.to_ascii_lowercase();
    if !matches!(scheme.as_str(), "http" | "https" | "ws" | "wss" | "ftp") {
        return true;
    }
    // The URL parser removes tabs and newlines, and skips the slashes (either way) before a
    // special URL's authority.
    let rest: String = rest
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let rest = rest.trim_start_matches(['/', '\\']);
    let authority = rest.split(['/', '\\', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = if host_port.starts_with('[') {
        match host_port.find(']') {
            Some(end) => (&host_port[..=end], &host_port[end + 1..]),
            None => return false,
        }
    } else {
        match host_port.rfind(':') {
            Some(i) => (&host_port[..i], &host_port[i..]),
            None => (host_port, ""),
        }
    };
    let port_ok = match port.strip_prefix(':') {
        None => port.is_empty(),
        Some(p) => {
            p.bytes().all(|b| b.is_ascii_digit()) && p.parse::<u32>().is_ok_and(|n| n <= 65535)
                || p.is_empty()
        }
    };
    let forbidden = |c: char| {
        matches!(
            c,
            '\0' | ' ' | '#' | '/' | ':' | '<' | '>' | '?' | '@' | '[' | '\\' | ']' | '^' | '|'
        )
    };
    let host_ok = !host.is_empty()
        && (host.starts_with('[') || !host.chars().any(|c| forbidden(c) || c.is_control()));
    host_ok && port_ok
}

/// The `V_*` bits of every element of `index`.
pub(crate) fn compute_all(doc: &Document, index: &TreeIndex, states: &ElementStates) -> Vec<u8> {
    let n = index.elems.len();
    let mut bits = vec![0u8; n];
    let mut in_datalist = vec![false; n];
    let mut patterns = Patterns::default();
    let c0 = Control { doc, index, pos: 0 };
    for pos in 0..n as u32 {
        let c = c0.at(pos);
        let e = c.elem();
        if e.parent != NONE {
            in_datalist[pos as usize] =
                in_datalist[e.parent as usize] || c.at(e.parent).is(ln::DATALIST);
        }
        if e.ns != Namespace::Html
            || !matches!(e.name, ln::INPUT | ln::BUTTON | ln::SELECT | ln::TEXTAREA)
            || !is_candidate(c, states, in_datalist[pos as usize])
        {
            continue;
        }
        let mut b = V_CANDIDATE;
        let v = check(c, &mut patterns);
        if !v.valid() {
            b |= V_INVALID;
        }
        if e.name == ln::INPUT {
            let t = c.input_type();
            if t.range_applies() {
                let limits = Limits::of(c, t);
                if limits.min.is_some() || limits.max.is_some() {
                    b |= V_RANGE_LIMITED;
                }
                if v.range_underflow || v.range_overflow {
                    b |= V_OUT_OF_RANGE;
                }
            }
        }
        bits[pos as usize] = b;
    }
    // Forms: "the form owner of one or more elements that are candidates for constraint
    // validation but do not satisfy their constraints".
    for pos in 0..n {
        if bits[pos] & V_INVALID != 0 {
            let owner = states.form_owner(pos as u32);
            if let Some(b) = bits.get_mut(owner as usize) {
                *b |= V_HAS_INVALID;
            }
        }
    }
    // Fieldsets: "one or more descendant elements that ... do not satisfy their constraints":
    // children come after their parents, so a backward pass carries each subtree's answer up.
    let mut subtree_invalid = vec![false; n];
    for pos in (0..n).rev() {
        let invalid = subtree_invalid[pos] || bits[pos] & V_INVALID != 0;
        let parent = index.elems[pos].parent;
        if invalid && parent != NONE {
            subtree_invalid[parent as usize] = true;
        }
    }
    for pos in 0..n as u32 {
        if subtree_invalid[pos as usize] && c0.at(pos).is(ln::FIELDSET) {
            bits[pos as usize] |= V_HAS_INVALID;
        }
    }
    bits
}

/// The validity states of the element `c` (see `ElementRef::validity`).
#[cfg_attr(
    not(all(feature = "xml", feature = "xpath", feature = "url", feature = "forms")),
    allow(dead_code)
)]
pub(crate) fn validity_of(c: Control<'_>) -> Option<ValidityState> {
    let e = c.elem();
    if e.ns != Namespace::Html
        || !matches!(
            e.name,
            ln::BUTTON
                | ln::FIELDSET
                | ln::INPUT
                | ln::OBJECT
                | ln::OUTPUT
                | ln::SELECT
                | ln::TEXTAREA
        )
    {
        return None;
    }
    let states = c.states();
    if states.validity_bits(c.doc, c.index, c.pos) & V_CANDIDATE == 0 {
        return Some(ValidityState::default());
    }
    Some(check(c, &mut Patterns::default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        for ok in ["a@b", "a.b+c@example.com", "x@a-b.c"] {
            assert!(is_valid_email(ok), "{ok}");
        }
        for bad in [
            "", "a", "@b", "a@", "a@-b", "a@b-", "a@b..c", "a b@c", "a@b@c",
        ] {
            assert!(!is_valid_email(bad), "{bad}");
        }
    }

    #[test]
    fn urls() {
        for ok in [
            "http://example.com",
            "https://example.com:8080/a?b#c",
            "mailto:a@b",
            "file:///tmp",
            "http://[::1]/",
            "x:",
        ] {
            assert!(is_valid_absolute_url(ok), "{ok}");
        }
        for bad in [
            "",
            "example.com",
            "http://",
            "http://a b",
            "http://a:99999",
            "1http://a",
        ] {
            assert!(!is_valid_absolute_url(bad), "{bad}");
        }
    }
}
