//! A deliberately tiny script interpreter for `tree --run-scripts` (and the scripted tests):
//! it runs `document.write(...)` and `document.writeln(...)` and nothing else.
//!
//! A script is a sequence of statements separated by `;` or line breaks (outside string
//! literals). A statement `document.write(E, ...)` or `document.writeln(E, ...)`, where each
//! `E` is one or more JavaScript string literals (`'..'` or `".."`) joined by `+`, writes the
//! concatenation of its arguments (`writeln` adds a line feed). Any other statement is skipped
//! and the script goes on. Escapes: `\\ \' \" \n \r \t \/ \xHH \uHHHH` (`\u` escapes are
//! UTF-16 code units: a surrogate pair written as two escapes is one character, a lone
//! surrogate becomes U+FFFD); any other escaped character stands for itself.
//!
//! Which scripts run follows "prepare the script element" of the HTML Standard for inline
//! classic scripts: a script that is not connected (inside a `template`) does not run, nor
//! one with a `src` (this interpreter fetches nothing), nor one with `nomodule`, nor one whose
//! type is not a JavaScript MIME type essence match (an empty or absent `type` and `language`
//! mean JavaScript; a `language` attribute alone gives `text/` + its value).
//!
//! Scripts that scripts write are run in turn without recursion: a stack of frames, one per
//! script nesting level.

use html_arena::{
    Document, NodeId, ParseOptions, ParserEvent, ScriptError, ScriptingParser, WriteEvent,
};

/// One `document.write` or `document.writeln` call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Write {
    /// The concatenated arguments.
    pub text: String,
    /// `writeln`.
    pub line: bool,
}

/// The writes a script's text makes, in order (every other statement skipped).
pub fn compile(script: &str) -> Vec<Write> {
    statements(script).filter_map(write_call).collect()
}

/// Splits a script into statements at `;` and line breaks outside string literals.
fn statements(script: &str) -> impl Iterator<Item = &str> {
    let bytes = script.as_bytes();
    let mut start = 0;
    let mut i = 0;
    let mut quote: Option<u8> = None;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        while i < bytes.len() {
            let b = bytes[i];
            match quote {
                Some(q) => {
                    if b == b'\\' {
                        i += 1;
                    } else if b == q || b == b'\n' {
                        // (An unterminated literal ends at the line break.)
                        quote = None;
                        if b == b'\n' {
                            continue;
                        }
                    }
                }
                None if b == b'\'' || b == b'"' => quote = Some(b),
                None if b == b';' || b == b'\n' || b == b'\r' => {
                    let statement = &script[start..i];
                    i += 1;
                    start = i;
                    return Some(statement);
                }
                None => {}
            }
            i += 1;
        }
        done = true;
        Some(&script[start.min(script.len())..])
    })
}

/// A cursor over a statement.
struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\x0c' | b'\x0b') {
            self.i += 1;
        }
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip_ws();
        if self.s[self.i..].starts_with(token.as_bytes()) {
            self.i += token.len();
            true
        } else {
            false
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.i).copied()
    }
}

/// `document.write(E, ...)` / `document.writeln(E, ...)`, or `None` for any other statement.
fn write_call(statement: &str) -> Option<Write> {
    let mut c = Cursor {
        s: statement.as_bytes(),
        i: 0,
    };
    if !c.eat("document") || !c.eat(".") || !c.eat("write") {
        return None;
    }
    let line = c.eat("ln");
    if !c.eat("(") {
        return None;
    }
    let mut text = String::new();
    if !c.eat(")") {
        loop {
            // E: one or more string literals joined by `+`.
            loop {
                text.push_str(&string_literal(&mut c)?);
                if !c.eat("+") {
                    break;
                }
            }
            if c.eat(")") {
                break;
            }
            if !c.eat(",") {
                return None;
            }
        }
    }
    // Nothing may follow but white space.
    if c.peek().is_some() {
        return None;
    }
    Some(Write { text, line })
}

/// A JavaScript string literal at the cursor, decoded.
fn string_literal(c: &mut Cursor<'_>) -> Option<String> {
    let quote = c.peek().filter(|&q| q == b'\'' || q == b'"')?;
    c.i += 1;
    let mut units: Vec<u16> = Vec::new();
    let rest = std::str::from_utf8(&c.s[c.i..]).ok()?;
    let mut chars = rest.char_indices();
    while let Some((at, ch)) = chars.next() {
        match ch {
            _ if ch as u32 == u32::from(quote) => {
                c.i += at + 1;
                return Some(String::from_utf16_lossy(&units));
            }
            '\n' | '\r' => return None,
            '\\' => {
                let (_, e) = chars.next()?;
                match e {
                    'n' => units.push(0x0A),
                    'r' => units.push(0x0D),
                    't' => units.push(0x09),
                    'x' => units.push(hex(&mut chars, 2)?),
                    'u' => units.push(hex(&mut chars, 4)?),
                    // `\\ \' \" \/` and any other identity escape.
                    other => {
                        let mut buf = [0; 2];
                        units.extend_from_slice(other.encode_utf16(&mut buf));
                    }
                }
            }
            other => {
                let mut buf = [0; 2];
                units.extend_from_slice(other.encode_utf16(&mut buf));
            }
        }
    }
    None
}

