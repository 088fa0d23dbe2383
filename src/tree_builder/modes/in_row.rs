//! 13.2.6.4.14 The "in row" insertion mode.

use crate::dom::names::local_name as n;

use super::super::open_elements::Scope;
use super::super::tag_sets::TABLE_ROW_CONTEXT;
use super::super::{InsertionMode, Step, TagToken, Tok, TreeBuilder};
use super::in_table;

/// The "in row" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        Tok::StartTag(tag) => match tag.name {
            n::TH | n::TD => start_tag_th_td(tb, &tag),
            n::CAPTION | n::COL | n::COLGROUP | n::TBODY | n::TFOOT | n::THEAD | n::TR => {
                leave_row_and_reprocess(tb, token)
            }
            _ => in_table::process(tb, token),
        },
        Tok::EndTag(tag) => match tag.name {
            n::TR => end_tag_tr(tb, token),
            n::TABLE => leave_row_and_reprocess(tb, token),
            n::TBODY | n::TFOOT | n::THEAD => end_tag_tbody_tfoot_thead(tb, token, &tag),
            n::BODY | n::CAPTION | n::COL | n::COLGROUP | n::HTML | n::TD | n::TH => {
                tb.unexpected(token);
                Step::Done
            }
            _ => in_table::process(tb, token),
        },
        _ => in_table::process(tb, token),
    }
}

/// "Clear the stack back to a table row context": pop until a tr, template or html element.
fn clear_stack_to_table_row_context(tb: &mut TreeBuilder) {
    tb.open.pop_until_flags(TABLE_ROW_CONTEXT);
}

/// "in row": A start tag whose tag name is one of: "th", "td".
fn start_tag_th_td<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    clear_stack_to_table_row_context(tb);
    tb.insert_html_element(tag);
    tb.mode = InsertionMode::InCell;
    tb.active.push_marker();
    Step::Done
}

/// Closes the row if there is a tr in table scope; returns whether it did.
fn close_row(tb: &mut TreeBuilder, token: &Tok<'_>) -> bool {
    if !tb.open.has_in_scope(n::TR, Scope::Table) {
        tb.unexpected(token);
        return false;
    }
    clear_stack_to_table_row_context(tb);
    tb.open.pop();
    tb.mode = InsertionMode::InTableBody;
    true
}

/// "in row": An end tag whose tag name is "tr".
fn end_tag_tr<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    close_row(tb, token);
    Step::Done
}

/// "in row": A start tag whose tag name is one of: "caption", "col", "colgroup", "tbody",
/// "tfoot", "thead", "tr"; An end tag whose tag name is "table".
fn leave_row_and_reprocess<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    if close_row(tb, token) {
        Step::Reprocess(InsertionMode::InTableBody)
    } else {
        Step::Done
    }
}

/// "in row": An end tag whose tag name is one of: "tbody", "tfoot", "thead".
fn end_tag_tbody_tfoot_thead<'t>(
    tb: &mut TreeBuilder,
    token: &Tok<'t>,
    tag: &TagToken<'_>,
) -> Step<'t> {
    if !tb.open.has_in_scope(tag.name, Scope::Table) {
        tb.unexpected(token);
        return Step::Done;
    }
    if !tb.open.has_in_scope(n::TR, Scope::Table) {
        return Step::Done;
    }
    leave_row_and_reprocess(tb, token)
}
