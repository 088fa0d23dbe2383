//! 13.2.6.4.7 The "in body" insertion mode.

use crate::dom::QuirksMode;
use crate::dom::names::{LocalName, Namespace, local_name as n};
use crate::error::ErrorCode;
use crate::tokenizer::State;

use super::super::adoption::Adoption;
use super::super::open_elements::{Kind, Scope};
use super::super::{InsertionMode, Step, TagToken, Text, Tok, TreeBuilder};
use super::{generic_text_element, in_head, in_template};

const HEADINGS: [LocalName; 6] = [n::H1, n::H2, n::H3, n::H4, n::H5, n::H6];

/// The "in body" insertion mode.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match token {
        // "A character token that is U+0000 NULL": parse error; ignore the token.
        Tok::Null(_) => {
            tb.unexpected(token);
            Step::Done
        }
        Tok::Characters(text) => characters(tb, text),
        Tok::Comment { data, source, .. } => {
            tb.insert_comment(data, *source, None);
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
        Tok::StartTag(tag) => start_tag(tb, token, tag),
        Tok::EndTag(tag) => end_tag(tb, token, tag),
        Tok::Eof(_) => eof(tb, token),
    }
}

fn start_tag<'t>(tb: &mut TreeBuilder, token: &Tok<'t>, tag: &TagToken<'t>) -> Step<'t> {
    match tag.name {
        n::HTML => start_tag_html(tb, tag),
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
        n::BODY => start_tag_body(tb, tag),
        n::FRAMESET => start_tag_frameset(tb, tag),
        n::ADDRESS
        | n::ARTICLE
        | n::ASIDE
        | n::BLOCKQUOTE
        | n::CENTER
        | n::DETAILS
        | n::DIALOG
        | n::DIR
        | n::DIV
        | n::DL
        | n::FIELDSET
        | n::FIGCAPTION
        | n::FIGURE
        | n::FOOTER
        | n::HEADER
        | n::HGROUP
        | n::MAIN
        | n::MENU
        | n::NAV
        | n::OL
        | n::P
        | n::SEARCH
        | n::SECTION
        | n::SUMMARY
        | n::UL => start_tag_block(tb, tag),
        n::H1 | n::H2 | n::H3 | n::H4 | n::H5 | n::H6 => start_tag_heading(tb, tag),
        n::PRE | n::LISTING => start_tag_pre_listing(tb, tag),
        n::FORM => start_tag_form(tb, tag),
        n::LI => start_tag_li(tb, tag),
        n::DD | n::DT => start_tag_dd_dt(tb, tag),
        n::PLAINTEXT => start_tag_plaintext(tb, tag),
        n::BUTTON => start_tag_button(tb, tag),
        n::A => start_tag_a(tb, tag),
        n::B
        | n::BIG
        | n::CODE
        | n::EM
        | n::FONT
        | n::I
        | n::S
        | n::SMALL
        | n::STRIKE
        | n::STRONG
        | n::TT
        | n::U => start_tag_formatting(tb, tag),
        n::NOBR => start_tag_nobr(tb, tag),
        n::APPLET | n::MARQUEE | n::OBJECT => start_tag_applet_marquee_object(tb, tag),
        n::TABLE => start_tag_table(tb, tag),
        n::AREA | n::BR | n::EMBED | n::IMG | n::KEYGEN | n::WBR => {
            start_tag_area_br_embed_img_keygen_wbr(tb, tag)
        }
        n::INPUT => start_tag_input(tb, tag),
        n::PARAM | n::SOURCE | n::TRACK => start_tag_param_source_track(tb, tag),
        n::HR => start_tag_hr(tb, tag),
        n::IMAGE => start_tag_image(tb, *tag),
        n::TEXTAREA => start_tag_textarea(tb, tag),
        n::XMP => start_tag_xmp(tb, tag),
        n::IFRAME => start_tag_iframe(tb, tag),
        n::NOEMBED => generic_text_element(tb, tag, false),
        n::NOSCRIPT if tb.scripting => generic_text_element(tb, tag, false),
        n::SELECT => start_tag_select(tb, tag),
        n::OPTION => start_tag_option(tb, tag),
        n::OPTGROUP => start_tag_optgroup(tb, tag),
        n::RB | n::RTC => start_tag_rb_rtc(tb, tag),
        n::RP | n::RT => start_tag_rp_rt(tb, tag),
        n::MATH => start_tag_foreign_root(tb, tag, Namespace::MathMl),
        n::SVG => start_tag_foreign_root(tb, tag, Namespace::Svg),
        n::CAPTION
        | n::COL
        | n::COLGROUP
        | n::FRAME
        | n::HEAD
        | n::TBODY
        | n::TD
        | n::TFOOT
        | n::TH
        | n::THEAD
        | n::TR => {
            tb.unexpected(token);
            Step::Done
        }
        _ => any_other_start_tag(tb, tag),
    }
}

