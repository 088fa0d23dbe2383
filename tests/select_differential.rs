//! Differential test of select parsing against html5ever (a dev-dependency): grammar-based
//! soup of select/option/optgroup/template/table/formatting elements, a fixed seed, a few
//! thousand cases; the trees must be equal.
//!
//! html5ever 0.40 implements the current select parsing rules but only part of
//! `selectedcontent`: it runs "maybe clone an option into selectedcontent" only for an
//! explicit `</option>` end tag, and takes an option's selectedness from its `selected`
//! attribute alone (no selectedness setting algorithm, no post-connection or removing
//! steps). So the generated documents contain no `selectedcontent` (its steps are tested
//! against the standard's text in `tests/select_element.rs`); without it, the select steps
//! change nothing in the tree, and the comparison covers the tree construction around
//! select, option and optgroup. The same generator runs unbounded in
//! `fuzz/fuzz_targets/select_diff.rs`.

use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

/// The generator's pieces.
const PIECES: &[&str] = &[
    "<select>",
    "</select>",
    "<select multiple>",
    "<option>",
    "</option>",
    "<option selected>",
    "<option disabled>",
    "<optgroup>",
    "</optgroup>",
    "<optgroup disabled>",
    "<template>",
    "</template>",
    "<table>",
    "</table>",
    "<tr>",
    "<td>",
    "</td>",
    "<caption>",
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    "<a>",
    "</a>",
    "<div>",
    "</div>",
    "<p>",
    "</p>",
    "<button>",
    "</button>",
    "<hr>",
    "<datalist>",
    "</datalist>",
    "<form>",
    "</form>",
    "<input>",
    "<textarea>",
    "</textarea>",
    "<keygen>",
    "<nobr>",
    "x",
    " ",
    "y",
    "<!--c-->",
    "<span>",
    "</span>",
];

/// xorshift64*.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// One generated document.
pub fn generate(seed: u64) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let len = 1 + (rng.next() % 24) as usize;
    let mut s = String::new();
    for _ in 0..len {
        s.push_str(PIECES[(rng.next() % PIECES.len() as u64) as usize]);
    }
    s
}

/// html5ever's tree in the html5lib format (HTML elements, text, comments, templates).
fn dump_rcdom(dom: &RcDom) -> String {
    let mut out = String::new();
    // (node, depth, is template contents marker)
    let mut stack: Vec<(Handle, usize)> = dom
        .document
        .children
        .borrow()
        .iter()
        .rev()
        .map(|c| (c.clone(), 0))
        .collect();
    while let Some((node, depth)) = stack.pop() {
        let indent = "  ".repeat(depth);
        match &node.data {
            NodeData::Doctype { name, .. } => out.push_str(&format!("| <!DOCTYPE {name}>\n")),
            NodeData::Text { contents } => {
                out.push_str(&format!("| {indent}\"{}\"\n", contents.borrow()))
            }
            NodeData::Comment { contents } => {
                out.push_str(&format!("| {indent}<!-- {contents} -->\n"))
            }
            NodeData::Element {
                name,
                attrs,
                template_contents,
                ..
            } => {
                out.push_str(&format!("| {indent}<{}>\n", name.local));
                let mut attrs: Vec<(String, String)> = attrs
                    .borrow()
                    .iter()
                    .map(|a| (a.name.local.to_string(), a.value.to_string()))
                    .collect();
                attrs.sort();
                for (k, v) in attrs {
                    out.push_str(&format!("| {indent}  {k}=\"{v}\"\n"));
                }
                let children: Vec<(Handle, usize)> = node
                    .children
                    .borrow()
                    .iter()
                    .rev()
                    .map(|c| (c.clone(), depth + 1))
                    .collect();
                stack.extend(children);
                if let Some(contents) = template_contents.borrow().as_ref() {
                    out.push_str(&format!("| {indent}  content\n"));
                    stack.extend(
                        contents
                            .children
                            .borrow()
                            .iter()
                            .rev()
                            .map(|c| (c.clone(), depth + 2)),
                    );
                }
            }
            _ => {}
        }
    }
    out
}

fn html5ever_tree(input: &str) -> String {
    let dom = html5ever::parse_document(RcDom::default(), Default::default()).one(input);
    dump_rcdom(&dom)
}

/// Whether a difference is html5ever's, with the reason.
///
/// - A `form` start tag in "in table" (or "in body") while a `template` is open: the
///   snapshot (16 September 2026) ignores it only "if the form element pointer is not null,
///   and the parser is not parsing template contents"; html5ever 0.40 follows the older text
///   ("if there is a template element on the stack of open elements ... ignore the token").
///   Recognised by the trees becoming equal once the `<form>` tags are left out.
fn html5ever_revision(input: &str) -> Option<&'static str> {
    if input.contains("<template>") && input.contains("<form>") {
        let without = input.replace("<form>", "");
        if html_arena::Document::parse(&without).dump_tree() == html5ever_tree(&without) {
            return Some("form start tag while a template is open (older revision)");
        }
    }
    None
}

#[test]
fn select_soup_matches_html5ever() {
    let mut differences = Vec::new();
    let mut theirs_count = 0;
    for seed in 0..4000 {
        let input = generate(seed);
        let ours = html_arena::Document::parse(&input).dump_tree();
        let theirs = html5ever_tree(&input);
        if ours != theirs {
            if html5ever_revision(&input).is_some() {
                theirs_count += 1;
                continue;
            }
            differences.push(format!("{input}\nours:\n{ours}theirs:\n{theirs}"));
        }
    }
    // The seeds give a few of those; if none were left the filter would be untested.
    assert!(theirs_count > 0 && theirs_count < 100, "{theirs_count}");
    if let Ok(path) = std::env::var("SELECT_DIFF_OUT") {
        let _ = std::fs::write(path, differences.join("\n=====\n"));
    }
    assert!(
        differences.is_empty(),
        "{} differences; first:\n{}",
        differences.len(),
        differences.first().map_or("", String::as_str)
    );
}
