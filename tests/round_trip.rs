//! Parse → serialize → parse gives the same tree.
//!
//! Over every tree-construction test input (documents, and fragments with their context) and
//! every vendored bench-corpus page: serializing a parsed tree and parsing the result must give
//! an identical tree, and a second round must change nothing. Some trees cannot survive this
//! under any serializer that follows the standard (13.3 warns about them); each input that
//! fails is checked against [`known_unstable`], which must name the reason, or the test fails.

use std::path::{Path, PathBuf};

use html_arena::dom::compare::{CompareOptions, first_difference};
use html_arena::tokenizer::{State, Token, TokenSink, TokenSinkResult, Tokenizer};
use html_arena::{
    Document, ElementRef, Namespace, NodeKind, NodeRef, ParseOptions, QuirksMode, local_name,
};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// (case id, input, fragment context) of every tree-construction case. Files are read as
/// bytes and split on LF only; a `#data` section is its lines joined with LF.
fn tree_construction_inputs() -> Vec<(String, String, Option<String>)> {
    let mut out = Vec::new();
    for dir in [
        "html5lib-tests/tree-construction",
        "html5lib-tests-updates/tree-construction",
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(data().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "dat"))
            .collect();
        files.sort();
        for path in files {
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let mut section = "";
            let mut data: Vec<&str> = Vec::new();
            let mut context = None;
            let mut index = 0;
            for line in text.split('\n') {
                let is_header = matches!(
                    line,
                    "#data"
                        | "#errors"
                        | "#new-errors"
                        | "#document"
                        | "#document-fragment"
                        | "#script-on"
                        | "#script-off"
                );
                if is_header {
                    if line == "#data" && !section.is_empty() {
                        out.push((format!("{name}:{index}"), data.join("\n"), context.take()));
                        data.clear();
                        index += 1;
                    }
                    section = line;
                } else if section == "#data" {
                    data.push(line);
                } else if section == "#document-fragment" {
                    context = Some(line.to_owned());
                    section = "";
                }
            }
            if !section.is_empty() || !data.is_empty() {
                out.push((format!("{name}:{index}"), data.join("\n"), context.take()));
            }
        }
    }
    out
}

fn parse(input: &str, context: Option<&str>, scripting: bool) -> Document {
    let options = ParseOptions::default().with_scripting(scripting);
    match context {
        Some(c) => Document::parse_fragment(input, c, &options).unwrap(),
        None => Document::parse_with(input, &options),
    }
}

/// Why a parsed tree cannot survive serialize → parse under the standard's serializer, if
/// one of the known reasons applies (13.3 lists most of them in its warnings).
fn known_unstable(doc: &Document) -> Option<&'static str> {
    let scripting = doc.scripting();
    let mut nodes: Vec<NodeRef<'_>> = doc.root().descendants().collect();
    // Template contents are part of what gets serialized.
    let mut i = 0;
    while i < nodes.len() {
        if let Some(contents) = nodes[i].as_element().and_then(|e| e.template_contents()) {
            nodes.extend(contents.descendants());
        }
        i += 1;
    }
    for node in &nodes {
        match node.kind() {
            NodeKind::Doctype {
                public_id,
                system_id,
                ..
            } if !public_id.is_empty() || !system_id.is_empty() => {
                return Some(
                    "the serialization of a DOCTYPE is only its name (13.3), so public and system identifiers (and the quirks mode they set) are lost",
                );
            }
            NodeKind::Text(t) if t.contains('\r') => {
                return Some(
                    "a CR in text (from &#13;) is written as is and becomes LF on reparsing (newline normalization)",
                );
            }
            NodeKind::Element(e) => {
                if e.attrs().any(|a| a.value.contains('\r')) {
                    return Some("a CR in an attribute value (from &#13;) becomes LF on reparsing");
                }
                if e.is_html(local_name::PLAINTEXT) {
                    return Some(PLAINTEXT);
                }
                if (e.is_html(local_name::PRE)
                    || e.is_html(local_name::TEXTAREA)
                    || e.is_html(local_name::LISTING))
                    && e.first_child()
                        .and_then(|c| c.as_text())
                        .is_some_and(|t| t.starts_with('\n'))
                {
                    return Some(
                        "a leading newline in pre, textarea or listing is dropped by the parser and not doubled by the serializer (13.3)",
                    );
                }
                if let Some(why) = raw_text_unclosable(e, scripting) {
                    return Some(why);
                }
                if let Some(why) = nesting_the_parser_forbids(e) {
                    return Some(why);
                }
            }
            _ => {}
        }
    }
    None
}

