"""The Minefield board sheet end to end: CLI, the PDF written, and its check reading it back."""

import dataclasses
import json
import re

import pytest
from click.testing import CliRunner

from printables.check.dispatch import check_file
from printables.check.minefield import board_bands, board_coordinates, find_boards, find_diagrams
from printables.check.pdf import read_pdf
from printables.cli import main
from printables.errors import ParameterError
from printables.layout import minefield as lay
from printables.layout.minefield import layout
from printables.layout.primitives import BLACK, WHITE, Circle, Document, Line, Page, Rect, Text, text_width_mm
from printables.params.base import from_mapping
from printables.params.minefield import MIN_CELL_MM, MinefieldSheet
from printables.render.pdf import render_pdf
from printables.rules import minefield as rules
from conftest import assert_one_line_error

PRESETS = ("minefield-9x9-a4", "minefield-11x11-a4", "minefield-15x15-a4", "minefield-11x11-letter")


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def failed(results):
    return {r.name for r in results if not r.ok}


def detail(results, name):
    return next(r.detail for r in results if r.name == name)


def _items(document: Document):
    return document.pages[0].items


def _with_items(document: Document, items) -> Document:
    page = document.pages[0]
    return dataclasses.replace(document, pages=(Page(page.width, page.height, tuple(items)),))


def _write(tmp_path, document, name="wrong.pdf"):
    path = tmp_path / name
    path.write_bytes(render_pdf(document))
    return path


def _is_band(item) -> bool:
    return isinstance(item, Rect) and item.fill in (BLACK, WHITE) and abs(item.w - item.h) > 0.01


# ---------------------------------------------------------------------------------------------
# The command


def test_help_lists_every_option():
    result = run("minefield", "--help")
    assert result.exit_code == 0
    for option in ("--size", "--paper", "--landscape", "--cell", "--per-page", "--output"):
        assert option in result.output


def test_default_sheet_is_an_11x11_board_that_passes_every_check(tmp_path):
    out = tmp_path / "m.pdf"
    result = run("minefield", "-o", str(out))
    assert result.exit_code == 0, result.output
    results = check_file(out)
    assert all(r.ok for r in results), [str(r) for r in results]
    drawing = read_pdf(out)
    params = json.loads(drawing.subject)
    assert params == {"kind": "minefield", "size": 11, "cell_mm": 15.0, "paper": "a4", "landscape": False, "per_page": 1, "lang": "en"}
    assert drawing.keywords == "printables:minefield" and drawing.print_scaling == "None"
    assert "11x11" in drawing.title
    assert (round(drawing.pages[0].width, 2), round(drawing.pages[0].height, 2)) == (210.0, 297.0)
    assert "11x11 at 15.00 mm" in detail(results, "board")


def test_default_output_path_derives_from_the_parameters(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("minefield", "--size", "9", "--paper", "letter", "--landscape")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "output" / "minefield" / "minefield-9x9-letter-landscape.pdf").exists()


@pytest.mark.parametrize(
    "args, found",
    [
        (["--size", "9", "--cell", "12"], "9x9 at 12.00 mm"),
        (["--size", "13", "--paper", "letter", "--landscape"], "13x13"),
        (["--size", "5", "--per-page", "4"], "4 board(s): 5x5"),
        (["--size", "7", "--paper", "a5"], "7x7"),
        (["--size", "2"], "2x2 at 22.00 mm"),
        (["--size", "28"], "28x28 at 6.00 mm"),
    ],
)
def test_variants_are_recovered_from_the_drawing(tmp_path, args, found):
    out = tmp_path / "v.pdf"
    assert run("minefield", *args, "-o", str(out)).exit_code == 0
    results = check_file(out)
    assert all(r.ok for r in results), [str(r) for r in results]
    assert found in detail(results, "board")


