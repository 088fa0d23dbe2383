//! Which selectors a streaming parse ([`crate::stream`]) answers exactly, and the cheap first
//! test of its candidates.
//!
//! A streaming parse decides an element when the element, its subtree and its ancestors can
//! no longer change, and it looks at little else: the positions among previous siblings, the
//! previous element sibling (for `+`), no later siblings, no later part of the document. So a selector is accepted when every part of it depends only on
//! those (see the module docs of [`crate::stream`] for the list and the reasons), and refused
//! with the part named otherwise.

use cssparser::ToCss;
use selectors::parser::{Combinator, Component, NthType, Selector as RawSelector};

use super::Selector;
use super::parser::HtmlImpl;
use super::pseudo::PseudoClass;

/// Why a selector cannot be answered while streaming: the part, and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) part: String,
    pub(crate) reason: &'static str,
}

/// What a streaming parse needs to know of an accepted selector.
#[derive(Clone, Debug, Default)]
pub(crate) struct StreamPlan {
    /// Matching looks above the element (a combinator, `:root`): the match's copy gets its
    /// ancestors.
    pub(crate) needs_ancestors: bool,
    /// Per selector of the list: the type, id and class tests of its subject compound.
    pub(crate) prefilters: Vec<Prefilter>,
    /// The `an+b` of the `:nth-child()` and `:first-child` tests on the element or its
    /// ancestors (the position among element siblings, counted from 1).
    pub(crate) nth_child: Vec<(i32, i32)>,
    /// The same for `:nth-of-type()` and `:first-of-type`.
    pub(crate) nth_of_type: Vec<(i32, i32)>,
    /// Matching looks at the element's content (`:empty`, `:has()`, a text pseudo-class,
    /// `:placeholder-shown`): the copy a match is decided on needs the subtree.
    pub(crate) needs_subtree: bool,
    /// A `+` combinator: a match's copy gets the previous element sibling of it and of each
    /// ancestor.
    pub(crate) prev_sibling: bool,
}

/// The most previous siblings a match's copy stands in for an element's position (see
/// [`Window`]): a larger `b`, or `a`s with a larger least common multiple, are refused.
pub(crate) const MAX_POSITION_WINDOW: u32 = 1024;

/// How a position among siblings is told apart by a list of `an+b` tests: every position
/// up to `bound` as it is, and beyond it only its residue modulo `period` (0: all positions
/// beyond `bound` are alike).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Window {
    pub(crate) bound: u32,
    pub(crate) period: u32,
}

impl Window {
    /// The window of a list of `an+b` tests, if it is small enough.
    pub(crate) fn of(tests: &[(i32, i32)]) -> Option<Window> {
        let mut w = Window::default();
        for &(a, b) in tests {
            w.bound = w.bound.max(u32::try_from(b.max(0)).ok()?);
            let a = a.unsigned_abs();
            if a != 0 {
                w.period = if w.period == 0 { a } else { lcm(w.period, a)? };
            }
            if w.bound.saturating_add(w.period) > MAX_POSITION_WINDOW {
                return None;
            }
        }
        Some(w)
    }

    /// A position no larger than `bound + period + at_least` that every `an+b` test of the
    /// window answers as it answers `index` (1-based), and at least `at_least` (which is at
    /// most `index`).
    pub(crate) fn reduce(self, index: u64, at_least: u64) -> u64 {
        let (bound, period) = (u64::from(self.bound), u64::from(self.period));
        let mut r = if index <= bound {
            index
        } else if period == 0 {
            bound + 1
        } else {
            bound + 1 + (index - bound - 1) % period
        };
        while r < at_least {
            // (Beyond `bound` with period 0 any position is alike; else whole periods.)
            r = if period == 0 { at_least } else { r + period };
        }
        r
    }
}

fn lcm(a: u32, b: u32) -> Option<u32> {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x).checked_mul(b)
}

/// The type, id and class tests of a subject compound: an element that fails one cannot
/// match (the test is loose: it compares ASCII case-insensitively).
#[derive(Clone, Debug, Default)]
pub(crate) struct Prefilter {
    /// The selector has a pseudo-element: it matches no element.
    pub(crate) never: bool,
    pub(crate) names: Vec<Box<str>>,
    pub(crate) ids: Vec<Box<str>>,
    pub(crate) classes: Vec<Box<str>>,
    /// The selector is one type selector and nothing else: `(name as written, lowercased)`,
    /// which decides a match exactly (the lowercase form for an HTML element, the other for
    /// a foreign one, as the `selectors` crate matches a type selector).
    pub(crate) type_only: Option<(Box<str>, Box<str>)>,
}

