//! Where a document's text lives.
//!
//! A document that keeps its source ([`keep_source`](crate::ParseOptions::keep_source) on, the
//! default) holds the decoded input (`source`) and
//! a second buffer (`extra`) for every string that is not a verbatim slice of the input: text
//! after character references or newline normalization, names lowercased by the tokenizer,
//! strings set through the mutation API. Nodes and attributes hold a [`StrRef`] into one of
//! the two: parsing copies nothing that the input already holds, and needs no allocation per
//! node.
//!
//! A lean document (`keep_source` off) keeps only its strings: each text, comment and attribute
//! value is copied into `extra` as the tree builder stores it, and `source` is only
//! a window of the input between the chunks a parser is given (from the start of the markup
//! being read on, for the parse errors' positions), dropped when the parse ends. On the bench
//! corpus the strings are 0.46 to 0.95 of the input (median 0.72), so the document keeps 0.05
//! to 0.54 bytes per input byte fewer, and the parse's peak drops by as much.
//!
//! Appending to a string is amortized O(1) per byte: a string at the end of `extra` grows in
//! place; a string elsewhere moves to the end, and when one moves a second time it takes
//! spare room of its own size with it, so a string appended in alternation with others (a
//! foster-parented text node, say) doubles its room instead of moving on every append.

/// A reference to a string in a document's [`Strings`].
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct StrRef {
    /// Byte offset; the top bit selects `extra` over `source`.
    start: usize,
    len: u32,
    /// Bytes reserved for this string in `extra` (`>= len`); `len` for `source` strings.
    cap: u32,
}

const EXTRA_BIT: usize = 1 << (usize::BITS - 1);

/// The largest string length a [`StrRef`] can describe.
pub(crate) const MAX_STR_LEN: usize = u32::MAX as usize;

impl StrRef {
    /// The empty string.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) const EMPTY: StrRef = StrRef {
        start: 0,
        len: 0,
        cap: 0,
    };

    /// A verbatim slice of the source, `len` bytes at `offset`.
    #[inline]
    pub(crate) fn source(offset: usize, len: usize) -> StrRef {
        let len = len.min(MAX_STR_LEN) as u32;
        StrRef {
            start: offset,
            len,
            cap: len,
        }
    }

    #[inline]
    fn is_extra(self) -> bool {
        self.start & EXTRA_BIT != 0
    }

    #[inline]
    fn offset(self) -> usize {
        self.start & !EXTRA_BIT
    }

    /// The same string without any spare room behind it: what a second node sharing the
    /// string must hold, so that appends to either never write into the other's bytes.
    #[inline]
    pub(crate) fn without_spare_room(self) -> StrRef {
        StrRef {
            cap: self.len,
            ..self
        }
    }

    /// If this is a verbatim slice of the source, its byte offset there.
    #[cfg(test)]
    pub(crate) fn source_offset(self) -> Option<usize> {
        (!self.is_extra()).then_some(self.start)
    }
}

/// A string of a document's [`Strings`] that is never appended to (an attribute value), in 8
/// bytes instead of a [`StrRef`]'s 16: the length in the top 24 bits, then whether it is in
/// `extra`, then its 39-bit offset. A string that does not fit (16 MiB or longer, or past
/// 512 GiB) is kept as a [`StrRef`] in the buffers' list of long strings, which the low bits
/// then index.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct PackedStr(u64);

/// The length field of a [`PackedStr`] that says: look in the list of long strings.
const PACKED_LONG: u64 = (1 << 24) - 1;
const PACKED_EXTRA: u64 = 1 << 39;

impl PackedStr {
    /// The empty string.
    pub(crate) const EMPTY: PackedStr = PackedStr(0);
}

/// Something that names a string of a document's [`Strings`].
pub(crate) trait StrHandle: Copy {
    /// The string's text.
    fn text(self, strings: &Strings) -> &str;
    /// The same string as a [`StrRef`].
    fn resolve(self, strings: &Strings) -> StrRef;
}

impl StrHandle for StrRef {
    #[inline]
    fn text(self, strings: &Strings) -> &str {
        strings.get_ref(self)
    }
    #[inline]
    fn resolve(self, _: &Strings) -> StrRef {
        self
    }
}

impl StrHandle for PackedStr {
    #[inline]
    fn text(self, strings: &Strings) -> &str {
        strings.get_ref(strings.unpack(self))
    }
    #[inline]
    fn resolve(self, strings: &Strings) -> StrRef {
        strings.unpack(self)
    }
}

