//! What each fuzz target checks, one `pub fn` per target, taking the raw fuzz input.
//!
//! A panic is a finding: every assertion here is a promise of the public API (its docs) or of
//! the project's own tests (`tests/round_trip.rs`, `tests/bytes_chunking.rs`). Everything is
//! linear in the input (no `dump_tree` on whole documents, no ancestor walks per element), so
//! that a slow input means a slow library. Inputs over [`MAX_INPUT`] bytes are skipped.
//!
//! This file is compiled twice: as a module of the fuzz crate (`fuzz/src/lib.rs`) and, by
//! path, in `tests/fuzz_regressions.rs`, which runs the same checks on regression inputs and
//! on the seed corpus. It uses only `html_arena`, `encoding_rs` and `std`.

use std::borrow::Cow;
use std::collections::HashMap;

use encoding_rs::Encoding;
use html_arena::dom::compare::{CompareOptions, first_difference};
use html_arena::encoding::{
    self, Confidence, EncodingChange, EncodingSource, PRESCAN_LIMIT, SniffOptions,
};
use html_arena::tokenizer::{State, Token, TokenSink, TokenSinkResult, Tokenizer};
use html_arena::{
    Document, ElementRef, Namespace, NodeId, NodeKind, NodeRef, ParseOptions, Parser, QuirksMode,
    Selector, local_name,
};

/// Inputs longer than this are ignored, so a timeout means something.
pub const MAX_INPUT: usize = 64 * 1024;

/// The fragment contexts the `fragment` and `round_trip` targets pick from.
pub const CONTEXTS: &[&str] = &[
    "html",
    "head",
    "body",
    "frameset",
    "template",
    "table",
    "caption",
    "colgroup",
    "col",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "td",
    "th",
    "select",
    "optgroup",
    "option",
    "datalist",
    "textarea",
    "title",
    "script",
    "style",
    "xmp",
    "iframe",
    "noembed",
    "noframes",
    "noscript",
    "plaintext",
    "pre",
    "listing",
    "p",
    "div",
    "span",
    "a",
    "b",
    "nobr",
    "form",
    "button",
    "ul",
    "li",
    "dl",
    "dd",
    "h1",
    "object",
    "applet",
    "marquee",
    "math",
    "svg",
    "image",
    "input",
    "br",
    "hr",
    "frame",
    "menu",
    "search",
    "custom-element",
    "TD",
    "svg svg",
    "svg foreignObject",
    "svg desc",
    "svg title",
    "svg path",
    "math math",
    "math mi",
    "math mo",
    "math mtext",
    "math annotation-xml",
    "math ms",
];

/// Every encoding `encoding_rs` has.
pub fn all_encodings() -> [&'static Encoding; 40] {
    use encoding_rs::*;
    [
        BIG5,
        EUC_JP,
        EUC_KR,
        GBK,
        GB18030,
        IBM866,
        ISO_2022_JP,
        ISO_8859_2,
        ISO_8859_3,
        ISO_8859_4,
        ISO_8859_5,
        ISO_8859_6,
        ISO_8859_7,
        ISO_8859_8,
        ISO_8859_8_I,
        ISO_8859_10,
        ISO_8859_13,
        ISO_8859_14,
        ISO_8859_15,
        ISO_8859_16,
        KOI8_R,
        KOI8_U,
        MACINTOSH,
        REPLACEMENT,
        SHIFT_JIS,
        UTF_16BE,
        UTF_16LE,
        UTF_8,
        WINDOWS_874,
        WINDOWS_1250,
        WINDOWS_1251,
        WINDOWS_1252,
        WINDOWS_1253,
        WINDOWS_1254,
        WINDOWS_1255,
        WINDOWS_1256,
        WINDOWS_1257,
        WINDOWS_1258,
        X_MAC_CYRILLIC,
        X_USER_DEFINED,
    ]
}

fn assert_known_encoding(encoding: &'static Encoding) {
    assert!(
        all_encodings().contains(&encoding),
        "not an encoding_rs encoding: {}",
        encoding.name()
    );
}

/// Labels the targets give as transport, override or fallback encodings (known, unknown,
/// odd).
const LABELS: &[&str] = &[
    "utf-8",
    " Latin1\n",
    "windows-1251",
    "shift_jis",
    "gbk",
    "euc-jp",
    "big5",
    "iso-2022-jp",
    "utf-16le",
    "utf-16be",
    "x-user-defined",
    "iso-2022-kr",
    "koi8-r",
    "replacement",
    "utf-7",
    "",
];

/// A tiny xorshift generator, for chunk lengths derived from the input.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A chunk length in `1..=max`, mostly short.
    fn chunk_len(&mut self, max: usize) -> usize {
        let max = max.max(1) as u64;
        let len = if self.next() & 3 == 0 {
            1 + self.next() % max
        } else {
            1 + self.next() % max.min(16)
        };
        len as usize
    }
}

/// FNV-1a, to derive chunkings from the input itself.
fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

// ---------------------------------------------------------------------------------------------
// Looking at documents.

/// Uses every read-only view of a parsed document, checking what the docs promise of it.
pub fn touch(doc: &Document, max_errors: usize) {
    let (dump, _) = doc.dump_tree_prefix(64 * 1024);
    assert!(dump.is_empty() || dump.starts_with("| "));
    let _ = format!("{doc:?}");
    assert_known_encoding(doc.encoding());
    // Errors: in input order, inside the source, at most `max_errors` kept.
    let input_len = doc.input_len();
    if let Some(source) = doc.source() {
        assert_eq!(source.len(), input_len);
    }
    let errors = doc.errors();
    assert!(errors.len() <= max_errors);
    assert!(doc.error_count() >= errors.len());
    for pair in errors.windows(2) {
        assert!(pair[0].offset <= pair[1].offset, "errors out of order");
    }
    for error in errors {
        assert!(error.offset <= input_len, "error past the end: {error:?}");
        assert!(error.line >= 1 && error.column >= 1, "{error:?}");
        assert!(!error.to_string().is_empty());
        let _ = error.message();
    }
    let root = doc.root();
    let _ = root.text();
    let _ = root.rendered_text();
    let html = doc.html();
    assert_eq!(html, root.html());
    let _ = doc.html_with(&html_arena::serialize::SerializeOptions::html5lib());
    let _ = (doc.head(), doc.body(), doc.document_element());
    let _ = (
        doc.quirks_mode(),
        doc.limit_hit(),
        doc.node_count(),
        doc.heap_size(),
    );
    // Source spans, when recorded, lie inside the source.
    let mut count = 0usize;
    for node in all_nodes(doc) {
        count += 1;
        for span in [
            node.source_span(),
            node.as_element().and_then(|e| e.end_tag_span()),
        ]
        .into_iter()
        .flatten()
        {
            assert!(
                span.start <= span.end && span.end <= input_len,
                "span {span:?} outside the source ({input_len} bytes)"
            );
            assert!(doc.source().is_some(), "spans come with the source");
            assert!(span.line >= 1 && span.column >= 1);
        }
        if let Some(e) = node.as_element() {
            let _ = (e.id(), e.classes().count(), e.attrs().len());
            assert_eq!(doc.node(node.node_id()), Some(node));
        }
    }
    assert!(count <= doc.node_count());
}

