"""Issue 32, "What a new user trips over": one test per papercut, named after it."""

import pickle

import pytest

import html_arena

PAGE = """<!DOCTYPE html><title>T</title>
<nav><a href="/a">First <b>link</b></a><script>nav()</script></nav>
<main><h1>Title</h1><p id=p>Para <b>bold</b></p><br>
<svg><rect id=r /></svg></main>
<footer>Foot</footer>"""


def test_a_found_element_tests_true():
    doc = html_arena.parse("<h1>T</h1><br>")
    h1 = doc.select_one("h1")
    br = doc.select_one("br")
    assert len(br) == 0 and bool(br) is True  # no children, still true
    assert (doc.select_one("br") or "fallback") == br
    assert bool(h1.child_nodes[0])  # a text node too
    assert len(h1) == 0  # len counts element children
    assert len(doc.select_one("body")) == 2
    assert (doc.select_one("video") or "fallback") == "fallback"


def test_removal_keeps_the_subtree_usable_detached():
    doc = html_arena.parse(PAGE)
    removed = doc.select("script, nav, footer")
    # The script is inside the nav removed first: no error, and the footer goes too.
    assert [e.remove() for e in removed] == [None, None, None]
    assert doc.select("script, nav, footer") == []
    assert "Foot" not in doc.html
    nav, script, footer = removed
    # Readable, detached.
    assert nav.parent is None and footer.parent is None
    assert nav.html == '<nav><a href="/a">First <b>link</b></a></nav>'
    assert script.text() == "nav()"
    assert nav.select_one("b").text() == "link"
    # Removing a detached node again is a no-op.
    footer.remove()
    nav.remove()
    # Re-insertable elsewhere (and found again by queries).
    doc.select_one("main").append(footer)
    assert doc.select_one("main > footer").text() == "Foot"
    doc.body.prepend(nav)
    assert [a["href"] for a in doc.select("nav a")] == ["/a"]


def test_decompose_frees_and_ids_are_stale():
    doc = html_arena.parse(PAGE)
    nav = doc.select_one("nav")
    link = nav.select_one("a")
    nav.decompose()
    assert doc.select("nav, a") == []
    for gone in (nav, link):
        with pytest.raises(html_arena.StaleNodeError):
            gone.text()
        assert repr(gone) == "<Node (stale)>"
    with pytest.raises(html_arena.StaleNodeError):
        nav.decompose()
    with pytest.raises(html_arena.StaleNodeError):
        nav.remove()
    # A removed node can be decomposed later.
    footer = doc.select_one("footer")
    footer.remove()
    footer.decompose()
    with pytest.raises(html_arena.StaleNodeError):
        footer.html


def test_stale_node_errors_have_one_wording():
    doc = html_arena.parse("<p>x</p><div>d</div>")
    p = doc.select_one("p")
    p.decompose()
    messages = set()
    for use in (p.text, p.remove, p.unwrap, lambda: p.xpath("."), lambda: p.select("b"),
                lambda: doc.select_one("div").append(p)):
        with pytest.raises(html_arena.StaleNodeError) as info:
            use()
        message = str(info.value)
        assert message.startswith("NodeId(")
        messages.add(message.split(") ", 1)[1])
    # The Rust API's words (MutationError::InvalidNode), after the node id.
    assert messages == {
        "is stale: it was freed (decompose(), or its parent's contents were replaced) "
        "or belongs to another document"
    }


def test_text_pseudo_classes_in_python():
    doc = html_arena.parse(PAGE)
    # The extended syntax by default, as on the command line.
    assert [a["href"] for a in doc.select('a:contains("First")')] == ["/a"]
    assert doc.select_one(":-soup-contains-own('Para')").id == "p"
    assert doc.select_one("p:has-text('PARA   BOLD')").id == "p"
    assert doc.select_one("body > :-soup-contains('Foot', 'x')").tag == "footer"
    main = doc.select_one("main")
    assert [e.tag for e in main.select("b:contains(bold)")] == ["b"]
    assert doc.select_one("b:contains(bold)").matches("b:contains(bol)")
    assert doc.select_one("b:contains(bold)").closest(":has-text('para bold')").id == "p"
    # extended=False: what a browser accepts, and the error says where the rest is.
    with pytest.raises(html_arena.SelectorSyntaxError) as info:
        doc.select("a:contains('First')", extended=False)
    assert "extended=True" in str(info.value)
    assert info.value.position == 1
    with pytest.raises(html_arena.SelectorSyntaxError) as info:
        doc.select("a:hovr", extended=False)
    assert "extended" not in str(info.value)
    assert len(doc.select("main b", extended=False)) == 1


