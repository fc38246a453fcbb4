"""Giuthi options are refused outside what the set's own checks pass, each range stated once, in the
option names the user typed."""

from __future__ import annotations

import re
import time

import pytest
from click.testing import CliRunner

from printables.cli import main
from printables.errors import ParameterError
from printables.params.giuthi_board import CHAMFER_RANGE_MM, HOLE_CLEARANCE_RANGE_MM, GiuthiBoardParams
from printables.params.giuthi_seeds import SeedParams
from conftest import assert_one_line_error


def _giuthi(tmp_path, *args):
    out = tmp_path / "g"
    result = CliRunner().invoke(main, ["giuthi", *args, "-o", str(out)])
    assert not out.exists()
    return result


@pytest.mark.parametrize("value", ["0.1", "0.19", "0.51", "0.8", "-0.3"])
def test_clearance_outside_what_the_check_passes_is_refused(tmp_path, value):
    assert_one_line_error(_giuthi(tmp_path, "--clearance", value), f"--clearance {value}: allowed 0.2 to 0.5")


@pytest.mark.parametrize("value", ["1e-9", "0.1", "0.19", "0.6", "1.1", "-0.2"])
def test_chamfer_is_none_or_one_printable_range(tmp_path, value):
    start = time.monotonic()
    result = _giuthi(tmp_path, "--chamfer", value)
    assert_one_line_error(result, "allowed 0 (none) or 0.2 to 0.5")
    assert result.output.startswith("Error: --chamfer ")
    assert time.monotonic() - start < 5  # refused before any modelling (1e-9 once failed in OCP after 18 s)


@pytest.mark.parametrize("value", ["0", "0.2", "0.5"])
def test_chamfer_and_clearance_limits_themselves_are_accepted(value):
    if value != "0":
        assert GiuthiBoardParams(hole_clearance_mm=float(value)).hole_clearance_mm == float(value)
    assert GiuthiBoardParams(chamfer_mm=float(value)).chamfer_mm == float(value)


@pytest.mark.parametrize("value", ["3.99", "4", "5.99", "20.01", "25", "26"])
def test_seed_diameter_has_one_range(tmp_path, value):
    assert_one_line_error(_giuthi(tmp_path, "--seed-diameter", value), f"--seed-diameter {value}: allowed 6 to 20")


@pytest.mark.parametrize("diameter", [5.99, 6.0, 11.0, 20.0, 20.01])
def test_board_and_sprue_agree_on_the_seed_diameter(diameter):
    """A seed size is accepted by the board exactly when the seed sprue can be made of it."""
    def accepts(make) -> bool:
        try:
            make()
        except ParameterError:
            return False
        return True

    height = diameter / 2
    board = accepts(lambda: GiuthiBoardParams(seed_diameter_mm=diameter, seed_height_mm=height))
    sprue = accepts(lambda: SeedParams(seed_diameter_mm=diameter, seed_height_mm=height))
    assert board == sprue == (6.0 <= diameter <= 20.0)


@pytest.mark.parametrize("args, option, size", [
    (["--pits", "8", "--pit-diameter", "49"], "--pit-diameter", "--size 245x145"),
    (["--pit-shape", "oval", "--pit-length", "90"], "--pit-length", "--size 159.8x145"),
])
def test_bed_fit_hints_name_options_and_what_they_say_fits(tmp_path, args, option, size):
    result = _giuthi(tmp_path, *args)
    assert_one_line_error(result, f"the largest that fits: ")
    assert f" or {size} in place of the pit sizes" in result.output
    # Every fix named gives a board that is accepted, seeds and all.
    fixed = [a for a in args if a not in (option,)]
    del fixed[fixed.index(args[args.index(option) + 1])]
    assert CliRunner().invoke(main, ["giuthi", "--show", *fixed, *size.split()]).exit_code == 0
    assert "_mm" not in result.output and "pits_per_row" not in result.output
    said = re.search(rf"{option} <= ([0-9.]+)", result.output)
    assert said, result.output
    # The value said fits the bed (validation only, --show), and a step more does not.
    changed = list(args)
    changed[changed.index(option) + 1] = said.group(1)
    assert "3D45 bed" not in CliRunner().invoke(main, ["giuthi", "--show", *changed]).output
    changed[changed.index(option) + 1] = f"{float(said.group(1)) + 0.5:g}"
    assert "3D45 bed" in CliRunner().invoke(main, ["giuthi", "--show", *changed]).output


def test_bed_fit_size_hint_is_a_plan_that_fits_and_builds():
    from printables.params.giuthi_board import fitting_size, params_for_size

    board = GiuthiBoardParams()
    # The asked plan cut to the bed on the side that overflows; the other side kept.
    for changes, plan in (({"pits_per_row": 10, "pit_diameter_mm": 45.0}, (245.0, 145.0)),
                          ({"pit_length_mm": 90.0}, (159.8, 145.0))):
        unchecked = object.__new__(GiuthiBoardParams)
        for name, value in {**board.as_dict(), **changes}.items():
            object.__setattr__(unchecked, name, value)
        assert fitting_size(unchecked) == plan
        q = GiuthiBoardParams(**params_for_size({"pits_per_row": unchecked.pits_per_row}, *plan))
        assert q.half_size_mm()[0] <= 245 and q.half_size_mm()[1] <= 145
    # A board that already fits is its own plan, to 0.1 mm.
    assert fitting_size(board) == (159.8, 145.0)


def test_help_states_the_ranges():
    text = " ".join(CliRunner().invoke(main, ["giuthi", "--help"]).output.split())
    assert "0 (none) or 0.2 to 0.5" in text and "0.2 to 0.5 [default: 0.3]" in text and "6 to 20" in text


@pytest.mark.slow
@pytest.mark.parametrize("changes", [
    {"hole_clearance_mm": HOLE_CLEARANCE_RANGE_MM[0], "chamfer_mm": CHAMFER_RANGE_MM[0]},
    {"hole_clearance_mm": HOLE_CLEARANCE_RANGE_MM[1], "chamfer_mm": CHAMFER_RANGE_MM[1]},
    {"chamfer_mm": 0.0},
])
def test_a_board_at_the_limits_passes_its_own_check(tmp_path, changes):
    cad = pytest.importorskip("printables.cad.giuthi_board")
    from printables.check.giuthi_stl import check_board

    p = GiuthiBoardParams(**changes)
    paths = cad.write_board(p, cad.build_halves(p), tmp_path, step=False)
    manifest = next(x for x in paths if x.suffix == ".json")
    assert [str(r) for r in check_board(manifest) if not r.ok] == []
