//! The fast paths against the states' own methods: the same tokens, spans, source offsets and
//! errors, on real pages and on random tag soup, whole and in chunks.

use super::*;

/// Everything a sink can see, in order (adjacent character tokens joined: how a run of
/// characters is cut into tokens may depend on where chunks end; and a run the fast paths
/// continue after a CRLF's dropped CR, from its LF, joins the text before the CR as the
/// states' own LF token for the pair would, not verbatim).
#[derive(Default)]
struct Record {
    /// The input's bytes (to tell a dropped CR).
    input: Vec<u8>,
    out: Vec<String>,
    /// The character tokens not yet written out: text, span, verbatim.
    text: Option<(String, Span, bool)>,
}

impl Record {
    fn flush_text(&mut self) {
        if let Some((text, span, verbatim)) = self.text.take() {
            self.out
                .push(format!("Characters {text:?} {span:?} {verbatim}"));
        }
    }

    fn finish(mut self) -> Vec<String> {
        self.flush_text();
        self.out
    }
}

impl TokenSink for Record {
    fn process_token(&mut self, token: Token<'_>) -> TokenSinkResult {
        let mut switch = None;
        if let Token::Characters {
            text,
            span,
            verbatim,
        } = token
        {
            let after_cr = |end: usize| {
                span.start == end + 1
                    && text.starts_with('\n')
                    && self.input.get(end) == Some(&b'\r')
            };
            match &mut self.text {
                Some((t, s, v)) if s.end == span.start || after_cr(s.end) => {
                    *v &= verbatim && s.end == span.start;
                    t.push_str(text);
                    s.end = span.end;
                }
                _ => {
                    self.flush_text();
                    self.text = Some((text.to_owned(), span, verbatim));
                }
            }
            return TokenSinkResult::Continue;
        }
        self.flush_text();
        let line = match token {
            Token::StartTag(t) | Token::EndTag(t) => {
                let mut s = format!(
                    "{:?} {:?} {:?} {} {:?}",
                    t.kind(),
                    t.name(),
                    t.local_name(),
                    t.self_closing(),
                    t.span()
                );
                for a in t.attrs() {
                    s.push_str(&format!(
                        " [{:?} {:?} {:?} {:?} {:?}]",
                        a.name, a.name_id, a.value, a.source_offset, a.name_span
                    ));
                }
                assert_eq!(t.attr_count(), t.attrs().count());
                if t.kind() == TagKind::Start {
                    // What the tree builder does after these start tags.
                    switch = match t.name() {
                        "title" | "textarea" => Some(State::Rcdata),
                        "style" | "xmp" | "iframe" | "noembed" | "noframes" => Some(State::Rawtext),
                        "script" => Some(State::ScriptData),
                        "plaintext" => Some(State::Plaintext),
                        _ => None,
                    };
                }
                s
            }
            other => format!("{other:?}"),
        };
        self.out.push(line);
        match switch {
            Some(state) => TokenSinkResult::SwitchTo(state),
            None => TokenSinkResult::Continue,
        }
    }

    fn parse_error(&mut self, e: ParseError) {
        self.flush_text();
        self.out.push(format!(
            "error {} at {} ({}:{})",
            e.code.as_str(),
            e.offset,
            e.line,
            e.column
        ));
    }
}

/// Tokenizes `input` in chunks of the given sizes (then the rest).
fn tokenize(input: &str, chunks: &[usize], reference_only: bool) -> Vec<String> {
    let mut t = Tokenizer::new();
    t.reference_only = reference_only;
    let mut r = Record {
        input: input.as_bytes().to_vec(),
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
    r.finish()
}

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }

    fn chunks(&mut self, total: usize, max: usize) -> Vec<usize> {
        let mut sizes = Vec::new();
        let mut sum = 0;
        while sum < total {
            let n = self.below(max) + 1;
            sizes.push(n);
            sum += n;
        }
        sizes
    }
}

/// Checks that the fast paths change nothing on `input`, whole and in random chunks.
fn check(input: &str, rng: &mut Rng, chunkings: usize) {
    let whole = tokenize(input, &[], true);
    assert_eq!(tokenize(input, &[], false), whole, "{input:?}");
    for _ in 0..chunkings {
        let max = [1, 3, 16, 200][rng.below(4)];
        let chunks = rng.chunks(input.len(), max);
        assert_eq!(
            tokenize(input, &chunks, false),
            tokenize(input, &chunks, true),
            "{input:?} in chunks {chunks:?}"
        );
    }
}

#[test]
fn fast_paths_match_the_states_on_real_pages() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench-corpus");
    let mut rng = Rng(7);
    let mut pages = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "html") {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        check(&text, &mut rng, 2);
        pages += 1;
    }
    assert!(pages >= 10);
}

#[test]
fn fast_paths_match_the_states_on_tag_soup() {
    const PIECES: &[&str] = &[
        "<",
        "</",
        ">",
        "/>",
        "/",
        "=",
        "\"",
        "'",
        "`",
        " ",
        "\n",
        "\t",
        "\x0C",
        "\r",
        "\r\n",
        "\0",
        "\u{1}",
        "\u{85}",
        "\u{FDD0}",
        "é",
        "€",
        "a",
        "b",
        "div",
        "DiV",
        "p",
        "x-y",
        "id",
        "ID",
        "class",
        "href",
        "title",
        "script",
        "style",
        "textarea",
        "plaintext",
        "svg",
        "viewBox",
        "data-x",
        "&",
        "&amp;",
        "&amp",
        "&lt",
        "&notin;",
        "&notit;",
        "&#65;",
        "&#x",
        "&zz;",
        "<!--",
        "-->",
        "<!DOCTYPE html>",
        "<![CDATA[",
        "]]>",
        "<?",
        "?>",
        "a=b",
        "a='b'",
        "a=\"b\"",
        "a=b&c",
        "<a href=\"/x?a=1&b=2\" class=c>",
        "</a>",
        "<br/>",
        "<img src=x />",
        "<p a=1 a=2 b b>",
        "</p x=1>",
        "</script>",
        "</title>",
        "</style>",
        "<script>",
        "<title>",
        "<style>",
        "<!--",
        "<a b c d e f g h i j k l>",
        "<a a b c d e f g h i j a>",
    ];
    let mut rng = Rng(42);
    for _ in 0..3000 {
        let n = rng.below(24) + 1;
        let input: String = (0..n).map(|_| PIECES[rng.below(PIECES.len())]).collect();
        check(&input, &mut rng, 3);
    }
}

#[test]
fn fast_paths_match_the_states_on_many_attributes() {
    let mut rng = Rng(3);
    let mut input = String::from("<div");
    for i in 0..100 {
        input.push_str(&format!(" a{}=\"{i}\"", i % 37));
    }
    input.push_str("><P CLASS=X Class=y>");
    check(&input, &mut rng, 4);
}
