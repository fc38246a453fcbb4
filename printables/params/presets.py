"""Preset files: a name, a kind, a description and a raw parameter table, read strictly.

Handed out by printables.params.base too (``from printables.params.base import load_preset``), which
loads this module only when one of its names is asked for.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Mapping

from printables.errors import ParameterError


@dataclasses.dataclass(frozen=True)
class Preset:
    """A preset file: its name, kind, description and raw parameter table."""

    name: str
    kind: str
    description: str
    params: Mapping[str, Any]
    path: Path


PRESET_KEYS = {"kind", "description", "params"}


def load_preset(path: Path) -> Preset:
    """Read a preset TOML file; errors name the file and the key."""
    import tomllib  # here, not at the top: sheet commands read no preset and start faster

    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError as error:
        raise ParameterError(f"{path}: not UTF-8 text (byte {error.start}); a preset is a UTF-8 TOML file") from None
    except tomllib.TOMLDecodeError as error:
        raise ParameterError(f"{path}: not valid TOML ({error})") from None
    except OSError as error:
        raise ParameterError(f"{path}: cannot read it ({error.strerror or error})") from None
    unknown = sorted(set(data) - PRESET_KEYS)
    if unknown:
        raise ParameterError(f"{path}: unknown key {unknown[0]!r}; allowed: {', '.join(sorted(PRESET_KEYS))}")
    for key in ("kind", "description"):
        if not isinstance(data.get(key), str):
            raise ParameterError(f"{path}: key {key!r} must be a string")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise ParameterError(f"{path}: key 'params' must be a table")
    return Preset(Path(path).stem, data["kind"], data["description"], params, Path(path))
