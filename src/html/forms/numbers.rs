//! The microsyntaxes form controls use for numbers, dates and times (HTML, "Common
//! microsyntaxes": "Numbers" and "Dates and times"), and the `input` types' "convert a string
//! to a number" algorithms built on them.
//!
//! Dates and times become milliseconds since 1970-01-01T00:00Z (proleptic Gregorian calendar,
//! no leap seconds), months become months since January 1970, as the spec's conversions say.

/// "Valid floating-point number" (HTML, "Floating-point numbers"): an optional `-`, digits
/// and/or a `.` followed by digits, then an optional `e`/`E`, optional sign and digits.
pub(crate) fn is_valid_float(s: &str) -> bool {
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

/// "Rules for parsing floating-point number values" (HTML, "Floating-point numbers"): leading
/// ASCII whitespace is skipped, trailing garbage ignored; the result is the nearest double
/// (never -0), or `None` for an error (no number, or a magnitude that rounds to 2^1024).
pub(crate) fn parse_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    // Step 2: skip ASCII whitespace.
    let mut i = 0;
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\x0C' | b'\r') {
        i += 1;
    }
    // The digits the steps collect, rebuilt as a string Rust parses with correct rounding
    // (the steps' "conversion" is round-to-nearest over the doubles).
    let mut text = String::new();
    // Step 4: a sign.
    match b.get(i) {
        None => return None,
        Some(b'-') => {
            text.push('-');
            i += 1;
        }
        Some(b'+') => i += 1,
        _ => {}
    }
    let first = *b.get(i)?;
    // Steps 5-7: `.digit` starts a fraction directly; otherwise digits are required.
    let fraction_first = first == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit);
    if !fraction_first && !first.is_ascii_digit() {
        return None;
    }
    text.push('0');
    while i < b.len() && b[i].is_ascii_digit() {
        text.push(b[i] as char);
        i += 1;
    }
    // Step 9: the fraction, if a digit follows the `.`.
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        text.push('.');
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            text.push(b[i] as char);
            i += 1;
        }
    }
    // Step 10: the exponent, if digits follow the `e` (and its sign).
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        let negative = b.get(j) == Some(&b'-');
        if matches!(b.get(j), Some(b'-' | b'+')) {
            j += 1;
        }
        let start = j;
        let mut exponent: i64 = 0;
        while j < b.len() && b[j].is_ascii_digit() {
            // Saturates: any exponent beyond this over- or underflows anyway.
            exponent = (exponent * 10 + i64::from(b[j] - b'0')).min(1_000_000);
            j += 1;
        }
        if j > start {
            text.push('e');
            if negative {
                text.push('-');
            }
            text.push_str(&exponent.to_string());
        }
    }
    // Step 11: conversion.
    let value: f64 = text.parse().ok()?;
    if !value.is_finite() {
        return None;
    }
    Some(if value == 0.0 { 0.0 } else { value })
}

/// "The best representation of the number n as a floating-point number": ECMAScript's
/// Number::toString (shortest round-trip digits; exponent form below 1e-6 and from 1e21).
pub(crate) fn float_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n == 0.0 {
        return "0".into();
    }
    if n < 0.0 {
        return format!("-{}", float_to_string(-n));
    }
    if n.is_infinite() {
        return "Infinity".into();
    }
    // Rust's `{:e}` prints the shortest digits that round-trip: "d.ddde-7".
    let sci = format!("{n:e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let k = digits.len() as i64;
    let point = exponent + 1; // ECMAScript's n
    if k <= point && point <= 21 {
        let zeros = "0".repeat((point - k) as usize);
        format!("{digits}{zeros}")
    } else if 0 < point && point <= 21 {
        let (int, frac) = digits.split_at(point as usize);
        format!("{int}.{frac}")
    } else if -6 < point && point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else {
        let sign = if point - 1 < 0 { '-' } else { '+' };
        let e = (point - 1).abs();
        if k == 1 {
            format!("{digits}e{sign}{e}")
        } else {
            format!("{}.{}e{sign}{e}", &digits[..1], &digits[1..])
        }
    }
}

const MS_PER_DAY: f64 = 86_400_000.0;

/// Days since 1970-01-01 of a proleptic Gregorian date (days from civil).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// "Number of days in month month of year year".
fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(year) => 29,
        _ => 28,
    }
}

