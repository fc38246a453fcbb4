"""The Giuthi rule core's three modules: the kernel under the capacity analysis under the engine.

printables/rules/giuthi_kernel.py (board limits, the reference sowing, the packed-board kernel)
imports nothing of ours; giuthi_capacity.py imports only the kernel; giuthi.py, the engine,
imports both and re-exports their public names, so ``from printables.rules.giuthi import X``
keeps working for every X that lived there before the split.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from printables.rules import giuthi, giuthi_capacity, giuthi_kernel

RULES = Path(giuthi.__file__).parent


def ours_imported(module: str) -> set[str]:
    """The printables modules a rules module imports, anywhere in it (functions included)."""
    tree = ast.parse((RULES / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("printables"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("printables"))
    return found


def test_the_kernel_imports_nothing_of_ours_and_the_capacity_analysis_only_the_kernel():
    assert ours_imported("giuthi_kernel") == set()
    assert ours_imported("giuthi_capacity") == {"printables.rules.giuthi_kernel"}
    assert ours_imported("giuthi") == {"printables.rules.giuthi_kernel", "printables.rules.giuthi_capacity"}


@pytest.mark.parametrize("name", [
    "MIN_PITS_PER_ROW", "MAX_PITS_PER_ROW", "DEFAULT_PITS_PER_ROW", "MIN_SEEDS_PER_PIT", "MAX_SEEDS_PER_PIT",
    "DEFAULT_SEEDS_PER_PIT", "MIN_SEEDS_TO_SOW", "SOUTH", "NORTH", "LOOP_CHECK_AFTER_LAPS", "validate_parameters",
])
def test_the_engine_re_exports_the_kernels_public_names(name):
    assert getattr(giuthi, name) is getattr(giuthi_kernel, name)


@pytest.mark.parametrize("name", [
    "POLICIES", "CAPACITY_GAMES", "CAPACITY_SEED", "CAPACITY_TABLE", "GameLoads", "LoadStats", "CapacityStats",
    "percentile", "load_stats", "game_rng", "play_game", "capacity_stats", "compute_capacity",
    "required_pit_capacity", "required_store_capacity",
])
def test_the_engine_re_exports_the_capacity_analysis(name):
    assert getattr(giuthi, name) is getattr(giuthi_capacity, name)


def test_the_engines_reference_sowing_is_the_kernels_and_its_laps_become_laps():
    assert giuthi._sow is giuthi_kernel.sow
    state = giuthi.initial_state()
    trace = giuthi.apply_traced(state, giuthi.Move.parse("2ccw"))
    records: list = []
    pits = list(state.pits)
    giuthi_kernel.sow(pits, 2, 1, giuthi.SOUTH, 6, records)
    assert len(trace.laps) == len(records) > 1  # 2ccw relays on the opening board
    for lap, record in zip(trace.laps, records):
        assert (lap.start, int(lap.direction), lap.seeds, lap.end, lap.crossed, lap.pits, lap.captured) == (
            record.start, record.d, record.seeds, record.end, record.crossed, record.pits, record.captured)
    assert [lap.result for lap in trace.laps[:-1]] == [giuthi.LapEnd.RELAY] * (len(records) - 1)
