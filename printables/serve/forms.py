"""Web forms generated from the CLI's own click commands.

Every option of a game command becomes a form field: its name, type, choices, default and help
come from the click parameter, and a typed value is converted by the parameter's own click type,
so a bad value gets the very message the command line would print. Options that name paths on the
server (``-o``, ``--presets``) are not offered: the server chooses where files go.
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass
from typing import Mapping

import click

# The pages, in menu order: kind (the CLI command name) -> the game's name as a reader knows it.
KINDS: dict[str, str] = {
    "harvest": "The Bitcoin Harvest",
    "minefield": "Minefield",
    "peas": "Breakfast Shy",
    "patchwork": "Patchwork",
    "giuthi": "Giuthi",
}
# Kinds whose job is long (CadQuery modelling, slicing): no preview on every change.
LONG_KINDS = ("giuthi",)

# The form in a maker's words: (kind, option name) -> (label, help). The flag stays on a small
# second line for those who script it; an option missing here (a new one) shows its CLI name and
# help, under "Advanced". None keeps the CLI's own help.
WORDS: dict[tuple[str, str], tuple[str, str | None]] = {
    ("harvest", "grid"): ("Grid (columns × rows)", "Any rectangle, such as 10x10 or 8x12."),
    ("harvest", "players"): ("Players", "2 to 12."),
    ("harvest", "cell_mm"): ("Cell size (mm)", "At least 5 mm. Empty: as large as fits the page, up to 15 mm."),
    ("harvest", "coins_per_turn"): ("Coins drawn each turn", "A variant; printed on the sheet."),
    ("harvest", "opening_coins"): ("Coins the first player opens with", "A variant; printed on the sheet."),
    ("harvest", "per_page"): ("Games per page", "For small grids."),
    ("minefield", "size"): ("Board size (cells per side)", "At least 2."),
    ("minefield", "cell_mm"): ("Cell size (mm)", "6 to 40 mm. Empty: as large as fits, up to 22 mm (a Go stone)."),
    ("minefield", "per_page"): ("Boards per page", "For small boards."),
    ("peas", "layout"): ("Layout", "A named layout (default, easy, pod, heart) or rows of o (a pea) and . (none), "
                                   "separated by /, such as ooo/o.o/ooo."),
    ("peas", "rows"): ("Rows of peas", "A full rectangle this many rows high, instead of the layout."),
    ("peas", "cols"): ("Columns of peas", "A full rectangle this many columns wide, instead of the layout."),
    ("peas", "postcard"): ("Card", None),
    ("peas", "landscape"): ("Landscape card", "Turn the card sideways."),
    ("peas", "paper"): ("Sheet", "Print as many cards as fit on A4 or Letter, with crop marks, or one card per page."),
    ("peas", "bleed"): ("Bleed", "How far the card's colour runs past where it is cut."),
    ("peas", "pea_mm"): ("Pea size (mm)", "10 to 20 mm (10 leaves room to write a digit). Empty: the largest up to 14 that fits."),
    ("peas", "back"): ("Rules on the back", "Add a back page with the full rules, for double-sided printing (flip on the long edge)."),
    ("peas", "borderless"): ("Print to the edge", "Butt the cards to the paper's edge (4 A6 cards on A4), for a printer that prints to the edge."),
    ("patchwork", "part"): ("What to print", None),
    ("patchwork", "cell_mm"): ("Square size (mm)", "For patches and quilts alike. Empty: the largest up to 20 mm "
                                                   "for which the 9 × 9 quilt fits the page."),
    ("patchwork", "leather"): ("Edition", "Which edition's leather-patch spaces the time track marks."),
    ("patchwork", "ink"): ("Ink", None),
    ("giuthi", "preset"): ("Start from", "A ready-made board; the fields below change it."),
    ("giuthi", "size"): ("Size of one half (mm)", "Along the rows × across, hinge included, such as 160x145. "
                                                  "The pits grow to fill it."),
    ("giuthi", "pits"): ("Pits per row", "An even number, 6 to 10."),
    ("giuthi", "seeds"): ("Seeds per pit", "At the start, 4 to 9; the pits and stores are sized to hold them all."),
    ("giuthi", "pit_diameter"): ("Pit size along the row (mm)", "Empty: as large as the size allows."),
    ("giuthi", "pit_length"): ("Pit size across the row (mm)", "The same as along the row for round pits."),
    ("giuthi", "pit_depth"): ("Pit depth (mm)", ""),
    ("giuthi", "thickness"): ("Board thickness (mm)", "From the print bed to the playing surface."),
    ("giuthi", "wall"): ("Wall thickness (mm)", "At least 1.2 mm."),
    ("giuthi", "screw"): ("Hinge screws", "The screws that join the two halves at the hinge."),
    ("giuthi", "chamfer"): ("Bed-edge chamfer (mm)", "0 (none) or 0.2 to 0.5 mm, at 45 degrees."),
    ("giuthi", "clearance"): ("Screw-hole clearance (mm)", "Added to the screw's diameter, 0.2 to 0.5 mm."),
    ("giuthi", "seed_diameter"): ("Seed length (mm)", "6 to 20 mm; a seed is 0.7 of that wide."),
    ("giuthi", "seed_height"): ("Seed height (mm)", ""),
    ("giuthi", "slice_parts"): ("Slice for print time and filament",
                                "Slice every part with PrusaSlicer (when installed) to put its time and "
                                "filament on the print card. Adds about a minute."),
    ("giuthi", "previews"): ("Pictures of the parts", "Draw a picture of each part, and of the board open, folded and in play."),
    ("giuthi", "show"): ("Only a sample game as text", "No files: a seeded sample game, to follow the rules."),
    ("giuthi", "rules_only"): ("Only the rules sheet", "A PDF of the rules for this board, and nothing else."),
    ("giuthi", "paper"): ("Paper", "For the rules sheet."),
    ("giuthi", "lang"): ("Language", "Of the rules sheet and the print card."),
    ("giuthi", "game_seed"): ("Sample game number", "Which sample game to show."),
}
# Words any kind shares.
COMMON_WORDS: dict[str, tuple[str, str | None]] = {
    "paper": ("Paper", ""),
    "landscape": ("Landscape", "Turn the page sideways."),
    "lang": ("Language", "Of every text on the sheet."),
}
# The few fields a first-time maker sets; the rest fold under "Advanced".
BASIC: dict[str, tuple[str, ...]] = {
    "harvest": ("grid", "players", "paper", "lang"),
    "minefield": ("size", "paper", "lang"),
    "peas": ("layout", "postcard", "paper", "lang"),
    "patchwork": ("part", "paper", "ink", "lang"),
    "giuthi": ("preset", "size", "pits", "seeds", "lang", "paper"),
}
# A choice in words: (option name, value) -> what the reader sees; any option when the name is "".
CHOICE_WORDS: dict[tuple[str, str], str] = {
    ("", "a4"): "A4 (210 × 297 mm)", ("", "letter"): "Letter (8.5 × 11 in)", ("", "a5"): "A5 (148 × 210 mm)",
    ("lang", "en"): "English", ("lang", "ko"): "한국어 (Korean)", ("lang", "tr"): "Türkçe (Turkish)",
    ("postcard", "a6"): "A6 card (148 × 105 mm)", ("postcard", "4x6"): "US 4 × 6 in card",
    ("paper", "none"): "One card per page",
    ("bleed", "0"): "None", ("bleed", "3"): "3 mm",
    ("part", "patches"): "The patches", ("part", "quilts"): "The quilt boards", ("part", "track"): "The time track",
    ("part", "extras"): "The extras", ("part", "all"): "Everything, in one PDF",
    ("leather", "classic"): "Classic", ("leather", "revised"): "Revised",
    ("ink", "full"): "Full colour", ("ink", "low"): "Low ink: outlines and symbols only",
    ("screw", "no2"): "No. 2 × ½ in self-tapper (2.2 mm)", ("screw", "m2"): "M2", ("screw", "m2.5"): "M2.5",
    ("screw", "m3"): "M3",
}


def choice_words(field: "Field", value: str) -> str:
    """A choice as the reader knows it: ``a4`` -> ``A4 (210 × 297 mm)``, ``ko`` -> ``한국어 (Korean)``."""
    return CHOICE_WORDS.get((field.name, value)) or CHOICE_WORDS.get(("", value)) or value


def command_for(kind: str) -> click.Command:
    """The click command of a game, from the same module the CLI loads it from."""
    if kind not in KINDS:
        raise KeyError(kind)
    return getattr(importlib.import_module(f"printables.cli.{kind}"), kind)


@dataclass(frozen=True)
class Field:
    """One form field, derived from one click option."""

    name: str  # the click parameter name, also the HTML name
    option: str  # the long option as typed on the command line: --players
    widget: str  # "text", "choice", "flag" (present or not) or "switch" (--x/--no-x)
    help: str
    default: object = None
    choices: tuple[str, ...] = ()
    off_option: str | None = None  # the switch's second option: --no-slice, --portrait
    metavar: str = ""  # what the CLI's --help shows as the value: INTEGER, NUMBER, TEXT
    implied: str = ""  # the parameter object's default when the CLI's is None (giuthi: "6", "36.0")
    suggestions: tuple[str, ...] = ()  # known values of a free-text option (preset names)
    words: tuple[str, str | None] | None = None  # (label, help) in a maker's words, from WORDS
    basic: bool = False  # shown first; the others fold under "Advanced"

    @property
    def label(self) -> str:
        """A human name for the field: "Players", or from the flag ``--coins-per-turn`` -> ``Coins per turn``."""
        if self.words:
            return self.words[0]
        words = self.option.lstrip("-").replace("-", " ")
        return words[:1].upper() + words[1:]

    @property
    def plain_help(self) -> str:
        """What the field does, in the maker's words (the CLI's help when there are none)."""
        if self.words and self.words[1] is not None:
            return self.words[1]
        return self.help

    @property
    def default_text(self) -> str:
        """The default as the form shows it ("" when the CLI computes it)."""
        if self.default is None or self.widget in ("flag", "switch"):
            return ""
        return str(self.default)


def _long_option(param: click.Parameter) -> str:
    names = [o for o in param.opts if o.startswith("--")] or list(param.opts)
    return max(names, key=len)


def is_server_path(param: click.Parameter) -> bool:
    """Options whose value is a path on the server's disk: the server sets them, never the form."""
    from printables.cli.types import OutputFolder, OutputPdf

    return isinstance(param.type, (click.Path, OutputPdf, OutputFolder)) or "output" == param.name


