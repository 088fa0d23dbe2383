//! 13.2.6.5 "The rules for parsing tokens in foreign content", and the SVG, MathML and foreign
//! attribute adjustments of 13.2.6.1.

use crate::dom::names::{AttrNamespace, LocalName, Namespace, local_name as n};
use crate::error::ErrorCode;

use super::tag_sets::{HTML_INTEGRATION_POINT, HTML_NS, MATHML_TEXT_INTEGRATION_POINT};
use super::{Step, TagToken, Tok, TreeBuilder};

/// The SVG tag-name table ("Any other start tag" in foreign content): the token's lowercase
/// name and the element's name.
const SVG_TAG_NAMES: [(LocalName, LocalName); 37] = [
    (n::ALTGLYPH, n::ALT_GLYPH),
    (n::ALTGLYPHDEF, n::ALT_GLYPH_DEF),
    (n::ALTGLYPHITEM, n::ALT_GLYPH_ITEM),
    (n::ANIMATECOLOR, n::ANIMATE_COLOR),
    (n::ANIMATEMOTION, n::ANIMATE_MOTION),
    (n::ANIMATETRANSFORM, n::ANIMATE_TRANSFORM),
    (n::CLIPPATH, n::CLIP_PATH),
    (n::FEBLEND, n::FE_BLEND),
    (n::FECOLORMATRIX, n::FE_COLOR_MATRIX),
    (n::FECOMPONENTTRANSFER, n::FE_COMPONENT_TRANSFER),
    (n::FECOMPOSITE, n::FE_COMPOSITE),
    (n::FECONVOLVEMATRIX, n::FE_CONVOLVE_MATRIX),
    (n::FEDIFFUSELIGHTING, n::FE_DIFFUSE_LIGHTING),
    (n::FEDISPLACEMENTMAP, n::FE_DISPLACEMENT_MAP),
    (n::FEDISTANTLIGHT, n::FE_DISTANT_LIGHT),
    (n::FEDROPSHADOW, n::FE_DROP_SHADOW),
    (n::FEFLOOD, n::FE_FLOOD),
    (n::FEFUNCA, n::FE_FUNC_A),
    (n::FEFUNCB, n::FE_FUNC_B),
    (n::FEFUNCG, n::FE_FUNC_G),
    (n::FEFUNCR, n::FE_FUNC_R),
    (n::FEGAUSSIANBLUR, n::FE_GAUSSIAN_BLUR),
    (n::FEIMAGE, n::FE_IMAGE),
    (n::FEMERGE, n::FE_MERGE),
    (n::FEMERGENODE, n::FE_MERGE_NODE),
    (n::FEMORPHOLOGY, n::FE_MORPHOLOGY),
    (n::FEOFFSET, n::FE_OFFSET),
    (n::FEPOINTLIGHT, n::FE_POINT_LIGHT),
    (n::FESPECULARLIGHTING, n::FE_SPECULAR_LIGHTING),
    (n::FESPOTLIGHT, n::FE_SPOT_LIGHT),
    (n::FETILE, n::FE_TILE),
    (n::FETURBULENCE, n::FE_TURBULENCE),
    (n::FOREIGNOBJECT, n::FOREIGN_OBJECT),
    (n::GLYPHREF, n::GLYPH_REF),
    (n::LINEARGRADIENT, n::LINEAR_GRADIENT),
    (n::RADIALGRADIENT, n::RADIAL_GRADIENT),
    (n::TEXTPATH, n::TEXT_PATH),
];

