"""The print card's check reads the manifest beside it only through check's bounds
(printables/check/bounds.py): a pipe or an oversized file there is a FAIL line, never a hang."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _card_beside(folder: Path) -> tuple[Path, Path]:
    """A print card and the name its board manifest has beside it (no modelling)."""
    from printables.cad.giuthi_board import manifest_name
    from printables.models import seed_params_for
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import giuthi_print_card, write_print_card

    board = GiuthiBoardParams()
    card = write_print_card(giuthi_print_card(seed_params_for(board), {}, board), folder / "giuthi-print-settings.pdf")
    return card, folder / manifest_name(board)


def _check(card: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "printables", "check", str(card)], env=env,
                          capture_output=True, text=True, timeout=60)  # the old code blocked for ever


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_fifo_manifest_beside_the_card_is_a_fail_line_not_a_hang(tmp_path):
    pytest.importorskip("cadquery")
    card, manifest = _card_beside(tmp_path)
    os.mkfifo(manifest)
    run = _check(card)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{manifest.name}: not a regular file" in run.stdout
    assert "Traceback" not in run.stderr


def test_a_manifest_over_the_size_limit_is_a_fail_line_not_read(tmp_path):
    pytest.importorskip("cadquery")
    from printables.check.bounds import MAX_FILE_BYTES

    card, manifest = _card_beside(tmp_path)
    manifest.write_text(json.dumps({"pad": "x" * MAX_FILE_BYTES[".json"]}))
    run = _check(card)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{manifest.name}: {manifest.stat().st_size:,} bytes" in run.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_fifo_manifest_beside_a_half_is_a_fail_line_not_a_hang(tmp_path):
    """``check`` of one half reads the manifest beside it through the bounds too (it blocked for ever)."""
    half = tmp_path / "giuthi-board-left-2x6-4seeds.stl"
    half.write_text("solid half\nendsolid half\n")
    manifest = tmp_path / "giuthi-board-2x6-4seeds.json"
    os.mkfifo(manifest)
    run = _check(half)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{manifest.name}: not a regular file" in run.stdout
    assert "Traceback" not in run.stderr
