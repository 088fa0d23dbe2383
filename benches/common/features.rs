//! Page features against per-page speed ratios: which kinds of page a parser is slow on.
//!
//! [`Features::of`] measures a page (from its bytes and html-arena's tree of it); [`report`]
//! prints, for a list of pages with their ratios, the rank correlation of the ratio with each
//! feature and the features of the lowest tenth of the ratios against the other pages.

use html_arena::Document;

/// What a page is made of. Shares are of the input's bytes; rates are per KB of input.
#[derive(Clone, Copy, Debug, Default)]
pub struct Features {
    /// Size in KB.
    pub kb: f64,
    /// Share of the input that is the text of `<script>` and `<style>` elements.
    pub script_style: f64,
    /// Share of the input that is other text (text nodes outside script and style).
    pub text: f64,
    /// Share of the input that is comments.
    pub comments: f64,
    /// Attributes per KB.
    pub attrs: f64,
    /// Attribute bytes (names and values) per attribute.
    pub attr_len: f64,
    /// Character references (`&` followed by a letter or `#`) per KB.
    pub char_refs: f64,
    /// Share of bytes that are not ASCII.
    pub non_ascii: f64,
    /// Carriage returns per KB.
    pub cr: f64,
    /// Table elements (`table`, `tbody`, `tr`, `td`, `th`) per KB.
    pub tables: f64,
    /// Formatting elements (`a`, `b`, `big`, `code`, `em`, `font`, `i`, `nobr`, `s`,
    /// `small`, `strike`, `strong`, `tt`, `u`) per KB.
    pub formatting: f64,
    /// Nodes per KB.
    pub nodes: f64,
    /// Text nodes per KB.
    pub text_nodes: f64,
    /// Bytes per text node (outside script and style).
    pub text_len: f64,
    /// The deepest node's depth.
    pub depth: f64,
}

/// The features' names, in the order of [`Features::values`].
pub const NAMES: [&str; 15] = [
    "KB",
    "script+style share",
    "text share",
    "comment share",
    "attributes/KB",
    "bytes/attribute",
    "char refs/KB",
    "non-ASCII share",
    "CR/KB",
    "table elements/KB",
    "formatting elements/KB",
    "nodes/KB",
    "text nodes/KB",
    "bytes/text node",
    "max depth",
];

const FORMATTING: [&str; 14] = [
    "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u",
];

impl Features {
    /// Measures `text` (its tree from html-arena's default parse).
    pub fn of(text: &str) -> Features {
        let doc = Document::parse(text);
        let bytes = text.as_bytes();
        let kb = (bytes.len() as f64 / 1e3).max(1e-3);
        let (mut script_style, mut text_bytes, mut comments) = (0usize, 0usize, 0usize);
        let (mut attrs, mut attr_bytes, mut tables, mut formatting) = (0usize, 0usize, 0, 0);
        let (mut nodes, mut text_nodes, mut depth) = (0usize, 0usize, 0usize);
        let mut stack = vec![(doc.root(), 0usize)];
        while let Some((node, d)) = stack.pop() {
            nodes += 1;
            depth = depth.max(d);
            if let Some(t) = node.as_text() {
                let raw = node
                    .parent_element()
                    .is_some_and(|p| matches!(p.local_name(), "script" | "style"));
                if raw {
                    script_style += t.len();
                } else {
                    text_bytes += t.len();
                    text_nodes += 1;
                }
            } else if let Some(c) = node.as_comment() {
                comments += c.len();
            } else if let Some(e) = node.as_element() {
                for a in e.attrs() {
                    attrs += 1;
                    attr_bytes += a.local_name.len() + a.value.len();
                }
                let name = e.local_name();
                if matches!(name, "table" | "tbody" | "tr" | "td" | "th") {
                    tables += 1;
                } else if FORMATTING.contains(&name) {
                    formatting += 1;
                }
                if let Some(contents) = e.template_contents() {
                    stack.push((contents, d + 1));
                }
            }
            stack.extend(node.children().map(|c| (c, d + 1)));
        }
        let char_refs = bytes
            .windows(2)
            .filter(|w| w[0] == b'&' && (w[1].is_ascii_alphabetic() || w[1] == b'#'))
            .count();
        let len = bytes.len().max(1) as f64;
        Features {
            kb,
            script_style: script_style as f64 / len,
            text: text_bytes as f64 / len,
            comments: comments as f64 / len,
            attrs: attrs as f64 / kb,
            attr_len: attr_bytes as f64 / attrs.max(1) as f64,
            char_refs: char_refs as f64 / kb,
            non_ascii: bytes.iter().filter(|&&b| b >= 0x80).count() as f64 / len,
            cr: bytes.iter().filter(|&&b| b == b'\r').count() as f64 / kb,
            tables: tables as f64 / kb,
            formatting: formatting as f64 / kb,
            nodes: nodes as f64 / kb,
            text_nodes: text_nodes as f64 / kb,
            text_len: text_bytes as f64 / text_nodes.max(1) as f64,
            depth: depth as f64,
        }
    }

