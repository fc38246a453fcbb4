"""The Giuthi rules sheet draws every lap as an arrow round the pits, and the check replays the arrows.

A lap is drawn on the board before it: the lifted pit shaded, a line leaving it and running round
the board past every pit a seed falls in (a dot beside each), its head pointing into the ringed
pit of the last seed. Example, South's pit 1 (6 seeds) sown clockwise on 2x6:

       11  10   9   8   7   6
     .--*---*---*---*-->(7)          * a seed, > the last seed
     |
     *  (0)  [1]                     [1] the lifted pit
     '---*----'
        0   1
"""

from __future__ import annotations

import dataclasses
import re

import pdfplumber
import pytest

from printables.check.dispatch import check_file
from printables.layout.language import drawing_in
from printables.layout.translation import translate_document
from printables.layout.giuthi_rules import EXAMPLE_KEYS, find_examples, rules_document
from printables.layout.primitives import Circle, Line, Polygon, Rect, Text
from printables.paper import pt_to_mm
from printables.render.pdf import render_pdf
from printables.rules import giuthi as rules


def _sheet(tmp_path, examples=None, lang="en", pits=6, seeds=4, paper="a4", name="rules.pdf"):
    """The sheet as ``printables giuthi --rules`` writes it (models.write_rules_sheet), with
    ``examples`` drawn instead of the found ones."""
    with drawing_in(lang) as paragraphs:
        document = rules_document(pits, seeds, paper, examples=examples)
    path = tmp_path / name
    path.write_bytes(render_pdf(translate_document(document, lang, paragraphs)))
    return path


def _failures(path) -> dict:
    return {r.name: r.detail for r in check_file(path) if not r.ok}


def _with_trail(key: str, board: int, change):
    """The found examples with board ``board`` of diagram ``key`` drawn with ``change(trail)``."""
    examples = list(find_examples(6, 4))
    i = EXAMPLE_KEYS.index(key)
    boards = list(examples[i].boards)
    boards[board] = dataclasses.replace(boards[board], trail=change(boards[board].trail))
    examples[i] = dataclasses.replace(examples[i], boards=tuple(boards))
    return tuple(examples)


# ---------------------------------------------------------------------------------------------
# What is drawn


def test_every_lap_gets_its_own_board_with_its_arrow():
    for pits, seeds in ((6, 4), (8, 5), (10, 9)):
        for example in find_examples(pits, seeds):
            if example.move is None:
                assert len(example.boards) == 1 and not example.boards[0].trail
                continue
            first = example.boards[0]
            trace = rules.apply_traced(rules.State(first.pits, first.stores, example.player), example.move)
            assert 1 <= len(trace.laps) <= 3, (example.key, len(trace.laps))
            assert len(example.boards) == len(trace.laps) + 1 and not example.boards[-1].trail
            size = 2 * pits
            for board, lap in zip(example.boards, trace.laps):
                trail = board.trail
                # counted on the drawn board: one pit per seed lifted, one pit at a time, one way
                assert len(trail) - 1 == board.pits[trail[0]] == lap.seeds
                assert {(b - a) % size for a, b in zip(trail, trail[1:])} == {1 if lap.direction is rules.Direction.CCW else size - 1}
                assert trail[0] == lap.start and trail[-1] == lap.end


def test_each_sowing_of_a_sow_again_has_its_own_picture():
    example = find_examples(6, 4)[EXAMPLE_KEYS.index("sow-again")]
    assert [b.trail[0] for b in example.boards[:-1]] == [s.pit for s in example.move.sowings]


