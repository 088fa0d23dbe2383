//! Each `input` type's value sanitization algorithm (HTML, "States of the type attribute", the
//! "value sanitization algorithm" of each state), its "convert a string to a number"
//! algorithm, and the `min`, `max` and `step` attributes (HTML, "Common input element
//! attributes": "The min and max attributes", "The step attribute").
//!
//! A parsed control's value is its `value` attribute run through its type's sanitization
//! (HTML, "The input element": the value mode "value" starts from the `value` content
//! attribute).

use std::borrow::Cow;

use super::numbers::{self, float_to_string, parse_float};
use super::{CHECKED, Control, InputType, list_of_options};
use crate::dom::names::local_name as ln;

/// "Strip newlines": remove U+000A LF and U+000D CR.
fn strip_newlines(s: &str) -> Cow<'_, str> {
    if s.contains(['\n', '\r']) {
        Cow::Owned(s.chars().filter(|c| !matches!(c, '\n' | '\r')).collect())
    } else {
        Cow::Borrowed(s)
    }
}

const ASCII_WHITESPACE: [char; 5] = [' ', '\t', '\n', '\x0C', '\r'];

/// "Strip leading and trailing ASCII whitespace".
fn trim_ascii(s: &str) -> &str {
    s.trim_matches(ASCII_WHITESPACE)
}

/// The value of an `input` of type `t` after parsing: its `value` attribute sanitized (value
/// mode "value"), the attribute or its default (modes "default" and "default/on"), or the
/// empty string (mode "filename": no file is selected).
pub(crate) fn input_value<'a>(c: Control<'a>, t: InputType) -> Cow<'a, str> {
    use InputType::*;
    let raw = c.attr(ln::VALUE);
    let value = raw.unwrap_or("");
    match t {
        // Value mode "default".
        Hidden | Submit | Image | Reset | Button => Cow::Borrowed(value),
        // Value mode "default/on".
        Checkbox | Radio => Cow::Borrowed(raw.unwrap_or("on")),
        // Value mode "filename".
        File => Cow::Borrowed(""),
        // "Text (type=text) state and Search State (type=search)", "Telephone state",
        // "Password state": "Strip newlines from the value."
        Text | Search | Tel | Password => strip_newlines(value),
        // "URL state": "Strip newlines from the value, then strip leading and trailing ASCII
        // whitespace from the value."
        Url => match strip_newlines(value) {
            Cow::Borrowed(v) => Cow::Borrowed(trim_ascii(v)),
            Cow::Owned(v) => Cow::Owned(trim_ascii(&v).to_owned()),
        },
        // "Email state": without `multiple`, strip newlines, then leading and trailing ASCII
        // whitespace; with it, split on commas, strip each token, join with commas.
        Email => {
            if c.attr(ln::MULTIPLE).is_some() {
                let tokens: Vec<&str> = value.split(',').map(trim_ascii).collect();
                let joined = tokens.join(",");
                if joined == value {
                    Cow::Borrowed(value)
                } else {
                    Cow::Owned(joined)
                }
            } else {
                match strip_newlines(value) {
                    Cow::Borrowed(v) => Cow::Borrowed(trim_ascii(v)),
                    Cow::Owned(v) => Cow::Owned(trim_ascii(&v).to_owned()),
                }
            }
        }
        // "Number state": "If the value of the element is not a valid floating-point number,
        // then set it to the empty string instead."
        Number => {
            if numbers::is_valid_float(value) {
                Cow::Borrowed(value)
            } else {
                Cow::Borrowed("")
            }
        }
        // "Date state", "Month state", "Week state", "Time state": not a valid string of
        // the type → the empty string.
        Date if numbers::parse_date(value).is_some() => Cow::Borrowed(value),
        Month if numbers::parse_month(value).is_some() => Cow::Borrowed(value),
        Week if numbers::parse_week(value).is_some() => Cow::Borrowed(value),
        Time if numbers::parse_time(value).is_some_and(|(_, f)| f <= 3) => Cow::Borrowed(value),
        Date | Month | Week | Time => Cow::Borrowed(""),
        // "Local Date and Time state": a valid local date and time string becomes a valid
        // normalized one; anything else the empty string.
        DateTimeLocal => match numbers::parse_local_date_time(value) {
            Some((_, fraction)) if fraction <= 3 => {
                let normalized = numbers::normalize_local_date_time(value);
                if normalized == value {
                    Cow::Borrowed(value)
                } else {
                    Cow::Owned(normalized)
                }
            }
            _ => Cow::Borrowed(""),
        },
        // "Color state": a valid simple color, lowercased; otherwise "#000000".
        Color => {
            if numbers::is_valid_simple_color(value) {
                if value.bytes().any(|b| b.is_ascii_uppercase()) {
                    Cow::Owned(value.to_ascii_lowercase())
                } else {
                    Cow::Borrowed(value)
                }
            } else {
                Cow::Borrowed("#000000")
            }
        }
        Range => range_value(c, value),
    }
}

