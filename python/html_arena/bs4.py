"""A BeautifulSoup tree builder on html_arena: the browser's tree at the speed of bs4's lxml
builder.

>>> from bs4 import BeautifulSoup
>>> import html_arena.bs4  # registers the builder with bs4
>>> soup = BeautifulSoup("<p class='a b'>Hi<svg><a xlink:href=#x/></svg><table><tr><td>1</table>", "html-arena")
>>> soup.p["class"], soup.find("a")["xlink:href"], soup.find("a").namespace
(['a', 'b'], '#x', 'http://www.w3.org/2000/svg')
>>> [t.name for t in soup.find_all(True)]
['html', 'head', 'body', 'p', 'svg', 'a', 'table', 'tbody', 'tr', 'td']

`BeautifulSoup(markup, "html-arena")` (or ``"html_arena"``, or
``builder=HTMLArenaTreeBuilder``) takes ``str`` or ``bytes``; bytes are decoded as a browser
decodes them (byte order mark, then ``from_encoding``, then ``<meta>``, then detection), and
``soup.original_encoding`` names the encoding used. The tree is the one the HTML Standard's
parsing algorithm builds (bs4's "html5lib" builder gives the same tree, except where html5lib
1.1 predates the standard: processing instructions, ``<select>`` contents).

The builder is registered under its own names only, never "html", "html5", "fast" or
"permissive": ``BeautifulSoup(markup)`` without a parser name keeps choosing what it chose
before this module was imported.
"""

from __future__ import annotations

import codecs
import gc
import warnings
from typing import Any, Iterable, Optional, Tuple

from bs4.builder import DetectsXMLParsedAsHTML, HTMLTreeBuilder, builder_registry
from bs4.element import (
    AttributeDict,
    Comment,
    Doctype,
    NamespacedAttribute,
    NavigableString,
    ProcessingInstruction,
    Tag,
)

from ._html_arena import EncodingError, bs4_build

__all__ = ["HTMLArenaTreeBuilder"]

NAME = "html-arena"


def _codec(label: str) -> Optional[str]:
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


