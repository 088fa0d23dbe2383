"""bs4's own tests for HTML5 tree builders, run against html_arena's builder.

The tests come unchanged from beautifulsoup4 4.15.0's sdist (vendored in `bs4_upstream/`,
MIT): `TestHTML5LibBuilder` of `test_html5lib.py` (the html5lib builder's tree-shape tests)
on top of `HTML5TreeBuilderSmokeTest`, `HTMLTreeBuilderSmokeTest` and `TreeBuilderSmokeTest`.
The exceptions are the four overrides below, each with its reason.
"""

import warnings

import pytest

pytest.importorskip("bs4")
pytest.importorskip("html5lib")  # bs4_upstream's helpers import it

from bs4 import BeautifulSoup  # noqa: E402
from bs4.element import ProcessingInstruction  # noqa: E402

from bs4_upstream import html5lib_tests as upstream  # noqa: E402
from html_arena.bs4 import HTMLArenaTreeBuilder  # noqa: E402


class TestHTMLArenaBuilder(upstream.TestHTML5LibBuilder):
    """Every test bs4 runs against its html5lib builder, against ours."""

    @property
    def default_builder(self):
        return HTMLArenaTreeBuilder

    # Exception 1: html5lib 1.1 predates processing instructions in HTML, so its test
    # expects a bogus comment; the HTML Standard now makes a processing instruction (and
    # bs4's base smoke test accepts the PI markup unchanged).
    def test_processing_instruction(self):
        for markup in ("<?PITarget PIContent?>", b"<?PITarget PIContent?>"):
            soup = self.soup(markup)
            assert isinstance(soup.contents[0], ProcessingInstruction)
            assert str(soup).startswith("<?PITarget PIContent?>")

    # Exception 2: html5lib's sourcepos is the column just past the start tag; ours is
    # where the start tag begins (0-based), as bs4's html.parser builder gives it (the
    # same test in test_htmlparser.py).
    def test_tracking_line_numbers(self):
        markup = "\n   <p>\n\n<sourceline>\n<b>text</b></sourceline><sourcepos></p>"
        soup = self.soup(markup)
        assert 2 == soup.p.sourceline
        assert 3 == soup.p.sourcepos
        assert "sourceline" == soup.p.find("sourceline").name
        soup = self.soup(markup, store_line_numbers=False)
        assert None is soup.p.sourceline
        assert None is soup.p.sourcepos

    # Exception 3: html5lib's builder warns that it ignores exclude_encodings; ours
    # honours it (see test_bs4.py), so only document_declared_encoding warns.
    @pytest.mark.parametrize(
        "name,value",
        [("document_declared_encoding", "utf8"), ("exclude_encodings", ["utf8"])],
    )
    def test_prepare_markup_warnings(self, name, value):
        builder = self.default_builder()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            list(builder.prepare_markup("a", **{name: value}))
        if name == "exclude_encodings":
            assert w == []
        else:
            [warning] = w
            assert "html-arena tree builder" in str(warning.message)

    # Exception 4: html5lib's builder ignores parse_only (with a warning); ours applies
    # the SoupStrainer as bs4's html.parser and lxml builders do.
    def test_soupstrainer(self):
        from bs4.filter import SoupStrainer

        markup = "<p>A <b>bold</b> statement.</p>"
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            soup = BeautifulSoup(markup, "html-arena", parse_only=SoupStrainer("b"))
        assert w == []
        assert soup.decode() == "<b>bold</b>"
