"""Read the Giuthi seed sprue's STL back and check that it prints and clips as promised.

Everything is measured from the mesh, not from the model code: horizontal sections are rasterised
(even-odd fill of the section's segments) and measured with distance transforms. Seeds are what is
left of the bed footprint after an opening wider than any gate; gates are the rest of the footprint.
A gate's narrowest width is the largest erosion under which its two seeds stay connected through
it. A seed's volume is the sum of its faces' signed column volumes (divergence theorem) over its
footprint, which the gates do not change, since their walls are vertical and their bottom is at z = 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import trimesh
from scipy import ndimage

from printables.check.results import CheckResult
from printables.check.mesh_cache import kept, load_stl, load_stl_keyed
from printables.params.giuthi_seeds import (
    MAX_CUT_AREA_MM2,
    MAX_GATE_HEIGHT_MM,
    MAX_GATE_WIDTH_MM,
    MIN_GATE_HEIGHT_MM,
    MIN_GATE_WIDTH_MM,
    SEEDS_PER_SPRUE,
    SeedParams,
    seed_count,
    seed_volume_mm3,
    seed_width_mm,
)

PIXEL_MM = 0.025  # raster step for sections: widths come out within about one step
BED_SECTION_Z_MM = 0.01  # just above the bed: the footprint, clear of the bottom faces
OPENING_RADIUS_MM = MAX_GATE_WIDTH_MM / 2 + 0.1  # removes every gate, keeps a seed's disc
MIN_SEED_AREA_MM2 = 10.0  # a footprint piece smaller than this is debris, not a seed
FLAT_BASE_MIN_FRACTION = 0.95  # share of a seed's footprint that must be bottom face on the bed
BED_SIZE_MM = (255.0, 155.0, 170.0)  # Dremel 3D45
VOLUME_SPREAD_MAX = 0.01  # seeds on one sprue should be alike to 1 %
SIZE_TOLERANCE_MM = 0.1
VOLUME_TOLERANCE = 0.02
ELLIPSE_FILL_TOLERANCE = 0.02  # footprint area / area of its moment ellipse: 1 for an ellipse, 0.955 for a box


@dataclass(frozen=True)
class GateMeasure:
    """One gate read from the mesh: the seeds it joins and its sizes in mm."""

    seeds: tuple[int, int]
    narrowest_mm: float
    widest_mm: float
    height_mm: float
    necked: bool  # narrowest next to each seed, wider in between


@dataclass(frozen=True)
class SeedMeasure:
    """One seed read from the mesh (mm, mm3)."""

    centre: tuple[float, float]
    diameter_mm: float  # of the circle with the footprint's area
    # The axes of the ellipse with the footprint's second moments (an ellipse's own axes; the
    # few pixels of gate root at its rim barely move them, unlike its bounding box).
    length_mm: float  # along x (the rows)
    width_mm: float  # along y
    height_mm: float
    volume_mm3: float
    base_fraction: float  # share of its footprint that is a bottom face on the bed


@dataclass(frozen=True)
class SprueMeasure:
    """Everything the checks need from one sprue STL."""

    watertight: bool
    bodies: int
    volume_mm3: float
    size_mm: tuple[float, float, float]
    seeds: tuple[SeedMeasure, ...]
    seeds_above_gates: int
    gates: tuple[GateMeasure, ...]
    debris: int  # footprint pieces that are neither seed nor gate


@dataclass(frozen=True)
class _Grid:
    """A raster over the part's plan: origin (x, y) of pixel (0, 0)'s corner, pixel size, shape."""

    x0: float
    y0: float
    px: float
    rows: int
    cols: int

    def index(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Row and column of the pixels holding points ``xy`` (n, 2), clipped to the grid."""
        col = np.clip(np.floor((xy[:, 0] - self.x0) / self.px).astype(int), 0, self.cols - 1)
        row = np.clip(np.floor((xy[:, 1] - self.y0) / self.px).astype(int), 0, self.rows - 1)
        return row, col

    def centre(self, row: float, col: float) -> tuple[float, float]:
        """Plan position of a (possibly fractional) pixel index."""
        return (self.x0 + (col + 0.5) * self.px, self.y0 + (row + 0.5) * self.px)


