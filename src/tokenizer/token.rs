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

impl From<Span> for std::ops::Range<usize> {
    /// The span's byte range (what the DOM's source positions store).
    fn from(span: Span) -> std::ops::Range<usize> {
        span.start..span.end
    }
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
            iter: self.builder.kept_attrs().iter().enumerate(),
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
        let b = self.builder;
        raw.name.resolve(
            raw.name_owned,
            &b.names,
            self.input,
            self.input_base,
            b.start,
            &b.mirror,
        )
    }

    /// The value of `raw` (one of [`Tag::raw_attrs`]), and if it is exactly the input at
    /// some offset, that offset.
    #[inline]
    pub(crate) fn raw_value_and_source(&self, raw: &RawAttr) -> (&'t str, Option<usize>) {
        let b = self.builder;
        if raw.value_owned {
            let (start, end) = raw.value.range();
            return (b.values.get(start..end).unwrap_or(""), None);
        }
        // In this chunk, or (read from the mirror) before it.
        let (start, end) = raw.value.in_chunk(self.input_base);
        match self.input.get(start..end) {
            Some(text) => (text, Some(self.input_base.wrapping_add(start))),
            None => self.mirrored_value(raw),
        }
    }

    /// [`Tag::raw_value_and_source`], and the input from the value on (the value itself when
    /// it is not a slice of the current chunk).
    #[inline]
    pub(crate) fn raw_value_with_tail(&self, raw: &RawAttr) -> (&'t str, Option<usize>, &'t str) {
        if !raw.value_owned {
            let (start, end) = raw.value.in_chunk(self.input_base);
            if let (Some(text), Some(tail)) = (self.input.get(start..end), self.input.get(start..))
            {
                return (text, Some(self.input_base.wrapping_add(start)), tail);
            }
        }
        let (text, source) = self.raw_value_and_source(raw);
        (text, source, text)
    }

    /// [`Tag::raw_value_and_source`] of a value before the current chunk.
    #[cold]
    #[inline(never)]
    fn mirrored_value(&self, raw: &RawAttr) -> (&'t str, Option<usize>) {
        let b = self.builder;
        let (start, _) = raw.value.in_tag(b.start);
        let text = raw.value.in_mirror(b.start, &b.mirror);
        (text, Some(b.start.wrapping_add(start)))
    }

    fn resolve(&self, index: usize, raw: &RawAttr) -> Attribute<'t> {
        let (value, source_offset) = self.raw_value_and_source(raw);
        Attribute {
            name: self.raw_name(raw),
            name_id: raw.name_id(),
            value,
            source_offset,
            name_span: self.builder.name_span(index, raw),
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
    iter: std::iter::Enumerate<std::slice::Iter<'t, RawAttr>>,
}

impl<'t> Iterator for TagAttrs<'t> {
    type Item = Attribute<'t>;
    #[inline]
    fn next(&mut self) -> Option<Attribute<'t>> {
        self.iter.next().map(|(i, raw)| self.tag.resolve(i, raw))
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
/// name, the chunk ending) copies it into one of the builder's buffers: the piece is then
/// *owned*, which a flag kept beside it tells (so that both words stay plain offsets).
///
/// Two 32-bit words: a range of one of the builder's buffers, or of stream offsets modulo
/// 2^32 (as the states give them, with no arithmetic on the hot path; ranges are taken
/// modulo 2^32 too, from the chunk's start or the tag's, so that a piece may straddle a
/// multiple of 2^32). The tokenizer feeds its states chunks of at most [`MAX_CHUNK`] bytes,
/// which makes a reference's place in its chunk unambiguous; a tag is limited to 2 GiB of
/// input (a larger one reads other text of the tag, or nothing: no panic).
///
/// An input reference outlives its chunk: when the tag continues in the next chunk, the
/// builder copies the tag's text up to its last attribute into its *mirror* (see
/// [`TagBuilder::detach_from_input`]), where references before the current chunk are read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    start: u32,
    end: u32,
}

