"""html_arena.iterparse: matches while parsing, equal to a full parse's select, with bounded
memory."""

import gc
import io
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import html_arena

PAGES = sorted((Path(__file__).resolve().parents[2] / "tests" / "data" / "bench-corpus").glob("*.html"))

# Selectors the streaming parser accepts, over what real pages have: links, tables, lists,
# nested and `:has()`/`:not()`/text pseudo-classes, groups, head content, foreign content.
SELECTORS = [
    "a[href]",
    "div p",
    "tr",
    "tbody > tr",
    "td b, td i",
    "li:has(a)",
    "ul li a",
    "img[src]",
    "head > *",
    "title",
    "p:empty",
    "span:not(.x)",
    "h1, h2, h3",
    "svg *",
    "form input",
    'p:contains("the")',
]


def chunks(data, rng, most=9000):
    """`data` cut at random places."""
    at = 0
    while at < len(data):
        n = rng.randint(1, most)
        yield data[at : at + n]
        at += n


def expected(markup, selectors):
    doc = html_arena.parse(markup)
    return {css: [n.html for n in doc.select(css)] for css in selectors}


def streamed(source, selectors, **kwargs):
    """Each selector's matches' HTML, from one iterparse over `source` with all of them."""
    got = {css: [] for css in selectors}
    for matched, node in html_arena.iterparse(source, list(selectors), **kwargs):
        assert matched, "a yielded node matched no selector"
        for css in matched:
            got[css].append(node.html)
    return got


def test_the_vendored_pages_are_there():
    assert len(PAGES) >= 10


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_equal_to_parse_select_on_real_pages(page):
    data = page.read_bytes()
    want = expected(data, SELECTORS)
    assert sum(len(v) for v in want.values()) > 0
    rng = random.Random(page.stem)
    # Bytes as one object (fed in slices of several sizes), a binary file, random chunks.
    for chunk_size in (1000, 7919, 65536):
        assert streamed(data, SELECTORS, chunk_size=chunk_size) == want, chunk_size
    assert streamed(io.BytesIO(data), SELECTORS, chunk_size=4096) == want
    assert streamed(chunks(data, rng), SELECTORS) == want
    assert streamed(bytearray(data), SELECTORS) == want
    assert streamed(memoryview(data), SELECTORS) == want
    # Text: the page decoded as parse(bytes) decodes it.
    text = data.decode(html_arena.parse(data).encoding, "replace")
    want_text = expected(text, SELECTORS)
    assert streamed(text, SELECTORS, chunk_size=3001) == want_text
    assert streamed(io.StringIO(text), SELECTORS) == want_text
    assert streamed(chunks(text, rng, most=500), SELECTORS) == want_text


@pytest.mark.parametrize("css", ["a[href]", "tr", "li:has(a)", "h1, h2, h3"])
def test_one_selector_yields_nodes_in_document_order(css):
    for page in PAGES[:6]:
        data = page.read_bytes()
        want = [n.html for n in html_arena.parse(data).select(css)]
        got = list(html_arena.iterparse(data, css, chunk_size=2048))
        assert all(isinstance(n, html_arena.Node) for n in got)
        assert [n.html for n in got] == want, page.name


def test_nodes_work_like_any_node():
    page = b"""<!DOCTYPE html><meta charset=utf-8><title>T</title>
    <table class=data><tr><td>1</td><td><a href="x/1" class="k v">one</a></td></tr>
    <tr><td>2</td><td><a href="/2">two</a> <b>bold</b></td></tr></table><p>after</p>"""
    rows = list(html_arena.iterparse(page, "table.data tr", url="https://example.com/dir/page"))
    assert [r.tag for r in rows] == ["tr", "tr"]
    first, second = rows
    assert first.text() == "1one"
    assert [td.text() for td in first.select("td")] == ["1", "one"]
    a = first.select_one("a")
    assert a["href"] == "x/1" and a.classes == ["k", "v"] and dict(a.attrs)["class"] == "k v"
    assert a.abs_url() == "https://example.com/dir/x/1"
    assert second.select_one("b").html == "<b>bold</b>"
    assert str(second) == second.html
    # The selector looks at ancestors: they are copied (without their other children).
    assert first.closest("table")["class"] == "data"
    assert first.parent.tag == "tbody"
    assert first.document.select("tr") == [first]
    # A match is a document of its own: changing it changes nothing else.
    first["id"] = "r1"
    assert first.html.startswith('<tr id="r1">')
    assert second.document.select_one("#r1") is None


