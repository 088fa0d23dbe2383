//! 13.2.6.4.5 The "in head noscript" insertion mode.

use crate::dom::names::local_name as n;

use super::super::{InsertionMode, Step, Tok, TreeBuilder};
use super::{in_body, in_head, split_leading_whitespace};

/// The "in head noscript" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        Tok::Doctype(_) => {
            tb.unexpected(token);
            Step::Done
        }
        Tok::StartTag(tag) if tag.name == n::HTML => in_body::process(tb, token),
        Tok::EndTag(tag) if tag.name == n::NOSCRIPT => end_tag_noscript(tb),
        // Whitespace: process using the rules for "in head".
        Tok::Characters(text) => {
            let (ws, rest) = split_leading_whitespace(text);
            if !ws.text.is_empty() {
                in_head::process(tb, &Tok::Characters(ws));
            }
            if rest.text.is_empty() {
                Step::Done
            } else {
                anything_else(tb, &Tok::Characters(rest))
            }
        }
        Tok::Comment { .. } | Tok::ProcessingInstruction { .. } => in_head::process(tb, token),
        Tok::StartTag(tag)
            if matches!(
                tag.name,
                n::BASEFONT | n::BGSOUND | n::LINK | n::META | n::NOFRAMES | n::STYLE
            ) =>
        {
            in_head::process(tb, token)
        }
        Tok::EndTag(tag) if tag.name == n::BR => anything_else(tb, token),
        Tok::StartTag(tag) if matches!(tag.name, n::HEAD | n::NOSCRIPT) => {
            tb.unexpected(token);
            Step::Done
        }
        Tok::EndTag(_) => {
            tb.unexpected(token);
            Step::Done
        }
        _ => anything_else(tb, token),
    }
}

/// "in head noscript": An end tag whose tag name is "noscript".
fn end_tag_noscript<'t>(tb: &mut TreeBuilder) -> Step<'t> {
    tb.open.pop();
    tb.mode = InsertionMode::InHead;
    Step::Done
}

/// "in head noscript": Anything else.
fn anything_else<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    tb.unexpected(token);
    tb.open.pop();
    Step::ReprocessAs(InsertionMode::InHead, *token)
}
