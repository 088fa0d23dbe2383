//! Parsing selectors: our [`SelectorImpl`], the `selectors::Parser` that knows the HTML
//! standard's pseudo-classes, and errors that say what is wrong and where.
//!
//! The grammar is Selectors Level 4 (<https://drafts.csswg.org/selectors-4/#grammar>) as the
//! `selectors` crate parses it, with the options a browser's `querySelectorAll` has: `:is()`,
//! `:where()` (forgiving), `:not()` with a list, `:nth-child(An+B of S)`, `&`, `:host`,
//! `::slotted()`, `::part()`. `:has()` is parsed here rather than by the crate (see
//! [`HasArg`]) so that it can be matched in linear time.
//!
//! cssparser 0.38 reports no positions, so an error is located afterwards: the selector list is
//! cut into its top-level comma-separated parts, the first part that fails alone is found, and
//! within it the longest prefix (at a token boundary) that some short completion turns into a
//! valid selector. The token after that prefix is where the selector stops making sense.

use std::cell::Cell;
use std::fmt;
use std::sync::Arc;

use cssparser::{
    BasicParseErrorKind, ParseError, ParseErrorKind, Parser as CssParser, ToCss, Token,
    match_ignore_ascii_case, serialize_identifier, serialize_string,
};
use precomputed_hash::PrecomputedHash;
use selectors::parser::{
    AncestorHashes, Combinator, Component, ParseRelative, Selector as RawSelector, SelectorImpl,
    SelectorList, SelectorParseErrorKind,
};

use super::pseudo::{PseudoClass, PseudoElement};
use super::query::MatchState;
use super::text::{TextArg, TextKind};
use crate::dom::names::{LocalName, Namespace};
use crate::query::index::{ListKind, ci_hash};

/// How deeply blocks (`:is(`, `:not(`, `[`, ...) may nest in a selector. Parsing and matching
/// recurse on this depth, so it is bounded; real selectors nest a few levels.
pub(crate) const MAX_NESTING: u8 = 32;

/// How many combinators one complex selector may have (matching recurses once per
/// combinator).
pub(crate) const MAX_COMBINATORS: usize = 512;

// ---------------------------------------------------------------------------------------------
// The selector implementation: what a selector's names and values are made of.

/// Our `selectors::SelectorImpl`: HTML documents, interned names, precomputed hashes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HtmlImpl;

impl SelectorImpl for HtmlImpl {
    type ExtraMatchingData<'a> = Option<&'a MatchState>;
    type AttrValue = AttrValue;
    type Identifier = Ident;
    type LocalName = Name;
    type NamespaceUrl = NsUrl;
    type NamespacePrefix = NsPrefix;
    type BorrowedNamespaceUrl = NsUrl;
    type BorrowedLocalName = Name;
    type NonTSPseudoClass = PseudoClass;
    type PseudoElement = PseudoElement;
}

/// An id or class name, with the hash the index uses ([`ci_hash`]).
#[derive(Clone, Eq)]
pub(crate) struct Ident {
    pub(crate) text: Box<str>,
    pub(crate) hash: u32,
}

impl From<&str> for Ident {
    fn from(s: &str) -> Ident {
        Ident {
            text: s.into(),
            hash: ci_hash(s),
        }
    }
}

impl PartialEq for Ident {
    #[inline]
    fn eq(&self, other: &Ident) -> bool {
        self.hash == other.hash && self.text == other.text
    }
}

impl PrecomputedHash for Ident {
    fn precomputed_hash(&self) -> u32 {
        self.hash
    }
}

impl ToCss for Ident {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        serialize_identifier(&self.text, dest)
    }
}

impl fmt::Debug for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.text, f)
    }
}

/// A local name (of an element or attribute) in a selector: its text, hash, and static id when
/// the name is statically interned, so that matching compares integers.
#[derive(Clone, Eq)]
pub(crate) struct Name {
    pub(crate) text: Box<str>,
    pub(crate) hash: u32,
    /// The static id: a document gives a name a static id exactly when its text is in the
    /// static table, so equal texts have equal ids and a dynamic name never equals a static
    /// one.
    pub(crate) id: Option<LocalName>,
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name {
            text: s.into(),
            hash: ci_hash(s),
            id: LocalName::from_static_str(s),
        }
    }
}

impl PartialEq for Name {
    /// The `selectors` crate compares a type selector's two spellings on every test: static
    /// ids make that an integer compare.
    #[inline]
    fn eq(&self, other: &Name) -> bool {
        self.hash == other.hash
            && self.id == other.id
            && (self.id.is_some() || self.text == other.text)
    }
}

impl PrecomputedHash for Name {
    fn precomputed_hash(&self) -> u32 {
        self.hash
    }
}

impl ToCss for Name {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        serialize_identifier(&self.text, dest)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.text, f)
    }
}

/// A namespace URL ("" for no namespace), with the element namespace it names, if any.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct NsUrl {
    pub(crate) url: Box<str>,
    pub(crate) hash: u32,
    pub(crate) ns: Option<Namespace>,
}

