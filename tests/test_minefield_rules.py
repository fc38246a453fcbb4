"""Tests for the Minefield rule core (shared/rules/minefield.md).

Boards are drawn in ASCII, row 0 at the top; ``x`` in a comment marks the point being tried.
A second, naive implementation of the rules written from their prose (``naive_*`` below) checks
the core's pattern data, its local legality check and its win detection.
"""

from __future__ import annotations

import itertools
import random
import textwrap

import pytest
from hypothesis import given, settings, strategies as st

from printables.rules import minefield as mf
from printables.rules.minefield import BLACK, DRAW, EMPTY, WHITE


def board(text: str) -> mf.Position:
    """A position from an indented ASCII drawing; ``x`` and ``y`` mark empty points under test."""
    return mf.parse_position(textwrap.dedent(text).replace("x", EMPTY).replace("y", EMPTY))


# ---------------------------------------------------------------------------------------------
# The naive second implementation, straight from the rules' prose
# ---------------------------------------------------------------------------------------------

# Areas the rules name, as (rows, cols): 2x2 hard corners; 2x3, 3x2, 2x4, 4x2 switches.
AREAS = ((2, 2), (2, 3), (3, 2), (2, 4), (4, 2))


def grid_of(position: mf.Position) -> list[str]:
    """The board as rows of B/W/. read from its printed form."""
    return str(position).split("\n")


def naive_patterns(position: mf.Position) -> set[tuple[str, frozenset]]:
    """Every hard corner and switch as (name, cells of its area), by reading each area."""
    grid = grid_of(position)
    n = len(grid)
    found = set()
    for h, w in AREAS:
        for r0 in range(n - h + 1):
            for c0 in range(n - w + 1):
                area = frozenset((r0 + r, c0 + c) for r in range(h) for c in range(w))
                at = {p: grid[p[0]][p[1]] for p in area}
                tl, tr = (r0, c0), (r0, c0 + w - 1)
                bl, br = (r0 + h - 1, c0), (r0 + h - 1, c0 + w - 1)
                if (h, w) == (2, 2):
                    stones = [p for p in area if at[p] != EMPTY]
                    if len(stones) != 3:
                        continue
                    for a, b in ((tl, br), (tr, bl)):
                        third = [p for p in stones if p not in (a, b)]
                        if (
                            at[a] != EMPTY
                            and at[a] == at[b]
                            and len(third) == 1
                            and at[third[0]] not in (EMPTY, at[a])
                        ):
                            found.add(("hard corner", area))
                else:
                    corners = (tl, tr, bl, br)
                    inner = area - set(corners)
                    if (
                        all(at[p] != EMPTY for p in corners)
                        and at[tl] == at[br]
                        and at[tr] == at[bl]
                        and at[tl] != at[tr]
                        and all(at[p] == EMPTY for p in inner)
                    ):
                        found.add((f"switch 2x{max(h, w)}", area))
    return found


def naive_is_legal(position: mf.Position, point: tuple[int, int], colour: str) -> bool:
    """Empty, and no pattern containing the new stone afterwards (the rules' definition)."""
    if grid_of(position)[point[0]][point[1]] != EMPTY:
        return False
    after = position.with_stone(point, colour)
    return not any(point in area for _, area in naive_patterns(after))


def naive_connects(position: mf.Position, colour: str) -> bool:
    """Breadth-first search over orthogonal steps from one of ``colour``'s edges to the other."""
    grid = grid_of(position)
    n = len(grid)
    if colour == BLACK:
        frontier = [(0, c) for c in range(n) if grid[0][c] == BLACK]
        at_goal = lambda p: p[0] == n - 1  # noqa: E731
    else:
        frontier = [(r, 0) for r in range(n) if grid[r][0] == WHITE]
        at_goal = lambda p: p[1] == n - 1  # noqa: E731
    seen = set(frontier)
    while frontier:
        r, c = frontier.pop()
        if at_goal((r, c)):
            return True
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < n and 0 <= nc < n and (nr, nc) not in seen and grid[nr][nc] == colour:
                seen.add((nr, nc))
                frontier.append((nr, nc))
    return False


