//! Reading an input FILE (`-`: standard input), for the command and for
//! `examples/query.rs` (which includes this file).

use std::io::Read;

/// FILE's bytes, whole.
pub fn read(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().lock().read_to_end(&mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(path)
    }
}

/// FILE as a reader, read as it is consumed (`--stream`).
pub fn open(path: &str) -> std::io::Result<Box<dyn Read>> {
    if path == "-" {
        Ok(Box::new(std::io::stdin().lock()))
    } else {
        Ok(Box::new(std::fs::File::open(path)?))
    }
}
