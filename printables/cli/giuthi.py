"""``printables giuthi``: the Giuthi folding board and seeds as STL, ready for a Dremel 3D45."""

from __future__ import annotations

from pathlib import Path

import click

from printables.i18n import LANGS

from printables.cli.types import DECIMAL, OUTPUT_FOLDER, OUTPUT_PDF, WHOLE, ExistingPath, choice, examples

RULES_PAPERS = ("a4", "letter")
DEFAULT_OUTPUT = Path("output/giuthi")

SCREWS = ("no2", "m2", "m2.5", "m3")
# CLI option -> GiuthiBoardParams field; only options given on the command line override.
OPTION_FIELDS = {
    "pits": "pits_per_row",
    "seeds": "seeds_per_pit",
    "pit_diameter": "pit_diameter_mm",
    "pit_depth": "pit_depth_mm",
    "pit_length": "pit_length_mm",
    "size": "size_mm",
    "thickness": "thickness_mm",
    "wall": "wall_mm",
    "screw": "screw",
    "chamfer": "chamfer_mm",
    "clearance": "hole_clearance_mm",
    "seed_diameter": "seed_diameter_mm",
    "seed_height": "seed_height_mm",
}


@click.command(epilog=examples(
    'printables giuthi',
    'printables giuthi --size 200x140 --seeds 5 -o output/giuthi-5',
    'printables giuthi --show',
    'printables giuthi --rules --paper letter -o giuthi-rules.pdf',
))
@click.option("--preset", default=None, help="Start from a preset in models/ (see `printables list`).")
@click.option("--presets", "preset_folders", multiple=True, type=ExistingPath(exists=True, file_okay=False, path_type=Path),
              help="Read --preset from this folder instead of the project's models/.")
@click.option("--pits", type=WHOLE, default=None, help="Pits per row, even, 6 to 10 [default: 6].")
@click.option("--seeds", type=WHOLE, default=None, help="Seeds per pit at the start, 4 to 9 [default: 4]; sizes pits and stores.")
@click.option("--size", default=None, metavar="WxH",
              help="One half's plan in mm, along the rows x across, knuckles included [default: 160x145];"
                   " the pits are sized to fill it.")
@click.option("--pit-diameter", type=DECIMAL, default=None, help="Pit size along the row, mm.")
@click.option("--pit-length", type=DECIMAL, default=None, help="Pit size across the row, mm (= --pit-diameter for round pits).")
@click.option("--pit-depth", type=DECIMAL, default=None, help="Pit depth, mm.")
@click.option("--thickness", type=DECIMAL, default=None, help="Board thickness, bed to playing surface, mm.")
@click.option("--wall", type=DECIMAL, default=None, help="Wall thickness, mm (at least 1.2).")
@click.option("--screw", type=choice(SCREWS), default=None, help="Hinge screws [default: no2, a 2.2 mm self-tapper].")
@click.option("--chamfer", type=DECIMAL, default=None, help="45-degree chamfer on the bed edges, mm: 0 (none) or 0.2 to 0.5 [default: 0.5].")
@click.option("--clearance", type=DECIMAL, default=None, help="Clearance-hole allowance over the screw diameter, mm, 0.2 to 0.5 [default: 0.3].")
@click.option("--seed-diameter", type=DECIMAL, default=None, help="Seed (bean) length, mm, 6 to 20 [default: 10.5]; its width is 0.7 of that.")
@click.option("--seed-height", type=DECIMAL, default=None, help="Seed height, mm.")
@click.option("--slice/--no-slice", "slice_parts", default=True, show_default=True,
              help="Slice every part with PrusaSlicer (when installed) for the print card's time and filament.")
@click.option("--previews/--no-previews", default=True, show_default=True, help="Render PNG previews.")
@click.option("--show", is_flag=True, help="Print a seeded sample game as text (no files), to follow the rules.")
@click.option("--rules", "rules_only", is_flag=True,
              help="Write only the rules sheet (a PDF; -o names the file) for the chosen board.")
@click.option("--paper", type=choice(RULES_PAPERS), default="a4", show_default=True,
              help="Paper of the rules sheet.")
@click.option("--lang", type=choice(LANGS), default="en", show_default=True,
              help="Language of the rules sheet (alone with --rules, or in the set) and of the set's print card:"
                   " en, ko (한국어), tr (Türkçe).")