def load_mesh(stl_path: Path | str) -> trimesh.Trimesh:
    """Read an STL as one mesh, resting on z = 0 as the slicer would place it."""
    return _on_bed(load_stl(stl_path, process=True))


def _on_bed(mesh: trimesh.Trimesh) -> trimesh.Trimesh:
    mesh.apply_translation((0.0, 0.0, -float(mesh.bounds[0][2])))
    return mesh


def _grid_for(mesh: trimesh.Trimesh, px: float = PIXEL_MM) -> _Grid:
    """A raster covering the mesh's plan with a margin of a few pixels."""
    (xmin, ymin, _), (xmax, ymax, _) = mesh.bounds
    margin = 4 * px
    cols = int(np.ceil((xmax - xmin + 2 * margin) / px))
    rows = int(np.ceil((ymax - ymin + 2 * margin) / px))
    return _Grid(float(xmin - margin), float(ymin - margin), px, rows, cols)


def section_mask(mesh: trimesh.Trimesh, z_mm: float, grid: _Grid) -> np.ndarray:
    """Pixels (rows, cols) whose centres lie inside the mesh's horizontal section at ``z_mm``."""
    segments = trimesh.intersections.mesh_plane(mesh, (0.0, 0.0, 1.0), (0.0, 0.0, z_mm))
    mask = np.zeros((grid.rows, grid.cols + 1), dtype=np.uint8)
    if len(segments) == 0:
        return mask[:, :-1].astype(bool)
    p0, p1 = segments[:, 0, :2], segments[:, 1, :2]
    keep = p0[:, 1] != p1[:, 1]
    p0, p1 = p0[keep], p1[keep]
    ylo, yhi = np.minimum(p0[:, 1], p1[:, 1]), np.maximum(p0[:, 1], p1[:, 1])
    # Rows whose centre y lies in [ylo, yhi): half-open, so a vertex on a row counts once.
    first = np.ceil((ylo - grid.y0) / grid.px - 0.5).astype(int)
    last = np.ceil((yhi - grid.y0) / grid.px - 0.5).astype(int)
    counts = np.maximum(last - first, 0)
    seg = np.repeat(np.arange(len(p0)), counts)
    row = np.repeat(first, counts) + (np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts))
    yc = grid.y0 + (row + 0.5) * grid.px
    t = (yc - p0[seg, 1]) / (p1[seg, 1] - p0[seg, 1])
    xc = p0[seg, 0] + t * (p1[seg, 0] - p0[seg, 0])
    col = np.clip(np.ceil((xc - grid.x0) / grid.px - 0.5).astype(int), 0, grid.cols)
    inside = (row >= 0) & (row < grid.rows)
    # Even-odd rule: a pixel is inside when an odd number of crossings lie to its left. Only
    # parities count: each pixel's crossings, odd or even, then their running parity along the row.
    pixel, crossings = np.unique(row[inside] * (grid.cols + 1) + col[inside], return_counts=True)
    odd = np.zeros(mask.size, dtype=np.uint8)
    odd[pixel[(crossings & 1) == 1]] = 1
    inside_left = np.bitwise_xor.accumulate(odd.reshape(mask.shape), axis=1)
    return np.ascontiguousarray(inside_left[:, :-1]).view(bool)


def _count_pieces(mask: np.ndarray, grid: _Grid) -> int:
    """Connected pieces of a mask larger than debris."""
    labels, n = ndimage.label(mask)
    if n == 0:
        return 0
    areas = np.bincount(labels.ravel())[1:] * grid.px**2
    return int((areas >= MIN_SEED_AREA_MM2).sum())


