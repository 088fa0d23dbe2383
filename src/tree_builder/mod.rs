//! The tree construction stage (13.2.6): tokens in, DOM out.
//!
//! [`TreeBuilder`] is the tokenizer's [`TokenSink`]. Each token goes through the *tree
//! construction dispatcher* ([`TreeBuilder::dispatch`]): the rules of the current insertion
//! mode (one file per mode in `modes/`) or the rules for parsing tokens in foreign content
//! (`foreign.rs`). A mode's handler returns a [`Step`]: done, or "switch to this mode and
//! reprocess the token" (possibly a changed token: the rest of a character run, a renamed
//! tag). One loop does all the reprocessing, so nothing recurses.
//!
//! The parse state of 13.2.4 lives in the builder: the stack of open elements
//! (`open_elements.rs`, which owns the scope queries and answers them without walking the
//! stack), the list of active formatting elements (`active_formatting.rs`), the element
//! pointers, the stack of template insertion modes and the flags. The algorithms shared by the
//! modes are in `insert.rs` (creating and inserting nodes, foster parenting), `adoption.rs`
//! (the adoption agency algorithm and the active formatting elements' push and reconstruct),
//! `foreign.rs` (foreign content and the SVG/MathML adjustments), `quirks.rs` (the DOCTYPE
//! tables), `fragment.rs` (13.4) and `select.rs` (the `selectedcontent` copies that popping an
//! `option` triggers); `tag_sets.rs` has the element categories as flags.
//!
//! Scripts are never executed.

mod active_formatting;
mod adoption;
mod foreign;
mod fragment;
mod insert;
mod modes;
mod open_elements;
mod quirks;
mod select;
pub(crate) mod tag_sets;

pub(crate) use fragment::FragmentContext;
pub use fragment::FragmentContextError;

use indextree::NodeId;

use crate::dom::Document;
use crate::dom::names::{LocalName, Namespace, local_name as n};
use crate::error::{ErrorCode, ParseError};
use crate::tokenizer::{Attribute, Doctype, State, Tag, Token, TokenSink, TokenSinkResult};

use active_formatting::ActiveFormatting;
use open_elements::OpenElements;

/// An insertion mode (13.2.4.1).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum InsertionMode {
    /// <https://html.spec.whatwg.org/multipage/parsing.html#the-initial-insertion-mode>
    Initial,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#the-before-html-insertion-mode>
    BeforeHtml,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#the-before-head-insertion-mode>
    BeforeHead,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead>
    InHead,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inheadnoscript>
    InHeadNoscript,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#the-after-head-insertion-mode>
    AfterHead,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody>
    InBody,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incdata>
    Text,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable>
    InTable,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intabletext>
    InTableText,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incaption>
    InCaption,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incolgroup>
    InColumnGroup,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intbody>
    InTableBody,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intr>
    InRow,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intd>
    InCell,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intemplate>
    InTemplate,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-afterbody>
    AfterBody,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inframeset>
    InFrameset,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-afterframeset>
    AfterFrameset,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#the-after-after-body-insertion-mode>
    AfterAfterBody,
    /// <https://html.spec.whatwg.org/multipage/parsing.html#the-after-after-frameset-insertion-mode>
    AfterAfterFrameset,
}

// ------------------------------------------------------------------------------------------
// Tokens as the tree builder sees them.

/// A run of character tokens.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Text<'t> {
    /// The characters (never U+0000).
    pub(crate) text: &'t str,
    /// The input offset of the first character (for errors; and for `verbatim` runs, where the
    /// text sits in the source).
    pub(crate) offset: usize,
    /// `text` is exactly the source at `offset`.
    pub(crate) verbatim: bool,
}

