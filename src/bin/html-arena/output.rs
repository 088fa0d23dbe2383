//! Printing the results: a line per match, or JSON.

use std::io::{self, Write};

use html_arena::{Document, Selector};

use crate::args::{Args, Mode};

/// Where the results go, and in which form.
pub struct Output<'a, W: Write> {
    out: W,
    args: &'a Args,
    /// The file being read, for the JSON records.
    file: String,
    /// Whether a JSON record was written (a comma goes before the next).
    wrote_record: bool,
}

impl<'a, W: Write> Output<'a, W> {
    pub fn new(out: W, args: &'a Args) -> Self {
        Output {
            out,
            args,
            file: String::new(),
            wrote_record: false,
        }
    }

    /// A new input file; `header` prints `==> FILE <==` before its results (plain output).
    pub fn begin_file(&mut self, file: &str, header: bool) -> io::Result<()> {
        file.clone_into(&mut self.file);
        if header && !self.args.json {
            writeln!(self.out, "==> {file} <==")?;
        }
        Ok(())
    }

    /// Prints the results of one selector over `doc`.
    pub fn selector(&mut self, doc: &Document, text: &str, selector: &Selector) -> io::Result<()> {
        let count_only = self.args.mode == Mode::Count;
        if !self.args.json {
            if count_only {
                return writeln!(self.out, "{}", doc.select(selector).count());
            }
            for e in doc.select(selector) {
                if let Some(value) = crate::value_of(e, self.args) {
                    writeln!(self.out, "{value}")?;
                }
            }
            return Ok(());
        }
        self.out
            .write_all(if self.wrote_record { b",\n" } else { b"[\n" })?;
        self.wrote_record = true;
        write!(self.out, "{{\"file\": ")?;
        write_json_string(&mut self.out, &self.file)?;
        write!(self.out, ", \"selector\": ")?;
        write_json_string(&mut self.out, text)?;
        if count_only {
            return write!(self.out, ", \"count\": {}}}", doc.select(selector).count());
        }
        write!(self.out, ", \"matches\": [")?;
        let mut first = true;
        for e in doc.select(selector) {
            if let Some(value) = crate::value_of(e, self.args) {
                if !first {
                    write!(self.out, ", ")?;
                }
                first = false;
                write_json_string(&mut self.out, &value)?;
            }
        }
        write!(self.out, "]}}")
    }

    /// Ends the output (closes the JSON array) and flushes it.
    pub fn finish(&mut self) -> io::Result<()> {
        if self.args.json {
            self.out
                .write_all(if self.wrote_record { b"\n]\n" } else { b"[]\n" })?;
        }
        self.out.flush()
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// A JSON string (RFC 8259 section 7): `"` and `\` escaped, control characters as `\n`, `\t`
/// or `\u00XX`; everything else as it is (the output is UTF-8).
pub fn write_json_string(out: &mut impl Write, s: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0..=0x1F => b"",
            _ => continue,
        };
        out.write_all(&s.as_bytes()[start..i])?;
        if escape.is_empty() {
            write!(out, "\\u{b:04x}")?;
        } else {
            out.write_all(escape)?;
        }
        start = i + 1;
    }
    out.write_all(&s.as_bytes()[start..])?;
    out.write_all(b"\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings() {
        let mut out = Vec::new();
        write_json_string(&mut out, "a\"b\\c\nd\u{1}é\u{7f}").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"a\\\"b\\\\c\\nd\\u0001é\u{7f}\""
        );
    }
}
