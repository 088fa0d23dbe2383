//! 13.2.6.4.17 The "after body" insertion mode.

use crate::dom::names::local_name as n;

use super::super::{InsertionMode, Step, Tok, TreeBuilder};
use super::{in_body, split_leading_whitespace};

/// The "after body" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        // Whitespace: process using the rules for "in body".
        Tok::Characters(text) => {
            let (ws, rest) = split_leading_whitespace(text);
            if !ws.text.is_empty() {
                in_body::characters(tb, &ws);
            }
            if rest.text.is_empty() {
                Step::Done
            } else {
                anything_else(tb, &Tok::Characters(rest))
            }
        }
        // "Insert a comment given (the first element in the stack of open elements (the html
        // element), null)."
        Tok::Comment { data, source, .. } => {
            let html = tb.open.get(0).map(|e| e.node);
            tb.insert_comment(data, source, html);
            Step::Done
        }
        Tok::ProcessingInstruction { target, data, .. } => {
            let html = tb.open.get(0).map(|e| e.node);
            tb.insert_processing_instruction(target, data, html);
            Step::Done
        }
        Tok::Doctype(_) => {
            tb.unexpected(token);
            Step::Done
        }
        Tok::StartTag(tag) if tag.name == n::HTML => in_body::process(tb, token),
        Tok::EndTag(tag) if tag.name == n::HTML => end_tag_html(tb, token),
        Tok::Eof(_) => {
            tb.stop_parsing();
            Step::Done
        }
        _ => anything_else(tb, token),
    }
}

/// "after body": An end tag whose tag name is "html".
fn end_tag_html<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    if tb.context.is_some() {
        tb.unexpected(token);
        return Step::Done;
    }
    tb.mode = InsertionMode::AfterAfterBody;
    Step::Done
}

/// "after body": Anything else.
fn anything_else<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    tb.unexpected(token);
    Step::ReprocessAs(InsertionMode::InBody, *token)
}
