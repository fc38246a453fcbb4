"""The publisher's box: only known facts, plus figures the rule cores measure (issue 24).

The simulated figures (printables/measured_facts.json, written by tools/simulated_facts.py) are
re-played with the tool's seed and re-measured with another; every sheet prints them as stored, and
the checks fail a box that prints an unknown fact or a figure the data does not hold. Minefield's
"you also need" names pieces that fit the printed cell, its Korean band labels are words, and a
print-shop card keeps its scale bar and version in the slug.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
import sys
from pathlib import Path

import pdfplumber
import pytest

from printables import __version__
from printables.check.dispatch import check_file
from printables.check.pdf import read_pdf
from printables.i18n.books import catalogue
from printables.layout import harvest as harvest_layout
from printables.layout import minefield as minefield_layout
from printables.layout import peas as peas_layout
from printables.measured import MEASURED_PATH, dumps, entry, facts_for, stored, stored_measure
from printables.params.harvest import HarvestSheet
from printables.params.minefield import MinefieldSheet
from printables.params.peas import PeaCard
from printables.render.pdf import render_pdf
from printables.rules import harvest, minefield, patchwork, patchwork_play, simulation
from printables.rules.facts import GAME_FACTS, TURN_WORDS, GameFacts, largest_piece_mm, minefield_needs, sheet_facts
from printables.sheets import render_sheet, sheet_params

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import simulated_facts  # noqa: E402


def failed(results):
    return {r.name for r in results if not r.ok}


def detail(results, name):
    return next(r.detail for r in results if r.name == name)


def _flat(path) -> str:
    with pdfplumber.open(str(path)) as pdf:
        return " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)


def _write(tmp_path, data: bytes, name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# ------------------------------------------------------------------------------- the policies


def test_the_policies_choose_legal_moves_to_the_end():
    rng = random.Random(3)
    state = minefield.new_game(7)
    while not minefield.is_terminal(state):
        move = simulation.shortest_route_move(state, rng)
        assert minefield.is_legal(state, move)
        state = minefield.apply(state, move)
    game = patchwork_play.new_game(5)
    while not patchwork_play.is_terminal(game):
        move = simulation.greedy_buyer_move(game, rng)
        assert patchwork_play.is_legal(game, move)
        game = patchwork_play.apply(game, move)


def test_shortest_route_completes_a_route_that_needs_one_stone():
    """Black to move, one empty cell short of joining top and bottom: it plays there (drawn below)."""
    position = minefield.parse_position("\n".join([
        "B....",
        "B....",
        ".....",
        "B....",
        "B....",
    ]))
    state = minefield.state_from_position(position, minefield.BLACK)
    assert simulation.shortest_route_move(state, random.Random(0)) == (2, 0)


def test_shortest_route_beats_random_play_and_the_greedy_buyer_beats_random_buying():
    wins = 0
    for g in range(10):
        rng = random.Random(g)
        state, me = minefield.new_game(7), minefield.BLACK if g % 2 == 0 else minefield.WHITE
        while not minefield.is_terminal(state):
            move = simulation.shortest_route_move(state, rng) if state.to_move == me else rng.choice(minefield.legal_moves(state))
            state = minefield.apply(state, move)
        wins += minefield.outcome(state) == me
    assert wins >= 9
    wins = 0
    for g in range(6):
        rng = random.Random(g)
        state = patchwork_play.new_game(g)
        while not patchwork_play.is_terminal(state):
            mine = patchwork_play.current_player(state) == g % 2
            state = patchwork_play.apply(state, simulation.greedy_buyer_move(state, rng) if mine else rng.choice(patchwork_play.legal_moves(state)))
        wins += patchwork_play.winner(state) == g % 2
    assert wins >= 5


def test_a_measure_is_seeded_and_summarises_its_games():
    key = "8x8 2p 2/2 coins"
    a = simulation.measure("harvest", key, games=40, seed=1)
    assert a == simulation.measure("harvest", key, games=40, seed=1)
    turns = sorted(simulation.play("harvest", key, random.Random(simulation.game_seed("harvest", key, 1, g))).turns
                   for g in range(40))
    # the shortest, the lower median (the 20th of 40) and the longest
    assert (a.turns_low, a.turns_median, a.turns_high) == (turns[0], turns[19], turns[39])
    assert 0 <= a.first_wins <= 1 and 0 <= a.draws <= 1 - a.first_wins
    assert simulation.measure("peas", "easy", games=3, seed=0).first_wins is None  # solitaire


# ------------------------------------------------------------------------------- the stored data


def test_the_stored_file_is_the_tools_output_for_every_measured_set():
    figures = stored()
    wanted = {(kind, key): params for kind, key, params in simulation.measured_sets()}
    assert {(kind, key) for kind in figures for key in figures[kind]} == set(wanted)
    for (kind, key), params in wanted.items():
        found = figures[kind][key]
        assert found["params"] == params and found["policy"] == simulation.POLICIES[kind]
        assert (found["games"], found["seed"]) == (simulation.GAMES, simulation.SEED) and found["games"] >= 1000
        assert ("first_wins" in found) == (kind != "peas" and params.get("players", 2) == 2)
    assert MEASURED_PATH.read_text(encoding="utf-8") == dumps(figures)  # written as the tool writes it


def test_every_presets_parameters_are_measured():
    from printables.params.presets import load_preset

    for path in sorted((ROOT / "templates").glob("*.toml")):
        preset = load_preset(path)
        p = preset.params
        if preset.kind == "harvest":
            key = simulation.params_key("harvest", grid=tuple(int(v) for v in p["grid"].split("x")), players=p["players"],
                                        opening_coins=p.get("opening_coins", harvest.OPENING_COINS),
                                        coins_per_turn=p.get("coins_per_turn", harvest.DEFAULT_COINS_PER_TURN))
        elif preset.kind == "minefield":
            key = simulation.params_key("minefield", size=p["size"])
        elif preset.kind == "patchwork":
            key = simulation.params_key("patchwork", leather=p.get("leather", patchwork.DEFAULT_EDITION))
        elif preset.kind == "peas":
            key = simulation.params_key("peas", layout=p["layout"])
        else:
            continue
        assert key in stored()[preset.kind], (path.name, key)


@pytest.mark.slow
def test_the_tool_replays_stored_figures_exactly_with_its_seed():
    sets = [s for s in simulation.measured_sets() if s[1] in ("10x10 2p 2/2 coins", "7x7", "classic")]
    assert len(sets) == 3
    assert simulated_facts.table(sets) == {kind: {key: stored()[kind][key]} for kind, key, _ in sets}


def _rank_interval(n: int, q: float, z: float = 3.3) -> tuple[int, int]:
    """0-based ranks of an n-sample between which the population's q-quantile lies (about 99.9 %)."""
    half = z * math.sqrt(n * q * (1 - q))
    return max(0, math.floor(n * q - half) - 1), min(n - 1, math.ceil(n * q + half))


