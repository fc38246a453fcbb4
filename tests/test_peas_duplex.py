"""Duplex that lines up (issue #24): a calibration page whose back scales read a printer's shift,
and --back-offset moving the back pages, recorded in the PDF and allowed for by the check."""

import dataclasses
import json

import pytest
from click.testing import CliRunner
from pypdf import PdfReader, PdfWriter

from printables.check import duplex as duplex_check
from printables.check.dispatch import check_file
from printables.check.pdf import read_pdf
from printables.cli import main
from printables.layout import duplex as duplex_layout
from printables.layout.primitives import Page, translate
from printables.params.peas import DuplexCalibration, PeaCard
from printables.render.pdf import render_pdf
from printables.sheets import write_sheet


def _failed(path) -> dict:
    return {r.name: r.detail for r in check_file(path) if not r.ok}


def _calibration(tmp_path, shift=(0.0, 0.0), paper="a4"):
    """The calibration page as a printer that moves the back side by ``shift`` mm would print it."""
    document = duplex_layout.layout(DuplexCalibration(paper=paper))
    front, back = document.pages
    moved = Page(back.width, back.height, translate(back.items, *shift))
    path = tmp_path / f"cal-{shift[0]:g}-{shift[1]:g}.pdf"
    path.write_bytes(render_pdf(dataclasses.replace(document, pages=(front, moved))))
    return path


def _readings(path) -> dict[str, float]:
    """What a person reads on each scale: where the front's line crosses it, in mm from its zero."""
    drawing = read_pdf(path)
    params = json.loads(drawing.subject)
    front, back = drawing.pages
    found = {}
    for name, (axis, x, y) in params["scales"].items():
        line = duplex_check.front_line(front, axis, x, y, front.width)
        # the scale is looked for where the printer put it: near its place, within the scale's reach
        zero = None
        steps = [k / 2 for k in range(-8, 9)]
        for dx in steps:
            for dy in steps:
                zero, wrong = duplex_check.read_scale(back, axis, x + dx, y + dy, params["scale_half_mm"], params["tick_mm"])
                if zero is not None and not wrong:
                    break
            if zero is not None and not wrong:
                break
        found[name] = round(line - zero, 2)
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_calibration_page_checks_and_its_scales_read_zero_on_a_printer_that_lines_up(tmp_path, paper):
    path = write_sheet("duplex-calibration", DuplexCalibration(paper=paper), tmp_path / "cal.pdf")
    assert _failed(path) == {}
    assert _readings(path) == {"top": 0.0, "bottom": 0.0, "left": 0.0, "right": 0.0}
    text = " ".join(p.extract_text() for p in PdfReader(str(path)).pages)
    assert f"--paper {paper} --back --back-offset X,Y" in text


def test_the_scales_read_the_back_offset_that_undoes_a_printers_shift(tmp_path):
    """A printer that prints the back 3 mm right and 1.5 mm up: the scales read -3 across and +1.5 up
    and down, the offset that moves the back to meet the front."""
    readings = _readings(_calibration(tmp_path, shift=(3.0, -1.5)))
    assert readings == {"top": -3.0, "bottom": -3.0, "left": 1.5, "right": 1.5}


def test_a_scale_with_a_number_out_of_place_fails_the_check(tmp_path):
    document = duplex_layout.layout(DuplexCalibration())
    front, back = document.pages
    items = tuple(dataclasses.replace(i, x=i.x + 0.6) if getattr(i, "text", None) == "+5" else i for i in back.items)
    path = tmp_path / "bad.pdf"
    path.write_bytes(render_pdf(dataclasses.replace(document, pages=(front, Page(back.width, back.height, items)))))
    failed = _failed(path)
    assert "duplex scales" in failed and "the number +5 stands at +5.60 mm" in failed["duplex scales"]


def _rewrite_subject(path, change) -> None:
    reader = PdfReader(str(path))
    writer = PdfWriter(clone_from=reader)
    params = json.loads(reader.metadata["/Subject"])
    change(params)
    writer.add_metadata({"/Subject": json.dumps(params, sort_keys=True)})
    with open(path, "wb") as out:
        writer.write(out)


def test_a_back_moved_by_its_recorded_offset_passes_and_fails_without_the_record(tmp_path):
    card = PeaCard(paper="a4", back=True, back_offset=(2.5, -1.5))
    path = write_sheet("peas", card, tmp_path / "offset.pdf")
    assert _failed(path) == {}
    params = json.loads(PdfReader(str(path)).metadata["/Subject"])
    assert params["back_offset_mm"] == [2.5, -1.5]
    _rewrite_subject(path, lambda p: p.update(back_offset_mm=[0.0, 0.0]))
    failed = _failed(path)
    assert "back" in failed and "do not line up" in failed["back"]


def test_the_offset_moves_only_the_back(tmp_path):
    plain = read_pdf(write_sheet("peas", PeaCard(paper="a4", back=True), tmp_path / "plain.pdf"))
    moved = read_pdf(write_sheet("peas", PeaCard(paper="a4", back=True, back_offset=(2.0, 1.0)), tmp_path / "moved.pdf"))
    assert plain.pages[0] == moved.pages[0]
    a = sorted((b.x0, b.top) for b in plain.pages[1].boxes)
    b = sorted((b.x0 - 2.0, b.top - 1.0) for b in moved.pages[1].boxes)
    assert all(abs(p - q) < 0.01 for u, v in zip(a, b) for p, q in zip(u, v))


@pytest.mark.parametrize("value, words", [
    ("11,0", "back offset '11,0': use two numbers in mm"),
    ("1", "back offset '1': use two numbers"),
    ("a,b", "back offset 'a,b': use two numbers"),
    ("1,2,3", "back offset '1,2,3'"),
    ("nan,0", "back offset 'nan,0'"),
])
def test_a_bad_back_offset_is_one_line_and_exit_2(tmp_path, value, words):
    out = tmp_path / "x.pdf"
    result = CliRunner().invoke(main, ["peas", "--paper", "a4", "--back", "--back-offset", value, "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert words in result.output and "from -10 to 10" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not out.exists()


def test_an_offset_needs_a_back_on_a_sheet(tmp_path):
    result = CliRunner().invoke(main, ["peas", "--back-offset", "1,1", "-o", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2 and "add the back (--back)" in result.output
    result = CliRunner().invoke(main, ["peas", "--back", "--back-offset", "1,1", "-o", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2 and "only for a sheet of cards" in result.output


def test_calibrate_duplex_writes_the_calibration_page(tmp_path):
    out = tmp_path / "cal.pdf"
    result = CliRunner().invoke(main, ["peas", "--calibrate-duplex", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert len(PdfReader(str(out)).pages) == 2 and _failed(out) == {}


def test_the_duplex_page_in_another_language_is_refused_in_words(tmp_path):
    result = CliRunner().invoke(main, ["peas", "--calibrate-duplex", "--lang", "tr", "-o", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2 and "English only" in result.output and not (tmp_path / "x.pdf").exists()
