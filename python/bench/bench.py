"""In-process benchmark: html_arena against the Python HTML parsers people use.

    python python/bench/bench.py [CORPUS_DIR ...] [--rounds N] [--only parse,select,text]
                                 [--soup-rounds N] [--no-soup]

For every page and every task, each parser is timed in the same process, interleaved round by
round; a parser's time for a page is its median round. The table gives, per task, the median
over pages of (other parser's time / html_arena's time): above 1 means html_arena is faster.
Bytes are given to every parser (each sniffs or decodes as it does by default), except where a
parser only takes text (noted in the table).

Tasks (the same work for every parser, as far as its API allows):
  parse         bytes -> tree
  parse+select  parse, then `a[href]` and `div p` (lists of elements) and `title` (first match)
  parse+text    parse, then the text of the body

Then, per corpus, BeautifulSoup's tree builders (task `soup`: bytes -> BeautifulSoup object):
bs4 + html-arena (`BeautifulSoup(b, "html-arena")`, html_arena.bs4) against bs4 + lxml and
bs4 + html5lib; each cell is that builder's time / bs4+html-arena's time.

The corpora default to ../shared/bench-corpus (51 pages) and ../shared/bench-corpus-wide (292
pages) when they exist (or $HTML_ARENA_CORPUS / $HTML_ARENA_CORPUS_WIDE), else the vendored
pages in tests/data/bench-corpus; each corpus gets its own tables.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

import html_arena

ROOT = Path(__file__).resolve().parents[2]


def corpus_dirs(args: list[str]) -> list[Path]:
    if args:
        return [Path(a) for a in args]
    found = []
    if not os.environ.get("HTML_ARENA_VENDORED_CORPUS"):
        for var, name in (("HTML_ARENA_CORPUS", "bench-corpus"), ("HTML_ARENA_CORPUS_WIDE", "bench-corpus-wide")):
            d = Path(os.environ.get(var, ROOT.parent / "shared" / name))
            if d.is_dir():
                found.append(d)
    return found or [ROOT / "tests" / "data" / "bench-corpus"]


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


def soup_builders():
    """BeautifulSoup with each tree builder (task `soup`)."""
    from bs4 import BeautifulSoup

    import html_arena.bs4  # noqa: F401  (registers "html-arena")
    from bs4 import XMLParsedAsHTMLWarning

    warnings.filterwarnings("ignore", category=XMLParsedAsHTMLWarning)

    out = {}
    for label, feature in (
        ("bs4+html-arena", "html-arena"),
        ("bs4+lxml", "lxml"),
        ("bs4+html5lib", "html5lib"),
    ):
        try:
            BeautifulSoup(b"<p>x", feature)
        except Exception as e:  # builder not installed
            print(f"# {label}: not available ({type(e).__name__}: {e})", file=sys.stderr)
            continue
        out[label] = {"soup": (lambda f: lambda b: BeautifulSoup(b, f))(feature)}
    return out


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


def run(docs, parsers, tasks, rounds, base):
    """Times every parser on every page; returns (median ratio, total ratio) per task and
    parser, relative to `base`."""
    ratios = {task: {name: [] for name in parsers} for task in tasks}
    totals = {task: {name: 0.0 for name in parsers} for task in tasks}
    for page, b in docs:
        for task in tasks:
            times = {name: [] for name in parsers}
            for _ in range(rounds):
                for name, fs in parsers.items():
                    try:
                        times[name].append(time_round(fs[task], b))
                    except Exception as e:
                        print(f"# {name} failed on {page}: {e}", file=sys.stderr)
                        times[name].append(float("nan"))
            med = {name: statistics.median(ts) for name, ts in times.items()}
            for name in parsers:
                ratios[task][name].append(med[name] / med[base])
                totals[task][name] += med[name]
    return ratios, totals


def table(parsers, tasks, ratios, totals, base):
    print()
    print("| task | " + " | ".join(parsers) + " |")
    print("|---|" + "---:|" * len(parsers))
    for task in tasks:
        cells = []
        for name in parsers:
            rs = [r for r in ratios[task][name] if r == r]
            cells.append(f"{statistics.median(rs):.2f}x" if rs else "n/a")
        print(f"| {task} (median page) | " + " | ".join(cells) + " |")
        cells = [f"{totals[task][name] / totals[task][base]:.2f}x" for name in parsers]
        print(f"| {task} (total) | " + " | ".join(cells) + " |")
    print()
    print(f"Each cell: that parser's time / {base}'s time (above 1: {base} is faster).")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", nargs="*")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--soup-rounds", type=int, default=3, help="rounds of the BeautifulSoup builders")
    ap.add_argument("--only", default="parse,parse+select,parse+text")
    ap.add_argument("--skip-slow", action="store_true", help="leave out BeautifulSoup (html.parser)")
    ap.add_argument("--no-soup", action="store_true", help="leave out the BeautifulSoup builders")
    args = ap.parse_args(argv)

    tasks = [t for t in args.only.split(",") if t]
    parsers = {}
    for name, make in PARSERS.items():
        if args.skip_slow and name.startswith("BeautifulSoup"):
            continue
        try:
            parsers[name] = make()
        except Exception as e:  # not installed, or does not build here
            print(f"# {name}: not available ({type(e).__name__}: {e})", file=sys.stderr)
    soups = {} if args.no_soup else soup_builders()

    for corpus in corpus_dirs(args.corpus):
        pages = sorted(corpus.glob("*.html"))
        docs = [(p.name, p.read_bytes()) for p in pages]
        print(f"## {corpus.name}: {len(docs)} pages, {sum(len(b) for _, b in docs) / 1e6:.1f} MB, "
              f"Python {sys.version.split()[0]}")
        if tasks:
            print(f"# parsers, {args.rounds} rounds")
            ratios, totals = run(docs, parsers, tasks, args.rounds, "html_arena")
            table(parsers, tasks, ratios, totals, "html_arena")
        if "bs4+html-arena" in soups:
            print()
            print(f"# BeautifulSoup tree builders, {args.soup_rounds} rounds")
            ratios, totals = run(docs, soups, ["soup"], args.soup_rounds, "bs4+html-arena")
            table(soups, ["soup"], ratios, totals, "bs4+html-arena")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