/// The two string buffers of a document.
#[derive(Clone)]
pub(crate) struct Strings {
    /// The decoded input, exactly as the tokenizer saw it (CRs included), from stream offset
    /// `source_base` on: all of it when `keep_source`, else a window of it (see the module
    /// docs).
    pub(crate) source: String,
    /// The stream offset of `source`'s first byte (0 when `keep_source`).
    source_base: usize,
    /// Whether strings that are verbatim slices of the input refer to `source` (which then
    /// holds the whole input) instead of being copied into `extra`.
    keep_source: bool,
    /// Without `keep_source`: the stream offset just past the input seen so far...
    input_end: usize,
    /// ...and where the input is expected to end (0: unknown).
    expected_input: usize,
    /// Every other string. Bytes reserved but unused hold U+0000 and are never read.
    extra: String,
    /// The strings a [`PackedStr`] cannot describe by itself.
    long: Vec<StrRef>,
}

impl Default for Strings {
    fn default() -> Self {
        Strings::with_source(String::new())
    }
}

impl Strings {
    pub(crate) fn with_source(source: String) -> Strings {
        Strings {
            source,
            source_base: 0,
            keep_source: true,
            input_end: 0,
            expected_input: 0,
            extra: String::new(),
            long: Vec::new(),
        }
    }

    /// Whether `source` holds the whole input (else it is a window of it, or nothing).
    #[inline]
    pub(crate) fn keeps_source(&self) -> bool {
        self.keep_source
    }

    /// Before any input: whether to keep the whole source and refer strings to it (else
    /// each string is copied into `extra`, and `source` is a window: see the module docs).
    pub(crate) fn set_keep_source(&mut self, keep: bool) {
        self.keep_source = keep;
    }

    /// The stream offset just past the input seen so far.
    #[inline]
    pub(crate) fn source_end(&self) -> usize {
        if self.keep_source {
            self.source.len()
        } else {
            self.input_end
        }
    }

    /// The stream offset of the window's first byte.
    #[inline]
    pub(crate) fn source_base(&self) -> usize {
        self.source_base
    }

    /// Whether the input at stream offset `offset` is `text` (false when the window does not
    /// hold all of it).
    #[inline]
    pub(crate) fn source_matches(&self, offset: usize, text: &str) -> bool {
        // (An offset before the window wraps to a range `get` refuses.)
        let at = offset.wrapping_sub(self.source_base);
        self.source.as_bytes().get(at..at.wrapping_add(text.len())) == Some(text.as_bytes())
    }

    /// A lean parse that keeps no window (no parse errors are kept): `len` more bytes of
    /// input went by.
    pub(crate) fn skip_input(&mut self, len: usize) {
        self.input_end += len;
        self.source_base = self.input_end;
    }

    /// A lean parse's window, before a piece of `len` bytes is tokenized: holds the tail kept
    /// from earlier pieces and `lookahead`, the piece's first bytes.
    pub(crate) fn begin_piece(&mut self, len: usize, lookahead: &str) {
        self.grow_window(lookahead.len());
        self.source.push_str(lookahead);
        self.input_end += len;
    }

    /// A lean parse's window, after `piece` (at stream offset `piece_base`) was tokenized:
    /// holds the input from `keep_from` (at least the window's start) to the end.
    pub(crate) fn end_piece(&mut self, piece: &str, piece_base: usize, keep_from: usize) {
        if keep_from >= piece_base {
            self.source.clear();
            let from = (keep_from - piece_base).min(piece.len());
            let tail = piece.get(from..).unwrap_or_default();
            self.grow_window(tail.len());
            self.source.push_str(tail);
        } else {
            // (The lookahead goes: the whole piece follows.)
            self.source
                .truncate(piece_base.saturating_sub(self.source_base));
            let drop = keep_from
                .saturating_sub(self.source_base)
                .min(self.source.len());
            // Dropped when it is at least half the window, so that the bytes moved stay
            // linear in the input.
            if drop > 0 && drop >= self.source.len() / 2 && self.source.is_char_boundary(drop) {
                self.source.drain(..drop);
                self.source_base += drop;
            }
            self.grow_window(piece.len());
            self.source.push_str(piece);
            return;
        }
        self.source_base = keep_from.min(self.input_end);
    }

    /// Room for `more` bytes in the window: grown by a quarter when markup that spans
    /// pieces holds it, not by doubling.
    fn grow_window(&mut self, more: usize) {
        if self.source.capacity() - self.source.len() < more {
            self.source.reserve_exact(more.max(self.source.len() / 4));
        }
    }

