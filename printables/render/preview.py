"""Preview PNGs of STL parts, drawn on the CPU with no GPU or display: a numpy z-buffer.

Each part is a mesh with a placement (4 x 4 matrix) and a colour. Triangles are projected
orthographically from a view direction, rasterised with a z-buffer (painter's sorting fails on the
long sliver triangles of a board's top face), shaded flat by a fixed light, and outlined where the
surface folds sharply or meets the background; drawn at twice the size and shrunk by the mean of
each 2 x 2 samples. Only the box around the parts is drawn, in numpy arrays of bounded size, and the
PNG is written at zlib's fastest level: the six Giuthi presets' pictures take about 0.06 s of CPU
each (benchmarks/bench_previews.py). The same inputs give the same PNG bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np
import trimesh
from PIL import Image

BACKGROUND_RGB = (255, 255, 255)
BOARD_RGB = (222, 206, 170)  # a light wood colour, as the board might be printed
SEED_RGB = (150, 40, 40)  # a dark red that stands out against it
EDGE_RGB = (40, 40, 40)
DEFAULT_SIZE_PX = (800, 600)
DEFAULT_VIEW_DEG = (-60.0, 35.0)  # azimuth from +x toward +y, elevation above the bed
SUPERSAMPLE = 2  # render larger, then shrink (each pixel the mean of its 2 x 2): smooth edges without a GPU
MARGIN = 0.06  # of the image, around the parts
AMBIENT = 0.35
CREASE_COS = math.cos(math.radians(35))  # a fold sharper than this is drawn as a line
_BATCH_SAMPLES = 65_536  # pixel tests per vectorised batch: small arrays, reused (fresh memory costs)
_AWAY = 1e30  # px: where an edge that misses a row is put (a finite number: x + 0 is x)
_FAR = 2**31 - 1  # the depth part of a key no sample reaches (a finite depth's is at most 2**31 - 2**23)
PAD = 4  # px of background drawn around the parts (at least 1: the silhouette's outline)
BEAN_ROOM = 1.15  # a ring of beans side by side: this much of its length per bean's width


@dataclass(frozen=True)
class PreviewPart:
    """A mesh to draw, its placement (4 x 4, None for as-is) and its colour (r, g, b)."""

    mesh: trimesh.Trimesh
    transform: np.ndarray | None = field(default=None, compare=False)
    colour: tuple[int, int, int] = BOARD_RGB


def rotation_about_axis(point: Sequence[float], direction: Sequence[float], angle_deg: float) -> np.ndarray:
    """4 x 4 rotation by ``angle_deg`` about the axis through ``point`` along ``direction``."""
    return trimesh.transformations.rotation_matrix(math.radians(angle_deg), direction, point)


def _view_basis(azimuth_deg: float, elevation_deg: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unit vectors right, up and towards-the-viewer for an orthographic camera."""
    az, el = math.radians(azimuth_deg), math.radians(elevation_deg)
    toward = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    right = np.cross((0.0, 0.0, 1.0), toward)
    right /= np.linalg.norm(right)
    up = np.cross(toward, right)
    return right, up, toward


