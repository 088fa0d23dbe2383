//! Regression tests for the two quadratic paths of issue 14, at a size CI runs in moments.
//! They assert structure (trees, values, serializations), never time: the growth itself is
//! measured by `benches/growth_matrix.rs`, and the unit tests of `src/serialize/escape.rs` and
//! `src/tokenizer/token.rs` count the work (bytes scanned, attributes looked at per chunk).
//!
//! 1. Floods of characters the serializer escapes, or that share U+00A0's first UTF-8 byte,
//!    or quotes, in every context that keeps text: the tree is right through every input
//!    path, the serialization holds the right escapes, and it parses back to the same tree.
//! 2. One start tag with very many attributes (duplicates or distinct, with values, split
//!    anywhere by chunk boundaries): the attributes are right through every input path.

mod common;

use html_arena::dom::compare::{CompareOptions, first_difference};
use html_arena::{Document, ErrorCode, NodeKind, NodeRef, ParseOptions, Parser, Selector};

/// Units per flood (and attributes per tag): big enough that a quadratic path would be many
/// times slower than the rest of the suite, small enough for debug builds.
const N: usize = 20_000;

/// Units per flood in the test of every context and unit (there are 150 of them, each through
/// six input paths).
const FLOOD: usize = 5_000;

/// How a context keeps its text.
#[derive(Copy, Clone, PartialEq, Debug)]
enum Kind {
    /// Text, escaped when serialized.
    Text,
    /// The `title` attribute of the first `p`.
    Attr,
    /// Raw text (script, style, plaintext): serialized as is.
    Raw,
    /// A comment's data, serialized as is.
    Comment,
}

/// (name, before, after, character references decoded, kind)
const CONTEXTS: &[(&str, &str, &str, bool, Kind)] = &[
    ("text", "<p>", "</p>", true, Kind::Text),
    ("attr-double", "<p title=\"", "\">", true, Kind::Attr),
    ("attr-single", "<p title='", "'>", true, Kind::Attr),
    ("attr-unquoted", "<p title=", ">", true, Kind::Attr),
    ("title", "<title>", "</title>", true, Kind::Text),
    ("textarea", "<textarea>", "</textarea>", true, Kind::Text),
    (
        "table (foster parented)",
        "<table>",
        "</table>",
        true,
        Kind::Text,
    ),
    ("select", "<select>", "</select>", true, Kind::Text),
    ("svg text", "<svg><text>", "</text></svg>", true, Kind::Text),
    ("cdata", "<svg><![CDATA[", "]]></svg>", false, Kind::Text),
    ("script", "<script>", "</script>", false, Kind::Raw),
    ("style", "<style>", "</style>", false, Kind::Raw),
    ("plaintext", "<plaintext>", "", false, Kind::Raw),
    ("comment", "<!--", "-->", false, Kind::Comment),
];

/// The units of the floods: U+00A0 raw and as references, a character sharing its lead byte,
/// quotes, and the characters every context escapes.
const UNITS: &[&str] = &[
    "\u{a0}", "&nbsp;", "&#xA0;", "\u{a0}x", "\u{a9}", "\u{ab}\"", "\"", "'", "&amp;", "&", "<",
    ">",
];

/// Whether `unit` means what it says in `context` (it does not end the context early).
fn fits(context: &str, unit: &str) -> bool {
    match context {
        "attr-double" => !unit.contains('"'),
        "attr-single" => !unit.contains('\''),
        // `>` ends the tag, a quote first starts a quoted value; later quotes are errors
        // but kept.
        "attr-unquoted" => !unit.contains('>') && !unit.starts_with(['"', '\'']),
        // `<!-->` would end the comment at once.
        "comment" => !unit.starts_with('>'),
        _ => true,
    }
}

/// What `unit` decodes to where character references are decoded.
fn decoded(unit: &str, refs: bool) -> String {
    if !refs {
        return unit.to_owned();
    }
    unit.replace("&nbsp;", "\u{a0}")
        .replace("&#xA0;", "\u{a0}")
        .replace("&amp;", "&")
}

/// 13.3 "Escaping a string", written out character by character: the naive oracle.
fn escaped(s: &str, attribute: bool) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '\u{a0}' => out.push_str("&nbsp;"),
            '"' if attribute => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// The input as bytes: UTF-8 behind a byte order mark (which sniffing finds and drops).
fn utf8_bytes(input: &str) -> Vec<u8> {
    let mut bytes = "\u{feff}".as_bytes().to_vec();
    bytes.extend_from_slice(input.as_bytes());
    bytes
}

