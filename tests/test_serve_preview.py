"""The Giuthi preview worker: its print-cost estimate against PrusaSlicer's figures for the redesigned
board, the budget warning's advice, and the worker dying with a server killed outright."""

from __future__ import annotations

import http.client
import signal
import time
from pathlib import Path

import pytest

from printables.serve import preview
from test_serve_lifecycle import is_gone, start_serve, wait_gone

PREVIEW_GONE_S = 5.0  # the bound for a killed server's preview worker


def preview_workers(server_pid: int) -> list[int]:
    """The server's preview workers (its children running ``printables.serve.preview``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if ppid == server_pid and b"printables.serve.preview" in command:
            found.append(int(entry.name))
    return found


def get(port: int, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
    status = connection.getresponse().status
    connection.close()
    return status


def test_a_killed_servers_preview_worker_is_gone_within_5_s(tmp_path):
    # Opening the Giuthi page starts the preview worker (the page shows the default board at once),
    # and the worker is busy at first: importing CadQuery, modelling the default board, estimating
    # the presets' costs. Killed with SIGKILL, the server runs no handler; the worker must end anyway.
    process, port, _root = start_serve(tmp_path)
    try:
        assert get(port, "/giuthi") == 200
        deadline = time.monotonic() + 30
        workers: list[int] = []
        while not workers and time.monotonic() < deadline:
            workers = preview_workers(process.pid)
            time.sleep(0.05)
        assert workers, "no preview worker started"
        time.sleep(0.5)
        assert not any(is_gone(w) for w in workers)
    finally:
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=30)
    assert wait_gone(workers, PREVIEW_GONE_S) == []
