//! Tokenizer throughput: html-arena's tokenizer against html5ever's, on the same pages in the
//! same run. Prints MB/s per page and the ratio (html-arena / html5ever), then the median of
//! the per-page ratios and the ratio of total throughput.
//!
//! `cargo bench --bench tokenize`

mod common;

use std::cell::Cell;
use std::hint::black_box;
use std::time::Duration;

use html_arena::tokenizer::{Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOptions};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{self as h5, BufferQueue};

/// Counts tokens, looking at each one so nothing is optimized away.
#[derive(Default)]
struct Count(usize);

impl TokenSink for Count {
    fn process_token(&mut self, token: Token<'_>) -> TokenSinkResult {
        self.0 += match token {
            Token::Characters { text, .. } => text.len(),
            Token::StartTag(t) => t.attrs().count() + 1,
            _ => 1,
        };
        TokenSinkResult::Continue
    }
}

struct H5Count(Cell<usize>);

impl h5::TokenSink for H5Count {
    type Handle = ();
    fn process_token(&self, token: h5::Token, _line: u64) -> h5::TokenSinkResult<()> {
        let n = match token {
            h5::Token::CharacterTokens(t) => t.len(),
            h5::Token::TagToken(t) => t.attrs.len() + 1,
            _ => 1,
        };
        self.0.set(self.0.get() + n);
        h5::TokenSinkResult::Continue
    }
}

fn arena(text: &str) -> usize {
    let mut options = TokenizerOptions::default();
    options.error_positions = false;
    let mut t = Tokenizer::with_options(options);
    let mut sink = Count::default();
    t.feed_all(text, &mut sink);
    sink.0
}

fn html5ever(text: &str) -> usize {
    let tok = h5::Tokenizer::new(H5Count(Cell::new(0)), h5::TokenizerOpts::default());
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(text));
    let _ = tok.feed(&queue);
    tok.end();
    tok.sink.0.get()
}

fn main() {
    common::run_corpora(run);
}

/// Benchmarks one corpus; returns its summary lines.
fn run(corpus: &str, pages: &[common::Page]) -> Vec<String> {
    let mut summary = Vec::new();
    println!();
    let total: usize = pages.iter().map(|p| p.text.len()).sum();
    println!(
        "tokenize: {corpus}: {} pages, {:.1} MB",
        pages.len(),
        total as f64 / 1e6
    );
    println!(
        "{:<34} {:>9} {:>12} {:>12} {:>7}",
        "page", "KB", "arena MB/s", "h5ever MB/s", "ratio"
    );
    let (mut t_arena, mut t_h5) = (Duration::ZERO, Duration::ZERO);
    let mut ratios = Vec::new();
    for page in pages {
        let text = page.text.as_str();
        let times = common::compare(
            7,
            Duration::from_millis(30),
            &mut [
                &mut || {
                    black_box(arena(black_box(text)));
                },
                &mut || {
                    black_box(html5ever(black_box(text)));
                },
            ],
        );
        let ratio = times[1].as_secs_f64() / times[0].as_secs_f64();
        ratios.push(ratio);
        t_arena += times[0];
        t_h5 += times[1];
        println!(
            "{:<34} {:>9.0} {:>12.1} {:>12.1} {:>6.2}x",
            page.name,
            text.len() as f64 / 1e3,
            common::mbps(text.len(), times[0]),
            common::mbps(text.len(), times[1]),
            ratio
        );
    }
    let line = format!(
        "tokenize: {corpus}: median per-page ratio {:.2}x html5ever; total throughput {:.1} MB/s vs {:.1} MB/s ({:.2}x)",
        common::median(&mut ratios),
        common::mbps(total, t_arena),
        common::mbps(total, t_h5),
        t_h5.as_secs_f64() / t_arena.as_secs_f64()
    );
    println!("{line}");
    summary.push(line);
    summary
}
