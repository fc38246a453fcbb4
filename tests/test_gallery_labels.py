"""The gallery's pictures carry words for a reader: a page's alt text is its document's title and
page, never the PNG's file name."""

from __future__ import annotations

import json
import re
from html import unescape

from click.testing import CliRunner
from pypdf import PdfReader

from printables.cli import main
from printables.gallery import GALLERY, INDEX, RECORD, page_label


def test_a_page_label_is_the_title_and_the_page_of_a_longer_document():
    assert page_label("Rules sheet", 2, 4) == "Rules sheet, page 2 of 4"
    assert page_label("Rules sheet", 1, 1) == "Rules sheet"


def test_every_page_picture_is_named_by_its_documents_title_and_page(tmp_path):
    result = CliRunner().invoke(main, ["build", "--no-slice", "-j", "1", "patchwork-a4", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    reader = PdfReader(tmp_path / "patchwork" / "patchwork-a4.pdf")
    title, pages = reader.metadata.title, len(reader.pages)
    assert title and pages > 1
    record = json.loads((tmp_path / GALLERY / "patchwork-a4" / RECORD).read_text())
    html = (tmp_path / INDEX).read_text()
    alts = dict(re.findall(r'<img src="([^"]+)" alt="([^"]*)"', html))
    page_pngs = [p for p in record["previews"] if p.rsplit("/", 1)[-1].startswith("page-")]
    assert len(page_pngs) == pages
    for n, png in enumerate(page_pngs, 1):
        assert unescape(alts[png]) == f"{title}, page {n} of {pages}"
    assert not any(alt.endswith(".png") for alt in alts.values())
