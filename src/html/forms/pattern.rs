//! The `pattern` attribute (HTML, "The pattern attribute").
//!
//! "The compiled pattern regular expression of an input element, if it exists, is a JavaScript
//! RegExp object": the attribute's value must compile with the `v` flag (else the element has
//! none), and the compiled pattern is `^(?:` value `)$` with the `v` flag. We compile with
//! `regress`, an ECMAScript regular expression engine.
//!
//! ECMAScript regular expressions backtrack, and some patterns take exponential time on some
//! values (`(a*)*b` against a run of `a`s): a browser's tab would hang on such a page; a
//! library must not. Before running a pattern we estimate, from its shape, how many steps a
//! backtracking match may take on a value of the given length (quantifiers that can take a
//! variable number of turns multiply the choices; a variable quantifier over a group that
//! itself varies makes them exponential). A match whose estimate exceeds a per-value budget,
//! or that would exceed the document's budget, is not run, and the element is treated as not
//! suffering from a pattern mismatch. Patterns nested deeper than [`MAX_NESTING`], or with more
//! than [`MAX_ALTERNATIVES`] alternatives, are treated as not compiling (as an engine out of
//! stack would): the engine recurses on both.

use std::collections::HashMap;

/// Group and class nesting beyond which a pattern is not compiled.
pub(crate) const MAX_NESTING: usize = 32;

/// Alternatives (`|`) beyond which a pattern is not compiled: the engine's parser recurses
/// once per alternative.
pub(crate) const MAX_ALTERNATIVES: usize = 128;

/// The largest estimated cost (in backtracking steps, log2) one match may have.
const MAX_LOG2_COST_PER_MATCH: f64 = 24.0;

/// The estimated steps all matches of one document may take together.
const DOCUMENT_BUDGET: f64 = (1u64 << 28) as f64;

/// The shape of a pattern, for the cost estimate: a backtracking match over a value of length
/// `n` may take about `constant * (n + 1)^max(unbounded, 1)` steps, or `2^n` times that when
/// `exponential`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Shape {
    unbounded: u32,
    log2_constant: f64,
    exponential: bool,
}

impl Shape {
    /// The estimated number of steps (log2) to match a value of `len` characters (the
    /// compiled pattern is anchored, so it is tried at the start only).
    fn log2_cost(self, len: usize) -> f64 {
        let n = len as f64 + 1.0;
        let mut cost = self.log2_constant + f64::from(self.unbounded.max(1)) * n.log2();
        if self.exponential {
            cost += n;
        }
        cost
    }
}

/// A group being scanned.
#[derive(Default)]
struct Group {
    /// Whether something inside varies (a variable quantifier or an alternation).
    varies: bool,
    /// The number of `|` directly inside: a match may try each alternative.
    bars: usize,
}

/// Estimates the shape of `pattern`, or `None` when it nests deeper than [`MAX_NESTING`] or has
/// more than [`MAX_ALTERNATIVES`] alternatives.
pub(crate) fn shape(pattern: &str) -> Option<Shape> {
    let mut shape = Shape {
        unbounded: 0,
        log2_constant: 0.0,
        exponential: false,
    };
    let mut groups: Vec<Group> = vec![Group::default()];
    // Whether the last atom was a group whose contents vary.
    let mut last_atom_varies = false;
    let mut class_depth = 0usize;
    let mut alternatives = 0usize;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if class_depth > 0 {
            match c {
                '\\' => {
                    chars.next();
                }
                '[' => {
                    class_depth += 1;
                    if class_depth + groups.len() > MAX_NESTING {
                        return None;
                    }
                }
                ']' => class_depth -= 1,
                _ => {}
            }
            continue;
        }
        match c {
            '\\' => {
                chars.next();
                last_atom_varies = false;
            }
            '[' => {
                class_depth = 1;
                last_atom_varies = false;
            }
            '(' => {
                groups.push(Group::default());
                if groups.len() > MAX_NESTING {
                    return None;
                }
                last_atom_varies = false;
            }
            ')' => {
                let inner = if groups.len() > 1 {
                    groups.pop().unwrap_or_default()
                } else {
                    Group::default()
                };
                shape.log2_constant += ((inner.bars + 1) as f64).log2();
                last_atom_varies = inner.varies;
                if inner.varies {
                    if let Some(outer) = groups.last_mut() {
                        outer.varies = true;
                    }
                }
            }
            '|' => {
                alternatives += 1;
                if alternatives > MAX_ALTERNATIVES {
                    return None;
                }
                if let Some(g) = groups.last_mut() {
                    g.varies = true;
                    g.bars += 1;
                }
                last_atom_varies = false;
            }
            '*' | '+' | '?' | '{' => {
                // A quantifier (a `{` that does not start `{n}`, `{n,}` or `{n,m}` is a
                // literal, and counts as a bounded quantifier here: harmless).
                let (min, max) = match c {
                    '*' => (0, None),
                    '+' => (1, None),
                    '?' => (0, Some(1)),
                    _ => {
                        let mut text = String::new();
                        while let Some(&d) = chars.peek() {
                            chars.next();
                            if d == '}' {
                                break;
                            }
                            text.push(d);
                        }
                        let (lo, hi) = text.split_once(',').unwrap_or((&text, &text));
                        let lo: u64 = lo.trim().parse().unwrap_or(0);
                        let hi: Option<u64> = if hi.trim().is_empty() {
                            None
                        } else {
                            Some(hi.trim().parse().unwrap_or(lo))
                        };
                        (lo, hi)
                    }
                };
                if chars.peek() == Some(&'?') {
                    chars.next();
                }
                let variable = max != Some(min);
                if variable {
                    match max {
                        None => shape.unbounded += 1,
                        Some(max) => {
                            shape.log2_constant += ((max.saturating_sub(min) + 1) as f64).log2()
                        }
                    }
                    if last_atom_varies {
                        shape.exponential = true;
                    }
                    if let Some(g) = groups.last_mut() {
                        g.varies = true;
                    }
                }
                last_atom_varies = false;
            }
            _ => last_atom_varies = false,
        }
    }
    for g in &groups {
        shape.log2_constant += ((g.bars + 1) as f64).log2();
    }
    Some(shape)
}