/// Every node of the document, template contents included, in document order (a template's
/// contents right after the template's start).
pub fn all_nodes(doc: &Document) -> Vec<NodeRef<'_>> {
    let mut out = Vec::new();
    let mut roots = vec![doc.root()];
    while let Some(root) = roots.pop() {
        for node in root.descendants() {
            out.push(node);
            if let Some(contents) = node.as_element().and_then(|e| e.template_contents()) {
                roots.push(contents);
            }
        }
    }
    out
}

/// Fixed (found by the `chunking` target): with source positions, a text node whose leading
/// white space the tree builder dropped spanned that white space too in one go but not when a
/// chunk boundary followed it (`" x"`). Kept as a switch: while true, text spans are not compared.
pub const KNOWN_TEXT_SPAN_BUG: bool = false;

/// Compares two trees node for node (what `dump_tree` equality says, in linear time); with
/// `spans`, also every node's source spans (none while `KNOWN_TEXT_SPAN_BUG`). `Err`
/// describes the first difference. The crate's own comparison ([`first_difference`]).
pub fn compare_trees(a: &Document, b: &Document, spans: bool) -> Result<(), String> {
    let options = CompareOptions::default().with_spans(spans && !KNOWN_TEXT_SPAN_BUG);
    match first_difference(a.root(), b.root(), &options) {
        Some(diff) => Err(diff.to_string()),
        None => Ok(()),
    }
}

/// Tree equality with adjacent text nodes compared as one (the sense of
/// `Document::is_round_trip_stable`).
pub fn same_tree_merged(a: NodeRef<'_>, b: NodeRef<'_>) -> bool {
    let options = CompareOptions::default().with_merge_adjacent_text(true);
    first_difference(a, b, &options).is_none()
}

/// Parses a document, or a fragment in `context`.
fn parse(input: &str, context: Option<&str>, options: &ParseOptions) -> Document {
    match context {
        Some(c) => Document::parse_fragment(input, c, options).expect("valid context"),
        None => Document::parse_with(input, options),
    }
}

// ---------------------------------------------------------------------------------------------
// Target: parse_bytes.

/// Any bytes parse (default options, with detection; scripting on; source positions; the
/// browser's encoding choice), and every view of the result works.
pub fn parse_bytes(data: &[u8]) {
    if data.len() > MAX_INPUT {
        return;
    }
    let default = ParseOptions::default();
    let doc = Document::parse_bytes(data, &default).expect("no labels given");
    touch(&doc, default.max_errors);
    assert_ne!(doc.encoding_confidence(), Confidence::Irrelevant);

    let mut options = ParseOptions::default().with_scripting(true);
    options.source_positions = true;
    let doc = Document::parse_bytes(data, &options).expect("no labels given");
    assert!(doc.scripting());
    touch(&doc, options.max_errors);

    let options = ParseOptions::default().with_browser_encoding(true);
    let doc = Document::parse_bytes(data, &options).expect("no labels given");
    touch(&doc, options.max_errors);
}

// ---------------------------------------------------------------------------------------------
// Target: fragment.

/// Fixed (found by the `fragment` target): in a `colgroup` fragment context, a run of
/// characters mixing white space and other characters was ignored whole (`"g g"` gave no
/// children; the standard ignores only the non-white-space characters, text " "). Kept as a
/// switch: while true, the streaming comparison skips that context.
pub const KNOWN_COLGROUP_BUG: bool = false;

/// Whether the context string is one `Document::parse_fragment` accepts (the rules its
/// `FragmentContextError` documents).
fn valid_context(context: &str) -> bool {
    let name = context
        .strip_prefix("svg ")
        .or_else(|| context.strip_prefix("math "))
        .unwrap_or(context);
    !name.is_empty()
        && !name.chars().any(|c| {
            c.is_whitespace()
                || c.is_control()
                || matches!(c, '<' | '>' | '/' | '=' | '"' | '\'' | '\u{FFFD}')
        })
}

