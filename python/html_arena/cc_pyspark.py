"""A drop-in HTML parser for Common Crawl's cc-pyspark jobs.

cc-pyspark's jobs call an `HTMLParser` object with two methods, `get_html_tree(page,
encoding=None, **kwargs)` and `html_to_text(tree, **kwargs)` (its BeautifulSoup and Resiliparse
parsers have this shape). This one gives the tree a browser builds and its rendered text:

>>> from html_arena.cc_pyspark import HTMLParser
>>> parser = HTMLParser()
>>> tree = parser.get_html_tree(b"<title>T</title><p>Hello<script>x()</script><br>world")
>>> parser.html_to_text(tree)
'Hello\\nworld'
"""

from __future__ import annotations

from typing import Optional

from . import Document, EncodingError, parse


class HTMLParser:
    """HTML parser for cc-pyspark, using html_arena."""

    def get_html_tree(self, page: bytes, encoding: Optional[str] = None, **kwargs) -> Document:
        """Parses `page`. `encoding` is taken as the transport-layer label (an HTTP charset):
        it wins over `<meta>`; None lets the parser sniff (BOM, `<meta>`, detection, default).
        `url=` may be passed through `kwargs` for link resolution."""
        try:
            return parse(page, encoding=encoding, **kwargs)
        except EncodingError:  # an unknown label: sniff instead, as browsers do
            return parse(page, **kwargs)

    def html_to_text(self, tree: Document, **kwargs) -> str:
        """The rendered text (scripts, styles and hidden content left out), trimmed."""
        return tree.rendered_text().strip()