/// "Range state": "If the value of the element is not a valid floating-point number, then set
/// it to the best representation, as a floating-point number, of the default value"; then an
/// underflow sets it to the minimum, an overflow (when the maximum is not below the minimum)
/// to the maximum, and a step mismatch to the nearest allowed value within the range,
/// preferring the one nearer positive infinity.
fn range_value<'a>(c: Control<'a>, value: &'a str) -> Cow<'a, str> {
    let limits = Limits::of(c, InputType::Range);
    let min = limits.min.unwrap_or(0.0);
    let max = limits.max.unwrap_or(100.0);
    let (mut v, mut changed) = if numbers::is_valid_float(value) {
        (parse_float(value).unwrap_or(0.0), false)
    } else {
        // "The default value is the minimum plus half the difference between the minimum and
        // the maximum, unless the maximum is less than the minimum, in which case the default
        // value is the minimum."
        let default = if max < min {
            min
        } else {
            min + (max - min) / 2.0
        };
        (default, true)
    };
    if v < min {
        v = min;
        changed = true;
    } else if max >= min && v > max {
        v = max;
        changed = true;
    }
    if let Some(step) = limits.step {
        if step_mismatch(v, limits.base, step) {
            let k = ((v - limits.base) / step).floor();
            let (below, above) = (limits.base + k * step, limits.base + (k + 1.0) * step);
            let in_range = |x: f64| x >= min && (max < min || x <= max);
            let nearer_above = above - v <= v - below;
            let choice = match (in_range(below), in_range(above)) {
                (true, true) if nearer_above => Some(above),
                (true, _) => Some(below),
                (false, true) => Some(above),
                (false, false) => None,
            };
            if let Some(x) = choice {
                // `base + k * step` in doubles can be off in the last digit (0.1 * 3): keep
                // 15 significant digits, as many as a double holds exactly in decimal.
                v = format!("{x:.14e}").parse().unwrap_or(x);
                changed = true;
            }
        }
    }
    if changed {
        Cow::Owned(float_to_string(v))
    } else {
        Cow::Borrowed(value)
    }
}

/// An `input`'s minimum, maximum, allowed value step and step base, as numbers in its type's
/// unit (HTML, "The min and max attributes", "The step attribute").
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Limits {
    pub(crate) min: Option<f64>,
    pub(crate) max: Option<f64>,
    /// The allowed value step (`None` for `step=any`).
    pub(crate) step: Option<f64>,
    /// The step base.
    pub(crate) base: f64,
}

impl Limits {
    /// The limits of an `input` of type `t` (one to which `min`, `max` and `step` apply).
    pub(crate) fn of(c: Control<'_>, t: InputType) -> Limits {
        let min = c
            .attr(ln::MIN)
            .and_then(|m| convert(t, m))
            .or((t == InputType::Range).then_some(0.0));
        let max = c
            .attr(ln::MAX)
            .and_then(|m| convert(t, m))
            .or((t == InputType::Range).then_some(100.0));
        // Default step, step scale factor and default step base per type.
        let (default_step, scale, default_base) = match t {
            InputType::Date => (1.0, 86_400_000.0, 0.0),
            InputType::Week => (1.0, 604_800_000.0, -259_200_000.0),
            InputType::Time | InputType::DateTimeLocal => (60.0, 1000.0, 0.0),
            _ => (1.0, 1.0, 0.0),
        };
        // "The step attribute": "any" → no allowed value step; a number above zero, times
        // the step scale factor; anything else → the default step.
        let step = match c.attr(ln::STEP) {
            Some(s) if s.eq_ignore_ascii_case("any") => None,
            Some(s) => {
                let parsed = parse_float(s).filter(|v| *v > 0.0);
                let parsed = match (parsed, t) {
                    // Dates, months and weeks step by whole units.
                    (Some(v), InputType::Date | InputType::Month | InputType::Week) => {
                        Some(v.round().max(1.0))
                    }
                    (v, _) => v,
                };
                Some(parsed.unwrap_or(default_step) * scale)
            }
            None => Some(default_step * scale),
        };
        // "The step base": the min attribute converted, else the value attribute converted,
        // else the type's default step base, else zero.
        let base = c
            .attr(ln::MIN)
            .and_then(|m| convert(t, m))
            .or_else(|| c.attr(ln::VALUE).and_then(|v| convert(t, v)))
            .unwrap_or(default_base);
        Limits {
            min,
            max,
            step,
            base,
        }
    }
}

