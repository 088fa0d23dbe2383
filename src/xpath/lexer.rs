//! XPath 1.0, 3.7 "Lexical Structure": the expression as tokens, with the section's
//! disambiguation rules applied while reading (they depend only on the preceding token and on
//! what follows a name).

use super::ast::{Axis, NodeType};
use super::error::{XPathError, XPathErrorKind};

/// An operator (\[32\] Operator, \[33\] OperatorName, \[34\] MultiplyOperator).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    And,
    Or,
    Mod,
    Div,
    Multiply,
    Slash,
    DoubleSlash,
    Pipe,
    Plus,
    Minus,
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
}

/// A token (\[28\] ExprToken).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok<'s> {
    LParen,
    RParen,
    LBracket,
    RBracket,
    Dot,
    DotDot,
    At,
    Comma,
    ColonColon,
    /// \[37\] NameTest: `*` (prefix and local `None`), `p:*` (local `None`), or a QName.
    NameTest {
        prefix: Option<&'s str>,
        local: Option<&'s str>,
    },
    /// \[38\] NodeType (followed by `(`).
    NodeType(NodeType),
    Op(Op),
    /// \[35\] FunctionName: a QName followed by `(` that is not a node type.
    FunctionName {
        prefix: Option<&'s str>,
        local: &'s str,
    },
    /// \[6\] AxisName (followed by `::`).
    AxisName(Axis),
    /// \[29\] Literal, without its quotes.
    Literal(&'s str),
    /// \[30\] Number.
    Number(f64),
    /// \[36\] VariableReference, without the `$`.
    Variable(&'s str),
}

/// A token with its byte span in the expression.
#[derive(Clone, Debug)]
pub(crate) struct Token<'s> {
    pub(crate) tok: Tok<'s>,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// \[39\] ExprWhitespace: space, tab, carriage return, line feed.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// NameStartChar of XML 1.0 (Fifth Edition), less `:` (Namespaces in XML: NCName).
fn is_name_start(c: char) -> bool {
    matches!(c,
        'A'..='Z' | '_' | 'a'..='z'
        | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{2FF}'
        | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}' | '\u{200C}'..='\u{200D}'
        | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}' | '\u{3001}'..='\u{D7FF}'
        | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}' | '\u{10000}'..='\u{EFFFF}')
}

/// NameChar of XML 1.0 (Fifth Edition), less `:`.
fn is_name_char(c: char) -> bool {
    is_name_start(c)
        || matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// Splits `expr` into tokens.
pub(crate) fn tokenize(expr: &str) -> Result<Vec<Token<'_>>, XPathError> {
    let bytes = expr.as_bytes();
    let mut tokens: Vec<Token<'_>> = Vec::new();
    let mut i = 0;
    let err = |kind, at, len| XPathError::new(kind, expr, at, len);
    loop {
        while i < bytes.len() && is_space(bytes[i]) {
            i += 1;
        }
        if i >= bytes.len() {
            break;
        }
        let start = i;
        // The first disambiguation rule: after a token other than `@`, `::`, `(`, `[`, `,` or
        // an operator, `*` is the multiply operator and a name is an operator name.
        let operator_expected = tokens.last().is_some_and(|t| {
            !matches!(
                t.tok,
                Tok::At | Tok::ColonColon | Tok::LParen | Tok::LBracket | Tok::Comma | Tok::Op(_)
            )
        });
        let b = bytes[i];
        let two = bytes.get(i + 1).copied();
        let (tok, len) = match b {
            b'(' => (Tok::LParen, 1),
            b')' => (Tok::RParen, 1),
            b'[' => (Tok::LBracket, 1),
            b']' => (Tok::RBracket, 1),
            b'@' => (Tok::At, 1),
            b',' => (Tok::Comma, 1),
            b':' if two == Some(b':') => (Tok::ColonColon, 2),
            b'.' if two == Some(b'.') => (Tok::DotDot, 2),
            b'.' if two.is_some_and(|c| c.is_ascii_digit()) => number(expr, i),
            b'.' => (Tok::Dot, 1),
            b'0'..=b'9' => number(expr, i),
            b'/' if two == Some(b'/') => (Tok::Op(Op::DoubleSlash), 2),
            b'/' => (Tok::Op(Op::Slash), 1),
            b'|' => (Tok::Op(Op::Pipe), 1),
            b'+' => (Tok::Op(Op::Plus), 1),
            b'-' => (Tok::Op(Op::Minus), 1),
            b'=' => (Tok::Op(Op::Eq), 1),
            b'!' if two == Some(b'=') => (Tok::Op(Op::NotEq), 2),
            b'<' if two == Some(b'=') => (Tok::Op(Op::LtEq), 2),
            b'<' => (Tok::Op(Op::Lt), 1),
            b'>' if two == Some(b'=') => (Tok::Op(Op::GtEq), 2),
            b'>' => (Tok::Op(Op::Gt), 1),
            b'*' if operator_expected => (Tok::Op(Op::Multiply), 1),
            b'*' => (
                Tok::NameTest {
                    prefix: None,
                    local: None,
                },
                1,
            ),
            b'"' | b'\'' => match memchr::memchr(b, &bytes[i + 1..]) {
                Some(n) => (Tok::Literal(&expr[i + 1..i + 1 + n]), n + 2),
                None => return Err(err(XPathErrorKind::UnterminatedLiteral, i, 1)),
            },
            b'$' => {
                let (name, len) = qname(expr, i + 1);
                if len == 0 {
                    return Err(err(XPathErrorKind::UnexpectedToken, i, 1));
                }
                (Tok::Variable(name), len + 1)
            }
            _ => {
                let (name_len, local_start) = match ncname_len(expr, i) {
                    0 => {
                        let c = expr[i..].chars().next().map_or(1, char::len_utf8);
                        return Err(err(XPathErrorKind::InvalidCharacter, i, c));
                    }
                    n => (n, i + n),
                };
                let name = &expr[i..local_start];
                if operator_expected {
                    let op = match name {
                        "and" => Op::And,
                        "or" => Op::Or,
                        "mod" => Op::Mod,
                        "div" => Op::Div,
                        _ => return Err(err(XPathErrorKind::UnexpectedToken, i, name_len)),
                    };
                    (Tok::Op(op), name_len)
                } else {
                    name_token(expr, i, name)?
                }
            }
        };
        i += len;
        tokens.push(Token { tok, start, end: i });
    }
    Ok(tokens)
}