def has_crosscut(position: mf.Position) -> bool:
    """Whether some full 2x2 area holds two stones of each colour diagonally."""
    grid = grid_of(position)
    n = len(grid)
    for r in range(n - 1):
        for c in range(n - 1):
            a, b, d, e = grid[r][c], grid[r][c + 1], grid[r + 1][c], grid[r + 1][c + 1]
            if EMPTY not in (a, b) and a == e and b == d and a != b:
                return True
    return False


def as_naive(matches: tuple[mf.PatternMatch, ...]) -> set[tuple[str, frozenset]]:
    """The core's matches in the naive form (name, cells of the area)."""
    return {(m.name, frozenset(p for p, _ in m.cells)) for m in matches}


def assert_only_placement(position, point, colour, expected_names):
    """Both implementations agree: ``colour`` on ``point`` creates exactly ``expected_names``."""
    created = mf.placement_patterns(position, point, colour)
    assert sorted(m.name for m in created) == sorted(expected_names)
    assert all(point in dict(m.cells) for m in created)
    legal = not expected_names
    assert mf.is_legal_placement(position, point, colour) is legal
    assert naive_is_legal(position, point, colour) is legal
    after = position.with_stone(point, colour)
    assert as_naive(mf.forbidden_patterns_in(after)) == naive_patterns(after)


# ---------------------------------------------------------------------------------------------
# Hard corners
# ---------------------------------------------------------------------------------------------


def test_hard_corner_new_stone_in_the_diagonal_pair_is_illegal():
    position = board(
        """
        ....
        .BW.
        ..x.
        ....
        """
    )
    # Black on x pairs diagonally with (1, 1) around the white stone, (2, 1) empty.
    assert_only_placement(position, (2, 2), BLACK, ["hard corner"])
    # White on x stands beside its own stone: no diagonal pair.
    assert_only_placement(position, (2, 2), WHITE, [])
    state = mf.state_from_position(position, BLACK)
    with pytest.raises(mf.IllegalMove, match=r"\(2, 2\).*hard corner"):
        mf.apply(state, (2, 2))


def test_hard_corner_new_stone_as_the_lone_stone_is_illegal():
    position = board(
        """
        ....
        .Bx.
        .yB.
        ....
        """
    )
    # White on x or y is the lone stone beside the black diagonal pair.
    assert_only_placement(position, (1, 2), WHITE, ["hard corner"])
    assert_only_placement(position, (2, 1), WHITE, ["hard corner"])
    # Black there makes three black stones: no hard corner (it needs the other colour).
    assert_only_placement(position, (1, 2), BLACK, [])
    assert_only_placement(position, (2, 1), BLACK, [])


def test_hard_corner_in_the_board_corner_is_illegal():
    position = board(
        """
        BW..
        .x..
        ....
        ....
        """
    )
    assert_only_placement(position, (1, 1), BLACK, ["hard corner"])
    assert_only_placement(position, (1, 0), WHITE, ["hard corner"])
    assert_only_placement(position, (1, 1), WHITE, [])


def test_hard_corner_at_the_board_edge_is_illegal():
    position = board(
        """
        .....
        Bx...
        W....
        .....
        .....
        """
    )
    # White on x: white diagonal (1,1)-(2,0), lone black (1,0), (2,1) empty.
    assert_only_placement(position, (1, 1), WHITE, ["hard corner"])
    assert_only_placement(position, (1, 1), BLACK, [])
    # The same on the bottom edge of a 2x2 board, the smallest board.
    tiny = board(
        """
        B.
        .B
        """
    )
    assert_only_placement(tiny, (0, 1), WHITE, ["hard corner"])
    assert_only_placement(tiny, (1, 0), WHITE, ["hard corner"])
    assert_only_placement(tiny, (0, 1), BLACK, [])


def test_same_colour_corners_on_the_same_side_are_legal():
    position = board(
        """
        .....
        .B.B.
        .W.x.
        .....
        .....
        """
    )
    # Corners of the 2x3 area would be black-black over white-white: not diagonal, no switch.
    assert_only_placement(position, (2, 3), WHITE, [])
    square = board(
        """
        ....
        .BB.
        .Wx.
        ....
        """
    )
    # A full 2x2 with the colours side by side is neither a hard corner nor a crosscut.
    assert_only_placement(square, (2, 2), WHITE, [])


# ---------------------------------------------------------------------------------------------
# Switches
# ---------------------------------------------------------------------------------------------