/// The most input the tokenizer's states see at once (see [`Piece`]).
pub(crate) const MAX_CHUNK: usize = 1 << 30;

impl Piece {
    /// The empty piece (owned, so that the next input starts a reference).
    pub(crate) const EMPTY: Piece = Piece { start: 0, end: 0 };

    /// An empty input reference at stream offset `at`.
    #[inline]
    fn at(at: usize) -> Piece {
        Piece {
            start: at as u32,
            end: at as u32,
        }
    }

    /// Buffer bytes `start..end`.
    #[inline]
    fn owned(start: usize, end: usize) -> Piece {
        Piece {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The range in the buffer (owned pieces).
    #[inline]
    fn range(self) -> (usize, usize) {
        (self.start as usize, self.end as usize)
    }

    #[inline]
    fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The range of an input reference in `input`, which starts at stream offset `base`.
    #[inline]
    fn in_chunk(self, base: usize) -> (usize, usize) {
        let base = base as u32;
        (
            self.start.wrapping_sub(base) as usize,
            self.end.wrapping_sub(base) as usize,
        )
    }

    /// The range of an input reference counted from stream offset `origin` (the tag's
    /// start: in the mirror).
    #[inline]
    fn in_tag(self, origin: usize) -> (usize, usize) {
        self.in_chunk(origin)
    }

    /// The text of an input reference: in `input`, which starts at stream offset `base`,
    /// or before it, in `mirror` (the tag's text from its start, `origin`).
    #[inline]
    fn in_input<'t>(self, input: &'t str, base: usize, origin: usize, mirror: &'t str) -> &'t str {
        let (start, end) = self.in_chunk(base);
        match input.get(start..end) {
            Some(text) => text,
            None => self.in_mirror(origin, mirror),
        }
    }

    #[cold]
    #[inline(never)]
    fn in_mirror(self, origin: usize, mirror: &str) -> &str {
        let (start, end) = self.in_tag(origin);
        mirror.get(start..end).unwrap_or("")
    }

    /// The text of the piece: in `buf` if `owned`, else in the input (see
    /// [`Piece::in_input`]).
    #[inline]
    pub(crate) fn resolve<'t>(
        self,
        owned: bool,
        buf: &'t str,
        input: &'t str,
        base: usize,
        origin: usize,
        mirror: &'t str,
    ) -> &'t str {
        if owned {
            buf.get(self.start as usize..self.end as usize)
                .unwrap_or("")
        } else {
            self.in_input(input, base, origin, mirror)
        }
    }

