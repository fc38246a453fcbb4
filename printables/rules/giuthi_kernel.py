"""Giuthi's sowing kernels: how seeds move on a plain board, for the engine and the capacity analysis.

The board's limits, the reference sowing :func:`sow` (lap by lap on a list of pits, the rules as
written: shared/rules/giuthi.md) and the packed-board kernel :func:`packed_sowings` that
legal_moves lists a choice point's sowings with. Pits are plain ints here: no State, no Move
objects but the ones the engine hands to :func:`build_kernel` to be returned as they are. South
owns pits 0..n-1 and North pits n..2n-1; a direction ``d`` is 1 (CCW, index + 1) or -1 (CW).

The engine is printables/rules/giuthi.py (states, moves, legal_moves, apply); the capacity
analysis is printables/rules/giuthi_capacity.py. This module imports neither.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence, Set
from typing import NamedTuple

MIN_PITS_PER_ROW = 5
MAX_PITS_PER_ROW = 10
DEFAULT_PITS_PER_ROW = 6
MIN_SEEDS_PER_PIT = 4
MAX_SEEDS_PER_PIT = 9
DEFAULT_SEEDS_PER_PIT = 4
MIN_SEEDS_TO_SOW = 2  # a pit holding fewer seeds cannot start a sowing

SOUTH = 0
NORTH = 1

# A relay chain is deterministic, so it never ends exactly when its within-turn state repeats.
# Recording states only after this many laps keeps ordinary chains (a few laps) free of the cost:
# a chain that loops still loops after the threshold and repeats a recorded state within a cycle.
LOOP_CHECK_AFTER_LAPS = 32


def validate_parameters(pits_per_row: int, seeds_per_pit: int) -> None:
    """Raise ValueError naming the bad value and the allowed range."""
    if not isinstance(pits_per_row, int) or not (
        MIN_PITS_PER_ROW <= pits_per_row <= MAX_PITS_PER_ROW
    ):
        raise ValueError(
            f"pits_per_row={pits_per_row!r}: Giuthi boards have "
            f"{MIN_PITS_PER_ROW} to {MAX_PITS_PER_ROW} pits per row"
        )
    if not isinstance(seeds_per_pit, int) or not (
        MIN_SEEDS_PER_PIT <= seeds_per_pit <= MAX_SEEDS_PER_PIT
    ):
        raise ValueError(
            f"seeds_per_pit={seeds_per_pit!r}: Giuthi starts with "
            f"{MIN_SEEDS_PER_PIT} to {MAX_SEEDS_PER_PIT} seeds per pit"
        )


def side_empty(pits: Sequence[int]) -> bool:
    """True if one player's pits are all empty."""
    n = len(pits) // 2
    return not any(pits[:n]) or not any(pits[n:])


# ---------------------------------------------------------------------------------------------
# The reference sowing

# How a sowing ends (ints: the hot loop of move generation compares them); RELAY only in the
# lap records of sow.
AGAIN, STOP, NO_CAPTURE, CAPTURE, LOOP, RELAY = range(6)


class LapRecord(NamedTuple):
    """One lap as sow records it: the engine turns it into a Lap (``code``: RELAY or an outcome)."""

    start: int
    d: int
    seeds: int
    end: int
    crossed: bool
    code: int
    pits: tuple[int, ...]
    captured: tuple[tuple[int, int], ...]


def _build_steps(n: int) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    """steps[start][d][k]: the k pits a lap from ``start`` sows in direction d (d = 1 or -1)."""
    size = 2 * n
    table = []
    for start in range(size):
        ccw = tuple(tuple((start + j) % size for j in range(1, k + 1)) for k in range(size))
        cw = tuple(tuple((start - j) % size for j in range(1, k + 1)) for k in range(size))
        # Indexed by d itself: [1] is CCW and [-1], the last item, is CW.
        table.append(((), ccw, cw))
    return tuple(table)


# Sowing paths per board size, so a lap is a plain loop over precomputed pit indices.
_STEPS = {n: _build_steps(n) for n in range(MIN_PITS_PER_ROW, MAX_PITS_PER_ROW + 1)}


