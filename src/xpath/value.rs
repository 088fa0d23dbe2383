//! Conversions between strings and numbers (XPath 1.0, 4.2 `string()` and 4.4 `number()`).

/// A number as a string (4.2 "String Functions", `string()`): `NaN`, `0` for both zeros,
/// `Infinity`, `-Infinity`; an integer in decimal with no point; any other number in decimal
/// with at least one digit before the point, no exponent, and as many digits after it as
/// needed to tell it from every other IEEE 754 double (Rust's shortest round-trip digits,
/// written without exponent, are exactly that).
///
/// ```
/// use html_arena::xpath::number_to_string;
/// assert_eq!(number_to_string(f64::NAN), "NaN");
/// assert_eq!(number_to_string(-0.0), "0");
/// assert_eq!(number_to_string(f64::NEG_INFINITY), "-Infinity");
/// assert_eq!(number_to_string(2.0), "2");
/// assert_eq!(number_to_string(-0.5), "-0.5");
/// assert_eq!(number_to_string(1e21), "1000000000000000000000");
/// assert_eq!(number_to_string(1e-7), "0.0000001");
/// assert_eq!(number_to_string(0.1 + 0.2), "0.30000000000000004");
/// ```
pub fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        "NaN".to_owned()
    } else if n == 0.0 {
        "0".to_owned()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.to_owned()
    } else {
        format!("{n}")
    }
}

/// A string as a number (4.4 "Number Functions", `number()`): optional white space, an
/// optional minus sign, a \[30\] Number (digits with at most one point: no exponent, no plus
/// sign, no `Infinity`), optional white space; anything else is NaN.
///
/// ```
/// use html_arena::xpath::string_to_number;
/// assert_eq!(string_to_number(" -12.5\n"), -12.5);
/// assert_eq!(string_to_number(".5"), 0.5);
/// assert_eq!(string_to_number("5."), 5.0);
/// assert!(string_to_number("1e3").is_nan());
/// assert!(string_to_number("+1").is_nan());
/// assert!(string_to_number("").is_nan());
/// assert!(string_to_number("Infinity").is_nan());
/// ```
pub fn string_to_number(s: &str) -> f64 {
    let t = s.trim_matches([' ', '\t', '\r', '\n']);
    let digits = t.strip_prefix('-').unwrap_or(t);
    let mut seen_digit = false;
    let mut seen_point = false;
    for b in digits.bytes() {
        match b {
            b'0'..=b'9' => seen_digit = true,
            b'.' if !seen_point => seen_point = true,
            _ => return f64::NAN,
        }
    }
    if !seen_digit {
        return f64::NAN;
    }
    t.parse::<f64>().unwrap_or(f64::NAN)
}

/// XPath 1.0, 4.4 `round()`: the closest integer, the one nearer positive infinity on a tie;
/// NaN, infinities and zeros unchanged; negative numbers from -0.5 up round to negative zero.
pub(crate) fn round(n: f64) -> f64 {
    if n.is_nan() || n.is_infinite() || n.fract() == 0.0 {
        return n;
    }
    if (-0.5..0.0).contains(&n) {
        return -0.0;
    }
    // (Not `(n + 0.5).floor()`: the sum rounds up for the double just below 0.5.)
    let floor = n.floor();
    if n - floor >= 0.5 { floor + 1.0 } else { floor }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding() {
        assert_eq!(round(2.5), 3.0);
        assert_eq!(round(-2.5), -2.0);
        assert_eq!(round(-0.5).to_bits(), (-0.0f64).to_bits());
        assert_eq!(round(-0.2).to_bits(), (-0.0f64).to_bits());
        assert_eq!(round(0.49999999999999994), 0.0);
        assert!(round(f64::NAN).is_nan());
        assert_eq!(round(4503599627370497.0), 4503599627370497.0);
    }
}