/// `data[0]`: the context (an index into [`CONTEXTS`]; past its end, a junk context read from
/// the input up to a NUL byte) and the scripting flag (high bit). Then the fragment. The
/// parse gives a fragment or a typed error; streamed in chunks it gives the same fragment.
pub fn fragment(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    if data.len() > MAX_INPUT {
        return;
    }
    let scripting = first & 0x80 != 0;
    let index = usize::from(first & 0x7f);
    let (context, html): (Cow<'_, str>, &[u8]) = match CONTEXTS.get(index) {
        Some(c) => (Cow::Borrowed(c), rest),
        None => {
            let end = rest
                .iter()
                .position(|&b| b == 0)
                .unwrap_or(rest.len().min(24));
            let after = rest.get(end + 1..).unwrap_or_default();
            (String::from_utf8_lossy(&rest[..end]), after)
        }
    };
    let html = String::from_utf8_lossy(html);
    let options = ParseOptions::default().with_scripting(scripting);
    let frag = match Document::parse_fragment(&html, &context, &options) {
        Ok(frag) => frag,
        Err(err) => {
            assert!(
                !valid_context(&context),
                "context {context:?} rejected: {err}"
            );
            assert!(!err.to_string().is_empty());
            assert!(Parser::new_fragment(&context, &options).is_err());
            return;
        }
    };
    assert!(valid_context(&context), "context {context:?} accepted");
    assert!(frag.root().is_fragment());
    assert!(frag.fragment_context().is_some());
    assert_eq!(frag.scripting(), scripting);
    touch(&frag, options.max_errors);

    if KNOWN_COLGROUP_BUG && frag.fragment_context() == Some((Namespace::Html, "colgroup")) {
        return;
    }
    // Streaming: text chunks on char boundaries, then the same as bytes.
    let mut rng = Rng::new(hash(data));
    let mut parser = Parser::new_fragment(&context, &options).expect("accepted above");
    let mut rest = html.as_ref();
    while !rest.is_empty() {
        let mut end = rng.chunk_len(64).min(rest.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        parser.write_str(&rest[..end]);
        rest = &rest[end..];
    }
    let streamed = parser.finish();
    same_outcome(&frag, &streamed, false, "fragment, text chunks");

    let mut parser = Parser::new_fragment(&context, &options).expect("accepted above");
    let mut rest = html.as_bytes();
    while !rest.is_empty() {
        let (chunk, tail) = rest.split_at(rng.chunk_len(64).min(rest.len()));
        parser.write(chunk).expect("no labels given");
        rest = tail;
    }
    let streamed = parser.finish();
    same_outcome(&frag, &streamed, false, "fragment, byte chunks");
}

// ---------------------------------------------------------------------------------------------
// Target: chunking.

/// Fixed (found by the `chunking` target): characters the tokenizer held back at a chunk
/// boundary (a `<` that starts no tag, a failed character reference) were not marked as
/// verbatim input, so per-character errors all got the run's start offset: `<table>a< b` as
/// `<table>a<` + ` b` gave foster-parented-content at 7, 7, 7, 7 instead of 7, 8, 9, 10. Kept
/// as a switch: while true, those errors' positions are not compared.
pub const KNOWN_CHAR_OFFSET_BUG: bool = false;

/// Fixed (found by the `chunking` target): two errors at one offset came in an order that
/// depended on the chunking (`&#1;\u{1}` against `&#1;` + `\u{1}`); the input stream's
/// errors now come first at any offset. Kept as a switch: while true, errors at one offset
/// are compared in any order.
pub const KNOWN_TIE_ORDER_BUG: bool = false;

/// Documented behaviour, not a bug (found by the `chunking` target): a streamed parse counts
/// the input written so far against the node budget and stops after the token that crossed
/// it, so where it stops depends on the chunk boundaries (`ParseOptions::max_nodes` says so).
/// While true, only whether the limit was hit and the source (the whole input either way) are
/// compared when it was.
pub const KNOWN_LIMIT_BUG: bool = true;

/// Everything that must not depend on the chunking: tree, errors, encoding, confidence,
/// decoded text, limit, quirks mode (and source spans when recorded).
fn same_outcome(whole: &Document, streamed: &Document, spans: bool, what: &str) {
    assert_eq!(
        (whole.encoding().name(), whole.encoding_confidence()),
        (streamed.encoding().name(), streamed.encoding_confidence()),
        "{what}: encoding differs"
    );
    if KNOWN_LIMIT_BUG && whole.limit_hit().is_some() {
        // Only whether the limit was hit, and the source, are compared (see the constant).
        assert_eq!(whole.limit_hit(), streamed.limit_hit(), "{what}: limit");
        assert!(
            whole.source() == streamed.source(),
            "{what}: decoded text differs after a limit"
        );
        return;
    }
    assert!(
        whole.source() == streamed.source(),
        "{what}: decoded text differs"
    );
    if let Err(diff) = compare_trees(whole, streamed, spans) {
        panic!("{what}: tree differs: {diff}");
    }
    if KNOWN_CHAR_OFFSET_BUG {
        // Per-character tree errors: codes and details, not positions (see the constant). The
        // other errors: exactly, in order.
        let per_char = |e: &&html_arena::ParseError| {
            matches!(
                e.code,
                html_arena::ErrorCode::FosterParentedContent
                    | html_arena::ErrorCode::UnexpectedCharacter
            )
        };
        let unplaced = |d: &Document| {
            let mut list: Vec<String> = d
                .errors()
                .iter()
                .filter(per_char)
                .map(|e| format!("{:?} {:?}", e.code, e.detail))
                .collect();
            list.sort();
            list
        };
        // Errors at one offset: in any order while `KNOWN_TIE_ORDER_BUG` (see there).
        let others = |d: &Document| -> Vec<(usize, String)> {
            let mut list: Vec<(usize, String)> = d
                .errors()
                .iter()
                .filter(|e| !per_char(e))
                .enumerate()
                .map(|(i, e)| {
                    let rank = if KNOWN_TIE_ORDER_BUG { e.offset } else { i };
                    (rank, format!("{e:?}"))
                })
                .collect();
            list.sort();
            list
        };
        assert_eq!(unplaced(whole), unplaced(streamed), "{what}: errors differ");
        assert_eq!(others(whole), others(streamed), "{what}: errors differ");
    } else {
        assert_eq!(whole.errors(), streamed.errors(), "{what}: errors differ");
    }
    assert_eq!(
        whole.error_count(),
        streamed.error_count(),
        "{what}: error counts differ"
    );
    assert_eq!(whole.limit_hit(), streamed.limit_hit(), "{what}: limit");
    assert_eq!(
        whole.quirks_mode(),
        streamed.quirks_mode(),
        "{what}: quirks"
    );
}

/// The options a flags byte picks (shared by `chunking`).
fn chunking_options(flags: u8, extra: u8) -> ParseOptions {
    let mut options = ParseOptions::default().with_scripting(flags & 1 != 0);
    options.source_positions = flags & 2 != 0;
    if flags & 4 != 0 {
        options.max_errors = usize::from(extra % 8);
    }
    match (flags >> 3) & 3 {
        1 => options = options.with_fallback_encoding("utf-8"),
        2 => options = options.with_fallback_encoding("shift_jis"),
        3 => options = options.with_transport_encoding(LABELS[usize::from(extra) % 12]),
        _ => {}
    }
    options = options.with_detect_encoding(flags & 0x20 != 0);
    if flags & 0x40 != 0 {
        options = options.with_max_nodes(8 + usize::from(extra) * 4);
    }
    if flags & 0x80 != 0 {
        options = options.with_max_depth(4 + usize::from(extra % 32));
    }
    options
}

/// `data[0]` picks options, `data[1]` a parameter, the rest is the document. Written to a
/// [`Parser`] in chunks (bytes split anywhere, text on char boundaries; lengths from the
/// input's hash), it must give what `parse_bytes` / `parse_with` give in one go.
pub fn chunking(data: &[u8]) {
    if data.len() < 2 || data.len() > MAX_INPUT {
        return;
    }
    let (flags, extra, input) = (data[0], data[1], &data[2..]);
    let options = chunking_options(flags, extra);
    let spans = options.source_positions;
    let mut rng = Rng::new(hash(data));

    let whole = Document::parse_bytes(input, &options).expect("known labels");
    for (round, max) in [(0, 16), (1, 1024), (2, input.len())] {
        let mut parser = Parser::new(&options);
        // Bytes from the start, even for an empty input (a parser given nothing is a text
        // parser: UTF-8, irrelevant).
        parser.write(&[]).expect("known labels");
        let mut rest = input;
        while !rest.is_empty() {
            let (chunk, tail) = rest.split_at(rng.chunk_len(max).min(rest.len()));
            parser.write(chunk).expect("known labels");
            rest = tail;
        }
        let streamed = parser.finish();
        same_outcome(
            &whole,
            &streamed,
            spans,
            &format!("bytes, chunking {round}"),
        );
    }
    if flags & 0x07 == 0 {
        // Also one byte at a time (the hardest case for the sniffer's holding back).
        let mut parser = Parser::new(&options);
        parser.write(&[]).expect("known labels");
        for b in input {
            parser.write(std::slice::from_ref(b)).expect("known labels");
        }
        same_outcome(&whole, &parser.finish(), spans, "bytes, one at a time");
    }

    let text = String::from_utf8_lossy(input);
    let whole = Document::parse_with(&text, &options);
    assert_eq!(whole.encoding_confidence(), Confidence::Irrelevant);
    for (round, max) in [(0, 16), (1, 1024)] {
        let mut parser = Parser::new(&options);
        let mut rest = text.as_ref();
        while !rest.is_empty() {
            let mut end = rng.chunk_len(max).min(rest.len());
            while !rest.is_char_boundary(end) {
                end += 1;
            }
            parser.write_str(&rest[..end]);
            rest = &rest[end..];
        }
        let streamed = parser.finish();
        same_outcome(&whole, &streamed, spans, &format!("text, chunking {round}"));
    }
}

// ---------------------------------------------------------------------------------------------
// Target: round_trip.

/// 13.3's unsurvivable shapes, as `tests/round_trip.rs` classifies them: an `<plaintext>`.
pub const PLAINTEXT: &str =
    "nothing can end a <plaintext> element: its end tag and what follows become its text";

/// Not in `tests/round_trip.rs`: the serialized DOCTYPE sets another quirks mode.
pub const QUIRKS_LOST: &str = "the serialized DOCTYPE (its name only) gives another quirks mode than the one the original DOCTYPE set (a force-quirks DOCTYPE such as <!DOCTYPE html x> becomes <!DOCTYPE html>)";

/// Not in `tests/round_trip.rs`: HTML elements at the top of a fragment parsed in a foreign
/// context.
pub const FOREIGN_CONTEXT: &str = "in an svg or math fragment context (not an integration point), a top-level HTML element that is not a breakout tag was HTML only because an HTML element was open when it started; reparsed at the top level it becomes foreign";

/// The start tags that break out of foreign content (13.2.6.5), `font` aside.
const BREAKOUT: &[&str] = &[
    "b",
    "big",
    "blockquote",
    "body",
    "br",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "hr",
    "i",
    "img",
    "li",
    "listing",
    "menu",
    "meta",
    "nobr",
    "ol",
    "p",
    "pre",
    "ruby",
    "s",
    "small",
    "span",
    "strong",
    "strike",
    "sub",
    "sup",
    "table",
    "tt",
    "u",
    "ul",
    "var",
];

/// Whether the document is a fragment in a foreign context that is no integration point and
/// has a top-level HTML element that a start tag there would not make HTML.
fn html_in_foreign_context(doc: &Document) -> bool {
    let integration_point = match doc.fragment_context() {
        None | Some((Namespace::Html, _)) => return false,
        Some((Namespace::Svg, name)) => matches!(name, "foreignObject" | "desc" | "title"),
        Some((Namespace::MathMl, name)) => matches!(name, "mi" | "mo" | "mn" | "ms" | "mtext"),
        // (XML documents only; the HTML parser's fragments never have these contexts.)
        Some((Namespace::None | Namespace::Other(_), _)) => return false,
    };
    !integration_point
        && doc.root().element_children().any(|e| {
            e.namespace() == Namespace::Html
                && !BREAKOUT.contains(&e.local_name())
                && !(e.local_name() == "font"
                    && ["color", "face", "size"].iter().any(|a| e.has_attr(a)))
        })
}

/// Not in `tests/round_trip.rs`: more nestings the parser never builds from markup.
pub const NESTED_LIST_ITEMS: &str = "an li in an li, a dd or dt in a dd or dt, a button in a button, or a heading right in a heading (made by foster parenting, e.g. <dt><table><dd>): the inner start tag closes the outer element on reparsing";

/// Not in `tests/round_trip.rs` in general form: foster parenting puts any element before the
/// table, inside whatever holds the table, e.g. a `dt` or `div` in a `p`.
pub const FOSTER_PARENTED: &str = "foster parenting put content into an element (before a table) that its start tag would close on reparsing, e.g. <p>x<table><dt>, <p><table><div>, <select><table><input>";

/// Not in `tests/round_trip.rs` in general form (it has p in p and table in p): inside a p,
/// an element whose start tag closes an open p.
pub const IN_P: &str = "inside a p, an element whose start tag closes an open p (made by foster parenting, e.g. <p><table><dt> in quirks mode)";

/// Start tags that "close a p element" (13.2.6.4.7), besides p and table.
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "header",
    "hgroup",
    "main",
    "menu",
    "nav",
    "ol",
    "search",
    "section",
    "summary",
    "ul",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "pre",
    "listing",
    "form",
    "li",
    "dd",
    "dt",
    "plaintext",
    "hr",
    "xmp",
];

