"""The Python API: parsing, selecting, reading, mutating, errors, threads, pickling."""

import concurrent.futures
import pickle
import types

import pytest

import html_arena

PAGE = b"""<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title> A  page </title></head>
<body><nav><a href="/a" class="x y">First</a> <a HREF="/b">Second &amp; more</a></nav>
<main><p id=intro>Hello <b>world</b><br>again</p><script>var s = "<p>";</script>
<table><tr><td>1<td>2</table></main></body></html>"""


def test_parse_bytes_and_str_give_the_same_tree():
    a = html_arena.parse(PAGE)
    b = html_arena.parse(PAGE.decode("utf-8"))
    assert a.html == b.html
    assert a.encoding == "UTF-8"
    assert a.title == "A page"
    assert a.quirks_mode == "no-quirks"


def test_lean_documents_are_the_same_documents():
    for markup in (PAGE, PAGE.decode("utf-8")):
        kept = html_arena.parse(markup)
        lean = html_arena.parse(markup, lean=True)
        assert lean.html == kept.html
        assert lean.text() == kept.text()
        assert [(e.code, e.line, e.column) for e in lean.errors] == [
            (e.code, e.line, e.column) for e in kept.errors
        ]
        assert [a["href"] for a in lean.select("a")] == ["/a", "/b"]


def test_select_and_attributes():
    doc = html_arena.parse(PAGE)
    links = doc.select("nav a")
    assert [a.tag for a in links] == ["a", "a"]
    assert [a["href"] for a in links] == ["/a", "/b"]
    first = links[0]
    assert isinstance(first.attrs, types.MappingProxyType)
    assert dict(first.attrs) == {"href": "/a", "class": "x y"}
    assert first.classes == ["x", "y"]
    assert first.get("HREF") == "/a"  # getAttribute lowercases for HTML elements
    assert first.get("missing") is None
    assert first.get("missing", "d") == "d"
    assert "href" in first and "nope" not in first
    with pytest.raises(KeyError):
        first["nope"]
    with pytest.raises(TypeError):
        first.attrs["href"] = "/z"  # read-only mapping
    assert doc.select_one("#intro").id == "intro"
    assert doc.select_one("video") is None
    assert doc.select(":is(p, td)")[0].tag == "p"


def test_text_and_rendered_text():
    doc = html_arena.parse(PAGE)
    p = doc.select_one("p")
    assert p.text() == "Hello worldagain"
    assert p.text(separator="|") == "Hello |world|again"
    assert p.text(deep=False) == "Hello again"
    assert doc.select_one("nav").text(separator=",", strip=True) == "First,Second & more"
    assert p.rendered_text() == "Hello world\nagain"
    assert "var s" not in doc.rendered_text()
    assert doc.select_one("script").text() == 'var s = "<p>";'


def test_navigation():
    doc = html_arena.parse(PAGE)
    b = doc.select_one("b")
    assert b.parent.tag == "p"
    assert b.closest("main").tag == "main"
    assert b.closest("nav") is None
    assert b.matches("p > b") and not b.matches("nav b")
    assert b.prev.kind == "text" and b.prev.data == "Hello "
    assert b.next_element.tag == "br"
    assert [c.tag for c in doc.select_one("main")] == ["p", "script", "table"]
    assert len(doc.select_one("main")) == 3
    assert [n.kind for n in doc.select_one("p").child_nodes] == ["text", "element", "element", "text"]
    tds = [n.tag for n in doc.select_one("table").descendants()]
    assert tds == ["tbody", "tr", "td", "td"]
    assert doc.body.tag == "body" and doc.head.tag == "head"
    assert doc.document_element.tag == "html"
    assert doc.root.kind == "document"
    assert b.document.select_one("b") == b
    assert len({b, doc.select_one("b")}) == 1


def test_serialization():
    doc = html_arena.parse("<p class=x>a<br>b &amp; c</p>")
    p = doc.select_one("p")
    assert p.html == '<p class="x">a<br>b &amp; c</p>'
    assert p.inner_html == "a<br>b &amp; c"
    assert doc.html.startswith("<html><head></head><body>")


