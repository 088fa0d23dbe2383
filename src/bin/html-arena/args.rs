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

Output (one of, or several with -j; default: each match's HTML):
  -t, --text              the text of each match (all text inside: textContent), on one
                          line: a line break inside it prints as a space
  -R, --rendered          what a reader sees (no scripts or styles, a line per block)
  -a, --attribute NAME    the value of attribute NAME (matches without it are skipped), on
                          one line as with -t
  -c, --count             the number of matches (not with another output option)
  -p, --pretty            HTML, indented, a line per block (for reading, not re-parsing)
  -w, --trim              trim white space around each result; skip empty results
  -j, --json              JSON: [{\"file\": F, \"selector\": S, \"matches\": [..]}, ..]
                          (\"count\": N instead of \"matches\" with -c); values exact,
                          line breaks kept. With several of -t, -R, -p, -a NAME (repeatable),
                          each match is an object of the fields asked, e.g. -j -a href -t:
                          {\"href\": \"/a\", \"text\": \"First\"} (null for a missing
                          attribute; keys text, rendered, html, and the attribute names)

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
2 for a usage error (e.g. two output options without -j), an unknown encoding label or an
invalid selector. A SELECTOR that names an existing file gets a hint to use -f.
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

impl Mode {
    /// The option that asks for this output, for messages.
    fn flag(&self) -> String {
        match self {
            Mode::Html => "-p".to_owned(),
            Mode::Text => "-t".to_owned(),
            Mode::Rendered => "-R".to_owned(),
            Mode::Attr(name) => format!("-a {name}"),
            Mode::Count => "-c".to_owned(),
        }
    }

    /// The key of this field in a `-j` object.
    pub fn key(&self) -> &str {
        match self {
            Mode::Html => "html",
            Mode::Text => "text",
            Mode::Rendered => "rendered",
            Mode::Attr(name) => name,
            Mode::Count => "count",
        }
    }
}

/// The parsed command line.
#[derive(Debug)]
pub struct Args {
    /// What to print for each match (the first of `fields`).
    pub mode: Mode,
    /// Every output field asked for, in order (one, or several with `-j`).
    pub fields: Vec<Mode>,
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
        fields: Vec::new(),
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
                ("text", _) => add_field(&mut args.fields, Mode::Text),
                ("rendered", _) => add_field(&mut args.fields, Mode::Rendered),
                ("count", _) => add_field(&mut args.fields, Mode::Count),
                ("attribute", Some(v)) => add_field(&mut args.fields, Mode::Attr(v)),
                ("pretty", _) => {
                    args.pretty = true;
                    add_field(&mut args.fields, Mode::Html);
                }
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
    check_fields(&args)?;
    args.mode = args.fields.first().cloned().unwrap_or(Mode::Html);
    if args.fields.is_empty() {
        args.fields.push(Mode::Html);
    }
    if args.selectors.is_empty() {
        args.selectors.push("html".to_owned());
    }
    Ok(Parsed::Run(Box::new(args)))
}

/// Adds an output field (once).
fn add_field(fields: &mut Vec<Mode>, field: Mode) {
    if !fields.contains(&field) {
        fields.push(field);
    }
}

/// Refuses output options that cannot go together: several fields per match without `-j`,
/// `-c` with another field, an attribute named as another field's `-j` key.
fn check_fields(args: &Args) -> Result<(), String> {
    let fields = &args.fields;
    if fields.len() < 2 {
        return Ok(());
    }
    let flags: Vec<String> = fields.iter().map(Mode::flag).collect();
    let flags = flags.join(", ");
    if fields.contains(&Mode::Count) {
        return Err(format!(
            "conflicting output options {flags}: -c (--count) prints only the number of matches"
        ));
    }
    if !args.json {
        return Err(format!(
            "conflicting output options {flags}: give one, or use -j (--json) for several \
             fields per match"
        ));
    }
    for (i, field) in fields.iter().enumerate() {
        if let Some(other) = fields[..i].iter().find(|f| f.key() == field.key()) {
            return Err(format!(
                "output options {} and {} would both be the JSON key {:?}",
                other.flag(),
                field.flag(),
                field.key()
            ));
        }
    }
    Ok(())
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
        let a = run(&["-wa", "src", "--", "-weird"]).unwrap();
        assert_eq!(a.mode, Mode::Attr("src".into()));
        assert!(a.trim);
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

    #[test]
    fn output_options_conflict_without_json() {
        // Issue 32: "-a href -t" took the last silently.
        let err = run(&["-a", "href", "-t", "a"]).unwrap_err();
        assert!(
            err.contains("conflicting output options -a href, -t"),
            "{err}"
        );
        assert!(err.contains("use -j"), "{err}");
        assert!(run(&["-p", "-R"]).is_err());
        assert!(run(&["-j", "-c", "-t"]).unwrap_err().contains("--count"));
        assert!(
            run(&["-j", "-a", "text", "-t"])
                .unwrap_err()
                .contains("\"text\"")
        );
        // The same option twice is one field; -j takes several.
        assert_eq!(run(&["-t", "--text"]).unwrap().fields, [Mode::Text]);
        let a = run(&["-j", "-a", "href", "-t", "-a", "title"]).unwrap();
        assert_eq!(
            a.fields,
            [
                Mode::Attr("href".into()),
                Mode::Text,
                Mode::Attr("title".into())
            ]
        );
        assert_eq!(a.mode, Mode::Attr("href".into()));
        assert_eq!(run(&[]).unwrap().fields, [Mode::Html]);
        assert_eq!(run(&["-p"]).unwrap().fields, [Mode::Html]);
    }
}
