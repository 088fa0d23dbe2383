//! 13.2.6.4.10 The "in table text" insertion mode.

use crate::error::ErrorCode;

use super::super::{Step, Text, Tok, TreeBuilder};
use super::in_table;

/// The "in table text" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        // "A character token that is U+0000 NULL": parse error; ignore the token.
        Tok::Null(offset) => {
            tb.error(ErrorCode::UnexpectedNullCharacterInTree, offset);
            Step::Done
        }
        // "Any other character token": append it to the pending table character tokens.
        Tok::Characters(text) => {
            append_pending(tb, text);
            Step::Done
        }
        _ => anything_else(tb),
    }
}

/// Appends characters to the pending table character tokens, remembering where they are in
/// the source while they are one contiguous verbatim slice of it.
fn append_pending(tb: &mut TreeBuilder, text: Text<'_>) {
    if tb.pending_table_text.is_empty() {
        tb.pending_table_text_source = text.source_offset();
        tb.pending_table_text_offset = text.offset;
        tb.pending_table_text_span = tb.current_span;
    } else if let Some(start) = tb.pending_table_text_source {
        if text.source_offset() != Some(start + tb.pending_table_text.len()) {
            tb.pending_table_text_source = None;
        }
    }
    tb.pending_table_text.push_str(text.text);
    tb.pending_table_text_span.end = tb.current_span.end;
}

/// "in table text": Anything else.
fn anything_else<'t>(tb: &mut TreeBuilder) -> Step<'t> {
    let pending = std::mem::take(&mut tb.pending_table_text);
    let text = Text {
        text: &pending,
        offset: tb
            .pending_table_text_source
            .unwrap_or(tb.pending_table_text_offset),
        verbatim: tb.pending_table_text_source.is_some(),
    };
    // The characters came from their own tokens, not from the one being processed.
    let current = std::mem::replace(&mut tb.current_span, tb.pending_table_text_span);
    if !text.text.is_empty() {
        if text.is_all_whitespace() {
            // "Otherwise, insert the characters given by the pending table character tokens
            // list."
            tb.insert_characters(&text);
        } else {
            // "If any of the tokens in the pending table character tokens list are character
            // tokens that are not ASCII whitespace, then this is a parse error: reprocess the
            // character tokens in the pending table character tokens list using the rules given
            // in the "anything else" entry in the "in table" insertion mode."
            in_table::anything_else(tb, &Tok::Characters(text));
        }
    }
    tb.current_span = current;
    // Keep the buffer's allocation for the next table text.
    let mut pending = pending;
    pending.clear();
    tb.pending_table_text = pending;
    tb.pending_table_text_source = None;
    Step::Reprocess(tb.original_mode)
}
