"""Check a Giuthi print settings card against the files beside it and the board's parameters.

The card may be in any of the catalogues' languages (its subject records ``lang``): the phrases
looked for are the catalogue's words for them, and the numbers are read out of those phrases
(printables/i18n/<lang>.toml, ``[phrase]``), then compared with the manifest as for English.
"""

from __future__ import annotations

import json
import re

from printables.check.bounds import bounds_problem
from printables.check.pdf import PdfDrawing, check_page_size
from printables.check.language import lang_of, said, said_regex
from printables.check.results import CheckResult
from printables.params.giuthi_seeds import copies_needed

REQUIRED_SETTINGS = {
    "printer": "Dremel DigiLab 3D45",
    "layer height": "0.2 mm",
    "infill": "20 %",
    "no raft": "no raft",
    "profile file": "dremel-3d45-giuthi.ini",
}
# How the card says to get the print onto a 3D45: the slicers and what to set in them.
TO_PRINTER = {
    "PrusaSlicer with the profile": "open a part's .3mf (beside its .stl, same name): the Dremel DigiLab 3D45 profile comes inside it",
    "Dremel DigiLab 3D Slicer": "Dremel DigiLab 3D Slicer",
    "Cura": "Cura",
    "0.2 mm layers": "0.2 mm layers",
    "20 % infill": "20 % infill",
    "no supports": "no supports",
    "no raft": "no raft",
    "USB stick": "USB stick",
}
NUMBER_TOLERANCE = 0.051  # the card prints sizes to 0.1 mm
NUMBER = r"[\d.]+"
WHOLE = r"\d+"
# The card's numbered phrases (English; each language's words from its catalogue), field -> regex.
SEED_COPIES = "{prints} prints x {per} = {made} seeds for {needed}"
SEED_COUNTS = "{prints} prints x {per} = {made} seeds for {needed} ({pits} pits x {s})"
BEAN_SIZE = "beans {l} x {w} x {h} mm (long x wide x high)"
BAND_PATH = "({path} mm path)"
CLOSED = "closed {x} x {y} x {z} mm"
HALF = "each half {x} x {y} x {z} mm"
SCREWS = "{count} x {screw} pan-head self-tapping screws for plastic, {length} mm"
BOARD = "board 2x{n}, {s} seeds per pit"
FIELDS = {"prints": WHOLE, "per": WHOLE, "made": WHOLE, "needed": WHOLE, "pits": WHOLE, "s": WHOLE, "n": WHOLE,
          "count": WHOLE, "l": NUMBER, "w": NUMBER, "h": NUMBER, "x": NUMBER, "y": NUMBER, "z": NUMBER,
          "path": NUMBER, "length": NUMBER, "screw": r"No\. \d+ \([\d.]+ mm\)|M[\d.]+"}


def _find(lang: str, english: str, flat: str):
    """The first place ``flat`` says ``english`` (in ``lang``), each field a named group, or None."""
    fields = {name: f"(?P<{name}>{regex})" for name, regex in FIELDS.items()}
    return re.search(said_regex(lang, english, **fields), flat)


def _params(drawing) -> dict:
    try:
        params = drawing.parameters()
    except ValueError:  # a card made before the subject held parameters: English
        return {}
    return params if isinstance(params, dict) else {}