    /// A lean parse has ended: the window goes.
    pub(crate) fn drop_window(&mut self) {
        if !self.keep_source {
            self.source_base = self.input_end;
            self.source = String::new();
        }
    }

    /// A lean parse of `input_len` bytes: reserves room in `extra` for `bytes` string bytes
    /// (an estimate; when it falls short, the input's length guides the growth).
    pub(crate) fn reserve_extra(&mut self, bytes: usize, input_len: usize) {
        self.extra.reserve_exact(bytes);
        self.expected_input = self.input_end.saturating_add(input_len);
    }

    /// `r` in 8 bytes (for a string that is not appended to any more).
    #[inline]
    pub(crate) fn pack(&mut self, r: StrRef) -> PackedStr {
        let (offset, len) = (r.offset() as u64, u64::from(r.len));
        if len < PACKED_LONG && offset < PACKED_EXTRA {
            let extra = if r.is_extra() { PACKED_EXTRA } else { 0 };
            return PackedStr(len << 40 | extra | offset);
        }
        let i = self.long.len() as u64;
        self.long.push(r.without_spare_room());
        PackedStr(PACKED_LONG << 40 | i)
    }

    /// The [`StrRef`] of a [`PackedStr`].
    #[inline]
    pub(crate) fn unpack(&self, p: PackedStr) -> StrRef {
        let len = p.0 >> 40;
        let low = p.0 & ((1 << 40) - 1);
        if len == PACKED_LONG {
            return self.long.get(low as usize).copied().unwrap_or_default();
        }
        let offset = (low & (PACKED_EXTRA - 1)) as usize;
        let start = if low & PACKED_EXTRA != 0 {
            offset | EXTRA_BIT
        } else {
            offset
        };
        StrRef {
            start,
            len: len as u32,
            cap: len as u32,
        }
    }

