//! 13.2.3.5 "Preprocessing the input stream", fused into a cursor the tokenizer states read
//! through.
//!
//! The cursor walks the decoded text in place instead of copying it into a normalized
//! stream. It finds, ahead of the tokenizer, the next *special* character: a CR (newline
//! normalization turns CR and CRLF into one LF), a U+0000 NULL (which the states handle), or a
//! character that is an input-stream parse error (a control other than ASCII whitespace and
//! NULL, or a noncharacter). Everything before that point is ordinary text, so the states'
//! fast paths scan it (eight bytes at a time for short runs, with `memchr` for long ones) and
//! hand out slices of the input; only special characters go through the slow path in
//! [`Input::peek`].
//!
//! Surrogates cannot occur: the input is a Rust `str`.

/// How a special character must be handled.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Special {
    /// U+000D: read as U+000A, and a following U+000A is dropped.
    Cr,
    /// U+0000.
    Null,
    /// A control character that is a `control-character-in-input-stream` error.
    Control,
    /// A noncharacter: a `noncharacter-in-input-stream` error.
    Noncharacter,
}

/// What the cursor found at the current position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Peek {
    /// A character (CR already normalized to LF) and, when it is special, what kind.
    Char(char, Option<Special>),
    /// The end of the chunk; more input may come.
    NeedMore,
    /// The end of the input.
    Eof,
}

/// A cursor over one chunk of input.
pub(crate) struct Input<'a> {
    pub(crate) text: &'a str,
    bytes: &'a [u8],
    /// Byte index of the next input character in `text`.
    pub(crate) pos: usize,
    /// Stream offset of `text[0]`.
    pub(crate) base: usize,
    /// No input follows this chunk.
    pub(crate) eof: bool,
    /// Byte index of the next special character at or after `pos` (`text.len()` if none). Stale
    /// when smaller than `pos`.
    special: usize,
    /// A CR was consumed as the last byte of the chunk: a LF starting the next chunk belongs
    /// to it.
    pub(crate) ended_with_cr: bool,
}

impl<'a> Input<'a> {
    pub(crate) fn new(text: &'a str, base: usize, eof: bool) -> Input<'a> {
        Input {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            base,
            eof,
            special: find_special(text.as_bytes(), 0),
            ended_with_cr: false,
        }
    }

    /// The stream offset of the next input character.
    #[inline]
    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// The stream offset of the end of the chunk.
    #[inline]
    pub(crate) fn end_offset(&self) -> usize {
        self.base + self.text.len()
    }

    /// The byte index of the next special character at or after `pos`.
    #[inline]
    pub(crate) fn next_special(&mut self) -> usize {
        if self.special < self.pos {
            self.special = find_special(self.bytes, self.pos);
        }
        self.special
    }

    /// The ordinary text from `pos` up to (not including) the next special character or the
    /// first byte in `stops`, without consuming it. Each stop must be ASCII.
    #[inline]
    pub(crate) fn run_until(&mut self, stops: &[u8]) -> &'a str {
        let limit = self.next_special();
        let len = find_stop(&self.bytes[self.pos..limit], stops);
        // Stops are ASCII and special characters start a char: `pos + len` is a boundary.
        &self.text[self.pos..self.pos + len]
    }

