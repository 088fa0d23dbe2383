//! HTML's pseudo-classes (HTML, "Pseudo-classes"), one table per pseudo-class: for each
//! markup, the ids of the elements a selector matches. Plus: which pseudo-classes parse (those
//! Chromium accepts), directionality with mixed-script text, invariants on real pages.
// (Validity and the form pseudo-classes need the `forms` feature: see tests/features.rs for
// what a build without it does.)
#![cfg(feature = "forms")]

use html_arena::{Direction, Document, ElementRef, ParseOptions, Selector};

/// The ids of the elements `selector` matches in `doc`, space-separated.
fn ids(doc: &Document, selector: &str) -> String {
    let sel = Selector::parse(selector).unwrap_or_else(|e| panic!("{selector}: {e}"));
    doc.select(&sel)
        .filter_map(|e| e.id())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks every (markup, selector, expected ids) row and reports all failures at once.
fn check(rows: &[(&str, &str, &str)]) {
    let mut failures = Vec::new();
    for (markup, selector, expected) in rows {
        let doc = Document::parse(markup);
        let got = ids(&doc, selector);
        if got != *expected {
            failures.push(format!(
                "{selector} on {markup}\n  expected [{expected}]\n  got      [{got}]"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn valid_and_invalid() {
    check(&[
        ("<input id=a><input id=b required>", ":valid", "a"),
        ("<input id=a><input id=b required>", ":invalid", "b"),
        // :is() is forgiving: it must know both.
        (
            "<input id=a><input id=b required>",
            ":is(:valid, :invalid)",
            "a b",
        ),
        ("<input id=a><input id=b required>", "[id]:not(:valid)", "b"),
        // Barred elements match neither.
        (
            "<input id=a type=hidden required><input id=b disabled required><input id=c readonly required><button id=d type=button></button><output id=e></output><object id=f></object>",
            ":valid, :invalid",
            "",
        ),
        // Submit buttons are candidates with no constraints.
        (
            "<button id=a></button><input id=b type=submit><input id=c type=image>",
            ":valid",
            "a b c",
        ),
        // Forms: by the controls they own, including through the form attribute.
        (
            "<form id=f1><input required></form><form id=f2><input></form><form id=f3></form>",
            "form:invalid",
            "f1",
        ),
        (
            "<form id=f1><input required></form><form id=f2><input></form><form id=f3></form>",
            "form:valid",
            "f2 f3",
        ),
        (
            "<form id=f1></form><input required form=f1>",
            "form:invalid",
            "f1",
        ),
        // An invalid control inside the form but owned by another form.
        (
            "<form id=f1><input required form=f2></form><form id=f2></form>",
            "form:invalid",
            "f2",
        ),
        // The parser ignores a nested form start tag: the control belongs to the outer form.
        (
            "<form id=f1><form id=f2><input required></form>",
            "form:invalid",
            "f1",
        ),
        // Fieldsets: by their descendants, whatever their form owner.
        (
            "<fieldset id=a><div><input required form=x></div></fieldset><fieldset id=b><input></fieldset>",
            "fieldset:invalid",
            "a",
        ),
        (
            "<fieldset id=a><fieldset id=b><input required></fieldset></fieldset><fieldset id=c></fieldset>",
            "fieldset:invalid",
            "a b",
        ),
        (
            "<fieldset id=a><fieldset id=b><input required></fieldset></fieldset><fieldset id=c></fieldset>",
            "fieldset:valid",
            "c",
        ),
        // A disabled fieldset disables its controls (not in its first legend).
        (
            "<fieldset id=a disabled><input required></fieldset><fieldset id=b disabled><legend><input required></legend></fieldset>",
            "fieldset:invalid",
            "b",
        ),
        // Radio groups.
        (
            "<input id=a type=radio name=g required><input id=b type=radio name=g><input id=c type=radio name=h required checked>",
            ":invalid",
            "a b",
        ),
        // Other elements never match.
        ("<div id=a></div><p id=b></p>", ":valid, :invalid", ""),
        ("<svg><input id=a required></svg>", ":valid, :invalid", ""),
    ]);
}

#[test]
fn in_range_and_out_of_range() {
    let markup = "<input id=a type=number min=1 value=5>\
                  <input id=b type=number min=1 value=0>\
                  <input id=c type=number value=0>\
                  <input id=d type=number max=1>\
                  <input id=e type=range>\
                  <input id=f type=date max=2000-01-01 value=2001-01-01>\
                  <input id=g type=time min=22:00 max=02:00 value=23:00>\
                  <input id=h type=time min=22:00 max=02:00 value=12:00>\
                  <input id=i type=text min=1 value=0>\
                  <input id=j type=number min=1 value=0 disabled>\
                  <input id=k type=number min=1 value=0 readonly>";
    check(&[
        (markup, ":in-range", "a d e g"),
        (markup, ":out-of-range", "b f h"),
    ]);
}

#[test]
fn required_and_optional() {
    let markup = "<input id=a required><input id=b><input id=c type=hidden required>\
                  <input id=d type=submit required><input id=e type=range required>\
                  <input id=f type=checkbox required><select id=g required></select>\
                  <select id=h></select><textarea id=i required></textarea><textarea id=j></textarea>\
                  <button id=k required></button><div id=l required></div>";
    check(&[
        (markup, ":required", "a f g i"),
        // Every input that is not required (whatwg/html#11273: browsers and WPT).
        (markup, ":optional", "b c d e h j"),
    ]);
}

#[test]
fn read_only_and_read_write() {
    let markup = "<input id=a><input id=b readonly><input id=c disabled><input id=d type=checkbox>\
                  <input id=e type=date><textarea id=f></textarea><textarea id=g readonly></textarea>\
                  <div id=h contenteditable><span id=i></span><p id=j contenteditable=false><b id=k></b></p>\
                  <svg id=l></svg></div><div id=m contenteditable=plaintext-only></div>\
                  <div id=n contenteditable=bogus></div><p id=o></p><svg id=p></svg>";
    check(&[
        (markup, ":read-write", "a e f h i m"),
        (markup, "[id]:read-only", "b c d g j k n o"),
        // Not an HTML element: neither.
        (markup, "svg:read-only, svg:read-write", ""),
    ]);
}

#[test]
fn placeholder_shown() {
    let markup = "<input id=a placeholder=x><input id=b placeholder=x value=v>\
                  <input id=c placeholder=''><input id=d placeholder=x value='&#10;'>\
                  <input id=e type=number placeholder=x value=abc><input id=f type=date placeholder=x>\
                  <input id=g type=checkbox placeholder=x><input id=h>\
                  <textarea id=i placeholder=x></textarea><textarea id=j placeholder=x>t</textarea>\
                  <input id=k type=email placeholder=x value='  '><div id=l placeholder=x></div>";
    check(&[(markup, ":placeholder-shown", "a c d e i k")]);
}

#[test]
fn default_checked_indeterminate() {
    let markup = "<form><input id=a type=submit><button id=b></button></form>\
                  <form><button id=c type=button></button><button id=d></button></form>\
                  <form id=f></form><input id=e type=image form=f>\
                  <input id=g type=checkbox checked><input id=h type=radio name=r checked>\
                  <input id=i type=radio name=r checked><input id=j type=radio name=s>\
                  <select><option id=k selected><option id=l></select>\
                  <select><option id=m><option id=n></select>\
                  <progress id=o></progress><progress id=p value=2></progress>\
                  <input id=q type=radio><input id=t type=checkbox>";
    check(&[
        (markup, ":default", "a d e g h i k"),
        (markup, ":checked", "g i k m"),
        // An option outside a select keeps the selectedness its selected attribute gives it.
        (
            "<option id=a selected></option><datalist><option id=b selected></option></datalist>\
             <select><div><option id=c selected></option></div><option id=d></option></select>\
             <select><div><option id=e></option></div><option id=f></option></select>",
            "option:checked",
            "a b c e",
        ),
        (markup, ":indeterminate", "j o q"),
    ]);
}

#[test]
fn open_and_never_matching() {
    check(&[
        (
            "<details id=a open></details><details id=b></details><dialog id=c open></dialog><select id=d open></select>",
            ":open",
            "a c",
        ),
        (
            "<input id=a required><p id=b>",
            ":user-valid, :user-invalid, :autofill, :-webkit-autofill, :current, :past, :future, \
             :target-current, :state(checked), :popover-open, :modal, \
             :fullscreen, :picture-in-picture, :active-view-transition, \
             :active-view-transition-type(a, b), :xr-overlay, :-webkit-full-screen, \
             :hover, :active, :focus, :focus-visible, :focus-within, :target, :visited",
            "",
        ),
        ("<a id=a href=x></a><a id=b></a>", ":-webkit-any-link", "a"),
    ]);
}

#[test]
fn pseudo_classes_parse_and_serialize() {
    for (input, serialized) in [
        (":dir(RTL)", ":dir(RTL)"),
        (":dir(foo)", ":dir(foo)"),
        (":state(my-state)", ":state(my-state)"),
        (":VALID", ":valid"),
        (":is(:valid, :invalid)", ":is(:valid, :invalid)"),
        (
            ":active-view-transition-type(a,b)",
            ":active-view-transition-type(a, b)",
        ),
    ] {
        let sel = Selector::parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(sel.to_string(), serialized, "{input}");
    }
    for bad in [
        ":dir()",
        ":dir(ltr, rtl)",
        ":dir(\"ltr\")",
        ":state()",
        ":valid()",
        ":in-range(1)",
        ":bogus",
        // Chromium rejects the media pseudo-classes.
        ":playing",
        ":paused",
    ] {
        assert!(Selector::parse(bad).is_err(), "{bad} parsed");
    }
}

/// Strong characters: Hebrew (R), Arabic (AL), Latin (L); digits and punctuation are weak
/// or neutral.
const HEBREW: &str = "\u{5e9}\u{5dc}\u{5d5}\u{5dd}";
const ARABIC: &str = "\u{645}\u{631}\u{62d}\u{628}\u{627}";

#[test]
fn directionality() {
    let markup = format!(
        "<div id=a dir=rtl><p id=b>x</p><svg id=c></svg><input id=d type=tel>\
         <p id=e dir=auto>123</p><bdi id=f>123</bdi><bdi id=g>{HEBREW}</bdi></div>\
         <p id=h dir=auto>123 {HEBREW} abc</p>\
         <p id=i dir=auto>abc {HEBREW}</p>\
         <p id=j dir=auto><span dir=ltr>abc</span>{HEBREW}</p>\
         <p id=k dir=auto><bdi>abc</bdi>{ARABIC}</p>\
         <p id=l dir=auto><script>abc</script><style>abc</style><textarea>abc</textarea>{ARABIC}</p>\
         <div id=m dir=auto><div><span><b>!? 42 {ARABIC}</b></span></div></div>\
         <p id=n dir=auto><span dir=bogus>abc</span>{HEBREW}</p>\
         <input id=o dir=auto value='{HEBREW}'><input id=p dir=auto value='12 abc'>\
         <textarea id=q dir=auto>{ARABIC}</textarea><input id=r dir=auto>\
         <div id=s dir=RtL><span id=t dir=foo></span></div>\
         <input id=u type=checkbox dir=auto value='{HEBREW}'>\
         <div dir=rtl><input id=v dir=auto></div>"
    );
    let doc = Document::parse(&markup);
    assert_eq!(
        ids(&doc, "[id]:dir(rtl)"),
        "a b c g h j k l m o q s t",
        "rtl"
    );
    // n: an invalid dir value is the undefined state, so its text counts.
    assert_eq!(ids(&doc, "[id]:dir(ltr)"), "d e f i n p r u v", "ltr");
    assert_eq!(ids(&doc, ":dir(foo)"), "");
    let root_ltr = Selector::parse("html:dir(ltr)").unwrap();
    assert_eq!(doc.select(&root_ltr).count(), 1);
    // The API agrees with the selector.
    let all = Selector::parse("*").unwrap();
    let rtl = Selector::parse(":dir(rtl)").unwrap();
    for el in doc.select(&all) {
        assert_eq!(
            el.directionality() == Direction::Rtl,
            el.matches(&rtl),
            "{el:?}"
        );
    }
}

#[test]
fn directionality_follows_mutations() {
    let mut doc = Document::parse("<p id=a dir=auto>abc</p>");
    assert_eq!(ids(&doc, ":dir(rtl)"), "");
    let p = doc
        .select_first(&Selector::parse("#a").unwrap())
        .unwrap()
        .node_id();
    let text = doc.new_text(HEBREW);
    let first = doc.node(p).unwrap().first_child().unwrap().node_id();
    doc.insert_before(first, text).unwrap();
    assert_eq!(ids(&doc, ":dir(rtl)"), "a");
}

/// The vendored real pages: every pseudo-class parses and runs, and the answers are
/// consistent with each other and with the API.
#[test]
fn real_pages() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bench-corpus");
    let sel = |s: &str| Selector::parse(s).unwrap();
    let (all, valid, invalid) = (sel("*"), sel(":valid"), sel(":invalid"));
    let (ltr, rtl) = (sel(":dir(ltr)"), sel(":dir(rtl)"));
    let (in_range, out_of_range) = (sel(":in-range"), sel(":out-of-range"));
    let (required, optional) = (sel(":required"), sel(":optional"));
    let (read_only, read_write) = (sel(":read-only"), sel(":read-write"));
    let mut pages = 0;
    let mut controls = 0;
    for entry in std::fs::read_dir(dir).expect("the vendored pages") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_none_or(|e| e != "html") {
            continue;
        }
        let bytes = std::fs::read(&path).expect("a page");
        let doc = Document::parse_bytes(&bytes, &ParseOptions::default()).expect("parses");
        pages += 1;
        let count = |s: &Selector| doc.select(s).count();
        // Every element has exactly one directionality.
        assert_eq!(count(&ltr) + count(&rtl), count(&all), "{path:?}");
        for el in doc.select(&all) {
            let (v, i) = (el.matches(&valid), el.matches(&invalid));
            assert!(!(v && i), "{path:?} {el:?}");
            assert!(!(el.matches(&in_range) && el.matches(&out_of_range)));
            assert!(!(el.matches(&required) && el.matches(&optional)));
            let html = el.namespace() == html_arena::Namespace::Html;
            assert_eq!(el.matches(&read_only) || el.matches(&read_write), html);
            if el.will_validate() {
                controls += 1;
                assert!(v || i, "{path:?} {el:?}");
                assert_eq!(i, !el.validity().unwrap().valid(), "{path:?} {el:?}");
            }
            if matches!(el.local_name(), "form" | "fieldset") && html {
                assert!(v || i);
            }
        }
    }
    assert!(pages >= 10, "{pages} pages");
    assert!(controls > 0, "no form controls in the vendored pages");
}

/// Hostile shapes: deep trees and backtracking patterns stay linear and never overflow the
/// stack (run on a 256 KiB stack, as the other deep-input tests are).
#[test]
fn hostile_pages() {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(hostile_pages_on_a_small_stack)
        .expect("a thread")
        .join()
        .expect("no panic, no overflow");
}

fn hostile_pages_on_a_small_stack() {
    let deep_auto = "<div dir=auto>".repeat(100_000) + HEBREW;
    let doc = Document::parse(&deep_auto);
    // Only the innermost div sees the text: each outer div skips its child (it has a dir).
    assert_eq!(
        doc.select(&Selector::parse(":dir(rtl)").unwrap()).count(),
        1
    );
    let deep_bdi = "<bdi>".repeat(100_000) + &"<span>".repeat(100_000) + ARABIC;
    let doc = Document::parse(&deep_bdi);
    assert_eq!(
        doc.select(&Selector::parse("span:dir(rtl)").unwrap())
            .count(),
        100_000
    );
    let deep_form = "<fieldset>".repeat(50_000) + "<input required>";
    let doc = Document::parse(&deep_form);
    assert_eq!(
        doc.select(&Selector::parse("fieldset:invalid").unwrap())
            .count(),
        50_000
    );
    // Exponential backtracking: not run, so not a mismatch.
    let evil = format!(
        "<form>{}</form>",
        "<input pattern='(a*)*b' value='aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'>".repeat(2_000)
    );
    let doc = Document::parse(&evil);
    assert_eq!(doc.select(&Selector::parse(":invalid").unwrap()).count(), 0);
    // Patterns at the engine's recursion limits, and past them (not compiled: no constraint).
    let deep = "(".repeat(31) + &"a|".repeat(128) + &")".repeat(31);
    let deeper = "(".repeat(1000) + &")".repeat(1000);
    let doc = Document::parse(&format!(
        "<input id=a pattern='{deep}' value=b><input id=b pattern='{deeper}' value=b>"
    ));
    assert_eq!(ids(&doc, ":invalid"), "a");
}

/// Chromium 148's answers (`querySelectorAll` on a `DOMParser` document) for form-heavy markup:
/// every `input` type with a grid of values and attributes, and hand-written cases (form
/// owners, nested forms, fieldsets, radio groups, selects, editing hosts, directionality).
/// `tests/data/forms-chromium.json` was recorded with Chromium 148.0.7778.167; match lists are
/// positions among `querySelectorAll('*')`, as ranges.
///
/// Every answer must be Chromium's, except where an element falls under one of the cases
/// `src/select/pseudo.rs` lists as Chromium differing from the HTML Standard (and forms and
/// fieldsets whose validity follows from such an element).
#[test]
fn same_matches_as_chromium() {
    fn input_type(e: &ElementRef<'_>) -> Option<String> {
        (e.local_name() == "input").then(|| e.attr("type").unwrap_or("text").to_ascii_lowercase())
    }
    fn not_a_float(v: Option<&str>) -> bool {
        // What Chromium ignores and the standard's lenient parsing reads ("5abc", "22:00").
        v.is_some_and(|v| v.parse::<f64>().is_err())
    }
    /// Elements whose validity differs from Chromium's for a listed reason.
    fn validity_divergence(e: &ElementRef<'_>) -> bool {
        match input_type(e).as_deref() {
            Some("image") => true,
            Some("radio") => {
                e.attr("name").is_none_or(str::is_empty) && e.attr("required").is_some()
            }
            Some("number" | "range") => {
                let (lo, hi) = (e.attr("min"), e.attr("max"));
                not_a_float(lo)
                    || not_a_float(hi)
                    || lo.zip(hi).is_some_and(|(lo, hi)| {
                        lo.parse::<f64>()
                            .ok()
                            .zip(hi.parse::<f64>().ok())
                            .is_some_and(|(lo, hi)| hi < lo)
                    })
            }
            _ => false,
        }
    }
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/forms-chromium.json"
    );
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the recorded answers"))
            .expect("JSON");
    let all = Selector::parse("*").unwrap();
    let mut compared = 0;
    let mut failures = Vec::new();
    for (i, case) in data.as_array().expect("a list").iter().enumerate() {
        let doc = Document::parse(case["markup"].as_str().expect("markup"));
        let elements: Vec<_> = doc.select(&all).collect();
        assert_eq!(
            elements.len() as u64,
            case["count"].as_u64().unwrap(),
            "case {i}"
        );
        for (selector, expected) in case["matches"].as_object().expect("selectors") {
            let mut chromium = vec![false; elements.len()];
            for part in expected
                .as_str()
                .unwrap()
                .split(' ')
                .filter(|p| !p.is_empty())
            {
                let (a, b) = part.split_once('-').unwrap_or((part, part));
                let (a, b) = (a.parse::<usize>().unwrap(), b.parse::<usize>().unwrap());
                chromium[a..=b].fill(true);
            }
            let sel = Selector::parse(selector).unwrap();
            for (k, e) in elements.iter().enumerate() {
                compared += 1;
                let ours = e.matches(&sel);
                if ours == chromium[k] {
                    continue;
                }
                let t = input_type(e);
                let listed = match selector.as_str() {
                    // No range limitations without min and max (WPT inrange-outofrange.html).
                    ":in-range" => {
                        (chromium[k]
                            && matches!(
                                t.as_deref(),
                                Some(
                                    "date"
                                        | "month"
                                        | "week"
                                        | "time"
                                        | "datetime-local"
                                        | "number"
                                )
                            ))
                            || validity_divergence(e)
                    }
                    // :optional on buttons.
                    ":optional" => e.local_name() == "button",
                    ":valid" | ":invalid" | ":is(:valid, :invalid)" | ":out-of-range" => {
                        validity_divergence(e)
                            || (matches!(e.local_name(), "form" | "fieldset")
                                && e.descendants()
                                    .filter_map(|d| d.as_element())
                                    .any(|d| validity_divergence(&d)))
                    }
                    _ => false,
                };
                if !listed {
                    failures.push(format!(
                        "case {i}, {selector}: element {k} {e:?}: chromium {}, ours {ours}",
                        chromium[k]
                    ));
                }
            }
        }
    }
    assert!(compared > 50_000, "{compared} comparisons");
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

/// Issue 28, item 2, "custom element names": `:defined` follows the relaxed "valid custom
/// element name" (HTML, custom elements "Core concepts", whatwg/html#7991, with the DOM's
/// "valid element local name"): a lowercase ASCII letter first, a hyphen, no ASCII upper
/// alpha, otherwise any name the parser makes; the reserved names stay defined.
#[test]
fn custom_element_names() {
    let markup = concat!(
        "<x-y:z id=colon></x-y:z><x-y.z id=dot></x-y.z><x-\u{e9} id=accent></x-\u{e9}>",
        "<us-gaap:foo.domain id=gaap></us-gaap:foo.domain><foo:bar id=nohyphen></foo:bar>",
        "<font-face id=reserved></font-face><annotation-xml id=reserved2></annotation-xml>",
        "<my-widget id=plain></my-widget><div id=div></div><div is=x-y id=is></div>",
        "<svg><x-y:z id=svg></x-y:z></svg>",
    );
    check(&[
        (markup, ":not(:defined)", "colon dot accent gaap plain is"),
        (markup, ":defined", "nohyphen reserved reserved2 div svg"),
    ]);
}
