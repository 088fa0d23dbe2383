//! 13.2.6.4.4 The "in head" insertion mode.

use crate::dom::names::{Namespace, local_name as n};
use crate::encoding::encoding_declared_by_meta;
use crate::error::ErrorCode;
use crate::tokenizer::State;

use super::super::{InsertionMode, Step, TagToken, Tok, TreeBuilder};
use super::{generic_text_element, in_body, whitespace_then};

/// The "in head" insertion mode.
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
            n::BASE | n::BASEFONT | n::BGSOUND | n::LINK => start_tag_void(tb, &tag),
            n::META => start_tag_meta(tb, &tag),
            n::TITLE => generic_text_element(tb, &tag, true),
            n::NOSCRIPT if tb.scripting => generic_text_element(tb, &tag, false),
            n::NOFRAMES | n::STYLE => generic_text_element(tb, &tag, false),
            n::NOSCRIPT => start_tag_noscript(tb, &tag),
            n::SCRIPT => start_tag_script(tb, &tag),
            n::TEMPLATE => start_tag_template(tb, &tag),
            n::HEAD => {
                tb.unexpected(token);
                Step::Done
            }
            _ => anything_else(tb, token),
        },
        Tok::EndTag(tag) => match tag.name {
            n::HEAD => end_tag_head(tb),
            n::BODY | n::HTML | n::BR => anything_else(tb, token),
            n::TEMPLATE => end_tag_template(tb, &tag),
            _ => {
                tb.unexpected(token);
                Step::Done
            }
        },
        _ => anything_else(tb, token),
    }
}

/// "in head": A start tag whose tag name is one of: "base", "basefont", "bgsound", "link".
fn start_tag_void<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.insert_html_element(tag);
    tb.open.pop();
    tb.acknowledge_self_closing();
    Step::Done
}

/// "in head": A start tag whose tag name is "meta".
fn start_tag_meta<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.insert_html_element(tag);
    tb.open.pop();
    tb.acknowledge_self_closing();
    // "If the active speculative HTML parser is null" (this parser has none):
    // 1. "If the element has a charset attribute, and getting an encoding from its value
    //    results in an encoding, and the confidence is currently tentative, then change the
    //    encoding to the resulting encoding."
    // 2. "Otherwise, if the element has an http-equiv attribute whose value is an ASCII
    //    case-insensitive match for "Content-Type", and the element has a content attribute,
    //    and applying the algorithm for extracting a character encoding from a meta element to
    //    that attribute's value returns an encoding, and the confidence is currently
    //    tentative, then change the encoding to the extracted encoding."
    // The driver runs "change the encoding" (13.2.3.4) after this feed step. Whatever it
    // decides, the confidence is certain afterwards, so only this first declaration counts.
    // (Text input has confidence irrelevant: nothing to do.)
    if tb.encoding_tentative {
        if let Some(encoding) = encoding_declared_by_meta(
            tag.attr(n::CHARSET),
            tag.attr(n::HTTP_EQUIV),
            tag.attr(n::CONTENT),
        ) {
            tb.encoding_tentative = false;
            tb.declared_encoding = Some(encoding);
        }
    }
    Step::Done
}

/// "in head": A start tag whose tag name is "noscript", if scripting mode is Disabled.
fn start_tag_noscript<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.insert_html_element(tag);
    tb.mode = InsertionMode::InHeadNoscript;
    Step::Done
}

/// "in head": A start tag whose tag name is "script".
fn start_tag_script<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    // "Let adjustedInsertionLocation be the appropriate place for inserting a node. Create an
    // element for the token in the HTML namespace ... Insert an element at the adjusted
    // insertion location with the newly created element and adjustedInsertionLocation." The
    // script's parser document, force async and already started flags matter only to script
    // execution, which this parser never does.
    let location = tb.appropriate_place(None);
    let element = tb.create_element_for_token(tag, Namespace::Html);
    // "Insert an element at the adjusted insertion location with the newly created element
    // and adjustedInsertionLocation": the adjusted location given a location starts over from
    // its target parent.
    if let Some(location) = location.and_then(|l| tb.adjusted_insertion_location(Some(l.parent))) {
        tb.insert_element_at(element, location);
    }
    tb.push_element(element, n::SCRIPT, Namespace::Html);
    tb.switch_tokenizer(State::ScriptData);
    tb.original_mode = tb.mode;
    tb.mode = InsertionMode::Text;
    Step::Done
}

/// "in head": An end tag whose tag name is "head".
fn end_tag_head<'t>(tb: &mut TreeBuilder) -> Step<'t> {
    tb.open.pop();
    tb.mode = InsertionMode::AfterHead;
    Step::Done
}

/// "in head": A start tag whose tag name is "template".
fn start_tag_template<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.active.push_marker();
    tb.frameset_ok = false;
    tb.mode = InsertionMode::InTemplate;
    tb.template_modes.push(InsertionMode::InTemplate);
    // A shadowrootmode attribute would attach a declarative shadow root, but the parser's
    // "allow declarative shadow roots" is false here, so the template is inserted as usual.
    tb.insert_html_element(tag);
    Step::Done
}

/// "in head": An end tag whose tag name is "template".
pub(crate) fn end_tag_template<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if !tb.open.contains_html(n::TEMPLATE) {
        tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
        return Step::Done;
    }
    tb.open.generate_all_implied_end_tags_thoroughly();
    if !tb.open.current_is(n::TEMPLATE) {
        tb.tag_error(ErrorCode::UnclosedElements, tag, true);
    }
    tb.open.pop_until_html(n::TEMPLATE);
    tb.active.clear_to_last_marker();
    tb.template_modes.pop();
    tb.reset_insertion_mode();
    Step::Done
}

/// "in head": Anything else.
fn anything_else<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    tb.open.pop();
    Step::ReprocessAs(InsertionMode::AfterHead, *token)
}
