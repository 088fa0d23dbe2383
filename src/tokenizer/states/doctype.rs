//! The DOCTYPE states: 13.2.5.53 to 13.2.5.68.

use super::is_tokenizer_whitespace;
use crate::error::ErrorCode;
use crate::tokenizer::input::{Input, Peek, Special};
use crate::tokenizer::{DoctypeBuilder, Flow, Identifier, State, TokenSink, Tokenizer};

impl Tokenizer {
    /// "Create a new DOCTYPE token."
    fn new_doctype(&mut self) {
        self.doctype = DoctypeBuilder {
            start: self.markup_start,
            ..DoctypeBuilder::default()
        };
    }

    /// "This is an eof-in-doctype parse error. Set the current DOCTYPE token's force-quirks
    /// flag to on. Emit the current DOCTYPE token. Emit an end-of-file token."
    fn eof_in_doctype<S: TokenSink>(&mut self, input: &Input<'_>, sink: &mut S) -> Flow {
        self.error(input, sink, ErrorCode::EofInDoctype);
        self.doctype.force_quirks = true;
        self.emit_doctype(sink, input.offset());
        self.emit_eof(input, sink)
    }

    /// "Switch to the data state. Emit the current DOCTYPE token." (consuming the `>`)
    fn close_doctype<S: TokenSink>(&mut self, input: &mut Input<'_>, sink: &mut S) -> Flow {
        input.advance();
        self.state = State::Data;
        self.emit_doctype(sink, input.offset());
        Flow::Continue
    }