impl<'t> Text<'t> {
    /// Splits the run after `at` bytes.
    #[inline]
    pub(crate) fn split_at(self, at: usize) -> (Text<'t>, Text<'t>) {
        let (a, b) = self.text.split_at(at);
        let offset_b = if self.verbatim {
            self.offset + at
        } else {
            self.offset
        };
        (
            Text {
                text: a,
                offset: self.offset,
                verbatim: self.verbatim,
            },
            Text {
                text: b,
                offset: offset_b,
                verbatim: self.verbatim,
            },
        )
    }

    /// Where the text sits in the source, if it is a verbatim slice of it.
    #[inline]
    pub(crate) fn source_offset(&self) -> Option<usize> {
        self.verbatim.then_some(self.offset)
    }

    /// Whether every character is whitespace.
    #[inline]
    pub(crate) fn is_all_whitespace(&self) -> bool {
        self.text.bytes().all(tag_sets::is_whitespace_byte)
    }
}

/// A start or end tag token.
#[derive(Copy, Clone, Debug)]
pub(crate) struct TagToken<'t> {
    /// The tag name, interned.
    pub(crate) name: LocalName,
    /// The self-closing flag.
    pub(crate) self_closing: bool,
    /// The input offset of the `<`.
    pub(crate) offset: usize,
    /// The tokenizer's tag, for the attributes (`None` for the tokens the tree builder makes
    /// up: "a `head` start tag token with no attributes" and the like).
    pub(crate) tag: Option<&'t Tag<'t>>,
}

impl<'t> TagToken<'t> {
    /// A token the tree builder makes up: no attributes.
    #[inline]
    pub(crate) fn synthetic(name: LocalName, offset: usize) -> TagToken<'static> {
        TagToken {
            name,
            self_closing: false,
            offset,
            tag: None,
        }
    }

    /// The attributes.
    #[inline]
    pub(crate) fn attrs(&self) -> impl Iterator<Item = Attribute<'t>> + 't {
        self.tag.map(|t| t.attrs()).into_iter().flatten()
    }

    /// The value of the attribute named `name`.
    pub(crate) fn attr(&self, name: LocalName) -> Option<&'t str> {
        self.attrs()
            .find(|a| a.name_id == Some(name))
            .map(|a| a.value)
    }
}

/// A token, as the insertion modes receive it.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Tok<'t> {
    /// A run of character tokens (no U+0000).
    Characters(Text<'t>),
    /// A U+0000 NULL character token (at this input offset).
    Null(usize),
    /// A start tag.
    StartTag(TagToken<'t>),
    /// An end tag.
    EndTag(TagToken<'t>),
    /// A comment.
    Comment {
        data: &'t str,
        offset: usize,
        /// Where `data` sits in the source, if it is a verbatim slice of it.
        source: Option<usize>,
    },
    /// A processing instruction.
    ProcessingInstruction {
        target: &'t str,
        data: &'t str,
        offset: usize,
    },
    /// A DOCTYPE (by reference: the rare token would otherwise make every token larger to
    /// copy).
    Doctype(&'t Doctype<'t>),
    /// The end of the input (at this offset).
    Eof(usize),
}

impl Tok<'_> {
    /// The input offset of the token, for errors.
    pub(crate) fn offset(&self) -> usize {
        match self {
            Tok::Characters(t) => t.offset,
            Tok::Null(o) | Tok::Eof(o) => *o,
            Tok::StartTag(t) | Tok::EndTag(t) => t.offset,
            Tok::Comment { offset, .. } | Tok::ProcessingInstruction { offset, .. } => *offset,
            Tok::Doctype(d) => d.span.start,
        }
    }
}

/// What a mode's handler leaves the dispatch loop to do.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Step<'t> {
    /// The token is handled.
    Done,
    /// Switch the insertion mode to this one and reprocess the token.
    Reprocess(InsertionMode),
    /// Switch the insertion mode to this one and process this token (what is left of a
    /// character run, or a changed tag) instead.
    ReprocessAs(InsertionMode, Tok<'t>),
}

/// The input a token came from.
fn token_span(token: &Token<'_>) -> crate::tokenizer::Span {
    use crate::tokenizer::Span;
    match token {
        Token::Characters { span, .. }
        | Token::NullCharacter { span }
        | Token::Comment { span, .. }
        | Token::ProcessingInstruction { span, .. } => *span,
        Token::StartTag(t) | Token::EndTag(t) => t.span(),
        Token::Doctype(d) => d.span,
        Token::Eof { offset } => Span::new(*offset, *offset),
    }
}

// ------------------------------------------------------------------------------------------
// The tree builder.

/// The fragment parsing context (13.4): the context element and what the parser needs of it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Context {
    /// The local name (in ASCII lowercase for foreign elements).
    pub(crate) name: LocalName,
    pub(crate) ns: Namespace,
    /// Its [`tag_sets`] flags.
    pub(crate) flags: u32,
}

