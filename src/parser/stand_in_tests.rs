//! Stand-ins (see `dom/build.rs`) never change the tree: every input of the tree-construction
//! suites, and random tag soup, parses to the same tree and the same errors with stand-ins for
//! every element, every second or third one, or none.

use super::{ParseOptions, Parser};
use crate::dom::Document;

/// Parses `input` (as a fragment of `context` when given) with stand-ins every `spacing`
/// stack positions.
fn parse(input: &str, context: Option<&str>, scripting: bool, spacing: usize) -> Document {
    let options = ParseOptions::default().with_scripting(scripting);
    let mut parser = match context {
        Some(c) => Parser::new_fragment(c, &options).expect("context"),
        None => Parser::new(&options),
    };
    parser.pipeline.builder.stand_in_spacing = spacing;
    parser.write_str(input);
    parser.finish()
}

fn summary(doc: &Document) -> (String, Vec<(crate::error::ErrorCode, u32, u32)>) {
    let errors = doc
        .errors()
        .iter()
        .map(|e| (e.code, e.line, e.column))
        .collect();
    (doc.dump_tree(), errors)
}

/// Checks `input` with several stand-in spacings against no stand-ins at all.
fn check(input: &str, context: Option<&str>, scripting: bool) {
    let expected = summary(&parse(input, context, scripting, usize::MAX));
    for spacing in [1, 2, 3] {
        let got = summary(&parse(input, context, scripting, spacing));
        assert_eq!(
            got, expected,
            "stand-ins every {spacing} positions changed the parse of {input:?} (context {context:?}, scripting {scripting})"
        );
    }
}

/// The `#data` inputs of the tree-construction files, with their fragment context and
/// scripting flags.
fn suite_inputs() -> Vec<(String, Option<String>, Option<bool>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files = Vec::new();
    for dir in [
        "html5lib-tests/tree-construction",
        "html5lib-tests-updates/tree-construction",
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.path().extension().is_some_and(|e| e == "dat") {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    let mut inputs = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read");
        let lines: Vec<&str> = text.split('\n').collect();
        let mut i = 0;
        while i < lines.len() {
            if lines[i] != "#data" {
                i += 1;
                continue;
            }
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && lines[end] != "#errors" {
                end += 1;
            }
            let data = lines[start..end].join("\n");
            let (mut context, mut scripting) = (None, None);
            let mut j = end;
            while j < lines.len() && lines[j] != "#data" {
                match lines[j] {
                    "#document-fragment" => context = lines.get(j + 1).map(|c| c.to_string()),
                    "#script-on" => scripting = Some(true),
                    "#script-off" => scripting = Some(false),
                    _ => {}
                }
                j += 1;
            }
            inputs.push((data, context, scripting));
            i = j;
        }
    }
    inputs
}

#[test]
fn suite_trees_do_not_change() {
    let inputs = suite_inputs();
    assert!(inputs.len() > 1_500, "{} inputs", inputs.len());
    for (data, context, scripting) in &inputs {
        for s in [false, true] {
            if scripting.is_some_and(|x| x != s) {
                continue;
            }
            check(data, context.as_deref(), s);
        }
    }
}

#[test]
fn tag_soup_trees_do_not_change() {
    // Tags that exercise the adoption agency algorithm, foster parenting, tables, templates,
    // select, foreign content and implied end tags, in random order.
    const PIECES: &[&str] = &[
        "<b>",
        "</b>",
        "<i>",
        "</i>",
        "<a href=x>",
        "</a>",
        "<nobr>",
        "</nobr>",
        "<p>",
        "</p>",
        "<div>",
        "</div>",
        "<span>",
        "</span>",
        "<table>",
        "</table>",
        "<tr>",
        "<td>",
        "</td>",
        "<caption>",
        "<template>",
        "</template>",
        "<select>",
        "<option>",
        "</select>",
        "<selectedcontent>",
        "<button>",
        "<svg>",
        "</svg>",
        "<math>",
        "<mi>",
        "<foreignObject>",
        "<li>",
        "<dd>",
        "<h1>",
        "</h1>",
        "<form>",
        "</form>",
        "<ul>",
        "<em>",
        "<font color=r>",
        "x",
        " ",
        "<!--c-->",
        "</body>",
        "<frameset>",
        "<br>",
        "</br>",
        "<plaintext>",
        "<code>",
        "<applet>",
        "</applet>",
        "<marquee>",
        "<object>",
        "</object>",
        "<tbody>",
        "<col>",
    ];
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    for _ in 0..3_000 {
        let len = 1 + next(60);
        let input: String = (0..len).map(|_| PIECES[next(PIECES.len())]).collect();
        check(&input, None, false);
        if next(4) == 0 {
            check(&input, Some("td"), false);
        }
    }
}

/// The ancestors `put_back`'s check walks, parsing `input` with the default stand-in spacing.
fn put_back_walk(input: &str) -> u64 {
    let mut parser = Parser::new(&ParseOptions::default());
    parser.write_str(input);
    parser.finish().stand_ins.walked
}

/// Issue 28's note: `<b><i><option>c</b>` repeated after `<select><option><selectedcontent>`
/// (or a `selectedcontent` in a `button`) nests one reconstructed `i` per repetition. The
/// reconstructed elements got no stand-ins, so every element put back from deep in the stack
/// walked the whole chain up to the root: quadratic. With stand-ins every
/// `STAND_IN_SPACING` positions for reconstructed elements too, 4x the input is about 4x the
/// walk (it was 16x).
#[test]
fn reconstructed_formatting_elements_keep_put_back_walks_short() {
    for before in [
        "<select><option><selectedcontent>",
        "<select><button><selectedcontent></button><option>",
        "<div>",
    ] {
        let shape = |n: usize| format!("{before}{}", "<b><i><option>c</b>".repeat(n));
        let small = put_back_walk(&shape(2_000));
        let large = put_back_walk(&shape(8_000));
        assert!(small > 0, "{before}: no element was put back");
        assert!(large <= small * 9 / 2, "{before}: {small} -> {large}");
    }
}
