//! The tokenizer (13.2.5 "Tokenization"): all 84 states of the current standard, as a
//! resumable state machine.
//!
//! Feed it text in chunks of any size with [`Tokenizer::feed`] and finish with
//! [`Tokenizer::end`]; it hands each token to a [`TokenSink`] as soon as it is complete. Any
//! chunking gives the same tokens and errors as feeding the whole input at once (character
//! tokens may be split differently; adjacent ones concatenate to the same text).
//!
//! ```
//! use html_arena::tokenizer::{Token, TokenSink, TokenSinkResult, Tokenizer};
//!
//! #[derive(Default)]
//! struct Links(Vec<String>);
//! impl TokenSink for Links {
//!     fn process_token(&mut self, token: Token<'_>) -> TokenSinkResult {
//!         if let Token::StartTag(tag) = token {
//!             if tag.name() == "a" {
//!                 if let Some(href) = tag.attr("href") {
//!                     self.0.push(href.to_owned());
//!                 }
//!             }
//!         }
//!         TokenSinkResult::Continue
//!     }
//! }
//!
//! let mut tokenizer = Tokenizer::new();
//! let mut links = Links::default();
//! tokenizer.feed("<p><a href='/one'>1</a> <a hr", &mut links);
//! tokenizer.feed("ef=\"/t&amp;wo\">2</a>", &mut links);
//! tokenizer.end(&mut links);
//! assert_eq!(links.0, ["/one", "/t&wo"]);
//! ```
//!
//! The states live in `states/`, one file per family (data and text, tags, script data,
//! comments, DOCTYPE, CDATA, processing instructions); character references in `char_ref.rs`.
//!
//! The common cases take fast paths that leave the driver loop out: the data state runs the
//! tag states for a plain tag itself (`states/tag_fast.rs`), and resolves character
//! references that need no error (`&amp;`, `&#160;`) and passes through `&`s that start none.
//! A fast path takes only transitions that report no error and meet no special character, and
//! hands anything else (and the end of a chunk) to the states' own methods at the state and
//! position it reached, so those stay the reference; tests check that both give the same
//! tokens, spans and errors on real pages and random tag soup, whole and in chunks.
//!
//! Tag and attribute names and attribute values stay references to the input while they can
//! (see `token.rs`); names get their static ids from one hash lookup.

mod char_ref;
#[rustfmt::skip]
mod entities;
mod input;
mod states;
mod token;

pub use token::{Attribute, Doctype, Span, Tag, TagAttrs, TagKind, Token};

use crate::dom::names::LocalName;
use crate::error::{ErrorCode, LineCol, ParseError};
use input::{Input, Peek, Special};
use token::TagBuilder;

/// What the sink asks of the tokenizer after a token.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum TokenSinkResult {
    /// Go on.
    Continue,
    /// Switch to this state (the tree construction stage does this after `<title>`,
    /// `<script>`, `<plaintext>` and the like).
    SwitchTo(State),
}

/// Receives tokens and parse errors from a [`Tokenizer`].
pub trait TokenSink {
    /// Handles one token. The token borrows the tokenizer and the input; copy what you keep.
    fn process_token(&mut self, token: Token<'_>) -> TokenSinkResult;

    /// Handles one parse error. The default ignores it.
    fn parse_error(&mut self, error: ParseError) {
        let _ = error;
    }

    /// Whether there is an adjusted current node and it is not an element in the HTML
    /// namespace: the markup declaration open state asks this to decide whether `<![CDATA[`
    /// starts a CDATA section. The default (no tree) says no.
    fn adjusted_current_node_is_foreign(&self) -> bool {
        false
    }

    /// Whether the sink asks the tokenizer to stop right after the token it just handled,
    /// leaving the rest of the input unconsumed: the tree construction stage of a parser
    /// that runs scripts asks this at a script's end tag (13.2.6.4.8 "text", an end tag whose
    /// tag name is "script"). It is asked only after the states that can emit a script's end
    /// tag from script data (the end tag name states of script data and the tag states).
    /// [`Tokenizer::feed`] and [`Tokenizer::end`] go on with the rest regardless: the
    /// crate's script driver takes the rest back instead. The default says no.
    fn pause_requested(&self) -> bool {
        false
    }
}

/// Options of a [`Tokenizer`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct TokenizerOptions {
    /// Compute the line and column of each parse error (default on). Without it, errors carry
    /// only their byte offset (line and column 0), and the tokenizer does no line counting.
    pub error_positions: bool,
}

impl Default for TokenizerOptions {
    fn default() -> Self {
        TokenizerOptions {
            error_positions: true,
        }
    }
}

