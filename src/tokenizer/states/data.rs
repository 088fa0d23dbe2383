//! The text states: 13.2.5.1 to 13.2.5.5 (data, RCDATA, RAWTEXT, script data, PLAINTEXT) and
//! the less-than sign, end tag open and end tag name states of RCDATA, RAWTEXT and script data
//! (13.2.5.9 to 13.2.5.17).

use super::is_tokenizer_whitespace;
use crate::error::ErrorCode;
use crate::tokenizer::char_ref::{plain_ampersand, simple_char_ref};
use crate::tokenizer::input::{Input, Peek, Special};
use crate::tokenizer::token::TagKind;
use crate::tokenizer::{Flow, State, TokenSink, Tokenizer};

/// The text states differ in which characters end a run and where `<` leads.
#[derive(Copy, Clone, PartialEq, Eq)]
enum TextKind {
    Rcdata,
    Rawtext,
    ScriptData,
    Plaintext,
}

impl Tokenizer {
    /// 13.2.5.1 Data state
    #[inline(never)]
    pub(crate) fn data_state<S: TokenSink>(&mut self, input: &mut Input<'_>, sink: &mut S) -> Flow {
        loop {
            // "Anything else: Emit the current input character as a character token", for a
            // whole run of such characters at once. (Markup often follows markup directly.)
            let start = input.pos;
            loop {
                if input.rest_bytes().first() != Some(&b'<') {
                    let run = input.run_until(b"<&");
                    input.skip(run.len());
                }
                // An `&` that the character reference states would pass through as it is
                // (with the alphanumerics after it) is just more text.
                if input.rest_bytes().first() != Some(&b'&') || !self.fast_paths() {
                    break;
                }
                match plain_ampersand(input.ordinary_rest()) {
                    Some(n) => input.skip(n),
                    None => break,
                }
            }
            let after_text = input.pos > start;
            if after_text {
                let text = &input.text[start..input.pos];
                self.emit_chars(sink, text, input.base + start, input.offset(), true);
                if self.state != State::Data {
                    return Flow::Continue;
                }
            }
            let offset = input.offset();
            // 13.2.5.6 Tag open state and 13.2.5.7 End tag open state, for their common cases
            // (checked first): "ASCII alpha: Create a new start [end] tag token [...].
            // Reconsume in the tag name state." Then run the tag states right here.
            let kind = match input.rest_bytes() {
                [b'<', c, ..] if c.is_ascii_alphabetic() => Some(TagKind::Start),
                [b'<', b'/', c, ..] if c.is_ascii_alphabetic() => Some(TagKind::End),
                _ => None,
            };
            if let (Some(kind), true) = (kind, self.fast_paths()) {
                input.skip(if kind == TagKind::Start { 1 } else { 2 });
                self.markup_start = offset;
                self.tag.reset(kind, offset);
                self.state = State::TagName;
                if !self.tag_states_fast(input, sink) {
                    let flow = self.tag_states(input, sink);
                    if flow != Flow::Continue {
                        return flow;
                    }
                }
                if self.state != State::Data {
                    return Flow::Continue;
                }
                continue;
            }
            if let (Some(r), true) = (simple_char_ref(input.rest_bytes()), self.fast_paths()) {
                // 13.2.5.77 Character reference state and the states after it, for a
                // reference they resolve without an error: "Flush code points consumed as a
                // character reference."
                input.skip(r.len);
                self.emit_chars(sink, r.chars(&mut [0; 4]), offset, offset + r.len, false);
                if self.state != State::Data {
                    return Flow::Continue;
                }
                continue;
            }
            if input.rest_bytes().starts_with(b"\r\n") && self.fast_paths() {
                if self.crlf_in_text(input, sink, after_text) != State::Data {
                    return Flow::Continue;
                }
                continue;
            }
            match self.peek(input, sink) {
                Peek::Char('&', _) => {
                    input.advance();
                    self.return_state = State::Data;
                    self.char_ref_start = offset;
                    self.state = State::CharacterReference;
                    return Flow::Continue;
                }
                Peek::Char('<', _) => {
                    input.advance();
                    self.markup_start = offset;
                    self.state = State::TagOpen;
                    return Flow::Continue;
                }
                Peek::Char(_, Some(Special::Null)) => {
                    self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
                    input.advance();
                    self.emit_null(sink, offset);
                }
                Peek::Char(..) => self.emit_current(input, sink),
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => return self.emit_eof(input, sink),
            }
            if self.state != State::Data {
                return Flow::Continue;
            }
        }
    }

