//! 13.2.6.4.6 The "after head" insertion mode.

use crate::dom::names::{Namespace, local_name as n};

use super::super::{InsertionMode, Step, TagToken, Tok, TreeBuilder};
use super::{in_body, in_head, whitespace_then};

/// The "after head" insertion mode.
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
        Tok::StartTag(tag) => match tag.name {
            n::HTML => in_body::process(tb, token),
            n::BODY => start_tag_body(tb, &tag),
            n::FRAMESET => start_tag_frameset(tb, &tag),
            n::BASE
            | n::BASEFONT
            | n::BGSOUND
            | n::LINK
            | n::META
            | n::NOFRAMES
            | n::SCRIPT
            | n::STYLE
            | n::TEMPLATE
            | n::TITLE => start_tag_head_element(tb, token),
            n::HEAD => {
                tb.unexpected(token);
                Step::Done
            }
            _ => anything_else(tb, token),
        },
        Tok::EndTag(tag) => match tag.name {
            n::TEMPLATE => in_head::process(tb, token),
            n::BODY | n::HTML | n::BR => anything_else(tb, token),
            _ => {
                tb.unexpected(token);
                Step::Done
            }
        },
        _ => anything_else(tb, token),
    }
}

/// "after head": A start tag whose tag name is "body".
fn start_tag_body<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.insert_html_element(tag);
    tb.frameset_ok = false;
    tb.mode = InsertionMode::InBody;
    Step::Done
}

/// "after head": A start tag whose tag name is "frameset".
fn start_tag_frameset<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.insert_html_element(tag);
    tb.mode = InsertionMode::InFrameset;
    Step::Done
}

/// "after head": A start tag whose tag name is one of: "base", "basefont", "bgsound", "link",
/// "meta", "noframes", "script", "style", "template", "title".
fn start_tag_head_element<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    tb.unexpected(token);
    // "Push the node pointed to by the head element pointer onto the stack of open elements.
    // Process the token using the rules for the "in head" insertion mode. Remove the node
    // pointed to by the head element pointer from the stack of open elements. (It might not be
    // the current node at this point.)"
    let Some(head) = tb.head else {
        return in_head::process(tb, token);
    };
    tb.push_element(head, n::HEAD, Namespace::Html);
    let step = in_head::process(tb, token);
    if let Some(p) = tb.open.position(head) {
        tb.open.remove_at(p);
    }
    step
}

/// "after head": Anything else.
fn anything_else<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    tb.insert_html_element(&TagToken::synthetic(n::BODY, token.offset()));
    // "Set the frameset-ok flag to "ok"."
    tb.frameset_ok = true;
    Step::ReprocessAs(InsertionMode::InBody, *token)
}
