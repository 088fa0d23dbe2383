//! Script execution hooks ([`ScriptingParser`]): the html5lib `scripted/` cases, the scripted
//! encoding case, and the parser's own cases (writes split anywhere, nested scripts,
//! parsing-blocking scripts, scripts that change the tree).
//!
//! Scripts run with the tiny interpreter of `examples/tiny_js` (`document.write` and
//! `document.writeln` of string literals), or, for the html5lib cases whose scripts change the
//! DOM, with the effect of each script done through the mutation API at the pause.
//!
//! Many cases check against an oracle: a parse with scripting on (and no scripts run) of the
//! input with each script's written text spliced in right after that script's end tag, which
//! is what the document write steps amount to for scripts that write at most one level deep.

#[path = "../examples/tiny_js/mod.rs"]
#[allow(dead_code)]
mod tiny_js;

use std::path::{Path, PathBuf};

use html_arena::{
    Document, NodeId, ParseOptions, ParserEvent, ScriptError, ScriptingParser, WriteEvent,
};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn scripting() -> ParseOptions {
    ParseOptions::default().with_scripting(true)
}

// -------------------------------------------------------------------------------------------
// html5lib cases.

struct Case {
    data: String,
    document: String,
    script_on: bool,
}

fn read_dat(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut cases = Vec::new();
    for block in text.split("#data\n").skip(1) {
        let (data, rest) = block.split_once("\n#errors\n").expect("#errors");
        let script_on = rest.contains("#script-on\n");
        let (_, document) = rest.split_once("#document\n").expect("#document");
        let mut document: Vec<&str> = document.split('\n').collect();
        while document.last() == Some(&"") {
            document.pop();
        }
        let mut document = document.join("\n");
        document.push('\n');
        cases.push(Case {
            data: data.to_owned(),
            document,
            script_on,
        });
    }
    cases
}

/// The element children of the tree in document order (iteratively).
fn elements(doc: &Document) -> Vec<NodeId> {
    doc.root()
        .descendants()
        .filter(|n| n.is_element())
        .map(|n| n.node_id())
        .collect()
}

/// The DOM effect of the scripts of `ark.dat`, `adoption01.dat` and `foster01.dat`, done with
/// the mutation API; `false` for a script that is not one of them.
fn dom_effect(doc: &mut Document, script: &str) -> bool {
    let named = |doc: &Document, name: &str| -> Vec<NodeId> {
        elements(doc)
            .into_iter()
            .filter(|&e| {
                doc.node(e)
                    .and_then(|n| n.as_element())
                    .is_some_and(|e| e.local_name() == name)
            })
            .collect()
    };
    match script {
        r#"document.getElementsByTagName("font")[2].setAttribute("size", "5");"# => {
            let font = named(doc, "font")[2];
            doc.set_attribute(font, "size", "5").unwrap();
        }
        r#"document.getElementById("A").id = "B""# => {
            let a = elements(doc)
                .into_iter()
                .find(|&e| doc.node(e).unwrap().as_element().unwrap().id() == Some("A"))
                .unwrap();
            doc.set_attribute(a, "id", "B").unwrap();
        }
        "var t=document.querySelector('table');document.documentElement.remove();document.appendChild(t)" =>
        {
            let table = named(doc, "table")[0];
            let html = doc.document_element().unwrap().as_node().node_id();
            // `remove()` in the DOM takes the node out of its parent (it stays alive).
            doc.detach(html).unwrap();
            let root = doc.root().node_id();
            doc.append(root, table).unwrap();
        }
        _ => return false,
    }
    true
}

/// Parses `input` with scripts run: DOM effects for the known scripts, the tiny interpreter
/// for the others.
fn run_case(input: &str, chunk: usize) -> Document {
    let mut parser = ScriptingParser::new(&ParseOptions::default());
    let mut chunks = input.as_bytes().chunks(chunk);
    loop {
        match parser.run().unwrap() {
            ParserEvent::NeedInput => match chunks.next() {
                Some(c) => parser.write(c).unwrap(),
                None => parser.end(),
            },
            ParserEvent::Script(script) => {
                let text = parser.document().node(script).unwrap().text();
                if !dom_effect(parser.document_mut(), &text) {
                    tiny_js::execute(&mut parser, script).unwrap();
                }
            }
            ParserEvent::Done => break,
            other => panic!("unexpected {other:?}"),
        }
    }
    parser.finish()
}