def test_cells_are_physical_and_stones_go_in_them(tmp_path):
    out = tmp_path / "c.pdf"
    run("minefield", "--size", "10", "--cell", "12.5", "-o", str(out))
    page = read_pdf(out).pages[0]
    cells = [b for b in page.boxes if b.stroke and not b.fill and abs(b.w - b.h) < 0.01]
    assert len(cells) == 100
    assert all(abs(b.w - 12.5) < 0.01 for b in cells)
    (board,) = find_boards(page)
    assert (board.cols, board.rows) == (10, 10)
    assert abs((board.x1 - board.x0) - 125.0) < 0.02 and abs((board.bottom - board.top) - 125.0) < 0.02


def test_automatic_cells_are_round_as_large_as_fit_and_at_most_22_mm():
    for size in (2, 5, 9, 11, 15, 19, 28):
        cell = json.loads(layout(MinefieldSheet(size=size)).subject)["cell_mm"]
        assert MIN_CELL_MM <= cell <= 22.0 and cell * 2 == int(cell * 2), (size, cell)
        if cell < 22.0:  # half a millimetre more would not fit
            with pytest.raises(ParameterError, match="largest cell that fits"):
                layout(MinefieldSheet(size=size, cell_mm=cell + 0.5))


@pytest.mark.parametrize("paper, landscape", [("a4", False), ("letter", False), ("a5", False), ("a4", True)])
def test_the_size_limit_names_the_largest_size_that_fits(paper, landscape):
    # Found here by trying sizes until the layout refuses, not from the layout's own arithmetic.
    size = 2
    while True:
        try:
            document = layout(MinefieldSheet(size=size + 1, paper=paper, landscape=landscape))
        except ParameterError as error:
            message = str(error)
            break
        assert json.loads(document.subject)["cell_mm"] >= MIN_CELL_MM
        size += 1
    assert f"the largest size that fits is {size}" in message
    assert f"smaller than {MIN_CELL_MM:g} mm" in message and f"size {size + 1}:" in message


