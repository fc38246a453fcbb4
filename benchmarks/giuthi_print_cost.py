"""Print cost of the Giuthi parts: PrusaSlicer's time and filament per part with the 3D45 profile.

Usage: /work/venv/bin/python benchmarks/giuthi_print_cost.py [STL ...]
       /work/venv/bin/python benchmarks/giuthi_print_cost.py --presets   (~3 min on 2 cores)
Without arguments it slices every STL under output/giuthi/ (building the seed sprue into a
temporary folder if none is there); with --presets it builds both halves of every board preset
in models/ into a temporary folder and slices those. Needs prusa-slicer; prints a line per part
and the board halves against the issue's target (at most 6 h and 90 g per half) and, for the
default preset's halves, against its aim (at most 5 h and 75 g, issue 25).

Measured (PrusaSlicer 2.5, this project's 3D45 profile), one half, with supports on (none made);
the figures below are history, the script prints today's:
  before issue 11 (153 x 118 mm trays, 5 top / 4 bottom layers):
    default 2x6 4 seeds   4 h 20 min, 67.7 g
  the user's 160 x 145 mm halves with bowl pits, 13 mm deep for 11 mm half-beads:  6 h 27 min, 104.7 g
  the same, bowls 8 mm deep (a 9.2 mm board), 5 top / 4 bottom layers:             5 h 49 min, 88.2 g
  the same, 4 top / 3 bottom layers, oblong troughs, a knuckle mid-fold:           5 h 19 min, 80.4 g
  issue 25 (round cups in an 8.7 mm board, hinge at the fold's ends, the lid's words), --presets,
  right halves (the dearer, by a minute or two): default 4 h 14 min 72.1 g; compact 3 h 52 min
  66.1 g; 2x8 4 h 29 min 76.4 g; 9 seeds 4 h 41 min 81.9 g; travel 2 h 48 min 49.5 g; the seed
  sprue 16 min, 3 g. On 160 x 145 mm the top and bottom shells are about half the filament;
  ensure_vertical_shell_thickness = 0 or solid_infill_below_area = 0 changed nothing (88.2 and
  88.1 g, measured on the 9.2 mm board).
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
AIM_DEFAULT_S = 5 * 3600  # issue 25: a default half at most 5 h and 75 g
AIM_DEFAULT_G = 75.0
WORKERS = 2  # the slicer is single-threaded enough; two at once halves the wall time


def _timed(path: Path) -> tuple[Path, SliceReport, float]:
    start = time.perf_counter()
    report = slice_report(path)
    return path, report, time.perf_counter() - start


def _label(path: Path) -> str:
    """The part's file name, after its preset's folder when it was built from a preset."""
    return f"{path.parent.name}/{path.name}" if path.parent.name.startswith("giuthi-") else path.name


def _preset_halves(out: Path) -> list[Path]:
    """Build both halves of every board preset into ``out`` (one folder per preset)."""
    from printables.cad.giuthi_board import build_halves, write_board
    from printables.models import model_params
    from printables.params.base import load_preset

    paths = []
    for toml in sorted((ROOT / "models").glob("giuthi-*.toml")):
        preset = load_preset(toml)
        if preset.kind != "giuthi-board":
            continue
        p = model_params(preset.kind, preset.params, f"{toml} [params]")
        folder = out / preset.name
        written = write_board(p, build_halves(p), folder, step=False)
        paths += [path for path in written if path.suffix == ".stl"]
    return paths


def main(argv: list[str]) -> int:
    """Slice the given or found STLs and print the figures."""
    if not is_slicer_available():
        print(f"prusa-slicer not found: {INSTALL_HINT}")
        return 1
    tmp = None
    if argv == ["--presets"]:
        tmp = tempfile.TemporaryDirectory(prefix="giuthi-presets-")
        paths = _preset_halves(Path(tmp.name))
        argv = [str(p) for p in paths]
    paths = [Path(a) for a in argv] or sorted(OUTPUT_DIR.glob("**/*.stl"))
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
        f" (threshold {p.support_threshold_deg} deg); walls {p.perimeter_speed_mm_s}/{p.external_perimeter_speed_mm_s}"
        f" mm/s (inner/outer), infill {p.infill_speed_mm_s}, solid {p.solid_infill_speed_mm_s},"
        f" first layer {p.first_layer_speed_mm_s} mm/s"
    )
    print(f"{'part':50s} {'time':>10s} {'filament':>9s} {'length':>8s} {'support':>9s} {'slicing':>8s}")
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        results = list(pool.map(_timed, paths))
    for path, r, wall in results:
        print(
            f"{_label(path):50s} {r.print_time_text:>10s} {r.filament_g:7.1f} g {r.filament_m:6.2f} m"
            f" {r.support_mm:6.0f} mm {wall:6.1f} s"
        )
    halves = [(path, r) for path, r, _ in results if path.name.startswith("giuthi-board-")]
    for path, r in halves:
        ok = r.print_time_s <= TARGET_HALF_S and r.filament_g <= TARGET_HALF_G
        print(
            f"target {_label(path)}: {r.print_time_text} (<= 6 h), {r.filament_g:.1f} g (<= {TARGET_HALF_G:g} g):"
            f" {'met' if ok else 'NOT met'}"
        )
        if path.parent.name == "giuthi-default":
            ok = r.print_time_s <= AIM_DEFAULT_S and r.filament_g <= AIM_DEFAULT_G
            print(f"aim {_label(path)}: {r.print_time_text} (<= 5 h), {r.filament_g:.1f} g"
                  f" (<= {AIM_DEFAULT_G:g} g): {'met' if ok else 'NOT met'}")
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
