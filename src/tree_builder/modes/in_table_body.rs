//! 13.2.6.4.13 The "in table body" insertion mode.

use crate::dom::names::local_name as n;
use crate::error::ErrorCode;

use super::super::open_elements::Scope;
use super::super::tag_sets::TABLE_BODY_CONTEXT;
use super::super::{InsertionMode, Step, TagToken, Tok, TreeBuilder};
use super::in_table;

/// The "in table body" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        Tok::StartTag(tag) => match tag.name {
            n::TR => start_tag_tr(tb, &tag),
            n::TH | n::TD => start_tag_th_td(tb, &tag),
            n::CAPTION | n::COL | n::COLGROUP | n::TBODY | n::TFOOT | n::THEAD => {
                leave_table_body_and_reprocess(tb, token)
            }
            _ => in_table::process(tb, token),
        },
        Tok::EndTag(tag) => match tag.name {
            n::TBODY | n::TFOOT | n::THEAD => end_tag_tbody_tfoot_thead(tb, &tag),
            n::TABLE => leave_table_body_and_reprocess(tb, token),
            n::BODY | n::CAPTION | n::COL | n::COLGROUP | n::HTML | n::TD | n::TH | n::TR => {
                tb.unexpected(token);
                Step::Done
            }
            _ => in_table::process(tb, token),
        },
        _ => in_table::process(tb, token),
    }
}

/// "Clear the stack back to a table body context": pop until a tbody, tfoot, thead, template
/// or html element.
fn clear_stack_to_table_body_context(tb: &mut TreeBuilder) {
    tb.open.pop_until_flags(TABLE_BODY_CONTEXT);
}

/// "in table body": A start tag whose tag name is "tr".
fn start_tag_tr<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    clear_stack_to_table_body_context(tb);
    tb.insert_html_element(tag);
    tb.mode = InsertionMode::InRow;
    Step::Done
}

/// "in table body": A start tag whose tag name is one of: "th", "td".
fn start_tag_th_td<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
    clear_stack_to_table_body_context(tb);
    tb.insert_html_element_named(n::TR, tag.offset);
    Step::Reprocess(InsertionMode::InRow)
}

/// "in table body": An end tag whose tag name is one of: "tbody", "tfoot", "thead".
fn end_tag_tbody_tfoot_thead<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if !tb.open.has_in_scope(tag.name, Scope::Table) {
        tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
        return Step::Done;
    }
    clear_stack_to_table_body_context(tb);
    tb.open.pop();
    tb.mode = InsertionMode::InTable;
    Step::Done
}

/// "in table body": A start tag whose tag name is one of: "caption", "col", "colgroup",
/// "tbody", "tfoot", "thead"; An end tag whose tag name is "table".
fn leave_table_body_and_reprocess<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    if tb
        .open
        .any_in_scope(&[n::TBODY, n::THEAD, n::TFOOT], Scope::Table)
        .is_none()
    {
        tb.unexpected(token);
        return Step::Done;
    }
    clear_stack_to_table_body_context(tb);
    tb.open.pop();
    Step::Reprocess(InsertionMode::InTable)
}
