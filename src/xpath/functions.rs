//! XPath 1.0, 4 "Core Function Library": the 27 functions, their arities, and their
//! evaluation.

use super::ast::{Expr, Span};
use super::error::{XPathError, XPathErrorKind};
use super::eval::{Ctx, Key, Value, namespace_uri};
use super::value::{round, string_to_number};
use crate::dom::NodeData;
use crate::dom::names::AttrNamespace;

/// A function of the core library.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Function {
    // 4.1 Node Set Functions
    Last,
    Position,
    Count,
    Id,
    LocalName,
    NamespaceUri,
    Name,
    // 4.2 String Functions
    String,
    Concat,
    StartsWith,
    Contains,
    SubstringBefore,
    SubstringAfter,
    Substring,
    StringLength,
    NormalizeSpace,
    Translate,
    // 4.3 Boolean Functions
    Boolean,
    Not,
    True,
    False,
    Lang,
    // 4.4 Number Functions
    Number,
    Sum,
    Floor,
    Ceiling,
    Round,
}

impl Function {
    /// The function named `name`, if the core library has it.
    pub(crate) fn from_name(name: &str) -> Option<Function> {
        Some(match name {
            "last" => Function::Last,
            "position" => Function::Position,
            "count" => Function::Count,
            "id" => Function::Id,
            "local-name" => Function::LocalName,
            "namespace-uri" => Function::NamespaceUri,
            "name" => Function::Name,
            "string" => Function::String,
            "concat" => Function::Concat,
            "starts-with" => Function::StartsWith,
            "contains" => Function::Contains,
            "substring-before" => Function::SubstringBefore,
            "substring-after" => Function::SubstringAfter,
            "substring" => Function::Substring,
            "string-length" => Function::StringLength,
            "normalize-space" => Function::NormalizeSpace,
            "translate" => Function::Translate,
            "boolean" => Function::Boolean,
            "not" => Function::Not,
            "true" => Function::True,
            "false" => Function::False,
            "lang" => Function::Lang,
            "number" => Function::Number,
            "sum" => Function::Sum,
            "floor" => Function::Floor,
            "ceiling" => Function::Ceiling,
            "round" => Function::Round,
            _ => return None,
        })
    }

    /// Whether `n` arguments fit the function's signature.
    pub(crate) fn accepts(self, n: usize) -> bool {
        use Function as F;
        match self {
            F::Last | F::Position | F::True | F::False => n == 0,
            F::LocalName
            | F::NamespaceUri
            | F::Name
            | F::String
            | F::StringLength
            | F::NormalizeSpace
            | F::Number => n <= 1,
            F::Count
            | F::Id
            | F::Boolean
            | F::Not
            | F::Lang
            | F::Sum
            | F::Floor
            | F::Ceiling
            | F::Round => n == 1,
            F::StartsWith | F::Contains | F::SubstringBefore | F::SubstringAfter => n == 2,
            F::Substring => n == 2 || n == 3,
            F::Translate => n == 3,
            F::Concat => n >= 2,
        }
    }

    /// Whether it returns a number.
    pub(crate) fn returns_number(self) -> bool {
        use Function as F;
        matches!(
            self,
            F::Last
                | F::Position
                | F::Count
                | F::StringLength
                | F::Number
                | F::Sum
                | F::Floor
                | F::Ceiling
                | F::Round
        )
    }

    /// Whether it reads the context position or size.
    pub(crate) fn uses_position(self) -> bool {
        matches!(self, Function::Last | Function::Position)
    }
}

/// XML white space (`S`), what `normalize-space()` collapses.
fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// A call being evaluated: its arguments and the context they are evaluated in.
struct Call<'e> {
    args: &'e [Expr],
    span: Span,
    node: Key,
    pos: usize,
    size: usize,
}

