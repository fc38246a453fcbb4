"""Open a PDF for the checks: its pages read through pypdfium2's public API (check/pages.py).

The checks read a PDF once and share what they read (see check/dispatch.py and check/pdf.py);
this is the one place they open it, so a change of reader is made here only.
"""

from __future__ import annotations

from printables.check.pages import PdfPages, read_pages


def open_pdf(path, reader=None) -> PdfPages:
    """The file's pages (characters, rectangles, lines and curves, keyed as pdfplumber keys them),
    read with pypdfium2; ``reader`` (pypdf), when given, is the file already open."""
    return read_pages(path, reader)
