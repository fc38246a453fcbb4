"""Programs we start end with the process that started them (printables/lifeline.py): PrusaSlicer,
started by a build worker or a command that checks a model, must not slice on for minutes after
that process is killed with SIGKILL. Real processes throughout."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from printables import lifeline

ROOT = Path(__file__).resolve().parent.parent
GONE_S = 5.0  # the bound: nothing outlives its killed parent by more than this

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")


def _env(**changes) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(changes)
    return env


def _is_gone(pid: int) -> bool:
    """Whether a process has ended (a zombie nobody has reaped yet counts as ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def _wait_gone(pid: int, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end and not _is_gone(pid):
        time.sleep(0.05)
    return _is_gone(pid)


def _wait_for_text(path: Path, timeout: float) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.is_file() and path.read_text().strip():
            return path.read_text().strip()
        time.sleep(0.05)
    raise AssertionError(f"{path.name} was not written within {timeout} s")


def test_a_tied_program_runs_as_if_started_directly(tmp_path):
    script = 'echo "$0 $1 $PWD $TIED_VALUE"; echo err >&2; exit 3'
    run = subprocess.run(lifeline.tied(["sh", "-c", script, "a", "b c"]), capture_output=True, text=True,
                         cwd=tmp_path, env={**os.environ, "TIED_VALUE": "v"}, timeout=30)
    assert (run.returncode, run.stdout, run.stderr) == (3, f"a b c {tmp_path} v\n", "err\n")


@linux_only
def test_a_tied_program_that_cannot_be_run_is_one_line_and_exit_127(tmp_path):
    missing = str(tmp_path / "no-such-slicer")
    run = subprocess.run(lifeline.tied([missing, "--help"]), capture_output=True, text=True, timeout=30)
    assert run.returncode == 127
    assert run.stderr.splitlines() == [f"cannot run {missing}: No such file or directory"]


# The process that slices (a build worker, a check): it runs slice_to_gcode, which starts the slicer.
SLICING_PARENT = textwrap.dedent("""
    import sys
    from printables.check import slicer
    slicer.slice_to_gcode(sys.argv[1], sys.argv[2])
""")


@linux_only
@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads the process table from /proc")
def test_the_slicer_dies_within_5_s_of_its_parents_sigkill(tmp_path):
    pid_file = tmp_path / "slicer.pid"
    fake = tmp_path / "slow-slicer"  # stands for PrusaSlicer: a slice that takes minutes
    fake.write_text(f'#!/bin/sh\necho $$ > "{pid_file}"\nexec sleep 300\n')
    fake.chmod(0o755)
    stl = tmp_path / "part.stl"
    stl.write_bytes(b"solid part\nendsolid part\n")
    parent = subprocess.Popen([sys.executable, "-c", SLICING_PARENT, str(stl), str(tmp_path / "part.gcode")],
                              env=_env(PRUSA_SLICER=str(fake), TMPDIR=str(tmp_path)), start_new_session=True)
    slicer_pid = None
    try:
        slicer_pid = int(_wait_for_text(pid_file, 60))
        assert not _is_gone(slicer_pid)
        parent.kill()
        parent.wait(10)
        assert _wait_gone(slicer_pid, GONE_S), "the slicer outlived its killed parent by 5 s"
    finally:
        if parent.poll() is None:
            parent.kill()
        if slicer_pid is not None and not _is_gone(slicer_pid):  # what the old code left behind
            os.kill(slicer_pid, signal.SIGKILL)


@linux_only
def test_a_program_whose_starter_died_before_it_was_tied_does_not_run(tmp_path):
    # Its starter (pid 1 is never our parent here) is gone by the time the child asks the kernel.
    marker = tmp_path / "ran"
    command = lifeline.tied(["sh", "-c", f'touch "{marker}"'])
    command[command.index(str(os.getpid()))] = "1"
    run = subprocess.run(command, timeout=30)
    assert run.returncode == 128 + signal.SIGKILL
    assert not marker.exists()