@pytest.mark.slow
@pytest.mark.parametrize("kind, key", [("harvest", "10x10 2p 2/2 coins"), ("minefield", "11x11"),
                                       ("patchwork", "classic"), ("peas", "default")])
def test_a_fresh_sample_agrees_with_the_stored_figures(kind, key):
    """Another seed, 200 games: the stored median lies in the fresh sample's 99.9 % interval for the
    median, the stored shortest and longest games (of 1000) beyond the fresh sample's 5th and 95th
    percentiles, and the stored first-player share within 3.5 standard errors of the fresh one."""
    n = 200
    played = [simulation.play(kind, key, random.Random(simulation.game_seed(kind, key, 777, g))) for g in range(n)]
    turns = sorted(p.turns for p in played)
    measure = stored_measure(kind, **stored()[kind][key]["params"])
    lo, hi = _rank_interval(n, 0.5)
    assert turns[lo] <= measure.turns_median <= turns[hi], (measure.turns_median, turns[lo], turns[hi])
    assert measure.turns_low <= turns[_rank_interval(n, 0.05)[1]] and measure.turns_high >= turns[_rank_interval(n, 0.95)[0]]
    assert measure.turns_low <= measure.turns_median <= measure.turns_high
    if measure.first_wins is not None:
        fresh = sum(p.result == simulation.FIRST for p in played) / n
        p = measure.first_wins
        spread = math.sqrt(max(p * (1 - p), 0.01) * (1 / n + 1 / measure.games))
        assert abs(fresh - p) <= 3.5 * spread, (fresh, p)


# ------------------------------------------------------------------------------- the words


