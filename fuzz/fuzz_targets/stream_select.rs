#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    html_arena_fuzz::stream_select::stream_select(data);
});