/// The tree construction stage.
pub(crate) struct TreeBuilder {
    /// The document being built.
    pub(crate) doc: Document,
    pub(crate) mode: InsertionMode,
    /// 13.2.4.1: the original insertion mode (for "text" and "in table text").
    pub(crate) original_mode: InsertionMode,
    /// 13.2.4.1: the stack of template insertion modes.
    pub(crate) template_modes: Vec<InsertionMode>,
    pub(crate) open: OpenElements,
    pub(crate) active: ActiveFormatting,
    /// 13.2.4.4: the `head` element pointer.
    pub(crate) head: Option<NodeId>,
    /// 13.2.4.4: the `form` element pointer.
    pub(crate) form: Option<NodeId>,
    /// 13.2.4.5: the frameset-ok flag (`true`: "ok").
    pub(crate) frameset_ok: bool,
    /// 13.2.6.1: foster parenting.
    pub(crate) foster_parenting: bool,
    /// The scripting flag: `noscript` content is raw text when it is on.
    pub(crate) scripting: bool,
    /// 13.2.4.5: the fragment context element (fragment case).
    pub(crate) context: Option<Context>,
    /// 13.2.4.5: the root insertion target (fragment case: the `DocumentFragment`).
    pub(crate) root_insertion_target: Option<NodeId>,
    /// 13.2.6.4.9: the pending table character tokens.
    pub(crate) pending_table_text: String,
    /// Where `pending_table_text` sits in the source, if it is one verbatim slice of it.
    pub(crate) pending_table_text_source: Option<usize>,
    /// The offset of the first pending table character (for errors).
    pub(crate) pending_table_text_offset: usize,
    /// "If the next token is a U+000A LINE FEED (LF) character token, then ignore that token"
    /// (after `pre`, `listing` and `textarea` start tags).
    pub(crate) skip_next_newline: bool,
    /// The start tag being processed has its self-closing flag set and no handler has
    /// acknowledged it yet.
    pub(crate) self_closing_unacknowledged: bool,
    /// The tokenizer state a handler asked for.
    pub(crate) tokenizer_state: Option<State>,
    /// "Stop parsing" ran.
    pub(crate) stopped: bool,
    /// The number of parse errors to keep.
    pub(crate) error_limit: usize,
    /// The `html` and `body` elements the parser added attributes to.
    pub(crate) merged_attrs: Vec<insert::MergedAttrs>,
    /// `ParseOptions::max_nodes` (`None`: 1,000,000 plus 2 per input byte).
    pub(crate) max_nodes: Option<usize>,
    /// `ParseOptions::max_depth`: Blink's nesting cap, off by default.
    pub(crate) max_depth: Option<usize>,
    /// Stand-ins go to every this many stack positions ([`insert::STAND_IN_SPACING`]; tests
    /// lower it).
    pub(crate) stand_in_spacing: usize,
    /// The input span of the token being processed (for source positions).
    pub(crate) current_span: crate::tokenizer::Span,
    /// The input span of the pending table character tokens.
    pub(crate) pending_table_text_span: crate::tokenizer::Span,
    /// 13.2.3: the encoding confidence is *tentative* (byte input whose encoding is a guess),
    /// so a `<meta>` that declares an encoding ("in head") makes the parser "change the
    /// encoding" (13.2.3.4).
    pub(crate) encoding_tentative: bool,
    /// The encoding the first such `<meta>` declared, for the driver: it runs "change the
    /// encoding" (keep, switch decoders, or start over) after the current feed step.
    pub(crate) declared_encoding: Option<&'static encoding_rs::Encoding>,
    /// A driver runs scripts (`parser/script.rs`): stop the tokenizer after a script's end
    /// tag ("text" insertion mode) and leave the script in `ready_script`.
    pub(crate) script_hooks: bool,
    /// The script element whose end tag was just processed, for the driver.
    pub(crate) ready_script: Option<NodeId>,
    /// The attributes formatting elements had when the parser created them, kept for those
    /// a script could change (the driver fills it before it lets the embedder change the
    /// document): "create an element for the token for which the element entry was created"
    /// clones those, not the element's current ones.
    pub(crate) token_attrs: std::collections::HashMap<NodeId, crate::dom::AttrRange>,
}