/// The document through every input path: `&str`, bytes (sniffed, decoded in chunks),
/// `write_str` and `write` in chunks of several sizes.
fn all_paths(input: &str) -> Vec<(String, Document)> {
    let options = ParseOptions::default();
    let bytes = utf8_bytes(input);
    let mut out = vec![
        ("parse".to_owned(), Document::parse(input)),
        (
            "parse_bytes".to_owned(),
            Document::parse_bytes(&bytes, &options).expect("default options"),
        ),
    ];
    for size in [1000, 8192] {
        let mut parser = Parser::new(&options);
        common::str_chunks(input, || size, |chunk| parser.write_str(chunk));
        out.push((format!("write_str({size})"), parser.finish()));
        let mut parser = Parser::new(&options);
        for chunk in bytes.chunks(size + 7) {
            parser.write(chunk).expect("default options");
        }
        out.push((format!("write({})", size + 7), parser.finish()));
    }
    // Lean documents (`keep_source` off): whole, and in chunks.
    let lean = options.with_keep_source(false);
    out.push(("lean parse".to_owned(), Document::parse_with(input, &lean)));
    let mut parser = Parser::new(&lean);
    common::str_chunks(input, || 1000, |chunk| parser.write_str(chunk));
    out.push(("lean write_str(1000)".to_owned(), parser.finish()));
    out
}

fn first_comment(doc: &Document) -> Option<NodeRef<'_>> {
    doc.root()
        .descendants()
        .find(|n| matches!(n.kind(), NodeKind::Comment(_)))
}

#[test]
fn floods_in_every_context_parse_and_serialize_right() {
    let mut cases = 0;
    for &(context, before, after, refs, kind) in CONTEXTS {
        for &unit in UNITS {
            if !fits(context, unit) {
                continue;
            }
            let what = format!("{unit:?} x {FLOOD} in {context}");
            let input = format!("{before}{}{after}", unit.repeat(FLOOD));
            let text = decoded(unit, refs).repeat(FLOOD);
            let serialized = match kind {
                Kind::Text => escaped(&text, false),
                Kind::Attr => escaped(&text, true),
                Kind::Raw | Kind::Comment => text.clone(),
            };
            let docs = all_paths(&input);
            let doc = &docs[0].1;
            // The tree holds the text.
            match kind {
                Kind::Attr => {
                    let p = doc
                        .root()
                        .descendants()
                        .find_map(|n| n.as_element().filter(|e| e.local_name() == "p"));
                    let value = p.and_then(|p| p.attr("title"));
                    assert!(value == Some(&*text), "{what}: attribute value");
                }
                Kind::Comment => {
                    let data = first_comment(doc).and_then(|c| c.as_comment());
                    assert!(data == Some(&*text), "{what}: comment data");
                }
                Kind::Text | Kind::Raw => {
                    assert!(doc.root().text().contains(&text), "{what}: text");
                }
            }
            // Every input path builds the same tree.
            for (path, other) in &docs[1..] {
                if let Some(diff) =
                    first_difference(doc.root(), other.root(), &CompareOptions::default())
                {
                    panic!("{what}: {path} differs from parse: {diff}");
                }
            }
            // The serialization escapes each unit and parses back to the same tree.
            let html = doc.html();
            assert!(html.contains(&serialized), "{what}: serialization");
            if context != "plaintext" {
                let again = Document::parse(&html);
                let merged = CompareOptions::default().with_merge_adjacent_text(true);
                if let Some(diff) = first_difference(doc.root(), again.root(), &merged) {
                    panic!("{what}: the serialization parses to another tree: {diff}");
                }
            }
            cases += 1;
        }
    }
    assert!(cases >= 140, "{cases} cases");
}

/// The same floods through the fragment parser and a subtree's serialization.
#[test]
fn floods_in_fragments() {
    let options = ParseOptions::default();
    for (context, unit) in [
        ("td", "&nbsp;"),
        ("title", "\u{a0}"),
        ("svg text", "&#xA0;"),
        ("select", "\u{a9}"),
    ] {
        let input = unit.repeat(N);
        let frag = Document::parse_fragment(&input, context, &options).expect("valid context");
        let text = "\u{a0}".repeat(N);
        let expected = if unit == "\u{a9}" {
            unit.repeat(N)
        } else {
            "&nbsp;".repeat(N)
        };
        let want = if unit == "\u{a9}" {
            unit.repeat(N)
        } else {
            text
        };
        assert_eq!(frag.root().text(), want, "{unit:?} in {context}");
        assert_eq!(frag.html(), expected, "{unit:?} in {context}");
        let first = frag.root().first_child().expect("a text node");
        assert_eq!(first.html(), expected, "{unit:?} in {context}");
    }
}