impl NsUrl {
    pub(crate) fn new(url: &str) -> NsUrl {
        NsUrl {
            url: url.into(),
            hash: ci_hash(url),
            ns: Namespace::from_url(url),
        }
    }
}

impl Default for NsUrl {
    fn default() -> NsUrl {
        NsUrl::new("")
    }
}

impl PrecomputedHash for NsUrl {
    fn precomputed_hash(&self) -> u32 {
        self.hash
    }
}

impl fmt::Debug for NsUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.url, f)
    }
}

/// A namespace prefix.
#[derive(Clone, PartialEq, Eq, Default)]
pub(crate) struct NsPrefix(pub(crate) Box<str>);

impl From<&str> for NsPrefix {
    fn from(s: &str) -> NsPrefix {
        NsPrefix(s.into())
    }
}

impl ToCss for NsPrefix {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        serialize_identifier(&self.0, dest)
    }
}

impl fmt::Debug for NsPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

/// The value in an attribute selector (`[lang|=en]`).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct AttrValue(pub(crate) Box<str>);

impl From<&str> for AttrValue {
    fn from(s: &str) -> AttrValue {
        AttrValue(s.into())
    }
}

impl AsRef<str> for AttrValue {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl ToCss for AttrValue {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        serialize_string(&self.0, dest)
    }
}

impl fmt::Debug for AttrValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

// ---------------------------------------------------------------------------------------------
// :has()

/// The argument of a `:has()`: a relative selector list, with a number that is unique within
/// its selector (the slot for its results in a query's [`MatchState`]) and, for each relative
/// selector, its compounds in parse order.
///
/// The `selectors` crate matches `:has()` by walking the anchor's subtree or following
/// siblings for every anchor, recursively: quadratic on long sibling lists and deep trees, and
/// recursion as deep as the tree. We parse it ourselves and match it with
/// [`super::query::has_matches`], which finds every element that matches the `:has()` in one
/// pass per compound over the tree.
pub(crate) struct HasArg {
    pub(crate) id: usize,
    pub(crate) list: SelectorList<HtmlImpl>,
    pub(crate) plans: Box<[RelativePlan]>,
}

/// One relative selector of a `:has()`, cut at its combinators, left to right.
pub(crate) struct RelativePlan {
    pub(crate) selector: RawSelector<HtmlImpl>,
    pub(crate) steps: Box<[RelativeStep]>,
}

/// A compound of a relative selector.
pub(crate) struct RelativeStep {
    /// The parse-order position of the compound's first component.
    pub(crate) offset: usize,
    /// The combinator on its left (for the first compound, the relative combinator that links
    /// it to the anchor).
    pub(crate) combinator: Combinator,
    /// Candidate-list keys of the compound (as for a selector's rightmost compound).
    pub(crate) keys: Box<[Key]>,
}

impl HasArg {
    fn new(id: usize, list: SelectorList<HtmlImpl>) -> HasArg {
        let plans = list
            .slice()
            .iter()
            .map(|selector| {
                let mut steps: Vec<RelativeStep> = Vec::new();
                // Parse order: the anchor, the relative combinator, then compounds separated
                // by combinators.
                let mut pending: Option<Combinator> = None;
                for (i, component) in selector.iter_raw_parse_order_from(0).enumerate() {
                    match component {
                        Component::RelativeSelectorAnchor => {}
                        Component::Combinator(c) => pending = Some(*c),
                        _ => {
                            if let Some(c) = pending.take() {
                                steps.push(RelativeStep {
                                    offset: i,
                                    combinator: c,
                                    keys: Box::new([]),
                                });
                            }
                            if let (Some(step), Some(key)) = (steps.last_mut(), key_of(component)) {
                                let mut keys = std::mem::take(&mut step.keys).into_vec();
                                keys.push(key);
                                step.keys = keys.into_boxed_slice();
                            }
                        }
                    }
                }
                RelativePlan {
                    selector: selector.clone(),
                    steps: steps.into_boxed_slice(),
                }
            })
            .collect();
        HasArg { id, list, plans }
    }
}

/// The candidate list a component restricts a compound to, if any.
pub(crate) fn key_of(component: &Component<HtmlImpl>) -> Option<Key> {
    match component {
        Component::ID(id) => Some((ListKind::Id, id.hash)),
        Component::Class(class) => Some((ListKind::Class, class.hash)),
        // Both spellings have the same case-insensitive hash.
        Component::LocalName(name) => Some((ListKind::LocalName, name.lower_name.hash)),
        _ => None,
    }
}

impl PartialEq for HasArg {
    fn eq(&self, other: &HasArg) -> bool {
        self.list == other.list
    }
}

impl Eq for HasArg {}

// ---------------------------------------------------------------------------------------------
// The parser.

/// Errors our parser raises (beside the crate's own).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Custom {
    Selectors(SelectorParseErrorKind),
    UnknownPseudoClass(String),
    UnknownPseudoElement(String),
    NestedHas,
    BadArgument(&'static str),
}

