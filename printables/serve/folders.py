"""The server's temporary folder: made with an owner record, and stale ones swept at start.

A server stopped normally removes its folder; one killed (SIGKILL, a crash, a killed test run)
cannot. So each folder records the process that owns it (pid and, on Linux, the process's start
time, so a reused pid is not taken for the owner), and a starting server removes the folders of
this user whose owner is gone. A live server's folder is never touched.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

ROOT_PREFIX = "printables-serve-"
OWNER_FILE = "owner.json"
UNOWNED_STALE_S = 3600  # a folder without an owner record (an older version's): stale after an hour unused


def process_start(pid: int) -> str | None:
    """When a process started (clock ticks since boot, Linux), or None when unknown or gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]  # field 22: starttime, after the "(comm)" field


def is_alive(pid: int, start: str | None) -> bool:
    """Whether the process that wrote an owner record is still running."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    now = process_start(pid)
    return start is None or now is None or now == start


def make_root(parent: Path | None = None) -> Path:
    """A new temp folder for a server, recording this process as its owner."""
    root = Path(tempfile.mkdtemp(prefix=ROOT_PREFIX, dir=parent))
    owner = {"pid": os.getpid(), "start": process_start(os.getpid())}
    (root / OWNER_FILE).write_text(json.dumps(owner), encoding="utf-8")
    return root


def _last_used(folder: Path) -> float:
    newest = folder.lstat().st_mtime
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            try:
                newest = max(newest, os.lstat(os.path.join(dirpath, name)).st_mtime)
            except OSError:
                pass
    return newest


def is_stale(folder: Path) -> bool:
    """Whether a server temp folder's owner is gone (or, without a record, unused for an hour)."""
    try:
        owner = json.loads((folder / OWNER_FILE).read_text(encoding="utf-8"))
        pid, start = int(owner["pid"]), owner.get("start")
    except FileNotFoundError:
        return time.time() - _last_used(folder) > UNOWNED_STALE_S
    except (OSError, ValueError, KeyError, TypeError):
        return False  # unreadable: not ours to judge
    return not is_alive(pid, start)


def sweep_stale(parent: Path | None = None) -> list[Path]:
    """Remove this user's server temp folders whose server is gone; returns what was removed."""
    parent = Path(parent if parent is not None else tempfile.gettempdir())
    removed = []
    for folder in sorted(parent.glob(f"{ROOT_PREFIX}*")):
        try:
            info = folder.lstat()
        except OSError:
            continue
        # only real folders of this user (never through a symlink someone else planted)
        if not folder.is_dir() or folder.is_symlink() or info.st_uid != os.getuid():
            continue
        if is_stale(folder):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed
