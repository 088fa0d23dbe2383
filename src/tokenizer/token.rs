//! Tokens: what the tokenizer emits (13.2.5 "Tokenization").
//!
//! Tokens borrow from the tokenizer and from the input chunk being tokenized, so emitting one
//! allocates nothing; a sink that keeps a token copies what it needs.

use std::hash::BuildHasher;

use hashbrown::HashTable;

use crate::dom::names::{LocalName, spread};

/// A byte range in the input: `start..end`, offsets counted from the start of the stream.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset just past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    #[inline]
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// A token (13.2.5: DOCTYPE, start tag, end tag, comment, character, end-of-file; plus the
/// processing instruction token of the current standard).
///
/// Character tokens come in runs: one `Characters` token carries any number of consecutive
/// characters. U+0000 NULL characters that the tokenizer emits unchanged (in the data and
/// CDATA section states) come as separate [`Token::NullCharacter`] tokens and never inside a
/// run, because the tree builder treats them differently.
#[derive(Copy, Clone, Debug)]
#[non_exhaustive]
pub enum Token<'t> {
    /// A DOCTYPE token.
    Doctype(Doctype<'t>),
    /// A start tag token.
    StartTag(Tag<'t>),
    /// An end tag token.
    EndTag(Tag<'t>),
    /// A comment token.
    Comment {
        /// The comment's data.
        data: &'t str,
        /// Where the comment is in the input.
        span: Span,
    },
    /// A run of character tokens (never containing U+0000).
    Characters {
        /// The characters.
        text: &'t str,
        /// The input they came from (for a character reference, the whole reference).
        span: Span,
        /// `text` is exactly the input at `span.start` (no reference, no newline
        /// normalization): a sink may refer to the input instead of copying.
        verbatim: bool,
    },
    /// One U+0000 NULL character token, from the data state or a CDATA section.
    NullCharacter {
        /// Where it is in the input.
        span: Span,
    },
    /// A processing instruction token (`<?target data>`).
    ProcessingInstruction {
        /// The target, exactly as in the input.
        target: &'t str,
        /// The data (a `?` right before the closing `>` is not part of it).
        data: &'t str,
        /// Where it is in the input.
        span: Span,
    },
    /// The end-of-file token.
    Eof {
        /// The offset of the end of the input.
        offset: usize,
    },
}

/// A DOCTYPE token.
#[derive(Copy, Clone, Debug)]
pub struct Doctype<'t> {
    /// The name (`None` if missing).
    pub name: Option<&'t str>,
    /// The public identifier (`None` if missing).
    pub public_id: Option<&'t str>,
    /// The system identifier (`None` if missing).
    pub system_id: Option<&'t str>,
    /// The force-quirks flag.
    pub force_quirks: bool,
    /// Where it is in the input.
    pub span: Span,
}

/// Start or end.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum TagKind {
    /// A start tag.
    #[default]
    Start,
    /// An end tag.
    End,
}

/// A start or end tag token.
#[derive(Copy, Clone)]
pub struct Tag<'t> {
    pub(crate) kind: TagKind,
    pub(crate) name: &'t str,
    pub(crate) name_id: Option<LocalName>,
    pub(crate) self_closing: bool,
    /// The attributes and the buffers of their names and values.
    pub(crate) builder: &'t TagBuilder,
    /// The input chunk being tokenized, starting at stream offset `input_base`.
    pub(crate) input: &'t str,
    pub(crate) input_base: usize,
    pub(crate) span: Span,
}

impl<'t> Tag<'t> {
    /// Start or end tag.
    #[inline]
    pub fn kind(&self) -> TagKind {
        self.kind
    }

