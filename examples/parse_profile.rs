//! Parses files many times (for profilers). `cargo run --release --example parse_profile -- FILE... [--rounds N]`
fn main() {
    let mut rounds = 10;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--rounds" {
            rounds = args.next().and_then(|n| n.parse().ok()).unwrap_or(rounds);
        } else {
            files.push(String::from_utf8_lossy(&std::fs::read(&a).expect("read")).into_owned());
        }
    }
    let mut nodes = 0;
    for _ in 0..rounds {
        for f in &files {
            nodes += html_arena::Document::parse(f).node_count();
        }
    }
    println!("{nodes}");
}
