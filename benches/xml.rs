//! XML parsing throughput: `Document::parse_xml` against the XML tokenizer it is built on
//! (`quick-xml` alone: every event read and its text unescaped, no tree) and against
//! `roxmltree` (a complete read-only tree), on the same inputs in the same run. The inputs are
//! the bench corpus's pages turned into XML (coerced and serialized with "require
//! well-formed") plus the RSS, Atom, sitemap and XHTML samples of `tests/data/xml`. Prints
//! MB/s and the ratios per input, then the median ratios.
//!
//! `cargo bench --bench xml`

mod common;

use std::hint::black_box;
use std::time::Duration;

use html_arena::Document;
use html_arena::xml::XmlSerializeOptions;
use quick_xml::events::Event;

/// quick-xml alone: read every event, decode text and attribute values.
fn tokenize(text: &str) -> usize {
    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut n = 0;
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => return n,
            Ok(Event::Start(e) | Event::Empty(e)) => {
                for a in e.attributes().flatten() {
                    n += a
                        .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .map_or(0, |v| v.len());
                }
            }
            Ok(Event::Text(t)) => n += t.xml10_content().len(),
            Ok(_) => n += 1,
            Err(_) => return n,
        }
    }
}

fn main() {
    let mut inputs: Vec<(String, String)> = Vec::new();
    for page in common::corpus() {
        let doc = Document::parse(&page.text).coerce_to_infoset();
        if let Ok(xml) = doc.root().xml_with(&XmlSerializeOptions::well_formed()) {
            inputs.push((page.name.clone(), xml));
        }
    }
    for name in ["rss.xml", "atom.xml", "sitemap.xml", "page.xhtml"] {
        if let Ok(text) = std::fs::read_to_string(format!("tests/data/xml/{name}")) {
            // Small samples repeated inside one root, so that timings are meaningful.
            let body = text
                .split_once("?>")
                .map_or(text.as_str(), |(_, b)| b)
                .replace("<!DOCTYPE html>", "");
            inputs.push((
                format!("{name} x200"),
                format!("<all>{}</all>", body.repeat(200)),
            ));
        }
    }
    println!("xml: {} inputs", inputs.len());
    println!(
        "{:<34} {:>8} {:>10} {:>10} {:>10} {:>9} {:>9}",
        "input", "KB", "arena MB/s", "qxml MB/s", "roxml MB/s", "vs qxml", "vs roxml"
    );
    let (mut vs_tok, mut vs_rox) = (Vec::new(), Vec::new());
    for (name, text) in &inputs {
        if Document::parse_xml(text).is_err() {
            println!("{name}: not parsed, skipped");
            continue;
        }
        let times = common::compare(
            7,
            Duration::from_millis(30),
            &mut [
                &mut || {
                    black_box(Document::parse_xml(text).ok());
                },
                &mut || {
                    black_box(tokenize(text));
                },
                &mut || {
                    let options = roxmltree::ParsingOptions {
                        allow_dtd: true,
                        ..Default::default()
                    };
                    black_box(roxmltree::Document::parse_with_options(text, options).ok());
                },
            ],
        );
        let (ours, tok, rox) = (times[0], times[1], times[2]);
        let r_tok = tok.as_secs_f64() / ours.as_secs_f64();
        let r_rox = rox.as_secs_f64() / ours.as_secs_f64();
        vs_tok.push(r_tok);
        vs_rox.push(r_rox);
        println!(
            "{:<34} {:>8.0} {:>10.1} {:>10.1} {:>10.1} {:>8.2}x {:>8.2}x",
            name,
            text.len() as f64 / 1e3,
            common::mbps(text.len(), ours),
            common::mbps(text.len(), tok),
            common::mbps(text.len(), rox),
            r_tok,
            r_rox
        );
    }
    println!(
        "xml: median per-input speed ratio (their time / ours): {:.2}x quick-xml alone, {:.2}x roxmltree",
        common::median(&mut vs_tok),
        common::median(&mut vs_rox)
    );
}