@pytest.mark.parametrize(
    "args, message",
    [
        (["--size", "1"], "size 1:"),
        (["--size", "0"], "size 0:"),
        (["--size", "abc"], "--size abc: write a whole number"),
        (["--size", "40"], "the largest size that fits is 28"),
        (["--size", "9", "--per-page", "16"], "with 16 boards per page"),
        (["--cell", "5"], "cell 5.0 mm"),
        (["--cell", "30"], "the largest cell that fits is"),
        (["--per-page", "0"], "per page 0"),
        (["--paper", "a3"], "'a3'"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "bad.pdf"
    result = CliRunner().invoke(main, ["minefield", *args, "-o", str(out)])
    assert_one_line_error(result, message)
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_parameters_are_strict_and_name_the_file():
    assert MinefieldSheet().file_stem() == "minefield-11x11-a4"
    assert MinefieldSheet(size=5, paper="letter", landscape=True, cell_mm=12, per_page=4).file_stem() == (
        "minefield-5x5-letter-landscape-12mm-4up"
    )
    with pytest.raises(ParameterError, match="unknown key 'sise'"):
        from_mapping(MinefieldSheet, {"sise": 9})
    for bad in (True, 9.0, "9"):
        with pytest.raises(ParameterError, match="size"):
            MinefieldSheet(size=bad)
    with pytest.raises(ParameterError, match="landscape"):
        MinefieldSheet(landscape="yes")


def test_same_command_gives_byte_identical_pdfs(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    run("minefield", "--size", "13", "--paper", "letter", "-o", str(a))
    run("minefield", "--size", "13", "--paper", "letter", "-o", str(b))
    assert a.read_bytes() == b.read_bytes()


def test_presets_build_and_pass_their_checks(tmp_path):
    result = CliRunner().invoke(main, ["build", *PRESETS, "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "4 of 4 preset(s) built and checked" in result.output
    built = sorted(p.name for p in (tmp_path / "minefield").iterdir())
    assert built == [
        "minefield-11x11-a4.pdf", "minefield-11x11-letter.pdf", "minefield-15x15-a4.pdf", "minefield-9x9-a4.pdf"
    ]


# ---------------------------------------------------------------------------------------------
# What the drawing shows


def _bounds(item):
    if isinstance(item, Rect):
        return item.x, item.y, item.x + item.w, item.y + item.h
    if isinstance(item, Line):
        return min(item.x1, item.x2), min(item.y1, item.y2), max(item.x1, item.x2), max(item.y1, item.y2)
    if isinstance(item, Circle):
        return item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r
    if isinstance(item, Text):
        w = text_width_mm(item.text, item.size_pt)
        x0 = {"start": item.x, "middle": item.x - w / 2, "end": item.x - w}[item.anchor]
        return x0, item.y - item.size_pt * 0.3528, x0 + w, item.y
    raise TypeError(item)


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize(
    "sheet",
    [
        MinefieldSheet(),
        MinefieldSheet(size=28),
        MinefieldSheet(size=11, landscape=True),
        MinefieldSheet(size=3, paper="a5", landscape=True),  # the publisher's box leaves little room
        MinefieldSheet(size=9, paper="a5"),
        MinefieldSheet(size=5, per_page=6),
        MinefieldSheet(size=6, per_page=4, paper="letter", landscape=True),
    ],
    ids=lambda s: s.file_stem(),
)
def test_everything_stays_inside_the_margins_and_the_legend_clear_of_the_boards(sheet):
    document = layout(sheet)
    page = document.pages[0]
    margin = 10.0 - 0.5  # half a millimetre for line widths and the text estimate
    for item in page.items:
        x0, y0, x1, y1 = _bounds(item)
        assert x0 >= margin and y0 >= margin and x1 <= page.width - margin and y1 <= page.height - margin, item
    # A board's extent: its cells, bands and coordinates; the legend's: its tinted squares and stones.
    frames = [_bounds(i) for i in page.items if _is_band(i) or (isinstance(i, Rect) and i.fill is None)]
    legend = [_bounds(i) for i in page.items if isinstance(i, Circle) or (isinstance(i, Rect) and i.fill not in (None, BLACK, WHITE))]
    assert legend and frames
    assert not any(_overlaps(a, b) for a in legend for b in frames)


def test_the_board_has_black_bands_top_and_bottom_and_outlined_white_bands_left_and_right(tmp_path):
    path = _write(tmp_path, layout(MinefieldSheet(size=9)), "m.pdf")
    page = read_pdf(path).pages[0]
    (board,) = find_boards(page)
    assert board_bands(board, page) == {"top": "black", "bottom": "black", "left": "white", "right": "white"}
    labels = board_coordinates(board, page)
    assert labels["top"] == labels["bottom"] == list("ABCDEFGHI")
    assert labels["left"] == labels["right"] == [str(r) for r in range(1, 10)]


def test_the_legend_draws_the_rule_cores_diagrams(tmp_path):
    path = _write(tmp_path, layout(MinefieldSheet()), "m.pdf")
    drawn = find_diagrams(read_pdf(path).pages[0])
    assert len(drawn) == len(rules.LEGEND_DIAGRAMS) == 3
    for shown, read in zip(rules.LEGEND_DIAGRAMS, drawn):
        assert (read.rows, read.cols) == (shown.height, shown.width)
        assert read.crossed == shown.forbidden_point
        assert read.stones[read.crossed] == shown.colour
        others = {p: c for p, c in read.stones.items() if p != read.crossed}
        assert others == dict(shown.stones)
        assert read.name == shown.name
    assert {d.name for d in drawn} == {rules.HARD_CORNER, rules.SWITCH_2X3, rules.SWITCH_2X4}


def test_two_lines_of_rules_on_a4_and_letter(tmp_path):
    for paper in ("a4", "letter"):
        text = read_pdf(_write(tmp_path, layout(MinefieldSheet(paper=paper)), f"{paper}.pdf")).pages[0].text
        lines = [line for line in text.splitlines() if line.startswith(("Black first", "Never create a hard"))]
        assert len(lines) == 2, lines
        assert "hard corner" in lines[1] and "switch" in lines[1] and "orthogonal" in lines[1]


# ---------------------------------------------------------------------------------------------
# The check fails on wrong drawings


def _is_board_band(item) -> bool:
    """A band along a board's edge (not one of the legend's two 9 x 3 mm edge-key swatches)."""
    return _is_band(item) and (round(item.w, 2), round(item.h, 2)) != (9.0, 3.0)


def _swap_band_colours(item):
    if not _is_board_band(item):
        return item
    if item.fill == BLACK:
        return dataclasses.replace(item, stroke=BLACK, fill=WHITE, line_mm=0.4)
    return dataclasses.replace(item, stroke=None, fill=BLACK)


def test_check_fails_on_a_board_whose_edge_colours_are_swapped(tmp_path):
    document = layout(MinefieldSheet())
    swapped = _with_items(document, [_swap_band_colours(i) for i in _items(document)])
    results = check_file(_write(tmp_path, swapped))
    # the side bands' letters, now black on black, cannot be seen either
    assert failed(results) == {"edge bands", "visible text"}
    message = detail(results, "edge bands")
    assert "top is white" in message and "left is black" in message


def test_check_fails_on_a_white_band_without_its_outline(tmp_path):
    document = layout(MinefieldSheet(size=9))
    items = [dataclasses.replace(i, stroke=None) if _is_board_band(i) and i.fill == WHITE else i for i in _items(document)]
    results = check_file(_write(tmp_path, _with_items(document, items)))
    assert failed(results) == {"edge bands"}
    assert "left is white without outline" in detail(results, "edge bands")


def test_check_fails_on_a_wrong_cell_size(tmp_path):
    document = layout(MinefieldSheet())
    params = json.loads(document.subject)
    params["cell_mm"] = 14.9  # the drawing has 15 mm cells; 0.1 mm off is caught
    results = check_file(_write(tmp_path, dataclasses.replace(document, subject=json.dumps(params))))
    # the box names counters for the recorded cell too (up to 12 mm on 14.9 mm cells; it says 13)
    assert failed(results) == {"board", "publisher's box"}
    assert "cells are 15.000 mm, expected 14.9 mm" in detail(results, "board")


def test_check_fails_on_a_missing_cell_or_a_wrong_size(tmp_path):
    document = layout(MinefieldSheet(size=9))
    cells = [i for i in _items(document) if isinstance(i, Rect) and i.fill is None]
    results = check_file(_write(tmp_path, _with_items(document, [i for i in _items(document) if i is not cells[40]])))
    assert "board" in failed(results)
    assert "missing 1 cell(s)" in detail(results, "board")
    params = json.loads(document.subject)
    params["size"] = 10
    results = check_file(_write(tmp_path, dataclasses.replace(document, subject=json.dumps(params)), "size.pdf"))
    assert failed(results) == {"board", "publisher's box"}  # the box's simulated figures are 9x9's, not 10x10's
    assert "board is 9x9 cells, expected 10x10" in detail(results, "board")


def test_check_fails_on_a_missing_board_of_several(tmp_path):
    document = layout(MinefieldSheet(size=5, per_page=4))
    params = json.loads(document.subject)
    params["per_page"] = 5
    results = check_file(_write(tmp_path, dataclasses.replace(document, subject=json.dumps(params))))
    assert failed(results) == {"board"}
    assert "4 board(s) drawn, expected 5" in detail(results, "board")


def test_check_fails_on_a_missing_coordinate(tmp_path):
    document = layout(MinefieldSheet(size=9))
    labels = [i for i in _items(document) if isinstance(i, Text) and i.text == "7"]
    results = check_file(_write(tmp_path, _with_items(document, [i for i in _items(document) if i is not labels[0]])))
    assert failed(results) == {"coordinates"}
    assert "left: expected 7 as None" in detail(results, "coordinates")


def _legend_circles(document):
    """The stones of the legend's diagrams (not the pencil key's circles)."""
    return [i for i in _items(document) if isinstance(i, Circle) and i.r != lay.PENCIL_STONE_MM / 2]


def test_check_fails_on_a_legend_diagram_that_is_not_forbidden(tmp_path):
    # The hard corner with its lone white stone turned black:
    #   B B        three black stones and no stone of the other colour: not a hard corner
    #   . (B)
    document = layout(MinefieldSheet())
    lone_white = _legend_circles(document)[1]
    assert lone_white.fill == WHITE
    items = [dataclasses.replace(i, fill=BLACK) if i is lone_white else i for i in _items(document)]
    results = check_file(_write(tmp_path, _with_items(document, items)))
    assert failed(results) == {"legend"}
    message = detail(results, "legend")
    assert "BB/.b" in message and "shows no forbidden pattern" in message and "missing hard corner" in message


def test_check_fails_on_a_switch_with_an_occupied_inner_point(tmp_path):
    # The 2x4 switch with a white stone on an inner point is not a switch:
    #   B W . W
    #   W . . (B)
    document = layout(MinefieldSheet())
    circles = _legend_circles(document)
    first, second = circles[-4], circles[-3]  # the 2x4 diagram's stones at (0, 0) and (0, 3)
    inner = dataclasses.replace(second, cx=first.cx + (second.cx - first.cx) / 3, fill=WHITE)
    results = check_file(_write(tmp_path, _with_items(document, [*_items(document), inner])))
    assert failed(results) == {"legend"}
    assert "BW.W/W..b" in detail(results, "legend") and "missing switch 2x4" in detail(results, "legend")


def test_check_fails_on_a_legend_without_its_cross(tmp_path):
    document = layout(MinefieldSheet())
    diagonals = {i for i in _items(document) if isinstance(i, Line) and i.x1 != i.x2 and i.y1 != i.y2}
    first_cross = set(sorted(diagonals, key=lambda i: (i.x1, i.y1))[:4])
    results = check_file(_write(tmp_path, _with_items(document, [i for i in _items(document) if i not in first_cross])))
    assert failed(results) == {"legend"}
    assert re.search(r"0 crossed point\(s\)", detail(results, "legend"))


def test_check_fails_on_a_wrong_page_size(tmp_path):
    document = layout(MinefieldSheet())
    page = document.pages[0]
    path = _write(tmp_path, dataclasses.replace(document, pages=(Page(215.9, 279.4, page.items),)))
    assert "page size" in failed(check_file(path))


# --------------------------------------------------------------------------- printing at home


def test_white_band_label_is_as_large_and_bold_as_black():
    page = layout(MinefieldSheet()).pages[0]
    black = [i for i in page.items if isinstance(i, Text) and i.text == "BLACK"]
    white = [i for i in page.items if isinstance(i, Text) and i.text in tuple("WHITE") and i.font == "Helvetica-Bold"]
    assert black and len(white) == 2 * len("WHITE")  # on the left and right bands
    assert {(t.size_pt, t.font) for t in white} == {(b.size_pt, b.font) for b in black} == {(lay.BAND_LABEL_PT, "Helvetica-Bold")}
    assert {t.colour for t in white} == {BLACK}  # dark letters on the outlined white band
    assert lay.BAND_LABEL_PT >= 6.0


def test_check_fails_without_the_pencil_key_circles(tmp_path):
    document = layout(MinefieldSheet())
    kept = [i for i in _items(document) if not (isinstance(i, Circle) and i.r == lay.PENCIL_STONE_MM / 2 and i.fill == BLACK)]
    results = check_file(_write(tmp_path, _with_items(document, kept)))
    assert failed(results) == {"pencil key"} and "expected filled" in detail(results, "pencil key")


def test_check_fails_without_the_publishers_box(tmp_path):
    document = layout(MinefieldSheet())
    kept = [i for i in _items(document) if not (isinstance(i, Text) and "Design:" in i.text)]
    results = check_file(_write(tmp_path, _with_items(document, kept)))
    assert failed(results) == {"publisher's box"}


def test_size_error_never_suggests_landscape_when_it_was_given(tmp_path):
    result = CliRunner().invoke(main, ["minefield", "--size", "30", "--landscape", "-o", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2 and "a4 landscape" in result.output and "--landscape" not in result.output
