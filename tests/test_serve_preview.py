"""The Giuthi preview worker: its print-cost estimate against PrusaSlicer's figures for the redesigned
board, the budget warning's advice, and the worker dying with a server killed outright."""

from __future__ import annotations

import http.client
import signal
import time
from pathlib import Path

import pytest

from printables.serve import preview, preview_worker
from test_serve_lifecycle import is_gone, start_serve, wait_gone

PREVIEW_GONE_S = 5.0  # the bound for a killed server's preview worker


def preview_workers(server_pid: int) -> list[int]:
    """The server's preview workers (its children running ``printables.serve.preview_worker``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if ppid == server_pid and b"printables.serve.preview_worker" in command:
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


# --------------------------------------------------------------------------- the print-cost estimate

MINUTES_TOLERANCE = 15.0  # the estimate's promise against PrusaSlicer, per half
GRAMS_TOLERANCE = 3.0
PRESETS = ("giuthi-default", "giuthi-compact", "giuthi-2x8", "giuthi-9seeds", "giuthi-travel")


def sliced(args: tuple[str, ...]) -> tuple[float, float]:
    """PrusaSlicer's stored figures (minutes, grams) for the dearer half of ``printables giuthi <args>``."""
    return next((m, g) for a, m, g in preview.SLICED_HALVES if a == args)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_estimate_is_within_15_min_and_3_g_of_the_slicers_figures_for_each_preset(preset):
    minutes, grams, _ = preview_worker._half_costs(preview_worker.board_for(["--preset", preset]))
    want_minutes, want_grams = sliced(("--preset", preset))
    assert abs(minutes - want_minutes) <= MINUTES_TOLERANCE, (minutes, want_minutes)
    assert abs(grams - want_grams) <= GRAMS_TOLERANCE, (grams, want_grams)


@pytest.mark.slow  # eleven boards modelled
def test_the_fit_stands_for_every_board_it_was_fitted_to_custom_sizes_included():
    assert {a for a, _, _ in preview.SLICED_HALVES} >= {("--preset", p) for p in PRESETS}
    for args, want_minutes, want_grams in preview.SLICED_HALVES:
        minutes, grams, _ = preview_worker._half_costs(preview_worker.board_for(list(args)))
        assert abs(minutes - want_minutes) <= MINUTES_TOLERANCE, (args, minutes, want_minutes)
        assert abs(grams - want_grams) <= GRAMS_TOLERANCE, (args, grams, want_grams)
        # the warning agrees with the slicer wherever the slicer's figures are clear of the line
        if abs(want_grams - preview.BUDGET_GRAMS) > GRAMS_TOLERANCE:
            sliced_over = want_minutes > preview.BUDGET_MINUTES or want_grams > preview.BUDGET_GRAMS
            assert preview.is_over_budget(minutes, grams) == sliced_over, args


def test_a_board_over_the_budget_is_told_of_a_preset_the_slicer_says_fits():
    board = preview_worker.board_for(["--size", "224x145"])
    minutes, grams, _ = preview_worker._half_costs(board)
    assert preview.is_over_budget(minutes, grams)  # 94.7 g a half, sliced
    name = preview_worker.fitting_preset(board)
    assert name == "giuthi-default"  # the same 2x6 pits and 4 seeds, the largest plan
    want_minutes, want_grams = sliced(("--preset", name))
    assert not (want_minutes > preview.BUDGET_MINUTES or want_grams > preview.BUDGET_GRAMS)


@pytest.mark.slow
def test_a_freshly_sliced_default_board_agrees_with_the_stored_figures_and_the_estimate(tmp_path):
    from printables.cad.giuthi_board import build_halves, write_board
    from printables.check.slicer import is_slicer_available, slice_report

    if not is_slicer_available():
        pytest.skip("prusa-slicer is not installed")
    board = preview_worker.board_for(["--preset", "giuthi-default"])
    halves = build_halves(board)
    stls = [p for p in write_board(board, halves, tmp_path, step=False) if p.suffix == ".stl"]
    reports = [slice_report(p) for p in stls]
    minutes = max(r.print_time_s for r in reports) / 60
    grams = max(r.filament_g for r in reports)
    want_minutes, want_grams = sliced(("--preset", "giuthi-default"))
    assert abs(minutes - want_minutes) <= 2 and abs(grams - want_grams) <= 0.5  # the stored figures are today's
    estimate_minutes, estimate_grams, _ = preview_worker._half_costs(board)
    assert abs(estimate_minutes - minutes) <= MINUTES_TOLERANCE
    assert abs(estimate_grams - grams) <= GRAMS_TOLERANCE
