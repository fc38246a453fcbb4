"""The README, the print card and the manifest say the same numbers for the default Giuthi board."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from printables.build import all_presets
from printables.check.slicer import PROFILE_FILE
from printables.models import model_params, seed_params_for
from printables.render.giuthi_card import giuthi_print_card

ROOT = Path(__file__).resolve().parent.parent


def _readme_giuthi() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return " ".join(readme.split("### `printables giuthi`", 1)[1].split("\n## ", 1)[0].split())


def _default_board():
    preset = next(p for p in all_presets(()) if p.name == "giuthi-default")
    return model_params("giuthi-board", preset.params, preset.name)


def _card_text(card) -> str:
    rows = card.settings + card.assembly + card.to_printer
    return " ".join(" ".join(f"{k} {v}" for k, v in rows).split())


def test_readme_card_and_manifest_agree_on_sizes_band_and_screws():
    from printables.cad.giuthi_board import manifest

    board = _default_board()
    data = manifest(board, {"left": "l.stl", "right": "r.stl"})
    card = _card_text(giuthi_print_card(seed_params_for(board), {}, board))
    readme = _readme_giuthi()
    said = re.search(r"The default board \(`giuthi-default`\): each half ([\d.]+) x ([\d.]+) x ([\d.]+) mm as printed,"
                     r" closed ([\d.]+) x ([\d.]+) x ([\d.]+) mm; (\d+) screws ([\d.]+) mm long; a No\. (\w+) rubber band"
                     r" round a ([\d.]+) mm path", readme)
    assert said, "README: no sentence 'The default board (`giuthi-default`): each half ...'"
    half = board.half_size_mm()
    closed = data["closed_size_mm"]
    expected = (f"The default board (`giuthi-default`): each half {half[0]:.1f} x {half[1]:.1f} x {half[2]:.1f} mm as"
                f" printed, closed {closed[0]:.1f} x {closed[1]:.1f} x {closed[2]:.1f} mm; {data['screws']['count']}"
                f" screws {data['screws']['length_mm']:g} mm long; a No. {said.group(9)} rubber band round a"
                f" {data['band_loop_mm']:g} mm path")
    assert said.group(0) == expected
    # The card: the same sizes, band and screws.
    assert f"each half {half[0]:.1f} x {half[1]:.1f} x {half[2]:.1f} mm" in card
    assert f"closed {closed[0]:.1f} x {closed[1]:.1f} x {closed[2]:.1f} mm" in card
    assert f"No. {said.group(9)} (" in card and f"({data['band_loop_mm']:g} mm path)" in card
    assert f"{data['screws']['count']} x No. 2 (2.2 mm) pan-head self-tapping screws for plastic, " \
           f"{data['screws']['length_mm']:g} mm" in card
    assert PROFILE_FILE in card and PROFILE_FILE in readme
    # The beans: README, card and the manifest's seeds entry (written with every set).
    from printables.models import seed_manifest

    seeds = seed_manifest(seed_params_for(board), board)
    size = " x ".join(f"{v:g}" for v in seeds["size_mm"])
    assert (f"The seeds are beans {size} mm (half ellipsoids, printed flat side down), {seeds['prints']} prints of"
            f" {seeds['per_print']} for {seeds['needed']}") in readme
    assert f"beans {size} mm (long x wide x high)" in card
    assert f"{seeds['prints']} prints x {seeds['per_print']} = " in card


def test_preset_descriptions_say_the_boards_thickness_and_knuckle_height():
    """Each model preset's description: "T mm thick" = thickness_mm, "(K mm at the hinge knuckles)" = as printed."""
    checked = 0
    for preset in all_presets(()):
        if preset.kind != "giuthi-board":
            continue
        board = model_params("giuthi-board", preset.params, preset.name)
        thick = re.search(r"([\d.]+) mm thick", preset.description)
        assert thick and float(thick.group(1)) == board.thickness_mm, (preset.name, preset.description)
        knuckles = re.search(r"\(([\d.]+) mm at the hinge knuckles\)", preset.description)
        if knuckles:
            assert knuckles.group(1) == f"{board.half_size_mm()[2]:g}", (preset.name, board.half_size_mm())
            checked += 1
    assert checked  # the default names its knuckles' height


@pytest.mark.slow
def test_readme_times_are_the_cards(tmp_path):
    """Build the default set with the slicer; the README's time and filament are the card's, rounded."""
    from printables.check.slicer import is_slicer_available
    from printables.models import build_giuthi
    from pypdf import PdfReader

    if not is_slicer_available():
        pytest.skip("prusa-slicer not installed")
    board = _default_board()
    build_giuthi(board, tmp_path, previews=False)
    card = " ".join(PdfReader(tmp_path / "giuthi-print-settings.pdf").pages[0].extract_text().split())
    readme = _readme_giuthi()
    half = re.search(r"a default half takes about (\d+) h (\d+) min and (\d+) g of PLA, the seed sprue (\d+) min and (\d+) g",
                     readme)
    assert half, "README: no 'a default half takes about H h M min and G g of PLA, the seed sprue M min and G g'"
    h, m, g, seed_min, seed_g = (int(v) for v in half.groups())
    left = re.search(rf"{board.part_name('left')}\.stl .*? (\d+) h (\d+) min ([\d.]+) g", card)
    seeds = re.search(r"giuthi-seeds-[\w.-]+\.stl .*? (\d+) min ([\d.]+) g", card)
    assert left and seeds, card
    card_min = int(left.group(1)) * 60 + int(left.group(2))
    assert abs(card_min - (h * 60 + m)) <= 5 and abs(float(left.group(3)) - g) <= 1
    assert abs(int(seeds.group(1)) - seed_min) <= 2 and abs(float(seeds.group(2)) - seed_g) <= 1
