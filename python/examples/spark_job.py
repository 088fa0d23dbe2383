"""A crawl-scale job on Spark: one row per HTML page of some WARC files, written as Parquet.

    # one machine (local[*] uses every core):
    python python/examples/spark_job.py --input 'crawl/*.warc.gz' --output pages.parquet
    # a cluster (the same file; WARCs on any file system Hadoop reads: hdfs://, s3a://, ...):
    spark-submit --master yarn --py-files html_arena.zip python/examples/spark_job.py \\
        --input 's3a://bucket/crawl/*.warc.gz' --output s3a://bucket/out/pages.parquet

Spark's Python workers run `PYSPARK_PYTHON` (default: `python3` on PATH): point it at the
interpreter that has `html_arena` and `warcio` installed. On a cluster every executor needs the `html_arena` and `warcio` packages: install the wheel
(`pip wheel ./python`) on the nodes, or ship a virtual environment with
`--archives env.tar.gz#env` and `PYSPARK_PYTHON=./env/bin/python` (see the Spark docs on
"Python Package Management").

Each row: url, title, lang (the `lang` attribute of the document element, else the HTTP
`Content-Language`), encoding (what the parser decoded with: the HTTP charset as the
transport-layer encoding, else the BOM, `<meta>` or detection), outlinks (the distinct
absolute http(s) URLs of `a[href]` and `area[href]`, resolved against the page's URL and its
`<base>` by the WHATWG rules), text_length (characters of rendered text), parse_errors.

With `--select CSS`, the job extracts instead: one row per element matching the selector,
streamed out of each record with `html_arena.iterparse` (the record's body is never parsed
whole, so records of hundreds of megabytes, such as filings or table exports, take memory
in proportion to what is open, not to their size): url, n (the match's index in its page),
text, html. The selector must be one the streaming parser accepts (no `+`, `~`,
`:last-child`, `:nth-*`: see python/README.md); the job checks it before starting Spark.

    python python/examples/spark_job.py --input 'crawl/*.warc.gz' --output rows.parquet \\
        --select 'table.data tr'
"""

from __future__ import annotations

import argparse
import io
import sys


def charset_of(content_type: str | None) -> str | None:
    """The `charset` parameter of a Content-Type header value, if any."""
    if not content_type:
        return None
    for part in content_type.split(";")[1:]:
        key, _, value = part.strip().partition("=")
        if key.strip().lower() == "charset" and value.strip():
            return value.strip().strip("\"'")
    return None


def page_row(url: str, body: bytes, content_type: str | None, content_language: str | None):
    """Parses one HTML response and returns its row (a dict)."""
    import html_arena

    charset = charset_of(content_type)
    try:
        doc = html_arena.parse(body, encoding=charset, url=url)
    except html_arena.EncodingError:  # an unknown charset label: sniff instead
        doc = html_arena.parse(body, url=url)
    root = doc.document_element
    lang = root.get("lang") if root is not None else None
    outlinks = {u for u in doc.links() if u.startswith(("http://", "https://"))}
    return {
        "url": url,
        "title": doc.title,
        "lang": (lang or content_language or None),
        "encoding": doc.encoding,
        "outlinks": len(outlinks),
        "text_length": len(doc.rendered_text()),
        "parse_errors": len(doc.errors),
    }


def rows_of_warc(stream) -> list:
    """Every HTML response record of one WARC file (a binary stream), as rows."""
    from warcio.archiveiterator import ArchiveIterator

    rows = []
    for record in ArchiveIterator(stream):
        if record.rec_type != "response" or record.http_headers is None:
            continue
        content_type = record.http_headers.get_header("Content-Type") or ""
        if not content_type.lower().startswith(("text/html", "application/xhtml+xml")):
            continue
        url = record.rec_headers.get_header("WARC-Target-URI")
        body = record.content_stream().read()
        rows.append(
            page_row(url, body, content_type, record.http_headers.get_header("Content-Language"))
        )
    return rows


def open_response(record):
    """(url, charset) of an HTML response record, else None."""
    if record.rec_type != "response" or record.http_headers is None:
        return None
    content_type = record.http_headers.get_header("Content-Type") or ""
    if not content_type.lower().startswith(("text/html", "application/xhtml+xml")):
        return None
    return record.rec_headers.get_header("WARC-Target-URI"), charset_of(content_type)


def matches_of_warc(stream, selector: str):
    """Every element matching `selector` in the HTML responses of one WARC file, streamed
    out of each record's body (a generator of rows: dicts)."""
    import html_arena
    from warcio.archiveiterator import ArchiveIterator

    for record in ArchiveIterator(stream):
        response = open_response(record)
        if response is None:
            continue
        url, charset = response
        try:
            matches = html_arena.iterparse(
                record.content_stream(), selector, encoding=charset, url=url
            )
        except html_arena.EncodingError:  # an unknown charset label: sniff instead
            matches = html_arena.iterparse(record.content_stream(), selector, url=url)
        with matches:
            for n, node in enumerate(matches):
                yield {"url": url, "n": n, "text": node.text(), "html": node.html}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--input", required=True, help="WARC file(s): a path, glob or Hadoop URI")
    ap.add_argument("--output", required=True, help="Parquet output folder")
    ap.add_argument("--master", default=None, help="Spark master (default: spark-submit's, else local[*])")
    ap.add_argument(
        "--select", default=None, metavar="CSS",
        help="write one row per matching element (url, n, text, html), streamed, instead of one per page",
    )
    args = ap.parse_args(argv)
    if args.select is not None:
        import html_arena

        try:  # refused or invalid selectors fail here, before Spark starts
            html_arena.iterparse(b"", args.select)
        except ValueError as e:
            print(f"--select: {e}", file=sys.stderr)
            return 2

    from pyspark.sql import SparkSession
    from pyspark.sql.types import IntegerType, StringType, StructField, StructType

    builder = SparkSession.builder.appName("html-arena-warc-pages")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    schema = StructType(
        [
            StructField("url", StringType(), False),
            StructField("title", StringType(), True),
            StructField("lang", StringType(), True),
            StructField("encoding", StringType(), False),
            StructField("outlinks", IntegerType(), False),
            StructField("text_length", IntegerType(), False),
            StructField("parse_errors", IntegerType(), False),
        ]
    )
    if args.select is not None:
        schema = StructType(
            [
                StructField("url", StringType(), False),
                StructField("n", IntegerType(), False),
                StructField("text", StringType(), False),
                StructField("html", StringType(), False),
            ]
        )
    # One task per WARC file: binaryFiles reads from any file system Hadoop supports.
    files = spark.sparkContext.binaryFiles(args.input)
    if args.select is not None:
        selector = args.select
        rows = files.flatMap(lambda pair: matches_of_warc(io.BytesIO(pair[1]), selector))
    else:
        rows = files.flatMap(lambda pair: rows_of_warc(io.BytesIO(pair[1])))
    df = spark.createDataFrame(rows.map(lambda r: tuple(r[f.name] for f in schema.fields)), schema)
    df.write.mode("overwrite").parquet(args.output)
    count = spark.read.parquet(args.output).count()
    what = "matches" if args.select is not None else "pages"
    print(f"{count} {what} written to {args.output}", file=sys.stderr)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