/// The "adjust SVG attributes" table: the token's lowercase name and the element's.
const SVG_ATTRIBUTE_NAMES: [(LocalName, LocalName); 58] = [
    (n::ATTRIBUTENAME, n::ATTRIBUTE_NAME),
    (n::ATTRIBUTETYPE, n::ATTRIBUTE_TYPE),
    (n::BASEFREQUENCY, n::BASE_FREQUENCY),
    (n::BASEPROFILE, n::BASE_PROFILE),
    (n::CALCMODE, n::CALC_MODE),
    (n::CLIPPATHUNITS, n::CLIP_PATH_UNITS),
    (n::DIFFUSECONSTANT, n::DIFFUSE_CONSTANT),
    (n::EDGEMODE, n::EDGE_MODE),
    (n::FILTERUNITS, n::FILTER_UNITS),
    (n::GLYPHREF, n::GLYPH_REF),
    (n::GRADIENTTRANSFORM, n::GRADIENT_TRANSFORM),
    (n::GRADIENTUNITS, n::GRADIENT_UNITS),
    (n::KERNELMATRIX, n::KERNEL_MATRIX),
    (n::KERNELUNITLENGTH, n::KERNEL_UNIT_LENGTH),
    (n::KEYPOINTS, n::KEY_POINTS),
    (n::KEYSPLINES, n::KEY_SPLINES),
    (n::KEYTIMES, n::KEY_TIMES),
    (n::LENGTHADJUST, n::LENGTH_ADJUST),
    (n::LIMITINGCONEANGLE, n::LIMITING_CONE_ANGLE),
    (n::MARKERHEIGHT, n::MARKER_HEIGHT),
    (n::MARKERUNITS, n::MARKER_UNITS),
    (n::MARKERWIDTH, n::MARKER_WIDTH),
    (n::MASKCONTENTUNITS, n::MASK_CONTENT_UNITS),
    (n::MASKUNITS, n::MASK_UNITS),
    (n::NUMOCTAVES, n::NUM_OCTAVES),
    (n::PATHLENGTH, n::PATH_LENGTH),
    (n::PATTERNCONTENTUNITS, n::PATTERN_CONTENT_UNITS),
    (n::PATTERNTRANSFORM, n::PATTERN_TRANSFORM),
    (n::PATTERNUNITS, n::PATTERN_UNITS),
    (n::POINTSATX, n::POINTS_AT_X),
    (n::POINTSATY, n::POINTS_AT_Y),
    (n::POINTSATZ, n::POINTS_AT_Z),
    (n::PRESERVEALPHA, n::PRESERVE_ALPHA),
    (n::PRESERVEASPECTRATIO, n::PRESERVE_ASPECT_RATIO),
    (n::PRIMITIVEUNITS, n::PRIMITIVE_UNITS),
    (n::REFX, n::REF_X),
    (n::REFY, n::REF_Y),
    (n::REPEATCOUNT, n::REPEAT_COUNT),
    (n::REPEATDUR, n::REPEAT_DUR),
    (n::REQUIREDEXTENSIONS, n::REQUIRED_EXTENSIONS),
    (n::REQUIREDFEATURES, n::REQUIRED_FEATURES),
    (n::SPECULARCONSTANT, n::SPECULAR_CONSTANT),
    (n::SPECULAREXPONENT, n::SPECULAR_EXPONENT),
    (n::SPREADMETHOD, n::SPREAD_METHOD),
    (n::STARTOFFSET, n::START_OFFSET),
    (n::STDDEVIATION, n::STD_DEVIATION),
    (n::STITCHTILES, n::STITCH_TILES),
    (n::SURFACESCALE, n::SURFACE_SCALE),
    (n::SYSTEMLANGUAGE, n::SYSTEM_LANGUAGE),
    (n::TABLEVALUES, n::TABLE_VALUES),
    (n::TARGETX, n::TARGET_X),
    (n::TARGETY, n::TARGET_Y),
    (n::TEXTLENGTH, n::TEXT_LENGTH),
    (n::VIEWBOX, n::VIEW_BOX),
    (n::VIEWTARGET, n::VIEW_TARGET),
    (n::XCHANNELSELECTOR, n::X_CHANNEL_SELECTOR),
    (n::YCHANNELSELECTOR, n::Y_CHANNEL_SELECTOR),
    (n::ZOOMANDPAN, n::ZOOM_AND_PAN),
];

/// The SVG element name for the token tag name `name` (the "any other start tag" table).
#[inline]
pub(crate) fn adjust_svg_tag_name(name: LocalName) -> LocalName {
    SVG_TAG_NAMES
        .iter()
        .find(|&&(lower, _)| lower == name)
        .map_or(name, |&(_, adjusted)| adjusted)
}

