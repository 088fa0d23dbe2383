//! Element categories and tag sets of the tree construction stage, as bit flags.
//!
//! HTML elements with a static name look their flags up in a table indexed by the name id
//! (built at compile time); foreign elements get theirs from a short match. Every test the tree
//! builder makes on an element's kind ("is special", "ends list item scope", "has an implied
//! end tag") is then one load and one mask.

use crate::dom::names::{LocalName, Namespace, STATIC_NAME_COUNT, local_name as n};

/// 13.2.4.2: the *special* category.
pub(crate) const SPECIAL: u32 = 1 << 0;
/// Special, but not `address`, `div` or `p`: where the "in body" `li`, `dd` and `dt` start tag
/// loops stop.
pub(crate) const SPECIAL_NOT_ADDRESS_DIV_P: u32 = 1 << 1;
/// 13.2.4.2: the element types that end "has an element in scope".
pub(crate) const SCOPE: u32 = 1 << 2;
/// HTML `ol` and `ul`, which also end "list item scope".
pub(crate) const LIST_ITEM_SCOPE_EXTRA: u32 = 1 << 3;
/// HTML `button`, which also ends "button scope".
pub(crate) const BUTTON_SCOPE_EXTRA: u32 = 1 << 4;
/// HTML `html`, `table` and `template`: the ends of "table scope" (and the table contexts).
pub(crate) const TABLE_SCOPE: u32 = 1 << 5;
/// The elements "reset the insertion mode appropriately" stops at.
pub(crate) const RESET_MODE: u32 = 1 << 6;
/// The elements the "in body" end-of-file and `</body>` entries accept on the stack without a
/// parse error (`dd`, `dt`, `li`, ..., `body`, `html`).
pub(crate) const EOF_ALLOWED: u32 = 1 << 7;
/// 13.2.4.2: the *formatting* category.
pub(crate) const FORMATTING: u32 = 1 << 8;
/// 13.2.6.3: the elements "generate implied end tags" pops.
pub(crate) const IMPLIED_END: u32 = 1 << 9;
/// 13.2.6.3: the elements "generate all implied end tags thoroughly" pops.
pub(crate) const IMPLIED_END_THOROUGH: u32 = 1 << 10;
/// An element in the HTML namespace.
pub(crate) const HTML_NS: u32 = 1 << 11;
/// 13.2.6: a MathML text integration point (`mi`, `mo`, `mn`, `ms`, `mtext`).
pub(crate) const MATHML_TEXT_INTEGRATION_POINT: u32 = 1 << 12;
/// 13.2.6: an HTML integration point (SVG `foreignObject`, `desc`, `title`, and MathML
/// `annotation-xml` with an HTML `encoding`).
pub(crate) const HTML_INTEGRATION_POINT: u32 = 1 << 13;
/// A MathML `annotation-xml` element.
pub(crate) const ANNOTATION_XML: u32 = 1 << 14;
/// HTML `h1` to `h6`.
pub(crate) const HEADING: u32 = 1 << 15;
/// HTML `table`, `tbody`, `tfoot`, `thead` and `tr`: the targets that enable foster parenting.
pub(crate) const FOSTER_TARGET: u32 = 1 << 16;
/// HTML `table`, `tbody`, `template`, `tfoot`, `thead` and `tr`: the current nodes for which
/// "in table" sends characters to "in table text".
pub(crate) const TABLE_TEXT_TARGET: u32 = 1 << 17;
/// HTML `tbody`, `tfoot`, `thead`, `template` and `html`: where "clear the stack back to a table
/// body context" stops.
pub(crate) const TABLE_BODY_CONTEXT: u32 = 1 << 18;
/// HTML `tr`, `template` and `html`: where "clear the stack back to a table row context" stops.
pub(crate) const TABLE_ROW_CONTEXT: u32 = 1 << 19;

const N: usize = STATIC_NAME_COUNT;

const fn set(table: &mut [u32; N], names: &[LocalName], flag: u32) {
    let mut i = 0;
    while i < names.len() {
        table[names[i].0 as usize] |= flag;
        i += 1;
    }
}

