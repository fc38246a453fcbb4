"""``printables serve``'s processes: workers (and what they start, PrusaSlicer included) die with a
killed server, cancel removes a job's files, and SIGTERM ends the server with exit 143. Real
processes and sockets throughout."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from printables import lifeline
from printables.serve.jobs import Jobs

WORKER_GONE_S = 5 + lifeline.GRACE_S  # the bound, plus the SIGKILL grace of a worker that lingers


def is_gone(pid: int) -> bool:
    """Whether a process has ended (a zombie nobody has reaped yet counts as ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def wait_gone(pids: list[int], timeout: float) -> list[int]:
    """The pids still running after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and not all(is_gone(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if not is_gone(p)]


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def start_serve(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, int, Path]:
    """A real ``printables serve --port 0`` (its temp folder under ``tmp_path``): process, port, folder."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-m", "printables", "serve", "--port", "0", *args], cwd=tmp_path,
                               stderr=subprocess.PIPE, text=True, env=env)
    line = process.stderr.readline()
    match = re.match(r"Customizer at http://127\.0\.0\.1:(\d+)/ \(files in (\S+);", line)
    assert match, line
    return process, int(match.group(1)), Path(match.group(2))


def post_json(port: int, path: str, body: bytes = b"", host: str | None = None) -> tuple[int, dict | str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("POST", path, body=body, headers={
        "Host": host or f"127.0.0.1:{port}", "Origin": f"http://127.0.0.1:{port}", "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    try:
        return response.status, json.loads(text)
    except ValueError:
        return response.status, text


# --------------------------------------------------------------------------- signals


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_serve_on_127_1_keeps_to_this_machine_and_a_signal_ends_it_with_128_plus_its_number(tmp_path, signum, code):
    process, port, root = start_serve(tmp_path, "--host", "127.1")
    try:
        assert root.is_dir()
        status, body = post_json(port, "/harvest", b"players=abc", host="evil.example")
        assert status == 403 and "evil.example" in body
    finally:
        process.send_signal(signum)
        rest = process.communicate(timeout=30)[1]
    assert process.returncode == code, rest
    assert "stopped" in rest and "Traceback" not in rest and not root.exists()


# --------------------------------------------------------------------------- dying with the server


def test_a_killed_servers_worker_dies_with_it(tmp_path):
    process, port, root = start_serve(tmp_path)
    try:
        status, started = post_json(port, "/giuthi")  # modelling a board: a minute of work
        assert status == 202, started
        deadline = time.monotonic() + 30
        workers: list[int] = []
        while not workers and time.monotonic() < deadline:
            workers = children_of(process.pid)
            time.sleep(0.1)
        assert workers, "no worker started"
        time.sleep(1.0)  # the worker is importing and modelling
    finally:
        process.kill()
        process.communicate(timeout=30)
    assert wait_gone(workers, WORKER_GONE_S) == []


GROUP_CHILD = textwrap.dedent("""
    import subprocess, sys, time
    from printables import lifeline
    lifeline.hold_on()
    slicer = subprocess.Popen(["sleep", "300"])  # stands for PrusaSlicer, in the worker's group
    print(slicer.pid, flush=True)
    time.sleep(300)
""")

PARENT = textwrap.dedent("""
    import os, subprocess, sys, time
    from printables import lifeline
    way = sys.argv[1]
    read_end, write_end, env = lifeline.open_lifeline()
    if way == "signal":  # the kernel's parent-death signal alone
        env.pop(lifeline.LIFELINE_ENV)
        os.close(read_end)
        read_end = -1
    else:  # the pipe alone
        env.pop(lifeline.PARENT_ENV)
    child = subprocess.Popen([sys.executable, "-c", sys.argv[2]], env={**os.environ, **env},
                             pass_fds=(read_end,) if read_end >= 0 else (), start_new_session=True,
                             stdout=subprocess.PIPE, text=True)
    if read_end >= 0:
        os.close(read_end)
    grandchild = child.stdout.readline().strip()
    print(child.pid, grandchild, flush=True)
    time.sleep(300)
""")


@pytest.mark.parametrize("way", ["signal", "pipe"])
def test_a_worker_and_its_slicer_die_when_the_server_is_killed(way):
    if way == "signal" and not sys.platform.startswith("linux"):
        pytest.skip("the parent-death signal is Linux's")
    parent = subprocess.Popen([sys.executable, "-c", PARENT, way, GROUP_CHILD], stdout=subprocess.PIPE, text=True)
    try:
        worker, slicer = (int(p) for p in parent.stdout.readline().split())
        assert not is_gone(worker) and not is_gone(slicer)
    finally:
        parent.kill()
        parent.wait(10)
    assert wait_gone([worker, slicer], WORKER_GONE_S) == []


def test_a_worker_whose_server_died_before_it_asked_ends_at_once():
    # The server is gone before the worker gets to ask the kernel: its parent is not the recorded one.
    child = subprocess.Popen([sys.executable, "-c", GROUP_CHILD], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, lifeline.PARENT_ENV: "1"}, start_new_session=True)
    try:
        assert child.wait(WORKER_GONE_S) == -signal.SIGTERM
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)


# --------------------------------------------------------------------------- cancel


def test_cancel_removes_the_jobs_files(tmp_path):
    jobs = Jobs(tmp_path, max_running=1)
    running = jobs.start("giuthi", [])
    waiting = jobs.start("harvest", [])  # queued behind the first
    try:
        deadline = time.monotonic() + 30
        while (running.process is None or not (running.folder / "log.txt").exists()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert running.state == "running" and waiting.state == "queued"
        for job in (waiting, running):
            assert job.folder.is_dir()
            jobs.cancel(job.id)
            assert jobs.wait(job.id, 30).state == "cancelled"
            assert not job.folder.exists(), list(job.folder.rglob("*"))
    finally:
        jobs.shutdown()
