//! 13.2.6.4.21 The "after after frameset" insertion mode.

use crate::dom::names::local_name as n;

use super::super::{Step, Tok, TreeBuilder};
use super::{in_body, in_head, split_leading_whitespace};

/// The "after after frameset" insertion mode.
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
        // Whitespace: process using the rules for "in body"; other characters: parse error,
        // ignored.
        Tok::Characters(text) => {
            let mut rest = text;
            loop {
                let (ws, tail) = split_leading_whitespace(rest);
                if !ws.text.is_empty() {
                    in_body::characters(tb, &ws);
                }
                if tail.text.is_empty() {
                    return Step::Done;
                }
                let skip = tail
                    .text
                    .bytes()
                    .position(super::super::tag_sets::is_whitespace_byte)
                    .unwrap_or(tail.text.len());
                let (ignored, after) = tail.split_at(skip);
                tb.character_errors(crate::error::ErrorCode::UnexpectedCharacter, &ignored);
                rest = after;
            }
        }
        Tok::Doctype(_) => in_body::process(tb, token),
        Tok::StartTag(tag) if tag.name == n::HTML => in_body::process(tb, token),
        Tok::Eof(_) => {
            tb.stop_parsing();
            Step::Done
        }
        Tok::StartTag(tag) if tag.name == n::NOFRAMES => in_head::process(tb, token),
        _ => {
            tb.unexpected(token);
            Step::Done
        }
    }
}
