"""Hostile and careless use, round 3 (issue 27): bounded inputs, hostile preset values, options
that can work, temp paths swept, one line per signal, workers that die with their build, and
Giuthi sets that are whole or fail their check."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from printables.cli import main
from conftest import assert_one_line_error

ROOT = Path(__file__).resolve().parent.parent
GIUTHI_PRESET = (ROOT / "models" / "giuthi-default.toml").read_text(encoding="utf-8")


def invoke(*args):
    return CliRunner().invoke(main, list(args))


def _env(**changes) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PRINTABLES_DEBUG", None)
    env.update(changes)
    return env


# -- preset files: regular, bounded ---------------------------------------------------------------


def test_a_preset_that_is_a_symlink_to_dev_zero_is_refused_naming_it(tmp_path):
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    # In a fresh process with a memory cap: the old code read /dev/zero until memory ran out.
    process = subprocess.run(
        [sys.executable, "-c", "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30));"
         "from printables.cli import main; sys.argv[0] = 'printables'; main(['list', '--presets', sys.argv[1]])",
         str(tmp_path)], env=_env(), capture_output=True, text=True, timeout=60)
    assert process.returncode == 2, process.stderr
    assert process.stderr.splitlines() == [f"Error: {tmp_path / 'zero.toml'}: not a regular file; "
                                           "a preset is a TOML file of at most 1 MB"]


def test_a_fifo_preset_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "pipe.toml")
    process = subprocess.run([sys.executable, "-m", "printables", "list", "--presets", str(tmp_path)],
                             env=_env(), capture_output=True, text=True, timeout=30)  # the old code hung here
    assert process.returncode == 2
    assert "pipe.toml: not a regular file" in process.stderr


def test_a_preset_over_a_megabyte_is_refused(tmp_path):
    (tmp_path / "big.toml").write_text('kind = "peas"\ndescription = "x"\n' + "#" * 1_000_000 + "\n")
    assert_one_line_error(invoke("list", "--presets", str(tmp_path)), "big.toml: 1,000,033 bytes; a preset is at most 1,000,000 bytes")


def _model_preset(folder: Path, line: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "hostile.toml"
    path.write_text(GIUTHI_PRESET.replace("[params]\n", f"[params]\n{line}\n"), encoding="utf-8")
    return path


@pytest.mark.parametrize("line, key", [
    ('screw = "ten"', "screw"),
    ("screw = -1", "screw"),
    ("screw = [1]", "screw"),
    ("hole_clearance_mm = inf", "hole_clearance_mm"),
    ("hole_clearance_mm = nan", "hole_clearance_mm"),
    ("seam_gap_mm = 1e308", "seam_gap_mm"),
    ("web_mm = -inf", "web_mm"),
    ('store_width_mm = "wide"', "store_width_mm"),
    ("clearance_knuckle_mm = 2024-01-01", "clearance_knuckle_mm"),
    ("margin_mm = " + "9" * 400, "margin_mm"),
])
def test_a_hostile_model_preset_value_is_exit_2_naming_the_file_and_key(tmp_path, line, key):
    path = _model_preset(tmp_path / "p", line)
    result = invoke("build", "--presets", str(path.parent), "-o", str(tmp_path / "out"), "--no-slice")
    assert_one_line_error(result, f"{path} [params]: {key}=")
    assert not (tmp_path / "out").exists()


def test_a_hostile_value_beside_size_mm_names_its_key(tmp_path):
    # giuthi-2x8 gives size_mm: the pit sizes are worked out before the board is built.
    text = (ROOT / "models" / "giuthi-2x8.toml").read_text(encoding="utf-8")
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "x.toml").write_text(text.replace("[params]\n", '[params]\nstore_width_mm = "wide"\n'))
    assert_one_line_error(invoke("build", "--presets", str(folder), "-o", str(tmp_path / "out"), "--no-slice"),
                          "store_width_mm='wide'")


def test_a_100000_deep_array_in_a_preset_is_exit_2_naming_the_file(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "deep.toml").write_text('kind = "giuthi-board"\ndescription = "x"\n[params]\nx = '
                                      + "[" * 100_000 + "]" * 100_000 + "\n")
    assert_one_line_error(invoke("list", "--presets", str(folder)), "deep.toml: arrays or tables nested too deep")


def test_a_310_digit_sheet_preset_value_names_its_key(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    text = (ROOT / "templates" / "peas-a6.toml").read_text(encoding="utf-8")
    (folder / "x.toml").write_text(text.replace("[params]\n", "[params]\nbleed = " + "9" * 310 + "\n"))
    assert_one_line_error(invoke("build", "--presets", str(folder), "-o", str(tmp_path / "out")), "bleed = 9999")


# -- options that can work --------------------------------------------------------------------------


def test_screw_m3_gets_a_screw_long_enough_to_bite():
    from printables.models import model_params
    from printables.params.giuthi_board import ENGAGEMENT_FACTOR

    board = model_params("giuthi-board", {"screw": "m3"})
    assert board.screw_length_mm == 14.0  # the shortest M3 stock length over 2.5 x 3 + 5 + 0.4 = 12.9 mm
    assert board.engagement_mm >= ENGAGEMENT_FACTOR * 3.0
    # Every screw offered works with the default board, and the default screw keeps its 1/2 inch.
    for screw in ("no2", "m2", "m2.5"):
        assert model_params("giuthi-board", {"screw": screw}).screw_length_mm == 12.7
    # A length given is kept, and refused when it does not bite.
    with pytest.raises(Exception, match="screw_length_mm=12.7 bites"):
        model_params("giuthi-board", {"screw": "m3", "screw_length_mm": 12.7})


def test_screw_m3_on_the_command_line_is_accepted():
    result = invoke("giuthi", "--screw", "m3", "--show", "--game-seed", "1")
    assert result.exit_code == 0, result.output


REFUSALS = [
    (["--wall", "2.5"], "--wall"),
    (["--wall", "1.5"], "--thickness"),
    (["--seed-height", "9"], "--seed-height"),
    (["--pits", "10", "--pit-diameter", "40"], "--pits"),
    (["--pit-depth", "30"], "--pit-depth"),
    (["--seeds", "9"], "--seeds"),
]


@pytest.mark.parametrize("args, option", REFUSALS)
def test_every_giuthi_refusal_names_an_option_the_user_can_set(args, option):
    result = invoke("giuthi", *args, "--show")
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert option in line
    # No parameter name the command line has no option for (web_mm, seed_width_ratio ...).
    assert not re.search(r"\b[a-z]+(?:_[a-z]+)+\b", line), line


def test_wall_above_the_webs_is_refused_naming_wall_only():
    assert_one_line_error(invoke("giuthi", "--wall", "2.5", "--show"),
                          "--wall 2.5 is thicker than the webs between the pits; use --wall <= 2")