macro_rules! states {
    ($( $(#[$doc:meta])* $variant:ident = $anchor:literal, )*) => {
        /// A tokenizer state (13.2.5.1 to 13.2.5.84).
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
        #[non_exhaustive]
        pub enum State {
            $(
                #[doc = concat!("<https://html.spec.whatwg.org/multipage/parsing.html#", $anchor, ">")]
                $(#[$doc])*
                $variant,
            )*
        }

        impl State {
            /// Every state, in the specification's order.
            pub const ALL: &'static [State] = &[$(State::$variant,)*];
        }
    };
}

states! {
    Data = "data-state",
    Rcdata = "rcdata-state",
    Rawtext = "rawtext-state",
    ScriptData = "script-data-state",
    Plaintext = "plaintext-state",
    TagOpen = "tag-open-state",
    EndTagOpen = "end-tag-open-state",
    TagName = "tag-name-state",
    RcdataLessThanSign = "rcdata-less-than-sign-state",
    RcdataEndTagOpen = "rcdata-end-tag-open-state",
    RcdataEndTagName = "rcdata-end-tag-name-state",
    RawtextLessThanSign = "rawtext-less-than-sign-state",
    RawtextEndTagOpen = "rawtext-end-tag-open-state",
    RawtextEndTagName = "rawtext-end-tag-name-state",
    ScriptDataLessThanSign = "script-data-less-than-sign-state",
    ScriptDataEndTagOpen = "script-data-end-tag-open-state",
    ScriptDataEndTagName = "script-data-end-tag-name-state",
    ScriptDataEscapeStart = "script-data-escape-start-state",
    ScriptDataEscapeStartDash = "script-data-escape-start-dash-state",
    ScriptDataEscaped = "script-data-escaped-state",
    ScriptDataEscapedDash = "script-data-escaped-dash-state",
    ScriptDataEscapedDashDash = "script-data-escaped-dash-dash-state",
    ScriptDataEscapedLessThanSign = "script-data-escaped-less-than-sign-state",
    ScriptDataEscapedEndTagOpen = "script-data-escaped-end-tag-open-state",
    ScriptDataEscapedEndTagName = "script-data-escaped-end-tag-name-state",
    ScriptDataDoubleEscapeStart = "script-data-double-escape-start-state",
    ScriptDataDoubleEscaped = "script-data-double-escaped-state",
    ScriptDataDoubleEscapedDash = "script-data-double-escaped-dash-state",
    ScriptDataDoubleEscapedDashDash = "script-data-double-escaped-dash-dash-state",
    ScriptDataDoubleEscapedLessThanSign = "script-data-double-escaped-less-than-sign-state",
    ScriptDataDoubleEscapeEnd = "script-data-double-escape-end-state",
    BeforeAttributeName = "before-attribute-name-state",
    AttributeName = "attribute-name-state",
    AfterAttributeName = "after-attribute-name-state",
    BeforeAttributeValue = "before-attribute-value-state",
    AttributeValueDoubleQuoted = "attribute-value-(double-quoted)-state",
    AttributeValueSingleQuoted = "attribute-value-(single-quoted)-state",
    AttributeValueUnquoted = "attribute-value-(unquoted)-state",
    AfterAttributeValueQuoted = "after-attribute-value-(quoted)-state",
    SelfClosingStartTag = "self-closing-start-tag-state",
    BogusComment = "bogus-comment-state",
    MarkupDeclarationOpen = "markup-declaration-open-state",
    CommentStart = "comment-start-state",
    CommentStartDash = "comment-start-dash-state",
    Comment = "comment-state",
    CommentLessThanSign = "comment-less-than-sign-state",
    CommentLessThanSignBang = "comment-less-than-sign-bang-state",
    CommentLessThanSignBangDash = "comment-less-than-sign-bang-dash-state",
    CommentLessThanSignBangDashDash = "comment-less-than-sign-bang-dash-dash-state",
    CommentEndDash = "comment-end-dash-state",
    CommentEnd = "comment-end-state",
    CommentEndBang = "comment-end-bang-state",
    Doctype = "doctype-state",
    BeforeDoctypeName = "before-doctype-name-state",
    DoctypeName = "doctype-name-state",
    AfterDoctypeName = "after-doctype-name-state",
    AfterDoctypePublicKeyword = "after-doctype-public-keyword-state",
    BeforeDoctypePublicIdentifier = "before-doctype-public-identifier-state",
    DoctypePublicIdentifierDoubleQuoted = "doctype-public-identifier-(double-quoted)-state",
    DoctypePublicIdentifierSingleQuoted = "doctype-public-identifier-(single-quoted)-state",
    AfterDoctypePublicIdentifier = "after-doctype-public-identifier-state",
    BetweenDoctypePublicAndSystemIdentifiers = "between-doctype-public-and-system-identifiers-state",
    AfterDoctypeSystemKeyword = "after-doctype-system-keyword-state",
    BeforeDoctypeSystemIdentifier = "before-doctype-system-identifier-state",
    DoctypeSystemIdentifierDoubleQuoted = "doctype-system-identifier-(double-quoted)-state",
    DoctypeSystemIdentifierSingleQuoted = "doctype-system-identifier-(single-quoted)-state",
    AfterDoctypeSystemIdentifier = "after-doctype-system-identifier-state",
    BogusDoctype = "bogus-doctype-state",
    CdataSection = "cdata-section-state",
    CdataSectionBracket = "cdata-section-bracket-state",
    CdataSectionEnd = "cdata-section-end-state",
    ProcessingInstructionOpen = "processing-instruction-open-state",
    ProcessingInstructionTarget = "processing-instruction-target-state",
    AfterProcessingInstructionTarget = "after-processing-instruction-target-state",
    ProcessingInstructionData = "processing-instruction-data-state",
    ProcessingInstructionQuestionable = "processing-instruction-questionable-state",
    CharacterReference = "character-reference-state",
    NamedCharacterReference = "named-character-reference-state",
    AmbiguousAmpersand = "ambiguous-ampersand-state",
    NumericCharacterReference = "numeric-character-reference-state",
    HexadecimalCharacterReferenceStart = "hexadecimal-character-reference-start-state",
    HexadecimalCharacterReference = "hexadecimal-character-reference-state",
    DecimalCharacterReference = "decimal-character-reference-state",
    NumericCharacterReferenceEnd = "numeric-character-reference-end-state",
}

/// What a state step leaves the driver loop to do.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Flow {
    /// Run the (possibly new) current state.
    Continue,
    /// The chunk ended before the state could decide: wait for more input.
    Suspend,
    /// The end-of-file token was emitted.
    Done,
    /// The sink asked to stop after the token it was given
    /// ([`TokenSink::pause_requested`]).
    Paused,
}

/// The DOCTYPE token under construction.
#[derive(Default)]
pub(crate) struct DoctypeBuilder {
    pub(crate) name: Option<String>,
    pub(crate) public_id: Option<String>,
    pub(crate) system_id: Option<String>,
    pub(crate) force_quirks: bool,
    pub(crate) start: usize,
}

/// 13.2.5: "the tag name of the last start tag to have been emitted from this tokenizer".
#[derive(Clone, Debug)]
pub(crate) enum LastStartTag {
    /// No start tag was emitted.
    None,
    /// A statically known name (no copy).
    Static(LocalName),
    /// Any other name.
    Other(String),
}

impl LastStartTag {
    /// Records `name`, whose static id is `id`.
    #[inline]
    fn set(&mut self, name: &str, id: Option<LocalName>) {
        match id {
            Some(id) => *self = LastStartTag::Static(id),
            None => match self {
                LastStartTag::Other(last) => {
                    last.clear();
                    last.push_str(name);
                }
                _ => *self = LastStartTag::Other(name.to_owned()),
            },
        }
    }

    /// Whether the last start tag's name is `name`.
    #[inline]
    fn is(&self, name: &str) -> bool {
        match self {
            LastStartTag::None => false,
            LastStartTag::Static(id) => id.as_static_str() == Some(name),
            LastStartTag::Other(last) => last == name,
        }
    }
}

/// The HTML tokenizer.
///
/// It starts in the data state with no last start tag, as the specification says; the tree
/// construction stage (or a test) may set both.
pub struct Tokenizer {
    pub(crate) state: State,
    /// 13.2.5: the *return state* of the character reference states.
    pub(crate) return_state: State,
    pub(crate) tag: TagBuilder,
    /// 13.2.5: the *temporary buffer*.
    pub(crate) temp: String,
    pub(crate) comment: String,
    pub(crate) comment_start: usize,
    pub(crate) doctype: DoctypeBuilder,
    pub(crate) pi_target: String,
    pub(crate) pi_data: String,
    pub(crate) pi_start: usize,
    /// 13.2.5.80: the *character reference code*.
    pub(crate) char_ref_code: u32,
    /// Stream offset of the `&` of the character reference being read.
    pub(crate) char_ref_start: usize,
    /// Stream offset of the `<` that began the tag, comment, DOCTYPE or processing instruction
    /// being read.
    pub(crate) markup_start: usize,
    /// The name of the last start tag emitted (for "appropriate end tag token").
    pub(crate) last_start_tag: LastStartTag,
    /// Unconsumed input kept from the previous chunk (a state needed more lookahead).
    pending: String,
    /// Stream offset of the next unconsumed input.
    offset: usize,
    /// The previous chunk ended with a CR that was consumed: drop a LF starting the next.
    skip_lf: bool,
    /// Input-stream errors have been reported for every offset below this.
    pub(crate) input_errors_before: usize,
    finished: bool,
    options: TokenizerOptions,
    line_col: LineCol,
    /// Tests: never take the fast paths, only the states' own methods (the reference).
    #[cfg(test)]
    pub(crate) reference_only: bool,
}

impl Default for Tokenizer {
    fn default() -> Self {
        Tokenizer::new()
    }
}

impl Tokenizer {
    /// A tokenizer in the data state.
    pub fn new() -> Tokenizer {
        Tokenizer::with_options(TokenizerOptions::default())
    }

    /// A tokenizer with options.
    pub fn with_options(options: TokenizerOptions) -> Tokenizer {
        Tokenizer {
            state: State::Data,
            return_state: State::Data,
            tag: TagBuilder::default(),
            temp: String::new(),
            comment: String::new(),
            comment_start: 0,
            doctype: DoctypeBuilder::default(),
            pi_target: String::new(),
            pi_data: String::new(),
            pi_start: 0,
            char_ref_code: 0,
            char_ref_start: 0,
            markup_start: 0,
            last_start_tag: LastStartTag::None,
            pending: String::new(),
            offset: 0,
            skip_lf: false,
            input_errors_before: 0,
            finished: false,
            options,
            line_col: LineCol::default(),
            #[cfg(test)]
            reference_only: false,
        }
    }

    /// Whether to take the fast paths (always, but in the tests that check them against the
    /// states' own methods).
    #[inline(always)]
    pub(crate) fn fast_paths(&self) -> bool {
        #[cfg(test)]
        return !self.reference_only;
        #[cfg(not(test))]
        true
    }

    /// The current state.
    pub fn state(&self) -> State {
        self.state
    }

    /// Sets the state (the html5lib tests' "initial states"; the fragment parsing algorithm).
    pub fn set_state(&mut self, state: State) {
        self.state = state;
    }

    /// Sets "the tag name of the last start tag to have been emitted" (`None`: none was).
    pub fn set_last_start_tag(&mut self, name: Option<&str>) {
        self.last_start_tag = match name {
            Some(name) => {
                let mut last = LastStartTag::None;
                last.set(name, LocalName::from_static_str(name));
                last
            }
            None => LastStartTag::None,
        };
    }

    /// Between chunks: the stream offset of the earliest input a token or parse error still
    /// to come can point at (the markup or character reference being read, else the next
    /// unconsumed input). A parse that does not keep its input keeps it from there on.
    pub(crate) fn oldest_needed_offset(&self) -> usize {
        let text_state = matches!(
            self.state,
            State::Data
                | State::Rcdata
                | State::Rawtext
                | State::ScriptData
                | State::Plaintext
                | State::ScriptDataEscaped
                | State::ScriptDataDoubleEscaped
                | State::CdataSection
        );
        let char_ref = matches!(
            self.state,
            State::CharacterReference
                | State::NamedCharacterReference
                | State::AmbiguousAmpersand
                | State::NumericCharacterReference
                | State::HexadecimalCharacterReferenceStart
                | State::HexadecimalCharacterReference
                | State::DecimalCharacterReference
                | State::NumericCharacterReferenceEnd
        );
        let mut from = self.offset;
        if !text_state {
            // (Comments, DOCTYPEs and processing instructions start at their `<` too.)
            from = from.min(self.markup_start);
        }
        if char_ref {
            from = from.min(self.char_ref_start);
        }
        from
    }

    /// Tokenizes the next chunk of input, handing complete tokens to `sink`.
    pub fn feed<S: TokenSink>(&mut self, chunk: &str, sink: &mut S) {
        let mut rest = chunk;
        // A pause the sink asked for (a parser that runs scripts takes the rest back; a plain
        // sink just goes on).
        while let Some(n) = self.feed_until_pause(rest, sink) {
            rest = rest.get(n..).unwrap_or_default();
        }
    }

    /// Tokenizes `chunk` like [`Tokenizer::feed`], but stops when the sink asks to
    /// ([`TokenSink::pause_requested`]): then returns how many bytes of `chunk` were consumed (the
    /// rest is the caller's: it was not looked at, and is not kept). `None`: the whole chunk
    /// was taken (what a state needed more input to decide is kept, as by `feed`).
    ///
    /// This is the driver's re-entry point for script execution (13.2.3.5 "insertion point"):
    /// the tokenizer stops just after a script's end tag, and the caller decides what input
    /// comes next.
    pub(crate) fn feed_until_pause<S: TokenSink>(
        &mut self,
        chunk: &str,
        sink: &mut S,
    ) -> Option<usize> {
        if chunk.len() > token::MAX_CHUNK {
            return self.feed_in_parts(chunk, sink);
        }
        if self.finished || chunk.is_empty() {
            return None;
        }
        if self.pending.is_empty() {
            let (text, base, skipped) = if self.skip_lf && chunk.starts_with('\n') {
                (&chunk[1..], self.offset + 1, 1)
            } else {
                (chunk, self.offset, 0)
            };
            self.skip_lf = false;
            self.run_chunk(text, base, false, sink).map(|n| n + skipped)
        } else {
            let held = self.pending.len();
            let mut buf = std::mem::take(&mut self.pending);
            buf.push_str(chunk);
            let base = self.offset;
            let paused_at = self.run_chunk(&buf, base, false, sink)?;
            // A pause comes after a `>` that ends a tag, and the held text is what a state
            // could not decide on without the next chunk: the pause is in the new chunk.
            debug_assert!(paused_at >= held, "a pause inside held-back input");
            if paused_at < held {
                // (Never: keep the held rest in front, as `feed` would.)
                self.pending = buf[paused_at..held].to_owned();
                self.offset = base + paused_at;
                return Some(0);
            }
            Some(paused_at - held)
        }
    }

    /// [`Tokenizer::feed_until_pause`] for a chunk larger than the states take at once (the
    /// tag builder's offsets are 32-bit: see `token::Piece`), in parts.
    #[cold]
    fn feed_in_parts<S: TokenSink>(&mut self, chunk: &str, sink: &mut S) -> Option<usize> {
        let mut done = 0;
        while done < chunk.len() {
            let mut end = (done + token::MAX_CHUNK).min(chunk.len());
            while !chunk.is_char_boundary(end) {
                end -= 1;
            }
            let part = chunk.get(done..end).unwrap_or_default();
            if let Some(n) = self.feed_until_pause(part, sink) {
                return Some(done + n);
            }
            done = end;
        }
        None
    }

    /// Signals the end of the input: tokenizes what is left and emits the end-of-file token.
    pub fn end<S: TokenSink>(&mut self, sink: &mut S) {
        if self.finished {
            return;
        }
        let buf = std::mem::take(&mut self.pending);
        let mut rest = buf.as_str();
        // (A pause here changes nothing: the end of the input follows whatever is left.)
        while let Some(n) = self.run_chunk(rest, self.offset, true, sink) {
            rest = rest.get(n..).unwrap_or_default();
        }
        self.finished = true;
    }

    /// Tokenizes a whole input: [`Tokenizer::feed`] then [`Tokenizer::end`].
    pub fn feed_all<S: TokenSink>(&mut self, input: &str, sink: &mut S) {
        self.feed(input, sink);
        self.end(sink);
    }

    /// Runs the states over `text`; returns where in `text` the sink asked to pause, if it
    /// did (the rest is then left to the caller, not kept).
    fn run_chunk<S: TokenSink>(
        &mut self,
        text: &str,
        base: usize,
        eof: bool,
        sink: &mut S,
    ) -> Option<usize> {
        let mut input = Input::new(text, base, eof);
        let flow = self.run(&mut input, sink);
        if flow == Flow::Done {
            self.finished = true;
        }
        let paused = flow == Flow::Paused;
        // Values in the tag under construction that point into this chunk must outlive it.
        self.tag.detach_from_input(input.text, input.base);
        let rest = input.rest();
        if !rest.is_empty() && !eof && !paused {
            self.pending.push_str(rest);
        }
        self.offset = input.offset();
        self.skip_lf = input.ended_with_cr;
        if self.options.error_positions && !eof {
            // The chunk goes away: count its lines now.
            self.line_col
                .position_in(input.text, input.base, input.offset());
        }
        paused.then_some(input.pos)
    }

    /// The driver loop: run states until the chunk is used up or the input ends.
    fn run<S: TokenSink>(&mut self, input: &mut Input<'_>, sink: &mut S) -> Flow {
        loop {
            let flow = match self.state {
                State::Data => self.data_state(input, sink),
                State::Rcdata => self.rcdata_state(input, sink),
                State::Rawtext => self.rawtext_state(input, sink),
                State::ScriptData => self.script_data_state(input, sink),
                State::Plaintext => self.plaintext_state(input, sink),
                State::TagOpen => self.tag_open_state(input, sink),
                State::EndTagOpen => self.end_tag_open_state(input, sink),
                State::TagName => {
                    let flow = self.tag_states(input, sink);
                    Self::unless_paused(sink, flow)
                }
                State::RcdataLessThanSign => self.rcdata_less_than_sign_state(input, sink),
                State::RcdataEndTagOpen => self.rcdata_end_tag_open_state(input, sink),
                State::RcdataEndTagName => self.rcdata_end_tag_name_state(input, sink),
                State::RawtextLessThanSign => self.rawtext_less_than_sign_state(input, sink),
                State::RawtextEndTagOpen => self.rawtext_end_tag_open_state(input, sink),
                State::RawtextEndTagName => self.rawtext_end_tag_name_state(input, sink),
                State::ScriptDataLessThanSign => self.script_data_less_than_sign_state(input, sink),
                State::ScriptDataEndTagOpen => self.script_data_end_tag_open_state(input, sink),
                State::ScriptDataEndTagName => {
                    let flow = self.script_data_end_tag_name_state(input, sink);
                    Self::unless_paused(sink, flow)
                }
                State::ScriptDataEscapeStart => self.script_data_escape_start_state(input, sink),
                State::ScriptDataEscapeStartDash => {
                    self.script_data_escape_start_dash_state(input, sink)
                }
                State::ScriptDataEscaped => self.script_data_escaped_state(input, sink),
                State::ScriptDataEscapedDash => self.script_data_escaped_dash_state(input, sink),
                State::ScriptDataEscapedDashDash => {
                    self.script_data_escaped_dash_dash_state(input, sink)
                }
                State::ScriptDataEscapedLessThanSign => {
                    self.script_data_escaped_less_than_sign_state(input, sink)
                }
                State::ScriptDataEscapedEndTagOpen => {
                    self.script_data_escaped_end_tag_open_state(input, sink)
                }
                State::ScriptDataEscapedEndTagName => {
                    let flow = self.script_data_escaped_end_tag_name_state(input, sink);
                    Self::unless_paused(sink, flow)
                }
                State::ScriptDataDoubleEscapeStart => {
                    self.script_data_double_escape_start_state(input, sink)
                }
                State::ScriptDataDoubleEscaped => {
                    self.script_data_double_escaped_state(input, sink)
                }
                State::ScriptDataDoubleEscapedDash => {
                    self.script_data_double_escaped_dash_state(input, sink)
                }
                State::ScriptDataDoubleEscapedDashDash => {
                    self.script_data_double_escaped_dash_dash_state(input, sink)
                }
                State::ScriptDataDoubleEscapedLessThanSign => {
                    self.script_data_double_escaped_less_than_sign_state(input, sink)
                }
                State::ScriptDataDoubleEscapeEnd => {
                    self.script_data_double_escape_end_state(input, sink)
                }
                // The tag states: a fast path for the common cases, which hands anything else
                // to the states' own methods.
                State::BeforeAttributeName
                | State::AttributeName
                | State::AfterAttributeName
                | State::BeforeAttributeValue
                | State::AttributeValueDoubleQuoted
                | State::AttributeValueSingleQuoted
                | State::AttributeValueUnquoted
                | State::AfterAttributeValueQuoted
                | State::SelfClosingStartTag => {
                    let flow = self.tag_states(input, sink);
                    Self::unless_paused(sink, flow)
                }
                State::BogusComment => self.bogus_comment_state(input, sink),
                State::MarkupDeclarationOpen => self.markup_declaration_open_state(input, sink),
                State::CommentStart => self.comment_start_state(input, sink),
                State::CommentStartDash => self.comment_start_dash_state(input, sink),
                State::Comment => self.comment_state(input, sink),
                State::CommentLessThanSign => self.comment_less_than_sign_state(input, sink),
                State::CommentLessThanSignBang => {
                    self.comment_less_than_sign_bang_state(input, sink)
                }
                State::CommentLessThanSignBangDash => {
                    self.comment_less_than_sign_bang_dash_state(input, sink)
                }
                State::CommentLessThanSignBangDashDash => {
                    self.comment_less_than_sign_bang_dash_dash_state(input, sink)
                }
                State::CommentEndDash => self.comment_end_dash_state(input, sink),
                State::CommentEnd => self.comment_end_state(input, sink),
                State::CommentEndBang => self.comment_end_bang_state(input, sink),
                State::Doctype => self.doctype_state(input, sink),
                State::BeforeDoctypeName => self.before_doctype_name_state(input, sink),
                State::DoctypeName => self.doctype_name_state(input, sink),
                State::AfterDoctypeName => self.after_doctype_name_state(input, sink),
                State::AfterDoctypePublicKeyword => {
                    self.after_doctype_keyword_state(input, sink, Identifier::Public)
                }
                State::BeforeDoctypePublicIdentifier => {
                    self.before_doctype_identifier_state(input, sink, Identifier::Public)
                }
                State::DoctypePublicIdentifierDoubleQuoted => {
                    self.doctype_identifier_quoted_state(input, sink, Identifier::Public, b'"')
                }
                State::DoctypePublicIdentifierSingleQuoted => {
                    self.doctype_identifier_quoted_state(input, sink, Identifier::Public, b'\'')
                }
                State::AfterDoctypePublicIdentifier => {
                    self.after_doctype_public_identifier_state(input, sink)
                }
                State::BetweenDoctypePublicAndSystemIdentifiers => {
                    self.between_doctype_public_and_system_identifiers_state(input, sink)
                }
                State::AfterDoctypeSystemKeyword => {
                    self.after_doctype_keyword_state(input, sink, Identifier::System)
                }
                State::BeforeDoctypeSystemIdentifier => {
                    self.before_doctype_identifier_state(input, sink, Identifier::System)
                }
                State::DoctypeSystemIdentifierDoubleQuoted => {
                    self.doctype_identifier_quoted_state(input, sink, Identifier::System, b'"')
                }
                State::DoctypeSystemIdentifierSingleQuoted => {
                    self.doctype_identifier_quoted_state(input, sink, Identifier::System, b'\'')
                }
                State::AfterDoctypeSystemIdentifier => {
                    self.after_doctype_system_identifier_state(input, sink)
                }
                State::BogusDoctype => self.bogus_doctype_state(input, sink),
                State::CdataSection => self.cdata_section_state(input, sink),
                State::CdataSectionBracket => self.cdata_section_bracket_state(input, sink),
                State::CdataSectionEnd => self.cdata_section_end_state(input, sink),
                State::ProcessingInstructionOpen => {
                    self.processing_instruction_open_state(input, sink)
                }
                State::ProcessingInstructionTarget => {
                    self.processing_instruction_target_state(input, sink)
                }
                State::AfterProcessingInstructionTarget => {
                    self.after_processing_instruction_target_state(input, sink)
                }
                State::ProcessingInstructionData => {
                    self.processing_instruction_data_state(input, sink)
                }
                State::ProcessingInstructionQuestionable => {
                    self.processing_instruction_questionable_state(input, sink)
                }
                State::CharacterReference => self.character_reference_state(input, sink),
                State::NamedCharacterReference => self.named_character_reference_state(input, sink),
                State::AmbiguousAmpersand => self.ambiguous_ampersand_state(input, sink),
                State::NumericCharacterReference => {
                    self.numeric_character_reference_state(input, sink)
                }
                State::HexadecimalCharacterReferenceStart => {
                    self.hexadecimal_character_reference_start_state(input, sink)
                }
                State::HexadecimalCharacterReference => {
                    self.hexadecimal_character_reference_state(input, sink)
                }
                State::DecimalCharacterReference => {
                    self.decimal_character_reference_state(input, sink)
                }
                State::NumericCharacterReferenceEnd => {
                    self.numeric_character_reference_end_state(input, sink)
                }
            };
            if flow != Flow::Continue {
                return flow;
            }
        }
    }

    /// "Before each step of the tokenizer, the user agent must first check the parser pause
    /// flag" (13.2.5): the sink asks to stop after a script's end tag, which only the states
    /// checked with this emit (the end tag name states of script data, and the tag states
    /// for `</script ...>`), so only they pay for the check.
    #[inline(always)]
    fn unless_paused<S: TokenSink>(sink: &S, flow: Flow) -> Flow {
        if flow == Flow::Continue && sink.pause_requested() {
            Flow::Paused
        } else {
            flow
        }
    }

    // ---------------------------------------------------------------------------------------
    // Reading input.

    /// The next input character (CR normalized), reporting an input-stream parse error the
    /// first time the tokenizer reaches a control or noncharacter.
    #[inline]
    pub(crate) fn peek<S: TokenSink>(&mut self, input: &mut Input<'_>, sink: &mut S) -> Peek {
        let p = input.peek();
        if let Peek::Char(_, Some(kind @ (Special::Control | Special::Noncharacter))) = p {
            self.report_input_stream_error(input, sink, kind);
        }
        p
    }

    /// 13.2.3.5: "Any occurrences of noncharacters are noncharacter-in-input-stream parse
    /// errors and any occurrences of controls other than ASCII whitespace and U+0000 NULL
    /// characters are control-character-in-input-stream parse errors", reported once, when
    /// the tokenizer first reaches the character.
    fn report_input_stream_error<S: TokenSink>(
        &mut self,
        input: &Input<'_>,
        sink: &mut S,
        kind: Special,
    ) {
        let at = input.offset();
        if at >= self.input_errors_before {
            self.input_errors_before = at + 1;
            let code = if kind == Special::Control {
                ErrorCode::ControlCharacterInInputStream
            } else {
                ErrorCode::NoncharacterInInputStream
            };
            self.error_at(input, sink, code, at);
        }
    }

    // ---------------------------------------------------------------------------------------
    // Errors.

    /// Reports a parse error at stream offset `offset`.
    #[inline]
    pub(crate) fn error_at<S: TokenSink>(
        &mut self,
        input: &Input<'_>,
        sink: &mut S,
        code: ErrorCode,
        offset: usize,
    ) {
        let (line, column) = if self.options.error_positions {
            self.line_col.position_in(input.text, input.base, offset)
        } else {
            (0, 0)
        };
        sink.parse_error(ParseError {
            code,
            line,
            column,
            offset,
            detail: None,
        });
    }

    /// Reports a parse error at the next input character (after any input-stream error of
    /// that character, which comes first).
    #[inline]
    pub(crate) fn error<S: TokenSink>(&mut self, input: &Input<'_>, sink: &mut S, code: ErrorCode) {
        if let Peek::Char(_, Some(kind @ (Special::Control | Special::Noncharacter))) = input.peek()
        {
            self.report_input_stream_error(input, sink, kind);
        }
        self.error_at(input, sink, code, input.offset());
    }

    // ---------------------------------------------------------------------------------------
    // Emitting tokens.

    #[inline]
    fn apply(&mut self, result: TokenSinkResult) {
        match result {
            TokenSinkResult::Continue => {}
            TokenSinkResult::SwitchTo(state) => self.state = state,
        }
    }

    /// Emits character tokens for `text`, which came from input `start..end`.
    #[inline]
    pub(crate) fn emit_chars<S: TokenSink>(
        &mut self,
        sink: &mut S,
        text: &str,
        start: usize,
        end: usize,
        verbatim: bool,
    ) {
        if text.is_empty() {
            return;
        }
        let r = sink.process_token(Token::Characters {
            text,
            span: Span::new(start, end),
            verbatim,
        });
        self.apply(r);
    }

    /// Emits the next input character (which must be available and not U+0000) as a
    /// character token, and consumes it.
    #[inline]
    pub(crate) fn emit_current<S: TokenSink>(&mut self, input: &mut Input<'_>, sink: &mut S) {
        let start = input.offset();
        let pos = input.pos;
        let is_cr = input.rest_bytes().first() == Some(&b'\r');
        input.advance();
        if is_cr {
            self.emit_chars(sink, "\n", start, input.offset(), false);
        } else {
            let text = &input.text[pos..input.pos];
            self.emit_chars(sink, text, start, input.offset(), true);
        }
    }

    /// Emits `text` (a fixed string such as `"<"` or `"\u{FFFD}"`), which stands for input
    /// `start..end`. When that input is exactly `text` in the current chunk, the token is
    /// marked verbatim.
    #[inline]
    pub(crate) fn emit_str<S: TokenSink>(
        &mut self,
        input: &Input<'_>,
        sink: &mut S,
        text: &str,
        start: usize,
        end: usize,
    ) {
        let verbatim = start >= input.base
            && end <= input.end_offset()
            && input.text.get(start - input.base..end - input.base) == Some(text);
        self.emit_chars(sink, text, start, end, verbatim);
    }

    /// Emits the U+0000 NULL character token at `offset`.
    #[inline]
    pub(crate) fn emit_null<S: TokenSink>(&mut self, sink: &mut S, offset: usize) {
        let r = sink.process_token(Token::NullCharacter {
            span: Span::new(offset, offset + 1),
        });
        self.apply(r);
    }

    /// Emits the current tag token; `end` is the stream offset just past its `>`.
    pub(crate) fn emit_tag<S: TokenSink>(&mut self, input: &Input<'_>, sink: &mut S, end: usize) {
        let kind = self.tag.kind;
        if kind == TagKind::End && (self.tag.has_attrs() || self.tag.self_closing) {
            let gt = end.saturating_sub(1);
            // 13.2.5: "When an end tag token is emitted with attributes, that is an
            // end-tag-with-attributes parse error" (and likewise the self-closing flag).
            if self.tag.has_attrs() {
                self.error_at(input, sink, ErrorCode::EndTagWithAttributes, gt);
            }
            if self.tag.self_closing {
                self.error_at(input, sink, ErrorCode::EndTagWithTrailingSolidus, gt);
            }
        }
        // The tag is complete: its duplicate checks are over.
        self.tag.finish();
        let name = self.tag.name(input.text, input.base);
        let name_id = LocalName::from_static_str(name);
        if kind == TagKind::Start {
            self.last_start_tag.set(name, name_id);
        }
        let view = self.tag.view(name, name_id, input.text, input.base, end);
        let token = if kind == TagKind::Start {
            Token::StartTag(view)
        } else {
            Token::EndTag(view)
        };
        let r = sink.process_token(token);
        self.apply(r);
    }

    /// Emits the current comment token; `end` is the stream offset just past it.
    pub(crate) fn emit_comment<S: TokenSink>(&mut self, sink: &mut S, end: usize) {
        let r = sink.process_token(Token::Comment {
            data: &self.comment,
            span: Span::new(self.comment_start, end),
        });
        self.apply(r);
    }

    /// Emits the current DOCTYPE token.
    pub(crate) fn emit_doctype<S: TokenSink>(&mut self, sink: &mut S, end: usize) {
        let d = &self.doctype;
        let r = sink.process_token(Token::Doctype(Doctype {
            name: d.name.as_deref(),
            public_id: d.public_id.as_deref(),
            system_id: d.system_id.as_deref(),
            force_quirks: d.force_quirks,
            span: Span::new(d.start, end),
        }));
        self.apply(r);
    }

    /// Emits the current processing instruction token.
    pub(crate) fn emit_processing_instruction<S: TokenSink>(&mut self, sink: &mut S, end: usize) {
        let r = sink.process_token(Token::ProcessingInstruction {
            target: &self.pi_target,
            data: &self.pi_data,
            span: Span::new(self.pi_start, end),
        });
        self.apply(r);
    }

    /// Emits the end-of-file token.
    pub(crate) fn emit_eof<S: TokenSink>(&mut self, input: &Input<'_>, sink: &mut S) -> Flow {
        let r = sink.process_token(Token::Eof {
            offset: input.offset(),
        });
        self.apply(r);
        Flow::Done
    }

    /// 13.2.5: "An appropriate end tag token is an end tag token whose tag name matches the
    /// tag name of the last start tag to have been emitted from this tokenizer, if any."
    #[inline]
    pub(crate) fn is_appropriate_end_tag(&self, input: &Input<'_>) -> bool {
        self.last_start_tag
            .is(self.tag.name(input.text, input.base))
    }
}

/// Which DOCTYPE identifier a state works on.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Identifier {
    Public,
    System,
}

#[cfg(test)]
mod fast_path_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_84_states() {
        assert_eq!(State::ALL.len(), 84);
    }
}