def test_several_selectors_yield_what_matched():
    page = b"<h1 class=t>Title</h1><p>a <a href=/x>x</a></p><h2>Sub</h2><a class=t href=/y>y</a>"
    got = [(m, n.html) for m, n in html_arena.iterparse(page, ["h1, h2", "a", ".t"])]
    assert got == [
        (("h1, h2", ".t"), '<h1 class="t">Title</h1>'),
        (("a",), '<a href="/x">x</a>'),
        (("h1, h2",), "<h2>Sub</h2>"),
        (("a", ".t"), '<a class="t" href="/y">y</a>'),
    ]
    # A tuple of selectors is a list too; the selector strings yielded are those given.
    sels = ("p", "a")
    for matched, _ in html_arena.iterparse(page, sels):
        assert all(any(m is s for s in sels) for m in matched)


def test_bytes_are_decoded_as_parse_decodes_them():
    latin = "<title>caf\u00e9</title><p>na\u00efve</p>".encode("latin-1")
    for kwargs in ({}, {"encoding": "latin1"}):
        want = [n.text() for n in html_arena.parse(latin, **kwargs).select("p")]
        got = [n.text() for n in html_arena.iterparse(latin, "p", **kwargs)]
        assert got == want
    assert [n.text() for n in html_arena.iterparse(latin, "p", encoding="latin1")] == ["na\u00efve"]
    meta = b'<meta charset="windows-1251"><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>'
    got = list(html_arena.iterparse(meta, "p", chunk_size=7))
    assert got[0].text() == "\u041f\u0440\u0438\u0432\u0435\u0442"
    assert got[0].document.encoding == html_arena.parse(meta).encoding == "windows-1251"
    # A byte order mark wins, in any chunking.
    bom = b"\xef\xbb\xbf<p>\xc3\xa9</p>"
    assert [n.text() for n in html_arena.iterparse(iter([bom[:1], bom[1:2], bom[2:]]), "p")] == ["\u00e9"]
    # An unknown label raises at once, with parse's message, before anything is read.
    with pytest.raises(html_arena.EncodingError) as info:
        html_arena.iterparse(iter(()), "p", encoding="no-such-label")
    with pytest.raises(html_arena.EncodingError) as full:
        html_arena.parse(b"<p>x", encoding="no-such-label")
    assert str(info.value) == str(full.value)


def test_scripting_flag():
    page = b"<noscript><p>no js</p></noscript>"
    assert [n.html for n in html_arena.iterparse(page, "p")] == ["<p>no js</p>"]
    assert list(html_arena.iterparse(page, "p", scripting=True)) == []
    assert [n.text() for n in html_arena.iterparse(page, "noscript", scripting=True)] == ["<p>no js</p>"]


@pytest.mark.parametrize(
    "css, part",
    [
        ("h1 + h2 + p", "+"),
        ("h2 ~ p", "~"),
        ("li:last-child", ":last-child"),
        ("tr:nth-last-child(2n)", ":nth-last-child(2n)"),
        ("p:only-of-type", ":only-of-type"),
        ("input:checked", ":checked"),
        ("div:has(+ p)", ":has(+ p)"),
    ],
)
def test_refused_selectors_raise_before_reading(css, part):
    reads = []

    class File:
        def read(self, n=-1):
            reads.append(n)
            return b""

    for selector in (css, ["a", css]):
        with pytest.raises(html_arena.UnsupportedSelectorError) as info:
            html_arena.iterparse(File(), selector)
        err = info.value
        assert isinstance(err, ValueError)
        assert err.selector == css and err.part == part and err.reason
        assert f"`{part}`" in str(err) and "streaming" in str(err)
    assert reads == []
    # The same selector is fine for a full parse.
    html_arena.parse("<p>").select(css)


