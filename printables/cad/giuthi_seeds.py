"""cadquery model of the Giuthi seed sprue: 12 flat-bottomed domes joined by bed-level gates.

The sprue is built in print orientation (bases on z = 0, grid centred on the origin) from
``printables.params.giuthi_seeds`` and written as a binary STL and a STEP file.
"""

from __future__ import annotations

import math
from pathlib import Path

import cadquery as cq

from printables.cad import booleans, export
from printables.params.giuthi_seeds import (
    SeedParams,
    gate_outline,
    gates,
    seed_centres,
    stl_name,
)

STL_TOLERANCE_MM = 0.03  # chordal deviation, absolute: far below a 0.2 mm layer, domes look round
STL_ANGULAR_TOLERANCE_RAD = 0.2
STL_HEADER = b"printables binary STL, mm"


def _seed(p: SeedParams) -> cq.Solid:
    """One dome: the profile (base radius, spherical arc, axis) revolved about z."""
    a, h = p.seed_diameter_mm / 2, p.seed_height_mm
    big_r = (a * a + h * h) / (2 * h)
    centre_z = h - big_r
    # A point on the arc halfway in angle between the base rim and the top.
    t0 = math.atan2(0 - centre_z, a)
    mid_t = (t0 + math.pi / 2) / 2
    mid = (big_r * math.cos(mid_t), centre_z + big_r * math.sin(mid_t))
    profile = (
        cq.Workplane("XZ")
        .moveTo(0, 0)
        .lineTo(a, 0)
        .threePointArc(mid, (0, h))
        .close()
    )
    return profile.revolve(360, (0, 0, 0), (0, 1, 0)).val()


def _seeds(p: SeedParams) -> list[cq.Shape]:
    """The domes, one at each seed centre."""
    dome = _seed(p)
    return [dome.moved(cq.Location(cq.Vector(x, y, 0))) for x, y in seed_centres(p)]


def _gates(p: SeedParams) -> list[cq.Shape]:
    """The gate bars, each extruded up from the bed to the gate height."""
    centres = seed_centres(p)
    out = []
    for i, j in gates(p):
        outline = gate_outline(p, centres[i], centres[j])
        out.append(cq.Workplane("XY").polyline(outline).close().extrude(p.gate_height_mm).val())
    return out


def _fuse_serial(shapes: list[cq.Shape]) -> cq.Shape:
    return booleans.fuse(shapes, "fusing the seed sprue")


def build_sprue(p: SeedParams) -> cq.Workplane:
    """The whole sprue as one solid."""
    return cq.Workplane("XY").add(_fuse_serial(_seeds(p) + _gates(p)))


def export_stl(body: cq.Workplane, path: Path) -> Path:
    """Write ``body`` as a binary STL at the module's mesh tolerance."""
    return export.export_stl(body.val(), path, STL_TOLERANCE_MM, STL_ANGULAR_TOLERANCE_RAD, STL_HEADER)


def export_step(body: cq.Workplane, path: Path) -> Path:
    """Write ``body`` as repeatable STEP."""
    return export.export_step(body.val(), path)


def build_seeds(params: SeedParams, out_dir: Path | str) -> list[Path]:
    """Build the sprue and write its STL and STEP into ``out_dir``; return the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    body = build_sprue(params)
    stl = out / stl_name(params)
    return [export_stl(body, stl), export_step(body, stl.with_suffix(".step"))]
