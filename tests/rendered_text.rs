//! Rendered text on real pages: what a reader sees, without scripts, styles or head metadata.

use html_arena::{Document, Selector};

fn page(name: &str) -> Document {
    let path = format!(
        "{}/tests/data/bench-corpus/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    Document::parse_bytes(&std::fs::read(path).unwrap(), &Default::default()).unwrap()
}

#[test]
fn an_article_page_reads_as_text() {
    let doc = page("scrapinghub-aeb-011.html");
    let text = doc.root().rendered_text();
    // The headline and the article's paragraphs, each on its own lines.
    assert!(text.contains("\nStadia Falls Short of 4K at Launch, Destiny 2 Runs at a Native 1080p and Medium Settings\n"));
    assert!(text.contains("\n\nAccording to The Verge’s Stadia review, the streaming platform does not run its showcase launch title Destiny 2 in native 4K."));
    // No script source, style sheet or title (head metadata) leaks in, though textContent has them.
    let content = doc.root().text();
    for hidden in ["first_script_tag", "@font-face", "getElementsByTagName"] {
        assert!(
            content.contains(hidden),
            "{hidden} should be in textContent"
        );
        assert!(
            !text.contains(hidden),
            "{hidden} leaked into the rendered text"
        );
    }
    // Collapsible white space is collapsed (U+00A0 is not collapsible, as in CSS), and there
    // is none at the start or end.
    assert!(!text.contains("  ") || text.contains('\u{a0}'));
    assert!(!text.contains("\t\t") && !text.contains(" \n") && !text.contains("\n "));
    assert!(
        !text.starts_with(|c: char| c.is_ascii_whitespace())
            && !text.ends_with(|c: char| c.is_ascii_whitespace())
    );
}

#[test]
fn every_corpus_page_gives_sane_rendered_text() {
    let dir = format!("{}/tests/data/bench-corpus", env!("CARGO_MANIFEST_DIR"));
    let scripts = Selector::parse("script, style").unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "html") {
            continue;
        }
        let doc =
            Document::parse_bytes(&std::fs::read(&path).unwrap(), &Default::default()).unwrap();
        let text = doc.root().rendered_text();
        assert!(!text.is_empty(), "{}", path.display());
        // Long script or style sources never show up.
        for s in doc.select(&scripts) {
            let source = s.text();
            let source = source.trim();
            if source.len() > 80 && !source.contains('\u{a0}') {
                assert!(
                    !text.contains(source),
                    "{}: script/style text rendered",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn preformatted_text_keeps_its_white_space() {
    let doc = Document::parse(
        "<p>a\n   b</p><pre>  x\n    y</pre><textarea>\n t  u</textarea><p>c<br>d</p>",
    );
    assert_eq!(
        doc.root().rendered_text(),
        "a b\n\n  x\n    y\n t  u\n\nc\nd"
    );
}

#[test]
fn scripting_decides_whether_noscript_renders() {
    let html = "<p>a</p><noscript><p>enable JS</p></noscript><details><summary>S</summary>hidden</details>";
    assert_eq!(
        Document::parse(html).root().rendered_text(),
        "a\n\nenable JS\n\nS"
    );
    let with_scripting = Document::parse_with(
        html,
        &html_arena::ParseOptions::default().with_scripting(true),
    );
    assert_eq!(with_scripting.root().rendered_text(), "a\n\nS");
}
