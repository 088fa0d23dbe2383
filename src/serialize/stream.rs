//! The token-level serializer: turns a stream of start tags, end tags, text and the rest into
//! markup, applying [`SerializeOptions`].
//!
//! Tree serialization walks the tree into this stream; it is also public, for programs that
//! rewrite a token stream (e.g. from [`crate::tokenizer`]) and write it back out. With default
//! options the output is exactly the HTML fragment serialization algorithm (13.3). The other
//! options follow the html5lib serializer; omitting optional tags follows 13.1.2.4 "Optional
//! tags", which needs one token of lookahead: a start or end tag that might be omitted is held
//! back until the next token says whether it can be.

use std::fmt::{self, Write};

use super::escape::{Mode, write_escaped};
use super::{AttributeQuoting, SerializeOptions};
use crate::dom::names::{AttrNamespace, Namespace};

/// An attribute of a [`SerializerToken`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SerializerAttr<'a> {
    /// The namespace (none for ordinary attributes).
    pub namespace: AttrNamespace,
    /// The local name.
    pub name: &'a str,
    /// The value (unescaped).
    pub value: &'a str,
}

/// A token for [`TokenSerializer`].
#[derive(Copy, Clone, Debug)]
#[non_exhaustive]
pub enum SerializerToken<'a> {
    /// A start tag. For a void element no end tag should follow.
    StartTag {
        /// The element's namespace.
        namespace: Namespace,
        /// The local name.
        name: &'a str,
        /// The attributes, in the order to write them.
        attrs: &'a [SerializerAttr<'a>],
    },
    /// An end tag.
    EndTag {
        /// The element's namespace.
        namespace: Namespace,
        /// The local name.
        name: &'a str,
    },
    /// Text (escaped unless its parent is a raw text element).
    Text(&'a str),
    /// A comment.
    Comment(&'a str),
    /// A DOCTYPE.
    Doctype {
        /// The name.
        name: &'a str,
        /// The public identifier (written only with [`SerializeOptions::doctype_identifiers`]).
        public_id: &'a str,
        /// The system identifier (likewise).
        system_id: &'a str,
    },
    /// A processing instruction.
    ProcessingInstruction {
        /// The target.
        target: &'a str,
        /// The data.
        data: &'a str,
    },
}

/// "Serializes as void" (13.3): the void elements, plus `basefont`, `bgsound`, `frame`,
/// `keygen` and `param`.
pub(crate) fn serializes_as_void(ns: Namespace, name: &str) -> bool {
    ns == Namespace::Html
        && matches!(
            name,
            "area"
                | "base"
                | "br"
                | "col"
                | "embed"
                | "hr"
                | "img"
                | "input"
                | "link"
                | "meta"
                | "source"
                | "track"
                | "wbr"
                | "basefont"
                | "bgsound"
                | "frame"
                | "keygen"
                | "param"
        )
}

/// Elements whose text children are written literally (13.3: "If the parent of current node
/// is a style, script, xmp, iframe, noembed, noframes, or plaintext element, or [...] a
/// noscript element and scripting is enabled for the node").
pub(crate) fn is_raw_text_parent(ns: Namespace, name: &str, scripting: bool) -> bool {
    ns == Namespace::Html
        && (matches!(
            name,
            "style" | "script" | "xmp" | "iframe" | "noembed" | "noframes" | "plaintext"
        ) || (scripting && name == "noscript"))
}

/// Elements inside which `strip_whitespace` keeps text as it is.
fn preserves_whitespace(ns: Namespace, name: &str) -> bool {
    ns == Namespace::Html
        && matches!(
            name,
            "pre" | "textarea" | "script" | "style" | "listing" | "xmp"
        )
}

fn is_ascii_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

/// What the lookahead needs to know about the token after a held-back tag.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Next<'a> {
    Start(Namespace, &'a str),
    End(Namespace, &'a str),
    /// Text, and whether it starts with ASCII whitespace.
    Text(bool),
    Comment,
    Other,
    /// The end of the stream.
    End_,
}

/// An open element of a [`TokenSerializer`].
#[derive(Copy, Clone, Debug)]
struct Open {
    ns: Namespace,
    /// Its name in `open_names`.
    name: (u32, u32),
    /// Its text children are raw text.
    raw: bool,
    /// It preserves white space (`strip_whitespace` leaves its text alone).
    preserve: bool,
}

/// A start or end tag held back until the next token decides whether to omit it.
#[derive(Clone, Debug)]
struct Held {
    end: bool,
    ns: Namespace,
    name: String,
}

/// Writes a token stream as markup. Call [`TokenSerializer::finish`] at the end: a held-back
/// tag is written then.
///
/// ```
/// use html_arena::Namespace;
/// use html_arena::serialize::{SerializeOptions, SerializerToken, TokenSerializer};
///
/// let mut out = String::new();
/// let mut options = SerializeOptions::default();
/// options.omit_optional_tags = true;
/// let mut s = TokenSerializer::new(&mut out, &options);
/// s.write(SerializerToken::StartTag { namespace: Namespace::Html, name: "li", attrs: &[] })?;
/// s.write(SerializerToken::Text("one"))?;
/// s.write(SerializerToken::EndTag { namespace: Namespace::Html, name: "li" })?;
/// s.write(SerializerToken::StartTag { namespace: Namespace::Html, name: "li", attrs: &[] })?;
/// s.write(SerializerToken::Text("a < b"))?;
/// s.finish()?;
/// assert_eq!(out, "<li>one<li>a &lt; b");
/// # Ok::<(), std::fmt::Error>(())
/// ```
pub struct TokenSerializer<'o, W: Write + ?Sized> {
    out: &'o mut W,
    options: &'o SerializeOptions,
    held: Option<Held>,
    /// The end tag just omitted, if the last thing written was its omission.
    omitted_end: Option<String>,
    /// Open elements, for end tag matching, raw text and whitespace decisions; their names
    /// are in `open_names`.
    open: Vec<Open>,
    open_names: String,
    /// Text directly inside the element around the stream (when serializing part of a
    /// tree) is raw.
    context_raw: bool,
    /// How many open elements (and context) preserve whitespace.
    preserving: usize,
    /// The scripting flag (for `noscript`).
    scripting: bool,
    /// `inject_meta_charset`: the tokens inside `head`, held until its end tag shows
    /// whether the head already declares a charset.
    head_tokens: Option<Vec<OwnedToken>>,
    /// `inject_meta_charset`: a charset declaration has been written.
    meta_found: bool,
}

/// An owned copy of a token, for `inject_meta_charset`'s buffering.
#[derive(Clone, Debug)]
enum OwnedToken {
    Start(Namespace, String, Vec<(AttrNamespace, String, String)>),
    End(Namespace, String),
    Text(String),
    Comment(String),
    Doctype(String, String, String),
    Pi(String, String),
}

impl OwnedToken {
    fn from(token: &SerializerToken<'_>) -> OwnedToken {
        match *token {
            SerializerToken::StartTag {
                namespace,
                name,
                attrs,
            } => OwnedToken::Start(
                namespace,
                name.to_owned(),
                attrs
                    .iter()
                    .map(|a| (a.namespace, a.name.to_owned(), a.value.to_owned()))
                    .collect(),
            ),
            SerializerToken::EndTag { namespace, name } => {
                OwnedToken::End(namespace, name.to_owned())
            }
            SerializerToken::Text(t) => OwnedToken::Text(t.to_owned()),
            SerializerToken::Comment(t) => OwnedToken::Comment(t.to_owned()),
            SerializerToken::Doctype {
                name,
                public_id,
                system_id,
            } => OwnedToken::Doctype(name.to_owned(), public_id.to_owned(), system_id.to_owned()),
            SerializerToken::ProcessingInstruction { target, data } => {
                OwnedToken::Pi(target.to_owned(), data.to_owned())
            }
        }
    }
}

impl<'o, W: Write + ?Sized> TokenSerializer<'o, W> {
    /// A serializer writing to `out`.
    pub fn new(out: &'o mut W, options: &'o SerializeOptions) -> Self {
        TokenSerializer {
            out,
            options,
            held: None,
            omitted_end: None,
            open: Vec::new(),
            open_names: String::new(),
            context_raw: false,
            preserving: 0,
            scripting: options.scripting,
            head_tokens: None,
            meta_found: false,
        }
    }

    /// Sets the element around the stream (its parent, when serializing a text node alone),
    /// which decides whether top-level text is raw.
    pub fn set_context(&mut self, namespace: Namespace, name: &str) {
        if preserves_whitespace(namespace, name) {
            self.preserving += 1;
        }
        self.context_raw = is_raw_text_parent(namespace, name, self.scripting);
    }

    /// Writes one token.
    pub fn write(&mut self, token: SerializerToken<'_>) -> fmt::Result {
        if self.options.inject_meta_charset.is_none() {
            return self.write_now(token);
        }
        let is_head = |ns: Namespace, name: &str| ns == Namespace::Html && name == "head";
        match (&mut self.head_tokens, token) {
            (Some(held), SerializerToken::EndTag { namespace, name })
                if is_head(namespace, name) =>
            {
                let held = std::mem::take(held);
                self.head_tokens = None;
                self.flush_head(held, true)
            }
            (Some(held), t) => {
                held.push(OwnedToken::from(&t));
                Ok(())
            }
            (
                None,
                t @ SerializerToken::StartTag {
                    namespace, name, ..
                },
            ) if is_head(namespace, name) && !self.meta_found => {
                self.head_tokens = Some(vec![OwnedToken::from(&t)]);
                Ok(())
            }
            (None, t) => self.write_meta_adjusted(&OwnedToken::from(&t)),
        }
    }

    /// Replays the tokens of a head with the charset declared: `<head>`, a new
    /// `<meta charset>` unless one is there, the rest with their declarations rewritten.
    fn flush_head(&mut self, held: Vec<OwnedToken>, closed: bool) -> fmt::Result {
        let declares = held.iter().any(|t| meta_declaration(t).is_some());
        let mut tokens = held.into_iter();
        if let Some(head) = tokens.next() {
            self.write_meta_adjusted(&head)?;
        }
        if !declares {
            if let Some(encoding) = self.options.inject_meta_charset.clone() {
                let attrs = [SerializerAttr {
                    namespace: AttrNamespace::None,
                    name: "charset",
                    value: &encoding,
                }];
                self.write_now(SerializerToken::StartTag {
                    namespace: Namespace::Html,
                    name: "meta",
                    attrs: &attrs,
                })?;
            }
        }
        self.meta_found = true;
        for t in tokens {
            self.write_meta_adjusted(&t)?;
        }
        if closed {
            self.write_now(SerializerToken::EndTag {
                namespace: Namespace::Html,
                name: "head",
            })?;
        }
        Ok(())
    }

    /// Writes an owned token, rewriting a `<meta>` charset declaration to the injected
    /// encoding.
    fn write_meta_adjusted(&mut self, token: &OwnedToken) -> fmt::Result {
        let encoding = self.options.inject_meta_charset.clone().unwrap_or_default();
        let declaration = meta_declaration(token);
        match token {
            OwnedToken::Start(ns, name, attrs) => {
                let content = format!("text/html; charset={encoding}");
                let attrs: Vec<SerializerAttr<'_>> = attrs
                    .iter()
                    .map(|(ans, aname, value)| {
                        let value = match declaration {
                            Some(MetaDeclaration::Charset)
                                if aname.eq_ignore_ascii_case("charset") =>
                            {
                                &encoding
                            }
                            Some(MetaDeclaration::ContentType) if aname == "content" => &content,
                            _ => value,
                        };
                        SerializerAttr {
                            namespace: *ans,
                            name: aname,
                            value,
                        }
                    })
                    .collect();
                if declaration.is_some() {
                    self.meta_found = true;
                }
                self.write_now(SerializerToken::StartTag {
                    namespace: *ns,
                    name,
                    attrs: &attrs,
                })
            }
            OwnedToken::End(ns, name) => self.write_now(SerializerToken::EndTag {
                namespace: *ns,
                name,
            }),
            OwnedToken::Text(t) => self.write_now(SerializerToken::Text(t)),
            OwnedToken::Comment(t) => self.write_now(SerializerToken::Comment(t)),
            OwnedToken::Doctype(n, p, sys) => self.write_now(SerializerToken::Doctype {
                name: n,
                public_id: p,
                system_id: sys,
            }),
            OwnedToken::Pi(t, d) => {
                self.write_now(SerializerToken::ProcessingInstruction { target: t, data: d })
            }
        }
    }

    fn write_now(&mut self, token: SerializerToken<'_>) -> fmt::Result {
        let next = match token {
            SerializerToken::StartTag {
                namespace, name, ..
            } => Next::Start(namespace, name),
            SerializerToken::EndTag { namespace, name } => Next::End(namespace, name),
            SerializerToken::Text(t) => Next::Text(t.starts_with(is_ascii_whitespace)),
            SerializerToken::Comment(_) => Next::Comment,
            _ => Next::Other,
        };
        if let Some(held) = self.held.take() {
            self.resolve(held, next)?;
        }
        match token {
            SerializerToken::StartTag {
                namespace,
                name,
                attrs,
            } => self.start_tag(namespace, name, attrs),
            SerializerToken::EndTag { namespace, name } => self.end_tag(namespace, name),
            SerializerToken::Text(text) => {
                self.omitted_end = None;
                self.text(text)
            }
            SerializerToken::Comment(data) => {
                self.omitted_end = None;
                self.out.write_str("<!--")?;
                self.out.write_str(data)?;
                self.out.write_str("-->")
            }
            SerializerToken::Doctype {
                name,
                public_id,
                system_id,
            } => {
                self.omitted_end = None;
                self.out.write_str("<!DOCTYPE ")?;
                self.out.write_str(name)?;
                if self.options.doctype_identifiers {
                    if !public_id.is_empty() {
                        write!(self.out, " PUBLIC \"{public_id}\"")?;
                        if !system_id.is_empty() {
                            write!(self.out, " \"{system_id}\"")?;
                        }
                    } else if !system_id.is_empty() {
                        write!(self.out, " SYSTEM \"{system_id}\"")?;
                    }
                }
                self.out.write_char('>')
            }
            SerializerToken::ProcessingInstruction { target, data } => {
                self.omitted_end = None;
                write!(self.out, "<?{target} {data}?>")
            }
        }
    }

    /// Ends the stream, writing a held-back tag if it cannot be omitted.
    pub fn finish(&mut self) -> fmt::Result {
        if let Some(held) = self.head_tokens.take() {
            self.flush_head(held, false)?;
        }
        if let Some(held) = self.held.take() {
            self.resolve(held, Next::End_)?;
        }
        Ok(())
    }

    fn start_tag(
        &mut self,
        ns: Namespace,
        name: &str,
        attrs: &[SerializerAttr<'_>],
    ) -> fmt::Result {
        let void = serializes_as_void(ns, name);
        if !void {
            let preserve = preserves_whitespace(ns, name);
            if preserve {
                self.preserving += 1;
            }
            let at = self.open_names.len() as u32;
            self.open_names.push_str(name);
            let raw = is_raw_text_parent(ns, name, self.scripting);
            self.open.push(Open {
                ns,
                name: (at, self.open_names.len() as u32),
                raw,
                preserve,
            });
        }
        // "A start tag must never be omitted if it has any attributes."
        if self.options.omit_optional_tags
            && attrs.is_empty()
            && ns == Namespace::Html
            && matches!(name, "html" | "head" | "body" | "colgroup" | "tbody")
        {
            self.held = Some(Held {
                end: false,
                ns,
                name: name.to_owned(),
            });
            return Ok(());
        }
        self.omitted_end = None;
        self.out.write_char('<')?;
        self.out.write_str(name)?;
        if self.options.alphabetical_attributes && attrs.len() > 1 {
            let mut sorted: Vec<&SerializerAttr<'_>> = attrs.iter().collect();
            sorted.sort_by(|a, b| (a.namespace, a.name).cmp(&(b.namespace, b.name)));
            for a in sorted {
                self.attribute(a)?;
            }
        } else {
            for a in attrs {
                self.attribute(a)?;
            }
        }
        if void && self.options.use_trailing_solidus {
            self.out
                .write_str(if self.options.space_before_trailing_solidus {
                    " />"
                } else {
                    "/>"
                })?;
        } else {
            self.out.write_char('>')?;
        }
        Ok(())
    }

    /// "For each attribute that the element has, append U+0020 SPACE, the attribute's
    /// serialized name as described below, "=", the attribute's value, escaped as described
    /// below in attribute mode, and U+0022 (")."
    fn attribute(&mut self, a: &SerializerAttr<'_>) -> fmt::Result {
        self.out.write_char(' ')?;
        // "An attribute's serialized name"
        match a.namespace {
            AttrNamespace::None => {}
            AttrNamespace::Xml => self.out.write_str("xml:")?,
            AttrNamespace::Xmlns if a.name == "xmlns" => {}
            AttrNamespace::Xmlns => self.out.write_str("xmlns:")?,
            AttrNamespace::XLink => self.out.write_str("xlink:")?,
            // (The token carries no prefix for other namespaces: the local name alone.)
            AttrNamespace::Other(_) => {}
        }
        self.out.write_str(a.name)?;
        let o = self.options;
        if o.minimize_boolean_attributes
            && (a.value.is_empty() || a.value.eq_ignore_ascii_case(a.name))
        {
            return Ok(());
        }
        self.out.write_char('=')?;
        let needs_quotes = match o.quote_attributes {
            AttributeQuoting::Always => true,
            AttributeQuoting::WhenNeeded => {
                a.value.is_empty()
                    || a.value.contains(|c: char| {
                        is_ascii_whitespace(c) || matches!(c, '"' | '\'' | '=' | '>' | '`')
                    })
            }
        };
        if !needs_quotes {
            return write_escaped(self.out, a.value, Mode::AttrUnquoted);
        }
        let mut quote = o.quote_char;
        if o.use_best_quote_char {
            if a.value.contains('\'') && !a.value.contains('"') {
                quote = '"';
            } else if a.value.contains('"') && !a.value.contains('\'') {
                quote = '\'';
            }
        }
        let mode = if quote == '\'' {
            Mode::AttrSingle
        } else {
            Mode::AttrDouble
        };
        let quote = if quote == '\'' { '\'' } else { '"' };
        self.out.write_char(quote)?;
        write_escaped(self.out, a.value, mode)?;
        self.out.write_char(quote)
    }

    fn end_tag(&mut self, ns: Namespace, name: &str) -> fmt::Result {
        // The element it closes is normally the last one opened; in a hand-made stream it may
        // be further down, and then the ones above it close too.
        let names = &self.open_names;
        if let Some(pos) = self
            .open
            .iter()
            .rposition(|o| o.ns == ns && &names[o.name.0 as usize..o.name.1 as usize] == name)
        {
            for o in self.open.drain(pos..) {
                if o.preserve {
                    self.preserving = self.preserving.saturating_sub(1);
                }
            }
            let truncate_at = self.open.last().map_or(0, |o| o.name.1 as usize);
            self.open_names.truncate(truncate_at);
        }
        if self.options.omit_optional_tags && ns == Namespace::Html && end_tag_may_be_omitted(name)
        {
            self.held = Some(Held {
                end: true,
                ns,
                name: name.to_owned(),
            });
            return Ok(());
        }
        self.omitted_end = None;
        self.out.write_str("</")?;
        self.out.write_str(name)?;
        self.out.write_char('>')
    }

    fn text(&mut self, text: &str) -> fmt::Result {
        let raw = self.open.last().map_or(self.context_raw, |o| o.raw);
        if raw && !self.options.escape_rcdata {
            return self.out.write_str(text);
        }
        if self.options.strip_whitespace && self.preserving == 0 {
            // Collapse every run of ASCII whitespace into one space.
            let mut collapsed = String::with_capacity(text.len());
            let mut in_space = false;
            for c in text.chars() {
                if is_ascii_whitespace(c) {
                    if !in_space {
                        collapsed.push(' ');
                    }
                    in_space = true;
                } else {
                    collapsed.push(c);
                    in_space = false;
                }
            }
            return write_escaped(self.out, &collapsed, Mode::Text);
        }
        write_escaped(self.out, text, Mode::Text)
    }

    /// Decides a held-back tag now that the next token is known, and writes it unless it may
    /// be omitted.
    fn resolve(&mut self, held: Held, next: Next<'_>) -> fmt::Result {
        let omit = if held.end {
            end_tag_omissible(&held.name, next)
        } else {
            start_tag_omissible(&held.name, next, self.omitted_end.as_deref())
        };
        if omit {
            self.omitted_end = held.end.then_some(held.name);
            return Ok(());
        }
        self.omitted_end = None;
        if held.end {
            write!(self.out, "</{}>", held.name)
        } else {
            write!(self.out, "<{}>", held.name)?;
            let _ = held.ns;
            Ok(())
        }
    }
}

/// How a `<meta>` declares the document's character encoding.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum MetaDeclaration {
    /// `<meta charset=...>`
    Charset,
    /// `<meta http-equiv=content-type content=...>`
    ContentType,
}

fn meta_declaration(token: &OwnedToken) -> Option<MetaDeclaration> {
    let OwnedToken::Start(Namespace::Html, name, attrs) = token else {
        return None;
    };
    if name != "meta" {
        return None;
    }
    let plain = |n: &str| {
        attrs
            .iter()
            .find(|(ns, a, _)| *ns == AttrNamespace::None && a.eq_ignore_ascii_case(n))
    };
    if plain("charset").is_some() {
        Some(MetaDeclaration::Charset)
    } else if plain("http-equiv").is_some_and(|(_, _, v)| v.eq_ignore_ascii_case("content-type"))
        && plain("content").is_some()
    {
        Some(MetaDeclaration::ContentType)
    } else {
        None
    }
}

/// Elements with end tag omission rules in 13.1.2.4.
fn end_tag_may_be_omitted(name: &str) -> bool {
    matches!(
        name,
        "html"
            | "head"
            | "body"
            | "li"
            | "dt"
            | "dd"
            | "p"
            | "rt"
            | "rp"
            | "optgroup"
            | "option"
            | "colgroup"
            | "caption"
            | "thead"
            | "tbody"
            | "tfoot"
            | "tr"
            | "td"
            | "th"
    )
}

/// 13.1.2.4 for start tags (the tag has no attributes). `omitted_end` is the end tag omitted
/// right before this start tag, if any.
fn start_tag_omissible(name: &str, next: Next<'_>, omitted_end: Option<&str>) -> bool {
    let html = |n: Next<'_>, names: &[&str]| matches!(n, Next::Start(Namespace::Html, s) if names.contains(&s));
    match name {
        // "An html element's start tag may be omitted if the first thing inside the html
        // element is not a comment" (nor whitespace, which the parser would drop).
        "html" => !matches!(next, Next::Comment | Next::Text(true)),
        // "A head element's start tag may be omitted if the element is empty, or if the first
        // thing inside the head element is an element."
        "head" => matches!(next, Next::Start(..)) || next == Next::End(Namespace::Html, "head"),
        // "A body element's start tag may be omitted if the element is empty, or if the first
        // thing inside the body element is not ASCII whitespace or a comment, except if the
        // first thing inside the body element is a meta, noscript, link, script, style, or
        // template element."
        "body" => {
            !matches!(next, Next::Comment | Next::Text(true))
                && !html(
                    next,
                    &["meta", "noscript", "link", "script", "style", "template"],
                )
        }
        // "A colgroup element's start tag may be omitted if the first thing inside the
        // colgroup element is a col element, and if the element is not immediately preceded
        // by another colgroup element whose end tag has been omitted."
        "colgroup" => html(next, &["col"]) && omitted_end != Some("colgroup"),
        // "A tbody element's start tag may be omitted if the first thing inside the tbody
        // element is a tr element, and if the element is not immediately preceded by a tbody,
        // thead, or tfoot element whose end tag has been omitted."
        "tbody" => html(next, &["tr"]) && !matches!(omitted_end, Some("tbody" | "thead" | "tfoot")),
        _ => false,
    }
}

/// 13.1.2.4 for end tags.
fn end_tag_omissible(name: &str, next: Next<'_>) -> bool {
    let followed_by =
        |names: &[&str]| matches!(next, Next::Start(Namespace::Html, s) if names.contains(&s));
    // "if there is no more content in the parent element"
    let no_more_content = matches!(next, Next::End(..) | Next::End_);
    match name {
        // "if the html element is not immediately followed by a comment"; body likewise; the
        // whitespace would move into the body on reparsing.
        "html" | "body" => !matches!(next, Next::Comment | Next::Text(true)),
        // "if the head element is not immediately followed by ASCII whitespace or a comment";
        // colgroup and caption likewise.
        "head" | "colgroup" | "caption" => !matches!(next, Next::Comment | Next::Text(true)),
        "li" => followed_by(&["li"]) || no_more_content,
        "dt" => followed_by(&["dt", "dd"]),
        "dd" => followed_by(&["dd", "dt"]) || no_more_content,
        "p" => {
            followed_by(&[
                "address", "article", "aside", "blockquote", "details", "dialog", "div", "dl", "fieldset",
                "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup",
                "hr", "main", "menu", "nav", "ol", "p", "pre", "search", "section", "table", "ul",
            ])
            // Not in 13.1.2.4's list (it names conforming content only), but their start tags
            // close an open p in the parser ("in body": "A start tag whose tag name is one of:
            // [...] center, [...] dir, [...] summary", "pre, listing", "plaintext", "xmp"), so
            // the omission gives the same tree.
            || followed_by(&["center", "dir", "listing", "plaintext", "summary", "xmp"])
            || match next {
                // "or if there is no more content in the parent element and the parent element
                // is an HTML element that is not an a, audio, del, ins, map, noscript, or
                // video element, or an autonomous custom element"
                Next::End(ns, parent) => {
                    ns == Namespace::Html
                        && !matches!(parent, "a" | "audio" | "del" | "ins" | "map" | "noscript" | "video")
                        && !parent.contains('-')
                }
                Next::End_ => true,
                _ => false,
            }
        }
        "rt" | "rp" => followed_by(&["rt", "rp"]) || no_more_content,
        "optgroup" => followed_by(&["optgroup", "hr"]) || no_more_content,
        "option" => followed_by(&["option", "optgroup", "hr"]) || no_more_content,
        "thead" => followed_by(&["tbody", "tfoot"]),
        "tbody" => followed_by(&["tbody", "tfoot"]) || no_more_content,
        // The standard allows this only at the end of the table; a tbody start tag after a
        // tfoot also closes it in the parser ("in table body": "A start tag whose tag name is
        // one of: caption, col, colgroup, tbody, tfoot, thead"), so omitting is equivalent.
        "tfoot" => followed_by(&["tbody"]) || no_more_content,
        "tr" => followed_by(&["tr"]) || no_more_content,
        "td" | "th" => followed_by(&["td", "th"]) || no_more_content,
        _ => false,
    }
}