    /// Appends input `start..end` (stream offsets, in the current chunk): extends a reference
    /// to the input when it ends where the new text starts, and otherwise copies.
    /// `lowercase`: the text may hold ASCII upper alphas, which become lowercase (names).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn push_input(
        &mut self,
        owned: &mut bool,
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
            if *owned {
                if self.is_empty() {
                    *self = Piece {
                        start: start as u32,
                        end: end as u32,
                    };
                    *owned = false;
                    return;
                }
            } else if self.end == start as u32 {
                self.end = end as u32;
                return;
            }
        }
        self.push_input_slow(owned, buf, start, end, input, base, lowercase);
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn push_input_slow(
        &mut self,
        owned: &mut bool,
        buf: &mut String,
        start: usize,
        end: usize,
        input: &str,
        base: usize,
        lowercase: bool,
    ) {
        let Some(text) = input.get(start.wrapping_sub(base)..end.wrapping_sub(base)) else {
            return;
        };
        if lowercase && !text.bytes().any(|b| b.is_ascii_uppercase()) {
            self.push_input(owned, buf, start, end, input, base, false);
            return;
        }
        if !lowercase {
            if *owned {
                if self.is_empty() {
                    *self = Piece {
                        start: start as u32,
                        end: end as u32,
                    };
                    *owned = false;
                    return;
                }
            } else if self.end == start as u32 {
                self.end = end as u32;
                return;
            }
        }
        self.push_str(owned, buf, text, input, base);
        if lowercase {
            let from = buf.len() - text.len();
            buf[from..].make_ascii_lowercase();
        }
    }

    /// Appends `s` (text that is not the input at this point), copying the piece into `buf`.
    #[inline]
    fn push_str(&mut self, owned: &mut bool, buf: &mut String, s: &str, input: &str, base: usize) {
        self.make_owned(owned, buf, input, base);
        buf.push_str(s);
        self.end = buf.len() as u32;
    }

    /// Makes the piece owned and the last thing in `buf` (before appending to it).
    fn make_owned(&mut self, owned: &mut bool, buf: &mut String, input: &str, base: usize) {
        let (start, end) = self.range();
        if !*owned {
            // (A reference being extended is in the current chunk.)
            let at = buf.len();
            buf.push_str(self.in_input(input, base, 0, ""));
            *self = Piece::owned(at, buf.len());
            *owned = true;
        } else if start == end {
            *self = Piece::owned(buf.len(), buf.len());
        } else if end != buf.len() {
            // Detaching other pieces at a chunk boundary appended them after this one:
            // move it to the end (once; those pieces are detached for good).
            let at = buf.len();
            if start <= end && end <= at {
                buf.extend_from_within(start..end);
            }
            *self = Piece::owned(at, buf.len());
        }
    }

    /// Copies a reference to the current input chunk into `buf`, before the chunk goes away;
    /// returns whether it was one.
    #[inline]
    fn detach(&mut self, owned: &mut bool, buf: &mut String, input: &str, base: usize) -> bool {
        if *owned {
            return false;
        }
        let at = buf.len();
        buf.push_str(self.in_input(input, base, 0, ""));
        *self = Piece::owned(at, buf.len());
        *owned = true;
        true
    }
}

/// An attribute of the tag being built: 20 bytes (with the [`Seen`] entry of a tag with
/// many attributes, the tokenizer's whole cost per attribute besides its text).
///
/// Where the name is in the input (the public [`Attribute::name_span`]) is the name piece
/// itself while that is an input reference (it starts as an empty one where the attribute
/// starts), as it almost always is; other names have theirs in [`TagBuilder::name_spans`].
#[derive(Copy, Clone, Debug)]
pub(crate) struct RawAttr {
    /// In the tag's name buffer (`name_owned`) or the input.
    pub(crate) name: Piece,
    /// In the tag's value buffer (`value_owned`) or the input.
    pub(crate) value: Piece,
    /// The name's static id (`LocalName`'s number), or [`NO_NAME_ID`].
    name_id: u16,
    name_owned: bool,
    value_owned: bool,
}

/// [`RawAttr::name_id`] of a name with no static id.
const NO_NAME_ID: u16 = u16::MAX;
// Every static id fits, with room for `NO_NAME_ID`.
const _: () = assert!(crate::dom::names::STATIC_NAME_COUNT < NO_NAME_ID as usize);

impl RawAttr {
    /// The name's static id, if it has one.
    #[inline]
    pub(crate) fn name_id(&self) -> Option<LocalName> {
        (self.name_id != NO_NAME_ID).then_some(LocalName(u32::from(self.name_id)))
    }
}

/// Past this many attributes, duplicate detection switches from a scan to a hash table.
const DUPLICATE_SCAN_LIMIT: usize = 16;

/// Past this many records (or table entries), emitting the tag gives back the spare room of
/// its attribute list and frees its duplicate-check table (see [`TagBuilder::finish`]).
const RELEASE_LIMIT: usize = 1024;