/// A foreign element name converted to ASCII lowercase (the inverse of the SVG tag-name
/// table; every other name the parser gives a foreign element is already lowercase).
#[inline]
pub(crate) fn lowercase_name(name: LocalName) -> LocalName {
    SVG_TAG_NAMES
        .iter()
        .find(|&&(_, adjusted)| adjusted == name)
        .map_or(name, |&(lower, _)| lower)
}

/// The namespace and local name of an attribute named `name` (as on the token) on a foreign
/// element in `ns`: "adjust MathML attributes" or "adjust SVG attributes", then "adjust
/// foreign attributes".
pub(crate) fn adjust_attribute(name: LocalName, ns: Namespace) -> (AttrNamespace, LocalName) {
    let name = match ns {
        Namespace::MathMl if name == n::DEFINITIONURL => n::DEFINITION_URL,
        Namespace::Svg => SVG_ATTRIBUTE_NAMES
            .iter()
            .find(|&&(lower, _)| lower == name)
            .map_or(name, |&(_, adjusted)| adjusted),
        _ => name,
    };
    match name {
        n::XLINK_ACTUATE => (AttrNamespace::XLink, n::ACTUATE),
        n::XLINK_ARCROLE => (AttrNamespace::XLink, n::ARCROLE),
        n::XLINK_HREF => (AttrNamespace::XLink, n::HREF),
        n::XLINK_ROLE => (AttrNamespace::XLink, n::ROLE),
        n::XLINK_SHOW => (AttrNamespace::XLink, n::SHOW),
        n::XLINK_TITLE => (AttrNamespace::XLink, n::TITLE),
        n::XLINK_TYPE => (AttrNamespace::XLink, n::TYPE),
        n::XML_LANG => (AttrNamespace::Xml, n::LANG),
        n::XML_SPACE => (AttrNamespace::Xml, n::SPACE),
        n::XMLNS => (AttrNamespace::Xmlns, n::XMLNS),
        n::XMLNS_XLINK => (AttrNamespace::Xmlns, n::XLINK),
        _ => (AttrNamespace::None, name),
    }
}

/// Processes `token` using the rules for parsing tokens in foreign content.
pub(crate) fn process<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    match *token {
        // "A character token that is U+0000 NULL": parse error; insert U+FFFD.
        Tok::Null(offset) => {
            tb.error(ErrorCode::UnexpectedNullCharacterInTree, offset);
            tb.insert_characters(&super::Text {
                text: "\u{FFFD}",
                offset,
                verbatim: false,
            });
            Step::Done
        }
        // Whitespace: insert the characters. "Any other character token": insert, and set the
        // frameset-ok flag to "not ok".
        Tok::Characters(text) => {
            if !text.is_all_whitespace() {
                tb.frameset_ok = false;
            }
            tb.insert_characters(&text);
            Step::Done
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
        Tok::StartTag(tag) if breaks_out(&tag) => start_tag_breaking_out(tb, token),
        Tok::StartTag(tag) => any_other_start_tag(tb, tag),
        Tok::EndTag(tag) if tag.name == n::BR || tag.name == n::P => {
            start_tag_breaking_out(tb, token)
        }
        Tok::EndTag(tag) if tag.name == n::SCRIPT && current_is_svg_script(tb) => {
            // "An end tag whose tag name is "script", if the current node is an SVG script
            // element": pop it (the script is not run).
            tb.open.pop();
            Step::Done
        }
        Tok::EndTag(tag) => any_other_end_tag(tb, token, tag),
        // The dispatcher sends end-of-file to the insertion mode.
        Tok::Eof(_) => tb.process_in_mode(tb.mode, token),
    }
}

fn current_is_svg_script(tb: &TreeBuilder) -> bool {
    tb.open
        .current()
        .is_some_and(|e| e.ns == Namespace::Svg && e.name == n::SCRIPT)
}

