"""Patchwork print-and-play: parameters, layout, CLI, and the check that reads the PDF back."""

from __future__ import annotations

import dataclasses
import json
import math
from collections import Counter

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from printables.check.patchwork import check_patchwork
from printables.check.pdf import read_pdf
from printables.cli import main
from printables.errors import ParameterError
from printables.layout import patchwork as lay
from printables.layout.primitives import Circle, Line, Polygon, Rect, Text
from printables.params.base import from_mapping
from printables.params.patchwork import PatchworkSheet
from printables.render.pdf import render_pdf
from printables.rules import patchwork as rules
from printables.sheets import render_sheet


def _results(document, tmp_path, name="sheet.pdf"):
    path = tmp_path / name
    path.write_bytes(render_pdf(document))
    return {r.name: r for r in check_patchwork(read_pdf(path))}


@pytest.fixture(scope="module")
def a4_document():
    return lay.layout(PatchworkSheet())


# ---------------------------------------------------------------------------------------------
# Parameters


def test_defaults_and_file_stems():
    assert PatchworkSheet().file_stem() == "patchwork-a4"
    assert PatchworkSheet(paper="letter").file_stem() == "patchwork-letter"
    assert PatchworkSheet(ink="low").file_stem() == "patchwork-a4-low-ink"
    assert (
        PatchworkSheet(part="track", paper="a5", cell_mm=12, leather="revised", ink="low").file_stem()
        == "patchwork-track-a5-12mm-revised-low-ink"
    )
    assert PatchworkSheet().parts() == ("patches", "quilts", "track", "extras")
    assert PatchworkSheet(part="quilts").parts() == ("quilts",)


@pytest.mark.parametrize(
    "changes, word",
    [
        ({"part": "board"}, "part 'board'"),
        ({"paper": "a3"}, "paper 'a3'"),
        ({"cell_mm": 9.5}, "cell 9.5 mm"),
        ({"cell_mm": 31}, "cell 31 mm"),
        ({"cell_mm": "big"}, "cell 'big'"),
        ({"leather": "deluxe"}, "leather 'deluxe'"),
        ({"ink": "none"}, "ink 'none'"),
    ],
)
def test_bad_parameters_are_named(changes, word):
    with pytest.raises(ParameterError, match=word):
        PatchworkSheet(**changes)


def test_unknown_preset_key_is_an_error():
    with pytest.raises(ParameterError, match="unknown key 'colour'"):
        from_mapping(PatchworkSheet, {"paper": "a4", "colour": "red"})


def test_default_cell_fits_the_quilt_on_each_paper():
    # A4: 190 mm between the margins holds 9 squares of 20 mm with the 3 mm frame (186 mm).
    assert lay.cell_size_mm(PatchworkSheet(paper="a4")) == 20.0
    # Letter and A5 are limited by the height left under the header and above the publisher's
    # box, ruler and footer: Letter leaves 205.7 mm, less the label (6), frames (6) and notes
    # (4 lines, 13.6): 180.1 / 9 = 20.01, so 20 mm. A5 leaves 132.9 mm: 107.3 / 9 = 11.9, so 11.5.
    _, _, width, height = lay._inner(PatchworkSheet(paper="letter"))
    assert (width, round(height, 1)) == (195.9, 205.7)
    assert lay.cell_size_mm(PatchworkSheet(paper="letter")) == 20.0
    assert lay.cell_size_mm(PatchworkSheet(paper="a5")) == 11.5


def test_a_cell_too_large_for_the_paper_names_what_fits():
    with pytest.raises(ParameterError, match=r"cell 21 mm: the 9x9 quilt does not fit a4 paper; use 10 to 20\.4 mm"):
        lay.layout(PatchworkSheet(cell_mm=21))


# ---------------------------------------------------------------------------------------------
# Layout pieces


def test_stitching_of_an_l_tromino():
    # #.      The outline has 5 convex corners and 1 concave one and is 8 squares long. Moving it
    # ##      1 mm inwards takes 2 mm off at each convex corner and adds 2 mm at the concave one.
    cells = frozenset({(0, 0), (1, 0), (1, 1)})
    lines = lay.stitch_lines(cells, 0.0, 0.0, 10.0, 1.0)
    length = sum(math.hypot(x2 - x1, y2 - y1) for x1, y1, x2, y2 in lines)
    assert length == pytest.approx(8 * 10 - 5 * 2 + 1 * 2)
    assert len(lines) == 6  # one straight run per side of the L
    assert (1.0, 1.0, 1.0, 19.0) in [tuple(round(v, 6) for v in line) for line in lines]  # the left side


