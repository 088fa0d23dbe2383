"""Type stubs for the Rust core of html_arena."""

from types import MappingProxyType
from typing import Dict, Iterator, List, Literal, Optional, Tuple, TypeVar, Union, final, overload

_T = TypeVar("_T")

class SelectorSyntaxError(ValueError):
    """An invalid CSS selector; `position` is the character offset of the problem."""

    position: int
    selector: str

class XPathSyntaxError(ValueError):
    """An invalid XPath expression (or a type error evaluating it); `position` is the
    character offset of the problem."""

    position: int
    expression: str

XPathResult = Union[List[Union["Node", str]], float, str, bool]
"""A node-set is a list in document order: elements and other nodes as `Node`; attributes and
text nodes as `str`, as lxml gives them (with `text_nodes=True`, text nodes as `Node`)."""

Markup = Union[str, bytes, bytearray, memoryview]

class StaleNodeError(ValueError):
    """The node was freed (`decompose()`, or its parent's contents were replaced). A node that
    was only `remove()`d stays usable, detached."""

class EncodingError(ValueError):
    """An unknown encoding label was given."""

class HierarchyError(ValueError):
    """A mutation that would break the tree."""

def parse(
    html: Markup,
    *,
    encoding: Optional[str] = None,
    url: Optional[str] = None,
    scripting: bool = False,
    lean: bool = False,
) -> Document:
    """Parses a document. `bytes` (or `bytearray`, `memoryview`) are decoded after sniffing (BOM, `encoding` as the
    transport's label, `<meta>`, then the default); `str` is used as is. Never raises for bad
    markup: errors are in `Document.errors`. The document keeps the decoded input (as in Rust);
    `lean=True` keeps only the document's strings, not the markup around them: less memory
    (the same tree, text and serialization), for a parse a few percent slower."""

def parse_fragment(
    html: Markup, context: str = "body", *, scripting: bool = False
) -> Document:
    """Parses `html` as the contents of a `context` element (like `innerHTML`)."""

@final
class ParseError:
    """One parse error: the standard's error code and position."""

    code: str
    line: int
    column: int
    message: str

@final
class Document:
    """A parsed document (or fragment). It pickles with its URL, scripting flag and lean
    choice (a fragment with its context). Selectors use the extended syntax (standard CSS
    plus `:contains()`, `:-soup-contains()`, `:-soup-contains-own()`, `:has-text()`);
    `extended=False` accepts only what a browser accepts."""

    @property
    def root(self) -> Node: ...
    @property
    def document_element(self) -> Optional[Node]: ...
    @property
    def head(self) -> Optional[Node]: ...
    @property
    def body(self) -> Optional[Node]: ...
    @property
    def title(self) -> Optional[str]: ...
    @property
    def url(self) -> Optional[str]: ...
    @property
    def base_url(self) -> str: ...
    @overload
    def links(self, *, with_nodes: Literal[False] = False) -> List[str]: ...
    @overload
    def links(self, *, with_nodes: Literal[True]) -> List[Tuple[str, Node]]: ...
    def xpath(
        self,
        expr: str,
        namespaces: Optional[Dict[str, str]] = None,
        *,
        text_nodes: bool = False,
    ) -> XPathResult: ...
    @property
    def encoding(self) -> str: ...
    @property
    def quirks_mode(self) -> str: ...
    @property
    def errors(self) -> List[ParseError]: ...
    @property
    def html(self) -> str: ...
    def select(self, css: str, *, extended: bool = True) -> List[Node]: ...
    def select_one(self, css: str, *, extended: bool = True) -> Optional[Node]: ...
    def matches(self, css: str, *, extended: bool = True) -> bool:
        """Whether any element of the document matches (`select_one(css) is not None`)."""
    def text(self, deep: bool = True, separator: str = "", strip: bool = False) -> str: ...
    def rendered_text(self, *, strip: bool = False) -> str: ...
    def abs_url(self, url: str) -> str:
        """`url` resolved against the document base URL (unchanged if it does not parse)."""
    def descendants(self, include_text: bool = False) -> List[Node]: ...
    def __iter__(self) -> Iterator[Node]: ...