impl Prefilter {
    /// Whether an element with this local name may match (before its `id` and `class`).
    pub(crate) fn may_match_name(&self, local: &str) -> bool {
        !self.never && self.names.iter().all(|n| n.eq_ignore_ascii_case(local))
    }

    /// Whether the `id` and `class` tests read attributes.
    pub(crate) fn reads_attributes(&self) -> bool {
        !self.ids.is_empty() || !self.classes.is_empty()
    }

    /// Whether an element with this local name, `id` and `class` may match.
    pub(crate) fn may_match(&self, local: &str, id: Option<&str>, class: Option<&str>) -> bool {
        if !self.may_match_name(local) {
            return false;
        }
        if !self.ids.is_empty() {
            let Some(id) = id else { return false };
            if !self.ids.iter().all(|i| i.eq_ignore_ascii_case(id)) {
                return false;
            }
        }
        if !self.classes.is_empty() {
            let Some(class) = class else { return false };
            let has = |c: &str| {
                class
                    .split([' ', '\t', '\n', '\x0c', '\r'])
                    .any(|t| t.eq_ignore_ascii_case(c))
            };
            if !self.classes.iter().all(|c| has(c)) {
                return false;
            }
        }
        true
    }
}

/// Where a compound is matched, relative to the element being decided.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Place {
    /// The element itself.
    Subject,
    /// One of its ancestors (which may be `html` or `body`).
    Ancestor,
    /// Inside a `:has()`: the element's descendants.
    Descendant,
    /// The previous element sibling of the element or of an ancestor (left of `+`).
    Sibling,
}

/// Checks `selector` for streaming.
pub(crate) fn plan(selector: &Selector) -> Result<StreamPlan, Refusal> {
    let mut plan = StreamPlan::default();
    for sel in selector.parsed.list.slice() {
        check_complex(sel, Place::Subject, &mut plan, None)?;
        plan.prefilters.push(prefilter(sel));
    }
    Ok(plan)
}

/// The tests of the subject compound of `sel` (its components up to the first combinator,
/// in match order).
fn prefilter(sel: &RawSelector<HtmlImpl>) -> Prefilter {
    let mut p = Prefilter::default();
    for c in sel.iter_raw_match_order() {
        match c {
            Component::Combinator(Combinator::PseudoElement) => p.never = true,
            Component::Combinator(_) => break,
            Component::PseudoElement(_) => p.never = true,
            Component::LocalName(l) => p.names.push(l.lower_name.text.clone()),
            Component::ID(i) => p.ids.push(i.text.clone()),
            Component::Class(c) => p.classes.push(c.text.clone()),
            _ => {}
        }
    }
    let mut components = sel.iter_raw_match_order();
    if let (Some(Component::LocalName(l)), None) = (components.next(), components.next()) {
        p.type_only = Some((l.name.text.clone(), l.lower_name.text.clone()));
    }
    // (A pseudo-element anywhere makes the selector match no element.)
    if sel.iter_raw_match_order().any(|c| {
        matches!(
            c,
            Component::PseudoElement(_) | Component::Combinator(Combinator::PseudoElement)
        )
    }) {
        p.never = true;
    }
    p
}

fn css<T: ToCss>(t: &T) -> String {
    let mut s = String::new();
    let _ = t.to_css(&mut s);
    s
}

/// What a compound tests, for the `html`/`body` rule.
#[derive(Default)]
struct CompoundFacts {
    /// A type selector that neither `html` nor `body` has.
    excludes_root_elements: bool,
    /// It reads attributes (id, class, attribute selectors, also inside `:not()`/`:is()`).
    reads_attributes: bool,
    /// A type selector other than `table`.
    excludes_table: bool,
    /// It tests the position among siblings (`:nth-child()`, `:first-of-type`, ...).
    positional: bool,
    /// Its components, for messages.
    text: Vec<String>,
}

