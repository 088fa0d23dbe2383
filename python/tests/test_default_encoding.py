"""Issue 28, item 3, "one default decoding in every path": `parse(bytes)` decides the
encoding of undeclared bytes as `Document::parse_bytes` does with default options (valid
UTF-8 is UTF-8; other bytes are guessed), the same pages as tests/encoding_default.rs."""

import html_arena

UTF8_TEXT = "café 日本 — naïve señor, déjà vu; Größe straße" * 4
LATIN_TEXT = "Café crème brûlée à la façon de l'hôtel — déjà vu, naïve señor" * 4


def test_undeclared_utf8_is_utf8():
    for text in ["café 日本", UTF8_TEXT]:
        page = f"<p>{text}</p><script>document.write('<i>x</i>')</script>".encode("utf-8")
        doc = html_arena.parse(page)
        assert doc.encoding == "UTF-8"
        assert doc.select_one("p").text() == text


def test_undeclared_windows_1252_is_detected():
    page = f"<p>{LATIN_TEXT}</p>".encode("windows-1252")
    doc = html_arena.parse(page)
    assert doc.encoding == "windows-1252"
    assert doc.select_one("p").text() == LATIN_TEXT


def test_a_transport_label_still_wins():
    page = f"<p>{UTF8_TEXT}</p>".encode("utf-8")
    assert html_arena.parse(page, encoding="windows-1252").encoding == "windows-1252"
