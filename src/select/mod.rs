//! CSS selectors over the arena: what a browser's `querySelectorAll` returns, in the same
//! order, with the same selectors rejected as syntax errors.
//!
//! ```
//! use html_arena::{Document, Selector};
//!
//! let doc = Document::parse(r#"
//!     <ul class=nav><li><a href="/">Home</a><li><a href="/docs" class=active>Docs</a></ul>
//!     <p>See <a href="/blog">the blog</a>.</p>"#);
//! let links = Selector::parse(".nav a[href]")?;
//! let hrefs: Vec<_> = doc.select(&links).map(|a| a.attr("href").unwrap()).collect();
//! assert_eq!(hrefs, ["/", "/docs"]);
//!
//! let active = doc.select_first(&Selector::parse("li:has(> a.active)")?).unwrap();
//! assert_eq!(active.text(), "Docs");
//! assert!(active.matches(&Selector::parse("ul > li:nth-child(2)")?));
//! # Ok::<(), html_arena::SelectorError>(())
//! ```
//!
//! # What is supported
//!
//! Selectors Level 4 as the `selectors` crate parses it, with every option browsers enable:
//! type, universal, `#id`, `.class` and attribute selectors (`=`, `~=`, `|=`, `^=`, `$=`, `*=`,
//! with `i` and `s` flags); the four combinators; `:is()`, `:where()` (forgiving), `:not()`
//! with a list, `:has()`; `:root`, `:empty`, `:scope`, `&`; `:first-child`, `:last-child`,
//! `:only-child`, `:nth-child(An+B of S)`, `:nth-last-child(An+B of S)` and the `-of-type`
//! forms; `*|name` and `|name`, and namespace prefixes declared with
//! [`Selector::parse_with_namespaces`].
//!
//! The HTML standard's pseudo-classes (HTML, "Pseudo-classes"), for a static document that
//! nobody interacts with: `:link` and `:any-link`, `:checked` (with radio groups and
//! `select`s resolved as the parser leaves them), `:default`, `:defined`, `:disabled` and
//! `:enabled` (with the fieldset, legend and optgroup rules), `:required` and `:optional`,
//! `:read-only` and `:read-write` (with `contenteditable`), `:placeholder-shown`,
//! `:indeterminate`, `:open`, and `:lang()`. States a static document never has parse and
//! never match: `:hover`, `:active`, `:focus`, `:focus-visible`, `:focus-within`, `:visited`,
//! `:target`, `:user-valid`, `:user-invalid`, `:autofill`, `:modal`,
//! `:fullscreen`, `:popover-open`, `:picture-in-picture`. Pseudo-elements (`::before`,
//! `::marker`, `::slotted()`, ...) parse and match nothing, as in `querySelectorAll`.
//!
//! Not supported (an error, not a silent mismatch): `:dir()`, `:valid`/`:invalid`,
//! `:in-range`/`:out-of-range` and the media-state pseudo-classes, which need values or
//! layout this crate does not compute.
//!
//! # Semantics
//!
//! - Case (HTML, "Case-sensitivity of selectors"): type selectors and attribute names match
//!   HTML elements' names ASCII case-insensitively (SVG's `foreignObject` needs its case);
//!   attribute values are case-sensitive except for the HTML attributes whose values the
//!   `selectors` crate lists as case-insensitive (`type`, `lang`, `dir`, ...), or with an `i`
//!   flag; ids and classes are ASCII case-insensitive in quirks-mode documents.
//! - Scope: [`Document::select`] searches the document's tree, [`ElementRef::select`] the
//!   element's descendants. Template contents are separate trees (as in the DOM) and are not
//!   searched from outside; select inside them from the template's contents fragment's
//!   elements. Selectors still see the whole tree: `ElementRef::select(".a .b")` finds the
//!   `.b` descendants of the element that have an `.a` ancestor anywhere, even above it.
//!   `:scope` (and `&`) is the element a method was called on, or the document element for
//!   `Document::select`.
//! - Order: document order, each element once.
//!
//! # Cost
//!
//! A first query of plain compounds (`a[href]`, `.price`, `#main`) on a document walks the
//! tree. Other queries, and queries once walks have added up to about one pass over the
//! document, use an index of its elements (built once, linear in their number), and, once
//! queries have scanned the elements, lists of the elements with each id, class and local
//! name. A query then costs one match per candidate: every element of the scope, or only
//! those with the id, class or local name its rightmost compound names. `closest` and
//! `matches` cost the element's ancestors (and their siblings, on a document not indexed).
//! Each `:has()` in a selector costs one pass per compound over the tree, the first time a
//! query needs it. Mutations keep the index up to date at the cost of what they touch
//! (attribute edits and removals), or drop it (inserting elements): loops that mix queries
//! and mutations stay linear. Nothing recurses on the depth of the document; selectors are
//! limited to 32 nested levels and 512 combinators, since parsing and matching them recurse.

