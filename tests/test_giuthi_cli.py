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
        (["--seeds", "9"], "these pits hold 29 seeds of 10.5 mm but games with 9 per pit on 2x6 need 60"),
        (["--seeds", "6", "--thickness", "12", "--pit-depth", "10"], "--seeds 6"),
        # Eight pits a row, 5 seeds each, on the default pits: the hint names ways out that work.
        (["--pits", "8", "--seeds", "5"], "need 39 (99.9th percentile); what holds them: --seed-diameter 9;"
                                          " or --preset giuthi-9seeds"),
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


def _with_fix(args: list[str], fix: str) -> list[str]:
    """``args`` changed as a capacity refusal's fix says: its options replace the same ones typed."""
    args = list(args)
    if fix.startswith("leave out "):
        left, _, fix = fix.removeprefix("leave out ").partition(" and use ")
        for flag in re.findall(r"--[a-z-]+", left):
            i = args.index(flag)
            del args[i:i + 2]
    tokens = fix.split()
    for flag in tokens[::2]:
        if flag in args:
            i = args.index(flag)
            del args[i:i + 2]
    return args + tokens


@pytest.mark.parametrize("args", [
    ["--pits", "10"],
    ["--preset", "giuthi-2x8", "--seeds", "5"],
    ["--pits", "8", "--seeds", "5"],
    ["--pits", "8", "--seeds", "5", "--size", "245x145"],
    ["--seeds", "9"],
    ["--pits", "10", "--seeds", "9"],
    ["--preset", "giuthi-travel", "--seeds", "6"],
    ["--pits", "10", "--seeds", "9", "--pit-diameter", "16", "--pit-length", "16"],
])
def test_every_fix_a_capacity_refusal_names_is_accepted(args):
    result = invoke("giuthi", "--show", *args)
    assert result.exit_code == 2, result.output
    _, found, fixes = result.output.strip().partition("what holds them: ")
    assert found, result.output
    fixes = fixes.split("; or ")
    # Never the preset already in use, never the old advice that did not work.
    if "--preset" in args:
        assert not any(f"--preset {args[args.index('--preset') + 1]}" in fix for fix in fixes), fixes
    assert "--size to fill" not in result.output
    for fix in fixes:
        fixed = _with_fix(args, fix)
        ran = invoke("giuthi", "--show", *fixed)
        assert ran.exit_code == 0, (fixed, ran.output)


def test_a_capacity_fix_that_does_not_hold_the_seeds_is_not_named():
    # 2x10: neither the largest plan nor deeper pits grow the stores (62 of 63): not named.
    result = invoke("giuthi", "--show", "--pits", "10")
    assert "--size" not in result.output and "--pit-depth" not in result.output
    assert "these stores hold 59" in invoke("giuthi", "--show", "--pits", "10", "--size", "245x145").output
    assert "--seed-diameter 9.5" in result.output


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
    # Round cups as long as the 140 mm leave beside the hinge's end knuckles (14.6 mm each side).
    assert (board.pit_diameter_mm, board.pit_length_mm, board.row_margin_mm) == (48.8, 54.4, 14.6)
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
                f"giuthi-board-{stem}-folded.png", f"giuthi-board-{stem}-in-play.png"}
    assert expected <= names
    assert any(n.startswith("giuthi-seeds-12-") and n.endswith(".stl") for n in names)
    data = json.loads((out / manifest).read_text())
    assert data["params"]["pits_per_row"] == 6
    assert data["rules"] == {"file": "giuthi-rules.pdf", "paper": "a4", "lang": "en"}
    seeds_stl = next(n for n in names if n.startswith("giuthi-seeds-12-") and n.endswith(".stl"))
    assert data["3mf"] == {"left": f"giuthi-board-left-{stem}.3mf", "right": f"giuthi-board-right-{stem}.3mf",
                           "seeds": seeds_stl[:-4] + ".3mf"}
    assert set(data["3mf"].values()) <= names
    # The slicer's own checks are tested in test_giuthi_print.py; here the model and card checks.
    monkeypatch.setattr("printables.check.dispatch._slices", lambda stls: [])
    for path in expand(out):
        results = check_file(path)
        assert all(r.ok for r in results), [str(r) for r in results if not r.ok]


def test_rules_sheet_validates_only_pits_and_seeds(tmp_path):
    # 2x10 with the default pits cannot be made (stores), but its rules sheet can be printed.
    assert invoke("giuthi", "--show", "--pits", "10").exit_code == 2
    out = tmp_path / "r10.pdf"
    result = invoke("giuthi", "--rules", "--pits", "10", "-o", str(out))
    assert result.exit_code == 0, result.output
    results = check_file(out)
    assert all(r.ok for r in results), [str(r) for r in results if not r.ok]
    assert '"pits_per_row": 10' in str(__import__("pypdf").PdfReader(out).metadata.get("/Subject"))
    # The preset's pits count; the rule-core options are still validated.
    eight = invoke("giuthi", "--rules", "--preset", "giuthi-2x8", "--seeds", "5", "-o", str(tmp_path / "r8.pdf"))
    assert eight.exit_code == 0, eight.output
    assert_one_line_error(invoke("giuthi", "--rules", "--pits", "7", "-o", str(tmp_path / "x.pdf")), "--pits 7")
    assert_one_line_error(invoke("giuthi", "--rules", "--seeds", "10", "-o", str(tmp_path / "x.pdf")), "--seeds 10")
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("pits", [6, 8, 10])
def test_the_legends_example_lap_is_the_rule_cores_on_this_board(pits):
    from printables.cli.giuthi import show_legend
    from printables.rules import giuthi as g

    legend = show_legend(pits, 4)
    said = re.search(r"'5 from 4 cw to (\d+): relay' = 5 seeds lifted from pit 4, sown\s+clockwise, the last one"
                     r" into pit (\d+)", legend)
    assert said and said.group(1) == said.group(2), legend
    # Sow 5 seeds from pit 4 clockwise on a board of this size with the rule core: where the last one falls.
    pits_list = [1] * (2 * pits)
    pits_list[4] = 5
    trace = g.apply_traced(g.State(tuple(pits_list), (0, 0), g.SOUTH), g.Move.parse("4cw"))
    assert trace.laps[0].end == int(said.group(1))
    assert "go on forever" in legend


