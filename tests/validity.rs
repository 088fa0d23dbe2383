//! Form controls after parsing: each `input` type's value sanitization algorithm, constraint
//! validation (candidates and validity states), form owners; table-driven, with the HTML
//! Standard's own examples where it gives some ("States of the type attribute", "Common
//! microsyntaxes", "Constraint validation").
#![cfg(feature = "forms")]

use html_arena::{Document, ElementRef, Selector, ValidityState};

fn first<'a>(doc: &'a Document, selector: &str) -> ElementRef<'a> {
    let sel = Selector::parse(selector).unwrap_or_else(|e| panic!("{selector}: {e}"));
    doc.select_first(&sel)
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
}

/// The names of the validity states that hold, space-separated ("" when valid).
fn states(v: ValidityState) -> String {
    let mut out = Vec::new();
    for (name, on) in [
        ("valueMissing", v.value_missing),
        ("typeMismatch", v.type_mismatch),
        ("patternMismatch", v.pattern_mismatch),
        ("tooLong", v.too_long),
        ("tooShort", v.too_short),
        ("rangeUnderflow", v.range_underflow),
        ("rangeOverflow", v.range_overflow),
        ("stepMismatch", v.step_mismatch),
        ("badInput", v.bad_input),
        ("customError", v.custom_error),
    ] {
        if on {
            out.push(name);
        }
    }
    out.join(" ")
}

/// (the `input`'s attributes, the value after sanitization)
const SANITIZATION: &[(&str, &str)] = &[
    // Text, Search, Telephone, Password: "Strip newlines from the value."
    ("value='a&#10;b&#13;c'", "abc"),
    ("type=search value='a&#10;b'", "ab"),
    ("type=tel value=' 1&#10;2 '", " 12 "),
    ("type=password value='p&#13;w'", "pw"),
    ("type=bogus value=' x '", " x "),
    // URL: strip newlines, then leading and trailing ASCII whitespace.
    ("type=url value=' http://a/&#10; '", "http://a/"),
    // Email: the same without multiple; with it, each comma-separated token stripped.
    ("type=email value=' a@b.c&#10;'", "a@b.c"),
    ("type=email multiple value=' a@b , c@d '", "a@b,c@d"),
    ("type=email multiple value=','", ","),
    // Number: not a valid floating-point number → "".
    ("type=number value=1e3", "1e3"),
    ("type=number value=-.5", "-.5"),
    ("type=number value='1.'", ""),
    ("type=number value=+1", ""),
    ("type=number value=' 1'", ""),
    ("type=number value=0x10", ""),
    ("type=number value=abc", ""),
    // Range: the default value (min + (max - min) / 2), clamped, stepped.
    ("type=range", "50"),
    // The default value 2.5 is then off the step (1, from 0): stepped up to 3.
    ("type=range value=abc min=0 max=5", "3"),
    ("type=range value=abc min=0 max=5 step=any", "2.5"),
    ("type=range min=0 max=10 value=15", "10"),
    ("type=range min=0 max=10 value=-5", "0"),
    ("type=range min=0 max=10 step=3 value=5", "6"),
    // Equally near 3 and 6: "the one nearest to positive infinity".
    ("type=range min=0 max=10 step=3 value=4.5", "6"),
    // 9 is the last step within the maximum.
    ("type=range min=0 max=10 step=3 value=10", "9"),
    ("type=range min=0 max=1 step=0.1 value=0.33", "0.3"),
    ("type=range min=0 max=10 step=any value=7.25", "7.25"),
    // A maximum below the minimum: the default value is the minimum.
    ("type=range min=20 max=10", "20"),
    ("type=range value=1e1", "1e1"),
    // Color: a valid simple color, lowercased, else "#000000".
    ("type=color value=#ABCDEF", "#abcdef"),
    ("type=color value=red", "#000000"),
    ("type=color", "#000000"),
    ("type=color value='#abc'", "#000000"),
    // Date, Month, Week, Time: not a valid string of the type → "".
    ("type=date value=2020-02-29", "2020-02-29"),
    ("type=date value=2019-02-29", ""),
    ("type=date value=0000-01-01", ""),
    ("type=date value=' 2020-01-01'", ""),
    ("type=date value=12345-01-01", "12345-01-01"),
    ("type=month value=2020-12", "2020-12"),
    ("type=month value=2020-13", ""),
    // 2020 began on a Wednesday and was a leap year: 53 weeks. 2021 has 52.
    ("type=week value=2020-W53", "2020-W53"),
    ("type=week value=2021-W53", ""),
    ("type=week value=2021-w01", ""),
    ("type=time value=23:59", "23:59"),
    ("type=time value=23:59:59.999", "23:59:59.999"),
    ("type=time value=23:59:59.9999", ""),
    ("type=time value=24:00", ""),
    ("type=time value=1:00", ""),
    // Local date and time: a valid one becomes a valid normalized one.
    (
        "type=datetime-local value='2020-01-01 12:00:00'",
        "2020-01-01T12:00",
    ),
    (
        "type=datetime-local value=2020-01-01T12:00:30.500",
        "2020-01-01T12:00:30.5",
    ),
    (
        "type=datetime-local value=2020-01-01T12:00",
        "2020-01-01T12:00",
    ),
    ("type=datetime-local value=2020-01-01", ""),
    // Value modes "default", "default/on", "filename".
    ("type=hidden value=' x&#10;'", " x\n"),
    ("type=submit", ""),
    ("type=checkbox", "on"),
    ("type=radio value=''", ""),
    ("type=file value=x", ""),
];