def test_mutation():
    doc = html_arena.parse("<div><p>one</p><p class=ad>ad</p><span><i>x</i></span></div>")
    div = doc.select_one("div")
    for ad in doc.select(".ad"):
        ad.remove()
    assert div.inner_html == "<p>one</p><span><i>x</i></span>"
    doc.select_one("span").unwrap()
    assert div.inner_html == "<p>one</p><i>x</i>"
    div["data-k"] = "v"
    assert div.get("data-k") == "v"
    div.set_attr("TITLE", "t")
    assert div.get("title") == "t"
    del div["title"]
    assert "title" not in div
    assert div.remove_attr("nope") is False
    div.append("<b>new</b> tail")
    div.prepend("<em>head</em>")
    doc.select_one("i").insert_before("<u>u</u>")
    doc.select_one("i").insert_after("<s>s</s>")
    doc.select_one("i").replace_with("<q>q</q>")
    assert div.inner_html == "<em>head</em><p>one</p><u>u</u><q>q</q><s>s</s><b>new</b> tail"
    # Moving a node of the same document; copying one of another document.
    div.append(doc.select_one("em"))
    other = html_arena.parse("<mark>m</mark>")
    div.append(other.select_one("mark"))
    assert div.inner_html.endswith("<em>head</em><mark>m</mark>")
    assert other.select_one("mark") is not None
    div.inner_html = "<td>cell</td><p>x"
    assert div.inner_html == "cell<p>x</p>"
    # HTML inserted into a table parses in the table's context.
    t = html_arena.parse("<table><tbody><tr><td>1</td></tr></tbody></table>")
    t.select_one("tbody").append("<tr><td>2</td></tr>")
    assert [td.text() for td in t.select("td")] == ["1", "2"]


def test_freed_nodes_raise_cleanly():
    doc = html_arena.parse("<div><p>x</p></div>")
    p = doc.select_one("p")
    p.decompose()
    with pytest.raises(html_arena.StaleNodeError):
        p.text()
    with pytest.raises(html_arena.StaleNodeError):
        p.remove()
    assert "stale" in repr(p)
    with pytest.raises(html_arena.HierarchyError):
        doc.select_one("div").append(doc.select_one("body"))  # an ancestor into itself


def test_node_outlives_document_object():
    node = html_arena.parse("<p>kept</p>").select_one("p")
    # The Document object is gone; the node keeps the tree alive.
    import gc

    gc.collect()
    assert node.text() == "kept"
    assert node.document.select_one("p") == node


def test_invalid_selector_is_a_value_error_with_position():
    doc = html_arena.parse("<p>")
    with pytest.raises(html_arena.SelectorSyntaxError) as info:
        doc.select("article > h2 a:hovr")
    err = info.value
    assert isinstance(err, ValueError)
    assert err.position == 14
    assert err.selector == "article > h2 a:hovr"
    assert "hovr" in str(err)
    for bad in ["", "a[", "::", "p >", "a:nth-child(x)", ")"]:
        with pytest.raises(ValueError):
            doc.select(bad)


def test_parse_errors_have_positions():
    doc = html_arena.parse("<p>\n  <b>x</p>\n</i>")
    errors = [(e.code, e.line, e.column) for e in doc.errors]
    assert errors[0] == ("missing-doctype", 1, 1)
    assert ("unexpected-end-tag", 3, 1) in errors
    assert "unexpected-end-tag" in repr(doc.errors[2])


def test_encodings():
    undeclared = "<p>caf\u00e9 \u2013 ok</p>".encode("utf-8")
    legacy = b"<meta charset=windows-1252><p>caf\xe9"
    assert html_arena.parse(legacy).select_one("p").text() == "caf\u00e9"
    assert html_arena.parse(b"<p>\xf0\xd2\xc9", encoding="koi8-r").select_one("p").text() == "\u041f\u0440\u0438"
    assert html_arena.parse(b"\xef\xbb\xbf<p>\xc3\xa9").encoding == "UTF-8"
    # Invalid bytes become U+FFFD, never an exception.
    assert "\ufffd" in html_arena.parse(b"<meta charset=utf-8><p>\xff\xfe").select_one("p").text()
    with pytest.raises(html_arena.EncodingError):
        html_arena.parse(b"<p>", encoding="no-such-label")
    assert html_arena.parse(undeclared).select_one("p") is not None
    with pytest.raises(TypeError):
        html_arena.parse(42)


