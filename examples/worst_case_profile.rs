//! Builds one hostile shape of `benches/worst_case.rs` at size N and parses, serializes,
//! extracts the text of and queries it once, for profilers and instruction counters: a
//! linear path doubles its instruction count when N doubles, whatever the caches do.
//!
//! `cargo build --profile bench --example worst_case_profile` then e.g.
//! `perf stat -e instructions target/release/examples/worst_case_profile div 1000000`
//!
//! Shapes: `div` (nested `<div>`), `attrs` (one tag with N attributes), `noah` (N `<b>`),
//! `template` (N nested `<template>`), `li` (`<ul>` then N `<li><div>`), `table` (N unclosed
//! `<table><tr><td>`), `svg` (`<svg>` then N `<g>`), `misnest` (N `<b><i></b></i>`).

use html_arena::{Document, Selector};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(shape), Some(n)) = (args.get(1), args.get(2).and_then(|n| n.parse().ok())) else {
        eprintln!("usage: worst_case_profile SHAPE N");
        std::process::exit(2);
    };
    let n: usize = n;
    let input = match shape.as_str() {
        "div" => "<div>".repeat(n),
        "attrs" => {
            let mut s = String::from("<div");
            for i in 0..n {
                s.push_str(" a");
                s.push_str(&i.to_string());
            }
            s + ">"
        }
        "noah" => "<b>".repeat(n),
        "template" => "<template>".repeat(n),
        "li" => "<ul>".to_owned() + &"<li><div>".repeat(n),
        "table" => "<table><tr><td>".repeat(n),
        "svg" => "<svg>".to_owned() + &"<g>".repeat(n),
        "misnest" => "<b><i></b></i>".repeat(n),
        other => {
            eprintln!("unknown shape {other:?}");
            std::process::exit(2);
        }
    };
    let selector = Selector::parse("div:has(span) b, p ~ p").expect("selector");
    let doc = Document::parse(&input);
    let html = doc.html().len();
    let text = doc.root().rendered_text().len();
    let matches = doc.select(&selector).count();
    println!(
        "{} nodes, {html} bytes of HTML, {text} of text, {matches} matches",
        doc.node_count()
    );
}