def test_switch_2x3_is_illegal():
    position = board(
        """
        .....
        .B.W.
        .W.x.
        .....
        .....
        """
    )
    assert_only_placement(position, (2, 3), BLACK, ["switch 2x3"])
    assert_only_placement(position, (2, 3), WHITE, [])


def test_switch_3x2_is_illegal():
    position = board(
        """
        ....
        .BW.
        ....
        .Wx.
        """
    )
    assert_only_placement(position, (3, 2), BLACK, ["switch 2x3"])
    assert_only_placement(position, (3, 2), WHITE, [])


def test_switch_2x4_is_illegal():
    position = board(
        """
        ......
        .B..W.
        .W..x.
        ......
        ......
        ......
        """
    )
    assert_only_placement(position, (2, 4), BLACK, ["switch 2x4"])
    assert_only_placement(position, (2, 4), WHITE, [])


def test_switch_4x2_is_illegal():
    position = board(
        """
        .....
        .BW..
        .....
        .....
        .Wx..
        """
    )
    assert_only_placement(position, (4, 2), BLACK, ["switch 2x4"])
    # The new stone may be any corner: here White completes the switch.
    position = board(
        """
        .....
        .Bx..
        .....
        .....
        .WB..
        """
    )
    assert_only_placement(position, (1, 2), WHITE, ["switch 2x4"])


def test_2x5_corner_shape_is_legal():
    position = board(
        """
        .......
        .B...W.
        .W...x.
        .......
        .......
        .......
        .......
        """
    )
    assert_only_placement(position, (2, 5), BLACK, [])
    upright = board(
        """
        ......
        .BW...
        ......
        ......
        ......
        .Wx...
        """
    )
    assert_only_placement(upright, (5, 2), BLACK, [])


def test_switch_area_with_an_occupied_inner_point_is_legal():
    position = board(
        """
        ......
        .BB.W.
        .W..x.
        ......
        ......
        ......
        """
    )
    # The 2x4 corners alternate but (1, 2) inside is occupied: no switch.
    assert_only_placement(position, (2, 4), BLACK, [])
    narrow = board(
        """
        .....
        .BBW.
        .WBx.
        .....
        .....
        """
    )
    # The same for a 2x3 area with both inner points taken.
    assert_only_placement(narrow, (2, 3), BLACK, [])


# ---------------------------------------------------------------------------------------------
# The pattern data and the legend diagrams
# ---------------------------------------------------------------------------------------------


def test_forbidden_variants_count():
    # A hard corner is fixed by which of its 4 points is empty (the opposite point holds the lone
    # stone): 4 variants. A switch is fixed by its area's orientation (2 each for 2x3 and 2x4),
    # its colouring being the same up to which colour is which.
    counts = {}
    for variant in mf.FORBIDDEN_VARIANTS:
        counts[variant.name] = counts.get(variant.name, 0) + 1
    assert counts == {"hard corner": 4, "switch 2x3": 2, "switch 2x4": 2}
    shapes = {(v.name, v.height, v.width) for v in mf.FORBIDDEN_VARIANTS}
    assert shapes == {
        ("hard corner", 2, 2),
        ("switch 2x3", 2, 3),
        ("switch 2x3", 3, 2),
        ("switch 2x4", 2, 4),
        ("switch 2x4", 4, 2),
    }


