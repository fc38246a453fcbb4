"""A job worker dies with its server, even when the server is killed with SIGKILL.

Two ways, the second for where the first is missing or too late:

1. On Linux the worker asks the kernel for a signal when its parent goes (``prctl(PR_SET_PDEATHSIG)``
   through ctypes). The kernel sends it when the *thread* that started the worker ends; the server
   starts each worker from the job's own thread, which waits for the worker to end.
2. The server holds the write end of a pipe (the lifeline) whose read end only the worker has; a
   thread in the worker reads it, and end-of-file means every holder of the write end is gone.

Either way the worker sends SIGTERM to its whole process group (it leads one: PrusaSlicer and
pdftoppm run in it), so its own signal handling removes what is half-made and the slicer stops too;
whoever has not gone after ``GRACE_S`` gets SIGKILL. What is left of the job's folder belongs to a
dead server, and the next ``printables serve`` sweeps it (printables/serve/folders.py).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

PARENT_ENV = "PRINTABLES_SERVE_PARENT"  # the server's pid, as the worker should see it
LIFELINE_ENV = "PRINTABLES_SERVE_LIFELINE_FD"  # the read end of the lifeline, in the worker
PARENT_GONE_SIGNAL = signal.SIGUSR1  # the kernel's word that the parent died (handled below)
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
GRACE_S = 5.0  # after SIGTERM, how long the group has before SIGKILL


def open_lifeline() -> tuple[int, int, dict[str, str]]:
    """For the server: a new lifeline. Returns its read end (pass it to the worker with ``pass_fds``,
    then close it here), its write end (keep it open until the worker has ended) and the worker's
    environment entries."""
    read_end, write_end = os.pipe()  # both not inherited by default; pass_fds hands over the read end
    return read_end, write_end, {PARENT_ENV: str(os.getpid()), LIFELINE_ENV: str(read_end)}


def end_group(_signum=None, _frame=None) -> None:
    """The parent is gone: SIGTERM to this worker's process group, then SIGKILL after a grace.

    Only a worker that leads its own group (the server starts it in a new session) signals the
    group; any other signals itself alone, never the group it shares with whoever started it."""
    def send(signum: int) -> None:
        try:
            if os.getpgrp() == os.getpid():
                os.killpg(os.getpid(), signum)
            else:
                os.kill(os.getpid(), signum)
        except OSError:
            os._exit(128 + signum)

    def kill_later() -> None:
        time.sleep(GRACE_S)
        send(signal.SIGKILL)

    threading.Thread(target=kill_later, name="lifeline-kill", daemon=True).start()
    send(signal.SIGTERM)


def set_parent_death_signal(signum: int) -> bool:
    """Ask the kernel to send ``signum`` to this process when its parent ends (Linux only)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(fd: int) -> None:
    """Block on the lifeline until its write end closes (or fails), then end the group."""
    try:
        while os.read(fd, 4096):
            pass
    except OSError:
        pass
    end_group()


def hold_on() -> None:
    """For the worker, first thing: die with the server (both ways above). Without the server's
    environment entries (the worker run by hand) it does nothing."""
    parent, fd = os.environ.pop(PARENT_ENV, ""), os.environ.pop(LIFELINE_ENV, "")
    if parent.isdigit():
        signal.signal(PARENT_GONE_SIGNAL, end_group)
        set_parent_death_signal(PARENT_GONE_SIGNAL)
        if os.getppid() != int(parent):  # the server died before the kernel was asked
            end_group()
    if fd.isdigit():
        threading.Thread(target=_watch, args=(int(fd),), name="lifeline", daemon=True).start()
