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
    """Index of the nearest triangle at every pixel (-1 for none); ``screen`` is (n, 3, 2) px."""
    zbuf = np.full(width * height, -np.inf)
    fbuf = np.full(width * height, -1, dtype=np.int64)
    lo = np.floor(screen.min(axis=1)).astype(np.int64)
    hi = np.ceil(screen.max(axis=1)).astype(np.int64)
    span = np.maximum(hi - lo, 1).max(axis=1)
    # Triangles grouped by the power-of-two square their bounding box fits in, then batched.
    bucket = np.ceil(np.log2(span)).astype(np.int64)
    for b in np.unique(bucket):
        k = int(2**b) + 1
        ids = np.nonzero(bucket == b)[0]
        oy, ox = np.mgrid[0:k, 0:k]
        ox, oy = ox.ravel(), oy.ravel()
        per_batch = max(1, _BATCH_SAMPLES // (k * k))
        for start in range(0, len(ids), per_batch):
            f = ids[start : start + per_batch]
            # A huge triangle alone is still tested in pieces of its bounding box.
            step = max(1, _BATCH_SAMPLES // len(f))
            for o in range(0, k * k, step):
                offsets = (ox[o : o + step], oy[o : o + step])
                _test_pixels(screen, depth, f, lo, offsets, zbuf, fbuf, width, height)
    return fbuf.reshape(height, width)


def _test_pixels(
    screen: np.ndarray,
    depth: np.ndarray,
    f: np.ndarray,
    lo: np.ndarray,
    offsets: tuple[np.ndarray, np.ndarray],
    zbuf: np.ndarray,
    fbuf: np.ndarray,
    width: int,
    height: int,
) -> None:
    """Test pixels at ``offsets`` (x, y) from each triangle's corner ``lo``; keep the nearest per pixel."""
    ox, oy = offsets
    px = lo[f, 0][:, None] + ox[None, :]
    py = lo[f, 1][:, None] + oy[None, :]
    cx, cy = px + 0.5, py + 0.5
    (x0, y0), (x1, y1), (x2, y2) = (screen[f, i, :].T[:, :, None] for i in range(3))
    area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    w0 = ((x1 - cx) * (y2 - cy) - (x2 - cx) * (y1 - cy)) / np.where(area == 0, 1, area)
    w1 = ((x2 - cx) * (y0 - cy) - (x0 - cx) * (y2 - cy)) / np.where(area == 0, 1, area)
    w2 = 1 - w0 - w1
    inside = (w0 >= 0) & (w1 >= 0) & (w2 >= 0) & (area != 0)
    inside &= (px >= 0) & (px < width) & (py >= 0) & (py < height)
    d = depth[f]
    z = w0 * d[:, 0:1] + w1 * d[:, 1:2] + w2 * d[:, 2:3]
    rows, cols = np.nonzero(inside)
    if len(rows) == 0:
        return
    pix = py[rows, cols] * width + px[rows, cols]
    zs = z[rows, cols]
    faces = f[rows]
    # Nearest sample per pixel within the batch (ties: lowest face index), then the buffer.
    order = np.lexsort((faces, -zs, pix))
    pix, zs, faces = pix[order], zs[order], faces[order]
    first = np.ones(len(pix), dtype=bool)
    first[1:] = pix[1:] != pix[:-1]
    pix, zs, faces = pix[first], zs[first], faces[first]
    nearer = zs > zbuf[pix]
    zbuf[pix[nearer]] = zs[nearer]
    fbuf[pix[nearer]] = faces[nearer]


def _outline(fbuf: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Pixels on a silhouette or a sharp fold (the face changes and the normals differ much)."""

    def line(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        na, nb = normals[np.maximum(a, 0)], normals[np.maximum(b, 0)]
        crease = (na * nb).sum(axis=-1) < CREASE_COS
        return (a != b) & ((a < 0) | (b < 0) | crease)

    edge = np.zeros(fbuf.shape, dtype=bool)
    edge[:, :-1] |= line(fbuf[:, :-1], fbuf[:, 1:])
    edge[:-1, :] |= line(fbuf[:-1, :], fbuf[1:, :])
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
    image = np.empty((height, width, 3), dtype=np.float64)
    image[:] = BACKGROUND_RGB
    hit = fbuf >= 0
    image[hit] = face_rgb[fbuf[hit]]
    image[_outline(fbuf, normals)] = EDGE_RGB
    picture = Image.fromarray(np.round(image).astype(np.uint8), "RGB")
    picture = picture.resize(size_px, Image.Resampling.LANCZOS)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_name(out_path.name + ".tmp")
    picture.save(tmp, format="PNG", optimize=False)
    tmp.replace(out_path)
    return out_path


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
