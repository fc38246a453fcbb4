"""`printables giuthi` as a user runs it: options, refusals, the sample game, the whole set."""

import json
import re

import pytest
from click.testing import CliRunner

from printables.check.dispatch import check_file, expand
from printables.cli import main
from conftest import assert_one_line_error


def invoke(*args):
    return CliRunner().invoke(main, list(args))


def test_help_names_the_parameters():
    result = invoke("giuthi", "--help")
    assert result.exit_code == 0
    for option in ("--pits", "--seeds", "--pit-diameter", "--pit-depth", "--thickness", "--wall", "--screw",
                   "--chamfer", "--clearance", "--preset", "--show", "--output"):
        assert option in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--pits", "7"], "--pits 7: the fold would cut a pit in two; use an even number (6 or 8)"),
        (["--pits", "12"], "--pits 12: a folding board has 6, 8, 10 pits per row"),
        (["--seeds", "12"], "--seeds 12"),
        (["--seeds", "3"], "--seeds 3"),
        (["--wall", "0.5"], "--wall 0.5"),
        (["--pit-diameter", "80"], "--pit-diameter 80"),
        (["--pit-depth", "nan"], "--pit-depth nan"),
        (["--screw", "m5"], "'m5'"),
        (["--preset", "nope"], "'nope'"),
        (["--seeds", "9"], "these pits hold 31 seeds of 10.5 mm but games with 9 per pit on 2x6 need 60"),
        (["--seeds", "6", "--thickness", "12", "--pit-depth", "10"], "--seeds 6"),
        # Eight pits a row, 5 seeds each, on the default pits: the hint names the ways out.
        (["--pits", "8", "--seeds", "5"], "need 39 (99.9th percentile); use deeper or larger pits (--pit-depth"
                                          " with --thickness, or a --size to fill), smaller seeds, or the preset"
                                          " giuthi-9seeds or giuthi-2x8"),
        (["--size", "160x150"], "--size 160x150: a half of this board fits the 3D45 bed"),
        (["--size", "160x145", "--pit-diameter", "30"], "give the size or the pit sizes, not both"),
        (["--size", "big"], "--size 'big': expected WIDTHxHEIGHT in mm"),
    ],
)
def test_bad_parameters_are_one_line_exit_2_and_write_nothing(tmp_path, args, message):
    out = tmp_path / "g"
    result = invoke("giuthi", *args, "-o", str(out))
    assert_one_line_error(result, message)
    assert not out.exists()


def test_a_board_too_big_for_the_bed_is_refused_with_what_fits(tmp_path):
    result = invoke("giuthi", "--pits", "10", "--pit-diameter", "45", "-o", str(tmp_path / "g"))
    assert result.exit_code == 2
    # 37.5 mm pits (or a 245x145 plan) fit the bed with 10 pits, but their stores cannot hold the
    # seeds games need: only the fix that gives a playable board is named.
    assert result.output.rstrip().endswith("the largest that fits: --pits 8"), result.output
    assert not (tmp_path / "g").exists()
    for dropped in (["--pit-diameter", "37.5"], ["--size", "245x145"]):
        assert "these stores hold" in invoke("giuthi", "--show", "--pits", "10", *dropped).output
    assert invoke("giuthi", "--show", "--pits", "8", "--pit-diameter", "45").exit_code == 0


