"""``printables minefield``: a Minefield board sheet."""

from __future__ import annotations


import click

from printables.cli.lang import LANG_OPTION
from printables.cli.types import DECIMAL, OUTPUT_PDF, WHOLE, choice, examples

from printables.paper import SHEET_PAPERS


@click.command(epilog=examples(
    'printables minefield',
    'printables minefield --size 15',
    'printables minefield --size 9 --paper letter --cell 18',
    'printables minefield --size 5 --per-page 4',
))
@click.option("--size", type=WHOLE, default=11, show_default=True, help="Cells per side (at least 2).")
@click.option("--paper", type=choice(SHEET_PAPERS), default="a4", show_default=True)
@click.option("--landscape", is_flag=True, help="Turn the page sideways.")
@click.option("--cell", "cell_mm", type=DECIMAL, default=None,
              help="Cell size in mm (6 to 40); default: as large as fits, up to 22 (a Go stone).")
@click.option("--per-page", type=WHOLE, default=1, show_default=True, help="Boards per page (small boards).")
@LANG_OPTION
@click.option("-o", "--output", type=OUTPUT_PDF, default=None,
              help="PDF to write [default: output/minefield/<parameters>.pdf].")
def minefield(size, paper, landscape, cell_mm, per_page, lang, output) -> None:
    """A Minefield board: n x n cells, Black's and White's edge bands, coordinates, legend, rules."""
    from printables.params.minefield import MinefieldSheet
    from printables.sheets import write_sheet

    sheet = MinefieldSheet(size=size, cell_mm=cell_mm, paper=paper, landscape=landscape, per_page=per_page, lang=lang)
    path = write_sheet("minefield", sheet, output)
    click.echo(str(path))
