//! The html5lib tokenizer tests, plus the cases the HTML Standard changed since.
//!
//! One trial per test and initial state: tokens (adjacent character tokens coalesced) and
//! parse errors (code, line, column) must match exactly. Every trial runs twice: with the
//! whole input in one chunk, and fed one character at a time (which must give the same tokens
//! and errors). Pinned tests listed in the updates' `superseded.txt` are replaced by the tests
//! of `pi-updates.test`; `pi-states.test` adds tests of the processing instruction states.
//!
//! Prints `tokenizer: N passed, M failed` and fails on any failure.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use html_arena::ParseError;
use html_arena::tokenizer::{State, Token, TokenSink, TokenSinkResult, Tokenizer};
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Doctype {
        name: Option<String>,
        public_id: Option<String>,
        system_id: Option<String>,
        correct: bool,
    },
    StartTag {
        name: String,
        attrs: Vec<(String, String)>,
        self_closing: bool,
    },
    EndTag {
        name: String,
    },
    Comment(String),
    Characters(String),
    ProcessingInstruction {
        target: String,
        data: String,
    },
}

#[derive(Default)]
struct Collector {
    tokens: Vec<Tok>,
    errors: Vec<(String, u32, u32)>,
}

impl Collector {
    fn push_chars(&mut self, s: &str) {
        if let Some(Tok::Characters(prev)) = self.tokens.last_mut() {
            prev.push_str(s);
        } else {
            self.tokens.push(Tok::Characters(s.to_owned()));
        }
    }
}

impl TokenSink for Collector {
    fn process_token(&mut self, token: Token<'_>) -> TokenSinkResult {
        match token {
            Token::Doctype(d) => self.tokens.push(Tok::Doctype {
                name: d.name.map(str::to_owned),
                public_id: d.public_id.map(str::to_owned),
                system_id: d.system_id.map(str::to_owned),
                correct: !d.force_quirks,
            }),
            Token::StartTag(tag) => {
                let mut attrs: Vec<(String, String)> = tag
                    .attrs()
                    .map(|a| (a.name.to_owned(), a.value.to_owned()))
                    .collect();
                attrs.sort();
                self.tokens.push(Tok::StartTag {
                    name: tag.name().to_owned(),
                    attrs,
                    self_closing: tag.self_closing(),
                });
            }
            Token::EndTag(tag) => self.tokens.push(Tok::EndTag {
                name: tag.name().to_owned(),
            }),
            Token::Comment { data, .. } => self.tokens.push(Tok::Comment(data.to_owned())),
            Token::Characters {
                text,
                span,
                verbatim,
            } => {
                assert!(span.start <= span.end);
                if verbatim {
                    assert_eq!(
                        span.end - span.start,
                        text.len(),
                        "verbatim span of {text:?}"
                    );
                }
                self.push_chars(text);
            }
            Token::NullCharacter { .. } => self.push_chars("\0"),
            Token::ProcessingInstruction { target, data, .. } => {
                self.tokens.push(Tok::ProcessingInstruction {
                    target: target.to_owned(),
                    data: data.to_owned(),
                })
            }
            Token::Eof { .. } => {}
            other => panic!("unexpected token {other:?}"),
        }
        TokenSinkResult::Continue
    }

    fn parse_error(&mut self, error: ParseError) {
        self.errors
            .push((error.code.as_str().to_owned(), error.line, error.column));
    }
}

/// The second round of unescaping for `doubleEscaped` tests: `\uHHHH` to the code point.
/// Returns `None` when the result would hold a lone surrogate (not representable in a `str`).
fn unescape(s: &str) -> Option<String> {
    let units: Vec<u16> = {
        let mut out = Vec::new();
        let mut rest = s;
        while let Some(i) = rest.find("\\u") {
            out.extend(rest[..i].encode_utf16());
            let hex = &rest[i + 2..i + 6];
            out.push(u16::from_str_radix(hex, 16).expect("bad \\u escape"));
            rest = &rest[i + 6..];
        }
        out.extend(rest.encode_utf16());
        out
    };
    String::from_utf16(&units).ok()
}

fn state_named(name: &str) -> State {
    match name {
        "Data state" => State::Data,
        "PLAINTEXT state" => State::Plaintext,
        "RCDATA state" => State::Rcdata,
        "RAWTEXT state" => State::Rawtext,
        "Script data state" => State::ScriptData,
        "CDATA section state" => State::CdataSection,
        other => panic!("unknown initial state {other:?}"),
    }
}

