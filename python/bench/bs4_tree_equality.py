"""Tree equality of BeautifulSoup(page, "html-arena") with bs4's "html5lib" builder.

    python python/bench/bs4_tree_equality.py [CORPUS_DIR ...]

For every page: the html-arena soup's tree (tags, namespaces, attributes with their
NamespacedAttribute namespaces and list values, strings, comments, doctypes) against the
html5lib soup's, and its links (parent, siblings, next/previous element) against its own
contents. Where the two differ, the page counts as "newer standard" if the first difference is
a processing instruction (html5lib 1.1 makes a bogus comment) or lies in a `<select>` (html5lib
1.1 drops the tags there): those pages must instead equal html_arena's own tree (the Node API's
walk of `html_arena.parse(page)`). Any other difference is a failure, printed with its path.

String classes are compared up to bs4's string containers: html5lib's builder makes every string
a NavigableString, ours makes script/style/template/rt/rp strings Script, Stylesheet, ... as
bs4's other builders do. Attribute order is not compared (html5lib moves adjusted foreign
attributes to the end).
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

from bs4 import BeautifulSoup
from bs4.element import (
    Comment,
    Doctype,
    NamespacedAttribute,
    NavigableString,
    ProcessingInstruction,
    Tag,
)

import html_arena
import html_arena.bs4  # noqa: F401  (registers the builder)

ROOT = Path(__file__).resolve().parents[2]
XHTML = "http://www.w3.org/1999/xhtml"
# The standard's "adjust foreign attributes" table: the only attributes with a namespace.
XLINK, XML, XMLNS = (
    "http://www.w3.org/1999/xlink",
    "http://www.w3.org/XML/1998/namespace",
    "http://www.w3.org/2000/xmlns/",
)
ADJUSTED = {
    **{f"xlink:{n}": XLINK for n in ("actuate", "arcrole", "href", "role", "show", "title", "type")},
    "xml:lang": XML,
    "xml:space": XML,
    "xmlns": XMLNS,
    "xmlns:xlink": XMLNS,
}
LIST_ATTRS = html_arena.bs4.HTMLArenaTreeBuilder.DEFAULT_CDATA_LIST_ATTRIBUTES


def _attr_key(k):
    if isinstance(k, NamespacedAttribute):
        return (str(k), k.namespace)
    return (str(k), None)


def _attr_value(v):
    return tuple(v) if isinstance(v, list) else str(v)


def soup_records(soup):
    """(depth, record, path) for every node of a soup, in document order (iteratively)."""
    out = []
    stack = [(c, 0, "") for c in reversed(soup.contents)]
    while stack:
        node, depth, path = stack.pop()
        if isinstance(node, Tag):
            attrs = sorted((_attr_key(k), _attr_value(v)) for k, v in node.attrs.items())
            here = f"{path}/{node.name}"
            out.append((depth, ("tag", node.name, node.namespace or XHTML, node.prefix, tuple(attrs)), here))
            stack.extend((c, depth + 1, here) for c in reversed(node.contents))
        elif isinstance(node, Doctype):
            out.append((depth, ("doctype", str(node)), path))
        elif isinstance(node, ProcessingInstruction):
            out.append((depth, ("pi", str(node)), path))
        elif isinstance(node, Comment):
            out.append((depth, ("comment", str(node)), path))
        else:
            assert isinstance(node, NavigableString), type(node)
            out.append((depth, ("text", str(node)), path))
    return out


def own_records(doc):
    """The same records from html_arena's own Node API (template contents left out, as
    the Node API does not reach them: their children are compared through html5lib)."""
    out = []
    stack = [(c, 0, "") for c in reversed(doc.root.child_nodes)]
    while stack:
        node, depth, path = stack.pop()
        kind = node.kind
        if kind == "element":
            attrs = []
            for k, v in node.attrs.items():
                ns = ADJUSTED.get(k) if node.namespace != XHTML else None
                if k in LIST_ATTRS.get("*", ()) or k in LIST_ATTRS.get(node.tag, ()):
                    v = tuple(v.split())
                attrs.append(((k, ns), v))
            here = f"{path}/{node.tag}"
            out.append((depth, ("tag", node.tag, node.namespace, None, tuple(sorted(attrs))), here))
            if node.tag != "template":
                stack.extend((c, depth + 1, here) for c in reversed(node.child_nodes))
        elif kind == "text":
            out.append((depth, ("text", node.data), path))
        elif kind == "comment":
            out.append((depth, ("comment", node.data), path))
        elif kind == "processing_instruction":
            out.append((depth, ("pi", None), path))
        elif kind == "doctype":
            out.append((depth, ("doctype", None), path))
    return out


def _unlisted(records):
    """Class-value lists as strings (the Node API gives raw values) and no template
    contents (see own_records)."""
    out = []
    skip_below = None
    for depth, rec, path in records:
        if skip_below is not None and depth > skip_below:
            continue
        skip_below = None
        if rec[0] == "tag":
            if rec[1] == "template":
                skip_below = depth
        elif rec[0] in ("pi", "doctype"):
            rec = (rec[0], None)
        out.append((depth, rec, path))
    return out


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x[:2] != y[:2]:
            return i, x, y
    if len(a) != len(b):
        i = min(len(a), len(b))
        return i, a[i] if i < len(a) else None, b[i] if i < len(b) else None
    return None


def check_links(soup):
    """Every node's parent, siblings and document-order links agree with the contents."""
    order = []
    stack = [soup]
    while stack:
        node = stack.pop()
        order.append(node)
        if isinstance(node, Tag):
            kids = node.contents
            for i, c in enumerate(kids):
                if c.parent is not node:
                    return f"parent of {c!r:.40}"
                if c.previous_sibling is not (kids[i - 1] if i else None):
                    return f"previous_sibling of {c!r:.40}"
                if c.next_sibling is not (kids[i + 1] if i + 1 < len(kids) else None):
                    return f"next_sibling of {c!r:.40}"
            stack.extend(reversed(kids))
    for x, y in zip(order, order[1:]):
        if x.next_element is not y or y.previous_element is not x:
            return f"next_element of {x!r:.40}"
    if order[-1].next_element is not None:
        return "next_element of the last node"
    return None