impl TreeBuilder {
    /// Between chunks: the stream offset of the earliest input a parse error still to come
    /// can point at, of what the tree builder holds (13.2.6.4.9: the pending table character
    /// tokens).
    pub(crate) fn oldest_needed_offset(&self) -> Option<usize> {
        if self.pending_table_text.is_empty() {
            return None;
        }
        let offset = self.pending_table_text_offset;
        Some(
            self.pending_table_text_source
                .map_or(offset, |source| source.min(offset)),
        )
    }

    /// A tree builder for a whole document.
    pub(crate) fn new(doc: Document, scripting: bool, error_limit: usize) -> TreeBuilder {
        TreeBuilder {
            doc,
            mode: InsertionMode::Initial,
            original_mode: InsertionMode::Initial,
            template_modes: Vec::new(),
            open: OpenElements::for_parse(),
            active: ActiveFormatting::new(),
            head: None,
            form: None,
            frameset_ok: true,
            foster_parenting: false,
            scripting,
            context: None,
            root_insertion_target: None,
            pending_table_text: String::new(),
            pending_table_text_source: None,
            pending_table_text_offset: 0,
            skip_next_newline: false,
            self_closing_unacknowledged: false,
            tokenizer_state: None,
            stopped: false,
            error_limit,
            merged_attrs: Vec::new(),
            max_nodes: None,
            max_depth: None,
            stand_in_spacing: insert::STAND_IN_SPACING,
            current_span: crate::tokenizer::Span::default(),
            pending_table_text_span: crate::tokenizer::Span::default(),
            encoding_tentative: false,
            declared_encoding: None,
            script_hooks: false,
            ready_script: None,
            token_attrs: std::collections::HashMap::new(),
        }
    }

    /// Finishes: pops everything left on the stack (13.2.7 "the end") and returns the document.
    pub(crate) fn finish(mut self) -> Document {
        self.open.clear();
        self.put_back_left_elements();
        debug_assert!(!self.doc.has_stand_ins());
        self.flush_popped_options();
        self.doc.scripting = self.scripting;
        let doc = self.doc;
        self.open.recycle();
        doc
    }

    // ---------------------------------------------------------------------------------------
    // The dispatcher.

    /// The adjusted current node (13.2.4.2): the context element when the stack holds only the
    /// `html` element of a fragment parse, else the current node. Returns its name (lowercase
    /// for foreign elements), namespace and flags.
    #[inline]
    pub(crate) fn adjusted_current(&self) -> Option<(LocalName, Namespace, u32)> {
        if self.open.len() == 1 {
            if let Some(c) = &self.context {
                return Some((c.name, c.ns, c.flags));
            }
        }
        self.open.current().map(|e| (e.name, e.ns, e.flags))
    }