def test_an_ancestor_that_could_be_body_is_refused_with_the_fix():
    with pytest.raises(html_arena.UnsupportedSelectorError) as info:
        html_arena.iterparse(b"", ".content p")
    assert "body" in str(info.value)
    assert list(html_arena.iterparse(b"<div class=content><p>x</div>", "div.content p"))


def test_selector_syntax_follows_select():
    page = b"<p>apple</p><p>pear</p>"
    got = [n.text() for n in html_arena.iterparse(page, 'p:contains("pea")')]
    assert got == [n.text() for n in html_arena.parse(page).select('p:contains("pea")')] == ["pear"]
    assert [n.text() for n in html_arena.iterparse(page, 'p:-soup-contains("app")')] == ["apple"]
    with pytest.raises(html_arena.SelectorSyntaxError) as info:
        html_arena.iterparse(page, 'p:contains("pea")', extended=False)
    assert "extended=True" in str(info.value)
    with pytest.raises(html_arena.SelectorSyntaxError) as info:
        html_arena.iterparse(page, "p:hovr")
    assert info.value.position == 1
    # A text pseudo-class on an ancestor needs text not read yet.
    with pytest.raises(html_arena.UnsupportedSelectorError):
        html_arena.iterparse(page, 'div:contains("x") p')


def test_bad_arguments():
    with pytest.raises(TypeError):
        html_arena.iterparse(42, "p")
    with pytest.raises(TypeError):
        html_arena.iterparse(b"<p>", 42)
    with pytest.raises(TypeError):
        html_arena.iterparse(b"<p>", ["p", 3])
    with pytest.raises(ValueError):
        html_arena.iterparse(b"<p>", [])
    with pytest.raises(ValueError):
        html_arena.iterparse(b"<p>", "p", chunk_size=0)
    with pytest.raises(TypeError, match="chunk must be"):
        list(html_arena.iterparse([b"<p>", 5], "p"))
    with pytest.raises(TypeError, match="mixes str and bytes"):
        list(html_arena.iterparse([b"<p>a", "<p>b"], "p"))


def test_empty_chunks_and_empty_input():
    assert [n.text() for n in html_arena.iterparse([b"", b"<p>", b"", b"x"], "p")] == ["x"]
    assert list(html_arena.iterparse(b"", "p")) == []
    assert list(html_arena.iterparse("", "p")) == []
    assert list(html_arena.iterparse([], "p")) == []
    assert [n.tag for n in html_arena.iterparse(b"", "head, body")] == ["head", "body"]


def test_an_error_of_the_source_ends_the_iteration():
    def source():
        yield b"<p>one</p>" * 10
        raise OSError("disk gone")

    it = html_arena.iterparse(source(), "p", chunk_size=5)
    with pytest.raises(OSError, match="disk gone"):
        for _ in it:
            pass
    assert list(it) == []


def counting_source(pulled, rows=2000, finalized=None, table=False):
    """A page of `rows` rows (table rows, or list items), recording which were pulled."""
    try:
        yield b"<!DOCTYPE html><meta charset=utf-8><title>T</title>"
        yield b"<table>" if table else b"<ul>"
        for i in range(rows):
            pulled.append(i)
            if table:
                yield b"<tr><td>%d</td><td>some text in the row</td></tr>" % i
            else:
                yield b"<li><b>%d</b> some text in the item" % i
        yield b"</table>" if table else b"</ul>"
    finally:
        if finalized is not None:
            finalized.append(True)


def test_stopping_early_stops_reading():
    # Breaking out of the loop: the rest of the input is never pulled, and dropping the
    # iterator lets go of the source.
    pulled, finalized = [], []
    for node in html_arena.iterparse(counting_source(pulled, finalized=finalized), "title"):
        assert node.text() == "T"
        break
    gc.collect()
    assert finalized == [True]
    # (Bytes are held until the first 1024 have been seen for a `<meta>` charset: 13.2.3.2,
    # "prescan a byte stream"; the items are about 40 bytes each.)
    assert len(pulled) < 40
    pulled = []
    it = html_arena.iterparse(counting_source(pulled), "li")
    first = next(it)
    assert first.text() == "0 some text in the item"
    assert len(pulled) < 40
    # close(): nothing more is read or yielded.
    it.close()
    seen = len(pulled)
    assert list(it) == []
    assert len(pulled) == seen
    # A with block closes the iterator.
    pulled = []
    with html_arena.iterparse(counting_source(pulled), "b") as it:
        assert next(it).text() == "0"
    assert list(it) == [] and len(pulled) < 40
    assert "done" in repr(it)


