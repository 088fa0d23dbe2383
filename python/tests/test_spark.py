"""Smoke test of the Spark example: a small WARC built from the vendored pages, the job in
local mode, and its Parquet rows checked."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PAGES = Path(__file__).resolve().parents[2] / "tests" / "data" / "bench-corpus"

pyspark = pytest.importorskip("pyspark", reason="install the 'spark' extra to run the Spark smoke test")


def test_spark_job_on_small_warc(tmp_path):
    if shutil.which("java") is None:
        pytest.fail("the Spark smoke test needs Java (17 is on the CI machine)")
    import pyarrow.parquet as pq

    warc = tmp_path / "small.warc.gz"
    subprocess.run([sys.executable, str(EXAMPLES / "make_warc.py"), str(warc), str(PAGES)], check=True)
    out = tmp_path / "pages.parquet"
    # Spark's Python workers must run this interpreter (the one with html_arena and warcio),
    # not whatever `python3` is first on PATH.
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    subprocess.run(
        [sys.executable, str(EXAMPLES / "spark_job.py"), "--master", "local[2]",
         "--input", str(warc), "--output", str(out)],
        check=True,
        timeout=600,
        env=env,
    )
    table = pq.read_table(out).to_pylist()
    pages = sorted(PAGES.glob("*.html"))
    assert len(table) == len(pages)  # robots.txt and the PNG are skipped
    by_url = {row["url"]: row for row in table}
    assert set(by_url) == {f"https://pages.example/{p.stem}/" for p in pages}
    for row in table:
        assert row["text_length"] > 0
        assert row["parse_errors"] >= 0
        assert row["outlinks"] >= 0
        assert row["encoding"]
    # Each row agrees with parsing the page directly.
    sys.path.insert(0, str(EXAMPLES))
    from spark_job import page_row

    for i, page in enumerate(pages):
        ct = "text/html; charset=utf-8" if i % 3 == 0 else "text/html"
        url = f"https://pages.example/{page.stem}/"
        assert by_url[url] == page_row(url, page.read_bytes(), ct, None)
    assert sum(row["outlinks"] for row in table) > 0
    assert any(row["title"] for row in table)


def test_cc_pyspark_drop_in():
    from html_arena.cc_pyspark import HTMLParser

    parser = HTMLParser()
    tree = parser.get_html_tree(b"<title>T</title><p>caf\xe9<script>x()</script>", encoding="latin1")
    assert parser.html_to_text(tree) == "caf\u00e9"
    tree = parser.get_html_tree(b"<p>x", encoding="bogus-label")
    assert parser.html_to_text(tree) == "x"


def test_matches_of_warc_stream_each_record_as_a_full_parse_selects(tmp_path):
    # The job's --select mode without Spark: each record's body streamed through iterparse
    # gives what parsing the page whole and selecting gives.
    import html_arena

    warc = tmp_path / "small.warc.gz"
    subprocess.run([sys.executable, str(EXAMPLES / "make_warc.py"), str(warc), str(PAGES)], check=True)
    sys.path.insert(0, str(EXAMPLES))
    from spark_job import matches_of_warc

    css = "a[href], h1, h2"
    with warc.open("rb") as f:
        rows = list(matches_of_warc(f, css))
    pages = sorted(PAGES.glob("*.html"))
    by_url = {}
    for row in rows:
        by_url.setdefault(row["url"], []).append(row)
    assert len(rows) > 100
    for i, page in enumerate(pages):
        url = f"https://pages.example/{page.stem}/"
        charset = "utf-8" if i % 3 == 0 else None
        want = html_arena.parse(page.read_bytes(), encoding=charset, url=url).select(css)
        got = by_url.get(url, [])
        assert [r["n"] for r in got] == list(range(len(want)))
        assert [r["html"] for r in got] == [n.html for n in want], page.name
        assert [r["text"] for r in got] == [n.text() for n in want]


def test_spark_job_select_mode(tmp_path):
    if shutil.which("java") is None:
        pytest.fail("the Spark smoke test needs Java (17 is on the CI machine)")
    import pyarrow.parquet as pq

    # A selector the stream refuses: exit 2 with the reason, before Spark starts.
    refused = subprocess.run(
        [sys.executable, str(EXAMPLES / "spark_job.py"), "--input", "x", "--output", "y",
         "--select", "li:last-child"],
        capture_output=True, text=True, timeout=60,
    )
    assert refused.returncode == 2
    assert "`:last-child`" in refused.stderr and "streaming" in refused.stderr
    warc = tmp_path / "small.warc.gz"
    subprocess.run([sys.executable, str(EXAMPLES / "make_warc.py"), str(warc), str(PAGES)], check=True)
    out = tmp_path / "titles.parquet"
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    subprocess.run(
        [sys.executable, str(EXAMPLES / "spark_job.py"), "--master", "local[2]",
         "--input", str(warc), "--output", str(out), "--select", "title"],
        check=True,
        timeout=600,
        env=env,
    )
    import html_arena

    table = pq.read_table(out).to_pylist()
    pages = sorted(PAGES.glob("*.html"))
    want = {
        (f"https://pages.example/{p.stem}/", n, t.html)
        for p in pages
        for n, t in enumerate(html_arena.parse(p.read_bytes()).select("title"))
    }
    assert want
    assert {(r["url"], r["n"], r["html"]) for r in table} == want