    /// The tree construction dispatcher: whether `token` goes to the current insertion mode
    /// (`true`) or to the rules for parsing tokens in foreign content.
    #[inline]
    fn use_html_rules(&self, token: &Tok<'_>) -> bool {
        // "If the stack of open elements is empty"
        let Some((_, ns, flags)) = self.adjusted_current() else {
            return true;
        };
        // "If the adjusted current node is an element in the HTML namespace"
        if ns == Namespace::Html {
            return true;
        }
        let is_start_tag = matches!(token, Tok::StartTag(_));
        let is_character = matches!(token, Tok::Characters(_) | Tok::Null(_));
        // "If the adjusted current node is a MathML text integration point and the token is a
        // start tag whose tag name is neither "mglyph" nor "malignmark"", or "a character
        // token"
        if flags & tag_sets::MATHML_TEXT_INTEGRATION_POINT != 0 {
            match token {
                Tok::StartTag(t) if t.name != n::MGLYPH && t.name != n::MALIGNMARK => return true,
                _ if is_character => return true,
                _ => {}
            }
        }
        // "If the adjusted current node is a MathML annotation-xml element and the token is a
        // start tag whose tag name is "svg""
        if flags & tag_sets::ANNOTATION_XML != 0 {
            if let Tok::StartTag(t) = token {
                if t.name == n::SVG {
                    return true;
                }
            }
        }
        // "If the adjusted current node is an HTML integration point and the token is a start
        // tag", or "a character token"; "If the token is an end-of-file token"
        (flags & tag_sets::HTML_INTEGRATION_POINT != 0 && (is_start_tag || is_character))
            || matches!(token, Tok::Eof(_))
    }

    /// Processes one token to completion.
    #[inline(always)]
    pub(crate) fn dispatch(&mut self, mut token: Tok<'_>) {
        loop {
            // (The token goes by reference: a copy of it, read in wide loads right after its
            // fields were stored one by one, stalls on store forwarding.)
            let step = if self.use_html_rules(&token) {
                self.process_in_mode(self.mode, &token)
            } else {
                foreign::process(self, &token)
            };
            match step {
                Step::Done => {
                    self.flush_popped_options();
                    return;
                }
                Step::Reprocess(mode) => self.mode = mode,
                Step::ReprocessAs(mode, t) => {
                    self.mode = mode;
                    token = t;
                }
            }
        }
    }

