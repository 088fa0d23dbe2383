//! The HTML fragment serialization algorithm (13.3) with default options, written straight
//! from the tree into a `String`.
//!
//! Names are interned ids, so a static name's `<name`, `<name>`, `</name>` and ` name="` and
//! whether it "serializes as void" or holds raw text come ready-made from a table of
//! fixed-size slots (one fixed-size copy each, no lookup of the name's text). Text and
//! attribute values are checked for characters to escape a word or a vector block at a time
//! and appended whole when there are none (most are), else escaped in one linear pass
//! (`escape.rs`). The walk reads each node's data once, keeps the open elements on its own
//! stack (no recursion: any depth), allocates nothing per node, and never goes through the
//! `fmt` machinery. Writers other than a `String` get the output in chunks of about 16 KB
//! through a buffer (see [`serialize_to`]).

use std::cell::Cell;
use std::fmt::{self, Write};
use std::sync::OnceLock;

use super::escape::{
    BLOCK, Mode, escape_into, escape_long_into, escape_short_into, window_special,
};
use crate::dom::names::{AttrNamespace, LocalName, Namespace, local_name as n};
use crate::dom::{Attr, Document, NodeData, NodeRef, StrHandle};

/// "Serializes as void" (13.3).
#[inline]
fn serializes_as_void(ns: Namespace, name: LocalName) -> bool {
    ns == Namespace::Html
        && matches!(
            name,
            n::AREA
                | n::BASE
                | n::BR
                | n::COL
                | n::EMBED
                | n::HR
                | n::IMG
                | n::INPUT
                | n::LINK
                | n::META
                | n::SOURCE
                | n::TRACK
                | n::WBR
                | n::BASEFONT
                | n::BGSOUND
                | n::FRAME
                | n::KEYGEN
                | n::PARAM
        )
}

/// Whether text children of an element are written literally (13.3, "If current node is a
/// Text node").
#[inline]
fn raw_text_parent(ns: Namespace, name: LocalName, scripting: bool) -> bool {
    ns == Namespace::Html
        && (matches!(
            name,
            n::STYLE | n::SCRIPT | n::XMP | n::IFRAME | n::NOEMBED | n::NOFRAMES | n::PLAINTEXT
        ) || (scripting && name == n::NOSCRIPT))
}

/// The size of a slot of the tag table: room for `</` + the longest static name + `>` (and
/// for ` ` + name + `="`), padded with NULs; the last byte holds the length of the text, the
/// one before it the name's [flags](VOID).
const SLOT: usize = 32;

/// Slot flag: an HTML element of this name "serializes as void" (13.3).
const VOID: u8 = 1;
/// Slot flag: the text children of an HTML element of this name are written literally
/// (13.3, "If current node is a Text node").
const RAW: u8 = 2;
/// Slot flag: the same, when scripting is enabled (`noscript`).
const RAW_IF_SCRIPTING: u8 = 4;

/// The [flags](VOID) of a static name.
fn name_flags(name: LocalName) -> u8 {
    let mut flags = 0;
    if serializes_as_void(Namespace::Html, name) {
        flags |= VOID;
    }
    if raw_text_parent(Namespace::Html, name, false) {
        flags |= RAW;
    }
    if raw_text_parent(Namespace::Html, name, true) {
        flags |= RAW_IF_SCRIPTING;
    }
    flags
}

/// Per static name, one slot for each [`Slot`], NUL-padded to [`SLOT`] bytes with the
/// name's flags and the length of the text in the last two bytes (length 0 for a name too
/// long to fit, which is then written the plain way). Built on first use.
fn tag_table() -> &'static str {
    static TABLE: OnceLock<String> = OnceLock::new();
    TABLE.get_or_init(|| {
        let names = crate::dom::names::static_names();
        let mut t = String::with_capacity(names.len() * SLOTS * SLOT);
        for (id, name) in names.iter().enumerate() {
            let flags = u32::try_from(id).map_or(0, |id| name_flags(LocalName(id)));
            for [before, after] in [["<", ""], ["<", ">"], ["</", ">"], [" ", "=\""]] {
                let start = t.len();
                t.push_str(before);
                t.push_str(name);
                t.push_str(after);
                let len = t.len() - start;
                // Names are ASCII, so the length fits in one ASCII character.
                let fits = len < SLOT - 2 && name.is_ascii();
                if !fits {
                    t.truncate(start);
                }
                while t.len() < start + SLOT - 2 {
                    t.push('\0');
                }
                t.push(char::from(flags));
                t.push(char::from(if fits { len as u8 } else { 0 }));
            }
        }
        t
    })
}

