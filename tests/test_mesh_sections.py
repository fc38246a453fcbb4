"""Sections of a mesh by many planes at once (printables/check/mesh_sections.py).

The loops are shown to be made of exactly the segments trimesh's own plane cut gives, on meshes
cut through their vertices and edges as well as between them; a hole to be a loop inside
another; and a mesh with a missing face to give no loop where the face is missing.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import trimesh

from printables.check.mesh_sections import distance_to_sides, inside, section_loops


def _segments(pairs_a: np.ndarray, pairs_b: np.ndarray) -> list:
    """Unordered segments, rounded, sorted: comparable whatever the direction and order."""
    out = []
    for a, b in zip(np.round(pairs_a, 6).tolist(), np.round(pairs_b, 6).tolist()):
        out.append(tuple(sorted((tuple(a), tuple(b)))))
    return sorted(out)


def _trimesh_sides(mesh: trimesh.Trimesh, axis: int, h: float) -> list:
    normal = np.zeros(3)
    normal[axis] = 1.0
    seg = trimesh.intersections.mesh_plane(mesh, normal, normal * h)
    other = [a for a in range(3) if a != axis]
    keep = np.linalg.norm(seg[:, 0] - seg[:, 1], axis=1) > 1e-5
    return _segments(seg[keep][:, 0][:, other], seg[keep][:, 1][:, other])


def _tube() -> trimesh.Trimesh:
    m = trimesh.creation.annulus(r_min=1.25, r_max=4.3, height=10.0, sections=48)
    m.apply_transform(trimesh.transformations.rotation_matrix(-math.pi / 2, [1, 0, 0]))
    return m


@pytest.mark.parametrize("make, axis, heights", [
    (lambda: trimesh.creation.icosphere(subdivisions=3, radius=5.0), 1, np.linspace(-4.9, 4.9, 23)),
    # A subdivided box has vertices and whole edges in its middle planes (on-vertex, on-edge cuts).
    (lambda: trimesh.creation.box(extents=(4, 6, 8)).subdivide().subdivide(), 2, np.array([-2.0, 0.0, 1.0, 2.0, 3.9])),
    (_tube, 1, np.linspace(-4.9, 4.9, 17)),
])
def test_loops_are_the_segments_of_trimesh_s_cut(make, axis, heights):
    mesh = make()
    loops = section_loops(mesh.vertices, mesh.faces, axis, heights)
    for k, h in enumerate(heights):
        mine = [i for i in range(len(loops)) if loops.plane[i] == k]
        assert mine, f"no loop at {h}"
        a = np.concatenate([loops.sides(i)[0] for i in mine])
        b = np.concatenate([loops.sides(i)[1] for i in mine])
        assert _segments(a, b) == _trimesh_sides(mesh, axis, h)
        for i in mine:  # each loop's points are its sides' ends, each once
            pts = loops.loop_points(i)
            assert len(pts) == len(loops.sides(i)[0]) >= 3
            assert np.allclose(loops.lo[i], pts.min(0)) and np.allclose(loops.hi[i], pts.max(0))


def test_a_tube_cut_across_is_a_hole_inside_a_ring():
    loops = section_loops(_tube().vertices, _tube().faces, 1, np.array([0.3]))
    assert len(loops) == 2
    sizes = (loops.hi - loops.lo).max(1)
    hole, ring = int(np.argmin(sizes)), int(np.argmax(sizes))
    assert sizes[hole] == pytest.approx(2.5, abs=0.01) and sizes[ring] == pytest.approx(8.6, abs=0.01)
    assert inside(loops.first[hole], *loops.sides(ring))
    assert not inside(loops.first[ring], *loops.sides(hole))
    # The wall between them: 4.3 - 1.25 mm, less the facets' sag.
    wall = distance_to_sides(loops.loop_points(hole), *loops.sides(ring))
    assert wall == pytest.approx(3.05, abs=0.03)


def test_a_missing_face_opens_the_loops_it_crosses():
    mesh = trimesh.creation.icosphere(subdivisions=3, radius=5.0)
    gone = int(np.argmin(np.abs(mesh.triangles_center[:, 1])))  # at the equator
    broken = np.delete(mesh.faces, gone, axis=0)
    ys = mesh.vertices[mesh.faces[gone], 1]
    heights = np.array([ys.min() - 0.5, (ys.min() + ys.max()) / 2, ys.max() + 0.5])
    whole = section_loops(mesh.vertices, mesh.faces, 1, heights)
    open_ = section_loops(mesh.vertices, broken, 1, heights)
    assert list(whole.plane) == [0, 1, 2]
    assert list(open_.plane) == [0, 2]  # the plane through the gap has no closed loop


def test_a_cut_just_below_a_tip_welds_into_a_point():
    # The apex stands 1e-7 mm above the plane: its cut is a loop of sides far shorter than 1e-5 mm.
    cone = trimesh.creation.cone(radius=3.0, height=4.0, sections=24)
    loops = section_loops(cone.vertices, cone.faces, 2, np.array([2.0, 4.0 - 1e-7]))
    assert list(loops.plane) == [0]


def test_names_too_many_to_pack_give_the_same_loops(monkeypatch):
    import printables.check.mesh_sections as sections

    mesh = trimesh.creation.icosphere(subdivisions=3, radius=5.0)
    heights = np.linspace(-4.9, 4.9, 23)
    packed = section_loops(mesh.vertices, mesh.faces, 1, heights)
    monkeypatch.setattr(sections, "PACK_LIMIT", 0)
    sorted_ = section_loops(mesh.vertices, mesh.faces, 1, heights)
    for field in ("plane", "first", "lo", "hi", "points", "pstart", "side_a", "side_b", "sstart"):
        assert np.array_equal(getattr(packed, field), getattr(sorted_, field)), field
