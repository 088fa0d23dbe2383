"""Builds a small WARC file from HTML pages, for trying the Spark job on one machine.

    python python/examples/make_warc.py OUT.warc.gz [PAGES_DIR]

Each page becomes a `response` record (with its `request` record before it, as crawlers write
them) at https://pages.example/<name>/, with an HTTP `Content-Type` header: every third page
declares `charset=utf-8`, the others declare none (the parser then sniffs the bytes). Two
records that are not HTML (a robots.txt and a PNG) show that the job skips them. PAGES_DIR
defaults to the vendored pages in tests/data/bench-corpus.
"""

import io
import sys
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

ROOT = Path(__file__).resolve().parents[2]


def write_record(writer, url, body, content_type):
    headers = StatusAndHeaders(
        "200 OK",
        [("Content-Type", content_type), ("Content-Length", str(len(body)))],
        protocol="HTTP/1.1",
    )
    request = writer.create_warc_record(
        url,
        "request",
        payload=io.BytesIO(f"GET {url} HTTP/1.1\r\nHost: pages.example\r\n\r\n".encode()),
    )
    writer.write_record(request)
    response = writer.create_warc_record(
        url, "response", payload=io.BytesIO(body), http_headers=headers
    )
    writer.write_record(response)


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[0])
    pages_dir = Path(argv[1]) if len(argv) > 1 else ROOT / "tests" / "data" / "bench-corpus"
    pages = sorted(pages_dir.glob("*.html"))
    with out.open("wb") as f:
        writer = WARCWriter(f, gzip=True)
        write_record(writer, "https://pages.example/robots.txt", b"User-agent: *\n", "text/plain")
        for i, page in enumerate(pages):
            content_type = "text/html; charset=utf-8" if i % 3 == 0 else "text/html"
            write_record(writer, f"https://pages.example/{page.stem}/", page.read_bytes(), content_type)
        write_record(writer, "https://pages.example/logo.png", b"\x89PNG\r\n\x1a\n", "image/png")
    print(f"{out}: {len(pages)} HTML pages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
