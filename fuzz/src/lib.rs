//! The checks behind the fuzz targets, shared with `tests/fuzz_regressions.rs` (which includes
//! `checks.rs` by path), so a regression test runs exactly what the target ran.

pub mod checks;
pub mod select_soup;
pub mod select_unconnected;
pub mod stream_select;
