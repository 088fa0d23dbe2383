//! Character references: 13.2.5.77 to 13.2.5.84, and the named character reference table
//! (13.5, `entities.rs`).

use super::entities::{ENTITIES, MAX_NAME_LEN};
use super::input::{Input, Peek};
use super::{Flow, State, TokenSink, Tokenizer};
use crate::error::ErrorCode;

/// The result of matching named character references against the input.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum NameMatch {
    /// The longest name that matches: its index in [`ENTITIES`] and length in bytes.
    Found { index: usize, len: usize },
    /// No name matches.
    None,
    /// The input ends before the longest match can be known.
    NeedMore,
}

/// "Consume the maximum number of characters possible, where the consumed characters are one
/// of the identifiers in the first column of the named character references table."
///
/// Names end with `;` except for a few legacy ones, and no name goes on after a `;`. So when
/// the input is a run of ASCII alphanumerics and a `;`, and that is a name, it is the longest
/// match: one hash lookup finds it. Anything else goes through [`match_entity_prefix`].
#[inline]
pub(crate) fn match_entity(input: &[u8], eof: bool) -> NameMatch {
    let head = &input[..input.len().min(MAX_NAME_LEN)];
    if let Some(n) = head.iter().position(|b| !b.is_ascii_alphanumeric()) {
        if head[n] == b';' {
            if let Some(index) = lookup_terminated(&head[..=n]) {
                return NameMatch::Found { index, len: n + 1 };
            }
        }
    }
    match_entity_prefix(input, eof)
}

/// FNV-1a, 32 bits.
#[inline]
const fn fnv1a(bytes: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u32;
        hash = hash.wrapping_mul(0x0100_0193);
        i += 1;
    }
    hash
}

const TERMINATED_SLOTS: usize = 4096;

/// An open-addressing hash table (FNV-1a, linear probing) of the names that end with `;`:
/// their index in [`ENTITIES`] plus one, 0 for an empty slot. Built at compile time.
static TERMINATED: [u16; TERMINATED_SLOTS] = {
    let mut table = [0u16; TERMINATED_SLOTS];
    let mut i = 0;
    while i < ENTITIES.len() {
        let name = ENTITIES[i].0.as_bytes();
        if name[name.len() - 1] == b';' {
            let mut slot = fnv1a(name) as usize % TERMINATED_SLOTS;
            while table[slot] != 0 {
                slot = (slot + 1) % TERMINATED_SLOTS;
            }
            table[slot] = i as u16 + 1;
        }
        i += 1;
    }
    table
};

/// The index in [`ENTITIES`] of `name` (which ends with `;`).
#[inline]
fn lookup_terminated(name: &[u8]) -> Option<usize> {
    let mut slot = fnv1a(name) as usize % TERMINATED_SLOTS;
    loop {
        let entry = TERMINATED[slot];
        if entry == 0 {
            return None;
        }
        let index = usize::from(entry - 1);
        if ENTITIES[index].0.as_bytes() == name {
            return Some(index);
        }
        slot = (slot + 1) % TERMINATED_SLOTS;
    }
}

/// For each byte, the range of [`ENTITIES`] whose names start with it: `FIRST[b]..FIRST[b + 1]`.
static FIRST: [u16; 257] = {
    let mut first = [0u16; 257];
    let mut i = 0;
    let mut b = 0;
    while b < 257 {
        while i < ENTITIES.len() && (ENTITIES[i].0.as_bytes()[0] as usize) < b {
            i += 1;
        }
        first[b] = i as u16;
        b += 1;
    }
    first
};

