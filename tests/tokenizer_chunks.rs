//! Chunking never changes what the tokenizer produces: real pages fed in random chunk sizes
//! give the same tokens (after joining adjacent character tokens) and the same errors as the
//! whole page at once, and every verbatim token is exactly the input under its span.

mod common;

use common::Rng;
use std::path::Path;

use html_arena::ParseError;
use html_arena::tokenizer::{Token, TokenSink, TokenSinkResult, Tokenizer};

#[derive(Default)]
struct Record<'a> {
    input: &'a str,
    out: Vec<String>,
    errors: Vec<(String, usize, u32, u32)>,
}

impl Record<'_> {
    fn text(&mut self, s: &str) {
        match self.out.last_mut() {
            Some(last) if last.starts_with("T:") => last.push_str(s),
            _ => self.out.push(format!("T:{s}")),
        }
    }
}

impl TokenSink for Record<'_> {
    fn process_token(&mut self, token: Token<'_>) -> TokenSinkResult {
        match token {
            Token::Characters {
                text,
                span,
                verbatim,
            } => {
                if verbatim {
                    assert_eq!(&self.input[span.start..span.end], text);
                }
                self.text(text);
            }
            Token::NullCharacter { .. } => self.text("\0"),
            Token::StartTag(t) | Token::EndTag(t) => {
                let mut s = format!("{:?}:{}:{}", t.kind(), t.name(), t.self_closing());
                for a in t.attrs() {
                    if let Some(off) = a.source_offset {
                        assert_eq!(&self.input[off..off + a.value.len()], a.value);
                    }
                    s.push_str(&format!(" {}={:?}", a.name, a.value));
                }
                assert_eq!(&self.input[t.span().start..t.span().start + 1], "<");
                self.out.push(s);
            }
            other => self.out.push(
                format!("{other:?}")
                    .split(", span")
                    .next()
                    .unwrap_or("")
                    .to_owned(),
            ),
        }
        TokenSinkResult::Continue
    }

    fn parse_error(&mut self, e: ParseError) {
        self.errors
            .push((e.code.as_str().to_owned(), e.offset, e.line, e.column));
    }
}

fn tokenize<'a>(input: &'a str, chunks: &[usize]) -> Record<'a> {
    let mut t = Tokenizer::new();
    let mut r = Record {
        input,
        ..Record::default()
    };
    let mut at = 0;
    for &n in chunks {
        let mut end = (at + n).min(input.len());
        while !input.is_char_boundary(end) {
            end += 1;
        }
        t.feed(&input[at..end], &mut r);
        at = end;
    }
    t.feed(&input[at..], &mut r);
    t.end(&mut r);
    r
}

/// Random chunk sizes of 1..=`max` bytes covering `total` bytes, from `seed`.
fn chunk_sizes(seed: u64, total: usize, max: usize) -> Vec<usize> {
    let mut rng = Rng::new(seed);
    let mut sizes = Vec::new();
    let mut sum = 0;
    while sum < total {
        let n = rng.below(max) + 1;
        sizes.push(n);
        sum += n;
    }
    sizes
}

#[test]
fn real_pages_tokenize_the_same_in_any_chunking() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench-corpus");
    let mut pages = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "html") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let whole = tokenize(&text, &[]);
        for (seed, max) in [(1, 7), (2, 64), (3, 4096)] {
            let chunked = tokenize(&text, &chunk_sizes(seed, text.len(), max));
            assert!(
                chunked.out == whole.out,
                "{}: tokens differ with chunks up to {max}",
                path.display()
            );
            assert!(
                chunked.errors == whole.errors,
                "{}: errors differ with chunks up to {max}",
                path.display()
            );
        }
        pages += 1;
    }
    assert!(pages >= 10);
}

#[test]
fn tricky_inputs_tokenize_the_same_in_any_chunking() {
    let inputs = [
        "a\r\nb\rc\r\n\r\n<a\r\nb=\"c\r\nd\">&amp;&notin;&notit;&#x41;&#65&#x110000;",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\">",
        "<script><!--<script>--></script>x</script><title>a&lt;</title></titl></title>",
        "<a href='&amp' x=&ampy y=\"&amp=\" z=&lt;>\0\u{1}\u{7f}\u{85}\u{fdd0}\u{10ffff}",
        "<![CDATA[x]]><!-- -- --!><?xml a?><?pi data??><?x-y_z a>b?>",
        "&CounterClockwiseContourIntegral;&CounterClockwiseContourIntegra&",
    ];
    for input in inputs {
        let whole = tokenize(input, &[]);
        for max in 1..8 {
            let chunked = tokenize(input, &chunk_sizes(max as u64, input.len(), max));
            assert_eq!(chunked.out, whole.out, "{input:?} max {max}");
            assert_eq!(chunked.errors, whole.errors, "{input:?} max {max}");
        }
    }
}

#[test]
fn attribute_values_split_across_chunks() {
    let text = "<div a=\"x y\" b=\" &lt;div c=&quot;m&quot;\" c=d&amp;e>";
    let whole = tokenize(text, &[]);
    for split in 1..text.len() {
        assert_eq!(tokenize(text, &[split]).out, whole.out, "split at {split}");
    }
}
