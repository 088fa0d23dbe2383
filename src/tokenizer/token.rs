//! Tokens: what the tokenizer emits (13.2.5 "Tokenization").
//!
//! Tokens borrow from the tokenizer and from the input chunk being tokenized, so emitting one
//! allocates nothing; a sink that keeps a token copies what it needs.

use std::collections::HashSet;

use crate::dom::names::LocalName;

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
    pub(crate) attrs: &'t [RawAttr],
    /// The buffer holding attribute names.
    pub(crate) names: &'t str,
    /// The buffer holding attribute values that are not verbatim input.
    pub(crate) values: &'t str,
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
            iter: self.attrs.iter(),
        }
    }

    /// The number of attributes.
    pub fn attr_count(&self) -> usize {
        self.attrs.iter().filter(|a| !a.dropped).count()
    }

    /// The value of the attribute named `name`.
    pub fn attr(&self, name: &str) -> Option<&'t str> {
        self.attrs().find(|a| a.name == name).map(|a| a.value)
    }

    fn resolve(&self, raw: &RawAttr) -> Attribute<'t> {
        let name = self
            .names
            .get(raw.name.0 as usize..raw.name.1 as usize)
            .unwrap_or("");
        let (value, source_offset) = match raw.value {
            AttrValue::Input { start, end } => {
                let s = start - self.input_base;
                let e = end - self.input_base;
                (self.input.get(s..e).unwrap_or(""), Some(start))
            }
            AttrValue::Owned { start, end } => (
                self.values.get(start as usize..end as usize).unwrap_or(""),
                None,
            ),
        };
        Attribute {
            name,
            name_id: raw.name_id,
            value,
            source_offset,
            name_span: raw.name_span,
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
        loop {
            let raw = self.iter.next()?;
            if !raw.dropped {
                return Some(self.tag.resolve(raw));
            }
        }
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

/// Where an attribute value is kept while its tag is being built.
#[derive(Copy, Clone, Debug)]
pub(crate) enum AttrValue {
    /// Exactly the input between these stream offsets (no reference, NUL or CR inside).
    Input { start: usize, end: usize },
    /// In the tag's value buffer.
    Owned { start: u32, end: u32 },
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct RawAttr {
    /// Range in the tag's name buffer.
    pub(crate) name: (u32, u32),
    pub(crate) name_id: Option<LocalName>,
    pub(crate) value: AttrValue,
    /// A duplicate, removed from the token (13.2.5.33: "the new attribute must be removed").
    pub(crate) dropped: bool,
    pub(crate) name_span: Span,
}

/// Past this many attributes, duplicate detection switches from a scan to a hash set.
const DUPLICATE_SCAN_LIMIT: usize = 8;

/// The tag token under construction.
#[derive(Default)]
pub(crate) struct TagBuilder {
    pub(crate) kind: TagKind,
    pub(crate) name: String,
    pub(crate) self_closing: bool,
    pub(crate) attrs: Vec<RawAttr>,
    pub(crate) names: String,
    pub(crate) values: String,
    pub(crate) start: usize,
    /// The names of the kept attributes, once there are many of them.
    seen: Option<HashSet<Box<str>>>,
}

impl TagBuilder {
    pub(crate) fn reset(&mut self, kind: TagKind, start: usize) {
        self.kind = kind;
        self.name.clear();
        self.self_closing = false;
        self.attrs.clear();
        self.names.clear();
        self.values.clear();
        self.start = start;
        self.seen = None;
    }

    /// 13.2.5.32: "Start a new attribute in the current tag token."
    pub(crate) fn start_attr(&mut self, offset: usize) {
        let at = self.names.len() as u32;
        self.attrs.push(RawAttr {
            name: (at, at),
            name_id: None,
            value: AttrValue::Owned { start: 0, end: 0 },
            dropped: false,
            name_span: Span::new(offset, offset),
        });
    }

    #[inline]
    pub(crate) fn push_name_str(&mut self, s: &str) {
        self.names.push_str(s);
        if let Some(a) = self.attrs.last_mut() {
            a.name.1 = self.names.len() as u32;
        }
    }

    #[inline]
    pub(crate) fn push_name_char(&mut self, c: char) {
        self.names.push(c);
        if let Some(a) = self.attrs.last_mut() {
            a.name.1 = self.names.len() as u32;
        }
    }

    /// When leaving the attribute name state: look up the name and remove the attribute if
    /// the token already has one with that name. Returns `true` for a duplicate.
    pub(crate) fn finish_attr_name(&mut self, end_offset: usize) -> bool {
        let Some(last) = self.attrs.len().checked_sub(1) else {
            return false;
        };
        let (s, e) = self.attrs[last].name;
        let name = &self.names[s as usize..e as usize];
        let id = LocalName::from_static_str(name);
        self.attrs[last].name_id = id;
        self.attrs[last].name_span.end = end_offset;
        let duplicate = if let Some(seen) = &mut self.seen {
            !seen.insert(name.into())
        } else {
            let names = &self.names;
            // Static names compare by id; only two unknown names compare as strings.
            let dup = self.attrs[..last].iter().any(|a| {
                !a.dropped
                    && match (a.name_id, id) {
                        (Some(x), Some(y)) => x == y,
                        (None, None) => &names[a.name.0 as usize..a.name.1 as usize] == name,
                        _ => false,
                    }
            });
            let kept = self.attrs.iter().filter(|a| !a.dropped).count();
            if !dup && kept > DUPLICATE_SCAN_LIMIT {
                let set = self
                    .attrs
                    .iter()
                    .filter(|a| !a.dropped)
                    .map(|a| names[a.name.0 as usize..a.name.1 as usize].into())
                    .collect();
                self.seen = Some(set);
            }
            dup
        };
        if duplicate {
            self.attrs[last].dropped = true;
        }
        duplicate
    }

    /// Appends to the current attribute's value.
    pub(crate) fn push_value_str(&mut self, s: &str, input: &str, input_base: usize) {
        self.make_value_owned(input, input_base);
        self.values.push_str(s);
        if let Some(a) = self.attrs.last_mut() {
            if let AttrValue::Owned { end, .. } = &mut a.value {
                *end = self.values.len() as u32;
            }
        }
    }

    /// Appends input bytes `start..end` (stream offsets) to the current attribute's value,
    /// keeping the value a reference to the input while it stays one contiguous slice.
    pub(crate) fn push_value_input(
        &mut self,
        start: usize,
        end: usize,
        input: &str,
        input_base: usize,
    ) {
        if start == end {
            return;
        }
        let Some(a) = self.attrs.last_mut() else {
            return;
        };
        match &mut a.value {
            AttrValue::Owned { start: s, end: e } if s == e => {
                a.value = AttrValue::Input { start, end };
            }
            AttrValue::Input { end: e, .. } if *e == start => *e = end,
            _ => {
                let text = &input[start - input_base..end - input_base];
                self.push_value_str(text, input, input_base);
            }
        }
    }

    /// Makes the current attribute's value owned (before appending a non-input string).
    fn make_value_owned(&mut self, input: &str, input_base: usize) {
        let Some(a) = self.attrs.last_mut() else {
            return;
        };
        match a.value {
            AttrValue::Input { start, end } => {
                let at = self.values.len() as u32;
                self.values
                    .push_str(&input[start - input_base..end - input_base]);
                a.value = AttrValue::Owned {
                    start: at,
                    end: self.values.len() as u32,
                };
            }
            AttrValue::Owned { start, end } if start == end => {
                let at = self.values.len() as u32;
                a.value = AttrValue::Owned { start: at, end: at };
            }
            AttrValue::Owned { start, end } if end as usize != self.values.len() => {
                // Detaching earlier attributes at a chunk boundary appended their values after
                // this one: move it to the end (once; those values are detached for good).
                let at = self.values.len() as u32;
                self.values.extend_from_within(start as usize..end as usize);
                a.value = AttrValue::Owned {
                    start: at,
                    end: self.values.len() as u32,
                };
            }
            AttrValue::Owned { .. } => {}
        }
    }

    /// Copies every value that refers to the current input chunk into the value buffer, before
    /// the chunk goes away (the tag continues in the next chunk).
    pub(crate) fn detach_from_input(&mut self, input: &str, input_base: usize) {
        for a in &mut self.attrs {
            if let AttrValue::Input { start, end } = a.value {
                let at = self.values.len() as u32;
                self.values
                    .push_str(&input[start - input_base..end - input_base]);
                a.value = AttrValue::Owned {
                    start: at,
                    end: self.values.len() as u32,
                };
            }
        }
    }

    pub(crate) fn view<'t>(&'t self, input: &'t str, input_base: usize, end: usize) -> Tag<'t> {
        Tag {
            kind: self.kind,
            name: &self.name,
            name_id: LocalName::from_static_str(&self.name),
            self_closing: self.self_closing,
            attrs: &self.attrs,
            names: &self.names,
            values: &self.values,
            input,
            input_base,
            span: Span::new(self.start, end),
        }
    }
}