    /// The tag name, lowercased as the tokenizer does (ASCII only).
    #[inline]
    pub fn name(&self) -> &'t str {
        self.name
    }

    /// The tag name's static id, if it is a known name.
    #[inline]
    pub fn local_name(&self) -> Option<LocalName> {
        self.name_id
    }

    /// The self-closing flag (`<br/>`).
    #[inline]
    pub fn self_closing(&self) -> bool {
        self.self_closing
    }

    /// Where the tag is in the input (from `<` to just past `>`).
    #[inline]
    pub fn span(&self) -> Span {
        self.span
    }

    /// The attributes, in source order (duplicates already removed).
    #[inline]
    pub fn attrs(&self) -> TagAttrs<'t> {
        TagAttrs {
            tag: *self,
            iter: self.builder.kept_attrs().iter(),
        }
    }

    /// The number of attributes.
    pub fn attr_count(&self) -> usize {
        self.builder.kept_attrs().len()
    }

    /// The value of the attribute named `name`.
    pub fn attr(&self, name: &str) -> Option<&'t str> {
        self.attrs().find(|a| a.name == name).map(|a| a.value)
    }

    /// The kept attributes' own records, for the tree builder's loop that creates an
    /// element (it needs a name's text only when the name has no static id, and no spans).
    #[inline]
    pub(crate) fn raw_attrs(&self) -> &'t [RawAttr] {
        self.builder.kept_attrs()
    }

    /// The name of `raw` (one of [`Tag::raw_attrs`]).
    #[inline]
    pub(crate) fn raw_name(&self, raw: &RawAttr) -> &'t str {
        raw.name
            .resolve(&self.builder.names, self.input, self.input_base)
    }

    /// The value of `raw` (one of [`Tag::raw_attrs`]).
    #[inline]
    pub(crate) fn raw_value(&self, raw: &RawAttr) -> &'t str {
        raw.value
            .resolve(&self.builder.values, self.input, self.input_base)
    }

    fn resolve(&self, raw: &RawAttr) -> Attribute<'t> {
        let name = raw
            .name
            .resolve(&self.builder.names, self.input, self.input_base);
        let value = raw
            .value
            .resolve(&self.builder.values, self.input, self.input_base);
        let source_offset = raw.value.source_offset();
        Attribute {
            name,
            name_id: raw.name_id(),
            value,
            source_offset,
            name_span: Span::new(raw.name_start, raw.name_start + raw.name_len as usize),
        }
    }
}

impl std::fmt::Debug for Tag<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tag")
            .field("kind", &self.kind)
            .field("name", &self.name)
            .field("self_closing", &self.self_closing)
            .field(
                "attrs",
                &self.attrs().map(|a| (a.name, a.value)).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// The attributes of a [`Tag`].
#[derive(Clone)]
pub struct TagAttrs<'t> {
    tag: Tag<'t>,
    iter: std::slice::Iter<'t, RawAttr>,
}

impl<'t> Iterator for TagAttrs<'t> {
    type Item = Attribute<'t>;
    #[inline]
    fn next(&mut self) -> Option<Attribute<'t>> {
        self.iter.next().map(|raw| self.tag.resolve(raw))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

/// One attribute of a tag token.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Attribute<'t> {
    /// The name, lowercased (ASCII only).
    pub name: &'t str,
    /// The name's static id, if it is a known name.
    pub name_id: Option<LocalName>,
    /// The value, with character references resolved.
    pub value: &'t str,
    /// If `value` is exactly the input at some offset, that offset.
    pub source_offset: Option<usize>,
    /// Where the name is in the input.
    pub name_span: Span,
}

// ------------------------------------------------------------------------------------------
// The tokenizer's own representation of the tag being built.

/// Where a piece of the tag being built (its name, an attribute's name or value) is kept.
///
/// A piece starts out as a reference to the input and stays one while it is exactly one
/// contiguous slice of the current chunk (for names: with no ASCII upper alpha, which the
/// tokenizer lowercases). Anything else (a character reference, a CR, a U+0000, a lowercased
/// name, the chunk ending) copies it into one of the builder's buffers.
///
/// Two plain words, with the top bit of `start` telling an owned piece (a range of a buffer)
/// from an input reference (a range of stream offsets): the builder writes them with plain
/// stores (an enum made the compiler copy a padded template through the stack, which stalled
/// store forwarding).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Piece {
    start: u64,
    end: u64,
}