mod element;
pub(crate) mod parser;
pub(crate) mod pseudo;
mod query;
pub(crate) mod stream_check;
mod text;
mod walk;

use std::fmt;

use cssparser::ToCss;

pub use parser::{SelectorError, SelectorErrorKind};
pub use query::Select;

use crate::dom::{Document, ElementRef, MutationError, NodeId};

/// A parsed CSS selector list, ready to match. `Send + Sync`: parse once, use from any thread.
///
/// ```
/// use html_arena::{Document, Selector};
///
/// let sel = Selector::parse("p.x > b, i")?;
/// let doc = Document::parse("<p class=x><b>1</b></p><i>2</i><p><b>3</b></p>");
/// let texts: Vec<String> = doc.select(&sel).map(|e| e.text()).collect();
/// assert_eq!(texts, ["1", "2"]);
/// assert_eq!(sel.to_string(), "p.x > b, i");
/// # Ok::<(), html_arena::SelectorError>(())
/// ```
#[derive(Clone)]
pub struct Selector {
    parsed: parser::Parsed,
    text: Box<str>,
}

impl Selector {
    /// Parses a selector list, as `querySelectorAll` would: the same selectors are valid.
    ///
    /// An invalid selector is a [`SelectorError`] that says what is wrong and where (never a
    /// panic, whatever the input).
    ///
    /// ```
    /// use html_arena::Selector;
    ///
    /// assert!(Selector::parse("div > p:nth-child(2n+1 of .x), a[href^='http' i]").is_ok());
    /// let err = Selector::parse("div > > p").unwrap_err();
    /// assert_eq!((err.offset(), err.text()), (6, ">"));
    /// assert!(Selector::parse("svg|rect").is_err()); // prefixes need declaring
    /// ```
    pub fn parse(selector: &str) -> Result<Selector, SelectorError> {
        Selector::parse_with_namespaces(selector, &[])
    }

    /// Parses a selector list with namespace prefixes declared, each `(prefix, url)` as a CSS
    /// `@namespace prefix url;` rule would; an empty prefix sets the default namespace (type
    /// selectors without a prefix then match only elements in it).
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    ///
    /// let svg = ("svg", "http://www.w3.org/2000/svg");
    /// let sel = Selector::parse_with_namespaces("svg|a, svg|*[svg|x]", &[svg])?;
    /// let doc = Document::parse("<a></a><svg><a></a></svg>");
    /// assert_eq!(doc.select(&sel).count(), 1);
    /// # Ok::<(), html_arena::SelectorError>(())
    /// ```
    pub fn parse_with_namespaces(
        selector: &str,
        namespaces: &[(&str, &str)],
    ) -> Result<Selector, SelectorError> {
        Ok(Selector {
            parsed: parser::parse(
                selector,
                parser::Syntax {
                    namespaces,
                    extended: false,
                },
            )?,
            text: selector.into(),
        })
    }

