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
        let args = self.args;
        let count_only = args.mode == Mode::Count;
        if !args.json {
            if count_only {
                return writeln!(self.out, "{}", doc.select(selector).count());
            }
            let one_line = matches!(args.mode, Mode::Text | Mode::Attr(_));
            for e in doc.select(selector) {
                let value = crate::value_of(e, &args.mode, args);
                if let Some(value) = value.and_then(|v| crate::trimmed(v, args)) {
                    let value = if one_line {
                        crate::one_line(value)
                    } else {
                        value
                    };
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
            if let [field] = args.fields.as_slice() {
                // One field: a string per match, as before.
                let value = crate::value_of(e, field, args);
                if let Some(value) = value.and_then(|v| crate::trimmed(v, args)) {
                    if !first {
                        write!(self.out, ", ")?;
                    }
                    first = false;
                    write_json_string(&mut self.out, &value)?;
                }
                continue;
            }
            // Several fields: an object per match (as pup's `json{}`), every match kept.
            if !first {
                write!(self.out, ", ")?;
            }
            first = false;
            self.out.write_all(b"{")?;
            for (i, field) in args.fields.iter().enumerate() {
                if i > 0 {
                    self.out.write_all(b", ")?;
                }
                write_json_string(&mut self.out, field.key())?;
                self.out.write_all(b": ")?;
                let value = crate::value_of(e, field, args)
                    .map(|v| if args.trim { v.trim().to_owned() } else { v });
                match value {
                    Some(value) => write_json_string(&mut self.out, &value)?,
                    None => self.out.write_all(b"null")?,
                }
            }
            self.out.write_all(b"}")?;
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
