"""Print the time to build and mesh each half of the default Giuthi board and its seed sprue, their
triangle counts at the chosen mesh tolerances, the halves' size and volume, and the time the STL
checks take; with ``--worker0``, the CPU time a parallel build's worker 0 spends making the six
Giuthi presets' models.

Run: python benchmarks/bench_giuthi_model.py
     python benchmarks/bench_giuthi_model.py --worker0 [--rounds 3] [--baseline OTHER_SOURCE_TREE]

``--worker0`` makes the models of the six Giuthi presets as worker 0 of ``printables build
--no-slice --jobs 2`` does (one process, parts shared between presets, no previews, no slicer)
in a fresh process per round, and prints its CPU time (user + system of the whole process: the
interpreter, the imports of CadQuery, trimesh and reportlab, and every make) with each preset's
share. ``--baseline DIR`` times the same in another source tree (e.g. ``git archive main | tar -x
-C /tmp/base``), interleaved round by round with this one, so both see the same load; the load
average is printed with each round (a shared machine's figures say little without it).

Figures (issue 14, --worker0 --rounds 3, load 1.8-2.6, baseline main 5008117 before the cad work):
this tree best 10.56 s, median 11.20 s; baseline best 14.66 s, median 15.06 s. In a whole
``bench_build.py --jobs 2`` at load 3 the six makes took 11.1 s of worker 0's CPU against 14.4 and
15.7 s with printables/cad and models.py of before.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GIUTHI_PRESETS = ("compact", "default", "ko", "2x8", "9seeds", "travel")  # the build's order

# Run in the tree under test: worker 0's part of a parallel build (build._Schedule), timed.
WORKER0 = """
import json, resource, sys, tempfile, time
from pathlib import Path
from printables.build import make_preset
from printables.models import share_parts
from printables.params.base import load_preset

share_parts()
shares = {}
with tempfile.TemporaryDirectory() as out:
    for name in sys.argv[1:]:
        start = time.process_time()
        make_preset(load_preset(Path(f"models/giuthi-{name}.toml")), Path(out), slicer=False, previews=False)
        shares[name] = time.process_time() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"cpu": usage.ru_utime + usage.ru_stime, "presets": shares}))
"""


def worker0_cpu(tree: Path) -> dict:
    """One fresh process making the Giuthi models in ``tree``: its CPU time and each preset's."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run([sys.executable, "-c", WORKER0, *GIUTHI_PRESETS], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def bench_worker0(rounds: int, baseline: Path | None) -> None:
    trees = [("this tree", ROOT)] + ([("baseline", baseline)] if baseline else [])
    cpu: dict[str, list[float]] = {label: [] for label, _ in trees}
    print(f"worker 0's makes of the Giuthi presets ({', '.join(GIUTHI_PRESETS)}), CPU s of the whole process")
    for round_ in range(1, rounds + 1):
        for label, tree in trees:
            result = worker0_cpu(tree)
            cpu[label].append(result["cpu"])
            shares = " ".join(f"{name} {seconds:.2f}" for name, seconds in result["presets"].items())
            print(f"  round {round_} {label:9s}: {result['cpu']:5.2f} s  ({shares}; load {load()})")
    for label, values in cpu.items():
        print(f"{label:9s}: best {min(values):.2f} s, median {statistics.median(values):.2f} s over {len(values)} rounds")


def bench_parts() -> None:
    """Build, mesh, write and check the default board, printing the figures."""
    import trimesh

    from printables.cad import giuthi_board as cad
    from printables.cad import giuthi_seeds as cad_seeds
    from printables.cad.export import stl_bytes
    from printables.check.giuthi_stl import check_board
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.params.giuthi_seeds import SeedParams

    p = GiuthiBoardParams()
    print(f"Giuthi board {p.stem()}: mesh tolerance {cad.STL_TOLERANCE_MM} mm chordal,"
          f" {cad.STL_ANGULAR_TOLERANCE_RAD} rad angular")
    halves = {}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        for side in ("left", "right"):
            t0, c0 = time.perf_counter(), time.process_time()
            shape = cad.build_half(p, side)
            t1, c1 = time.perf_counter(), time.process_time()
            vertices, faces = cad.mesh_arrays(shape)
            data = stl_bytes(vertices, faces, cad.STL_HEADER)
            t2 = time.perf_counter()
            halves[side] = shape
            mesh = trimesh.Trimesh(vertices, faces)
            ext = mesh.extents
            print(
                f"  {side:5s}: build {t1 - t0:5.2f} s ({c1 - c0:.2f} s CPU), mesh+STL {t2 - t1:4.2f} s, {len(faces):6d} triangles,"
                f" {len(data) / 1e6:.2f} MB, {ext[0]:.1f} x {ext[1]:.1f} x {ext[2]:.1f} mm,"
                f" {mesh.volume:8.0f} mm3 of solid model (the slicer's 20 % infill hollows it:"
                f" benchmarks/giuthi_print_cost.py --presets)"
            )
        seeds = SeedParams(seed_diameter_mm=p.seed_diameter_mm, seed_height_mm=p.seed_height_mm)
        c0 = time.process_time()
        unit = cad_seeds._unit_sprue(seeds)
        c1 = time.process_time()
        cad_seeds._stretched(unit, seeds)
        c2 = time.process_time()
        vertices, faces = cad_seeds.mesh_arrays(seeds, unit)
        c3 = time.process_time()
        print(f"  sprue: CPU fuse {c1 - c0:.2f} s (unit space), stretch {c2 - c1:.2f} s (the STEP's solid),"
              f" mesh {c3 - c2:.2f} s (unit space), {len(faces):6d} triangles ({cad_seeds.STL_TOLERANCE_MM} mm chordal)")
        t0 = time.perf_counter()
        cad.write_board(p, halves, out, step=True)
        t1 = time.perf_counter()
        results = check_board(out / cad.manifest_name(p))
        t2 = time.perf_counter()
        failed = [r for r in results if not r.ok]
        print(f"  write STL+STEP+manifest {t1 - t0:.2f} s; {len(results)} checks in {t2 - t1:.2f} s,"
              f" {len(failed)} failed")
        for r in failed:
            print(f"    {r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worker0", action="store_true", help="time worker 0's makes of the six Giuthi presets")
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes per tree with --worker0 [3]")
    parser.add_argument("--baseline", type=Path, help="another source tree to time the same, interleaved")
    args = parser.parse_args()
    if args.worker0:
        bench_worker0(args.rounds, args.baseline)
    else:
        bench_parts()


if __name__ == "__main__":
    main()