/// A cursor over a microsyntax's input.
struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    /// Exactly `n` ASCII digits, as a number.
    fn digits(&mut self, n: usize) -> Option<u32> {
        let run = self.b.get(self.i..self.i + n)?;
        if !run.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.i += n;
        Some(run.iter().fold(0, |v, d| v * 10 + u32::from(d - b'0')))
    }

    fn expect(&mut self, c: u8) -> Option<()> {
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    fn at_end(&self) -> bool {
        self.i == self.b.len()
    }

    /// "Parse a year": four or more digits, greater than zero (bounded so it fits).
    fn year(&mut self) -> Option<i64> {
        let start = self.i;
        while self.b.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        let run = &self.b[start..self.i];
        if run.len() < 4 || run.len() > 12 {
            return None;
        }
        let year = run.iter().fold(0i64, |v, d| v * 10 + i64::from(d - b'0'));
        (year > 0).then_some(year)
    }

    /// "Parse a month component": year, `-`, two-digit month in 1..=12.
    fn month_component(&mut self) -> Option<(i64, u32)> {
        let year = self.year()?;
        self.expect(b'-')?;
        let month = self.digits(2)?;
        (1..=12).contains(&month).then_some((year, month))
    }

    /// "Parse a date component": month component, `-`, two-digit day valid in the month.
    fn date_component(&mut self) -> Option<(i64, u32, u32)> {
        let (year, month) = self.month_component()?;
        self.expect(b'-')?;
        let day = self.digits(2)?;
        (1..=days_in_month(year, month))
            .contains(&day)
            .then_some((year, month, day))
    }

    /// "Parse a time component": `hh:mm`, optionally `:ss` and a fraction. Returns the
    /// milliseconds since midnight and the number of fraction digits.
    fn time_component(&mut self) -> Option<(f64, usize)> {
        let hour = self.digits(2)?;
        if hour > 23 {
            return None;
        }
        self.expect(b':')?;
        let minute = self.digits(2)?;
        if minute > 59 {
            return None;
        }
        let mut second = 0.0;
        let mut fraction_digits = 0;
        if self.b.get(self.i) == Some(&b':') {
            self.i += 1;
            // "Collect a sequence of code points that are either ASCII digits or U+002E FULL
            // STOP characters": it must be two digits, optionally followed by a `.` and more.
            let start = self.i;
            while self
                .b
                .get(self.i)
                .is_some_and(|c| c.is_ascii_digit() || *c == b'.')
            {
                self.i += 1;
            }
            let run = &self.b[start..self.i];
            let dots = run.iter().filter(|c| **c == b'.').count();
            if run.len() == 3 || (run.len() > 3 && run[2] != b'.') || dots > 1 || run.len() < 2 {
                return None;
            }
            if !run[..2].iter().all(u8::is_ascii_digit) {
                return None;
            }
            fraction_digits = run.len().saturating_sub(3);
            second = std::str::from_utf8(run).ok()?.parse().ok()?;
            if !(0.0..60.0).contains(&second) {
                return None;
            }
        }
        let ms = f64::from(hour) * 3_600_000.0 + f64::from(minute) * 60_000.0 + second * 1000.0;
        Some((ms, fraction_digits))
    }
}

/// "Parse a date string" → milliseconds since the epoch at midnight UTC.
pub(crate) fn parse_date(s: &str) -> Option<f64> {
    let mut c = Cursor {
        b: s.as_bytes(),
        i: 0,
    };
    let (y, m, d) = c.date_component()?;
    c.at_end()
        .then(|| days_from_civil(y, m, d) as f64 * MS_PER_DAY)
}

/// "Parse a month string" → months since January 1970.
pub(crate) fn parse_month(s: &str) -> Option<f64> {
    let mut c = Cursor {
        b: s.as_bytes(),
        i: 0,
    };
    let (y, m) = c.month_component()?;
    c.at_end()
        .then(|| ((y - 1970) * 12 + i64::from(m) - 1) as f64)
}

/// The number of weeks in a week-year: 53 when January 1st is a Thursday, or a Wednesday in
/// a leap year; 52 otherwise.
fn weeks_in_year(year: i64) -> u32 {
    // 1970-01-01 was a Thursday; weekday 0 = Monday.
    let weekday = (days_from_civil(year, 1, 1) + 3).rem_euclid(7);
    if weekday == 3 || (weekday == 2 && is_leap(year)) {
        53
    } else {
        52
    }
}

/// "Parse a week string" → milliseconds since the epoch at the start of the week's Monday.
pub(crate) fn parse_week(s: &str) -> Option<f64> {
    let mut c = Cursor {
        b: s.as_bytes(),
        i: 0,
    };
    let year = c.year()?;
    c.expect(b'-')?;
    c.expect(b'W')?;
    let week = c.digits(2)?;
    if !c.at_end() || week < 1 || week > weeks_in_year(year) {
        return None;
    }
    // Week 1 is the week that holds January 4th; weeks start on Monday.
    let jan4 = days_from_civil(year, 1, 4);
    let monday = jan4 - (jan4 + 3).rem_euclid(7);
    Some((monday + 7 * (i64::from(week) - 1)) as f64 * MS_PER_DAY)
}