/// Every slot of [`tag_table`] as its own `&str` of exactly [`SLOT`] bytes, indexed by
/// `name * SLOTS + slot`: a slot then comes with a length the compiler can see, so copying
/// it is one fixed-size copy with no check of the table's text.
fn tag_slots() -> &'static [&'static str] {
    static SLOTS_TABLE: OnceLock<Vec<&'static str>> = OnceLock::new();
    SLOTS_TABLE.get_or_init(|| {
        let table = tag_table();
        (0..table.len() / SLOT)
            .map(|i| table.get(i * SLOT..(i + 1) * SLOT).unwrap_or(""))
            .collect()
    })
}

/// Which slot of a name's.
#[derive(Copy, Clone)]
enum Slot {
    /// `<name`
    Start = 0,
    /// `<name>`
    StartClosed = 1,
    /// `</name>`
    End = 2,
    /// ` name="`
    Attr = 3,
}

/// Slots per name.
const SLOTS: usize = 4;

/// The output: the `String` written to, the tag table, and the document's names and strings.
struct Out<'o, 'd> {
    s: &'o mut String,
    table: &'static str,
    slots: &'static [&'static str],
    doc: &'d Document,
}

impl Out<'_, '_> {
    #[inline]
    fn put(&mut self, s: &str) {
        self.s.push_str(s);
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        self.s.push(char::from(b));
    }

    /// Writes `<name`, `</name>` or ` name="` for `name`: for a static name, one fixed-size
    /// copy of its slot and a truncation to the length kept in the slot (names are interned,
    /// so this needs no lookup of the name's text).
    ///
    /// Returns the name's [flags](VOID) when they came with the slot (`None` when the name was
    /// written the plain way).
    #[inline(always)]
    fn tag_flags(&mut self, name: LocalName, slot: Slot) -> Option<u8> {
        // A dynamic name's id (top bit set) is past the end of the table.
        let i =
            usize::try_from(u64::from(name.0) * SLOTS as u64 + slot as u64).unwrap_or(usize::MAX);
        // The copy is a whole slot: only with room for it, so that a buffer sized for the
        // exact output never grows for the padding.
        if self.s.capacity() - self.s.len() >= SLOT {
            if let Some(padded) = self.slots.get(i).and_then(|p| p.get(..SLOT)) {
                let len = usize::from(padded.as_bytes()[SLOT - 1]);
                if len > 0 {
                    let end = self.s.len() + len;
                    self.s.push_str(padded);
                    self.s.truncate(end);
                    return Some(padded.as_bytes()[SLOT - 2]);
                }
            }
        }
        tag_plain(self.s, self.doc, name, slot);
        None
    }

    /// Appends a string of the document, escaped for text (`QUOTES` false) or a
    /// double-quoted attribute value, or as it is (`RAW`). A string of at most [`BLOCK`]
    /// bytes with that many bytes of its buffer after its start (most of them) is checked
    /// and copied as one fixed-size window (the bytes after the string are then cut off
    /// again), so that it costs a few vector compares and no call; longer ones are checked a
    /// block at a time and copied whole.
    #[inline(always)]
    fn string<const RAW: bool, const QUOTES: bool>(&mut self, r: impl StrHandle) {
        let (buf, start, len) = self.doc.strings.locate(r);
        if len <= BLOCK && self.s.capacity() - self.s.len() >= BLOCK {
            if let Some(window) = buf.get(start..start.wrapping_add(BLOCK)) {
                let bytes: &[u8; BLOCK] = window.as_bytes().try_into().unwrap_or(&[0; BLOCK]);
                let special = !RAW && window_special::<QUOTES>(bytes, len);
                if window.is_char_boundary(len) {
                    if special {
                        escape_short_into::<QUOTES>(self.s, window.get(..len).unwrap_or(""));
                    } else {
                        let end = self.s.len() + len;
                        self.s.push_str(window);
                        self.s.truncate(end);
                    }
                    return;
                }
            }
        }
        let text = buf.get(start..start.wrapping_add(len)).unwrap_or("");
        if RAW {
            self.s.push_str(text);
        } else if text.len() >= BLOCK {
            escape_long_into::<QUOTES>(self.s, text);
        } else {
            escape_into(
                self.s,
                text,
                if QUOTES { Mode::AttrDouble } else { Mode::Text },
            );
        }
    }

    /// The [flags](VOID) of `name` (none for a dynamic name).
    #[inline(always)]
    fn flags(&self, name: LocalName) -> u8 {
        if !name.is_static() {
            return 0;
        }
        let at = (name.0 as usize).wrapping_mul(SLOTS * SLOT) + SLOT - 2;
        self.table.as_bytes().get(at).copied().unwrap_or(0)
    }

