//! 13.2.6.4.1 The "initial" insertion mode.

use crate::error::ErrorCode;
use crate::tokenizer::Doctype;

use super::super::{InsertionMode, Step, Tok, TreeBuilder, quirks};
use super::whitespace_then;

/// The "initial" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        // Whitespace: ignore the token.
        Tok::Characters(text) => whitespace_then(tb, text, |_, _| {}, anything_else),
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
        Tok::Doctype(doctype) => doctype_token(tb, doctype),
        _ => anything_else(tb, token),
    }
}

/// "initial": A DOCTYPE token.
fn doctype_token<'t>(tb: &mut TreeBuilder, d: &Doctype<'_>) -> Step<'t> {
    if quirks::is_doctype_error(d) {
        tb.error(ErrorCode::NonConformingDoctype, d.span.start);
    }
    // "Append doctype to the Document node if it has neither a DocumentType child nor an
    // element child."
    let document = tb.doc.root;
    let has_doctype_or_element = tb
        .doc
        .root()
        .children()
        .any(|c| c.is_doctype() || c.is_element());
    if !has_doctype_or_element {
        let node = tb.doc.create_doctype(
            d.name.unwrap_or(""),
            d.public_id.unwrap_or(""),
            d.system_id.unwrap_or(""),
        );
        if let Some(p) = tb.doc.positions.as_mut() {
            p.set(node, tb.current_span);
        }
        tb.doc.append_node_checked(document, node);
    }
    // "If the document is not an iframe srcdoc document, and the parser cannot change the
    // mode flag is false": this crate parses neither srcdoc documents nor documents whose
    // mode is fixed, so both conditions always hold.
    tb.doc.quirks_mode = quirks::quirks_mode_for(d);
    tb.mode = InsertionMode::BeforeHtml;
    Step::Done
}

/// "initial": Anything else.
fn anything_else<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    tb.error(ErrorCode::MissingDoctype, token.offset());
    tb.doc.quirks_mode = crate::dom::QuirksMode::Quirks;
    Step::ReprocessAs(InsertionMode::BeforeHtml, *token)
}