impl From<SelectorParseErrorKind> for Custom {
    fn from(kind: SelectorParseErrorKind) -> Custom {
        Custom::Selectors(kind)
    }
}

type PResult<T> = Result<T, ParseError<Custom>>;

/// The `selectors::Parser` for HTML documents.
pub(crate) struct HtmlParser<'n> {
    namespaces: &'n [(&'n str, &'n str)],
    /// Whether the extended pseudo-classes parse (see `text.rs`).
    extended: bool,
    in_has: Cell<bool>,
    /// The `:has()` and text pseudo-classes so far (each has an entry in a query's state).
    has_count: Cell<usize>,
}

/// What a selector may contain beyond the standard: declared namespace prefixes, and (for
/// `Selector::parse_extended`) the text pseudo-classes.
#[derive(Clone, Copy)]
pub(crate) struct Syntax<'n> {
    pub(crate) namespaces: &'n [(&'n str, &'n str)],
    pub(crate) extended: bool,
}

impl<'n> HtmlParser<'n> {
    pub(crate) fn new(syntax: Syntax<'n>) -> HtmlParser<'n> {
        HtmlParser {
            namespaces: syntax.namespaces,
            extended: syntax.extended,
            in_has: Cell::new(false),
            has_count: Cell::new(0),
        }
    }

    /// The extended text pseudo-classes' arguments: one or more strings or identifiers,
    /// separated by commas (see `text.rs`).
    fn parse_text(&self, kind: TextKind, input: &mut CssParser<'_>) -> PResult<PseudoClass> {
        let strings = input.parse_comma_separated(|input| {
            let s: Box<str> = input.expect_ident_or_string()?.as_ref().into();
            Ok::<_, ParseError<Custom>>(s)
        })?;
        let id = self.has_count.get();
        self.has_count.set(id + 1);
        Ok(PseudoClass::Text(Arc::new(TextArg::new(id, kind, strings))))
    }

    /// `:has(<relative-selector-list>)`: not forgiving, no pseudo-elements, no `:has()`
    /// inside (Selectors 4, "The Relational Pseudo-class").
    fn parse_has(&self, input: &mut CssParser<'_>) -> PResult<PseudoClass> {
        if self.in_has.get() {
            return Err(ParseError::custom(Custom::NestedHas));
        }
        self.in_has.set(true);
        let list = SelectorList::parse_disallow_pseudo(self, input, ParseRelative::ForHas);
        self.in_has.set(false);
        let list = list?;
        let id = self.has_count.get();
        self.has_count.set(id + 1);
        Ok(PseudoClass::Has(Arc::new(HasArg::new(id, list))))
    }
}

impl<'i> selectors::parser::Parser<'i> for HtmlParser<'_> {
    type Impl = HtmlImpl;
    type Error = Custom;

    fn parse_slotted(&self) -> bool {
        true
    }

    fn parse_part(&self) -> bool {
        true
    }

    fn parse_nth_child_of(&self) -> bool {
        true
    }

    fn parse_is_and_where(&self) -> bool {
        true
    }

    fn parse_has(&self) -> bool {
        // Ours: see `parse_non_ts_functional_pseudo_class`.
        false
    }

    fn parse_parent_selector(&self) -> bool {
        // `&` outside a style rule means `:scope` (CSS Nesting, "The Nesting Selector").
        true
    }

    fn parse_host(&self) -> bool {
        true
    }

    fn parse_non_ts_pseudo_class(&self, name: &str) -> PResult<PseudoClass> {
        let pc = PseudoClass::from_name(name)
            .ok_or_else(|| ParseError::custom(Custom::UnknownPseudoClass(name.to_owned())))?;
        // Without the `forms` feature there is no constraint validation: the pseudo-classes
        // that need it are unsupported (`SelectorErrorKind::UnknownPseudoClass`).
        #[cfg(not(feature = "forms"))]
        if matches!(
            pc,
            PseudoClass::Valid
                | PseudoClass::Invalid
                | PseudoClass::InRange
                | PseudoClass::OutOfRange
        ) {
            return Err(ParseError::custom(Custom::UnknownPseudoClass(
                name.to_owned(),
            )));
        }
        Ok(pc)
    }

    fn parse_non_ts_functional_pseudo_class(
        &self,
        name: &str,
        input: &mut CssParser<'i>,
        _after_part: bool,
    ) -> PResult<PseudoClass> {
        if self.extended {
            let kind = match_ignore_ascii_case! { name,
                "contains" => Some(TextKind::Contains),
                "-soup-contains" => Some(TextKind::SoupContains),
                "-soup-contains-own" => Some(TextKind::Own),
                "has-text" => Some(TextKind::HasText),
                _ => None,
            };
            if let Some(kind) = kind {
                return self.parse_text(kind, input);
            }
        }
        match_ignore_ascii_case! { name,
            "has" => self.parse_has(input),
            "lang" => parse_lang(input),
            "dir" => parse_ident_argument(input).map(|ident| {
                let direction = if ident.eq_ignore_ascii_case("ltr") {
                    Some(crate::html::Direction::Ltr)
                } else if ident.eq_ignore_ascii_case("rtl") {
                    Some(crate::html::Direction::Rtl)
                } else {
                    None
                };
                PseudoClass::Dir(ident, direction)
            }),
            "state" => parse_ident_argument(input).map(PseudoClass::State),
            "active-view-transition-type" => {
                let types = input.parse_comma_separated(|input| {
                    let t: Box<str> = input.expect_ident()?.as_ref().into();
                    Ok::<_, ParseError<Custom>>(t)
                })?;
                Ok(PseudoClass::ActiveViewTransitionType(types.into_boxed_slice()))
            },
            _ => Err(ParseError::custom(Custom::UnknownPseudoClass(format!("{name}(")))),
        }
    }