fn expected_tokens(output: &Value, double_escaped: bool) -> Option<Vec<Tok>> {
    let s = |v: &Value| -> Option<String> {
        let raw = v.as_str().expect("string");
        if double_escaped {
            unescape(raw)
        } else {
            Some(raw.to_owned())
        }
    };
    let opt = |v: &Value| -> Option<Option<String>> {
        if v.is_null() {
            Some(None)
        } else {
            s(v).map(Some)
        }
    };
    let mut out: Vec<Tok> = Vec::new();
    for t in output.as_array().expect("output array") {
        let t = t.as_array().expect("token array");
        let tok = match t[0].as_str().expect("token type") {
            "DOCTYPE" => Tok::Doctype {
                name: opt(&t[1])?,
                public_id: opt(&t[2])?,
                system_id: opt(&t[3])?,
                correct: t[4].as_bool().expect("correctness"),
            },
            "StartTag" => {
                let mut attrs = Vec::new();
                for (k, v) in t[2].as_object().expect("attributes") {
                    let k = if double_escaped {
                        unescape(k)?
                    } else {
                        k.clone()
                    };
                    attrs.push((k, s(v)?));
                }
                attrs.sort();
                Tok::StartTag {
                    name: s(&t[1])?,
                    attrs,
                    self_closing: t.get(3).and_then(Value::as_bool) == Some(true),
                }
            }
            "EndTag" => Tok::EndTag { name: s(&t[1])? },
            "Comment" => Tok::Comment(s(&t[1])?),
            "Character" => Tok::Characters(s(&t[1])?),
            "ProcessingInstruction" => Tok::ProcessingInstruction {
                target: s(&t[1])?,
                data: s(&t[2])?,
            },
            other => panic!("unknown token type {other}"),
        };
        // "All adjacent character tokens are coalesced into a single ["Character", data] token."
        if let (Some(Tok::Characters(prev)), Tok::Characters(more)) = (out.last_mut(), &tok) {
            prev.push_str(more);
        } else {
            out.push(tok);
        }
    }
    Some(out)
}

/// 13.2.9 "Coercing an HTML DOM into an infoset", as far as `xmlViolation.test` exercises it:
/// those four tests expect the tokens after that coercion, which is an output step for XML
/// tools rather than part of tokenizing.
fn coerce_to_infoset(tokens: Vec<Tok>) -> Vec<Tok> {
    let fix_text = |s: String| -> String {
        s.chars()
            .map(|c| match c {
                '\x0C' => ' ',
                c if (c as u32 & 0xFFFE) == 0xFFFE || ('\u{FDD0}'..='\u{FDEF}').contains(&c) => {
                    '\u{FFFD}'
                }
                c => c,
            })
            .collect()
    };
    tokens
        .into_iter()
        .map(|t| match t {
            Tok::Characters(s) => Tok::Characters(fix_text(s)),
            Tok::Comment(s) => {
                let mut s = s;
                while s.contains("--") {
                    s = s.replace("--", "- -");
                }
                Tok::Comment(s)
            }
            other => other,
        })
        .collect()
}

fn run(
    input: &str,
    state: State,
    last_start_tag: Option<&str>,
    one_char_at_a_time: bool,
) -> Collector {
    let mut tokenizer = Tokenizer::new();
    tokenizer.set_state(state);
    tokenizer.set_last_start_tag(last_start_tag);
    let mut sink = Collector::default();
    if one_char_at_a_time {
        let mut buf = [0u8; 4];
        for c in input.chars() {
            tokenizer.feed(c.encode_utf8(&mut buf), &mut sink);
        }
        tokenizer.end(&mut sink);
    } else {
        tokenizer.feed_all(input, &mut sink);
    }
    sink
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn superseded() -> HashSet<(String, usize)> {
    let text =
        std::fs::read_to_string(data_dir().join("html5lib-tests-updates/tokenizer/superseded.txt"))
            .expect("superseded.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split('\t');
            let file = parts.next().expect("file").to_owned();
            let index = parts.next().expect("index").parse().expect("index number");
            (file, index)
        })
        .collect()
}

