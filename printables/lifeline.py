"""Processes that end with the process that started them.

Killed with SIGKILL (the OOM killer, an IDE's stop button), a process runs no handler, so whatever
it started would run on: a build's workers blocked on their pipes for ever holding hundreds of MB,
a server's job workers, PrusaSlicer slicing until its timeout. One mechanism underlies all three:
the Linux kernel sends a chosen signal to a process when the thread that started it ends
(``prctl(PR_SET_PDEATHSIG)``, a public system call, reached through the C library with ctypes), and
a portable second guard covers where that call is missing or came too late.

- A build's pool workers (``die_with_parent``): the kernel's SIGKILL, and a daemon thread that ends
  the worker within ``POLL_S`` once its parent has changed (it was handed to init or a subreaper).
  Ctrl-C and SIGTERM end it without a word (``quiet_interrupts``): the build says the one line.
- A server's job workers (``open_lifeline`` in the server, ``hold_on`` first thing in the worker):
  the kernel's ``PARENT_GONE_SIGNAL``, and a pipe whose read end only the worker holds (end-of-file
  means the server is gone). Either way the worker ends its own process group (``end_group``:
  SIGTERM, so its signal handling removes what is half-made, then SIGKILL after ``GRACE_S``). The
  server starts each worker from the job's own thread, which waits for it.
- A program we run, PrusaSlicer (``tied``): the kernel's SIGKILL, asked for in the child before it
  runs the program (the setting survives exec), by a few lines of Python that then exec it; unlike
  subprocess's ``preexec_fn`` that is safe in a process with threads. So the program ends whichever
  way the process that started it ends, SIGKILL included.

What any of them had begun (temporary files, staging and scratch folders) carries its process id
and is swept by the next run once that process is gone (``printables.fileio.sweep_stale``).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Sequence

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
POLL_S = 0.5  # how often a build worker's portable guard looks at its parent
PARENT_ENV = "PRINTABLES_SERVE_PARENT"  # the server's pid, as its job worker should see it
LIFELINE_ENV = "PRINTABLES_SERVE_LIFELINE_FD"  # the read end of the lifeline, in the job worker
PARENT_GONE_SIGNAL = signal.SIGUSR1  # a job worker's word from the kernel that the server died
GRACE_S = 5.0  # after SIGTERM, how long a job worker's group has before SIGKILL
MISSING_PROGRAM_EXIT = 127  # a tied program that cannot be run, as a shell says it


def set_parent_death_signal(signum: int = signal.SIGKILL) -> bool:
    """Ask the kernel to send ``signum`` to this process when its parent ends (Linux only)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


# -- a build's pool workers ------------------------------------------------------------------------


def die_with_parent(parent_pid: int | None = None) -> None:
    """Make this process end when ``parent_pid`` (the process that started it, by default) ends."""
    parent = os.getppid() if parent_pid is None else parent_pid
    set_parent_death_signal(signal.SIGKILL)
    if os.getppid() != parent:  # the parent ended before the guard was set
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="printables-lifeline", daemon=True).start()


def _watch_parent(parent: int) -> None:
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


# -- a server's job workers ------------------------------------------------------------------------


def open_lifeline() -> tuple[int, int, dict[str, str]]:
    """For the server: a new lifeline. Returns its read end (pass it to the worker with ``pass_fds``,
    then close it here), its write end (keep it open until the worker has ended) and the worker's
    environment entries."""
    read_end, write_end = os.pipe()  # both not inherited by default; pass_fds hands over the read end
    return read_end, write_end, {PARENT_ENV: str(os.getpid()), LIFELINE_ENV: str(read_end)}


def hold_on() -> None:
    """For the job worker, first thing: die with the server (both ways above). Without the server's
    environment entries (the worker run by hand) it does nothing."""
    parent, fd = os.environ.pop(PARENT_ENV, ""), os.environ.pop(LIFELINE_ENV, "")
    if parent.isdigit():
        signal.signal(PARENT_GONE_SIGNAL, end_group)
        set_parent_death_signal(PARENT_GONE_SIGNAL)
        if os.getppid() != int(parent):  # the server died before the kernel was asked
            end_group()
    if fd.isdigit():
        threading.Thread(target=_watch_pipe, args=(int(fd),), name="lifeline", daemon=True).start()


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


def _watch_pipe(fd: int) -> None:
    """Block on the lifeline until its write end closes (or fails), then end the group."""
    try:
        while os.read(fd, 4096):
            pass
    except OSError:
        pass
    end_group()


# -- programs we run -------------------------------------------------------------------------------

# Run as ``python -I -S -c _EXEC_TIED <starter pid> <program> <args...>``: no site, no imports of ours.
_EXEC_TIED = f"""\
import ctypes, os, sys
ctypes.CDLL(None).prctl({PR_SET_PDEATHSIG}, {int(signal.SIGKILL)}, 0, 0, 0)
if os.getppid() != int(sys.argv[1]):
    os._exit({128 + int(signal.SIGKILL)})
try:
    os.execvp(sys.argv[2], sys.argv[2:])
except OSError as error:
    sys.stderr.write("cannot run " + sys.argv[2] + ": " + (error.strerror or str(error)) + "\\n")
    os._exit({MISSING_PROGRAM_EXIT})
"""


def tied(command: Sequence[str]) -> list[str]:
    """``command`` so that, started by this process (and waited for by the thread that starts it),
    it gets SIGKILL when this process ends, however it ends; unchanged where there is no such signal.

    The program runs in the same process as if started directly: same pid, arguments, streams,
    exit code, environment and working folder; one it cannot run exits 127 with one line."""
    command = list(command)
    if not sys.platform.startswith("linux") or not sys.executable:
        return command
    return [sys.executable, "-I", "-S", "-c", _EXEC_TIED, str(os.getpid()), *command]