    fn parse_pseudo_element(&self, name: &str) -> PResult<PseudoElement> {
        PseudoElement::from_name(name)
            .ok_or_else(|| ParseError::custom(Custom::UnknownPseudoElement(name.to_owned())))
    }

    fn parse_functional_pseudo_element(
        &self,
        name: &str,
        input: &mut CssParser<'i>,
    ) -> PResult<PseudoElement> {
        PseudoElement::parse_functional(name, input)
    }

    fn default_namespace(&self) -> Option<NsUrl> {
        self.namespaces
            .iter()
            .find(|(prefix, _)| prefix.is_empty())
            .map(|(_, url)| NsUrl::new(url))
    }

    fn namespace_for_prefix(&self, prefix: &NsPrefix) -> Option<NsUrl> {
        self.namespaces
            .iter()
            .find(|(p, _)| !p.is_empty() && **p == *prefix.0)
            .map(|(_, url)| NsUrl::new(url))
    }
}

/// The single identifier argument of `:dir(<ident>)` (Selectors 4, "The Directionality
/// Pseudo-class": any identifier parses; only `ltr` and `rtl` can match) and `:state(<ident>)`
/// (CSS Custom States).
fn parse_ident_argument(input: &mut CssParser<'_>) -> PResult<Box<str>> {
    let ident: Box<str> = input.expect_ident()?.as_ref().into();
    input.expect_exhausted()?;
    Ok(ident)
}

/// `:lang(<language-range>#)` (Selectors 4, "The Language Pseudo-class"): idents or strings.
fn parse_lang(input: &mut CssParser<'_>) -> PResult<PseudoClass> {
    let ranges = input.parse_comma_separated(|input| {
        let range: Box<str> = input.expect_ident_or_string()?.as_ref().into();
        Ok::<_, ParseError<Custom>>(range)
    })?;
    if ranges.is_empty() {
        return Err(ParseError::custom(Custom::BadArgument(
            ":lang() needs a language range",
        )));
    }
    Ok(PseudoClass::Lang(ranges.into_boxed_slice()))
}

// ---------------------------------------------------------------------------------------------
// Parsing a whole selector.

/// A candidate-list key: which list, and the hash of the id, class or local name.
pub(crate) type Key = (ListKind, u32);

/// A parsed selector list with what queries precompute from it.
#[derive(Clone)]
pub(crate) struct Parsed {
    pub(crate) list: SelectorList<HtmlImpl>,
    pub(crate) has_count: usize,
    /// Per selector of the list: its ancestor hashes for the Bloom filter, in no-quirks and
    /// in quirks mode (which leaves classes and ids out).
    pub(crate) hashes: Box<[(AncestorHashes, AncestorHashes)]>,
    /// Per selector: the keys of its rightmost compound (candidate lists that contain every
    /// element it can match); empty when it has none.
    pub(crate) keys: Box<[Box<[Key]>]>,
    /// Per selector: whether it has a pseudo-element (so never matches an element).
    pub(crate) pseudo: Box<[bool]>,
    /// Per selector: whether it is a single compound (no combinator).
    pub(crate) compound: Box<[bool]>,
    /// Whether every selector that can match is a compound of type, universal, namespace, id,
    /// class and attribute-in-no-namespace selectors only (see `query::simple_matches`).
    pub(crate) all_simple: bool,
    /// Whether any selector has ancestor hashes worth a Bloom filter.
    pub(crate) uses_bloom: bool,
    /// Whether the selector may name a class (its text has a `.`, which every class selector
    /// has): matching it reads the index's classes, which are split on first use (see
    /// `TreeIndex::ensure_classes`).
    pub(crate) names_class: bool,
    /// Whether a selector needs the whole tree (`query::needs_whole_tree`), once asked.
    pub(crate) whole_tree: std::sync::OnceLock<bool>,
    /// Whether a selector needs an index in document order (`query::needs_flat`), and
    /// whether it looks only at an element and its ancestors (`query::ancestors_only`), once
    /// asked.
    pub(crate) flat: std::sync::OnceLock<bool>,
    pub(crate) ancestors_only: std::sync::OnceLock<bool>,
}

