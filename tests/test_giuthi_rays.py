"""Vertical rays against triangles (printables/check/giuthi_stl.vertical_hits).

Only the rays near each triangle along each grid row are tested; these tests show that no ray the
barycentric test takes is lost by that, against testing every ray of the triangle's bounding box,
for long thin slivers, near-degenerate triangles and rays through corners and along edges.
"""

from __future__ import annotations

import numpy as np
import pytest

from printables.check.giuthi_stl import Grid, grid_over, vertical_hits


def _every_ray(tri: np.ndarray, grid: Grid):
    """The same barycentric test for every ray of every triangle's bounding box."""
    rays, zs, tris = [], [], []
    for t, (a, b, c) in enumerate(tri):
        i0 = max(int(np.ceil((min(a[0], b[0], c[0]) - grid.x0) / grid.step)), 0)
        i1 = min(int(np.floor((max(a[0], b[0], c[0]) - grid.x0) / grid.step)), grid.nx - 1)
        j0 = max(int(np.ceil((min(a[1], b[1], c[1]) - grid.y0) / grid.step)), 0)
        j1 = min(int(np.floor((max(a[1], b[1], c[1]) - grid.y0) / grid.step)), grid.ny - 1)
        d = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1])
        if abs(d) <= 1e-12:
            continue
        for j in range(j0, j1 + 1):
            py = grid.y0 + j * grid.step
            for i in range(i0, i1 + 1):
                px = grid.x0 + i * grid.step
                l0 = ((b[1] - c[1]) * (px - c[0]) + (c[0] - b[0]) * (py - c[1])) / d
                l1 = ((c[1] - a[1]) * (px - c[0]) + (a[0] - c[0]) * (py - c[1])) / d
                l2 = 1.0 - l0 - l1
                if l0 >= 0 and l1 >= 0 and l2 >= 0:
                    rays.append(j * grid.nx + i)
                    zs.append(l0 * a[2] + l1 * b[2] + l2 * c[2])
                    tris.append(t)
    ray, z, t = np.array(rays, dtype=np.int64), np.array(zs), np.array(tris, dtype=np.int64)
    order = np.lexsort((z, ray))
    return ray[order], z[order], t[order]


def _triangles(kind: str, rng) -> np.ndarray:
    k = 60
    base = rng.uniform(-20, 20, (k, 1, 3))
    if kind == "slivers":
        return base + rng.normal(size=(k, 1, 3)) * rng.uniform(-25, 25, (k, 3, 1)) + rng.normal(scale=0.2, size=(k, 3, 3))
    if kind == "near-degenerate":
        tri = base + rng.uniform(-5, 5, (k, 3, 3))
        tri[:, 2] = tri[:, 0] + (tri[:, 1] - tri[:, 0]) * rng.uniform(0, 1, (k, 1)) + rng.normal(scale=1e-7, size=(k, 3))
        return tri
    if kind == "on the grid":  # corners on rays, edges along rows and columns
        return np.round(base + rng.uniform(-5, 5, (k, 3, 3)), 0)
    tri = base + rng.uniform(-5, 5, (k, 3, 3))
    tri[:, 1, 1] = tri[:, 0, 1]  # a side along x
    return tri


@pytest.mark.parametrize("kind", ["slivers", "near-degenerate", "on the grid", "flat sides"])
@pytest.mark.parametrize("seed", [1, 2])
def test_hits_are_those_of_testing_every_ray_in_the_box(kind, seed):
    rng = np.random.default_rng(seed)
    ordinary = rng.uniform(-20, 20, (20, 1, 3)) + rng.uniform(-5, 5, (20, 3, 3))
    tri = np.concatenate([_triangles(kind, rng), ordinary])
    pts = tri.reshape(-1, 3)
    grid = Grid(-50.0, -50.0, 0.5, 200, 200) if kind == "on the grid" else grid_over(pts.min(0), pts.max(0), 0.5)
    got = vertical_hits(tri, grid)
    want = _every_ray(tri, grid)
    assert len(want[0]) > 100
    for g, w in zip(got, want):
        assert np.array_equal(g, w)


@pytest.mark.parametrize("rays", [1, 300, 2**16, 2**16 + 1, 5_000_000, 2**32, 2**32 + 5])
def test_hits_ordered_as_lexsort_orders_them(rays):
    from printables.check.giuthi_stl import by_ray_then_z

    rng = np.random.default_rng(rays % 1000)
    ray = rng.integers(0, rays, 4000)
    ray[3::3] = ray[1:-2:3]  # many hits share a ray
    z = np.round(rng.normal(size=4000), 1)  # and a z
    z[::50] = -0.0
    z[1::50] = 0.0
    z[2::97] = np.nan
    assert np.array_equal(by_ray_then_z(ray, z, rays), np.lexsort((z, ray)))


def test_a_half_s_hits_are_cast_once_per_grid_during_a_board_check(monkeypatch):
    import trimesh

    from printables.check import giuthi_stl

    half, turned = trimesh.creation.box((10, 20, 5)), trimesh.creation.box((10, 20, 6))
    cast = []
    real = giuthi_stl.vertical_hits
    monkeypatch.setattr(giuthi_stl, "vertical_hits", lambda tri, grid: cast.append(grid) or real(tri, grid))
    g1, g2 = grid_over(half.bounds[0], half.bounds[1], 0.5), grid_over(half.bounds[0], half.bounds[1], 1.0)
    expected = real(half.triangles, g1)
    assert all(np.array_equal(a, b) for a, b in zip(giuthi_stl.mesh_hits(half.vertices, half.faces, g1), expected))
    giuthi_stl.mesh_hits(half.vertices, half.faces, g1)
    assert len(cast) == 2  # no board being checked: nothing kept
    giuthi_stl._MEMO.append({"halves": {id(half.vertices)}})
    try:
        first = giuthi_stl.mesh_hits(half.vertices, half.faces, g1)
        again = giuthi_stl.mesh_hits(half.vertices, half.faces, g1)
        assert again is first and len(cast) == 3 and not first[1].flags.writeable
        assert all(np.array_equal(a, b) for a, b in zip(first, expected))
        giuthi_stl.mesh_hits(half.vertices, half.faces, g2)  # another grid
        giuthi_stl.mesh_hits(turned.vertices, turned.faces, g1)  # not one of the halves: never kept
        giuthi_stl.mesh_hits(turned.vertices, turned.faces, g1)
        assert len(cast) == 6
    finally:
        giuthi_stl._MEMO.pop()
    assert not giuthi_stl._MEMO