/// The longest name that is a prefix of the input, by narrowing the sorted table: the names
/// starting with a prefix form a range, the first byte picks it from [`FIRST`], and each
/// further byte narrows it by binary search. Never looks further than the longest name.
pub(crate) fn match_entity_prefix(input: &[u8], eof: bool) -> NameMatch {
    let Some(&b0) = input.first() else {
        return if eof {
            NameMatch::None
        } else {
            NameMatch::NeedMore
        };
    };
    let (mut lo, mut hi) = (
        usize::from(FIRST[usize::from(b0)]),
        usize::from(FIRST[usize::from(b0) + 1]),
    );
    if lo == hi {
        return NameMatch::None;
    }
    let mut best = NameMatch::None;
    if ENTITIES[lo].0.len() == 1 {
        best = NameMatch::Found { index: lo, len: 1 };
    }
    for k in 1..MAX_NAME_LEN {
        let Some(&b) = input.get(k) else {
            return if eof { best } else { NameMatch::NeedMore };
        };
        // Within [lo, hi) every name has the same first k bytes; those of length k sort
        // first, the rest by their byte k.
        let key = |name: &str| name.as_bytes().get(k).copied();
        let first = lo + ENTITIES[lo..hi].partition_point(|(n, _)| key(n).is_none_or(|c| c < b));
        let last = first + ENTITIES[first..hi].partition_point(|(n, _)| key(n) == Some(b));
        if first == last {
            return best;
        }
        (lo, hi) = (first, last);
        if ENTITIES[lo].0.len() == k + 1 {
            best = NameMatch::Found {
                index: lo,
                len: k + 1,
            };
        }
    }
    best
}