def test_packing_places_every_patch_once_without_overlap():
    for cols, rows in ((9, 12), (9, 11)):  # A4 and Letter at 20 mm
        pages = lay.pack_patches(cols, rows)
        # Fewest pages possible: 166 squares need at least ceil(166 / (cols * rows)) pages.
        assert len(pages) == -(-sum(len(p.shape) for p in rules.PATCHES) // (cols * rows)) == 2
        ids = Counter(p.patch_id for page in pages for p in page)
        assert ids == Counter(range(len(rules.PATCHES)))
        for page in pages:
            cells = [c for p in page for c in p.cells()]
            assert len(cells) == len(set(cells))
            assert all(0 <= r < rows and 0 <= c < cols for r, c in cells)


def test_the_stored_packings_are_what_the_search_finds():
    stored = lay.stored_packings()
    assert stored, "printables/layout/patchwork_packings.json is missing: run tools/patchwork_packing.py"
    for lattice, pages in stored.items():
        cols, rows = map(int, lattice.split("x"))
        found = [[[p.patch_id, p.orientation, p.row, p.col] for p in page] for page in lay.pack_patches(cols, rows)]
        assert pages == found, f"stored packing of {lattice} is stale: run tools/patchwork_packing.py"
        assert lay.packed_patches(cols, rows) == lay.pack_patches(cols, rows)


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
def test_a_default_sheet_reads_its_packing_instead_of_searching(paper, monkeypatch):
    monkeypatch.setattr(lay, "pack_patches", lambda cols, rows: pytest.fail(f"searched a packing of {cols}x{rows}"))
    sheet = PatchworkSheet(part="patches", paper=paper)
    assert len(lay.layout(sheet).pages) == 2


def test_a_lattice_not_stored_is_packed_when_asked_for(monkeypatch):
    monkeypatch.setattr(lay, "stored_packings", lambda: {})
    sheet = PatchworkSheet(part="patches")
    searched = []
    real = lay.pack_patches
    monkeypatch.setattr(lay, "pack_patches", lambda cols, rows: searched.append((cols, rows)) or real(cols, rows))
    assert len(lay.layout(sheet).pages) == 2 and len(searched) == 1


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=100, max_value=204))
def test_any_cell_size_packs_every_patch_inside_the_page(tenths):
    sheet = PatchworkSheet(part="patches", cell_mm=tenths / 10)
    cell = lay.cell_size_mm(sheet)
    cols, rows = lay.patch_lattice(sheet, cell)
    x0, y0 = lay.patch_origin(sheet, cell)
    page_w, page_h = 210.0, 297.0
    assert x0 >= 10.0 and x0 + cols * cell <= page_w - 10.0 + 1e-9
    box_top = min(i.y for i in lay.layout(sheet).pages[0].items if isinstance(i, Rect) and i.stroke == 0.45)
    assert y0 + rows * cell <= box_top - 3.0 + 1e-9  # above the publisher's box, ruler and footer
    pages = lay.pack_patches(cols, rows)
    assert sorted(p.patch_id for page in pages for p in page) == list(range(len(rules.PATCHES)))


@pytest.mark.parametrize("size", [8.0, 9.5, 12.0, 14.0, 16.0])
def test_track_spaces_follow_each_other_one_pitch_apart_and_the_laps_stand_apart(size):
    spaces = lay.spiral_spaces(size)
    assert [s.position for s in spaces] == list(range(rules.TRACK_POSITIONS))
    assert (spaces[-1].cx, spaces[-1].cy) == (0.0, 0.0)  # 53 in the centre
    pitch, step_gap, lap_gap = lay.track_pitch_mm(size), lay.space_gap_mm(size), lay.lap_gap_mm(size)
    for a, b in zip(spaces[:-2], spaces[1:-1]):  # every step is one pitch, centre to centre
        assert math.hypot(a.cx - b.cx, a.cy - b.cy) == pytest.approx(pitch, abs=1e-6)
    last, centre = spaces[-2], spaces[-1]  # into the centre: the same gap between rims
    assert math.hypot(last.cx, last.cy) - last.r - centre.r == pytest.approx(step_gap, abs=1e-6)
    for i, a in enumerate(spaces):  # spaces that do not follow each other: at least a lap apart
        for b in spaces[i + 2:]:
            assert math.hypot(a.cx - b.cx, a.cy - b.cy) - a.r - b.r >= lap_gap - 1e-6, (a.position, b.position)
    assert lap_gap >= 1.5 * step_gap