def sow(
    pits: list[int],
    pit: int,
    d: int,
    player: int,
    n: int,
    laps: list[LapRecord] | None = None,
) -> tuple[int, int, int]:
    """Sow from ``pit`` and relay until the sowing stops, changing ``pits`` in place.

    Returns (outcome code, seeds captured, most seeds any pit held at a lap's end), and appends
    a LapRecord per lap to ``laps`` if given. The caller has checked that ``pit`` is the
    player's and holds 2 or more seeds.
    """
    size = 2 * n
    lo = player * n
    hi = lo + n
    steps = _STEPS[n]
    crossed = False  # sow-again happens only before crossing, so every sowing starts uncrossed
    # A pit only loses seeds when a lap lifts it (it is then the last lap's end pit, a relay)
    # or at a capture after the last lap; otherwise it only grows. So the most any pit held at
    # a lap's end is the largest relay pit or the largest pit after the last lap, and the peak
    # costs one comparison per relay and one max() per sowing, not one max() per lap.
    peak = 0
    relays = 0
    seen: set | None = None
    while True:
        seeds = pits[pit]
        pits[pit] = 0
        start = pit
        if seeds < size:
            path = steps[pit][d][seeds]
            for j in path:
                pits[j] += 1
            i = path[-1]
            if not crossed:
                # Uncrossed means every seed so far fell on the own row, so the lap starts there.
                crossed = pit + seeds >= hi if d == 1 else pit - seeds < lo
        else:
            # A lap of 2n or more seeds fills every pit, the emptied start pit included.
            rounds, rest = divmod(seeds, size)
            for j in range(size):
                pits[j] += rounds
            crossed = True
            if rest:
                path = steps[pit][d][rest]
                for j in path:
                    pits[j] += 1
                i = path[-1]
            else:
                i = pit
        held = pits[i]
        if held > 1:
            if held > peak:
                peak = held
            if laps is not None:
                laps.append(LapRecord(start, d, seeds, i, crossed, RELAY, tuple(pits), ()))
            relays += 1
            if relays > LOOP_CHECK_AFTER_LAPS:
                key = (tuple(pits), i, d, crossed)
                if seen is None:
                    seen = set()
                elif key in seen:
                    return LOOP, 0, max(peak, max(pits))
                seen.add(key)
            pit = i
            d = -d
            continue
        top = max(pits)
        if top > peak:
            peak = top
        captured = 0
        taken = []
        if not lo <= i < hi:
            outcome = STOP
        elif not crossed:
            outcome = AGAIN
        else:
            facing = size - 1 - i
            if pits[facing]:
                captured = pits[facing]
                taken.append((facing, captured))
                pits[facing] = 0
                # The chain runs on in the last lap's direction while the next own pit is empty
                # and faces seeds; leaving the row (including the wrap) ends it.
                j = i + d
                while lo <= j < hi and not pits[j] and pits[size - 1 - j]:
                    facing = size - 1 - j
                    captured += pits[facing]
                    taken.append((facing, pits[facing]))
                    pits[facing] = 0
                    j += d
            outcome = CAPTURE if captured else NO_CAPTURE
        if laps is not None:
            laps.append(LapRecord(start, d, seeds, i, crossed, outcome, tuple(pits), tuple(taken)))
        return outcome, captured, peak


class Sown(NamedTuple):
    """A legal sowing as legal_sowings sows it: where from, and what it does to the board."""

    pit: int
    d: int
    again: bool  # the sowing ends in a sow-again (the player chooses once more)
    pits: tuple[int, ...]
    captured: int
    peak: int  # most seeds any pit held at a lap's end


Sower = Callable[..., tuple[int, int, int]]  # sow's signature


def legal_sowings(
    pits: tuple[int, ...], player: int, seen: Set[tuple[int, ...]], sower: Sower
) -> Iterator[Sown]:
    """Each legal sowing of ``player`` from ``pits``, sown by ``sower``; pits ascending, CCW first.

    ``seen`` holds the boards of this turn's choice points: a sow-again that brings one back
    repeats the within-turn state and is not legal (rule 5b), nor is a relay chain that loops.
    ``sower`` is :func:`sow` or what the engine sows with (a test replaces the engine's).
    """
    n = len(pits) // 2
    for pit in range(player * n, (player + 1) * n):
        if pits[pit] < MIN_SEEDS_TO_SOW:
            continue
        for d in (1, -1):
            work = list(pits)
            code, captured, peak = sower(work, pit, d, player, n)
            if code == LOOP:
                continue
            after = tuple(work)
            if code == AGAIN and after in seen:
                continue
            yield Sown(pit, d, code == AGAIN, after, captured, peak)


