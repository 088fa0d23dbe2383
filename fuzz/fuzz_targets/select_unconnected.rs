//! The select steps where the nodes are not connected (issue 28, item 1): the fuzzer's bytes
//! pick a document or a fragment context and pieces of select/selectedcontent/template/table
//! soup; the incremental steps must agree with the full steps, and nothing may change outside
//! connected trees (see `html_arena_fuzz::select_unconnected`). `tests/select_element.rs`
//! runs a bounded number of generated cases of the same check.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    html_arena_fuzz::select_unconnected::check(data);
});