/// Checks one complex selector whose subject compound is matched at `place`. Inside
/// `:not()`, `:is()` or `:where()` (`outer`: the facts of the compound holding it), the
/// subject compound is the same element as the outer compound, so its facts go to that
/// compound's check.
fn check_complex(
    sel: &RawSelector<HtmlImpl>,
    place: Place,
    plan: &mut StreamPlan,
    mut outer: Option<&mut CompoundFacts>,
) -> Result<bool, Refusal> {
    let mut place = place;
    let mut facts = CompoundFacts::default();
    let mut reads_any = false;
    let finish = |facts: &mut CompoundFacts,
                  place: Place,
                  outer: Option<&mut CompoundFacts>|
     -> Result<(), Refusal> {
        if let Some(outer) = outer {
            outer.positional |= facts.positional;
            outer.reads_attributes |= facts.reads_attributes;
            *facts = CompoundFacts::default();
            return Ok(());
        }
        if place == Place::Ancestor && facts.positional && !facts.excludes_table {
            return Err(Refusal {
                part: std::mem::take(&mut facts.text).concat(),
                reason: "this compound tests the position of an ancestor that could be an open \
                         `table`, before which foster parenting can still insert elements; give \
                         it a type selector other than `table` (e.g. `tr:nth-child(2) td`)",
            });
        }
        if matches!(place, Place::Ancestor | Place::Sibling)
            && facts.reads_attributes
            && !facts.excludes_root_elements
        {
            return Err(Refusal {
                part: std::mem::take(&mut facts.text).concat(),
                reason: "this compound could match the `html` or `body` element, whose \
                         attributes a later `<html>` or `<body>` tag can still add to until the \
                         end of the input; give it a type selector other than `html` and `body` \
                         (e.g. `div.x`)",
            });
        }
        *facts = CompoundFacts::default();
        Ok(())
    };
    for c in sel.iter_raw_match_order() {
        if let Component::Combinator(comb) = c {
            // (The compound right of `+` needs its previous sibling final, as a position.)
            facts.positional |= *comb == Combinator::NextSibling;
            finish(&mut facts, place, outer.take())?;
            match comb {
                Combinator::Child | Combinator::Descendant => {
                    plan.needs_ancestors = true;
                    if matches!(place, Place::Subject | Place::Sibling) {
                        place = Place::Ancestor;
                    }
                }
                Combinator::NextSibling if place != Place::Sibling => {
                    // 13.2.6.1: nodes are inserted as last children, or before an open
                    // `table` (refused above for an ancestor): an element's previous element
                    // sibling is final once the element is reached.
                    plan.prev_sibling = true;
                    plan.needs_ancestors = true;
                    if place != Place::Descendant {
                        place = Place::Sibling;
                    }
                }
                Combinator::NextSibling | Combinator::LaterSibling => {
                    return Err(Refusal {
                        part: css(comb).trim().to_string(),
                        reason: "this sibling combinator needs more previous siblings than a \
                                 streaming parse keeps (it keeps the one before each element: \
                                 `h2 + p`, `td + td` are answered, `~` and chains of `+` are not)",
                    });
                }
                Combinator::PseudoElement => {}
                Combinator::SlotAssignment | Combinator::Part => {
                    return Err(Refusal {
                        part: css(comb),
                        reason: "shadow-tree combinators are not supported while streaming",
                    });
                }
            }
            continue;
        }
        facts.text.push(css(c));
        let reads = check_component(c, place, plan, &mut facts)?;
        facts.reads_attributes |= reads;
        reads_any |= reads;
    }
    finish(&mut facts, place, outer)?;
    Ok(reads_any)
}

