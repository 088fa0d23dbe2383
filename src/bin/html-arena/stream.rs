//! `--stream`: the matches of one selector as the parse decides them (`html_arena::stream`),
//! printed as without `--stream`, reading the input 64 KiB at a time.

use std::io::Write;
use std::process::ExitCode;

use html_arena::stream::{check_selector, count_reader, select_reader};
use html_arena::{ParseOptions, Selector};

use crate::args::{Args, Mode};

/// Runs `--stream`; the exit status.
pub fn run(args: &Args, selectors: &[Selector], options: &ParseOptions) -> ExitCode {
    let [selector] = selectors else {
        eprintln!("html-arena: --stream takes one SELECTOR");
        return ExitCode::from(2);
    };
    if !args.remove.is_empty() || args.json || args.resolve_urls || args.mode == Mode::Rendered {
        eprintln!("html-arena: --stream does not take -r, -j, -R, -b or -B");
        return ExitCode::from(2);
    }
    if let Err(e) = check_selector(selector) {
        eprintln!("html-arena: {e}");
        return ExitCode::from(2);
    }
    let files: Vec<&str> = if args.files.is_empty() {
        vec!["-"]
    } else {
        args.files.iter().map(String::as_str).collect()
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut status = ExitCode::SUCCESS;
    let result = (|| -> std::io::Result<()> {
        for file in &files {
            let reader = match crate::input::open(file) {
                Ok(reader) => reader,
                Err(e) => {
                    out.flush()?;
                    eprintln!("html-arena: {file}: {e}");
                    status = ExitCode::from(1);
                    continue;
                }
            };
            if files.len() > 1 {
                writeln!(out, "==> {file} <==")?;
            }
            if args.mode == Mode::Count {
                match count_reader(reader, std::slice::from_ref(selector), options) {
                    Ok(n) => writeln!(out, "{n}")?,
                    Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                        out.flush()?;
                        eprintln!("html-arena: {file}: {e}");
                        return Err(std::io::Error::other(crate::Exit2));
                    }
                    Err(e) => return Err(e),
                }
                continue;
            }
            let matches = match select_reader(reader, std::slice::from_ref(selector), options) {
                Ok(m) => m,
                Err(e) => {
                    eprintln!("html-arena: {e}");
                    return Err(std::io::Error::other(crate::Exit2));
                }
            };
            let mut count = 0usize;
            for m in matches {
                let m = match m {
                    Ok(m) => m,
                    Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                        out.flush()?;
                        eprintln!("html-arena: {file}: {e}");
                        return Err(std::io::Error::other(crate::Exit2));
                    }
                    Err(e) => return Err(e),
                };
                count += 1;
                if args.mode != Mode::Count {
                    // As `Output::selector` prints a match.
                    let value = crate::value_of(m.element(), &args.mode, args);
                    if let Some(value) = value.and_then(|v| crate::trimmed(v, args)) {
                        let value = if matches!(args.mode, Mode::Text | Mode::Attr(_)) {
                            crate::one_line(value)
                        } else {
                            value
                        };
                        writeln!(out, "{value}")?;
                    }
                }
            }
            if args.mode == Mode::Count {
                writeln!(out, "{count}")?;
            }
        }
        out.flush()
    })();
    match result {
        Ok(()) => status,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => status,
        Err(e) if e.get_ref().is_some_and(|e| e.is::<crate::Exit2>()) => ExitCode::from(2),
        Err(e) => {
            eprintln!("html-arena: {e}");
            ExitCode::from(1)
        }
    }
}
