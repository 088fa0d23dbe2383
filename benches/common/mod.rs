//! Shared by the benchmarks: the page corpus and a small timing harness.
//!
//! Timings are noisy on shared machines, so every benchmark reports ratios between parsers
//! measured in the same run, each the median of several interleaved rounds.

#![allow(dead_code)]

pub mod alloc;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A page of the benchmark corpus.
pub struct Page {
    pub name: String,
    pub bytes: Vec<u8>,
    pub text: String,
}

/// The whole shared corpus (`../shared/bench-corpus`, or the folder `HTML_ARENA_CORPUS`
/// names) when it exists, else the vendored subset.
pub fn corpus() -> Vec<Page> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = std::env::var_os("HTML_ARENA_CORPUS")
        .map_or_else(|| root.join("../shared/bench-corpus"), PathBuf::from);
    let dir = if shared.is_dir() && std::env::var_os("HTML_ARENA_VENDORED_CORPUS").is_none() {
        shared
    } else {
        root.join("tests/data/bench-corpus")
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("read page");
            let text = String::from_utf8_lossy(&bytes).into_owned();
            Page {
                name: p.file_stem().expect("stem").to_string_lossy().into_owned(),
                bytes,
                text,
            }
        })
        .collect()
}

/// Runs each closure `rounds` times, interleaved, after a warm-up; returns the median time of
/// each. Each closure is repeated until a round lasts at least `min_round`.
pub fn compare(rounds: usize, min_round: Duration, fs: &mut [&mut dyn FnMut()]) -> Vec<Duration> {
    // Calibrate: how many calls make a round long enough.
    let mut reps = Vec::new();
    for f in fs.iter_mut() {
        f();
        let mut n = 1u32;
        loop {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            if t.elapsed() >= min_round || n >= 1 << 20 {
                break;
            }
            n *= 2;
        }
        reps.push(n);
    }
    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); fs.len()];
    for _ in 0..rounds {
        for (i, f) in fs.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..reps[i] {
                f();
            }
            samples[i].push(t.elapsed() / reps[i]);
        }
    }
    samples
        .into_iter()
        .map(|mut s| {
            s.sort();
            s[s.len() / 2]
        })
        .collect()
}

/// The median of a list of ratios.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    if values.is_empty() {
        return f64::NAN;
    }
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// MB/s for `bytes` processed in `d`.
pub fn mbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / d.as_secs_f64() / 1e6
}
