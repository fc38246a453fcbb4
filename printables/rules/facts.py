"""What a game's box would say: players, what else is needed, credits, and figures we measured.

Taken from /work/shared/rules and /work/shared/seeds. A fact they do not state (playing time and
age for every game here, Breakfast Shy's designer, Minefield's publisher) is left out rather than
printed as unknown. In its place the box prints what the rule cores measure, marked as simulated:
a game's length in turns and, for two players, how often the first player wins
(``printables.rules.simulation``; the figures are stored by ``tools/simulated_facts.py``). Sheets
print these facts in their publisher's box; checks read them back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# What one turn of each game is, as the length line counts it.
TURN_WORDS = {
    "harvest": "turns",  # a harvester drawn
    "minefield": "turns",  # a stone placed
    "patchwork": "turns",  # a patch bought or a pass
    "peas": "rolls",  # a roll of the two dice
}

# Minefield's pieces: Go stones (22 mm across) fit cells of GO_STONE_MM or more; a smaller cell
# takes counters or coins up to its side less PIECE_CLEARANCE_MM (1 mm clear on each side), in
# whole mm rounded down.
GO_STONE_MM = 22.0
PIECE_CLEARANCE_MM = 2.0
MINEFIELD_NEEDS_GO = "a pencil, or stones in 2 colours (black and white, e.g. Go stones)"
MINEFIELD_NEEDS_COUNTERS = "a pencil, or black and white counters or coins up to {n} mm across"


def largest_piece_mm(cell_mm: float) -> int:
    """The largest counter, in whole mm, that the "you also need" line names for a cell."""
    return math.floor(cell_mm - PIECE_CLEARANCE_MM + 1e-9)


def minefield_needs(cell_mm: float | None) -> str:
    """Minefield's "you also need" for cells of ``cell_mm``: Go stones only where they fit."""
    if cell_mm is None or cell_mm >= GO_STONE_MM:
        return MINEFIELD_NEEDS_GO
    return MINEFIELD_NEEDS_COUNTERS.format(n=largest_piece_mm(cell_mm))


def percent(share: float) -> int:
    """A share (0 to 1) as a whole percentage, halves rounded up."""
    return math.floor(share * 100 + 0.5)


def simulated_entry(kind: str, games: int, low: int, high: int, median: int,
                    first_wins: float | None = None, draws: float = 0.0) -> tuple[str, str]:
    """The (label, value) of the simulated figures: the range and median of a game's length in
    turns and, for two players, the first player's share of wins (and of ties, if any)."""
    value = f"{low}–{high} {TURN_WORDS[kind]}, median {median}"
    if first_wins is not None:
        value += f"; first player wins {percent(first_wins)} %"
        if percent(draws):
            value += f", {percent(draws)} % tied"
    return (f"{games} simulated games", value)


@dataclass(frozen=True)
class Measure:
    """Length and first-player figures of ``games`` seeded games of one game with one parameter set."""

    games: int
    seed: int
    turns_median: int  # the lower median
    turns_low: int  # the shortest game
    turns_high: int  # the longest game
    first_wins: float | None  # share of games the first player won; None for solitaire or 3+ players
    draws: float | None  # share of drawn (or shared) games, alongside first_wins


def params_key(kind: str, **params) -> str:
    """The name of a parameter set, as the stored figures are keyed: ``harvest`` "10x10 2p 2/2 coins",
    ``minefield`` "11x11", ``patchwork`` its leather edition, ``peas`` its layout (preset name or mask)."""
    if kind == "harvest":
        width, height = params["grid"]
        return f"{width}x{height} {params['players']}p {params['opening_coins']}/{params['coins_per_turn']} coins"
    if kind == "minefield":
        return f"{params['size']}x{params['size']}"
    if kind == "patchwork":
        return str(params["leather"])
    if kind == "peas":
        return str(params["layout"])
    raise ValueError(f"kind {kind!r}: use harvest, minefield, patchwork or peas")


@dataclass(frozen=True, slots=True)
class GameFacts:
    """The facts of a game's publisher's box, each a short phrase; None where nothing is known."""

    players: str
    needs: str
    design: str | None = None
    publisher: str | None = None
    measured: tuple[tuple[str, str], ...] = ()  # (label, value) of the simulated figures

    def entries(self) -> tuple[tuple[str, str], ...]:
        """(label, value) pairs in the order a box prints them; unknown facts are left out."""
        known = [("Players", self.players), *self.measured, ("You also need", self.needs)]
        if self.design is not None:
            known.append(("Design", self.design))
        if self.publisher is not None:
            known.append(("Publisher", self.publisher))
        return tuple(known)


def sheet_facts(facts: GameFacts, kind: str, measure=None, cell_mm: float | None = None) -> GameFacts:
    """``facts`` for one sheet: Minefield's pieces for its cell and the simulated figures, if any.

    ``measure`` is a ``simulation.Measure`` for the sheet's parameters (None: not measured, so the
    box prints no figure)."""
    measured: list[tuple[str, str]] = []
    if measure is not None:
        measured.append(simulated_entry(kind, measure.games, measure.turns_low, measure.turns_high, measure.turns_median,
                                        measure.first_wins, measure.draws or 0.0))
    needs = minefield_needs(cell_mm) if kind == "minefield" else facts.needs
    return GameFacts(facts.players, needs, facts.design, facts.publisher, tuple(measured))


GAME_FACTS: dict[str, GameFacts] = {
    "harvest": GameFacts(
        players="2 to 12 (one pentomino each)",
        needs="a pencil for each player (different colours help)",
        design="Néstor Romeral Andrés",
        publisher="Bitcoin Magazine, issue 16 (2014)",
    ),
    "minefield": GameFacts(
        players="2",
        needs=MINEFIELD_NEEDS_GO,
        design="Mark Steere (May 2024), with Luis Bolaños Mures",
    ),
    "peas": GameFacts(
        players="1 (solitaire)",
        needs="two six-sided dice and a pencil",
        publisher="Board Game of the Month Club, June 2023 postcard package",
    ),
    "patchwork": GameFacts(
        players="2",
        needs="scissors, glue and thin card (or cereal-box card)",  # the card advice beside it says which card
        design="Uwe Rosenberg",
        publisher="Lookout Games (2014); this copy is for your own use",
    ),
}