    /// Parses a selector list in the extended syntax: standard selectors plus the text
    /// pseudo-classes scrapers use, which no browser accepts (so [`Selector::parse`] rejects
    /// them):
    ///
    /// - `:contains(s, ...)` (jQuery) and `:-soup-contains(s, ...)` (soupsieve): the element's
    ///   text content (all descendant text, as [`NodeRef::text`]) contains one of the
    ///   strings, case-sensitively (jsoup's `:contains` ignores case: use `:has-text`);
    /// - `:-soup-contains-own(s, ...)`: one of the element's own text nodes (its text
    ///   children) contains one of the strings;
    /// - `:has-text(s, ...)` (Playwright): the text content contains one of the strings,
    ///   ignoring case and differences in white space (runs of white space count as one
    ///   space; the string is trimmed).
    ///
    /// Each argument is a quoted string or an identifier. A query computes each of these for
    /// every element in one pass over the tree: linear in the document, whatever its depth.
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    ///
    /// let doc = Document::parse("<ul><li>Price: <b>10 EUR</b><li>Sold   OUT</ul>");
    /// let sel = Selector::parse_extended("li:contains('Price: 10')")?;
    /// assert_eq!(doc.select(&sel).count(), 1);
    /// let sel = Selector::parse_extended("li:has-text('sold out')")?;
    /// assert_eq!(doc.select(&sel).next().unwrap().text(), "Sold   OUT");
    /// let sel = Selector::parse_extended("li:-soup-contains-own('EUR')")?;
    /// assert_eq!(doc.select(&sel).count(), 0); // "10 EUR" is the b's own text
    /// assert!(Selector::parse("li:contains('x')").is_err());
    /// # Ok::<(), html_arena::SelectorError>(())
    /// ```
    ///
    /// [`NodeRef::text`]: crate::NodeRef::text
    pub fn parse_extended(selector: &str) -> Result<Selector, SelectorError> {
        Ok(Selector {
            parsed: parser::parse(
                selector,
                parser::Syntax {
                    namespaces: &[],
                    extended: true,
                },
            )?,
            text: selector.into(),
        })
    }

    /// The text this selector was parsed from.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Selector {
    /// The selector serialized as CSSOM does (normalized white space and quoting).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.parsed.list.to_css(f)
    }
}

impl fmt::Debug for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Selector").field(&self.text).finish()
    }
}

impl std::str::FromStr for Selector {
    type Err = SelectorError;
    fn from_str(s: &str) -> Result<Selector, SelectorError> {
        Selector::parse(s)
    }
}

impl Document {
    /// The elements of the document that match `selector`, in document order
    /// (`document.querySelectorAll`). Template contents are not searched.
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    ///
    /// let doc = Document::parse("<div><p>1</p><template><p>2</p></template><p>3</p></div>");
    /// let p = Selector::parse("p")?;
    /// let texts: Vec<String> = doc.select(&p).map(|e| e.text()).collect();
    /// assert_eq!(texts, ["1", "3"]);
    /// # Ok::<(), html_arena::SelectorError>(())
    /// ```
    pub fn select<'a, 'b>(&'a self, selector: &'b Selector) -> Select<'a, 'b> {
        Select::document(self, selector)
    }