@pytest.mark.parametrize("size", [8.0, 12.0, 16.0])
def test_the_track_runs_straight_and_turns_clockwise_inwards(size):
    spaces = lay.spiral_spaces(size)
    # Square: most steps run along x or y.
    straight = sum(1 for a, b in zip(spaces[:-1], spaces[1:]) if min(abs(a.cx - b.cx), abs(a.cy - b.cy)) < 1e-6)
    assert straight >= 0.6 * rules.FINAL_POSITION
    # Walking inwards the path turns clockwise on the page (y down): positive cross products.
    turns = [(b.cx - a.cx) * (c.cy - b.cy) - (b.cy - a.cy) * (c.cx - b.cx) for a, b, c in zip(spaces, spaces[1:], spaces[2:])]
    assert all(t >= -1e-6 for t in turns) and sum(t > 1e-6 for t in turns) >= 8
    # Space 0 starts on the top run, heading right.
    assert spaces[0].cy == pytest.approx(min(s.cy for s in spaces)) and spaces[1].cx > spaces[0].cx


# ---------------------------------------------------------------------------------------------
# CLI


def test_help():
    result = CliRunner().invoke(main, ["patchwork", "--help"])
    assert result.exit_code == 0
    for option in ("--part", "--paper", "--cell", "--leather", "--ink", "--output"):
        assert option in result.output


def test_cli_writes_the_default_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["patchwork", "--part", "track", "--leather", "revised"])
    assert result.exit_code == 0, result.output
    path = tmp_path / "output" / "patchwork" / "patchwork-track-a4-revised.pdf"
    assert result.output.strip() == str(path.relative_to(tmp_path))
    checks = {r.name: r for r in check_patchwork(read_pdf(path))}
    assert all(r.ok for r in checks.values()), checks
    assert "[26, 32, 38, 44, 50]" in checks["leather spaces"].detail


@pytest.mark.parametrize(
    "args",
    [
        ["--part", "board"],
        ["--paper", "a3"],
        ["--cell", "9"],
        ["--cell", "21"],  # larger than the quilt allows on A4
        ["--cell", "wide"],
        ["--leather", "deluxe"],
        ["--ink", "none"],
    ],
)
def test_bad_options_exit_2_and_write_nothing(tmp_path, args):
    out = tmp_path / "x.pdf"
    result = CliRunner().invoke(main, ["patchwork", *args, "-o", str(out)])
    assert result.exit_code == 2
    assert result.output.startswith("Error:") and result.output.count("\n") == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------------------------
# The check passes on good sheets ...


def test_a4_sheet_passes_every_check(a4_document, tmp_path):
    results = _results(a4_document, tmp_path)
    assert all(r.ok for r in results.values()), [str(r) for r in results.values() if not r.ok]
    assert len(a4_document.pages) == 6  # 2 of patches, 2 quilts, the track, the extras
    assert "all 33 patches" in results["patches"].detail
    assert "[5, 11, 17, 23, 29, 35, 41, 47, 53]" in results["income spaces"].detail
    assert "[20, 26, 32, 44, 50]" in results["leather spaces"].detail


@pytest.mark.parametrize(
    "sheet, pages",
    [
        (PatchworkSheet(paper="letter"), 6),
        # A5: the track's rules and the button bank each get a page of their own.
        (PatchworkSheet(paper="a5", ink="low"), 8),
        (PatchworkSheet(cell_mm=10, leather="revised"), 5),  # all patches on one page
    ],
)
def test_other_sheets_pass_every_check(sheet, pages, tmp_path):
    document = lay.layout(sheet)
    assert len(document.pages) == pages
    results = _results(document, tmp_path)
    assert all(r.ok for r in results.values()), [str(r) for r in results.values() if not r.ok]
    # Every word, measured with the real font, stays inside the 10 mm margins.
    drawing = read_pdf(tmp_path / "sheet.pdf")
    outside = [(i + 1, w.text) for i, page in enumerate(drawing.pages) for w in page.words
               if w.x0 < 10.0 - 0.2 or w.x1 > page.width - 10.0 + 0.2]
    assert outside == []


def test_low_ink_has_no_coloured_fill(tmp_path):
    document = lay.layout(PatchworkSheet(ink="low", part="patches"))
    fills = {item.fill for page in document.pages for item in page.items if getattr(item, "fill", None) is not None}
    assert fills <= {1.0}  # white: paper, no ink