/// A character reference that the states would resolve without a parse error and without
/// looking past its `;`: what the fast paths resolve themselves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct SimpleRef {
    /// Its length in bytes, from the `&` to the `;`.
    pub(crate) len: usize,
    chars: RefChars,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum RefChars {
    Named(&'static str),
    Code(char),
}

impl SimpleRef {
    /// The characters the reference stands for.
    #[inline]
    pub(crate) fn chars(self, buf: &mut [u8; 4]) -> &str {
        match self.chars {
            RefChars::Named(s) => s,
            RefChars::Code(c) => c.encode_utf8(buf),
        }
    }
}

/// `&name;` with a name from the table, or `&#digits;` / `&#xhex;` for a code point that is
/// no parse error (13.2.5.84), at the start of `input`. These are the references that go
/// through 13.2.5.77 to 13.2.5.84 without an error and that end at their `;`, so the result
/// is the same in and out of attributes; anything else (`None`) is left to the states.
#[inline]
pub(crate) fn simple_char_ref(input: &[u8]) -> Option<SimpleRef> {
    match input {
        [b'&', b'#', rest @ ..] => {
            let (radix, digits) = match rest {
                [b'x' | b'X', digits @ ..] => (16, digits),
                _ => (10, rest),
            };
            let mut code: u32 = 0;
            let mut n = 0;
            for &b in digits.iter().take(8) {
                let Some(digit) = char::from(b).to_digit(radix) else {
                    break;
                };
                code = code * radix + digit;
                n += 1;
            }
            if n == 0 || digits.get(n) != Some(&b';') {
                return None;
            }
            let c = char::from_u32(code)?;
            let clean = code != 0
                && !is_noncharacter(code)
                && (code >= 0xA0 || (0x20..0x7F).contains(&code) || matches!(code, 9 | 0xA | 0xC));
            clean.then_some(SimpleRef {
                len: input.len() - digits.len() + n + 1,
                chars: RefChars::Code(c),
            })
        }
        [b'&', rest @ ..] => {
            let head = &rest[..rest.len().min(MAX_NAME_LEN)];
            let n = head.iter().position(|b| !b.is_ascii_alphanumeric())?;
            if n == 0 || head[n] != b';' {
                return None;
            }
            let index = lookup_terminated(&head[..=n])?;
            Some(SimpleRef {
                len: n + 2,
                chars: RefChars::Named(ENTITIES[index].1),
            })
        }
        _ => None,
    }
}

/// An `&` that starts no character reference, with the ASCII alphanumerics after it, at the
/// start of `input`: its length, when the states would pass it through unchanged and without
/// an error (no name in the table is a prefix of what follows the `&`, and no `;` ends the
/// alphanumerics: 13.2.5.78 "Otherwise" then 13.2.5.79), which the fast paths then treat as
/// text. `None` when it is anything else, or when the input ends before that is known.
#[inline]
pub(crate) fn plain_ampersand(input: &[u8]) -> Option<usize> {
    let rest = input.strip_prefix(b"&")?;
    let n = rest.iter().position(|b| !b.is_ascii_alphanumeric())?;
    if rest[n] == b';' || (n == 0 && rest[0] == b'#') {
        return None;
    }
    (n == 0 || match_entity_prefix(rest, false) == NameMatch::None).then_some(n + 1)
}

/// 13.2.5.84: the replacements for numeric references to C1 control code points, from
/// windows-1252.
fn c1_replacement(code: u32) -> Option<u32> {
    Some(match code {
        0x80 => 0x20AC,
        0x82 => 0x201A,
        0x83 => 0x0192,
        0x84 => 0x201E,
        0x85 => 0x2026,
        0x86 => 0x2020,
        0x87 => 0x2021,
        0x88 => 0x02C6,
        0x89 => 0x2030,
        0x8A => 0x0160,
        0x8B => 0x2039,
        0x8C => 0x0152,
        0x8E => 0x017D,
        0x91 => 0x2018,
        0x92 => 0x2019,
        0x93 => 0x201C,
        0x94 => 0x201D,
        0x95 => 0x2022,
        0x96 => 0x2013,
        0x97 => 0x2014,
        0x98 => 0x02DC,
        0x99 => 0x2122,
        0x9A => 0x0161,
        0x9B => 0x203A,
        0x9C => 0x0153,
        0x9E => 0x017E,
        0x9F => 0x0178,
        _ => return None,
    })
}

fn is_noncharacter(c: u32) -> bool {
    (0xFDD0..=0xFDEF).contains(&c) || (c & 0xFFFE) == 0xFFFE
}

/// Digits beyond this value cannot change the outcome (anything above U+10FFFF is an error
/// and becomes U+FFFD), so the code saturates here instead of overflowing.
const CODE_LIMIT: u32 = 0x11_0000;

impl Tokenizer {
    /// 13.2.5: "A character reference is said to be consumed as part of an attribute if the
    /// return state is either attribute value (double-quoted) state, attribute value
    /// (single-quoted) state, or attribute value (unquoted) state."
    #[inline]
    fn consumed_as_part_of_attribute(&self) -> bool {
        matches!(
            self.return_state,
            State::AttributeValueDoubleQuoted
                | State::AttributeValueSingleQuoted
                | State::AttributeValueUnquoted
        )
    }

    /// "Flush code points consumed as a character reference": `text` stands for the input
    /// from the `&` to the current position.
    fn flush_code_points<S: TokenSink>(&mut self, input: &Input<'_>, sink: &mut S, text: &str) {
        let start = self.char_ref_start;
        let end = input.offset();
        let in_chunk =
            start >= input.base && input.text.get(start - input.base..input.pos) == Some(text);
        if self.consumed_as_part_of_attribute() {
            if in_chunk {
                self.tag
                    .push_value_input(start, end, input.text, input.base);
            } else {
                self.tag.push_value_str(text, input.text, input.base);
            }
        } else {
            self.emit_chars(sink, text, start, end, in_chunk);
        }
    }

    /// Flushes the temporary buffer.
    fn flush_temp<S: TokenSink>(&mut self, input: &Input<'_>, sink: &mut S) {
        let temp = std::mem::take(&mut self.temp);
        self.flush_code_points(input, sink, &temp);
        self.temp = temp;
    }

    /// 13.2.5.77 Character reference state
    pub(crate) fn character_reference_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.temp.clear();
        self.temp.push('&');
        match self.peek(input, sink) {
            Peek::Char(c, _) if c.is_ascii_alphanumeric() => {
                self.state = State::NamedCharacterReference;
            }
            Peek::Char('#', _) => {
                input.advance();
                self.temp.push('#');
                self.state = State::NumericCharacterReference;
            }
            Peek::NeedMore => return Flow::Suspend,
            _ => {
                self.flush_temp(input, sink);
                self.state = self.return_state;
            }
        }
        Flow::Continue
    }

    /// 13.2.5.78 Named character reference state
    pub(crate) fn named_character_reference_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        let rest = input.rest_bytes();
        let (index, len) = match match_entity(rest, input.eof) {
            NameMatch::NeedMore => return Flow::Suspend,
            NameMatch::None => {
                // "Flush code points consumed as a character reference. Switch to the
                // ambiguous ampersand state."
                self.flush_temp(input, sink);
                self.state = State::AmbiguousAmpersand;
                return Flow::Continue;
            }
            NameMatch::Found { index, len } => (index, len),
        };
        let next = rest.get(len).copied();
        if next.is_none() && !input.eof {
            // The character after the name decides the attribute case below.
            return Flow::Suspend;
        }
        let (name, chars) = ENTITIES[index];
        input.skip(len);
        self.temp.push_str(name);
        let ends_with_semicolon = name.ends_with(';');
        if self.consumed_as_part_of_attribute()
            && !ends_with_semicolon
            && next.is_some_and(|b| b == b'=' || b.is_ascii_alphanumeric())
        {
            // "For historical reasons, flush code points consumed as a character reference
            // and switch to the return state."
            self.flush_temp(input, sink);
            self.state = self.return_state;
            return Flow::Continue;
        }
        if !ends_with_semicolon {
            self.error(
                input,
                sink,
                ErrorCode::MissingSemicolonAfterCharacterReference,
            );
        }
        self.flush_code_points_replaced(input, sink, chars);
        self.state = self.return_state;
        Flow::Continue
    }

    /// Flushes the characters a reference stands for (not the input itself).
    fn flush_code_points_replaced<S: TokenSink>(
        &mut self,
        input: &Input<'_>,
        sink: &mut S,
        chars: &str,
    ) {
        if self.consumed_as_part_of_attribute() {
            self.tag.push_value_str(chars, input.text, input.base);
        } else {
            let (start, end) = (self.char_ref_start, input.offset());
            self.emit_chars(sink, chars, start, end, false);
        }
    }

    /// 13.2.5.79 Ambiguous ampersand state
    pub(crate) fn ambiguous_ampersand_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if c.is_ascii_alphanumeric() => {
                    if self.consumed_as_part_of_attribute() {
                        let start = input.offset();
                        input.advance();
                        self.tag
                            .push_value_input(start, input.offset(), input.text, input.base);
                    } else {
                        let me = self.state;
                        self.emit_current(input, sink);
                        if self.state != me {
                            return Flow::Continue;
                        }
                    }
                }
                Peek::Char(';', _) => {
                    self.error(input, sink, ErrorCode::UnknownNamedCharacterReference);
                    self.state = self.return_state;
                    return Flow::Continue;
                }
                Peek::NeedMore => return Flow::Suspend,
                _ => {
                    self.state = self.return_state;
                    return Flow::Continue;
                }
            }
        }
    }

    /// 13.2.5.80 Numeric character reference state
    pub(crate) fn numeric_character_reference_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.char_ref_code = 0;
        match self.peek(input, sink) {
            Peek::Char(c @ ('x' | 'X'), _) => {
                input.advance();
                self.temp.push(c);
                self.state = State::HexadecimalCharacterReferenceStart;
            }
            Peek::Char(c, _) if c.is_ascii_digit() => self.state = State::DecimalCharacterReference,
            Peek::NeedMore => return Flow::Suspend,
            _ => {
                self.error(
                    input,
                    sink,
                    ErrorCode::AbsenceOfDigitsInNumericCharacterReference,
                );
                self.flush_temp(input, sink);
                self.state = self.return_state;
            }
        }
        Flow::Continue
    }

    /// 13.2.5.81 Hexadecimal character reference start state
    pub(crate) fn hexadecimal_character_reference_start_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char(c, _) if c.is_ascii_hexdigit() => {
                self.state = State::HexadecimalCharacterReference
            }
            Peek::NeedMore => return Flow::Suspend,
            _ => {
                self.error(
                    input,
                    sink,
                    ErrorCode::AbsenceOfDigitsInNumericCharacterReference,
                );
                self.flush_temp(input, sink);
                self.state = self.return_state;
            }
        }
        Flow::Continue
    }

    /// 13.2.5.82 Hexadecimal character reference state
    pub(crate) fn hexadecimal_character_reference_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.digits_state(input, sink, 16)
    }

    /// 13.2.5.83 Decimal character reference state
    pub(crate) fn decimal_character_reference_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.digits_state(input, sink, 10)
    }

    /// 13.2.5.82 and 13.2.5.83: accumulate digits; `;` ends the reference, anything else is a
    /// missing-semicolon-after-character-reference error.
    fn digits_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        radix: u32,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if c.is_digit(radix) => {
                    input.advance();
                    let digit = c.to_digit(radix).unwrap_or(0);
                    self.char_ref_code = self
                        .char_ref_code
                        .saturating_mul(radix)
                        .saturating_add(digit)
                        .min(CODE_LIMIT);
                }
                Peek::Char(';', _) => {
                    input.advance();
                    self.state = State::NumericCharacterReferenceEnd;
                    return Flow::Continue;
                }
                Peek::NeedMore => return Flow::Suspend,
                _ => {
                    self.error(
                        input,
                        sink,
                        ErrorCode::MissingSemicolonAfterCharacterReference,
                    );
                    self.state = State::NumericCharacterReferenceEnd;
                    return Flow::Continue;
                }
            }
        }
    }

    /// 13.2.5.84 Numeric character reference end state
    pub(crate) fn numeric_character_reference_end_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        let mut code = self.char_ref_code;
        if code == 0 {
            self.error(input, sink, ErrorCode::NullCharacterReference);
            code = 0xFFFD;
        } else if code > 0x10FFFF {
            self.error(
                input,
                sink,
                ErrorCode::CharacterReferenceOutsideUnicodeRange,
            );
            code = 0xFFFD;
        } else if (0xD800..=0xDFFF).contains(&code) {
            self.error(input, sink, ErrorCode::SurrogateCharacterReference);
            code = 0xFFFD;
        } else if is_noncharacter(code) {
            self.error(input, sink, ErrorCode::NoncharacterCharacterReference);
        } else if code == 0x0D
            || ((code < 0x20 || (0x7F..=0x9F).contains(&code))
                && !matches!(code, 0x09 | 0x0A | 0x0C | 0x20))
        {
            // "If the number is 0x0D, or a control that's not ASCII whitespace"
            self.error(input, sink, ErrorCode::ControlCharacterReference);
            if let Some(replacement) = c1_replacement(code) {
                code = replacement;
            }
        }
        let c = char::from_u32(code).unwrap_or('\u{FFFD}');
        let mut buf = [0u8; 4];
        let chars: &str = c.encode_utf8(&mut buf);
        self.flush_code_points_replaced(input, sink, chars);
        self.state = self.return_state;
        Flow::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(input: &str) -> Option<&'static str> {
        match match_entity(input.as_bytes(), true) {
            NameMatch::Found { index, .. } => Some(ENTITIES[index].0),
            _ => None,
        }
    }

    #[test]
    fn longest_match() {
        assert_eq!(name("notin;"), Some("notin;"));
        assert_eq!(name("notit;"), Some("not"));
        assert_eq!(name("amp;x"), Some("amp;"));
        assert_eq!(name("ampx"), Some("amp"));
        assert_eq!(name("am"), None);
        assert_eq!(name("zzz"), None);
        assert_eq!(match_entity(b"am", false), NameMatch::NeedMore);
        assert_eq!(match_entity(b"amp", false), NameMatch::NeedMore);
    }

    /// What the states make of a reference at the start of `input` in the data state:
    /// (characters, errors).
    fn by_states(input: &str) -> (String, usize) {
        #[derive(Default)]
        struct Sink(String, usize);
        impl TokenSink for Sink {
            fn process_token(
                &mut self,
                token: crate::tokenizer::Token<'_>,
            ) -> super::super::TokenSinkResult {
                if let crate::tokenizer::Token::Characters { text, .. } = token {
                    self.0.push_str(text);
                }
                super::super::TokenSinkResult::Continue
            }
            fn parse_error(&mut self, _: crate::error::ParseError) {
                self.1 += 1;
            }
        }
        let mut t = Tokenizer::new();
        t.reference_only = true;
        let mut sink = Sink::default();
        t.feed_all(&format!("{input} "), &mut sink);
        let text = sink.0.strip_suffix(' ').unwrap_or(&sink.0).to_owned();
        (text, sink.1)
    }

    #[test]
    fn simple_references_are_what_the_states_make_of_them() {
        let mut inputs: Vec<String> = ENTITIES
            .iter()
            .flat_map(|(name, _)| [format!("&{name}"), format!("&{name}x;")])
            .collect();
        for code in (0..0x120).chain([
            0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFDD0, 0xFFFE, 0x10FFFF, 0x110000,
        ]) {
            inputs.push(format!("&#{code};"));
            inputs.push(format!("&#x{code:X};"));
            inputs.push(format!("&#X{code:x};"));
            inputs.push(format!("&#{code}"));
        }
        inputs.extend(
            [
                "&",
                "&;",
                "&#;",
                "&#x;",
                "&#0000000065;",
                "&#x0000000041;",
                "&amp",
                "&ampx",
            ]
            .map(String::from),
        );
        let mut simple = 0;
        for input in &inputs {
            let Some(r) = simple_char_ref(input.as_bytes()) else {
                continue;
            };
            simple += 1;
            let (text, errors) = by_states(input);
            assert_eq!(errors, 0, "{input}");
            let expected = format!("{}{}", r.chars(&mut [0; 4]), &input[r.len..]);
            assert_eq!(expected, text, "{input}");
        }
        assert!(simple > 2000);
    }

    #[test]
    fn plain_ampersands_are_what_the_states_make_of_them() {
        let inputs = [
            "&", "& ", "&=", "&#", "&#x", "&pf=1", "&pf;", "&n", "&n=", "&no", "&not", "&nott=",
            "&zz ", "&zz", "&Z9.", "&amp", "&ampx=", "&xyz;", "&a", "&a&b", "&&",
        ];
        for input in inputs {
            let Some(n) = plain_ampersand(input.as_bytes()) else {
                continue;
            };
            let (text, errors) = by_states(input);
            assert_eq!(errors, 0, "{input}");
            assert_eq!(text, input, "{input}");
            // What follows the alphanumerics is known and is not `;`.
            assert!(input.len() > n && !input[n..].starts_with(';'), "{input}");
        }
        assert_eq!(plain_ampersand(b"&pf=1"), Some(3));
        assert_eq!(plain_ampersand(b"&= "), Some(1));
        assert_eq!(plain_ampersand(b"&pf"), None);
        assert_eq!(plain_ampersand(b"&notx="), None);
        assert_eq!(plain_ampersand(b"&#1"), None);
    }

    #[test]
    fn hash_lookup_agrees_with_prefix_search() {
        for (i, (name, _)) in ENTITIES.iter().enumerate() {
            let found = NameMatch::Found {
                index: i,
                len: name.len(),
            };
            for tail in ["", ";", "x", "=", " "] {
                let input = format!("{name}{tail}");
                let fast = match_entity(input.as_bytes(), true);
                assert_eq!(fast, match_entity_prefix(input.as_bytes(), true), "{input}");
                if name.ends_with(';') {
                    assert_eq!(fast, found, "{input}");
                }
            }
        }
        for input in [
            "", "x", "#", "ampx;", "notin", "notit;", "zz;", "amp;", "AMP;",
        ] {
            let bytes = input.as_bytes();
            assert_eq!(
                match_entity(bytes, true),
                match_entity_prefix(bytes, true),
                "{input}"
            );
            // Before the end of the input, the prefix search waits for more input where a
            // name ending with `;` is already known to be the longest match.
            let (fast, prefix) = (
                match_entity(bytes, false),
                match_entity_prefix(bytes, false),
            );
            if fast != prefix {
                assert_eq!(prefix, NameMatch::NeedMore, "{input}");
                assert!(
                    matches!(fast, NameMatch::Found { index, .. } if ENTITIES[index].0.ends_with(';'))
                );
            }
        }
    }
}