impl Ctx<'_> {
    /// Evaluates a call of `f` (arity already checked by the parser). The functions are
    /// grouped as in section 4, one Rust function per group, so that only a small frame is on
    /// the stack per nested call.
    pub(crate) fn call(
        &self,
        f: Function,
        args: &[Expr],
        span: Span,
        node: Key,
        pos: usize,
        size: usize,
    ) -> Result<Value, XPathError> {
        use Function as F;
        let call = Call {
            args,
            span,
            node,
            pos,
            size,
        };
        match f {
            F::Last => Ok(Value::Number(size as f64)),
            F::Position => Ok(Value::Number(pos as f64)),
            F::Count | F::Id | F::LocalName | F::NamespaceUri | F::Name => {
                self.node_set_function(f, &call)
            }
            F::String
            | F::Concat
            | F::StartsWith
            | F::Contains
            | F::SubstringBefore
            | F::SubstringAfter
            | F::StringLength
            | F::NormalizeSpace => self.string_function(f, &call),
            F::Substring => self.substring(&call),
            F::Translate => self.translate(&call),
            F::Boolean | F::Not | F::True | F::False | F::Lang => self.boolean_function(f, &call),
            F::Number | F::Sum | F::Floor | F::Ceiling | F::Round => self.number_function(f, &call),
        }
    }

    /// Argument `i`, or the context node as a node-set when it is absent (the functions whose
    /// argument is optional default to it).
    fn arg(&self, call: &Call<'_>, i: usize) -> Result<Value, XPathError> {
        match call.args.get(i) {
            Some(e) => self.eval(e, call.node, call.pos, call.size),
            None => Ok(Value::Nodes(vec![call.node])),
        }
    }

    fn string_arg(&self, call: &Call<'_>, i: usize) -> Result<String, XPathError> {
        if let Some(e) = call.args.get(i) {
            if let Some(s) = self.first_string_value(e, call.node) {
                return Ok(s);
            }
        }
        let v = self.arg(call, i)?;
        Ok(self.to_string(&v))
    }

    fn number_arg(&self, call: &Call<'_>, i: usize) -> Result<f64, XPathError> {
        let v = self.arg(call, i)?;
        Ok(self.to_number(&v))
    }

    fn nodes_arg(&self, call: &Call<'_>, i: usize) -> Result<Vec<Key>, XPathError> {
        match self.arg(call, i)? {
            Value::Nodes(keys) => Ok(keys),
            _ => Err(self.error(XPathErrorKind::NotANodeSet, call.span)),
        }
    }

    /// 4.1 "Node Set Functions" (but `last()` and `position()`).
    fn node_set_function(&self, f: Function, call: &Call<'_>) -> Result<Value, XPathError> {
        Ok(match f {
            Function::Count => Value::Number(self.nodes_arg(call, 0)?.len() as f64),
            Function::Id => {
                // The tokens of each node's string-value, or of the string.
                let text = match self.arg(call, 0)? {
                    Value::Nodes(keys) => keys
                        .iter()
                        .map(|&k| self.string_value(k))
                        .collect::<Vec<_>>()
                        .join(" "),
                    other => self.to_string(&other),
                };
                let mut found: Vec<Key> = text
                    .split(is_xml_space)
                    .filter(|t| !t.is_empty())
                    .filter_map(|t| self.element_by_id(t))
                    .map(Key::node)
                    .collect();
                self.sort_dedup(&mut found);
                Value::Nodes(found)
            }
            _ => {
                let keys = self.nodes_arg(call, 0)?;
                Value::Str(
                    keys.first()
                        .map_or_else(String::new, |&k| self.name_part(f, k)),
                )
            }
        })
    }

    /// 4.2 "String Functions" (but `substring()` and `translate()`).
    fn string_function(&self, f: Function, call: &Call<'_>) -> Result<Value, XPathError> {
        use Function as F;
        let s = self.string_arg(call, 0)?;
        Ok(match f {
            F::Concat => {
                let mut out = s;
                for i in 1..call.args.len() {
                    out.push_str(&self.string_arg(call, i)?);
                }
                Value::Str(out)
            }
            F::StartsWith => Value::Bool(s.starts_with(self.string_arg(call, 1)?.as_str())),
            F::Contains => Value::Bool(s.contains(self.string_arg(call, 1)?.as_str())),
            F::SubstringBefore => {
                let t = self.string_arg(call, 1)?;
                Value::Str(s.find(&t).map_or_else(String::new, |i| s[..i].to_owned()))
            }
            F::SubstringAfter => {
                let t = self.string_arg(call, 1)?;
                Value::Str(
                    s.find(&t)
                        .map_or_else(String::new, |i| s[i + t.len()..].to_owned()),
                )
            }
            F::StringLength => Value::Number(s.chars().count() as f64),
            F::NormalizeSpace => {
                let words: Vec<&str> = s.split(is_xml_space).filter(|w| !w.is_empty()).collect();
                Value::Str(words.join(" "))
            }
            _ => Value::Str(s),
        })
    }

    /// 4.2 `substring()`: the characters at positions p with `round(start) <= p <
    /// round(start) + round(length)`, positions counting characters from 1 (comparisons with
    /// NaN are false, so NaN bounds select nothing).
    fn substring(&self, call: &Call<'_>) -> Result<Value, XPathError> {
        let s = self.string_arg(call, 0)?;
        let start = round(self.number_arg(call, 1)?);
        let end = if call.args.len() == 3 {
            start + round(self.number_arg(call, 2)?)
        } else {
            f64::INFINITY
        };
        let out: String = s
            .chars()
            .enumerate()
            .filter(|&(i, _)| {
                let p = (i + 1) as f64;
                p >= start && p < end
            })
            .map(|(_, c)| c)
            .collect();
        Ok(Value::Str(out))
    }

    /// 4.2 `translate()`: each character of the first string that occurs in the second is
    /// replaced by the character at the same position in the third, or removed if there is
    /// none; the first occurrence in the second string counts.
    fn translate(&self, call: &Call<'_>) -> Result<Value, XPathError> {
        let s = self.string_arg(call, 0)?;
        let to: Vec<char> = self.string_arg(call, 2)?.chars().collect();
        let mut map = std::collections::HashMap::new();
        for (i, c) in self.string_arg(call, 1)?.chars().enumerate() {
            map.entry(c).or_insert_with(|| to.get(i).copied());
        }
        Ok(Value::Str(
            s.chars()
                .filter_map(|c| match map.get(&c) {
                    Some(replacement) => *replacement,
                    None => Some(c),
                })
                .collect(),
        ))
    }

    /// 4.3 "Boolean Functions".
    fn boolean_function(&self, f: Function, call: &Call<'_>) -> Result<Value, XPathError> {
        Ok(Value::Bool(match f {
            Function::True => true,
            Function::False => false,
            Function::Not => !Ctx::to_boolean(&self.arg(call, 0)?),
            Function::Lang => {
                let wanted = self.string_arg(call, 0)?;
                self.lang_matches(call.node, &wanted)
            }
            _ => Ctx::to_boolean(&self.arg(call, 0)?),
        }))
    }

    /// 4.4 "Number Functions".
    fn number_function(&self, f: Function, call: &Call<'_>) -> Result<Value, XPathError> {
        Ok(Value::Number(match f {
            Function::Sum => {
                let keys = self.nodes_arg(call, 0)?;
                keys.iter()
                    .map(|&k| string_to_number(&self.string_value(k)))
                    .sum()
            }
            Function::Floor => self.number_arg(call, 0)?.floor(),
            Function::Ceiling => self.number_arg(call, 0)?.ceil(),
            Function::Round => round(self.number_arg(call, 0)?),
            _ => self.number_arg(call, 0)?,
        }))
    }

    /// `local-name()`, `namespace-uri()` or `name()` of one node: for an element its local
    /// name, namespace URI, and qualified name (elements made by the HTML parser have no
    /// prefix); for an attribute likewise (`xlink:href`); for a processing instruction its
    /// target; for other nodes the empty string.
    fn name_part(&self, f: Function, k: Key) -> String {
        if k.is_attr() {
            let Some((local, ns, _)) = self.attr_name(k) else {
                return String::new();
            };
            return match f {
                Function::LocalName => local.to_owned(),
                Function::NamespaceUri => ns.url().unwrap_or("").to_owned(),
                _ => match ns.prefix(local) {
                    Some(prefix) => format!("{prefix}:{local}"),
                    None => local.to_owned(),
                },
            };
        }
        match self.doc.data(k.node) {
            NodeData::Element(e) => match f {
                Function::NamespaceUri => namespace_uri(e.ns).to_owned(),
                _ => self.doc.name_str(e.name).to_owned(),
            },
            NodeData::ProcessingInstruction(pi) if f != Function::NamespaceUri => {
                self.doc.str(pi.target).to_owned()
            }
            _ => String::new(),
        }
    }

    /// 4.3 `lang()`: the `xml:lang` attribute (in the XML namespace) of the nearest
    /// ancestor-or-self element that has one equals `wanted` or starts with it and a `-`,
    /// ignoring case. (In HTML documents only foreign elements get such an attribute from
    /// the parser; Chromium's XPath reads the same attribute.)
    fn lang_matches(&self, node: Key, wanted: &str) -> bool {
        let mut cur = Some(node.node);
        while let Some(n) = cur {
            if let Some(e) = self.node_ref(n).as_element() {
                if let Some(lang) = e.attr_ns(AttrNamespace::Xml, "lang") {
                    let lang = lang.as_bytes();
                    let wanted = wanted.as_bytes();
                    return lang.len() >= wanted.len()
                        && lang[..wanted.len()].eq_ignore_ascii_case(wanted)
                        && (lang.len() == wanted.len() || lang[wanted.len()] == b'-');
                }
            }
            cur = self.doc.arena[n].parent();
        }
        false
    }
}
