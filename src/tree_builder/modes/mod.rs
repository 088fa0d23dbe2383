//! 13.2.6.4 "The rules for parsing tokens in HTML content": one module per insertion mode.
//!
//! Each module has a `process` function with a small `match` on the token, and named handlers
//! below it (`in_body::start_tag_li`). A handler returns a [`Step`]: done, or "reprocess the
//! token in this mode".

pub(crate) mod after_after_body;
pub(crate) mod after_after_frameset;
pub(crate) mod after_body;
pub(crate) mod after_frameset;
pub(crate) mod after_head;
pub(crate) mod before_head;
pub(crate) mod before_html;
pub(crate) mod in_body;
pub(crate) mod in_caption;
pub(crate) mod in_cell;
pub(crate) mod in_column_group;
pub(crate) mod in_frameset;
pub(crate) mod in_head;
pub(crate) mod in_head_noscript;
pub(crate) mod in_row;
pub(crate) mod in_table;
pub(crate) mod in_table_body;
pub(crate) mod in_table_text;
pub(crate) mod in_template;
pub(crate) mod initial;
pub(crate) mod text;

use crate::tokenizer::State;

use super::tag_sets::whitespace_prefix_len;
use super::{InsertionMode, Step, TagToken, Text, Tok, TreeBuilder};

/// Splits a character run into its leading whitespace and the rest, for the modes that treat
/// "a character token that is one of U+0009, U+000A, U+000C, U+000D, U+0020" apart from other
/// characters. Either part may be empty.
#[inline]
pub(crate) fn split_leading_whitespace(text: Text<'_>) -> (Text<'_>, Text<'_>) {
    text.split_at(whitespace_prefix_len(text.text))
}

/// Handles the whitespace prefix of a character run with `whitespace` and sends the rest (if
/// any) to `other`, as the separate character tokens of the specification would go.
#[inline]
pub(crate) fn whitespace_then<'t>(
    tb: &mut TreeBuilder,
    text: Text<'t>,
    whitespace: impl FnOnce(&mut TreeBuilder, Text<'t>),
    other: impl FnOnce(&mut TreeBuilder, &Tok<'t>) -> Step<'t>,
) -> Step<'t> {
    let (ws, rest) = split_leading_whitespace(text);
    if !ws.text.is_empty() {
        whitespace(tb, ws);
    }
    if rest.text.is_empty() {
        Step::Done
    } else {
        other(tb, &Tok::Characters(rest))
    }
}

/// 13.2.6.2: the generic raw text element parsing algorithm (`rcdata`: the generic RCDATA
/// element parsing algorithm).
pub(crate) fn generic_text_element<'t>(
    tb: &mut TreeBuilder,
    tag: &TagToken<'_>,
    rcdata: bool,
) -> Step<'t> {
    tb.insert_html_element(tag);
    tb.switch_tokenizer(if rcdata {
        State::Rcdata
    } else {
        State::Rawtext
    });
    tb.original_mode = tb.mode;
    tb.mode = InsertionMode::Text;
    Step::Done
}

/// For "in frameset", "after frameset" and "in column group" (current node not a colgroup):
/// inserts the whitespace characters of a run and ignores the others, each a parse error
/// ("Anything else: Parse error. Ignore the token.", one character token at a time).
pub(crate) fn insert_whitespace_only<'t>(tb: &mut TreeBuilder, text: Text<'t>) -> Step<'t> {
    use super::tag_sets::is_whitespace_byte;
    // The runs between ignored characters, each a piece of the original run (so it keeps
    // its place in the source); one parse error for each ignored (non-whitespace) character.
    let mut rest = text;
    while !rest.text.is_empty() {
        let (ws, after) = rest.split_at(whitespace_prefix_len(rest.text));
        tb.insert_characters(&ws);
        let ignored = after
            .text
            .find(|c: char| c.is_ascii() && is_whitespace_byte(c as u8))
            .unwrap_or(after.text.len());
        let (bad, after) = after.split_at(ignored);
        tb.character_errors(crate::error::ErrorCode::UnexpectedCharacter, &bad);
        rest = after;
    }
    Step::Done
}