    /// The features in the order of [`NAMES`].
    pub fn values(&self) -> [f64; 15] {
        [
            self.kb,
            self.script_style,
            self.text,
            self.comments,
            self.attrs,
            self.attr_len,
            self.char_refs,
            self.non_ascii,
            self.cr,
            self.tables,
            self.formatting,
            self.nodes,
            self.text_nodes,
            self.text_len,
            self.depth,
        ]
    }
}

/// Ranks of `v` (average ranks for ties).
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        for &k in &order[i..=j] {
            r[k] = (i + j) as f64 / 2.0;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rank correlation of `a` and `b`.
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let (mut cov, mut va, mut vb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        cov += (x - ma) * (y - mb);
        va += (x - ma) * (x - ma);
        vb += (y - mb) * (y - mb);
    }
    cov / (va * vb).sqrt()
}

/// Prints, for pages `(name, ratio, features)`: each feature's rank correlation with the
/// ratio, its median over the lowest tenth of the ratios and over the rest; then the lowest
/// tenth's pages.
pub fn report(label: &str, pages: &[(String, f64, Features)]) {
    if pages.len() < 10 {
        return;
    }
    let ratios: Vec<f64> = pages.iter().map(|p| p.1).collect();
    let mut order: Vec<usize> = (0..pages.len()).collect();
    order.sort_by(|&a, &b| ratios[a].total_cmp(&ratios[b]));
    let tenth = pages.len().div_ceil(10);
    let (low, rest) = order.split_at(tenth);
    println!(
        "{label}: page features against the per-page ratio ({} pages; lowest tenth: {tenth} pages, \
         ratio up to {:.2}x)",
        pages.len(),
        ratios[low[tenth - 1]]
    );
    println!(
        "  {:<24} {:>8} {:>12} {:>12}",
        "feature", "rank cor.", "lowest 10%", "others"
    );
    for (f, name) in NAMES.iter().enumerate() {
        let values: Vec<f64> = pages.iter().map(|p| p.2.values()[f]).collect();
        let mut lo: Vec<f64> = low.iter().map(|&i| values[i]).collect();
        let mut hi: Vec<f64> = rest.iter().map(|&i| values[i]).collect();
        println!(
            "  {:<24} {:>+8.2} {:>12.3} {:>12.3}",
            name,
            spearman(&values, &ratios),
            super::median(&mut lo),
            super::median(&mut hi)
        );
    }
    println!("  lowest tenth:");
    for &i in low {
        let (name, ratio, f) = &pages[i];
        println!(
            "    {name:<34} {ratio:>5.2}x  {:>6.0} KB, script+style {:.2}, text {:.2}, \
             {:.1} nodes/KB, {:.1} attrs/KB, {:.1} refs/KB, non-ASCII {:.3}",
            f.kb, f.script_style, f.text, f.nodes, f.attrs, f.char_refs, f.non_ascii
        );
    }
}
