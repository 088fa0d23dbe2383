//! The fast path through the tag states (13.2.5.8 tag name, and 13.2.5.32 to 13.2.5.40, the
//! attribute states and the self-closing start tag state).
//!
//! Most tags on real pages are plain: `<p>`, `</div>`, `<a href="/x?a=1&amp;b=2" class=y>`.
//! This loop walks them byte by byte without going back to the driver between states, taking
//! only the transitions that need no parse error and no special character (CR, U+0000,
//! controls, noncharacters: see `input.rs`); in quoted attribute values it also resolves the
//! character references that need no error and passes through the `&`s that start none (see
//! `char_ref.rs`). On any other input it hands the state it is in, at the position it reached,
//! to that state's own method in `tag.rs`, which stays the reference: the fast path builds the
//! same tag as those methods would through the same [`TagBuilder`] calls, so tokens, errors
//! and spans are the same either way. At the end of a chunk it hands over too, so
//! resumability is the states' own.
//!
//! [`TagBuilder`]: crate::tokenizer::token::TagBuilder

use crate::tokenizer::char_ref::{plain_ampersand, simple_char_ref};
use crate::tokenizer::input::{Input, find_stop};
use crate::tokenizer::{Flow, State, TokenSink, Tokenizer};

/// What a byte means to the fast path through the tag states.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Class {
    /// Appended to a name or an unquoted value as it is (letters but ASCII upper alphas,
    /// digits, `-`, `:`, most punctuation, non-ASCII).
    Plain,
    /// ASCII upper alpha: lowercased in names.
    Upper,
    /// Tab, LF, FF, space.
    Space,
    Solidus,
    GreaterThan,
    Equals,
    /// `"`, `'`, `<`, `` ` ``, `&`, U+0000 and the other bytes below 0x20 and DEL: something
    /// for the states' own methods (an error, a character reference, a special character).
    Other,
}

static CLASS: [Class; 256] = {
    let mut t = [Class::Plain; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = Class::Other;
        b += 1;
    }
    t[0x7F] = Class::Other;
    let mut b = b'A';
    while b <= b'Z' {
        t[b as usize] = Class::Upper;
        b += 1;
    }
    t[b'\t' as usize] = Class::Space;
    t[b'\n' as usize] = Class::Space;
    t[0x0C] = Class::Space;
    t[b' ' as usize] = Class::Space;
    t[b'/' as usize] = Class::Solidus;
    t[b'>' as usize] = Class::GreaterThan;
    t[b'=' as usize] = Class::Equals;
    t[b'"' as usize] = Class::Other;
    t[b'\'' as usize] = Class::Other;
    t[b'<' as usize] = Class::Other;
    t[b'`' as usize] = Class::Other;
    t[b'&' as usize] = Class::Other;
    t
};

#[inline(always)]
fn class(b: u8) -> Class {
    CLASS[b as usize]
}

/// The end of the run of name characters in `bytes` from `i` (ASCII upper alphas included:
/// the builder lowercases them), and whether there are ASCII upper alphas in it.
#[inline(always)]
fn name_run(bytes: &[u8], mut i: usize) -> (usize, bool) {
    let mut upper = false;
    while let Some(&b) = bytes.get(i) {
        match class(b) {
            Class::Plain => {}
            Class::Upper => upper = true,
            _ => break,
        }
        i += 1;
    }
    (i, upper)
}

/// The length of the run of unquoted attribute value characters at the start of `hay`.
#[inline(always)]
fn unquoted_value_len(hay: &[u8]) -> usize {
    hay.iter()
        .position(|&b| !matches!(class(b), Class::Plain | Class::Upper | Class::Solidus))
        .unwrap_or(hay.len())
}

/// Whether the state is one the fast path handles.
#[inline]
fn is_tag_state(state: State) -> bool {
    matches!(
        state,
        State::TagName
            | State::BeforeAttributeName
            | State::AttributeName
            | State::AfterAttributeName
            | State::BeforeAttributeValue
            | State::AttributeValueDoubleQuoted
            | State::AttributeValueSingleQuoted
            | State::AttributeValueUnquoted
            | State::AfterAttributeValueQuoted
            | State::SelfClosingStartTag
    )
}

