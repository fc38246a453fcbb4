"""Preview PNGs of STL parts, drawn on the CPU with no GPU or display: a numpy z-buffer.

Each part is a mesh with a placement (4 x 4 matrix) and a colour. Triangles are projected
orthographically from a view direction, rasterised with a z-buffer (painter's sorting fails on the
long sliver triangles of a board's top face), shaded flat by a fixed light, and outlined where the
surface folds sharply or meets the background. The same inputs give the same PNG bytes.
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
SUPERSAMPLE = 2  # render larger, then shrink: smooth edges without a GPU
MARGIN = 0.06  # of the image, around the parts
AMBIENT = 0.35
CREASE_COS = math.cos(math.radians(35))  # a fold sharper than this is drawn as a line
_BATCH_SAMPLES = 1_000_000  # pixel tests per vectorised batch: bounds memory


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


def _rasterise(screen: np.ndarray, depth: np.ndarray, width: int, height: int) -> np.ndarray:
    """Index of the nearest triangle at every pixel (-1 for none); ``screen`` is (n, 3, 2) px.

    A scanline fill, vectorised over triangles: each triangle's pixel rows, each row's span of
    pixel centres inside it, each span's pixels with the depth of the triangle's plane. Samples
    go in batches (bounded memory); the nearest per pixel wins, ties to the lowest face index.
    """
    x, y = screen[..., 0], screen[..., 1]
    (x0, x1, x2), (y0, y1, y2), (z0, z1, z2) = x.T, y.T, depth.T
    area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    live = np.nonzero(area != 0)[0]  # an edge-on triangle covers no pixel centre for certain
    safe = np.where(area == 0, 1.0, area)
    # The depth plane z = z0 + dzdx (x - x0) + dzdy (y - y0) of each triangle.
    dzdx = ((z1 - z0) * (y2 - y0) - (z2 - z0) * (y1 - y0)) / safe
    dzdy = ((x1 - x0) * (z2 - z0) - (x2 - x0) * (z1 - z0)) / safe
    # Pixel (c, r) has its centre at (c + 0.5, r + 0.5).
    row0 = np.maximum(np.ceil(y.min(axis=1) - 0.5), 0).astype(np.int64)
    row1 = np.minimum(np.floor(y.max(axis=1) - 0.5), height - 1).astype(np.int64)
    rows = np.maximum(row1 - row0 + 1, 0)
    cost = rows * (np.ceil(x.max(axis=1) - x.min(axis=1)).astype(np.int64) + 2)
    zbuf = np.full(width * height, -np.inf)
    kept: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    start = 0
    while start < len(live):
        # As many triangles as make about _BATCH_SAMPLES samples (at least one).
        budget = np.cumsum(cost[live[start:]])
        stop = start + max(1, int(np.searchsorted(budget, _BATCH_SAMPLES, side="right")))
        f = live[start:stop]
        start = stop
        f = f[rows[f] > 0]
        if not len(f):
            continue
        # One entry per (triangle, pixel row).
        tri = np.repeat(f, rows[f])
        first = np.cumsum(rows[f]) - rows[f]
        row = row0[tri] + np.arange(len(tri)) - np.repeat(first, rows[f])
        yc = row + 0.5
        left = np.full(len(tri), np.inf)
        right = np.full(len(tri), -np.inf)
        for i, j in ((0, 1), (1, 2), (2, 0)):
            ya, yb, xa, xb = y[tri, i], y[tri, j], x[tri, i], x[tri, j]
            crosses = (np.minimum(ya, yb) <= yc) & (yc <= np.maximum(ya, yb)) & (ya != yb)
            xe = xa + (yc - ya) / np.where(ya == yb, 1.0, yb - ya) * (xb - xa)
            left = np.where(crosses, np.minimum(left, xe), left)
            right = np.where(crosses, np.maximum(right, xe), right)
        hit = left <= right  # a row through a vertex only may find no edge crossing it
        col0 = np.where(hit, np.maximum(np.ceil(left - 0.5), 0), 0).astype(np.int64)
        col1 = np.where(hit, np.minimum(np.floor(right - 0.5), width - 1), -1).astype(np.int64)
        spans = np.maximum(col1 - col0 + 1, 0)
        # One entry per pixel sample.
        faces = np.repeat(tri, spans)
        first = np.cumsum(spans) - spans
        cols = np.repeat(col0, spans) + np.arange(len(faces)) - np.repeat(first, spans)
        rws = np.repeat(row, spans)
        z = z0[faces] + dzdx[faces] * (cols + 0.5 - x0[faces]) + dzdy[faces] * (rws + 0.5 - y0[faces])
        pix = rws * width + cols
        np.maximum.at(zbuf, pix, z)
        near = z >= zbuf[pix]  # later batches may still cover these; the rest is hidden for good
        kept.append((pix[near], z[near], faces[near]))
    fbuf = np.full(width * height, np.iinfo(np.int64).max, dtype=np.int64)
    for pix, z, faces in kept:
        front = z == zbuf[pix]
        np.minimum.at(fbuf, pix[front], faces[front])
    fbuf[fbuf == np.iinfo(np.int64).max] = -1
    return fbuf.reshape(height, width)


def _outline(fbuf: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Pixels on a silhouette or a sharp fold (the face changes and the normals differ much)."""
    edge = np.zeros(fbuf.shape, dtype=bool)
    # Each pixel against its right neighbour, then against the one below; normals are compared
    # only where the face changes (a small part of the picture).
    for a, b, marks in ((fbuf[:, :-1], fbuf[:, 1:], edge[:, :-1]), (fbuf[:-1, :], fbuf[1:, :], edge[:-1, :])):
        change = a != b
        fa, fb = a[change], b[change]
        line = (fa < 0) | (fb < 0)
        both = ~line
        line[both] = (normals[fa[both]] * normals[fb[both]]).sum(axis=-1) < CREASE_COS
        marks[change] |= line
    return edge


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
    fbuf = _rasterise(screen, depth, width, height)
    # Light from above, over the viewer's left shoulder.
    light = toward * 0.6 + up * 0.7 - right * 0.4
    light /= np.linalg.norm(light)
    shade = AMBIENT + (1 - AMBIENT) * np.clip(normals @ light, 0, 1)
    face_rgb = np.clip(colours * shade[:, None], 0, 255)
    # Every pixel is a face's colour, the background or an edge: look each one up in a palette of
    # those, rounded once per face rather than once per pixel (the same bytes, far less work).
    palette = np.round(np.concatenate([face_rgb, [BACKGROUND_RGB, EDGE_RGB]])).astype(np.uint8)
    index = np.where(fbuf >= 0, fbuf, len(face_rgb))
    index[_outline(fbuf, normals)] = len(face_rgb) + 1
    picture = Image.fromarray(palette[index], "RGB")
    picture = picture.resize(size_px, Image.Resampling.LANCZOS)
    # Written atomically (a hidden temporary file, then a rename): a preview added to a finished
    # set (printables build) is there whole or not at all.
    from io import BytesIO

    from printables.fileio import write_atomic

    buffer = BytesIO()
    picture.save(buffer, format="PNG", optimize=False)
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
