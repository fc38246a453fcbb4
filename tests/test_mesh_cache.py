"""STL meshes shared by the checks of one process (printables/check/mesh_cache.py)."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh

from printables.check.mesh_cache import load_stl
from printables.check.stl_file import UnreadableStl


def _box(path, size):
    path.write_bytes(trimesh.creation.box(extents=size).export(file_type="stl"))


def test_a_changed_file_is_read_again_even_at_the_same_size(tmp_path):
    stl = tmp_path / "part.stl"
    _box(stl, (10, 20, 30))
    first = load_stl(stl, process=True)
    _box(stl, (10, 20, 31))  # same triangles, same byte count, other numbers
    again = load_stl(stl, process=True)
    assert first.extents.tolist() == [10, 20, 30] and again.extents.tolist() == [10, 20, 31]


def test_each_caller_gets_its_own_copy(tmp_path):
    stl = tmp_path / "part.stl"
    _box(stl, (10, 20, 30))
    mesh = load_stl(stl, process=True)
    assert mesh.is_watertight and mesh.volume == pytest.approx(6000)
    mesh.apply_scale((2.0, 1.0, 1.0))
    mesh.vertices[0] += 100.0
    fresh = load_stl(stl, process=True)
    assert fresh.extents.tolist() == [10, 20, 30] and fresh.volume == pytest.approx(6000)
    assert np.allclose(fresh.bounds, [[-5, -10, -15], [5, 10, 15]])


def test_a_truncated_file_is_still_refused(tmp_path):
    stl = tmp_path / "part.stl"
    _box(stl, (10, 20, 30))
    load_stl(stl, process=True)
    stl.write_bytes(stl.read_bytes()[:-20])
    with pytest.raises(UnreadableStl, match="truncated"):
        load_stl(stl, process=True)
