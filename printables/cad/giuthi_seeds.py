"""cadquery model of the Giuthi seed sprue: 12 flat-bottomed domes joined by bed-level gates.

The sprue is built in print orientation (bases on z = 0, grid centred on the origin) from
``printables.params.giuthi_seeds`` and written as a binary STL and a STEP file.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
from pathlib import Path

import cadquery as cq
import numpy as np
from OCP.BRep import BRep_Tool
from OCP.BRepAlgoAPI import BRepAlgoAPI_Fuse
from OCP.BRepMesh import BRepMesh_IncrementalMesh
from OCP.TopAbs import TopAbs_Orientation
from OCP.TopLoc import TopLoc_Location
from OCP.TopTools import TopTools_ListOfShape

from printables.params.giuthi_seeds import (
    SeedParams,
    gate_outline,
    gates,
    seed_centres,
    stl_name,
)

STL_TOLERANCE_MM = 0.03  # chordal deviation, absolute: far below a 0.2 mm layer, domes look round
STL_ANGULAR_TOLERANCE_RAD = 0.2
WELD_MM = 1e-6  # edge nodes that two faces share agree to far better than this
STL_HEADER = b"printables binary STL, mm"
# STEP headers carry the export time (and a per-process export count): fixed, a rebuild is
# byte-identical.
STEP_TIMESTAMP = "2000-01-01T00:00:00"


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
    """Fuse all shapes in one boolean run on one thread.

    cadquery's ``union`` runs OCCT's booleans in parallel, which leaves round-off noise that
    differs between runs; serial fusion makes a rebuild byte-identical.
    """
    args, tools = TopTools_ListOfShape(), TopTools_ListOfShape()
    args.Append(shapes[0].wrapped)
    for shape in shapes[1:]:
        tools.Append(shape.wrapped)
    op = BRepAlgoAPI_Fuse()
    op.SetArguments(args)
    op.SetTools(tools)
    op.SetRunParallel(False)
    op.Build()
    if not op.IsDone():
        raise RuntimeError("fusing the seed sprue failed in the CAD kernel")
    return cq.Shape.cast(op.Shape()).clean()


def build_sprue(p: SeedParams) -> cq.Workplane:
    """The whole sprue as one solid."""
    return cq.Workplane("XY").add(_fuse_serial(_seeds(p) + _gates(p)))


def _atomic_write(path: Path, write) -> None:
    """Call ``write(tmp_path)`` then move the result over ``path`` so readers never see half a file."""
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; outputs are ordinary shareable files
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def mesh_arrays(
    shape: cq.Shape, tolerance_mm: float, angular_tolerance_rad: float
) -> tuple[np.ndarray, np.ndarray]:
    """Triangulate ``shape`` into shared vertices (n, 3) and outward-wound faces (m, 3).

    Meshes serially with an absolute tolerance (cadquery's exporter meshes in parallel with a
    relative one), welds the faces' copies of each edge node, and drops the zero-area triangles
    OCCT leaves at the poles of revolved faces, so the result is one closed, repeatable mesh.
    """
    BRepMesh_IncrementalMesh(shape.wrapped, tolerance_mm, False, angular_tolerance_rad, False)
    points: list[tuple[float, float, float]] = []
    triangles: list[tuple[int, int, int]] = []
    for face in shape.Faces():
        loc = TopLoc_Location()
        poly = BRep_Tool.Triangulation_s(face.wrapped, loc)
        if poly is None:
            continue
        trsf = loc.Transformation()
        offset = len(points)
        for i in range(1, poly.NbNodes() + 1):
            node = poly.Node(i).Transformed(trsf)
            points.append((node.X(), node.Y(), node.Z()))
        reverse = face.wrapped.Orientation() == TopAbs_Orientation.TopAbs_REVERSED
        for k in range(1, poly.NbTriangles() + 1):
            a, b, c = poly.Triangle(k).Get()
            triangles.append(
                (offset + a - 1, offset + c - 1, offset + b - 1)
                if reverse
                else (offset + a - 1, offset + b - 1, offset + c - 1)
            )
    raw = np.asarray(points, dtype=np.float64)
    keys = np.round(raw / WELD_MM).astype(np.int64)
    welded, inverse = np.unique(keys, axis=0, return_inverse=True)
    faces = inverse.reshape(-1)[np.asarray(triangles, dtype=np.int64)]
    keep = (faces[:, 0] != faces[:, 1]) & (faces[:, 1] != faces[:, 2]) & (faces[:, 0] != faces[:, 2])
    return welded * WELD_MM, faces[keep]


def write_binary_stl(vertices: np.ndarray, faces: np.ndarray, path: Path) -> Path:
    """Write a binary STL (mm) with a fixed header, atomically."""
    tri = vertices[faces]
    normals = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    lengths = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.divide(normals, lengths, out=np.zeros_like(normals), where=lengths > 0)
    record = np.dtype([("normal", "<f4", 3), ("vertices", "<f4", (3, 3)), ("attr", "<u2")])
    data = np.zeros(len(faces), dtype=record)
    data["normal"] = normals
    data["vertices"] = tri
    header = STL_HEADER.ljust(80, b" ")

    def write(tmp: str) -> None:
        with open(tmp, "wb") as fh:
            fh.write(header)
            fh.write(np.uint32(len(faces)).tobytes())
            fh.write(data.tobytes())

    _atomic_write(path, write)
    return path


def export_stl(body: cq.Workplane, path: Path) -> Path:
    """Write ``body`` as a binary STL at the module's mesh tolerance."""
    vertices, faces = mesh_arrays(body.val(), STL_TOLERANCE_MM, STL_ANGULAR_TOLERANCE_RAD)
    return write_binary_stl(vertices, faces, path)


def export_step(body: cq.Workplane, path: Path) -> Path:
    """Write ``body`` as STEP with a fixed header time stamp."""

    def write(tmp: str) -> None:
        cq.exporters.export(body, tmp, exportType="STEP")
        text = Path(tmp).read_text(encoding="latin-1")
        text = re.sub(r"'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d'", f"'{STEP_TIMESTAMP}'", text, count=1)
        # OCCT numbers its STEP products by how many it has written in this process.
        text = re.sub(r"(Open CASCADE STEP translator \S+) \d+'", r"\1 1'", text)
        Path(tmp).write_text(text, encoding="latin-1")

    _atomic_write(path, write)
    return path


def build_seeds(params: SeedParams, out_dir: Path | str) -> list[Path]:
    """Build the sprue and write its STL and STEP into ``out_dir``; return the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    body = build_sprue(params)
    stl = out / stl_name(params)
    return [export_stl(body, stl), export_step(body, stl.with_suffix(".step"))]
