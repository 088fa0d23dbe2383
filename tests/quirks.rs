//! Every DOCTYPE condition of the "initial" insertion mode (13.2.6.4.1), table-driven: each
//! entry of the snapshot's lists (copied here with the standard's capitalisation, from
//! `spec/03-tree-construction.md` of the 16 September 2026 snapshot) is parsed in a real
//! DOCTYPE, in several spellings, with and without system identifiers.
//!
//! Not covered, because this crate has neither: an `iframe` `srcdoc` document (never put in
//! quirks mode by its DOCTYPE) and the "parser cannot change the mode" flag.

use html_arena::{Document, QuirksMode};

/// "The public identifier is set to" (quirks).
const QUIRKS_PUBLIC_IDS: &[&str] = &[
    "-//W3O//DTD W3 HTML Strict 3.0//EN//",
    "-/W3C/DTD HTML 4.0 Transitional/EN",
    "HTML",
];

/// "The system identifier is set to" (quirks).
const QUIRKS_SYSTEM_ID: &str = "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd";

/// "The public identifier starts with" (quirks).
const QUIRKS_PUBLIC_PREFIXES: &[&str] = &[
    "+//Silmaril//dtd html Pro v0r11 19970101//",
    "-//AS//DTD HTML 3.0 asWedit + extensions//",
    "-//AdvaSoft Ltd//DTD HTML 3.0 asWedit + extensions//",
    "-//IETF//DTD HTML 2.0 Level 1//",
    "-//IETF//DTD HTML 2.0 Level 2//",
    "-//IETF//DTD HTML 2.0 Strict Level 1//",
    "-//IETF//DTD HTML 2.0 Strict Level 2//",
    "-//IETF//DTD HTML 2.0 Strict//",
    "-//IETF//DTD HTML 2.0//",
    "-//IETF//DTD HTML 2.1E//",
    "-//IETF//DTD HTML 3.0//",
    "-//IETF//DTD HTML 3.2 Final//",
    "-//IETF//DTD HTML 3.2//",
    "-//IETF//DTD HTML 3//",
    "-//IETF//DTD HTML Level 0//",
    "-//IETF//DTD HTML Level 1//",
    "-//IETF//DTD HTML Level 2//",
    "-//IETF//DTD HTML Level 3//",
    "-//IETF//DTD HTML Strict Level 0//",
    "-//IETF//DTD HTML Strict Level 1//",
    "-//IETF//DTD HTML Strict Level 2//",
    "-//IETF//DTD HTML Strict Level 3//",
    "-//IETF//DTD HTML Strict//",
    "-//IETF//DTD HTML//",
    "-//Metrius//DTD Metrius Presentational//",
    "-//Microsoft//DTD Internet Explorer 2.0 HTML Strict//",
    "-//Microsoft//DTD Internet Explorer 2.0 HTML//",
    "-//Microsoft//DTD Internet Explorer 2.0 Tables//",
    "-//Microsoft//DTD Internet Explorer 3.0 HTML Strict//",
    "-//Microsoft//DTD Internet Explorer 3.0 HTML//",
    "-//Microsoft//DTD Internet Explorer 3.0 Tables//",
    "-//Netscape Comm. Corp.//DTD HTML//",
    "-//Netscape Comm. Corp.//DTD Strict HTML//",
    "-//O'Reilly and Associates//DTD HTML 2.0//",
    "-//O'Reilly and Associates//DTD HTML Extended 1.0//",
    "-//O'Reilly and Associates//DTD HTML Extended Relaxed 1.0//",
    "-//SQ//DTD HTML 2.0 HoTMetaL + extensions//",
    "-//SoftQuad Software//DTD HoTMetaL PRO 6.0::19990601::extensions to HTML 4.0//",
    "-//SoftQuad//DTD HoTMetaL PRO 4.0::19971010::extensions to HTML 4.0//",
    "-//Spyglass//DTD HTML 2.0 Extended//",
    "-//Sun Microsystems Corp.//DTD HotJava HTML//",
    "-//Sun Microsystems Corp.//DTD HotJava Strict HTML//",
    "-//W3C//DTD HTML 3 1995-03-24//",
    "-//W3C//DTD HTML 3.2 Draft//",
    "-//W3C//DTD HTML 3.2 Final//",
    "-//W3C//DTD HTML 3.2//",
    "-//W3C//DTD HTML 3.2S Draft//",
    "-//W3C//DTD HTML 4.0 Frameset//",
    "-//W3C//DTD HTML 4.0 Transitional//",
    "-//W3C//DTD HTML Experimental 19960712//",
    "-//W3C//DTD HTML Experimental 970421//",
    "-//W3C//DTD W3 HTML//",
    "-//W3O//DTD W3 HTML 3.0//",
    "-//WebTechs//DTD Mozilla HTML 2.0//",
    "-//WebTechs//DTD Mozilla HTML//",
];

/// "The system identifier is missing or the empty string, and the public identifier starts
/// with" (quirks); "the system identifier is neither missing nor the empty string, and the
/// public identifier starts with" (limited quirks).
const HTML_401_PREFIXES: &[&str] = &[
    "-//W3C//DTD HTML 4.01 Frameset//",
    "-//W3C//DTD HTML 4.01 Transitional//",
];

/// "The public identifier starts with" (limited quirks).
const LIMITED_QUIRKS_PREFIXES: &[&str] = &[
    "-//W3C//DTD XHTML 1.0 Frameset//",
    "-//W3C//DTD XHTML 1.0 Transitional//",
];

