"""html_arena: a spec-exact HTML parser (the WHATWG HTML Living Standard's algorithm, the tree
a browser builds) with CSS selectors, rendered text and encoding sniffing, on a Rust core.

>>> import html_arena
>>> doc = html_arena.parse("<ul><li><a href=/a>One</a><li><a href=/b>Two</a></ul>")
>>> [a["href"] for a in doc.select("li a")]
['/a', '/b']
>>> doc.select_one("li:nth-child(2)").text()
'Two'

Parsing, selecting, serializing and text extraction release the GIL; documents may be shared
between threads (a lock guards each one). See the package README for the whole API.
"""

from ._html_arena import (
    Document,
    EncodingError,
    HierarchyError,
    IterParse,
    Node,
    ParseError,
    SelectorSyntaxError,
    StaleNodeError,
    UnsupportedSelectorError,
    XPathSyntaxError,
    iterparse,
    parse,
    parse_fragment,
)

__all__ = [
    "Document",
    "EncodingError",
    "HierarchyError",
    "IterParse",
    "Node",
    "ParseError",
    "SelectorSyntaxError",
    "StaleNodeError",
    "UnsupportedSelectorError",
    "XPathSyntaxError",
    "iterparse",
    "parse",
    "parse_fragment",
]
__version__ = "0.1.0"
