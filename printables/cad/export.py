"""Exporters shared by every model: repeatable binary STL and STEP, written atomically.

cadquery's own STL exporter meshes in parallel with a relative tolerance, which makes files
differ from run to run; here a shape is meshed serially at an explicit absolute tolerance, the
faces' copies of each edge node are welded, and zero-area triangles (left at the poles of revolved
faces) are dropped, so the same parameters give the same bytes and one closed mesh.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import cadquery as cq
import numpy as np
from OCP.BRep import BRep_Tool
from OCP.BRepMesh import BRepMesh_IncrementalMesh
from OCP.TopAbs import TopAbs_Orientation
from OCP.TopLoc import TopLoc_Location
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

from printables.cad.workplane import Workplane
from printables.fileio import write_atomic

WELD_MM = 1e-6  # edge nodes that two faces share agree far better than this
STEP_TIMESTAMP = "2000-01-01T00:00:00"  # STEP headers carry the export time; fix it
# OCCT sometimes writes a coordinate that is zero as 0. and sometimes as 1.97E-31 in another
# run: anything this small is written as 0.
STEP_ZERO_BELOW = 1e-12
_STEP_NUMBER = re.compile(r"(?<![\w.#'])-?\d+\.\d*E-(\d+)")
_STEP_EXPONENT = re.compile(r"E-(\d+)")  # every negative exponent of the text (a fast search)


def _join_neighbours(keys: np.ndarray) -> np.ndarray:
    """For sorted, distinct grid points (n, 3), the index of the point each is welded to.

    Grid points at most one step apart in every coordinate are one node rounded two ways; each
    group of such neighbours goes to its first (lowest) point, whatever order the faces came in.
    """
    target = np.arange(len(keys))
    if len(keys) < 2:
        return target
    pairs = cKDTree(keys.astype(np.float64)).query_pairs(1.0, p=np.inf, output_type="ndarray")
    if len(pairs):
        graph = coo_matrix((np.ones(len(pairs), dtype=np.int8), (pairs[:, 0], pairs[:, 1])),
                           shape=(len(keys), len(keys)))
        _, label = connected_components(graph, directed=False)
        first = np.full(label.max() + 1, len(keys))
        np.minimum.at(first, label, target)
        target = first[label]
    return target


def mesh_arrays(shape: cq.Shape, tolerance_mm: float, angular_tolerance_rad: float) -> tuple[np.ndarray, np.ndarray]:
    """Triangulate serially into welded vertices (n, 3) and outward-wound faces (m, 3)."""
    BRepMesh_IncrementalMesh(shape.wrapped, tolerance_mm, False, angular_tolerance_rad, False)
    points: list[tuple[float, float, float]] = []
    blocks: list[np.ndarray] = []
    for face in shape.Faces():
        loc = TopLoc_Location()
        poly = BRep_Tool.Triangulation_s(face.wrapped, loc)
        if poly is None:
            raise RuntimeError("a face of the model has no triangulation")
        offset = len(points)
        nodes = range(1, poly.NbNodes() + 1)
        if loc.IsIdentity():  # moving a point by the identity leaves it bit for bit as it is
            points += [poly.Node(i).Coord() for i in nodes]
        else:
            trsf = loc.Transformation()
            points += [poly.Node(i).Transformed(trsf).Coord() for i in nodes]
        block = np.array([poly.Triangle(k).Get() for k in range(1, poly.NbTriangles() + 1)],
                         dtype=np.int64).reshape(-1, 3)
        if face.wrapped.Orientation() == TopAbs_Orientation.TopAbs_REVERSED:
            block = block[:, [0, 2, 1]]
        blocks.append(block + (offset - 1))
    triangles = np.concatenate(blocks) if blocks else np.zeros((0, 3), dtype=np.int64)
    return weld(np.asarray(points, dtype=np.float64).reshape(-1, 3), triangles)


def weld(points: np.ndarray, triangles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points (n, 3) and triangles indexing them (m, 3) as a welded mesh: one vertex per node,
    on a ``WELD_MM`` grid, and the triangles left with three distinct vertices."""
    keys = np.round(points / WELD_MM).astype(np.int64)
    grid, inverse = np.unique(keys, axis=0, return_inverse=True)
    kept, renumber = np.unique(_join_neighbours(grid), return_inverse=True)
    faces = renumber[inverse.reshape(-1)][triangles]
    keep = (faces[:, 0] != faces[:, 1]) & (faces[:, 1] != faces[:, 2]) & (faces[:, 0] != faces[:, 2])
    return grid[kept] * WELD_MM, faces[keep]


def stl_bytes(vertices: np.ndarray, faces: np.ndarray, header: bytes) -> bytes:
    """A binary STL (mm) with a fixed 80-byte header."""
    tri = vertices[faces]
    normals = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    lengths = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.divide(normals, lengths, out=np.zeros_like(normals), where=lengths > 0)
    record = np.dtype([("normal", "<f4", 3), ("vertices", "<f4", (3, 3)), ("attr", "<u2")])
    data = np.zeros(len(faces), dtype=record)
    data["normal"] = normals
    data["vertices"] = tri
    return header[:80].ljust(80, b" ") + np.uint32(len(faces)).tobytes() + data.tobytes()


def export_stl(shape: cq.Shape, path: Path, tolerance_mm: float, angular_tolerance_rad: float, header: bytes) -> Path:
    """Write ``shape`` as a binary STL at an explicit mesh tolerance, atomically."""
    vertices, faces = mesh_arrays(shape, tolerance_mm, angular_tolerance_rad)
    return write_atomic(path, stl_bytes(vertices, faces, header))


def _zero_tiny(match: re.Match) -> str:
    return "0." if int(match.group(1)) >= -np.log10(STEP_ZERO_BELOW) else match.group(0)


def step_text(text: str) -> str:
    """STEP text made repeatable: fixed time stamp and product number, float noise written as 0."""
    text = re.sub(r"'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d'", f"'{STEP_TIMESTAMP}'", text, count=1)
    # OCCT numbers its STEP products by how many it has written in this process.
    text = re.sub(r"(Open CASCADE STEP translator \S+) \d+'", r"\1 1'", text)
    # The number pattern is slow to scan over a whole file (~10-25 ms); it is applied only to the
    # lines holding an exponent this small (elsewhere it would change nothing). A number never
    # spans lines, and a line's start is preceded by no number character in the file either.
    pieces, done = [], 0
    for exponent in _STEP_EXPONENT.finditer(text):
        if exponent.start() < done or int(exponent.group(1)) < -np.log10(STEP_ZERO_BELOW):
            continue
        start = text.rfind("\n", 0, exponent.start()) + 1
        end = text.find("\n", exponent.end())
        end = len(text) if end < 0 else end
        pieces += [text[done:start], _STEP_NUMBER.sub(_zero_tiny, text[start:end])]
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def export_step(shape: cq.Shape, path: Path) -> Path:
    """Write ``shape`` as repeatable STEP, atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
        raw = Path(tmp) / "export.step"
        cq.exporters.export(Workplane("XY").add(shape), str(raw), exportType="STEP")
        text = raw.read_text(encoding="latin-1")
    return write_atomic(path, step_text(text).encode("latin-1"))