/// The mode `<!DOCTYPE name PUBLIC "public" "system">` (parts left out when `None`) gives.
fn mode(name: &str, public: Option<&str>, system: Option<&str>) -> QuirksMode {
    let mut doctype = format!("<!DOCTYPE {name}");
    match (public, system) {
        (Some(p), Some(s)) => doctype += &format!(" PUBLIC \"{p}\" \"{s}\""),
        (Some(p), None) => doctype += &format!(" PUBLIC \"{p}\""),
        (None, Some(s)) => doctype += &format!(" SYSTEM \"{s}\""),
        (None, None) => {}
    }
    doctype += "><p>x";
    Document::parse(&doctype).quirks_mode()
}

/// The spellings a case-insensitive comparison must accept.
fn spellings(s: &str) -> [String; 3] {
    [s.to_owned(), s.to_ascii_lowercase(), s.to_ascii_uppercase()]
}

const SYSTEMS: [Option<&str>; 3] = [None, Some(""), Some("http://www.w3.org/TR/html4/loose.dtd")];

#[test]
fn exact_public_identifiers_are_quirks() {
    for id in QUIRKS_PUBLIC_IDS {
        for p in spellings(id) {
            for s in SYSTEMS {
                assert_eq!(mode("html", Some(&p), s), QuirksMode::Quirks, "{p:?} {s:?}");
            }
        }
        // "Is set to": a longer identifier is not a match.
        let longer = format!("{id}x");
        assert_eq!(
            mode("html", Some(&longer), None),
            QuirksMode::NoQuirks,
            "{longer:?}"
        );
    }
}

#[test]
fn exact_system_identifier_is_quirks() {
    for s in spellings(QUIRKS_SYSTEM_ID) {
        assert_eq!(mode("html", None, Some(&s)), QuirksMode::Quirks, "{s:?}");
        assert_eq!(
            mode("html", Some("x"), Some(&s)),
            QuirksMode::Quirks,
            "{s:?}"
        );
    }
    let longer = format!("{QUIRKS_SYSTEM_ID}x");
    assert_eq!(mode("html", None, Some(&longer)), QuirksMode::NoQuirks);
}

#[test]
fn public_identifier_prefixes_are_quirks() {
    for prefix in QUIRKS_PUBLIC_PREFIXES {
        for p in spellings(prefix) {
            for tail in ["", "EN", "en//x"] {
                let id = format!("{p}{tail}");
                for s in SYSTEMS {
                    assert_eq!(
                        mode("html", Some(&id), s),
                        QuirksMode::Quirks,
                        "{id:?} {s:?}"
                    );
                }
            }
        }
        // A prefix of the prefix is not a match.
        let short = &prefix[..prefix.len() - 1];
        assert_eq!(
            mode("html", Some(short), None),
            QuirksMode::NoQuirks,
            "{short:?}"
        );
    }
}

#[test]
fn html_401_prefixes_depend_on_the_system_identifier() {
    for prefix in HTML_401_PREFIXES {
        for p in spellings(prefix) {
            let id = format!("{p}EN");
            // "Missing or the empty string": quirks.
            assert_eq!(mode("html", Some(&id), None), QuirksMode::Quirks, "{id:?}");
            assert_eq!(
                mode("html", Some(&id), Some("")),
                QuirksMode::Quirks,
                "{id:?}"
            );
            // "Neither missing nor the empty string": limited quirks.
            for s in ["http://www.w3.org/TR/html4/loose.dtd", " ", "x"] {
                assert_eq!(
                    mode("html", Some(&id), Some(s)),
                    QuirksMode::LimitedQuirks,
                    "{id:?} {s:?}"
                );
            }
        }
    }
}

#[test]
fn limited_quirks_prefixes() {
    for prefix in LIMITED_QUIRKS_PREFIXES {
        for p in spellings(prefix) {
            let id = format!("{p}EN");
            for s in SYSTEMS {
                assert_eq!(
                    mode("html", Some(&id), s),
                    QuirksMode::LimitedQuirks,
                    "{id:?} {s:?}"
                );
            }
        }
    }
}

#[test]
fn name_and_force_quirks() {
    // "The name is not html."
    assert_eq!(mode("htm", None, None), QuirksMode::Quirks);
    assert_eq!(mode("html5", None, None), QuirksMode::Quirks);
    // Names are lowercased by the tokenizer.
    assert_eq!(mode("HTML", None, None), QuirksMode::NoQuirks);
    // "The force-quirks flag is set to on": a DOCTYPE without a name, or a bogus one.
    assert_eq!(
        Document::parse("<!DOCTYPE>").quirks_mode(),
        QuirksMode::Quirks
    );
    assert_eq!(
        Document::parse("<!DOCTYPE html PUBLIC>").quirks_mode(),
        QuirksMode::Quirks
    );
    // No DOCTYPE at all ("anything else").
    assert_eq!(Document::parse("<p>x").quirks_mode(), QuirksMode::Quirks);
    // Standards DOCTYPEs.
    assert_eq!(mode("html", None, None), QuirksMode::NoQuirks);
    assert_eq!(
        mode("html", None, Some("about:legacy-compat")),
        QuirksMode::NoQuirks
    );
    assert_eq!(
        mode("html", Some("-//W3C//DTD HTML 4.01//EN"), None),
        QuirksMode::NoQuirks
    );
    assert_eq!(
        mode("html", Some("-//W3C//DTD XHTML 1.0 Strict//EN"), Some("")),
        QuirksMode::NoQuirks
    );
}

/// The issue's minimal inputs.
#[test]
fn empty_system_identifier_with_html_401() {
    for input in [
        r#"<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "">"#,
        r#"<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Frameset//EN" "">"#,
        r#"<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Frameset//EN" ''>"#,
    ] {
        assert_eq!(
            Document::parse(input).quirks_mode(),
            QuirksMode::Quirks,
            "{input}"
        );
    }
}
