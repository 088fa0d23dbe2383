//! The tag states: 13.2.5.6 to 13.2.5.8 (tag open, end tag open, tag name) and 13.2.5.32 to
//! 13.2.5.40 (attributes and the self-closing flag).

use super::is_tokenizer_whitespace;
use crate::error::ErrorCode;
use crate::tokenizer::input::{Input, Peek, Special};
use crate::tokenizer::token::TagKind;
use crate::tokenizer::{Flow, State, TokenSink, Tokenizer};

/// Bytes that end a run of ordinary tag or attribute name characters.
#[inline]
fn ends_name(b: u8) -> bool {
    matches!(
        b,
        b'\t' | b'\n' | 0x0C | b' ' | b'/' | b'>' | b'=' | b'"' | b'\'' | b'<'
    )
}

/// Bytes that end a run of ordinary unquoted attribute value characters.
#[inline]
fn ends_unquoted_value(b: u8) -> bool {
    matches!(
        b,
        b'\t' | b'\n' | 0x0C | b' ' | b'&' | b'>' | b'"' | b'\'' | b'<' | b'=' | b'`'
    )
}

impl Tokenizer {
    /// 13.2.5.6 Tag open state
    pub(crate) fn tag_open_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        let lt = self.markup_start;
        match self.peek(input, sink) {
            Peek::Char('!', _) => {
                input.advance();
                self.state = State::MarkupDeclarationOpen;
            }
            Peek::Char('/', _) => {
                input.advance();
                self.state = State::EndTagOpen;
            }
            Peek::Char(c, _) if c.is_ascii_alphabetic() => {
                self.tag.reset(TagKind::Start, lt);
                self.state = State::TagName;
            }
            Peek::Char('?', _) => {
                input.advance();
                self.temp.clear();
                self.state = State::ProcessingInstructionOpen;
            }
            Peek::Char(..) => {
                self.error(input, sink, ErrorCode::InvalidFirstCharacterOfTagName);
                self.state = State::Data;
                self.emit_str(input, sink, "<", lt, lt + 1);
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => {
                self.error(input, sink, ErrorCode::EofBeforeTagName);
                self.emit_str(input, sink, "<", lt, lt + 1);
                return self.emit_eof(input, sink);
            }
        }
        Flow::Continue
    }

    /// 13.2.5.7 End tag open state
    pub(crate) fn end_tag_open_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        let lt = self.markup_start;
        match self.peek(input, sink) {
            Peek::Char(c, _) if c.is_ascii_alphabetic() => {
                self.tag.reset(TagKind::End, lt);
                self.state = State::TagName;
            }
            Peek::Char('>', _) => {
                self.error(input, sink, ErrorCode::MissingEndTagName);
                input.advance();
                self.state = State::Data;
            }
            Peek::Char(..) => {
                self.error(input, sink, ErrorCode::InvalidFirstCharacterOfTagName);
                self.comment.clear();
                self.comment_start = lt;
                self.state = State::BogusComment;
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => {
                self.error(input, sink, ErrorCode::EofBeforeTagName);
                self.emit_str(input, sink, "</", lt, lt + 2);
                return self.emit_eof(input, sink);
            }
        }
        Flow::Continue
    }

    /// Consumes a run of ordinary name characters (no delimiter, no special character).
    #[inline]
    fn name_run(input: &mut Input<'_>) {
        let limit = input.next_special() - input.pos;
        let bytes = input.rest_bytes();
        let len = bytes[..limit]
            .iter()
            .position(|&b| ends_name(b))
            .unwrap_or(limit);
        input.skip(len);
    }

