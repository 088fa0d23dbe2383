//! The select soup of the differential test against html5ever: a grammar of
//! select/option/optgroup/template/table/formatting pieces, html5ever's tree in the html5lib
//! format, and the differences known to be html5ever's older revision. Used by
//! `fuzz_targets/select_diff.rs` (unbounded) and `tests/select_differential.rs` (a fixed seed;
//! it includes this file by path, so both run exactly the same checks).

use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

/// The generator's pieces.
pub const PIECES: &[&str] = &[
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

pub fn html5ever_tree(input: &str) -> String {
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
pub fn html5ever_revision(input: &str) -> Option<&'static str> {
    if input.contains("<template>") && input.contains("<form>") {
        let without = input.replace("<form>", "");
        if html_arena::Document::parse(&without).dump_tree() == html5ever_tree(&without) {
            return Some("form start tag while a template is open (older revision)");
        }
    }
    None
}