class HTMLArenaTreeBuilder(HTMLTreeBuilder):
    """Builds BeautifulSoup's tree with html_arena's parser (the WHATWG HTML Standard's
    parsing algorithm, the tree a browser builds).

    Supported: ``str`` and ``bytes`` markup, ``from_encoding`` (an override, as bs4's other
    builders take it), ``exclude_encodings``, ``original_encoding``, namespaces on SVG and
    MathML tags, `NamespacedAttribute` keys for ``xlink:href``, ``xml:lang``, ``xmlns``...,
    ``multi_valued_attributes`` (class, rel, ... as lists), ``string_containers`` (script,
    style, template, rt, rp strings), ``<template>`` contents as the tag's children, doctypes,
    comments, processing instructions, ``sourceline``/``sourcepos`` (the 1-based line and
    0-based column of the start tag; ``store_line_numbers=False`` turns them off), and
    ``parse_only`` (a `SoupStrainer`, with the semantics of bs4's other builders).

    White space is kept exactly as parsed (bs4's ``handle_data`` path would collapse
    whitespace-only strings; this builder makes the strings directly).
    """

    NAME = NAME
    ALTERNATE_NAMES = ["html_arena", "htmlarena"]
    # Only our own names: a name bs4 looks up by default ("html", "fast") could make this
    # builder the default for users who did not ask for it.
    features = [NAME, "html_arena", "htmlarena"]
    TRACKS_LINE_NUMBERS = True
    picklable = True

    user_specified_encoding: Optional[str] = None
    exclude_encodings: Iterable[str] = ()

    def prepare_markup(
        self,
        markup: Any,
        user_specified_encoding: Optional[str] = None,
        document_declared_encoding: Optional[str] = None,
        exclude_encodings: Optional[Iterable[str]] = None,
    ) -> Iterable[Tuple[Any, Optional[str], Optional[str], bool]]:
        if isinstance(markup, (bytearray, memoryview)):
            markup = bytes(markup)
        if document_declared_encoding:
            warnings.warn(
                "You provided a value for document_declared_encoding, but the html-arena tree "
                "builder finds the declared encoding itself: ignored.",
                stacklevel=3,
            )
        DetectsXMLParsedAsHTML.warn_if_markup_looks_like_xml(markup, stacklevel=3)
        self.user_specified_encoding = user_specified_encoding
        self.exclude_encodings = exclude_encodings or ()
        # The encoding is found while parsing: feed() sets soup.original_encoding.
        yield (markup, None, None, False)

    def test_fragment_to_document(self, fragment: str) -> str:
        """How bs4's test suite wraps a fragment (as for its html5lib builder)."""
        return "<html><head></head><body>%s</body></html>" % fragment

    def _config(self, soup: Any) -> dict:
        classes = soup.element_classes
        string_cls = classes.get(NavigableString, NavigableString)
        containers = self.string_containers or {}
        if string_cls is not NavigableString:
            containers = {}  # bs4 applies containers to plain NavigableStrings only
        template = {
            "parser_class": soup.__class__,
            "_namespaces": {},
            "prefix": None,
            "attribute_value_list_class": self.attribute_value_list_class,
            "known_xml": False,
            "hidden": False,
            "cdata_list_attributes": self.cdata_list_attributes,
            "preserve_whitespace_tags": self.preserve_whitespace_tags,
        }
        cfg = {
            "tag": classes.get(Tag, Tag),
            "string": string_cls,
            "comment": classes.get(Comment, Comment),
            "doctype": classes.get(Doctype, Doctype),
            "pi": classes.get(ProcessingInstruction, ProcessingInstruction),
            "attrs": self.attribute_dict_class or AttributeDict,
            "values": self.attribute_value_list_class,
            "nsattr": NamespacedAttribute,
            "cdata": self.cdata_list_attributes or None,
            "containers": dict(containers),
            "empty": self.empty_element_tags,
            "template": template,
            "main_types": Tag.MAIN_CONTENT_STRING_TYPES,
        }
        strainer = soup.parse_only
        if strainer is not None:
            cfg["accept_tag"] = lambda name, attrs: strainer.allow_tag_creation(None, name, attrs)
            cfg["accept_string"] = strainer.allow_string_creation
        return cfg

    def feed(self, markup: Any) -> None:
        soup = self.soup
        assert soup is not None
        if not markup:
            # Empty markup makes an empty soup, as with bs4's lxml and html.parser builders
            # (the standard's parse would add html, head and body): bs4 copies a soup by
            # building an empty one with the same builder and appending the copied children.
            soup.original_encoding = None
            return
        cfg = self._config(soup)
        override = self.user_specified_encoding if isinstance(markup, bytes) else None
        if override is not None and _codec(override) is None:
            warnings.warn(
                f"from_encoding={override!r} is not an encoding label: ignored", stacklevel=4
            )
            override = None
        excluded = {_codec(e) for e in self.exclude_encodings} - {None}
        if isinstance(markup, bytes) and excluded:
            # Find the encoding first; if it is excluded, decode with the first of UTF-8
            # and windows-1252 that is not.
            chosen = _sniff(markup, override)
            if _codec(chosen) in excluded:
                override = next(
                    (e for e in ("utf-8", "windows-1252") if _codec(e) not in excluded), None
                )
                if override is None:
                    warnings.warn(
                        "every encoding html-arena could use is excluded: using " + chosen,
                        stacklevel=4,
                    )
        # Every object is new and stays alive: the cycle collector has nothing to find
        # during the build (it would walk the growing tree again and again).
        collecting = gc.isenabled()
        gc.disable()
        try:
            encoding, metas = bs4_build(
                markup,
                soup,
                cfg,
                override_encoding=override,
                positions=bool(self.store_line_numbers),
            )
        except EncodingError as e:  # pragma: no cover - labels are checked above
            raise ValueError(str(e)) from e
        finally:
            if collecting:
                gc.enable()
        soup.original_encoding = encoding
        for tag in metas:
            self.set_up_substitutions(tag)


def _sniff(markup: bytes, override: Optional[str]) -> str:
    """The encoding html_arena decodes `markup` with (`override` wins, as in the build)."""
    if override is not None:
        return override
    from . import parse

    return parse(markup, lean=True).encoding


builder_registry.register(HTMLArenaTreeBuilder)
# register() puts the newest builder first in `builders`, which `lookup()` without features
# returns: keep bs4's own first.
builder_registry.builders.remove(HTMLArenaTreeBuilder)
builder_registry.builders.append(HTMLArenaTreeBuilder)