/// From `tests/round_trip.rs`: unclosable raw text (e.g. script text ending inside
/// `<!--<script>`). Like `<plaintext>`, it is not a fixed point after one round (this target
/// found `<script><!--<script></script>...` changing again in the second round).
pub const RAW_TEXT: &str = "raw text that its own end tag cannot close when reparsed (e.g. script text ending inside <!--<script>)";

/// Every reason from `tests/round_trip.rs`'s `known_unstable` that applies to the document
/// (linear: ancestor tests use counters along one walk instead of walking up per element),
/// plus one that test lacks (found by this target): the quirks mode the reparse of the
/// serialization (`reparsed`) ends up in differs, since a DOCTYPE that forced quirks mode
/// (`<!DOCTYPE html x>`, `<!DOCTYPE html "x">`) is written as `<!DOCTYPE html>`.
pub fn known_unstable(doc: &Document, reparsed: &Document) -> Vec<&'static str> {
    let mut reasons = Vec::new();
    if doc.quirks_mode() != reparsed.quirks_mode() {
        reasons.push(QUIRKS_LOST);
    }
    if html_in_foreign_context(doc) {
        reasons.push(FOREIGN_CONTEXT);
    }
    let foster_parented_text = doc
        .errors()
        .iter()
        .any(|e| e.code == html_arena::ErrorCode::FosterParentedContent);
    // Foster-parented elements give only unexpected-start-tag errors: look for a table with
    // something before it instead.
    let table_after_something = all_nodes(doc).iter().any(|n| {
        n.as_element()
            .is_some_and(|e| e.is_html(local_name::TABLE) && n.prev_sibling().is_some())
    });
    if foster_parented_text || table_after_something {
        reasons.push(FOSTER_PARENTED);
    }
    let scripting = doc.scripting();
    let quirks = doc.quirks_mode() == QuirksMode::Quirks;
    let mut roots = vec![doc.root()];
    while let Some(root) = roots.pop() {
        // Open HTML a, nobr, form, p ancestors on the current path (the test's cases), and li,
        // dd or dt, button (found by this target: foster parenting nests them too).
        let mut open = [0usize; 7];
        let tracked = |e: ElementRef<'_>| -> Option<usize> {
            if e.namespace() != Namespace::Html {
                return None;
            }
            match e.local_name() {
                "a" => Some(0),
                "nobr" => Some(1),
                "form" => Some(2),
                "p" => Some(3),
                "li" => Some(4),
                "dd" | "dt" => Some(5),
                "button" => Some(6),
                _ => None,
            }
        };
        let heading = |e: ElementRef<'_>| {
            e.namespace() == Namespace::Html
                && matches!(e.local_name(), "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
        };
        for edge in root.traverse() {
            let node = match edge {
                html_arena::dom::Edge::Open(n) => n,
                html_arena::dom::Edge::Close(n) => {
                    if let Some(i) = n.as_element().and_then(tracked) {
                        open[i] -= 1;
                    }
                    continue;
                }
            };
            match node.kind() {
                NodeKind::Doctype {
                    public_id,
                    system_id,
                    ..
                } if !public_id.is_empty() || !system_id.is_empty() => {
                    reasons.push("DOCTYPE identifiers are not serialized");
                }
                NodeKind::Text(t) if t.contains('\r') => reasons.push("a CR in text"),
                NodeKind::Element(e) => {
                    if let Some(contents) = e.template_contents() {
                        roots.push(contents);
                    }
                    if e.attrs().any(|a| a.value.contains('\r')) {
                        reasons.push("a CR in an attribute value");
                    }
                    if e.is_html(local_name::PLAINTEXT) {
                        reasons.push(PLAINTEXT);
                    }
                    if (e.is_html(local_name::PRE)
                        || e.is_html(local_name::TEXTAREA)
                        || e.is_html(local_name::LISTING))
                        && e.first_child()
                            .and_then(|c| c.as_text())
                            .is_some_and(|t| t.starts_with('\n'))
                    {
                        reasons.push("a leading newline in pre, textarea or listing");
                    }
                    if raw_text_unclosable(e, scripting) {
                        reasons.push(RAW_TEXT);
                    }
                    if let Some(i) = tracked(e) {
                        if open[i] > 0 {
                            reasons.push(if i < 4 {
                                "an a, nobr, form or p inside another"
                            } else {
                                NESTED_LIST_ITEMS
                            });
                        }
                        open[i] += 1;
                    }
                    if open[3] > 0
                        && e.namespace() == Namespace::Html
                        && CLOSES_P.contains(&e.local_name())
                    {
                        reasons.push(IN_P);
                    }
                    if heading(e) && e.parent_element().is_some_and(heading) {
                        reasons.push(NESTED_LIST_ITEMS);
                    }
                    if e.is_html(local_name::TABLE)
                        && e.parent_element().is_some_and(|p| p.is_html(local_name::P))
                        && !quirks
                    {
                        reasons.push("a table in a p outside quirks mode");
                    }
                }
                _ => {}
            }
        }
    }
    reasons
}

