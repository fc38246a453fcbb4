"""Sheet kinds: parameters → layout → PDF bytes → file. The one pipeline every sheet goes through."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Mapping

from printables.fileio import write_atomic
from printables.errors import ParameterError
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
    """The validated parameter object of a sheet kind, built strictly from ``mapping``.

    A refusal names the preset key it is about (``per_page``, not only "per page"), when one key
    alone is refused; a refused combination of keys is said as the parameters say it."""
    cls = _load(SHEET_KINDS[kind][0])
    try:
        return from_mapping(cls, mapping, source)
    except ParameterError as error:
        key = _refused_key(cls, mapping)
        message = str(error)
        if key is None or message.startswith(f"{source}: {key}") or not message.startswith(f"{source}: "):
            raise
        raise ParameterError(f"{source}: {key}: {message[len(source) + 2:]}") from None


def _refused_key(cls, mapping: Mapping[str, Any]) -> str | None:
    """The first key of ``mapping`` refused on its own (the others left at their defaults), or None."""
    for key, value in mapping.items():
        try:
            from_mapping(cls, {key: value})
        except ParameterError:
            return key
        except Exception:  # a class that cannot be built from one key: no single key to name
            return None
    return None


def render_sheet(kind: str, params) -> bytes:
    """The PDF bytes of a sheet."""
    from printables.layout.language import drawing_in
    from printables.layout.translation import translate_document
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
