//! `html-arena --stream`: the same output as without `--stream` (on the vendored real pages
//! and a misnested page), and a selector streaming refuses exits with status 2 and the reason.

mod common;

use std::process::Output;

/// Runs the command with `args`, `stdin` as its standard input.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    common::run_command(args, stdin)
}

#[test]
fn stream_prints_what_a_full_parse_prints() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench-corpus");
    let mut pages: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    pages.push(b"<b><div><p>1</p><p>2</p></b><table><tr><td>x</td></tr><p>f</p></table>".to_vec());
    let mut compared = 0;
    for page in &pages {
        for selector in [
            "a",
            "td",
            "div > p",
            "p",
            "tr:nth-child(2n+1) td:first-child",
            "td + td",
        ] {
            for mode in [&[][..], &["-t"], &["-c"], &["-a", "href"], &["-tw"]] {
                let mut plain: Vec<&str> = mode.to_vec();
                plain.push(selector);
                let mut streamed = vec!["--stream"];
                streamed.extend_from_slice(&plain);
                let a = run(&plain, page);
                let b = run(&streamed, page);
                assert!(a.status.success() && b.status.success(), "{streamed:?}");
                assert!(a.stdout == b.stdout, "{streamed:?} differs");
                compared += 1;
            }
        }
    }
    assert!(compared > 200);
}

#[test]
fn refused_selectors_exit_2_with_the_reason() {
    for selector in ["li:last-child", "h2 ~ p", ".content p"] {
        let out = run(&["--stream", selector], b"<p>x");
        assert_eq!(out.status.code(), Some(2), "{selector}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not supported while streaming"), "{err}");
        assert!(out.stdout.is_empty());
    }
    let out = run(&["--stream", "p", "a"], b"<p>x");
    assert_eq!(out.status.code(), Some(2));
}