@pytest.mark.parametrize("table", [False, True])
def test_matches_come_while_the_input_streams(table):
    # Each match is handed out soon after its end is read, not at the end of the input.
    # Inside an open table the stream holds up to 1024 matches back (foster parenting may
    # still put one before the table: `html_arena::stream::HOLD_MATCHES`).
    pulled = []
    css = "tr" if table else "li"
    late = 1024 + 50 if table else 50
    it = html_arena.iterparse(counting_source(pulled, rows=5000, table=table), css)
    for i, row in enumerate(it):
        assert row.select_one("td, b").text() == str(i)
        assert len(pulled) <= i + late
    assert i == 4999


def test_gil_is_released_while_parsing():
    import threading

    page = b"<meta charset=utf-8>" + b"<div><p>x</p></div>" * 200_000
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        count = sum(1 for _ in html_arena.iterparse(page, "p", chunk_size=1 << 20))
    finally:
        stop.set()
        t.join()
    assert count == 200_000
    assert len(ticks) > 1


MEMORY_SCRIPT = textwrap.dedent(
    """
    import resource, sys
    import html_arena

    ROW = b"<tr><td>%d</td><td class=name>row %d, some text</td><td><a href='/r/%d'>link</a></td></tr>\\n"

    def rows(n):
        yield b"<!DOCTYPE html><meta charset=utf-8><title>rows</title><table>"
        for start in range(0, n, 1000):
            yield b"".join(ROW % (i, i, i) for i in range(start, min(n, start + 1000)))
        yield b"</table>"

    def peak():
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return kb // 1024 if sys.platform == "darwin" else kb  # bytes on macOS

    n = int(sys.argv[1])
    size = sum(len(c) for c in rows(n))
    before = peak()
    count = links = 0
    for row in html_arena.iterparse(rows(n), "tr"):
        count += 1
        links += len(row.select("a[href]"))
    print(size, count, links, peak() - before)
    """
)


def test_memory_stays_bounded_on_a_60_mb_table():
    # RSS is measured in a fresh process (the peak of this one depends on the tests before).
    # A full parse of this input holds several times its size (parse + select of it: 922 MiB
    # more); a stream holds the open elements and one piece of input (no growth measured).
    rows = 600_000
    out = subprocess.run(
        [sys.executable, "-c", MEMORY_SCRIPT, str(rows)],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    ).stdout.split()
    size, count, links, grown_kb = map(int, out)
    assert size > 50_000_000
    assert count == links == rows
    assert grown_kb < 40 * 1024, f"RSS grew by {grown_kb} KiB for {size} bytes of input"


def test_default_decoding_is_parse_s():
    # Undeclared bytes: UTF-8 when valid, else detection, as parse(bytes) (the whole input is
    # waited for then, in any chunking).
    for data in ("<p>caf\u00e9 cr\u00e8me br\u00fbl\u00e9e</p>".encode("utf-8"),
                 "<p>caf\u00e9 cr\u00e8me br\u00fbl\u00e9e, d\u00e9j\u00e0 vu</p>".encode("cp1252"),
                 b"<p>plain ascii</p>"):
        doc = html_arena.parse(data)
        got = list(html_arena.iterparse(iter([data[:5], data[5:]]), "p"))
        assert [n.text() for n in got] == [n.text() for n in doc.select("p")]
        assert got[0].document.encoding == doc.encoding


def test_a_reader_that_returns_none_is_an_error():
    class NonBlocking:
        def read(self, n):
            return None

    with pytest.raises(TypeError, match="NoneType"):
        list(html_arena.iterparse(NonBlocking(), "p"))