@functools.lru_cache(maxsize=None)
def fields_for(kind: str) -> tuple[Field, ...]:
    """Every option of the kind's CLI command that a web form can set, in the order of ``--help``."""
    command = command_for(kind)
    ctx = click.Context(command, info_name=kind)
    implied = implied_defaults(kind)
    fields = []
    for param in command.params:
        if not isinstance(param, click.Option) or param.hidden or is_server_path(param):
            continue
        default = param.get_default(ctx, call=True)
        if param.is_flag and param.secondary_opts:
            widget, off = "switch", max(param.secondary_opts, key=len)
        elif param.is_flag:
            widget, off = "flag", None
        elif isinstance(param.type, click.Choice):
            widget, off = "choice", None
        else:
            widget, off = "text", None
        choices = tuple(str(c) for c in param.type.choices) if isinstance(param.type, click.Choice) else ()
        said = re.search(r"\[default: ([^\],;]+)", param.help or "")  # --size's 160x145 lives in its help
        fields.append(Field(
            name=param.name, option=_long_option(param), widget=widget, help=param.help or "",
            default=default, choices=choices, off_option=off, metavar=param.type.name.upper(),
            implied=implied.get(param.name, "") or (said.group(1).strip() if said and default is None else ""),
            suggestions=_suggestions(kind, param),
            words=WORDS.get((kind, param.name)) or COMMON_WORDS.get(param.name),
            basic=param.name in BASIC.get(kind, ()),
        ))
    return tuple(fields)