def _bottom_coverage(mesh: trimesh.Trimesh, grid: _Grid) -> np.ndarray:
    """Pixels covered by downward faces lying on the bed (z = 0)."""
    normals = mesh.face_normals
    tri = mesh.triangles
    on_bed = (normals[:, 2] < -0.999) & (np.abs(tri[:, :, 2]).max(axis=1) < 1e-4)
    covered = np.zeros((grid.rows, grid.cols), dtype=bool)
    for t in tri[on_bed][:, :, :2]:
        lo = np.floor((t.min(axis=0) - (grid.x0, grid.y0)) / grid.px).astype(int)
        hi = np.ceil((t.max(axis=0) - (grid.x0, grid.y0)) / grid.px).astype(int)
        cols = np.arange(max(lo[0], 0), min(hi[0] + 1, grid.cols))
        rows = np.arange(max(lo[1], 0), min(hi[1] + 1, grid.rows))
        if len(cols) == 0 or len(rows) == 0:
            continue
        cx, cy = np.meshgrid(grid.x0 + (cols + 0.5) * grid.px, grid.y0 + (rows + 0.5) * grid.px)
        a, b, c = t
        # Barycentric sign test, for either winding.
        d1 = (cx - b[0]) * (a[1] - b[1]) - (a[0] - b[0]) * (cy - b[1])
        d2 = (cx - c[0]) * (b[1] - c[1]) - (b[0] - c[0]) * (cy - c[1])
        d3 = (cx - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (cy - a[1])
        neg = (d1 < 0) | (d2 < 0) | (d3 < 0)
        pos = (d1 > 0) | (d2 > 0) | (d3 > 0)
        covered[np.ix_(rows, cols)] |= ~(neg & pos)
    return covered


def _dilated(mask: np.ndarray) -> np.ndarray:
    """``ndimage.binary_dilation(mask)`` (the cross: each pixel and its four neighbours, nothing
    beyond the edge), by shifted copies."""
    out = mask.copy()
    out[1:] |= mask[:-1]
    out[:-1] |= mask[1:]
    out[:, 1:] |= mask[:, :-1]
    out[:, :-1] |= mask[:, 1:]
    return out


def _dilated_in_box(mask: np.ndarray, iterations: int) -> np.ndarray:
    """``ndimage.binary_dilation(mask, iterations=iterations)``, made in the box of ``mask``'s pixels
    widened by ``iterations`` (no pixel farther can be reached)."""
    out = np.zeros_like(mask)
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if len(rows) == 0:
        return out
    box = (slice(max(rows[0] - iterations, 0), rows[-1] + 1 + iterations),
           slice(max(cols[0] - iterations, 0), cols[-1] + 1 + iterations))
    out[box] = ndimage.binary_dilation(mask[box], iterations=iterations)
    return out


def _deepest(mask: np.ndarray, values: np.ndarray) -> tuple:
    """``np.unravel_index(np.argmax(np.where(mask, values, -1)), values.shape)`` for values >= 0,
    looked for in the box of ``mask``'s pixels only (the same first pixel in row-major order)."""
    rows = np.flatnonzero(mask.any(axis=1))
    if len(rows) == 0:
        return np.unravel_index(np.argmax(np.where(mask, values, -1)), values.shape)
    cols = np.flatnonzero(mask.any(axis=0))
    box = (slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1))
    shape = (rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1)
    r, c = np.unravel_index(np.argmax(np.where(mask[box], values[box], -1)), shape)
    return (r + rows[0], c + cols[0])


def _gate_widths(
    edt_mm: np.ndarray, local: np.ndarray, seed_a: np.ndarray, seed_b: np.ndarray, px: float
) -> tuple[float, float, bool]:
    """Narrowest and widest width of a gate, and whether its narrowest spots sit at both seeds.

    ``local`` is the gate with its two seeds; the seeds stay connected through the gate under
    erosion by r exactly while r is below the gate's narrowest half width.
    """
    # Each seed's deepest pixel survives every erosion tried here (its radius is far larger).
    deep_a, deep_b = _deepest(seed_a, edt_mm), _deepest(seed_b, edt_mm)

    # A path out of a seed (a 4-connected piece, never 4-next to the other seed) first steps onto a
    # gate pixel 4-next to it; under erosion by r at or above the widest of those, none is left.
    gate_only = local & ~seed_a & ~seed_b
    cut = min(float(edt_mm[gate_only & _dilated(seed)].max(initial=-1.0)) for seed in (seed_a, seed_b))

    def joined(r: float) -> bool:
        if r >= cut:
            return False
        labels, _ = ndimage.label(local & (edt_mm > r))
        return bool(labels[deep_a]) and labels[deep_a] == labels[deep_b]

    lo, hi = 0.0, MAX_GATE_WIDTH_MM
    if not joined(lo):
        return 0.0, 0.0, False
    while hi - lo > px / 64:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if joined(mid) else (lo, mid)
    # The outside pixel centre nearest a wall lies 0 to 1 pixel beyond it: take off half a pixel.
    narrowest = 2 * lo - px / 2
    widest = 2 * float(edt_mm[gate_only].max()) - px / 2 if gate_only.any() else 0.0
    # Necked: eroding just past the narrowest half width leaves a middle piece touching neither seed.
    labels, _ = ndimage.label(local & (edt_mm > lo + px))
    middle = set(np.unique(labels[gate_only])) - {0, labels[deep_a], labels[deep_b]}
    return narrowest, widest, bool(middle)


