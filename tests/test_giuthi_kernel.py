"""The engine's fast paths against the naive reference on random positions, not only game ones.

legal_moves sows candidates with a packed-board kernel (printables/rules/giuthi_kernel.py, "The
move-generation kernel") and apply keeps history and turn_boards packed until they are read. Here
random boards of every size, with seed counts that lap the board many times, mid-turn boards with
earlier boards of the turn (rule 5b) and histories given by the caller are checked against
the seed-by-seed reference of tests/test_giuthi_playouts.py and against apply_traced, which plays
through the reference kernel _sow and builds every State with validation.
"""

from __future__ import annotations

import copy
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_giuthi_playouts import reference_choices

from printables.rules import giuthi as g
from printables.rules.giuthi import Move, Position, State


def pairs(moves):
    return [(m.sowings[0].pit, int(m.sowings[0].direction)) for m in moves if not m.is_pass]


@st.composite
def boards(draw, most=None):
    """(pits, player): a random board, its total at most ``most`` (default: what the kernel serves)."""
    n = draw(st.integers(g.MIN_PITS_PER_ROW, g.MAX_PITS_PER_ROW))
    cap = 2 * n * g.MAX_SEEDS_PER_PIT if most is None else most
    # Mostly small pits, some big enough to lap the board several times.
    pits = draw(st.lists(st.one_of(st.integers(0, 3), st.integers(0, cap)), min_size=2 * n, max_size=2 * n))
    while sum(pits) > cap:
        pits[pits.index(max(pits))] //= 2
    return tuple(pits), draw(st.sampled_from((g.SOUTH, g.NORTH)))


def check_against_reference(state: State, seen) -> None:
    """legal_moves and apply of ``state`` equal the reference's choices and boards."""
    expected = reference_choices(state.pits, state.player, seen)
    moves = g.legal_moves(state)
    assert pairs(moves) == [c[0] for c in expected], state
    for move, (_, kind, after, captured) in zip(moves, expected):
        new = g.apply(state, move)
        assert new.pits == after
        assert sum(new.stores) == sum(state.stores) + captured
        # apply_traced sows with _sow and builds the State with validation: every field equal.
        assert new == g.apply_traced(state, move).state
        if kind == "again" and new.player == state.player:
            assert new.turn_boards == frozenset(seen) | {after}


@settings(max_examples=300, deadline=None)
@given(boards())
def test_the_kernel_matches_the_reference_on_random_boards(board):
    pits, player = board
    state = State(pits, player=player)
    if g.end_reason(state) is None:
        check_against_reference(state, {pits})
    else:
        assert g.legal_moves(state) == ()


@settings(max_examples=150, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_rule_5b_mid_turn_on_random_boards(board, rnd):
    # Mid-turn, with some of the boards this position's sow-agains lead to as boards seen earlier
    # in the turn: those choices must vanish (rule 5b), the others stay.
    pits, player = board
    again = [after for _, kind, after, _ in reference_choices(pits, player, {pits}) if kind == "again"]
    seen = {pits, *rnd.sample(again, rnd.randint(0, len(again)))}
    state = State(pits, player=player, turn_boards=frozenset(seen))
    expected = reference_choices(pits, player, seen)
    assert pairs(g.legal_moves(state)) == [c[0] for c in expected]
    if expected:
        check_against_reference(state, seen)
    else:
        assert g.legal_moves(state) == (g.PASS,)


@settings(max_examples=40, deadline=None)
@given(boards(most=400))
def test_boards_beyond_the_kernel_take_the_reference_path(board):
    # More seeds than any game holds (up to 400, past a byte per pit): the reference path.
    pits, player = board
    state = State(pits, player=player)
    if g.end_reason(state) is None:
        check_against_reference(state, {pits})


def test_a_pit_of_more_than_255_seeds_is_sown_by_the_reference_path():
    pits = (300, 0, 1, 0, 2, 0, 0, 1, 0, 0)
    state = State(pits)
    assert not g._packable(pits)
    check_against_reference(state, {pits})


def test_long_laps_that_wrap_many_times():
    # 2x5, 85 seeds in one pit and one in each of North's (90, all the kernel serves): a first
    # lap of 8 rounds of the board and 5 more, both ways.
    for pit in range(5):
        pits = tuple(85 if p == pit else 0 for p in range(5)) + (1,) * 5
        assert g._packable(pits)
        check_against_reference(State(pits), {pits})


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([(5, 4), (6, 4), (6, 9), (8, 6), (10, 9)]), st.integers(0, 2**32 - 1))
def test_states_apply_makes_equal_the_validated_ones(size, seed):
    # Whole random games: each state apply makes (history and turn_boards built when read)
    # equals the one apply_traced builds, in every field and hash, also after copy or pickle.
    rng = random.Random(seed)
    state = g.initial_state(*size, first=rng.randint(0, 1))
    for _ in range(120):
        moves = g.legal_moves(state)
        if not moves:
            break
        move = moves[rng.randrange(len(moves))]
        fast, slow = g.apply(state, move), g.apply_traced(state, move).state
        assert (fast.history, fast.turn_boards) == (slow.history, slow.turn_boards)
        assert fast == slow and hash(fast) == hash(slow)
        assert pickle.loads(pickle.dumps(fast)) == slow == copy.deepcopy(fast)
        state = fast if rng.random() < 0.5 else g.apply(state, move)  # a fresh one, fields unread


def test_a_history_given_by_the_caller_is_kept_and_checked():
    # A history with a position of other stores (it can never come back, but it is part of the
    # history until a capture) and one the game is about to reach.
    relay = (0, 0, 2, 0, 0, 0, 1, 0, 0, 1, 1, 3)
    first = State(relay)
    reached = g.apply(first, Move.parse("2cw"))  # no capture: the game goes on
    assert reached.stores == (0, 0) and reached.player == g.NORTH
    foreign = Position((4,) * 12, (5, 3), 0)
    state = State(relay, history=frozenset({foreign, reached.position}))
    after = g.apply(state, Move.parse("2cw"))
    assert after.history == {foreign, reached.position, state.position}
    assert after == g.apply_traced(state, Move.parse("2cw")).state
    assert g.legal_moves(after) == ()  # the position repeats
    assert g.end_reason(after) is g.EndReason.REPETITION
    # A history entry written as a plain tuple counts the same as a Position.
    plain = State(relay, history=frozenset({tuple(reached.position)}))
    assert g.legal_moves(g.apply(plain, Move.parse("2cw"))) == ()


def test_unknown_attributes_are_still_errors():
    state = g.apply(g.initial_state(), g.legal_moves(g.initial_state())[0])
    try:
        state.no_such_field
    except AttributeError as error:
        assert "no_such_field" in str(error)
    else:
        raise AssertionError("State.no_such_field did not raise")