fn end_tag<'t>(tb: &mut TreeBuilder, token: &Tok<'t>, tag: &TagToken<'t>) -> Step<'t> {
    match tag.name {
        n::TEMPLATE => in_head::process(tb, token),
        n::BODY => end_tag_body(tb, tag),
        n::HTML => end_tag_html(tb, tag),
        n::ADDRESS
        | n::ARTICLE
        | n::ASIDE
        | n::BLOCKQUOTE
        | n::BUTTON
        | n::CENTER
        | n::DETAILS
        | n::DIALOG
        | n::DIR
        | n::DIV
        | n::DL
        | n::FIELDSET
        | n::FIGCAPTION
        | n::FIGURE
        | n::FOOTER
        | n::HEADER
        | n::HGROUP
        | n::LISTING
        | n::MAIN
        | n::MENU
        | n::NAV
        | n::OL
        | n::PRE
        | n::SEARCH
        | n::SECTION
        | n::SELECT
        | n::SUMMARY
        | n::UL => end_tag_block(tb, tag),
        n::FORM => end_tag_form(tb, tag),
        n::P => end_tag_p(tb, tag),
        n::LI => end_tag_li(tb, tag),
        n::DD | n::DT => end_tag_dd_dt(tb, tag),
        n::H1 | n::H2 | n::H3 | n::H4 | n::H5 | n::H6 => end_tag_heading(tb, tag),
        n::A
        | n::B
        | n::BIG
        | n::CODE
        | n::EM
        | n::FONT
        | n::I
        | n::NOBR
        | n::S
        | n::SMALL
        | n::STRIKE
        | n::STRONG
        | n::TT
        | n::U => end_tag_formatting(tb, tag),
        n::APPLET | n::MARQUEE | n::OBJECT => end_tag_applet_marquee_object(tb, tag),
        n::BR => end_tag_br(tb, tag),
        _ => any_other_end_tag(tb, tag),
    }
}

// ------------------------------------------------------------------------------------------
// Characters and end-of-file.

/// "in body": character tokens (U+0000 aside).
pub(crate) fn characters<'t>(tb: &mut TreeBuilder, text: &Text<'t>) -> Step<'t> {
    // "Reconstruct the active formatting elements, if any. Insert the token's character." And,
    // for "any other character token": "Set the frameset-ok flag to "not ok"."
    tb.reconstruct_active_formatting();
    tb.insert_characters(text);
    if tb.frameset_ok && !text.is_all_whitespace() {
        tb.frameset_ok = false;
    }
    Step::Done
}

/// "in body": An end-of-file token.
fn eof<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    // "If the stack of template insertion modes is not empty, then process the token using the
    // rules for the "in template" insertion mode."
    if !tb.template_modes.is_empty() {
        return in_template::process(tb, token);
    }
    // "If there is a node in the stack of open elements that is not either a dd element, a dt
    // element, ..., the body element, or the html element, then this is a parse error."
    if tb.open.has_element_not_allowed_at_eof() {
        tb.error(ErrorCode::EofWithUnclosedElements, token.offset());
    }
    tb.stop_parsing();
    Step::Done
}

// ------------------------------------------------------------------------------------------
// Start tags.

/// "in body": A start tag whose tag name is "html".
fn start_tag_html<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
    // "If there is a template element on the stack of open elements, then ignore the token.
    // Otherwise, for each attribute on the token, check to see if the attribute is already
    // present on the top element of the stack of open elements. If it is not, add the attribute
    // and its corresponding value to that element."
    if tb.open.contains_html(n::TEMPLATE) {
        return Step::Done;
    }
    if let Some(top) = tb.open.get(0).map(|e| e.node) {
        add_missing_attributes(tb, top, tag);
    }
    Step::Done
}