def check_print_card(drawing: PdfDrawing) -> list[CheckResult]:
    """The card states the user's settings, names parts that exist, and orders enough seeds."""
    text = " ".join(page.text for page in drawing.pages)
    flat = " ".join(text.split())
    lang = lang_of(_params(drawing))
    results = [check_page_size(drawing, "a4", False)]
    results.append(CheckResult("one page", len(drawing.pages) == 1, f"{len(drawing.pages)} page(s)"))
    missing = [name for name, words in REQUIRED_SETTINGS.items() if said(lang, words) not in flat]
    results.append(CheckResult("settings", not missing, f"missing: {', '.join(missing)}" if missing else "printer, 0.2 mm layers, 20 % infill, no raft, profile"))
    missing = [name for name, words in TO_PRINTER.items() if said(lang, words) not in flat]
    results.append(CheckResult("onto the 3D45", not missing, f"missing: {', '.join(missing)}" if missing
                               else "PrusaSlicer with the profile, DigiLab 3D Slicer or Cura settings, USB stick"))
    folder = drawing.path.parent
    named = sorted(set(re.findall(r"(giuthi-[\w.-]+?\.stl)", flat)))
    absent = [n for n in named if not (folder / n).exists()]
    results.append(CheckResult("parts exist", bool(named) and not absent,
                               f"absent beside the card: {', '.join(absent)}" if absent else f"{len(named)} STL file(s) named, all present"))
    no_3mf = [n for n in named if not (folder / n).with_suffix(".3mf").exists()]
    results.append(CheckResult("3MF beside each part", bool(named) and not no_3mf,
                               f"no .3mf for {', '.join(no_3mf)}" if no_3mf else f"{len(named)} 3MF file(s), one per part"))
    manifests = sorted(folder.glob("giuthi-board-*.json"))
    problem = bounds_problem(manifests[0]) if manifests else None  # a pipe or a huge file is never read
    if problem is not None:
        return results + [problem]
    if manifests:
        results += check_against_manifest(flat, json.loads(manifests[0].read_text()), folder, lang)
    match = _find(lang, SEED_COPIES, flat)
    if not manifests or match is None:
        results.append(CheckResult("seed copies", False, "no board manifest beside the card" if not manifests else "no seed count on the card"))
        return results
    params = json.loads(manifests[0].read_text())["params"]
    n, s = params["pits_per_row"], params["seeds_per_pit"]
    prints, per_print, made, needed = (int(match.group(k)) for k in ("prints", "per", "made", "needed"))
    want = copies_needed(n, s, per_print)
    ok = prints == want and made == prints * per_print and needed == 2 * n * s and made >= needed
    results.append(CheckResult("seed copies", ok, f"{prints} prints x {per_print} = {made} seeds for {needed} (2x{n} board, {s} per pit; expected {want} prints)"))
    return results


def _numbers(match, names=("x", "y", "z")) -> list[float]:
    return [float(match.group(name)) for name in names]


def _check_seeds(flat: str, manifest: dict, lang: str = "en") -> list[CheckResult]:
    """The card's bean size, sprue file and seed counts are the manifest's, and it says how they print."""
    seeds = manifest.get("seeds")
    if not isinstance(seeds, dict):
        return [CheckResult("seeds = manifest", False, "no 'seeds' entry in the manifest")]
    problems = []
    size = _find(lang, BEAN_SIZE, flat)
    want_size = [float(v) for v in seeds["size_mm"]]
    if size is None:
        problems.append("no bean size (beans L x W x H mm) on the card")
    elif any(abs(a - b) > NUMBER_TOLERANCE for a, b in zip(_numbers(size, ("l", "w", "h")), want_size)):
        problems.append(f"card {size.group(0)}, manifest {' x '.join(f'{v:g}' for v in want_size)} mm")
    params = manifest["params"]
    if (want_size[0], want_size[2]) != (params.get("seed_diameter_mm"), params.get("seed_height_mm")):
        problems.append(f"manifest seeds {want_size[0]:g} long, {want_size[2]:g} high; board made for"
                        f" {params.get('seed_diameter_mm')} x {params.get('seed_height_mm')}")
    named = sorted(set(re.findall(r"(giuthi-seeds-[\w.-]+?\.stl)", flat)))
    if named != [seeds["file"]]:
        problems.append(f"card names {', '.join(named) or 'no sprue'}, manifest {seeds['file']}")
    counts = _find(lang, SEED_COUNTS, flat)
    n, s = int(params["pits_per_row"]), int(params["seeds_per_pit"])
    want_counts = (seeds["prints"], seeds["per_print"], seeds["prints"] * seeds["per_print"], seeds["needed"], 2 * n, s)
    if counts is None or tuple(int(counts.group(k)) for k in ("prints", "per", "made", "needed", "pits", "s")) != want_counts:
        problems.append(f"card {counts.group(0) if counts else 'no seed count'}; manifest"
                        " {} prints x {} = {} seeds for {} ({} pits x {})".format(*want_counts))
    if said(lang, "flat side down") not in flat:
        problems.append("the card does not say the beans print flat side down")
    detail = "; ".join(problems) or (f"beans {' x '.join(f'{v:g}' for v in want_size)} mm, {seeds['prints']} prints"
                                     f" x {seeds['per_print']} for {seeds['needed']} seeds, flat side down")
    return [CheckResult("seeds = manifest", not problems, detail)]