def newer_standard(x, y):
    """Whether a difference is where html5lib 1.1 predates the standard."""
    for rec in (x, y):
        if rec is None:
            continue
        depth, r, path = rec
        if r[0] == "pi" or (r[0] == "comment" and r[1].startswith("?")):
            return True
        if "/select" in path or (r[0] == "tag" and r[1] in ("select", "selectedcontent")):
            return True
    return False


def check_page(markup: bytes):
    """'equal', 'newer' (differs from html5lib where html5lib predates the standard, and
    equals our own tree), or a failure message."""
    ours = BeautifulSoup(markup, "html-arena")
    theirs = BeautifulSoup(markup, "html5lib")
    recoded = False
    if ours.original_encoding != theirs.original_encoding:
        # html5lib 1.1 does not detect undeclared encodings (it takes windows-1252 where we
        # find UTF-8): compare the trees of the same text.
        theirs = BeautifulSoup(markup, "html5lib", from_encoding=ours.original_encoding)
        recoded = True
    broken = check_links(ours)
    if broken:
        return f"bad links: {broken}"
    mine = soup_records(ours)
    own = own_records(html_arena.parse(markup))
    d_own = first_difference(_unlisted(mine), own)
    if d_own:
        return f"differs from html_arena's own tree at {d_own}"
    d = first_difference(mine, soup_records(theirs))
    if d is None:
        return "equal (recoded)" if recoded else "equal"
    if newer_standard(d[1], d[2]):
        print(f"  (newer standard: ours {d[1]!r:.120} html5lib {d[2]!r:.120})")
        return "newer (recoded)" if recoded else "newer"
    return f"differs from html5lib at record {d[0]}: ours {d[1]!r:.200} html5lib {d[2]!r:.200}"


def main(argv):
    dirs = [Path(a) for a in argv] or [
        Path(os.environ.get("HTML_ARENA_CORPUS", ROOT.parent / "shared" / "bench-corpus")),
        Path(os.environ.get("HTML_ARENA_CORPUS_WIDE", ROOT.parent / "shared" / "bench-corpus-wide")),
    ]
    failures = 0
    for d in dirs:
        pages = sorted(d.glob("*.html"))
        counts = {"equal": 0, "newer": 0, "fail": 0, "recoded": 0}
        for p in pages:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # bs4's "looks like XML" warnings
                result = check_page(p.read_bytes())
            if result.split()[0] in ("equal", "newer"):
                counts[result.split()[0]] += 1
                counts["recoded"] += result.endswith("(recoded)")
            else:
                counts["fail"] += 1
                print(f"{d.name}/{p.name}: {result}")
        failures += counts["fail"]
        print(
            f"{d.name}: {len(pages)} pages: {counts['equal']} equal to html5lib's tree, "
            f"{counts['newer']} differ only where html5lib 1.1 predates the standard "
            f"(and equal html_arena's own tree), {counts['fail']} other differences; on "
            f"{counts['recoded']} pages html5lib was given our encoding (it detects none)"
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
