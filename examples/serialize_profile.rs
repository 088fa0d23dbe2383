//! Serializes files many times (for profilers).
fn main() {
    let files: Vec<String> = std::env::args()
        .skip(1)
        .map(|a| String::from_utf8_lossy(&std::fs::read(a).expect("read")).into_owned())
        .collect();
    let docs: Vec<_> = files
        .iter()
        .map(|f| html_arena::Document::parse(f))
        .collect();
    let mut n = 0;
    for _ in 0..30 {
        for d in &docs {
            n += d.html().len();
        }
    }
    println!("{n}");
}