def test_an_output_folder_that_cannot_be_made_is_refused_before_modelling(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = invoke("giuthi", "--no-slice", "-o", str(blocker / "sub"))
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert f"{blocker} is a file, not a folder" in result.output


def test_size_gives_a_board_that_plays_and_is_named_by_its_parameters():
    from printables.models import model_params

    result = invoke("giuthi", "--show", "--size", "200x140")
    assert result.exit_code == 0 and "Game over" in result.output
    board = model_params("giuthi-board", {"size_mm": "200x140"}, "giuthi")
    assert board.pit_diameter_mm == 48.8 and board.pit_length_mm == 64.0
    # Other pits, other files: the digest of the derived pit sizes is in the name.
    assert board.part_name("left").startswith("giuthi-board-left-2x6-4seeds-")


def test_show_uses_the_chosen_board_and_refuses_an_impossible_one():
    eight = invoke("giuthi", "--show", "--preset", "giuthi-2x8", "--game-seed", "2")
    board = _boards(eight.output)[0].splitlines()
    assert eight.exit_code == 0 and board[1].startswith("North [  0]   4   4   4   4   4")
    assert board[1].count(" 4") == 8
    assert "pit numbers, 0 to 15" in eight.output
    assert invoke("giuthi", "--show", "--pits", "0").exit_code == 2
    # --show validates every option as the board would: an odd row or a bad size is refused too.
    assert_one_line_error(invoke("giuthi", "--show", "--pits", "5"), "--pits 5")
    assert_one_line_error(invoke("giuthi", "--show", "--pit-depth", "-3"), "--pit-depth")
    travel = invoke("giuthi", "--show", "--preset", "giuthi-travel")
    assert travel.exit_code == 0 and "Game over" in travel.output


def test_show_prints_a_followable_game():
    result = invoke("giuthi", "--show", "--game-seed", "3")
    assert result.exit_code == 0
    first = _boards(result.output)[0]
    assert first.splitlines()[1].startswith("North [  0]")
    assert "   4   4   4   4   4   4" in first and "South to move" in first
    assert "Game over" in result.output
    assert result.output == invoke("giuthi", "--show", "--game-seed", "3").output


def _boards(output: str) -> list[str]:
    """The blocks of --show output after the legend: the start, then one per move."""
    blocks = output.split("\n\n")
    assert blocks[0].startswith("How to read this game")
    return blocks[1:]


def test_show_starts_with_a_legend_of_everything_it_prints():
    from printables.cli.giuthi import LAP_END_MEANINGS
    from printables.rules.giuthi import LapEnd

    assert set(LAP_END_MEANINGS) == {end.value for end in LapEnd}
    output = "".join(invoke("giuthi", "--show", "--game-seed", str(seed)).output for seed in range(1, 4))
    legend = output.split("\n\n")[0]
    for word in ("cw", "ccw", "store", "pass", "sowing again", "relay"):
        assert word in legend
    used = set(re.findall(r"to \d+: ([a-z-]+)", output))
    assert used and used <= set(LAP_END_MEANINGS)
    for word in used:
        assert re.search(rf"^    {word} +\S", legend, re.M), word


@pytest.mark.slow
def test_the_whole_set_is_written_and_every_file_passes_its_checks(tmp_path, monkeypatch):
    out = tmp_path / "giuthi"
    result = invoke("giuthi", "--preset", "giuthi-travel", "--no-slice", "-o", str(out))
    assert result.exit_code == 0, result.output
    names = {p.name for p in out.iterdir()}
    manifest = next(n for n in names if n.startswith("giuthi-board-") and n.endswith(".json"))
    stem = manifest[len("giuthi-board-"):-len(".json")]
    expected = {f"giuthi-board-left-{stem}.stl", f"giuthi-board-right-{stem}.stl", f"giuthi-board-left-{stem}.step",
                "giuthi-print-settings.pdf", "giuthi-rules.pdf", "dremel-3d45-giuthi.ini", f"giuthi-board-{stem}-open.png",
                f"giuthi-board-{stem}-folded.png"}
    assert expected <= names
    assert any(n.startswith("giuthi-seeds-12-") and n.endswith(".stl") for n in names)
    data = json.loads((out / manifest).read_text())
    assert data["params"]["pits_per_row"] == 6
    assert data["rules"] == {"file": "giuthi-rules.pdf", "paper": "a4"}
    seeds_stl = next(n for n in names if n.startswith("giuthi-seeds-12-") and n.endswith(".stl"))
    assert data["3mf"] == {"left": f"giuthi-board-left-{stem}.3mf", "right": f"giuthi-board-right-{stem}.3mf",
                           "seeds": seeds_stl[:-4] + ".3mf"}
    assert set(data["3mf"].values()) <= names
    # The slicer's own checks are tested in test_giuthi_print.py; here the model and card checks.
    monkeypatch.setattr("printables.check.dispatch._slices", lambda stls: [])
    for path in expand(out):
        results = check_file(path)
        assert all(r.ok for r in results), [str(r) for r in results if not r.ok]
