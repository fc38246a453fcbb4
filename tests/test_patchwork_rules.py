"""Tests for the Patchwork rule core: data, one named scenario per rule, perft counts, playouts."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from printables.rules.patchwork import (
    BONUS_POINTS,
    EDITIONS,
    FINAL_POSITION,
    FULL_QUILT,
    INCOME_SPACES,
    LEATHER_SPACES,
    PATCHES,
    TRACK_LENGTH,
    TRACK_POSITIONS,
    IllegalMove,
    bits_to_cells,
    canonical_shape,
    cells_to_bits,
    format_quilt,
    format_shape,
    has_bonus_square,
    leather_spaces,
    parse_quilt,
    parse_shape,
    patch_by_id,
)
from printables.rules.patchwork_play import (
    PASS,
    Buy,
    Pass,
    PlaceLeather,
    apply,
    current_player,
    is_legal,
    is_terminal,
    legal_moves,
    new_game,
    parse_move,
    placement_mask,
    quilt_income,
    scores,
    shuffled_circle,
    winner,
)

EMPTY = "\n".join(["........."] * 9)


def _track(text: str) -> tuple[int, int]:
    """Positions from a drawn stretch of track 'START|cells': '0'/'1' a token, '*' both."""
    start, cells = text.split("|")
    where: dict[str, list[int]] = {"0": [], "1": []}
    for i, ch in enumerate(cells):
        for player in "01":
            if ch in (player, "*"):
                where[player].append(int(start) + i)
    assert len(where["0"]) == len(where["1"]) == 1, text
    return where["0"][0], where["1"][0]


def _state(track: str, circle=(0, 1, 2, 3, 4, 5), top: int = 0, **changes):
    """A position built from the start position with the drawn track and the given changes."""
    edition = changes.pop("edition", "classic")
    start = new_game(circle=circle, edition=edition)
    return replace(start, positions=_track(track), top=top, **changes)


def _buys(moves, patch_id):
    return [m for m in moves if isinstance(m, Buy) and m.patch_id == patch_id]


# ---------------------------------------------------------------------------------------------
# Data


def test_patch_checksums_from_the_rules_file():
    assert len(PATCHES) == 33
    assert sum(p.size for p in PATCHES) == 166
    assert sum(p.cost for p in PATCHES) == 133
    assert sum(p.time for p in PATCHES) == 107
    assert sum(p.income for p in PATCHES) == 38
    assert sum(1 for p in PATCHES if p.income) == 22
    assert [p.id for p in PATCHES] == list(range(33))


def test_patch_lookup_by_id():
    assert patch_by_id(21) is PATCHES[21]
    assert (patch_by_id(6).cost, patch_by_id(6).time, patch_by_id(6).income) == (10, 5, 3)
    assert format_shape(patch_by_id(6).shape) == "##../####"
    with pytest.raises(KeyError):
        patch_by_id(33)


def test_three_shapes_occur_twice_with_different_numbers():
    by_shape: dict = {}
    for p in PATCHES:
        by_shape.setdefault(canonical_shape(p.shape), []).append(p.id)
    twice = sorted(ids for ids in by_shape.values() if len(ids) > 1)
    assert twice == [[17, 18], [25, 26], [27, 28]]
    for a, b in twice:
        assert (PATCHES[a].cost, PATCHES[a].time, PATCHES[a].income) != (
            PATCHES[b].cost, PATCHES[b].time, PATCHES[b].income,
        )  # fmt: skip


def test_track_constants():
    assert TRACK_LENGTH == FINAL_POSITION == 53 and TRACK_POSITIONS == 54
    assert INCOME_SPACES == tuple(range(5, 54, 6))
    assert leather_spaces() == LEATHER_SPACES["classic"] == (20, 26, 32, 44, 50)
    assert leather_spaces("revised") == (26, 32, 38, 44, 50)
    with pytest.raises(ValueError, match="gold"):
        leather_spaces("gold")
    with pytest.raises(ValueError, match="gold"):
        new_game(edition="gold")


def _naive_rotate(rows: list[str]) -> list[str]:
    """A quarter turn clockwise of a drawn shape: new row c is old column c read bottom-up."""
    height, width = len(rows), len(rows[0])
    return ["".join(rows[height - 1 - r][c] for r in range(height)) for c in range(width)]


def _naive_orientations(text: str) -> set[tuple[str, ...]]:
    """All drawings of a shape turned and flipped, done on ASCII rows (a second implementation)."""
    rows = text.split("/")
    out = set()
    for drawing in (rows, [row[::-1] for row in rows]):
        for _ in range(4):
            out.add(tuple(drawing))
            drawing = _naive_rotate(drawing)
    return out


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: f"patch{p.id}")
def test_orientations_match_a_naive_ascii_rotation(patch):
    naive = _naive_orientations(format_shape(patch.shape))
    assert {tuple(format_shape(o).split("/")) for o in patch.orientations} == naive
    assert len(patch.orientations) == len(naive)
    assert patch.orientations[0] == patch.shape  # the printed orientation first
    assert all(canonical_shape(o) == canonical_shape(patch.shape) for o in patch.orientations)


def test_orientation_counts_by_symmetry():
    # Hand count: the square and the plus have 1; a straight line and the H (24) 2 (a half
    # turn or a flip maps them onto themselves); the T-shapes 4; shapes with no symmetry 8.
    counts = {p.id: len(p.orientations) for p in PATCHES}
    assert counts[4] == counts[21] == 1
    assert counts[0] == counts[1] == counts[2] == counts[3] == 2
    assert counts[13] == counts[7] == 4 and counts[24] == counts[23] == 2
    assert counts[5] == counts[6] == counts[17] == 8


def test_canonical_shape_recognises_a_cut_out_turned_and_flipped():
    # Patch 32 (..#/.##/##.) drawn turned a quarter and flipped, at an odd offset.
    drawn = {(5, 7), (6, 7), (6, 8), (7, 8), (7, 9)}
    assert canonical_shape(drawn) == canonical_shape(PATCHES[32].shape)
    assert canonical_shape(drawn) != canonical_shape(PATCHES[9].shape)
    # The L of patch 17 mirrored is still the same free shape; the 1x4 line is not.
    assert canonical_shape(parse_shape(".#/.#/##")) == canonical_shape(PATCHES[17].shape)
    assert canonical_shape(parse_shape("####")) != canonical_shape(PATCHES[17].shape)
    assert len({canonical_shape(p.shape) for p in PATCHES}) == 30


def test_value_types_round_trip():
    for pid, _ in enumerate(PATCHES):
        text = format_shape(PATCHES[pid].shape)
        assert parse_shape(text) == PATCHES[pid].shape
    for move in (PASS, Buy(12, 3, 4, 5), PlaceLeather(8, 0)):
        assert parse_move(str(move)) == move
        assert eval(repr(move)) == move
    assert str(Buy(12, 3, 4, 5)) == "buy 12 o3 r4c5"
    with pytest.raises(ValueError, match="buy twelve"):
        parse_move("buy twelve")
    quilt = parse_quilt(
        """
        #........
        .##......
        .........
        .........
        .........
        .........
        .........
        .........
        ........#
        """
    )
    assert bits_to_cells(quilt) == {(0, 0), (1, 1), (1, 2), (8, 8)}
    assert parse_quilt(format_quilt(quilt)) == quilt
    assert eval(repr(PATCHES[7]), {"Patch": type(PATCHES[7])}) == PATCHES[7]


def test_placement_mask_is_the_shape_shifted():
    mask = placement_mask(0, 1, 3, 8)  # patch 0 standing upright in the last column
    assert format_quilt(mask) == "\n".join(
        [".........", ".........", ".........", "........#", "........#"] + ["........."] * 4
    )
    with pytest.raises(ValueError):
        placement_mask(0, 0, 3, 8)  # lying flat it sticks out on the right


# ---------------------------------------------------------------------------------------------
# Start and market


def test_new_game_circle_is_seeded_and_ends_with_the_2x1():
    a, b = new_game(7), new_game(7)
    assert a == b
    assert a.circle == shuffled_circle(7)
    assert sorted(a.circle) == list(range(33)) and a.circle[-1] == 0
    assert new_game(8).circle != a.circle
    assert a.positions == (0, 0) and a.buttons == (5, 5) and a.quilts == (0, 0)
    assert current_player(a) == 0
    assert a.leathers == (20, 26, 32, 44, 50)
    assert new_game(7, edition="revised").leathers == (26, 32, 38, 44, 50)


def test_buying_the_third_patch_moves_the_marker_to_its_place():
    #   marker > [5] [13] [10] [1] [2] ... buy 10: marker stands where 10 was.
    state = _state("0|*", circle=(5, 13, 10, 1, 2), top=0)
    after = apply(state, Buy(10, 0, 0, 0))
    assert after.circle == (1, 2, 5, 13)
    assert after.market == (1, 2, 5)


def test_market_at_the_end_of_the_circle_wraps_round():
    state = _state("0|*", circle=(7, 8), top=0, buttons=(20, 5))
    assert state.market == (7, 8)
    after = apply(state, Buy(8, 0, 0, 0))
    assert after.circle == (7,)


# ---------------------------------------------------------------------------------------------
# Scenarios, one per rule


def test_opening_pass():
    state = new_game(1)
    after = apply(state, PASS)
    # 0|*   ->   0|10   player 0 steps just ahead of player 1 and takes 1 button.
    assert after.positions == _track("0|10")
    assert after.buttons == (6, 5)
    assert current_player(after) == 1
    after = apply(after, PASS)
    assert after.positions == _track("0|.01")
    assert after.buttons == (6, 7)  # two spaces moved, two buttons
    assert current_player(after) == 0


def test_buy_landing_on_the_opponents_space_moves_again():
    state = _state("6|0.1", circle=(1, 2, 3), top=1)
    assert current_player(state) == 0
    after = apply(state, Buy(1, 0, 0, 0))  # ### costs 2 buttons and 2 time
    assert after.positions == _track("6|..*")
    assert after.top == 0 and current_player(after) == 0
    assert after.buttons == (3, 5)


def test_opponent_landing_on_my_space_goes_on_top():
    state = _state("6|1.0", circle=(1, 2, 3), top=0)
    after = apply(state, Buy(1, 0, 0, 0))
    assert after.positions == _track("6|..*")
    assert current_player(after) == 1


def test_income_includes_the_new_patchs_buttons_on_the_same_move():
    before = parse_quilt(
        """
        ####.....
        .........
        .........
        .........
        .........
        .........
        .........
        .........
        .........
        """
    )
    state = _state(
        "3|0.....1", circle=(4, 5, 6), quilts=(before, 0), bought=((2,), ()), buttons=(10, 5)
    )
    after = apply(state, Buy(4, 0, 1, 0))  # the 2x2 (cost 6, time 5, income 2), from 3 to 8
    assert format_quilt(after.quilts[0]) == "\n".join(
        ["####.....", "##.......", "##......."] + ["........."] * 6
    )
    assert after.positions == _track("3|.....01")
    # Crossed income space 5 once: 1 (the 1x4) + 2 (the new 2x2) buttons.
    assert quilt_income(after, 0) == 3
    assert after.buttons == (10 - 6 + 3, 5)


def test_leather_patch_taken_and_placed():
    state = _state("18|0......1", circle=(1, 2, 3), top=1)
    after = apply(state, Buy(1, 1, 0, 0))  # the 1x3 upright in column 0, from 18 to 20
    assert after.positions == (20, 25)
    assert after.leather_due == 1 and after.leathers == (26, 32, 44, 50)
    moves = legal_moves(after)
    free = [(r, c) for r in range(9) for c in range(9) if not (c == 0 and r < 3)]
    assert moves == tuple(PlaceLeather(r, c) for r, c in free)
    with pytest.raises(IllegalMove, match="pass"):
        apply(after, PASS)
    with pytest.raises(IllegalMove, match="leather r1c0"):
        apply(after, PlaceLeather(1, 0))  # covered by the 1x3
    placed = apply(after, PlaceLeather(4, 4))
    assert format_quilt(placed.quilts[0]) == "\n".join(
        ["#........", "#........", "#........", ".........", "....#...."] + ["........."] * 4
    )
    assert placed.leather_due == 0
    assert current_player(placed) == 0  # still behind: 20 < 25
    with pytest.raises(IllegalMove, match="leather r5c5"):
        apply(placed, PlaceLeather(5, 5))  # nothing left to place


def test_no_leather_at_20_in_the_revised_edition():
    state = _state("18|0......1", circle=(1, 2, 3), top=1, edition="revised")
    after = apply(state, Buy(1, 1, 0, 0))
    assert after.leather_due == 0 and after.leathers == (26, 32, 38, 44, 50)
    assert current_player(after) == 0


def test_a_leather_patch_is_taken_only_once():
    state = _state("18|10", top=0)
    after = apply(state, PASS)  # player 1 from 18 to 20 takes the leather patch on 20
    assert after.positions == _track("18|.01") and after.leather_due == 1
    after = apply(after, PlaceLeather(0, 0))
    assert current_player(after) == 0
    after = apply(after, PASS)  # player 0 from 19 to 21 crosses 20: nothing left there
    assert after.positions == _track("18|..10")
    assert after.leather_due == 0 and after.leathers == (26, 32, 44, 50)
    assert after.quilts == (0, cells_to_bits([(0, 0)]))


def test_pass_over_two_leather_patches_places_both():
    state = _state("19|0......1", top=1)
    after = apply(state, PASS)  # from 19 to 27 over 20 and 26
    assert after.positions == (27, 26)
    assert after.buttons == (5 + 8, 5)
    assert after.leather_due == 2 and after.leathers == (32, 44, 50)
    after = apply(apply(after, PlaceLeather(0, 0)), PlaceLeather(0, 1))
    assert after.leather_due == 0 and bits_to_cells(after.quilts[0]) == {(0, 0), (0, 1)}
    assert current_player(after) == 1


def test_leather_patch_on_a_full_quilt_leaves_the_game():
    full = parse_quilt("\n".join(["#########"] * 9))
    assert full == FULL_QUILT
    state = _state("19|0.....1", top=1, quilts=(full, 0))
    after = apply(state, PASS)  # from 19 to 26 over leathers 20 and 26
    assert after.leather_due == 0
    assert after.leathers == (32, 44, 50)
    assert after.quilts[0] == FULL_QUILT
    assert current_player(after) == 1


def test_leather_patches_on_a_quilt_with_one_hole():
    holed = parse_quilt(
        """
        #########
        #########
        #########
        #########
        ####.####
        #########
        #########
        #########
        #########
        """
    )
    state = _state("19|0......1", top=1, quilts=(holed, 0))
    after = apply(state, PASS)  # two leathers taken, room for one
    assert after.leather_due == 1
    assert legal_moves(after) == (PlaceLeather(4, 4),)
    after = apply(after, PlaceLeather(4, 4))
    assert after.leather_due == 0 and after.quilts[0] == FULL_QUILT
    assert after.leathers == (32, 44, 50)


SEVEN_BY_SEVEN_BUT_TWO = """
    #######..
    #######..
    #######..
    #######..
    #######..
    #####....
    #######..
    .........
    .........