/// The compiled patterns of one document, with the budget its matches share.
#[derive(Default)]
pub(crate) struct Patterns {
    compiled: HashMap<Box<str>, Option<(regress::Regex, Shape)>>,
    spent: f64,
}

impl Patterns {
    /// Whether `value` matches the compiled pattern regular expression of `pattern`: `None`
    /// when the pattern does not compile (the element has no compiled pattern) or the match
    /// is over budget.
    pub(crate) fn matches(&mut self, pattern: &str, value: &str) -> Option<bool> {
        let entry = self
            .compiled
            .entry(pattern.into())
            .or_insert_with(|| compile(pattern));
        let (regex, shape) = entry.as_ref()?;
        let log2_cost = shape.log2_cost(value.chars().count());
        if log2_cost > MAX_LOG2_COST_PER_MATCH {
            return None;
        }
        let cost = log2_cost.exp2();
        if self.spent + cost > DOCUMENT_BUDGET {
            return None;
        }
        self.spent += cost;
        Some(regex.find(value).is_some())
    }
}

/// "Compiled pattern regular expression": `pattern` must compile with the `v` flag; the
/// result is `^(?:pattern)$` with the `v` flag.
fn compile(pattern: &str) -> Option<(regress::Regex, Shape)> {
    let shape = shape(pattern)?;
    regress::Regex::with_flags(pattern, "v").ok()?;
    let anchored = format!("^(?:{pattern})$");
    let regex = regress::Regex::with_flags(&anchored, "v").ok()?;
    Some((regex, shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchored_with_v_flag() {
        let mut p = Patterns::default();
        assert_eq!(p.matches("[0-9]{3}", "123"), Some(true));
        assert_eq!(p.matches("[0-9]{3}", "1234"), Some(false));
        // Alternatives are anchored as a whole.
        assert_eq!(p.matches("a|b", "ab"), Some(false));
        // `v`-only syntax: set subtraction.
        assert_eq!(p.matches("[\\p{L}--[a-z]]+", "ABC"), Some(true));
        assert_eq!(p.matches("[\\p{L}--[a-z]]+", "abc"), Some(false));
        // Valid without `v`, invalid with it: no compiled pattern.
        assert_eq!(p.matches("[(]", "("), None);
        // An unterminated group does not compile, anchored or not.
        assert_eq!(p.matches("a)(b", "a)(b"), None);
    }

    #[test]
    fn hostile_patterns_are_bounded() {
        let mut p = Patterns::default();
        let value = "a".repeat(64) + "!";
        assert!(shape("(a*)*b").unwrap().exponential);
        assert!(!shape("a*b").unwrap().exponential);
        assert_eq!(p.matches("(a*)*b", &value), None);
        assert_eq!(p.matches("(a|a)*", &value), None);
        assert_eq!(p.matches("a*", &value), Some(false));
        // One unbounded quantifier is linear: long values are matched.
        assert_eq!(p.matches("[a-z]*", &"a".repeat(1_000_000)), Some(true));
        // Two are quadratic: a long value is not.
        assert_eq!(p.matches("a*a*b", &"a".repeat(100_000)), None);
        assert_eq!(shape(&"(".repeat(40)), None);
    }
}

#[cfg(test)]
mod stress {
    use super::*;

    /// Long and deep patterns: compiled or refused, never a stack overflow.
    #[test]
    fn long_patterns_do_not_overflow_the_stack() {
        let mut p = Patterns::default();
        for pattern in [
            "a|".repeat(200_000),
            "a".repeat(100_000),
            "(?:a)".repeat(100_000),
            "a?".repeat(100_000),
            "[a]".repeat(100_000),
            "(a)|".repeat(50_000) + "\\1",
            "(".repeat(31) + &"a|".repeat(128) + &")".repeat(31),
            "(".repeat(31) + &"[".repeat(32) + "a" + &"]".repeat(32),
        ] {
            let _ = p.matches(&pattern, "aaaa");
        }
        assert_eq!(p.matches(&"a|".repeat(129), "a"), None);
        assert_eq!(p.matches(&"a|".repeat(128), "a"), Some(true));
    }
}
