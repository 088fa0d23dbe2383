//! The comment states: 13.2.5.41 Bogus comment, 13.2.5.42 Markup declaration open, and
//! 13.2.5.43 to 13.2.5.52.

use crate::error::ErrorCode;
use crate::tokenizer::input::{Input, Peek, Special};
use crate::tokenizer::{Flow, State, TokenSink, Tokenizer};

impl Tokenizer {
    /// Appends the next input character to the comment's data and consumes it (CR as LF).
    #[inline]
    fn push_current_to_comment(&mut self, input: &mut Input<'_>, c: char) {
        input.advance();
        self.comment.push(c);
    }

    /// 13.2.5.41 Bogus comment state
    pub(crate) fn bogus_comment_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            let run = input.run_until(b">");
            if !run.is_empty() {
                input.skip(run.len());
                self.comment.push_str(run);
            }
            match self.peek(input, sink) {
                Peek::Char('>', _) => {
                    input.advance();
                    self.state = State::Data;
                    self.emit_comment(sink, input.offset());
                    return Flow::Continue;
                }
                Peek::Char(_, Some(Special::Null)) => {
                    self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
                    self.push_current_to_comment(input, '\u{FFFD}');
                }
                Peek::Char(c, _) => self.push_current_to_comment(input, c),
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => {
                    self.emit_comment(sink, input.offset());
                    return self.emit_eof(input, sink);
                }
            }
        }
    }

    /// 13.2.5.42 Markup declaration open state
    pub(crate) fn markup_declaration_open_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        let dashes = input.starts_with(b"--", false);
        let doctype = input.starts_with(b"DOCTYPE", true);
        let cdata = input.starts_with(b"[CDATA[", false);
        if dashes == Some(true) {
            // "Consume those two characters, create a comment token whose data is the empty
            // string, and switch to the comment start state."
            input.skip(2);
            self.comment.clear();
            self.comment_start = self.markup_start;
            self.state = State::CommentStart;
        } else if doctype == Some(true) {
            input.skip(7);
            self.state = State::Doctype;
        } else if cdata == Some(true) {
            input.skip(7);
            if sink.adjusted_current_node_is_foreign() {
                self.state = State::CdataSection;
            } else {
                // Reported at the last character consumed, as the html5lib tests expect.
                let at = input.offset() - 1;
                self.error_at(input, sink, ErrorCode::CdataInHtmlContent, at);
                self.comment.clear();
                self.comment.push_str("[CDATA[");
                self.comment_start = self.markup_start;
                self.state = State::BogusComment;
            }
        } else if dashes.is_none() || doctype.is_none() || cdata.is_none() {
            return Flow::Suspend;
        } else {
            self.error(input, sink, ErrorCode::IncorrectlyOpenedComment);
            self.comment.clear();
            self.comment_start = self.markup_start;
            self.state = State::BogusComment;
        }
        Flow::Continue
    }

    /// 13.2.5.43 Comment start state
    pub(crate) fn comment_start_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('-', _) => {
                input.advance();
                self.state = State::CommentStartDash;
            }
            Peek::Char('>', _) => {
                self.error(input, sink, ErrorCode::AbruptClosingOfEmptyComment);
                input.advance();
                self.state = State::Data;
                self.emit_comment(sink, input.offset());
            }
            Peek::NeedMore => return Flow::Suspend,
            _ => self.state = State::Comment,
        }
        Flow::Continue
    }

    /// 13.2.5.44 Comment start dash state
    pub(crate) fn comment_start_dash_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('-', _) => {
                input.advance();
                self.state = State::CommentEnd;
            }
            Peek::Char('>', _) => {
                self.error(input, sink, ErrorCode::AbruptClosingOfEmptyComment);
                input.advance();
                self.state = State::Data;
                self.emit_comment(sink, input.offset());
            }
            Peek::Char(..) => {
                self.comment.push('-');
                self.state = State::Comment;
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => return self.eof_in_comment(input, sink),
        }
        Flow::Continue
    }

    /// "This is an eof-in-comment parse error. Emit the current comment token. Emit an
    /// end-of-file token."
    fn eof_in_comment<S: TokenSink>(&mut self, input: &Input<'_>, sink: &mut S) -> Flow {
        self.error(input, sink, ErrorCode::EofInComment);
        self.emit_comment(sink, input.offset());
        self.emit_eof(input, sink)
    }

    /// 13.2.5.45 Comment state
    pub(crate) fn comment_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            let run = input.run_until(b"<-");
            if !run.is_empty() {
                input.skip(run.len());
                self.comment.push_str(run);
            }
            match self.peek(input, sink) {
                Peek::Char('<', _) => {
                    self.push_current_to_comment(input, '<');
                    self.state = State::CommentLessThanSign;
                    return Flow::Continue;
                }
                Peek::Char('-', _) => {
                    input.advance();
                    self.state = State::CommentEndDash;
                    return Flow::Continue;
                }
                Peek::Char(_, Some(Special::Null)) => {
                    self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
                    self.push_current_to_comment(input, '\u{FFFD}');
                }
                Peek::Char(c, _) => self.push_current_to_comment(input, c),
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => return self.eof_in_comment(input, sink),
            }
        }
    }

    /// 13.2.5.46 Comment less-than sign state
    pub(crate) fn comment_less_than_sign_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char('!', _) => {
                    self.push_current_to_comment(input, '!');
                    self.state = State::CommentLessThanSignBang;
                    return Flow::Continue;
                }
                Peek::Char('<', _) => self.push_current_to_comment(input, '<'),
                Peek::NeedMore => return Flow::Suspend,
                _ => {
                    self.state = State::Comment;
                    return Flow::Continue;
                }
            }
        }
    }

    /// 13.2.5.47 Comment less-than sign bang state
    pub(crate) fn comment_less_than_sign_bang_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('-', _) => {
                input.advance();
                self.state = State::CommentLessThanSignBangDash;
            }
            Peek::NeedMore => return Flow::Suspend,
            _ => self.state = State::Comment,
        }
        Flow::Continue
    }

    /// 13.2.5.48 Comment less-than sign bang dash state
    pub(crate) fn comment_less_than_sign_bang_dash_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('-', _) => {
                input.advance();
                self.state = State::CommentLessThanSignBangDashDash;
            }
            Peek::NeedMore => return Flow::Suspend,
            _ => self.state = State::CommentEndDash,
        }
        Flow::Continue
    }

    /// 13.2.5.49 Comment less-than sign bang dash dash state
    pub(crate) fn comment_less_than_sign_bang_dash_dash_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('>', _) | Peek::Eof => {}
            Peek::NeedMore => return Flow::Suspend,
            Peek::Char(..) => self.error(input, sink, ErrorCode::NestedComment),
        }
        self.state = State::CommentEnd;
        Flow::Continue
    }

    /// 13.2.5.50 Comment end dash state
    pub(crate) fn comment_end_dash_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('-', _) => {
                input.advance();
                self.state = State::CommentEnd;
            }
            Peek::Char(..) => {
                self.comment.push('-');
                self.state = State::Comment;
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => return self.eof_in_comment(input, sink),
        }
        Flow::Continue
    }

    /// 13.2.5.51 Comment end state
    pub(crate) fn comment_end_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char('>', _) => {
                    input.advance();
                    self.state = State::Data;
                    self.emit_comment(sink, input.offset());
                    return Flow::Continue;
                }
                Peek::Char('!', _) => {
                    input.advance();
                    self.state = State::CommentEndBang;
                    return Flow::Continue;
                }
                Peek::Char('-', _) => self.push_current_to_comment(input, '-'),
                Peek::Char(..) => {
                    self.comment.push_str("--");
                    self.state = State::Comment;
                    return Flow::Continue;
                }
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => return self.eof_in_comment(input, sink),
            }
        }
    }

    /// 13.2.5.52 Comment end bang state
    pub(crate) fn comment_end_bang_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('-', _) => {
                input.advance();
                self.comment.push_str("--!");
                self.state = State::CommentEndDash;
            }
            Peek::Char('>', _) => {
                self.error(input, sink, ErrorCode::IncorrectlyClosedComment);
                input.advance();
                self.state = State::Data;
                self.emit_comment(sink, input.offset());
            }
            Peek::Char(..) => {
                self.comment.push_str("--!");
                self.state = State::Comment;
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => return self.eof_in_comment(input, sink),
        }
        Flow::Continue
    }
}
