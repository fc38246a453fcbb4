"""Building parameter objects from TOML presets and other mappings, strictly."""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any, Mapping, TypeVar

from printables.errors import ParameterError
from printables.lazy import lazy_names

T = TypeVar("T")
MAX_NUMBER = 1e15  # what a preset's whole number may be at most


def from_mapping(cls: type[T], mapping: Mapping[str, Any], source: str = "parameters") -> T:
    """Build the dataclass ``cls`` from ``mapping``; an unknown key is an error, never dropped."""
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(mapping) - names)
    if unknown:
        raise ParameterError(
            f"{source}: unknown key {unknown[0]!r}; allowed keys: {', '.join(sorted(names))}"
        )
    for key, value in mapping.items():
        # No number of ours is near this; a larger one would overflow a float conversion.
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            raise ParameterError(f"{source}: {key} = {str(value)[:20]}…: too large (at most {MAX_NUMBER:g})")
    try:
        return cls(**mapping)
    except ParameterError as error:
        raise ParameterError(f"{source}: {error}") from None
    except (TypeError, ValueError, OverflowError) as error:
        raise ParameterError(f"{source}: {error}") from None


def require_mm(what: str, value: Any, low: float, high: float | None = None) -> float:
    """``value`` as a float of mm within [low, high]; NaN, infinities and non-numbers are refused."""
    span = f"at least {low:g} mm" if high is None else f"{low:g} to {high:g} mm"
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ParameterError(f"{what} {value!r}: give a number of mm, {span}")
    if value < low or (high is not None and value > high):
        raise ParameterError(f"{what} {value:g} mm: use {span}")
    return float(value)


# No count of ours means anything near this; refusing it early keeps huge numbers (a 310-digit
# grid) from reaching float conversions or loops.
MAX_WHOLE = 1_000_000
INTEGER_RE = re.compile(r"[+-]?[0-9]+", re.ASCII)


def whole_problem(text: str) -> str | None:
    """Why ``text`` is not a whole number of ours (digits 0-9, at most MAX_WHOLE), or None."""
    text = str(text).strip()
    if not INTEGER_RE.fullmatch(text):
        return "write a whole number with the digits 0-9"
    if len(text.lstrip("+-")) > len(str(MAX_WHOLE)) or abs(int(text)) > MAX_WHOLE:
        return f"too large (at most {MAX_WHOLE})"
    return None


def parse_dims(text: str, what: str = "grid") -> tuple[int, int]:
    """Parse ``WxH`` (e.g. ``10x12``) into two positive ints."""
    parts = str(text).lower().replace("×", "x").split("x")
    if len(parts) != 2 or any(whole_problem(p) == "write a whole number with the digits 0-9" for p in parts):
        shown = text if len(str(text)) <= 40 else str(text)[:40] + "…"
        raise ParameterError(f"{what} {shown!r}: write it as WIDTHxHEIGHT with the digits 0-9, e.g. 10x10")
    if any(whole_problem(p) for p in parts):
        shown = text if len(str(text)) <= 40 else str(text)[:40] + "…"
        raise ParameterError(f"{what} {shown!r}: a side is too large (at most {MAX_WHOLE})")
    width, height = (int(p) for p in parts)
    if width < 1 or height < 1:
        raise ParameterError(f"{what} {text!r}: both sides must be at least 1, e.g. 10x10")
    return width, height


# Presets (the Preset class, load_preset) live in presets.py and load on first use: a sheet command
# reads no preset, and each dataclass costs its import about half a millisecond to create.
_PRESET_NAMES = frozenset({"Preset", "PRESET_KEYS", "load_preset"})


__getattr__, __dir__ = lazy_names(globals(), "printables.params.presets", _PRESET_NAMES)
