"""Every sheet PDF draws the very pixels it drew before the renderer went through reportlab's public
API only (issue 23): each page rendered at 150 dpi by PDFium, compared with the digests in
tests/data/pdf_digests.json (tools/pdf_digests.py made them from commit d2d4442's code)."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("pdf_digests", ROOT / "tools" / "pdf_digests.py")
pdf_digests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pdf_digests)

REFERENCE = json.loads(pdf_digests.DIGESTS.read_text(encoding="utf-8"))

pytestmark = pytest.mark.skipif(
    REFERENCE["renderer"] != pdf_digests.renderer_version(),
    reason=f"the digests were rendered by {REFERENCE['renderer']}, this is {pdf_digests.renderer_version()}: "
           "another PDFium may draw other pixels (python tools/pdf_digests.py --commit d2d4442 writes them again)")


def _different_pages(made: dict[str, Path]) -> list[str]:
    """Every page of ``made`` whose pixels differ from the reference's (or that the reference lacks)."""
    different = []
    for name, path in made.items():
        expected = REFERENCE["pages"].get(name)
        found = pdf_digests.page_digests(path)
        if expected is None:
            different.append(f"{name}: not in the reference")
        elif len(found) != len(expected):
            different.append(f"{name}: {len(found)} pages, {len(expected)} before")
        else:
            different += [f"{name} page {n}: {a} (before {b})" for n, (a, b) in enumerate(zip(found, expected), 1) if a != b]
    return different


def test_a_sheet_of_each_game_draws_what_it_drew(tmp_path):
    presets = ["harvest-10x10-a4-ko", "minefield-11x11-letter", "patchwork-a4", "peas-a6-print-shop"]
    made = pdf_digests.make_pdfs(ROOT, tmp_path, presets, giuthi=False)
    assert len(made) == len(presets)
    assert _different_pages(made) == []


@pytest.mark.slow
def test_every_sheet_pdf_draws_what_it_drew(tmp_path):
    made = pdf_digests.make_pdfs(ROOT, tmp_path)
    assert sorted(made) == sorted(REFERENCE["pages"])
    assert _different_pages(made) == []
