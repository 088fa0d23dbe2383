//! The CDATA section states: 13.2.5.69 to 13.2.5.71.

use crate::error::ErrorCode;
use crate::tokenizer::input::{Input, Peek, Special};
use crate::tokenizer::{Flow, State, TokenSink, Tokenizer};

impl Tokenizer {
    /// 13.2.5.69 CDATA section state
    pub(crate) fn cdata_section_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            let run = input.run_until(b"]");
            if !run.is_empty() {
                let start = input.offset();
                input.skip(run.len());
                self.emit_chars(sink, run, start, input.offset(), true);
                if self.state != State::CdataSection {
                    return Flow::Continue;
                }
            }
            let offset = input.offset();
            match self.peek(input, sink) {
                Peek::Char(']', _) => {
                    input.advance();
                    self.state = State::CdataSectionBracket;
                    return Flow::Continue;
                }
                // "U+0000 NULL characters are handled in the tree construction stage."
                Peek::Char(_, Some(Special::Null)) => {
                    input.advance();
                    self.emit_null(sink, offset);
                }
                Peek::Char(..) => self.emit_current(input, sink),
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => {
                    self.error(input, sink, ErrorCode::EofInCdata);
                    return self.emit_eof(input, sink);
                }
            }
            if self.state != State::CdataSection {
                return Flow::Continue;
            }
        }
    }

    /// 13.2.5.70 CDATA section bracket state
    pub(crate) fn cdata_section_bracket_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        let at = input.offset();
        match self.peek(input, sink) {
            Peek::Char(']', _) => {
                input.advance();
                self.state = State::CdataSectionEnd;
            }
            Peek::NeedMore => return Flow::Suspend,
            _ => {
                self.state = State::CdataSection;
                self.emit_str(input, sink, "]", at - 1, at);
            }
        }
        Flow::Continue
    }

    /// 13.2.5.71 CDATA section end state
    pub(crate) fn cdata_section_end_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            let at = input.offset();
            match self.peek(input, sink) {
                Peek::Char(']', _) => {
                    input.advance();
                    // The first of the three brackets is text; the last two may still end the
                    // section.
                    self.emit_str(input, sink, "]", at - 2, at - 1);
                    if self.state != State::CdataSectionEnd {
                        return Flow::Continue;
                    }
                }
                Peek::Char('>', _) => {
                    input.advance();
                    self.state = State::Data;
                    return Flow::Continue;
                }
                Peek::NeedMore => return Flow::Suspend,
                _ => {
                    self.state = State::CdataSection;
                    self.emit_str(input, sink, "]]", at - 2, at);
                    return Flow::Continue;
                }
            }
        }
    }
}
