"""Find the right checks for a produced file and run them."""

from __future__ import annotations

import importlib
from pathlib import Path

from printables.check.results import CheckResult

# kind recorded in the PDF keywords -> "module:function" taking a PdfDrawing
PDF_CHECKS = {
    "harvest": "printables.check.harvest:check_harvest",
    "minefield": "printables.check.minefield:check_minefield",
    "peas": "printables.check.peas:check_peas",
    "patchwork": "printables.check.patchwork:check_patchwork",
}


def _load(spec: str):
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def check_file(path: Path) -> list[CheckResult]:
    """Run every check that applies to ``path``; an unreadable or unknown file is a failed check."""
    path = Path(path)
    if not path.exists():
        return [CheckResult("file", False, f"{path} does not exist")]
    if path.suffix.lower() == ".pdf":
        from printables.check.pdf import read_pdf

        try:
            drawing = read_pdf(path)
        except Exception as error:  # a damaged file is a failed check, not a crash
            return [CheckResult("read PDF", False, f"{type(error).__name__}: {error}")]
        kind = drawing.kind
        if kind not in PDF_CHECKS:
            return [CheckResult("kind", False, f"no printables kind in the PDF keywords ({drawing.keywords!r})")]
        try:
            return [CheckResult("kind", True, kind)] + _load(PDF_CHECKS[kind])(drawing)
        except (KeyError, ValueError, TypeError) as error:
            return [CheckResult("parameters", False, f"unreadable parameters in the PDF subject: {error}")]
    return [CheckResult("kind", False, f"{path.name}: no check knows files of type {path.suffix or '(none)'}")]