/// "Parse a time string" → milliseconds since midnight, with the number of fraction digits
/// (a "valid time string" has at most three).
pub(crate) fn parse_time(s: &str) -> Option<(f64, usize)> {
    let mut c = Cursor {
        b: s.as_bytes(),
        i: 0,
    };
    let time = c.time_component()?;
    c.at_end().then_some(time)
}

/// "Parse a local date and time string": a date, `T` or a space, a time. Returns the
/// milliseconds since the epoch (as if UTC) and the number of fraction digits.
pub(crate) fn parse_local_date_time(s: &str) -> Option<(f64, usize)> {
    let mut c = Cursor {
        b: s.as_bytes(),
        i: 0,
    };
    let (y, m, d) = c.date_component()?;
    if !matches!(c.b.get(c.i), Some(b'T' | b' ')) {
        return None;
    }
    c.i += 1;
    let (ms, fraction) = c.time_component()?;
    c.at_end()
        .then(|| (days_from_civil(y, m, d) as f64 * MS_PER_DAY + ms, fraction))
}

/// "Valid normalized local date and time string" for a valid local date and time string `s`:
/// `T` as the separator and the shortest time (no seconds when zero, no trailing zeros in the
/// fraction).
pub(crate) fn normalize_local_date_time(s: &str) -> String {
    let (date, time) = s.split_at(10.max(s.find(['T', ' ']).unwrap_or(10)));
    let time = time.get(1..).unwrap_or("");
    let mut time = time.to_owned();
    if let Some(dot) = time.find('.') {
        while time.ends_with('0') {
            time.pop();
        }
        if time.len() == dot + 1 {
            time.pop();
        }
    }
    if time.len() == 8 && time.ends_with(":00") {
        time.truncate(5);
    }
    format!("{date}T{time}")
}

/// "Valid simple color": `#` and six ASCII hex digits.
pub(crate) fn is_valid_simple_color(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats() {
        for ok in ["1", "-1", "1.5", ".5", "1e3", "1.5E-3", "0", "1e+2"] {
            assert!(is_valid_float(ok), "{ok}");
        }
        for bad in ["", "+1", "1.", "-", ".", "1e", "abc", " 1", "1 "] {
            assert!(!is_valid_float(bad), "{bad}");
        }
        assert_eq!(parse_float(" 1.5abc"), Some(1.5));
        assert_eq!(parse_float("+.5"), Some(0.5));
        assert_eq!(parse_float("1."), Some(1.0));
        assert_eq!(parse_float("1e"), Some(1.0));
        assert_eq!(parse_float("-0"), Some(0.0));
        assert_eq!(parse_float("1e400"), None);
        assert_eq!(parse_float("x"), None);
        assert_eq!(parse_float("."), None);
        assert_eq!(parse_float("-"), None);
    }

    #[test]
    fn number_to_string() {
        for (n, s) in [
            (0.0, "0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e21, "1e+21"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (123456789012345680000.0, "123456789012345680000"),
            (50.0, "50"),
        ] {
            assert_eq!(float_to_string(n), s);
        }
    }

    #[test]
    fn dates_and_times() {
        assert_eq!(parse_date("1970-01-02"), Some(MS_PER_DAY));
        assert!(parse_date("2000-02-29").is_some());
        assert_eq!(parse_date("2001-02-29"), None);
        assert_eq!(parse_date("0000-01-01"), None);
        assert_eq!(parse_date("99-01-01"), None);
        assert_eq!(parse_month("1970-02"), Some(1.0));
        assert_eq!(parse_month("1969-12"), Some(-1.0));
        // 1970-W01 starts on Monday 1969-12-29 (the week's "default step base").
        assert_eq!(parse_week("1970-W01"), Some(-259_200_000.0));
        assert!(parse_week("2004-W53").is_some());
        assert_eq!(parse_week("2005-W53"), None);
        assert_eq!(parse_time("01:02"), Some((3_720_000.0, 0)));
        assert_eq!(parse_time("00:00:01.5"), Some((1500.0, 1)));
        assert_eq!(parse_time("00:00:01.2345").map(|t| t.1), Some(4));
        assert_eq!(parse_time("24:00"), None);
        assert_eq!(parse_time("00:00:1"), None);
        assert_eq!(
            parse_local_date_time("1970-01-01 00:01"),
            Some((60_000.0, 0))
        );
        assert_eq!(
            normalize_local_date_time("1970-01-01 00:01:00.500"),
            "1970-01-01T00:01:00.5"
        );
        assert_eq!(
            normalize_local_date_time("1970-01-01T00:01:00"),
            "1970-01-01T00:01"
        );
    }
}