def test_output_is_byte_identical_twice():
    sheet = PatchworkSheet(part="patches", paper="letter")
    assert render_sheet("patchwork", sheet) == render_sheet("patchwork", sheet)


# ---------------------------------------------------------------------------------------------
# ... and fails on wrong ones


def _first_patch_box(sheet: PatchworkSheet):
    """The first patch on page 1 and the page rectangles (x0, y0, x1, y1) of its squares."""
    cell = lay.cell_size_mm(sheet)
    cols, rows = lay.patch_lattice(sheet, cell)
    placed = lay.pack_patches(cols, rows)[0][0]
    x0, y0 = lay.patch_origin(sheet, cell)
    squares = [(x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell) for r, c in sorted(placed.cells())]
    return placed, squares


def _anchor(item):
    if isinstance(item, Rect):
        return item.x + item.w / 2, item.y + item.h / 2
    if isinstance(item, Circle):
        return item.cx, item.cy
    if isinstance(item, Text):
        return item.x, item.y - 1.0
    if isinstance(item, Polygon):
        return sum(x for x, _ in item.points) / len(item.points), sum(y for _, y in item.points) / len(item.points)
    return (item.x1 + item.x2) / 2, (item.y1 + item.y2) / 2


def _with_page(document, index, items):
    pages = list(document.pages)
    pages[index] = dataclasses.replace(pages[index], items=tuple(items))
    return dataclasses.replace(document, pages=tuple(pages))


def test_check_fails_when_a_patch_is_missing(tmp_path):
    sheet = PatchworkSheet(part="patches")
    document = lay.layout(sheet)
    placed, squares = _first_patch_box(sheet)

    def on_patch(item):
        x, y = _anchor(item)
        return any(x0 < x < x1 and y0 < y < y1 for x0, y0, x1, y1 in squares)

    kept = [item for item in document.pages[0].items if not on_patch(item)]
    assert len(kept) < len(document.pages[0].items) - len(squares)  # squares, stitching and numbers went
    results = _results(_with_page(document, 0, kept), tmp_path)
    assert not results["patches"].ok
    assert f"missing: patch {placed.patch_id} " in results["patches"].detail


def test_check_fails_on_a_wrong_number(tmp_path):
    sheet = PatchworkSheet(part="patches")
    document = lay.layout(sheet)
    placed, squares = _first_patch_box(sheet)
    patch = rules.PATCHES[placed.patch_id]
    x0, y0, x1, y1 = squares[0]
    items = list(document.pages[0].items)
    # The cost is the number in the first square's top left quarter.
    i = next(i for i, it in enumerate(items) if isinstance(it, Text) and it.text == str(patch.cost)
             and x0 < it.x < (x0 + x1) / 2 and y0 < it.y < (y0 + y1) / 2)
    items[i] = dataclasses.replace(items[i], text=str(patch.cost + 1))
    results = _results(_with_page(document, 0, items), tmp_path)
    assert not results["patches"].ok
    assert f"missing: patch {patch.id} " in results["patches"].detail
    assert f"cost {patch.cost + 1} time {patch.time}" in results["patches"].detail


def test_check_tells_twin_shapes_apart_by_their_numbers(tmp_path):
    # Patches 25 and 26 are both  .#  ; printing 26 with 25's cost and time gives two 25s, no 26.
    #                             ##
    assert rules.canonical_shape(rules.PATCHES[25].shape) == rules.canonical_shape(rules.PATCHES[26].shape)
    document = lay.layout(PatchworkSheet(part="patches", cell_mm=10))  # one page of patches
    cell = 10.0
    cols, rows = lay.patch_lattice(PatchworkSheet(part="patches", cell_mm=10), cell)
    x0, y0 = lay.patch_origin(PatchworkSheet(part="patches", cell_mm=10), cell)
    placed = next(p for p in lay.pack_patches(cols, rows)[0] if p.patch_id == 26)
    r, c = min(placed.cells())
    lx, ly = x0 + c * cell, y0 + r * cell
    items = list(document.pages[0].items)
    for i, it in enumerate(items):
        if isinstance(it, Text) and lx < it.x < lx + cell and ly < it.y < ly + cell:
            # cost 1 -> 3 and time 3 -> 1
            items[i] = dataclasses.replace(it, text={"1": "3", "3": "1"}[it.text])
    results = _results(_with_page(document, 0, items), tmp_path)
    assert not results["patches"].ok
    assert "missing: patch 26 " in results["patches"].detail
    assert "extra: patch 25 .#/## cost 3 time 1 income 0" in results["patches"].detail