const SPECIAL_HTML: &[LocalName] = &[
    n::ADDRESS,
    n::APPLET,
    n::AREA,
    n::ARTICLE,
    n::ASIDE,
    n::BASE,
    n::BASEFONT,
    n::BGSOUND,
    n::BLOCKQUOTE,
    n::BODY,
    n::BR,
    n::BUTTON,
    n::CAPTION,
    n::CENTER,
    n::COL,
    n::COLGROUP,
    n::DD,
    n::DETAILS,
    n::DIR,
    n::DIV,
    n::DL,
    n::DT,
    n::EMBED,
    n::FIELDSET,
    n::FIGCAPTION,
    n::FIGURE,
    n::FOOTER,
    n::FORM,
    n::FRAME,
    n::FRAMESET,
    n::H1,
    n::H2,
    n::H3,
    n::H4,
    n::H5,
    n::H6,
    n::HEAD,
    n::HEADER,
    n::HGROUP,
    n::HR,
    n::HTML,
    n::IFRAME,
    n::IMG,
    n::INPUT,
    n::KEYGEN,
    n::LI,
    n::LINK,
    n::LISTING,
    n::MAIN,
    n::MARQUEE,
    n::MENU,
    n::META,
    n::NAV,
    n::NOEMBED,
    n::NOFRAMES,
    n::NOSCRIPT,
    n::OBJECT,
    n::OL,
    n::P,
    n::PARAM,
    n::PLAINTEXT,
    n::PRE,
    n::SCRIPT,
    n::SEARCH,
    n::SECTION,
    n::SELECT,
    n::SOURCE,
    n::STYLE,
    n::SUMMARY,
    n::TABLE,
    n::TBODY,
    n::TD,
    n::TEMPLATE,
    n::TEXTAREA,
    n::TFOOT,
    n::TH,
    n::THEAD,
    n::TITLE,
    n::TR,
    n::TRACK,
    n::UL,
    n::WBR,
    n::XMP,
];

const SCOPE_HTML: &[LocalName] = &[
    n::APPLET,
    n::CAPTION,
    n::HTML,
    n::TABLE,
    n::TD,
    n::TH,
    n::MARQUEE,
    n::OBJECT,
    n::SELECT,
    n::TEMPLATE,
];

const FORMATTING_HTML: &[LocalName] = &[
    n::A,
    n::B,
    n::BIG,
    n::CODE,
    n::EM,
    n::FONT,
    n::I,
    n::NOBR,
    n::S,
    n::SMALL,
    n::STRIKE,
    n::STRONG,
    n::TT,
    n::U,
];

const IMPLIED_END_HTML: &[LocalName] = &[
    n::DD,
    n::DT,
    n::LI,
    n::OPTGROUP,
    n::OPTION,
    n::P,
    n::RB,
    n::RP,
    n::RT,
    n::RTC,
];

const IMPLIED_END_THOROUGH_EXTRA: &[LocalName] = &[
    n::CAPTION,
    n::COLGROUP,
    n::TBODY,
    n::TD,
    n::TFOOT,
    n::TH,
    n::THEAD,
    n::TR,
];

const RESET_MODE_HTML: &[LocalName] = &[
    n::TD,
    n::TH,
    n::TR,
    n::TBODY,
    n::THEAD,
    n::TFOOT,
    n::CAPTION,
    n::COLGROUP,
    n::TABLE,
    n::TEMPLATE,
    n::HEAD,
    n::BODY,
    n::FRAMESET,
    n::HTML,
];

const EOF_ALLOWED_HTML: &[LocalName] = &[
    n::DD,
    n::DT,
    n::LI,
    n::OPTGROUP,
    n::OPTION,
    n::P,
    n::RB,
    n::RP,
    n::RT,
    n::RTC,
    n::TBODY,
    n::TD,
    n::TFOOT,
    n::TH,
    n::THEAD,
    n::TR,
    n::BODY,
    n::HTML,
];