def implied_defaults(kind: str) -> dict[str, str]:
    """Defaults that live in the parameter object, not in the click option.

    A command whose options override a preset (giuthi) leaves them None and names the parameter
    field of each in ``OPTION_FIELDS``; the field's dataclass default is what an empty option means
    when no preset is chosen.
    """
    import dataclasses

    module = importlib.import_module(f"printables.cli.{kind}")
    option_fields = getattr(module, "OPTION_FIELDS", None)
    if not option_fields:
        return {}
    from printables.models import MODEL_KINDS, model_params

    params = model_params(MODEL_KINDS[0], {}) if kind == "giuthi" else None
    if params is None:
        return {}
    defaults = {f.name: getattr(params, f.name) for f in dataclasses.fields(params)}
    return {option: f"{defaults[field]:g}" if isinstance(defaults[field], float) else str(defaults[field])
            for option, field in option_fields.items() if field in defaults}


def _suggestions(kind: str, param: click.Parameter) -> tuple[str, ...]:
    """Preset names for a ``--preset`` option (of the kinds the command builds)."""
    if param.name != "preset":
        return ()
    from printables.build import all_presets
    from printables.models import MODEL_KINDS

    kinds = set(MODEL_KINDS) if kind == "giuthi" else {kind}
    return tuple(p.name for p in all_presets() if p.kind in kinds)


