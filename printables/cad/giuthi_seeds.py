"""cadquery model of the Giuthi seed sprue: 12 flat-bottomed beans joined by bed-level gates.

The sprue is built in print orientation (bases on z = 0, grid centred on the origin) from
``printables.params.giuthi_seeds`` and written as a binary STL and a STEP file.
"""

from __future__ import annotations

from pathlib import Path

import cadquery as cq
import numpy as np
from OCP.BRepBuilderAPI import BRepBuilderAPI_GTransform
from OCP.gp import gp_GTrsf

from printables.cad import booleans, export
from printables.cad.workplane import Workplane
from printables.fileio import write_atomic
from printables.params.giuthi_seeds import (
    SeedParams,
    gate_outline,
    gates,
    seed_centres,
    seed_width_mm,
    stl_name,
)

STL_TOLERANCE_MM = 0.03  # chordal deviation, absolute: far below a 0.2 mm layer, beans look smooth
# The STL is meshed in unit space (see ``mesh_arrays``): there the chordal tolerance is
# STL_TOLERANCE_MM over the longest semi-axis, so no chord of the stretched mesh lies farther than
# STL_TOLERANCE_MM from the bean, and a unit dome gets facets at most this angle apart.
STL_UNIT_ANGULAR_TOLERANCE_RAD = 0.15
STL_HEADER = b"printables binary STL, mm"


def _semi_axes(p: SeedParams) -> tuple[float, float, float]:
    """The bean's semi-axes: half its length (x), half its width (y) and its height (z)."""
    return p.seed_diameter_mm / 2, seed_width_mm(p) / 2, p.seed_height_mm


def _stretched(shape: cq.Shape, p: SeedParams) -> cq.Shape:
    """``shape`` scaled about the origin by the bean's semi-axes: unit hemispheres become beans."""
    a, b, h = _semi_axes(p)
    stretch = gp_GTrsf()
    stretch.SetValue(1, 1, a)
    stretch.SetValue(2, 2, b)
    stretch.SetValue(3, 3, h)
    return cq.Shape.cast(BRepBuilderAPI_GTransform(shape.wrapped, stretch, True).Shape())


# The sprue is modelled in "unit space", the sprue shrunk by the bean's semi-axes, where every bean
# is a unit hemisphere (a sphere, which OCCT intersects with the gates' planes in closed form), and
# stretched back at the end. The stretch is linear, so the gates' planes stay planes and every
# point lands where modelling the beans as stretched spheres would have put it; fusing the
# stretched (B-spline) beans instead took ~5 s of CPU, this takes well under one.


def _seeds(p: SeedParams) -> list[cq.Shape]:
    """The beans in unit space: unit hemispheres on the bed at the seed centres."""
    a, b, _ = _semi_axes(p)
    dome = cq.Solid.makeSphere(1.0, cq.Vector(0, 0, 0), cq.Vector(0, 0, 1), angleDegrees1=0, angleDegrees2=90)
    return [dome.moved(cq.Location(cq.Vector(x / a, y / b, 0))) for x, y in seed_centres(p)]


def _gates(p: SeedParams) -> list[cq.Shape]:
    """The gate bars in unit space, each extruded up from the bed to the gate height."""
    a, b, h = _semi_axes(p)
    centres = seed_centres(p)
    out = []
    for i, j in gates(p):
        outline = [(x / a, y / b) for x, y in gate_outline(p, centres[i], centres[j])]
        out.append(Workplane("XY").polyline(outline).close().extrude(p.gate_height_mm / h).val())
    return out


def _unit_sprue(p: SeedParams) -> cq.Shape:
    """The sprue in unit space: unit hemispheres and shrunk gates fused into one solid."""
    return booleans.fuse(_seeds(p) + _gates(p), "fusing the seed sprue")


def build_sprue(p: SeedParams) -> cq.Workplane:
    """The whole sprue as one solid: beans and gates fused in unit space, then stretched."""
    return Workplane("XY").add(_stretched(_unit_sprue(p), p))


def mesh_arrays(p: SeedParams, unit: cq.Shape | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The sprue's welded mesh (vertices in mm, faces): the unit-space solid meshed, then stretched.

    In unit space the domes are spheres and the gates planes, which OCCT meshes quickly and
    evenly; the stretch is linear, so each vertex lands exactly where it lies on the stretched
    solid (a dome's vertices on the ellipsoid), each chord stays within STL_TOLERANCE_MM of the
    bean, and the winding is kept (the stretch does not mirror). Meshing the stretched B-spline
    solid instead took twice the time for more triangles and no closer a volume.
    """
    unit = _unit_sprue(p) if unit is None else unit
    axes = np.array(_semi_axes(p))
    vertices, faces = export.mesh_arrays(unit, STL_TOLERANCE_MM / axes.max(), STL_UNIT_ANGULAR_TOLERANCE_RAD)
    return vertices * axes, faces


def export_stl(p: SeedParams, path: Path, unit: cq.Shape | None = None) -> Path:
    """Write the sprue (of ``unit``, its unit-space solid, when given) as a binary STL, atomically."""
    vertices, faces = mesh_arrays(p, unit)
    return write_atomic(path, export.stl_bytes(vertices, faces, STL_HEADER))


def export_step(body: cq.Workplane, path: Path) -> Path:
    """Write ``body`` as repeatable STEP."""
    return export.export_step(body.val(), path)


def build_seeds(params: SeedParams, out_dir: Path | str) -> list[Path]:
    """Build the sprue and write its STL and STEP into ``out_dir``; return the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    unit = _unit_sprue(params)
    body = Workplane("XY").add(_stretched(unit, params))  # the exact solid, for the STEP
    stl = out / stl_name(params)
    return [export_stl(params, stl, unit), export_step(body, stl.with_suffix(".step"))]