@click.option("--game-seed", type=WHOLE, default=1, show_default=True, help="Seed of the --show game.")
@click.option("-o", "--output", default=None,
              help="Folder for the set [default: output/giuthi]; with --rules, the PDF to write"
                   " [default: output/giuthi-rules/<board>.pdf].")
@click.pass_context
def giuthi(ctx, preset, preset_folders, slice_parts, previews, show, rules_only, paper, lang, game_seed, output,
           **options) -> None:
    """Giuthi board halves and seed sprue (STL, 3MF, STEP), slicer profile, print card, rules sheet and previews."""
    from printables.build import all_presets
    from printables.errors import ParameterError
    from printables.models import CAPACITY_ADVICE, CapacityError, build_giuthi, capacity_fixes, model_params

    base: dict = {}
    presets: dict = {}
    if preset is not None or not rules_only:
        try:
            presets = {p.name: p.params for p in all_presets(preset_folders) if p.kind == "giuthi-board"}
        except ParameterError:
            if preset is not None:
                raise
    if preset is not None:
        if preset not in presets:
            known = ", ".join(sorted(presets)) or "none found (give --presets DIR)"
            raise click.BadParameter(f"{preset!r}: use one of {known}", param_hint="'--preset'")
        base.update(presets[preset])
    given = {OPTION_FIELDS[k]: v for k, v in options.items() if v is not None}
    mapping = {**base, **given}
    # A preset may say the set's language and rules paper; --lang and --paper, when given, win.
    source = click.core.ParameterSource.DEFAULT
    if ctx.get_parameter_source("lang") == source:
        lang = base.get("lang", lang)
    if ctx.get_parameter_source("paper") == source:
        paper = base.get("paper", paper)
    param = next(p for p in ctx.command.params if p.name == "output")
    if rules_only:
        # The rules sheet needs only the rule core's numbers: a 2x10 sheet can be printed for a
        # board made elsewhere, even when this project's default pits could not hold its seeds.
        from printables.models import write_rules_sheet
        from printables.params.giuthi_board import GiuthiBoardParams, validate_counts

        pits = mapping.get("pits_per_row", GiuthiBoardParams.pits_per_row)
        seeds = mapping.get("seeds_per_pit", GiuthiBoardParams.seeds_per_pit)
        try:
            validate_counts(pits, seeds)
        except ParameterError as error:
            raise ParameterError(_in_option_names(str(error))) from None
        suffix = "" if lang == "en" else f"-{lang}"
        default = Path("output/giuthi-rules") / f"giuthi-rules-2x{pits}-{seeds}seeds-{paper}{suffix}.pdf"
        path = default if output is None else OUTPUT_PDF.convert(output, param, ctx)
        click.echo(str(write_rules_sheet(pits, seeds, path, paper, lang)))
        return
    # Every other option is validated, --show included: a sample game for a board that cannot be
    # made would teach the rules of a board the user cannot print.
    try:
        board = model_params("giuthi-board", mapping, "giuthi")
    except CapacityError as error:
        fixes = capacity_fixes(error.board, base, given, presets, preset)
        advice = (f" what holds them: {'; or '.join(fixes)}" if fixes
                  else " no smaller seeds, preset, plan or seed count holds them")
        raise ParameterError(_in_option_names(str(error).removesuffix(CAPACITY_ADVICE)) + advice) from None
    except ParameterError as error:
        raise ParameterError(_in_option_names(str(error))) from None
    if show:
        _show_game(board.pits_per_row, board.seeds_per_pit, game_seed)
        return
    folder = DEFAULT_OUTPUT if output is None else OUTPUT_FOLDER.convert(output, param, ctx)
    written = build_giuthi(board, folder, slice_parts=slice_parts, previews=previews, paper=paper, lang=lang,
                           progress=lambda message: click.echo(f"… {message}", err=True))
    for path in written:
        click.echo(str(path))