/// Runs the `selectors` crate's parser over all of `input`.
fn parse_list(input: &str, syntax: Syntax<'_>) -> PResult<(SelectorList<HtmlImpl>, usize)> {
    let mut css = CssParser::new(input);
    css.set_nested_block_limit(MAX_NESTING);
    let parser = HtmlParser::new(syntax);
    let list = css.parse_entirely(|css| SelectorList::parse(&parser, css, ParseRelative::No))?;
    Ok((list, parser.has_count.get()))
}

/// Parses a selector list, or says what is wrong and where.
pub(crate) fn parse(input: &str, syntax: Syntax<'_>) -> Result<Parsed, SelectorError> {
    if input.len() > u32::MAX as usize {
        return Err(SelectorError::new(
            SelectorErrorKind::TooComplex,
            input,
            0,
            0,
        ));
    }
    let (list, has_count) = match parse_list(input, syntax) {
        Ok(parsed) => parsed,
        Err(error) => return Err(locate(input, syntax, error)),
    };
    for selector in list.slice() {
        if combinator_depth(selector) > MAX_COMBINATORS {
            return Err(SelectorError::new(
                SelectorErrorKind::TooComplex,
                input,
                0,
                input.len(),
            ));
        }
    }
    let hashes = list
        .slice()
        .iter()
        .map(|s| {
            (
                AncestorHashes::new(s, selectors::context::QuirksMode::NoQuirks),
                AncestorHashes::new(s, selectors::context::QuirksMode::Quirks),
            )
        })
        .collect::<Box<[_]>>();
    let uses_bloom = hashes.iter().any(|(h, _)| h.packed_hashes[0] != 0);
    let keys = list.slice().iter().map(rightmost_keys).collect();
    let pseudo = list
        .slice()
        .iter()
        .map(RawSelector::has_pseudo_element)
        .collect();
    let compound = list
        .slice()
        .iter()
        .map(|s| !s.iter_raw_match_order().any(Component::is_combinator))
        .collect();
    let all_simple = list
        .slice()
        .iter()
        .all(|s| s.has_pseudo_element() || s.iter_raw_match_order().all(is_plain_component));
    Ok(Parsed {
        list,
        has_count,
        hashes,
        keys,
        pseudo,
        compound,
        all_simple,
        uses_bloom,
        names_class: input.contains('.'),
        whole_tree: std::sync::OnceLock::new(),
        flat: std::sync::OnceLock::new(),
        ancestors_only: std::sync::OnceLock::new(),
    })
}

/// The keys of a selector's rightmost compound: each names a candidate list that holds every
/// element the selector can match.
fn rightmost_keys(selector: &RawSelector<HtmlImpl>) -> Box<[Key]> {
    selector.iter().filter_map(key_of).collect()
}

/// The largest number of combinators in `selector` or any selector nested in it. Recursion is
/// bounded by the nesting limit.
fn combinator_depth(selector: &RawSelector<HtmlImpl>) -> usize {
    let mut own = 0;
    let mut nested = 0;
    for component in selector.iter_raw_match_order() {
        let lists: &[RawSelector<HtmlImpl>] = match component {
            Component::Combinator(_) => {
                own += 1;
                continue;
            }
            Component::Negation(list) | Component::Is(list) | Component::Where(list) => {
                list.slice()
            }
            Component::NthOf(data) => data.selectors(),
            Component::Host(Some(s)) | Component::Slotted(s) => std::slice::from_ref(s),
            Component::NonTSPseudoClass(PseudoClass::Has(arg)) => arg.list.slice(),
            _ => continue,
        };
        for s in lists {
            nested = nested.max(combinator_depth(s));
        }
    }
    own.max(nested)
}

// ---------------------------------------------------------------------------------------------
// Errors.

/// What is wrong with a selector (see [`SelectorError`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SelectorErrorKind {
    /// Nothing to parse: an empty string, or an empty item in a list (`a,,b`).
    Empty,
    /// The selector ends where more is needed (`div >`, `a:not(`).
    UnexpectedEnd,
    /// A token that cannot appear there.
    UnexpectedToken,
    /// A combinator with no selector after it.
    DanglingCombinator,
    /// An unknown (or unsupported) pseudo-class, without its colon.
    UnknownPseudoClass(String),
    /// An unknown (or unsupported) pseudo-element, without its colons.
    UnknownPseudoElement(String),
    /// A namespace prefix that was not declared (see [`Selector::parse_with_namespaces`]).
    ///
    /// [`Selector::parse_with_namespaces`]: crate::Selector::parse_with_namespaces
    UnknownNamespacePrefix,
    /// A malformed attribute selector (`[=x]`, `[a=]`, `[a~b]`).
    InvalidAttributeSelector,
    /// Something valid elsewhere but not here: a pseudo-class after a pseudo-element, a
    /// pseudo-element inside `:is()`, `:not()` or `:has()`, a `:has()` inside `:has()`.
    NotAllowedHere,
    /// A bad argument to a functional pseudo-class (`:nth-child(x)`, `:lang()`).
    InvalidArgument,
    /// Blocks nested more than 32 levels deep.
    TooDeeplyNested,
    /// More than 512 combinators in one complex selector, or a selector too long to index.
    TooComplex,
}