@final
class Node:
    """A node of a document: element, text, comment, doctype, document or fragment."""

    @property
    def kind(self) -> str: ...
    @property
    def tag(self) -> Optional[str]: ...
    @property
    def namespace(self) -> Optional[str]: ...
    @property
    def is_element(self) -> bool: ...
    @property
    def data(self) -> Optional[str]: ...
    @property
    def attrs(self) -> MappingProxyType[str, str]: ...
    def get(self, name: str, default: Optional[_T] = None) -> Union[str, _T, None]: ...
    def __getitem__(self, name: str) -> str: ...
    def __contains__(self, name: str) -> bool: ...
    def __setitem__(self, name: str, value: str) -> None: ...
    def __delitem__(self, name: str) -> None: ...
    def set_attr(self, name: str, value: str) -> None: ...
    def remove_attr(self, name: str) -> bool: ...
    @property
    def id(self) -> Optional[str]: ...
    @property
    def classes(self) -> List[str]: ...
    def text(self, deep: bool = True, separator: str = "", strip: bool = False) -> str: ...
    def rendered_text(self, *, strip: bool = False) -> str: ...
    @property
    def html(self) -> str: ...
    @property
    def inner_html(self) -> str: ...
    @inner_html.setter
    def inner_html(self, html: str) -> None: ...
    @property
    def parent(self) -> Optional[Node]: ...
    @property
    def children(self) -> List[Node]: ...
    @property
    def child_nodes(self) -> List[Node]: ...
    @property
    def next(self) -> Optional[Node]: ...
    @property
    def prev(self) -> Optional[Node]: ...
    @property
    def next_element(self) -> Optional[Node]: ...
    @property
    def prev_element(self) -> Optional[Node]: ...
    def descendants(self, include_text: bool = False) -> List[Node]: ...
    def __iter__(self) -> Iterator[Node]: ...
    def __len__(self) -> int:
        """The number of element children; a node is always true (`__bool__`)."""
    def __bool__(self) -> Literal[True]: ...
    def select(self, css: str, *, extended: bool = True) -> List[Node]: ...
    def select_one(self, css: str, *, extended: bool = True) -> Optional[Node]: ...
    def xpath(
        self,
        expr: str,
        namespaces: Optional[Dict[str, str]] = None,
        *,
        text_nodes: bool = False,
    ) -> XPathResult: ...
    def abs_url(self, name: str = "href") -> Optional[str]: ...
    def matches(self, css: str, *, extended: bool = True) -> bool: ...
    def closest(self, css: str, *, extended: bool = True) -> Optional[Node]: ...
    def remove(self) -> None:
        """Detaches the node (with its subtree): it stays usable and can be inserted again;
        a no-op for a node without a parent."""
    def decompose(self) -> None:
        """Removes and frees the node and its subtree: using them raises `StaleNodeError`."""
    def unwrap(self) -> None: ...
    def append(self, what: Union[Node, Markup]) -> None: ...
    def prepend(self, what: Union[Node, Markup]) -> None: ...
    def insert_before(self, what: Union[Node, Markup]) -> None: ...
    def insert_after(self, what: Union[Node, Markup]) -> None: ...
    def replace_with(self, what: Union[Node, Markup]) -> None: ...
    @property
    def document(self) -> Document: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

# The BeautifulSoup tree builder's Rust half (html_arena.bs4; not a public API): parses
# `markup` and builds bs4's objects under `soup` as `cfg` says; returns the encoding name
# (None for str input) and the <meta> tags whose charset bs4 substitutes.
from typing import Any, Dict, Tuple  # noqa: E402  (kept apart from the imports above)

def bs4_build(
    markup: Union[str, bytes],
    soup: Any,
    cfg: Dict[str, Any],
    *,
    override_encoding: Optional[str] = None,
    positions: bool = False,
) -> Tuple[Optional[str], List[Any]]: ...

# Streaming (html_arena.iterparse): the matches of CSS selectors while the input is parsed.
from typing import IO, Any, Generic, Iterable, Sequence  # noqa: E402  (kept apart from the imports above)

_Y = TypeVar("_Y")

Source = Union[Markup, IO[bytes], IO[str], Iterable[Markup]]
"""What `iterparse` reads: `bytes`, `bytearray`, `memoryview` or `str` (the whole input), a
file object in binary or text mode (anything with `read(n)`), or an iterable of chunks."""

class UnsupportedSelectorError(ValueError):
    """A valid selector that `iterparse` cannot answer while streaming (`+`, `~`,
    `:last-child`, `:nth-*()`, ...): `part` is the part refused, `reason` why. Raised by
    `iterparse` itself, before any input is read."""

    selector: str
    part: str
    reason: str

@final
class IterParse(Generic[_Y]):
    """The iterator `iterparse` returns. `close()`, leaving a `with` block, or dropping it
    stops the parse: the rest of the input is not read."""

    def __iter__(self) -> IterParse[_Y]: ...
    def __next__(self) -> _Y: ...
    def close(self) -> None: ...
    def __enter__(self) -> IterParse[_Y]: ...
    def __exit__(self, *args: Any) -> bool: ...

@overload
def iterparse(
    source: Source,
    selector: str,
    *,
    encoding: Optional[str] = None,
    url: Optional[str] = None,
    scripting: bool = False,
    extended: bool = True,
    chunk_size: int = 65536,
) -> IterParse[Node]:
    """Each element matching `selector`, in document order, as soon as the parse has made it
    final: a `Node` in a small document of its own (the element's subtree, and its ancestors
    when the selector looks at them). Bytes are sniffed and decoded as `parse` does."""

@overload
def iterparse(
    source: Source,
    selector: Sequence[str],
    *,
    encoding: Optional[str] = None,
    url: Optional[str] = None,
    scripting: bool = False,
    extended: bool = True,
    chunk_size: int = 65536,
) -> IterParse[Tuple[Tuple[str, ...], Node]]:
    """For a list of selectors: `(matched, node)` pairs, `matched` the tuple of the selectors
    (as given) that the element matches; each element once."""
