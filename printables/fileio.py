"""Atomic file writing: a temporary file in the same folder, then a rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from printables.errors import ParameterError


def _default_mode() -> int:
    # mkstemp makes 0600 files; a printable should get the permissions any new file gets.
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomic(path: Path | str, data: bytes) -> Path:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one, never half."""
    path = Path(path)
    check_writable_file(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise ParameterError(f"cannot write {path}: {error.strerror or error}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _default_mode())
        os.replace(tmp, path)
    except OSError as error:
        _discard(tmp)
        raise ParameterError(f"cannot write {path}: {error.strerror or error}") from None
    except BaseException:
        _discard(tmp)
        raise
    return path


def _discard(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass


def check_writable_file(path: Path) -> None:
    """Refuse an output path that names a folder or a special file (a device, a pipe)."""
    if str(path) in ("", "."):
        raise ParameterError("output path is empty: name a file, e.g. -o sheet.pdf")
    if path.exists() and not path.is_file():
        kind = "a folder" if path.is_dir() else "not a regular file"
        raise ParameterError(f"cannot write {path}: it is {kind}; name a file to write")


def prepare_folder(path: Path) -> Path:
    """Create an output folder (and parents) or say in one line why it cannot be."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ParameterError(f"cannot write into {path}: it is not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ParameterError(f"cannot create the folder {path}: {error.strerror or error}") from None
    if not os.access(path, os.W_OK):
        raise ParameterError(f"cannot write into {path}: permission denied")
    return path
