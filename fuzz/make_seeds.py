#!/usr/bin/env python3
"""Writes fuzz/seeds/<target>/: small starting inputs in each target's input format.

Documents come from the html5lib tree-construction tests (tests/data, the first cases of
each file, at most 400 bytes each) plus a few hand-written encoding cases. Run from fuzz/.
"""
import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "tests", "data")
OUT = os.path.join(ROOT, "seeds")


def tree_construction_inputs(per_file=3, max_len=400):
    out = []
    for sub in ["html5lib-tests/tree-construction", "html5lib-tests-updates/tree-construction"]:
        d = os.path.join(DATA, sub)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not name.endswith(".dat"):
                continue
            text = open(os.path.join(d, name), "rb").read()
            cases = []
            for block in text.split(b"#data\n")[1:]:
                body = block.split(b"\n#errors")[0]
                ctx = re.search(rb"#document-fragment\n([^\n]*)", block)
                if 0 < len(body) <= max_len:
                    cases.append((body, ctx.group(1).decode() if ctx else None))
            # Spread the picks over the file.
            step = max(1, len(cases) // per_file)
            out.extend(cases[::step][:per_file])
    return out


ENCODING_CASES = [
    b"<meta charset=utf-8><p>caf\xc3\xa9",
    b"<meta http-equiv=Content-Type content='text/html; charset=koi8-r'><p>\xf0\xd2\xc9",
    b"\xef\xbb\xbf<meta charset=gbk><p>\xc3\xa9",
    b"\xff\xfe<\x00p\x00>\x00x\x00",
    b"\xfe\xff\x00<\x00p\x00>\x00x",
    b"<?xml version='1.0' encoding='shift_jis'?><p>\x93\xfa",
    b"<title>" + b"x" * 1100 + b"</title><meta charset=windows-1251><p>\xcf\xf0",
    b"<!-- <meta charset=gbk> --><meta charset=iso-2022-jp><p>\x1b$B$3\x1b(B",
    b"<p>caf\xe9 \x80 \xff",
    b"<meta charset=x-user-defined><meta charset=utf-16>",
]

SELECTORS = [
    "p", "*", "div > p.x", "#main .a", "a[href^='/' i]", "li:nth-child(2n+1 of .x)",
    ":is(p, li):not(.x)", "p:has(> b)", "li + li ~ li", ":root > body", ":empty",
    "svg|rect", "rect", "foreignObject p", "input:checked:disabled", "option:checked",
    ":lang(fr)", "[lang|=en]", "p:first-child, p:last-of-type", ":scope > div",
    "td:nth-last-child(1)", "*|*", "details[open] > summary", ":where(ul, ol) li",
    "a:any-link", ":required", "p::before", ":has(+ p)", ":nth-of-type(odd)", "div >> p",
    "[class~=b]", "#\\31 23", "& p", ":hover", ":dir(ltr)", "p:not(:has(b))",
]

SELECTOR_DOCS = [
    (".a .b", b"<div class=a><p class=b>1<span class=b>2</span></div><p class=b>3"),
    ("td:first-child", b"<table><tr><td>1<td>2<tr><td>3</table>"),
    (":checked", b"<select><option>a<option selected>b</select><input type=radio name=r checked>"),
    ("p:has(~ p)", b"<p>1<p>2<template><p>3</template>"),
    ("svg|*", b"<svg><g><rect/></g></svg><math><mi>x</mi></math>"),
]

# Floods (issue 14): a unit repeated in a context, each about 512 bytes. Quadratic paths showed on
# such shapes only (U+00A0 and quotes in the serializer, many attributes across chunk
# boundaries); the fuzzer grows and splices them.
FLOOD_UNITS = [
    b"\xc2\xa0", b"&nbsp;", b"&#xA0;", b"\xc2\xa0x", b"\xc2\xa9", b"\"", b"'", b"&", b"&amp;",
    b"<", b">", b"\x00", b"\r\n", b"\x0c", b"\xef\xbf\xbd", b"\xf0\x9f\x98\x80", b"-", b"]", b"=",
    b"</", b" b",
]
FLOOD_CONTEXTS = [
    (b"<p>", b"</p>"), (b"<p title=\"", b"\">"), (b"<p title='", b"'>"), (b"<p title=x", b">"),
    (b"<p ", b">"), (b"<!--", b"-->"), (b"<script>", b"</script>"), (b"<style>", b"</style>"),
    (b"<title>", b"</title>"), (b"<textarea>", b"</textarea>"), (b"<plaintext>", b""),
    (b"<table>", b"</table>"), (b"<select>", b"</select>"), (b"<svg><text>", b"</text></svg>"),
    (b"<svg><![CDATA[", b"]]></svg>"), (b"<!DOCTYPE html PUBLIC \"", b"\">"),
]


def floods(size=512):
    """One flood per unit, each in the next context (so every unit and context appear), plus
    the two shapes of issue 14 as they were reported."""
    out = []
    for i, unit in enumerate(FLOOD_UNITS):
        before, after = FLOOD_CONTEXTS[i % len(FLOOD_CONTEXTS)]
        out.append(before + unit * (size // len(unit)) + after)
    out.append(b"<a" + b"\t b" * (size // 3) + b">")
    out.append(b"<a" + b"".join(b" b%d" % i for i in range(size // 5)) + b">")
    return out


def write(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main():
    from_tests = tree_construction_inputs()
    docs = [b for b, c in from_tests if c is None]
    frags = [(b, c) for b, c in from_tests if c is not None]
    for i, b in enumerate(docs + ENCODING_CASES):
        write("parse_bytes", f"{i:03}.html", b)
    contexts = open(os.path.join(ROOT, "src", "checks.rs")).read()
    contexts = re.search(r"pub const CONTEXTS: &\[&str\] = &\[(.*?)\];", contexts, re.S).group(1)
    contexts = re.findall(r'"([^"]*)"', contexts)
    for i, (b, c) in enumerate(frags):
        if c in contexts:
            write("fragment", f"{i:03}", bytes([contexts.index(c)]) + b)
            write("round_trip", f"f{i:03}", bytes([2 | (contexts.index(c) << 2) & 0xFF]) + b)
        else:
            # Past the end of CONTEXTS: the context is read from the input, up to a NUL.
            write("fragment", f"{i:03}", b"\x7f" + c.encode() + b"\x00" + b)
    write("fragment", "junk-context", b"\xffsvg \x00<p>x")
    for i, b in enumerate(docs):
        write("round_trip", f"{i:03}", bytes([i & 1]) + b)
    for i, b in enumerate(docs[::3] + ENCODING_CASES):
        write("chunking", f"{i:03}", bytes([(i * 37) & 0xFF, i & 0xFF]) + b)
    for i, s in enumerate(SELECTORS):
        write("selectors", f"{i:03}", s.encode())
    for i, (s, d) in enumerate(SELECTOR_DOCS):
        write("selectors", f"doc{i:03}", s.encode() + b"\x00" + d)
    for i, b in enumerate(ENCODING_CASES):
        controls = bytes([0xFF if i % 3 else 15, (i * 5) % 16 if i % 2 else 0xFF, 0, ]) \
            + b"text/html; charset=utf-8"
        write("sniffing", f"{i:03}", controls + b"\n" + b)
    write("sniffing", "content-type", b"text/html; charset=\"Shift_JIS\"; a=b, text/plain")
    for i, b in enumerate(floods()):
        write("parse_bytes", f"flood{i:02}.html", b)
        write("fragment", f"flood{i:02}", bytes([i % 8]) + b)
        write("chunking", f"flood{i:02}", bytes([(i * 37) & 0xFF, i & 0xFF]) + b)
        write("round_trip", f"flood{i:02}", bytes([i & 1]) + b)
        write("selectors", f"flood{i:02}", b"p[title], :nth-child(odd)\x00" + b)
        write("sniffing", f"flood{i:02}", b"\xff\xff\x00\n" + b)
    # streaming: byte 0 = options, chunk size, repetition (bits 4..8: 2^k times).
    for i, unit in enumerate(FLOOD_UNITS):
        before, after = FLOOD_CONTEXTS[i % len(FLOOD_CONTEXTS)]
        flags = (8 << 4) | ((i % 4) << 2) | (i & 3)
        write("streaming", f"flood{i:02}", bytes([flags]) + before + unit)
        write("streaming", f"ctx{i:02}", bytes([(6 << 4) | (i & 15)]) + before + unit * 4 + after)
    for i, b in enumerate(docs[::4]):
        write("streaming", f"{i:03}", bytes([(i * 29) & 0x0F]) + b)
    write("streaming", "attrs", bytes([(9 << 4) | 4]) + b"<a\t b")
    write("streaming", "attrs-distinct", bytes([0x48]) + b"<a" + b"".join(b" b%d" % i for i in range(400)) + b">")


main()