/// The flag of an owned piece (stream offsets never come near 2^63).
const OWNED: u64 = 1 << 63;

impl Piece {
    /// The empty piece (owned, so that the next input starts a reference).
    pub(crate) const EMPTY: Piece = Piece {
        start: OWNED,
        end: 0,
    };

    /// Input between stream offsets `start..end`.
    #[inline]
    fn input(start: usize, end: usize) -> Piece {
        Piece {
            start: start as u64,
            end: end as u64,
        }
    }

    /// Buffer bytes `start..end`.
    #[inline]
    fn owned(start: usize, end: usize) -> Piece {
        Piece {
            start: start as u64 | OWNED,
            end: end as u64,
        }
    }

    #[inline]
    fn is_owned(self) -> bool {
        self.start & OWNED != 0
    }

    /// The range, in the buffer (owned) or in stream offsets (input).
    #[inline]
    fn range(self) -> (usize, usize) {
        ((self.start & !OWNED) as usize, self.end as usize)
    }

    #[inline]
    fn is_empty(self) -> bool {
        self.start & !OWNED == self.end
    }

    /// The stream offset of the piece if it is an input reference.
    #[inline]
    pub(crate) fn source_offset(self) -> Option<usize> {
        (!self.is_owned()).then_some(self.start as usize)
    }

    /// The text of the piece: in `buf` or in `input` (which starts at stream offset `base`).
    #[inline]
    pub(crate) fn resolve<'t>(self, buf: &'t str, input: &'t str, base: usize) -> &'t str {
        let (start, end) = self.range();
        if self.is_owned() {
            buf.get(start..end).unwrap_or("")
        } else {
            input
                .get(start.wrapping_sub(base)..end.wrapping_sub(base))
                .unwrap_or("")
        }
    }

    /// Appends input `start..end` (stream offsets, in the current chunk): extends a reference
    /// to the input when it ends where the new text starts, and otherwise copies.
    /// `lowercase`: the text may hold ASCII upper alphas, which become lowercase (names).
    #[inline]
    fn push_input(
        &mut self,
        buf: &mut String,
        start: usize,
        end: usize,
        input: &str,
        base: usize,
        lowercase: bool,
    ) {
        if start == end {
            return;
        }
        if !lowercase {
            if self.is_owned() {
                if self.is_empty() {
                    *self = Piece::input(start, end);
                    return;
                }
            } else if self.end as usize == start {
                self.end = end as u64;
                return;
            }
        }
        self.push_input_slow(buf, start, end, input, base, lowercase);
    }

    #[inline(never)]
    fn push_input_slow(
        &mut self,
        buf: &mut String,
        start: usize,
        end: usize,
        input: &str,
        base: usize,
        lowercase: bool,
    ) {
        let text = &input[start - base..end - base];
        if lowercase && !text.bytes().any(|b| b.is_ascii_uppercase()) {
            self.push_input(buf, start, end, input, base, false);
            return;
        }
        if !lowercase {
            if self.is_owned() {
                if self.is_empty() {
                    *self = Piece::input(start, end);
                    return;
                }
            } else if self.end as usize == start {
                self.end = end as u64;
                return;
            }
        }
        self.push_str(buf, text, input, base);
        if lowercase {
            let from = self.end as usize - text.len();
            buf[from..].make_ascii_lowercase();
        }
    }

    /// Appends `s` (text that is not the input at this point), copying the piece into `buf`.
    #[inline]
    fn push_str(&mut self, buf: &mut String, s: &str, input: &str, base: usize) {
        self.make_owned(buf, input, base);
        buf.push_str(s);
        self.end = buf.len() as u64;
    }