/// Raw text whose end tag would not end it when reparsed: script text that leaves the
/// tokenizer in a script data escaped state (`<!--<script>` without `-->`), or text holding its
/// own end tag. Checked by tokenizing the text followed by the end tag.
fn raw_text_unclosable(e: ElementRef<'_>, scripting: bool) -> Option<&'static str> {
    if e.namespace() != Namespace::Html {
        return None;
    }
    let state = match e.local_name() {
        "script" => State::ScriptData,
        "style" | "xmp" | "iframe" | "noembed" | "noframes" => State::Rawtext,
        "noscript" if scripting => State::Rawtext,
        _ => return None,
    };
    let text = e.text();
    let markup = format!("{text}</{}>", e.local_name());
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
    (sink.0 != [format!("</{}>", e.local_name())])
        .then_some("raw text that its own end tag cannot close when reparsed (e.g. script text ending inside <!--<script>)")
}

/// Elements the parser never nests the way the tree has them, so their start tags close or
/// reorder things on reparsing (13.3's examples: nested forms, nested a).
fn nesting_the_parser_forbids(e: ElementRef<'_>) -> Option<&'static str> {
    if e.namespace() != Namespace::Html {
        return None;
    }
    let same = |name| {
        e.ancestors()
            .filter_map(NodeRef::as_element)
            .any(|a| a.is_html(name))
    };
    match e.name().id() {
        local_name::A if same(local_name::A) => Some(
            "an a inside an a (made by foster parenting or the adoption agency): an <a> start tag closes an open a",
        ),
        local_name::NOBR if same(local_name::NOBR) => {
            Some("a nobr inside a nobr: a <nobr> start tag closes an open nobr")
        }
        local_name::FORM if same(local_name::FORM) => Some(
            "a form inside a form: the parser ignores a <form> start tag while the form element pointer is set",
        ),
        local_name::P if same(local_name::P) => {
            Some("a p inside a p: a <p> start tag closes an open p")
        }
        local_name::TABLE
            if e.parent_element().is_some_and(|p| p.is_html(local_name::P))
                && e.document().quirks_mode() != QuirksMode::Quirks =>
        {
            Some("a table in a p outside quirks mode: a <table> start tag closes an open p")
        }
        _ => None,
    }
}

/// (case, scripting, whether it round-trips, the reason if it does not)
fn run_tree_construction_inputs() -> Vec<(String, bool, bool, Option<&'static str>)> {
    let mut out = Vec::new();
    for (id, input, context) in tree_construction_inputs() {
        for scripting in [false, true] {
            let doc = parse(&input, context.as_deref(), scripting);
            let html = doc.html();
            let again = parse(&html, context.as_deref(), scripting);
            let stable = again.dump_tree() == doc.dump_tree();
            assert_eq!(
                doc.is_round_trip_stable(),
                stable,
                "{id} scripting={scripting}: is_round_trip_stable disagrees for {input:?}"
            );
            let reason = if stable { None } else { known_unstable(&doc) };
            assert!(
                stable || reason.is_some(),
                "{id} scripting={scripting}: {input:?} does not round-trip and no known reason applies\n\
                 serialized: {html:?}\nfirst tree:\n{}\nsecond tree:\n{}",
                doc.dump_tree(),
                again.dump_tree()
            );
            // A second round changes nothing, except for <plaintext>, whose serialization
            // grows by an end tag in every round.
            let html2 = again.html();
            let third = parse(&html2, context.as_deref(), scripting);
            if reason != Some(PLAINTEXT) {
                assert_eq!(
                    third.html(),
                    html2,
                    "{id} scripting={scripting}: second round changed {input:?}"
                );
            }
            out.push((id.clone(), scripting, stable, reason));
        }
    }
    out
}

#[test]
fn tree_construction_inputs_round_trip_or_have_a_known_reason() {
    let results = run_tree_construction_inputs();
    let unstable: Vec<_> = results.iter().filter(|r| !r.2).collect();
    let mut by_reason: Vec<(&str, usize)> = Vec::new();
    for (_, _, _, reason) in &unstable {
        let reason = reason.unwrap_or("?");
        match by_reason.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, n)) => *n += 1,
            None => by_reason.push((reason, 1)),
        }
    }
    println!(
        "round trip: {} runs, {} stable, {} unstable for a known reason:",
        results.len(),
        results.len() - unstable.len(),
        unstable.len()
    );
    for (reason, n) in &by_reason {
        println!("  {n:>4}  {reason}");
    }
    assert!(results.len() >= 3800);
    // Most inputs are stable; a sudden rise would mean a serializer or parser regression
    // hiding behind a broad reason.
    assert!(
        unstable.len() * 10 < results.len(),
        "{} unstable runs",
        unstable.len()
    );
}

#[test]
fn bench_corpus_pages_round_trip() {
    let dir = data().join("bench-corpus");
    let mut pages = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "html") {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let doc = Document::parse(&text);
        let html = doc.html();
        let again = Document::parse(&html);
        if let Some(diff) = first_difference(doc.root(), again.root(), &CompareOptions::default()) {
            let reason = known_unstable(&doc);
            assert!(
                reason.is_some(),
                "{} does not round-trip: {diff}",
                path.display()
            );
            println!(
                "{}: not stable: {}",
                path.display(),
                reason.unwrap_or_default()
            );
        }
        // Idempotent after one round.
        assert_eq!(
            Document::parse(&again.html()).html(),
            again.html(),
            "{}",
            path.display()
        );
        pages += 1;
    }
    assert!(pages >= 10);
}

#[test]
fn the_reasons_of_the_standard_are_detected() {
    // 13.3's own examples, and the other shapes the issue lists.
    for (input, context) in [
        ("<form id=outer><div></form><form id=inner><input>", None),
        ("<a><table><a>", None),
        ("<plaintext>x", None),
        ("a&#13;b", None),
        ("<pre>\n\nx</pre>", None),
        ("<script><!--<script>", None),
        (
            "<!doctype html><form><table></form><form></table></form>",
            None,
        ),
        ("<p><table></p>", None),
    ] {
        let doc = parse(input, context, false);
        assert!(
            !doc.is_round_trip_stable(),
            "{input:?} should not round-trip"
        );
        assert!(known_unstable(&doc).is_some(), "{input:?}: no reason found");
    }
}

const PLAINTEXT: &str =
    "nothing can end a <plaintext> element: its end tag and what follows become its text";