def _top_z_at(mesh: trimesh.Trimesh, x: float, y: float) -> float:
    """Highest z where the vertical line through (x, y) meets the mesh (0 if it misses)."""
    tri = mesh.triangles
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    det = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (c[:, 0] - a[:, 0]) * (b[:, 1] - a[:, 1])
    ok = np.abs(det) > 1e-12  # walls seen edge-on from above are not hit
    safe = np.where(ok, det, 1.0)
    u = ((x - a[:, 0]) * (c[:, 1] - a[:, 1]) - (c[:, 0] - a[:, 0]) * (y - a[:, 1])) / safe
    v = ((b[:, 0] - a[:, 0]) * (y - a[:, 1]) - (x - a[:, 0]) * (b[:, 1] - a[:, 1])) / safe
    hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1)
    z = a[:, 2] + u * (b[:, 2] - a[:, 2]) + v * (c[:, 2] - a[:, 2])
    return float(z[hit].max(initial=0.0))


def _pixels(labels: np.ndarray, i: int, box: tuple[slice, slice]) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the pixels labelled ``i`` (whose box is ``box``), in raster order."""
    rr, cc = np.nonzero(labels[box] == i)
    return rr + box[0].start, cc + box[1].start


def _centres(labels: np.ndarray, ids: list[int]) -> list[tuple[float, float]]:
    """Centre (row, column) of the pixels of each label in ``ids``: what ``ndimage.center_of_mass``
    gives for them (sums of whole numbers, so exact either way), reading only each label's box."""
    boxes = ndimage.find_objects(labels)
    out = []
    for i in ids:
        rr, cc = _pixels(labels, i, boxes[i - 1])
        out.append((float(rr.sum() / len(rr)), float(cc.sum() / len(cc))))
    return out


def _row_order(labels: np.ndarray, ids: list[int], px: float) -> list[int]:
    """Label ids row by row from -y, then by x; centres within 1 mm in y share a row."""
    cents = dict(zip(ids, _centres(labels, ids)))
    by_y = sorted(ids, key=lambda i: cents[i][0])
    rows: list[list[int]] = []
    for i in by_y:
        if rows and (cents[i][0] - cents[rows[-1][0]][0]) * px < 1.0:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda i: cents[i][1])]


def _squared_distances(mask: np.ndarray) -> np.ndarray:
    """Squared distance in whole pixels from each pixel to the nearest pixel outside ``mask``
    (the nearest of ``ndimage.distance_transform_edt``'s feature transform), as integers."""
    near = ndimage.distance_transform_edt(mask, return_distances=False, return_indices=True)
    dtype = np.int64 if max(mask.shape) > 30_000 else np.int32
    rows = near[0].astype(dtype, copy=False) - np.arange(mask.shape[0], dtype=dtype)[:, None]
    cols = near[1].astype(dtype, copy=False) - np.arange(mask.shape[1], dtype=dtype)[None, :]
    return rows * rows + cols * cols


