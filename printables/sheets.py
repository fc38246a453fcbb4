"""Sheet kinds: parameters → layout → PDF bytes → file. The one pipeline every sheet goes through."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Mapping

from printables.fileio import write_atomic
from printables.params.base import from_mapping

# kind -> (parameter class, layout function); imported lazily so the CLI starts fast.
SHEET_KINDS: dict[str, tuple[str, str]] = {
    "harvest": ("printables.params.harvest:HarvestSheet", "printables.layout.harvest:layout"),
    "minefield": ("printables.params.minefield:MinefieldSheet", "printables.layout.minefield:layout"),
    "peas": ("printables.params.peas:PeaCard", "printables.layout.peas:layout"),
    "patchwork": ("printables.params.patchwork:PatchworkSheet", "printables.layout.patchwork:layout"),
    "duplex-calibration": ("printables.params.peas:DuplexCalibration", "printables.layout.duplex:layout"),
}


def _load(spec: str):
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def sheet_params(kind: str, mapping: Mapping[str, Any], source: str = "parameters"):
    """The validated parameter object of a sheet kind, built strictly from ``mapping``."""
    return from_mapping(_load(SHEET_KINDS[kind][0]), mapping, source)


def render_sheet(kind: str, params) -> bytes:
    """The PDF bytes of a sheet."""
    from printables.i18n import drawing_in, translate_document
    from printables.render.pdf import render_pdf

    lang = getattr(params, "lang", "en")
    with drawing_in(lang) as paragraphs:
        document = _load(SHEET_KINDS[kind][1])(params)
    return render_pdf(translate_document(document, lang, paragraphs))


DEFAULT_OUTPUT = Path("output")


def write_sheet(kind: str, params, path: Path | None = None) -> Path:
    """Lay out, render and atomically write a sheet; layout errors leave no file behind.

    Without a path the sheet goes to ``output/<kind>/<name from the parameters>.pdf``.
    """
    data = render_sheet(kind, params)
    return write_atomic(path or DEFAULT_OUTPUT / kind / f"{params.file_stem()}.pdf", data)