/// A selector that does not parse: what is wrong, and where.
///
/// The position is a byte offset into the selector text, with the offending text (empty at
/// the end of the input). [`SelectorError::pointer`] draws the selector with a caret under
/// that text.
///
/// ```
/// use html_arena::{Selector, SelectorErrorKind};
///
/// let err = Selector::parse("a:hovr > b").unwrap_err();
/// assert_eq!(err.kind(), &SelectorErrorKind::UnknownPseudoClass("hovr".into()));
/// assert_eq!((err.offset(), err.text()), (1, ":hovr"));
/// assert_eq!(err.to_string(), "unknown pseudo-class `:hovr` at byte 1");
/// assert_eq!(err.pointer(), "a:hovr > b\n ^^^^^");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SelectorError {
    kind: SelectorErrorKind,
    selector: Box<str>,
    offset: usize,
    len: usize,
}

impl SelectorError {
    fn new(kind: SelectorErrorKind, selector: &str, offset: usize, len: usize) -> SelectorError {
        let offset = offset.min(selector.len());
        let len = len.min(selector.len() - offset);
        SelectorError {
            kind,
            selector: selector.into(),
            offset,
            len,
        }
    }

    /// What is wrong.
    pub fn kind(&self) -> &SelectorErrorKind {
        &self.kind
    }

    /// The byte offset of the offending text in the selector.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The offending text (empty when the selector ended too early).
    pub fn text(&self) -> &str {
        self.selector
            .get(self.offset..self.offset + self.len)
            .unwrap_or("")
    }

    /// The selector that failed to parse.
    pub fn selector(&self) -> &str {
        &self.selector
    }

    /// What is wrong, in words (without the position).
    pub fn message(&self) -> String {
        let text = self.text();
        match &self.kind {
            SelectorErrorKind::Empty => "empty selector".to_owned(),
            SelectorErrorKind::UnexpectedEnd => "unexpected end of selector".to_owned(),
            SelectorErrorKind::UnexpectedToken if text.trim().is_empty() => {
                if text.is_empty() {
                    "unexpected end of selector".to_owned()
                } else {
                    "unexpected white space".to_owned()
                }
            }
            SelectorErrorKind::UnexpectedToken => format!("unexpected `{text}`"),
            SelectorErrorKind::DanglingCombinator => {
                "a combinator must be followed by a selector".to_owned()
            }
            SelectorErrorKind::UnknownPseudoClass(name) => {
                format!("unknown pseudo-class `:{name}`")
            }
            SelectorErrorKind::UnknownPseudoElement(name) => {
                format!("unknown pseudo-element `::{name}`")
            }
            SelectorErrorKind::UnknownNamespacePrefix => format!(
                "undeclared namespace prefix `{}` (declare it with Selector::parse_with_namespaces)",
                text.trim_end_matches('|')
            ),
            SelectorErrorKind::InvalidAttributeSelector => "invalid attribute selector".to_owned(),
            SelectorErrorKind::NotAllowedHere if text.is_empty() => "not allowed here".to_owned(),
            SelectorErrorKind::NotAllowedHere => format!("`{text}` is not allowed here"),
            SelectorErrorKind::InvalidArgument => "invalid argument".to_owned(),
            SelectorErrorKind::TooDeeplyNested => {
                format!("nested more than {MAX_NESTING} levels deep")
            }
            SelectorErrorKind::TooComplex => {
                format!("more than {MAX_COMBINATORS} combinators in one selector")
            }
        }
    }

    /// The selector on one line and, on the next, a caret under the offending text (`^` per
    /// character, at least one): for terminal messages. Tabs and line breaks in the selector
    /// print as spaces so that the caret lines up.
    pub fn pointer(&self) -> String {
        crate::error::caret_pointer(&self.selector, self.offset, self.text())
    }
}

impl fmt::Display for SelectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message(), self.offset)
    }
}

impl std::error::Error for SelectorError {}