    /// [`Out::tag_flags`] without the flags.
    #[inline(always)]
    fn tag(&mut self, name: LocalName, slot: Slot) {
        let _ = self.tag_flags(name, slot);
    }
}

/// [`Out::tag`] for a dynamic name (or a static one too long for a slot): the text before
/// the name, the name (as one fixed-size window of the document's name buffer when it is
/// short, like a string in [`Out::string`]: the buffer ends in padding for this), and the
/// text after it. A free function of the output and the document, the only parts of
/// [`Out`] it reads.
#[inline(never)]
fn tag_plain(s: &mut String, doc: &Document, name: LocalName, slot: Slot) {
    // Each piece a constant, so that it is a store or two rather than a copy call.
    match slot {
        Slot::Start | Slot::StartClosed => s.push('<'),
        Slot::End => s.push_str("</"),
        Slot::Attr => s.push(' '),
    }
    push_name(s, doc, name);
    match slot {
        Slot::Start => {}
        Slot::StartClosed | Slot::End => s.push('>'),
        Slot::Attr => s.push_str("=\""),
    }
}

/// Appends the text of a dynamic name (or a static one too long for a slot).
#[inline(always)]
fn push_name(s: &mut String, doc: &Document, name: LocalName) {
    if let Some((buf, start, end)) = doc.names.locate(name) {
        let len = end.wrapping_sub(start);
        if len <= BLOCK && s.capacity() - s.len() >= BLOCK {
            if let Some(window) = buf.get(start..start.wrapping_add(BLOCK)) {
                if window.is_char_boundary(len) {
                    let end = s.len() + len;
                    s.push_str(window);
                    s.truncate(end);
                    return;
                }
            }
        }
    }
    s.push_str(doc.name_str(name));
}

/// The frame of an open element (or document or fragment): what to close when its children
/// are done.
struct Open {
    /// The node's next sibling (none for the node serialized with itself).
    after: Option<indextree::NodeId>,
    /// The element's name; `None` for a document or fragment (no end tag).
    name: Option<LocalName>,
    /// Whether text was written literally outside the node (what to go back to after it).
    outer_raw: bool,
}