/// A name token not in operator position: a QName or `prefix:*`, then the second to fourth
/// disambiguation rules by what follows.
fn name_token<'s>(
    expr: &'s str,
    start: usize,
    first: &'s str,
) -> Result<(Tok<'s>, usize), XPathError> {
    let bytes = expr.as_bytes();
    let mut end = start + first.len();
    let (mut prefix, mut local) = (None, Some(first));
    // `prefix:local` or `prefix:*` (no white space around the colon; `::` is an axis).
    if bytes.get(end) == Some(&b':') && bytes.get(end + 1) != Some(&b':') {
        if bytes.get(end + 1) == Some(&b'*') {
            return Ok((
                Tok::NameTest {
                    prefix: Some(first),
                    local: None,
                },
                first.len() + 2,
            ));
        }
        let n = ncname_len(expr, end + 1);
        if n == 0 {
            return Err(XPathError::new(
                XPathErrorKind::UnexpectedToken,
                expr,
                end,
                1,
            ));
        }
        prefix = Some(first);
        local = Some(&expr[end + 1..end + 1 + n]);
        end += 1 + n;
    }
    let mut after = end;
    while after < bytes.len() && is_space(bytes[after]) {
        after += 1;
    }
    let len = end - start;
    let local_name = local.unwrap_or("");
    if bytes.get(after) == Some(&b'(') {
        if prefix.is_none() {
            let node_type = match local_name {
                "comment" => Some(NodeType::Comment),
                "text" => Some(NodeType::Text),
                "processing-instruction" => Some(NodeType::ProcessingInstruction),
                "node" => Some(NodeType::Node),
                _ => None,
            };
            if let Some(t) = node_type {
                return Ok((Tok::NodeType(t), len));
            }
        }
        return Ok((
            Tok::FunctionName {
                prefix,
                local: local_name,
            },
            len,
        ));
    }
    if bytes.get(after) == Some(&b':') && bytes.get(after + 1) == Some(&b':') {
        return match (prefix, Axis::from_name(local_name)) {
            (None, Some(axis)) => Ok((Tok::AxisName(axis), len)),
            _ => Err(XPathError::new(
                XPathErrorKind::UnknownAxis(expr[start..end].to_owned()),
                expr,
                start,
                len,
            )),
        };
    }
    Ok((Tok::NameTest { prefix, local }, len))
}

/// The length in bytes of the NCName at `at` (0 if none starts there).
fn ncname_len(expr: &str, at: usize) -> usize {
    let Some(rest) = expr.get(at..) else {
        return 0;
    };
    let mut chars = rest.char_indices();
    match chars.next() {
        Some((_, c)) if is_name_start(c) => {}
        _ => return 0,
    }
    for (i, c) in chars {
        if !is_name_char(c) {
            return i;
        }
    }
    rest.len()
}

/// A QName at `at` for a variable reference: (name, length in bytes; 0 if none).
fn qname(expr: &str, at: usize) -> (&str, usize) {
    let n = ncname_len(expr, at);
    if n == 0 {
        return ("", 0);
    }
    let bytes = expr.as_bytes();
    let mut end = at + n;
    if bytes.get(end) == Some(&b':') && bytes.get(end + 1) != Some(&b':') {
        let m = ncname_len(expr, end + 1);
        if m > 0 {
            end += 1 + m;
        }
    }
    (&expr[at..end], end - at)
}

/// \[30\] Number ::= Digits ('.' Digits?)? | '.' Digits, at `at`.
fn number(expr: &str, at: usize) -> (Tok<'static>, usize) {
    let bytes = expr.as_bytes();
    let mut end = at;
    while end < bytes.len() && bytes[end].is_ascii_digit() {
        end += 1;
    }
    if end < bytes.len() && bytes[end] == b'.' {
        end += 1;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
    }
    // Digits with at most one point parse as an f64 (rounded to nearest, as IEEE 754 asks).
    let value = expr[at..end].parse::<f64>().unwrap_or(f64::NAN);
    (Tok::Number(value), end - at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok<'_>> {
        tokenize(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn disambiguation() {
        // `*` and `div` after a name test are operators; at the start they are names.
        assert_eq!(
            toks("div * div"),
            [
                Tok::NameTest {
                    prefix: None,
                    local: Some("div")
                },
                Tok::Op(Op::Multiply),
                Tok::NameTest {
                    prefix: None,
                    local: Some("div")
                },
            ]
        );
        assert_eq!(
            toks("child :: x"),
            [
                Tok::AxisName(Axis::Child),
                Tok::ColonColon,
                Tok::NameTest {
                    prefix: None,
                    local: Some("x")
                }
            ]
        );
        assert_eq!(
            toks("text ()"),
            [Tok::NodeType(NodeType::Text), Tok::LParen, Tok::RParen]
        );
        assert_eq!(toks(".5 ..")[0], Tok::Number(0.5));
        assert_eq!(toks("'a\"b'"), [Tok::Literal("a\"b")]);
        assert!(tokenize("a b").is_err());
        assert!(tokenize("'open").is_err());
        assert!(tokenize("#").is_err());
    }
}