/// Checks one simple selector; returns whether it reads attributes.
fn check_component(
    c: &Component<HtmlImpl>,
    place: Place,
    plan: &mut StreamPlan,
    facts: &mut CompoundFacts,
) -> Result<bool, Refusal> {
    let refuse = |reason: &'static str| {
        Err(Refusal {
            part: css(c),
            reason,
        })
    };
    match c {
        Component::LocalName(l) => {
            let lower = &*l.lower_name.text;
            if lower != "html" && lower != "body" {
                facts.excludes_root_elements = true;
            }
            if lower != "table" {
                facts.excludes_table = true;
            }
            Ok(false)
        }
        Component::ID(_)
        | Component::Class(_)
        | Component::AttributeInNoNamespaceExists { .. }
        | Component::AttributeInNoNamespace { .. }
        | Component::AttributeOther(_) => Ok(true),
        Component::ExplicitUniversalType
        | Component::ExplicitAnyNamespace
        | Component::ExplicitNoNamespace
        | Component::DefaultNamespace(_)
        | Component::Namespace(..)
        | Component::PseudoElement(_)
        | Component::Invalid(_)
        | Component::RelativeSelectorAnchor => Ok(false),
        Component::Empty if place == Place::Sibling => {
            refuse("the previous sibling is kept without its content")
        }
        Component::Empty => {
            plan.needs_subtree = true;
            Ok(false)
        }
        Component::Root => {
            plan.needs_ancestors = true;
            Ok(false)
        }
        Component::Negation(list) | Component::Is(list) | Component::Where(list) => {
            let mut reads = false;
            for s in list.slice() {
                reads |= check_complex(s, place, plan, Some(&mut *facts))?;
            }
            Ok(reads)
        }
        Component::Scope | Component::ImplicitScope | Component::ParentSelector => {
            refuse("`:scope` is not supported while streaming")
        }
        // Inside `:has()` the siblings are those of the match's subtree, copied whole.
        Component::Nth(_) | Component::NthOf(_) if place == Place::Descendant => Ok(false),
        Component::Nth(_) | Component::NthOf(_) if place == Place::Sibling => {
            refuse("the position of a previous sibling is not kept while streaming")
        }
        Component::Nth(nth) => {
            let test = (nth.an_plus_b.0, nth.an_plus_b.1);
            match nth.ty {
                NthType::Child => plan.nth_child.push(test),
                NthType::OfType => plan.nth_of_type.push(test),
                NthType::LastChild
                | NthType::OnlyChild
                | NthType::LastOfType
                | NthType::OnlyOfType => {
                    return refuse(
                        "this pseudo-class needs the element's later siblings, which a \
                         streaming parse has not seen when it decides the element",
                    );
                }
            }
            if Window::of(&plan.nth_child).is_none() || Window::of(&plan.nth_of_type).is_none() {
                return refuse("this position is too far from the start for a streaming parse");
            }
            // (A match's copy gets its ancestors, which stand in for the positions.)
            plan.needs_ancestors = true;
            facts.positional = true;
            Ok(false)
        }
        Component::NthOf(_) => refuse(
            "`:nth-child(… of S)` needs the element's previous siblings matched against `S`, \
             which a streaming parse does not keep",
        ),
        Component::Has(_) => refuse("this form of `:has()` is not supported while streaming"),
        Component::Slotted(_) | Component::Part(_) | Component::Host(_) => {
            refuse("shadow-tree pseudo-classes are not supported while streaming")
        }
        Component::Combinator(_) => Ok(false),
        Component::NonTSPseudoClass(pc) => match pc {
            PseudoClass::Never(_)
            | PseudoClass::State(_)
            | PseudoClass::ActiveViewTransitionType(_) => Ok(false),
            // Only `a`/`area` (links), form controls, `details`/`dialog` and custom
            // elements match these, by their own attributes: never `html` or `body`.
            PseudoClass::Link
            | PseudoClass::AnyLink
            | PseudoClass::WebkitAnyLink
            | PseudoClass::Defined
            | PseudoClass::Optional
            | PseudoClass::Required
            | PseudoClass::PlaceholderShown
            | PseudoClass::Open => {
                if !matches!(pc, PseudoClass::Defined) {
                    facts.excludes_root_elements = true;
                }
                // (A `textarea`'s placeholder shows while its text is empty.)
                if matches!(pc, PseudoClass::PlaceholderShown) {
                    if place == Place::Sibling {
                        return refuse("the previous sibling is kept without its content");
                    }
                    plan.needs_subtree = true;
                }
                Ok(false)
            }
            PseudoClass::Text(_) => {
                plan.needs_subtree = true;
                if matches!(place, Place::Ancestor | Place::Sibling) {
                    refuse(
                        "a text pseudo-class on an ancestor needs the ancestor's whole text, \
                         which is still being parsed",
                    )
                } else {
                    Ok(false)
                }
            }
            PseudoClass::Has(arg) => {
                plan.needs_subtree = true;
                if place != Place::Subject {
                    return refuse("`:has()` on an ancestor needs the ancestor's later content");
                }
                for s in arg.list.slice() {
                    for c in s.iter_raw_match_order() {
                        if let Component::Combinator(
                            Combinator::NextSibling | Combinator::LaterSibling,
                        ) = c
                        {
                            return refuse(
                                "`:has()` with a sibling combinator needs later siblings",
                            );
                        }
                    }
                    check_complex(s, Place::Descendant, plan, None)?;
                }
                Ok(false)
            }
            PseudoClass::Checked
            | PseudoClass::Default
            | PseudoClass::Indeterminate
            | PseudoClass::Disabled
            | PseudoClass::Enabled
            | PseudoClass::Valid
            | PseudoClass::Invalid
            | PseudoClass::InRange
            | PseudoClass::OutOfRange => refuse(
                "this pseudo-class depends on other elements (a form, a radio group, a \
                 `select`'s options, an enclosing `fieldset`'s legend), which a streaming \
                 parse does not keep",
            ),
            PseudoClass::ReadOnly
            | PseudoClass::ReadWrite
            | PseudoClass::Lang(_)
            | PseudoClass::Dir(..) => refuse(
                "this pseudo-class is inherited from ancestors up to `html`/`body`, whose \
                 attributes can change until the end of the input (or from a later `<meta>`)",
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_answers_as_the_real_position() {
        let tests = [(2, 1), (0, 3), (-1, 4), (3, 0)];
        let w = Window::of(&tests).unwrap();
        let matches = |i: u64, (a, b): (i32, i32)| {
            let d = i as i64 - b as i64;
            if a == 0 {
                d == 0
            } else {
                d % a as i64 == 0 && d / a as i64 >= 0
            }
        };
        for i in 1..200 {
            // (The position of a type is never past the position among all.)
            for at_least in [1, 3, 9].into_iter().filter(|&a| a <= i) {
                let r = w.reduce(i, at_least);
                assert!(r >= at_least && r <= u64::from(w.bound + w.period) + at_least);
                for t in tests {
                    assert_eq!(matches(i, t), matches(r, t), "{i} {t:?} -> {r}");
                }
            }
        }
        assert!(Window::of(&[(0, 5000)]).is_none());
    }

    fn refused(s: &str) -> Option<String> {
        plan(&Selector::parse(s).unwrap()).err().map(|r| r.part)
    }

    #[test]
    fn accepts_local_selectors() {
        for s in [
            "tr",
            "div > p.x",
            "ix\\:nonfraction",
            "a[href]:not([rel])",
            "div.a p",
            "* > p",
            ":root body div",
            "p:empty",
            "li:has(> a)",
            "p::before",
            "table td:is(.a, .b)",
            "li:first-child",
            "tr:nth-child(2n+1) td:first-of-type",
            "div:has(> p:last-child)",
            "li:not(:first-child) a",
            "div:not(.x) p",
            "td + td",
            "div.a > h2 + p a",
        ] {
            assert_eq!(refused(s), None, "{s}");
        }
    }

    #[test]
    fn refuses_what_needs_more() {
        assert_eq!(refused("h1 + h2 + p").as_deref(), Some("+"));
        assert_eq!(refused("li:last-child").as_deref(), Some(":last-child"));
        assert_eq!(refused(":first-child p").as_deref(), Some(":first-child"));
        assert!(refused("li:nth-child(3000)").is_some());
        assert_eq!(refused(".content p").as_deref(), Some(".content"));
        assert_eq!(refused(":not(div) p").as_deref(), None);
        assert!(refused(":not(.x) p").is_some());
        assert!(refused("input:checked").is_some());
        assert!(refused("div:has(+ p)").is_some());
        assert!(refused("p:lang(en)").is_some());
    }

    #[test]
    fn prefilter_is_loose() {
        let p = plan(&Selector::parse("TR.row#x").unwrap()).unwrap();
        let f = &p.prefilters[0];
        assert!(f.may_match("tr", Some("X"), Some("a row")));
        assert!(!f.may_match("td", Some("x"), Some("row")));
        assert!(!f.may_match("tr", None, Some("row")));
        assert!(f.type_only.is_none());
        let p = plan(&Selector::parse("TR, ix\\:nonFraction").unwrap()).unwrap();
        assert_eq!(p.prefilters[0].type_only, Some(("TR".into(), "tr".into())));
        assert_eq!(
            p.prefilters[1].type_only,
            Some(("ix:nonFraction".into(), "ix:nonfraction".into()))
        );
    }
}