/// Raw text whose end tag would not end it when reparsed (from `tests/round_trip.rs`).
fn raw_text_unclosable(e: ElementRef<'_>, scripting: bool) -> bool {
    if e.namespace() != Namespace::Html {
        return false;
    }
    let state = match e.local_name() {
        "script" => State::ScriptData,
        "style" | "xmp" | "iframe" | "noembed" | "noframes" => State::Rawtext,
        "noscript" if scripting => State::Rawtext,
        _ => return false,
    };
    let markup = format!("{}</{}>", e.text(), e.local_name());
    struct Sink(Vec<String>);
    impl TokenSink for Sink {
        fn process_token(&mut self, token: Token<'_>) -> TokenSinkResult {
            match token {
                Token::Characters { .. } | Token::NullCharacter { .. } | Token::Eof { .. } => {}
                Token::EndTag(t) => self.0.push(format!("</{}>", t.name())),
                other => self.0.push(format!("{other:?}")),
            }
            TokenSinkResult::Continue
        }
    }
    let mut tokenizer = Tokenizer::new();
    tokenizer.set_state(state);
    tokenizer.set_last_start_tag(Some(e.local_name()));
    let mut sink = Sink(Vec::new());
    tokenizer.feed_all(&markup, &mut sink);
    sink.0 != [format!("</{}>", e.local_name())]
}

/// `data[0]`: scripting (bit 0), fragment or document (bit 1), the context (the rest). The
/// rest is the input. Parse → serialize → parse → serialize → parse → serialize:
///
/// - `is_round_trip_stable()` says whether the reparsed tree is the same (adjacent text nodes
///   joined), and then it is the same node for node (as `tests/round_trip.rs` compares
///   `dump_tree`s), and serializing it again gives the same text;
/// - a tree that is not stable has one of the reasons `tests/round_trip.rs` knows, or one of
///   the reasons this target found that it lacks (see [`known_unstable`]).
pub fn round_trip(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if data.len() > MAX_INPUT {
        return;
    }
    let scripting = mode & 1 != 0;
    let context = (mode & 2 != 0).then(|| CONTEXTS[usize::from(mode >> 2) % CONTEXTS.len()]);
    let options = ParseOptions::default().with_scripting(scripting);
    let input = String::from_utf8_lossy(rest);

    let doc = parse(&input, context, &options);
    if doc.limit_hit().is_some() {
        // A tree cut short by the node budget is not what its serialization parses to.
        return;
    }
    let html1 = doc.html();
    let doc2 = parse(&html1, context, &options);
    let html2 = doc2.html();
    let doc3 = parse(&html2, context, &options);
    let html3 = doc3.html();

    let stable = same_tree_merged(doc.root(), doc2.root());
    assert_eq!(
        doc.is_round_trip_stable(),
        stable,
        "is_round_trip_stable disagrees with a reparse"
    );
    if stable {
        if let Err(diff) = compare_trees(&doc, &doc2, false) {
            panic!("stable, but the reparsed tree differs node for node: {diff}");
        }
        assert_eq!(html1, html2, "stable, but the serialization changed");
        assert!(
            doc2.is_round_trip_stable(),
            "the reparsed tree is not stable"
        );
        assert_eq!(html2, html3, "stable, but the second round changed");
    } else {
        let reasons = known_unstable(&doc, &doc2);
        assert!(
            !reasons.is_empty(),
            "not round-trip stable, and no known reason applies\nserialized: {html1:?}\nreparsed: {html2:?}"
        );
        // `tests/round_trip.rs` also asserts that a second round changes nothing (except with
        // <plaintext>): true of its corpus, not in general (this target found unclosable
        // script text and the adoption agency's nested <a>s changing again), so not asserted.
        let _ = (html2, html3);
    }
}