    /// 13.2.3.5: a CRLF pair (at `input.pos`) in a text state reads as one LF. Right after
    /// text, the CR is dropped and the LF starts the next run (still a slice of the input,
    /// not a token of its own); else the pair is an LF token spanning both (where a text's
    /// span starts). Returns the state after.
    #[inline]
    fn crlf_in_text<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        after_text: bool,
    ) -> State {
        if after_text {
            input.skip(1);
        } else {
            let at = input.offset();
            input.skip(2);
            self.emit_chars(sink, "\n", at, at + 2, false);
        }
        self.state
    }

    /// 13.2.5.2 RCDATA state
    pub(crate) fn rcdata_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_state(input, sink, TextKind::Rcdata)
    }

    /// 13.2.5.3 RAWTEXT state
    pub(crate) fn rawtext_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_state(input, sink, TextKind::Rawtext)
    }

    /// 13.2.5.4 Script data state
    pub(crate) fn script_data_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_state(input, sink, TextKind::ScriptData)
    }

    /// 13.2.5.5 PLAINTEXT state
    pub(crate) fn plaintext_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_state(input, sink, TextKind::Plaintext)
    }

    /// The RCDATA, RAWTEXT, script data and PLAINTEXT states: they only differ in whether `&`
    /// starts a character reference and where `<` leads. U+0000 becomes U+FFFD in all four.
    fn text_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        kind: TextKind,
    ) -> Flow {
        let me = self.state;
        let stops: &[u8] = match kind {
            TextKind::Rcdata => b"<&",
            TextKind::Rawtext | TextKind::ScriptData => b"<",
            TextKind::Plaintext => b"",
        };
        loop {
            let run = input.run_until(stops);
            if !run.is_empty() {
                let start = input.offset();
                input.skip(run.len());
                self.emit_chars(sink, run, start, input.offset(), true);
                if self.state != me {
                    return Flow::Continue;
                }
            }
            if input.rest_bytes().starts_with(b"\r\n") && self.fast_paths() {
                if self.crlf_in_text(input, sink, !run.is_empty()) != me {
                    return Flow::Continue;
                }
                continue;
            }
            let offset = input.offset();
            match self.peek(input, sink) {
                Peek::Char('&', _) if kind == TextKind::Rcdata => {
                    input.advance();
                    self.return_state = me;
                    self.char_ref_start = offset;
                    self.state = State::CharacterReference;
                    return Flow::Continue;
                }
                Peek::Char('<', _) if kind != TextKind::Plaintext => {
                    input.advance();
                    self.markup_start = offset;
                    self.state = match kind {
                        TextKind::Rcdata => State::RcdataLessThanSign,
                        TextKind::Rawtext => State::RawtextLessThanSign,
                        _ => State::ScriptDataLessThanSign,
                    };
                    return Flow::Continue;
                }
                Peek::Char(_, Some(Special::Null)) => {
                    // "This is an unexpected-null-character parse error. Emit a U+FFFD
                    // REPLACEMENT CHARACTER character token."
                    self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
                    input.advance();
                    self.emit_chars(sink, "\u{FFFD}", offset, offset + 1, false);
                }
                Peek::Char(..) => self.emit_current(input, sink),
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => return self.emit_eof(input, sink),
            }
            if self.state != me {
                return Flow::Continue;
            }
        }
    }

    /// 13.2.5.9 RCDATA less-than sign state
    pub(crate) fn rcdata_less_than_sign_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_less_than_sign_state(input, sink, State::Rcdata, State::RcdataEndTagOpen)
    }

    /// 13.2.5.12 RAWTEXT less-than sign state
    pub(crate) fn rawtext_less_than_sign_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_less_than_sign_state(input, sink, State::Rawtext, State::RawtextEndTagOpen)
    }

    /// 13.2.5.9 and 13.2.5.12: `/` starts an end tag; anything else was a plain `<`.
    fn text_less_than_sign_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        text_state: State,
        end_tag_open: State,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('/', _) => {
                input.advance();
                self.temp.clear();
                self.state = end_tag_open;
            }
            Peek::NeedMore => return Flow::Suspend,
            _ => {
                self.state = text_state;
                let lt = self.markup_start;
                self.emit_str(input, sink, "<", lt, lt + 1);
            }
        }
        Flow::Continue
    }

    /// 13.2.5.15 Script data less-than sign state
    pub(crate) fn script_data_less_than_sign_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        let lt = self.markup_start;
        match self.peek(input, sink) {
            Peek::Char('/', _) => {
                input.advance();
                self.temp.clear();
                self.state = State::ScriptDataEndTagOpen;
            }
            Peek::Char('!', _) => {
                input.advance();
                self.state = State::ScriptDataEscapeStart;
                self.emit_str(input, sink, "<!", lt, lt + 2);
            }
            Peek::NeedMore => return Flow::Suspend,
            _ => {
                self.state = State::ScriptData;
                self.emit_str(input, sink, "<", lt, lt + 1);
            }
        }
        Flow::Continue
    }

    /// 13.2.5.10 RCDATA end tag open state
    pub(crate) fn rcdata_end_tag_open_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_end_tag_open_state(input, sink, State::Rcdata, State::RcdataEndTagName)
    }

    /// 13.2.5.13 RAWTEXT end tag open state
    pub(crate) fn rawtext_end_tag_open_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_end_tag_open_state(input, sink, State::Rawtext, State::RawtextEndTagName)
    }

    /// 13.2.5.16 Script data end tag open state
    pub(crate) fn script_data_end_tag_open_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_end_tag_open_state(input, sink, State::ScriptData, State::ScriptDataEndTagName)
    }

    /// The end tag open states of RCDATA, RAWTEXT, script data and script data escaped:
    /// an ASCII alpha starts an end tag; anything else emits `</` as text.
    pub(crate) fn text_end_tag_open_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        text_state: State,
        end_tag_name: State,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char(c, _) if c.is_ascii_alphabetic() => {
                self.tag.reset(TagKind::End, self.markup_start);
                self.state = end_tag_name;
            }
            Peek::NeedMore => return Flow::Suspend,
            _ => {
                self.state = text_state;
                let lt = self.markup_start;
                self.emit_str(input, sink, "</", lt, lt + 2);
            }
        }
        Flow::Continue
    }

    /// 13.2.5.11 RCDATA end tag name state
    pub(crate) fn rcdata_end_tag_name_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_end_tag_name_state(input, sink, State::Rcdata)
    }

    /// 13.2.5.14 RAWTEXT end tag name state
    pub(crate) fn rawtext_end_tag_name_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_end_tag_name_state(input, sink, State::Rawtext)
    }

    /// 13.2.5.17 Script data end tag name state
    pub(crate) fn script_data_end_tag_name_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_end_tag_name_state(input, sink, State::ScriptData)
    }

    /// The end tag name states of RCDATA, RAWTEXT, script data and script data escaped: the
    /// tag ends only if it is an appropriate end tag; otherwise `</` and the name so far are
    /// text.
    pub(crate) fn text_end_tag_name_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        text_state: State,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if c.is_ascii_alphabetic() => {
                    let start = input.offset();
                    input.advance();
                    self.tag
                        .push_tag_name_input(start, input.offset(), input.text, input.base);
                    self.temp.push(c);
                }
                Peek::Char(c, _)
                    if is_tokenizer_whitespace(c) && self.is_appropriate_end_tag(input) =>
                {
                    input.advance();
                    self.state = State::BeforeAttributeName;
                    return Flow::Continue;
                }
                Peek::Char('/', _) if self.is_appropriate_end_tag(input) => {
                    input.advance();
                    self.state = State::SelfClosingStartTag;
                    return Flow::Continue;
                }
                Peek::Char('>', _) if self.is_appropriate_end_tag(input) => {
                    input.advance();
                    self.state = State::Data;
                    self.emit_tag(input, sink, input.offset());
                    return Flow::Continue;
                }
                Peek::NeedMore => return Flow::Suspend,
                _ => {
                    // "Emit a U+003C LESS-THAN SIGN character token, a U+002F SOLIDUS
                    // character token, and a character token for each of the characters in
                    // the temporary buffer. Reconsume in the [text] state."
                    self.state = text_state;
                    self.emit_lt_solidus_temp(input, sink);
                    return Flow::Continue;
                }
            }
        }
    }

    /// Emits `</` and the temporary buffer, which stand for the input from `markup_start` to
    /// the current position.
    pub(crate) fn emit_lt_solidus_temp<S: TokenSink>(&mut self, input: &Input<'_>, sink: &mut S) {
        let start = self.markup_start;
        let end = input.offset();
        if start >= input.base {
            let text = &input.text[start - input.base..input.pos];
            self.emit_chars(sink, text, start, end, true);
        } else {
            let mut text = String::with_capacity(2 + self.temp.len());
            text.push_str("</");
            text.push_str(&self.temp);
            self.emit_chars(sink, &text, start, end, false);
        }
    }
}