/// Serializes `node` (with `include_self`) or its children into `out`, calling `flush` on
/// `out` whenever it holds `limit` bytes or more (after a node is written) when `FLUSH` is
/// set (without it, the output is never flushed: no check per node).
pub(super) fn serialize_into<const FLUSH: bool>(
    node: NodeRef<'_>,
    include_self: bool,
    out: &mut String,
    limit: usize,
    flush: &mut dyn FnMut(&mut String) -> fmt::Result,
) -> fmt::Result {
    let doc = node.document();
    let arena = &doc.arena;
    let scripting = doc.scripting();
    let templates = !doc.template_contents.is_empty();
    let mut out = Out {
        s: out,
        table: tag_table(),
        slots: tag_slots(),
        doc,
    };
    let raw_mask = if scripting {
        RAW | RAW_IF_SCRIPTING
    } else {
        RAW
    };
    // Whether text at the top level of the walk is raw: decided by the parent, the context
    // of a fragment, or the node whose children are serialized.
    let top_raw = {
        let parent = if include_self {
            node.parent()
        } else {
            Some(node)
        };
        match parent {
            Some(p) if !include_self && p.raw_id() == doc.root => doc
                .fragment_context
                .is_some_and(|(ns, name)| raw_text_parent(ns, name, scripting)),
            Some(p) => p
                .as_element()
                .is_some_and(|e| raw_text_parent(e.namespace(), e.name().id(), scripting)),
            None => false,
        }
    };
    // Whether text children of the innermost open node are written literally.
    let mut raw = top_raw;
    let mut next = if include_self {
        Some(node.raw_id())
    } else {
        if let Some(e) = node.as_element() {
            // 13.3 step 1: "If the node serializes as void, then return the empty string."
            if serializes_as_void(e.namespace(), e.name().id()) {
                return Ok(());
            }
        }
        // The walk starts inside `node`: its children (a template's contents) follow.
        let first = children_of(doc, node.raw_id(), templates);
        match first {
            Some(first) => Some(first),
            None => return Ok(()),
        }
    };
    let mut stack = take_frames();
    loop {
        let Some(id) = next else {
            // Done with the children of the innermost open node: close it and go on with
            // its next sibling.
            let Some(open) = stack.pop() else { break };
            if let Some(name) = open.name {
                out.tag(name, Slot::End);
            }
            raw = open.outer_raw;
            next = open.after;
            continue;
        };
        let Some(current) = arena.get(id) else { break };
        // After this node, its next sibling, except for the node serialized with itself.
        let at_top = include_self && stack.is_empty();
        next = if at_top { None } else { current.next_sibling() };
        // 13.3 step 5, for each child: elements and texts first, as two tests rather than a
        // `match`, which compiled to an indirect jump per node (slower, on a fresh tree most:
        // see docs/BENCHMARKS.md); the other kinds are rare and go through a call.
        let data = current.get();
        // A text to write (a text node's, or the only child of an element) and the end tag to
        // write after it. One place writes texts for both: with a copy of that code in each,
        // the compiler made the second one's plain copy two calls (`extend_from_slice` and
        // `truncate`) per element whose only child is a text.
        let mut text = None;
        let mut text_raw = raw;
        let mut end_after = None;
        if let NodeData::Element(e) = data {
            let slot_flags = start_tag(&mut out, e.name, e.attrs.range());
            let flags = if e.ns == Namespace::Html {
                slot_flags.unwrap_or_else(|| out.flags(e.name))
            } else {
                0
            };
            if flags & VOID == 0 {
                let first = if templates {
                    children_of(doc, id, templates)
                } else {
                    current.first_child()
                };
                // An element whose only child is a text node (a link, a list item, a
                // cell...): the text and the end tag right away, with no frame.
                let only_text = first
                    .and_then(|f| arena.get(f))
                    .filter(|c| c.next_sibling().is_none())
                    .and_then(|c| match c.get() {
                        NodeData::Text(r) => Some(*r),
                        _ => None,
                    });
                if let Some(r) = only_text {
                    text = Some(r);
                    text_raw = flags & raw_mask != 0;
                    end_after = Some(e.name);
                } else if let Some(first) = first {
                    stack.push(Open {
                        after: next,
                        name: Some(e.name),
                        outer_raw: raw,
                    });
                    raw = flags & raw_mask != 0;
                    next = Some(first);
                } else {
                    out.tag(e.name, Slot::End);
                }
            }
        } else if let NodeData::Text(r) = data {
            text = Some(*r);
        } else if other_node(out.s, doc, data) {
            // A document or fragment: its children follow.
            if let Some(first) = current.first_child() {
                stack.push(Open {
                    after: next,
                    name: None,
                    outer_raw: raw,
                });
                raw = false;
                next = Some(first);
            }
        }
        if let Some(r) = text {
            if text_raw {
                out.string::<true, false>(r);
            } else {
                out.string::<false, false>(r);
            }
            if let Some(name) = end_after {
                out.tag(name, Slot::End);
            }
        }
        if FLUSH && out.s.len() >= limit {
            flush(out.s)?;
        }
    }
    give_back_frames(stack);
    Ok(())
}

/// Writes a node that is neither an element nor a text (13.3 step 5: a comment, a processing
/// instruction, a doctype); returns whether it is a document or fragment, whose children the
/// walk goes on with.
#[inline(never)]
fn other_node(s: &mut String, doc: &Document, data: &NodeData) -> bool {
    match data {
        NodeData::Comment(r) => {
            s.push_str("<!--");
            s.push_str(doc.str(*r));
            s.push_str("-->");
        }
        NodeData::ProcessingInstruction(pi) => {
            s.push_str("<?");
            s.push_str(doc.str(pi.target));
            s.push(' ');
            s.push_str(doc.str(pi.data));
            s.push_str("?>");
        }
        NodeData::Doctype(d) => {
            s.push_str("<!DOCTYPE ");
            s.push_str(&d.name);
            s.push('>');
        }
        NodeData::Document | NodeData::Fragment => return true,
        NodeData::Element(_) | NodeData::Text(_) => {}
    }
    false
}

thread_local! {
    /// The frame stack of this thread's last walk, kept for the next one: a walk then
    /// allocates nothing (an allocation and a free of room for the depth of most pages cost
    /// about as much as serializing a small page's first dozen nodes).
    static FRAMES: Cell<Vec<Open>> = const { Cell::new(Vec::new()) };
}

/// An empty frame stack with room for the depth of most pages: this thread's last walk's if
/// it kept one.
fn take_frames() -> Vec<Open> {
    let mut frames = FRAMES.try_with(Cell::take).unwrap_or_default();
    if frames.capacity() == 0 {
        frames.reserve(64);
    }
    frames
}