/// `<a` + `unit` x n + `>` through every input path, and the attributes each must give.
fn check_attributes(what: &str, input: &str, expected: &[(String, String)], duplicates: usize) {
    let mut paths = all_paths(input);
    // Small chunks: every attribute crosses boundaries.
    for size in [1, 3, 64] {
        let mut parser = Parser::new(&ParseOptions::default());
        for chunk in utf8_bytes(input).chunks(size) {
            parser.write(chunk).expect("default options");
        }
        paths.push((format!("write({size})"), parser.finish()));
    }
    let frag = Document::parse_fragment(input, "div", &ParseOptions::default()).expect("div");
    paths.push(("parse_fragment".to_owned(), frag));
    for (path, doc) in &paths {
        let a = doc
            .root()
            .descendants()
            .find_map(|n| n.as_element().filter(|e| e.local_name() == "a"))
            .unwrap_or_else(|| panic!("{what}: {path}: no <a>"));
        assert_eq!(
            a.attrs().len(),
            expected.len(),
            "{what}: {path}: attributes"
        );
        for (got, (name, value)) in a.attrs().zip(expected) {
            assert!(
                got.local_name == name && got.value == value,
                "{what}: {path}: {}={:?}, expected {name}={value:?}",
                got.local_name,
                got.value
            );
        }
        let dup = doc
            .errors()
            .iter()
            .filter(|e| e.code == ErrorCode::DuplicateAttribute)
            .count();
        // Errors past the kept number are counted, not listed.
        let all_kept = doc.error_count() == doc.errors().len();
        assert!(
            dup == duplicates || (!all_kept && dup < duplicates),
            "{what}: {path}: {dup} duplicate-attribute errors, expected {duplicates}"
        );
        assert!(
            doc.error_count() >= duplicates,
            "{what}: {path}: error count"
        );
    }
    // Every path, the same serialization.
    let html = paths[0].1.html();
    for (path, doc) in &paths[1..] {
        if path != "parse_fragment" {
            assert!(doc.html() == html, "{what}: {path}: serialization differs");
        }
    }
}

#[test]
fn one_tag_with_many_duplicate_attributes() {
    let input = format!("<a{}>", "\t b".repeat(N));
    let expected = [("b".to_owned(), String::new())];
    check_attributes("\\t b", &input, &expected, N - 1);
    assert_eq!(
        Document::parse(&input).body().map(|b| b.inner_html()),
        Some("<a b=\"\"></a>".to_owned())
    );
}

#[test]
fn one_tag_with_many_distinct_attributes() {
    let n = N / 2;
    let input: String = std::iter::once("<a".to_owned())
        .chain((0..n).map(|i| format!(" b{i}")))
        .chain(std::iter::once(">".to_owned()))
        .collect();
    let expected: Vec<_> = (0..n).map(|i| (format!("b{i}"), String::new())).collect();
    check_attributes("b{i}", &input, &expected, 0);
}

/// Names in upper case (lowercased), values quoted three ways with references, and every
/// other attribute a duplicate of an earlier one (whose value must not replace the first).
#[test]
fn one_tag_with_many_attributes_and_values() {
    let n = N / 4;
    let mut input = String::from("<a");
    let mut expected = Vec::new();
    for i in 0..n {
        let (name, value) = (format!("N{i}"), format!("v&amp;{i}\u{a0}"));
        match i % 3 {
            0 => input.push_str(&format!(" {name}=\"{value}\"")),
            1 => input.push_str(&format!("\n{name}='{value}'")),
            _ => input.push_str(&format!(" {name}={value}")),
        }
        expected.push((format!("n{i}"), format!("v&{i}\u{a0}")));
        // A duplicate of an earlier attribute, with another value.
        input.push_str(&format!(" n{}=\"dup{i}\"", i / 2));
    }
    input.push('>');
    check_attributes("N{i}=v{i} and duplicates", &input, &expected, n);
}

/// Issue 28's note: `<b><i><option>c</b>` repeated after a `selectedcontent` (in the first
/// option, or in a `button` with an option after it) nests one reconstructed `i` per
/// repetition, a tree as deep as the input is long, and the button's selectedcontent is
/// given a copy of the first option's children. The tree is the same through every input
/// path, and the copy is the option's children. (The work is counted by the parser's unit
/// test `reconstructed_formatting_elements_keep_put_back_walks_short`: the put-back walks
/// were quadratic; the growth in instructions is a row of `benches/worst_case.rs`.)
#[test]
fn selectedcontent_with_reconstructed_formatting_elements() {
    let n = 5_000;
    for (before, copied) in [
        ("<select><option><selectedcontent>", false),
        ("<select><button><selectedcontent></button><option>", true),
    ] {
        let input = format!("{before}{}", "<b><i><option>c</b>".repeat(n));
        let paths = all_paths(&input);
        let doc = &paths[0].1;
        for (name, other) in &paths[1..] {
            let diff = first_difference(doc.root(), other.root(), &CompareOptions::default());
            assert!(
                diff.is_none(),
                "{before}: {name} differs from parse: {diff:?}"
            );
        }
        let select = |s: &str| doc.select(&Selector::parse(s).unwrap()).collect::<Vec<_>>();
        // One `i > b > i > option` per repetition after the first, in each copy.
        let nested = select("i > b > i > option").len();
        assert_eq!(nested, if copied { 2 * (n - 1) } else { n - 1 }, "{before}");
        let sc = select("selectedcontent")[0];
        if copied {
            let option = select("select > option")[0];
            assert_eq!(sc.inner_html(), option.inner_html(), "{before}");
        } else {
            assert!(
                sc.inner_html()
                    .starts_with("<b><i><option>c</option></i></b><i><b>")
            );
        }
    }
}