    /// Processes `token` using the rules for `mode` (the insertion mode is not changed here).
    pub(crate) fn process_in_mode<'t>(&mut self, mode: InsertionMode, token: &Tok<'t>) -> Step<'t> {
        use InsertionMode as M;
        match mode {
            M::Initial => modes::initial::process(self, token),
            M::BeforeHtml => modes::before_html::process(self, token),
            M::BeforeHead => modes::before_head::process(self, token),
            M::InHead => modes::in_head::process(self, token),
            M::InHeadNoscript => modes::in_head_noscript::process(self, token),
            M::AfterHead => modes::after_head::process(self, token),
            M::InBody => modes::in_body::process(self, token),
            M::Text => modes::text::process(self, token),
            M::InTable => modes::in_table::process(self, token),
            M::InTableText => modes::in_table_text::process(self, token),
            M::InCaption => modes::in_caption::process(self, token),
            M::InColumnGroup => modes::in_column_group::process(self, token),
            M::InTableBody => modes::in_table_body::process(self, token),
            M::InRow => modes::in_row::process(self, token),
            M::InCell => modes::in_cell::process(self, token),
            M::InTemplate => modes::in_template::process(self, token),
            M::AfterBody => modes::after_body::process(self, token),
            M::InFrameset => modes::in_frameset::process(self, token),
            M::AfterFrameset => modes::after_frameset::process(self, token),
            M::AfterAfterBody => modes::after_after_body::process(self, token),
            M::AfterAfterFrameset => modes::after_after_frameset::process(self, token),
        }
    }

    // ---------------------------------------------------------------------------------------
    // Converting the tokenizer's tokens.

    fn tag_token<'t>(&mut self, tag: &'t Tag<'t>) -> TagToken<'t> {
        let name = match tag.local_name() {
            Some(id) => id,
            None => self.doc.intern(tag.name()),
        };
        TagToken {
            name,
            self_closing: tag.self_closing(),
            offset: tag.span().start,
            tag: Some(tag),
        }
    }

    fn convert<'t>(&mut self, token: &'t Token<'t>) -> Tok<'t> {
        match *token {
            Token::Characters {
                text,
                span,
                verbatim,
            } => Tok::Characters(Text {
                text,
                offset: span.start,
                // Characters the tokenizer held back at a chunk boundary (a `<` or `&` that
                // turned out to be text) come from its buffer, but are usually still the
                // source verbatim: say so, so that their positions are the same whatever the
                // chunking.
                // (A lean parse's window holds the input from the markup being read on.)
                verbatim: verbatim || self.doc.strings.source_matches(span.start, text),
            }),
            Token::NullCharacter { span } => Tok::Null(span.start),
            Token::StartTag(ref tag) => Tok::StartTag(self.tag_token(tag)),
            Token::EndTag(ref tag) => Tok::EndTag(self.tag_token(tag)),
            Token::Comment { data, span } => {
                // A `<!--data-->` comment usually is the source verbatim after its `<!--` (what
                // matters only to a document that keeps its source).
                let at = span.start + 4;
                let source = (self.doc.strings.keeps_source()
                    && self.doc.strings.source_matches(at, data))
                .then_some(at);
                Tok::Comment {
                    data,
                    offset: span.start,
                    source,
                }
            }
            Token::ProcessingInstruction { target, data, span } => Tok::ProcessingInstruction {
                target,
                data,
                offset: span.start,
            },
            Token::Doctype(ref d) => Tok::Doctype(d),
            Token::Eof { offset } => Tok::Eof(offset),
        }
    }

    // ---------------------------------------------------------------------------------------
    // Parse errors.

    /// Whether a new error would be kept (so its detail is worth building).
    #[inline]
    fn keeps_errors(&self) -> bool {
        self.doc.errors.len() < self.error_limit
    }

    /// Records a tree construction parse error at `offset`.
    pub(crate) fn error(&mut self, code: ErrorCode, offset: usize) {
        self.doc.record_error(
            ParseError {
                code,
                line: 0,
                column: 0,
                offset,
                detail: None,
            },
            self.error_limit,
        );
    }

    /// Records a parse error about a tag, with the tag as its detail.
    pub(crate) fn tag_error(&mut self, code: ErrorCode, tag: &TagToken<'_>, end: bool) {
        let detail = if self.keeps_errors() {
            // (Built by hand: `format!` and the shrink of its buffer cost 600 instructions
            // an error, 0.7% of a parse of pages with many misnested tags.)
            let name = self.doc.name_str(tag.name);
            let mut detail = String::with_capacity(name.len() + 3);
            detail.push_str(if end { "</" } else { "<" });
            detail.push_str(name);
            detail.push('>');
            Some(detail.into_boxed_str())
        } else {
            None
        };
        self.doc.record_error(
            ParseError {
                code,
                line: 0,
                column: 0,
                offset: tag.offset,
                detail,
            },
            self.error_limit,
        );
    }

    /// Records a parse error about `token`, choosing the code from its kind.
    /// One parse error per character of a run: the specification's character tokens are
    /// single characters, so a rule that says "parse error" for a character token reports one
    /// per character (and a count that does not depend on how the input was chunked). Each
    /// error is at its character when the run is a verbatim slice of the input.
    pub(crate) fn character_errors(&mut self, code: ErrorCode, text: &Text<'_>) {
        for (i, _) in text.text.char_indices() {
            let offset = if text.verbatim {
                text.offset + i
            } else {
                text.offset
            };
            self.error(code, offset);
        }
    }

    pub(crate) fn unexpected(&mut self, token: &Tok<'_>) {
        match token {
            Tok::StartTag(t) => self.tag_error(ErrorCode::UnexpectedStartTag, t, false),
            Tok::EndTag(t) => self.tag_error(ErrorCode::UnexpectedEndTag, t, true),
            Tok::Characters(t) => self.error(ErrorCode::UnexpectedCharacter, t.offset),
            Tok::Null(o) => self.error(ErrorCode::UnexpectedNullCharacterInTree, *o),
            Tok::Comment { offset, .. } | Tok::ProcessingInstruction { offset, .. } => {
                self.error(ErrorCode::UnexpectedComment, *offset)
            }
            Tok::Doctype(d) => self.error(ErrorCode::UnexpectedDoctype, d.span.start),
            Tok::Eof(o) => self.error(ErrorCode::EofWithUnclosedElements, *o),
        }
    }

    /// "Acknowledge the token's self-closing flag, if it is set."
    #[inline]
    pub(crate) fn acknowledge_self_closing(&mut self) {
        // (Written only when set: see `process_token`.)
        if self.self_closing_unacknowledged {
            self.self_closing_unacknowledged = false;
        }
    }

    // ---------------------------------------------------------------------------------------
    // Small shared steps.

    /// Switches the tokenizer to `state` after this token.
    #[inline]
    pub(crate) fn switch_tokenizer(&mut self, state: State) {
        self.tokenizer_state = Some(state);
    }

    /// Whether the parser is "parsing template contents" (13.2.4.4): a `template` on the stack,
    /// or a `template` fragment context.
    #[inline]
    pub(crate) fn parsing_template_contents(&self) -> bool {
        self.open.contains_html(n::TEMPLATE)
            || self
                .context
                .is_some_and(|c| c.ns == Namespace::Html && c.name == n::TEMPLATE)
    }

    /// Whether the fragment context element is an HTML element named `name`.
    #[inline]
    pub(crate) fn context_is(&self, name: LocalName) -> bool {
        self.context
            .is_some_and(|c| c.ns == Namespace::Html && c.name == name)
    }

    /// 13.2.4.1 "Reset the insertion mode appropriately". Only the elements the algorithm can
    /// stop at are looked at (their positions are kept by the stack), so this does not walk the
    /// stack.
    pub(crate) fn reset_insertion_mode(&mut self) {
        use InsertionMode as M;
        let p = self
            .open
            .last_of_kind(open_elements::Kind::ResetMode)
            .unwrap_or(0);
        // "If node is the first node in the stack of open elements, then set last to true, and,
        // if the parser's fragment context element is non-null, then set node to that element."
        let (name, ns, last) = if p == 0 {
            match (&self.context, self.open.get(0)) {
                (Some(c), _) => (c.name, c.ns, true),
                (None, Some(e)) => (e.name, e.ns, true),
                (None, None) => {
                    self.mode = M::InBody;
                    return;
                }
            }
        } else {
            match self.open.get(p) {
                Some(e) => (e.name, e.ns, false),
                None => return,
            }
        };
        self.mode = if ns != Namespace::Html {
            M::InBody
        } else {
            match name {
                n::TD | n::TH if !last => M::InCell,
                n::TR => M::InRow,
                n::TBODY | n::THEAD | n::TFOOT => M::InTableBody,
                n::CAPTION => M::InCaption,
                n::COLGROUP => M::InColumnGroup,
                n::TABLE => M::InTable,
                n::TEMPLATE => self.template_modes.last().copied().unwrap_or(M::InBody),
                n::HEAD if !last => M::InHead,
                n::BODY => M::InBody,
                n::FRAMESET => M::InFrameset,
                n::HTML if self.head.is_none() => M::BeforeHead,
                n::HTML => M::AfterHead,
                _ => M::InBody,
            }
        };
    }

    /// Stops the parse when the document has more nodes than `max_nodes` allows (checked after
    /// each token: one token can add many nodes, but never more than the input holds
    /// formatting elements).
    #[inline]
    fn check_node_budget(&mut self) {
        let limit = self.max_nodes.unwrap_or_else(|| {
            1_000_000usize.saturating_add(self.doc.strings.source_end().saturating_mul(2))
        });
        if self.doc.arena.len() > limit {
            self.doc.limit_hit = Some(crate::dom::Limit::Nodes);
            self.stop_parsing();
        }
    }

    /// "Stop parsing" (13.2.7): pop all the nodes off the stack of open elements.
    pub(crate) fn stop_parsing(&mut self) {
        self.open.clear();
        self.stopped = true;
    }
}