/// "in body": A start tag whose tag name is "body".
fn start_tag_body<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
    let Some(body) = second_element_if_body(tb) else {
        return Step::Done;
    };
    if tb.open.contains_html(n::TEMPLATE) {
        return Step::Done;
    }
    tb.frameset_ok = false;
    add_missing_attributes(tb, body, tag);
    Step::Done
}

/// The second element on the stack, if there is one and it is a `body` element.
fn second_element_if_body(tb: &TreeBuilder) -> Option<indextree::NodeId> {
    tb.open
        .get(1)
        .filter(|e| e.is_html(n::BODY))
        .map(|e| e.node)
}

/// Adds the attributes of `tag` that `element` (the `html` or `body` element) does not have
/// yet.
fn add_missing_attributes(tb: &mut TreeBuilder, element: indextree::NodeId, tag: &TagToken<'_>) {
    tb.merge_attributes(element, tag);
}

/// "in body": A start tag whose tag name is "frameset".
fn start_tag_frameset<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
    let Some(body) = second_element_if_body(tb) else {
        return Step::Done;
    };
    if !tb.frameset_ok {
        return Step::Done;
    }
    // "Remove the second element on the stack of open elements from its parent node, if it has
    // one. Pop all the nodes from the bottom of the stack of open elements, from the current
    // node up to, but not including, the root html element. Insert an HTML element for the
    // token. Switch the insertion mode to "in frameset"."
    tb.doc.detach_node(body);
    tb.open.truncate(1);
    tb.insert_html_element(tag);
    tb.mode = InsertionMode::InFrameset;
    Step::Done
}

/// "If the stack of open elements has a p element in button scope, then close a p element."
fn close_p_in_button_scope(tb: &mut TreeBuilder, offset: usize) {
    if tb.open.has_in_scope(n::P, Scope::Button) {
        close_p_element(tb, offset);
    }
}

/// "Close a p element".
pub(crate) fn close_p_element(tb: &mut TreeBuilder, offset: usize) {
    tb.open.generate_implied_end_tags(Some(n::P));
    if !tb.open.current_is(n::P) {
        tb.error(ErrorCode::UnclosedElements, offset);
    }
    tb.open.pop_until_html(n::P);
}

/// "in body": A start tag whose tag name is one of: "address", "article", "aside", ..., "ul".
fn start_tag_block<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    close_p_in_button_scope(tb, tag.offset);
    tb.insert_html_element(tag);
    Step::Done
}

/// "in body": A start tag whose tag name is one of: "h1", "h2", "h3", "h4", "h5", "h6".
fn start_tag_heading<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    close_p_in_button_scope(tb, tag.offset);
    if tb
        .open
        .current()
        .is_some_and(|e| e.ns == Namespace::Html && HEADINGS.contains(&e.name))
    {
        tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
        tb.open.pop();
    }
    tb.insert_html_element(tag);
    Step::Done
}

/// "in body": A start tag whose tag name is one of: "pre", "listing".
fn start_tag_pre_listing<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    close_p_in_button_scope(tb, tag.offset);
    tb.insert_html_element(tag);
    // "If the next token is a U+000A LINE FEED (LF) character token, then ignore that token."
    tb.skip_next_newline = true;
    tb.frameset_ok = false;
    Step::Done
}

/// "in body": A start tag whose tag name is "form".
fn start_tag_form<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    let in_template = tb.parsing_template_contents();
    if tb.form.is_some() && !in_template {
        tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
        return Step::Done;
    }
    close_p_in_button_scope(tb, tag.offset);
    let form = tb.insert_html_element(tag);
    if !in_template {
        tb.form = Some(form);
    }
    Step::Done
}

/// "in body": A start tag whose tag name is "li".
fn start_tag_li<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.frameset_ok = false;
    // The loop walks from the current node until an li element (close it) or a special element
    // other than address, div and p (stop): the nearer of the two decides.
    let stop = tb.open.last_of_kind(Kind::SpecialNotAddressDivP);
    if let Some(p) = tb.open.last_html(n::LI) {
        if stop.is_none_or(|s| p >= s) {
            close_list_item(tb, n::LI, tag.offset);
        }
    }
    close_p_in_button_scope(tb, tag.offset);
    tb.insert_html_element(tag);
    Step::Done
}