    /// The ordinary text from `pos` up to the next special character, as bytes.
    #[inline]
    pub(crate) fn ordinary_rest(&mut self) -> &'a [u8] {
        let limit = self.next_special();
        &self.bytes[self.pos..limit]
    }

    /// Consumes `n` bytes of ordinary text (as returned by [`Input::run_until`]).
    #[inline]
    pub(crate) fn skip(&mut self, n: usize) {
        self.pos += n;
    }

    /// The next input character, without consuming it.
    #[inline]
    pub(crate) fn peek(&self) -> Peek {
        if self.pos >= self.bytes.len() {
            return if self.eof { Peek::Eof } else { Peek::NeedMore };
        }
        let b = self.bytes[self.pos];
        if (0x20..0x7F).contains(&b) || !matters(b) {
            return Peek::Char(b as char, None);
        }
        match classify(self.bytes, self.pos) {
            Some(Special::Cr) => Peek::Char('\n', Some(Special::Cr)),
            Some(Special::Null) => Peek::Char('\0', Some(Special::Null)),
            kind => Peek::Char(self.char_at(self.pos), kind),
        }
    }

    #[inline]
    fn char_at(&self, i: usize) -> char {
        self.text[i..].chars().next().unwrap_or('\u{FFFD}')
    }

    /// Consumes the character [`Input::peek`] returned.
    #[inline]
    pub(crate) fn advance(&mut self) {
        let Some(&b) = self.bytes.get(self.pos) else {
            return;
        };
        if b == b'\r' {
            self.pos += 1;
            match self.bytes.get(self.pos) {
                Some(b'\n') => self.pos += 1,
                Some(_) => {}
                None => self.ended_with_cr = !self.eof,
            }
        } else {
            self.pos += utf8_len(b);
        }
    }

    /// Whether the input at `pos` starts with `s` (exactly), or `None` if the chunk ends
    /// before that can be decided.
    pub(crate) fn starts_with(&self, s: &[u8], ascii_case_insensitive: bool) -> Option<bool> {
        let rest = &self.bytes[self.pos..];
        let n = rest.len().min(s.len());
        let same = if ascii_case_insensitive {
            rest[..n].eq_ignore_ascii_case(&s[..n])
        } else {
            rest[..n] == s[..n]
        };
        if !same {
            Some(false)
        } else if n == s.len() {
            Some(true)
        } else if self.eof {
            Some(false)
        } else {
            None
        }
    }

    /// The unconsumed rest of the chunk.
    #[inline]
    pub(crate) fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// The input bytes from `pos` on.
    #[inline]
    pub(crate) fn rest_bytes(&self) -> &'a [u8] {
        &self.bytes[self.pos..]
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` that equals `b`: exact for the lowest such byte (a
/// borrow can only flag bytes above a match, and only the lowest flag is used).
#[inline(always)]
fn bytes_equal(word: u64, b: u8) -> u64 {
    let v = word ^ (ONES * u64::from(b));
    v.wrapping_sub(ONES) & !v & HIGHS
}

/// Runs shorter than this are scanned eight bytes at a time in plain code; `memchr` takes
/// longer ones (its setup costs more than a short scan, and most text between tags is short).
const SHORT_RUN: usize = 32;

/// The index of the first byte of `hay` that is in `stops` (`hay.len()` if none). Each stop
/// must be ASCII.
#[inline(always)]
pub(crate) fn find_stop(hay: &[u8], stops: &[u8]) -> usize {
    if stops.is_empty() {
        return hay.len();
    }
    let mut i = 0;
    while i < SHORT_RUN {
        let Some(chunk) = hay.get(i..i + 8) else {
            let tail = &hay[i..];
            return i + tail
                .iter()
                .position(|b| stops.contains(b))
                .unwrap_or(tail.len());
        };
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let mut found = 0;
        for &stop in stops {
            found |= bytes_equal(word, stop);
        }
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let hay = &hay[i..];
    i + match *stops {
        [a] => memchr::memchr(a, hay),
        [a, b] => memchr::memchr2(a, b, hay),
        [a, b, c] => memchr::memchr3(a, b, c, hay),
        _ => hay.iter().position(|b| stops.contains(b)),
    }
    .unwrap_or(hay.len())
}

/// Whether an ASCII control byte needs the slow path (everything but TAB, LF and FF).
#[inline]
fn matters(b: u8) -> bool {
    !matches!(b, b'\t' | b'\n' | 0x0C)
}

#[inline]
fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// Bytes that may start a special character: C0 controls but TAB, LF and FF; DEL; and the
/// lead bytes of C1 controls (0xC2) and of noncharacters (0xEF, 0xF0 to 0xF4).
static CANDIDATE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = !matches!(b as u8, b'\t' | b'\n' | 0x0C);
        b += 1;
    }
    t[0x7F] = true;
    t[0xC2] = true;
    t[0xEF] = true;
    let mut b = 0xF0;
    while b <= 0xF4 {
        t[b] = true;
        b += 1;
    }
    t
};

/// What kind of special character starts at `bytes[i]`, if any. `bytes` is valid UTF-8.
#[inline]
fn classify(bytes: &[u8], i: usize) -> Option<Special> {
    let b = bytes[i];
    if !CANDIDATE[b as usize] {
        return None;
    }
    let at = |k: usize| bytes.get(i + k).copied().unwrap_or(0);
    match b {
        b'\r' => Some(Special::Cr),
        0 => Some(Special::Null),
        b'\t' | b'\n' | 0x0C => None,
        0x01..=0x1F | 0x7F => Some(Special::Control),
        // U+0080..U+009F: C1 controls.
        0xC2 if (0x80..=0x9F).contains(&at(1)) => Some(Special::Control),
        // U+FDD0..U+FDEF, U+FFFE, U+FFFF.
        0xEF if (at(1) == 0xB7 && (0x90..=0xAF).contains(&at(2)))
            || (at(1) == 0xBF && (at(2) == 0xBE || at(2) == 0xBF)) =>
        {
            Some(Special::Noncharacter)
        }
        // U+xFFFE and U+xFFFF in the supplementary planes.
        0xF0..=0xF4
            if at(1) & 0x0F == 0x0F && at(2) == 0xBF && (at(3) == 0xBE || at(3) == 0xBF) =>
        {
            Some(Special::Noncharacter)
        }
        _ => None,
    }
}

/// Whether `b` may start a special character, as branch-free arithmetic (so that a loop
/// over a block of bytes vectorizes): a C0 control but TAB and LF, DEL, or the lead byte of a
/// C1 control (0xC2) or of a noncharacter (0xEF, 0xF0 to 0xF4, and 0xF5 to 0xFF, which never
/// occur in UTF-8). A superset of what [`classify`] finds (it also takes FF, which is rare)
/// written as two ranges that wrap (0xEF to 0x08, 0x0B to 0x1F) and two bytes: fewer vector
/// operations than a test per excluded byte.
#[inline(always)]
fn maybe_special(b: u8) -> bool {
    (b.wrapping_add(0x11) <= 0x19) | (b.wrapping_sub(0x0B) <= 0x14) | (b == 0x7F) | (b == 0xC2)
}

/// The index of the first special character at or after `from` (`bytes.len()` if none).
///
/// Blocks of 64 bytes are first tested as a whole with [`maybe_special`] (which the compiler
/// vectorizes). In a block that may hold one, the test is made again into one byte per
/// position (0 or 1, also vectorized), read as eight words, and only the candidate bytes are
/// classified, lowest first: a lead byte that starts an ordinary character (U+00A0, fullwidth
/// punctuation) costs one look rather than a walk of its block. Text, markup, newlines and
/// indentation, and most non-Latin scripts never leave the fast path.
fn find_special(bytes: &[u8], from: usize) -> usize {
    const BLOCK: usize = 64;
    let mut i = from;
    while let Some(block) = bytes.get(i..i.wrapping_add(BLOCK)) {
        if block.iter().fold(false, |any, &b| any | maybe_special(b)) {
            let mut flags = [0u8; BLOCK];
            for (f, &b) in flags.iter_mut().zip(block) {
                *f = u8::from(maybe_special(b));
            }
            for (w, word) in flags.chunks_exact(8).enumerate() {
                // At most the low bit of each byte is set: clearing the lowest set bit
                // moves to the next candidate.
                let mut bits = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
                while bits != 0 {
                    let j = i + w * 8 + (bits.trailing_zeros() / 8) as usize;
                    if classify(bytes, j).is_some() {
                        return j;
                    }
                    bits &= bits - 1;
                }
            }
        }
        i += BLOCK;
    }
    // The rest, shorter than a block: only candidates are classified.
    while let Some(&b) = bytes.get(i) {
        if maybe_special(b) && classify(bytes, i).is_some() {
            return i;
        }
        i += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specials(s: &str) -> Vec<(usize, Special)> {
        let b = s.as_bytes();
        let mut out = vec![];
        let mut i = 0;
        while i < b.len() {
            let j = find_special(b, i);
            if j == b.len() {
                break;
            }
            out.push((j, classify(b, j).unwrap()));
            i = j + 1;
        }
        out
    }

    #[test]
    fn finds_specials() {
        assert_eq!(specials("plain text\twith\nnewlines and more text"), vec![]);
        assert_eq!(
            specials("a\r\nb\0c\x01"),
            vec![(1, Special::Cr), (4, Special::Null), (6, Special::Control)]
        );
        assert_eq!(
            specials("\u{85} \u{A0} \u{FDD0} \u{FFFE} \u{1FFFF} \u{1F600} \u{FF01}"),
            vec![
                (0, Special::Control),
                (6, Special::Noncharacter),
                (10, Special::Noncharacter),
                (14, Special::Noncharacter),
            ]
        );
    }

    #[test]
    fn the_block_test_takes_every_candidate_and_no_common_byte() {
        for b in 0..=255u8 {
            if CANDIDATE[usize::from(b)] {
                assert!(maybe_special(b), "{b:#04x} is a candidate");
            }
        }
        // Printable ASCII, TAB, LF, continuation bytes and the lead bytes of ordinary
        // characters stay on the fast path.
        let common = (0x20..0x7F)
            .chain([b'\t', b'\n'])
            .chain(0x80..0xC2)
            .chain(0xC3..0xEF);
        for b in common {
            assert!(!maybe_special(b), "{b:#04x} is common");
        }
    }

    #[test]
    fn find_special_agrees_with_a_scan_of_every_byte() {
        // Candidates that are special and ones that are not, around block boundaries.
        let pieces = [
            "\u{A0}",
            "\u{85}",
            "\x0C",
            "\r",
            "\0",
            "\u{FF0C}",
            "\u{FFFE}",
            "\u{FDD0}",
            "\u{1F600}",
            "\u{1FFFF}",
            "\x0B",
            "\x7F",
            "\u{E9}",
            "\t",
        ];
        for p in pieces {
            for q in pieces {
                for at in 0..70 {
                    let s = format!(
                        "{}{p}{}{q}{}",
                        "a".repeat(at),
                        "b".repeat(at % 7),
                        "c".repeat(40)
                    );
                    let b = s.as_bytes();
                    // The next special at or after each index, by a scan from the end.
                    let mut next = vec![b.len(); b.len() + 1];
                    for i in (0..b.len()).rev() {
                        next[i] = if classify(b, i).is_some() {
                            i
                        } else {
                            next[i + 1]
                        };
                    }
                    for from in [0, at.saturating_sub(1), at, at + 1, at + p.len()] {
                        assert_eq!(find_special(b, from), next[from], "{s:?} from {from}");
                    }
                }
            }
        }
    }

    #[test]
    fn cr_reads_as_lf_and_swallows_lf() {
        let mut input = Input::new("a\r\nb\rc", 0, true);
        let mut seen = String::new();
        loop {
            match input.peek() {
                Peek::Char(c, _) => {
                    seen.push(c);
                    input.advance();
                }
                Peek::Eof => break,
                Peek::NeedMore => unreachable!(),
            }
        }
        assert_eq!(seen, "a\nb\nc");
    }
}