def edt(mask: np.ndarray) -> np.ndarray:
    """``ndimage.distance_transform_edt(mask)``, bit for bit, from its feature transform.

    scipy turns the (row, column) offsets to the nearest outside pixel into floats, squares and
    adds them: whole numbers far below 2**53, so exact. The same sums are made here in place,
    without scipy's temporary arrays (a third of its time on a sprue's raster)."""
    near = ndimage.distance_transform_edt(mask, return_distances=False, return_indices=True)
    rows = (near[0] - np.arange(mask.shape[0], dtype=np.int32)[:, None]).astype(np.float64)
    cols = (near[1] - np.arange(mask.shape[1], dtype=np.int32)[None, :]).astype(np.float64)
    rows *= rows
    cols *= cols
    rows += cols
    return np.sqrt(rows, out=rows)


def _grown(core: np.ndarray, reach_mm: float, px: float) -> np.ndarray:
    """Pixels within ``reach_mm`` of a ``core`` pixel (centre to centre).

    Each connected piece of the core is grown by a distance transform of its own box widened by
    the reach: the same distances, over far fewer pixels than the whole raster's.
    """
    if not core.any():  # nothing to grow: the whole raster's transform, as it always was
        return ndimage.distance_transform_edt(~core) * px <= reach_mm
    # The largest squared pixel distance n with sqrt(n) * px <= reach_mm, as floats compute it.
    within = int((reach_mm / px) ** 2)
    while np.sqrt(np.float64(within + 1)) * px <= reach_mm:
        within += 1
    while within >= 0 and not np.sqrt(np.float64(within)) * px <= reach_mm:
        within -= 1
    grown = np.zeros(core.shape, dtype=bool)
    margin = int(np.ceil(reach_mm / px)) + 1
    pieces, _ = ndimage.label(core)
    for k, box in enumerate(ndimage.find_objects(pieces), start=1):
        crop = tuple(slice(max(sl.start - margin, 0), sl.stop + margin) for sl in box)
        grown[crop] |= _squared_distances(pieces[crop] != k) <= within
    return grown


def _seed_map(bed: np.ndarray, edt_mm: np.ndarray, px: float) -> np.ndarray:
    """Seed index (0, 1, ... in row order) of every footprint pixel that belongs to a seed, else -1.

    The opening (erode, then dilate, by more than half the widest gate) removes the gates.
    """
    core = edt_mm > OPENING_RADIUS_MM
    opened = _grown(core, OPENING_RADIUS_MM + px / 2, px) & bed
    labels, n = ndimage.label(opened)
    areas = np.bincount(labels.ravel(), minlength=n + 1) * px**2
    ids = [i for i in range(1, n + 1) if areas[i] >= MIN_SEED_AREA_MM2]
    lookup = np.full(n + 1, -1, dtype=int)
    for k, i in enumerate(_row_order(labels, ids, px)):
        lookup[i] = k
    return lookup[labels]


def _disc(radius: int) -> np.ndarray:
    """Pixels within ``radius`` pixels of the centre one (centre to centre)."""
    r, c = np.mgrid[-radius:radius + 1, -radius:radius + 1]
    return r * r + c * c <= radius * radius


OWNER_PX = 4  # a pixel this close to a seed is the seed's (its rim faces)
BESIDE_PX = 2  # a footprint pixel this close to a seed is no gate


def _near_seeds(seed_of: np.ndarray, n_seeds: int) -> tuple[np.ndarray, np.ndarray]:
    """(seed of the nearest seed pixel within OWNER_PX pixels, else -1; pixels within BESIDE_PX of a seed).

    Each seed is grown by discs in its own box. Where the grown seeds overlap, nearest cannot be
    told from the discs: then a distance transform of the whole raster decides, as it always could.
    """
    owner = np.full(seed_of.shape, -1, dtype=seed_of.dtype)
    beside = np.zeros(seed_of.shape, dtype=bool)
    taken = np.zeros(seed_of.shape, dtype=bool)
    far, near = _disc(OWNER_PX), _disc(BESIDE_PX)
    for k, box in enumerate(ndimage.find_objects(seed_of + 1)[:n_seeds]):
        crop = tuple(slice(max(sl.start - OWNER_PX, 0), sl.stop + OWNER_PX) for sl in box)
        seed = seed_of[crop] == k
        grown = ndimage.binary_dilation(seed, structure=far)
        if (taken[crop] & grown).any():
            to_seed, (near_r, near_c) = ndimage.distance_transform_edt(seed_of < 0, return_indices=True)
            return np.where(to_seed <= OWNER_PX, seed_of[near_r, near_c], -1), to_seed <= BESIDE_PX
        taken[crop] |= grown
        owner[crop][grown] = k
        beside[crop] |= ndimage.binary_dilation(seed, structure=near)
    return owner, beside