/// The start tags that leave foreign content: `b`, `big`, `blockquote`, ... and `font` with a
/// `color`, `face` or `size` attribute.
fn breaks_out(tag: &TagToken<'_>) -> bool {
    match tag.name {
        n::B
        | n::BIG
        | n::BLOCKQUOTE
        | n::BODY
        | n::BR
        | n::CENTER
        | n::CODE
        | n::DD
        | n::DIV
        | n::DL
        | n::DT
        | n::EM
        | n::EMBED
        | n::H1
        | n::H2
        | n::H3
        | n::H4
        | n::H5
        | n::H6
        | n::HEAD
        | n::HR
        | n::I
        | n::IMG
        | n::LI
        | n::LISTING
        | n::MENU
        | n::META
        | n::NOBR
        | n::OL
        | n::P
        | n::PRE
        | n::RUBY
        | n::S
        | n::SMALL
        | n::SPAN
        | n::STRONG
        | n::STRIKE
        | n::SUB
        | n::SUP
        | n::TABLE
        | n::TT
        | n::U
        | n::UL
        | n::VAR => true,
        n::FONT => tag
            .attrs()
            .any(|a| matches!(a.name_id, Some(n::COLOR | n::FACE | n::SIZE))),
        _ => false,
    }
}

/// "A start tag whose tag name is one of: "b", "big", ...", "An end tag whose tag name is "br",
/// "p"": parse error; pop until the current node is a MathML text integration point, an HTML
/// integration point or an HTML element; reprocess in HTML content.
fn start_tag_breaking_out<'t>(tb: &mut TreeBuilder, token: &Tok<'t>) -> Step<'t> {
    tb.unexpected(token);
    while let Some(e) = tb.open.current() {
        if e.flags & (MATHML_TEXT_INTEGRATION_POINT | HTML_INTEGRATION_POINT | HTML_NS) != 0 {
            break;
        }
        tb.open.pop();
    }
    tb.process_in_mode(tb.mode, token)
}

/// "Any other start tag" in foreign content.
fn any_other_start_tag<'t>(tb: &mut TreeBuilder, tag: TagToken<'t>) -> Step<'t> {
    let Some((_, ns, _)) = tb.adjusted_current() else {
        return Step::Done;
    };
    let mut tag = tag;
    if ns == Namespace::Svg {
        tag.name = adjust_svg_tag_name(tag.name);
    }
    // The attribute adjustments happen as the element is created.
    tb.insert_foreign_element(&tag, ns, false);
    if tag.self_closing {
        // "If the token's tag name is "script", and the new current node is in the SVG
        // namespace": acknowledge the flag and act as for a "script" end tag (pop; the script is
        // not run). Otherwise pop the current node and acknowledge the flag.
        tb.open.pop();
        tb.acknowledge_self_closing();
    }
    Step::Done
}

/// "Any other end tag" in foreign content. The loop walks the foreign elements at the bottom
/// of the stack; it is answered from the position lists instead: the nearest foreign element
/// with the token's name (in ASCII lowercase), and the nearest HTML element.
fn any_other_end_tag<'t>(tb: &mut TreeBuilder, token: &Tok<'t>, tag: TagToken<'t>) -> Step<'t> {
    let Some(current) = tb.open.current().copied() else {
        return Step::Done;
    };
    // "If node's tag name, converted to ASCII lowercase, is not the same as the tag name of the
    // token, then this is a parse error."
    if current.name != tag.name {
        tb.unexpected(token);
    }
    let top = tb.open.len() - 1;
    // "Loop: If node is the topmost element in the stack of open elements, then return."
    if top == 0 {
        return Step::Done;
    }
    let html_floor = tb.open.html_floor(top).unwrap_or(0);
    match tb.open.last_foreign(tag.name) {
        // A foreign element with the token's name above the nearest HTML element: "pop
        // elements from the stack of open elements until node has been popped".
        Some(p) if p > html_floor => {
            tb.open.truncate(p);
            Step::Done
        }
        // The loop reaches an HTML element: "process the token according to the rules given in
        // the section corresponding to the current insertion mode in HTML content".
        _ => tb.process_in_mode(tb.mode, token),
    }
}