def form_args(kind: str, form: Mapping[str, str]) -> list[str]:
    """The command-line arguments a submitted form stands for (empty or default fields are left out).

    Values go as ``--option=VALUE`` so that a value beginning with '-' stays a value.
    """
    args = []
    for field in fields_for(kind):
        value = form.get(field.name)
        if field.widget == "flag":
            if value is not None and value != "off":
                args.append(field.option)
        elif field.widget == "switch":
            on = value is not None and value != "off"  # a link says "off" for a box unticked
            if on != bool(field.default):
                args.append(field.option if on else field.off_option)
        elif value is not None and value != "" and value != field.default_text:
            args.append(f"{field.option}={value}")
    return args


def field_errors(kind: str, form: Mapping[str, str]) -> dict[str, str]:
    """Each field whose value the CLI's click type refuses -> the CLI's one-line message.

    Every field is converted, so all bad values are reported at once (the command line stops at the
    first). Limits that only the parameter objects know (2 to 12 players) come back from the job.
    """
    command = command_for(kind)
    ctx = click.Context(command, info_name=kind)
    errors = {}
    known = {f.name for f in fields_for(kind)}
    for param in command.params:
        if param.name not in known or param.is_flag:
            continue
        value = form.get(param.name)
        if value is None or value == "":
            continue
        try:
            param.type.convert(value, param, ctx)
        except click.BadParameter as error:
            error.ctx, error.param = ctx, param
            errors[param.name] = error.format_message()
    return errors


def field_for_message(kind: str, message: str) -> str | None:
    """The field a parameter object's one-line message is about, or None for the whole form.

    The CLI's messages begin with what was wrong: ``players 13: ...``, ``coins per turn 0: ...``,
    ``cell 3 mm: ...``, ``--pit-depth 2: ...`` or ``Invalid value for '--paper': ...``.
    """
    text = message.removeprefix("Error: ").strip()
    best, best_len = None, 0
    for field in fields_for(kind):
        stem = field.name.removesuffix("_mm")
        candidates = {
            field.option, f"'{field.option}'", stem.replace("_", " "), field.name.replace("_", " "),
            field.option.lstrip("-").replace("-", " "),
        }
        for words in candidates:
            pattern = rf"(Invalid value for )?{re.escape(words)}(?=[\s=:'])"
            if re.match(pattern, text, re.IGNORECASE) and len(words) > best_len:
                best, best_len = field.name, len(words)
    return best


def link_query(kind: str, form: Mapping[str, str]) -> dict[str, str]:
    """The fields of a form that differ from their defaults, as a page link holds them: the same
    arguments as ``form_args`` (a box that differs from its default is ``on`` or ``off``)."""
    query = {}
    for field in fields_for(kind):
        value = form.get(field.name)
        if field.widget in ("flag", "switch"):
            on = value is not None and value != "off"
            if on != bool(field.default):
                query[field.name] = "on" if on else "off"
        elif value is not None and value != "" and value != field.default_text:
            query[field.name] = value
    return query


def is_model_arg(kind: str, arg: str) -> bool:
    """Whether a command-line argument changes the model (``--size=…``, ``--preset=…``), not only
    what else is made of it (``--no-slice``, ``--lang=ko``): the board preview needs only these."""
    module = importlib.import_module(f"printables.cli.{kind}")
    names = {f"--{name.replace('_', '-')}" for name in getattr(module, "OPTION_FIELDS", {})} | {"--preset"}
    return arg.split("=", 1)[0] in names


def form_from_link(kind: str, query: Mapping[str, str]) -> dict[str, str]:
    """The form a page link stands for (the inverse of ``link_query``): the fields it names, and
    every box ticked or not as the link says, else as its default."""
    form = {}
    for field in fields_for(kind):
        value = query.get(field.name)
        if field.widget in ("flag", "switch"):
            on = bool(field.default) if value is None else value != "off"
            if on:
                form[field.name] = "on"
        elif value is not None:
            form[field.name] = value
    return form