/// The kept attributes of a tag with many of them, by name: a hash table of `(hash, index)`
/// pairs, the 32-bit hash keyed per process (so that no input can make names collide on
/// purpose) and kept so that growing the table reads no names (with a hundred thousand
/// attributes, reading them again at every doubling costs cache misses that grow faster
/// than the tag); equal hashes are confirmed by comparing the names. The table lives only
/// while the tag is read (see [`TagBuilder::finish`]).
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
    /// The tag name, in `name_buf` (`name_owned`) or the input.
    pub(crate) name: Piece,
    name_owned: bool,
    pub(crate) name_buf: String,
    pub(crate) self_closing: bool,
    /// The attributes kept, in source order, then possibly the one being read if it is a
    /// duplicate (`last_dropped`): a duplicate is removed from the token (13.2.5.33: "the new
    /// attribute must be removed") by the next attribute taking its place, so that however
    /// many duplicates a tag has, none is kept.
    pub(crate) attrs: Vec<RawAttr>,
    /// The last of `attrs` is a duplicate, read to its end but not part of the token.
    last_dropped: bool,
    /// The tag's input from its start, up to the start of its last attribute once a chunk
    /// boundary fell inside the tag (see [`TagBuilder::detach_from_input`]): the text of the
    /// input references into earlier chunks. Parts of it that no reference reads (the text
    /// of pieces copied into the buffers) are spaces.
    mirror: String,
    /// Where the attribute being read starts in the input.
    attr_start: usize,
    /// Attribute names that are not input references.
    pub(crate) names: String,
    /// Attribute values that are not input references.
    pub(crate) values: String,
    /// The tag's stream offset: the origin of its pieces' input offsets.
    pub(crate) start: usize,
    /// The kept attributes, once there are many of them.
    seen: Seen,
    /// One bit per static name id modulo 64 of the kept attributes: a static name whose bit
    /// is clear is on no earlier attribute, so it needs no duplicate check.
    static_ids: u64,
    /// `(index in attrs, start from the tag's start, length)` of the names in the input of
    /// the attributes whose name piece is not that input (a lowercased or replaced name, or
    /// one copied at a chunk boundary), in order.
    name_spans: Vec<(u32, u32, u32)>,
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
            name_owned: true,
            name_buf: String::new(),
            self_closing: false,
            attrs: Vec::new(),
            last_dropped: false,
            mirror: String::new(),
            attr_start: 0,
            names: String::new(),
            values: String::new(),
            start: 0,
            seen: Seen::default(),
            static_ids: 0,
            name_spans: Vec::new(),
        }
    }
}

impl TagBuilder {
    #[inline]
    pub(crate) fn reset(&mut self, kind: TagKind, start: usize) {
        self.kind = kind;
        self.name = Piece::EMPTY;
        self.name_owned = true;
        self.name_buf.clear();
        self.self_closing = false;
        self.attrs.clear();
        self.last_dropped = false;
        self.mirror.clear();
        self.name_spans.clear();
        self.names.clear();
        self.values.clear();
        self.start = start;
        self.static_ids = 0;
        if self.seen.active {
            self.end_duplicate_checks();
        }
    }

    /// Before the tag is emitted: the duplicate checks are over, so a tag with many
    /// attributes gives back its duplicate-check table, and a large attribute list its spare
    /// room, before the tree builder copies the attributes into the document (which then
    /// holds them once, not twice: 13.2.5.33's removal of duplicates is done).
    #[inline]
    pub(crate) fn finish(&mut self) {
        if self.seen.active {
            self.end_duplicate_checks();
        }
    }

    /// Empties the duplicate-check table, freeing it (and the attribute list's spare room)
    /// when large.
    #[inline(never)]
    fn end_duplicate_checks(&mut self) {
        self.seen.active = false;
        if self.seen.index.capacity() > RELEASE_LIMIT {
            self.seen.index = HashTable::new();
        } else {
            self.seen.index.clear();
        }
        if self.attrs.capacity() > RELEASE_LIMIT {
            self.attrs.shrink_to_fit();
        }
        if self.mirror.capacity() > RELEASE_LIMIT {
            self.mirror.shrink_to_fit();
        }
        // The tag is complete (or being replaced): a chunk boundary after it must not extend
        // the mirror to its last attribute (see `detach_from_input`).
        self.attr_start = self.start.wrapping_add(self.mirror.len());
    }