    /// 13.2.5.8 Tag name state
    pub(crate) fn tag_name_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            // "ASCII upper alpha: Append the lowercase version [...]. Anything else: Append the
            // current input character", for a run of such characters.
            let start = input.offset();
            Self::name_run(input);
            self.tag
                .push_tag_name_input(start, input.offset(), input.text, input.base);
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) => {
                    input.advance();
                    self.state = State::BeforeAttributeName;
                    return Flow::Continue;
                }
                Peek::Char('/', _) => {
                    input.advance();
                    self.state = State::SelfClosingStartTag;
                    return Flow::Continue;
                }
                Peek::Char('>', _) => {
                    input.advance();
                    self.state = State::Data;
                    self.emit_tag(input, sink, input.offset());
                    return Flow::Continue;
                }
                Peek::Char(_, Some(Special::Null)) => {
                    self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
                    input.advance();
                    self.tag
                        .push_tag_name_char('\u{FFFD}', input.text, input.base);
                }
                Peek::Char(..) => {
                    // `=`, `"`, `'`, `<`, or a control or noncharacter (CR reads as LF, which
                    // is whitespace): appended as it is.
                    let start = input.offset();
                    input.advance();
                    self.tag
                        .push_tag_name_input(start, input.offset(), input.text, input.base);
                }
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => {
                    self.error(input, sink, ErrorCode::EofInTag);
                    return self.emit_eof(input, sink);
                }
            }
        }
    }

    /// 13.2.5.32 Before attribute name state
    pub(crate) fn before_attribute_name_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            let offset = input.offset();
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) => input.advance(),
                Peek::Char('/' | '>', _) | Peek::Eof => {
                    self.state = State::AfterAttributeName;
                    return Flow::Continue;
                }
                Peek::Char('=', _) => {
                    self.error(
                        input,
                        sink,
                        ErrorCode::UnexpectedEqualsSignBeforeAttributeName,
                    );
                    input.advance();
                    self.tag.start_attr(offset);
                    self.tag
                        .push_name_input(offset, offset + 1, input.text, input.base);
                    self.state = State::AttributeName;
                    return Flow::Continue;
                }
                Peek::Char(..) => {
                    self.tag.start_attr(offset);
                    self.state = State::AttributeName;
                    return Flow::Continue;
                }
                Peek::NeedMore => return Flow::Suspend,
            }
        }
    }

    /// 13.2.5.33 Attribute name state
    pub(crate) fn attribute_name_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            let start = input.offset();
            Self::name_run(input);
            self.tag
                .push_name_input(start, input.offset(), input.text, input.base);
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) || c == '/' || c == '>' => {
                    self.leave_attribute_name(input, sink);
                    self.state = State::AfterAttributeName;
                    return Flow::Continue;
                }
                Peek::Eof => {
                    self.leave_attribute_name(input, sink);
                    self.state = State::AfterAttributeName;
                    return Flow::Continue;
                }
                Peek::Char('=', _) => {
                    self.leave_attribute_name(input, sink);
                    input.advance();
                    self.state = State::BeforeAttributeValue;
                    return Flow::Continue;
                }
                Peek::Char(_, Some(Special::Null)) => {
                    self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
                    input.advance();
                    self.tag.push_name_char('\u{FFFD}', input.text, input.base);
                }
                Peek::Char('"' | '\'' | '<', _) => {
                    self.error(input, sink, ErrorCode::UnexpectedCharacterInAttributeName);
                    let start = input.offset();
                    input.advance();
                    self.tag
                        .push_name_input(start, input.offset(), input.text, input.base);
                }
                Peek::Char(..) => {
                    // A control or noncharacter (CR reads as LF, which is whitespace).
                    let start = input.offset();
                    input.advance();
                    self.tag
                        .push_name_input(start, input.offset(), input.text, input.base);
                }
                Peek::NeedMore => return Flow::Suspend,
            }
        }
    }

    /// "When the user agent leaves the attribute name state [...] if there is already an
    /// attribute on the token with the exact same name, then this is a duplicate-attribute
    /// parse error and the new attribute must be removed from the token."
    pub(super) fn leave_attribute_name<S: TokenSink>(&mut self, input: &Input<'_>, sink: &mut S) {
        if self
            .tag
            .finish_attr_name(input.offset(), input.text, input.base)
        {
            self.error(input, sink, ErrorCode::DuplicateAttribute);
        }
    }

    /// 13.2.5.34 After attribute name state
    pub(crate) fn after_attribute_name_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            let offset = input.offset();
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) => input.advance(),
                Peek::Char('/', _) => {
                    input.advance();
                    self.state = State::SelfClosingStartTag;
                    return Flow::Continue;
                }
                Peek::Char('=', _) => {
                    input.advance();
                    self.state = State::BeforeAttributeValue;
                    return Flow::Continue;
                }
                Peek::Char('>', _) => {
                    input.advance();
                    self.state = State::Data;
                    self.emit_tag(input, sink, input.offset());
                    return Flow::Continue;
                }
                Peek::Char(..) => {
                    self.tag.start_attr(offset);
                    self.state = State::AttributeName;
                    return Flow::Continue;
                }
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => {
                    self.error(input, sink, ErrorCode::EofInTag);
                    return self.emit_eof(input, sink);
                }
            }
        }
    }

    /// 13.2.5.35 Before attribute value state
    pub(crate) fn before_attribute_value_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) => input.advance(),
                Peek::Char('"', _) => {
                    input.advance();
                    self.state = State::AttributeValueDoubleQuoted;
                    return Flow::Continue;
                }
                Peek::Char('\'', _) => {
                    input.advance();
                    self.state = State::AttributeValueSingleQuoted;
                    return Flow::Continue;
                }
                Peek::Char('>', _) => {
                    self.error(input, sink, ErrorCode::MissingAttributeValue);
                    input.advance();
                    self.state = State::Data;
                    self.emit_tag(input, sink, input.offset());
                    return Flow::Continue;
                }
                Peek::NeedMore => return Flow::Suspend,
                _ => {
                    self.state = State::AttributeValueUnquoted;
                    return Flow::Continue;
                }
            }
        }
    }

    /// Appends the next input character (a special one: CR, control or noncharacter) to the
    /// current attribute's value, and consumes it.
    fn push_current_to_value(&mut self, input: &mut Input<'_>) {
        let start = input.offset();
        let is_cr = input.rest_bytes().first() == Some(&b'\r');
        input.advance();
        if is_cr {
            self.tag.push_value_str("\n", input.text, input.base);
        } else {
            self.tag
                .push_value_input(start, input.offset(), input.text, input.base);
        }
    }

    /// 13.2.5.36 Attribute value (double-quoted) state and 13.2.5.37 Attribute value
    /// (single-quoted) state.
    pub(crate) fn attribute_value_quoted_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        quote: u8,
    ) -> Flow {
        let me = self.state;
        let stops = [quote, b'&'];
        loop {
            let run = input.run_until(&stops);
            if !run.is_empty() {
                let start = input.offset();
                input.skip(run.len());
                self.tag
                    .push_value_input(start, input.offset(), input.text, input.base);
            }
            let offset = input.offset();
            match self.peek(input, sink) {
                Peek::Char(c, None) if c as u32 == u32::from(quote) => {
                    input.advance();
                    self.state = State::AfterAttributeValueQuoted;
                    return Flow::Continue;
                }
                Peek::Char('&', _) => {
                    input.advance();
                    self.return_state = me;
                    self.char_ref_start = offset;
                    self.state = State::CharacterReference;
                    return Flow::Continue;
                }
                Peek::Char(_, Some(Special::Null)) => {
                    self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
                    input.advance();
                    self.tag.push_value_str("\u{FFFD}", input.text, input.base);
                }
                Peek::Char(..) => self.push_current_to_value(input),
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => {
                    self.error(input, sink, ErrorCode::EofInTag);
                    return self.emit_eof(input, sink);
                }
            }
        }
    }

    /// 13.2.5.38 Attribute value (unquoted) state
    pub(crate) fn attribute_value_unquoted_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            let limit = input.next_special() - input.pos;
            let len = input.rest_bytes()[..limit]
                .iter()
                .position(|&b| ends_unquoted_value(b))
                .unwrap_or(limit);
            if len > 0 {
                let start = input.offset();
                input.skip(len);
                self.tag
                    .push_value_input(start, input.offset(), input.text, input.base);
            }
            let offset = input.offset();
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) => {
                    input.advance();
                    self.state = State::BeforeAttributeName;
                    return Flow::Continue;
                }
                Peek::Char('&', _) => {
                    input.advance();
                    self.return_state = State::AttributeValueUnquoted;
                    self.char_ref_start = offset;
                    self.state = State::CharacterReference;
                    return Flow::Continue;
                }
                Peek::Char('>', _) => {
                    input.advance();
                    self.state = State::Data;
                    self.emit_tag(input, sink, input.offset());
                    return Flow::Continue;
                }
                Peek::Char(_, Some(Special::Null)) => {
                    self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
                    input.advance();
                    self.tag.push_value_str("\u{FFFD}", input.text, input.base);
                }
                Peek::Char('"' | '\'' | '<' | '=' | '`', _) => {
                    self.error(
                        input,
                        sink,
                        ErrorCode::UnexpectedCharacterInUnquotedAttributeValue,
                    );
                    self.push_current_to_value(input);
                }
                Peek::Char(..) => self.push_current_to_value(input),
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => {
                    self.error(input, sink, ErrorCode::EofInTag);
                    return self.emit_eof(input, sink);
                }
            }
        }
    }

    /// 13.2.5.39 After attribute value (quoted) state
    pub(crate) fn after_attribute_value_quoted_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char(c, _) if is_tokenizer_whitespace(c) => {
                input.advance();
                self.state = State::BeforeAttributeName;
            }
            Peek::Char('/', _) => {
                input.advance();
                self.state = State::SelfClosingStartTag;
            }
            Peek::Char('>', _) => {
                input.advance();
                self.state = State::Data;
                self.emit_tag(input, sink, input.offset());
            }
            Peek::Char(..) => {
                self.error(input, sink, ErrorCode::MissingWhitespaceBetweenAttributes);
                self.state = State::BeforeAttributeName;
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => {
                self.error(input, sink, ErrorCode::EofInTag);
                return self.emit_eof(input, sink);
            }
        }
        Flow::Continue
    }

    /// 13.2.5.40 Self-closing start tag state
    pub(crate) fn self_closing_start_tag_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('>', _) => {
                input.advance();
                self.tag.self_closing = true;
                self.state = State::Data;
                self.emit_tag(input, sink, input.offset());
            }
            Peek::Char(..) => {
                self.error(input, sink, ErrorCode::UnexpectedSolidusInTag);
                self.state = State::BeforeAttributeName;
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => {
                self.error(input, sink, ErrorCode::EofInTag);
                return self.emit_eof(input, sink);
            }
        }
        Flow::Continue
    }
}