#[test]
fn html5lib_scripted_tree_construction() {
    let mut files = Vec::new();
    for suite in ["html5lib-tests", "html5lib-tests-updates"] {
        let dir = data_dir().join(suite).join("tree-construction/scripted");
        for entry in std::fs::read_dir(&dir).unwrap() {
            files.push(entry.unwrap().path());
        }
    }
    files.sort();
    let (mut passed, mut failed) = (0, 0);
    for file in &files {
        for (i, case) in read_dat(file).iter().enumerate() {
            assert!(case.script_on, "{}#{i} is a scripted case", file.display());
            let doc = run_case(&case.data, usize::MAX);
            for size in 1..8 {
                let chunked = run_case(&case.data, size).dump_tree();
                assert_eq!(
                    chunked,
                    doc.dump_tree(),
                    "{}#{i} in chunks of {size}",
                    file.display()
                );
            }
            if doc.dump_tree() == case.document {
                passed += 1;
            } else {
                failed += 1;
                eprintln!(
                    "FAIL {}#{i}\n{}\n#expected\n{}#actual\n{}",
                    file.display(),
                    case.data,
                    case.document,
                    doc.dump_tree()
                );
            }
        }
    }
    println!("scripted tree-construction: {passed} passed, {failed} failed");
    assert_eq!((passed, failed), (6, 0));
}

#[test]
fn html5lib_scripted_encoding() {
    let path = data_dir().join("html5lib-tests/encoding/scripted/tests1.dat");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut count = 0;
    for block in text.split("#data\n").skip(1) {
        let (data, expected) = block.split_once("\n#encoding\n").unwrap();
        let expected = expected.lines().next().unwrap().trim();
        // (The html5lib encoding cases expect a browser's choice for undeclared input.)
        let browser = ParseOptions::default().with_browser_encoding(true);
        let doc = tiny_js::parse_and_run(data.as_bytes(), &browser).unwrap();
        assert!(
            doc.encoding().name().eq_ignore_ascii_case(expected),
            "{data:?}: {} instead of {expected}",
            doc.encoding().name()
        );
        // Without the script run, the prescan cannot see the declaration.
        let plain = Document::parse_bytes(data.as_bytes(), &browser.with_scripting(true)).unwrap();
        assert_eq!(plain.encoding(), encoding_rs::WINDOWS_1252);
        count += 1;
    }
    assert_eq!(count, 1);
}

// -------------------------------------------------------------------------------------------
// The oracle.

