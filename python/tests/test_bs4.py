"""html_arena.bs4: the BeautifulSoup tree builder ("html-arena")."""

import sys
import warnings
from pathlib import Path

import pytest

bs4 = pytest.importorskip("bs4")

from bs4 import BeautifulSoup  # noqa: E402
from bs4.builder import builder_registry  # noqa: E402
from bs4.element import (  # noqa: E402
    Comment,
    Doctype,
    NamespacedAttribute,
    NavigableString,
    ProcessingInstruction,
    Script,
    Stylesheet,
    TemplateString,
)
from bs4.filter import SoupStrainer  # noqa: E402

import html_arena  # noqa: E402
from html_arena.bs4 import HTMLArenaTreeBuilder  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "bench"))
import bs4_tree_equality as equality  # noqa: E402

PAGES = sorted((ROOT / "tests" / "data" / "bench-corpus").glob("*.html"))


def test_registered_under_its_own_names_only():
    assert builder_registry.lookup("html-arena") is HTMLArenaTreeBuilder
    assert builder_registry.lookup("html_arena") is HTMLArenaTreeBuilder
    for features in (("html", "fast"), ("html",), ("html5",), ("fast",), ("permissive",), ()):
        assert builder_registry.lookup(*features) is not HTMLArenaTreeBuilder, features
    assert type(BeautifulSoup("<p>x", "html.parser").builder).__name__ == "HTMLParserTreeBuilder"
    assert isinstance(BeautifulSoup("<p>x", builder=HTMLArenaTreeBuilder).builder, HTMLArenaTreeBuilder)


def test_str_and_bytes_and_encodings():
    page = "<meta charset=windows-1252><title>Caf\u00e9</title>"
    soup = BeautifulSoup(page, "html-arena")
    assert soup.title.string == "Caf\u00e9" and soup.original_encoding is None
    soup = BeautifulSoup(page.encode("windows-1252"), "html-arena")
    assert soup.title.string == "Caf\u00e9" and soup.original_encoding == "windows-1252"
    # from_encoding overrides the page's declaration, as for bs4's other builders.
    utf8 = "<meta charset=windows-1252><p>\u00e9</p>".encode("utf-8")
    assert BeautifulSoup(utf8, "html-arena").p.string == "\u00c3\u00a9"
    soup = BeautifulSoup(utf8, "html-arena", from_encoding="utf-8")
    assert soup.p.string == "\u00e9" and soup.original_encoding == "utf-8"
    # exclude_encodings: the declared encoding is excluded, UTF-8 is next.
    soup = BeautifulSoup(utf8, "html-arena", exclude_encodings=["windows-1252"])
    assert soup.p.string == "\u00e9" and soup.original_encoding == "utf-8"
    with pytest.warns(UserWarning, match="not an encoding label"):
        BeautifulSoup(utf8, "html-arena", from_encoding="no-such-thing")


def test_namespaces_and_namespaced_attributes():
    soup = BeautifulSoup(
        '<html xmlns="http://www.w3.org/1999/xhtml"><svg xmlns:xlink="http://www.w3.org/1999/xlink" '
        'viewbox="0 0 1 1"><use xlink:href="#a" xml:lang="en"/></svg><math><mi>x</mi></math>',
        "html-arena",
    )
    assert soup.html.namespace == "http://www.w3.org/1999/xhtml"
    assert soup.html["xmlns"] == "http://www.w3.org/1999/xhtml"  # a plain attribute on HTML
    assert soup.svg.namespace == "http://www.w3.org/2000/svg"
    assert soup.mi.namespace == "http://www.w3.org/1998/Math/MathML"
    assert soup.svg["viewBox"] == "0 0 1 1"  # the standard's SVG attribute case
    keys = {str(k): k for k in soup.svg.attrs}
    assert isinstance(keys["xmlns:xlink"], NamespacedAttribute)
    assert keys["xmlns:xlink"].namespace == "http://www.w3.org/2000/xmlns/"
    use = soup.find("use")
    keys = {str(k): k for k in use.attrs}
    assert (keys["xlink:href"].prefix, keys["xlink:href"].name) == ("xlink", "href")
    assert keys["xlink:href"].namespace == "http://www.w3.org/1999/xlink"
    assert keys["xml:lang"].namespace == "http://www.w3.org/XML/1998/namespace"
    assert use["xlink:href"] == "#a"


