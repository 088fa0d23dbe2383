//! The processing instruction states: 13.2.5.72 to 13.2.5.76 (whatwg/html 320c05f6, "Support
//! processing instructions in HTML").

use super::is_tokenizer_whitespace;
use crate::error::ErrorCode;
use crate::tokenizer::input::{Input, Peek};
use crate::tokenizer::{Flow, State, TokenSink, Tokenizer};

impl Tokenizer {
    /// "Convert the temporary buffer to a comment": a comment token whose data is `?` and the
    /// temporary buffer.
    fn convert_temp_to_comment(&mut self) {
        self.comment.clear();
        self.comment.push('?');
        self.comment.push_str(&self.temp);
        self.comment_start = self.markup_start;
    }

    /// 13.2.5.72 Processing instruction open state
    pub(crate) fn processing_instruction_open_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char(c, _) if c.is_ascii_alphabetic() || c == '_' => {
                self.state = State::ProcessingInstructionTarget;
            }
            Peek::Char(..) => {
                self.error(
                    input,
                    sink,
                    ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget,
                );
                self.convert_temp_to_comment();
                self.state = State::BogusComment;
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => {
                self.error(input, sink, ErrorCode::EofInProcessingInstruction);
                return self.emit_eof(input, sink);
            }
        }
        Flow::Continue
    }

    /// 13.2.5.73 Processing instruction target state
    pub(crate) fn processing_instruction_target_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) || c == '?' || c == '>' => {
                    let target = self.temp.as_str();
                    if target.eq_ignore_ascii_case("xml")
                        || target.eq_ignore_ascii_case("xml-stylesheet")
                    {
                        self.error(
                            input,
                            sink,
                            ErrorCode::DisallowedProcessingInstructionTarget,
                        );
                        self.convert_temp_to_comment();
                        self.state = State::BogusComment;
                    } else {
                        // "Create a processing instruction token whose target is target and
                        // data is the empty string."
                        self.pi_target.clear();
                        self.pi_target.push_str(&self.temp);
                        self.pi_data.clear();
                        self.pi_start = self.markup_start;
                        self.state = State::AfterProcessingInstructionTarget;
                    }
                    return Flow::Continue;
                }
                Peek::Char(c, _) if c.is_ascii_alphanumeric() || c == '-' || c == '_' => {
                    input.advance();
                    self.temp.push(c);
                }
                Peek::Char(..) => {
                    self.error(input, sink, ErrorCode::InvalidProcessingInstructionTarget);
                    self.convert_temp_to_comment();
                    self.state = State::BogusComment;
                    return Flow::Continue;
                }
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => {
                    self.error(input, sink, ErrorCode::EofInProcessingInstruction);
                    return self.emit_eof(input, sink);
                }
            }
        }
    }

    /// 13.2.5.74 After processing instruction target state
    pub(crate) fn after_processing_instruction_target_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) => input.advance(),
                Peek::NeedMore => return Flow::Suspend,
                _ => {
                    self.state = State::ProcessingInstructionData;
                    return Flow::Continue;
                }
            }
        }
    }

    /// 13.2.5.75 Processing instruction data state
    pub(crate) fn processing_instruction_data_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            let run = input.run_until(b"?>");
            if !run.is_empty() {
                input.skip(run.len());
                self.pi_data.push_str(run);
            }
            match self.peek(input, sink) {
                Peek::Char('?', _) => {
                    input.advance();
                    self.state = State::ProcessingInstructionQuestionable;
                    return Flow::Continue;
                }
                Peek::Char('>', _) => {
                    input.advance();
                    self.state = State::Data;
                    self.emit_processing_instruction(sink, input.offset());
                    return Flow::Continue;
                }
                // The state has no U+0000 entry: a NULL stays in the data, without an error.
                Peek::Char(c, _) => {
                    input.advance();
                    self.pi_data.push(c);
                }
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => {
                    self.error(input, sink, ErrorCode::EofInProcessingInstruction);
                    return self.emit_eof(input, sink);
                }
            }
        }
    }

    /// 13.2.5.76 Processing instruction questionable state
    pub(crate) fn processing_instruction_questionable_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('>', _) => {
                input.advance();
                self.state = State::Data;
                self.emit_processing_instruction(sink, input.offset());
            }
            Peek::Char(..) => {
                self.pi_data.push('?');
                self.state = State::ProcessingInstructionData;
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => {
                self.error(input, sink, ErrorCode::EofInProcessingInstruction);
                return self.emit_eof(input, sink);
            }
        }
        Flow::Continue
    }
}