// ---------------------------------------------------------------------------------------------
// Target: selectors.

/// The document the `selectors` target matches against when the input holds none.
pub const SAMPLE_DOCUMENT: &str = "<!DOCTYPE html><html lang=en><head><title>T</title>\
    <style>p{}</style></head><body><div id=main class='a b'><p class=x>One <b>two</b>\
    <a href=/x>link</a></p><ul><li>1<li class=x>2<li><input type=checkbox checked disabled>\
    </ul><table><tr><td>c<td lang=fr>d</table><form><select><option selected>o\
    <option>p</select><textarea required></textarea><fieldset disabled><input></fieldset>\
    </form><svg><rect x=1 /><foreignObject><p>f</p></foreignObject></svg><math><mi>m</mi>\
    </math><template><p>t</template><details open><summary>s</summary>d</details>\
    <p hidden>h</p><p>";

/// Elements of the tree (not template contents), in document order.
fn elements(doc: &Document) -> Vec<ElementRef<'_>> {
    doc.root()
        .descendants()
        .filter_map(NodeRef::as_element)
        .collect()
}

/// Results of a query: in document order (strictly increasing positions), each once.
fn assert_document_order(results: &[ElementRef<'_>], order: &HashMap<NodeId, usize>, what: &str) {
    let mut last = None;
    for e in results {
        let pos = *order
            .get(&e.node_id())
            .unwrap_or_else(|| panic!("{what}: a result outside the tree: {e:?}"));
        assert!(
            last.is_none_or(|l| l < pos),
            "{what}: results out of document order or repeated"
        );
        last = Some(pos);
    }
}

/// Checks one selector against one document.
pub fn check_selector(doc: &Document, sel: &Selector) {
    let all = elements(doc);
    let order: HashMap<NodeId, usize> = all
        .iter()
        .enumerate()
        .map(|(i, e)| (e.node_id(), i))
        .collect();
    let selected: Vec<ElementRef<'_>> = doc.select(sel).collect();
    assert_document_order(&selected, &order, "Document::select");
    assert_eq!(doc.select_first(sel), selected.first().copied());

    // `:scope` and `&` are the document element for `Document::select` but the element
    // itself for `matches`; without them, select is matches over every element.
    let serialized = sel.to_string();
    let scoped = serialized.contains("scope") || serialized.contains('&');
    if !scoped {
        let filtered: Vec<ElementRef<'_>> =
            all.iter().copied().filter(|e| e.matches(sel)).collect();
        assert!(
            selected == filtered,
            "select and matches disagree: {} vs {} elements",
            selected.len(),
            filtered.len()
        );
    }

    // A few elements: their own select, closest.
    let picks: Vec<ElementRef<'_>> = [0, 1, all.len() / 2, all.len().saturating_sub(1)]
        .into_iter()
        .filter_map(|i| all.get(i).copied())
        .chain(doc.body())
        .chain(selected.last().copied())
        .collect();
    for e in picks {
        let within: Vec<ElementRef<'_>> = e.select(sel).collect();
        assert_document_order(&within, &order, "ElementRef::select");
        for r in &within {
            assert!(e.is_ancestor_of(r.as_node()) && *r != e, "not a descendant");
        }
        if !scoped {
            let filtered: Vec<ElementRef<'_>> = e
                .descendants()
                .filter_map(NodeRef::as_element)
                .filter(|d| d.matches(sel))
                .collect();
            assert!(
                within == filtered,
                "ElementRef::select and matches disagree"
            );
            let expected = std::iter::once(e)
                .chain(e.ancestors().filter_map(NodeRef::as_element))
                .find(|a| a.matches(sel));
            assert_eq!(e.closest(sel), expected, "closest");
        } else {
            let _ = e.closest(sel);
        }
    }
}

/// Up to the first NUL: a selector; after it, a document (or [`SAMPLE_DOCUMENT`]). Parsing
/// the selector is `Ok` or `Err`, never a panic; a parsed one queries consistently, and its
/// serialization parses to a selector that selects the same.
pub fn selectors(data: &[u8]) {
    if data.len() > MAX_INPUT {
        return;
    }
    let (sel_bytes, html) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], String::from_utf8_lossy(&data[i + 1..])),
        None => (data, Cow::Borrowed(SAMPLE_DOCUMENT)),
    };
    let text = String::from_utf8_lossy(sel_bytes);
    let namespaced = Selector::parse_with_namespaces(
        &text,
        &[
            ("svg", "http://www.w3.org/2000/svg"),
            ("m", "http://www.w3.org/1998/Math/MathML"),
            ("", "http://www.w3.org/1999/xhtml"),
        ],
    );
    let sel = match Selector::parse(&text) {
        Ok(sel) => sel,
        Err(err) => {
            assert!(!err.to_string().is_empty());
            assert!(err.offset() <= text.len(), "error offset past the end");
            let _ = (err.text(), err.kind());
            if let Ok(sel) = namespaced {
                let doc = Document::parse(&html);
                check_selector(&doc, &sel);
            }
            return;
        }
    };
    assert_eq!(sel.as_str(), text);
    let doc = Document::parse(&html);
    check_selector(&doc, &sel);

    // CSSOM serialization parses back to an equivalent selector. Not for selectors with a
    // forgiving `:is()` / `:where()`: the `selectors` crate writes the unparsed text of their
    // invalid arguments as is, unbalanced brackets included, so the serialization may not
    // parse or may serialize differently (`:is(pnot(.x!` gives `:is(pnot(.x!)`, then
    // `:is(pnot(.x!))`; `:is(p, [x!)` gives text with an open `[`), found by this target.
    let serialized = sel.to_string();
    if serialized.contains("is(") || serialized.contains("where(") {
        return;
    }
    let again = Selector::parse(&serialized)
        .unwrap_or_else(|e| panic!("serialization {serialized:?} does not parse: {e}"));
    assert_eq!(again.to_string(), serialized, "serialization is not stable");
    assert!(
        doc.select(&sel).eq(doc.select(&again)),
        "the serialization {serialized:?} selects something else"
    );
}