impl Tokenizer {
    /// Runs the tag states from the current one until the tag is emitted (and returns
    /// [`Flow::Continue`] in whatever state the sink left), or another state takes over, or
    /// the chunk or input ends.
    pub(crate) fn tag_states<S: TokenSink>(&mut self, input: &mut Input<'_>, sink: &mut S) -> Flow {
        loop {
            if self.fast_paths() && self.tag_states_fast(input, sink) {
                return Flow::Continue;
            }
            // Something the fast path leaves to the states' own methods.
            let flow = match self.state {
                State::TagName => self.tag_name_state(input, sink),
                State::BeforeAttributeName => self.before_attribute_name_state(input, sink),
                State::AttributeName => self.attribute_name_state(input, sink),
                State::AfterAttributeName => self.after_attribute_name_state(input, sink),
                State::BeforeAttributeValue => self.before_attribute_value_state(input, sink),
                State::AttributeValueDoubleQuoted => {
                    self.attribute_value_quoted_state(input, sink, b'"')
                }
                State::AttributeValueSingleQuoted => {
                    self.attribute_value_quoted_state(input, sink, b'\'')
                }
                State::AttributeValueUnquoted => self.attribute_value_unquoted_state(input, sink),
                State::AfterAttributeValueQuoted => {
                    self.after_attribute_value_quoted_state(input, sink)
                }
                State::SelfClosingStartTag => self.self_closing_start_tag_state(input, sink),
                _ => return Flow::Continue,
            };
            if flow != Flow::Continue || !is_tag_state(self.state) {
                return flow;
            }
        }
    }

