"""cadquery model of the Giuthi seed sprue: 12 flat-bottomed beans joined by bed-level gates.

The sprue is built in print orientation (bases on z = 0, grid centred on the origin) from
``printables.params.giuthi_seeds`` and written as a binary STL and a STEP file.
"""

from __future__ import annotations

from pathlib import Path

import cadquery as cq
from OCP.BRepBuilderAPI import BRepBuilderAPI_GTransform
from OCP.gp import gp_GTrsf

from printables.cad import booleans, export
from printables.params.giuthi_seeds import (
    SeedParams,
    gate_outline,
    gates,
    seed_centres,
    seed_width_mm,
    stl_name,
)

STL_TOLERANCE_MM = 0.03  # chordal deviation, absolute: far below a 0.2 mm layer, beans look smooth
STL_ANGULAR_TOLERANCE_RAD = 0.2
STL_HEADER = b"printables binary STL, mm"


def _seed(p: SeedParams) -> cq.Solid:
    """One bean: a unit hemisphere on the bed, stretched to the seed's length, width and height."""
    dome = cq.Solid.makeSphere(1.0, cq.Vector(0, 0, 0), cq.Vector(0, 0, 1), angleDegrees1=0, angleDegrees2=90)
    stretch = gp_GTrsf()
    stretch.SetValue(1, 1, p.seed_diameter_mm / 2)
    stretch.SetValue(2, 2, seed_width_mm(p) / 2)
    stretch.SetValue(3, 3, p.seed_height_mm)
    return cq.Solid(BRepBuilderAPI_GTransform(dome.wrapped, stretch, True).Shape())


def _seeds(p: SeedParams) -> list[cq.Shape]:
    """The beans, one at each seed centre, their length along the rows."""
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