def test_facts_leave_unknowns_out_and_add_the_measured_figures():
    texts = [f"{label}: {value}" for kind in GAME_FACTS for label, value in GAME_FACTS[kind].entries()]
    assert not any(re.search(r"not (stated|named|public)", t) for t in texts)
    assert not any(t.startswith(("Playing time", "Age")) for t in texts)
    assert [label for label, _ in GAME_FACTS["peas"].entries()] == ["Players", "You also need", "Publisher"]
    assert [label for label, _ in GAME_FACTS["minefield"].entries()] == ["Players", "You also need", "Design"]
    measure = simulation.Measure(1000, 1, 24, 18, 31, 0.5161, 0.0)
    facts = sheet_facts(GAME_FACTS["patchwork"], "patchwork", measure)
    assert facts.entries()[1] == ("1000 simulated games", "18–31 turns, median 24; first player wins 52 %")
    tied = sheet_facts(GAME_FACTS["harvest"], "harvest", dataclasses.replace(measure, draws=0.155))
    assert tied.entries()[1] == ("1000 simulated games", "18–31 turns, median 24; first player wins 52 %, 16 % tied")
    alone = sheet_facts(GAME_FACTS["peas"], "peas", dataclasses.replace(measure, first_wins=None, draws=None))
    assert alone.entries()[1] == ("1000 simulated games", "18–31 rolls, median 24")


def test_unmeasured_parameters_print_no_figure():
    assert stored_measure("minefield", size=11) is not None
    assert stored_measure("minefield", size=17) is None
    assert stored_measure("harvest", grid=(11, 9), players=2, opening_coins=2, coins_per_turn=2) is None
    assert stored_measure("peas", layout="ooo/o.o/ooo") is None
    labels = [label for label, _ in facts_for("harvest", grid=(11, 9), players=2, opening_coins=2, coins_per_turn=2).entries()]
    assert not any("simulated" in label for label in labels)


@pytest.mark.parametrize("cell, pieces", [(11.0, "9 mm"), (15.0, "13 mm"), (18.5, "16 mm"), (21.9, "19 mm")])
def test_minefield_names_counters_that_fit_cells_under_22_mm(cell, pieces):
    assert largest_piece_mm(cell) == int(pieces.split()[0])
    assert minefield_needs(cell) == f"a pencil, or black and white counters or coins up to {pieces} across"
    assert "Go stones" in minefield_needs(22.0) and "Go stones" in minefield_needs(30.0)


# ------------------------------------------------------------------------------- the sheets


@pytest.mark.parametrize("kind, params, key", [
    ("peas", {}, "default"),
    ("peas", {"lang": "ko", "back": True}, "default"),
    ("minefield", {"lang": "ko"}, "11x11"),
    ("harvest", {"lang": "tr"}, "10x10 2p 2/2 coins"),
    ("patchwork", {"part": "track"}, "classic"),
])
def test_every_box_prints_the_stored_figures_in_its_language(tmp_path, kind, params, key):
    path = _write(tmp_path, render_sheet(kind, sheet_params(kind, params)), f"{kind}.pdf")
    results = check_file(path)
    assert not failed(results), [r for r in results if not r.ok]
    text = _flat(path)
    lang = params.get("lang", "en")
    figures = stored()[kind][key]
    low, high, median = figures["turns"]["shortest"], figures["turns"]["longest"], figures["turns"]["median"]
    english = f"1000 simulated games: {low}–{high} {TURN_WORDS[kind]}, median {median}"
    if "first_wins" in figures:
        english += f"; first player wins {math.floor(figures['first_wins'] * 100 + 0.5)} %"
        tied = math.floor(figures["draws"] * 100 + 0.5)
        english += f", {tied} % tied" if tied else ""
    printed = english if lang == "en" else catalogue(lang).translate(english)
    assert " ".join(printed.split()) in text, printed
    for unknown in ("not stated", "not named", "not public"):
        assert catalogue(lang).phrase(unknown) not in text


def _box_with(monkeypatch, module, facts: GameFacts):
    monkeypatch.setattr(module, "box_facts", lambda *args, **kwargs: facts)