/// The "li"/"dd"/"dt" loops' substeps: generate implied end tags except for `name`, check the
/// current node, pop until a `name` element has been popped.
fn close_list_item(tb: &mut TreeBuilder, name: LocalName, offset: usize) {
    tb.open.generate_implied_end_tags(Some(name));
    if !tb.open.current_is(name) {
        tb.error(ErrorCode::UnclosedElements, offset);
    }
    tb.open.pop_until_html(name);
}

/// "in body": A start tag whose tag name is one of: "dd", "dt".
fn start_tag_dd_dt<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.frameset_ok = false;
    let stop = tb.open.last_of_kind(Kind::SpecialNotAddressDivP);
    let dd = tb.open.last_html(n::DD);
    let dt = tb.open.last_html(n::DT);
    let (p, name) = match (dd, dt) {
        (Some(a), Some(b)) if a > b => (Some(a), n::DD),
        (_, Some(b)) => (Some(b), n::DT),
        (Some(a), None) => (Some(a), n::DD),
        (None, None) => (None, n::DD),
    };
    if let Some(p) = p {
        if stop.is_none_or(|s| p >= s) {
            close_list_item(tb, name, tag.offset);
        }
    }
    close_p_in_button_scope(tb, tag.offset);
    tb.insert_html_element(tag);
    Step::Done
}

/// "in body": A start tag whose tag name is "plaintext".
fn start_tag_plaintext<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    close_p_in_button_scope(tb, tag.offset);
    tb.insert_html_element(tag);
    tb.switch_tokenizer(State::Plaintext);
    Step::Done
}

/// "in body": A start tag whose tag name is "button".
fn start_tag_button<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if tb.open.has_in_scope(n::BUTTON, Scope::Default) {
        tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
        tb.open.generate_implied_end_tags(None);
        tb.open.pop_until_html(n::BUTTON);
    }
    tb.reconstruct_active_formatting();
    tb.insert_html_element(tag);
    tb.frameset_ok = false;
    Step::Done
}

/// "in body": A start tag whose tag name is "a".
fn start_tag_a<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    // "If the list of active formatting elements contains an a element between the end of the
    // list and the last marker on the list, then this is a parse error; run the adoption agency
    // algorithm for the token, then remove that element from the list of active formatting
    // elements and the stack of open elements if the adoption agency algorithm didn't already
    // remove it."
    if let Some(entry) = tb.active.last_after_marker(n::A) {
        tb.tag_error(ErrorCode::MisnestedFormattingElement, tag, false);
        let element = tb.active.element(entry);
        run_adoption_agency(tb, tag);
        if let Some(element) = element {
            tb.active.remove_node(element);
            if let Some(p) = tb.open.position(element) {
                tb.open.remove_at(p);
            }
        }
    }
    start_tag_formatting(tb, tag)
}

/// "in body": A start tag whose tag name is one of: "b", "big", "code", "em", "font", "i",
/// "s", "small", "strike", "strong", "tt", "u".
fn start_tag_formatting<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.reconstruct_active_formatting();
    let element = tb.insert_html_element(tag);
    tb.push_active_formatting(element);
    Step::Done
}

/// "in body": A start tag whose tag name is "nobr".
fn start_tag_nobr<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.reconstruct_active_formatting();
    if tb.open.has_in_scope(n::NOBR, Scope::Default) {
        tb.tag_error(ErrorCode::MisnestedFormattingElement, tag, false);
        run_adoption_agency(tb, tag);
        tb.reconstruct_active_formatting();
    }
    let element = tb.insert_html_element(tag);
    tb.push_active_formatting(element);
    Step::Done
}

/// "in body": A start tag whose tag name is one of: "applet", "marquee", "object".
fn start_tag_applet_marquee_object<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.reconstruct_active_formatting();
    tb.insert_html_element(tag);
    tb.active.push_marker();
    tb.frameset_ok = false;
    Step::Done
}