def test_pickling_keeps_the_url():
    doc = html_arena.parse(
        b'<base href="/docs/"><a href="x">x</a>', url="https://example.com/a/b.html"
    )
    again = pickle.loads(pickle.dumps(doc))
    assert again.url == "https://example.com/a/b.html"
    assert again.base_url == "https://example.com/docs/"
    assert again.links() == ["https://example.com/docs/x"]
    # No URL stays no URL; the scripting flag and fragments survive too.
    plain = pickle.loads(pickle.dumps(html_arena.parse("<p>x")))
    assert plain.url is None and plain.base_url == "about:blank"
    noscript = html_arena.parse("<noscript><p>x</p></noscript>", scripting=True)
    assert pickle.loads(pickle.dumps(noscript)).select("noscript p") == []
    frag = pickle.loads(pickle.dumps(html_arena.parse_fragment("<td>a<td>b", "tr")))
    assert [c.tag for c in frag.root.children] == ["td", "td"]


def test_document_and_node_agree():
    doc = html_arena.parse(PAGE, url="https://example.com/dir/")
    root = doc.root
    assert doc.rendered_text(strip=True) == doc.rendered_text().strip()
    assert doc.rendered_text(strip=True).startswith("First link")
    assert doc.text(deep=False) == root.text(deep=False)
    assert doc.text(True, " ", True) == root.text(True, " ", True)
    assert doc.abs_url("x.html") == "https://example.com/dir/x.html"
    assert doc.abs_url("http://[bad") == "http://[bad"
    assert doc.matches("main > h1") and not doc.matches("video")
    assert doc.matches("h1:contains(Title)")
    assert doc.descendants() == root.descendants()
    assert doc.descendants(include_text=True) == root.descendants(include_text=True)
    assert [n.tag for n in doc] == ["html"] == [n.tag for n in root]


def test_links_with_their_anchor_text():
    doc = html_arena.parse(
        '<a href="/a">One <b>1</b></a><area href="/m"><a>none</a>', url="https://e.test/"
    )
    assert doc.links() == ["https://e.test/a", "https://e.test/m"]  # unchanged
    pairs = doc.links(with_nodes=True)
    assert [(url, n.tag, n.text()) for url, n in pairs] == [
        ("https://e.test/a", "a", "One 1"),
        ("https://e.test/m", "area", ""),
    ]


def test_str_of_a_node_is_its_html():
    doc = html_arena.parse("<p class=x>a &amp; <b>b</b></p>")
    p = doc.select_one("p")
    assert str(p) == p.html == '<p class="x">a &amp; <b>b</b></p>'
    assert str(p.child_nodes[0]) == "a &amp; "
    assert str(doc) == doc.html
    assert f"{p.select_one('b')}" == "<b>b</b>"
    p.decompose()
    assert str(p) == "<Node (stale)>"  # printing a freed node never raises


def test_parse_bytearray_and_memoryview():
    raw = b"<meta charset=windows-1252><p>caf\xe9"
    for markup in (bytearray(raw), memoryview(raw), memoryview(bytearray(raw))):
        doc = html_arena.parse(markup)
        assert doc.select_one("p").text() == "caf\u00e9"
        assert doc.encoding == "windows-1252"
    frag = html_arena.parse_fragment(bytearray(b"<td>x"), "tr")
    assert frag.root.children[0].tag == "td"
    div = html_arena.parse("<div></div>").select_one("div")
    div.append(memoryview(b"<i>m</i>"))
    assert div.inner_html == "<i>m</i>"
    for wrong in (42, ["<p>"], None):
        with pytest.raises(TypeError):
            html_arena.parse(wrong)


def test_xpath_text_gives_strings_as_lxml():
    doc = html_arena.parse(PAGE)
    assert doc.xpath("//p/text()") == ["Para "]
    assert doc.xpath("//p//text()") == ["Para ", "bold"]
    assert doc.select_one("p").xpath("text()") == ["Para "]
    # Mixed node-sets: elements stay nodes, text becomes str.
    mixed = doc.xpath("//p/node()")
    assert mixed[0] == "Para " and mixed[1].tag == "b"
    # text_nodes=True: the text nodes themselves.
    nodes = doc.xpath("//p/text()", text_nodes=True)
    assert [(n.kind, n.data) for n in nodes] == [("text", "Para ")]
    assert nodes[0].parent.id == "p"


def test_xpath_namespaces_from_python():
    doc = html_arena.parse(PAGE)
    svg = {"s": "http://www.w3.org/2000/svg"}
    assert [r.id for r in doc.xpath("//s:rect", namespaces=svg)] == ["r"]
    assert doc.xpath("count(//s:*)", svg) == 2.0
    assert doc.select_one("main").xpath("s:svg/s:rect/@id", namespaces=svg) == ["r"]
    assert doc.xpath("//rect") == []  # an SVG element needs its prefix
    with pytest.raises(html_arena.XPathSyntaxError):
        doc.xpath("//s:rect")  # an undeclared prefix
    with pytest.raises(TypeError):
        doc.xpath("//s:rect", namespaces={"s": 1})