// ---------------------------------------------------------------------------------------------
// Target: sniffing.

/// An option label: from [`LABELS`], or (index 15) taken from the input.
fn pick_label(choice: u8, from_input: &str) -> Option<&str> {
    match choice & 0x1f {
        c @ 0..=15 => Some(if c == 15 {
            from_input
        } else {
            LABELS[usize::from(c)]
        }),
        _ => None,
    }
}

/// `data[0..3]` pick the override, transport and fallback labels (or none) and detection; a
/// label "from the input" is `data[3..]` up to a newline. The body is everything after the
/// first newline (or all of `data`). Every sniffing function works on any input, `sniff`
/// follows its documented order of precedence, and `parse_bytes` with those labels decodes
/// with the encoding it must.
pub fn sniffing(data: &[u8]) {
    if data.len() > MAX_INPUT {
        return;
    }
    // The pieces, on the raw bytes and as text.
    let prescanned = encoding::prescan(data);
    if let Some(e) = prescanned {
        assert_known_encoding(e);
    }
    assert_eq!(
        prescanned,
        encoding::prescan(&data[..data.len().min(PRESCAN_LIMIT)]),
        "the prescan looked past PRESCAN_LIMIT"
    );
    if let Some((e, len)) = encoding::bom_sniff(data) {
        assert!(matches!(len, 2 | 3) && data.len() >= len);
        assert_eq!(Encoding::for_bom(data), Some((e, len)));
    } else {
        assert!(Encoding::for_bom(data).is_none());
    }
    let text = String::from_utf8_lossy(data);
    let charset = encoding::charset_from_content_type(&text);
    assert_eq!(
        encoding::encoding_from_content_type(&text),
        charset.as_deref().and_then(encoding::get_an_encoding),
        "encoding_from_content_type is not get_an_encoding(charset_from_content_type)"
    );
    if let Some(e) = encoding::extract_encoding_from_meta_content(&text) {
        assert_known_encoding(e);
    }
    let declared = encoding::encoding_declared_by_meta(Some(&text), None, None);
    assert_eq!(declared, encoding::get_an_encoding(&text));
    let _ = encoding::encoding_declared_by_meta(None, Some("Content-Type"), Some(&text));
    assert_known_encoding(encoding::default_encoding_for_locale(&text));
    if let Some(new) = encoding::get_an_encoding(&text) {
        for current in [encoding_rs::WINDOWS_1252, encoding_rs::UTF_16LE, new] {
            match encoding::change_the_encoding(current, new) {
                EncodingChange::Restart(e) => {
                    assert_ne!(e, current);
                    assert!(e != encoding_rs::UTF_16BE && e != encoding_rs::UTF_16LE);
                    assert_ne!(e, encoding_rs::X_USER_DEFINED);
                }
                EncodingChange::KeepCurrent => {}
                _ => {}
            }
            let _ = encoding::can_change_on_the_fly(data, current, new);
        }
    }

    // `sniff` with options picked by the first bytes.
    let (controls, body) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, data),
    };
    let control = |i: usize| controls.get(i).copied().unwrap_or(0xff);
    let from_input = String::from_utf8_lossy(controls.get(3..).unwrap_or_default());
    let user_override = pick_label(control(0), &from_input);
    let transport = pick_label(control(1), &from_input);
    let fallback = pick_label(control(2), &from_input);
    let detect = control(0) & 0x20 != 0;
    let mut options = SniffOptions::new();
    options.user_override = user_override.map(Into::into);
    options.transport = transport.map(Into::into);
    options.fallback = fallback.map(Into::into);
    options.detect = detect;
    let resolve = |label: Option<&str>| label.map(encoding::get_an_encoding);
    let (o, t, f) = (
        resolve(user_override),
        resolve(transport),
        resolve(fallback),
    );
    let unknown = [o, t, f].iter().any(|e| matches!(e, Some(None)));
    let sniffed = encoding::sniff(body, &options);
    let sniffed = match sniffed {
        Err(err) => {
            assert!(unknown, "sniff failed with known labels: {err}");
            assert!(!err.to_string().is_empty());
            let mut parse_options = ParseOptions::default();
            parse_options.override_encoding = user_override.map(str::to_owned);
            parse_options.transport_encoding = transport.map(str::to_owned);
            parse_options.fallback_encoding = fallback.map(str::to_owned);
            assert!(Document::parse_bytes(body, &parse_options).is_err());
            assert!(Parser::new(&parse_options).write(body).is_err());
            return;
        }
        Ok(s) => s,
    };
    assert!(!unknown, "sniff accepted an unknown label");
    assert_known_encoding(sniffed.encoding);
    let (o, t, f) = (o.flatten(), t.flatten(), f.flatten());
    if let Some((e, len)) = encoding::bom_sniff(body) {
        assert_eq!(
            (
                sniffed.encoding,
                sniffed.confidence,
                sniffed.bom_len,
                sniffed.source
            ),
            (e, Confidence::Certain, len, EncodingSource::Bom)
        );
    } else if let Some(e) = o {
        assert_eq!(
            (
                sniffed.encoding,
                sniffed.confidence,
                sniffed.bom_len,
                sniffed.source
            ),
            (e, Confidence::Certain, 0, EncodingSource::UserOverride)
        );
    } else if let Some(e) = t {
        assert_eq!(
            (
                sniffed.encoding,
                sniffed.confidence,
                sniffed.bom_len,
                sniffed.source
            ),
            (e, Confidence::Certain, 0, EncodingSource::Transport)
        );
    } else if let Some(e) = encoding::prescan(body) {
        assert_eq!(
            (
                sniffed.encoding,
                sniffed.confidence,
                sniffed.bom_len,
                sniffed.source
            ),
            (e, Confidence::Tentative, 0, EncodingSource::Prescan)
        );
    } else {
        assert_eq!(
            (sniffed.confidence, sniffed.bom_len),
            (Confidence::Tentative, 0)
        );
        let default = f.unwrap_or(encoding_rs::WINDOWS_1252);
        if sniffed.source == EncodingSource::Detection {
            assert!(detect);
            assert!(!body.is_ascii(), "a guess for all-ASCII input");
            assert_ne!(sniffed.encoding, encoding_rs::ISO_2022_JP);
        } else {
            assert_eq!(
                (sniffed.encoding, sniffed.source),
                (default, EncodingSource::Default)
            );
        }
    }

    // parse_bytes with the same labels: a certain sniff stays; a tentative one may change
    // once, to an encoding a <meta> can name (never UTF-16 or x-user-defined).
    let mut parse_options = ParseOptions::default();
    parse_options.override_encoding = user_override.map(str::to_owned);
    parse_options.transport_encoding = transport.map(str::to_owned);
    parse_options.fallback_encoding = fallback.map(str::to_owned);
    parse_options.detect_encoding = detect;
    let doc = Document::parse_bytes(body, &parse_options).expect("known labels");
    assert_known_encoding(doc.encoding());
    if sniffed.confidence == Confidence::Certain {
        assert_eq!(
            (doc.encoding(), doc.encoding_confidence()),
            (sniffed.encoding, Confidence::Certain)
        );
    } else if doc.encoding() != sniffed.encoding {
        assert_eq!(doc.encoding_confidence(), Confidence::Certain);
        let e = doc.encoding();
        assert!(e != encoding_rs::UTF_16BE && e != encoding_rs::UTF_16LE);
        assert_ne!(e, encoding_rs::X_USER_DEFINED);
    } else {
        assert_ne!(doc.encoding_confidence(), Confidence::Irrelevant);
    }
    // A transport label found in the input itself, as a server might send it.
    if let Some(charset) = charset {
        let options = ParseOptions::default().with_transport_encoding(charset.as_ref());
        match Document::parse_bytes(body, &options) {
            Ok(doc) => {
                let expected = encoding::bom_sniff(body)
                    .map(|(e, _)| e)
                    .or_else(|| encoding::get_an_encoding(&charset))
                    .expect("a known label");
                assert_eq!(doc.encoding(), expected);
                assert_eq!(doc.encoding_confidence(), Confidence::Certain);
            }
            Err(_) => assert!(encoding::get_an_encoding(&charset).is_none()),
        }
    }
}