/// `n` hex digits as a UTF-16 code unit.
fn hex(chars: &mut std::str::CharIndices<'_>, n: usize) -> Option<u16> {
    let mut value = 0u16;
    for _ in 0..n {
        let (_, d) = chars.next()?;
        value = value * 16 + d.to_digit(16)? as u16;
    }
    Some(value)
}

/// The JavaScript MIME type essence strings (MIME Sniffing Standard, "JavaScript MIME type").
const JAVASCRIPT_MIME_TYPES: &[&str] = &[
    "application/ecmascript",
    "application/javascript",
    "application/x-ecmascript",
    "application/x-javascript",
    "text/ecmascript",
    "text/javascript",
    "text/javascript1.0",
    "text/javascript1.1",
    "text/javascript1.2",
    "text/javascript1.3",
    "text/javascript1.4",
    "text/javascript1.5",
    "text/jscript",
    "text/livescript",
    "text/x-ecmascript",
    "text/x-javascript",
];

/// The writes of `script` if "prepare the script element" would run it as an inline classic
/// script, else `None`.
pub fn runnable(doc: &Document, script: NodeId) -> Option<Vec<Write>> {
    let node = doc.node(script)?;
    let element = node.as_element()?;
    // "If el is not connected, then return." (Template contents are not.)
    if !node.ancestors().any(|a| a.is_document()) {
        return None;
    }
    // The script block's type string.
    let type_string = match (element.attr("type"), element.attr("language")) {
        (Some(""), _) | (None, Some("")) | (None, None) => "text/javascript".to_owned(),
        (Some(t), _) => t
            .trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\x0c' | '\r'))
            .to_owned(),
        (None, Some(language)) => format!("text/{language}"),
    };
    // "If the script block's type string is a JavaScript MIME type essence match, then set
    // el's type to "classic"." Anything else is not run here (modules, import maps, data).
    if !JAVASCRIPT_MIME_TYPES
        .iter()
        .any(|t| t.eq_ignore_ascii_case(&type_string))
    {
        return None;
    }
    // "If el has a nomodule content attribute and its type is "classic", then return."
    // Scripts with `src` are fetched, which this interpreter does not do.
    if element.has_attr("nomodule") || element.has_attr("src") {
        return None;
    }
    // The child text content.
    let text: String = node.children().filter_map(|c| c.as_text()).collect();
    Some(compile(&text))
}

/// Runs `script` (handed out by the parser) and every script its writes complete, in turn,
/// with an explicit stack (one frame per script nesting level).
pub fn execute(parser: &mut ScriptingParser, script: NodeId) -> Result<(), ScriptError> {
    struct Frame {
        writes: Vec<Write>,
        next: usize,
    }
    let frame = |parser: &ScriptingParser, script| Frame {
        writes: runnable(parser.document(), script).unwrap_or_default(),
        next: 0,
    };
    let mut stack = vec![frame(parser, script)];
    while let Some(top) = stack.last_mut() {
        let event = if let Some(write) = top.writes.get(top.next) {
            top.next += 1;
            if write.line {
                parser.document_writeln(&write.text)
            } else {
                parser.document_write(&write.text)
            }
        } else {
            // This script has finished.
            stack.pop();
            if stack.is_empty() {
                break;
            }
            // It was a nested script: the write that completed it goes on.
            parser.resume_write()
        };
        match event {
            Ok(WriteEvent::Script(nested)) => stack.push(frame(parser, nested)),
            // Too deep: those scripts were not run; the rest goes on.
            Ok(_) | Err(ScriptError::NestingTooDeep { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Parses `bytes` (sniffed and decoded as by `Document::parse_bytes`), running every inline
/// classic script with this interpreter.
pub fn parse_and_run(bytes: &[u8], options: &ParseOptions) -> Result<Document, String> {
    let mut parser = ScriptingParser::new(options);
    parser.write(bytes).map_err(|e| e.to_string())?;
    parser.end();
    loop {
        match parser.run().map_err(|e| e.to_string())? {
            ParserEvent::Script(script) | ParserEvent::Execute(script) => {
                execute(&mut parser, script).map_err(|e| e.to_string())?;
            }
            ParserEvent::Done => break,
            // Nothing is made parsing-blocking, and the input has ended; a restart just goes
            // on.
            _ => {}
        }
    }
    Ok(parser.finish())
}
