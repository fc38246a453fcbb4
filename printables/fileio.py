"""Atomic file writing: a temporary file in the same folder, then a rename."""

from __future__ import annotations

import os
import re
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from printables import cleanup
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
        sweep_stale_files(path.parent)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}-", suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise ParameterError(f"cannot write {path}: {error.strerror or error}") from None
    cleanup.register(tmp)
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
    finally:
        cleanup.unregister(tmp)
    return path


# A temporary copy write_atomic makes beside its file: ".<name>.<pid>-<random>.tmp"; before
# process ids were in the name, ".<name>.<random>.tmp" (mkstemp's 8 characters).
TMP_FILE_RE = re.compile(r"\.(?P<name>.+)\.(?:(?P<pid>[0-9]+)-)?[a-z0-9_]{8}\.tmp", re.ASCII)


def sweep_stale_files(folder: Path) -> list[Path]:
    """Remove the temporary copies in ``folder`` that write_atomic left when its process was killed:
    those whose process has ended (or, named without one, more than STALE_LEGACY_S old)."""
    import time

    removed = []
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".tmp") and e.name.startswith(".")]
    except OSError:
        return removed
    for entry in entries:
        match = TMP_FILE_RE.fullmatch(entry.name)
        if match is None or not entry.is_file(follow_symlinks=False):
            continue
        pid = match["pid"]
        try:
            if pid is not None:
                if int(pid) == os.getpid() or _is_alive(int(pid)):
                    continue
            elif time.time() - entry.stat(follow_symlinks=False).st_mtime < STALE_LEGACY_S:
                continue
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


@contextmanager
def scratch_folder(prefix: str, parent: Path | str | None = None) -> Iterator[Path]:
    """A temporary folder ``<prefix><pid>-<random>`` (in ``$TMPDIR`` by default) for the block.

    Removed when the block ends or the run is interrupted; if the process is killed (SIGKILL), the
    next scratch folder of the same prefix removes it once its process has ended (``sweep_stale``).
    """
    import shutil

    parent = Path(tempfile.gettempdir() if parent is None else parent)
    # Never this process's own: another thread may be working in one (two halves sliced at once).
    sweep_stale(parent, prefix, own=False)
    folder = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=parent))
    cleanup.register(folder)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        cleanup.unregister(folder)


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


# -- whole sets of files -------------------------------------------------------------------------

STALE_LEGACY_S = 3600.0  # staging folders named without a process id are stale after this long


def _move(src: Path | str, dst: Path | str) -> None:
    """One rename (a seam for tests that make the n-th rename fail)."""
    os.rename(src, dst)


def _is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    except OverflowError:
        return False
    return True


def sweep_stale(folder: Path, prefix: str, own: bool = True) -> list[Path]:
    """Remove staging folders ``<prefix><pid>-...`` in ``folder`` whose process has ended (and, with
    ``own``, this process's: a set's staging left by an earlier, failed run in this process).

    A folder that holds a previous set moved aside (``<prefix><pid>-old-<name>``) goes back to
    ``<name>`` when that name is free (a run killed between its two renames), else is removed.
    """
    import shutil
    import time

    removed = []
    try:
        entries = [e for e in Path(folder).iterdir() if e.name.startswith(prefix) and e.is_dir() and not e.is_symlink()]
    except OSError:
        return removed
    for entry in entries:
        rest = entry.name[len(prefix):]
        pid, _, tail = rest.partition("-")
        if pid.isdigit():
            mine = int(pid) == os.getpid()
            if (mine and not own) or (not mine and _is_alive(int(pid))):
                continue
        else:
            try:
                if time.time() - entry.stat().st_mtime < STALE_LEGACY_S:
                    continue
            except OSError:
                continue
        if tail.startswith("old-"):
            target = entry.parent / tail[len("old-"):]
            if not target.exists():
                try:
                    _move(entry, target)
                    continue
                except OSError:
                    pass
        shutil.rmtree(entry, ignore_errors=True)
        removed.append(entry)
    return removed


def _holds_cwd(path: Path) -> bool:
    try:
        cwd = Path.cwd().resolve()
    except OSError:
        return False
    target = path.resolve()
    return cwd == target or target in cwd.parents


