"""Reading a 3MF's mesh: the plain vertex and triangle lists are read with regular expressions, any
other form with the XML parser, and both give the same triangles; the closed-solid test counts
edges with numpy. Each is shown to fail a broken file."""

from __future__ import annotations

import re
import zipfile

import numpy as np
import pytest
import trimesh

from printables.cad.threemf import export_3mf
from printables.check.giuthi_3mf import _open_edges, check_3mf, read_3mf
from printables.check.slicer import PROFILE_FILE, profile_text


@pytest.fixture
def made(tmp_path):
    body = trimesh.creation.icosphere(subdivisions=2, radius=5.0)
    body.apply_translation((10.0, 10.0, 5.0))
    stl = tmp_path / "giuthi-board-left-test.stl"
    stl.write_bytes(body.export(file_type="stl"))
    (tmp_path / PROFILE_FILE).write_text(profile_text(), encoding="utf-8")
    return export_3mf(stl, stl.with_suffix(".3mf"), profile_text())


def _edit(path, edit):
    with zipfile.ZipFile(path) as archive:
        entries = {n: archive.read(n).decode() for n in archive.namelist()}
    entries["3D/3dmodel.model"] = edit(entries["3D/3dmodel.model"])
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in entries.items():
            archive.writestr(name, text)


def _failed(path) -> dict:
    return {r.name.split(": ", 1)[1]: r.detail for r in check_3mf(path) if not r.ok}


def _swap_attributes(model: str) -> str:
    return re.sub(r'<vertex x="([^"]*)" y="([^"]*)" z="([^"]*)"/>', r'<vertex z="\3" y="\2" x="\1"/>', model)


@pytest.mark.parametrize("edit", [
    _swap_attributes,  # attributes in another order
    lambda m: m.replace("<vertices>", '<vertices><!-- <vertex x="99" y="99" z="99"/> -->', 1),  # a comment
    lambda m: m.replace("<triangles>", "<triangles >", 1),  # a tag written otherwise
    lambda m: m.replace('<triangle v1="0"', '<triangle pid="1" v1="0"', 1),  # an attribute more
])
def test_any_form_of_the_lists_reads_as_the_plain_one(made, edit):
    plain, _, _ = read_3mf(made)
    _edit(made, edit)
    again, _, _ = read_3mf(made)
    assert np.array_equal(plain, again)
    assert _failed(made) == {}


def test_a_vertex_that_is_no_number_fails_the_read(made):
    _edit(made, lambda m: m.replace('<vertex x="', '<vertex x="abc', 1))
    assert "could not convert string to float" in _failed(made)["3MF"]


def test_a_triangle_naming_a_missing_vertex_fails_the_read(made):
    _edit(made, lambda m: m.replace('<triangle v1="0"', '<triangle v1="100000"', 1))
    assert "bad vertex indices" in _failed(made)["3MF"]


def test_a_turned_triangle_opens_the_solid(made):
    def turn_first(model):
        return re.sub(r'<triangle v1="(\d+)" v2="(\d+)" v3="(\d+)"/>', r'<triangle v1="\2" v2="\1" v3="\3"/>', model, count=1)

    _edit(made, turn_first)
    failed = _failed(made)
    # Its three edges now run the same way as its neighbours': each doubled, none reversed.
    assert failed["3MF closed"] == "3 edges open or doubled"


def test_open_edges_counts_each_directed_edge_as_python_tuples_would():
    tri = trimesh.creation.box().triangles

    def by_dict(triangles):
        edges = np.round(np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]]), 6)
        keys: dict = {}
        for p, q in ((tuple(e[0]), tuple(e[1])) for e in edges):
            keys[(p, q)] = keys.get((p, q), 0) + 1
        return sum(1 for (p, q), k in keys.items() if k != 1 or keys.get((q, p)) != 1)

    nan = tri.copy()
    nan[3, 1, 2] = np.nan
    cases = [tri, tri[1:], np.concatenate([tri, tri[:2]]), np.concatenate([tri[:1, ::-1], tri[1:]]), nan,
             np.where(tri == 0.5, -0.0, tri) - np.where(tri == 0.5, 0.5, 0.0), tri + 1e-8]
    for case in cases:
        assert _open_edges(case) == by_dict(case)
    assert _open_edges(tri) == 0 and _open_edges(tri[1:]) == 3


@pytest.mark.parametrize("seed", range(6))
def test_open_edges_of_random_damage_are_those_python_tuples_count(seed):
    """Corners snapped to a coarse lattice (many shared, some doubled or lost), signs of zero, NaNs."""
    rng = np.random.default_rng(seed)
    tri = np.round(rng.random((300, 3, 3)) * 3) / 2 - 0.5 * (seed % 2)
    tri[rng.random(tri.shape) < 0.05] *= -1  # -0.0 where a 0 was
    tri[rng.random(tri.shape) < 0.01] = np.nan
    tri[::7] += 4e-7 * (seed - 3)  # rounds to the same corner or the next
    box = trimesh.creation.box().triangles
    for case in (tri, np.concatenate([box, box[:3] + 0.0, tri[:5]])):
        edges = np.round(np.concatenate([case[:, [0, 1]], case[:, [1, 2]], case[:, [2, 0]]]), 6)
        keys: dict = {}
        for p, q in ((tuple(e[0]), tuple(e[1])) for e in edges):
            keys[(p, q)] = keys.get((p, q), 0) + 1
        assert _open_edges(case) == sum(1 for (p, q), k in keys.items() if k != 1 or keys.get((q, p)) != 1)


def test_list_bodies_are_those_the_lazy_expression_finds():
    import random

    from printables.check.giuthi_3mf import _blocks

    reference = re.compile(rb"<(vertices|triangles)>(.*?)</\1>", re.S)
    parts = [b"<vertices>", b"</vertices>", b"<triangles>", b"</triangles>", b"x", b"<vertex/>"]
    rng = random.Random(3)
    for _ in range(2000):
        text = b"".join(rng.choice(parts) for _ in range(rng.randint(0, 10)))
        assert list(_blocks(text)) == [(m.group(1), m.start(2), m.end(2)) for m in reference.finditer(text)], text