def test_multi_valued_attributes():
    markup = '<a class=" x  y" rel="nofollow me" id="i d">t</a><table><tr><td headers="a b"></table>'
    soup = BeautifulSoup(markup, "html-arena")
    assert soup.a["class"] == ["x", "y"] and soup.a["rel"] == ["nofollow", "me"]
    assert soup.a["id"] == "i d"
    assert soup.td["headers"] == ["a", "b"]
    soup = BeautifulSoup(markup, "html-arena", multi_valued_attributes=None)
    assert soup.a["class"] == " x  y"
    soup = BeautifulSoup(markup, "html-arena", multi_valued_attributes={"*": {"id"}})
    assert soup.a["id"] == ["i", "d"] and soup.a["class"] == " x  y"


def test_strings_doctype_comment_pi_template():
    markup = (
        '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN"><!--c--><?php echo 1 ?>'
        "<script>a<b</script><style>p{}</style><template><p>t<b>u</b></p></template>"
        "<ruby>x<rt>y</rt></ruby>"
    )
    soup = BeautifulSoup(markup, "html-arena")
    doctype, comment, pi = soup.contents[:3]
    assert type(doctype) is Doctype and doctype == 'html PUBLIC "-//W3C//DTD HTML 4.01//EN"'
    assert type(comment) is Comment and comment == "c"
    assert type(pi) is ProcessingInstruction and str(soup).startswith(
        '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN">\n<!--c--><?php echo 1 ?>'
    )
    assert type(soup.script.string) is Script and soup.script.string == "a<b"
    assert type(soup.style.string) is Stylesheet
    template = soup.template
    assert [c.name for c in template.contents] == ["p"]
    assert type(template.p.contents[0]) is TemplateString
    assert type(template.b.string) is TemplateString
    assert type(soup.rt.string).__name__ == "RubyTextString"
    assert type(soup.ruby.contents[0]) is NavigableString
    # The string_containers option.
    soup = BeautifulSoup(markup, "html-arena", string_containers={"b": Comment})
    assert type(soup.script.string) is NavigableString
    assert type(soup.template.b.string) is Comment


def test_whitespace_is_kept_exactly():
    markup = "<div>\n  <p> </p>\t\n <p>a</p>\r\n</div><pre>\n\n x</pre>"
    soup = BeautifulSoup(markup, "html-arena")
    assert soup.div.contents[0] == "\n  "
    assert soup.p.string == " "
    assert soup.div.contents[2] == "\t\n "
    assert soup.div.contents[4] == "\n"
    assert soup.pre.string == "\n x"  # the standard drops the newline after <pre>


def test_source_positions():
    soup = BeautifulSoup("<html>\n<body>\n  <p>x\n<b>y</b>", "html-arena")
    assert (soup.p.sourceline, soup.p.sourcepos) == (3, 2)
    assert (soup.b.sourceline, soup.b.sourcepos) == (4, 0)
    assert soup.head.sourceline is None  # implied by the parser
    soup = BeautifulSoup("<p>x", "html-arena", store_line_numbers=False)
    assert soup.p.sourceline is None and soup.p.sourcepos is None


def test_parse_only():
    markup = "<p>A <b>bold</b> <a href=/x>link <b>in</b></a> statement.</p>"
    soup = BeautifulSoup(markup, "html-arena", parse_only=SoupStrainer(["a", "b"]))
    assert [t.name for t in soup.contents] == ["b", "a"]
    assert soup.a.b.string == "in"
    assert equality.check_links(soup) is None
    soup = BeautifulSoup(markup, "html-arena", parse_only=SoupStrainer(string="bold"))
    assert soup.contents == ["bold"]


