//! 13.2.6.4.8 The "text" insertion mode.

use crate::dom::names::{Namespace, local_name as n};
use crate::error::ErrorCode;

use super::super::{Step, Tok, TreeBuilder};

/// The "text" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        Tok::Characters(text) => {
            tb.insert_characters(&text);
            Step::Done
        }
        Tok::Eof(offset) => eof(tb, offset),
        // "An end tag whose tag name is "script"": "Let script be the current node (which will
        // be a script element). Pop the current node off the stack of open elements. Switch
        // the insertion mode to the original insertion mode." "Any other end tag": the same,
        // without the script.
        Tok::EndTag(tag) => {
            // The rest of the steps (the insertion point, the script nesting level, "prepare
            // the script element", the pending parsing-blocking script) belong to the driver
            // of a parser that runs scripts (`parser/script.rs`). Without one, the script is
            // not run.
            if tb.script_hooks && tag.name == n::SCRIPT {
                hand_over_script(tb);
            }
            tb.open.pop();
            tb.mode = tb.original_mode;
            Step::Done
        }
        // The tokenizer's text states emit nothing else.
        _ => Step::Done,
    }
}

/// For the script driver: the script (the current node, about to be popped) is ready, and
/// the tokenizer stops right after its end tag.
#[cold]
#[inline(never)]
fn hand_over_script(tb: &mut TreeBuilder) {
    let script = tb
        .open
        .current()
        .filter(|e| e.name == n::SCRIPT && e.ns == Namespace::Html)
        .map(|e| e.node);
    // (The tokenizer asks `pause_requested` after this token.)
    tb.ready_script = script;
}

/// "text": An end-of-file token.
fn eof<'t>(tb: &mut TreeBuilder, offset: usize) -> Step<'t> {
    tb.error(ErrorCode::EofWithUnclosedElements, offset);
    tb.open.pop();
    Step::Reprocess(tb.original_mode)
}
