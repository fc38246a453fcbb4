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
MAX_PRESET_BYTES = 1_000_000  # a preset is a few hundred bytes; anything near this is not one


def read_preset_text(path: Path) -> str:
    """The text of a preset file: a regular file of at most MAX_PRESET_BYTES, else ParameterError naming it.

    Opened without following a FIFO's open (O_NONBLOCK) and read no further than the cap, so a
    pipe, a device or a symlink to /dev/zero is refused at once instead of hanging or filling memory.
    """
    import os
    import stat

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        raise ParameterError(f"{path}: cannot read it ({error.strerror or error})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ParameterError(f"{path}: not a regular file; a preset is a TOML file of at most "
                                 f"{MAX_PRESET_BYTES // 1_000_000} MB")
        if info.st_size > MAX_PRESET_BYTES:
            raise ParameterError(f"{path}: {info.st_size:,} bytes; a preset is at most {MAX_PRESET_BYTES:,} bytes")
        chunks, size = [], 0
        while size <= MAX_PRESET_BYTES:
            chunk = os.read(fd, MAX_PRESET_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_PRESET_BYTES:  # grew while read
            raise ParameterError(f"{path}: more than {MAX_PRESET_BYTES:,} bytes; a preset is at most that")
    except OSError as error:
        raise ParameterError(f"{path}: cannot read it ({error.strerror or error})") from None
    finally:
        os.close(fd)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as error:
        raise ParameterError(f"{path}: not UTF-8 text (byte {error.start}); a preset is a UTF-8 TOML file") from None


def load_preset(path: Path) -> Preset:
    """Read a preset TOML file; errors name the file and the key."""
    import tomllib  # here, not at the top: sheet commands read no preset and start faster

    try:
        data = tomllib.loads(read_preset_text(Path(path)))
    except tomllib.TOMLDecodeError as error:
        raise ParameterError(f"{path}: not valid TOML ({error})") from None
    except RecursionError:
        raise ParameterError(f"{path}: arrays or tables nested too deep; a preset holds plain values") from None
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