def check_against_manifest(flat: str, manifest: dict, folder, lang: str = "en") -> list[CheckResult]:
    """Band path, sizes and screws on the card are the manifest's numbers; the files it lists exist."""
    from printables.params.giuthi_board import GiuthiBoardParams

    results = []
    band = _find(lang, BAND_PATH, flat)
    want = float(manifest["band_loop_mm"])
    ok = band is not None and abs(float(band.group("path")) - want) < 1e-9
    results.append(CheckResult("band path = manifest", ok, f"card {band.group('path') if band else 'none'} mm, manifest {want:g} mm"))
    closed = _find(lang, CLOSED, flat)
    want_closed = [float(v) for v in manifest["closed_size_mm"]]
    ok = closed is not None and all(abs(a - b) <= NUMBER_TOLERANCE for a, b in zip(_numbers(closed), want_closed))
    results.append(CheckResult("closed size = manifest", ok, f"card {closed.group(0) if closed else 'none'};"
                               f" manifest {' x '.join(f'{v:.1f}' for v in want_closed)} mm"))
    half = _find(lang, HALF, flat)
    want_half = GiuthiBoardParams(**manifest["params"]).half_size_mm()
    ok = half is not None and all(abs(a - b) <= NUMBER_TOLERANCE for a, b in zip(_numbers(half), want_half))
    results.append(CheckResult("half size = parameters", ok, f"card {half.group(0) if half else 'none'};"
                               f" parameters {' x '.join(f'{v:.1f}' for v in want_half)} mm"))
    screws = _find(lang, SCREWS, flat)
    want_screws = (int(manifest["screws"]["count"]), float(manifest["screws"]["length_mm"]))
    ok = screws is not None and (int(screws.group("count")), float(screws.group("length"))) == want_screws
    results.append(CheckResult("screws = manifest", ok, f"card {screws.group(0) if screws else 'none'};"
                               f" manifest {want_screws[0]} x {want_screws[1]:g} mm"))
    results += _check_seeds(flat, manifest, lang)
    board = _find(lang, BOARD, flat)
    want_board = (int(manifest["params"]["pits_per_row"]), int(manifest["params"]["seeds_per_pit"]))
    ok = board is not None and (int(board.group("n")), int(board.group("s"))) == want_board
    results.append(CheckResult("board = manifest", ok, f"card {board.group(0) if board else 'none'};"
                               f" manifest 2x{want_board[0]}, {want_board[1]} seeds per pit"))
    listed = [manifest.get("rules", {}).get("file")] + list(manifest.get("3mf", {}).values())
    absent = [str(n) for n in listed if not n or not (folder / str(n)).exists()]
    ok = bool(manifest.get("rules")) and bool(manifest.get("3mf")) and not absent
    results.append(CheckResult("set files", ok, f"absent or not listed: {', '.join(absent) or 'rules or 3mf entry'}" if not ok
                               else f"manifest lists the rules sheet and {len(manifest['3mf'])} 3MF file(s), all present"))
    return results