def measure_sprue(stl_path: Path | str) -> SprueMeasure:
    """Measure seeds and gates of a seed sprue STL.

    A build measures each sprue twice (the board's capacity check uses its seed volume, then the
    sprue's own check), and giuthi-ko's sprue is giuthi-default's: the measure, a function of the
    file's bytes alone, is kept per content for the process.
    """
    mesh, key = load_stl_keyed(stl_path, process=True)
    return kept(("sprue measure", key), lambda: _measure_mesh(_on_bed(mesh)))


def _measure_sprue(stl_path: Path | str) -> SprueMeasure:
    return _measure_mesh(load_mesh(stl_path))


def _measure_mesh(mesh: trimesh.Trimesh) -> SprueMeasure:
    grid = _grid_for(mesh)
    px = grid.px
    bed = section_mask(mesh, BED_SECTION_Z_MM, grid)
    edt_mm = edt(bed) * px
    seed_of = _seed_map(bed, edt_mm, px)
    n_seeds = int(seed_of.max()) + 1

    # The seed of the nearest seed pixel within 4 pixels: grows each seed a little to take in its rim faces.
    owner, beside = _near_seeds(seed_of, n_seeds)
    tri = mesh.triangles
    f_row, f_col = grid.index(tri.mean(axis=1)[:, :2])
    face_owner = owner[f_row, f_col]
    column_volume = tri[:, :, 2].mean(axis=1) * mesh.area_faces * mesh.face_normals[:, 2]
    v_row, v_col = grid.index(mesh.vertices[:, :2])
    vertex_owner = owner[v_row, v_col]
    covered = _bottom_coverage(mesh, grid)

    seeds = []
    ids = list(range(n_seeds))
    footprint = np.bincount(seed_of[seed_of >= 0], minlength=n_seeds)
    on_bed = np.bincount(seed_of[covered & (seed_of >= 0)], minlength=n_seeds)
    seed_boxes = ndimage.find_objects(seed_of + 1)
    for k in ids:
        area = float(footprint[k]) * px**2
        rr, cc = _pixels(seed_of, k, seed_boxes[k])
        centre = (float(rr.sum() / len(rr)), float(cc.sum() / len(cc)))
        seeds.append(
            SeedMeasure(
                centre=tuple(float(v) for v in grid.centre(*centre)),
                diameter_mm=2 * float(np.sqrt(area / np.pi)),
                # An ellipse of semi-axes a, b has standard deviations a/2 and b/2 along them.
                length_mm=4 * float(cc.std()) * px,
                width_mm=4 * float(rr.std()) * px,
                height_mm=float(mesh.vertices[vertex_owner == k, 2].max(initial=0.0)),
                volume_mm3=float(column_volume[face_owner == k].sum()),
                base_fraction=float(on_bed[k] / max(footprint[k], 1)),
            )
        )

    # Gates: the footprint more than two pixels away from every seed.
    gate_labels, n_gates = ndimage.label(bed & ~beside)
    gate_list = []
    debris = 0
    pad = 8
    for g, box in enumerate(ndimage.find_objects(gate_labels), start=1):
        crop = tuple(slice(max(sl.start - pad, 0), sl.stop + pad) for sl in box)
        region = gate_labels[crop] == g
        seeds_here = seed_of[crop]
        ends = sorted(set(np.unique(seeds_here[ndimage.binary_dilation(region, iterations=4)])) - {-1})
        if len(ends) != 2:
            debris += 1
            continue
        a, b = (int(e) for e in ends)
        # Widen the crop to hold both seeds whole, so the erosion test sees the gate between them.
        boxes = (seed_boxes[a], seed_boxes[b], crop)
        rows = slice(min(bx[0].start for bx in boxes), max(bx[0].stop for bx in boxes))
        cols = slice(min(bx[1].start for bx in boxes), max(bx[1].stop for bx in boxes))
        gate_here = gate_labels[rows, cols] == g
        seed_a, seed_b = seed_of[rows, cols] == a, seed_of[rows, cols] == b
        local = (_dilated_in_box(gate_here, 3) & bed[rows, cols]) | seed_a | seed_b
        narrow, wide, necked = _gate_widths(edt_mm[rows, cols], local, seed_a, seed_b, px)
        # The gate's top, straight above its widest point (well clear of both seeds).
        middle = np.where(gate_here, edt_mm[rows, cols], -1.0)
        r, c = np.unravel_index(np.argmax(middle), middle.shape)
        height = _top_z_at(mesh, *grid.centre(rows.start + r, cols.start + c))
        gate_list.append(GateMeasure((a, b), narrow, wide, height, necked))

    top_gate = max((g.height_mm for g in gate_list), default=0.0)
    above = section_mask(mesh, top_gate + 0.1, grid)
    size = mesh.bounds[1] - mesh.bounds[0]
    return SprueMeasure(
        watertight=bool(mesh.is_watertight and mesh.is_winding_consistent),
        bodies=int(mesh.body_count),
        volume_mm3=float(mesh.volume),
        size_mm=(float(size[0]), float(size[1]), float(size[2])),
        seeds=tuple(seeds),
        seeds_above_gates=_count_pieces(above, grid),
        gates=tuple(sorted(gate_list, key=lambda g: g.seeds)),
        debris=debris,
    )


def measure_seed_volume(stl_path: Path | str) -> float:
    """Mean volume (mm3) of one seed as printed, measured from the sprue's STL."""
    seeds = measure_sprue(stl_path).seeds
    if not seeds:
        raise ValueError(f"{stl_path}: no seeds found in the mesh")
    return float(np.mean([s.volume_mm3 for s in seeds]))


def check_seed_sprue(
    stl_path: Path | str, params: SeedParams | None = None
) -> list[CheckResult]:
    """All checks of a seed sprue STL; with ``params``, also compare sizes with the model's."""
    try:
        m = measure_sprue(stl_path)
    except Exception as error:  # an unreadable mesh is a failed check, not a crash
        return [CheckResult("read seed STL", False, f"{type(error).__name__}: {error}")]
    expected = seed_count(params) if params else SEEDS_PER_SPRUE
    results = [
        CheckResult(
            "seed sprue solid",
            m.watertight and m.bodies == 1 and m.volume_mm3 > 0,
            f"{'watertight' if m.watertight else 'NOT watertight'}, {m.bodies} bodies,"
            f" {m.volume_mm3:.0f} mm3",
        ),
        CheckResult(
            "seed sprue fits the bed",
            all(s <= b for s, b in zip(m.size_mm, BED_SIZE_MM)),
            "{:.1f} x {:.1f} x {:.1f} mm".format(*m.size_mm),
        ),
        CheckResult(
            "seed count",
            len(m.seeds) == expected and m.seeds_above_gates == expected and m.debris == 0,
            f"{len(m.seeds)} seeds on the bed, {m.seeds_above_gates} apart above the gates"
            f" (expected {expected}); {m.debris} stray pieces",
        ),
    ]
    if not m.seeds:
        return results
    worst_base = min(s.base_fraction for s in m.seeds)
    results.append(
        CheckResult(
            "flat seed bases",
            worst_base >= FLAT_BASE_MIN_FRACTION,
            f"every seed's footprint is at least {worst_base:.1%} bottom face on the bed"
            f" (need {FLAT_BASE_MIN_FRACTION:.0%})",
        )
    )
    volumes = np.array([s.volume_mm3 for s in m.seeds])
    mean = float(volumes.mean())
    spread = float((volumes.max() - volumes.min()) / mean) if mean > 0 else 1.0
    detail = f"{mean:.1f} mm3 per seed (spread {spread:.2%})"
    ok = spread <= VOLUME_SPREAD_MAX
    if params:
        model = seed_volume_mm3(params)
        ok = ok and abs(mean - model) <= VOLUME_TOLERANCE * model
        detail += f"; model {model:.1f} mm3"
    results.append(CheckResult("seed volume", ok, detail))
    # A bean's footprint is the ellipse of its own second moments: the same area (a rectangle's
    # is 4.5 % smaller than that ellipse's, a cross's far less).
    fills = [s.diameter_mm**2 / (s.length_mm * s.width_mm) for s in m.seeds]
    results.append(
        CheckResult(
            "bean-shaped seeds",
            all(abs(f - 1) <= ELLIPSE_FILL_TOLERANCE for f in fills),
            f"every footprint is {min(fills):.3f}-{max(fills):.3f} of the area of the ellipse with its"
            f" moments (an ellipse 1, within {ELLIPSE_FILL_TOLERANCE:g}); width / length"
            f" {min(s.width_mm / s.length_mm for s in m.seeds):.2f}",
        )
    )
    if params:
        sizes = [(s.length_mm, s.width_mm, s.height_mm) for s in m.seeds]
        model = (params.seed_diameter_mm, seed_width_mm(params), params.seed_height_mm)
        ok = all(abs(v - w) <= SIZE_TOLERANCE_MM for size in sizes for v, w in zip(size, model))
        results.append(
            CheckResult(
                "seed size",
                ok,
                "length {:.2f}-{:.2f}, width {:.2f}-{:.2f}, height {:.2f}-{:.2f} mm".format(
                    min(s[0] for s in sizes), max(s[0] for s in sizes), min(s[1] for s in sizes),
                    max(s[1] for s in sizes), min(s[2] for s in sizes), max(s[2] for s in sizes))
                + " (model {:g} x {:g} x {:g})".format(*model),
            )
        )
    results += _gate_results(m)
    return results