def test_pits_are_drawn_at_8_mm_or_more(tmp_path):
    path = _sheet(tmp_path)
    with pdfplumber.open(path) as pdf:
        sizes = [pt_to_mm(c["x1"] - c["x0"]) for page in pdf.pages for c in page.curves
                 if len(c["pts"]) == 5 and c.get("stroke") and c.get("fill") and abs((c["x1"] - c["x0"]) - (c["bottom"] - c["top"])) < 0.5
                 and pt_to_mm(c["x1"] - c["x0"]) > 6.0]
    pits = [s for s in sizes if s < 12.0]  # the pits (filled circles; stores are boxes)
    assert len(pits) > 12 * 15 and min(pits) >= 8.0, min(pits)


@pytest.mark.parametrize("lang", ["en", "ko", "tr"])
def test_no_direction_code_is_printed(tmp_path, lang):
    path = _sheet(tmp_path, lang=lang)
    with pdfplumber.open(path) as pdf:
        text = " ".join(page.extract_text() for page in pdf.pages)
    assert not re.search(r"(?i)\d+\s*c?cw\b|\bc?cw\b", text), re.findall(r"(?i).{20}\bc?cw\b.{5}", text)


def _turns_anticlockwise(points) -> bool:
    """True if an arc drawn on the page (y down) turns anticlockwise as the eye sees it."""
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:]))
    return area < 0  # y runs down the page: the shoelace sign flips


@pytest.mark.parametrize("lang", ["en", "ko", "tr"])
def test_every_lap_and_the_legend_show_the_direction_as_a_curved_arrow(lang):
    from printables.layout.giuthi_rules import TRAIL_MM

    with drawing_in(lang) as paragraphs:
        document = translate_document(rules_document(6, 4), lang, paragraphs)
    laps = 0
    for page in document.pages:
        symbol = None
        for item in page.items:
            if isinstance(item, Polygon) and not item.closed and len(item.points) == 25:
                symbol = item  # a curved arrow: the last one before a board is its lap's
            elif isinstance(item, Polygon) and not item.closed and item.line_mm == TRAIL_MM and len(item.points) > 2:
                laps += 1
                # the way the lap's arrow runs along the row it leaves
                (x0, y0), (x1, y1), (x2, _) = item.points[:3]
                anticlockwise = (x2 > x1) == (y1 > y0)
                assert symbol is not None and _turns_anticlockwise(symbol.points) == anticlockwise
                symbol = None
    assert laps == sum(len(e.boards) - 1 for e in find_examples(6, 4))
    legend = [i for i in document.pages[0].items if isinstance(i, Text)]
    words = {"en": ("anticlockwise", "clockwise"), "ko": ("반시계 방향", "시계 방향"),
             "tr": ("saat yönünün tersine", "saat yönünde")}[lang]
    assert all(any(t.text == w for t in legend) for w in words)


def test_rule_5b_is_explained_in_plain_words_right_before_its_example(tmp_path):
    path = _sheet(tmp_path)
    with pdfplumber.open(path) as pdf:
        text = " ".join(" ".join(page.extract_text().split()) for page in pdf.pages)
    plain = text.index("Rule 5b, in plain words: when you must sow again")
    assert text.index("Diagram 4 (sow-again)") < plain < text.index("Diagram 5 (rule 5b)")
    assert "choice points" not in text
    assert "Now South may choose: pit 3 anticlockwise, pit 5 anticlockwise, pit 5 clockwise." in text
    assert "Not offered: pit 3 clockwise, which would bring back the board from the start of the turn." in text