    /// The attributes of the token: all but a dropped duplicate being read.
    #[inline]
    pub(crate) fn kept_attrs(&self) -> &[RawAttr] {
        let kept = self.attrs.len() - usize::from(self.last_dropped);
        self.attrs.get(..kept).unwrap_or(&[])
    }

    /// Where the name of `a` (one of `attrs`, at `index`) is in the input.
    pub(crate) fn name_span(&self, index: usize, a: &RawAttr) -> Span {
        let (start, len) = if a.name_owned {
            let at = self
                .name_spans
                .binary_search_by_key(&index, |&(i, ..)| i as usize);
            at.ok()
                .and_then(|at| self.name_spans.get(at))
                .map_or((0, 0), |&(_, start, len)| (start as usize, len as usize))
        } else {
            let (start, end) = a.name.in_tag(self.start);
            (start, end.wrapping_sub(start))
        };
        let start = self.start.wrapping_add(start);
        Span::new(start, start.wrapping_add(len))
    }

    /// The tag name so far.
    #[inline]
    pub(crate) fn name<'t>(&'t self, input: &'t str, base: usize) -> &'t str {
        self.name
            .resolve(self.name_owned, &self.name_buf, input, base, self.start, "")
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
        self.push_tag_name_run(start, end, input, base, true);
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
        self.name.push_input(
            &mut self.name_owned,
            &mut self.name_buf,
            start,
            end,
            input,
            base,
            has_upper,
        );
    }

    /// Appends a character (already lowercased) to the tag name.
    #[inline]
    pub(crate) fn push_tag_name_char(&mut self, c: char, input: &str, base: usize) {
        let mut utf8 = [0; 4];
        self.name.push_str(
            &mut self.name_owned,
            &mut self.name_buf,
            c.encode_utf8(&mut utf8),
            input,
            base,
        );
    }

    /// 13.2.5.32: "Start a new attribute in the current tag token."
    #[inline]
    pub(crate) fn start_attr(&mut self, offset: usize) {
        if self.last_dropped {
            self.discard_dropped();
        }
        self.attr_start = offset;
        // Growing first lets the compiler write the new attribute in place.
        self.attrs.reserve(1);
        self.attrs.push(RawAttr {
            name: Piece::at(offset),
            value: Piece::EMPTY,
            name_id: NO_NAME_ID,
            name_owned: false,
            value_owned: true,
        });
    }

    /// Removes the duplicate attribute at the end of `attrs`, and its text at the end of the
    /// buffers.
    #[inline(never)]
    fn discard_dropped(&mut self) {
        self.last_dropped = false;
        if let Some(a) = self.attrs.pop() {
            let pieces = [
                (a.name, a.name_owned, &mut self.names),
                (a.value, a.value_owned, &mut self.values),
            ];
            for (piece, owned, buf) in pieces {
                let (start, end) = piece.range();
                if owned && end == buf.len() {
                    buf.truncate(start);
                }
            }
            let index = self.attrs.len() as u32;
            if self.name_spans.last().is_some_and(|s| s.0 == index) {
                self.name_spans.pop();
            }
        }
    }