/// `input` with each top-level script's writes spliced in after its end tag, parsed with
/// scripting on and no scripts run.
fn spliced(input: &str) -> String {
    let mut out = String::new();
    let mut rest = input;
    while let Some(start) = rest.find("<script") {
        let end = rest[start..].find("</script>").expect("end tag") + start + "</script>".len();
        out.push_str(&rest[..end]);
        let body_start = rest[start..].find('>').unwrap() + start + 1;
        let body = &rest[body_start..end - "</script>".len()];
        let runs = !rest[start..body_start].contains("src=");
        if runs {
            for w in tiny_js::compile(body) {
                out.push_str(&w.text);
                if w.line {
                    out.push('\n');
                }
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn oracle(input: &str) -> String {
    Document::parse_with(&spliced(input), &scripting()).dump_tree()
}

/// Runs `input` with the tiny interpreter: whole, and written in chunks of 1 to 7 bytes (as
/// text and as bytes); all must agree. Returns the tree.
fn run_all_ways(input: &str) -> String {
    let whole = tiny_js::parse_and_run(input.as_bytes(), &ParseOptions::default())
        .unwrap()
        .dump_tree();
    for size in 1..8 {
        for bytes in [false, true] {
            let mut parser = ScriptingParser::new(&ParseOptions::default());
            let mut chunks = input.as_bytes().chunks(size);
            loop {
                match parser.run().unwrap() {
                    ParserEvent::Script(s) | ParserEvent::Execute(s) => {
                        tiny_js::execute(&mut parser, s).unwrap()
                    }
                    ParserEvent::NeedInput => match chunks.next() {
                        Some(chunk) if bytes => parser.write(chunk).unwrap(),
                        // (Text chunks: whole characters; the inputs here are ASCII.)
                        Some(chunk) => parser.write_str(std::str::from_utf8(chunk).unwrap()),
                        None => parser.end(),
                    },
                    ParserEvent::Done => break,
                    other => panic!("unexpected {other:?}"),
                }
            }
            let chunked = parser.finish().dump_tree();
            assert_eq!(
                chunked, whole,
                "{input:?} in chunks of {size} (bytes: {bytes})"
            );
        }
    }
    whole
}

fn check_against_oracle(input: &str) {
    assert_eq!(run_all_ways(input), oracle(input), "{input:?}");
}

#[test]
fn oracle_sanity() {
    assert_eq!(
        spliced(r#"a<script>document.write("<b>")</script>c"#),
        r#"a<script>document.write("<b>")</script><b>c"#
    );
}

#[test]
fn partial_tags_and_references_split_over_writes() {
    check_against_oracle(
        r#"<p><script>document.write("<di");document.write("v id=a>x&am");document.write("p;y")</script>z"#,
    );
    // Over several scripts: what one script leaves unfinished, the next input finishes.
    check_against_oracle(r#"<p><script>document.write("<b")</script>t"#);
    check_against_oracle(
        r#"<p><script>document.write("&am")</script><script>document.write("p;")</script>"#,
    );
    check_against_oracle(r#"<p><script>document.write("<a hr")</script>ef='x'>l</a>"#);
    // (The next input finishes the tag, so there is no second script here: the attribute
    // name swallows `<script`.)
    let input =
        r#"<p><script>document.write("<a hr")</script><script>document.write("x")</script>"#;
    let doc = tiny_js::parse_and_run(input.as_bytes(), &ParseOptions::default()).unwrap();
    assert!(doc.dump_tree().contains("hr<script"));
    assert_eq!(run_all_ways(input), doc.dump_tree());
    check_against_oracle(r#"<script>document.write("<!-")</script>-c-->d"#);
    check_against_oracle(
        r#"<script>document.write("a\r")</script>
b"#,
    );
}

#[test]
fn writes_in_head_and_tables() {
    check_against_oracle(
        r#"<!DOCTYPE html><head><script>document.write("<title>T</title><link rel=x>")</script></head><body>b"#,
    );
    check_against_oracle(r#"<head><script>document.write("<p>body now")</script><meta name=x>"#);
    check_against_oracle(
        r#"<table><tr><script>document.write("<td>a</td>")</script></tr></table>"#,
    );
    check_against_oracle(r#"<table><script>document.write("text<b>x")</script><tr><td>1</table>"#);
    check_against_oracle(
        r#"<table><tbody><script>document.write("</table>after")</script><tr><td>x"#,
    );
}

#[test]
fn writeln_and_empty_writes() {
    check_against_oracle(r#"<pre><script>document.writeln("a")</script>b</pre>"#);
    check_against_oracle(
        r#"<p>x<script>document.write();document.write("");document.writeln()</script>y"#,
    );
    check_against_oracle(r#"<p>x<script>document.write("", '', "" + '')</script>y"#);
}

#[test]
fn writes_after_body() {
    check_against_oracle(r#"<body>a</body><script>document.write("<p>x")</script>"#);
    check_against_oracle(
        r#"<body>a</body></html><script>document.write("<!--c--><p>y")</script>z"#,
    );
}

#[test]
fn scripts_writing_scripts_writing_scripts() {
    // Three levels; each writes text before and after the script it writes.
    let input = r#"a<script>document.write("b<script>document.write('c<script>document.write(\"d\")</scr' + 'ipt>e')</scr" + "ipt>f")</script>g"#;
    let tree = run_all_ways(input);
    let doc = tiny_js::parse_and_run(input.as_bytes(), &ParseOptions::default()).unwrap();
    let scripts = doc
        .root()
        .descendants()
        .filter(|n| n.as_element().is_some_and(|e| e.local_name() == "script"));
    assert_eq!(scripts.count(), 3);
    let text: String = doc
        .body()
        .unwrap()
        .children()
        .filter_map(|c| c.as_text())
        .collect();
    assert_eq!(text, "abcdefg", "{tree}");
}

/// A test embedder: every script it is handed writes `<script></script>` again, without end.
#[test]
fn script_nesting_is_a_budget() {
    for limit in [1, 5, 64] {
        let mut parser = ScriptingParser::new(&ParseOptions::default()).with_max_nesting(limit);
        parser.write_str("<script></script>end");
        parser.end();
        let mut handed = 0;
        let mut too_deep = 0;
        loop {
            match parser.run().unwrap() {
                ParserEvent::Script(_) => {
                    handed += 1;
                    // Run the script: it writes a script, whose script writes a script...
                    let mut depth = 1;
                    let mut event = parser.document_write("<script></script>x");
                    loop {
                        match event {
                            Ok(WriteEvent::Script(_)) => {
                                handed += 1;
                                depth += 1;
                                assert_eq!(parser.script_nesting_level(), depth);
                                event = parser.document_write("<script></script>x");
                            }
                            Err(ScriptError::NestingTooDeep { limit: l }) => {
                                assert_eq!(l, limit);
                                too_deep += 1;
                                event = Ok(WriteEvent::Done);
                            }
                            Ok(_) if depth > 1 => {
                                depth -= 1;
                                event = parser.resume_write();
                            }
                            Ok(_) => break,
                            Err(e) => panic!("{e}"),
                        }
                    }
                }
                ParserEvent::Done => break,
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(handed, limit, "limit {limit}");
        assert_eq!(too_deep, 1);
        let doc = parser.finish();
        assert_eq!(
            doc.body().unwrap().text(),
            format!("{}end", "x".repeat(limit))
        );
    }
}

#[test]
fn scripts_in_templates_never_run() {
    let input = r#"<template><script>document.write("<p>no")</script></template><p>yes"#;
    let doc = tiny_js::parse_and_run(input.as_bytes(), &ParseOptions::default()).unwrap();
    assert_eq!(
        doc.dump_tree(),
        Document::parse_with(input, &scripting()).dump_tree()
    );
    assert!(!doc.dump_tree().contains("\"no\""));
}

#[test]
fn scripts_that_do_not_run() {
    for input in [
        r#"<script src=a.js>document.write("x")</script>y"#,
        r#"<script type=module>document.write("x")</script>y"#,
        r#"<script type="text/javascript; charset=utf-8">document.write("x")</script>y"#,
        r#"<script language=vbscript>document.write("x")</script>y"#,
        r#"<script nomodule>document.write("x")</script>y"#,
        r#"<svg><script>document.write("x")</script></svg>y"#,
    ] {
        let doc = tiny_js::parse_and_run(input.as_bytes(), &ParseOptions::default()).unwrap();
        assert_eq!(
            doc.dump_tree(),
            Document::parse_with(input, &scripting()).dump_tree(),
            "{input}"
        );
    }
    for input in [
        r#"<script type=" TEXT/JavaScript ">document.write("x")</script>y"#,
        r#"<script type="">document.write("x")</script>y"#,
        r#"<script language="">document.write("x")</script>y"#,
        r#"<script language="javascript1.5">document.write("x")</script>y"#,
        r#"<script type="application/x-ecmascript">document.write("x")</script>y"#,
    ] {
        let doc = tiny_js::parse_and_run(input.as_bytes(), &ParseOptions::default()).unwrap();
        // (The script is in the head, its text too.)
        assert_eq!(doc.body().unwrap().text(), "xy", "{input}");
    }
}

#[test]
fn interpreter_string_literals() {
    let w = tiny_js::compile(
        r#"var n = 1; document.write('a\'b' + "c\"d", '\\\/\n\r\t'); void 0
document.writeln("\x41\u00e9\ud83d\ude00\ud800;") ; document.write("x"); nonsense("y")"#,
    );
    let texts: Vec<(&str, bool)> = w.iter().map(|w| (w.text.as_str(), w.line)).collect();
    assert_eq!(
        texts,
        [
            ("a'bc\"d\\/\n\r\t", false),
            ("A\u{e9}\u{1F600}\u{FFFD};", true),
            ("x", false)
        ]
    );
}

// -------------------------------------------------------------------------------------------
// Parsing-blocking scripts.

/// Feeds `chunks` while the script is blocked, then runs it with `write`; returns the tree.
#[test]
fn parsing_blocking_script_resumed_after_chunked_input() {
    let first = "<p>a<script src=x.js></script>b";
    let later = ["c<", "p>d<scr", "ipt>document.write('e')</script>f"];
    let mut parser = ScriptingParser::new(&ParseOptions::default());
    parser.write_str(first);
    let script = match parser.run().unwrap() {
        ParserEvent::Script(s) => s,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        parser
            .document()
            .node(script)
            .unwrap()
            .as_element()
            .unwrap()
            .attr("src"),
        Some("x.js")
    );
    parser.block_on(script).unwrap();
    assert_eq!(parser.run().unwrap(), ParserEvent::Blocked(script));
    // Blocked: no insertion point; network input is buffered.
    assert!(!parser.has_insertion_point());
    assert_eq!(
        parser.document_write("no"),
        Err(ScriptError::NoInsertionPoint)
    );
    for chunk in later {
        parser.write_str(chunk);
    }
    parser.end();
    // The script is fetched: it runs, with the insertion point before the next input
    // character.
    assert_eq!(parser.run().unwrap(), ParserEvent::Execute(script));
    assert_eq!(parser.script_nesting_level(), 1);
    assert_eq!(parser.document_write("W"), Ok(WriteEvent::Done));
    loop {
        match parser.run().unwrap() {
            ParserEvent::Script(s) => tiny_js::execute(&mut parser, s).unwrap(),
            ParserEvent::Done => break,
            other => panic!("{other:?}"),
        }
    }
    let doc = parser.finish();
    let expected = format!(
        "<p>a<script src=x.js></script>Wb{}ef",
        "c<p>d<script>document.write('e')</script>"
    );
    assert_eq!(
        doc.dump_tree(),
        Document::parse_with(&expected, &scripting()).dump_tree()
    );
    // After the end, there is no insertion point either.
}

#[test]
fn nested_parsing_blocking_script_sets_the_pause_flag() {
    // A writes a blocking script B, then more text; B runs later and writes before A's
    // leftovers.
    let mut parser = ScriptingParser::new(&ParseOptions::default());
    parser.write_str("<script>A</script>rest");
    parser.end();
    let a = match parser.run().unwrap() {
        ParserEvent::Script(s) => s,
        other => panic!("{other:?}"),
    };
    let b = match parser
        .document_write("<script src=b.js></script>X")
        .unwrap()
    {
        WriteEvent::Script(b) => b,
        other => panic!("{other:?}"),
    };
    assert_ne!(a, b);
    assert_eq!(parser.block_on(a), Err(ScriptError::NotPreparing(a)));
    parser.block_on(b).unwrap();
    // B's end tag steps: the nesting level is not zero, so the pause flag is set and A's
    // write returns.
    assert_eq!(parser.resume_write(), Ok(WriteEvent::Done));
    // A writes more: inserted, not parsed.
    assert_eq!(parser.document_write("Y"), Ok(WriteEvent::Done));
    assert_eq!(parser.run(), Ok(ParserEvent::Blocked(b)));
    assert_eq!(parser.run(), Ok(ParserEvent::Execute(b)));
    assert_eq!(parser.document_write("Z"), Ok(WriteEvent::Done));
    assert_eq!(parser.run(), Ok(ParserEvent::Done));
    let doc = parser.finish();
    let expected = "<script>A</script><script src=b.js></script>ZXYrest";
    assert_eq!(
        doc.dump_tree(),
        Document::parse_with(expected, &scripting()).dump_tree()
    );
}

#[test]
fn misuse_is_a_typed_error() {
    let mut parser = ScriptingParser::new(&ParseOptions::default());
    assert_eq!(
        parser.document_write("x"),
        Err(ScriptError::NoInsertionPoint)
    );
    assert_eq!(parser.resume_write(), Err(ScriptError::NoNestedScript));
    parser.write_str("<script>1</script>");
    let s = match parser.run().unwrap() {
        ParserEvent::Script(s) => s,
        other => panic!("{other:?}"),
    };
    let nested = parser.document_write("<script>2</script>").unwrap();
    assert!(matches!(nested, WriteEvent::Script(_)));
    assert_eq!(parser.run(), Err(ScriptError::NestedScriptRunning));
    assert_eq!(parser.resume_write(), Ok(WriteEvent::Done));
    assert_eq!(parser.run(), Ok(ParserEvent::NeedInput));
    parser.end();
    assert_eq!(parser.run(), Ok(ParserEvent::Done));
    // After the end: no insertion point (an async or deferred script's write).
    assert_eq!(
        parser.document_write("late"),
        Err(ScriptError::NoInsertionPoint)
    );
    assert!(!ScriptError::NotPreparing(s).to_string().is_empty());
    let doc = parser.finish();
    assert!(!doc.dump_tree().contains("late"));
}

// -------------------------------------------------------------------------------------------
// Scripts that change the tree.

#[test]
fn script_removes_the_element_being_parsed_into() {
    let input = "<div id=d><p>in<script>remove</script>after</p>more</div>tail";
    let mut parser = ScriptingParser::new(&ParseOptions::default());
    parser.write_str(input);
    parser.end();
    let mut div = None;
    loop {
        match parser.run().unwrap() {
            ParserEvent::Script(_) => {
                let doc = parser.document_mut();
                let d = elements(doc)
                    .into_iter()
                    .find(|&e| doc.node(e).unwrap().as_element().unwrap().id() == Some("d"))
                    .unwrap();
                doc.detach(d).unwrap();
                div = Some(d);
            }
            ParserEvent::Done => break,
            other => panic!("{other:?}"),
        }
    }
    let doc = parser.finish();
    // The parser went on inserting into the detached elements (still open)...
    let div = doc.node(div.unwrap()).unwrap();
    assert!(div.parent().is_none());
    assert_eq!(div.text(), "inremoveaftermore");
    // ...and after `</div>` into the body again.
    assert_eq!(doc.body().unwrap().text(), "tail");
}

#[test]
fn script_frees_open_elements_without_panic() {
    // `Document::remove` frees the nodes (a misuse during a parse, unlike `detach`): the
    // parser must not panic.
    let input =
        "<div id=d><table><tr><td><b>in<script>x</script>after</b>x</table>more</div>tail<p>";
    let mut parser = ScriptingParser::new(&ParseOptions::default());
    parser.write_str(input);
    parser.end();
    loop {
        match parser.run().unwrap() {
            ParserEvent::Script(_) => {
                let doc = parser.document_mut();
                let body = doc.body().unwrap().as_node().node_id();
                let html = doc.document_element().unwrap().as_node().node_id();
                doc.remove(body).unwrap();
                doc.remove(html).unwrap();
            }
            ParserEvent::Done => break,
            other => panic!("{other:?}"),
        }
    }
    let doc = parser.finish();
    let _ = doc.dump_tree();
}

#[test]
fn many_writes() {
    let mut parser = ScriptingParser::new(&ParseOptions::default());
    parser.write_str("<ul><script>go</script></ul>");
    parser.end();
    while let Ok(event) = parser.run() {
        match event {
            ParserEvent::Script(_) => {
                for i in 0..10_000 {
                    // Tags split over writes.
                    let piece = if i % 2 == 0 { "<li>" } else { "x</li" };
                    assert_eq!(parser.document_write(piece), Ok(WriteEvent::Done));
                    if i % 2 == 1 {
                        parser.document_write(">").unwrap();
                    }
                }
            }
            ParserEvent::Done => break,
            other => panic!("{other:?}"),
        }
    }
    let doc = parser.finish();
    let ul = doc.body().unwrap().first_child().unwrap();
    assert_eq!(ul.children().filter(|c| c.is_element()).count(), 5_001);
}

#[test]
fn written_meta_restarts_the_parse_when_it_must() {
    // Non-ASCII bytes before the script: the decoder cannot be switched on the fly, so the
    // parse starts over (the script runs again; its second <meta> changes nothing).
    let page = b"<p>caf\xe9<script>document.write('<meta charset=' + 'utf-8>')</script>x";
    let mut parser = ScriptingParser::new(&ParseOptions::default());
    parser.write(page).unwrap();
    parser.end();
    let mut events = Vec::new();
    loop {
        let event = parser.run().unwrap();
        events.push(event);
        match event {
            ParserEvent::Script(s) => tiny_js::execute(&mut parser, s).unwrap(),
            ParserEvent::Done => break,
            _ => {}
        }
    }
    assert_eq!(
        events
            .iter()
            .filter(|e| **e == ParserEvent::EncodingRestart)
            .count(),
        1
    );
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, ParserEvent::Script(_)))
            .count(),
        2
    );
    let doc = parser.finish();
    assert_eq!(doc.encoding(), encoding_rs::UTF_8);
    assert_eq!(doc.encoding_confidence(), html_arena::Confidence::Certain);
    assert!(doc.body().unwrap().text().starts_with("caf\u{FFFD}"));
    // All ASCII before it: switched on the fly, no restart.
    let page = b"<p>cafe<script>document.write('<meta charset=' + 'utf-8>')</script>\xc3\xa9";
    let doc = tiny_js::parse_and_run(page, &ParseOptions::default()).unwrap();
    assert_eq!(doc.encoding(), encoding_rs::UTF_8);
    assert!(doc.body().unwrap().text().ends_with("\u{e9}"));
}
