"""``printables peas``: Breakfast Shy postcards, one per page or several up on A4 or Letter."""

from __future__ import annotations


import click

from printables.cli.lang import LANG_OPTION
from printables.cli.types import DECIMAL, OUTPUT_PDF, WHOLE, choice, examples

from printables.params.peas import POSTCARDS, SHEET_PAPERS


@click.command(epilog=examples(
    'printables peas --back',
    'printables peas --bleed 3 --back -o print-shop.pdf',
    'printables peas --calibrate-duplex -o duplex-test.pdf',
    'printables peas --paper a4 --back --back-offset 1.5,-2',
))
@click.option("--layout", default="default", show_default=True,
              help="A preset (default, easy, pod, heart; any case) or a mask of rows of 'o' (pea) and '.' (none), e.g. ooo/o.o/ooo.")
@click.option("--rows", type=WHOLE, default=None, help="A full rectangle of peas this many rows high (instead of --layout).")
@click.option("--cols", type=WHOLE, default=None, help="A full rectangle of peas this many columns wide (instead of --layout).")
@click.option("--postcard", type=choice(POSTCARDS), default="a6", show_default=True,
              help="Card format: A6 (148 x 105 mm) or US 4x6 in (152.4 x 101.6 mm).")
@click.option("--landscape/--portrait", default=True, show_default=True, help="Turn the card.")
@click.option("--paper", type=choice(SHEET_PAPERS), default="none", show_default=True,
              help="Impose as many cards as fit on A4 or Letter inside a 5 mm safe zone, with crop marks; none: one card per page.")
@click.option("--bleed", type=choice(["0", "3"]), default="0", show_default=True,
              help="Bleed in mm: the card's colour runs this far past the trim.")
@click.option("--pea", "pea_mm", type=DECIMAL, default=None,
              help="Pea diameter in mm, 10 to 20 (10 to write a digit in); default: the largest up to 14 that fits.")
@click.option("--back", is_flag=True, help="Add a back page with the full rules, for double-sided printing (flip on long edge).")
@click.option("--borderless", is_flag=True,
              help="Butt the cards to the paper's edge (4 x A6 on A4, the only sheet it changes): only for a printer that prints to the edge.")
@click.option("--back-offset", default="0,0", show_default=True, metavar="X,Y",
              help="Move the back pages X mm right and Y mm down (as you look at the back), from -10 to 10 each, "
                   "to meet a printer that shifts the back side: read X and Y off --calibrate-duplex.")
@click.option("--calibrate-duplex", is_flag=True,
              help="Write a two-sided page that measures your printer's duplex shift (print it double-sided, "
                   "flip on the long edge, hold it to the light) instead of cards.")
@LANG_OPTION
@click.option("-o", "--output", type=OUTPUT_PDF, default=None,
              help="PDF to write [default: output/peas/<parameters>.pdf].")
def peas(layout, rows, cols, postcard, landscape, paper, bleed, pea_mm, back, borderless, back_offset,
         calibrate_duplex, lang, output) -> None:
    """Breakfast Shy postcards: the peas, a tally box, the rules and the measured difficulty."""
    from printables.params.peas import PeaCard, parse_back_offset
    from printables.sheets import write_sheet

    offset = parse_back_offset(back_offset)
    if calibrate_duplex:
        from printables.params.peas import DuplexCalibration

        path = write_sheet("duplex-calibration", DuplexCalibration(paper="a4" if paper == "none" else paper, lang=lang), output)
        click.echo(str(path))
        return
    card = PeaCard(layout=layout, rows=rows, cols=cols, postcard=postcard, landscape=landscape,
                   paper=paper, bleed=float(bleed), pea_mm=pea_mm, back=back, borderless=borderless, lang=lang,
                   back_offset=offset)
    path = write_sheet("peas", card, output)
    click.echo(str(path))
