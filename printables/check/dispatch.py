"""Find the right checks for a produced file and run them."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

from printables.check.results import CheckResult

# kind recorded in the PDF keywords -> "module:function" taking a PdfDrawing
PDF_CHECKS = {
    "harvest": "printables.check.harvest:check_harvest",
    "minefield": "printables.check.minefield:check_minefield",
    "peas": "printables.check.peas:check_peas",
    "patchwork": "printables.check.patchwork:check_patchwork",
    "giuthi-print-settings": "printables.check.giuthi_card:check_print_card",
    "giuthi-rules": "printables.check.giuthi_rules:check_rules_sheet",
    "duplex-calibration": "printables.check.duplex:check_duplex_calibration",
}

# Sheets whose language, glyphs and text fit are checked (printables/check/language.py).
LETTERED = ("harvest", "minefield", "peas", "patchwork", "giuthi-rules", "giuthi-print-settings")


def _load(spec: str):
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


# Folders ``printables build`` writes beside the products: the gallery's pictures and records.
SKIPPED_FOLDERS = {"gallery"}
CHECKABLE = "PDF sheets, Giuthi board manifests and STLs, seed sprues and 3MFs"


def expand(path: Path, _seen: set | None = None) -> list[Path]:
    """The checkable files a path stands for.

    A folder gives its PDFs, board manifests, seed sprues and 3MFs, then those of its subfolders
    (``build``'s output folder holds one folder per kind, Giuthi one more per preset), leaving out
    the gallery and hidden (staging) folders. Other files there (index.html, PNGs) are not products.
    A folder reached twice (through a symbolic link, or a link looping back) is read once.
    """
    path = Path(path)
    if not path.is_dir():
        return [path]
    seen = set() if _seen is None else _seen
    try:
        info = path.stat()
    except OSError:
        return [path]
    if (info.st_dev, info.st_ino) in seen:
        return []
    seen.add((info.st_dev, info.st_ino))
    from printables.check.giuthi_set import is_orphan_set_folder

    # A folder holding part of a Giuthi set and no manifest is itself a failed check (_check_file).
    found = [path] if is_orphan_set_folder(path) else []
    found += (sorted(path.glob("*.pdf")) + sorted(path.glob("giuthi-board-*.json")) + sorted(path.glob("giuthi-seeds-*.stl"))
             + sorted(path.glob("giuthi-*.3mf")))
    for sub in sorted(p for p in path.iterdir() if p.is_dir()):
        if sub.name in SKIPPED_FOLDERS or sub.name.startswith("."):
            continue
        found += expand(sub, seen)
    return found


def slicer_required() -> bool:
    """In CI the slicer checks must run: a missing PrusaSlicer fails them instead of skipping."""
    return bool(os.environ.get("CI"))


def _slices(stls: list[Path]) -> list[CheckResult]:
    from printables.check.slicer import check_slices
    from printables.check.stl_file import UnreadableStl, read_stl_bytes

    results = []
    for stl in stls:
        try:
            read_stl_bytes(stl)
        except UnreadableStl as error:  # already reported by the mesh checks; the slicer would only repeat it
            results.append(CheckResult(f"{stl.stem}: slicer", False, f"not sliced: {error}"))
            continue
        results += [
            CheckResult(f"{stl.stem}: {r.name}", r.ok, r.detail) for r in check_slices(stl, require_slicer=slicer_required())
        ]
    return results


def _measured_seed(folder: Path, board) -> tuple[float, str] | None:
    """The seed volume measured on the sprue STL printed with this board, if it lies beside it."""
    from printables.check.giuthi_seeds import measure_seed_volume
    from printables.params.giuthi_seeds import SeedParams, stl_name

    try:
        sprue = folder / stl_name(SeedParams(seed_diameter_mm=board.seed_diameter_mm, seed_height_mm=board.seed_height_mm))
    except ValueError:
        return None
    if not sprue.exists():
        return None
    try:
        return measure_seed_volume(sprue), f"measured on {sprue.name}"
    except (OSError, ValueError):  # a damaged sprue fails its own checks; the board uses the design's seed
        return None


def check_file(path: Path, slicer: bool = True) -> list[CheckResult]:
    """Run every check that applies to ``path``; an unreadable or unknown file is a failed check.

    ``slicer=False`` leaves out the PrusaSlicer checks of STLs (``printables build --no-slice``).
    """
    from printables.check.bounds import bounds_problem

    try:
        problem = bounds_problem(Path(path))  # a pipe, a huge file or a zip bomb is never read
        if problem is not None:
            return [problem]
        return _check_file(Path(path), slicer)
    except Exception as error:  # a file damaged in a way no check foresaw is still a failed check
        return [CheckResult("read file", False, f"{Path(path).name}: {type(error).__name__}: {error}")]


def _check_file(path: Path, slicer: bool = True) -> list[CheckResult]:
    slices = _slices if slicer else (lambda stls: [])
    if not path.exists():
        return [CheckResult("file", False, f"{path} does not exist")]
    if path.is_dir():  # expand() found nothing in it, or it holds part of a set
        from printables.check.giuthi_set import is_orphan_set_folder, orphan_folder_result

        if is_orphan_set_folder(path):
            return [orphan_folder_result(path)]
        return [CheckResult("files", False, f"{path}: nothing to check in this folder or its subfolders ({CHECKABLE}; "
                                             f"the gallery is not checked)")]
    suffix = path.suffix.lower()
    name = path.name
    if suffix == ".pdf":
        return _check_pdf(path) + _load("printables.check.qpdf:check_pdf_structure")(path)
    if suffix == ".json" and name.startswith("giuthi-board-"):
        from printables.check.giuthi_set import check_set_files
        from printables.check.giuthi_stl import check_board, load_manifest

        try:
            data, params = load_manifest(path)
            stls = [path.parent / str(data["parts"][side]) for side in ("left", "right")]
        except (OSError, KeyError, TypeError, ValueError):
            return check_board(path)
        # First: a set that is not whole fails whatever its files say one by one.
        return [check_set_files(path)] + check_board(path, _measured_seed(path.parent, params)) + slices(stls)
    if suffix == ".stl" and name.startswith("giuthi-board-"):
        from printables.check.giuthi_stl import check_stl_file

        return check_stl_file(path) + slices([path])
    if suffix == ".stl" and name.startswith("giuthi-seeds-"):
        from printables.check.giuthi_seeds import check_seed_sprue

        return check_seed_sprue(path) + slices([path])
    if suffix == ".3mf" and name.startswith("giuthi-"):
        from printables.check.giuthi_3mf import check_3mf

        return check_3mf(path)
    return [CheckResult("kind", False, f"{name}: no check knows this file ({CHECKABLE})")]


def _check_pdf(path: Path) -> list[CheckResult]:
    from printables.check.mesh_cache import digest, remembered

    try:
        data = path.read_bytes()
    except OSError:
        data = None
    if data is None:
        return _check_pdf_file(path)
    # A rules sheet's results are a function of its name and bytes: giuthi-compact, -default and
    # -travel print the very same sheet, checked once per process. Other kinds read files beside
    # them (the print card) or are never the same twice in a build.
    key = ("pdf", path.name, digest(data))
    return remembered(key, lambda: _check_pdf_file(path), keep=lambda results: results[:1] == (CheckResult("kind", True, "giuthi-rules"),))


def _check_pdf_file(path: Path) -> list[CheckResult]:
    from pypdf import PdfReader

    from printables.check.parsing import open_pdf

    # One open file for the drawing and the preflight: each page is read once (pypdfium2).
    try:
        reader = PdfReader(str(path))
        pdf = open_pdf(path, reader)
    except Exception as error:  # a damaged file is a failed check, not a crash
        return [CheckResult("read PDF", False, f"{type(error).__name__}: {error}")]
    with pdf:
        return _check_open_pdf(path, pdf, reader)


def _check_open_pdf(path: Path, pdf, reader) -> list[CheckResult]:
    from printables.check.pdf import read_pdf

    try:
        drawing = read_pdf(path, pdf, reader)
    except Exception as error:  # a damaged file is a failed check, not a crash
        return [CheckResult("read PDF", False, f"{type(error).__name__}: {error}")]
    kind = drawing.kind
    if kind not in PDF_CHECKS:
        return [CheckResult("kind", False, f"no printables kind in the PDF keywords ({drawing.keywords!r})")]
    from printables.check.pdf import check_user_unit
    from printables.check.preflight import preflight

    # Every PDF gets the preflight (fonts, glyphs, text sizes, safe zone, page boxes), whatever its kind.
    printing = preflight(path, drawing.subject, pdf, reader)
    try:
        results = [CheckResult("kind", True, kind), check_user_unit(drawing)] + _load(PDF_CHECKS[kind])(drawing)
        if kind in LETTERED:
            from printables.check.lettering import check_lettering

            results += check_lettering(path, kind, drawing.parameters(), [page.text for page in drawing.pages], drawing)
        return results + printing
    except (KeyError, ValueError, TypeError, AttributeError, IndexError) as error:
        return [CheckResult("parameters", False, f"unreadable parameters in the PDF subject: {error}")] + printing
