//! 13.2.6.4.18 The "in frameset" insertion mode.

use crate::dom::names::local_name as n;
use crate::error::ErrorCode;

use super::super::{InsertionMode, Step, TagToken, Tok, TreeBuilder};
use super::{in_body, in_head, insert_whitespace_only};

/// The "in frameset" insertion mode.
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
        Tok::StartTag(tag) => match tag.name {
            n::HTML => in_body::process(tb, token),
            n::FRAMESET => {
                tb.insert_html_element(&tag);
                Step::Done
            }
            n::FRAME => start_tag_frame(tb, &tag),
            n::NOFRAMES => in_head::process(tb, token),
            _ => {
                tb.unexpected(token);
                Step::Done
            }
        },
        Tok::EndTag(tag) if tag.name == n::FRAMESET => end_tag_frameset(tb, &tag),
        Tok::Eof(offset) => {
            if tb.open.len() > 1 {
                tb.error(ErrorCode::EofWithUnclosedElements, offset);
            }
            tb.stop_parsing();
            Step::Done
        }
        _ => {
            tb.unexpected(token);
            Step::Done
        }
    }
}

/// "in frameset": A start tag whose tag name is "frame".
fn start_tag_frame<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.insert_html_element(tag);
    tb.open.pop();
    tb.acknowledge_self_closing();
    Step::Done
}

/// "in frameset": An end tag whose tag name is "frameset".
fn end_tag_frameset<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    // "If the current node is the root html element, then this is a parse error; ignore the
    // token."
    if tb.open.len() <= 1 {
        tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
        return Step::Done;
    }
    tb.open.pop();
    if tb.context.is_none() && !tb.open.current_is(n::FRAMESET) {
        tb.mode = InsertionMode::AfterFrameset;
    }
    Step::Done
}
