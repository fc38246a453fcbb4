"""Check a Giuthi print settings card against the files beside it and the board's parameters."""

from __future__ import annotations

import json
import re

from printables.check.pdf import PdfDrawing, check_page_size
from printables.check.results import CheckResult
from printables.params.giuthi_seeds import copies_needed

REQUIRED_SETTINGS = {
    "printer": "Dremel DigiLab 3D45",
    "layer height": "0.2 mm",
    "infill": "20 %",
    "no raft": "no raft",
    "profile file": "dremel-3d45-giuthi.ini",
}


def check_print_card(drawing: PdfDrawing) -> list[CheckResult]:
    """The card states the user's settings, names parts that exist, and orders enough seeds."""
    text = " ".join(page.text for page in drawing.pages)
    flat = " ".join(text.split())
    results = [check_page_size(drawing, "a4", False)]
    results.append(CheckResult("one page", len(drawing.pages) == 1, f"{len(drawing.pages)} page(s)"))
    missing = [name for name, words in REQUIRED_SETTINGS.items() if words not in flat]
    results.append(CheckResult("settings", not missing, f"missing: {', '.join(missing)}" if missing else "printer, 0.2 mm layers, 20 % infill, no raft, profile"))
    folder = drawing.path.parent
    named = sorted(set(re.findall(r"(giuthi-[\w.-]+?\.stl)", flat)))
    absent = [n for n in named if not (folder / n).exists()]
    results.append(CheckResult("parts exist", bool(named) and not absent,
                               f"absent beside the card: {', '.join(absent)}" if absent else f"{len(named)} STL file(s) named, all present"))
    manifests = sorted(folder.glob("giuthi-board-*.json"))
    match = re.search(r"(\d+) prints x (\d+) = (\d+) seeds for (\d+)", flat)
    if not manifests or match is None:
        results.append(CheckResult("seed copies", False, "no board manifest beside the card" if not manifests else "no seed count on the card"))
        return results
    params = json.loads(manifests[0].read_text())["params"]
    n, s = params["pits_per_row"], params["seeds_per_pit"]
    prints, per_print, made, needed = (int(v) for v in match.groups())
    want = copies_needed(n, s, per_print)
    ok = prints == want and made == prints * per_print and needed == 2 * n * s and made >= needed
    results.append(CheckResult("seed copies", ok, f"{prints} prints x {per_print} = {made} seeds for {needed} (2x{n} board, {s} per pit; expected {want} prints)"))
    return results