/// An `input` type's "algorithm to convert a string to a number".
pub(crate) fn convert(t: InputType, s: &str) -> Option<f64> {
    match t {
        InputType::Number | InputType::Range => parse_float(s),
        InputType::Date => numbers::parse_date(s),
        InputType::Month => numbers::parse_month(s),
        InputType::Week => numbers::parse_week(s),
        InputType::Time => numbers::parse_time(s).map(|(ms, _)| ms),
        InputType::DateTimeLocal => numbers::parse_local_date_time(s).map(|(ms, _)| ms),
        _ => None,
    }
}

/// "Suffering from a step mismatch": `value` minus the step base is not an integral multiple
/// of the step. Doubles cannot hold most decimal steps exactly (0.1), so, as browsers do, a
/// remainder within 2^-24 of a step counts as none; past 2^53 steps nothing is a mismatch.
pub(crate) fn step_mismatch(value: f64, base: f64, step: f64) -> bool {
    let distance = (value - base).abs();
    if !distance.is_finite() || distance / 9_007_199_254_740_992.0 > step {
        return false;
    }
    let quotient = distance / step;
    let remainder = (quotient - quotient.round()).abs();
    remainder > 1.0 / 16_777_216.0
}

/// The value the public API reports (see `ElementRef::value`).
pub(crate) fn value_of(c: Control<'_>) -> Option<Cow<'_, str>> {
    let e = c.elem();
    if e.ns != crate::dom::names::Namespace::Html {
        return None;
    }
    Some(match e.name {
        ln::INPUT => input_value(c, c.input_type()),
        // "The textarea element": the raw value starts as the child text content (the
        // parser already normalized newlines and dropped a leading one).
        ln::TEXTAREA => c.child_text(),
        ln::SELECT => list_of_options(c)
            .into_iter()
            .find(|(o, _, _)| c.states().flags(o.pos) & CHECKED != 0)
            .map_or(Cow::Borrowed(""), |(o, _, _)| option_value(o)),
        ln::OPTION => option_value(c),
        ln::BUTTON => Cow::Borrowed(c.attr(ln::VALUE).unwrap_or("")),
        // "The output element": the value is the descendant text content.
        ln::OUTPUT => Cow::Owned(descendant_text(c, false)),
        _ => return None,
    })
}

/// An `option`'s value: its `value` attribute, else its text.
pub(crate) fn option_value(o: Control<'_>) -> Cow<'_, str> {
    match o.attr(ln::VALUE) {
        Some(v) => Cow::Borrowed(v),
        None => Cow::Owned(option_text(o)),
    }
}

/// "The option element": its text is its descendant text (leaving out `script` elements'),
/// with ASCII whitespace stripped and collapsed.
fn option_text(o: Control<'_>) -> String {
    let text = descendant_text(o, true);
    let mut out = String::with_capacity(text.len());
    for word in text.split(ASCII_WHITESPACE).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The data of the element's Text descendants in tree order, optionally skipping those
/// inside `script` elements.
fn descendant_text(c: Control<'_>, skip_scripts: bool) -> String {
    let node = crate::dom::NodeRef::new(c.doc, c.elem().node);
    let mut out = String::new();
    let mut walk = node.traverse();
    while let Some(edge) = walk.next() {
        let crate::dom::Edge::Open(n) = edge else {
            continue;
        };
        if let Some(t) = n.as_text() {
            out.push_str(t);
        } else if skip_scripts
            && n.as_element().is_some_and(|e| {
                e.name() == ln::SCRIPT && e.namespace() != crate::dom::names::Namespace::MathMl
            })
        {
            walk.skip_subtree();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_mismatches() {
        assert!(!step_mismatch(0.3, 0.0, 0.1));
        assert!(step_mismatch(0.35, 0.0, 0.1));
        assert!(!step_mismatch(5.0, 1.0, 2.0));
        assert!(step_mismatch(4.0, 1.0, 2.0));
        assert!(!step_mismatch(1e300, 0.0, 1.0));
    }
}