/// Keeps `frames` (emptied) for this thread's next walk, unless a deep tree made it large.
fn give_back_frames(mut frames: Vec<Open>) {
    if frames.capacity() <= 4096 {
        frames.clear();
        let _ = FRAMES.try_with(|f| f.set(frames));
    }
}

/// The first child to serialize: a template's contents' instead of its own. `templates` is
/// whether the document has any template contents at all: without them the per-element
/// hash lookup is skipped.
#[inline]
fn children_of(
    doc: &Document,
    id: indextree::NodeId,
    templates: bool,
) -> Option<indextree::NodeId> {
    let id = if templates {
        doc.template_contents_of(id).unwrap_or(id)
    } else {
        id
    };
    doc.arena.get(id)?.first_child()
}

/// Writes a start tag: `<name`, then each attribute as ` name="value"` (13.3, "An attribute's
/// serialized name" and "escaping a string" in attribute mode), then `>`. Returns the name's
/// [flags](VOID) when its slot gave them.
#[inline]
fn start_tag(out: &mut Out<'_, '_>, name: LocalName, attrs: std::ops::Range<usize>) -> Option<u8> {
    let first = attrs.start;
    let doc = out.doc;
    let attrs: &[Attr] = doc.attrs.get(attrs).unwrap_or(&[]);
    if attrs.is_empty() {
        return out.tag_flags(name, Slot::StartClosed);
    }
    let flags = out.tag_flags(name, Slot::Start);
    for (i, a) in attrs.iter().enumerate() {
        // Attributes in no namespace first, as one test rather than a jump on the namespace.
        if matches!(a.ns, AttrNamespace::None) {
            out.tag(a.name, Slot::Attr);
        } else {
            qualified_attr_name(out, a, first + i);
        }
        out.string::<false, true>(a.value);
        if i + 1 < attrs.len() {
            out.byte(b'"');
        }
    }
    // The last value's closing quote and the tag's `>` in one append.
    out.put("\">");
    flags
}

/// Writes ` name="` for an attribute in a namespace (13.3, "An attribute's serialized
/// name"): `xmlns` alone, or the prefix, a colon and the local name. `index` is the
/// attribute's index in the document's attributes (an XML document keeps its own prefixes by
/// it).
#[inline(never)]
fn qualified_attr_name(out: &mut Out<'_, '_>, a: &Attr, index: usize) {
    let doc = out.doc;
    let prefix = match a.ns {
        AttrNamespace::Xmlns if a.name == n::XMLNS => return out.tag(a.name, Slot::Attr),
        AttrNamespace::Xml => Some("xml"),
        AttrNamespace::Xmlns => Some("xmlns"),
        AttrNamespace::XLink => Some("xlink"),
        // "Otherwise": the qualified name (an XML document's own prefix).
        AttrNamespace::Other(_) => doc.xml_names.as_ref().and_then(|x| {
            let index = u32::try_from(index).ok()?;
            x.attr_prefixes.get(&index).and_then(|&p| x.prefix(p))
        }),
        AttrNamespace::None => None,
    };
    out.byte(b' ');
    if let Some(prefix) = prefix {
        out.put(prefix);
        out.byte(b':');
    }
    out.put(doc.name_str(a.name));
    out.put("=\"");
}

/// The size of the chunks [`serialize_to`] hands to its writer.
const CHUNK: usize = 16 * 1024;

/// Serializes into any `fmt::Write`: the output is built in a buffer of about [`CHUNK`]
/// bytes and written out each time it fills, so the writer sees a few large writes.
pub(super) fn serialize_to<W: Write + ?Sized>(
    node: NodeRef<'_>,
    include_self: bool,
    w: &mut W,
) -> fmt::Result {
    let mut buf = String::with_capacity(CHUNK + 256);
    serialize_into::<true>(
        node,
        include_self,
        &mut buf,
        CHUNK,
        &mut |b: &mut String| {
            let r = w.write_str(b);
            b.clear();
            r
        },
    )?;
    w.write_str(&buf)
}

/// Serializes into a new `String` of at least `capacity` bytes.
pub(super) fn serialize_to_string(
    node: NodeRef<'_>,
    include_self: bool,
    capacity: usize,
) -> String {
    let mut out = String::with_capacity(capacity);
    let _ = serialize_into::<false>(node, include_self, &mut out, usize::MAX, &mut |_| Ok(()));
    out
}

/// Appends to `out`, straight into its buffer.
pub(super) fn serialize_append(node: NodeRef<'_>, include_self: bool, out: &mut String) {
    let _ = serialize_into::<false>(node, include_self, out, usize::MAX, &mut |_| Ok(()));
}
