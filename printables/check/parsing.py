"""Open a PDF for the checks: pdfplumber's own reading, through its public ``pdfplumber.open``.

The checks read a PDF once and share what they read (see check/dispatch.py and check/pdf.py);
this is the one place they open it, so a change of reader is made here only.
"""

from __future__ import annotations

import pdfplumber


def open_pdf(path) -> "pdfplumber.PDF":
    """``pdfplumber.open(path)``: the file's pages as pdfplumber reads them."""
    return pdfplumber.open(str(path))
