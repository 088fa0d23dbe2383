//! The `select`, `option` and `selectedcontent` steps where the nodes are not connected
//! (issue 28, item 1): soups of selects, options, optgroups, buttons, several
//! `selectedcontent` elements, nested selects, tables and templates, parsed as documents and
//! as fragments of many contexts. Each input is parsed three ways on this thread: with the
//! incremental steps, with the full steps (`Document::select_steps_reference_mode`) and with
//! no steps at all (`Document::select_steps_off`). The checks:
//!
//! - the incremental steps give the same tree and the same selectedness of every option
//!   (template contents included) as the full steps, and their state agrees with the tree;
//! - nothing changes outside connected trees: a parsed fragment is the same tree with the
//!   steps as without them, and so are the contents of every template (a template's contents
//!   live in an inert document) that is not inside a `selectedcontent` of the document (the
//!   steps replace a connected `selectedcontent`'s children, and the parser may go on
//!   inserting into what they took out).
//!
//! Used by `fuzz_targets/select_unconnected.rs` (unbounded) and `tests/select_element.rs` (a
//! bounded number of generated cases; it includes this file by path). Uses only `html_arena`
//! and `std`.

use html_arena::{Document, NodeRef, ParseOptions};

/// The generator's pieces.
pub const PIECES: &[&str] = &[
    "<select>",
    "</select>",
    "<select multiple>",
    "<select size=2>",
    "<option>",
    "<option>",
    "</option>",
    "<option selected>",
    "<option disabled>",
    "<optgroup>",
    "</optgroup>",
    "<optgroup disabled>",
    "<hr>",
    "<datalist>",
    "<button>",
    "</button>",
    "<selectedcontent>",
    "<selectedcontent>",
    "</selectedcontent>",
    "<template>",
    "<template>",
    "</template>",
    "<table>",
    "</table>",
    "<tr>",
    "<td>",
    "<caption>",
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    "<div>",
    "</div>",
    "<p>",
    "<svg>",
    "</svg>",
    "x",
    "y",
];

/// Fragment parsing contexts.
pub const CONTEXTS: &[&str] = &[
    "body",
    "div",
    "ul",
    "table",
    "tbody",
    "tr",
    "td",
    "caption",
    "colgroup",
    "head",
    "html",
    "select",
    "option",
    "optgroup",
    "button",
    "selectedcontent",
    "template",
    "title",
    "textarea",
    "p",
    "b",
    "svg",
    "math",
    "frameset",
];

/// The soup and how to parse it, from fuzz bytes: the first byte chooses a document (even) or
/// a fragment (odd, the second byte choosing the context); each later byte one piece.
pub fn soup(data: &[u8]) -> (String, Option<&'static str>) {
    let (context, rest) = match data {
        [m, c, rest @ ..] if m % 2 == 1 => (Some(CONTEXTS[*c as usize % CONTEXTS.len()]), rest),
        [_, rest @ ..] => (None, rest),
        [] => (None, &[][..]),
    };
    let input = rest
        .iter()
        .take(80)
        .map(|&b| PIECES[b as usize % PIECES.len()])
        .collect();
    (input, context)
}

/// Which of the three ways to parse.
#[derive(Copy, Clone)]
enum Steps {
    Incremental,
    Full,
    Off,
}

fn parse(input: &str, context: Option<&str>, steps: Steps) -> Option<Document> {
    Document::select_steps_reference_mode(matches!(steps, Steps::Full));
    Document::select_steps_off(matches!(steps, Steps::Off));
    let doc = match context {
        None => Some(Document::parse(input)),
        Some(c) => Document::parse_fragment(input, c, &ParseOptions::default()).ok(),
    };
    Document::select_steps_reference_mode(false);
    Document::select_steps_off(false);
    doc
}

/// Every node of `doc` in tree order, template contents after their template, each with
/// whether it is below a `selectedcontent` of the main tree (not counting template contents).
fn walk(doc: &Document) -> Vec<(NodeRef<'_>, bool)> {
    let mut out = Vec::new();
    let mut stack = vec![(doc.root(), false)];
    while let Some((node, under_sc)) = stack.pop() {
        out.push((node, under_sc));
        let element = node.as_element();
        let here = under_sc || element.is_some_and(|e| e.local_name() == "selectedcontent");
        let mut kids: Vec<_> = node.children().map(|c| (c, here)).collect();
        if let Some(contents) = element.and_then(|e| e.template_contents()) {
            // Template contents are checked on their own, below.
            kids.push((contents, here));
        }
        stack.extend(kids.into_iter().rev());
    }
    out
}

/// The tree and the selectedness of every option in it, template contents included.
fn observe(doc: &Document) -> String {
    let mut out = doc.dump_tree();
    for (node, _) in walk(doc) {
        if let Some(s) = doc.option_selectedness(node.node_id()) {
            out.push(if s { '1' } else { '0' });
        }
    }
    out
}

/// The contents of every template not below a `selectedcontent`, as HTML.
fn template_contents(doc: &Document) -> Vec<String> {
    walk(doc)
        .into_iter()
        .filter(|(_, under_sc)| !under_sc)
        .filter_map(|(node, _)| node.as_element()?.template_contents())
        .map(|contents| contents.children().map(|c| c.html()).collect())
        .collect()
}

/// Runs the checks on one input; the error describes the first failure.
pub fn check_soup(input: &str, context: Option<&str>) -> Result<(), String> {
    let what = format!("input {input:?} context {context:?}");
    let (Some(mut fast), Some(full), Some(off)) = (
        parse(input, context, Steps::Incremental),
        parse(input, context, Steps::Full),
        parse(input, context, Steps::Off),
    ) else {
        return Ok(());
    };
    let (a, b) = (observe(&fast), observe(&full));
    if a != b {
        return Err(format!(
            "{what}: the incremental steps differ from the full steps\n{a}\n{b}"
        ));
    }
    fast.check_select_state()
        .map_err(|e| format!("{what}: state: {e}"))?;
    if context.is_some() {
        let (a, b) = (fast.dump_tree(), off.dump_tree());
        if a != b {
            return Err(format!(
                "{what}: the fragment changed by the steps\nwith:\n{a}without:\n{b}"
            ));
        }
    }
    let (a, b) = (template_contents(&fast), template_contents(&off));
    if a != b {
        return Err(format!(
            "{what}: template contents changed by the steps\nwith: {a:?}\nwithout: {b:?}"
        ));
    }
    Ok(())
}

/// The fuzz target's check.
pub fn check(data: &[u8]) {
    let (input, context) = soup(data);
    if let Err(e) = check_soup(&input, context) {
        panic!("{e}");
    }
}
