"""Sections of a mesh by many parallel planes at once, joined into closed loops.

The cuts are those of ``trimesh.intersections.mesh_plane`` (its sign tolerance and its three cases:
an edge crossing on each side of a lone vertex, a vertex on the plane and the opposite edge
crossing, an edge lying in the plane with the third vertex above it) made for every plane in one
numpy pass. A cut point is named by the mesh edge (or vertex) it lies on, so the two triangles
sharing an edge give the very same point; the two ends of a side shorter than ``WELD_MM`` (cut next
to a vertex lying just off the plane) are welded into one point. A plane's segments form loops:
each connected piece whose points all join two segments is one loop; any other piece (a damaged
mesh: open or branching) is walked segment by segment as a chain would be, keeping only the walks
that close.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

SIGN_TOLERANCE = 1e-8  # trimesh's tol.merge: a vertex this close to a plane lies in it
WELD_MM = 1e-5  # a side shorter than this is a point
PLANE_SLACK = 1e-6  # faces reaching a plane within this are cut against it
PACK_LIMIT = 2**62  # (plane, vertex, vertex) names packed in one int64 below this many


@dataclass(frozen=True)
class Loops:
    """Closed section loops of many planes, in 2-D coordinates of the plane (the other two axes).

    Loop ``i`` lies in plane ``plane[i]``; its points are ``points[pstart[i]:pstart[i + 1]]`` (each
    once) and its sides run from ``side_a[k]`` to ``side_b[k]`` for k in ``sstart[i]:sstart[i + 1]``.
    ``first[i]`` is the point its walk starts from. Loops are ordered by plane, then by the first
    segment of theirs in the cut order.
    """

    plane: np.ndarray
    first: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    points: np.ndarray
    pstart: np.ndarray
    side_a: np.ndarray
    side_b: np.ndarray
    sstart: np.ndarray

    def __len__(self) -> int:
        return len(self.plane)

    def loop_points(self, i: int) -> np.ndarray:
        return self.points[self.pstart[i]:self.pstart[i + 1]]

    def sides(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        return self.side_a[self.sstart[i]:self.sstart[i + 1]], self.side_b[self.sstart[i]:self.sstart[i + 1]]


def _code(signs: tuple[int, int, int]) -> int:
    """trimesh's case code of a face's vertex signs: 14 + 8 s0 + 4 s1 + 2 s2 over the sorted signs."""
    s0, s1, s2 = sorted(signs)
    return 14 + 8 * s0 + 4 * s1 + 2 * s2


_CODES = np.array([_code((a, b, c)) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)], dtype=np.int64)


def _cuts(vertices: np.ndarray, faces: np.ndarray, axis: int, heights: np.ndarray):
    """Every (plane, face) cut as two end nodes: node = (plane, vertex i, vertex j), i < j for an
    edge crossing, i == j for a vertex in the plane. Rows in trimesh's order per plane."""
    along = vertices[:, axis]
    h0, h1, h2 = along[faces[:, 0]], along[faces[:, 1]], along[faces[:, 2]]
    lo = np.minimum(np.minimum(h0, h1), h2) - PLANE_SLACK
    hi = np.maximum(np.maximum(h0, h1), h2) + PLANE_SLACK
    k0 = np.searchsorted(heights, lo, "left")
    k1 = np.searchsorted(heights, hi, "right")
    counts = np.maximum(k1 - k0, 0)
    face = np.repeat(np.arange(len(faces)), counts)
    plane = np.repeat(k0, counts) + np.arange(len(face)) - np.repeat(np.cumsum(counts) - counts, counts)
    tri = faces[face]
    dots = along[tri] - heights[plane][:, None]
    signs = np.zeros(dots.shape, dtype=np.int8)
    signs[dots < -SIGN_TOLERANCE] = -1
    signs[dots > SIGN_TOLERANCE] = 1
    # trimesh's code of the sorted signs, looked up from the signs in any order.
    key = (signs[:, 0] + 1) * 9 + (signs[:, 1] + 1) * 3 + (signs[:, 2] + 1)
    code = _CODES[key]
    basic = (code == 4) | (code == 12)
    one_vertex = code == 8
    one_edge = code == 16
    rows = np.arange(len(face))

    # A lone vertex u: crossings on its edges to u+1 and to u+2.
    b = np.flatnonzero(basic)
    s = signs[b]
    u = np.where(s[:, 0] == s[:, 1], 2, np.where(s[:, 0] == s[:, 2], 1, 0))
    t = tri[b]
    vu, v1, v2 = t[rows[:len(b)], u], t[rows[:len(b)], (u + 1) % 3], t[rows[:len(b)], (u + 2) % 3]
    basic_ends = (np.stack([np.minimum(vu, v1), np.maximum(vu, v1)], 1),
                  np.stack([np.minimum(vu, v2), np.maximum(vu, v2)], 1))
    # A vertex in the plane, the crossing on the edge between the other two.
    o = np.flatnonzero(one_vertex)
    s = signs[o]
    t = tri[o]
    z = np.argmax(s == 0, axis=1)
    p, q = t[rows[:len(o)], (z + 1) % 3], t[rows[:len(o)], (z + 2) % 3]
    vz = t[rows[:len(o)], z]
    vertex_ends = (np.stack([vz, vz], 1), np.stack([np.minimum(p, q), np.maximum(p, q)], 1))
    # An edge in the plane: its two vertices, in the face's order.
    e = np.flatnonzero(one_edge)
    s = signs[e]
    t = tri[e]
    first_zero = np.argmax(s == 0, axis=1)
    second_zero = 2 - np.argmax((s == 0)[:, ::-1], axis=1)
    va, vb = t[rows[:len(e)], first_zero], t[rows[:len(e)], second_zero]
    edge_ends = (np.stack([va, va], 1), np.stack([vb, vb], 1))

    which = np.concatenate([b, o, e])
    case = np.repeat([0, 1, 2], [len(b), len(o), len(e)])
    end_a = np.concatenate([basic_ends[0], vertex_ends[0], edge_ends[0]])
    end_b = np.concatenate([basic_ends[1], vertex_ends[1], edge_ends[1]])
    order = np.lexsort((face[which], case, plane[which]))
    return plane[which][order], end_a[order], end_b[order]


