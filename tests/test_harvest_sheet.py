"""The Bitcoin Harvest sheet end to end: CLI, the PDF written, and its check reading it back."""

import dataclasses
import json

import pytest
from click.testing import CliRunner

from printables.check.dispatch import check_file
from printables.check.pdf import read_pdf
from printables.cli import main
from printables.layout.harvest import layout
from printables.layout.primitives import Document, Page, Rect
from printables.params.harvest import HarvestSheet
from printables.render.pdf import render_pdf
from conftest import assert_one_line_error


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def failed(results):
    return {r.name for r in results if not r.ok}


def test_help_lists_every_option():
    result = run("harvest", "--help")
    assert result.exit_code == 0
    for option in ("--grid", "--players", "--cell", "--coins-per-turn", "--opening-coins", "--paper", "--landscape", "--per-page", "--output"):
        assert option in result.output


def test_default_sheet_is_written_and_passes_every_check(tmp_path):
    out = tmp_path / "h.pdf"
    result = run("harvest", "-o", str(out))
    assert result.exit_code == 0, result.output
    results = check_file(out)
    assert all(r.ok for r in results), [str(r) for r in results]
    drawing = read_pdf(out)
    params = json.loads(drawing.subject)
    assert params["grid"] == [10, 10] and params["players"] == 2 and params["paper"] == "a4"
    assert drawing.creator.startswith("printables ")
    assert "10x10" in drawing.title and drawing.print_scaling == "None"
    assert (round(drawing.pages[0].width, 2), round(drawing.pages[0].height, 2)) == (210.0, 297.0)


@pytest.mark.parametrize(
    "args, grid, cell",
    [
        (["--grid", "12x8", "--cell", "9"], "12x8 at 9.00 mm", 9.0),
        (["--grid", "14x14", "--players", "4", "--paper", "letter"], "14x14", None),
        (["--grid", "11x5", "--per-page", "4"], "11x5", None),
        (["--grid", "7x7", "--paper", "a5", "--coins-per-turn", "3"], "7x7", None),
    ],
)
def test_variants_are_recovered_from_the_drawing(tmp_path, args, grid, cell):
    out = tmp_path / "v.pdf"
    assert run("harvest", *args, "-o", str(out)).exit_code == 0
    results = {r.name: r for r in check_file(out)}
    assert all(r.ok for r in results.values()), [str(r) for r in results.values()]
    assert grid in results["grid"].detail


def test_cell_size_is_physical(tmp_path):
    out = tmp_path / "c.pdf"
    run("harvest", "--grid", "10x10", "--cell", "12.5", "-o", str(out))
    page = read_pdf(out).pages[0]
    cells = [b for b in page.boxes if not b.fill and abs(b.w - b.h) < 0.01 and b.w > 4]
    assert len(cells) == 100
    assert all(abs(b.w - 12.5) < 0.01 for b in cells)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--grid", "0x5"], "grid '0x5'"),
        (["--grid", "abc"], "grid 'abc'"),
        (["--grid", "4x4"], "pentomino I cannot be placed"),
        (["--players", "13"], "players 13"),
        (["--players", "1"], "players 1"),
        (["--cell", "3"], "cell 3 mm: use at least 7 mm"),
        (["--cell", "nan"], "cell nan"),
        (["--cell", "inf"], "cell inf"),
        (["--grid", "1000x1000"], "largest that fits is 25x23, or 23x23 square"),
        (["--grid", "3x5", "--per-page", "6", "--paper", "a5"], "6 games of 3x5 do not fit a5 portrait at cells of at least 7 mm; at most 1 fits (--per-page 1)"),
        (["--players", "12", "--paper", "a5", "--grid", "5x5"], "one game per page does not fit a5 portrait at cells of at least 7 mm; the harvesters and a score table for 12 players leave no room for a 3x5 grid; or try a larger --paper"),
        (["--cell", "40"], "largest cell that fits"),
        (["--grid", "80x80"], "largest that fits is"),
        (["--coins-per-turn", "0"], "coins per turn 0"),
        (["--opening-coins", "0"], "opening coins 0"),
        (["--per-page", "0"], "per page 0"),
        (["--per-page", "7"], "per page 7: use 1 to 6"),
        (["--paper", "a3"], "'a3'"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "bad.pdf"
    result = CliRunner().invoke(main, ["harvest", *args, "-o", str(out)])
    assert_one_line_error(result, message)
    assert "Traceback" not in result.output
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("target, message", [
    ("", "--output '': empty"), (".", "give a name ending in .pdf"), ("folder", "give a name ending in .pdf"),
    ("afile/x.pdf", "afile is a file, not a folder"), ("-", "standard output is not supported"),
    ("out.txt", "give a name ending in .pdf, e.g. -o out.pdf"), ("noext", "-o noext.pdf"),
    ("trailing.pdf/", "names a folder"), ("folder.pdf", "it is a folder")])
def test_an_output_path_that_cannot_be_written_is_one_line_exit_2(tmp_path, monkeypatch, target, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "afile").write_text("not a folder")
    (tmp_path / "folder.pdf").mkdir()
    result = CliRunner().invoke(main, ["harvest", "-o", target])
    assert result.exit_code == 2 and message in result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "folder", "folder.pdf"]
    assert not any((tmp_path / "folder").iterdir()) and not any((tmp_path / "folder.pdf").iterdir())