@pytest.mark.parametrize("lang, paper", [("en", "a4"), ("ko", "a4"), ("tr", "a4"), ("en", "letter")])
def test_the_pages_are_used_fully_and_end_with_a_quick_reference_to_cut_out(lang, paper):
    with drawing_in(lang) as paragraphs:
        document = translate_document(rules_document(6, 4, paper), lang, paragraphs)
    for number, page in enumerate(document.pages, 1):
        footer = max(i.y for i in page.items if isinstance(i, Text))
        lowest = max((i.y + i.h if isinstance(i, Rect) else i.y if isinstance(i, Text) else 0.0)
                     for i in page.items if not (isinstance(i, Text) and i.y == footer))
        # less than a fifth of the paper below the last block, margin and footer included
        assert page.height - lowest < 0.2 * page.height, (number, page.height - lowest)
    last = document.pages[-1].items
    cut = [i for i in last if isinstance(i, Rect) and i.dash_mm]
    assert len(cut) == 1
    card = cut[0]
    crops = [i for i in last if isinstance(i, Line) and (i.x1 == i.x2 or i.y1 == i.y2)
             and min(abs(i.x1 - card.x), abs(i.x1 - card.x - card.w)) < 6 and min(abs(i.y1 - card.y), abs(i.y1 - card.y - card.h)) < 6]
    assert len(crops) == 8
    inside = [i for i in last if isinstance(i, Text) and card.x < i.x < card.x + card.w and card.y < i.y < card.y + card.h]
    assert min(t.size_pt for t in inside) >= 8.0
    title = {"en": "Giuthi quick reference", "ko": "기우티 규칙 요약 카드", "tr": "Giuthi hızlı başvuru kartı"}[lang]
    assert any(t.text == title for t in inside)


# ---------------------------------------------------------------------------------------------
# The check reads the arrows back


@pytest.mark.parametrize("lang", ["en", "ko", "tr"])
def test_the_sheet_passes_in_every_language(tmp_path, lang):
    results = check_file(_sheet(tmp_path, lang=lang))
    assert all(r.ok for r in results), [str(r) for r in results if not r.ok]
    replayed = [r for r in results if r.name.startswith("diagram ")]
    assert len(replayed) == 7 and all("every arrow replayed" in r.detail for r in replayed)
    assert any(r.name == "quick reference" for r in results)