def test_links_and_api_work_on_the_built_tree():
    soup = BeautifulSoup("<ul><li>a<li>b</ul><p>x<!--c-->y", "html-arena")
    assert equality.check_links(soup) is None
    assert [li.get_text() for li in soup.find_all("li")] == ["a", "b"]
    assert [t.name for t in soup.select("ul > li")] == ["li", "li"]
    assert soup.p.get_text("|") == "x|y"
    soup.ul.decompose()
    soup.p.unwrap()
    assert str(soup.body) == "<body>x<!--c-->y</body>"
    assert equality.check_links(soup) is None
    copy = BeautifulSoup(str(soup), "html-arena")
    assert copy.decode() == soup.decode()


def test_pickle():
    import pickle

    soup = BeautifulSoup("<p class='a b'>x</p>", "html-arena")
    again = pickle.loads(pickle.dumps(soup))
    assert again.decode() == soup.decode() and again.p["class"] == ["a", "b"]


def test_element_classes():
    class MyTag(bs4.element.Tag):
        pass

    soup = BeautifulSoup("<p>x</p>", "html-arena", element_classes={bs4.element.Tag: MyTag})
    assert type(soup.p) is MyTag


def test_xml_looking_markup_warns():
    with pytest.warns(bs4.XMLParsedAsHTMLWarning):
        BeautifulSoup(b'<?xml version="1.0"?><tag>x</tag>', "html-arena")


@pytest.mark.skipif(not PAGES, reason="no vendored pages")
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_tree_equals_html5lib_builders_on_real_pages(page):
    pytest.importorskip("html5lib")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = equality.check_page(page.read_bytes())
    assert result.split()[0] in ("equal", "newer"), result


def test_copy_and_empty_markup():
    import copy

    soup = BeautifulSoup("<p class=a>x</p>", "html-arena")
    assert copy.copy(soup).decode() == soup.decode()
    assert copy.deepcopy(soup).decode() == soup.decode()
    assert BeautifulSoup("", "html-arena").contents == []
    assert BeautifulSoup(b"", "html-arena").contents == []


def test_select_contents_follow_the_current_standard():
    # html5lib 1.1 drops every tag inside <select>; the standard (customizable <select>)
    # keeps them and clones the selected option into <selectedcontent>.
    markup = (
        "<select><button><selectedcontent></selectedcontent></button>"
        "<option><img src=a.png> <b>One</b></option></select>"
    )
    soup = BeautifulSoup(markup, "html-arena")
    assert str(soup.select_one("select")) == (
        '<select><button><selectedcontent><img src="a.png"/> <b>One</b></selectedcontent>'
        '</button><option><img src="a.png"/> <b>One</b></option></select>'
    )
    own = equality.own_records(html_arena.parse(markup))
    assert equality.first_difference(equality._unlisted(equality.soup_records(soup)), own) is None
    assert equality.check_links(soup) is None


def test_deeply_nested_markup_builds_without_recursion():
    # A hostile page nests a hundred thousand deep: the builder walks the tree without
    # recursion (bs4_export.rs), and bs4's own walks over the result are iterative too.
    depth = 100_000
    soup = BeautifulSoup("<div>" * depth + "x", "html-arena")
    divs = soup.find_all("div")
    assert len(divs) == depth
    innermost = divs[-1]
    assert innermost.string == "x" and innermost.string.parent is innermost
    assert sum(1 for p in innermost.parents if p.name == "div") == depth - 1
    assert innermost.string.next_element is None  # the last node in document order
    assert soup.get_text() == "x"
    assert soup.decode().count("<div>") == depth
    del divs, innermost
    del soup
