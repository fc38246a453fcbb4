"""``printables harvest``: a Bitcoin Harvest sheet."""

from __future__ import annotations


import click

from printables.cli.lang import LANG_OPTION
from printables.cli.types import DECIMAL, OUTPUT_PDF, WHOLE, choice, examples

from printables.paper import SHEET_PAPERS


@click.command(epilog=examples(
    'printables harvest',
    'printables harvest --grid 14x14 --players 4 --paper letter',
    'printables harvest --grid 12x9 --cell 10 --landscape -o wide.pdf',
    'printables harvest --grid 11x5 --per-page 4',
))
@click.option("--grid", default="10x10", show_default=True, help="Grid size as WIDTHxHEIGHT (any rectangle).")
@click.option("--players", type=WHOLE, default=2, show_default=True, help="Number of players, 2 to 12.")
@click.option("--cell", "cell_mm", type=DECIMAL, default=None, help="Cell size in mm (at least 7); default: as large as fits, up to 15.")
@click.option("--coins-per-turn", type=WHOLE, default=2, show_default=True, help="Coins drawn each turn (variant; printed on the sheet).")
@click.option("--opening-coins", type=WHOLE, default=2, show_default=True, help="Coins the first player draws to open (variant).")
@click.option("--paper", type=choice(SHEET_PAPERS), default="a4", show_default=True)
@click.option("--landscape", is_flag=True, help="Turn the page sideways.")
@click.option("--per-page", type=WHOLE, default=1, show_default=True, help="Games per page (small grids).")
@LANG_OPTION
@click.option("-o", "--output", type=OUTPUT_PDF, default=None,
              help="PDF to write [default: output/harvest/<parameters>.pdf].")
def harvest(grid, players, cell_mm, coins_per_turn, opening_coins, paper, landscape, per_page, lang, output) -> None:
    """A sheet for The Bitcoin Harvest: grid, the 12 harvesters, score table and rules."""
    from printables.params.harvest import HarvestSheet
    from printables.rules.harvest import recommended_grid
    from printables.sheets import write_sheet

    sheet = HarvestSheet(grid=grid, players=players, cell_mm=cell_mm, coins_per_turn=coins_per_turn,
                         opening_coins=opening_coins, paper=paper, landscape=landscape, per_page=per_page, lang=lang)
    path = write_sheet("harvest", sheet, output)
    click.echo(str(path))
    side, _ = recommended_grid(players)
    if sheet.width * sheet.height < side * side:
        click.echo(f"warning: {sheet.width}x{sheet.height} is smaller than the {side}x{side} recommended "
                   f"for {players} players; games will be short", err=True)
