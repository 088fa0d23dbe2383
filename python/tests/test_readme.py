"""The README's examples and the package docstrings are doctests."""

import doctest
from pathlib import Path

import html_arena
import html_arena.cc_pyspark

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_examples():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10
    assert result.failed == 0


def test_docstring_examples():
    for module in (html_arena, html_arena.cc_pyspark):
        result = doctest.testmod(module)
        assert result.attempted > 0, module
        assert result.failed == 0, module