/// "in body": A start tag whose tag name is "table".
fn start_tag_table<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if tb.doc.quirks_mode != QuirksMode::Quirks {
        close_p_in_button_scope(tb, tag.offset);
    }
    tb.insert_html_element(tag);
    tb.frameset_ok = false;
    tb.mode = InsertionMode::InTable;
    Step::Done
}

/// "in body": A start tag whose tag name is one of: "area", "br", "embed", "img", "keygen",
/// "wbr".
fn start_tag_area_br_embed_img_keygen_wbr<'t>(
    tb: &mut TreeBuilder,
    tag: &TagToken<'_>,
) -> Step<'t> {
    tb.reconstruct_active_formatting();
    tb.insert_html_element(tag);
    tb.open.pop();
    tb.acknowledge_self_closing();
    tb.frameset_ok = false;
    Step::Done
}

/// "in body": A start tag whose tag name is "input".
fn start_tag_input<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    // "If the parser's fragment context element is a select element: parse error; ignore the
    // token."
    if tb.context_is(n::SELECT) {
        tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
        return Step::Done;
    }
    if tb.open.has_in_scope(n::SELECT, Scope::Default) {
        tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
        tb.open.pop_until_html(n::SELECT);
    }
    tb.reconstruct_active_formatting();
    tb.insert_html_element(tag);
    tb.open.pop();
    tb.acknowledge_self_closing();
    if !tag
        .attr(n::TYPE)
        .is_some_and(|t| t.eq_ignore_ascii_case("hidden"))
    {
        tb.frameset_ok = false;
    }
    Step::Done
}

/// "in body": A start tag whose tag name is one of: "param", "source", "track".
fn start_tag_param_source_track<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.insert_html_element(tag);
    tb.open.pop();
    tb.acknowledge_self_closing();
    Step::Done
}

/// "in body": A start tag whose tag name is "hr".
fn start_tag_hr<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    close_p_in_button_scope(tb, tag.offset);
    if tb.open.has_in_scope(n::SELECT, Scope::Default) {
        tb.open.generate_implied_end_tags(None);
        if tb.open.has_in_scope(n::OPTION, Scope::Default)
            || tb.open.has_in_scope(n::OPTGROUP, Scope::Default)
        {
            tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
        }
    }
    tb.insert_html_element(tag);
    tb.open.pop();
    tb.acknowledge_self_closing();
    tb.frameset_ok = false;
    Step::Done
}

/// "in body": A start tag whose tag name is "image": "Change the token's tag name to "img" and
/// reprocess it. (Don't ask.)"
fn start_tag_image<'t>(tb: &mut TreeBuilder, mut tag: TagToken<'t>) -> Step<'t> {
    tb.tag_error(ErrorCode::UnexpectedStartTag, &tag, false);
    tag.name = n::IMG;
    Step::ReprocessAs(tb.mode, Tok::StartTag(tag))
}

/// "in body": A start tag whose tag name is "textarea".
fn start_tag_textarea<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.insert_html_element(tag);
    tb.skip_next_newline = true;
    tb.switch_tokenizer(State::Rcdata);
    tb.original_mode = tb.mode;
    tb.frameset_ok = false;
    tb.mode = InsertionMode::Text;
    Step::Done
}

/// "in body": A start tag whose tag name is "xmp".
fn start_tag_xmp<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    close_p_in_button_scope(tb, tag.offset);
    tb.reconstruct_active_formatting();
    tb.frameset_ok = false;
    generic_text_element(tb, tag, false)
}

/// "in body": A start tag whose tag name is "iframe".
fn start_tag_iframe<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.frameset_ok = false;
    generic_text_element(tb, tag, false)
}

/// "in body": A start tag whose tag name is "select".
fn start_tag_select<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if tb.context_is(n::SELECT) {
        tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
        return Step::Done;
    }
    if tb.open.has_in_scope(n::SELECT, Scope::Default) {
        tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
        tb.open.pop_until_html(n::SELECT);
        return Step::Done;
    }
    tb.reconstruct_active_formatting();
    tb.insert_html_element(tag);
    tb.frameset_ok = false;
    Step::Done
}