    /// The first element of the document that matches `selector`
    /// (`document.querySelector`).
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    ///
    /// let doc = Document::parse("<h1>Title</h1><h2>Sub</h2>");
    /// let h = doc.select_first(&Selector::parse("h2, h1")?).unwrap();
    /// assert_eq!(h.text(), "Title");
    /// # Ok::<(), html_arena::SelectorError>(())
    /// ```
    pub fn select_first(&self, selector: &Selector) -> Option<ElementRef<'_>> {
        self.select(selector).next()
    }

    /// Removes and frees every element that matches `selector`, each with its subtree (as
    /// [`Document::decompose`] does); returns how many matched (a match inside another goes
    /// with it). One query, then one removal per match: the cost of the matches, not of a query per
    /// removal.
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    ///
    /// let mut doc = Document::parse("<p>Text<script>x()</script></p><div class=ad>Buy</div>");
    /// assert_eq!(doc.remove_all(&Selector::parse("script, .ad")?), 2);
    /// assert_eq!(doc.body().unwrap().inner_html(), "<p>Text</p>");
    /// # Ok::<(), html_arena::SelectorError>(())
    /// ```
    pub fn remove_all(&mut self, selector: &Selector) -> usize {
        let ids: Vec<NodeId> = self.select(selector).map(|e| e.node_id()).collect();
        for &id in &ids {
            // A match inside an earlier one was freed with it; an element is never the root,
            // so freeing a live one cannot fail.
            if self.node(id).is_some() {
                let _ = self.decompose(id);
            }
        }
        ids.len()
    }

    /// Sets an attribute (as [`Document::set_attribute`] does) on every element that matches
    /// `selector`; returns how many matched. An invalid name is refused by the first match,
    /// before any change.
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    ///
    /// let mut doc = Document::parse("<a href=/a>a</a><a href=//b.example/>b</a>");
    /// let external = Selector::parse("a[href^='//']")?;
    /// assert_eq!(doc.set_attribute_all(&external, "rel", "nofollow"), Ok(1));
    /// assert_eq!(doc.select(&Selector::parse("[rel=nofollow]")?).count(), 1);
    /// # Ok::<(), html_arena::SelectorError>(())
    /// ```
    pub fn set_attribute_all(
        &mut self,
        selector: &Selector,
        name: &str,
        value: &str,
    ) -> Result<usize, MutationError> {
        let ids: Vec<NodeId> = self.select(selector).map(|e| e.node_id()).collect();
        for &id in &ids {
            self.set_attribute(id, name, value)?;
        }
        Ok(ids.len())
    }
}

impl<'a> ElementRef<'a> {
    /// The descendants of this element that match `selector`, in document order
    /// (`element.querySelectorAll`). The selector still sees the whole tree: ancestors of
    /// this element can satisfy its combinators; `:scope` is this element.
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    ///
    /// let doc = Document::parse("<div id=a><p>1</p></div><p>2</p>");
    /// let div = doc.select_first(&Selector::parse("#a")?).unwrap();
    /// assert_eq!(div.select(&Selector::parse("p")?).count(), 1);
    /// assert_eq!(div.select(&Selector::parse("body p")?).count(), 1);
    /// assert_eq!(div.select(&Selector::parse(":scope > p")?).count(), 1);
    /// # Ok::<(), html_arena::SelectorError>(())
    /// ```
    pub fn select<'b>(self, selector: &'b Selector) -> Select<'a, 'b> {
        Select::descendants(self, selector)
    }

    /// Whether this element matches `selector` (`element.matches`; `:scope` is the element).
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    ///
    /// let doc = Document::parse("<ul><li class=x>1<li>2</ul>");
    /// let li = doc.select_first(&Selector::parse("li")?).unwrap();
    /// assert!(li.matches(&Selector::parse("ul > .x:first-child")?));
    /// assert!(!li.matches(&Selector::parse("li + li")?));
    /// # Ok::<(), html_arena::SelectorError>(())
    /// ```
    pub fn matches(self, selector: &Selector) -> bool {
        query::element_matches(self, selector)
    }

    /// This element or its nearest ancestor that matches `selector` (`element.closest`).
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    ///
    /// let doc = Document::parse("<table><tr class=row><td><b>x</b></td></tr></table>");
    /// let b = doc.select_first(&Selector::parse("b")?).unwrap();
    /// let row = b.closest(&Selector::parse("tr")?).unwrap();
    /// assert_eq!(row.attr("class"), Some("row"));
    /// assert!(b.closest(&Selector::parse("ul")?).is_none());
    /// # Ok::<(), html_arena::SelectorError>(())
    /// ```
    pub fn closest(self, selector: &Selector) -> Option<ElementRef<'a>> {
        query::closest(self, selector)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selector_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Selector>();
        check::<SelectorError>();
        check::<Document>();
    }
}
