//! 13.2.6.4.8 The "text" insertion mode.

use crate::error::ErrorCode;

use super::super::{Step, Tok, TreeBuilder};

/// The "text" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: Tok<'t>) -> Step<'t> {
    match token {
        Tok::Characters(text) => {
            tb.insert_characters(text);
            Step::Done
        }
        Tok::Eof(offset) => eof(tb, offset),
        // "An end tag whose tag name is "script"" and "any other end tag": pop the current node
        // and switch to the original insertion mode (the script is not run).
        Tok::EndTag(_) => {
            tb.open.pop();
            tb.mode = tb.original_mode;
            Step::Done
        }
        // The tokenizer's text states emit nothing else.
        _ => Step::Done,
    }
}

/// "text": An end-of-file token.
fn eof<'t>(tb: &mut TreeBuilder, offset: usize) -> Step<'t> {
    tb.error(ErrorCode::EofWithUnclosedElements, offset);
    tb.open.pop();
    Step::Reprocess(tb.original_mode)
}