    /// "This is a \[code\] parse error. Set the current DOCTYPE token's force-quirks flag to on.
    /// Switch to the data state. Emit the current DOCTYPE token."
    fn abrupt_doctype<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        code: ErrorCode,
    ) -> Flow {
        self.error(input, sink, code);
        self.doctype.force_quirks = true;
        self.close_doctype(input, sink)
    }

    /// "This is a \[code\] parse error. Set the current DOCTYPE token's force-quirks flag to on.
    /// Reconsume in the bogus DOCTYPE state."
    fn enter_bogus_doctype<S: TokenSink>(
        &mut self,
        input: &Input<'_>,
        sink: &mut S,
        code: ErrorCode,
    ) -> Flow {
        self.error(input, sink, code);
        self.doctype.force_quirks = true;
        self.state = State::BogusDoctype;
        Flow::Continue
    }

    fn identifier_mut(&mut self, which: Identifier) -> &mut Option<String> {
        match which {
            Identifier::Public => &mut self.doctype.public_id,
            Identifier::System => &mut self.doctype.system_id,
        }
    }

    /// Starts an identifier (empty, not missing) and switches to its quoted state.
    fn start_identifier(&mut self, input: &mut Input<'_>, which: Identifier, quote: char) -> Flow {
        input.advance();
        *self.identifier_mut(which) = Some(String::new());
        self.state = match (which, quote) {
            (Identifier::Public, '"') => State::DoctypePublicIdentifierDoubleQuoted,
            (Identifier::Public, _) => State::DoctypePublicIdentifierSingleQuoted,
            (Identifier::System, '"') => State::DoctypeSystemIdentifierDoubleQuoted,
            (Identifier::System, _) => State::DoctypeSystemIdentifierSingleQuoted,
        };
        Flow::Continue
    }

    /// 13.2.5.53 DOCTYPE state
    pub(crate) fn doctype_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char(c, _) if is_tokenizer_whitespace(c) => {
                input.advance();
                self.state = State::BeforeDoctypeName;
            }
            Peek::Char('>', _) => self.state = State::BeforeDoctypeName,
            Peek::Char(..) => {
                self.error(input, sink, ErrorCode::MissingWhitespaceBeforeDoctypeName);
                self.state = State::BeforeDoctypeName;
            }
            Peek::NeedMore => return Flow::Suspend,
            Peek::Eof => {
                self.new_doctype();
                return self.eof_in_doctype(input, sink);
            }
        }
        Flow::Continue
    }

    /// 13.2.5.54 Before DOCTYPE name state
    pub(crate) fn before_doctype_name_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) => input.advance(),
                Peek::Char(_, Some(Special::Null)) => {
                    self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
                    input.advance();
                    self.new_doctype();
                    self.doctype.name = Some("\u{FFFD}".into());
                    self.state = State::DoctypeName;
                    return Flow::Continue;
                }
                Peek::Char('>', _) => {
                    self.new_doctype();
                    return self.abrupt_doctype(input, sink, ErrorCode::MissingDoctypeName);
                }
                Peek::Char(c, _) => {
                    input.advance();
                    self.new_doctype();
                    self.doctype.name = Some(c.to_ascii_lowercase().to_string());
                    self.state = State::DoctypeName;
                    return Flow::Continue;
                }
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => {
                    self.new_doctype();
                    return self.eof_in_doctype(input, sink);
                }
            }
        }
    }

    /// 13.2.5.55 DOCTYPE name state
    pub(crate) fn doctype_name_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) => {
                    input.advance();
                    self.state = State::AfterDoctypeName;
                    return Flow::Continue;
                }
                Peek::Char('>', _) => return self.close_doctype(input, sink),
                Peek::Char(_, Some(Special::Null)) => {
                    self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
                    input.advance();
                    self.doctype.name.get_or_insert_default().push('\u{FFFD}');
                }
                Peek::Char(c, _) => {
                    input.advance();
                    self.doctype
                        .name
                        .get_or_insert_default()
                        .push(c.to_ascii_lowercase());
                }
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => return self.eof_in_doctype(input, sink),
            }
        }
    }

    /// 13.2.5.56 After DOCTYPE name state
    pub(crate) fn after_doctype_name_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) => input.advance(),
                Peek::Char('>', _) => return self.close_doctype(input, sink),
                Peek::Char(..) => {
                    let public = input.starts_with(b"PUBLIC", true);
                    let system = input.starts_with(b"SYSTEM", true);
                    if public == Some(true) {
                        input.skip(6);
                        self.state = State::AfterDoctypePublicKeyword;
                    } else if system == Some(true) {
                        input.skip(6);
                        self.state = State::AfterDoctypeSystemKeyword;
                    } else if public.is_none() || system.is_none() {
                        return Flow::Suspend;
                    } else {
                        return self.enter_bogus_doctype(
                            input,
                            sink,
                            ErrorCode::InvalidCharacterSequenceAfterDoctypeName,
                        );
                    }
                    return Flow::Continue;
                }
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => return self.eof_in_doctype(input, sink),
            }
        }
    }

    /// 13.2.5.57 After DOCTYPE public keyword state and 13.2.5.63 After DOCTYPE system keyword
    /// state.
    pub(crate) fn after_doctype_keyword_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        which: Identifier,
    ) -> Flow {
        let (missing_whitespace, missing_id, missing_quote) = match which {
            Identifier::Public => (
                ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword,
                ErrorCode::MissingDoctypePublicIdentifier,
                ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier,
            ),
            Identifier::System => (
                ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword,
                ErrorCode::MissingDoctypeSystemIdentifier,
                ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier,
            ),
        };
        match self.peek(input, sink) {
            Peek::Char(c, _) if is_tokenizer_whitespace(c) => {
                input.advance();
                self.state = match which {
                    Identifier::Public => State::BeforeDoctypePublicIdentifier,
                    Identifier::System => State::BeforeDoctypeSystemIdentifier,
                };
                Flow::Continue
            }
            Peek::Char(q @ ('"' | '\''), _) => {
                self.error(input, sink, missing_whitespace);
                self.start_identifier(input, which, q)
            }
            Peek::Char('>', _) => self.abrupt_doctype(input, sink, missing_id),
            Peek::Char(..) => self.enter_bogus_doctype(input, sink, missing_quote),
            Peek::NeedMore => Flow::Suspend,
            Peek::Eof => self.eof_in_doctype(input, sink),
        }
    }

    /// 13.2.5.58 Before DOCTYPE public identifier state and 13.2.5.64 Before DOCTYPE system
    /// identifier state.
    pub(crate) fn before_doctype_identifier_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        which: Identifier,
    ) -> Flow {
        let (missing_id, missing_quote) = match which {
            Identifier::Public => (
                ErrorCode::MissingDoctypePublicIdentifier,
                ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier,
            ),
            Identifier::System => (
                ErrorCode::MissingDoctypeSystemIdentifier,
                ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier,
            ),
        };
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) => input.advance(),
                Peek::Char(q @ ('"' | '\''), _) => return self.start_identifier(input, which, q),
                Peek::Char('>', _) => return self.abrupt_doctype(input, sink, missing_id),
                Peek::Char(..) => return self.enter_bogus_doctype(input, sink, missing_quote),
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => return self.eof_in_doctype(input, sink),
            }
        }
    }

    /// 13.2.5.59, 13.2.5.60, 13.2.5.65, 13.2.5.66: the DOCTYPE public and system identifier
    /// (double- and single-quoted) states.
    pub(crate) fn doctype_identifier_quoted_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
        which: Identifier,
        quote: u8,
    ) -> Flow {
        let stops = [quote, b'>'];
        loop {
            let run = input.run_until(&stops);
            if !run.is_empty() {
                input.skip(run.len());
                self.identifier_mut(which)
                    .get_or_insert_default()
                    .push_str(run);
            }
            match self.peek(input, sink) {
                Peek::Char(c, None) if c as u32 == u32::from(quote) => {
                    input.advance();
                    self.state = match which {
                        Identifier::Public => State::AfterDoctypePublicIdentifier,
                        Identifier::System => State::AfterDoctypeSystemIdentifier,
                    };
                    return Flow::Continue;
                }
                Peek::Char(_, Some(Special::Null)) => {
                    self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
                    input.advance();
                    self.identifier_mut(which)
                        .get_or_insert_default()
                        .push('\u{FFFD}');
                }
                Peek::Char('>', _) => {
                    let code = match which {
                        Identifier::Public => ErrorCode::AbruptDoctypePublicIdentifier,
                        Identifier::System => ErrorCode::AbruptDoctypeSystemIdentifier,
                    };
                    return self.abrupt_doctype(input, sink, code);
                }
                Peek::Char(c, _) => {
                    input.advance();
                    self.identifier_mut(which).get_or_insert_default().push(c);
                }
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => return self.eof_in_doctype(input, sink),
            }
        }
    }

    /// 13.2.5.61 After DOCTYPE public identifier state
    pub(crate) fn after_doctype_public_identifier_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        match self.peek(input, sink) {
            Peek::Char(c, _) if is_tokenizer_whitespace(c) => {
                input.advance();
                self.state = State::BetweenDoctypePublicAndSystemIdentifiers;
                Flow::Continue
            }
            Peek::Char('>', _) => self.close_doctype(input, sink),
            Peek::Char(q @ ('"' | '\''), _) => {
                self.error(
                    input,
                    sink,
                    ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
                );
                self.start_identifier(input, Identifier::System, q)
            }
            Peek::Char(..) => self.enter_bogus_doctype(
                input,
                sink,
                ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier,
            ),
            Peek::NeedMore => Flow::Suspend,
            Peek::Eof => self.eof_in_doctype(input, sink),
        }
    }

    /// 13.2.5.62 Between DOCTYPE public and system identifiers state
    pub(crate) fn between_doctype_public_and_system_identifiers_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) => input.advance(),
                Peek::Char('>', _) => return self.close_doctype(input, sink),
                Peek::Char(q @ ('"' | '\''), _) => {
                    return self.start_identifier(input, Identifier::System, q);
                }
                Peek::Char(..) => {
                    return self.enter_bogus_doctype(
                        input,
                        sink,
                        ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier,
                    );
                }
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => return self.eof_in_doctype(input, sink),
            }
        }
    }

    /// 13.2.5.67 After DOCTYPE system identifier state
    pub(crate) fn after_doctype_system_identifier_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            match self.peek(input, sink) {
                Peek::Char(c, _) if is_tokenizer_whitespace(c) => input.advance(),
                Peek::Char('>', _) => return self.close_doctype(input, sink),
                Peek::Char(..) => {
                    // "(This does not set the current DOCTYPE token's force-quirks flag to on.)"
                    self.error(
                        input,
                        sink,
                        ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier,
                    );
                    self.state = State::BogusDoctype;
                    return Flow::Continue;
                }
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => return self.eof_in_doctype(input, sink),
            }
        }
    }

    /// 13.2.5.68 Bogus DOCTYPE state
    pub(crate) fn bogus_doctype_state<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> Flow {
        loop {
            let run = input.run_until(b">");
            input.skip(run.len());
            match self.peek(input, sink) {
                Peek::Char('>', _) => return self.close_doctype(input, sink),
                Peek::Char(_, Some(Special::Null)) => {
                    self.error(input, sink, ErrorCode::UnexpectedNullCharacter);
                    input.advance();
                }
                Peek::Char(..) => input.advance(),
                Peek::NeedMore => return Flow::Suspend,
                Peek::Eof => {
                    self.emit_doctype(sink, input.offset());
                    return self.emit_eof(input, sink);
                }
            }
        }
    }
}