def _in_option_names(message: str) -> str:
    """A parameter error in the words the user typed: ``pits_per_row=7`` becomes ``--pits 7``."""
    import re

    message = message.removeprefix("giuthi: ")
    for option, field in sorted(OPTION_FIELDS.items(), key=lambda kv: -len(kv[1])):
        flag = f"--{option.replace('_', '-')}"
        message = message.replace(f"{field}<=", f"{flag} <= ").replace(f"{field}=", f"{flag} ")
        if "_" in field:  # a parameter's name in a sentence (not a word such as "screw")
            message = re.sub(rf"\b{re.escape(field)} ", f"{flag} ", message)
    # Parameters no option sets (a preset's web_mm, the seeds' width ratio) are left out: the
    # user is told only what they can change here.
    message = re.sub(r" \([a-z]+(?:_[a-z]+)+=[^)]*\)", "", message)
    message = re.sub(r" or a larger [a-z]+(?:_[a-z]+)+", "", message)
    return re.sub(r"\b[a-z]+(?:_[a-z]+)+ (?=[0-9])", "", message)


# What each lap's ending means, by the word --show prints (rules.LapEnd values).
LAP_END_MEANINGS = {
    "relay": "the last seed fell into a pit that held seeds: those are lifted and sown back the other way",
    "sow-again": "the last seed fell into an empty pit of the mover's own row, not crossed: they sow again",
    "no-sowing-left": "as sow-again, but no sowing is left to choose: the turn ends",
    "stop": "the last seed fell into an empty pit of the opponent's row: the turn ends",
    "no-capture": "the last seed fell into an empty own pit, crossed, facing an empty pit: the turn ends",
    "capture": "as no-capture, but the facing pit held seeds: they go to the store, the chain runs on",
}


def show_legend(pits: int, seeds: int) -> str:
    """The notation of ``--show`` explained, for a 2 x ``pits`` board with ``seeds`` per pit."""
    last = 2 * pits - 1
    end = (4 - 5) % (2 * pits)  # the example lap: 5 seeds from pit 4, clockwise (to lower numbers)
    lines = [
        f"How to read this game (Giuthi, 2x{pits}, {seeds} seeds per pit; full rules: printables giuthi --rules):",
        f"  Each board: the small numbers above and below the rows are pit numbers, 0 to {last} anticlockwise;",
        f"  South owns 0-{pits - 1} (bottom row, left to right), North {pits}-{last} (top row, right to left).",
        "  The other numbers are seeds. 'North [  0]' is North's store (left), '[  0] South' South's (right).",
        "  A move: '4cw' = take every seed of pit 4 and sow clockwise (to lower numbers), '4ccw' anticlockwise",
        f"  (to higher numbers; {last} and 0 are neighbours). Under a board, 'sowing again' means the same",
        "  player chooses again within the same turn. 'pass': none of the player's pits holds 2 or more seeds,",
        "  or every sowing they could choose would go on forever.",
        f"  In brackets, each lap of the move: '5 from 4 cw to {end}: relay' = 5 seeds lifted from pit 4, sown",
        f"  clockwise, the last one into pit {end}; then how the lap ended ('crossed': a seed of this turn has",
        "  already fallen into the opponent's row):",
    ]
    width = max(len(word) for word in LAP_END_MEANINGS)
    lines += [f"    {word:<{width}}  {meaning}" for word, meaning in LAP_END_MEANINGS.items()]
    return "\n".join(lines)


def _show_game(pits: int, seeds: int, seed: int) -> None:
    from printables.rules import giuthi as rules

    try:
        played = rules.sample_game(pits, seeds, seed)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None
    click.echo(show_legend(pits, seeds) + "\n")
    click.echo(rules.render_text(rules.initial_state(pits, seeds)))
    for number, (move, trace) in enumerate(played, 1):
        laps = "; ".join(
            f"{lap.seeds} from {lap.start} {lap.direction} to {lap.end}: {lap.result.value}"
            + (f" (captures {sum(s for _, s in lap.captured)})" if lap.captured else "")
            for lap in trace.laps
        )
        click.echo(f"\n{number}. {move}" + (f"  [{laps}]" if laps else ""))
        click.echo(rules.render_text(trace.state))
    final = played[-1][1].state if played else rules.initial_state(pits, seeds)
    if rules.is_terminal(final):
        result = rules.outcome(final)
        winner = {rules.SOUTH: "South wins", rules.NORTH: "North wins", None: "a draw"}[result.winner]
        click.echo(f"\nGame over ({rules.end_reason(final).value}): South {result.totals[0]}, North {result.totals[1]}; {winner}.")