/// "in body": A start tag whose tag name is "option".
fn start_tag_option<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if tb.open.has_in_scope(n::SELECT, Scope::Default) {
        tb.open.generate_implied_end_tags(Some(n::OPTGROUP));
        if tb.open.has_in_scope(n::OPTION, Scope::Default) {
            tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
        }
    } else if tb.open.current_is(n::OPTION) {
        tb.open.pop();
    }
    tb.reconstruct_active_formatting();
    tb.insert_html_element(tag);
    Step::Done
}

/// "in body": A start tag whose tag name is "optgroup".
fn start_tag_optgroup<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if tb.open.has_in_scope(n::SELECT, Scope::Default) {
        tb.open.generate_implied_end_tags(None);
        if tb.open.has_in_scope(n::OPTION, Scope::Default)
            || tb.open.has_in_scope(n::OPTGROUP, Scope::Default)
        {
            tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
        }
    } else if tb.open.current_is(n::OPTION) {
        tb.open.pop();
    }
    tb.reconstruct_active_formatting();
    tb.insert_html_element(tag);
    Step::Done
}

/// "in body": A start tag whose tag name is one of: "rb", "rtc".
fn start_tag_rb_rtc<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if tb.open.has_in_scope(n::RUBY, Scope::Default) {
        tb.open.generate_implied_end_tags(None);
        if !tb.open.current_is(n::RUBY) {
            tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
        }
    }
    tb.insert_html_element(tag);
    Step::Done
}

/// "in body": A start tag whose tag name is one of: "rp", "rt".
fn start_tag_rp_rt<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if tb.open.has_in_scope(n::RUBY, Scope::Default) {
        tb.open.generate_implied_end_tags(Some(n::RTC));
        if !tb.open.current_is(n::RTC) && !tb.open.current_is(n::RUBY) {
            tb.tag_error(ErrorCode::UnexpectedStartTag, tag, false);
        }
    }
    tb.insert_html_element(tag);
    Step::Done
}

/// "in body": A start tag whose tag name is "math" / "svg".
fn start_tag_foreign_root<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>, ns: Namespace) -> Step<'t> {
    tb.reconstruct_active_formatting();
    // The MathML/SVG and foreign attribute adjustments happen as the element is created.
    tb.insert_foreign_element(tag, ns, false);
    if tag.self_closing {
        tb.open.pop();
        tb.acknowledge_self_closing();
    }
    Step::Done
}

/// "in body": Any other start tag.
fn any_other_start_tag<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.reconstruct_active_formatting();
    tb.insert_html_element(tag);
    Step::Done
}

// ------------------------------------------------------------------------------------------
// End tags.

/// "in body": An end tag whose tag name is "body".
fn end_tag_body<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if !tb.open.has_in_scope(n::BODY, Scope::Default) {
        tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
        return Step::Done;
    }
    if tb.open.has_element_not_allowed_at_eof() {
        tb.tag_error(ErrorCode::UnclosedElements, tag, true);
    }
    tb.mode = InsertionMode::AfterBody;
    Step::Done
}

/// "in body": An end tag whose tag name is "html".
fn end_tag_html<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if !tb.open.has_in_scope(n::BODY, Scope::Default) {
        tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
        return Step::Done;
    }
    if tb.open.has_element_not_allowed_at_eof() {
        tb.tag_error(ErrorCode::UnclosedElements, tag, true);
    }
    Step::Reprocess(InsertionMode::AfterBody)
}

/// The end tags that close an element of their name in scope: "generate implied end tags; if
/// the current node is not an HTML element with the same tag name, parse error; pop until
/// one has been popped".
fn close_element_in_scope(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> bool {
    if !tb.open.has_in_scope(tag.name, Scope::Default) {
        tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
        return false;
    }
    tb.open.generate_implied_end_tags(None);
    if !tb.open.current_is(tag.name) {
        tb.tag_error(ErrorCode::UnclosedElements, tag, true);
    }
    tb.open.pop_until_html(tag.name);
    true
}

/// "in body": An end tag whose tag name is one of: "address", "article", "aside", ...,
/// "select", "summary", "ul".
fn end_tag_block<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    close_element_in_scope(tb, tag);
    Step::Done
}