#[test]
fn value_sanitization_per_type() {
    let mut failures = Vec::new();
    for (attrs, expected) in SANITIZATION {
        let doc = Document::parse(&format!("<input {attrs}>"));
        let value = first(&doc, "input").value().expect("an input has a value");
        if value != *expected {
            failures.push(format!(
                "<input {attrs}>: expected {expected:?}, got {value:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn values_of_other_controls() {
    let doc = Document::parse(
        "<textarea>\nline 1\r\nline 2</textarea>\
         <select id=s1><option>  A  b </option><option value=v2 selected>B</select>\
         <select id=s2></select>\
         <select id=s3 multiple><option>x<option selected>y</select>\
         <button value=go>Go</button><output>o<b>ut</b></output><option id=o>t<script>x</script></option>",
    );
    let value = |sel: &str| first(&doc, sel).value().map(|v| v.into_owned());
    // The parser drops the newline right after <textarea> and normalizes CRLF.
    assert_eq!(value("textarea").as_deref(), Some("line 1\nline 2"));
    assert_eq!(value("#s1").as_deref(), Some("v2"));
    assert_eq!(value("#s1 option").as_deref(), Some("A b"));
    assert_eq!(value("#s2").as_deref(), Some(""));
    assert_eq!(value("#s3").as_deref(), Some("y"));
    assert_eq!(value("button").as_deref(), Some("go"));
    assert_eq!(value("output").as_deref(), Some("out"));
    assert_eq!(value("#o").as_deref(), Some("t"));
    assert_eq!(value("body"), None);
}

/// (markup, the validity states of its element with `id=t`)
const VALIDITY: &[(&str, &str)] = &[
    // valueMissing.
    ("<input id=t required>", "valueMissing"),
    ("<input id=t required value=x>", ""),
    // The value is sanitized first: newlines only is empty.
    ("<input id=t required value='&#10;'>", "valueMissing"),
    (
        "<input id=t type=number required value=abc>",
        "valueMissing",
    ),
    ("<input id=t type=date required>", "valueMissing"),
    ("<input id=t type=checkbox required>", "valueMissing"),
    ("<input id=t type=checkbox required checked>", ""),
    ("<input id=t type=file required>", "valueMissing"),
    // `required` does not apply to range, color or hidden.
    ("<input id=t type=range required>", ""),
    ("<input id=t type=color required>", ""),
    // Radio button groups: same name and form owner.
    (
        "<input id=t type=radio name=a required><input type=radio name=a>",
        "valueMissing",
    ),
    (
        "<input id=t type=radio name=a><input type=radio name=a required>",
        "valueMissing",
    ),
    (
        "<input id=t type=radio name=a required><input type=radio name=a checked>",
        "",
    ),
    // Names compare case-sensitively.
    (
        "<input id=t type=radio name=a required><input type=radio name=A checked>",
        "valueMissing",
    ),
    // A radio in another form is in another group.
    (
        "<form><input id=t type=radio name=a required></form><form><input type=radio name=a checked></form>",
        "valueMissing",
    ),
    // ... unless its form attribute puts it in the same form.
    (
        "<form id=f><input id=t type=radio name=a required></form><input type=radio name=a checked form=f>",
        "",
    ),
    // A radio without a name is a group of its own.
    (
        "<input id=t type=radio required><input type=radio checked>",
        "valueMissing",
    ),
    ("<textarea id=t required></textarea>", "valueMissing"),
    ("<textarea id=t required>x</textarea>", ""),
    // The placeholder label option is selected: missing.
    (
        "<select id=t required><option value=''>Choose<option>A</select>",
        "valueMissing",
    ),
    (
        "<select id=t required><option value=''>Choose<option selected>A</select>",
        "",
    ),
    // Not a placeholder label option: the first option is in an optgroup.
    (
        "<select id=t required><optgroup><option value=''>x</optgroup></select>",
        "",
    ),
    // Not with a display size above 1, where nothing is selected.
    (
        "<select id=t required size=2><option value=''>x</select>",
        "valueMissing",
    ),
    (
        "<select id=t required multiple><option>x</select>",
        "valueMissing",
    ),
    ("<select id=t required></select>", "valueMissing"),
    // typeMismatch.
    ("<input id=t type=email value=a>", "typeMismatch"),
    ("<input id=t type=email value=a@b.c>", ""),
    ("<input id=t type=email value=a@-b.c>", "typeMismatch"),
    ("<input id=t type=email multiple value='a@b, c@d'>", ""),
    (
        "<input id=t type=email multiple value='a@b,'>",
        "typeMismatch",
    ),
    ("<input id=t type=email value=''>", ""),
    ("<input id=t type=url value=foo>", "typeMismatch"),
    ("<input id=t type=url value='https://example.com/a b'>", ""),
    ("<input id=t type=url value='http://'>", "typeMismatch"),
    ("<input id=t type=url value='mailto:x@y'>", ""),
    // patternMismatch: anchored, compiled with the v flag.
    ("<input id=t pattern=[a-z]+ value=abc>", ""),
    ("<input id=t pattern=[a-z]+ value=abc1>", "patternMismatch"),
    ("<input id=t pattern=a|b value=ab>", "patternMismatch"),
    ("<input id=t pattern='[\\p{L}--[a-z]]+' value=ABC>", ""),
    (
        "<input id=t pattern='[\\p{L}--[a-z]]+' value=aBC>",
        "patternMismatch",
    ),
    // Invalid with the v flag: no compiled pattern, no constraint.
    ("<input id=t pattern='[(]' value=x>", ""),
    // Empty values never mismatch; an empty pattern matches only the empty string.
    ("<input id=t pattern=[a-z]+>", ""),
    ("<input id=t pattern='' value=x>", "patternMismatch"),
    // With multiple, each value.
    (
        "<input id=t type=email multiple pattern='.+@a' value='x@a,y@b'>",
        "patternMismatch",
    ),
    // pattern does not apply to number.
    ("<input id=t type=number pattern=x value=1>", ""),
    // Both typeMismatch and patternMismatch.
    (
        "<input id=t type=email pattern=z value=a>",
        "typeMismatch patternMismatch",
    ),
    // tooLong and tooShort need a user edit.
    ("<input id=t maxlength=2 value=abcd>", ""),
    ("<input id=t minlength=5 value=ab>", ""),
    // Ranges: number.
    ("<input id=t type=number min=5 value=3>", "rangeUnderflow"),
    ("<input id=t type=number max=5 value=7>", "rangeOverflow"),
    (
        "<input id=t type=number min=10 max=5 value=7>",
        "rangeUnderflow rangeOverflow",
    ),
    // Step base: the min attribute, else the value attribute.
    (
        "<input id=t type=number min=0 step=2 value=3>",
        "stepMismatch",
    ),
    ("<input id=t type=number min=1 step=2 value=3>", ""),
    ("<input id=t type=number step=2 value=3>", ""),
    ("<input id=t type=number min=0 value=1.5>", "stepMismatch"),
    ("<input id=t type=number min=0 step=any value=1.5>", ""),
    ("<input id=t type=number min=0 step=0.1 value=0.3>", ""),
    (
        "<input id=t type=number min=0 step=0 value=1.5>",
        "stepMismatch",
    ),
    ("<input id=t type=number min=0 step=-1 value=1>", ""),
    ("<input id=t type=number min=5 value=''>", ""),
    // Dates: milliseconds, steps in days.
    (
        "<input id=t type=date min=2020-01-01 value=2019-12-31>",
        "rangeUnderflow",
    ),
    (
        "<input id=t type=date max=2020-01-01 value=2020-01-02>",
        "rangeOverflow",
    ),
    (
        "<input id=t type=date min=2020-01-01 step=2 value=2020-01-02>",
        "stepMismatch",
    ),
    (
        "<input id=t type=date min=2020-01-01 step=2 value=2020-01-03>",
        "",
    ),
    // An unparsable min is no minimum.
    ("<input id=t type=date min=2020-1-1 value=1999-01-01>", ""),
    (
        "<input id=t type=month min=2020-05 value=2020-04>",
        "rangeUnderflow",
    ),
    (
        "<input id=t type=week min=1970-W01 step=2 value=1970-W02>",
        "stepMismatch",
    ),
    (
        "<input id=t type=week min=1970-W01 step=2 value=1970-W03>",
        "",
    ),
    // Times: steps in seconds, 60 by default.
    (
        "<input id=t type=time min=00:00 value=12:00:30>",
        "stepMismatch",
    ),
    (
        "<input id=t type=time min=00:00 step=30 value=12:00:30>",
        "",
    ),
    (
        "<input id=t type=time min=00:00 step=any value=12:00:30>",
        "",
    ),
    // A reversed range (time only): outside it is both an underflow and an overflow.
    (
        "<input id=t type=time min=22:00 max=06:00 value=12:00>",
        "rangeUnderflow rangeOverflow",
    ),
    ("<input id=t type=time min=22:00 max=06:00 value=23:00>", ""),
    ("<input id=t type=time min=22:00 max=06:00 value=05:00>", ""),
    (
        "<input id=t type=datetime-local max=2020-01-01T00:00 value=2020-01-01T00:01>",
        "rangeOverflow",
    ),
    // A range input's value is clamped and stepped by sanitization: never out of range.
    ("<input id=t type=range min=0 max=10 value=50>", ""),
    // Barred from constraint validation: always valid.
    ("<input id=t required disabled>", ""),
    ("<input id=t required readonly>", ""),
    ("<fieldset disabled><input id=t required></fieldset>", ""),
    ("<datalist><input id=t required></datalist>", ""),
    ("<textarea id=t required readonly></textarea>", ""),
    // readonly bars every input type from constraint validation, even those it does not
    // otherwise apply to (WPT form-validation-willValidate.html; browsers agree).
    ("<input id=t type=checkbox required readonly>", ""),
    // Options nested in other elements of a select count (the relaxed select content model).
    (
        "<select id=t required><div><option value=''>x</option></div><option>y</select>",
        "valueMissing",
    ),
    (
        "<select id=t required><div><option value='' selected>x</option></div><option selected>y</select>",
        "",
    ),
];

#[test]
fn validity_states() {
    let mut failures = Vec::new();
    for (markup, expected) in VALIDITY {
        let doc = Document::parse(markup);
        let v = first(&doc, "#t").validity().expect("a listed element");
        let got = states(v);
        if got != *expected {
            failures.push(format!("{markup}: expected {expected:?}, got {got:?}"));
        }
        if v.valid() != expected.is_empty() {
            failures.push(format!("{markup}: valid() disagrees"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// (markup, whether the element with `id=t` is a candidate for constraint validation)
const CANDIDATES: &[(&str, bool)] = &[
    ("<input id=t>", true),
    ("<input id=t type=submit>", true),
    ("<input id=t type=image>", true),
    ("<input id=t type=checkbox readonly>", false),
    ("<input id=t type=submit readonly>", false),
    ("<input id=t type=color readonly>", false),
    ("<input id=t type=hidden>", false),
    ("<input id=t type=reset>", false),
    ("<input id=t type=button>", false),
    ("<input id=t disabled>", false),
    ("<input id=t readonly>", false),
    ("<input id=t type=number readonly>", false),
    ("<datalist><input id=t></datalist>", false),
    (
        "<datalist><div><select id=t></select></div></datalist>",
        false,
    ),
    ("<fieldset disabled><input id=t></fieldset>", false),
    // The first legend of a disabled fieldset is not disabled.
    (
        "<fieldset disabled><legend><input id=t></legend></fieldset>",
        true,
    ),
    (
        "<fieldset disabled><legend></legend><legend><input id=t></legend></fieldset>",
        false,
    ),
    ("<button id=t>", true),
    ("<button id=t type=submit>", true),
    ("<button id=t type=bogus>", true),
    ("<button id=t type=button>", false),
    ("<button id=t type=reset>", false),
    ("<button id=t commandfor=x>", false),
    ("<select id=t></select>", true),
    ("<textarea id=t></textarea>", true),
    ("<textarea id=t readonly></textarea>", false),
    ("<object id=t></object>", false),
    ("<output id=t></output>", false),
    ("<fieldset id=t></fieldset>", false),
];

#[test]
fn candidates_for_constraint_validation() {
    let mut failures = Vec::new();
    for (markup, expected) in CANDIDATES {
        let doc = Document::parse(markup);
        let el = first(&doc, "#t");
        if el.will_validate() != *expected {
            failures.push(format!("{markup}: expected {expected}"));
        }
        let matches_valid = el.matches(&Selector::parse(":valid, :invalid").unwrap());
        if el.local_name() != "fieldset" && matches_valid != *expected {
            failures.push(format!("{markup}: :valid/:invalid disagrees"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn form_owners() {
    let doc = Document::parse(
        "<form id=a><input id=i1><form id=b><input id=i2></form></form>\
         <input id=i3 form=a><input id=i4 form=nowhere><div id=d></div><input id=i5 form=d>\
         <form id=c><fieldset id=fs><input id=i6 form=a></fieldset><img id=img></form>",
    );
    let owner = |id: &str| {
        first(&doc, &format!("#{id}"))
            .form_owner()
            .and_then(|f| f.id())
            .map(str::to_owned)
    };
    // The parser ignores the nested <form>: i2 belongs to a.
    assert_eq!(owner("i1").as_deref(), Some("a"));
    assert_eq!(owner("i2").as_deref(), Some("a"));
    assert!(Selector::parse("#b").is_ok_and(|s| doc.select_first(&s).is_none()));
    assert_eq!(owner("i3").as_deref(), Some("a"));
    // A form attribute naming no form, or a non-form element: no owner.
    assert_eq!(owner("i4"), None);
    assert_eq!(owner("i5"), None);
    assert_eq!(owner("i6").as_deref(), Some("a"));
    assert_eq!(owner("fs").as_deref(), Some("c"));
    assert_eq!(owner("img").as_deref(), Some("c"));
    assert_eq!(owner("d"), None);
}

#[test]
fn detached_and_mutated_controls() {
    let mut doc = Document::parse("<form><input id=t required></form>");
    let input = first(&doc, "#t").node_id();
    assert!(first(&doc, "#t").validity().unwrap().value_missing);
    // A mutation drops the cached state.
    doc.set_attribute(input, "value", "x").unwrap();
    assert!(first(&doc, "#t").validity().unwrap().valid());
    assert!(
        doc.select_first(&Selector::parse("form:valid").unwrap())
            .is_some()
    );
    // A detached control is validated in its own tree.
    let detached = doc.new_element("input").unwrap();
    doc.set_attribute(detached, "type", "email").unwrap();
    doc.set_attribute(detached, "value", "nope").unwrap();
    let el = doc.node(detached).unwrap().as_element().unwrap();
    assert!(el.validity().unwrap().type_mismatch);
    assert_eq!(el.form_owner(), None);
}