def _gate_results(m: SprueMeasure) -> list[CheckResult]:
    """Gate checks: every seed gated, gates printable (2 lines, 2 layers) and clippable."""
    if not m.gates:
        return [CheckResult("gates", False, "no gates found between seeds")]
    gated = {k for g in m.gates for k in g.seeds}
    narrow = min(m.gates, key=lambda g: g.narrowest_mm)
    low = min(m.gates, key=lambda g: g.height_mm)
    high = max(m.gates, key=lambda g: g.height_mm)
    biggest_cut = max(g.narrowest_mm * g.height_mm for g in m.gates)
    unnecked = [g.seeds for g in m.gates if not g.necked]
    return [
        CheckResult(
            "every seed gated",
            len(gated) == len(m.seeds),
            f"{len(m.gates)} gates reach {len(gated)} of {len(m.seeds)} seeds",
        ),
        CheckResult(
            "gates wide enough to print",
            narrow.narrowest_mm >= MIN_GATE_WIDTH_MM - PIXEL_MM,
            f"narrowest {narrow.narrowest_mm:.2f} mm (seeds {narrow.seeds[0]}-{narrow.seeds[1]}),"
            f" need {MIN_GATE_WIDTH_MM:g} mm (2 lines); widest"
            f" {max(g.widest_mm for g in m.gates):.2f} mm",
        ),
        CheckResult(
            "gates tall enough to print",
            low.height_mm >= MIN_GATE_HEIGHT_MM - 1e-3,
            f"lowest {low.height_mm:.2f} mm, need {MIN_GATE_HEIGHT_MM:g} mm (2 layers)",
        ),
        CheckResult(
            "gates thin enough to clip",
            high.height_mm <= MAX_GATE_HEIGHT_MM + 1e-3 and biggest_cut <= MAX_CUT_AREA_MM2 + 0.05,
            f"tallest {high.height_mm:.2f} mm (max {MAX_GATE_HEIGHT_MM:g}), largest cut"
            f" {biggest_cut:.2f} mm2 (max {MAX_CUT_AREA_MM2:g})",
        ),
        CheckResult(
            "necks at the seeds",
            not unnecked,
            "every gate is narrowest where it meets a seed"
            if not unnecked
            else f"gates without a neck at the seeds: {unnecked}",
        ),
    ]