def _can_write(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def replace_set(out_dir: Path | str, make, *, kind: str, is_member, is_marker=lambda name: False) -> list[Path]:
    """Make a set of files with ``make(folder) -> [paths]`` and put it in place of ``out_dir`` whole.

    The set is written into a staging folder; only when ``make`` returns does it replace what
    ``out_dir`` held, so a failure or an interruption leaves the old set (or no folder) as it was.
    Staging goes beside ``out_dir`` when its parent is writable, and the finished folder is swapped
    in with two renames; otherwise (a writable folder in a read-only parent) it goes inside
    ``out_dir`` and the files are moved over one by one, moved back if any move fails.
    ``out_dir`` may hold only files of such a set (``is_member(name)``): anything else is refused.
    In that file-by-file swap the set's marker files (``is_marker(name)``, its manifest) go out
    first and come in last, so a folder left part-way holds none (and fails its check).
    """
    import shutil

    out_dir = Path(os.path.abspath(out_dir))
    prefix = f".printables-{kind}-"
    if out_dir.exists() and not out_dir.is_dir():
        raise ParameterError(f"cannot write into {out_dir}: it is not a folder")
    parent = out_dir.parent
    if not parent.exists():
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ParameterError(f"cannot create the folder {parent}: {error.strerror or error}") from None
    if out_dir.is_dir():
        sweep_stale(out_dir, prefix)
        try:
            foreign = sorted(e.name for e in out_dir.iterdir() if not is_member(e.name) and not e.name.startswith(prefix))
        except OSError as error:
            raise ParameterError(f"cannot read the folder {out_dir}: {error.strerror or error}") from None
        if foreign:
            raise ParameterError(
                f"{out_dir} also holds {foreign[0]!r}, which is not part of a {kind} set; "
                "name a new or empty folder (a set replaces its folder's contents as a whole)"
            )
    beside = _can_write(parent) and not _holds_cwd(out_dir)
    if not beside:
        if not out_dir.exists():
            raise ParameterError(f"cannot create the folder {out_dir}: {parent} is not writable")
        if not _can_write(out_dir):
            raise ParameterError(f"cannot write into {out_dir}: permission denied")
    staging_in = parent if beside else out_dir
    if beside:
        sweep_stale(parent, prefix)
    import tempfile

    stage = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=staging_in))
    cleanup.register(stage)
    try:
        names = [Path(p).name for p in make(stage)]
        if beside:
            _swap_folder(stage, out_dir, prefix)
        else:
            _swap_files(stage, out_dir, names, is_member, prefix, is_marker)
        return [out_dir / name for name in names]
    finally:
        shutil.rmtree(stage, ignore_errors=True)
        cleanup.unregister(stage)


def _swap_folder(stage: Path, out_dir: Path, prefix: str) -> None:
    import shutil

    mode = (out_dir.stat().st_mode & 0o7777) if out_dir.exists() else (0o777 & ~_umask())
    os.chmod(stage, mode)
    old = out_dir.parent / f"{prefix}{os.getpid()}-old-{out_dir.name}"
    with cleanup.signals_deferred():
        had_old = out_dir.exists()
        try:
            if had_old:
                _move(out_dir, old)
            try:
                _move(stage, out_dir)
            except OSError:
                if had_old:
                    _move(old, out_dir)
                raise
        except OSError as error:
            raise ParameterError(f"cannot put the new set in {out_dir}: {error.strerror or error}; "
                                 "the folder is as it was") from None
        if had_old:
            cleanup.register(old)
    if had_old:
        shutil.rmtree(old, ignore_errors=True)
        cleanup.unregister(old)


def _swap_files(stage: Path, out_dir: Path, names: list[str], is_member, prefix: str, is_marker=lambda name: False) -> None:
    import shutil
    import tempfile

    old = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-prev-", dir=out_dir))
    moved_old: list[str] = []
    moved_new: list[str] = []
    with cleanup.signals_deferred():
        try:
            for entry in sorted(out_dir.iterdir(), key=lambda e: (not is_marker(e.name), e.name)):
                if is_member(entry.name) and not entry.name.startswith(prefix):
                    _move(entry, old / entry.name)
                    moved_old.append(entry.name)
            for name in sorted(names, key=is_marker):  # stable: the markers last, the rest in order
                _move(stage / name, out_dir / name)
                moved_new.append(name)
        except OSError as error:
            for name in reversed(moved_new):
                _try_move(out_dir / name, stage / name)
            for name in reversed(moved_old):
                _try_move(old / name, out_dir / name)
            shutil.rmtree(old, ignore_errors=True)
            raise ParameterError(f"cannot put the new set in {out_dir}: {error.strerror or error}; "
                                 "the folder is as it was") from None
        cleanup.register(old)
    shutil.rmtree(old, ignore_errors=True)
    cleanup.unregister(old)


def _try_move(src: Path, dst: Path) -> None:
    try:
        os.rename(src, dst)
    except OSError:
        pass


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask
