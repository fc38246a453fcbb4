"""Print the time to build and mesh each half of the default Giuthi board and its seed sprue, their
triangle counts at the chosen mesh tolerances, the halves' size and volume, and the time the STL
checks take.

Run: /work/venv/bin/python benchmarks/bench_giuthi_model.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import trimesh

from printables.cad import giuthi_board as cad
from printables.cad import giuthi_seeds as cad_seeds
from printables.cad.export import stl_bytes
from printables.check.giuthi_stl import check_board
from printables.params.giuthi_board import GiuthiBoardParams
from printables.params.giuthi_seeds import SeedParams


def main() -> None:
    """Build, mesh, write and check the default board, printing the figures."""
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
        t0, c0 = time.perf_counter(), time.process_time()
        sprue = cad_seeds.build_sprue(seeds)
        t1, c1 = time.perf_counter(), time.process_time()
        vertices, faces = cad_seeds.export.mesh_arrays(sprue.val(), cad_seeds.STL_TOLERANCE_MM,
                                                       cad_seeds.STL_ANGULAR_TOLERANCE_RAD)
        t2 = time.perf_counter()
        print(f"  sprue: build {t1 - t0:5.2f} s ({c1 - c0:.2f} s CPU), mesh {t2 - t1:4.2f} s, {len(faces):6d} triangles"
              f" ({cad_seeds.STL_TOLERANCE_MM} mm chordal)")
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


if __name__ == "__main__":
    main()
