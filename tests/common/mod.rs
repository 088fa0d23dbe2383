//! Helpers shared by several integration tests (each includes this file with `mod common;`).

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