def test_small_grid_warns_but_writes(tmp_path):
    out = tmp_path / "s.pdf"
    result = CliRunner().invoke(main, ["harvest", "--grid", "8x8", "--players", "3", "-o", str(out)])
    assert result.exit_code == 0 and out.exists()
    assert "smaller than the 12x12 recommended for 3 players" in result.output


def test_same_command_gives_byte_identical_pdfs(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    run("harvest", "--grid", "11x9", "--players", "3", "-o", str(a))
    run("harvest", "--grid", "11x9", "--players", "3", "-o", str(b))
    assert a.read_bytes() == b.read_bytes()


def _without(document: Document, keep) -> Document:
    page = document.pages[0]
    return dataclasses.replace(document, pages=(Page(page.width, page.height, tuple(i for i in page.items if keep(i))),))


def _write(tmp_path, document, name="wrong.pdf"):
    path = tmp_path / name
    path.write_bytes(render_pdf(document))
    return path


def test_check_fails_on_a_sheet_with_a_missing_pentomino(tmp_path):
    document = layout(HarvestSheet())
    squares = [i for i in document.pages[0].items if isinstance(i, Rect) and i.fill is not None]
    first_piece = set(squares[:5])  # the F is drawn first
    path = _write(tmp_path, _without(document, lambda i: i not in first_piece))
    results = check_file(path)
    assert failed(results) == {"harvesters"}
    assert "missing F" in next(r.detail for r in results if r.name == "harvesters")


def test_check_fails_on_a_wrong_cell_size(tmp_path):
    document = layout(HarvestSheet())
    params = json.loads(document.subject)
    params["cell_mm"] = 14.9  # the drawing has 15 mm cells; 0.1 mm off is caught
    path = _write(tmp_path, dataclasses.replace(document, subject=json.dumps(params)))
    assert failed(check_file(path)) == {"grid"}


def test_check_fails_on_a_grid_with_a_missing_cell_or_a_missing_player_row(tmp_path):
    document = layout(HarvestSheet(players=3))
    cells = [i for i in document.pages[0].items if isinstance(i, Rect) and i.fill is None]
    path = _write(tmp_path, _without(document, lambda i: i is not cells[37]))
    assert failed(check_file(path)) == {"grid"}
    params = json.loads(document.subject)
    params["players"] = 4
    path = _write(tmp_path, dataclasses.replace(document, subject=json.dumps(params)), "rows.pdf")
    assert failed(check_file(path)) == {"score table"}


def test_check_fails_on_a_wrong_page_size(tmp_path):
    document = layout(HarvestSheet())
    page = document.pages[0]
    path = _write(tmp_path, dataclasses.replace(document, pages=(Page(215.9, 279.4, page.items),)))
    assert "page size" in failed(check_file(path))


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from printables.errors import ParameterError  # noqa: E402


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    width=st.integers(3, 30),
    height=st.integers(3, 30),
    players=st.integers(2, 12),
    per_page=st.sampled_from([1, 1, 2, 3, 4, 6]),
    paper=st.sampled_from(["a4", "letter", "a5"]),
    landscape=st.booleans(),
)
def test_any_sheet_that_is_made_passes_its_check(tmp_path, width, height, players, per_page, paper, landscape):
    """Whatever the parameters, the tool either refuses them or makes a sheet its check accepts."""
    try:
        sheet = HarvestSheet(grid=(width, height), players=players, per_page=per_page, paper=paper, landscape=landscape)
        document = layout(sheet)
    except ParameterError:
        return
    path = tmp_path / "any.pdf"
    path.write_bytes(render_pdf(document))
    results = check_file(path)
    assert all(r.ok for r in results), [str(r) for r in results if not r.ok]
    assert json.loads(read_pdf(path).subject)["cell_mm"] >= 7