    /// The fast path: returns `true` once the tag is emitted, `false` (in the state reached,
    /// at the position reached) when the next input character needs the state's own method.
    ///
    /// The states follow each other in the order a plain tag goes through them, so that
    /// control falls from one to the next through well-predicted branches (rather than an
    /// indirect jump on the state at every transition).
    #[inline(always)]
    pub(crate) fn tag_states_fast<S: TokenSink>(
        &mut self,
        input: &mut Input<'_>,
        sink: &mut S,
    ) -> bool {
        let limit = input.next_special();
        let text = input.text;
        let bytes = &text.as_bytes()[..limit];
        let base = input.base;
        let mut i = input.pos;
        let mut state = self.state;
        // The next byte's class; `Other` at the end of the ordinary text.
        let next = |i: usize| bytes.get(i).map_or(Class::Other, |&b| class(b));
        let skip_spaces = |mut i: usize| {
            while let Some(b'\t' | b'\n' | 0x0C | b' ') = bytes.get(i) {
                i += 1;
            }
            i
        };
        'emit: {
            if state == State::TagName {
                // 13.2.5.8 Tag name state
                let start = i;
                let upper;
                (i, upper) = name_run(bytes, i);
                self.tag
                    .push_tag_name_run(base + start, base + i, text, base, upper);
                match next(i) {
                    Class::Space => state = State::BeforeAttributeName,
                    Class::Solidus => state = State::SelfClosingStartTag,
                    Class::GreaterThan => break 'emit,
                    _ => return self.hand_over(input, state, i),
                }
                i += 1;
            }
            loop {
                if state == State::BeforeAttributeName {
                    // 13.2.5.32 Before attribute name state
                    i = skip_spaces(i);
                    match next(i) {
                        Class::Solidus | Class::GreaterThan => state = State::AfterAttributeName,
                        Class::Plain | Class::Upper => {
                            self.tag.start_attr(base + i);
                            state = State::AttributeName;
                        }
                        _ => return self.hand_over(input, state, i),
                    }
                }
                if state == State::AttributeName {
                    // 13.2.5.33 Attribute name state
                    let start = i;
                    let upper;
                    (i, upper) = name_run(bytes, i);
                    self.tag
                        .push_name_run(base + start, base + i, text, base, upper);
                    let after = match next(i) {
                        Class::Space | Class::Solidus | Class::GreaterThan => {
                            State::AfterAttributeName
                        }
                        Class::Equals => State::BeforeAttributeValue,
                        _ => return self.hand_over(input, state, i),
                    };
                    // "When the user agent leaves the attribute name state" (the duplicate
                    // check, which may report an error at this position).
                    input.pos = i;
                    self.leave_attribute_name(input, sink);
                    state = after;
                    if after == State::BeforeAttributeValue {
                        i += 1;
                    }
                }
                if state == State::AfterAttributeName {
                    // 13.2.5.34 After attribute name state
                    i = skip_spaces(i);
                    match next(i) {
                        Class::Solidus => {
                            i += 1;
                            state = State::SelfClosingStartTag;
                        }
                        Class::Equals => {
                            i += 1;
                            state = State::BeforeAttributeValue;
                        }
                        Class::GreaterThan => break 'emit,
                        Class::Plain | Class::Upper => {
                            self.tag.start_attr(base + i);
                            state = State::AttributeName;
                            continue;
                        }
                        _ => return self.hand_over(input, state, i),
                    }
                }
                if state == State::BeforeAttributeValue {
                    // 13.2.5.35 Before attribute value state
                    i = skip_spaces(i);
                    match bytes.get(i) {
                        Some(b'"') => {
                            i += 1;
                            state = State::AttributeValueDoubleQuoted;
                        }
                        Some(b'\'') => {
                            i += 1;
                            state = State::AttributeValueSingleQuoted;
                        }
                        Some(_)
                            if matches!(next(i), Class::Plain | Class::Upper | Class::Solidus) =>
                        {
                            state = State::AttributeValueUnquoted;
                        }
                        _ => return self.hand_over(input, state, i),
                    }
                }
                if matches!(
                    state,
                    State::AttributeValueDoubleQuoted | State::AttributeValueSingleQuoted
                ) {
                    // 13.2.5.36 Attribute value (double-quoted) state and 13.2.5.37 Attribute
                    // value (single-quoted) state
                    let quote = if state == State::AttributeValueDoubleQuoted {
                        b'"'
                    } else {
                        b'\''
                    };
                    loop {
                        let start = i;
                        i += find_stop(&bytes[i..], &[quote, b'&']);
                        self.tag
                            .push_value_input(base + start, base + i, text, base);
                        match bytes.get(i) {
                            Some(&b) if b == quote => break,
                            Some(b'&') => {
                                // 13.2.5.77 Character reference state and the states after
                                // it, for a reference they resolve without an error, or an
                                // `&` they pass through as it is.
                                if let Some(r) = simple_char_ref(&bytes[i..]) {
                                    let mut utf8 = [0; 4];
                                    self.tag.push_value_str(r.chars(&mut utf8), text, base);
                                    i += r.len;
                                } else if let Some(n) = plain_ampersand(&bytes[i..]) {
                                    self.tag
                                        .push_value_input(base + i, base + i + n, text, base);
                                    i += n;
                                } else {
                                    return self.hand_over(input, state, i);
                                }
                            }
                            _ => return self.hand_over(input, state, i),
                        }
                    }
                    i += 1;
                    // 13.2.5.39 After attribute value (quoted) state
                    match next(i) {
                        Class::Space => {
                            i += 1;
                            state = State::BeforeAttributeName;
                            continue;
                        }
                        Class::Solidus => {
                            i += 1;
                            state = State::SelfClosingStartTag;
                        }
                        Class::GreaterThan => break 'emit,
                        _ => return self.hand_over(input, State::AfterAttributeValueQuoted, i),
                    }
                }
                if state == State::AttributeValueUnquoted {
                    // 13.2.5.38 Attribute value (unquoted) state
                    let start = i;
                    i += unquoted_value_len(&bytes[i..]);
                    self.tag
                        .push_value_input(base + start, base + i, text, base);
                    match next(i) {
                        Class::Space => {
                            i += 1;
                            state = State::BeforeAttributeName;
                            continue;
                        }
                        Class::GreaterThan => break 'emit,
                        _ => return self.hand_over(input, state, i),
                    }
                }
                if state == State::AfterAttributeValueQuoted {
                    // 13.2.5.39 After attribute value (quoted) state (entered from the
                    // states' own methods)
                    match next(i) {
                        Class::Space => {
                            i += 1;
                            state = State::BeforeAttributeName;
                            continue;
                        }
                        Class::Solidus => {
                            i += 1;
                            state = State::SelfClosingStartTag;
                        }
                        Class::GreaterThan => break 'emit,
                        _ => return self.hand_over(input, state, i),
                    }
                }
                if state == State::SelfClosingStartTag {
                    // 13.2.5.40 Self-closing start tag state
                    if bytes.get(i) == Some(&b'>') {
                        self.tag.self_closing = true;
                        break 'emit;
                    }
                    return self.hand_over(input, state, i);
                }
                if !matches!(
                    state,
                    State::BeforeAttributeName
                        | State::AttributeName
                        | State::AfterAttributeName
                        | State::BeforeAttributeValue
                        | State::AttributeValueDoubleQuoted
                        | State::AttributeValueSingleQuoted
                        | State::AttributeValueUnquoted
                ) {
                    return self.hand_over(input, state, i);
                }
            }
        }
        // At the `>` that ends the tag: "Switch to the data state. Emit the current tag token."
        input.pos = i + 1;
        self.state = State::Data;
        self.emit_tag(input, sink, base + i + 1);
        true
    }

    /// Leaves the rest of the tag to the states' own methods, in `state` at `i`.
    #[inline(always)]
    fn hand_over(&mut self, input: &mut Input<'_>, state: State, i: usize) -> bool {
        self.state = state;
        input.pos = i;
        false
    }
}
