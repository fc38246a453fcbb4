"""Check the Giuthi board's STL files, read back, against the rule core and the manifest.

Everything is measured on the meshes: pits and stores by vertical rays from above, walls by rays
in 13 directions, overhangs from face normals, bridges by rasterising the ceilings they form,
screw bores from sections across the hinge axis. The only things taken from the manifest are
the parameters the user asked for (board size in pits, seeds, screw, seed size, packing factor),
so a bug in the layout or CAD code cannot hide behind the same bug here: this module never
imports ``printables.layout``, ``printables.render`` or ``printables.cad``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import trimesh
from scipy import ndimage

from printables.check.bounds import bounds_problem
from printables.check.mesh_sections import distance_to_sides, inside, section_loops
from printables.check.results import CheckResult
from printables.check.mesh_cache import load_stl, load_stl_keyed, remembered
from printables.params.giuthi_board import (
    ENGAGEMENT_FACTOR,
    HINGE_NECK_MM,
    HINGE_WALL_MM,
    MIN_KNUCKLES,
    MIN_WALL_MM,
    OVERHANG_DEG,
    SCREWS,
    USABLE_BED_MM,
    GiuthiBoardParams,
)
from printables.rules import giuthi

KIND = "giuthi-board"
SIDES = ("left", "right")
BRIDGE_MAX_MM = 10.0  # longest unsupported horizontal span a 3D45 bridges cleanly in PLA
OVERHANG_TOLERANCE_DEG = 0.5  # 45-degree cones (chamfer round a rounded corner) mesh up to 0.3 deg steeper
WALL_TOLERANCE_MM = 0.02
COAXIAL_MM = 0.05
CONTACT_MM = 0.02  # interpenetration below this is numerical, not a collision
FACE_TO_FACE_MM = 0.1  # closed halves' playing surfaces this close count as touching
PIT_STEP_MM = 0.5  # ray spacing for pits and stores
MARK_MAX_DEPTH_MM = 1.5  # a depression shallower than this is a side mark, not a pit
KNUCKLE_STEP_MM = 0.25  # ray spacing along the hinge line
KNUCKLE_END_MM = 0.5  # rays this close to a knuckle's end are left out of its neck (chamfers, facets)
WALL_STEP_MM = 1.0  # ray spacing for wall thickness
WALL_RAY_COS = math.cos(math.radians(35))  # a ray counts a wall only if it meets both faces squarely
RIM_DROP_MM = 0.3
PLAYING_SURFACE_SHARE = 0.05  # of the plan, for a height to count as a surface rather than a feature  # a cell this far below the playing surface is inside a cavity
MIN_BED_FRACTION = 0.10  # bed contact area / footprint area
MIN_BED_SPREAD = 0.90  # bed contact extent / part extent, in x and in y
BED_Z_MM = 1e-4
# Odd offsets keep ray grids off the round coordinates where mesh edges and vertices sit.
GRID_OFFSET = (0.01731, 0.02917)
PAIR_BUDGET = 3_000_000  # ray-triangle candidate pairs per numpy batch (memory bound)


@dataclass(frozen=True)
class Cavity:
    """A pit or store found in a mesh: plan extent, depth and volume up to the rim."""

    cx: float
    cy: float
    x0: float
    x1: float
    y0: float
    y1: float
    depth: float
    volume: float
    area: float


# -- reading ------------------------------------------------------------------------------------


def load_manifest(path: Path) -> tuple[dict, GiuthiBoardParams]:
    """Read the manifest JSON and rebuild (and so re-validate) the parameters."""
    problem = bounds_problem(path)  # a pipe or a huge file beside the mesh is never read
    if problem is not None:
        raise ValueError(problem.detail)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ValueError(f"{Path(path).name} is not UTF-8 JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("params"), dict) or not isinstance(data.get("parts"), dict):
        raise ValueError(f"{Path(path).name}: not a Giuthi manifest (a JSON object with 'kind', 'params' and 'parts')")
    if data.get("kind") != KIND:
        raise ValueError(f"{path}: kind {data.get('kind')!r}, expected {KIND!r}")
    return data, GiuthiBoardParams(**data["params"])


def load_mesh(path: Path) -> trimesh.Trimesh:
    """Read an STL as one mesh with shared vertices."""
    return load_stl(path, process=True)


# -- rays ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grid:
    """Vertical rays at x0 + i*step, y0 + j*step (i < nx, j < ny)."""

    x0: float
    y0: float
    step: float
    nx: int
    ny: int

    def xy(self) -> tuple[np.ndarray, np.ndarray]:
        """Ray coordinates as (ny, nx) arrays."""
        xs = self.x0 + self.step * np.arange(self.nx)
        ys = self.y0 + self.step * np.arange(self.ny)
        return np.meshgrid(xs, ys)


def grid_over(lo: np.ndarray, hi: np.ndarray, step: float) -> Grid:
    """A ray grid covering the plan box lo..hi with one ray per step."""
    x0, y0 = lo[0] - step + GRID_OFFSET[0], lo[1] - step + GRID_OFFSET[1]
    nx = int(math.ceil((hi[0] - x0) / step)) + 2
    ny = int(math.ceil((hi[1] - y0) / step)) + 2
    return Grid(x0, y0, step, nx, ny)


def _span3(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least and greatest of each row of an (n, 3) array (elementwise: numpy reduces a 3-long axis slowly)."""
    a, b, c = values[:, 0], values[:, 1], values[:, 2]
    return np.minimum(np.minimum(a, b), c), np.maximum(np.maximum(a, b), c)