/// Maps a parse error to our kind.
fn kind_of(error: &ParseError<Custom>) -> SelectorErrorKind {
    use SelectorParseErrorKind as S;
    match &error.kind {
        ParseErrorKind::Basic(BasicParseErrorKind::EndOfInput) => SelectorErrorKind::UnexpectedEnd,
        ParseErrorKind::Basic(BasicParseErrorKind::TooManyNestedBlocks) => {
            SelectorErrorKind::TooDeeplyNested
        }
        ParseErrorKind::Basic(_) => SelectorErrorKind::UnexpectedToken,
        ParseErrorKind::Custom(Custom::UnknownPseudoClass(name)) => {
            SelectorErrorKind::UnknownPseudoClass(name.clone())
        }
        ParseErrorKind::Custom(Custom::UnknownPseudoElement(name)) => {
            SelectorErrorKind::UnknownPseudoElement(name.clone())
        }
        ParseErrorKind::Custom(Custom::NestedHas) => SelectorErrorKind::NotAllowedHere,
        ParseErrorKind::Custom(Custom::BadArgument(_)) => SelectorErrorKind::InvalidArgument,
        ParseErrorKind::Custom(Custom::Selectors(kind)) => match kind {
            S::EmptySelector => SelectorErrorKind::Empty,
            S::DanglingCombinator => SelectorErrorKind::DanglingCombinator,
            S::NoQualifiedNameInAttributeSelector
            | S::UnexpectedTokenInAttributeSelector
            | S::ExpectedBarInAttr
            | S::BadValueInAttr
            | S::InvalidQualNameInAttr => SelectorErrorKind::InvalidAttributeSelector,
            S::NonCompoundSelector
            | S::NonPseudoElementAfterSlotted
            | S::InvalidPseudoElementAfterSlotted
            | S::InvalidPseudoElementInsideWhere
            | S::InvalidState => SelectorErrorKind::NotAllowedHere,
            S::UnsupportedPseudoClassOrElement => {
                SelectorErrorKind::UnknownPseudoClass(String::new())
            }
            S::ExpectedNamespace => SelectorErrorKind::UnknownNamespacePrefix,
            S::PseudoElementExpectedColon
            | S::PseudoElementExpectedIdent
            | S::NoIdentForPseudo
            | S::UnexpectedIdent
            | S::ExplicitNamespaceUnexpectedToken
            | S::ClassNeedsIdent => SelectorErrorKind::UnexpectedToken,
        },
    }
}

