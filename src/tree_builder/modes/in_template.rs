//! 13.2.6.4.16 The "in template" insertion mode.

use crate::dom::names::local_name as n;
use crate::error::ErrorCode;

use super::super::{InsertionMode, Step, Tok, TreeBuilder};
use super::{in_body, in_head};

/// The "in template" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        Tok::Characters(_)
        | Tok::Null(_)
        | Tok::Comment { .. }
        | Tok::ProcessingInstruction { .. }
        | Tok::Doctype(_) => in_body::process(tb, token),
        Tok::StartTag(tag) => match tag.name {
            n::BASE
            | n::BASEFONT
            | n::BGSOUND
            | n::LINK
            | n::META
            | n::NOFRAMES
            | n::SCRIPT
            | n::STYLE
            | n::TEMPLATE
            | n::TITLE => in_head::process(tb, token),
            n::CAPTION | n::COLGROUP | n::TBODY | n::TFOOT | n::THEAD => {
                switch_template_mode(tb, InsertionMode::InTable)
            }
            n::COL => switch_template_mode(tb, InsertionMode::InColumnGroup),
            n::TR => switch_template_mode(tb, InsertionMode::InTableBody),
            n::TD | n::TH => switch_template_mode(tb, InsertionMode::InRow),
            _ => switch_template_mode(tb, InsertionMode::InBody),
        },
        Tok::EndTag(tag) if tag.name == n::TEMPLATE => in_head::process(tb, token),
        Tok::EndTag(_) => {
            tb.unexpected(token);
            Step::Done
        }
        Tok::Eof(offset) => eof(tb, offset),
    }
}

/// "Pop the current template insertion mode off the stack of template insertion modes. Push
/// `mode` onto the stack of template insertion modes so that it is the new current template
/// insertion mode. Switch the insertion mode to `mode`, and reprocess the token."
fn switch_template_mode<'t>(tb: &mut TreeBuilder, mode: InsertionMode) -> Step<'t> {
    tb.template_modes.pop();
    tb.template_modes.push(mode);
    Step::Reprocess(mode)
}

/// "in template": An end-of-file token.
fn eof<'t>(tb: &mut TreeBuilder, offset: usize) -> Step<'t> {
    // "If there is no template element on the stack of open elements, then stop parsing.
    // (fragment case)"
    if !tb.open.contains_html(n::TEMPLATE) {
        tb.stop_parsing();
        return Step::Done;
    }
    tb.error(ErrorCode::EofWithUnclosedElements, offset);
    tb.open.pop_until_html(n::TEMPLATE);
    tb.active.clear_to_last_marker();
    tb.template_modes.pop();
    tb.reset_insertion_mode();
    Step::Reprocess(tb.mode)
}
