//! 13.2.6.4.12 The "in column group" insertion mode.

use crate::dom::names::local_name as n;

use super::super::{InsertionMode, Step, TagToken, Tok, TreeBuilder};
use super::{in_body, in_head, insert_whitespace_only, whitespace_then};

/// The "in column group" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        // Whitespace: insert the character.
        Tok::Characters(text) => {
            whitespace_then(tb, text, |tb, ws| tb.insert_characters(&ws), anything_else)
        }
        Tok::Comment { data, source, .. } => {
            tb.insert_comment(data, source, None);
            Step::Done
        }
        Tok::ProcessingInstruction { target, data, .. } => {
            tb.insert_processing_instruction(target, data, None);
            Step::Done
        }
        Tok::Doctype(_) => {
            tb.unexpected(token);
            Step::Done
        }
        Tok::StartTag(tag) if tag.name == n::HTML => in_body::process(tb, token),
        Tok::StartTag(tag) if tag.name == n::COL => start_tag_col(tb, &tag),
        Tok::EndTag(tag) if tag.name == n::COLGROUP => end_tag_colgroup(tb, token),
        Tok::EndTag(tag) if tag.name == n::COL => {
            tb.unexpected(token);
            Step::Done
        }
        Tok::StartTag(tag) | Tok::EndTag(tag) if tag.name == n::TEMPLATE => {
            in_head::process(tb, token)
        }
        Tok::Eof(_) => in_body::process(tb, token),
        _ => anything_else(tb, token),
    }
}

/// "in column group": A start tag whose tag name is "col".
fn start_tag_col<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.insert_html_element(tag);
    tb.open.pop();
    tb.acknowledge_self_closing();
    Step::Done
}

/// "in column group": An end tag whose tag name is "colgroup".
fn end_tag_colgroup<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    if !tb.open.current_is(n::COLGROUP) {
        tb.unexpected(token);
        return Step::Done;
    }
    tb.open.pop();
    tb.mode = InsertionMode::InTable;
    Step::Done
}

/// "in column group": Anything else.
fn anything_else<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    if !tb.open.current_is(n::COLGROUP) {
        // "If the current node is not a colgroup element, then this is a parse error; ignore
        // the token." Character tokens come one at a time: each non-whitespace one is an
        // error and ignored, and the white space between them is still inserted (the mode
        // stays the same).
        return match *token {
            Tok::Characters(text) => insert_whitespace_only(tb, text),
            _ => {
                tb.unexpected(token);
                Step::Done
            }
        };
    }
    tb.open.pop();
    Step::ReprocessAs(InsertionMode::InTable, *token)
}