impl TokenSink for TreeBuilder {
    fn process_token(&mut self, token: Token<'_>) -> TokenSinkResult {
        if self.stopped {
            return TokenSinkResult::Continue;
        }
        let positions = self.doc.positions.is_some();
        if positions {
            self.current_span = token_span(&token);
        }
        let mut tok = self.convert(&token);
        if self.skip_next_newline {
            self.skip_next_newline = false;
            if let Tok::Characters(t) = tok {
                if t.text.starts_with('\n') {
                    let (_, rest) = t.split_at(1);
                    if rest.text.is_empty() {
                        return TokenSinkResult::Continue;
                    }
                    tok = Tok::Characters(rest);
                }
            }
        }
        // A start tag with its self-closing flag set: its name and offset, for the error if no
        // handler acknowledges the flag (the token itself is not kept: the dispatcher works on
        // it in place).
        let self_closing = match &tok {
            Tok::StartTag(t) if t.self_closing => Some((t.name, t.offset)),
            _ => None,
        };
        // (The flag is clear between tokens. Byte fields are written only when they change:
        // the mode next to them is read in a wider load, which a byte just stored would
        // stall.)
        if self_closing.is_some() {
            self.self_closing_unacknowledged = true;
        }
        if positions {
            // Source positions: the element an end tag closes is the first one of its name
            // that leaves the stack while the tag is processed.
            if let Tok::EndTag(t) = &tok {
                self.open.closing = Some(t.name);
            }
        }
        self.dispatch(tok);
        self.check_node_budget();
        self.put_back_left_elements();
        // Positions change here, between tokens only.
        self.open.compact_if_sparse();
        if positions {
            if let Some(node) = self.open.closed.take() {
                let span = self.current_span;
                if let Some(p) = self.doc.positions.as_mut() {
                    p.set_end_tag(node, span);
                }
            }
            self.open.closing = None;
        }
        if self.self_closing_unacknowledged {
            self.self_closing_unacknowledged = false;
            if let Some((name, offset)) = self_closing {
                self.tag_error(
                    ErrorCode::NonVoidHtmlElementStartTagWithTrailingSolidus,
                    &TagToken::synthetic(name, offset),
                    false,
                );
            }
        }
        match self.tokenizer_state {
            Some(state) => {
                self.tokenizer_state = None;
                TokenSinkResult::SwitchTo(state)
            }
            None => TokenSinkResult::Continue,
        }
    }

    fn parse_error(&mut self, error: ParseError) {
        // Once parsing stopped (a resource limit), the rest of the input reports nothing.
        if !self.stopped {
            self.doc.record_error(error, self.error_limit);
        }
    }

    fn adjusted_current_node_is_foreign(&self) -> bool {
        self.adjusted_current()
            .is_some_and(|(_, ns, _)| ns != Namespace::Html)
    }

    /// A script is ready (see `modes/text.rs`): the driver takes over after its end tag.
    #[inline]
    fn pause_requested(&self) -> bool {
        self.ready_script.is_some()
    }
}
