//! 13.2.6.4.19 The "after frameset" insertion mode.

use crate::dom::names::local_name as n;

use super::super::{InsertionMode, Step, Tok, TreeBuilder};
use super::{in_body, in_head, insert_whitespace_only};

/// The "after frameset" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        // Whitespace is inserted; every other character is a parse error and ignored.
        Tok::Characters(text) => insert_whitespace_only(tb, text),
        Tok::Comment { data, source, .. } => {
            tb.insert_comment(data, source, None);
            Step::Done
        }
        Tok::ProcessingInstruction { target, data, .. } => {
            tb.insert_processing_instruction(target, data, None);
            Step::Done
        }
        Tok::StartTag(tag) if tag.name == n::HTML => in_body::process(tb, token),
        Tok::EndTag(tag) if tag.name == n::HTML => {
            tb.mode = InsertionMode::AfterAfterFrameset;
            Step::Done
        }
        Tok::StartTag(tag) if tag.name == n::NOFRAMES => in_head::process(tb, token),
        Tok::Eof(_) => {
            tb.stop_parsing();
            Step::Done
        }
        _ => {
            tb.unexpected(token);
            Step::Done
        }
    }
}
