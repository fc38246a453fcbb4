"""What a game's box would say: players, playing time, age, what else is needed, and credits.

Taken from /work/shared/rules and /work/shared/seeds. Where they say nothing (playing time and age
for every game here, the designer of Breakfast Shy) the fact reads ``NOT_STATED`` rather than an
invented figure. Sheets print these facts in their publisher's box; checks read them back.
"""

from __future__ import annotations

from dataclasses import dataclass

NOT_STATED = "not stated in the rules"


@dataclass(frozen=True, slots=True)
class GameFacts:
    """The facts of a game's publisher's box, each a short phrase."""

    players: str
    time: str
    age: str
    needs: str
    design: str
    publisher: str

    def entries(self) -> tuple[tuple[str, str], ...]:
        """(label, value) pairs in the order a box prints them."""
        if self.time == self.age:  # "not stated in the rules" once for both
            when: tuple[tuple[str, str], ...] = (("Playing time and age", self.time),)
        else:
            when = (("Playing time", self.time), ("Age", self.age))
        return (
            ("Players", self.players),
            *when,
            ("You also need", self.needs),
            ("Design", self.design),
            ("Publisher", self.publisher),
        )


GAME_FACTS: dict[str, GameFacts] = {
    "harvest": GameFacts(
        players="2 to 12 (one pentomino each)",
        time=NOT_STATED,
        age=NOT_STATED,
        needs="a pencil for each player (different colours help)",
        design="Néstor Romeral Andrés",
        publisher="Bitcoin Magazine, issue 16 (2014)",
    ),
    "minefield": GameFacts(
        players="2",
        time=NOT_STATED,
        age=NOT_STATED,
        needs="a pencil, or stones in 2 colours (black and white, e.g. Go stones)",
        design="Mark Steere (May 2024), with Luis Bolaños Mures",
        publisher=NOT_STATED,
    ),
    "peas": GameFacts(
        players="1 (solitaire)",
        time=NOT_STATED,
        age=NOT_STATED,
        needs="two six-sided dice and a pencil",
        design="not named in the rules",
        publisher="Board Game of the Month Club, June 2023 postcard package",
    ),
    "patchwork": GameFacts(
        players="2",
        time=NOT_STATED,
        age=NOT_STATED,
        needs="scissors, glue, thin card (160-250 gsm) or cereal-box card",
        design="Uwe Rosenberg",
        publisher="Lookout Games (2014); this print-and-play is for your own use",
    ),
}
