//! 13.2.6.4.15 The "in cell" insertion mode.

use crate::dom::names::local_name as n;
use crate::error::ErrorCode;

use super::super::open_elements::Scope;
use super::super::{InsertionMode, Step, TagToken, Tok, TreeBuilder};
use super::in_body;

/// The "in cell" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        Tok::EndTag(tag) => match tag.name {
            n::TD | n::TH => end_tag_td_th(tb, &tag),
            n::BODY | n::CAPTION | n::COL | n::COLGROUP | n::HTML => {
                tb.unexpected(token);
                Step::Done
            }
            n::TABLE | n::TBODY | n::TFOOT | n::THEAD | n::TR => {
                end_tag_table_tbody_tfoot_thead_tr(tb, token, &tag)
            }
            _ => in_body::process(tb, token),
        },
        Tok::StartTag(tag)
            if matches!(
                tag.name,
                n::CAPTION
                    | n::COL
                    | n::COLGROUP
                    | n::TBODY
                    | n::TD
                    | n::TFOOT
                    | n::TH
                    | n::THEAD
                    | n::TR
            ) =>
        {
            start_tag_table_part(tb, token)
        }
        _ => in_body::process(tb, token),
    }
}

/// "in cell": An end tag whose tag name is one of: "td", "th".
fn end_tag_td_th<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if !tb.open.has_in_scope(tag.name, Scope::Table) {
        tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
        return Step::Done;
    }
    tb.open.generate_implied_end_tags(None);
    if !tb.open.current_is(tag.name) {
        tb.tag_error(ErrorCode::UnclosedElements, tag, true);
    }
    tb.open.pop_until_html(tag.name);
    tb.active.clear_to_last_marker();
    tb.mode = InsertionMode::InRow;
    Step::Done
}

/// "in cell": A start tag whose tag name is one of: "caption", "col", "colgroup", "tbody",
/// "td", "tfoot", "th", "thead", "tr".
fn start_tag_table_part<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    // "Assert: the stack of open elements has a td or th element in table scope."
    if tb
        .open
        .any_in_scope(&[n::TD, n::TH], Scope::Table)
        .is_none()
    {
        tb.unexpected(token);
        return Step::Done;
    }
    close_cell(tb, token.offset());
    Step::Reprocess(InsertionMode::InRow)
}

/// "in cell": An end tag whose tag name is one of: "table", "tbody", "tfoot", "thead", "tr".
fn end_tag_table_tbody_tfoot_thead_tr<'t>(
    tb: &mut TreeBuilder,
    token: &Tok<'t>,
    tag: &TagToken<'_>,
) -> Step<'t> {
    if !tb.open.has_in_scope(tag.name, Scope::Table) {
        tb.unexpected(token);
        return Step::Done;
    }
    close_cell(tb, token.offset());
    Step::Reprocess(InsertionMode::InRow)
}

/// "Close the cell".
fn close_cell(tb: &mut TreeBuilder, offset: usize) {
    tb.open.generate_implied_end_tags(None);
    if !tb.open.current_is(n::TD) && !tb.open.current_is(n::TH) {
        tb.error(ErrorCode::UnclosedElements, offset);
    }
    tb.open.pop_until_any_html(&[n::TD, n::TH]);
    tb.active.clear_to_last_marker();
    tb.mode = InsertionMode::InRow;
}