def section_loops(vertices: np.ndarray, faces: np.ndarray, axis: int, heights: np.ndarray) -> Loops:
    """Closed loops of the sections of a mesh by the planes ``vertices[:, axis] = heights`` (ascending)."""
    vertices = np.asarray(vertices, dtype=np.float64)
    faces = np.asarray(faces, dtype=np.int64)
    heights = np.asarray(heights, dtype=np.float64)
    other = [a for a in range(3) if a != axis]
    plane, end_a, end_b = _cuts(vertices, faces, axis, heights)
    n = len(plane)
    if n == 0:
        return _empty()
    # Name every cut point by (plane, i, j) and compute it once per name.
    nv = len(vertices)
    key = np.concatenate([(plane * nv + end_a[:, 0]) * nv + end_a[:, 1], (plane * nv + end_b[:, 0]) * nv + end_b[:, 1]])
    packed = len(heights) * nv * nv < PACK_LIMIT
    if not packed:  # too many to pack in one integer: sort the triples
        triples = np.concatenate([np.c_[plane, end_a], np.c_[plane, end_b]])
        _, key = np.unique(triples, axis=0, return_inverse=True)
    names, ids = np.unique(key, return_inverse=True)
    ids = ids.ravel()
    if not packed:
        first = np.zeros(len(names), dtype=np.int64)
        first[ids] = np.arange(len(ids))
        node_plane, i, j = triples[first, 0], triples[first, 1], triples[first, 2]
    else:
        node_plane, rest = np.divmod(names, nv * nv)
        i, j = np.divmod(rest, nv)
    along = vertices[:, axis]
    h = heights[node_plane]
    crossing = i != j
    denom = np.where(crossing, along[j] - along[i], 1.0)
    f = np.where(crossing, (h - along[i]) / denom, 0.0)
    coords = (vertices[i] + (vertices[j] - vertices[i]) * f[:, None])[:, other]
    # Weld the ends of sides shorter than WELD_MM (a cut next to a vertex just off the plane).
    short = np.flatnonzero(((coords[ids[:n]] - coords[ids[n:]]) ** 2).sum(1) <= WELD_MM**2)
    weld = coo_matrix((np.ones(len(short)), (ids[short], ids[n + short])), shape=(len(names), len(names)))
    _, welded = connected_components(weld, directed=False)
    # A welded point stands for the last of the names welded into it.
    rep = np.zeros(int(welded.max()) + 1, dtype=np.int64)
    np.maximum.at(rep, welded, np.arange(len(welded)))
    point = coords[rep]
    wplane = node_plane[rep]
    wa, wb = welded[ids[:n]], welded[ids[n:]]
    live = np.flatnonzero(wa != wb)  # segments shrunk to a point join nothing
    wa, wb = wa[live], wb[live]
    w = len(rep)
    graph = coo_matrix((np.ones(len(live)), (wa, wb)), shape=(w, w))
    _, comp = connected_components(graph, directed=False)
    degree = np.bincount(wa, minlength=w) + np.bincount(wb, minlength=w)
    used = degree > 0
    ncomp = int(comp.max()) + 1
    simple = np.ones(ncomp, dtype=bool)
    np.logical_and.at(simple, comp[used], degree[used] == 2)
    size = np.bincount(comp[used], minlength=ncomp)
    first_seg = np.full(ncomp, len(live), dtype=np.int64)
    np.minimum.at(first_seg, comp[wa], np.arange(len(live)))
    loops = []  # (first segment, plane, start point, point ids, sides a, sides b)
    good = np.flatnonzero(simple & (size >= 3) & (first_seg < len(live)))
    # Points and sides of the simple loops, grouped by loop.
    point_ids = np.flatnonzero(used & np.isin(comp, good))
    point_ids = point_ids[np.argsort(comp[point_ids], kind="stable")]
    seg_ids = np.flatnonzero(np.isin(comp[wa], good))
    seg_ids = seg_ids[np.argsort(comp[wa[seg_ids]], kind="stable")]
    p_bounds = np.searchsorted(comp[point_ids], good), np.searchsorted(comp[point_ids], good, "right")
    s_bounds = np.searchsorted(comp[wa[seg_ids]], good), np.searchsorted(comp[wa[seg_ids]], good, "right")
    for k, c in enumerate(good):
        s0 = first_seg[c]
        loops.append((int(s0), int(wplane[wa[s0]]), wa[s0], point_ids[p_bounds[0][k]:p_bounds[1][k]],
                      wa[seg_ids[s_bounds[0][k]:s_bounds[1][k]]], wb[seg_ids[s_bounds[0][k]:s_bounds[1][k]]]))
    # Branching or open pieces: walk them as chains of segments.
    odd = np.flatnonzero(~simple & (first_seg < len(live)))
    if len(odd):
        in_odd = np.flatnonzero(np.isin(comp[wa], odd))
        for s0, walk in _walk(wa[in_odd].tolist(), wb[in_odd].tolist()):
            ids_ = np.array(walk[:-1], dtype=np.int64)
            loops.append((int(in_odd[s0]), int(wplane[ids_[0]]), ids_[0], ids_, ids_, np.roll(ids_, -1)))
    if not loops:
        return _empty()
    loops.sort(key=lambda lp: (lp[1], lp[0]))
    pcount = np.array([len(lp[3]) for lp in loops])
    scount = np.array([len(lp[4]) for lp in loops])
    pts = point[np.concatenate([lp[3] for lp in loops])]
    pstart = np.r_[0, np.cumsum(pcount)]
    lo = np.minimum.reduceat(pts, pstart[:-1], axis=0)
    hi = np.maximum.reduceat(pts, pstart[:-1], axis=0)
    return Loops(
        plane=np.array([lp[1] for lp in loops], dtype=np.int64),
        first=point[np.array([lp[2] for lp in loops], dtype=np.int64)],
        lo=lo, hi=hi, points=pts, pstart=pstart,
        side_a=point[np.concatenate([lp[4] for lp in loops])],
        side_b=point[np.concatenate([lp[5] for lp in loops])],
        sstart=np.r_[0, np.cumsum(scount)],
    )