# ---------------------------------------------------------------- set options in model presets


def test_a_model_preset_may_name_the_sets_language_and_the_command_line_wins(tmp_path):
    from pypdf import PdfReader

    ko = tmp_path / "ko.pdf"
    result = CliRunner().invoke(main, ["giuthi", "--preset", "giuthi-ko", "--rules", "-o", str(ko)])
    assert result.exit_code == 0, result.output
    assert "기우티" in PdfReader(str(ko)).pages[0].extract_text()
    en = tmp_path / "en.pdf"
    result = CliRunner().invoke(main, ["giuthi", "--preset", "giuthi-ko", "--lang", "en", "--rules", "-o", str(en)])
    assert result.exit_code == 0, result.output
    assert "Giuthi" in PdfReader(str(en)).pages[0].extract_text()


@pytest.mark.parametrize("key, value, allowed", [("lang", "de", "en, ko, tr"), ("paper", "a3", "a4, letter")])
def test_a_model_presets_bad_set_option_names_the_file_and_what_is_allowed(tmp_path, key, value, allowed):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "odd.toml").write_text(
        f'kind = "giuthi-board"\ndescription = "x"\n[params]\npits_per_row = 6\n{key} = "{value}"\n')
    result = CliRunner().invoke(main, ["build", "odd", "--presets", str(tmp_path / "models"), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "odd.toml" in result.output and f"{key} {value!r}: use one of {allowed}" in result.output
    assert not (tmp_path / "out").exists()


def test_lid_text_takes_24_latin_or_hangul_characters_and_refuses_more(tmp_path):
    out = tmp_path / "g"
    assert invoke("giuthi", "--show", "--text", "Wanjiru & Kamau, 2026").exit_code == 0
    assert invoke("giuthi", "--show", "--text", "김철수와 이영희의 기우티").exit_code == 0
    too_long = "Ngai's gift to Gikuyu & Mumbi"  # 29 characters
    result = invoke("giuthi", "--text", too_long, "-o", str(out))
    assert_one_line_error(result, f"lid text {too_long!r} has 29 characters; the lid takes at most 24")
    assert not out.exists()
    result = invoke("giuthi", "--text", "Гиути", "-o", str(out))
    assert_one_line_error(result, "cannot be printed on the lid; use Latin letters, Hangul")
    # Hangul fillers draw nothing (the build once stopped on them with an internal error).
    for blank in ("\u3164", "\u115f", "\u1160"):
        result = invoke("giuthi", "--text", f"김{blank}철", "-o", str(out))
        assert_one_line_error(result, "cannot be printed on the lid; use Latin letters, Hangul")
        assert not out.exists()
    # Another lid is another board: its files are named apart from the default's.
    from printables.models import model_params

    named = model_params("giuthi-board", {"lid_text": "Wanjiru"}, "giuthi").part_name("right")
    assert named.startswith("giuthi-board-right-2x6-4seeds-") and named != "giuthi-board-right-2x6-4seeds"


@pytest.mark.slow
@pytest.mark.parametrize("text", ["김철수와 이영희의 기우티 판, 둘이서 즐겁게", "W" * 24])
def test_a_24_character_lid_line_builds_a_set_whose_halves_are_closed_solids(tmp_path, monkeypatch, text):
    # The Hangul line once meshed with 4 open edges (an edge node rounded two ways in the weld);
    # 24 W ran past the fold at the smallest letters. Both now make sets that pass every check.
    assert len(text) == 24
    out = tmp_path / "set"
    result = invoke("giuthi", "--no-slice", "--no-previews", "--text", text, "-o", str(out))
    assert result.exit_code == 0, result.output
    monkeypatch.setattr("printables.check.dispatch._slices", lambda stls: [])
    results = [r for path in expand(out) for r in check_file(path)]
    assert all(r.ok for r in results), [str(r) for r in results if not r.ok]
    solids = [r for r in results if r.name in ("left: solid", "right: solid")]
    assert len(solids) == 2 and all("1 closed solid" in r.detail for r in solids)


def test_pit_shape_oval_keeps_troughs_and_round_refuses_them():
    from printables.models import model_params

    oval = model_params("giuthi-board", {"pit_shape": "oval", "size_mm": "160x145"}, "giuthi")
    assert oval.pit_length_mm == 56.9 and oval.pit_length_mm / oval.pit_diameter_mm > 1.4
    assert_one_line_error(invoke("giuthi", "--show", "--pit-length", "60"),
                          "--pit-length 60: a round pit 35.5 mm wide is at most 49.7 mm long (1.4 x); or --pit-shape oval")
    assert invoke("giuthi", "--show", "--pit-shape", "oval", "--size", "160x145").exit_code == 0