// ------------------------------------------------------------------------------------------
// streaming

/// The selectors the `streaming` target reads documents back with.
const STREAMING_SELECTORS: &[&str] = &["p[title]", ":nth-child(odd)", "svg text, [b]", "*"];

/// Everything a reader gets out of a document: serialization, text, rendered text, selector
/// matches, the tree dump (a bounded prefix), errors and error count, every source span.
fn outputs(doc: &Document, selectors: &[Selector]) -> Vec<String> {
    let mut out = vec![
        doc.html(),
        doc.root().text(),
        doc.root().rendered_text(),
        doc.dump_tree_prefix(64 * 1024).0,
        format!("{:?} {}", doc.errors(), doc.error_count()),
    ];
    for sel in selectors {
        let matches: Vec<NodeId> = doc.select(sel).map(|e| e.node_id()).collect();
        out.push(format!("{} matches", matches.len()));
    }
    let mut spans = String::new();
    for node in all_nodes(doc) {
        let end = node.as_element().and_then(|e| e.end_tag_span());
        spans.push_str(&format!("{:?}{:?};", node.source_span(), end));
    }
    out.push(spans);
    out
}

/// Writes `input` to a parser in chunks of random sizes: as text on char boundaries, or as
/// bytes (behind a byte order mark, so they decode as the text does) anywhere.
fn write_in_chunks(
    input: &str,
    options: &ParseOptions,
    rng: &mut Rng,
    max: usize,
    bytes: bool,
) -> Document {
    let mut parser = Parser::new(options);
    if bytes {
        parser.write(b"\xef\xbb\xbf").expect("no labels");
        let mut rest = input.as_bytes();
        while !rest.is_empty() {
            let (chunk, tail) = rest.split_at(rng.chunk_len(max).min(rest.len()));
            parser.write(chunk).expect("no labels");
            rest = tail;
        }
    } else {
        let mut rest = input;
        while !rest.is_empty() {
            let mut end = rng.chunk_len(max).min(rest.len());
            while !rest.is_char_boundary(end) {
                end += 1;
            }
            parser.write_str(&rest[..end]);
            rest = &rest[end..];
        }
    }
    parser.finish()
}

/// The `streaming` target: byte 0 picks the options (scripting, source positions), the most
/// bytes per chunk and a repetition (bits 4..8: the rest of the input is repeated up to 2^k
/// times, so that small inputs become floods); the rest is the document. Whole, as text in
/// random chunks and as bytes in random chunks, it gives the same tree (with the same source
/// spans), quirks mode, errors and outputs through every reader. (The encoding differs by
/// design: text is UTF-8 with the confidence irrelevant, the bytes' BOM makes it certain.)
pub fn streaming(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let times = 1usize << (flags >> 4).min(12);
    if rest.len().saturating_mul(times) > MAX_INPUT {
        return;
    }
    let input = String::from_utf8_lossy(rest).repeat(times);
    let mut options = ParseOptions::default().with_scripting(flags & 1 != 0);
    options.source_positions = flags & 2 != 0;
    let max = [1, 16, 1024, 8192][usize::from((flags >> 2) & 3)];
    let selectors: Vec<Selector> = STREAMING_SELECTORS
        .iter()
        .map(|s| Selector::parse(s).expect("valid selector"))
        .collect();
    let whole = Document::parse_with(&input, &options);
    if KNOWN_LIMIT_BUG && whole.limit_hit().is_some() {
        // Where a streamed parse stops depends on the chunking (see the constant).
        return;
    }
    let expected = outputs(&whole, &selectors);
    let mut rng = Rng::new(hash(data));
    for bytes in [false, true] {
        let streamed = write_in_chunks(&input, &options, &mut rng, max, bytes);
        let what = if bytes { "bytes" } else { "text" };
        if let Err(diff) = compare_trees(&whole, &streamed, options.source_positions) {
            panic!("{what}: tree differs: {diff}");
        }
        assert_eq!(
            whole.quirks_mode(),
            streamed.quirks_mode(),
            "{what}: quirks"
        );
        let got = outputs(&streamed, &selectors);
        for (i, (a, b)) in expected.iter().zip(&got).enumerate() {
            assert!(a == b, "{what}: output {i} differs");
        }
    }
}