/// A token of the selector text: its byte range, nesting depth, and what it is (as much as
/// locating needs).
#[derive(Clone, Copy, Debug)]
struct Tok {
    start: usize,
    end: usize,
    depth: u32,
    kind: TokKind,
    /// Inside an attribute selector's brackets (or its closing bracket).
    in_attr: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TokKind {
    Comma,
    Colon,
    Bar,
    NameLike,
    Other,
}

/// Tokenizes `input` (flattening blocks; a closing bracket is a token of its own).
fn tokens(input: &str) -> Vec<Tok> {
    fn walk(css: &mut CssParser<'_>, depth: u32, in_attr: bool, out: &mut Vec<Tok>) {
        loop {
            let start = css.position().byte_index();
            let (kind, opens, square) = match css.next_including_whitespace_and_comments() {
                Ok(token) => (
                    match token {
                        Token::Comma => TokKind::Comma,
                        Token::Colon => TokKind::Colon,
                        Token::Delim('|') => TokKind::Bar,
                        Token::Ident(_) | Token::Function(_) | Token::Delim('*') => {
                            TokKind::NameLike
                        }
                        _ => TokKind::Other,
                    },
                    matches!(
                        token,
                        Token::Function(_)
                            | Token::ParenthesisBlock
                            | Token::SquareBracketBlock
                            | Token::CurlyBracketBlock
                    ),
                    matches!(token, Token::SquareBracketBlock),
                ),
                Err(_) => break,
            };
            let end = css.position().byte_index();
            out.push(Tok {
                start,
                end,
                depth,
                kind,
                in_attr,
            });
            if opens {
                let inner_attr = square || (in_attr && kind != TokKind::NameLike);
                let result = css.parse_nested_block(|css| {
                    walk(css, depth + 1, inner_attr, out);
                    Ok::<(), ParseError<()>>(())
                });
                if result.is_ok() {
                    let close_end = css.position().byte_index();
                    // The closing bracket, unless the input ended first.
                    if close_end > out.last().map_or(end, |t| t.end) {
                        out.push(Tok {
                            start: close_end - 1,
                            end: close_end,
                            depth,
                            kind: TokKind::Other,
                            in_attr: inner_attr,
                        });
                    }
                }
            }
        }
    }
    let mut css = CssParser::new(input);
    // Deeper blocks than the selector limit are walked flat (without recursion).
    css.set_nested_block_limit(MAX_NESTING.saturating_add(2));
    let mut out = Vec::new();
    walk(&mut css, 0, false, &mut out);
    out
}

/// Short texts that complete many incomplete selectors: after a combinator or `(`, a type
/// selector; after `:` or `::`, a name; inside `:nth-child(`, a number or `n`. Open blocks close
/// themselves at the end of the input.
const COMPLETIONS: [&str; 8] = ["", "a", " a", "1", "n", "root", "hover", "before"];

/// Whether some completion makes `prefix` a valid selector list.
fn viable(prefix: &str, syntax: Syntax<'_>) -> bool {
    let mut text = String::with_capacity(prefix.len() + 8);
    COMPLETIONS.iter().any(|completion| {
        text.clear();
        text.push_str(prefix);
        text.push_str(completion);
        parse_list(&text, syntax).is_ok()
    })
}

/// Finds where a selector that failed to parse goes wrong.
fn locate(input: &str, syntax: Syntax<'_>, error: ParseError<Custom>) -> SelectorError {
    let mut kind = kind_of(&error);
    let toks = tokens(input);
    // The top-level parts of the list, and the first that fails alone.
    let mut parts = Vec::new();
    let mut start = 0;
    for t in &toks {
        if t.depth == 0 && t.kind == TokKind::Comma {
            parts.push((start, t.start));
            start = t.end;
        }
    }
    parts.push((start, input.len()));
    let Some(&(part_start, part_end)) = parts
        .iter()
        .find(|&&(s, e)| parse_list(&input[s..e], syntax).is_err())
    else {
        return SelectorError::new(kind, input, 0, input.len());
    };
    let part = &input[part_start..part_end];
    let part_toks: Vec<Tok> = toks
        .iter()
        .filter(|t| t.start >= part_start && t.end <= part_end)
        .copied()
        .collect();
    // The longest viable prefix ends after token `last_ok` (None: no token prefix is viable).
    // Viability is monotone (a prefix of a viable prefix is viable), and the completions only
    // approximate it, so the scan trusts the longest prefix found viable.
    let viable_at = |i: usize| viable(&part[..part_toks[i].end - part_start], syntax);
    let n = part_toks.len();
    let last_ok = if n <= 256 {
        (0..n).rev().find(|&i| viable_at(i))
    } else {
        // Long selectors: binary search (approximate if the completions miss a case).
        let (mut lo, mut hi) = (0usize, n);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if viable_at(mid) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo.checked_sub(1)
    };
    let bad = last_ok.map_or(0, |i| i + 1);
    let (mut offset, mut end) = match part_toks.get(bad) {
        Some(t) => (t.start, t.end),
        // Every token is fine but the part is incomplete: the error is at its end (at the
        // comma that ends it, if any).
        None => (part_end, (part_end + 1).min(input.len())),
    };
    if let Some(t) = part_toks.get(bad) {
        match t.kind {
            // Name the whole `:name`, `::name` or `:name(`.
            TokKind::Colon | TokKind::NameLike => {
                let mut i = bad;
                while i > 0
                    && part_toks[i - 1].kind == TokKind::Colon
                    && part_toks[i - 1].end == part_toks[i].start
                {
                    i -= 1;
                }
                if t.kind == TokKind::Colon || i < bad {
                    offset = part_toks[i].start;
                    let mut j = bad;
                    while j + 1 < part_toks.len()
                        && part_toks[j].kind == TokKind::Colon
                        && part_toks[j + 1].start == part_toks[j].end
                        && matches!(part_toks[j + 1].kind, TokKind::Colon | TokKind::NameLike)
                    {
                        j += 1;
                    }
                    end = part_toks[j].end;
                }
            }
            // Name the whole `prefix|`.
            TokKind::Bar if bad > 0 => {
                let p = part_toks[bad - 1];
                if p.kind == TokKind::NameLike && p.end == t.start {
                    offset = p.start;
                }
            }
            _ => {}
        }
    }
    // The crate's kind, refined by what is at the position.
    let text = input.get(offset..end.max(offset)).unwrap_or("");
    let closes = text.is_empty() || text == "," || text == ")";
    let in_attr = part_toks.get(bad).is_some_and(|t| t.in_attr);
    kind = match kind {
        SelectorErrorKind::UnexpectedToken
        | SelectorErrorKind::UnexpectedEnd
        | SelectorErrorKind::Empty
        | SelectorErrorKind::DanglingCombinator
            if in_attr =>
        {
            SelectorErrorKind::InvalidAttributeSelector
        }
        SelectorErrorKind::Empty if !closes => SelectorErrorKind::UnexpectedToken,
        SelectorErrorKind::DanglingCombinator if !(closes || matches!(text, ">" | "+" | "~")) => {
            SelectorErrorKind::UnexpectedToken
        }
        SelectorErrorKind::UnexpectedEnd | SelectorErrorKind::UnexpectedToken
            if offset >= input.len() =>
        {
            SelectorErrorKind::UnexpectedEnd
        }
        SelectorErrorKind::UnexpectedEnd => SelectorErrorKind::UnexpectedToken,
        kind => kind,
    };
    if offset == part_end && part.trim().is_empty() {
        kind = SelectorErrorKind::Empty;
    }
    if let SelectorErrorKind::UnknownPseudoClass(name) = &mut kind {
        if name.is_empty() {
            *name = input
                .get(offset..end)
                .unwrap_or("")
                .trim_start_matches(':')
                .to_owned();
        }
    }
    if end < offset {
        end = offset;
    }
    SelectorError::new(kind, input, offset, end - offset)
}

/// Whether `c` is a plain part of a compound selector: a type, id, class or plain attribute
/// test, or a namespace (what `Parsed::all_simple` and the query's ancestors-only scans
/// accept).
pub(super) fn is_plain_component(c: &Component<HtmlImpl>) -> bool {
    matches!(
        c,
        Component::LocalName(_)
            | Component::ID(_)
            | Component::Class(_)
            | Component::AttributeInNoNamespaceExists { .. }
            | Component::AttributeInNoNamespace { .. }
            | Component::ExplicitUniversalType
            | Component::ExplicitAnyNamespace
            | Component::ExplicitNoNamespace
            | Component::DefaultNamespace(_)
            | Component::Namespace(..)
    )
}
