//! The `html-arena` command (src/bin/html-arena), run as a user runs it: the htmlq/pup habits
//! (standard input, `-h`, `--version`, short flags, several selectors, removal, pretty HTML,
//! JSON, trimmed and rendered text) and the encoding choice.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

const PAGE: &str = "<!DOCTYPE html><title>T</title>
<nav><a href=/one>One</a> <a HREF=/two class=x>Two</a></nav>
<main><h1>  Head  line </h1><p>Para <b>bold</b>.</p><script>var s = 1;</script>
<div class=ad><p>Buy!</p></div><a>no href</a></main>";

/// Runs the command with `args`, `stdin` as its standard input.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    common::run_command(args, stdin)
}

/// Runs it on `PAGE`; expects success and returns standard output.
fn ok(args: &[&str]) -> String {
    let out = run(args, PAGE.as_bytes());
    assert!(
        out.status.success(),
        "{args:?}: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn reads_standard_input_and_prints_outer_html() {
    assert_eq!(
        ok(&["nav a"]),
        "<a href=\"/one\">One</a>\n<a href=\"/two\" class=\"x\">Two</a>\n"
    );
    // `-f -` is standard input too; with no selector, the whole document element.
    let html = ok(&["-f", "-"]);
    assert!(html.starts_with("<html><head><title>T</title>"), "{html}");
    assert!(html.ends_with("</main></body></html>\n"), "{html}");
}

#[test]
fn help_and_version_go_to_standard_output() {
    for flag in ["-h", "--help"] {
        let out = ok(&[flag]);
        assert!(out.starts_with("html-arena: select parts of HTML"), "{out}");
        assert!(out.contains("--browser-encoding"));
    }
    for flag in ["-V", "--version"] {
        assert_eq!(
            ok(&[flag]),
            format!("html-arena {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn short_flags() {
    // -a: the attribute (getAttribute's name lowercasing: HREF was parsed as href); matches
    // without it are skipped.
    assert_eq!(ok(&["-a", "href", "a"]), "/one\n/two\n");
    assert_eq!(ok(&["-aHREF", "a"]), "/one\n/two\n");
    // -t: textContent; -w trims it.
    assert_eq!(ok(&["-t", "h1"]), "  Head  line \n");
    assert_eq!(ok(&["-tw", "h1"]), "Head  line\n");
    // The script source is text; the line break inside the match prints as a space.
    assert_eq!(ok(&["-t", "main"]).lines().count(), 1);
    // -R: what a reader sees (no script); -c: counts.
    assert_eq!(
        ok(&["-R", "main"]),
        "Head line\n\nPara bold.\n\nBuy!\n\nno href\n"
    );
    assert_eq!(ok(&["-c", "a", "p"]), "3\n2\n");
}

#[test]
fn several_selectors_one_after_the_other() {
    assert_eq!(
        ok(&["-t", "title", "nav a", "h1 + p"]),
        "T\nOne\nTwo\nPara bold.\n"
    );
}

#[test]
fn remove_before_output() {
    assert_eq!(
        ok(&["-r", ".ad", "--remove", "script", "-R", "main"]),
        "Head line\n\nPara bold.\n\nno href\n"
    );
    // A match inside another match goes with it.
    assert_eq!(ok(&["-r", "main", "-r", "p", "-c", "p"]), "0\n");
}

#[test]
fn pretty_html() {
    assert_eq!(
        ok(&["-p", ".ad"]),
        "<div class=\"ad\">\n  <p>Buy!</p>\n</div>\n"
    );
    let body = ok(&["-p", "body"]);
    assert!(
        body.contains("\n  <main>\n    <h1>  Head  line </h1>\n"),
        "{body}"
    );
}

#[test]
fn json_output() {
    assert_eq!(
        ok(&["-j", "-a", "href", "nav a", "h6"]),
        "[\n{\"file\": \"-\", \"selector\": \"nav a\", \"matches\": [\"/one\", \"/two\"]},\n\
         {\"file\": \"-\", \"selector\": \"h6\", \"matches\": []}\n]\n"
    );
    assert_eq!(
        ok(&["--json", "--count", "a"]),
        "[\n{\"file\": \"-\", \"selector\": \"a\", \"count\": 3}\n]\n"
    );
    let html = ok(&["-j", "script"]);
    assert_eq!(
        html,
        "[\n{\"file\": \"-\", \"selector\": \"script\", \"matches\": \
         [\"<script>var s = 1;</script>\"]}\n]\n"
    );
}

#[test]
fn files_and_errors() {
    let dir = std::env::temp_dir().join(format!("html-arena-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("page.html");
    std::fs::write(&file, "<p>from a file").expect("written");
    let path = file.to_str().expect("UTF-8 path");
    assert_eq!(ok(&["-t", "-f", path, "p"]), "from a file\n");
    // Several files: a header before each one's results.
    assert_eq!(
        ok(&["-t", "-f", path, "-f", "-", "title"]),
        format!("==> {path} <==\n==> - <==\nT\n")
    );
    // A missing file: status 1, the others still run.
    let missing = dir.join("missing.html");
    let out = run(
        &["-c", "-f", missing.to_str().unwrap(), "-f", "-", "a"],
        PAGE.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("==> - <==\n3\n"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.html"));
    let _ = std::fs::remove_dir_all(&dir);
    // An invalid selector: status 2, a pointer to the problem, which selector it was.
    let out = run(&["p", "ul > li:hovr"], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("invalid selector \"ul > li:hovr\""),
        "{stderr}"
    );
    assert!(stderr.contains("^^^^^"), "{stderr}");
    assert!(out.stdout.is_empty());
    // Usage errors: status 2.
    for args in [&["--frobnicate"][..], &["-a"], &["-e", "utf-7", "p"]] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn encoding_choice() {
    let page = "<p>Grüße – café".as_bytes();
    // Undeclared valid UTF-8: UTF-8 by default...
    let out = run(&["-t", "p"], page);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Grüße – café\n");
    // ...windows-1252 as a browser chooses...
    let out = run(&["--browser-encoding", "-t", "p"], page);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "GrÃ¼ÃŸe â€“ cafÃ©\n");
    // ...or what the user says.
    let out = run(&["-e", "koi8-r", "-t", "p"], b"<p>\xf0\xd2\xc9\xd7\xc5\xd4");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Привет\n");
    // Undeclared legacy bytes are guessed.
    let out = run(&["-t", "p"], b"<p>caf\xe9");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "café\n");
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_html-arena"))
        .args(["-t", "p"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let big = "<p>line".repeat(200_000);
    let mut input = child.stdin.take().expect("piped");
    input.write_all(big.as_bytes()).expect("written");
    drop(input);
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("ends");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn base_url_makes_url_attributes_absolute() {
    let page = "<a href=one>1</a><a href='/two?q=a b'>2</a><a href='https://other.example/x'>3</a>\
                <img src=i.png alt=pic class=c><a href='http://[bad'>4</a>";
    let run_ok = |args: &[&str], page: &str| {
        let out = run(args, page.as_bytes());
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    // Without --base: the values as written.
    assert_eq!(
        run_ok(&["-a", "href", "a"], page),
        "one\n/two?q=a b\nhttps://other.example/x\nhttp://[bad\n"
    );
    // --base URL: resolved as the href getter does (a value that does not parse: unchanged).
    assert_eq!(
        run_ok(
            &["-b", "https://example.com/dir/page.html", "-a", "href", "a"],
            page
        ),
        "https://example.com/dir/one\nhttps://example.com/two?q=a%20b\n\
         https://other.example/x\nhttp://[bad\n"
    );
    assert_eq!(
        run_ok(&["--base=https://example.com/d/", "-a", "src", "img"], page),
        "https://example.com/d/i.png\n"
    );
    // Attributes that are not URLs print as they are; -a looks names up as getAttribute does.
    assert_eq!(
        run_ok(&["-b", "https://example.com/d/", "-a", "alt", "img"], page),
        "pic\n"
    );
    assert_eq!(
        run_ok(&["-b", "https://example.com/d/", "-a", "SRC", "img"], page),
        "https://example.com/d/i.png\n"
    );
    // The page's <base href> wins over --base, and is itself resolved against it.
    let based = format!("<base href='../sub/'>{page}");
    assert_eq!(
        run_ok(
            &["-b", "https://example.com/dir/page.html", "-a", "href", "a"],
            &based
        )
        .lines()
        .next(),
        Some("https://example.com/sub/one")
    );
    // -B: the page's <base href> without --base (an absolute one is needed then).
    let based = format!("<base href='https://cdn.example/b/'>{page}");
    assert_eq!(
        run_ok(&["-B", "-a", "src", "img"], &based),
        "https://cdn.example/b/i.png\n"
    );
    assert_eq!(run_ok(&["-a", "src", "img"], &based), "i.png\n");
    // -B without a usable base: unchanged values.
    assert_eq!(run_ok(&["-B", "-a", "src", "img"], page), "i.png\n");
    // JSON output carries the resolved values too.
    assert_eq!(
        run_ok(
            &[
                "-j",
                "-b",
                "https://example.com/",
                "-a",
                "href",
                "a:first-child"
            ],
            page
        ),
        "[\n{\"file\": \"-\", \"selector\": \"a:first-child\", \"matches\": \
         [\"https://example.com/one\"]}\n]\n"
    );
    // An invalid --base: a usage error.
    let out = run(&["-b", "not a url", "a"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid --base URL"));
}

#[test]
fn text_pseudo_classes() {
    // The extended syntax: :contains() and friends, in selectors and in --remove.
    assert_eq!(ok(&["-a", "href", "nav a:contains(Two)"]), "/two\n");
    assert_eq!(ok(&["-t", "p:has-text('PARA BOLD')"]), "Para bold.\n");
    assert_eq!(ok(&["-c", "-r", "p:contains('Buy')", "p"]), "1\n");
    assert_eq!(ok(&["-c", ":-soup-contains-own('Buy!')"]), "1\n");
}

/// Issue 32: links with their text, as pup's `json{}`: `-j` with several output options gives
/// an object per match.
#[test]
fn json_objects_with_several_fields_per_match() {
    assert_eq!(
        ok(&["-j", "-a", "href", "-t", "main a, nav a"]),
        "[\n{\"file\": \"-\", \"selector\": \"main a, nav a\", \"matches\": [\
         {\"href\": \"/one\", \"text\": \"One\"}, \
         {\"href\": \"/two\", \"text\": \"Two\"}, \
         {\"href\": null, \"text\": \"no href\"}]}\n]\n"
    );
    // Any of -t, -R, -p, -a (repeatable), in the order given; -w trims each value; JSON keeps
    // line breaks.
    assert_eq!(
        ok(&["-jw", "-a", "class", "-p", "-a", "HREF", "-R", "a.x"]),
        "[\n{\"file\": \"-\", \"selector\": \"a.x\", \"matches\": [\
         {\"class\": \"x\", \"html\": \"<a href=\\\"/two\\\" class=\\\"x\\\">Two</a>\", \
         \"HREF\": \"/two\", \"rendered\": \"Two\"}]}\n]\n"
    );
    let out = run(&["-j", "-t", "-a", "id", "p"], b"<p id=a>one\ntwo</p>");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "[\n{\"file\": \"-\", \"selector\": \"p\", \"matches\": [\
         {\"text\": \"one\\ntwo\", \"id\": \"a\"}]}\n]\n"
    );
    // One field: the list of strings, as before.
    assert_eq!(
        ok(&["-j", "-a", "href", "-a", "href", "nav a"]),
        "[\n{\"file\": \"-\", \"selector\": \"nav a\", \"matches\": [\"/one\", \"/two\"]}\n]\n"
    );
}

/// A hostile page nests 100,000 deep: `-j` with an object per match (text, rendered text,
/// an attribute, pretty HTML) walks it without recursion.
#[test]
fn json_objects_on_a_deeply_nested_page() {
    let depth = 100_000;
    let page = format!("<div id=top>{}x", "<div>".repeat(depth - 1));
    let out = run(
        &["-j", "-a", "id", "-t", "-R", "-p", "#top"],
        page.as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = String::from_utf8(out.stdout).expect("UTF-8 output");
    let start = "[\n{\"file\": \"-\", \"selector\": \"#top\", \"matches\": [\
                 {\"id\": \"top\", \"text\": \"x\", \"rendered\": \"x\", \
                 \"html\": \"<div id=\\\"top\\\">\\n";
    assert!(out.starts_with(start), "{}", &out[..start.len() + 20]);
    assert!(
        out.ends_with("</div>\"}]}\n]\n"),
        "{}",
        &out[out.len() - 40..]
    );
    assert_eq!(out.matches("</div>").count(), depth);
}

/// Issue 32: `-a href -t` used to take the last silently.
#[test]
fn conflicting_output_flags_are_a_usage_error() {
    for args in [
        &["-a", "href", "-t", "a"][..],
        &["-t", "-R", "a"],
        &["-p", "-a", "src", "img"],
        &["-c", "-t", "a"],
        &["-j", "-c", "-a", "href", "a"],
        &["-j", "-t", "-a", "text", "a"],
    ] {
        let out = run(args, PAGE.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("output option"), "{args:?}: {stderr}");
    }
    let out = run(&["-a", "href", "-t", "a"], PAGE.as_bytes());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("conflicting output options -a href, -t") && stderr.contains("-j"),
        "{stderr}"
    );
    // The same option twice is no conflict.
    assert_eq!(ok(&["-t", "--text", "title"]), "T\n");
}

/// Issue 32: `-t` kept the line breaks inside a match, so the lines of `-t` and `-a` runs
/// could not be paired. One match is one line.
#[test]
fn text_prints_one_line_per_match() {
    let page = "<a href=/a>one\ntwo</a><a href=/b>three\r\nfour\rfive</a>\
                <a href='/c\nd'>x</a>";
    let out = run(&["-t", "a"], page.as_bytes());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "one two\nthree four five\nx\n"
    );
    let out = run(&["-a", "href", "a"], page.as_bytes());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "/a\n/b\n/c d\n");
    // -R keeps its line per block; HTML is printed as it is.
    let out = run(&["-R", "body"], b"<p>a</p><p>b</p>");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "a\n\nb\n");
    let out = run(&["pre"], b"<pre>\n\nx\ny</pre>");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "<pre>\nx\ny</pre>\n");
}

/// Issue 32: `html-arena page.html` reads standard input with the selector `page.html`.
#[test]
fn a_selector_naming_a_file_gets_a_hint() {
    let dir = std::env::temp_dir().join(format!("html-arena-hint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("page.html"), "<p>x").expect("written");
    let run_in = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_html-arena"))
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
            .expect("runs")
    };
    // A valid selector: the hint, and the run goes on (on the empty standard input).
    let out = run_in(&["page.html"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("use -f page.html"), "{stderr}");
    // An invalid one: the hint and the selector error (status 2).
    let out = run_in(&["./page.html"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("use -f ./page.html"), "{stderr}");
    assert!(stderr.contains("invalid selector"), "{stderr}");
    // No such file: no hint.
    let out = run_in(&["other.html"]);
    assert!(String::from_utf8_lossy(&out.stderr).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
