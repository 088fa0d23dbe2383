//! `document.write` through a [`ScriptingParser`]: many small writes, one big write, and a big
//! write full of scripts that write (each pause leaves the rest of the write to read later),
//! each at 1x, 2x, 4x and 8x size. Prints the time of each and the growth factor per doubling:
//! a cost linear in what is written doubles (2.0x); a re-copy of the remaining input per
//! write or per pause would show as 4x.
//!
//! `cargo bench --bench document_write`

use std::hint::black_box;
use std::time::{Duration, Instant};

use html_arena::{ParseOptions, ParserEvent, ScriptingParser, WriteEvent};

/// Runs a page whose one script makes `writes` (a closure given the parser); returns the
/// node count.
fn run(page: &str, script: &mut dyn FnMut(&mut ScriptingParser)) -> usize {
    let mut parser = ScriptingParser::new(&ParseOptions::default());
    parser.write_str(page);
    parser.end();
    let mut first = true;
    loop {
        match parser.run().expect("run") {
            ParserEvent::Script(_) if first => {
                first = false;
                script(&mut parser);
            }
            ParserEvent::Script(_) => {}
            ParserEvent::Done => break,
            other => panic!("unexpected {other:?}"),
        }
    }
    parser.finish().node_count()
}

/// Writes `text`, running every nested script it completes as one that writes `inner`.
fn write_all(parser: &mut ScriptingParser, text: &str, inner: &str) {
    let mut event = parser.document_write(text).expect("write");
    while let WriteEvent::Script(_) = event {
        let nested = parser.document_write(inner).expect("nested write");
        assert_eq!(nested, WriteEvent::Done);
        event = parser.resume_write().expect("resume");
    }
}

struct Case {
    name: &'static str,
    /// Size unit: writes, or kilobytes.
    unit: &'static str,
    base: usize,
    go: fn(usize) -> usize,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "small writes (`<li>x</li>`, tags split over writes)",
            unit: "writes",
            base: 10_000,
            go: |n| {
                run("<ul><script>s</script></ul>", &mut |p| {
                    for i in 0..n {
                        let piece = ["<li", ">x</", "li>"][i % 3];
                        assert_eq!(p.document_write(piece), Ok(WriteEvent::Done));
                    }
                })
            },
        },
        Case {
            name: "one big write (`<p>text` repeated)",
            unit: "KB",
            base: 1_024,
            go: |kb| {
                let text = "<p>lorem ipsum".repeat(kb * 1024 / 14);
                run("<script>s</script>tail", &mut |p| write_all(p, &text, ""))
            },
        },
        Case {
            name: "reference: Document::parse of the big write's text (no scripts)",
            unit: "KB",
            base: 1_024,
            go: |kb| {
                let text = "<p>lorem ipsum".repeat(kb * 1024 / 14);
                let options = ParseOptions::default().with_scripting(true);
                html_arena::Document::parse_with(&text, &options).node_count()
            },
        },
        Case {
            name: "one big write of scripts that write (a pause every 40 bytes)",
            unit: "KB",
            base: 256,
            go: |kb| {
                let text = "<script>w</script><b>x</b><i>y</i>".repeat(kb * 1024 / 36);
                run("<script>s</script>tail", &mut |p| {
                    write_all(p, &text, "<u>z</u>")
                })
            },
        },
        Case {
            name: "network input with a script every 40 bytes",
            unit: "KB",
            base: 256,
            go: |kb| {
                let page = "<script>w</script><b>x</b><i>y</i>".repeat(kb * 1024 / 36);
                let mut parser = ScriptingParser::new(&ParseOptions::default());
                parser.write_str(&page);
                parser.end();
                loop {
                    match parser.run().expect("run") {
                        ParserEvent::Script(_) => {
                            parser.document_write("<u>z</u>").expect("write");
                        }
                        ParserEvent::Done => break,
                        other => panic!("unexpected {other:?}"),
                    }
                }
                parser.finish().node_count()
            },
        },
    ]
}

/// The median of `rounds` runs, each of at least `min` (repeated).
fn time(rounds: usize, min: Duration, f: &mut dyn FnMut()) -> Duration {
    let mut times = Vec::new();
    for _ in 0..rounds {
        let start = Instant::now();
        let mut reps = 0u32;
        while start.elapsed() < min || reps == 0 {
            f();
            reps += 1;
        }
        times.push(start.elapsed() / reps);
    }
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    for case in cases() {
        if filter.as_deref().is_some_and(|f| !case.name.contains(f)) {
            continue;
        }
        println!("{}:", case.name);
        let mut last: Option<Duration> = None;
        for factor in [1, 2, 4, 8] {
            let n = case.base * factor;
            let t = time(7, Duration::from_millis(300), &mut || {
                black_box((case.go)(black_box(n)));
            });
            let growth = last.map_or(String::new(), |l| {
                format!("  x{:.2}", t.as_secs_f64() / l.as_secs_f64())
            });
            println!("  {n:>8} {}: {:>10.2?}{growth}", case.unit, t);
            last = Some(t);
        }
    }
}
