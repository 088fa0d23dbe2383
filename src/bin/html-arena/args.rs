//! The command line, hand-rolled: short flags (`-t`, `-a NAME`, `-aNAME`, `-tw`), long ones
//! (`--attribute NAME`, `--attribute=NAME`), `--` to end the options.

use std::ffi::OsString;

use html_arena::encoding::get_an_encoding;

pub const HELP: &str = "\
html-arena: select parts of HTML with CSS selectors

Usage: html-arena [OPTIONS] [SELECTOR]...

Reads HTML from standard input (or the files given with -f), parses it as a browser
does, and prints every element that matches each SELECTOR, in document order, one per
line (default selector: html). Several selectors run one after the other.
Selectors are CSS as in a browser, plus text pseudo-classes: :contains(\"s\") (the text
contains s), :-soup-contains(\"s\", ..), :-soup-contains-own(\"s\") (a text child contains
s), :has-text(\"s\") (ignoring case and white space).

Output (one of; default: each match's HTML):
  -t, --text              the text of each match (all text inside: textContent)
  -R, --rendered          what a reader sees (no scripts or styles, a line per block)
  -a, --attribute NAME    the value of attribute NAME (matches without it are skipped)
  -c, --count             the number of matches
  -p, --pretty            HTML, indented, a line per block (for reading, not re-parsing)
  -w, --trim              trim white space around each result; skip empty results
  -j, --json              JSON: [{\"file\": F, \"selector\": S, \"matches\": [..]}, ..]
                          (\"count\": N instead of \"matches\" with -c)

Input:
  -f, --file FILE         read FILE instead of standard input ('-' is standard input;
                          repeat for several files: each gets a line '==> FILE <==')
  -r, --remove SELECTOR   remove what matches SELECTOR before selecting (repeatable)
  -b, --base URL          the documents' URL: with -a, a URL-valued attribute (href, src,
                          action, ...) prints as an absolute URL, resolved against the
                          document base URL: the page's <base href> (itself resolved
                          against URL), else URL, as a browser's href getter does
  -B, --detect-base       with -a, resolve URL-valued attributes against the page's
                          <base href> even without --base (a value that cannot be made
                          absolute prints as it is)
  -e, --encoding LABEL    decode the input with LABEL (e.g. utf-8, shift_jis), whatever it
                          declares (a byte order mark still wins)
      --browser-encoding  choose the encoding as a browser does: what the page declares,
                          else windows-1252, never a guess. By default a page that declares
                          nothing is UTF-8 if it is valid UTF-8, else guessed from its bytes.
      --scripting         parse with scripting on (<noscript> content is then text)
      --stream            select while parsing: the same output, with memory bounded by
                          what is still open instead of the whole page (one SELECTOR; not
                          with -r, -j, -R, -b, -B). A selector streaming cannot answer
                          exactly (+, ~, :nth-child(), :last-child, ...) exits with status 2

  -h, --help              print this help
  -V, --version           print the version

Exit status: 0 if all went well (also with no matches), 1 if a file could not be read,
2 for a usage error, an unknown encoding label or an invalid selector.
";

/// What to print for each match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Html,
    Text,
    Rendered,
    Attr(String),
    Count,
}

/// The parsed command line.
#[derive(Debug)]
pub struct Args {
    pub mode: Mode,
    pub pretty: bool,
    pub trim: bool,
    pub json: bool,
    pub files: Vec<String>,
    pub remove: Vec<String>,
    pub encoding: Option<String>,
    pub browser_encoding: bool,
    pub scripting: bool,
    /// `--base URL`: the documents' URL.
    pub base: Option<html_arena::Url>,
    /// Whether `-a` resolves URL-valued attributes (`--base` or `--detect-base`).
    pub resolve_urls: bool,
    pub selectors: Vec<String>,
    /// `--stream`: select while parsing (see `stream.rs`).
    pub stream: bool,
}

/// What the command line asks for.
pub enum Parsed {
    Run(Box<Args>),
    Help,
    Version,
}

/// Every option: its long name, its short letter (`None` for long only), whether it takes a
/// value.
const OPTIONS: [(&str, Option<char>, bool); 17] = [
    ("text", Some('t'), false),
    ("rendered", Some('R'), false),
    ("attribute", Some('a'), true),
    ("count", Some('c'), false),
    ("pretty", Some('p'), false),
    ("trim", Some('w'), false),
    ("json", Some('j'), false),
    ("file", Some('f'), true),
    ("remove", Some('r'), true),
    ("encoding", Some('e'), true),
    ("base", Some('b'), true),
    ("detect-base", Some('B'), false),
    ("browser-encoding", None, false),
    ("scripting", None, false),
    ("stream", None, false),
    ("help", Some('h'), false),
    ("version", Some('V'), false),
];

/// The option with this long name (or one of htmlq's spellings): its name and whether it
/// takes a value.
fn long_option(name: &str) -> Option<(&'static str, bool)> {
    let name = match name {
        "filename" => "file",
        "remove-nodes" => "remove",
        "ignore-whitespace" => "trim",
        other => other,
    };
    OPTIONS
        .iter()
        .find(|o| o.0 == name)
        .map(|&(name, _, value)| (name, value))
}

/// The option with this short letter.
fn short_option(letter: char) -> Option<(&'static str, bool)> {
    OPTIONS
        .iter()
        .find(|o| o.1 == Some(letter))
        .map(|&(name, _, value)| (name, value))
}

/// Parses the arguments (without the program name).
pub fn parse(raw: impl IntoIterator<Item = OsString>) -> Result<Parsed, String> {
    let mut args = Args {
        mode: Mode::Html,
        pretty: false,
        trim: false,
        json: false,
        files: Vec::new(),
        remove: Vec::new(),
        encoding: None,
        browser_encoding: false,
        scripting: false,
        base: None,
        resolve_urls: false,
        selectors: Vec::new(),
        stream: false,
    };
    let mut raw = raw.into_iter();
    let mut next_string = |what: &str| -> Result<Option<String>, String> {
        raw.next()
            .map(|a| {
                a.into_string()
                    .map_err(|a| format!("{what} is not valid UTF-8: {a:?}"))
            })
            .transpose()
    };
    let mut options_done = false;
    while let Some(arg) = next_string("an argument")? {
        // (name, value given with `=` or attached to a short flag)
        let mut flags: Vec<(&'static str, bool, Option<String>)> = Vec::new();
        if options_done || arg == "-" || !arg.starts_with('-') {
            args.selectors.push(arg);
            continue;
        } else if arg == "--" {
            options_done = true;
            continue;
        } else if let Some(long) = arg.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value.to_owned())),
                None => (long, None),
            };
            let (name, takes_value) =
                long_option(name).ok_or_else(|| format!("unknown option --{name}"))?;
            flags.push((name, takes_value, value));
        } else {
            // A cluster of short flags; one that takes a value takes the rest of the cluster
            // (`-aNAME`) or the next argument.
            for (i, c) in arg.char_indices().skip(1) {
                let (name, takes_value) =
                    short_option(c).ok_or_else(|| format!("unknown option -{c}"))?;
                if takes_value {
                    let rest = &arg[i + c.len_utf8()..];
                    flags.push((name, true, (!rest.is_empty()).then(|| rest.to_owned())));
                    break;
                }
                flags.push((name, false, None));
            }
        }
        for (name, takes_value, value) in flags {
            let value = if takes_value {
                match value {
                    Some(value) => Some(value),
                    None => Some(
                        next_string("a value")?
                            .ok_or_else(|| format!("option --{name} needs a value"))?,
                    ),
                }
            } else if value.is_some() {
                return Err(format!("option --{name} takes no value"));
            } else {
                None
            };
            match (name, value) {
                ("help", _) => return Ok(Parsed::Help),
                ("version", _) => return Ok(Parsed::Version),
                ("text", _) => args.mode = Mode::Text,
                ("rendered", _) => args.mode = Mode::Rendered,
                ("count", _) => args.mode = Mode::Count,
                ("attribute", Some(v)) => args.mode = Mode::Attr(v),
                ("pretty", _) => args.pretty = true,
                ("trim", _) => args.trim = true,
                ("json", _) => args.json = true,
                ("file", Some(v)) => args.files.push(v),
                ("remove", Some(v)) => args.remove.push(v),
                ("encoding", Some(v)) => {
                    if get_an_encoding(&v).is_none() {
                        return Err(format!(
                            "unknown encoding label {v:?} (see \
                             https://encoding.spec.whatwg.org/#names-and-labels)"
                        ));
                    }
                    args.encoding = Some(v);
                }
                ("browser-encoding", _) => args.browser_encoding = true,
                ("scripting", _) => args.scripting = true,
                ("stream", _) => args.stream = true,
                ("base", Some(v)) => {
                    let url = html_arena::Url::parse(&v)
                        .map_err(|e| format!("invalid --base URL {v:?}: {e}"))?;
                    args.base = Some(url);
                    args.resolve_urls = true;
                }
                ("detect-base", _) => args.resolve_urls = true,
                _ => return Err(format!("option --{name} is not understood")),
            }
        }
    }
    if args.selectors.is_empty() {
        args.selectors.push("html".to_owned());
    }
    Ok(Parsed::Run(Box::new(args)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Args, String> {
        match parse(args.iter().map(OsString::from))? {
            Parsed::Run(args) => Ok(*args),
            Parsed::Help => Err("help".into()),
            Parsed::Version => Err("version".into()),
        }
    }

    #[test]
    fn short_long_and_clustered_flags() {
        let a = run(&["-tw", "-f", "x.html", "a", "b"]).unwrap();
        assert_eq!(a.mode, Mode::Text);
        assert!(a.trim);
        assert_eq!(a.files, ["x.html"]);
        assert_eq!(a.selectors, ["a", "b"]);
        let a = run(&["-ahref", "--file=y", "--remove", "script", "a"]).unwrap();
        assert_eq!(a.mode, Mode::Attr("href".into()));
        assert_eq!(
            (a.files, a.remove),
            (vec!["y".into()], vec!["script".into()])
        );
        let a = run(&["-pa", "src", "--", "-weird"]).unwrap();
        assert_eq!(a.mode, Mode::Attr("src".into()));
        assert!(a.pretty);
        assert_eq!(a.selectors, ["-weird"]);
        assert_eq!(run(&[]).unwrap().selectors, ["html"]);
        assert_eq!(run(&["-h"]).unwrap_err(), "help");
        assert_eq!(run(&["-x", "--help"]).unwrap_err(), "unknown option -x");
        assert_eq!(run(&["--version"]).unwrap_err(), "version");
        assert!(run(&["-a"]).unwrap_err().contains("needs a value"));
        assert!(run(&["--text=1"]).unwrap_err().contains("takes no value"));
        assert!(
            run(&["-e", "utf-7"])
                .unwrap_err()
                .contains("unknown encoding")
        );
        let a = run(&[
            "--filename",
            "f",
            "--ignore-whitespace",
            "--remove-nodes",
            "s",
        ])
        .unwrap();
        assert_eq!((a.files.len(), a.trim, a.remove.len()), (1, true, 1));
    }
}