def has_sowing(
    pits: tuple[int, ...], player: int, seen: Set[tuple[int, ...]], sower: Sower
) -> bool:
    """True if ``player`` has a legal sowing from ``pits`` (see legal_sowings)."""
    n = len(pits) // 2
    for pit in range(player * n, (player + 1) * n):
        if pits[pit] < MIN_SEEDS_TO_SOW:
            continue
        for d in (1, -1):
            work = list(pits)
            code, _, _ = sower(work, pit, d, player, n)
            if code == LOOP or (code == AGAIN and tuple(work) in seen):
                continue
            return True
    return False


# ---------------------------------------------------------------------------------------------
# The move-generation kernel: packed boards and precomputed laps
#
# legal_moves sows every candidate of every choice point, so this is where the engine spends its
# time. A board is packed into one int, a byte per pit (pit i is byte i, little-endian:
# ``int.from_bytes(bytes(pits), "little")`` and back ``tuple(b.to_bytes(2n, "little"))``), and a
# whole lap is one addition: the lap's delta adds a seed to every pit it passes (whole laps round
# the board add to every pit at once) and takes the lifted seeds out of the start pit. So a lap
# costs the same for 3 seeds or 30, and a candidate needs no copy of the board.
#
# A byte holds up to 255 seeds, and no pit can hold more than all seeds on the board, so a board is
# packed only while its total is at most 2n x MAX_SEEDS_PER_PIT (every game begun by
# initial_state; 180 at most). The engine sows other boards, and every sowing if its sow has
# been replaced, with sow, the reference kernel (apply_traced, play_game and the tests use it too).
#
# The lap tables hold everything a lap's outcome depends on besides the board: for each player,
# whether the turn has crossed yet, direction, start pit and seeds lifted, an entry
# (delta, shift of the end pit, table row of the relay from the end pit, what an empty end pit
# means). The relay row already has the flipped direction and the crossed flag after the lap, so
# the inner loop is an index, an addition and a byte read per lap. A sowing's first lap starts
# from the caller's tuple of pits, so its end pit is read there (see _first_laps).

PIT_BITS = 8


class Kernel:
    """The lap tables of one board size (see above), built by build_kernel."""

    __slots__ = ("cap", "south", "north", "starts")

    def __init__(self, cap: int, south: int, north: int, starts: tuple) -> None:
        self.cap = cap  # most seeds on a board the tables serve: 2n x MAX_SEEDS_PER_PIT
        self.south = south  # the bits of South's pits in a packed board
        self.north = north  # the shift of North's first pit (the bits above it are North's)
        # starts[player]: (start pit, ((first-lap row, one-sowing move, d) for d in CCW, CW))
        # per own pit, ascending: the order of legal_moves.
        self.starts = starts


# What an entry says of an empty end pit (the lap's last seed is then its only seed): the turn
# ends there (_END_STOP), the player sows again (_END_AGAIN), or a capture is tried, written as
# (shift of the facing pit, ((shift of the next own pit, shift of the pit facing it), ...)), the
# chain's next own pits in the lap's direction up to the end of the row.
_END_STOP = None
_END_AGAIN = True


def build_kernel(n: int, moves: Sequence[dict[int, object]]) -> Kernel:
    """Lap tables for both players of a 2 x ``n`` board: row[seeds] = (delta, end shift, relay
    row, empty end); ``moves[pit][d]`` is what packed_sowings returns for that sowing.

    8 ms for 2x6, 60 ms for 2x10.
    """
    size = 2 * n
    cap = size * MAX_SEEDS_PER_PIT
    assert cap < 1 << PIT_BITS
    seed = [1 << (PIT_BITS * pit) for pit in range(size)]  # one seed in pit i, packed
    starts = []
    for player in (SOUTH, NORTH):
        lo, hi = player * n, player * n + n
        # rows[crossed, d, pit]: a lap from ``pit`` in direction d. Uncrossed laps start on the
        # own row (every seed so far fell there), so only those rows exist.
        rows = {
            (crossed, d, pit): []
            for crossed in (False, True)
            for d in (1, -1)
            for pit in range(size)
            if crossed or lo <= pit < hi
        }
        for (crossed, d, pit), row in rows.items():
            row.append(None)  # no lap lifts 0 seeds
            delta = 0
            end = pit
            for _ in range(cap):
                end = (end + d) % size
                delta += seed[end] - seed[pit]  # one more seed lifted from pit, sown into end
                crossed = crossed or not lo <= end < hi
                if not lo <= end < hi:
                    empty = _END_STOP
                elif not crossed:
                    empty = _END_AGAIN
                else:
                    chain = []
                    j = end + d
                    while lo <= j < hi:  # leaving the row (the wrap included) ends a chain
                        chain.append((PIT_BITS * j, PIT_BITS * (size - 1 - j)))
                        j += d
                    empty = (PIT_BITS * (size - 1 - end), tuple(chain))
                row.append((delta, PIT_BITS * end, rows[crossed, -d, end], empty))
        starts.append(tuple(
            (pit, tuple((_first_laps(rows[False, d, pit], pit, size), moves[pit][d], d) for d in (1, -1)))
            for pit in range(lo, hi)
        ))
    return Kernel(cap, seed[n] - 1, PIT_BITS * n, tuple(starts))


