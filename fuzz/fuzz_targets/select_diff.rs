//! Differential fuzzing of select parsing against html5ever: the fuzzer's bytes pick pieces
//! of select/option/optgroup/template/table/formatting soup (the grammar of
//! `tests/select_differential.rs`, which runs a fixed-seed version of this), and the two
//! trees must be equal. No `selectedcontent`: html5ever 0.40 implements only part of its
//! steps (see the test's docs). Differences that are html5ever's older revision are skipped
//! (`html5ever_revision`).
#![no_main]

use html_arena_fuzz::select_soup::{PIECES, html5ever_revision, html5ever_tree};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let input: String = data
        .iter()
        .take(64)
        .map(|&b| PIECES[b as usize % PIECES.len()])
        .collect();
    let ours = html_arena::Document::parse(&input).dump_tree();
    let theirs = html5ever_tree(&input);
    if ours != theirs && html5ever_revision(&input).is_none() {
        panic!("{input}\nours:\n{ours}theirs:\n{theirs}");
    }
});
