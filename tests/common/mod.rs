//! Helpers shared by several integration tests (each includes this file with `mod common;`).
// Each test binary uses a different part of this module.
#![allow(dead_code)]

/// Runs `f` on a thread with a 256 KiB stack: nothing may recurse on a tree's depth (a hostile
/// page nests a million levels deep), so a walk that does overflows here instead of passing.
pub fn small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the test thread panicked (or overflowed its stack)");
}

/// A small deterministic generator (xorshift64*), so that every random test reproduces from
/// its seed without a dependency.
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() >> 11) % n as u64) as usize
    }
}

/// Splits `text` into consecutive pieces whose lengths come from `next_len` (at least one
/// byte each), each end moved forward to the next character boundary, and hands them to
/// `write` in order: the way a test feeds `Parser::write_str` in chunks.
pub fn str_chunks<'a>(
    text: &'a str,
    mut next_len: impl FnMut() -> usize,
    mut write: impl FnMut(&'a str),
) {
    let mut rest = text;
    while !rest.is_empty() {
        let mut end = next_len().clamp(1, rest.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        let (chunk, tail) = rest.split_at(end);
        write(chunk);
        rest = tail;
    }
}

/// Runs the `html-arena` command with `args` and `stdin` as its standard input, written from
/// another thread (a streaming run writes its output while it still reads; a command that
/// reads no input, like `--help`, may be gone before it is written).
pub fn run_command(args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_html-arena"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("piped");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("the binary ends");
    writer.join().expect("the writer ends");
    out
}