def test_check_fails_when_quilt_squares_differ_from_patch_squares(a4_document, tmp_path):
    smaller = lay.layout(PatchworkSheet(cell_mm=19.5))
    pages = [p for p in a4_document.pages]
    # Pages 3 and 4 are the quilts: take them from the 19.5 mm sheet.
    pages[2], pages[3] = smaller.pages[2], smaller.pages[3]
    results = _results(dataclasses.replace(a4_document, pages=tuple(pages)), tmp_path)
    assert results["quilts"].ok and results["patches"].ok
    assert not results["square size"].ok
    assert "quilt squares are 19.50 to 19.50 mm, the sheet says 20 mm" in results["square size"].detail
    assert "patch and quilt squares differ" in results["square size"].detail


def test_check_fails_without_cut_lines(tmp_path):
    document = lay.layout(PatchworkSheet(part="patches"))
    items = [it for it in document.pages[0].items
             if not (isinstance(it, Line) and it.stroke == lay.CUT_GREY and it.line_mm == lay.CUT_LINE_MM)]
    results = _results(_with_page(document, 0, items), tmp_path)
    assert not results["cut lines"].ok
    assert not results["patches"].ok  # touching patches run together into shapes not in the game


def test_check_fails_when_the_track_shows_another_edition(tmp_path):
    document = lay.layout(PatchworkSheet(part="track"))  # drawn for the classic edition
    subject = json.loads(document.subject)
    subject["leather"] = "revised"
    results = _results(dataclasses.replace(document, subject=json.dumps(subject, sort_keys=True)), tmp_path)
    assert not results["edition"].ok
    assert results["edition"].detail == "printed: classic; the sheet says revised"


def test_check_fails_when_a_leather_mark_is_missing(tmp_path):
    document = lay.layout(PatchworkSheet(part="track"))
    # Leather marks are the only small squares with a leather fill on the track page; drop the first.
    marks = [i for i, it in enumerate(document.pages[0].items) if isinstance(it, Rect) and it.fill == lay.LEATHER_BROWN]
    items = [it for i, it in enumerate(document.pages[0].items) if i != marks[0]]
    results = _results(_with_page(document, 0, items), tmp_path)
    assert not results["leather spaces"].ok
    assert "leather on [26, 32, 44, 50]" in results["leather spaces"].detail


# ---------------------------------------------------------------------------------------------
# Printing at home: cut lines, tokens, advice, the publisher's box


def _with_items(document, index, items):
    pages = list(document.pages)
    page = pages[index]
    pages[index] = dataclasses.replace(page, items=tuple(items))
    return dataclasses.replace(document, pages=tuple(pages))


@pytest.mark.parametrize("ink", ["full", "low"])
def test_cut_lines_are_one_solid_dark_line_and_stitching_is_white_inside_or_absent(ink):
    document = lay.layout(PatchworkSheet(part="patches", ink=ink))
    lines = [i for page in document.pages for i in page.items if isinstance(i, Line)]
    cuts = [i for i in lines if i.dash_mm is None and i.stroke == lay.CUT_GREY]
    dashed = [i for i in lines if i.dash_mm is not None]
    assert cuts and all(i.line_mm == lay.CUT_LINE_MM for i in cuts)
    if ink == "low":
        assert dashed == []  # the cut line is the low-ink patch's only outline
    else:
        assert dashed and {i.stroke for i in dashed} == {1.0}  # white stitching on colour
        # 2 mm inside the piece on 20 mm squares: no stitch lies on or near a cut line.
        def near(d, c):
            if c.x1 == c.x2 and d.x1 == d.x2:
                return abs(d.x1 - c.x1) < 1.9 and min(d.y1, d.y2) < max(c.y1, c.y2) and max(d.y1, d.y2) > min(c.y1, c.y2)
            if c.y1 == c.y2 and d.y1 == d.y2:
                return abs(d.y1 - c.y1) < 1.9 and min(d.x1, d.x2) < max(c.x1, c.x2) and max(d.x1, d.x2) > min(c.x1, c.x2)
            return False
        first = document.pages[0].items
        assert not any(near(d, c) for d in dashed[:200] if d in first for c in cuts if c in first)


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
def test_time_tokens_are_at_least_12_mm_with_a_spare_each(paper, tmp_path):
    document = lay.layout(PatchworkSheet(part="extras", paper=paper))
    results = _results(document, tmp_path)
    assert results["extras"].ok, results["extras"].detail
    discs = [i for page in document.pages for i in page.items if isinstance(i, Circle)
             and any(isinstance(t, Text) and t.text in ("P1", "P2") and abs(t.x - i.cx) < 1e-6 for t in page.items)]
    assert len(discs) == 4 and min(2 * c.r for c in discs) >= 12.0


