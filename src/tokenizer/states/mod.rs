//! The tokenizer states, one file per family. Each state is a method of
//! [`Tokenizer`](super::Tokenizer) named after its heading (`data_state` for 13.2.5.1 "Data
//! state"), which consumes input and returns a [`Flow`](super::Flow) to the driver loop.

mod cdata;
mod comment;
mod data;
mod doctype;
mod processing_instruction;
mod script;
mod tag;
mod tag_fast;

/// ASCII whitespace as the tokenizer states list it: tab, LF, FF, space (CR never reaches the
/// states; it is read as LF).
#[inline]
pub(crate) fn is_tokenizer_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | ' ')
}