    /// Makes the piece owned and the last thing in `buf` (before appending to it).
    fn make_owned(&mut self, buf: &mut String, input: &str, base: usize) {
        let (start, end) = self.range();
        if !self.is_owned() {
            let at = buf.len();
            buf.push_str(&input[start - base..end - base]);
            *self = Piece::owned(at, buf.len());
        } else if start == end {
            *self = Piece::owned(buf.len(), buf.len());
        } else if end != buf.len() {
            // Detaching other pieces at a chunk boundary appended them after this one:
            // move it to the end (once; those pieces are detached for good).
            let at = buf.len();
            buf.extend_from_within(start..end);
            *self = Piece::owned(at, buf.len());
        }
    }

    /// Copies a reference to the current input chunk into `buf`, before the chunk goes away.
    #[inline]
    fn detach(&mut self, buf: &mut String, input: &str, base: usize) {
        if !self.is_owned() {
            let (start, end) = self.range();
            let at = buf.len();
            buf.push_str(&input[start - base..end - base]);
            *self = Piece::owned(at, buf.len());
        }
    }
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct RawAttr {
    /// In the tag's name buffer or the input.
    pub(crate) name: Piece,
    /// In the tag's value buffer or the input.
    pub(crate) value: Piece,
    /// Where the name starts in the input, and its length there (saturated at 4 GiB, where a
    /// document's strings end anyway): the attribute's `name_span`.
    name_start: usize,
    name_len: u32,
    /// The name's static id (`LocalName`'s number), or [`NO_NAME_ID`]. Kept as a plain
    /// number so that an attribute takes 48 bytes (the tag builder's cost per attribute).
    name_id: u32,
}

/// [`RawAttr::name_id`] of a name with no static id (no static id has the top bit).
const NO_NAME_ID: u32 = u32::MAX;

impl RawAttr {
    /// The name's static id, if it has one.
    #[inline]
    pub(crate) fn name_id(&self) -> Option<LocalName> {
        (self.name_id != NO_NAME_ID).then_some(LocalName(self.name_id))
    }
}

/// Past this many attributes, duplicate detection switches from a scan to a hash table.
const DUPLICATE_SCAN_LIMIT: usize = 16;

/// The kept attributes of a tag with many of them, by name: a hash table of `(hash, index)`
/// pairs, the 32-bit hash keyed per process (so that no input can make names collide on
/// purpose) and kept so that growing the table reads no names; equal hashes are confirmed by
/// comparing the names.
#[derive(Default)]
struct Seen {
    active: bool,
    keys: foldhash::fast::RandomState,
    index: HashTable<(u32, u32)>,
}

/// The tag token under construction.
// `repr(C)` keeps `kind` and `self_closing` apart: read together as one 16-bit load, two
// separate byte stores just before could not be forwarded to it (a stall per tag).
#[repr(C)]
pub(crate) struct TagBuilder {
    pub(crate) kind: TagKind,
    /// The tag name, in `name_buf` or the input.
    pub(crate) name: Piece,
    pub(crate) name_buf: String,
    pub(crate) self_closing: bool,
    /// The attributes kept, in source order, then possibly the one being read if it is a
    /// duplicate (`last_dropped`): a duplicate is removed from the token (13.2.5.33: "the new
    /// attribute must be removed") by the next attribute taking its place, so that however
    /// many duplicates a tag has, none is kept.
    pub(crate) attrs: Vec<RawAttr>,
    /// The last of `attrs` is a duplicate, read to its end but not part of the token.
    last_dropped: bool,
    /// `attrs[..detached]` refer to no input: a chunk boundary copied them into the buffers
    /// and they no longer change (only the last attribute grows). The next boundary copies
    /// only from there, so the work per chunk is what the chunk added to the tag.
    detached: usize,
    /// Attribute names that are not input references.
    pub(crate) names: String,
    /// Attribute values that are not input references.
    pub(crate) values: String,
    pub(crate) start: usize,
    /// The kept attributes, once there are many of them.
    seen: Seen,
    /// One bit per static name id modulo 64 of the kept attributes: a static name whose bit
    /// is clear is on no earlier attribute, so it needs no duplicate check.
    static_ids: u64,
}

/// The bit of [`TagBuilder::static_ids`] for a static name id.
#[inline]
fn id_bit(id: u32) -> u64 {
    1 << (id % 64)
}

impl Default for TagBuilder {
    fn default() -> Self {
        TagBuilder {
            kind: TagKind::Start,
            name: Piece::EMPTY,
            name_buf: String::new(),
            self_closing: false,
            attrs: Vec::new(),
            last_dropped: false,
            detached: 0,
            names: String::new(),
            values: String::new(),
            start: 0,
            seen: Seen::default(),
            static_ids: 0,
        }
    }
}

impl TagBuilder {
    #[inline]
    pub(crate) fn reset(&mut self, kind: TagKind, start: usize) {
        self.kind = kind;
        self.name = Piece::EMPTY;
        self.name_buf.clear();
        self.self_closing = false;
        self.attrs.clear();
        self.last_dropped = false;
        self.detached = 0;
        self.names.clear();
        self.values.clear();
        self.start = start;
        self.static_ids = 0;
        if self.seen.active {
            self.seen.active = false;
            self.seen.index.clear();
        }
    }

