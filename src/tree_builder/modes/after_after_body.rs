//! 13.2.6.4.20 The "after after body" insertion mode.

use crate::dom::names::local_name as n;

use super::super::{InsertionMode, Step, Tok, TreeBuilder};
use super::{in_body, split_leading_whitespace};

/// The "after after body" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        Tok::Comment { data, source, .. } => {
            let document = tb.doc.root;
            tb.insert_comment(data, source, Some(document));
            Step::Done
        }
        Tok::ProcessingInstruction { target, data, .. } => {
            let document = tb.doc.root;
            tb.insert_processing_instruction(target, data, Some(document));
            Step::Done
        }
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
        Tok::Doctype(_) => in_body::process(tb, token),
        Tok::StartTag(tag) if tag.name == n::HTML => in_body::process(tb, token),
        Tok::Eof(_) => {
            tb.stop_parsing();
            Step::Done
        }
        _ => anything_else(tb, token),
    }
}

/// "after after body": Anything else.
fn anything_else<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    tb.unexpected(token);
    Step::ReprocessAs(InsertionMode::InBody, *token)
}
