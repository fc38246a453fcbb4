"""``printables patchwork``: Patchwork print-and-play sheets (patches, quilts, time track, extras)."""

from __future__ import annotations


import click

from printables.cli.lang import LANG_OPTION
from printables.cli.types import DECIMAL, OUTPUT_PDF, choice, examples

from printables.paper import SHEET_PAPERS
from printables.params.patchwork import INKS, PARTS
from printables.rules.patchwork import DEFAULT_EDITION, EDITIONS


@click.command(epilog=examples(
    'printables patchwork',
    'printables patchwork --paper letter --leather revised',
    'printables patchwork --part track --ink low',
    'printables patchwork --part patches --cell 15 -o patches.pdf',
))
@click.option("--part", type=choice(PARTS), default="all", show_default=True,
              help="Which part to print; 'all' puts every part in one PDF.")
@click.option("--paper", type=choice(SHEET_PAPERS), default="a4", show_default=True)
@click.option("--cell", "cell_mm", type=DECIMAL, default=None,
              help="Side of one square in mm, for patches and quilts alike [default: the largest of up to 20 mm "
                   "for which the 9x9 quilt fits the page].")
@click.option("--leather", type=choice(EDITIONS), default=DEFAULT_EDITION, show_default=True,
              help="Edition whose leather-patch spaces the time track marks.")
@click.option("--ink", type=choice(INKS), default="full", show_default=True,
              help="'low': outlines and symbols only, no fills.")
@LANG_OPTION
@click.option("-o", "--output", type=OUTPUT_PDF, default=None,
              help="PDF to write [default: output/patchwork/<parameters>.pdf].")
def patchwork(part, paper, cell_mm, leather, ink, lang, output) -> None:
    """Patchwork print-and-play: the 33 patches, two quilts, the time track and the extras."""
    from printables.params.patchwork import PatchworkSheet
    from printables.sheets import write_sheet

    sheet = PatchworkSheet(part=part, paper=paper, cell_mm=cell_mm, leather=leather, ink=ink, lang=lang)
    path = write_sheet("patchwork", sheet, output)
    click.echo(str(path))