def test_check_fails_on_a_figure_that_is_not_the_stored_one(tmp_path, monkeypatch):
    sheet = HarvestSheet()
    real = stored_measure("harvest", grid=(10, 10), players=2, opening_coins=2, coins_per_turn=2)
    wrong = sheet_facts(GAME_FACTS["harvest"], "harvest", dataclasses.replace(real, turns_median=real.turns_median + 3))
    _box_with(monkeypatch, harvest_layout, wrong)
    results = check_file(_write(tmp_path, render_pdf(harvest_layout.layout(sheet)), "wrong.pdf"))
    assert "publisher's box" in failed(results) and "simulated figures" in detail(results, "publisher's box")
    luckier = sheet_facts(GAME_FACTS["harvest"], "harvest", dataclasses.replace(real, first_wins=0.9))
    _box_with(monkeypatch, harvest_layout, luckier)
    results = check_file(_write(tmp_path, render_pdf(harvest_layout.layout(sheet)), "luckier.pdf"))
    assert "publisher's box" in failed(results) and f", {real.turns_median}, 90, " in detail(results, "publisher's box")


def test_check_fails_on_a_figure_for_parameters_never_measured(tmp_path, monkeypatch):
    sheet = HarvestSheet(grid=(11, 9))
    guessed = sheet_facts(GAME_FACTS["harvest"], "harvest", stored_measure("harvest", grid=(10, 10), players=2, opening_coins=2, coins_per_turn=2))
    _box_with(monkeypatch, harvest_layout, guessed)
    results = check_file(_write(tmp_path, render_pdf(harvest_layout.layout(sheet)), "guessed.pdf"))
    assert "publisher's box" in failed(results) and "stored none" in detail(results, "publisher's box")


def test_check_fails_on_the_old_box_with_unknown_facts(tmp_path, monkeypatch):
    """The box as it was: "Playing time and age: not stated in the rules", "Design: not named"."""
    card = PeaCard()
    measure = stored_measure("peas", layout="default")
    new = sheet_facts(GAME_FACTS["peas"], "peas", measure)
    old = GameFacts(new.players, new.needs, "not named in the rules", new.publisher,
                    (("Playing time and age", "not stated in the rules"), *new.measured))
    _box_with(monkeypatch, peas_layout, old)
    results = check_file(_write(tmp_path, render_pdf(peas_layout.layout(card)), "old.pdf"))
    assert "publisher's box" in failed(results)
    assert "unknown fact ('not stated')" in detail(results, "publisher's box")
    assert "unknown fact ('not named')" in detail(results, "publisher's box")


def test_minefield_sheets_name_pieces_that_fit_their_cells(tmp_path):
    for size, cell, go in ((11, None, False), (7, 22.0, True), (5, 30.0, True), (11, 12.0, False)):
        params = {"size": size} | ({"cell_mm": cell} if cell else {})
        path = _write(tmp_path, render_sheet("minefield", sheet_params("minefield", params)), f"m{size}.pdf")
        results = check_file(path)
        assert not failed(results), [r for r in results if not r.ok]
        recorded = read_pdf(path).parameters()["cell_mm"]
        text = _flat(path)
        assert ("Go stones" in text) == go, (size, recorded)
        if not go:
            assert f"up to {math.floor(recorded - 2.0 + 1e-9)} mm across" in text
            assert recorded < 22.0


def test_minefield_check_fails_on_go_stones_beside_small_cells(tmp_path, monkeypatch):
    sheet = MinefieldSheet(size=11)
    facts = facts_for("minefield", cell_mm=30.0, size=11)  # the old words: Go stones on 15 mm cells
    monkeypatch.setattr(minefield_layout, "box_facts", lambda *args: facts)
    document = minefield_layout.layout(sheet)
    fits = largest_piece_mm(json.loads(document.subject)["cell_mm"])
    results = check_file(_write(tmp_path, render_pdf(document), "go.pdf"))
    assert "publisher's box" in failed(results) and f"up to {fits} mm across" in detail(results, "publisher's box")


def _labels(path) -> dict[str, tuple[str, float, str, float]]:
    """Per band colour: the label's text, font size, font and extent along the band (mm)."""
    found = {}
    with pdfplumber.open(str(path)) as pdf:
        page = pdf.pages[0]
        for rect in page.rects:
            if not rect.get("fill") or abs(rect["width"] - rect["height"]) < 1:
                continue
            chars = [c for c in page.chars if rect["x0"] <= (c["x0"] + c["x1"]) / 2 <= rect["x1"]
                     and rect["top"] <= (c["top"] + c["bottom"]) / 2 <= rect["bottom"]]
            if not chars:
                continue
            across = rect["width"] > rect["height"]
            extent = (max(c["x1"] for c in chars) - min(c["x0"] for c in chars)) if across else \
                (max(c["bottom"] for c in chars) - min(c["top"] for c in chars))
            colour = "black" if across else "white"
            found[colour] = ("".join(c["text"] for c in chars), round(chars[0]["size"], 2), chars[0]["fontname"].split("+")[-1],
                             extent * 25.4 / 72)
    return found


