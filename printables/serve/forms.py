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

    @property
    def label(self) -> str:
        """A human name for the field: ``--coins-per-turn`` -> ``Coins per turn``."""
        words = self.option.lstrip("-").replace("-", " ")
        return words[:1].upper() + words[1:]

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
        fields.append(Field(
            name=param.name, option=_long_option(param), widget=widget, help=param.help or "",
            default=default, choices=choices, off_option=off, metavar=param.type.name.upper(),
            implied=implied.get(param.name, ""), suggestions=_suggestions(kind, param),
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
            if value is not None:
                args.append(field.option)
        elif field.widget == "switch":
            on = value is not None
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
