"""Parameters of a Bitcoin Harvest sheet, validated when built."""

from __future__ import annotations

from dataclasses import dataclass

from printables.errors import ParameterError
from printables.i18n import require_lang
from printables.paper import SHEET_PAPERS
from printables.params.base import parse_dims, require_mm
from printables.rules import harvest

MIN_CELL_MM = 7.0  # smallest cell a pentomino is drawn into in pencil, and a coin, at a comfortable hand
MAX_PER_PAGE = 6  # the option's range; today no paper has room for more than 4 games with their score tables, and the layout refuses with how many fit
MAX_COINS_PER_TURN = 10


@dataclass(frozen=True)
class HarvestSheet:
    """What a Bitcoin Harvest sheet shows: grid, players, cell size, paper and games per page."""

    grid: tuple[int, int] | str = (10, 10)
    players: int = 2
    cell_mm: float | None = None  # None: as large as fits, up to the layout's comfortable maximum
    coins_per_turn: int = harvest.DEFAULT_COINS_PER_TURN
    opening_coins: int = harvest.OPENING_COINS
    paper: str = "a4"
    landscape: bool = False
    per_page: int = 1
    lang: str = "en"  # en, ko or tr: the language every text of the sheet is in

    def __post_init__(self) -> None:
        object.__setattr__(self, "lang", require_lang(self.lang))
        grid = self.grid
        if isinstance(grid, str):
            grid = parse_dims(grid)
        elif isinstance(grid, (list, tuple)) and len(grid) == 2 and all(isinstance(v, int) for v in grid):
            grid = (int(grid[0]), int(grid[1]))
            if min(grid) < 1:
                raise ParameterError(f"grid {grid[0]}x{grid[1]}: both sides must be at least 1, e.g. 10x10")
        else:
            raise ParameterError(f"grid {grid!r}: write it as WIDTHxHEIGHT, e.g. 10x10")
        object.__setattr__(self, "grid", grid)
        width, height = grid
        missing = harvest.unplaceable(width, height)
        if missing:
            raise ParameterError(
                f"grid {width}x{height}: pentomino {', '.join(missing)} cannot be placed on it; "
                "every grid needs at least 3x5 or 5x3 so all 12 harvesters fit"
            )
        if not isinstance(self.players, int) or not harvest.MIN_PLAYERS <= self.players <= harvest.MAX_PLAYERS:
            raise ParameterError(
                f"players {self.players!r}: The Bitcoin Harvest takes {harvest.MIN_PLAYERS} to {harvest.MAX_PLAYERS}"
            )
        if self.cell_mm is not None:
            # Cells must be at least MIN_CELL_MM to write in; the layout says how large fits.
            object.__setattr__(self, "cell_mm", require_mm("cell", self.cell_mm, MIN_CELL_MM))
        if not isinstance(self.coins_per_turn, int) or not 1 <= self.coins_per_turn <= MAX_COINS_PER_TURN:
            raise ParameterError(f"coins per turn {self.coins_per_turn!r}: use 1 to {MAX_COINS_PER_TURN}")
        if not isinstance(self.opening_coins, int) or not 1 <= self.opening_coins <= MAX_COINS_PER_TURN:
            raise ParameterError(f"opening coins {self.opening_coins!r}: use 1 to {MAX_COINS_PER_TURN}")
        if self.paper not in SHEET_PAPERS:
            raise ParameterError(f"paper {self.paper!r}: use one of {', '.join(SHEET_PAPERS)}")
        if not isinstance(self.landscape, bool):
            raise ParameterError(f"landscape {self.landscape!r}: use true or false")
        if not isinstance(self.per_page, int) or not 1 <= self.per_page <= MAX_PER_PAGE:
            raise ParameterError(f"per page {self.per_page!r}: use 1 to {MAX_PER_PAGE}")

    @property
    def width(self) -> int:
        """Grid columns."""
        return self.grid[0]

    @property
    def height(self) -> int:
        """Grid rows."""
        return self.grid[1]

    def file_stem(self) -> str:
        """A file name derived from the parameters."""
        parts = [f"harvest-{self.width}x{self.height}", f"{self.players}p", self.paper]
        if self.landscape:
            parts.append("landscape")
        if self.cell_mm is not None:
            parts.append(f"{self.cell_mm:g}mm")
        if self.coins_per_turn != harvest.DEFAULT_COINS_PER_TURN:
            parts.append(f"{self.coins_per_turn}coins")
        if self.opening_coins != harvest.OPENING_COINS:
            parts.append(f"{self.opening_coins}opening")
        if self.per_page > 1:
            parts.append(f"{self.per_page}up")
        if self.lang != "en":
            parts.append(self.lang)
        return "-".join(parts)
