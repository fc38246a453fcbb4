"""Temporary paths that must not outlive an interrupted run, and the signal handling that removes them.

Temporary files and staging folders register here while they exist. On Ctrl-C (SIGINT), SIGTERM or
SIGHUP the command-line entry point removes them (its worker processes remove theirs and end
first), prints one line and exits at once (130, 143 or 129): no
exception travels through third-party code (CadQuery's imports turned a KeyboardInterrupt into an
ImportError traceback), so nothing half-made is left and no traceback is shown.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

_PENDING: dict[str, None] = {}  # insertion-ordered set of paths to remove on interruption
# Ctrl-C, SIGTERM, and the terminal closing (SIGHUP, where there is one): each ends a run the same way.
HANDLED_SIGNALS = tuple(s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None)
WORKER_GRACE_S = 3.0  # how long an interrupted run waits for its worker processes to clean up


def register(path: Path | str) -> None:
    """Remove ``path`` (file or folder) if the run is interrupted before ``unregister``."""
    _PENDING[str(path)] = None


def unregister(path: Path | str) -> None:
    """``path`` is finished (moved into place or removed): leave it alone on interruption."""
    _PENDING.pop(str(path), None)


@contextmanager
def temporary(path: Path | str) -> Iterator[Path]:
    """Register ``path`` for the duration of the block."""
    register(path)
    try:
        yield Path(path)
    finally:
        unregister(path)


def remove_pending() -> None:
    """Remove every registered path (newest first); errors are ignored, there is nothing to report to."""
    for name in reversed(list(_PENDING)):
        try:
            if os.path.isdir(name) and not os.path.islink(name):
                shutil.rmtree(name, ignore_errors=True)
            else:
                os.unlink(name)
        except OSError:
            pass
        _PENDING.pop(name, None)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP for the block (a few renames that must happen together)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, HANDLED_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def exit_interrupted(code: int = 130) -> None:
    """Remove what is pending, say so in one line and end the process now with ``code``."""
    stop_workers()
    remove_pending()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a closed pipe: nothing to flush to
            pass
    try:
        os.write(2, b"Interrupted; no partial files were left.\n")
    except OSError:
        pass
    os._exit(code)


def stop_workers(grace_s: float = WORKER_GRACE_S) -> None:
    """Ask this process's worker processes (multiprocessing's) to remove what they began and end,
    and wait for them a little: they die with this process (printables.lifeline), which could
    otherwise cut their clean-up short."""
    import time

    multiprocessing = sys.modules.get("multiprocessing")
    if multiprocessing is None:
        return
    try:
        children = multiprocessing.active_children()
        for child in children:
            child.terminate()
        deadline = time.monotonic() + grace_s
        for child in children:
            child.join(max(0.0, deadline - time.monotonic()))
    except Exception:  # an interrupted run is ending: nothing here may stop it
        pass


def _on_signal(signum, frame) -> None:
    exit_interrupted(128 + signum)


def ignore_signals() -> None:
    """Ignore SIGINT, SIGTERM and SIGHUP from now on: for a run that has finished (its files
    written, its line said) while Python exits. Python puts a handler of its own back to the
    default (ending the process, exit -2) as it shuts down, but leaves an ignored signal ignored."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in HANDLED_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)


def install_signal_handlers() -> None:
    """Make SIGINT, SIGTERM and SIGHUP end the command cleanly (see the module docstring)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in HANDLED_SIGNALS:
        signal.signal(sig, _on_signal)