def test_check_fails_on_small_time_tokens_or_no_spare(tmp_path):
    document = lay.layout(PatchworkSheet(part="extras"))
    page = document.pages[-1] if len(document.pages) == 1 else document.pages[0]
    index = document.pages.index(page)
    shrunk = [dataclasses.replace(i, r=4.75) if isinstance(i, Circle) and i.r >= 6.0 and any(
        isinstance(t, Text) and t.text in ("P1", "P2") and abs(t.x - i.cx) < 1e-6 for t in page.items) else i for i in page.items]
    results = _results(_with_items(document, index, shrunk), tmp_path)
    assert not results["extras"].ok and "9.5 mm across, at least 12 mm" in results["extras"].detail
    seen = set()
    one_each = []
    for i in page.items:
        if isinstance(i, Text) and i.text in ("P1", "P2"):
            if i.text in seen:
                continue
            seen.add(i.text)
        one_each.append(i)
    results = _results(_with_items(document, index, one_each), tmp_path, "nospare.pdf")
    assert not results["extras"].ok and "1 time token(s) P1, expected one and a spare" in results["extras"].detail


@pytest.mark.parametrize("part", ["patches", "quilts", "track", "extras"])
@pytest.mark.parametrize("paper", ["a4", "a5"])
def test_every_part_on_every_paper_has_the_publishers_box_and_card_advice(part, paper, tmp_path):
    results = _results(lay.layout(PatchworkSheet(part=part, paper=paper)), tmp_path)
    assert all(r.ok for r in results.values()), [str(r) for r in results.values() if not r.ok]
    assert results["publisher's box"].ok and results["card advice"].ok


def test_check_fails_without_the_publishers_box_or_the_advice(tmp_path):
    document = lay.layout(PatchworkSheet(part="track"))
    kept = [i for i in document.pages[0].items if not (isinstance(i, Text) and ("Players:" in i.text or "Print on card" in i.text))]
    results = _results(_with_items(document, 0, kept), tmp_path)
    assert not results["publisher's box"].ok and "Players: 2" in results["publisher's box"].detail
    assert not results["card advice"].ok and "page(s) [1]" in results["card advice"].detail


# ---------------------------------------------------------------------------------------------
# The time track as a path (issue 24): measured from the PDF, never from the layout

DATA = __import__("pathlib").Path(__file__).parent / "data"
TRACK_CHECKS = ("track positions", "track pitch", "track laps", "track path", "track arrows")


def test_the_check_fails_the_old_oval_spiral():
    # tests/data/patchwork-track-oval-spiral.pdf: `patchwork --part track` as made before issue 24,
    # an oval spiral whose laps crowd each other, linked by faint dashes.
    results = {r.name: r for r in check_patchwork(read_pdf(DATA / "patchwork-track-oval-spiral.pdf"))}
    assert not results["track laps"].ok
    assert "2 and 25 (3.4 mm)" in results["track laps"].detail  # 25 beside 2, as the issue saw
    assert not results["track arrows"].ok and "no arrowhead from 0 to 1" in results["track arrows"].detail


@pytest.mark.parametrize("options", [{}, {"paper": "letter"}, {"paper": "a5"}, {"ink": "low"}, {"lang": "ko"},
                                     {"lang": "tr"}, {"leather": "revised"}])
def test_every_track_is_an_even_square_spiral_with_arrows(tmp_path, options):
    document = render_sheet("patchwork", PatchworkSheet(part="track", **options))
    path = tmp_path / "track.pdf"
    path.write_bytes(document)
    results = {r.name: r for r in check_patchwork(read_pdf(path))}
    assert all(results[name].ok for name in TRACK_CHECKS), [str(results[n]) for n in TRACK_CHECKS]
    assert all(r.ok for r in results.values()), [str(r) for r in results.values() if not r.ok]


def _track_items(document):
    return list(document.pages[0].items)


def test_the_check_fails_a_track_without_arrowheads_or_with_one_turned_back(tmp_path):
    document = lay.layout(PatchworkSheet(part="track"))
    items = _track_items(document)
    heads = [i for i, it in enumerate(items) if isinstance(it, Polygon) and len(it.points) == 3]
    assert len(heads) == rules.FINAL_POSITION
    kept = [it for i, it in enumerate(items) if i not in heads]
    results = _results(_with_page(document, 0, kept), tmp_path, "noarrows.pdf")
    assert not results["track arrows"].ok and "no arrowhead from 0 to 1" in results["track arrows"].detail
    turned = list(items)
    tip, b, c = items[heads[10]].points  # the step from 10 to 11: turned round where it stands, to point at 10
    mx, my = (tip[0] + (b[0] + c[0]) / 2) / 2, (tip[1] + (b[1] + c[1]) / 2) / 2
    turned[heads[10]] = dataclasses.replace(items[heads[10]], points=tuple((2 * mx - x, 2 * my - y) for x, y in (tip, b, c)))
    results = _results(_with_page(document, 0, turned), tmp_path, "turned.pdf")
    assert not results["track arrows"].ok
    assert results["track arrows"].detail == "the arrowhead between 10 and 11 does not point from 10 to 11"


def test_the_check_fails_a_track_whose_spaces_are_out_of_order(tmp_path):
    document = lay.layout(PatchworkSheet(part="track"))
    swap = {"7": "30", "30": "7"}  # two spaces on neighbouring laps trade numbers
    items = [dataclasses.replace(it, text=swap[it.text]) if isinstance(it, Text) and it.text in swap else it
             for it in _track_items(document)]
    results = _results(_with_page(document, 0, items), tmp_path)
    assert not results["track pitch"].ok and "spaces 6 and 7 are" in results["track pitch"].detail
    assert not results["track path"].ok and "crosses" in results["track path"].detail


def test_the_check_fails_a_track_whose_laps_crowd_each_other(tmp_path, monkeypatch):
    # Laps only as far apart as the spaces along the track: the old spiral's fault, drawn square.
    monkeypatch.setattr(lay, "LAP_GAP", lay.SPACE_GAP)
    lay._spiral.cache_clear()
    try:
        results = _results(lay.layout(PatchworkSheet(part="track")), tmp_path)
    finally:
        lay._spiral.cache_clear()
    assert results["track pitch"].ok and results["track path"].ok and results["track arrows"].ok
    assert not results["track laps"].ok and "stand as close as those that do" in results["track laps"].detail


def test_the_check_fails_uneven_steps(tmp_path):
    document = lay.layout(PatchworkSheet(part="track"))
    items = _track_items(document)
    # Space 12 (its circle and everything inside it) moved 4 mm along the track towards 13.
    circle = next(it for it in items if isinstance(it, Circle) and any(
        isinstance(t, Text) and t.text == "12" and abs(t.x - it.cx) < 1e-6 for t in items) and it.r > 4)
    nxt = next(it for it in items if isinstance(it, Circle) and any(
        isinstance(t, Text) and t.text == "13" and abs(t.x - it.cx) < 1e-6 for t in items) and it.r > 4)
    d = math.hypot(nxt.cx - circle.cx, nxt.cy - circle.cy)
    ux, uy = 4.0 * (nxt.cx - circle.cx) / d, 4.0 * (nxt.cy - circle.cy) / d

    def moved(it):
        if isinstance(it, Circle) and math.hypot(it.cx - circle.cx, it.cy - circle.cy) < circle.r:
            return dataclasses.replace(it, cx=it.cx + ux, cy=it.cy + uy)
        if isinstance(it, Text) and it.text == "12":
            return dataclasses.replace(it, x=it.x + ux, y=it.y + uy)
        return it

    results = _results(_with_page(document, 0, [moved(it) for it in items]), tmp_path)
    assert not results["track pitch"].ok
    assert "spaces 11 and 12 are" in results["track pitch"].detail and "spaces 12 and 13 are" in results["track pitch"].detail


# ---------------------------------------------------------------------------------------------
# Clearance: every text 1.5 mm from every outline and every other text (issue 24's preflight)


def _clearance(sheet: PatchworkSheet, tmp_path):
    from pypdf import PdfReader

    from printables.check.parsing import open_pdf
    from printables.check.preflight import check_clearance

    path = tmp_path / f"{sheet.file_stem()}.pdf"
    path.write_bytes(render_sheet("patchwork", sheet))
    with open_pdf(path) as pdf:
        return check_clearance(pdf, PdfReader(str(path)))