def _scene(parts: Sequence[PreviewPart]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All triangles (n, 3, 3) in world mm, their unit normals and their colours (n, 3)."""
    tris, normals, colours = [], [], []
    for part in parts:
        mesh = part.mesh
        if part.transform is not None:
            mesh = mesh.copy()
            mesh.apply_transform(part.transform)
        tris.append(np.asarray(mesh.triangles, dtype=np.float64))
        normals.append(np.asarray(mesh.face_normals, dtype=np.float64))
        colours.append(np.tile(np.asarray(part.colour, dtype=np.float64), (len(mesh.faces), 1)))
    return np.concatenate(tris), np.concatenate(normals), np.concatenate(colours)


def _rasterise(screen: np.ndarray, depth: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """Index of the nearest triangle at every pixel of ``box`` = (left, top, right, bottom), the
    picture's part that holds every triangle; ``len(screen)`` where there is none. ``screen`` is
    (n, 3, 2) px.

    A scanline fill, vectorised over triangles: each triangle's pixel rows, each row's span of
    pixel centres inside it, each span's pixels with the depth of the triangle's plane. Samples
    go in batches (bounded memory); the nearest per pixel wins, ties to the lowest face index.
    """
    bx0, by0, bx1, by1 = box
    bw = bx1 - bx0
    n = len(screen)
    x, y = screen[..., 0], screen[..., 1]
    (x0, x1, x2), (y0, y1, y2), (z0, z1, z2) = x.T, y.T, depth.T
    area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    safe = np.where(area == 0, 1.0, area)
    # The depth plane z = z0 + dzdx (x - x0) + dzdy (y - y0) of each triangle.
    dzdx = ((z1 - z0) * (y2 - y0) - (z2 - z0) * (y1 - y0)) / safe
    dzdy = ((x1 - x0) * (z2 - z0) - (x2 - x0) * (z1 - z0)) / safe
    # Each edge (a, b) = (0, 1), (1, 2), (2, 0), one row of these (3, n) arrays: the rows it
    # spans (none when level) and the terms of its crossing x = xa + (y - ya) / (yb - ya) * (xb - xa).
    ya, yb = y.T, y[:, [1, 2, 0]].T
    xa, xb = x.T, x[:, [1, 2, 0]].T
    level = ya == yb
    low = np.where(level, np.inf, np.minimum(ya, yb))
    high = np.maximum(ya, yb)
    run = np.where(level, 1.0, yb - ya)
    dx = xb - xa
    # Pixel (c, r) has its centre at (c + 0.5, r + 0.5).
    row0 = np.maximum(np.ceil(y.min(axis=1) - 0.5), by0).astype(np.int64)
    row1 = np.minimum(np.floor(y.max(axis=1) - 0.5), by1 - 1).astype(np.int64)
    rows = np.maximum(row1 - row0 + 1, 0)
    rows[area == 0] = 0  # an edge-on triangle covers no pixel centre for certain
    cost = 2 * rows + np.ceil(np.abs(area) / 2).astype(np.int64)  # about the samples: area + ends of rows
    live = np.flatnonzero(rows)
    # Each pixel keeps the smallest key of the samples on it: the depth turned round (nearer is
    # smaller; float32 bits made into an integer of the same order) above, the face index below
    # (a tie goes to the lower). A pixel no triangle covers keeps the face index n.
    keys = np.full(bw * (by1 - by0), (_FAR << 32) | n, dtype=np.int64)
    start = 0
    # (np.take rather than fancy indexing: the same values, faster.)
    while start < len(live):
        # As many triangles as make about _BATCH_SAMPLES samples (at least one).
        budget = np.cumsum(cost[live[start:]])
        stop = start + max(1, int(np.searchsorted(budget, _BATCH_SAMPLES, side="right")))
        f = live[start:stop]
        start = stop
        # One entry per (triangle, pixel row).
        per = rows[f]
        tri = np.repeat(f, per)
        row = np.repeat(row0[f] - (np.cumsum(per) - per), per) + np.arange(len(tri))
        yc = row + 0.5
        # The span of the row: between its crossings of the triangle's edges; an edge that does
        # not cross it is pushed out of the way (far left for the right end, far right for the left).
        xe = np.take(xa, tri, axis=1) + (yc - np.take(ya, tri, axis=1)) / np.take(run, tri, axis=1) * np.take(dx, tri, axis=1)
        away = ((np.take(low, tri, axis=1) > yc) | (yc > np.take(high, tri, axis=1))) * _AWAY
        lefts, rights = xe + away, xe - away
        left = np.minimum(np.minimum(lefts[0], lefts[1]), lefts[2])
        right = np.maximum(np.maximum(rights[0], rights[1]), rights[2])
        hit = left <= right  # a row through a vertex only may find no edge crossing it
        col0 = np.where(hit, np.maximum(np.ceil(left - 0.5), bx0), 0).astype(np.int64)
        col1 = np.where(hit, np.minimum(np.floor(right - 0.5), bx1 - 1), -1).astype(np.int64)
        spans = np.maximum(col1 - col0 + 1, 0)
        # The depth at the span's first pixel (float64), then along it in steps of dzdx (float32).
        dz = np.take(dzdx, tri)
        zfirst = np.take(z0, tri) + dz * (col0 + 0.5 - np.take(x0, tri)) + np.take(dzdy, tri) * (yc - np.take(y0, tri))
        # One entry per pixel sample, k its place in its span.
        k = np.arange(int(spans.sum()), dtype=np.int64) - np.repeat(np.cumsum(spans) - spans, spans)
        pix = np.repeat((row - by0) * bw + col0 - bx0, spans) + k
        z = np.repeat(zfirst.astype(np.float32), spans) + np.repeat(dz.astype(np.float32), spans) * k.astype(np.float32)
        bits = z.view(np.int32)
        order = (bits ^ ((bits >> 31) & 0x7FFFFFFF)).astype(np.int64)
        np.minimum.at(keys, pix, (-order << 32) | np.repeat(tri, spans))
    return keys.astype(np.int32).reshape(by1 - by0, bw)  # the low 32 bits: the face


def _outline(fbuf: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Flat indices of the pixels on a silhouette or a sharp fold (the face changes and the
    normals differ much); ``fbuf`` holds face indices, ``len(normals)`` for the background."""
    width = fbuf.shape[1]
    flat = fbuf.ravel()
    # The background's normal is 0: against it every face turns sharply.
    nx, ny, nz = np.concatenate([normals, [(0.0, 0.0, 0.0)]]).T.copy()
    marks = []
    # Each pixel against its right neighbour, then against the one below, on the flat picture (a
    # row's last pixel has no right neighbour); normals are compared only where the face changes
    # (a small part of the picture), and the first pixel of such a pair is marked.
    for step in (1, width):
        at = np.flatnonzero(flat[:-step] != flat[step:])
        if step == 1:
            at = np.compress(at % width != width - 1, at)
        fa, fb = np.take(flat, at), np.take(flat, at + step)
        cos = np.take(nx, fa) * np.take(nx, fb) + np.take(ny, fa) * np.take(ny, fb) + np.take(nz, fa) * np.take(nz, fb)
        marks.append(np.compress(cos < CREASE_COS, at))
    return np.concatenate(marks)


def render_parts(
    parts: Sequence[PreviewPart],
    out_path: Path | str,
    size_px: tuple[int, int] = DEFAULT_SIZE_PX,
    view_deg: tuple[float, float] = DEFAULT_VIEW_DEG,
) -> Path:
    """Draw ``parts`` into a PNG at ``out_path`` (orthographic, shaded, outlined); return the path."""
    out_path = Path(out_path)
    width, height = size_px[0] * SUPERSAMPLE, size_px[1] * SUPERSAMPLE
    tris, normals, colours = _scene(parts)
    right, up, toward = _view_basis(*view_deg)
    facing = normals @ toward > 1e-9  # back faces of closed meshes are hidden anyway
    tris, normals, colours = tris[facing], normals[facing], colours[facing]
    sx, sy, depth = tris @ right, tris @ up, tris @ toward
    span_x, span_y = sx.max() - sx.min(), sy.max() - sy.min()
    scale = min(width * (1 - 2 * MARGIN) / span_x, height * (1 - 2 * MARGIN) / span_y)
    cx, cy = (sx.max() + sx.min()) / 2, (sy.max() + sy.min()) / 2
    screen = np.stack(
        [width / 2 + (sx - cx) * scale, height / 2 - (sy - cy) * scale], axis=-1
    )
    # Only the box around the parts is drawn, PAD pixels of background wider on each side (or
    # up to the picture's edge), its sides on whole pixels of the picture; the rest of the
    # picture is background.
    box = (
        max(0, int(np.floor(screen[..., 0].min())) - PAD) // SUPERSAMPLE * SUPERSAMPLE,
        max(0, int(np.floor(screen[..., 1].min())) - PAD) // SUPERSAMPLE * SUPERSAMPLE,
        -(-min(width, int(np.ceil(screen[..., 0].max())) + PAD) // SUPERSAMPLE) * SUPERSAMPLE,
        -(-min(height, int(np.ceil(screen[..., 1].max())) + PAD) // SUPERSAMPLE) * SUPERSAMPLE,
    )
    fbuf = _rasterise(screen, depth, box)
    # Light from above, over the viewer's left shoulder.
    light = toward * 0.6 + up * 0.7 - right * 0.4
    light /= np.linalg.norm(light)
    shade = AMBIENT + (1 - AMBIENT) * np.clip(normals @ light, 0, 1)
    face_rgb = np.clip(colours * shade[:, None], 0, 255)
    # Every pixel is a face's colour, the background or an edge: look each one up in a palette of
    # those, rounded once per face rather than once per pixel (the same bytes, far less work).
    # The palette's colours are 4 bytes (r, g, b, unused) looked up as one 32-bit word each: an
    # RGBX picture that Pillow shrinks as it would the RGB one (the same bytes, a faster lookup).
    palette = np.full((len(face_rgb) + 2, 4), 255, dtype=np.uint8)
    palette[:, :3] = np.round(np.concatenate([face_rgb, [BACKGROUND_RGB, EDGE_RGB]]))
    np.put(fbuf, _outline(fbuf, normals), len(face_rgb) + 1)
    rgbx = np.take(palette.view(np.uint32).ravel(), fbuf)
    boxed = Image.frombuffer("RGBX", (box[2] - box[0], box[3] - box[1]), rgbx, "raw", "RGBX", 0, 1)
    boxed = boxed.reduce(SUPERSAMPLE)  # a box filter: the plain mean of the samples in each pixel
    picture = Image.new("RGB", size_px, BACKGROUND_RGB)
    picture.paste(boxed.convert("RGB"), (box[0] // SUPERSAMPLE, box[1] // SUPERSAMPLE))
    # Written atomically (a hidden temporary file, then a rename): a preview added to a finished
    # set (printables build) is there whole or not at all.
    from io import BytesIO

    from printables.fileio import write_atomic

    buffer = BytesIO()
    # zlib's fastest level: half the time of the default 6, and with the box filter's few colours
    # the files are still smaller than the former Lanczos-shrunk pictures at level 6.
    picture.save(buffer, format="PNG", optimize=False, compress_level=1)
    return write_atomic(out_path, buffer.getvalue())


def render_stl(
    stl_path: Path | str,
    out_path: Path | str | None = None,
    colour: tuple[int, int, int] = BOARD_RGB,
    **options,
) -> Path:
    """Preview one STL as it lies on the bed; the PNG goes next to it unless ``out_path`` is given."""
    stl_path = Path(stl_path)
    mesh = trimesh.load_mesh(stl_path, file_type="stl")
    target = Path(out_path) if out_path is not None else stl_path.with_suffix(".png")
    return render_parts([PreviewPart(mesh, None, colour)], target, **options)


def bean_mesh(length_mm: float, width_mm: float, height_mm: float, subdivisions: int = 3) -> trimesh.Trimesh:
    """A bean as the seed sprue prints it: half an ellipsoid lying flat side down on z = 0."""
    sphere = trimesh.creation.icosphere(subdivisions=subdivisions)
    vertices = sphere.vertices * [length_mm / 2, width_mm / 2, height_mm]
    vertices[:, 2] = np.maximum(vertices[:, 2], 0.0)  # the lower half pressed flat: the bean's underside
    return trimesh.Trimesh(vertices, sphere.faces, process=False)


def beans_in_cup(cx: float, cy: float, floor_z: float, count: int, bean_mm: float, turn: int = 0,
                 bean_width_mm: float = 0.0) -> list[np.ndarray]:
    """Placements (4 x 4) of ``count`` beans lying on a cup's floor round its centre, as a hand drops them:
    a ring of beans a bean's length across, wider when that many beans side by side need more room
    (``bean_width_mm``), each turned a little differently (``turn`` varies the ring)."""
    placed = []
    ring = 0.0 if count == 1 else max(0.7 * bean_mm, BEAN_ROOM * count * bean_width_mm / (2 * math.pi))
    for k in range(count):
        angle = 2 * math.pi * k / count + 0.7 * turn
        x, y = cx + ring * math.cos(angle), cy + ring * math.sin(angle)
        m = trimesh.transformations.rotation_matrix(angle + math.pi / 2 + 0.4 * ((k * 7 + turn) % 3 - 1), (0, 0, 1))
        m[:3, 3] = (x, y, floor_z)
        placed.append(m)
    return placed


def resting_on(placement: np.ndarray, z: float, normal: Sequence[float]) -> np.ndarray:
    """``placement`` moved up to ``z`` and tilted so the bean's flat underside lies on a surface
    with this upward ``normal`` (a cup's rounded wall) instead of level."""
    n = np.asarray(normal, dtype=np.float64)
    n /= np.linalg.norm(n)
    tilt = np.eye(4)
    axis = np.cross((0.0, 0.0, 1.0), n)
    if np.linalg.norm(axis) > 1e-12:
        tilt = trimesh.transformations.rotation_matrix(math.acos(min(1.0, n[2])), axis)
    spin = placement.copy()
    spin[:3, 3] = 0.0
    out = tilt @ spin
    out[:3, 3] = (placement[0, 3], placement[1, 3], z)
    return out