fn main() {
    let superseded = superseded();
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir().join("html5lib-tests/tokenizer"))
        .expect("tokenizer tests")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "test"))
        .collect();
    files.sort();
    files.push(data_dir().join("html5lib-tests-updates/tokenizer/pi-updates.test"));
    files.push(data_dir().join("html5lib-tests-updates/tokenizer/pi-states.test"));

    let (mut passed, mut failed, mut chunked_passed, mut replaced) =
        (0usize, 0usize, 0usize, 0usize);
    let mut unrepresentable = Vec::new();
    let mut failures = Vec::new();
    for path in &files {
        let file = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
        let (tests, xml_violation) = match (json.get("tests"), json.get("xmlViolationTests")) {
            (Some(t), _) => (t, false),
            (None, Some(t)) => (t, true),
            _ => panic!("{file}: no tests"),
        };
        for (index, test) in tests.as_array().expect("tests array").iter().enumerate() {
            if superseded.contains(&(file.clone(), index)) {
                replaced += 1;
                continue;
            }
            let description = test["description"].as_str().unwrap_or("");
            let double_escaped = test.get("doubleEscaped").and_then(Value::as_bool) == Some(true);
            let raw_input = test["input"].as_str().expect("input");
            let input = if double_escaped {
                unescape(raw_input)
            } else {
                Some(raw_input.to_owned())
            };
            let expected = expected_tokens(&test["output"], double_escaped);
            let (Some(input), Some(expected)) = (input, expected) else {
                // Lone surrogates: the crate's input is a Rust `str`, which cannot hold them
                // (and bytes decoded with encoding_rs never produce them), so these inputs
                // cannot be given to the tokenizer at all.
                unrepresentable.push(format!("{file}:{index} {description}"));
                continue;
            };
            let mut expected_errors: Vec<(String, u32, u32)> = test
                .get("errors")
                .and_then(Value::as_array)
                .map(|errs| {
                    errs.iter()
                        .map(|e| {
                            let n = |k: &str| e[k].as_u64().expect("position") as u32;
                            (
                                e["code"].as_str().expect("code").to_owned(),
                                n("line"),
                                n("col"),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            if xml_violation {
                expected_errors.clear();
            }
            let states: Vec<State> = match test.get("initialStates") {
                Some(v) => v
                    .as_array()
                    .expect("states")
                    .iter()
                    .map(|s| state_named(s.as_str().expect("state")))
                    .collect(),
                None => vec![State::Data],
            };
            let last_start_tag = test.get("lastStartTag").and_then(Value::as_str);
            for state in states {
                let whole = run(&input, state, last_start_tag, false);
                let chunked = run(&input, state, last_start_tag, true);
                let (tokens, errors) = if xml_violation {
                    (
                        coerce_to_infoset(whole.tokens.clone()),
                        expected_errors.clone(),
                    )
                } else {
                    (whole.tokens.clone(), whole.errors.clone())
                };
                if tokens == expected && errors == expected_errors {
                    passed += 1;
                } else {
                    failed += 1;
                    failures.push(format!(
                        "{file}:{index} {description:?} [{state:?}]\n  input:    {input:?}\n  expected: {expected:?}\n  actual:   {tokens:?}\n  expected errors: {expected_errors:?}\n  actual errors:   {errors:?}"
                    ));
                }
                if chunked.tokens == whole.tokens && chunked.errors == whole.errors {
                    chunked_passed += 1;
                } else {
                    failed += 1;
                    failures.push(format!(
                        "{file}:{index} {description:?} [{state:?}] one character at a time differs\n  input: {input:?}\n  whole:   {:?} {:?}\n  chunked: {:?} {:?}",
                        whole.tokens, whole.errors, chunked.tokens, chunked.errors
                    ));
                }
            }
        }
    }
    for f in failures.iter().take(60) {
        println!("FAIL {f}");
    }
    if failures.len() > 60 {
        println!("... and {} more failures", failures.len() - 60);
    }
    println!(
        "{replaced} pinned tests replaced by pi-updates.test (superseded.txt); {} not runnable (input holds a lone surrogate, which a Rust str cannot):",
        unrepresentable.len()
    );
    for u in &unrepresentable {
        println!("  {u}");
    }
    println!(
        "{passed} whole-input runs and {chunked_passed} one-character-at-a-time runs identical to them"
    );
    println!(
        "tokenizer: {} passed, {failed} failed",
        passed + chunked_passed
    );
    if failed > 0 {
        std::process::exit(1);
    }
}
