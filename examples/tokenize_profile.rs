//! Tokenizes files many times (for profilers). `cargo run --release --example tokenize_profile -- FILE... [--rounds N]`
use html_arena::tokenizer::{Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOptions};

struct Count(usize);
impl TokenSink for Count {
    fn process_token(&mut self, t: Token<'_>) -> TokenSinkResult {
        self.0 += match t {
            Token::StartTag(t) => t.attrs().count(),
            _ => 1,
        };
        TokenSinkResult::Continue
    }
}

fn main() {
    let mut rounds = 20;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--rounds" {
            rounds = args.next().and_then(|n| n.parse().ok()).unwrap_or(rounds);
        } else {
            files.push(String::from_utf8_lossy(&std::fs::read(&a).expect("read")).into_owned());
        }
    }
    let mut total = 0;
    for _ in 0..rounds {
        for f in &files {
            let mut o = TokenizerOptions::default();
            o.error_positions = false;
            let mut t = Tokenizer::with_options(o);
            let mut c = Count(0);
            t.feed_all(f, &mut c);
            total += c.0;
        }
    }
    println!("{total}");
}
