"""Worker processes that end with the process that started them.

A build's worker processes (and any helper process a command starts) must not outlive their
parent: killed with SIGKILL (the OOM killer, an IDE's stop button), a parent runs no handler, and
its workers would block on their pipes for ever, holding hundreds of MB. Two guards:

- On Linux the kernel sends the worker SIGKILL when its parent ends (``prctl(PR_SET_PDEATHSIG)``,
  a public system call, reached through the C library with ctypes).
- Everywhere, a daemon thread in the worker notices that its parent has changed (the worker was
  handed to init or a subreaper) and ends the worker within ``POLL_S``.

Either way what the worker had begun (temporary files, staging folders) carries its process id
and is swept by the next run once that process is gone (``printables.fileio.sweep_stale``).
"""

from __future__ import annotations

import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
POLL_S = 0.5  # how often the portable guard looks at the parent


def die_with_parent(parent_pid: int | None = None) -> None:
    """Make this process end when ``parent_pid`` (the process that started it, by default) ends."""
    parent = os.getppid() if parent_pid is None else parent_pid
    _set_death_signal()
    if os.getppid() != parent:  # the parent ended before the guard was set
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="printables-lifeline", daemon=True).start()


def _set_death_signal() -> bool:
    """Ask the Linux kernel for SIGKILL when the parent ends; False where there is no such call."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    import time

    while os.getppid() == parent:
        time.sleep(POLL_S)
    os._exit(1)


def quiet_interrupts() -> None:
    """In a worker: Ctrl-C (sent to the whole process group) and SIGTERM remove what this process
    has begun and end it without a word; its parent says the one line."""
    from printables import cleanup

    if threading.current_thread() is not threading.main_thread():
        return
    for signum in cleanup.HANDLED_SIGNALS:
        signal.signal(signum, _quiet_exit)


def _quiet_exit(signum, frame) -> None:
    from printables import cleanup

    cleanup.remove_pending()
    os._exit(128 + signum)