    /// The text of `r` (a [`StrRef`] or a [`PackedStr`]).
    #[inline]
    #[cfg_attr(
        not(all(feature = "xml", feature = "xpath", feature = "url", feature = "forms")),
        allow(dead_code)
    )]
    pub(crate) fn get(&self, r: impl StrHandle) -> &str {
        r.text(self)
    }

    /// The buffer that holds `r`, where `r` starts in it, and its length: for a reader that
    /// copies a fixed-size window from the string's start (the serializer). The range may be
    /// out of the buffer's bounds for a broken reference; [`Strings::get`] is then `""`.
    #[inline]
    pub(crate) fn locate(&self, r: impl StrHandle) -> (&str, usize, usize) {
        let r = r.resolve(self);
        let buf = if r.is_extra() {
            &self.extra
        } else {
            &self.source
        };
        (buf, r.offset(), r.len as usize)
    }

    /// The text of `r`.
    #[inline]
    fn get_ref(&self, r: StrRef) -> &str {
        let start = r.offset();
        let end = start + r.len as usize;
        let buf = if r.is_extra() {
            &self.extra
        } else {
            &self.source
        };
        buf.get(start..end).unwrap_or("")
    }

    /// Stores `text` as a new string.
    #[inline]
    pub(crate) fn push(&mut self, text: &str) -> StrRef {
        self.push_at(text, None)
    }

    /// Stores `text` as a new string; `at`, when known, is the stream offset of the input the
    /// parser has reached (it sizes the buffer's growth). The common case (room left, a
    /// string shorter than [`MAX_STR_LEN`]) is one capacity check and the copy.
    #[inline(always)]
    fn push_at(&mut self, text: &str, at: Option<usize>) -> StrRef {
        let start = self.extra.len();
        if self.extra.capacity() - start < text.len() || text.len() > MAX_STR_LEN {
            return self.push_slow(text, at);
        }
        self.extra.push_str(text);
        StrRef {
            start: start | EXTRA_BIT,
            len: text.len() as u32,
            cap: text.len() as u32,
        }
    }

    /// Stores `text` as a new string, like [`Strings::push_maybe_source`]; `tail` is the
    /// input from `text` on (the same memory: `text` is its first bytes), when the caller has
    /// it. A lean document copies a short string as one fixed-size window of `tail`, cut to
    /// length: a vector move instead of a call to `memcpy` of run-time length (three
    /// quarters of the strings a page stores are 16 bytes or less).
    #[inline(always)]
    pub(crate) fn push_window(
        &mut self,
        text: &str,
        tail: &str,
        source_offset: Option<usize>,
    ) -> StrRef {
        const WINDOW: usize = 32;
        if !self.keep_source {
            let start = self.extra.len();
            if text.len() <= WINDOW
                && self.extra.capacity() - start >= WINDOW
                && std::ptr::eq(text.as_ptr(), tail.as_ptr())
            {
                if let Some(window) = tail.get(..WINDOW) {
                    // (`text` is `tail`'s first bytes, so its end is a char boundary of the
                    // window.)
                    self.extra.push_str(window);
                    self.extra.truncate(start + text.len());
                    return StrRef {
                        start: start | EXTRA_BIT,
                        len: text.len() as u32,
                        cap: text.len() as u32,
                    };
                }
            }
        }
        self.push_maybe_source(text, source_offset)
    }

    #[cold]
    #[inline(never)]
    fn push_slow(&mut self, text: &str, at: Option<usize>) -> StrRef {
        let text = truncate(text, MAX_STR_LEN);
        let start = self.extra.len();
        self.grow_extra(text.len(), at);
        self.extra.push_str(text);
        StrRef {
            start: start | EXTRA_BIT,
            len: text.len() as u32,
            cap: text.len() as u32,
        }
    }

    /// Stores `text`, referring to the source when `source_offset` says it is a verbatim slice
    /// of it there.
    #[inline]
    pub(crate) fn push_maybe_source(&mut self, text: &str, source_offset: Option<usize>) -> StrRef {
        match source_offset {
            Some(offset) if self.keep_source && self.is_source_slice(text, offset) => {
                StrRef::source(offset, text.len())
            }
            _ => self.push_at(text, source_offset),
        }
    }

    /// Makes room for `more` bytes at the end of `extra`. A lean parse copies every string
    /// there, so its growth is sized (not doubled, which would leave up to half of the
    /// document's largest buffer unused at the parse's peak, nor by a quarter, which copies
    /// the buffer again and again): when the input's length is known, room for the rest of
    /// it at the rate of string bytes per input byte so far, measured at `at` (the stream
    /// offset the parser has reached, when the caller knows it; else the end of the input
    /// seen so far, which is the rate only when the input arrives in chunks, as
    /// `parse_bytes` decodes it 64 KiB at a time); else by a quarter.
    #[inline]
    fn grow_extra(&mut self, more: usize, at: Option<usize>) {
        if self.extra.capacity() - self.extra.len() < more && !self.keep_source {
            self.grow_extra_sized(more, at);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow_extra_sized(&mut self, more: usize, at: Option<usize>) {
        let len = self.extra.len();
        let seen = match at {
            Some(at) if at > 0 && at <= self.input_end => at,
            _ => self.input_end,
        };
        let rest = self.expected_input.saturating_sub(seen);
        let grow = if rest > 0 && seen > 0 {
            let expected = len as u128 * rest as u128 / seen as u128;
            usize::try_from(expected).unwrap_or(usize::MAX) / 16 * 17
        } else {
            len / 4
        };
        self.extra.reserve_exact(more.max(grow).max(4096));
    }

    #[inline]
    fn is_source_slice(&self, text: &str, offset: usize) -> bool {
        // The tokenizer promises this; checking the length keeps a broken promise harmless.
        offset
            .checked_add(text.len())
            .is_some_and(|end| end <= self.source.len())
    }

    /// Appends `text` to the string `r`. `source_offset` says where `text` sits in the source,
    /// if it is a verbatim slice of it.
    pub(crate) fn append(&mut self, r: &mut StrRef, text: &str, source_offset: Option<usize>) {
        if text.is_empty() {
            return;
        }
        let room = MAX_STR_LEN - r.len as usize;
        let text = truncate(text, room);
        if text.is_empty() {
            return;
        }
        if r.len == 0 {
            // Drop the old (empty) reference; reuse nothing.
            *r = self.push_maybe_source(text, source_offset);
            return;
        }
        // A source slice followed by the next source bytes stays a source slice.
        if !r.is_extra() {
            if let Some(off) = source_offset {
                if off == r.start + r.len as usize && self.is_source_slice(text, off) {
                    r.len += text.len() as u32;
                    r.cap = r.len;
                    return;
                }
            }
        }
        if r.is_extra() {
            let start = r.offset();
            let end = start + r.len as usize;
            let reserved_end = start + r.cap as usize;
            // At the end of `extra`: grow in place (dropping any unused room first).
            if reserved_end == self.extra.len() {
                self.extra.truncate(end);
                self.grow_extra(text.len(), source_offset);
                self.extra.push_str(text);
                r.len += text.len() as u32;
                r.cap = r.len;
                return;
            }
            // Spare room reserved behind it: fill it.
            if end + text.len() <= reserved_end {
                self.extra.replace_range(end..end + text.len(), text);
                r.len += text.len() as u32;
                return;
            }
            // Move to the end with room to grow: this string is being appended to while
            // other strings are added after it.
            let new_len = r.len as usize + text.len();
            let cap = new_len.saturating_mul(2).min(MAX_STR_LEN);
            self.grow_extra(cap, source_offset);
            let new_start = self.extra.len();
            self.extra.extend_from_within(start..end);
            self.extra.push_str(text);
            self.extra.extend(std::iter::repeat_n('\0', cap - new_len));
            *r = StrRef {
                start: new_start | EXTRA_BIT,
                len: new_len as u32,
                cap: cap as u32,
            };
            return;
        }
        // A source slice that stops being one: copy it to the end of `extra`.
        let new_start = self.extra.len();
        let start = r.start;
        let end = start + r.len as usize;
        self.extra
            .push_str(self.source.get(start..end).unwrap_or(""));
        self.extra.push_str(text);
        let len = self.extra.len() - new_start;
        *r = StrRef {
            start: new_start | EXTRA_BIT,
            len: len as u32,
            cap: len as u32,
        };
    }

    /// Replaces the string `r` with `text`.
    pub(crate) fn replace(&mut self, r: &mut StrRef, text: &str) {
        *r = self.push(text);
    }

    /// Shrinks each buffer to its length when `wasteful(len, capacity)` says so.
    pub(crate) fn shrink(&mut self, wasteful: impl Fn(usize, usize) -> bool) {
        for buf in [&mut self.source, &mut self.extra] {
            if wasteful(buf.len(), buf.capacity()) {
                buf.shrink_to_fit();
            }
        }
    }

    /// Swaps the string buffers (`extra` and `long`, not the source window) with `other`'s:
    /// a streaming parse's compaction (`reclaim.rs`) copies the live strings into a fresh
    /// `Strings` and swaps them in.
    pub(crate) fn swap_string_buffers(&mut self, other: &mut Strings) {
        std::mem::swap(&mut self.extra, &mut other.extra);
        std::mem::swap(&mut self.long, &mut other.long);
    }

    /// Bytes used in the string buffers (what a compaction could shrink).
    pub(crate) fn string_bytes(&self) -> usize {
        self.extra.len() + self.long.len() * std::mem::size_of::<StrRef>()
    }

    /// Bytes of heap the buffers hold.
    pub(crate) fn heap_size(&self) -> usize {
        self.source.capacity()
            + self.extra.capacity()
            + self.long.capacity() * std::mem::size_of::<StrRef>()
    }
}

/// The longest prefix of `s` of at most `max` bytes that ends on a char boundary.
fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_slices_extend_without_copying() {
        let mut s = Strings::with_source("hello world".into());
        let mut r = StrRef::source(0, 5);
        s.append(&mut r, " ", Some(5));
        assert_eq!(r.source_offset(), Some(0));
        assert_eq!(s.get(r), "hello ");
        s.append(&mut r, "&", None);
        assert_eq!(r.source_offset(), None);
        assert_eq!(s.get(r), "hello &");
    }

    #[test]
    fn packed_strings_round_trip() {
        let mut s = Strings::with_source("hello world".into());
        let source = StrRef::source(6, 5);
        let extra = s.push("extra");
        for r in [source, extra, StrRef::EMPTY] {
            let p = s.pack(r);
            assert_eq!(s.unpack(p), r);
            assert_eq!(p.text(&s), s.get(r));
        }
        // Too long or too far for 8 bytes: kept aside, read back the same.
        let far = StrRef {
            start: 1 << 45,
            len: 3,
            cap: 3,
        };
        let long = StrRef {
            start: 2,
            len: 1 << 24,
            cap: 1 << 24,
        };
        for r in [far, long] {
            let p = s.pack(r);
            assert_eq!(s.unpack(p), r);
        }
        assert_eq!(s.unpack(PackedStr::EMPTY), StrRef::EMPTY);
        assert_eq!(std::mem::size_of::<PackedStr>(), 8);
    }

    #[test]
    fn alternating_appends_reserve_room() {
        let mut s = Strings::default();
        let mut a = s.push("a");
        let mut b = s.push("b");
        for _ in 0..1000 {
            s.append(&mut a, "a", None);
            s.append(&mut b, "b", None);
        }
        assert_eq!(s.get(a), "a".repeat(1001));
        assert_eq!(s.get(b), "b".repeat(1001));
        // Doubling keeps the total bounded by a small multiple of the live text.
        assert!(s.extra.len() < 16 * 2002, "{}", s.extra.len());
    }
}