    /// The attributes of the token: all but a dropped duplicate being read.
    #[inline]
    pub(crate) fn kept_attrs(&self) -> &[RawAttr] {
        let kept = self.attrs.len() - usize::from(self.last_dropped);
        self.attrs.get(..kept).unwrap_or(&[])
    }

    /// The tag name so far.
    #[inline]
    pub(crate) fn name<'t>(&'t self, input: &'t str, base: usize) -> &'t str {
        self.name.resolve(&self.name_buf, input, base)
    }

    /// Appends input `start..end` (ordinary characters) to the tag name, lowercased.
    #[inline]
    pub(crate) fn push_tag_name_input(
        &mut self,
        start: usize,
        end: usize,
        input: &str,
        base: usize,
    ) {
        self.name
            .push_input(&mut self.name_buf, start, end, input, base, true);
    }

    /// [`TagBuilder::push_tag_name_input`] when the caller knows whether there are ASCII upper
    /// alphas in the text.
    #[inline]
    pub(crate) fn push_tag_name_run(
        &mut self,
        start: usize,
        end: usize,
        input: &str,
        base: usize,
        has_upper: bool,
    ) {
        self.name
            .push_input(&mut self.name_buf, start, end, input, base, has_upper);
    }

    /// Appends a character (already lowercased) to the tag name.
    #[inline]
    pub(crate) fn push_tag_name_char(&mut self, c: char, input: &str, base: usize) {
        let mut utf8 = [0; 4];
        self.name
            .push_str(&mut self.name_buf, c.encode_utf8(&mut utf8), input, base);
    }

    /// 13.2.5.32: "Start a new attribute in the current tag token."
    #[inline]
    pub(crate) fn start_attr(&mut self, offset: usize) {
        if self.last_dropped {
            self.discard_dropped();
        }
        // Growing first lets the compiler write the new attribute in place.
        self.attrs.reserve(1);
        self.attrs.push(RawAttr {
            name: Piece::EMPTY,
            value: Piece::EMPTY,
            name_start: offset,
            name_len: 0,
            name_id: NO_NAME_ID,
        });
    }

    /// Removes the duplicate attribute at the end of `attrs`, and its text at the end of the
    /// buffers.
    #[inline(never)]
    fn discard_dropped(&mut self) {
        self.last_dropped = false;
        if let Some(a) = self.attrs.pop() {
            for (piece, buf) in [(a.name, &mut self.names), (a.value, &mut self.values)] {
                let (start, end) = piece.range();
                if piece.is_owned() && end == buf.len() {
                    buf.truncate(start);
                }
            }
        }
    }

