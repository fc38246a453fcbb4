"""Write the stored Patchwork packings (printables/layout/patchwork_packings.json).

Run: python tools/patchwork_packing.py   (after the patches, the lattice or the packing search change;
tests/test_patchwork_sheet.py says when)

For the patch-page lattice of every paper and language at the default square size, and of every
Patchwork preset, it runs the packing search (``pack_patches``) and stores the pages it finds, so a
sheet command reads them instead of searching again. Other lattices are still packed when asked for.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from printables.i18n import LANGS  # noqa: E402
from printables.layout.language import drawing_in  # noqa: E402
from printables.layout import patchwork as lay  # noqa: E402
from printables.paper import SHEET_PAPERS  # noqa: E402
from printables.params.base import from_mapping, load_preset  # noqa: E402
from printables.params.patchwork import PatchworkSheet  # noqa: E402


def lattices() -> set[tuple[int, int]]:
    """The patch-page lattices of the default sheets and of the presets."""
    sheets = [PatchworkSheet(paper=paper, lang=lang) for paper in SHEET_PAPERS for lang in LANGS]
    for path in sorted((ROOT / "templates").glob("*.toml")):
        preset = load_preset(path)
        if preset.kind == "patchwork":
            sheets.append(from_mapping(PatchworkSheet, preset.params, str(path)))
    found = set()
    for sheet in sheets:
        with drawing_in(sheet.lang):  # the page foot, and so the lattice, depends on the language
            found.add(lay.patch_lattice(sheet, lay.cell_size_mm(sheet)))
    return found


def main() -> None:
    table = {}
    for cols, rows in sorted(lattices()):
        pages = lay.pack_patches(cols, rows)
        table[f"{cols}x{rows}"] = [[[p.patch_id, p.orientation, p.row, p.col] for p in page] for page in pages]
        print(f"{cols}x{rows}: {len(pages)} pages")
    lay.PACKINGS_PATH.write_text(json.dumps(table, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {lay.PACKINGS_PATH}")


if __name__ == "__main__":
    main()