def _first_laps(row: list, start: int, size: int) -> list:
    """A sowing's first lap from ``start``: first[seeds] = (delta, end pit, more, relay row, empty
    end), as the lap row's entry, but the end pit then holds its seeds before the lap plus
    ``more``: the kernel reads it on the unpacked board, without a byte read."""
    first: list = [None]
    for seeds, (delta, shift, relay, empty) in enumerate(row[1:], 1):
        end = shift // PIT_BITS
        rounds = seeds // size
        # Every pit gets ``rounds`` seeds and the pits up to the end one more; a lap that ends in
        # its start pit (whole rounds) finds it emptied, holding only ``rounds``.
        more = rounds - seeds if end == start else rounds + 1
        first.append((delta, end, more, relay, empty))
    return first


def pack(pits: Sequence[int]) -> int:
    """A board as one int, a byte per pit (the caller has checked every pit is below 256)."""
    return int.from_bytes(bytes(pits), "little")


def unpack(board: int, size: int) -> tuple[int, ...]:
    """The pits of a packed board of ``size`` pits."""
    return tuple(board.to_bytes(size, "little"))


# Relay laps the kernel runs inline per sowing after the first; a longer chain (rare: random 2x6
# games stay under 30 laps) is sown again by sow, which also watches for a loop.
_INLINE_LAPS = range(LOOP_CHECK_AFTER_LAPS - 1)


def packed_sowings(
    kernel: Kernel, pits: tuple[int, ...], board: int, player: int, seen: Collection[int]
) -> list[tuple]:
    """The legal sowings of ``player`` from ``pits`` (packed: ``board``), each sown once.

    Each is a plain tuple (move, ends in a sow-again, packed board after, seeds captured), the
    move being the one build_kernel was given: most are never chosen, so nothing more is built.
    ``seen`` holds the packed boards of this turn's choice points: a sow-again that brings one
    back repeats the within-turn state and is not legal (rule 5b), nor is a relay chain that
    loops. Pits ascending, CCW before CW. The caller has checked that the kernel serves the
    board (its total is at most ``kernel.cap``). tests/test_giuthi_playouts.py (whole games)
    and tests/test_giuthi_kernel.py (random boards) check it against a naive seed-by-seed sowing.
    """
    out: list[tuple] = []
    keep = out.append
    inline_laps = _INLINE_LAPS
    for start, directions in kernel.starts[player]:
        lifted = pits[start]
        if lifted < 2:  # MIN_SEEDS_TO_SOW (a constant here: a global lookup per pit)
            continue
        for first, move, d in directions:
            delta, end, more, row, empty = first[lifted]  # row: the relay's, from the end pit
            b = board + delta
            seeds = pits[end] + more  # the end pit after the first lap, its last seed included
            if seeds > 1:  # it was occupied: lift it and sow on the other way, lap after lap
                for _ in inline_laps:
                    delta, shift, row, empty = row[seeds]
                    b += delta
                    seeds = b >> shift & 255  # the end pit, read on the packed board
                    if seeds < 2:  # it was empty: the sowing ends there
                        break
                else:  # a long relay chain: sow sows it again from the start, watching for loops
                    work = list(pits)
                    code, captured, _ = sow(work, start, d, player, len(pits) >> 1)
                    if code == LOOP:
                        continue  # never ends: not a legal sowing
                    b = pack(work)
                    if code == AGAIN and b in seen:
                        continue
                    keep((move, code == AGAIN, b, captured))
                    continue
            if empty is _END_STOP:
                keep((move, False, b, 0))
            elif empty is _END_AGAIN:
                if b not in seen:  # rule 5b
                    keep((move, True, b, 0))
            else:  # crossed, on the own row: capture the facing pit, then the chain
                facing, chain = empty
                taken = b >> facing & 255
                if taken:
                    b -= taken << facing
                    for own, facing in chain:
                        if b >> own & 255:
                            break
                        more = b >> facing & 255
                        if not more:
                            break
                        taken += more
                        b -= more << facing
                keep((move, False, b, taken))
    return out
