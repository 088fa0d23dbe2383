//! What the optional rooms' cargo features change: without `forms`, the selector parser
//! refuses the pseudo-classes that need constraint validation (a typed error, as for an
//! unsupported pseudo-class); with it, they parse and match.

use html_arena::{Document, Selector, SelectorErrorKind};

const FORM_PSEUDO_CLASSES: [&str; 4] = [":valid", ":invalid", ":in-range", ":out-of-range"];

#[cfg(not(feature = "forms"))]
#[test]
fn without_forms_validity_pseudo_classes_are_refused() {
    for s in FORM_PSEUDO_CLASSES {
        let err = Selector::parse(s).expect_err(s);
        assert_eq!(
            err.kind(),
            &SelectorErrorKind::UnknownPseudoClass(s[1..].to_owned()),
            "{s}"
        );
    }
    // What does not need validity still works.
    let doc = Document::parse("<input required><input disabled>");
    let required = Selector::parse("input:required").expect("selector");
    assert_eq!(doc.select(&required).count(), 1);
    let disabled = Selector::parse(":disabled").expect("selector");
    assert_eq!(doc.select(&disabled).count(), 1);
}

#[cfg(feature = "forms")]
#[test]
fn with_forms_validity_pseudo_classes_match() {
    let doc = Document::parse("<input required><input type=number min=5 value=3><input value=x>");
    let count = |s: &str| doc.select(&Selector::parse(s).expect(s)).count();
    assert_eq!(count(":invalid"), 2);
    assert_eq!(count(":valid"), 1);
    assert_eq!(count(":out-of-range"), 1);
    assert_eq!(count(":in-range"), 0);
    for s in FORM_PSEUDO_CLASSES {
        assert!(Selector::parse(s).is_ok(), "{s}");
    }
    let _ = SelectorErrorKind::Empty;
}