/// "in body": An end tag whose tag name is "form".
fn end_tag_form<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if !tb.parsing_template_contents() {
        let node = tb.form.take();
        let Some(node) = node.filter(|&f| tb.open.has_node_in_scope(f, Scope::Default)) else {
            tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
            return Step::Done;
        };
        tb.open.generate_implied_end_tags(None);
        if tb.open.current().map(|e| e.node) != Some(node) {
            tb.tag_error(ErrorCode::UnclosedElements, tag, true);
        }
        if let Some(p) = tb.open.position(node) {
            tb.open.remove_at(p);
        }
    } else {
        if !tb.open.has_in_scope(n::FORM, Scope::Default) {
            tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
            return Step::Done;
        }
        tb.open.generate_implied_end_tags(None);
        if !tb.open.current_is(n::FORM) {
            tb.tag_error(ErrorCode::UnclosedElements, tag, true);
        }
        tb.open.pop_until_html(n::FORM);
    }
    Step::Done
}

/// "in body": An end tag whose tag name is "p".
fn end_tag_p<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if !tb.open.has_in_scope(n::P, Scope::Button) {
        tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
        tb.insert_html_element_named(n::P, tag.offset);
    }
    close_p_element(tb, tag.offset);
    Step::Done
}

/// "in body": An end tag whose tag name is "li".
fn end_tag_li<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if !tb.open.has_in_scope(n::LI, Scope::ListItem) {
        tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
        return Step::Done;
    }
    close_list_item(tb, n::LI, tag.offset);
    Step::Done
}

/// "in body": An end tag whose tag name is one of: "dd", "dt".
fn end_tag_dd_dt<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if !tb.open.has_in_scope(tag.name, Scope::Default) {
        tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
        return Step::Done;
    }
    close_list_item(tb, tag.name, tag.offset);
    Step::Done
}

/// "in body": An end tag whose tag name is one of: "h1", "h2", "h3", "h4", "h5", "h6".
fn end_tag_heading<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if tb.open.any_in_scope(&HEADINGS, Scope::Default).is_none() {
        tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
        return Step::Done;
    }
    tb.open.generate_implied_end_tags(None);
    if !tb.open.current_is(tag.name) {
        tb.tag_error(ErrorCode::UnclosedElements, tag, true);
    }
    tb.open.pop_until_any_html(&HEADINGS);
    Step::Done
}

/// "in body": An end tag whose tag name is one of: "a", "b", "big", "code", "em", "font", "i",
/// "nobr", "s", "small", "strike", "strong", "tt", "u".
fn end_tag_formatting<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    run_adoption_agency(tb, tag);
    Step::Done
}

/// "Run the adoption agency algorithm for the token", including its "act as described in the
/// 'any other end tag' entry" exit (for the `a` and `nobr` start tags too).
fn run_adoption_agency(tb: &mut TreeBuilder, tag: &TagToken<'_>) {
    if let Adoption::AnyOtherEndTag = tb.adoption_agency(tag) {
        any_other_end_tag(tb, tag);
    }
}

/// "in body": An end tag token whose tag name is one of: "applet", "marquee", "object".
fn end_tag_applet_marquee_object<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    if close_element_in_scope(tb, tag) {
        tb.active.clear_to_last_marker();
    }
    Step::Done
}

/// "in body": An end tag whose tag name is "br": "Parse error. Drop the attributes from the
/// token, and act as described in the next entry; i.e. act as if this was a "br" start tag
/// token with no attributes."
fn end_tag_br<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true);
    start_tag_area_br_embed_img_keygen_wbr(tb, &TagToken::synthetic(n::BR, tag.offset))
}

/// "in body": Any other end tag.
///
/// The loop walks from the current node until an HTML element with the token's name (close
/// it) or a special element (parse error; ignore): the nearer of the two decides, and the stack
/// knows both positions.
pub(crate) fn any_other_end_tag<'t>(tb: &mut TreeBuilder, tag: &TagToken<'_>) -> Step<'t> {
    let special = tb.open.last_of_kind(Kind::Special);
    match tb.open.last_html(tag.name) {
        Some(p) if special.is_none_or(|s| p >= s) => {
            tb.open.generate_implied_end_tags(Some(tag.name));
            if p + 1 != tb.open.len() {
                tb.tag_error(ErrorCode::UnclosedElements, tag, true);
            }
            tb.open.truncate(p);
        }
        _ => tb.tag_error(ErrorCode::UnexpectedEndTag, tag, true),
    }
    Step::Done
}