def _row_extents(plan: np.ndarray, y: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x extent of triangles ``plan`` (k, 3, 2) within the strips y - m <= Y <= y + m (each meets its
    triangle): the hull of its sides' cuts at the strip's edges and of the corners inside it."""
    # Corners by y (v0 lowest, v2 highest): three compare-and-swaps.
    (x0, y0), (x1, y1), (x2, y2) = plan[:, 0].T, plan[:, 1].T, plan[:, 2].T
    for first, second in ((0, 1), (1, 2), (0, 1)):
        xa, ya, xb, yb = ((x0, y0), (x1, y1), (x2, y2))[first] + ((x0, y0), (x1, y1), (x2, y2))[second]
        swap = ya > yb
        xa, xb = np.where(swap, xb, xa), np.where(swap, xa, xb)
        ya, yb = np.where(swap, yb, ya), np.where(swap, ya, yb)
        corners = [(x0, y0), (x1, y1), (x2, y2)]
        corners[first], corners[second] = (xa, ya), (xb, yb)
        (x0, y0), (x1, y1), (x2, y2) = corners

    def slope(xa, ya, xb, yb):
        dy = yb - ya
        return np.where(dy > 0, (xb - xa) / np.where(dy > 0, dy, 1.0), 0.0)

    s02, s01, s12 = slope(x0, y0, x2, y2), slope(x0, y0, x1, y1), slope(x1, y1, x2, y2)
    xl, xr = np.full(len(plan), np.inf), np.full(len(plan), -np.inf)
    for yy in (np.clip(y - m, y0, y2), np.clip(y + m, y0, y2)):
        long_side = x0 + (yy - y0) * s02
        short_side = np.where(yy <= y1, x0 + (yy - y0) * s01, x1 + (yy - y1) * s12)
        xl = np.minimum(xl, np.minimum(long_side, short_side))
        xr = np.maximum(xr, np.maximum(long_side, short_side))
    for xc, yc in ((x0, y0), (x1, y1), (x2, y2)):
        near = np.abs(yc - y) <= m
        xl = np.where(near, np.minimum(xl, xc), xl)
        xr = np.where(near, np.maximum(xr, xc), xr)
    return xl, xr


# While a board is checked (check_meshes), the hits of a mesh's own vertices and faces on a grid,
# by the arrays' identity (the arrays are held, so no other array takes their id): the left half's
# top surface and its spans over the folded halves' overlap are cast on the same grid, once. One
# stack per thread.
_LOCAL = threading.local()


def _memos() -> list[dict]:
    if not hasattr(_LOCAL, "memos"):
        _LOCAL.memos = []
    return _LOCAL.memos


def mesh_hits(vertices: np.ndarray, faces: np.ndarray, grid: Grid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``vertical_hits(vertices[faces], grid)``, cast once per board check for the same arrays and
    grid (the hits are then read-only)."""
    memos = _memos()
    memo = memos[-1] if memos else None
    key = (id(vertices), id(faces), grid)
    if memo is not None and key in memo:
        return memo[key][2]
    hits = vertical_hits(vertices[faces], grid)
    if memo is not None and id(vertices) in memo["halves"]:  # not the turned copies (walls, folded)
        for array in hits:
            array.setflags(write=False)
        memo[key] = (vertices, faces, hits)
    return hits


def vertical_hits(triangles: np.ndarray, grid: Grid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where upward rays on ``grid`` cross the triangles: (ray index, z, triangle index), by ray then z.

    Each ray is tested against each triangle it may cross with barycentric coordinates. The rays
    tried for a triangle are those of each grid row within its x extent along that row, widened by
    a margin far larger than the rounding of the test (so no ray the test would take is left out),
    in the order of a scan over its bounding box: the result is that of testing the whole box.
    """
    tri = triangles
    (xmin, xmax), (ymin, ymax) = _span3(tri[:, :, 0]), _span3(tri[:, :, 1])
    i0 = np.clip(np.ceil((xmin - grid.x0) / grid.step), 0, grid.nx).astype(np.int64)
    i1 = np.clip(np.floor((xmax - grid.x0) / grid.step), -1, grid.nx - 1).astype(np.int64)
    j0 = np.clip(np.ceil((ymin - grid.y0) / grid.step), 0, grid.ny).astype(np.int64)
    j1 = np.clip(np.floor((ymax - grid.y0) / grid.step), -1, grid.ny - 1).astype(np.int64)
    a, b, cc = tri[:, 0], tri[:, 1], tri[:, 2]
    # Corner coordinates gathered per pair from contiguous columns (the same numbers).
    cx, cy = np.ascontiguousarray(cc[:, 0]), np.ascontiguousarray(cc[:, 1])
    az, bz, cz = np.ascontiguousarray(a[:, 2]), np.ascontiguousarray(b[:, 2]), np.ascontiguousarray(cc[:, 2])
    # The barycentric test's terms per triangle, computed as the test has always computed them.
    e0, e1 = b[:, 1] - cc[:, 1], cc[:, 0] - b[:, 0]
    e2, e3 = cc[:, 1] - a[:, 1], a[:, 0] - cc[:, 0]
    d = e0 * (a[:, 0] - cc[:, 0]) + e1 * (a[:, 1] - cc[:, 1])
    live = np.flatnonzero((i1 >= i0) & (j1 >= j0) & (np.abs(d) > 1e-12))  # a flat-on triangle is hit by no ray
    empty = np.zeros(0)
    if len(live) == 0:
        return empty.astype(np.int64), empty, empty.astype(np.int64)
    rows = j1[live] - j0[live] + 1
    row_tri = np.repeat(np.arange(len(live)), rows)
    jj_rows = np.repeat(j0[live], rows) + np.arange(len(row_tri)) - np.repeat(np.cumsum(rows) - rows, rows)
    t_rows = live[row_tri]
    ia, ib = i0[t_rows], i1[t_rows]
    # Along the rows of a triangle more than two rays wide, only the rays near it. A ray the test
    # takes lies within 8 eps L^2 / (shortest side) of its triangle (L: the box's size).
    wide = np.flatnonzero(i1[t_rows] - i0[t_rows] >= 2)
    if len(wide):
        tw = t_rows[wide]
        plan = tri[tw][:, :, :2]
        # Each corner less the one before it (np.roll's pairing), per coordinate.
        (ax_, ay_), (bx_, by_), (cx_, cy_) = plan[:, 0].T, plan[:, 1].T, plan[:, 2].T
        lengths = [np.sqrt((u - w) ** 2 + (v - q) ** 2)
                   for (u, v), (w, q) in (((ax_, ay_), (cx_, cy_)), ((bx_, by_), (ax_, ay_)), ((cx_, cy_), (bx_, by_)))]
        sides = np.minimum(np.minimum(lengths[0], lengths[1]), lengths[2])
        size = np.maximum(xmax[tw] - xmin[tw], ymax[tw] - ymin[tw])
        m = np.minimum(1e-9 + 1e-13 * size * size / sides, size)  # never wider than the box
        xl, xr = _row_extents(plan, grid.y0 + jj_rows[wide] * grid.step, m)
        ia[wide] = np.maximum(ia[wide], np.ceil((xl - m - grid.x0) / grid.step).astype(np.int64))
        ib[wide] = np.minimum(ib[wide], np.floor((xr + m - grid.x0) / grid.step).astype(np.int64))
    counts = np.maximum(ib - ia + 1, 0)
    keep = np.flatnonzero(counts)
    t_rows, jj_rows, ia, counts = t_rows[keep], jj_rows[keep], ia[keep], counts[keep]
    rays, zs, tris = [], [], []
    start = 0
    while start < len(t_rows):
        # Batches of rows whose (ray, triangle) pairs fit the memory budget.
        csum = np.cumsum(counts[start:])
        stop = start + max(1, int(np.searchsorted(csum, PAIR_BUDGET)))
        c = counts[start:stop]
        t = np.repeat(t_rows[start:stop], c)
        jj = np.repeat(jj_rows[start:stop], c)
        ii = np.repeat(ia[start:stop], c) + np.arange(len(t)) - np.repeat(np.cumsum(c) - c, c)
        start = stop
        px = grid.x0 + ii * grid.step
        py = grid.y0 + jj * grid.step
        dx, dy, dt = px - cx[t], py - cy[t], d[t]
        l0 = (e0[t] * dx + e1[t] * dy) / dt
        l1 = (e2[t] * dx + e3[t] * dy) / dt
        l2 = 1.0 - l0 - l1
        inside = (l0 >= 0) & (l1 >= 0) & (l2 >= 0)
        ti = t[inside]
        z = l0[inside] * az[ti] + l1[inside] * bz[ti] + l2[inside] * cz[ti]
        rays.append((jj * grid.nx + ii)[inside])
        zs.append(z)
        tris.append(ti)
    if not rays:
        return empty.astype(np.int64), empty, empty.astype(np.int64)
    ray, z, t = np.concatenate(rays), np.concatenate(zs), np.concatenate(tris)
    order = by_ray_then_z(ray, z, grid.nx * grid.ny)
    return ray[order], z[order], t[order]


def by_ray_then_z(ray: np.ndarray, z: np.ndarray, rays: int) -> np.ndarray:
    """``np.lexsort((z, ray))`` for ray numbers below ``rays``: by ray, then z, then position.

    A stable sort by z, then stable sorts by the ray number's 16-bit digits, low digit first
    (numpy sorts 16-bit integers stably by radix, far faster than lexsort's comparisons)."""
    if rays > 2**32:
        return np.lexsort((z, ray))
    order = np.argsort(z, kind="stable")
    keyed = ray[order]
    if rays > 2**16:
        order = order[np.argsort((keyed & 0xFFFF).astype(np.uint16), kind="stable")]
        keyed = ray[order] >> 16
    return order[np.argsort(keyed.astype(np.uint16), kind="stable")]


def spans(mesh_vertices: np.ndarray, faces: np.ndarray, normals: np.ndarray, grid: Grid):
    """Solid intervals along upward rays: (ray, z_in, z_out, face_in, face_out).

    A ray enters through a downward-facing triangle and leaves through an upward one. Rays whose
    crossings do not alternate (grazing an edge) are dropped rather than guessed.
    """
    ray, z, tri = mesh_hits(mesh_vertices, faces, grid)
    sign = np.sign(normals[tri, 2])
    keep = sign != 0
    ray, z, tri, sign = ray[keep], z[keep], tri[keep], sign[keep]
    # A ray through a shared edge meets both triangles at the same z with the same sign.
    dup = np.zeros(len(ray), dtype=bool)
    dup[1:] = (ray[1:] == ray[:-1]) & (np.abs(z[1:] - z[:-1]) < 1e-6) & (sign[1:] == sign[:-1])
    ray, z, tri, sign = ray[~dup], z[~dup], tri[~dup], sign[~dup]
    if len(ray) == 0:
        e = np.zeros(0)
        return e.astype(np.int64), e, e, e.astype(np.int64), e.astype(np.int64)
    starts = np.r_[0, np.nonzero(ray[1:] != ray[:-1])[0] + 1]
    lengths = np.diff(np.r_[starts, len(ray)])
    pos = np.arange(len(ray)) - np.repeat(starts, lengths)
    expected = np.where(pos % 2 == 0, -1.0, 1.0)
    bad = np.add.reduceat((sign != expected).astype(np.int64), starts) + (lengths % 2)
    good = np.repeat(bad == 0, lengths)
    ray, z, tri = ray[good], z[good], tri[good]
    return ray[0::2], z[0::2], z[1::2], tri[0::2], tri[1::2]


def _rotation_to_z(direction: np.ndarray) -> np.ndarray:
    """A rotation matrix taking the unit vector ``direction`` to +z."""
    d = direction / np.linalg.norm(direction)
    z = np.array([0.0, 0.0, 1.0])
    v = np.cross(d, z)
    c = float(d @ z)
    if np.linalg.norm(v) < 1e-12:
        return np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    vx = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + vx + vx @ vx * (1 / (1 + c))


WALL_DIRECTIONS = tuple(
    np.array(d, dtype=float) / np.linalg.norm(d)
    for d in (
        (1, 0, 0), (0, 1, 0), (0, 0, 1),
        (1, 1, 0), (1, -1, 0), (1, 0, 1), (1, 0, -1), (0, 1, 1), (0, 1, -1),
        (1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1),
    )
)


# -- per-part checks ----------------------------------------------------------------------------


def check_solid(name: str, mesh: trimesh.Trimesh) -> CheckResult:
    """One watertight, consistently wound solid with positive volume."""
    problems = []
    if not mesh.is_watertight:
        problems.append("not watertight")
    if not mesh.is_winding_consistent:
        problems.append("inconsistent winding")
    bodies = mesh.body_count
    if bodies != 1:
        problems.append(f"{bodies} separate bodies")
    volume = float(mesh.volume)
    if volume <= 0:
        problems.append(f"volume {volume:.0f} mm3 (inside out)")
    detail = "; ".join(problems) if problems else f"1 closed solid, {volume:.0f} mm3, {len(mesh.faces)} triangles"
    return CheckResult(f"{name}: solid", not problems, detail)


def check_bed_fit(name: str, mesh: trimesh.Trimesh) -> CheckResult:
    """The part's box fits the 3D45 bed less the skirt margin (turned either way in plan)."""
    ext = mesh.extents
    plan = sorted(ext[:2], reverse=True)
    bed = sorted(USABLE_BED_MM[:2], reverse=True)
    ok = plan[0] <= bed[0] + 1e-6 and plan[1] <= bed[1] + 1e-6 and ext[2] <= USABLE_BED_MM[2] + 1e-6
    return CheckResult(
        f"{name}: fits bed",
        ok,
        f"{ext[0]:.1f} x {ext[1]:.1f} x {ext[2]:.1f} mm in a usable"
        f" {USABLE_BED_MM[0]:g} x {USABLE_BED_MM[1]:g} x {USABLE_BED_MM[2]:g} mm",
    )


def check_bed_face(name: str, mesh: trimesh.Trimesh) -> CheckResult:
    """The lowest faces are flat, face down and cover enough of the footprint to hold the part."""
    zmin = mesh.bounds[0, 2]
    low = np.all(mesh.triangles[:, :, 2] <= zmin + BED_Z_MM, axis=1)
    if not low.any():
        return CheckResult(f"{name}: flat bed face", False, "no face lies on the lowest plane")
    down = mesh.face_normals[low, 2] < -0.9999
    area = float(mesh.area_faces[low].sum())
    pts = mesh.triangles[low].reshape(-1, 3)
    spread = (pts[:, :2].max(0) - pts[:, :2].min(0)) / mesh.extents[:2]
    footprint = float(mesh.extents[0] * mesh.extents[1])
    ok = bool(down.all()) and area >= MIN_BED_FRACTION * footprint and bool((spread >= MIN_BED_SPREAD).all())
    return CheckResult(
        f"{name}: flat bed face",
        ok,
        f"{area:.0f} mm2 on the bed ({100 * area / footprint:.0f} % of the footprint,"
        f" need {100 * MIN_BED_FRACTION:.0f} %), spread {spread[0]:.2f} x {spread[1]:.2f}"
        f" of the part (need {MIN_BED_SPREAD})",
    )


def top_surface(mesh: trimesh.Trimesh, step: float = PIT_STEP_MM) -> tuple[Grid, np.ndarray]:
    """Height of the topmost surface on a ray grid over the part (NaN where a ray misses)."""
    grid = grid_over(mesh.bounds[0], mesh.bounds[1], step)
    ray, z, _ = mesh_hits(mesh.vertices, mesh.faces, grid)
    top = np.full(grid.nx * grid.ny, np.nan)
    if len(ray):
        last = np.r_[ray[1:] != ray[:-1], True]
        top[ray[last]] = z[last]
    return grid, top.reshape(grid.ny, grid.nx)


def playing_surface_z(top: np.ndarray) -> float:
    """The playing surface: the highest level that makes up a good part of the top surface.

    Pit floors can cover more of the plan than the surface between them, and knuckles stand
    above it over a small area, so neither the commonest nor the highest height will do.
    """
    values = np.round(top[np.isfinite(top)], 2)
    heights, counts = np.unique(values, return_counts=True)
    common = heights[counts >= PLAYING_SURFACE_SHARE * len(values)]
    return float(common.max()) if len(common) else float(heights[np.argmax(counts)])


def find_cavities(mesh: trimesh.Trimesh, step: float = PIT_STEP_MM) -> tuple[float, list[Cavity], int]:
    """Closed depressions in the playing surface; also the count of open notches (edge-breaking)."""
    grid, top = top_surface(mesh, step)
    rim = playing_surface_z(top)
    miss = ~np.isfinite(top)
    low = np.isfinite(top) & (top < rim - RIM_DROP_MM)
    labels, count = ndimage.label(low)
    near_miss = ndimage.binary_dilation(miss, iterations=1)
    xs, ys = grid.xy()
    cavities, open_count = [], 0
    for k in range(1, count + 1):
        cells = labels == k
        if (cells & near_miss).any():
            open_count += 1
            continue
        # Cells within the rim drop of the playing surface at the cavity's edge belong to it too.
        grown = ndimage.binary_dilation(cells, iterations=2) & np.isfinite(top) & (top < rim - 1e-3)
        depth_cells = rim - top[grown]
        area = step * step * grown.sum()
        cx, cy = float(xs[grown].mean()), float(ys[grown].mean())
        cavities.append(
            Cavity(
                cx, cy, float(xs[grown].min()), float(xs[grown].max()), float(ys[grown].min()),
                float(ys[grown].max()), float(depth_cells.max()), float(depth_cells.sum() * step * step),
                float(area),
            )
        )
    return rim, sorted(cavities, key=lambda c: (c.cx, c.cy)), open_count


def split_marks(cavities: list[Cavity]) -> tuple[list[Cavity], list[Cavity]]:
    """(pits and stores, side marks): marks are the shallow depressions debossed in the margins."""
    deep = [c for c in cavities if c.depth >= MARK_MAX_DEPTH_MM]
    return deep, [c for c in cavities if c.depth < MARK_MAX_DEPTH_MM]


def classify_board(cavities: list[Cavity], n: int) -> tuple[list[Cavity], list[list[Cavity]], str]:
    """Split cavities into (stores at the two ends, [South row, North row]) or explain why not."""
    if len(cavities) != 2 * n + 2:
        return [], [], f"found {len(cavities)} cavities, the rule core's 2x{n} board has {2 * n} pits and 2 stores"
    by_x = sorted(cavities, key=lambda c: c.cx)
    stores = [by_x[0], by_x[-1]]
    pits = by_x[1:-1]
    ys = sorted(c.cy for c in pits)
    gaps = np.diff(ys)
    split = ys[int(np.argmax(gaps))] if len(gaps) else ys[0]
    south = sorted((c for c in pits if c.cy <= split), key=lambda c: c.cx)
    north = sorted((c for c in pits if c.cy > split), key=lambda c: c.cx)
    if len(south) != n or len(north) != n:
        return [], [], f"rows of {len(south)} and {len(north)} pits, expected {n} and {n}"
    for s, nn in zip(south, north):
        if abs(s.cx - nn.cx) > 1.0:
            return [], [], f"pits at x {s.cx:.1f} and {nn.cx:.1f} do not face each other across the rows"
    row_s, row_n = np.mean([c.cy for c in south]), np.mean([c.cy for c in north])
    for st in stores:
        if not (st.y0 < row_s and st.y1 > row_n):
            return [], [], f"the cavity at x {st.cx:.1f} does not run beside both rows, so it is no store"
    return stores, [south, north], ""


def overhangs(mesh: trimesh.Trimesh) -> tuple[float, list[float], float]:
    """(area of unsupported steep faces, spans of horizontal ceilings, steepest found in degrees)."""
    n = mesh.face_normals
    tri = mesh.triangles
    zmin = mesh.bounds[0, 2]
    on_bed = np.all(tri[:, :, 2] <= zmin + BED_Z_MM, axis=1)
    limit = math.sin(math.radians(OVERHANG_DEG + OVERHANG_TOLERANCE_DEG))
    steep = (-n[:, 2] > limit) & ~on_bed
    flat = steep & (n[:, 2] < -0.9999)
    sloped = steep & ~flat
    angle = float(np.degrees(np.arcsin(np.clip(-n[steep & ~flat, 2], -1, 1))).max()) if sloped.any() else 0.0
    bridge_spans = []
    if flat.any():
        levels = np.round(tri[flat][:, :, 2].mean(1), 3)
        for level in np.unique(levels):
            ceiling = tri[flat][levels == level]
            bridge_spans += _ceiling_spans(ceiling)
    return float(mesh.area_faces[sloped].sum()), bridge_spans, angle


def _ceiling_spans(ceiling: np.ndarray, step: float = 0.2) -> list[float]:
    """Widest span of each connected horizontal ceiling: twice its largest inscribed radius."""
    grid = grid_over(ceiling[:, :, :2].reshape(-1, 2).min(0), ceiling[:, :, :2].reshape(-1, 2).max(0), step)
    ray, _, _ = vertical_hits(ceiling, grid)
    mask = np.zeros(grid.nx * grid.ny, dtype=bool)
    mask[ray] = True
    mask = mask.reshape(grid.ny, grid.nx)
    labels, count = ndimage.label(mask)
    if count == 0:
        return []
    dist = ndimage.distance_transform_edt(mask) * step
    return [float(2 * dist[labels == k].max()) for k in range(1, count + 1)]


def wall_thickness(mesh: trimesh.Trimesh, step: float = WALL_STEP_MM) -> tuple[float, np.ndarray]:
    """Thinnest wall met squarely by rays in 13 directions, and where (a point in the wall)."""
    best, where = math.inf, np.zeros(3)
    for d in WALL_DIRECTIONS:
        rot = _rotation_to_z(d)
        v = mesh.vertices @ rot.T
        n = mesh.face_normals @ rot.T
        grid = grid_over(v.min(0), v.max(0), step)
        ray, z_in, z_out, f_in, f_out = spans(v, mesh.faces, n, grid)
        if len(ray) == 0:
            continue
        c_in, c_out = np.abs(n[f_in, 2]), np.abs(n[f_out, 2])
        square = (c_in >= WALL_RAY_COS) & (c_out >= WALL_RAY_COS)
        if not square.any():
            continue
        # The distance from one end of the chord to the tangent plane at the other: exact for a
        # flat wall, and within a few hundredths of a mm for the curved walls round pits.
        thick = (z_out - z_in) * np.maximum(c_in, c_out)
        thick = np.where(square, thick, np.inf)
        k = int(np.argmin(thick))
        if thick[k] < best:
            best = float(thick[k])
            j, i = divmod(int(ray[k]), grid.nx)
            p = np.array([grid.x0 + i * step, grid.y0 + j * step, (z_in[k] + z_out[k]) / 2])
            where = p @ rot  # back to the part's frame
    return best, where


# -- the pair -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bore:
    """A horizontal bore along y found in sections: axis (x, z), radius and y extent."""

    x: float
    z: float
    radius: float
    y0: float
    y1: float
    wall: float  # thinnest solid around it in its sections


def _circle_fit(pts: np.ndarray) -> tuple[float, float, float]:
    """Least-squares circle (cx, cy, r) through 2-D points."""
    a = np.c_[2 * pts, np.ones(len(pts))]
    b = (pts**2).sum(1)
    (cx, cy, c), *_ = np.linalg.lstsq(a, b, rcond=None)
    return float(cx), float(cy), float(math.sqrt(c + cx * cx + cy * cy))


def find_bores(mesh: trimesh.Trimesh, step: float = 0.25, max_radius: float = 4.0) -> list[Bore]:
    """Horizontal bores along y: small holes in sections y = const, fitted with circles.

    Only the lower half of each hole is fitted, so a teardrop's pointed roof does not bias it.
    Every section is cut at once (``mesh_sections``); a loop small enough for a bore is a hole
    when an odd number of the plane's other loops hold it.
    """
    y_lo, y_hi = mesh.bounds[0, 1], mesh.bounds[1, 1]
    ys = np.arange(y_lo + step / 2 + GRID_OFFSET[0], y_hi, step)
    loops = section_loops(mesh.vertices, mesh.faces, 1, ys)  # points are (x, z)
    size = (loops.hi - loops.lo).max(1) if len(loops) else np.zeros(0)
    small = np.flatnonzero(size <= 2.5 * max_radius)
    by_plane = np.searchsorted(loops.plane, np.arange(len(ys) + 1))
    found = []  # (y, x, z, r, wall)
    for k in small:
        plane = loops.plane[k]
        lo, hi = loops.lo[k], loops.hi[k]
        # Hosts: bigger loops around this one (tested at one of its points, not its centre,
        # which may fall inside a smaller hole of its own).
        same = np.arange(by_plane[plane], by_plane[plane + 1])
        around = same[(same != k) & np.all(loops.lo[same] <= lo, axis=1) & np.all(loops.hi[same] >= hi, axis=1)]
        hosts = [j for j in around if inside(loops.first[k], *loops.sides(j))]
        if len(hosts) % 2 == 0:
            continue  # a small island of solid, not a hole
        loop = loops.loop_points(k)
        lower = loop[loop[:, 1] <= np.median(loop[:, 1])]
        if len(lower) < 4:
            continue
        cx, cz, r = _circle_fit(lower)
        if r > max_radius:
            continue
        wall = min(distance_to_sides(loop, *loops.sides(j)) for j in hosts)
        found.append((float(ys[plane]), cx, cz, r, wall))
    bores: list[Bore] = []
    found.sort(key=lambda f: (round(f[3], 1), round(f[1], 1), round(f[2], 1), f[0]))
    group: list[tuple] = []
    for f in found + [None]:
        if group and (
            f is None
            or abs(f[3] - group[-1][3]) > 0.05
            or abs(f[1] - group[-1][1]) > 0.5
            or abs(f[2] - group[-1][2]) > 0.5
            or f[0] - group[-1][0] > 1.5 * step
        ):
            arr = np.array(group)
            bores.append(Bore(float(arr[:, 1].mean()), float(arr[:, 2].mean()), float(arr[:, 3].mean()),
                              float(arr[:, 0].min() - step / 2), float(arr[:, 0].max() + step / 2),
                              float(arr[:, 4].min())))
            group = []
        if f is not None:
            group.append(f)
    return sorted(bores, key=lambda b: b.y0)


def interference(a: trimesh.Trimesh, b_vertices: np.ndarray, b_faces: np.ndarray,
                 step: float = 0.5) -> tuple[float, float]:
    """Largest overlap along vertical rays between solid ``a`` and solid b, and the total overlap volume."""
    lo = np.maximum(a.bounds[0], b_vertices.min(0))
    hi = np.minimum(a.bounds[1], b_vertices.max(0))
    if np.any(hi[:2] < lo[:2]) or hi[2] < lo[2]:
        return 0.0, 0.0
    grid = grid_over(lo, hi, step)
    bn = _normals(b_vertices, b_faces)
    ra, sa, ea, _, _ = spans(a.vertices, a.faces, a.face_normals, grid)
    rb, sb, eb, _, _ = spans(b_vertices, b_faces, bn, grid)
    if len(ra) == 0 or len(rb) == 0:
        return 0.0, 0.0
    # Pair every span of a with every span of b on the same ray.
    order_b = np.argsort(rb, kind="stable")
    rb, sb, eb = rb[order_b], sb[order_b], eb[order_b]
    left = np.searchsorted(rb, ra, "left")
    right = np.searchsorted(rb, ra, "right")
    counts = right - left
    ia = np.repeat(np.arange(len(ra)), counts)
    ib = np.repeat(left, counts) + np.arange(len(ia)) - np.repeat(np.cumsum(counts) - counts, counts)
    if len(ia) == 0:
        return 0.0, 0.0
    overlap = np.minimum(ea[ia], eb[ib]) - np.maximum(sa[ia], sb[ib])
    overlap = np.clip(overlap, 0, None)
    return float(overlap.max()), float(overlap.sum() * step * step)


def _normals(vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    t = vertices[faces]
    n = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
    return n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-18)


def fold(vertices: np.ndarray, axis_x: float, axis_z: float) -> np.ndarray:
    """Turn points 180 degrees about the line x = axis_x, z = axis_z (along y)."""
    out = vertices.copy()
    out[:, 0] = 2 * axis_x - vertices[:, 0]
    out[:, 2] = 2 * axis_z - vertices[:, 2]
    return out


# -- capacity -----------------------------------------------------------------------------------


def seed_volume(p: GiuthiBoardParams) -> tuple[float, str]:
    """Volume of one seed from the seed model's parameters, and where it came from."""
    try:
        from printables.params.giuthi_seeds import SeedParams, seed_volume_mm3
    except ImportError:  # the seed model is optional for checking a board
        a, h = p.seed_diameter_mm / 2, p.seed_height_mm
        return 2 / 3 * math.pi * a * a * h, "half a spheroid from the board's seed size (at least a bean's)"
    try:
        seeds = SeedParams(seed_diameter_mm=p.seed_diameter_mm, seed_height_mm=p.seed_height_mm)
    except ValueError as error:
        a, h = p.seed_diameter_mm / 2, p.seed_height_mm
        return 2 / 3 * math.pi * a * a * h, f"half a spheroid (the seed model refused this size: {error})"
    return seed_volume_mm3(seeds), "seed model (printables.params.giuthi_seeds)"


def seeds_held(volume: float, seed_mm3: float, packing: float) -> int:
    """Whole seeds that fit, poured loosely, in ``volume`` up to the rim."""
    return int(math.floor(volume * packing / seed_mm3 + 1e-9))


# -- the whole check ----------------------------------------------------------------------------


def check_board(manifest_path: Path, seed: tuple[float, str] | None = None) -> list[CheckResult]:
    """Every check of the two halves named in a manifest, read back from their STL files."""
    manifest_path = Path(manifest_path)
    try:
        data, p = load_manifest(manifest_path)
        parts = data["parts"]
        read = {side: load_stl_keyed(manifest_path.parent / parts[side], process=True) for side in SIDES}
    except (OSError, KeyError, TypeError, ValueError) as error:
        return [CheckResult("read board", False, f"{type(error).__name__}: {error}")]
    meshes = {side: mesh for side, (mesh, _) in read.items()}
    # The results are a function of the parameters, the halves' bytes and the seed volume alone: a
    # board checked before in this process (giuthi-ko's is giuthi-default's) is not measured again.
    # (reprs: 0.0 and -0.0, 1 and 1.0 are equal but print apart)
    key = ("board", repr(dataclasses.astuple(p)), *(read[side][1] for side in SIDES), repr(seed))
    return remembered(key, lambda: check_meshes(meshes, p, seed))


def manifest_for(stl_path: Path) -> Path:
    """The manifest written beside a half: ``giuthi-board-left-2x6-4seeds.stl`` -> ``giuthi-board-2x6-4seeds.json``."""
    stl_path = Path(stl_path)
    stem = stl_path.stem
    for side in SIDES:
        stem = stem.replace(f"giuthi-board-{side}-", "giuthi-board-", 1)
    return stl_path.with_name(f"{stem}.json")


def check_stl_file(stl_path: Path) -> list[CheckResult]:
    """Check the board a half's STL belongs to (both halves are needed for the hinge checks)."""
    manifest = manifest_for(stl_path)
    if not manifest.exists():
        return [CheckResult("manifest", False, f"{manifest.name} not found beside {Path(stl_path).name}")]
    return check_board(manifest)


def check_meshes(meshes: dict[str, trimesh.Trimesh], p: GiuthiBoardParams,
                 seed: tuple[float, str] | None = None) -> list[CheckResult]:
    """Every check of a board given its two halves as meshes (in open-board position)."""
    memos = _memos()
    memos.append({"halves": {id(m.vertices) for m in meshes.values()}})
    try:
        return _check_meshes(meshes, p, seed)
    finally:
        memos.pop()


def _check_meshes(meshes: dict[str, trimesh.Trimesh], p: GiuthiBoardParams,
                  seed: tuple[float, str] | None = None) -> list[CheckResult]:
    results: list[CheckResult] = []
    for side in SIDES:
        m = meshes[side]
        results += [check_solid(side, m), check_bed_fit(side, m), check_bed_face(side, m)]
    results += check_cavities(meshes, p, seed)
    for side in SIDES:
        results += check_printability(side, meshes[side])
    results += check_hinge(meshes, p)
    return results


def check_cavities(meshes: dict[str, trimesh.Trimesh], p: GiuthiBoardParams,
                   seed: tuple[float, str] | None = None) -> list[CheckResult]:
    """Pits and stores against the rule core's board, and their capacity against its loads."""
    n = p.pits_per_row
    giuthi.validate_parameters(n, p.seeds_per_pit)
    found: list[Cavity] = []
    per_half = {}
    rims = {}
    marks = {}
    for side in SIDES:
        rim, cavities, _ = find_cavities(meshes[side])
        rims[side] = rim
        per_half[side], marks[side] = split_marks(cavities)
        found += per_half[side]
    stores, rows, why = classify_board(found, n)
    level = abs(rims["left"] - rims["right"]) <= 0.01
    results = [CheckResult("playing surfaces level", level,
                           f"left {rims['left']:.2f} mm, right {rims['right']:.2f} mm above the bed")]
    if why:
        return results + [CheckResult("pits and stores", False, why)]
    results.append(check_side_marks(marks, rows))
    halves_ok = all(len(per_half[s]) == n + 1 for s in SIDES)
    pits = rows[0] + rows[1]
    results.append(
        CheckResult(
            "pits and stores",
            halves_ok,
            f"2 rows of {n} pits and 2 stores (North's at x {stores[0].cx:.0f}, South's at x {stores[1].cx:.0f},"
            f" each on its owner's right); per half {[len(per_half[s]) for s in SIDES]};"
            f" pits {min(c.depth for c in pits):.1f}-{max(c.depth for c in pits):.1f} mm deep,"
            f" {min(c.volume for c in pits):.0f}-{max(c.volume for c in pits):.0f} mm3; stores"
            f" {min(c.depth for c in stores):.1f} mm deep, {min(c.volume for c in stores):.0f} mm3",
        )
    )
    # The seed volume measured on the printed sprue's STL when one is given, else the seed model's.
    seed_mm3, source = seed if seed is not None else seed_volume(p)
    pack = p.packing_factor
    need_pit = giuthi.required_pit_capacity(n, p.seeds_per_pit)
    need_store = giuthi.required_store_capacity(n, p.seeds_per_pit)
    pit_holds = min(seeds_held(c.volume, seed_mm3, pack) for c in pits)
    store_holds = min(seeds_held(c.volume, seed_mm3, pack) for c in stores)
    total = 2 * n * p.seeds_per_pit
    closed_holds = seeds_held(sum(c.volume for c in found), seed_mm3, pack)
    basis = f"seed {seed_mm3:.0f} mm3 ({source}), packing factor {pack:g}, heaping not counted"
    results += [
        CheckResult("pit capacity", pit_holds >= need_pit,
                    f"smallest pit holds {pit_holds} seeds; the rule core's 99.9th percentile pit load"
                    f" is {need_pit}; {basis}"),
        CheckResult("store capacity", store_holds >= need_store,
                    f"smallest store holds {store_holds} seeds; 99.9th percentile store load is {need_store}"),
        CheckResult("closed board holds all seeds", closed_holds >= total,
                    f"pits and stores of both halves hold {closed_holds} seeds, the game has {total}"),
    ]
    return results


def check_side_marks(marks: dict[str, list[Cavity]], rows: list[list[Cavity]]) -> CheckResult:
    """Each half marks both players' sides in its margins: a line of dimples along South's row
    (one beside each pit), one groove along North's, each running the length of the row."""
    south_y = min(c.y0 for c in rows[0])
    north_y = max(c.y1 for c in rows[1])
    problems, counts = [], []
    for side in SIDES:
        pits = [c for row in rows for c in row if (c.cx < 0) == (side == "left")]
        x0, x1 = min(c.cx for c in pits), max(c.cx for c in pits)
        south = [m for m in marks[side] if m.cy < south_y]
        north = [m for m in marks[side] if m.cy > north_y]
        n_col = len(pits) // 2
        counts.append(f"{side}: {len(south)} dimples, {len(north)} groove(s)")
        dots_ok = len(south) == n_col and all(m.x1 - m.x0 < 5.0 for m in south) and \
            min(m.cx for m in south) <= x0 + 1.0 and max(m.cx for m in south) >= x1 - 1.0 if south else False
        line_ok = len(north) == 1 and north[0].x0 <= x0 and north[0].x1 >= x1
        if not dots_ok:
            problems.append(f"{side} half: South's side needs a dimple beside each of its {n_col} pits")
        if not line_ok:
            problems.append(f"{side} half: North's side needs one groove along its row")
    return CheckResult("player sides marked", not problems,
                       "; ".join(problems) if problems else
                       "South's dimples and North's groove in the margins: " + "; ".join(counts))


def check_printability(side: str, mesh: trimesh.Trimesh) -> list[CheckResult]:
    """Overhangs, bridges and wall thickness from the mesh alone."""
    steep_area, bridge_spans, angle = overhangs(mesh)
    longest = max(bridge_spans, default=0.0)
    thinnest, where = wall_thickness(mesh)
    return [
        CheckResult(
            f"{side}: overhangs",
            steep_area <= 0.0,
            f"{steep_area:.2f} mm2 of sloped faces steeper than {OVERHANG_DEG:g} deg from vertical"
            + (f" (steepest {angle:.1f} deg)" if steep_area > 0 else ""),
        ),
        CheckResult(
            f"{side}: bridges",
            longest <= BRIDGE_MAX_MM,
            f"{len(bridge_spans)} horizontal ceilings, widest span {longest:.1f} mm (at most {BRIDGE_MAX_MM:g})",
        ),
        CheckResult(
            f"{side}: walls",
            thinnest >= MIN_WALL_MM - WALL_TOLERANCE_MM,
            f"thinnest wall {thinnest:.2f} mm at ({where[0]:.1f}, {where[1]:.1f}, {where[2]:.1f})"
            f" (at least {MIN_WALL_MM:g})",
        ),
    ]


def check_hinge(meshes: dict[str, trimesh.Trimesh], p: GiuthiBoardParams) -> list[CheckResult]:
    """Screw bores coaxial and sized, halves clear of each other open flat and folded, face to face."""
    left, right = meshes["left"], meshes["right"]
    bores = {side: find_bores(meshes[side]) for side in SIDES}
    d = SCREWS[p.screw]
    results = []
    if not bores["left"] or not bores["right"]:
        return [CheckResult("screw holes", False,
                            f"bores found: left {len(bores['left'])}, right {len(bores['right'])}")]
    every = bores["left"] + bores["right"]
    axis_x = float(np.mean([b.x for b in every]))
    axis_z = float(np.mean([b.z for b in every]))
    off = max(math.hypot(b.x - axis_x, b.z - axis_z) for b in every)
    pilot = [2 * b.radius for b in bores["left"]]
    clear = [2 * b.radius for b in bores["right"]]
    sized = all(0.7 * d <= v <= 0.85 * d for v in pilot) and all(d + 0.1 <= v <= d + 0.6 for v in clear)
    bite = min(b.y1 - b.y0 for b in bores["left"])
    # The pilot bore runs half a millimetre past the screw's tip and starts in the hinge gap.
    engaged = bite - 0.5
    walls = sorted(every, key=lambda b: b.wall)
    thinnest = walls[0]
    results += [
        CheckResult("screw holes coaxial", off <= COAXIAL_MM,
                    f"{len(bores['left'])} left and {len(bores['right'])} right bores on one axis at"
                    f" x {axis_x:.2f}, z {axis_z:.2f}; worst off by {off:.3f} mm (at most {COAXIAL_MM})"),
        CheckResult("screw holes sized", sized,
                    f"pilot {', '.join(f'{v:.2f}' for v in pilot)} mm in the left (biting) half, clearance"
                    f" {', '.join(f'{v:.2f}' for v in clear)} mm in the right (turning) half for a {d:g} mm screw"),
        CheckResult("screw engagement", engaged >= ENGAGEMENT_FACTOR * d - 0.3,
                    f"pilot bores {', '.join(f'{b.y1 - b.y0:.1f}' for b in bores['left'])} mm long: the screw"
                    f" bites at least {engaged:.1f} mm ({ENGAGEMENT_FACTOR:g} x d = {ENGAGEMENT_FACTOR * d:.1f})"),
        CheckResult("hinge walls", thinnest.wall >= HINGE_WALL_MM - WALL_TOLERANCE_MM,
                    "plastic round each bore, thinnest first: "
                    + ", ".join(f"{b.wall:.2f} mm (bore at y {b.y0:.0f}-{b.y1:.0f})" for b in walls)
                    + f" (at least {HINGE_WALL_MM:g})"),
    ]
    results += check_knuckles(meshes, axis_x, axis_z)
    worst_open, _ = interference(left, right.vertices, right.faces, step=0.25)
    folded = fold(right.vertices, axis_x, axis_z)
    # A half-turn is a proper rotation: the folded half keeps its winding.
    worst_fold, vol_fold = interference(left, folded, right.faces)
    results += [
        CheckResult("halves clear open flat", worst_open <= CONTACT_MM,
                    f"deepest overlap {worst_open:.3f} mm along vertical rays"),
        CheckResult("halves clear folded", worst_fold <= CONTACT_MM,
                    f"right half turned 180 deg about the bore axis: deepest overlap {worst_fold:.3f} mm"
                    f" ({vol_fold:.1f} mm3)"),
        _face_to_face(left, folded, right.faces),
    ]
    return results


@dataclass(frozen=True)
class KnuckleRun:
    """A knuckle found on the hinge line: its half, its y extent, and its thinnest neck chord."""

    side: str
    y0: float
    y1: float
    neck: float


def find_knuckles(meshes: dict[str, trimesh.Trimesh], axis_x: float, axis_z: float,
                  step: float = KNUCKLE_STEP_MM) -> list[KnuckleRun]:
    """Knuckles along the hinge line, from vertical rays in the plane x = axis_x.

    Between the halves' fold faces only the knuckles are solid: a ray there meets one half's
    knuckle or nothing. What it crosses of that knuckle (its bore left out) is the neck chord:
    everything that holds the knuckle's far side to its half passes through this plane.
    """
    y_lo = min(m.bounds[0, 1] for m in meshes.values())
    y_hi = max(m.bounds[1, 1] for m in meshes.values())
    grid = Grid(axis_x + GRID_OFFSET[0] * 0.1, y_lo + GRID_OFFSET[1], step, 1, int((y_hi - y_lo) / step) + 1)
    ys = grid.y0 + step * np.arange(grid.ny)
    owner = np.full(grid.ny, "", dtype=object)
    chord = np.zeros(grid.ny)
    for side in SIDES:
        m = meshes[side]
        ray, z0, z1, _, _ = spans(m.vertices, m.faces, m.face_normals, grid)
        above = z1 > axis_z  # a knuckle reaches over the axis; anything lower is no knuckle
        sums = np.bincount(ray, weights=(z1 - z0), minlength=grid.ny)
        hit = np.zeros(grid.ny, dtype=bool)
        hit[ray[above]] = True
        owner[hit] = np.where(owner[hit] == "", side, "both")
        chord[hit] = sums[hit]
    runs: list[KnuckleRun] = []
    start = None
    for j in range(grid.ny + 1):
        o = owner[j] if j < grid.ny else ""
        if start is not None and o != owner[start]:
            inner = slice(start + int(KNUCKLE_END_MM / step), max(start + 1, j - int(KNUCKLE_END_MM / step)))
            runs.append(KnuckleRun(str(owner[start]), float(ys[start]), float(ys[j - 1]),
                                   float(chord[inner].min())))
            start = None
        if start is None and o != "":
            start = j
    return runs


def check_knuckles(meshes: dict[str, trimesh.Trimesh], axis_x: float, axis_z: float) -> list[CheckResult]:
    """At least three knuckles alternating between the halves along the fold, each on a thick neck."""
    runs = find_knuckles(meshes, axis_x, axis_z)
    order = [r.side for r in runs]
    alternate = all(a != b for a, b in zip(order, order[1:])) and "both" not in order
    names = ", ".join(f"{r.side} {r.y0:.0f}-{r.y1:.0f}" for r in runs)
    thinnest = min(runs, key=lambda r: r.neck) if runs else None
    return [
        CheckResult("hinge knuckles alternate", len(runs) >= MIN_KNUCKLES and alternate,
                    f"{len(runs)} knuckles along the fold (at least {MIN_KNUCKLES}, alternating halves): {names or 'none'}"),
        CheckResult("hinge necks", thinnest is not None and thinnest.neck >= HINGE_NECK_MM - WALL_TOLERANCE_MM,
                    (f"thinnest neck {thinnest.neck:.2f} mm of plastic across the hinge line ({thinnest.side} knuckle"
                     f" at y {thinnest.y0:.0f}-{thinnest.y1:.0f}; at least {HINGE_NECK_MM:g})")
                    if thinnest else "no knuckles found on the hinge line"),
    ]


def _face_to_face(left: trimesh.Trimesh, folded: np.ndarray, faces: np.ndarray) -> CheckResult:
    """The folded right half's playing surface rests on the left's: the commonest gap is ~0."""
    lo = np.maximum(left.bounds[0], folded.min(0))
    hi = np.minimum(left.bounds[1], folded.max(0))
    grid = grid_over(lo, hi, 1.0)
    ray_a, z_a, _ = vertical_hits(left.triangles, grid)
    ray_b, z_b, _ = vertical_hits(folded[faces], grid)
    if len(ray_a) == 0 or len(ray_b) == 0:
        return CheckResult("closes face to face", False, "the folded halves do not lie over each other")
    top_a = np.full(grid.nx * grid.ny, np.nan)
    bottom_b = np.full(grid.nx * grid.ny, np.nan)
    last = np.r_[ray_a[1:] != ray_a[:-1], True]
    top_a[ray_a[last]] = z_a[last]
    first = np.r_[True, ray_b[1:] != ray_b[:-1]]
    bottom_b[ray_b[first]] = z_b[first]
    # Compare only where the left half shows its playing surface (not into the pits).
    rim = playing_surface_z(top_a.reshape(grid.ny, grid.nx))
    gap = (bottom_b - top_a)[np.abs(top_a - rim) < 0.01]
    gap = gap[np.isfinite(gap)]
    if len(gap) == 0:
        return CheckResult("closes face to face", False, "the folded right half covers none of the left's playing surface")
    values, counts = np.unique(np.round(gap, 2), return_counts=True)
    common = float(values[np.argmax(counts)])
    share = float(counts.max() / len(gap))
    ok = abs(common) <= FACE_TO_FACE_MM and share >= 0.5
    return CheckResult("closes face to face", ok,
                       f"playing surfaces {common:.2f} mm apart over {100 * share:.0f} % of the left's surface")
