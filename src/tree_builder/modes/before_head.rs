//! 13.2.6.4.3 The "before head" insertion mode.

use crate::dom::names::local_name as n;

use super::super::{InsertionMode, Step, TagToken, Tok, TreeBuilder};
use super::{in_body, whitespace_then};

/// The "before head" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        // Whitespace: ignore the token.
        Tok::Characters(text) => whitespace_then(tb, text, |_, _| {}, anything_else),
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
        Tok::StartTag(tag) if tag.name == n::HEAD => start_tag_head(tb, &tag),
        Tok::EndTag(tag) if matches!(tag.name, n::HEAD | n::BODY | n::HTML | n::BR) => {
            anything_else(tb, token)
        }
        Tok::EndTag(_) => {
            tb.unexpected(token);
            Step::Done
        }
        _ => anything_else(tb, token),
    }
}

/// "before head": A start tag whose tag name is "head".
fn start_tag_head<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    let head = tb.insert_html_element(tag);
    tb.head = Some(head);
    tb.mode = InsertionMode::InHead;
    Step::Done
}

/// "before head": Anything else.
fn anything_else<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    let head = tb.insert_html_element(&TagToken::synthetic(n::HEAD, token.offset()));
    tb.head = Some(head);
    Step::ReprocessAs(InsertionMode::InHead, *token)
}