def _walk(ends_a: list[int], ends_b: list[int]) -> list[tuple[int, list[int]]]:
    """Closed walks through segments (a, b), each taken once, starting from the first unused one;
    a walk that does not return to its start, or visits fewer than three points, is dropped."""
    neighbours: dict[int, list[int]] = {}
    for s, (a, b) in enumerate(zip(ends_a, ends_b)):
        neighbours.setdefault(a, []).append(s)
        neighbours.setdefault(b, []).append(s)
    used = bytearray(len(ends_a))
    walks = []
    for s0 in range(len(ends_a)):
        if used[s0]:
            continue
        used[s0] = 1
        start, current = ends_a[s0], ends_b[s0]
        loop = [start, current]
        while current != start:
            for s in neighbours.get(current, ()):
                if not used[s]:
                    break
            else:
                break
            used[s] = 1
            a = ends_a[s]
            current = ends_b[s] if a == current else a
            loop.append(current)
        if current == start and len(loop) > 3:
            walks.append((s0, loop))
    return walks


def _empty() -> Loops:
    e2 = np.zeros((0, 2))
    ei = np.zeros(0, dtype=np.int64)
    return Loops(ei, e2, e2, e2, e2, np.zeros(1, dtype=np.int64), e2, e2, np.zeros(1, dtype=np.int64))


def inside(point: np.ndarray, side_a: np.ndarray, side_b: np.ndarray) -> bool:
    """Even-odd test of a 2-D point against a closed polygon given by its sides."""
    x, y = point
    a, b = side_a, side_b
    dy = b[:, 1] - a[:, 1]
    crosses = ((a[:, 1] > y) != (b[:, 1] > y)) & (
        x < a[:, 0] + (y - a[:, 1]) * (b[:, 0] - a[:, 0]) / np.where(dy == 0, 1, dy)
    )
    return bool(crosses.sum() % 2)


def distance_to_sides(points: np.ndarray, side_a: np.ndarray, side_b: np.ndarray) -> float:
    """Smallest distance from any of ``points`` to the segments side_a[k]-side_b[k]."""
    if not len(points) or not len(side_a):
        return float("inf")
    # Only sides reaching within the distance to the nearest side end can hold the nearest point.
    bound = float(np.sqrt(((side_a - points[0]) ** 2).sum(1).min()))
    lo, hi = points.min(0) - bound, points.max(0) + bound
    near = np.all(np.minimum(side_a, side_b) <= hi, axis=1) & np.all(np.maximum(side_a, side_b) >= lo, axis=1)
    a = side_a[near]
    ab = side_b[near] - a
    denom = np.maximum((ab**2).sum(1), 1e-18)
    p = points[:, None, :]  # every point against every side at once
    t = np.clip(((p - a) * ab).sum(2) / denom, 0, 1)
    return float(np.sqrt(((a + t[:, :, None] * ab - p) ** 2).sum(2)).min())
