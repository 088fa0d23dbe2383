"""In-process benchmark: html_arena against the Python HTML parsers people use, on one corpus.

    python python/bench/bench.py [CORPUS_DIR] [--rounds N] [--only parse,select,text]

For every page and every task, each parser is timed in the same process, interleaved round by
round; a parser's time for a page is its median round. The table gives, per task, the median
over pages of (other parser's time / html_arena's time): above 1 means html_arena is faster.
Bytes are given to every parser (each sniffs or decodes as it does by default), except where a
parser only takes text (noted in the table).

Tasks (the same work for every parser, as far as its API allows):
  parse         bytes -> tree
  parse+select  parse, then `a[href]` and `div p` (lists of elements) and `title` (first match)
  parse+text    parse, then the text of the body

The corpus defaults to ../shared/bench-corpus (51 pages) when it exists, else the vendored
pages in tests/data/bench-corpus.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import html_arena

ROOT = Path(__file__).resolve().parents[2]


def corpus_dir(arg: str | None) -> Path:
    if arg:
        return Path(arg)
    shared = ROOT.parent / "shared" / "bench-corpus"
    if shared.is_dir() and not os.environ.get("HTML_ARENA_VENDORED_CORPUS"):
        return shared
    return ROOT / "tests" / "data" / "bench-corpus"


SELECTORS = ["a[href]", "div p"]


def arena_tasks():
    def parse(b):
        return html_arena.parse(b)

    def select(b):
        d = html_arena.parse(b)
        n = sum(len(d.select(s)) for s in SELECTORS)
        d.select_one("title")
        return n

    def text(b):
        d = html_arena.parse(b)
        body = d.body
        return len(body.text()) if body is not None else 0

    return {"parse": parse, "parse+select": select, "parse+text": text}


def selectolax_tasks():
    from selectolax.lexbor import LexborHTMLParser

    def parse(b):
        return LexborHTMLParser(b)

    def select(b):
        d = LexborHTMLParser(b)
        n = sum(len(d.css(s)) for s in SELECTORS)
        d.css_first("title")
        return n

    def text(b):
        d = LexborHTMLParser(b)
        body = d.body
        return len(body.text()) if body is not None else 0

    return {"parse": parse, "parse+select": select, "parse+text": text}


def lxml_tasks():
    import lxml.html
    from lxml.cssselect import CSSSelector

    compiled = [CSSSelector(s) for s in SELECTORS]
    title = CSSSelector("title")

    def parse(b):
        return lxml.html.document_fromstring(b)

    def select(b):
        d = lxml.html.document_fromstring(b)
        n = sum(len(c(d)) for c in compiled)
        title(d)[:1]
        return n

    def text(b):
        d = lxml.html.document_fromstring(b)
        body = d.find("body")
        return len(body.text_content()) if body is not None else 0

    return {"parse": parse, "parse+select": select, "parse+text": text}


def bs4_tasks():
    from bs4 import BeautifulSoup

    def parse(b):
        return BeautifulSoup(b, "html.parser")

    def select(b):
        d = BeautifulSoup(b, "html.parser")
        n = sum(len(d.select(s)) for s in SELECTORS)
        d.select_one("title")
        return n

    def text(b):
        d = BeautifulSoup(b, "html.parser")
        body = d.body
        return len(body.get_text()) if body is not None else 0

    return {"parse": parse, "parse+select": select, "parse+text": text}


def html5_parser_tasks():
    import html5_parser
    from lxml.cssselect import CSSSelector

    compiled = [CSSSelector(s) for s in SELECTORS]
    title = CSSSelector("title")

    def parse(b):
        return html5_parser.parse(b)

    def select(b):
        d = html5_parser.parse(b)
        n = sum(len(c(d)) for c in compiled)
        title(d)[:1]
        return n

    def text(b):
        d = html5_parser.parse(b)
        body = d.find("body")
        return len("".join(body.itertext())) if body is not None else 0

    return {"parse": parse, "parse+select": select, "parse+text": text}


def markupever_tasks():
    import markupever

    def parse(b):
        return markupever.parse(b, markupever.HtmlOptions())

    def select(b):
        d = markupever.parse(b, markupever.HtmlOptions())
        n = sum(len(list(d.select(s))) for s in SELECTORS)
        d.select_one("title")
        return n

    def text(b):
        d = markupever.parse(b, markupever.HtmlOptions())
        body = d.select_one("body")
        return len(body.text()) if body is not None else 0

    return {"parse": parse, "parse+select": select, "parse+text": text}


PARSERS = {
    "html_arena": arena_tasks,
    "selectolax (lexbor)": selectolax_tasks,
    "lxml.html": lxml_tasks,
    "html5-parser (gumbo)": html5_parser_tasks,
    "markupever (html5ever)": markupever_tasks,
    "BeautifulSoup (html.parser)": bs4_tasks,
}


def time_round(f, b, min_seconds=0.02):
    """Calls f(b) enough times to last min_seconds; returns seconds per call."""
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            f(b)
        dt = time.perf_counter() - t
        if dt >= min_seconds or n >= 1 << 12:
            return dt / n
        n *= 2


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", nargs="?")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", default="parse,parse+select,parse+text")
    ap.add_argument("--skip-slow", action="store_true", help="leave out BeautifulSoup")
    args = ap.parse_args(argv)

    pages = sorted(corpus_dir(args.corpus).glob("*.html"))
    docs = [(p.name, p.read_bytes()) for p in pages]
    tasks = args.only.split(",")
    parsers = {}
    for name, make in PARSERS.items():
        if args.skip_slow and name.startswith("BeautifulSoup"):
            continue
        try:
            parsers[name] = make()
        except Exception as e:  # not installed, or does not build here
            print(f"# {name}: not available ({type(e).__name__}: {e})", file=sys.stderr)
    print(f"# {len(docs)} pages, {sum(len(b) for _, b in docs) / 1e6:.1f} MB, {args.rounds} rounds, Python {sys.version.split()[0]}")

    ratios = {task: {name: [] for name in parsers} for task in tasks}
    totals = {task: {name: 0.0 for name in parsers} for task in tasks}
    for page, b in docs:
        for task in tasks:
            times = {name: [] for name in parsers}
            for _ in range(args.rounds):
                for name, fs in parsers.items():
                    try:
                        times[name].append(time_round(fs[task], b))
                    except Exception as e:
                        print(f"# {name} failed on {page}: {e}", file=sys.stderr)
                        times[name].append(float("nan"))
            med = {name: statistics.median(ts) for name, ts in times.items()}
            for name in parsers:
                ratios[task][name].append(med[name] / med["html_arena"])
                totals[task][name] += med[name]

    print()
    print("| task | " + " | ".join(parsers) + " |")
    print("|---|" + "---:|" * len(parsers))
    for task in tasks:
        cells = []
        for name in parsers:
            rs = [r for r in ratios[task][name] if r == r]
            cells.append(f"{statistics.median(rs):.2f}x" if rs else "n/a")
        print(f"| {task} (median page) | " + " | ".join(cells) + " |")
        cells = [f"{totals[task][name] / totals[task]['html_arena']:.2f}x" for name in parsers]
        print(f"| {task} (total) | " + " | ".join(cells) + " |")
    print()
    print("Each cell: that parser's time / html_arena's time (above 1: html_arena is faster).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