# relay, lap 2: pit 3's 7 seeds clockwise: 3 -> 2 1 0 11 10 9 8
DAMAGES = {
    "skips a pit": (lambda t: t[:2] + t[3:], "diagram 3 (relay)", "skips from pit 2 to pit 0"),
    "reversed": (lambda t: t[::-1], "diagram 3 (relay)", "lap 2's arrow leaves pit 8; the rule core lifts pit 3"),
    "ends a pit too far": (lambda t: t + ((t[-1] - 1) % 12,), "diagram 3 (relay)",
                           "lap 2's arrow ends in pit 7; the rule core's last seed falls in pit 8"),
    "ends a pit short": (lambda t: t[:-1], "diagram 3 (relay)",
                         "lap 2's arrow ends in pit 9; the rule core's last seed falls in pit 8"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_arrow_fails(tmp_path, damage):
    change, diagram, message = DAMAGES[damage]
    examples = _with_trail("relay", 1, change)
    assert examples[2].boards[1].trail != find_examples(6, 4)[2].boards[1].trail
    failures = _failures(_sheet(tmp_path, examples))
    assert list(failures) == [diagram], failures
    assert message in failures[diagram]


@pytest.mark.parametrize("lang", ["ko", "tr"])
def test_a_damaged_arrow_fails_in_korean_and_turkish(tmp_path, lang):
    failures = _failures(_sheet(tmp_path, _with_trail("relay", 1, DAMAGES["skips a pit"][0]), lang))
    assert list(failures) == ["diagram 3 (relay)"] and "skips from pit 2 to pit 0" in failures["diagram 3 (relay)"]


def test_an_arrow_sown_the_wrong_way_fails(tmp_path):
    # a turn: pit 1's 6 seeds clockwise end in pit 7, and so would they anticlockwise: only the
    # direction tells (the caption says clockwise, the boards after the lap differ)
    example = find_examples(6, 4)[EXAMPLE_KEYS.index("a turn")]
    assert example.boards[0].trail == (1, 0, 11, 10, 9, 8, 7)
    mirrored = _with_trail("a turn", 0, lambda t: tuple((2 * t[0] - p) % 12 for p in t))
    assert mirrored[1].boards[0].trail == (1, 2, 3, 4, 5, 6, 7)
    failures = _failures(_sheet(tmp_path, mirrored))
    assert list(failures) == ["diagram 2 (a turn)"], failures
    assert "the arrows show pit 1 anticlockwise" in failures["diagram 2 (a turn)"]


def test_an_arrowhead_at_the_wrong_end_of_its_line_fails(tmp_path):
    from printables.layout.giuthi_rules import TRAIL_MM

    document = rules_document(6, 4)
    pages = []
    done = False
    for page in document.pages:
        items = list(page.items)
        for k, item in enumerate(items):
            if not done and isinstance(item, Polygon) and not item.closed and item.line_mm == TRAIL_MM and len(item.points) > 2:
                items[k] = dataclasses.replace(item, points=item.points[::-1])  # the head stays where it was
                done = True
        pages.append(dataclasses.replace(page, items=tuple(items)))
    assert done
    path = tmp_path / "head.pdf"
    path.write_bytes(render_pdf(translate_document(dataclasses.replace(document, pages=tuple(pages)), "en")))
    failures = _failures(path)
    assert list(failures) == ["diagram 2 (a turn)"] and "arrowhead is not at the end" in failures["diagram 2 (a turn)"]


def test_a_missing_seed_dot_fails(tmp_path):
    document = rules_document(6, 4)
    first = document.pages[0]
    dots = [i for i in first.items if isinstance(i, Circle) and i.r < 1.0 and i.fill is not None]
    assert dots
    # the legend's dots stand outside any board; drop the first dot on a board (diagram 2's lap)
    legend_bottom = min(i.y for i in first.items if isinstance(i, Text) and i.text.startswith("Diagram 1"))
    dot = next(d for d in dots if d.cy > legend_bottom)
    page = dataclasses.replace(first, items=tuple(i for i in first.items if i is not dot))
    path = tmp_path / "dot.pdf"
    path.write_bytes(render_pdf(translate_document(dataclasses.replace(document, pages=(page,) + document.pages[1:]), "en")))
    failures = _failures(path)
    assert list(failures) == ["diagram 2 (a turn)"] and "skips from pit 1 to pit 11" in failures["diagram 2 (a turn)"]


def test_a_lap_that_comes_back_round_runs_one_lane_further_out_and_replays(tmp_path):
    # 2x5, 9 seeds: the relay's first lap lifts 13 seeds, passing its own pit 0 on the way round
    relay = find_examples(5, 9)[EXAMPLE_KEYS.index("relay")]
    trail = relay.boards[0].trail
    assert len(trail) - 1 == 13 and trail.count(0) == 2
    from printables.layout.giuthi_rules import BoardGeometry, trail_points, trail_rounds

    assert trail_rounds(trail, 5) == 2
    geo = BoardGeometry(0.0, 0.0, 5, 2)
    points = trail_points(geo, trail)
    south_lanes = sorted({round(y, 2) for _, y in points if y > geo.south_y})
    assert south_lanes[-1] > south_lanes[0] + 1.0  # the second time past South's row, further out
    results = check_file(_sheet(tmp_path, pits=5, seeds=9))
    assert all(r.ok for r in results), [str(r) for r in results if not r.ok]


def test_a_note_too_long_for_one_line_runs_on_and_is_read_whole(tmp_path):
    # 2x10, 4 seeds: rule 5b's example offers many sowings; in Turkish the list takes two lines
    path = _sheet(tmp_path, lang="tr", pits=10, seeds=4)
    with pdfplumber.open(path) as pdf:
        lines = [line for page in pdf.pages for line in page.extract_text().splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("Şimdi Güney bunları seçebilir:"))
    assert not lines[start].endswith(".") and lines[start + 1].endswith(".")
    results = {r.name: r for r in check_file(path)}
    assert all(r.ok for r in results.values()), [str(r) for r in results.values() if not r.ok]
    assert results["diagram 5 (rule 5b)"].ok
