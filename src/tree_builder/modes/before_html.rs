//! 13.2.6.4.2 The "before html" insertion mode.

use crate::dom::names::{Namespace, local_name as n};

use super::super::insert::Location;
use super::super::{InsertionMode, Step, TagToken, Tok, TreeBuilder};
use super::whitespace_then;

/// The "before html" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        Tok::Doctype(_) => {
            tb.unexpected(token);
            Step::Done
        }
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
        // Whitespace: ignore the token.
        Tok::Characters(text) => whitespace_then(tb, text, |_, _| {}, anything_else),
        Tok::StartTag(tag) if tag.name == n::HTML => start_tag_html(tb, &tag),
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

/// "before html": A start tag whose tag name is "html".
fn start_tag_html<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    // "Create an element for the token in the HTML namespace, with the Document as the intended
    // parent. Insert an element at the adjusted insertion location with that element and (the
    // Document, null). Put this element in the stack of open elements."
    let element = tb.create_element_for_token(tag, Namespace::Html);
    let document = tb.doc.root;
    tb.insert_element_at(element, Location::append_to(document));
    tb.push_element(element, n::HTML, Namespace::Html);
    tb.mode = InsertionMode::BeforeHead;
    Step::Done
}

/// "before html": Anything else.
fn anything_else<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    // "Create an html element whose node document is the Document object. Append it to the
    // Document object. Put this element in the stack of open elements."
    let element = tb.create_element_for_token(
        &TagToken::synthetic(n::HTML, token.offset()),
        Namespace::Html,
    );
    let document = tb.doc.root;
    tb.doc.append_node_checked(document, element);
    tb.push_element(element, n::HTML, Namespace::Html);
    Step::ReprocessAs(InsertionMode::BeforeHead, *token)
}