const fn build_html_flags() -> [u32; N] {
    let mut t = [0u32; N];
    set(&mut t, SPECIAL_HTML, SPECIAL | SPECIAL_NOT_ADDRESS_DIV_P);
    // `address`, `div` and `p` are special, but the list item loops walk past them.
    t[n::ADDRESS.0 as usize] &= !SPECIAL_NOT_ADDRESS_DIV_P;
    t[n::DIV.0 as usize] &= !SPECIAL_NOT_ADDRESS_DIV_P;
    t[n::P.0 as usize] &= !SPECIAL_NOT_ADDRESS_DIV_P;
    set(&mut t, SCOPE_HTML, SCOPE);
    set(&mut t, &[n::OL, n::UL], LIST_ITEM_SCOPE_EXTRA);
    set(&mut t, &[n::BUTTON], BUTTON_SCOPE_EXTRA);
    set(&mut t, &[n::HTML, n::TABLE, n::TEMPLATE], TABLE_SCOPE);
    set(&mut t, RESET_MODE_HTML, RESET_MODE);
    set(&mut t, EOF_ALLOWED_HTML, EOF_ALLOWED);
    set(&mut t, FORMATTING_HTML, FORMATTING);
    set(&mut t, IMPLIED_END_HTML, IMPLIED_END | IMPLIED_END_THOROUGH);
    set(&mut t, IMPLIED_END_THOROUGH_EXTRA, IMPLIED_END_THOROUGH);
    set(&mut t, &[n::H1, n::H2, n::H3, n::H4, n::H5, n::H6], HEADING);
    set(
        &mut t,
        &[n::TABLE, n::TBODY, n::TFOOT, n::THEAD, n::TR],
        FOSTER_TARGET,
    );
    set(
        &mut t,
        &[n::TABLE, n::TBODY, n::TEMPLATE, n::TFOOT, n::THEAD, n::TR],
        TABLE_TEXT_TARGET,
    );
    set(
        &mut t,
        &[n::TBODY, n::TFOOT, n::THEAD, n::TEMPLATE, n::HTML],
        TABLE_BODY_CONTEXT,
    );
    set(&mut t, &[n::TR, n::TEMPLATE, n::HTML], TABLE_ROW_CONTEXT);
    t
}

static HTML_FLAGS: [u32; N] = build_html_flags();

/// The flags of an HTML element named `name` (0 for a name without a static id).
#[inline]
pub(crate) fn html_flags(name: LocalName) -> u32 {
    HTML_FLAGS.get(name.0 as usize).copied().unwrap_or(0) | HTML_NS
}

/// The flags of an element. `html_integration_point` says whether a MathML `annotation-xml`
/// element's start tag had an HTML `encoding` (the element's
/// [`FLAG_HTML_INTEGRATION_POINT`](crate::dom::FLAG_HTML_INTEGRATION_POINT)).
#[inline]
pub(crate) fn element_flags(name: LocalName, ns: Namespace, html_integration_point: bool) -> u32 {
    match ns {
        Namespace::Html => html_flags(name),
        Namespace::MathMl => match name {
            n::MI | n::MO | n::MN | n::MS | n::MTEXT => {
                SPECIAL | SPECIAL_NOT_ADDRESS_DIV_P | SCOPE | MATHML_TEXT_INTEGRATION_POINT
            }
            n::ANNOTATION_XML => {
                let ip = if html_integration_point {
                    HTML_INTEGRATION_POINT
                } else {
                    0
                };
                SPECIAL | SPECIAL_NOT_ADDRESS_DIV_P | SCOPE | ANNOTATION_XML | ip
            }
            _ => 0,
        },
        Namespace::Svg => match name {
            n::FOREIGN_OBJECT | n::DESC | n::TITLE => {
                SPECIAL | SPECIAL_NOT_ADDRESS_DIV_P | SCOPE | HTML_INTEGRATION_POINT
            }
            _ => 0,
        },
        // Only XML documents hold these; the tree builder never sees them.
        Namespace::None | Namespace::Other(_) => 0,
    }
}

/// Whether `c` is one of the five characters the tree construction stage calls whitespace
/// (U+0009, U+000A, U+000C, U+000D, U+0020).
#[inline]
pub(crate) fn is_whitespace_byte(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// The length of the whitespace prefix of `s`.
#[inline]
pub(crate) fn whitespace_prefix_len(s: &str) -> usize {
    s.bytes()
        .position(|b| !is_whitespace_byte(b))
        .unwrap_or(s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories() {
        assert!(html_flags(n::DIV) & SPECIAL != 0);
        assert!(html_flags(n::DIV) & SPECIAL_NOT_ADDRESS_DIV_P == 0);
        assert!(html_flags(n::LI) & SPECIAL_NOT_ADDRESS_DIV_P != 0);
        assert!(html_flags(n::SEARCH) & SPECIAL != 0);
        assert!(html_flags(n::SELECT) & SCOPE != 0);
        assert!(html_flags(n::SPAN) & (SPECIAL | SCOPE | FORMATTING) == 0);
        assert!(html_flags(n::NOBR) & FORMATTING != 0);
        assert!(html_flags(n::TBODY) & IMPLIED_END_THOROUGH != 0);
        assert!(html_flags(n::TBODY) & IMPLIED_END == 0);
        assert!(element_flags(n::DESC, Namespace::Svg, false) & HTML_INTEGRATION_POINT != 0);
        assert!(element_flags(n::DIV, Namespace::Svg, false) == 0);
        assert!(
            element_flags(n::ANNOTATION_XML, Namespace::MathMl, false) & HTML_INTEGRATION_POINT
                == 0
        );
    }
}
