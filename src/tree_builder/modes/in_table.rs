//! 13.2.6.4.9 The "in table" insertion mode.

use crate::dom::names::local_name as n;
use crate::error::ErrorCode;

use super::super::open_elements::Scope;
use super::super::tag_sets::{TABLE_SCOPE, TABLE_TEXT_TARGET};
use super::super::{InsertionMode, Step, TagToken, Tok, TreeBuilder};
use super::{in_body, in_head};

/// The "in table" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        Tok::Characters(_) | Tok::Null(_)
            if tb.open.current().is_some_and(|e| e.has(TABLE_TEXT_TARGET)) =>
        {
            characters(tb, token)
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
            n::CAPTION => start_tag_caption(tb, &tag),
            n::COLGROUP => start_tag_colgroup(tb, &tag),
            n::COL => start_tag_col(tb, &tag),
            n::TBODY | n::TFOOT | n::THEAD => start_tag_tbody_tfoot_thead(tb, &tag),
            n::TD | n::TH | n::TR => start_tag_td_th_tr(tb, &tag),
            n::TABLE => start_tag_table(tb, &tag),
            n::STYLE | n::SCRIPT | n::TEMPLATE => in_head::process(tb, token),
            n::INPUT => start_tag_input(tb, token, &tag),
            n::FORM => start_tag_form(tb, &tag),
            _ => anything_else(tb, token),
        },
        Tok::EndTag(tag) => match tag.name {
            n::TABLE => end_tag_table(tb, &tag),
            n::BODY
            | n::CAPTION
            | n::COL
            | n::COLGROUP
            | n::HTML
            | n::TBODY
            | n::TD
            | n::TFOOT
            | n::TH
            | n::THEAD
            | n::TR => {
                tb.unexpected(token);
                Step::Done
            }
            n::TEMPLATE => in_head::process(tb, token),
            _ => anything_else(tb, token),
        },
        Tok::Eof(_) => in_body::process(tb, token),
        _ => anything_else(tb, token),
    }
}

/// "in table": A character token, if the current node is table, tbody, template, tfoot,
/// thead, or tr element.
fn characters<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    // "Let the pending table character tokens be an empty list of tokens. Set the original
    // insertion mode to the current insertion mode. Switch the insertion mode to "in table
    // text" and reprocess the token."
    tb.pending_table_text.clear();
    tb.pending_table_text_source = None;
    tb.pending_table_text_offset = token.offset();
    tb.original_mode = tb.mode;
    Step::Reprocess(InsertionMode::InTableText)
}

/// "Clear the stack back to a table context": pop until a table, template or html element.
pub(crate) fn clear_stack_to_table_context(tb: &mut TreeBuilder) {
    tb.open.pop_until_flags(TABLE_SCOPE);
}

/// "in table": A start tag whose tag name is "caption".
fn start_tag_caption<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    clear_stack_to_table_context(tb);
    tb.active.push_marker();
    tb.insert_html_element(tag);
    tb.mode = InsertionMode::InCaption;
    Step::Done
}

/// "in table": A start tag whose tag name is "colgroup".
fn start_tag_colgroup<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    clear_stack_to_table_context(tb);
    tb.insert_html_element(tag);
    tb.mode = InsertionMode::InColumnGroup;
    Step::Done
}

/// "in table": A start tag whose tag name is "col".
fn start_tag_col<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    clear_stack_to_table_context(tb);
    tb.insert_html_element_named(n::COLGROUP, tag.offset);
    Step::Reprocess(InsertionMode::InColumnGroup)
}

/// "in table": A start tag whose tag name is one of: "tbody", "tfoot", "thead".
fn start_tag_tbody_tfoot_thead<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    clear_stack_to_table_context(tb);
    tb.insert_html_element(tag);
    tb.mode = InsertionMode::InTableBody;
    Step::Done
}

/// "in table": A start tag whose tag name is one of: "td", "th", "tr".
fn start_tag_td_th_tr<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    clear_stack_to_table_context(tb);
    tb.insert_html_element_named(n::TBODY, tag.offset);
    Step::Reprocess(InsertionMode::InTableBody)
}

/// "in table": A start tag whose tag name is "table".
fn start_tag_table<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
    if !tb.open.has_in_scope(n::TABLE, Scope::Table) {
        return Step::Done;
    }
    tb.open.pop_until_html(n::TABLE);
    tb.reset_insertion_mode();
    Step::Reprocess(tb.mode)
}

/// "in table": An end tag whose tag name is "table".
fn end_tag_table<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if !tb.open.has_in_scope(n::TABLE, Scope::Table) {
        tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
        return Step::Done;
    }
    tb.open.pop_until_html(n::TABLE);
    tb.reset_insertion_mode();
    Step::Done
}

/// "in table": A start tag whose tag name is "input".
fn start_tag_input<'t>(tb: &mut TreeBuilder, token: &Tok<'t>, tag: &TagToken<'_>) -> Step<'t> {
    if !tag
        .attr(n::TYPE)
        .is_some_and(|t| t.eq_ignore_ascii_case("hidden"))
    {
        return anything_else(tb, token);
    }
    tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
    tb.insert_html_element(tag);
    tb.open.pop();
    tb.acknowledge_self_closing();
    Step::Done
}

/// "in table": A start tag whose tag name is "form".
fn start_tag_form<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
    let in_template = tb.parsing_template_contents();
    if tb.form.is_some() && !in_template {
        return Step::Done;
    }
    let form = tb.insert_html_element(tag);
    if !in_template {
        tb.form = Some(form);
    }
    tb.open.pop();
    Step::Done
}

/// "in table": Anything else: "Parse error. Enable foster parenting, process the token using
/// the rules for the "in body" insertion mode, and then disable foster parenting."
pub(crate) fn anything_else<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match &token {
        Tok::Characters(text) => tb.character_errors(ErrorCode::FosterParentedContent, text),
        _ => tb.unexpected(token),
    }
    tb.foster_parenting = true;
    let step = in_body::process(tb, token);
    tb.foster_parenting = false;
    step
}
