"""The gallery's page previews: one PNG per page of every PDF, at the gallery's resolution, the same bytes each build."""

from __future__ import annotations

import hashlib

from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from printables.cli import main
from printables.gallery import GALLERY, PREVIEW_DPI


def test_every_page_gets_one_preview_of_its_paper_size_and_rebuilding_gives_the_same_bytes(tmp_path):
    def build() -> dict[str, str]:
        result = CliRunner().invoke(main, ["build", "--no-slice", "-j", "1", "patchwork-a4", "-o", str(tmp_path)])
        assert result.exit_code == 0, result.output
        folder = tmp_path / GALLERY / "patchwork-a4"
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob("page-*.png"))}

    first = build()
    pages = PdfReader(tmp_path / "patchwork" / "patchwork-a4.pdf").pages
    assert sorted(first) == sorted(f"page-{n}.png" for n in range(1, len(pages) + 1))
    for n, page in enumerate(pages, 1):
        width_pt, height_pt = float(page.mediabox.width), float(page.mediabox.height)
        with Image.open(tmp_path / GALLERY / "patchwork-a4" / f"page-{n}.png") as image:
            assert abs(image.width - width_pt * PREVIEW_DPI / 72) <= 1
            assert abs(image.height - height_pt * PREVIEW_DPI / 72) <= 1
            assert image.convert("L").getextrema()[0] < 100  # something dark is drawn, not a blank page
    assert build() == first


def test_a_damaged_pdf_gets_no_preview_and_the_gallery_still_lists_its_failed_checks(tmp_path):
    import json

    from printables.build import build_preset, all_presets
    from printables.gallery import INDEX, add_to_gallery

    preset = next(p for p in all_presets() if p.name == "harvest-10x10-a4")
    built = build_preset(preset, tmp_path, slicer=False)
    pdf = built.paths[0]
    pdf.write_bytes(b"%PDF-1.4\nthis is not a PDF any more\n")
    from printables.check.dispatch import check_file
    from printables.check.results import CheckResult

    results = tuple(CheckResult(f"{pdf.name}: {r.name}", r.ok, r.detail) for r in check_file(pdf))
    assert not all(r.ok for r in results)
    import dataclasses

    add_to_gallery(dataclasses.replace(built, results=results), tmp_path)
    record = json.loads((tmp_path / GALLERY / preset.name / "record.json").read_text())
    assert record["previews"] == []
    assert any(not c["ok"] for c in record["checks"])
    assert "harvest-10x10-a4" in (tmp_path / INDEX).read_text()
