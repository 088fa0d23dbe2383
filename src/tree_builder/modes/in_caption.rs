//! 13.2.6.4.11 The "in caption" insertion mode.

use crate::dom::names::local_name as n;
use crate::error::ErrorCode;

use super::super::open_elements::Scope;
use super::super::{InsertionMode, Step, Tok, TreeBuilder};
use super::in_body;

/// The "in caption" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        Tok::EndTag(tag) if tag.name == n::CAPTION => {
            close_caption(tb, token);
            Step::Done
        }
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
            reprocess_after_closing_caption(tb, token)
        }
        Tok::EndTag(tag) if tag.name == n::TABLE => reprocess_after_closing_caption(tb, token),
        Tok::EndTag(tag)
            if matches!(
                tag.name,
                n::BODY
                    | n::COL
                    | n::COLGROUP
                    | n::HTML
                    | n::TBODY
                    | n::TD
                    | n::TFOOT
                    | n::TH
                    | n::THEAD
                    | n::TR
            ) =>
        {
            tb.unexpected(token);
            Step::Done
        }
        _ => in_body::process(tb, token),
    }
}

/// The caption-closing steps: returns whether a caption was closed (the stack has a caption
/// element in table scope).
fn close_caption(tb: &mut TreeBuilder, token: &Tok<'_>) -> bool {
    if !tb.open.has_in_scope(n::CAPTION, Scope::Table) {
        tb.unexpected(token);
        return false;
    }
    tb.open.generate_implied_end_tags(None);
    if !tb.open.current_is(n::CAPTION) {
        tb.error(ErrorCode::UnclosedElements, token.offset());
    }
    tb.open.pop_until_html(n::CAPTION);
    tb.active.clear_to_last_marker();
    tb.mode = InsertionMode::InTable;
    true
}

/// "in caption": A start tag whose tag name is one of: "caption", "col", "colgroup", "tbody",
/// "td", "tfoot", "th", "thead", "tr"; An end tag whose tag name is "table".
fn reprocess_after_closing_caption<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    if close_caption(tb, token) {
        Step::Reprocess(InsertionMode::InTable)
    } else {
        Step::Done
    }
}
