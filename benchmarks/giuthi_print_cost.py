"""Print cost of the Giuthi parts: PrusaSlicer's time and filament per part with the 3D45 profile.

Usage: /work/venv/bin/python benchmarks/giuthi_print_cost.py [STL ...]
Without arguments it slices every STL under output/giuthi/ (building the seed sprue into a
temporary folder if none is there). Needs prusa-slicer; prints a line per part and the board
halves against the issue's target (at most 6 h and 90 g per half).
"""

from __future__ import annotations

import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from printables.check.slicer import (  # noqa: E402
    DREMEL_3D45,
    INSTALL_HINT,
    SliceReport,
    is_slicer_available,
    slice_report,
)

OUTPUT_DIR = ROOT / "output" / "giuthi"
TARGET_HALF_S = 6 * 3600
TARGET_HALF_G = 90.0
WORKERS = 2  # the slicer is single-threaded enough; two at once halves the wall time


def _timed(path: Path) -> tuple[Path, SliceReport, float]:
    start = time.perf_counter()
    report = slice_report(path)
    return path, report, time.perf_counter() - start


def main(argv: list[str]) -> int:
    """Slice the given or found STLs and print the figures."""
    if not is_slicer_available():
        print(f"prusa-slicer not found: {INSTALL_HINT}")
        return 1
    paths = [Path(a) for a in argv] or sorted(OUTPUT_DIR.glob("**/*.stl"))
    tmp = None
    if not argv and not any(p.name.startswith("giuthi-seeds-") for p in paths):
        from printables.cad.giuthi_seeds import build_seeds
        from printables.params.giuthi_seeds import SeedParams

        tmp = tempfile.TemporaryDirectory(prefix="giuthi-seeds-")
        paths += [p for p in build_seeds(SeedParams(), tmp.name) if p.suffix == ".stl"]
    if not paths:
        print(f"no STL files under {OUTPUT_DIR}; run `printables giuthi` first or pass paths")
        return 1
    p = DREMEL_3D45
    print(
        f"PrusaSlicer, {p.printer}: {p.material} {p.filament_mm:g} mm, {p.layer_height_mm:g} mm layers,"
        f" {p.infill_percent} % infill, {p.perimeters} perimeters, no raft, auto supports"
        f" (threshold {p.support_threshold_deg} deg)"
    )
    print(f"{'part':44s} {'time':>10s} {'filament':>9s} {'length':>8s} {'support':>9s} {'slicing':>8s}")
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        results = list(pool.map(_timed, paths))
    for path, r, wall in results:
        print(
            f"{path.name:44s} {r.print_time_text:>10s} {r.filament_g:7.1f} g {r.filament_m:6.2f} m"
            f" {r.support_mm:6.0f} mm {wall:6.1f} s"
        )
    halves = [(path, r) for path, r, _ in results if path.name.startswith("giuthi-board-")]
    for path, r in halves:
        ok = r.print_time_s <= TARGET_HALF_S and r.filament_g <= TARGET_HALF_G
        print(
            f"target {path.name}: {r.print_time_text} (<= 6 h), {r.filament_g:.1f} g (<= {TARGET_HALF_G:g} g):"
            f" {'met' if ok else 'NOT met'}"
        )
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
