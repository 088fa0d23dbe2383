//! Shared by the benchmarks: the page corpus and a small timing harness.
//!
//! Timings are noisy on shared machines, so every benchmark reports ratios between parsers
//! measured in the same run, each the median of several interleaved rounds, timed in the
//! thread's CPU time where the system gives it (time other processes ran is not counted).

#![allow(dead_code)]

pub mod alloc;
pub mod clock;
pub mod faults;
pub mod features;

use std::path::{Path, PathBuf};
use std::time::Duration;

use clock::Clock;

/// A page of the benchmark corpus.
pub struct Page {
    pub name: String,
    pub bytes: Vec<u8>,
    pub text: String,
}

/// A folder of pages, benchmarked and summarized on its own.
pub struct Corpus {
    /// The folder's name (`bench-corpus`, `bench-corpus-wide`, `vendored`).
    pub name: String,
    pub pages: Vec<Page>,
}

/// Runs `run` (one corpus's bench, returning its summary lines) on each of [`corpora`], then
/// prints every corpus's summary lines together.
pub fn run_corpora(mut run: impl FnMut(&str, &[Page]) -> Vec<String>) {
    let mut summaries = Vec::new();
    for corpus in &corpora() {
        summaries.extend(run(&corpus.name, &corpus.pages));
    }
    println!();
    println!("summary (each line measured in this run):");
    for line in summaries {
        println!("  {line}");
    }
}

/// The corpora a bench runs on, each summarized separately: the folders `HTML_ARENA_CORPUS`
/// names (one folder, or several separated like `PATH`: `a:b` on Unix), else those of
/// `../shared/bench-corpus` and `../shared/bench-corpus-wide` that exist, else (or with
/// `HTML_ARENA_VENDORED_CORPUS` set) the vendored pages of `tests/data/bench-corpus`.
/// Pages are the `*.html` files directly in each folder, in name order.
pub fn corpora() -> Vec<Corpus> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs: Vec<PathBuf> = match std::env::var_os("HTML_ARENA_CORPUS") {
        Some(list) => std::env::split_paths(&list).collect(),
        None => vec![
            root.join("../shared/bench-corpus"),
            root.join("../shared/bench-corpus-wide"),
        ],
    };
    dirs.retain(|d| d.is_dir());
    if dirs.is_empty() || std::env::var_os("HTML_ARENA_VENDORED_CORPUS").is_some() {
        dirs = vec![root.join("tests/data/bench-corpus")];
    }
    dirs.iter()
        .map(|dir| Corpus {
            name: if dir.ends_with("tests/data/bench-corpus") {
                "vendored".to_owned()
            } else {
                dir.file_name().map_or_else(
                    || dir.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                )
            },
            pages: pages_in(dir),
        })
        .collect()
}

/// The first of [`corpora`] (for the benches that run on one corpus).
pub fn corpus() -> Vec<Page> {
    corpora().swap_remove(0).pages
}

/// The `*.html` files directly in `dir`, in name order.
pub fn pages_in(dir: &Path) -> Vec<Page> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
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
///
/// `HTML_ARENA_BENCH_SCALE` (a factor, default 1) scales `min_round`: below 1, a quicker run on a
/// busy machine (rounds are timed in CPU time, so shorter ones stay comparable).
pub fn compare(rounds: usize, min_round: Duration, fs: &mut [&mut dyn FnMut()]) -> Vec<Duration> {
    let min_round = min_round.mul_f64(scale());
    // Calibrate: how many calls make a round long enough.
    let mut reps = Vec::new();
    for f in fs.iter_mut() {
        f();
        let mut n = 1u32;
        loop {
            let t = Clock::start();
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
            let t = Clock::start();
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

/// The factor `HTML_ARENA_BENCH_SCALE` gives the benches' round lengths (1 when unset or not a
/// positive number).
pub fn scale() -> f64 {
    std::env::var("HTML_ARENA_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|f| *f > 0.0 && f.is_finite())
        .unwrap_or(1.0)
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