    /// Appends input `start..end` (ordinary characters) to the current attribute's name,
    /// lowercased.
    #[inline]
    pub(crate) fn push_name_input(&mut self, start: usize, end: usize, input: &str, base: usize) {
        self.push_name_run(start, end, input, base, true);
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
            a.name.push_input(
                &mut a.name_owned,
                &mut self.names,
                start,
                end,
                input,
                base,
                has_upper,
            );
        }
    }

    /// Appends a character (already lowercased) to the current attribute's name.
    #[inline]
    pub(crate) fn push_name_char(&mut self, c: char, input: &str, base: usize) {
        if let Some(a) = self.attrs.last_mut() {
            let mut utf8 = [0; 4];
            a.name.push_str(
                &mut a.name_owned,
                &mut self.names,
                c.encode_utf8(&mut utf8),
                input,
                base,
            );
        }
    }

    /// When leaving the attribute name state: look up the name and remove the attribute if
    /// the token already has one with that name. Returns `true` for a duplicate.
    #[inline]
    pub(crate) fn finish_attr_name(&mut self, end_offset: usize, input: &str, base: usize) -> bool {
        let index = self.attrs.len().wrapping_sub(1);
        let Some(last) = self.attrs.last_mut() else {
            return false;
        };
        let name = last.name.resolve(
            last.name_owned,
            &self.names,
            input,
            base,
            self.start,
            &self.mirror,
        );
        let id = LocalName::from_static_str(name);
        // (Static ids fit: see `NO_NAME_ID`.)
        last.name_id = id.map_or(NO_NAME_ID, |id| id.0 as u16);
        // The name's place in the input is its piece (which starts where the attribute
        // does), unless that is not the input.
        if last.name_owned || last.name.end != end_offset as u32 {
            let origin = self.start;
            let start = self.attr_start.wrapping_sub(origin) as u32;
            self.note_name_span(index, start, end_offset.wrapping_sub(origin) as u32);
        }
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

    /// Notes where the name of `attrs[index]` is in the input (offsets from the tag's
    /// start), when its piece does not say.
    #[cold]
    fn note_name_span(&mut self, index: usize, start: u32, end: u32) {
        let entry = (index as u32, start, end.wrapping_sub(start));
        match self.name_spans.last_mut() {
            Some(last) if last.0 == entry.0 => *last = entry,
            _ => self.name_spans.push(entry),
        }
    }

    /// The duplicate check of [`TagBuilder::finish_attr_name`], once the tag has attributes.
    #[inline(never)]
    fn remove_if_duplicate(&mut self, input: &str, base: usize) -> bool {
        let Some((last, earlier)) = self.attrs.split_last_mut() else {
            return false;
        };
        let (names, origin, mirror) = (&self.names, self.start, self.mirror.as_str());
        let name_of = |i: u32| {
            earlier.get(i as usize).map_or("", |a| {
                a.name
                    .resolve(a.name_owned, names, input, base, origin, mirror)
            })
        };
        let name = last
            .name
            .resolve(last.name_owned, names, input, base, origin, mirror);
        let id = last.name_id();
        let Seen {
            active,
            keys,
            index,
        } = &mut self.seen;
        let hash = |text: &str| keys.hash_one(text) as u32;
        let rehash = |&(h, _): &(u32, u32)| spread(h);
        let duplicate = if *active {
            let h = hash(name);
            let same = |&(eh, i): &(u32, u32)| eh == h && name_of(i) == name;
            if index.find(spread(h), same).is_some() {
                true
            } else {
                let i = u32::try_from(earlier.len()).unwrap_or(u32::MAX);
                index.insert_unique(spread(h), (h, i), rehash);
                false
            }
        } else {
            // Static names compare by id; only two unknown names compare as strings.
            let dup = earlier.iter().any(|a| match (a.name_id(), id) {
                (Some(x), Some(y)) => x == y,
                (None, None) => {
                    a.name
                        .resolve(a.name_owned, names, input, base, origin, mirror)
                        == name
                }
                _ => false,
            });
            if !dup && earlier.len() >= DUPLICATE_SCAN_LIMIT {
                *active = true;
                for i in 0..=earlier.len() {
                    let i = u32::try_from(i).unwrap_or(u32::MAX);
                    let h = if i as usize == earlier.len() {
                        hash(name)
                    } else {
                        hash(name_of(i))
                    };
                    index.insert_unique(spread(h), (h, i), rehash);
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
            a.value
                .push_str(&mut a.value_owned, &mut self.values, s, input, base);
        }
    }

    /// Appends input bytes `start..end` (stream offsets) to the current attribute's value,
    /// keeping the value a reference to the input while it stays one contiguous slice.
    #[inline]
    pub(crate) fn push_value_input(&mut self, start: usize, end: usize, input: &str, base: usize) {
        if let Some(a) = self.attrs.last_mut() {
            a.value.push_input(
                &mut a.value_owned,
                &mut self.values,
                start,
                end,
                input,
                base,
                false,
            );
        }
    }

    /// Whether the tag has attributes (not counting dropped duplicates).
    #[inline]
    pub(crate) fn has_attrs(&self) -> bool {
        !self.kept_attrs().is_empty()
    }

    /// Before the current input chunk goes away (the tag continues in the next one): keeps
    /// what the tag's pieces read in it. Returns the number of attributes looked at.
    ///
    /// Every attribute but the last is complete, and lies before the last one's start: the
    /// input up to there is copied into the mirror (each byte of the tag once, over all the
    /// boundaries), where those attributes' input references keep reading it. The tag name
    /// and the last attribute, which may still grow, are copied into the buffers. So the
    /// work per chunk is what the chunk added to the tag, an attribute costs nothing more
    /// for having crossed a boundary, and values stay references to the input (which the
    /// document need not copy).
    pub(crate) fn detach_from_input(&mut self, input: &str, base: usize) -> usize {
        let origin = self.start;
        self.name
            .detach(&mut self.name_owned, &mut self.name_buf, input, base);
        let index = self.attrs.len().wrapping_sub(1);
        let Some(last) = self.attrs.last_mut() else {
            return 0;
        };
        if index > 0 {
            // The input from where the mirror ends to the last attribute: what the chunks
            // before this one held of it is only text that was copied into the buffers.
            let until = self.attr_start.wrapping_sub(origin);
            let from = self.mirror.len();
            // The first offset in this chunk, and where an offset is in `input`.
            let in_chunk = base.saturating_sub(origin);
            let at = |offset: usize| (offset + origin).wrapping_sub(base);
            if from < until {
                // Capacities by powers of two: at most twice the text (the pieces before the
                // first boundary make the first push an odd size, which doubling keeps).
                self.mirror
                    .reserve(until.next_power_of_two().saturating_sub(from));
                let gap = in_chunk.clamp(from, until);
                self.mirror
                    .extend(std::iter::repeat_n(' ', gap.saturating_sub(from)));
                let copy = input.get(at(gap)..at(until)).unwrap_or("");
                self.mirror.push_str(copy);
                // (Always the right length; padding keeps offsets right if not.)
                let short = until.saturating_sub(self.mirror.len());
                self.mirror.extend(std::iter::repeat_n(' ', short));
            }
        }
        let name = last.name;
        last.value
            .detach(&mut last.value_owned, &mut self.values, input, base);
        if last
            .name
            .detach(&mut last.name_owned, &mut self.names, input, base)
        {
            // Its place in the input, which the piece no longer tells (a name still being
            // read gets its end when it ends).
            let (start, end) = name.in_tag(origin);
            self.note_name_span(index, start as u32, end as u32);
        }
        1
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
            .map(|a| a.name.resolve(a.name_owned, &tag.names, &input, 0, 0, ""))
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
    /// every attribute so far), duplicates are not kept, every name, value and name span
    /// survives, and the tag's memory is its records, its text once and its table.
    #[test]
    fn chunk_boundaries_detach_only_what_is_new() {
        // (Enough for the table and the list to be past `RELEASE_LIMIT`.)
        let n = 6000;
        let mut tag = TagBuilder::default();
        // The tag starts at stream offset 7 (`<a` at 5).
        let origin = 5;
        tag.reset(TagKind::Start, origin);
        let mut looked_at = 0;
        let mut base = origin + 2;
        let mut stream = "<a".to_owned();
        let mut spans = Vec::new();
        for k in (0..n).step_by(2) {
            // Two attributes in each chunk: ` nK=vK`, then ` d=x` (a duplicate after the
            // first), which the boundary after it copies (it could still grow).
            let chunk = format!(" n{k}=v{k} d=x");
            for (at, len) in [(0, chunk.len() - 4), (chunk.len() - 4, 4)] {
                let name_start = base + at + 1;
                let eq = base + at + chunk[at..].find('=').unwrap_or(0);
                tag.start_attr(name_start);
                tag.push_name_input(name_start, eq, &chunk, base);
                let is_dup = tag.finish_attr_name(eq, &chunk, base);
                tag.push_value_input(eq + 1, base + at + len, &chunk, base);
                if !is_dup {
                    spans.push(Span::new(name_start, eq));
                }
            }
            looked_at += tag.detach_from_input(&chunk, base);
            stream.push_str(&chunk);
            base += chunk.len();
        }
        stream.push('>');
        assert!(looked_at <= n, "{looked_at} attributes looked at for {n}");
        // The kept attributes: the `n` ones and one `d`; the last duplicate is the only one
        // still held (until the next attribute or tag replaces it).
        assert_eq!(tag.kept_attrs().len(), n / 2 + 1);
        assert!(tag.attrs.len() <= n / 2 + 2);
        // Read as the tree builder does, with the last chunk (the `>`) as the input.
        let view = tag.view("a", None, &stream[stream.len() - 1..], base, base + 1);
        let attrs: Vec<Attribute<'_>> = view.attrs().collect();
        assert_eq!(attrs.len(), n / 2 + 1);
        for (i, a) in attrs.iter().enumerate() {
            if i == 1 {
                assert_eq!((a.name, a.value), ("d", "x"));
            } else {
                let k = if i == 0 { 0 } else { 2 * (i - 1) };
                assert_eq!((a.name, a.value), (&*format!("n{k}"), &*format!("v{k}")));
            }
            assert_eq!(a.name_span, spans[i], "{}", a.name);
            // Values stay references to the input, however many boundaries they crossed
            // (but the `d`'s, the last attribute at a boundary, copied then).
            let value_start = a.name_span.end + 1;
            let expected = (i != 1).then_some(value_start);
            assert_eq!(a.source_offset, expected, "{}", a.name);
            if let Some(at) = a.source_offset {
                assert_eq!(&stream[at - origin..][..a.value.len()], a.value);
            }
        }
        // Duplicates' text is not kept either: the mirror holds the tag's text once, the
        // buffers only the last attribute.
        assert!(tag.mirror.len() < stream.len());
        assert!(tag.names.len() + tag.values.len() < 16);
        // An attribute costs its record (20 bytes) and, past 16 attributes, a hash table
        // entry (8 bytes and a control byte, the table at most 7/8 full) while the tag is
        // read.
        assert_eq!(std::mem::size_of::<RawAttr>(), 20);
        let table = tag.seen.index.capacity();
        assert!(table >= tag.kept_attrs().len() && table <= 2 * tag.kept_attrs().len());
        // Emitting the tag gives back the table and the spare room.
        tag.finish();
        assert_eq!(tag.seen.index.capacity(), 0);
        assert_eq!(tag.attrs.capacity(), tag.attrs.len());
        assert_eq!(tag.mirror.capacity(), tag.mirror.len());
        assert_eq!(view_names(&tag, &stream, base), n / 2 + 1);
    }

    /// The number of attributes of `tag` read back after [`TagBuilder::finish`].
    fn view_names(tag: &TagBuilder, stream: &str, base: usize) -> usize {
        let view = tag.view("a", None, &stream[stream.len() - 1..], base, base + 1);
        view.attrs().filter(|a| !a.name.is_empty()).count()
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