    /// Appends input `start..end` (ordinary characters) to the current attribute's name,
    /// lowercased.
    #[inline]
    pub(crate) fn push_name_input(&mut self, start: usize, end: usize, input: &str, base: usize) {
        if let Some(a) = self.attrs.last_mut() {
            a.name
                .push_input(&mut self.names, start, end, input, base, true);
        }
    }

    /// [`TagBuilder::push_name_input`] when the caller knows whether there are ASCII upper
    /// alphas in the text.
    #[inline]
    pub(crate) fn push_name_run(
        &mut self,
        start: usize,
        end: usize,
        input: &str,
        base: usize,
        has_upper: bool,
    ) {
        if let Some(a) = self.attrs.last_mut() {
            a.name
                .push_input(&mut self.names, start, end, input, base, has_upper);
        }
    }

    /// Appends a character (already lowercased) to the current attribute's name.
    #[inline]
    pub(crate) fn push_name_char(&mut self, c: char, input: &str, base: usize) {
        if let Some(a) = self.attrs.last_mut() {
            let mut utf8 = [0; 4];
            a.name
                .push_str(&mut self.names, c.encode_utf8(&mut utf8), input, base);
        }
    }

    /// When leaving the attribute name state: look up the name and remove the attribute if
    /// the token already has one with that name. Returns `true` for a duplicate.
    #[inline]
    pub(crate) fn finish_attr_name(&mut self, end_offset: usize, input: &str, base: usize) -> bool {
        let Some(last) = self.attrs.last_mut() else {
            return false;
        };
        let id = LocalName::from_static_str(last.name.resolve(&self.names, input, base));
        last.name_id = id.map_or(NO_NAME_ID, |id| id.0);
        let len = end_offset.saturating_sub(last.name_start);
        last.name_len = u32::try_from(len).unwrap_or(u32::MAX);
        let bit = id.map_or(0, |id| id_bit(id.0));
        // The first attribute, or a static name on no earlier attribute (names with other
        // ids, and unknown names, differ from it). The hash table, past many attributes,
        // takes every name.
        if self.attrs.len() == 1 || (bit & self.static_ids == 0 && bit != 0 && !self.seen.active) {
            self.static_ids |= bit;
            return false;
        }
        let duplicate = self.remove_if_duplicate(input, base);
        if !duplicate {
            self.static_ids |= bit;
        }
        duplicate
    }

    /// The duplicate check of [`TagBuilder::finish_attr_name`], once the tag has attributes.
    #[inline(never)]
    fn remove_if_duplicate(&mut self, input: &str, base: usize) -> bool {
        let Some((last, earlier)) = self.attrs.split_last_mut() else {
            return false;
        };
        let names = &self.names;
        let name = last.name.resolve(names, input, base);
        let id = last.name_id();
        let duplicate = if self.seen.active {
            let seen = &mut self.seen;
            let h = seen.keys.hash_one(name) as u32;
            let same = |&(eh, i): &(u32, u32)| {
                eh == h && earlier[i as usize].name.resolve(names, input, base) == name
            };
            if seen.index.find(spread(h), same).is_some() {
                true
            } else {
                let i = u32::try_from(earlier.len()).unwrap_or(u32::MAX);
                seen.index
                    .insert_unique(spread(h), (h, i), |&(eh, _)| spread(eh));
                false
            }
        } else {
            // Static names compare by id; only two unknown names compare as strings.
            let dup = earlier.iter().any(|a| match (a.name_id(), id) {
                (Some(x), Some(y)) => x == y,
                (None, None) => a.name.resolve(names, input, base) == name,
                _ => false,
            });
            if !dup && earlier.len() >= DUPLICATE_SCAN_LIMIT {
                let seen = &mut self.seen;
                seen.active = true;
                let kept = earlier.iter().enumerate().chain([(earlier.len(), &*last)]);
                for (i, a) in kept {
                    let h = seen.keys.hash_one(a.name.resolve(names, input, base)) as u32;
                    let i = u32::try_from(i).unwrap_or(u32::MAX);
                    seen.index
                        .insert_unique(spread(h), (h, i), |&(eh, _)| spread(eh));
                }
            }
            dup
        };
        self.last_dropped = duplicate;
        duplicate
    }