@pytest.mark.parametrize("height, width", AREAS)
def test_pattern_data_matches_the_rules_on_every_colouring(height, width):
    # Every colouring of the area, drawn in the corner of an otherwise empty board.
    n = max(height, width)
    for colours in itertools.product((BLACK, WHITE, EMPTY), repeat=height * width):
        rows = [["."] * n for _ in range(n)]
        for k, colour in enumerate(colours):
            rows[k // width][k % width] = colour
        position = mf.parse_position("\n".join("".join(row) for row in rows))
        assert as_naive(mf.forbidden_patterns_in(position)) == naive_patterns(position), position


def test_legend_diagrams_are_forbidden_patterns():
    assert [d.name for d in mf.LEGEND_DIAGRAMS] == ["hard corner", "switch 2x3", "switch 2x4"]
    for diagram in mf.LEGEND_DIAGRAMS:
        stones = dict(diagram.stones)
        assert diagram.forbidden_point not in stones
        assert mf.match_forbidden_diagram(stones, diagram.forbidden_point) == diagram.name
        point, colour = diagram.forbidden_point, diagram.colour
        assert mf.match_forbidden_diagram(stones, point, colour) == diagram.name
        assert mf.match_forbidden_diagram(stones, point, mf.opponent(colour)) is None
        # On a board, with the naive reading of the rules: the crossed point is illegal.
        n = max(diagram.height, diagram.width) + 2
        position = mf.empty_position(n)
        for (r, c), colour in stones.items():
            position = position.with_stone((r + 1, c + 1), colour)
        r, c = diagram.forbidden_point
        assert not naive_is_legal(position, (r + 1, c + 1), diagram.colour)
        after = position.with_stone((r + 1, c + 1), diagram.colour)
        assert {name for name, _ in naive_patterns(after)} == {diagram.name}


def test_match_forbidden_diagram_in_any_orientation():
    # The lone-stone hard corner, drawn with its stones; the cross on the white point.
    #   B W      x = (0, 1), the white stone
    #   . B
    lone = {(0, 0): BLACK, (0, 1): WHITE, (1, 1): BLACK}
    assert mf.match_forbidden_diagram(lone, (0, 1)) == "hard corner"
    assert mf.match_forbidden_diagram(lone, (0, 1), BLACK) is None
    # A 4x2 switch at an offset, the cross on an empty point:
    #   . W B        rows 5..8, cols 2..3
    #   . . .
    #   . . .
    #   . B x
    upright = {(5, 3): BLACK, (5, 2): WHITE, (8, 2): BLACK}
    assert mf.match_forbidden_diagram(upright, (8, 3)) == "switch 2x4"
    # 2x5 corners: no pattern.
    wide = {(0, 0): BLACK, (0, 4): WHITE, (1, 0): WHITE}
    assert mf.match_forbidden_diagram(wide, (1, 4)) is None
    # A switch with an extra stone inside is no longer one.
    crowded = {(0, 0): BLACK, (0, 1): BLACK, (0, 2): WHITE, (1, 0): WHITE}
    assert mf.match_forbidden_diagram(crowded, (1, 2)) is None
    # A cross where no colour makes a pattern.
    assert mf.match_forbidden_diagram({(0, 0): BLACK}, (1, 1)) is None


# ---------------------------------------------------------------------------------------------
# Turns, wins, skips
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", range(2, 10))
def test_every_point_is_legal_on_an_empty_board(size):
    state = mf.new_game(size)
    everything = tuple((r, c) for r in range(size) for c in range(size))
    assert state.to_move == BLACK
    assert mf.legal_moves(state) == everything
    assert mf.legal_points(state, WHITE) == frozenset(everything)
    for colour in (BLACK, WHITE):
        assert all(naive_is_legal(state.position, p, colour) for p in everything)


def test_black_wins_with_an_orthogonal_top_to_bottom_chain():
    state = mf.state_from_position(
        board(
            """
            .B.W.
            .B.W.
            .BBW.
            ..B..
            .....
            """
        ),
        BLACK,
    )
    assert mf.outcome(state) is None
    state = mf.apply(state, (4, 2))
    assert state.winner == BLACK
    assert mf.is_terminal(state)
    assert mf.outcome(state) == BLACK
    assert mf.legal_moves(state) == ()
    with pytest.raises(mf.IllegalMove, match="over"):
        mf.apply(state, (4, 4))


def test_white_wins_with_an_orthogonal_left_to_right_chain():
    state = mf.state_from_position(
        board(
            """
            .....
            WW.B.
            .WWW.
            .B.B.
            .B...
            """
        ),
        WHITE,
    )
    assert mf.outcome(state) is None
    state = mf.apply(state, (2, 4))
    assert mf.outcome(state) == WHITE
    assert mf.has_connection(state.position, WHITE)
    assert not mf.has_connection(state.position, BLACK)


def test_diagonal_chain_is_not_a_win():
    # Black's last stone on x completes a diagonal from the top edge to the bottom edge.
    state = mf.state_from_position(
        board(
            """
            B....
            .B...
            ..B..
            ...B.
            ....x
            """
        ),
        BLACK,
    )
    state = mf.apply(state, (4, 4))
    assert not naive_connects(state.position, BLACK)
    assert not mf.has_connection(state.position, BLACK)
    assert state.winner is None
    assert mf.outcome(state) is None
    # White's chain with one diagonal step does not connect; with the step filled it does.
    broken = board(
        """
        WW...
        ..W..
        ..WWW
        .....
        .....
        """
    )
    assert not mf.has_connection(broken, WHITE)
    assert mf.has_connection(broken.with_stone((0, 2), WHITE), WHITE)


def test_touching_one_edge_is_not_a_win():
    state = mf.apply(mf.new_game(3), (0, 1))
    assert mf.outcome(state) is None
    state = mf.apply(state, (1, 0))
    assert mf.outcome(state) is None
    assert state.to_move == BLACK


def test_player_without_a_legal_placement_is_skipped():
    # Found by searching random 3x3 games. After Black's stone on x, every empty point would give
    # White a hard corner beside a black diagonal pair, so Black places again.
    #   W . B
    #   . x .
    #   B . W
    state = mf.state_from_position(
        board(
            """
            W.B
            ...
            B.W
            """
        )
    )
    assert state.to_move == BLACK
    state = mf.apply(state, (1, 1))
    empties = [(0, 1), (1, 0), (1, 2), (2, 1)]
    assert not any(naive_is_legal(state.position, p, WHITE) for p in empties)
    assert all(naive_is_legal(state.position, p, BLACK) for p in empties)
    assert mf.legal_points(state, WHITE) == frozenset()
    assert not mf.is_terminal(state)
    assert state.to_move == BLACK
    assert mf.legal_moves(state) == tuple(empties)
    # A state built for White in that position passes the turn to Black the same way.
    assert mf.state_from_position(state.position, WHITE).to_move == BLACK


def test_no_3x3_game_ends_in_a_draw():
    # Every reachable 3x3 state, by exhaustive search: the rules' draw (neither player can place)
    # never happens there; each finished game has a winner and a full board has exactly one.
    seen = set()
    stack = [mf.new_game(3)]
    finished = 0
    while stack:
        state = stack.pop()
        key = (state.position, state.to_move)
        if key in seen:
            continue
        seen.add(key)
        if mf.is_terminal(state):
            finished += 1
            assert mf.outcome(state) in (BLACK, WHITE)
            assert naive_connects(state.position, mf.outcome(state))
            continue
        stack.extend(mf.apply(state, move) for move in mf.legal_moves(state))
    assert finished > 0


def test_draw_when_neither_player_can_place():
    # No reachable draw is known (see above), so the rule is tested on a state whose legal sets
    # are empty: outcome and terminal follow the rules' text.
    position = board(
        """
        B.
        .B
        """
    )
    state = mf.GameState(position, WHITE, legal_black=0, legal_white=0)
    assert mf.is_terminal(state)
    assert mf.outcome(state) == DRAW
    assert mf.legal_moves(state) == ()
    assert not mf.is_legal(state, (0, 1))


def test_illegal_moves_raise_and_quote_the_move():
    state = mf.apply(mf.new_game(4), (1, 1))
    with pytest.raises(mf.IllegalMove, match=r"\(1, 1\).*occupied"):
        mf.apply(state, (1, 1))
    with pytest.raises(mf.IllegalMove, match=r"\(4, 0\)"):
        mf.apply(state, (4, 0))
    with pytest.raises(mf.IllegalMove, match="'a1'"):
        mf.apply(state, "a1")
    assert not mf.is_legal(state, (4, 0))
    assert state.position == board("....\n.B..\n....\n....")


# ---------------------------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------------------------


def test_position_round_trips_through_text_and_repr():
    position = board(
        """
        B.W
        .W.
        B..
        """
    )
    assert str(position) == "B.W\n.W.\nB.."
    assert mf.parse_position(str(position)) == position
    assert eval(repr(position), {"parse_position": mf.parse_position}) == position
    assert position[0, 0] == BLACK and position[0, 2] == WHITE and position[2, 2] == EMPTY
    assert position.stones(BLACK) == {(0, 0), (2, 0)}


@pytest.mark.parametrize(
    "text, message",
    [
        ("B", "at least 2"),
        ("B..\n...", "row 0"),
        ("B.\n.X", "'X'"),
        ("B..\n..\n...", "row 1"),
    ],
)
def test_parse_position_rejects_bad_boards(text, message):
    with pytest.raises(ValueError, match=message):
        mf.parse_position(text)


@pytest.mark.parametrize("size", [0, 1, -3, 2.5, True])
def test_board_sizes_below_two_are_refused(size):
    with pytest.raises(ValueError, match="at least 2"):
        mf.new_game(size)


def test_state_from_a_position_with_a_forbidden_pattern_is_refused():
    with pytest.raises(mf.InvalidPosition, match="hard corner"):
        mf.state_from_position(board("BW\n.B"))


# ---------------------------------------------------------------------------------------------
# Random games
# ---------------------------------------------------------------------------------------------


def check_state(state: mf.GameState, rng: random.Random, samples: int) -> None:
    """Invariants of a reachable state, cross-checked with the naive implementation."""
    position = state.position
    assert mf.forbidden_patterns_in(position) == ()
    assert not has_crosscut(position)
    # The incremental legal sets equal a full rescan.
    for colour in (BLACK, WHITE):
        assert mf.legal_points(state, colour) == mf.scan_legal_points(position, colour)
    # Local legality equals the whole-board rule on sampled empty points.
    empties = position.empty_points()
    for point in rng.sample(empties, min(samples, len(empties))):
        for colour in (BLACK, WHITE):
            local = mf.is_legal_placement(position, point, colour)
            assert local == (not mf.forbidden_patterns_in(position.with_stone(point, colour)))
            assert local == naive_is_legal(position, point, colour)
    # Winner and turn.
    black, white = naive_connects(position, BLACK), naive_connects(position, WHITE)
    assert not (black and white)
    assert state.winner == (BLACK if black else WHITE if white else None)
    moves = mf.legal_moves(state)
    assert mf.is_terminal(state) == (moves == ())
    if not mf.is_terminal(state):
        assert moves == tuple(sorted(mf.legal_points(state, state.to_move)))
        assert all(mf.is_legal(state, m) for m in moves)
        assert not any(mf.is_legal(state, p) for p in set(empties) - set(moves))
    if position.is_full():
        assert black != white


def play_random_game(size: int, seed: int, samples: int) -> mf.GameState:
    """Play uniformly random legal moves to the end, checking every state."""
    rng = random.Random(seed)
    state = mf.new_game(size)
    check_state(state, rng, samples)
    while not mf.is_terminal(state):
        mover = state.to_move
        move = rng.choice(mf.legal_moves(state))
        after = mf.apply(state, move)
        # The local rule agrees with the whole board: nothing forbidden appeared anywhere.
        assert mf.placement_patterns(state.position, move, mover) == ()
        if not mf.is_terminal(after) and after.to_move == mover:
            assert mf.scan_legal_points(after.position, mf.opponent(mover)) == frozenset()
        state = after
        check_state(state, rng, samples)
    if mf.outcome(state) == DRAW:
        assert not mf.scan_legal_points(state.position, BLACK)
        assert not mf.scan_legal_points(state.position, WHITE)
    return state


@settings(max_examples=40, deadline=None)
@given(size=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_rules(size, seed):
    play_random_game(size, seed, samples=3)


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(size=st.integers(8, 13), seed=st.integers(0, 2**32 - 1))
def test_random_games_on_larger_boards_keep_the_rules(size, seed):
    play_random_game(size, seed, samples=2)


@st.composite
def full_boards(draw):
    """A full board with no 2x2 crosscut: each point takes the drawn colour unless it would
    complete a crosscut, then the other."""
    n = draw(st.integers(2, 9))
    picks = draw(st.lists(st.sampled_from((BLACK, WHITE)), min_size=n * n, max_size=n * n))
    rows = [[EMPTY] * n for _ in range(n)]
    for k, colour in enumerate(picks):
        r, c = divmod(k, n)
        if r and c and rows[r - 1][c - 1] == colour and rows[r - 1][c] == rows[r][c - 1] != colour:
            colour = mf.opponent(colour)
        rows[r][c] = colour
    return mf.parse_position("\n".join("".join(row) for row in rows))


@settings(max_examples=200, deadline=None)
@given(position=full_boards())
def test_a_full_board_has_exactly_one_winner(position):
    assert not has_crosscut(position)
    black, white = naive_connects(position, BLACK), naive_connects(position, WHITE)
    assert black != white
    assert mf.has_connection(position, BLACK) == black
    assert mf.has_connection(position, WHITE) == white
