"""Click parameter types shared by every command: numbers written in ASCII digits, bounded, and
output paths that say what they must be before anything is computed.

Each refusal is one line, ``--option VALUE: what is allowed``, with exit code 2.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import click

from printables.params.base import MAX_WHOLE, whole_problem

DECIMAL_RE = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)


def shown(text: str, limit: int = 24) -> str:
    """``text`` for a one-line message: as typed when plain, quoted when odd, cut short when long."""
    text = str(text)
    cut = text if len(text) <= limit else text[:limit] + "…"
    plain = cut and cut.isascii() and cut.isprintable() and " " not in cut and "'" not in cut
    return cut if plain else repr(cut)


class OptionError(click.BadParameter):
    """A bad option value, said as ``--option VALUE: what is allowed`` (the words the user typed)."""

    def format_message(self) -> str:
        return self.message


def option_name(param) -> str:
    """The option as the user would type it: ``--pit-depth``."""
    if param is None:
        return "value"
    names = [o for o in getattr(param, "opts", ()) if o.startswith("--")] or list(getattr(param, "opts", ())) or [param.name]
    return max(names, key=len)


class _Strict(click.ParamType):
    shown_chars = 24  # numbers are cut short when shown; paths are shown whole up to a point

    def refuse(self, text: str, why: str, param, ctx):
        raise OptionError(f"{option_name(param)} {shown(text, self.shown_chars)}: {why}", ctx=ctx, param=param)


class WholeNumber(_Strict):
    """An integer option: ASCII digits only, at most MAX_WHOLE."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        problem = whole_problem(value)
        if problem:
            self.refuse(value, problem, param, ctx)
        return int(str(value).strip())


class Decimal(_Strict):
    """A decimal option (mm): ASCII digits, finite, at most MAX_WHOLE."""

    name = "number"

    def convert(self, value, param, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = repr(value)
        text = str(value).strip()
        if not DECIMAL_RE.fullmatch(text):
            self.refuse(text, "write a number with the digits 0-9, e.g. 12.5", param, ctx)
        number = float(text)
        if not math.isfinite(number) or abs(number) > MAX_WHOLE:
            self.refuse(text, f"too large (at most {MAX_WHOLE})", param, ctx)
        return number


class OutputPdf(_Strict):
    """A PDF file to write: a name ending in .pdf, not '-' or a folder, whose folder can exist."""

    name = "file.pdf"
    shown_chars = 200

    def convert(self, value, param, ctx):
        if isinstance(value, Path):
            value = str(value)
        text = str(value)
        if text.strip() == "":
            self.refuse(text, "empty; name a PDF file, e.g. -o sheet.pdf", param, ctx)
        _refuse_nul(text, self, param, ctx)
        if text == "-":
            self.refuse(text, "standard output is not supported; name a PDF file, e.g. -o sheet.pdf", param, ctx)
        if text.endswith(("/", "\\")):
            self.refuse(text, f"names a folder; name a PDF file, e.g. -o {text.rstrip('/')}", param, ctx)
        path = Path(text)
        if path.suffix.lower() != ".pdf":
            self.refuse(text, f"a sheet is a PDF; give a name ending in .pdf, e.g. -o {path.stem or 'sheet'}.pdf",
                        param, ctx)
        _refuse_file_ancestor(path, self, param, ctx)
        return path


class OutputFolder(_Strict):
    """A folder to write a set of files into: not empty text, not a file, no file on the way."""

    name = "folder"
    shown_chars = 200

    def convert(self, value, param, ctx):
        if isinstance(value, Path):
            value = str(value)
        text = str(value)
        if text.strip() == "":
            example = getattr(param, "default", None) or "output"
            self.refuse(text, f"empty; name a folder, e.g. -o {example}", param, ctx)
        _refuse_nul(text, self, param, ctx)
        path = Path(text)
        if path.exists() and not path.is_dir():
            self.refuse(text, "is a file, not a folder", param, ctx)
        _refuse_file_ancestor(path, self, param, ctx)
        return path


def _refuse_nul(text: str, kind: _Strict, param, ctx) -> None:
    """No file name holds a NUL character (the system would refuse it with a ValueError)."""
    if "\x00" in text:
        kind.refuse(text, "a file name cannot hold a NUL character", param, ctx)


def _refuse_file_ancestor(path: Path, kind: _Strict, param, ctx) -> None:
    """``afile/out.pdf`` cannot be written when ``afile`` is a file: say so instead of 'File exists'."""
    for parent in path.parents:
        if str(parent) in ("", "."):
            continue
        if parent.exists():
            if not parent.is_dir():
                kind.refuse(str(path), f"{parent} is a file, not a folder", param, ctx)
            return


def choice(values) -> click.Choice:
    """A choice typed in any case (``--paper A4``), passed on as the canonical value (``a4``)."""
    return click.Choice(tuple(values), case_sensitive=False)


def examples(*lines: str) -> str:
    """A command's help epilog: its examples, one per line, kept as written (click's ``\\b``)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


WHOLE = WholeNumber()
DECIMAL = Decimal()
OUTPUT_PDF = OutputPdf()
OUTPUT_FOLDER = OutputFolder()


class ExistingPath(click.Path):
    """``click.Path`` that refuses a NUL character in one line (the system would raise ValueError)."""

    def convert(self, value, param, ctx):
        if "\x00" in str(value):
            self.fail(f"{shown(str(value), 200)}: a file name cannot hold a NUL character", param, ctx)
        return super().convert(value, param, ctx)