def test_the_korean_white_label_is_as_legible_as_black(tmp_path):
    path = _write(tmp_path, render_sheet("minefield", sheet_params("minefield", {"lang": "ko"})), "ko.pdf")
    labels = _labels(path)
    black, white = labels["black"], labels["white"]
    assert (black[0], white[0]) == ("흑돌", "백돌")
    assert white[1:3] == black[1:3] and "Bold" in white[2]  # the same size and weight
    assert white[3] >= 4.0 and black[3] >= 4.0  # words, not a lone 2 mm glyph
    assert not failed(check_file(path))


def test_check_fails_on_a_lone_syllable_band_label(tmp_path, monkeypatch):
    book = catalogue("ko")
    monkeypatch.setitem(book.texts, "WHITE", "백")  # the old label
    path = _write(tmp_path, render_sheet("minefield", sheet_params("minefield", {"lang": "ko"})), "old-ko.pdf")
    results = check_file(path)
    assert failed(results) == {"band labels"} and "under 4 mm" in detail(results, "band labels")


# ------------------------------------------------------------------------------- the print-shop card


def test_nothing_but_the_card_stands_inside_a_print_shop_trim(tmp_path):
    path = _write(tmp_path, render_sheet("peas", sheet_params("peas", {"bleed": 3, "back": True})), "shop.pdf")
    results = check_file(path)
    assert not failed(results), [r for r in results if not r.ok]
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    with pdfplumber.open(str(path)) as pdf:
        for page, rpage in zip(pdf.pages, reader.pages):
            media_h = float(rpage.mediabox[3])
            left, bottom, right, top = (float(v) for v in rpage.trimbox)
            bleed = [float(v) for v in rpage.bleedbox]

            def inside(x0, t, x1, b, box=(left, bottom, right, top)) -> bool:  # pdfplumber top-down
                return x1 > box[0] and x0 < box[2] and (media_h - b) < box[3] and (media_h - t) > box[1]

            words = page.extract_words()
            version = [w for w in words if w["text"] == __version__]
            assert version and not any(inside(w["x0"], w["top"], w["x1"], w["bottom"]) for w in version)
            bars = [l for l in page.lines if abs(abs(l["x1"] - l["x0"]) - 50 * 72 / 25.4) < 0.5 and abs(l["top"] - l["bottom"]) < 0.1]
            assert len(bars) == 1 and not inside(bars[0]["x0"], bars[0]["top"], bars[0]["x1"], bars[0]["bottom"])
            # beyond the bleed too: in the slug with the crop marks, cut away with them
            assert not inside(bars[0]["x0"], bars[0]["top"], bars[0]["x1"], bars[0]["bottom"], tuple(bleed))
            caption = [w for w in words if w["text"] == "100"]
            assert caption and not any(inside(w["x0"], w["top"], w["x1"], w["bottom"]) for w in caption)


def test_check_fails_on_a_print_shop_card_with_its_scale_bar_in_the_trim(tmp_path, monkeypatch):
    monkeypatch.setattr(peas_layout, "is_print_shop", lambda card: False)  # the old card: bar and version inside
    path = _write(tmp_path, render_pdf(peas_layout.layout(PeaCard(bleed=3.0))), "old-shop.pdf")
    results = check_file(path)
    assert "scale bar" in failed(results)
    assert "a scale bar inside the trim" in detail(results, "scale bar")


def test_a_portrait_print_shop_card_puts_its_caption_over_the_card(tmp_path):
    path = _write(tmp_path, render_sheet("peas", sheet_params("peas", {"bleed": 3, "landscape": False})), "portrait.pdf")
    assert not failed(check_file(path))


def test_stored_entries_round_trip():
    for kind, keys in stored().items():
        for key, found in keys.items():
            measure = stored_measure(kind, **{**found["params"], **({"grid": tuple(found["params"]["grid"])} if kind == "harvest" else {})})
            assert entry(kind, found["params"], measure) == found
    assert json.loads(dumps(stored()))["figures"] == stored()