    /// Appends to the current attribute's value.
    #[inline]
    pub(crate) fn push_value_str(&mut self, s: &str, input: &str, base: usize) {
        if let Some(a) = self.attrs.last_mut() {
            a.value.push_str(&mut self.values, s, input, base);
        }
    }

    /// Appends input bytes `start..end` (stream offsets) to the current attribute's value,
    /// keeping the value a reference to the input while it stays one contiguous slice.
    #[inline]
    pub(crate) fn push_value_input(&mut self, start: usize, end: usize, input: &str, base: usize) {
        if let Some(a) = self.attrs.last_mut() {
            a.value
                .push_input(&mut self.values, start, end, input, base, false);
        }
    }

    /// Whether the tag has attributes (not counting dropped duplicates).
    #[inline]
    pub(crate) fn has_attrs(&self) -> bool {
        !self.kept_attrs().is_empty()
    }

    /// Copies every piece that refers to the current input chunk into the buffers, before the
    /// chunk goes away (the tag continues in the next chunk).
    ///
    /// Only the attributes started since the last boundary, and the one being read, can refer
    /// to the input: the work is proportional to what this chunk added, not to the tag.
    /// Returns the number of attributes looked at.
    pub(crate) fn detach_from_input(&mut self, input: &str, base: usize) -> usize {
        self.name.detach(&mut self.name_buf, input, base);
        let from = self.detached.min(self.attrs.len());
        let fresh = self.attrs.get_mut(from..).unwrap_or(&mut []);
        let looked_at = fresh.len();
        for a in fresh {
            a.name.detach(&mut self.names, input, base);
            a.value.detach(&mut self.values, input, base);
        }
        // The last attribute may still grow (or be replaced, if a duplicate) in the next chunk.
        self.detached = self.attrs.len().saturating_sub(1);
        looked_at
    }

