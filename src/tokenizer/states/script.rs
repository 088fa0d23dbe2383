//! The script data escape states: 13.2.5.18 to 13.2.5.31 (`<!--` and `<script>` inside
//! script data).

use super::is_tokenizer_whitespace;
use crate::error::ErrorCode;
use crate::tokenizer::input::{Input, Peek, Special};
use crate::tokenizer::token::TagKind;
use crate::tokenizer::{Flow, State, TokenSink, Tokenizer};

impl Tokenizer {
    /// 13.2.5.18 Script data escape start state
    pub(crate) fn script_data_escape_start_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.script_data_escape_start_common(input, sink, State::ScriptDataEscapeStartDash)
    }

    /// 13.2.5.19 Script data escape start dash state
    pub(crate) fn script_data_escape_start_dash_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.script_data_escape_start_common(input, sink, State::ScriptDataEscapedDashDash)
    }

    /// 13.2.5.18 and 13.2.5.19: a `-` moves on (and is emitted); anything else goes back to
    /// script data.
    fn script_data_escape_start_common<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        next: State,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('-', _) => {
                self.state = next;
                self.emit_current(input, sink);
            }
            Peek::NeedMore => return Flow::Suspend,
            _ => self.state = State::ScriptData,
        }
        Flow::Continue
    }

    /// 13.2.5.20 Script data escaped state
    pub(crate) fn script_data_escaped_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            let run = input.run_until(b"-<");
            if !run.is_empty() {
                let start = input.offset();
                input.skip(run.len());
                self.emit_chars(sink, run, start, input.offset(), true);
                if self.state != State::ScriptDataEscaped {
                    return Flow::Continue;
                }
            }
            match self.peek(input, sink) {
                Peek::Char('-', _) => {
                    self.state = State::ScriptDataEscapedDash;
                    self.emit_current(input, sink);
                    return Flow::Continue;
                }
                Peek::Char('<', _) => {
                    self.markup_start = input.offset();
                    input.advance();
                    self.state = State::ScriptDataEscapedLessThanSign;
                    return Flow::Continue;
                }
                Peek::Char(_, Some(Special::Null)) => self.emit_replacement_for_null(input, sink),
                Peek::Char(..) => self.emit_current(input, sink),
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => {
                    self.error(input, sink, ErrorCode::EofInScriptHtmlCommentLikeText);
                    return self.emit_eof(input, sink);
                }
            }
            if self.state != State::ScriptDataEscaped {
                return Flow::Continue;
            }
        }
    }

    /// "This is an unexpected-null-character parse error. Emit a U+FFFD REPLACEMENT
    /// CHARACTER character token." (consuming the U+0000)
    fn emit_replacement_for_null<S: TokenSink>(&mut self, input: &mut Input<'_>, sink: &mut S) {
        let offset = input.offset();
        self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
        input.advance();
        self.emit_chars(sink, "\u{FFFD}", offset, offset + 1, false);
    }

    /// 13.2.5.21 Script data escaped dash state
    pub(crate) fn script_data_escaped_dash_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('-', _) => {
                self.state = State::ScriptDataEscapedDashDash;
                self.emit_current(input, sink);
            }
            Peek::Char('<', _) => {
                self.markup_start = input.offset();
                input.advance();
                self.state = State::ScriptDataEscapedLessThanSign;
            }
            Peek::Char(_, Some(Special::Null)) => {
                self.state = State::ScriptDataEscaped;
                self.emit_replacement_for_null(input, sink);
            }
            Peek::Char(..) => {
                self.state = State::ScriptDataEscaped;
                self.emit_current(input, sink);
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => {
                self.error(input, sink, ErrorCode::EofInScriptHtmlCommentLikeText);
                return self.emit_eof(input, sink);
            }
        }
        Flow::Continue
    }

    /// 13.2.5.22 Script data escaped dash dash state
    pub(crate) fn script_data_escaped_dash_dash_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('-', _) => self.emit_current(input, sink),
            Peek::Char('<', _) => {
                self.markup_start = input.offset();
                input.advance();
                self.state = State::ScriptDataEscapedLessThanSign;
            }
            Peek::Char('>', _) => {
                self.state = State::ScriptData;
                self.emit_current(input, sink);
            }
            Peek::Char(_, Some(Special::Null)) => {
                self.state = State::ScriptDataEscaped;
                self.emit_replacement_for_null(input, sink);
            }
            Peek::Char(..) => {
                self.state = State::ScriptDataEscaped;
                self.emit_current(input, sink);
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => {
                self.error(input, sink, ErrorCode::EofInScriptHtmlCommentLikeText);
                return self.emit_eof(input, sink);
            }
        }
        Flow::Continue
    }

    /// 13.2.5.23 Script data escaped less-than sign state
    pub(crate) fn script_data_escaped_less_than_sign_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        let lt = self.markup_start;
        match self.peek(input, sink) {
            Peek::Char('/', _) => {
                input.advance();
                self.temp.clear();
                self.state = State::ScriptDataEscapedEndTagOpen;
            }
            Peek::Char(c, _) if c.is_ascii_alphabetic() => {
                self.temp.clear();
                self.state = State::ScriptDataDoubleEscapeStart;
                self.emit_str(input, sink, "<", lt, lt + 1);
            }
            Peek::NeedMore => return Flow::Suspend,
            _ => {
                self.state = State::ScriptDataEscaped;
                self.emit_str(input, sink, "<", lt, lt + 1);
            }
        }
        Flow::Continue
    }

    /// 13.2.5.24 Script data escaped end tag open state
    pub(crate) fn script_data_escaped_end_tag_open_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char(c, _) if c.is_ascii_alphabetic() => {
                self.tag.reset(TagKind::End, self.markup_start);
                self.state = State::ScriptDataEscapedEndTagName;
                Flow::Continue
            }
            Peek::NeedMore => Flow::Suspend,
            _ => {
                self.state = State::ScriptDataEscaped;
                let lt = self.markup_start;
                self.emit_str(input, sink, "</", lt, lt + 2);
                Flow::Continue
            }
        }
    }

    /// 13.2.5.25 Script data escaped end tag name state
    pub(crate) fn script_data_escaped_end_tag_name_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.text_end_tag_name_state(input, sink, State::ScriptDataEscaped)
    }

    /// 13.2.5.26 Script data double escape start state
    pub(crate) fn script_data_double_escape_start_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.script_data_double_escape_boundary(
            input,
            sink,
            State::ScriptDataDoubleEscaped,
            State::ScriptDataEscaped,
        )
    }

    /// 13.2.5.31 Script data double escape end state
    pub(crate) fn script_data_double_escape_end_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.script_data_double_escape_boundary(
            input,
            sink,
            State::ScriptDataEscaped,
            State::ScriptDataDoubleEscaped,
        )
    }

    /// 13.2.5.26 and 13.2.5.31: collect a tag name in the temporary buffer (emitting it as
    /// text); at its end, the state depends on whether the name was `script`.
    fn script_data_double_escape_boundary<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        if_script: State,
        otherwise: State,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) || c == '/' || c == '>' => {
                    self.state = if self.temp == "script" {
                        if_script
                    } else {
                        otherwise
                    };
                    self.emit_current(input, sink);
                    return Flow::Continue;
                }
                Peek::Char(c, _) if c.is_ascii_alphabetic() => {
                    self.temp.push(c.to_ascii_lowercase());
                    let me = self.state;
                    self.emit_current(input, sink);
                    if self.state != me {
                        return Flow::Continue;
                    }
                }
                Peek::NeedMore => return Flow::Suspend,
                _ => {
                    self.state = otherwise;
                    return Flow::Continue;
                }
            }
        }
    }

    /// 13.2.5.27 Script data double escaped state
    pub(crate) fn script_data_double_escaped_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            let run = input.run_until(b"-<");
            if !run.is_empty() {
                let start = input.offset();
                input.skip(run.len());
                self.emit_chars(sink, run, start, input.offset(), true);
                if self.state != State::ScriptDataDoubleEscaped {
                    return Flow::Continue;
                }
            }
            match self.peek(input, sink) {
                Peek::Char('-', _) => {
                    self.state = State::ScriptDataDoubleEscapedDash;
                    self.emit_current(input, sink);
                    return Flow::Continue;
                }
                Peek::Char('<', _) => {
                    self.state = State::ScriptDataDoubleEscapedLessThanSign;
                    self.emit_current(input, sink);
                    return Flow::Continue;
                }
                Peek::Char(_, Some(Special::Null)) => self.emit_replacement_for_null(input, sink),
                Peek::Char(..) => self.emit_current(input, sink),
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => {
                    self.error(input, sink, ErrorCode::EofInScriptHtmlCommentLikeText);
                    return self.emit_eof(input, sink);
                }
            }
            if self.state != State::ScriptDataDoubleEscaped {
                return Flow::Continue;
            }
        }
    }

    /// 13.2.5.28 Script data double escaped dash state
    pub(crate) fn script_data_double_escaped_dash_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.script_data_double_escaped_dashes(
            input,
            sink,
            State::ScriptDataDoubleEscapedDashDash,
            false,
        )
    }

    /// 13.2.5.29 Script data double escaped dash dash state
    pub(crate) fn script_data_double_escaped_dash_dash_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        self.script_data_double_escaped_dashes(
            input,
            sink,
            State::ScriptDataDoubleEscapedDashDash,
            true,
        )
    }

    /// 13.2.5.28 and 13.2.5.29, which differ only in `>` (which ends the double escape after
    /// two dashes) and where another `-` leads.
    fn script_data_double_escaped_dashes<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        after_dash: State,
        after_two_dashes: bool,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('-', _) => {
                self.state = after_dash;
                self.emit_current(input, sink);
            }
            Peek::Char('<', _) => {
                self.state = State::ScriptDataDoubleEscapedLessThanSign;
                self.emit_current(input, sink);
            }
            Peek::Char('>', _) if after_two_dashes => {
                self.state = State::ScriptData;
                self.emit_current(input, sink);
            }
            Peek::Char(_, Some(Special::Null)) => {
                self.state = State::ScriptDataDoubleEscaped;
                self.emit_replacement_for_null(input, sink);
            }
            Peek::Char(..) => {
                self.state = State::ScriptDataDoubleEscaped;
                self.emit_current(input, sink);
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => {
                self.error(input, sink, ErrorCode::EofInScriptHtmlCommentLikeText);
                return self.emit_eof(input, sink);
            }
        }
        Flow::Continue
    }

    /// 13.2.5.30 Script data double escaped less-than sign state
    pub(crate) fn script_data_double_escaped_less_than_sign_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char('/', _) => {
                self.temp.clear();
                self.state = State::ScriptDataDoubleEscapeEnd;
                self.emit_current(input, sink);
            }
            Peek::NeedMore => return Flow::Suspend,
            _ => self.state = State::ScriptDataDoubleEscaped,
        }
        Flow::Continue
    }
}