"""
SEVEN_BY_SEVEN_BUT_THREE = """
    .........
    .........
    ..#######
    ..#######
    ..#######
    ..#######
    ..#######
    ..#######
    .....####
"""


def test_the_7x7_bonus_is_won_once():
    q0, q1 = parse_quilt(SEVEN_BY_SEVEN_BUT_TWO), parse_quilt(SEVEN_BY_SEVEN_BUT_THREE)
    assert not has_bonus_square(q0) and not has_bonus_square(q1)
    state = _state("12|*", circle=(0, 1, 25), top=0, quilts=(q0, q1))
    after = apply(state, Buy(0, 0, 5, 5))  # the 2x1 lying flat closes the square
    assert after.bonus == 0
    assert current_player(after) == 1
    after = apply(after, Buy(1, 0, 8, 2))  # player 1 closes a square too, too late
    assert has_bonus_square(after.quilts[1])
    assert after.bonus == 0
    s0 = 5 - 2 + BONUS_POINTS - 2 * (81 - 49)
    s1 = 5 - 2 - 2 * (81 - 49)
    assert scores(after) == (s0, s1)


def test_a_leather_patch_can_win_the_7x7_bonus():
    q0 = parse_quilt(SEVEN_BY_SEVEN_BUT_TWO) | cells_to_bits([(5, 5)])
    state = _state("19|0.1", top=1, quilts=(q0, 0))
    after = apply(apply(state, PASS), PlaceLeather(5, 6))
    assert after.bonus == 0


def test_the_cap_at_53_and_the_final_income():
    #   50|0.1    player 0 buys the 6-time patch 12: the token stops at 53.
    state = _state(
        "50|0.1", circle=(12, 1, 2), top=1, leathers=(), bought=((6, 9), ()), buttons=(4, 9)
    )
    after = apply(state, Buy(12, 0, 0, 0))
    assert after.positions == (53, 52)
    assert after.buttons == (4 - 3 + (3 + 3 + 2), 9)  # income space 53 pays 8 once
    assert after.first_home == 0
    assert current_player(after) == 1  # a token at 53 takes no more turns, even on top
    assert legal_moves(after)[0] == PASS
    done = apply(after, PASS)
    assert done.positions == (53, 53) and done.buttons == (9, 10)
    assert is_terminal(done) and current_player(done) is None and legal_moves(done) == ()
    with pytest.raises(IllegalMove, match="game is over"):
        apply(done, PASS)


def test_a_pass_pays_only_for_spaces_moved():
    #   47|0.....1   the opponent is home: a pass moves 6 spaces to 53, not 7 to 54.
    state = _state("47|0.....1", top=1, leathers=(), bought=((2,), ()), first_home=1)
    after = apply(state, PASS)
    assert after.positions == (53, 53)
    assert after.buttons == (5 + 6 + 1, 5)  # 6 spaces, then income 1 at 53 (47 was paid before)
    assert after.first_home == 1


def test_an_unplaceable_patch_is_not_offered():
    quilt = parse_quilt(
        """
        ..#######
        ..#######
        #########
        #########
        #########
        #########
        #########
        #########
        #########
        """
    )
    state = _state("0|*", circle=(3, 4, 0), quilts=(quilt, 0), buttons=(20, 5))
    moves = legal_moves(state)
    # Hand count: the 1x5 fits nowhere, the 2x2 exactly once, the 2x1 twice flat and twice upright.
    assert _buys(moves, 3) == []
    assert _buys(moves, 4) == [Buy(4, 0, 0, 0)]
    assert sorted(map(str, _buys(moves, 0))) == [
        "buy 0 o0 r0c0", "buy 0 o0 r1c0", "buy 0 o1 r0c0", "buy 0 o1 r0c1",
    ]  # fmt: skip
    assert moves[0] == PASS and len(moves) == 6
    assert not is_legal(state, Buy(3, 0, 0, 0))
    with pytest.raises(IllegalMove, match="buy 3 o0 r0c0"):
        apply(state, Buy(3, 0, 0, 0))


def test_an_unaffordable_patch_is_not_offered():
    state = _state("0|*", circle=(6, 16, 1), buttons=(5, 5))
    moves = legal_moves(state)
    assert _buys(moves, 6) == []  # costs 10
    assert _buys(moves, 16) and _buys(moves, 1)
    with pytest.raises(IllegalMove, match="costs 10"):
        apply(state, Buy(6, 0, 0, 0))


def test_only_the_three_patches_after_the_marker_are_buyable():
    state = _state("0|*", circle=(1, 2, 5, 0))
    assert not _buys(legal_moves(state), 0)
    with pytest.raises(IllegalMove, match="not among the buyable"):
        apply(state, Buy(0, 0, 0, 0))


def test_final_scores_and_the_tie_break():
    q0 = parse_quilt(
        """
        #########
        #########
        #########
        #########
        #########
        #########
        #########
        #######..
        #........
        """
    )  # 10 empty cells, and a 7x7 square
    q1 = parse_quilt(
        """
        ####.####
        ####.####
        ####.####
        ####.####
        ####.####
        #########
        #########
        ####.####
        ####.####
        """
    )  # 7 empty cells, no 7x7 square
    state = _state(
        "53|*", top=1, quilts=(q0, q1), buttons=(20, 27), bonus=0, first_home=1, leathers=()
    )
    assert is_terminal(state)
    assert scores(state) == (20 + 7 - 20, 27 - 14)  # 7 and 13
    assert winner(state) == 1
    tied = replace(state, buttons=(26, 27))  # 26 + 7 - 2 x 10 = 13 = 27 - 2 x 7
    assert scores(tied) == (13, 13)
    assert winner(tied) == 1  # player 1 reached 53 first
    assert winner(replace(tied, first_home=0)) == 0
    with pytest.raises(ValueError, match="not over"):
        winner(new_game())


def _naive_all_pass(leathers: tuple[int, ...]):
    """Replay 'always pass' on positions alone: turns, spaces moved, who takes each leather."""
    pos, last, turns = [0, 0], 0, 0
    moved, takers = [0, 0], {}
    while pos != [53, 53]:
        p = 0 if pos[0] < pos[1] else 1 if pos[1] < pos[0] else last
        new = min(53, pos[1 - p] + 1)
        for space in leathers:
            if pos[p] < space <= new and space not in takers:
                takers[space] = p
        moved[p] += new - pos[p]
        pos[p], last, turns = new, p, turns + 1
    return turns, moved, takers


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_game_where_both_players_always_pass(edition):
    # Derivation: the k-th pass puts the mover just ahead of the other, on space k, so pass 53
    # reaches the centre and the other token, on 52, needs one more: 54 passes.
    turns, moved, takers = _naive_all_pass(LEATHER_SPACES[edition])
    assert turns == 54
    # Pass k lands on k, so every (even) leather space goes to the second player, 1.
    assert takers == {space: 1 for space in LEATHER_SPACES[edition]}
    state, passes, placements = new_game(3, edition=edition), 0, 0
    while not is_terminal(state):
        move = legal_moves(state)[0]  # pass, or the first free cell for a leather patch
        passes += move == PASS
        placements += isinstance(move, PlaceLeather)
        state = apply(state, move)
    assert passes == turns and placements == 5
    assert state.buttons == (5 + moved[0], 5 + moved[1]) == (58, 58)
    assert state.quilts[1].bit_count() == 5 and state.quilts[0] == 0
    assert scores(state) == (58 - 2 * 81, 58 - 2 * 76)
    assert state.first_home == 0 and winner(state) == 1


# ---------------------------------------------------------------------------------------------
# Perft-style counts


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: f"patch{p.id}")
def test_placements_on_an_empty_quilt(patch):
    expected = sum(
        (9 - len(rows[0]) + 1) * (9 - len(rows) + 1)
        for rows in _naive_orientations(format_shape(patch.shape))
    )
    state = _state("0|*", circle=(patch.id,), buttons=(100, 5))
    moves = legal_moves(state)
    assert len(moves) == 1 + expected and len(set(moves)) == len(moves)
    masks = {placement_mask(m.patch_id, m.orientation, m.row, m.col) for m in moves[1:]}
    assert len(masks) == expected


def test_placement_counts_by_hand():
    def count(pid):
        return len(legal_moves(_state("0|*", circle=(pid,), buttons=(100, 5)))) - 1

    assert count(0) == 9 * 8 * 2  # 2x1: 8 places in each of 9 rows, then the same upright
    assert count(3) == 9 * 5 * 2  # 1x5
    assert count(4) == 8 * 8  # 2x2
    assert count(21) == 7 * 7  # the plus: its centre anywhere but the rim
    assert count(5) == 8 * (8 * 7)  # 8 orientations, each a 2x3 or 3x2 box: 8 x 7 places


def test_opening_move_count():
    # Market 5, 13, 10 (costs 2, 2, 1): each is 2x3 or 3x2 in every orientation, 56 places each.
    state = new_game(circle=(5, 13, 10, 1, 0))
    naive = sum(len(_naive_orientations(format_shape(PATCHES[i].shape))) * 56 for i in (5, 13, 10))
    assert naive == (8 + 4 + 4) * 56
    assert len(legal_moves(state)) == 1 + naive


# ---------------------------------------------------------------------------------------------
# Random playouts


def _check_step(state, move, after):
    p = current_player(state)
    assert all(b >= 0 for b in after.buttons)
    assert all(a >= b for a, b in zip(after.positions, state.positions))
    assert all(a <= FINAL_POSITION for a in after.positions)
    assert state.quilts[p] & ~after.quilts[p] == 0  # nothing is ever lifted off a quilt
    assert after.quilts[1 - p] == state.quilts[1 - p]
    grew = after.quilts[p].bit_count() - state.quilts[p].bit_count()
    if isinstance(move, Buy):
        assert grew == PATCHES[move.patch_id].size  # no overlap: every cell is new
        assert after.positions[p] > state.positions[p]
    elif isinstance(move, PlaceLeather):
        assert grew == 1 and after.positions == state.positions
    else:
        assert grew == 0 and after.positions[p] > state.positions[p]
    def patch_count(s):
        return len(s.circle) + len(s.bought[0]) + len(s.bought[1])

    assert patch_count(after) == patch_count(state)
    if state.bonus is not None:
        assert after.bonus == state.bonus


def _play(seed: int, edition: str, check_legality: bool):
    state, rng, steps = new_game(seed, edition=edition), random.Random(seed), 0
    while not is_terminal(state):
        moves = legal_moves(state)
        assert moves, "a running game always has a move"
        if check_legality:
            legal = set(moves)
            assert all(is_legal(state, m) for m in moves)
            for _ in range(20):  # random probes, mostly illegal, agree with legal_moves
                probe = rng.choice(
                    [Buy(rng.randrange(33), rng.randrange(8), rng.randrange(9), rng.randrange(9)),
                     PlaceLeather(rng.randrange(9), rng.randrange(9)), PASS]
                )  # fmt: skip
                assert is_legal(state, probe) == (probe in legal)
        move = rng.choice(moves)
        after = apply(state, move)
        _check_step(state, move, after)
        state, steps = after, steps + 1
        # Every token move advances a token, so at most 2 x 53 of them, plus 5 leather patches.
        assert steps <= 2 * TRACK_LENGTH + 5
    assert state.positions == (53, 53) and legal_moves(state) == ()
    assert winner(state) in (0, 1)
    return state


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), edition=st.sampled_from(EDITIONS))
def test_random_games_end_and_keep_the_invariants(seed, edition):
    _play(seed, edition, check_legality=True)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_are_deterministic(seed):
    first = _play(seed, "classic", check_legality=False)
    assert _play(seed, "classic", check_legality=False) == first


@pytest.mark.slow
def test_many_random_games():
    for seed in range(300):
        _play(seed, EDITIONS[seed % 2], check_legality=seed % 10 == 0)


def test_illegal_move_leaves_the_state_unchanged():
    state = new_game(5)
    copy = replace(state)
    with pytest.raises(IllegalMove, match="leather r0c0"):
        apply(state, PlaceLeather(0, 0))
    with pytest.raises(IllegalMove):
        apply(state, Buy(state.market[0], 0, 9, 9))
    assert state == copy
    assert isinstance(IllegalMove("x"), ValueError)
    assert Pass() == PASS and is_legal(state, Pass())


def test_the_stored_orientations_are_orientations_of_own_order_included():
    # The printed patches take their orientations from rules/patchwork_orientations.py (written by
    # tools/patchwork_orientations.py): the same sets in the same order, each frozenset iterating
    # in the same order as the one orientations_of makes.
    import importlib.util
    from pathlib import Path

    from printables.rules import patchwork as pw
    from printables.rules import patchwork_orientations

    for patch in pw.PATCHES:
        made = pw.orientations_of(patch.shape)
        assert patch.orientations == made
        assert [list(shape) for shape in patch.orientations] == [list(shape) for shape in made], patch.id
        assert tuple(patch.shape) in patchwork_orientations.ORIENTATIONS  # taken from the table
    tool = Path(__file__).resolve().parents[1] / "tools" / "patchwork_orientations.py"
    spec = importlib.util.spec_from_file_location("patchwork_orientations_tool", tool)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert Path(patchwork_orientations.__file__).read_text(encoding="utf-8") == module.table_text(), (
        "the stored orientations are out of date: run python tools/patchwork_orientations.py")


def test_a_shape_not_in_the_table_is_turned_and_flipped(monkeypatch):
    from printables.rules import patchwork as pw

    shape = pw.parse_shape("###/#../#..")
    assert tuple(shape) not in pw.ORIENTATIONS
    patch = pw.Patch(99, shape, 1, 1, 0)
    assert patch.orientations == pw.orientations_of(shape) and len(patch.orientations) == 4
    monkeypatch.setattr(pw, "ORIENTATIONS", {})  # and without the table the printed ones are the same
    for printed in pw.PATCHES[:5]:
        again = pw.Patch(printed.id, printed.shape, printed.cost, printed.time, printed.income)
        assert [list(s) for s in again.orientations] == [list(s) for s in printed.orientations]