def test_fragments():
    frag = html_arena.parse_fragment("<td>a<td>b", "tr")
    assert [c.tag for c in frag.root.children] == ["td", "td"]
    assert html_arena.parse_fragment("<p>x").root.children[0].tag == "p"
    with pytest.raises(ValueError):
        html_arena.parse_fragment("x", "")


def test_huge_and_deep_documents():
    deep = "<div>" * 200_000 + "x"
    doc = html_arena.parse(deep)
    assert len(doc.select("div")) == 200_000
    assert doc.select_one("div").text() == "x"
    assert doc.html.count("<div>") == 200_000
    flood = "<p>" + "&nbsp;a" * 200_000
    assert len(html_arena.parse(flood).select_one("p").text()) == 400_000


def test_threads_share_documents():
    doc = html_arena.parse(PAGE * 20)

    def work(i):
        own = html_arena.parse(PAGE)
        return len(doc.select("a")) + len(own.select("a")) + len(doc.rendered_text()) * 0

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert set(pool.map(work, range(32))) == {len(doc.select("a")) + 2}


def _titles(html):
    return html_arena.parse(html).title


def test_process_pool_and_pickling():
    doc = html_arena.parse(PAGE)
    again = pickle.loads(pickle.dumps(doc))
    assert again.html == doc.html
    with pytest.raises(TypeError):
        pickle.dumps(doc.select_one("p"))
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        assert list(pool.map(_titles, [PAGE, b"<title>B</title>"])) == ["A page", "B"]


def test_urls_follow_base_and_mutation():
    html = b'<base href="/docs/"><a href="intro.html">i</a><a href="//cdn.example/x">c</a>' \
        b'<a href="http://[bad">b</a><area href="../up"><a>none</a>'
    doc = html_arena.parse(html, url="https://example.com/a/b.html")
    assert doc.url == "https://example.com/a/b.html"
    assert doc.base_url == "https://example.com/docs/"
    assert doc.links() == [
        "https://example.com/docs/intro.html",
        "https://cdn.example/x",
        "http://[bad",
        "https://example.com/up",
    ]
    a = doc.select("a")
    assert a[0].abs_url() == "https://example.com/docs/intro.html"
    assert a[3].abs_url() is None
    doc.select_one("base").remove()
    assert a[0].abs_url() == "https://example.com/a/intro.html"
    # No document URL: relative references stay as they are.
    assert html_arena.parse("<a href=x>").select_one("a").abs_url() == "x"
    with pytest.raises(ValueError):
        html_arena.parse("<p>", url="not a url")


def test_xpath():
    doc = html_arena.parse(PAGE)
    assert doc.xpath("//nav/a/@href") == ["/a", "/b"]
    links = doc.xpath("//A[contains(., 'Second')]")
    assert [n.tag for n in links] == ["a"]
    assert doc.xpath("count(//td)") == 2.0
    assert doc.xpath("string(//title)") == " A  page "
    assert doc.xpath("boolean(//table)") is True
    assert doc.xpath("normalize-space(//p)") == "Hello worldagain"
    assert doc.select_one("p").xpath("text()") == ["Hello ", "again"]
    texts = doc.select_one("p").xpath("text()", text_nodes=True)
    assert [t.kind for t in texts] == ["text", "text"]
    assert doc.select_one("b").xpath("following-sibling::*[1]")[0].tag == "br"
    assert doc.xpath("(//a)[last()]")[0].get("href") == "/b"
    with pytest.raises(html_arena.XPathSyntaxError) as info:
        doc.xpath("//a[")
    assert isinstance(info.value, ValueError)
    assert info.value.position == 4
    assert info.value.expression == "//a["
