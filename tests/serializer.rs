//! The html5lib serializer tests: each test's token stream goes through
//! [`TokenSerializer`] with the html5lib serializer's defaults
//! ([`SerializeOptions::html5lib`], attributes in alphabetical order as html5lib's harness
//! writes them) plus the test's options, and the output must be one of the `expected`
//! alternatives. Prints `serializer: N passed, M failed`.
//!
//! One case expects what the current standard forbids, and is listed in [`SUPERSEDED`] with
//! the reason; it is checked to give the standard's output instead.

use std::path::Path;

use html_arena::serialize::{
    AttributeQuoting, SerializeOptions, SerializerAttr, SerializerToken, TokenSerializer,
};
use html_arena::{AttrNamespace, Namespace};
use serde_json::Value;

fn namespace(v: &Value) -> Namespace {
    match v.as_str() {
        Some("http://www.w3.org/2000/svg") => Namespace::Svg,
        Some("http://www.w3.org/1998/Math/MathML") => Namespace::MathMl,
        _ => Namespace::Html,
    }
}

fn attr_namespace(v: &Value) -> AttrNamespace {
    match v.as_str() {
        Some("http://www.w3.org/1999/xlink") => AttrNamespace::XLink,
        Some("http://www.w3.org/XML/1998/namespace") => AttrNamespace::Xml,
        Some("http://www.w3.org/2000/xmlns/") => AttrNamespace::Xmlns,
        _ => AttrNamespace::None,
    }
}

/// (namespace, name, value) triples of a token's attributes (a list of objects, or `{}`).
fn attrs(v: &Value) -> Vec<(AttrNamespace, String, String)> {
    match v {
        Value::Array(list) => list
            .iter()
            .map(|a| {
                (
                    attr_namespace(&a["namespace"]),
                    a["name"].as_str().expect("name").to_owned(),
                    a["value"].as_str().expect("value").to_owned(),
                )
            })
            .collect(),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| {
                (
                    AttrNamespace::None,
                    k.clone(),
                    v.as_str().expect("value").to_owned(),
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn options(test: &Value) -> SerializeOptions {
    let mut o = SerializeOptions::html5lib();
    o.alphabetical_attributes = true;
    let Some(opts) = test.get("options").and_then(Value::as_object) else {
        return o;
    };
    let flag = |k: &str| opts.get(k).and_then(Value::as_bool);
    if flag("quote_attr_values") == Some(true) {
        o.quote_attributes = AttributeQuoting::Always;
    }
    if let Some(q) = opts.get("quote_char").and_then(Value::as_str) {
        o.quote_char = q.chars().next().unwrap_or('"');
        o.use_best_quote_char = false;
    }
    if let Some(v) = flag("use_trailing_solidus") {
        o.use_trailing_solidus = v;
    }
    if let Some(v) = flag("minimize_boolean_attributes") {
        o.minimize_boolean_attributes = v;
    }
    if let Some(v) = flag("escape_rcdata") {
        o.escape_rcdata = v;
    }
    if let Some(v) = flag("strip_whitespace") {
        o.strip_whitespace = v;
    }
    // `escape_lt_in_attrs`: the standard's attribute escaping always escapes `<` and `>`.
    if flag("inject_meta_charset") == Some(true) {
        o.inject_meta_charset = opts
            .get("encoding")
            .and_then(Value::as_str)
            .map(str::to_owned);
    }
    o
}

fn serialize(test: &Value) -> String {
    let options = options(test);
    let mut out = String::new();
    let mut ser = TokenSerializer::new(&mut out, &options);
    for token in test["input"].as_array().expect("input") {
        let t = token.as_array().expect("token");
        let s = |i: usize| t.get(i).and_then(Value::as_str).unwrap_or("");
        let result = match s(0) {
            "StartTag" => {
                let owned = attrs(&t[3]);
                let list: Vec<SerializerAttr<'_>> = owned
                    .iter()
                    .map(|(ns, n, v)| SerializerAttr {
                        namespace: *ns,
                        name: n,
                        value: v,
                    })
                    .collect();
                ser.write(SerializerToken::StartTag {
                    namespace: namespace(&t[1]),
                    name: s(2),
                    attrs: &list,
                })
            }
            "EmptyTag" => {
                let owned = attrs(&t[2]);
                let list: Vec<SerializerAttr<'_>> = owned
                    .iter()
                    .map(|(ns, n, v)| SerializerAttr {
                        namespace: *ns,
                        name: n,
                        value: v,
                    })
                    .collect();
                ser.write(SerializerToken::StartTag {
                    namespace: Namespace::Html,
                    name: s(1),
                    attrs: &list,
                })
            }
            "EndTag" => ser.write(SerializerToken::EndTag {
                namespace: namespace(&t[1]),
                name: s(2),
            }),
            "Characters" | "SpaceCharacters" => ser.write(SerializerToken::Text(s(1))),
            "Comment" => ser.write(SerializerToken::Comment(s(1))),
            "Doctype" => ser.write(SerializerToken::Doctype {
                name: s(1),
                public_id: s(2),
                system_id: s(3),
            }),
            other => panic!("unknown token {other}"),
        };
        result.expect("writing to a String");
    }
    ser.finish().expect("writing to a String");
    out
}

/// (file, index, the output the standard requires, why the expectation is outdated)
const SUPERSEDED: &[(&str, usize, &str, &str)] = &[(
    "optionaltags.test",
    70,
    "</p><datagrid>",
    "html5lib expects </p> omitted before <datagrid>, from the 2008 drafts that had a datagrid element. \
     The standard dropped it in WHATWG HTML r5644 (2010-10-22, \"Drop <datagrid> entirely for now\"): \
     13.1.2.4 does not list it, and the parser does not close a p for it (\"in body\": any other \
     start tag), so omitting </p> would change the tree.",
)];

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/html5lib-tests/serializer");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("serializer tests")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let (mut passed, mut failed) = (0, 0);
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "test"))
    {
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
        for (i, test) in json["tests"].as_array().expect("tests").iter().enumerate() {
            let actual = serialize(test);
            let file = path.file_name().expect("name").to_string_lossy();
            if let Some((_, _, required, why)) =
                SUPERSEDED.iter().find(|(f, n, ..)| *f == file && *n == i)
            {
                assert_eq!(
                    actual, *required,
                    "{file}:{i} (superseded) must give the standard's output"
                );
                println!("superseded by the standard: {file}:{i}: {why}");
                continue;
            }
            let expected: Vec<&str> = test["expected"]
                .as_array()
                .expect("expected")
                .iter()
                .filter_map(Value::as_str)
                .collect();
            if expected.contains(&actual.as_str()) {
                passed += 1;
            } else {
                failed += 1;
                println!(
                    "FAIL {file}:{i} {}\n  input:    {}\n  expected: {expected:?}\n  actual:   {actual:?}",
                    test["description"], test["input"]
                );
            }
        }
    }
    println!(
        "serializer: {passed} passed, {failed} failed ({} superseded by the standard, listed above)",
        SUPERSEDED.len()
    );
    if failed > 0 {
        std::process::exit(1);
    }
}