# --------------------------------------------------------------------------- printing at home


def _failed(results):
    return {r.name: r.detail for r in results if not r.ok}


def test_grid_error_names_the_cell_size_asked_and_what_fits_at_it(tmp_path):
    result = CliRunner().invoke(main, ["harvest", "--grid", "60x60", "--cell", "8", "-o", str(tmp_path / "x.pdf")])
    assert_one_line_error(result, "at 8 mm cells; the largest that fits is")
    assert "7 mm" not in result.output  # not the default minimum
    largest = result.output.split("largest that fits is ")[1].split()[0].rstrip(",")
    cols, rows = map(int, largest.split("x"))
    HarvestSheet(grid=(cols, rows), cell_mm=8)  # the grid it names is made at that cell size
    assert layout(HarvestSheet(grid=(cols, rows), cell_mm=8)).pages
    with pytest.raises(ParameterError):
        layout(HarvestSheet(grid=(cols + 1, rows + 1), cell_mm=8))


@pytest.mark.parametrize("args", [["--grid", "60x60", "--cell", "8", "--landscape"], ["--grid", "80x80", "--landscape"],
                                  ["--grid", "8x8", "--per-page", "6", "--landscape"]])
def test_grid_error_never_suggests_landscape_when_it_was_given(tmp_path, args):
    result = CliRunner().invoke(main, ["harvest", *args, "-o", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2 and "landscape" in result.output  # it names the page it tried
    assert "--landscape" not in result.output


def test_several_games_on_a_page_have_cut_lines_between_them(tmp_path):
    document = layout(HarvestSheet(grid=(11, 5), players=2, per_page=4))
    path = _write(tmp_path, document, "four.pdf")
    assert "cut lines" not in _failed(check_file(path))
    kept = [i for i in document.pages[0].items if not (getattr(i, "dash_mm", None) and i.x1 == i.x2)]
    results = check_file(_write(tmp_path, dataclasses.replace(document, pages=(Page(210.0, 297.0, tuple(kept)),)), "nocut.pdf"))
    assert set(_failed(results)) == {"cut lines"} and "no cut line between the grids at x" in _failed(results)["cut lines"]


def test_check_fails_without_the_publishers_box(tmp_path):
    document = layout(HarvestSheet())
    kept = [i for i in document.pages[0].items if not (hasattr(i, "text") and "Néstor Romeral Andrés" in i.text and "Design" in i.text)]
    results = check_file(_write(tmp_path, dataclasses.replace(document, pages=(Page(210.0, 297.0, tuple(kept)),)), "nobox.pdf"))
    assert set(_failed(results)) == {"publisher's box"}


def _harvesters(document):
    """Each harvester's filled squares, grouped by the letter drawn under them (layout data)."""
    from printables.layout.harvest import PIECE_FILL

    items = document.pages[0].items
    squares = [i for i in items if isinstance(i, Rect) and i.fill == PIECE_FILL]
    return squares, [i for i in items if getattr(i, "font", "") == "Helvetica-Bold" and getattr(i, "size_pt", 0) == 8
                     and i.text.split()[0] in "FILNPTUVWXYZ" and len(i.text.split()[0]) == 1]


@pytest.mark.parametrize("grid, players, per_page, least_mm", [
    ("10x10", 2, 1, 4.0),  # the default sheet: the harvesters fill the room under the grid
    ("14x14", 4, 1, 3.0),
    ("11x5", 2, 4, 2.0),  # no room to spare: the reserved 5 x 3 slots
])
def test_harvesters_grow_into_the_room_and_stay_apart(grid, players, per_page, least_mm):
    document = layout(HarvestSheet(grid=grid, players=players, per_page=per_page))
    squares, labels = _harvesters(document)
    assert len(squares) == 60 * per_page and len(labels) == 12 * per_page
    cell = squares[0].w
    assert cell >= least_mm and all(abs(s.w - cell) < 1e-9 and abs(s.h - cell) < 1e-9 for s in squares)
    # Every square lies within the page's 5 mm safe zone, and squares of the sheet never overlap.
    page = document.pages[0]
    assert all(5 <= s.x and s.x + s.w <= page.width - 5 and 5 <= s.y and s.y + s.h <= page.height - 5 for s in squares)
    corners = {(round(s.x, 6), round(s.y, 6)) for s in squares}
    assert len(corners) == len(squares)
    if per_page == 1:  # the score table's caption starts below the lowest label
        score = min(i.y for i in page.items if getattr(i, "text", "").startswith("Score"))
        assert all(label.y < score - 3 for label in labels)


# --------------------------------------------------------------------------- narrow games: text that fits


def _word_clashes(path):
    """Words (read back with pdfplumber) that overlap another word or stand off the page, in mm."""
    import pdfplumber

    clashes = []
    with pdfplumber.open(str(path)) as pdf:
        page = pdf.pages[0]
        words = page.extract_words(use_text_flow=True)
        for w in words:
            if w["x0"] < 0 or w["top"] < 0 or w["x1"] > page.width or w["bottom"] > page.height:
                clashes.append(("off the page", w["text"]))
        for i, a in enumerate(words):
            for b in words[i + 1:]:
                dx = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
                dy = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
                if dx > 0.3 and dy > 0.3:  # points: more than touching
                    clashes.append((a["text"], b["text"]))
    return clashes, len(words)


@pytest.mark.parametrize("args", [
    ["--per-page", "3", "--grid", "8x8"],  # "Total" was drawn over "Coins harvested"
    ["--per-page", "3", "--grid", "6x6", "--landscape"],
    ["--per-page", "4", "--grid", "8x8"],
    ["--per-page", "4", "--grid", "6x6", "--players", "4"],
    ["--per-page", "2", "--grid", "6x6", "--players", "6"],
    ["--per-page", "4", "--grid", "3x5", "--paper", "letter", "--players", "12"],
    ["--grid", "10x10", "--paper", "a5", "--players", "12"],
])
def test_narrow_games_have_no_word_over_another_or_off_the_page(tmp_path, args):
    out = tmp_path / "n.pdf"
    result = CliRunner().invoke(main, ["harvest", *args, "-o", str(out)])
    if result.exit_code == 2:  # a refusal is allowed only as one line saying what fits
        assert_one_line_error(result, "fit")
        assert not out.exists()
        return
    assert result.exit_code == 0, result.output
    clashes, words = _word_clashes(out)
    assert words > 50 and clashes == []
    results = {r.name: r for r in check_file(out)}
    assert results["text fits"].ok and all(r.ok for r in results.values()), [str(r) for r in results.values() if not r.ok]


def test_three_games_of_8x8_are_made_and_their_score_headers_stand_apart(tmp_path):
    out = tmp_path / "n3.pdf"  # three regions side by side, 88 mm each
    assert run("harvest", "--per-page", "3", "--grid", "8x8", "--landscape", "-o", str(out)).exit_code == 0
    assert _word_clashes(out)[0] == []
    text = __import__("pdfplumber").open(str(out)).pages[0].extract_text()
    assert text.count("Coins harvested") == 3 and "haTotal" not in text


@pytest.mark.parametrize("args, message", [
    (["--per-page", "5", "--grid", "6x6", "--landscape"],
     "per page 5: 5 games of 6x6 do not fit a4 landscape at cells of at least 7 mm; at most 3 fit (--per-page 3)"),
    (["--per-page", "6", "--grid", "6x6", "--landscape"], "at most 3 fit (--per-page 3)"),
    (["--players", "6", "--grid", "6x6", "--per-page", "4"],
     "per page 4: 4 games of 6x6 do not fit a4 portrait at cells of at least 7 mm; at most 2 fit (--per-page 2)"),
    (["--grid", "8x8", "--per-page", "4"],  # four 8x8 games were made at 5 mm cells, too small to draw in
     "per page 4: 4 games of 8x8 do not fit a4 portrait at cells of at least 7 mm; at most 2 fit (--per-page 2); "
     "with 4 per page the largest grid is 11x5, or 5x5 square"),
])
def test_too_many_narrow_games_are_refused_with_how_many_fit(tmp_path, args, message):
    out = tmp_path / "x.pdf"
    result = CliRunner().invoke(main, ["harvest", *args, "-o", str(out)])
    assert_one_line_error(result, message)
    assert not out.exists()
    most = int(message.rsplit("--per-page ", 1)[1].split(")")[0])
    fits = [*args[:args.index("--per-page")], *args[args.index("--per-page") + 2:], "--per-page", str(most)]
    ok = tmp_path / "ok.pdf"
    assert run("harvest", *fits, "-o", str(ok)).exit_code == 0  # what the refusal names is made
    assert _word_clashes(ok)[0] == [] and all(r.ok for r in check_file(ok))


def test_four_games_that_do_not_fit_one_row_are_set_two_by_two():
    from printables.layout.harvest import plan

    # one row of four 5x5 games (43 mm each on A4) would have larger cells but no room for the score table
    _, boxes = plan(HarvestSheet(grid=(5, 5), players=2, per_page=4))
    assert len({b.x for b in boxes}) == 2 and len({b.y for b in boxes}) == 2


def test_a_square_grid_that_does_not_fit_is_told_the_largest_square_too(tmp_path):
    result = CliRunner().invoke(main, ["harvest", "--per-page", "4", "--grid", "10x10", "-o", str(tmp_path / "x.pdf")])
    assert_one_line_error(result, "with 4 per page the largest grid is ")
    said = result.output.split("the largest grid is ")[1]
    rect, square = said.split(",")[0], said.split(", or ")[1].split(" square")[0]
    side = int(square.split("x")[0])
    assert square == f"{side}x{side}" and rect != square
    assert layout(HarvestSheet(grid=(side, side), per_page=4)).pages
    with pytest.raises(ParameterError):
        layout(HarvestSheet(grid=(side + 1, side + 1), per_page=4))
    # a rectangle asked for is told the largest rectangle only
    result = CliRunner().invoke(main, ["harvest", "--per-page", "4", "--grid", "10x12", "-o", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2 and "square" not in result.output


@pytest.mark.parametrize("coins, footer", [(1, "1 coin per turn (1 to open)"), (3, "3 coins per turn (1 to open)")])
def test_the_footer_says_coin_or_coins(tmp_path, coins, footer):
    out = tmp_path / "f.pdf"
    assert run("harvest", "--coins-per-turn", str(coins), "--opening-coins", "1", "-o", str(out)).exit_code == 0
    text = read_pdf(out).pages[0].text
    assert footer in text and "1 coins" not in text


def test_the_text_fit_check_fails_an_english_sheet_whose_score_headers_collide(tmp_path, monkeypatch):
    import printables.layout.harvest as harvest_layout

    good = _write(tmp_path, layout(HarvestSheet(grid=(8, 8), per_page=3, landscape=True)), "good.pdf")
    assert {r.name: r for r in check_file(good)}["text fits"].ok
    # the old fixed columns: "Total" 14 mm from the right edge, over "Coins harvested" in a narrow table
    real = harvest_layout._score_columns
    monkeypatch.setattr(harvest_layout, "_score_columns", lambda width, names: real(width, names) if width is None else [
        ("Player", 17.0), ("Harvester", 17.0), ("Coins harvested", 10.0), ("Total", width - 44.0)])
    bad = _write(tmp_path, layout(HarvestSheet(grid=(8, 8), per_page=3, landscape=True)), "bad.pdf")
    results = {r.name: r for r in check_file(bad)}
    assert not results["text fits"].ok and "printed over each other" in results["text fits"].detail


# --------------------------------------------------------------------------- cells to draw in (issue 24)

DATA = __import__("pathlib").Path(__file__).parent / "data"


def test_the_check_fails_the_old_four_up_sheet_of_5_mm_cells():
    # tests/data/harvest-8x8-4up-5mm-cells.pdf: `harvest --grid 8x8 --per-page 4` as made before
    # issue 24, four games at 5 mm cells: too small to draw a pentomino in pencil.
    results = {r.name: r for r in check_file(DATA / "harvest-8x8-4up-5mm-cells.pdf")}
    assert not results["grid"].ok
    assert results["grid"].detail == "cells of 5.00 mm are too small to draw a pentomino in pencil; at least 7 mm wanted"


@pytest.mark.parametrize("args", [["--per-page", "4"], ["--per-page", "4", "--grid", "11x5"], ["--per-page", "2", "--grid", "8x8"],
                                  ["--per-page", "3", "--grid", "8x8", "--landscape"], ["--grid", "25x23"]])
def test_every_sheet_made_has_cells_of_at_least_7_mm_or_is_refused_with_how_many_fit(tmp_path, args):
    out = tmp_path / "s.pdf"
    result = CliRunner().invoke(main, ["harvest", *args, "-o", str(out)])
    if result.exit_code == 2:
        assert_one_line_error(result, "at cells of at least 7 mm; at most ")
        assert not out.exists()
        return
    assert result.exit_code == 0, result.output
    cells = [b.w for b in read_pdf(out).pages[0].boxes if b.stroke and not b.fill and abs(b.w - b.h) < 0.01 and b.w >= 4]
    assert cells and min(cells) >= 7.0 - 0.01
    assert all(r.ok for r in check_file(out))


def test_the_four_up_preset_builds_four_games_at_7_mm_cells(tmp_path):
    result = CliRunner().invoke(main, ["build", "harvest-11x5-4up-a4", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    (path,) = (tmp_path / "harvest").glob("*.pdf")
    grid = {r.name: r for r in check_file(path)}["grid"]
    assert grid.ok and grid.detail.count("at 7.00 mm") == 4


@pytest.mark.parametrize("args", [
    ["--grid", "11x3", "--landscape"],  # 'E' was 1.0 mm under the credit's "Néstor Rom" (a "(" and a "g")
    ["--grid", "21x4", "--players", "11", "--paper", "letter", "--lang", "ko"],  # 'L' 1.3 mm under the Korean credit
])
def test_the_column_letters_keep_clear_of_the_credit_above_a_short_grid(tmp_path, args):
    """A grid narrower than the credit line, centred under it, puts its column letters right under the
    credit's descenders and brackets: the header leaves them 1.5 mm (found by the hypothesis test)."""
    out = tmp_path / "h.pdf"
    result = CliRunner().invoke(main, ["harvest", *args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    clearance = next(r for r in check_file(out) if r.name == "clearance")
    assert clearance.ok, clearance.detail