    #[inline]
    pub(crate) fn view<'t>(
        &'t self,
        name: &'t str,
        name_id: Option<LocalName>,
        input: &'t str,
        input_base: usize,
        end: usize,
    ) -> Tag<'t> {
        Tag {
            kind: self.kind,
            name,
            name_id,
            self_closing: self.self_closing,
            builder: self,
            input,
            input_base,
            span: Span::new(self.start, end),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a tag with attributes named `names` (as the attribute states do: each name is
    /// input, some split in two pieces, some lowercased from upper case) and returns which
    /// ones were reported as duplicates.
    fn duplicates(names: &[&str]) -> Vec<bool> {
        let mut input = String::new();
        let mut spans = Vec::new();
        for name in names {
            let start = input.len();
            input.push_str(name);
            spans.push((start, input.len()));
            input.push(' ');
        }
        let mut tag = TagBuilder::default();
        tag.reset(TagKind::Start, 0);
        let mut dup = Vec::new();
        for (k, &(start, end)) in spans.iter().enumerate() {
            tag.start_attr(start);
            if k % 3 == 1 && end - start > 1 {
                tag.push_name_input(start, start + 1, &input, 0);
                tag.push_name_input(start + 1, end, &input, 0);
            } else {
                tag.push_name_input(start, end, &input, 0);
            }
            dup.push(tag.finish_attr_name(end, &input, 0));
        }
        let kept: Vec<&str> = tag
            .kept_attrs()
            .iter()
            .map(|a| a.name.resolve(&tag.names, &input, 0))
            .collect();
        let expected: Vec<&str> = names
            .iter()
            .zip(&dup)
            .filter(|&(_, &d)| !d)
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(kept.len(), expected.len());
        for (k, e) in kept.iter().zip(&expected) {
            assert!(k.eq_ignore_ascii_case(e), "{k} {e}");
        }
        dup
    }

    /// A tag with many attributes, each followed by a chunk boundary, half of them
    /// duplicates: the boundaries look at each attribute a bounded number of times (not at
    /// every attribute so far), duplicates are not kept, and every value survives.
    #[test]
    fn chunk_boundaries_detach_only_what_is_new() {
        let n = 2000;
        let mut tag = TagBuilder::default();
        tag.reset(TagKind::Start, 0);
        let mut looked_at = 0;
        let mut base = 0;
        for k in 0..n {
            // Each attribute in a chunk of its own: ` nK="vK"`, or ` d="x"` (a duplicate
            // after the first).
            let dup = k % 2 == 1;
            let chunk = if dup {
                " d=x".to_owned()
            } else {
                format!(" n{k}=v{k}")
            };
            let name_start = base + 1;
            let eq = base + chunk.find('=').unwrap_or(0);
            tag.start_attr(name_start);
            tag.push_name_input(name_start, eq, &chunk, base);
            tag.finish_attr_name(eq, &chunk, base);
            tag.push_value_input(eq + 1, base + chunk.len(), &chunk, base);
            looked_at += tag.detach_from_input(&chunk, base);
            base += chunk.len();
        }
        assert!(
            looked_at <= 2 * n,
            "{looked_at} attributes looked at for {n}"
        );
        // The kept attributes: the `n` ones and one `d`; the last duplicate is the only one
        // still held (until the next attribute or tag replaces it).
        assert_eq!(tag.kept_attrs().len(), n / 2 + 1);
        assert!(tag.attrs.len() <= n / 2 + 2);
        for (i, a) in tag.kept_attrs().iter().enumerate() {
            let name = a.name.resolve(&tag.names, "", 0);
            let value = a.value.resolve(&tag.values, "", 0);
            if i == 1 {
                assert_eq!((name, value), ("d", "x"));
            } else {
                let k = if i == 0 { 0 } else { 2 * (i - 1) };
                assert_eq!((name, value), (&*format!("n{k}"), &*format!("v{k}")));
            }
        }
        // Duplicates' text is not kept either: the buffers hold the kept attributes' text.
        assert!(tag.names.len() + tag.values.len() < 16 * n);
        // An attribute costs its record (48 bytes) and, past 16 attributes, a hash table
        // entry (8 bytes, at most 7/8 full): under 64 bytes besides its text.
        assert!(std::mem::size_of::<RawAttr>() <= 48);
        let table = tag.seen.index.capacity();
        assert!(table >= tag.kept_attrs().len() && table <= 2 * tag.kept_attrs().len());
    }

    #[test]
    fn duplicate_attributes_are_the_repeated_names() {
        let pool = [
            "a", "b", "class", "CLASS", "href", "id", "data-x", "data-y", "x-1", "onclick",
            "ONCLICK", "zz", "viewbox",
        ];
        let mut x: u64 = 99;
        for len in 0..80 {
            let names: Vec<&str> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    pool[(x % pool.len() as u64) as usize]
                })
                .collect();
            let mut seen = std::collections::HashSet::new();
            let expected: Vec<bool> = names
                .iter()
                .map(|n| !seen.insert(n.to_ascii_lowercase()))
                .collect();
            assert_eq!(duplicates(&names), expected, "{names:?}");
        }
        // Many distinct names, then repeats of each (the hash table path).
        let many: Vec<String> = (0..40).map(|i| format!("n{i}")).collect();
        let mut names: Vec<&str> = many.iter().map(String::as_str).collect();
        names.extend(many.iter().rev().map(String::as_str));
        let dup = duplicates(&names);
        assert_eq!(dup, (0..80).map(|i| i >= 40).collect::<Vec<_>>());
    }
}
