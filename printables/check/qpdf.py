"""A second reader for every PDF: qpdf's structural check, through pikepdf.

The other PDF checks read the file with pypdfium2 and pypdf, which mend a damaged cross-reference
table or stream quietly where they can. qpdf says what it had to mend: a file it calls damaged
fails here, in qpdf's own words (pikepdf's ``Pdf.check_pdf_syntax``: the problems ``qpdf --check``
reports, each stream decoded).
"""

from __future__ import annotations

from pathlib import Path

from printables.check.results import CheckResult

NAME = "PDF structure (qpdf)"
SHOWN_PROBLEMS = 4  # qpdf's first few lines say what is wrong; the rest repeat it for other objects


def _own_words(message: str, path: Path) -> str:
    """A qpdf message without the file name it starts with (the report names the file once)."""
    return message.replace(f"{path}: ", "").replace(f"{path} ", "").strip()


def check_pdf_structure(path: Path | str) -> list[CheckResult]:
    """qpdf's structural check of a PDF: cross-reference table, object syntax, every stream decoded."""
    import pikepdf

    path = Path(path)
    try:
        with pikepdf.Pdf.open(path) as pdf:
            problems = [_own_words(str(p), path) for p in pdf.check_pdf_syntax()]
    except (pikepdf.PdfError, OSError, ValueError) as error:
        return [CheckResult(NAME, False, f"qpdf cannot read it: {_own_words(str(error), path)}")]
    if problems:
        more = f" (and {len(problems) - SHOWN_PROBLEMS} more)" if len(problems) > SHOWN_PROBLEMS else ""
        return [CheckResult(NAME, False, "; ".join(problems[:SHOWN_PROBLEMS]) + more)]
    return [CheckResult(NAME, True, "qpdf found no syntax or stream encoding errors")]