@pytest.mark.parametrize("lang", ["en", "ko", "tr"])
@pytest.mark.parametrize("ink", ["full", "low"])
def test_the_a5_track_keeps_every_text_clear(tmp_path, lang, ink):
    # Before: the numbers of the button and leather spaces stood 1.0-1.3 mm from their rings or
    # leather squares, and "centre: the end" 0.7-1.0 mm from the first lap's band.
    result = _clearance(PatchworkSheet(part="track", paper="a5", lang=lang, ink=ink), tmp_path)
    assert result.ok, result.detail


@pytest.mark.parametrize("cell", [14.5, 15.0, 17.0])
def test_patch_cost_numbers_keep_clear_of_a_button_too_large_for_an_icon(tmp_path, cell):
    # Before: at 15 mm squares "10" stood 1.2 mm from its 6.3 mm button's ring.
    result = _clearance(PatchworkSheet(part="patches", cell_mm=cell, lang="ko"), tmp_path)
    assert result.ok, result.detail


@pytest.mark.parametrize("cell", [x / 2 for x in range(20, 61)])
def test_a_cost_button_is_an_icon_or_rings_its_number_at_1_5_mm(cell):
    size_pt = min(10.0, max(6.0, cell * 0.5))
    for cost in (0, 7, 10):
        r = lay.cost_button_radius_mm(cell, cost, size_pt)
        assert 0.3 * cell - r >= 0  # inside its square
        if 2 * r > lay.ICON_MAX_MM:
            assert lay._number_radius_mm(str(cost), size_pt) + 1.5 + lay.COST_RING_MM / 2 <= r


def _marked_spaces(document):
    """(ring, number, leather square or None) of every marked track space on the first page."""
    items = document.pages[0].items
    rings = [it for it in items if isinstance(it, Circle) and it.r >= lay.MIN_SPACE_MM / 2 - 1e-9]
    numbers = [it for it in items if isinstance(it, Text) and it.text.isdigit()]
    squares = [it for it in items if isinstance(it, Rect)]
    found = []
    for number in numbers:
        ring = next((c for c in rings if abs(c.cx - number.x) < 1e-6 and abs(c.cy - number.y) < c.r), None)
        if ring is None or int(number.text) not in set(rules.INCOME_SPACES) | set(rules.leather_spaces("classic")):
            continue
        square = next((s for s in squares if abs(s.x + s.w / 2 - ring.cx) < 1e-6 and abs(s.y + s.h / 2 - ring.cy) < ring.r), None)
        found.append((ring, number, square))
    return found


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
def test_a_marked_space_keeps_its_number_1_5_mm_from_its_ring_and_its_leather_square(paper):
    document = lay.layout(PatchworkSheet(part="track", paper=paper))
    marked = _marked_spaces(document)
    assert len(marked) == len(set(rules.INCOME_SPACES) | set(rules.leather_spaces("classic")))
    for ring, number, square in marked:
        half_w = lay.text_width_mm(number.text, number.size_pt, number.font) / 2
        half_h = lay.DIGIT_HALF_EM * number.size_pt * lay.PT_MM
        middle = number.y - 0.36 * number.size_pt * lay.PT_MM  # the digits' middle (layout's _baseline)
        corner = math.hypot(half_w, abs(middle - ring.cy) + half_h)
        assert ring.r - ring.line_mm / 2 - corner >= 1.5, number.text
        if square is not None:
            assert square.y - square.line_mm / 2 - (middle + half_h) >= 1.5, number.text
            assert square.w >= 0.15 * 2 * ring.r  # still a mark the check reads


@pytest.mark.parametrize("lang", ["en", "ko", "tr"])
def test_the_centre_space_is_named_beside_it_or_in_the_legend(lang):
    from printables.layout.language import drawing_in

    for paper in ("a4", "letter", "a5"):
        sheet = PatchworkSheet(part="track", paper=paper, lang=lang)
        with drawing_in(lang):
            document, plan = lay.layout(sheet), lay.track_plan(sheet)
        labels = [it for it in document.pages[0].items if isinstance(it, Text) and it.text == lay.CENTRE_LABEL]
        assert len(labels) == 1, paper
        centre = max((it for it in document.pages[0].items if isinstance(it, Circle)), key=lambda it: it.r)
        beside = abs(labels[0].x - centre.cx) < 1e-6 and abs(labels[0].y - centre.cy) < centre.r + 8
        assert beside != plan.centre_in_legend, paper
        if paper != "a5":  # the large papers: beside the centre, the first lap where it was
            assert beside and plan.label_mm == 0
