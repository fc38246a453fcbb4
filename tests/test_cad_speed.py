"""The cheap ways printables.cad drives cadquery: the one-plane Workplane, one serial boolean a run."""

from __future__ import annotations

import pytest


def test_named_planes_are_cadquerys():
    cq = pytest.importorskip("printables.cad.workplane").cq
    from printables.cad.workplane import _NAMED, named_plane

    for name in _NAMED:
        for origin in ((0, 0, 0), (1.5, -2, 3.25)):
            ours, theirs = named_plane(name, origin), cq.Plane.named(name, origin)
            for attr in ("origin", "xDir", "yDir", "zDir"):
                assert getattr(ours, attr).toTuple() == getattr(theirs, attr).toTuple(), (name, attr)
    with pytest.raises(ValueError):
        cq.Plane.named("sideways")
    assert set(_NAMED) == {"XY", "YZ", "ZX", "XZ", "YX", "ZY", "front", "back", "left", "right", "top", "bottom"}


def test_workplane_makes_the_same_solids_as_cadquerys(tmp_path):
    workplane = pytest.importorskip("printables.cad.workplane")
    cq = workplane.cq

    def brep(shape, name: str) -> bytes:
        path = tmp_path / f"{name}.brep"
        shape.exportBrep(str(path))
        return path.read_bytes()

    for make in (
        lambda W: W("XZ", origin=(0, 2, 0)).moveTo(0, 0).lineTo(3, 0).threePointArc((2.5, 2.5), (0, 3)).close().extrude(-4),
        lambda W: W("YZ", origin=(1, 0, 0)).polyline([(0, 0), (2, 0), (1, 1)]).close().extrude(5),
        lambda W: W("XY").workplane(offset=-1).polyline([(0, 0), (2, 0), (2, 2)]).close().extrude(3),
        lambda W: W("XZ", origin=(0, 1, 0)).center(2, 3).circle(1.5).extrude(-2),
    ):
        ours, theirs = make(workplane.Workplane).val(), make(cq.Workplane).val()
        assert isinstance(make(workplane.Workplane), cq.Workplane)
        assert [v.toTuple() for v in ours.Vertices()] == [v.toTuple() for v in theirs.Vertices()]
        assert ours.Volume() == theirs.Volume()
        assert brep(ours, "ours") == brep(theirs, "theirs")


# -- the board half: one cut where it gives the same solid ------------------------------------------


def _sequential_half(cad, p, lay):
    """A half made the long way: each step cut in turn (the lid's letters too), the knuckles fused
    after the surface cuts."""
    shape = cad._body(lay)
    for tools in (cad._pits(lay), cad._stores(lay), cad._side_marks(lay), cad._band_groove(lay, p), cad._lid(lay)):
        if tools:  # the left half's lid carries no letters
            shape = cad._cut(shape, tools)
    knuckles, notches = cad._hinge(lay, p)
    shape = cad._cut(cad._fuse([shape] + knuckles), notches)
    return cad._screw_holes(shape, lay).Solids()[0]


def _same_solid(a, b) -> bool:
    return abs(a.Volume() - b.Volume()) < 1e-6 * b.Volume() and a.cut(b).Volume() < 1e-6 and b.cut(a).Volume() < 1e-6


@pytest.mark.slow
@pytest.mark.parametrize("side", ["left", "right"])
def test_half_in_one_cut_is_the_half_made_step_by_step(side):
    cad = pytest.importorskip("printables.cad.giuthi_board")
    from printables.layout.giuthi_board import half_layout
    from printables.params.giuthi_board import GiuthiBoardParams

    p = GiuthiBoardParams()
    lay = half_layout(p, side)
    surface = cad._pits(lay) + cad._stores(lay) + cad._side_marks(lay) + cad._band_groove(lay, p) + cad._lid(lay)
    assert cad._apart(surface, cad._hinge(lay, p)[0])  # the one-cut path
    half = cad.build_half(p, side)
    assert _same_solid(half, _sequential_half(cad, p, lay))
    assert len(half.Faces()) == len(_sequential_half(cad, p, lay).Faces())


@pytest.mark.slow
def test_a_cutter_that_meets_a_knuckle_is_cut_before_the_knuckle_is_added():
    import dataclasses

    cad = pytest.importorskip("printables.cad.giuthi_board")
    from printables.layout.giuthi_board import Mark, half_layout
    from printables.params.giuthi_board import GiuthiBoardParams

    p = GiuthiBoardParams()
    lay = half_layout(p, "left")
    k = lay.knuckles[0]
    # A dimple on the fold, under the knuckle: made step by step, the knuckle fills it again.
    dimple = Mark("dot", 0, lay.axis_x, lay.axis_x, (k.y0 + k.y1) / 2)
    lay = dataclasses.replace(lay, marks=lay.marks + (dimple,))
    knuckles = cad._hinge(lay, p)[0]
    assert not cad._apart(cad._side_marks(lay), knuckles)
    half = cad.build_half(p, "left", lay)
    assert _same_solid(half, _sequential_half(cad, p, lay))
    # ... and one cut of everything would have left the dimple in the knuckle.
    wrong = cad._cut(cad._fuse([cad._body(lay)] + knuckles), cad._side_marks(lay)).Solids()[0]
    right = cad._fuse([cad._cut(cad._body(lay), cad._side_marks(lay))] + knuckles).Solids()[0]
    assert right.Volume() - wrong.Volume() > 0.1


def test_apart_looks_past_loose_bounding_boxes():
    workplane = pytest.importorskip("printables.cad.workplane")
    cad = pytest.importorskip("printables.cad.giuthi_board")
    cq = workplane.cq

    ball = cq.Solid.makeSphere(10.0, cq.Vector(0, 0, 0), angleDegrees1=-90, angleDegrees2=90)
    corner = cq.Solid.makeBox(1, 1, 1, cq.Vector(8, 8, 8))  # inside the ball's box, outside the ball
    assert cad._apart([ball], [corner])
    assert not cad._apart([ball], [corner.moved(cq.Location(cq.Vector(-3, -3, -3)))])
    near = corner.moved(cq.Location(cq.Vector(-1.8, -1.8, -1.8)))  # 0.74 mm from the ball
    assert cad._apart([ball], [near], gap_mm=0.5) and not cad._apart([ball], [near], gap_mm=1.0)
    # Wholly inside, either way round: the surfaces are apart but the solids meet.
    inner = corner.moved(cq.Location(cq.Vector(-8.5, -8.5, -8.5)))
    assert not cad._apart([ball], [inner])
    assert not cad._apart([inner], [ball])


@pytest.mark.slow
def test_cutters_cut_off_above_the_surface_make_the_same_half(monkeypatch):
    """The cups' and stores' cutters stop ``ABOVE_MM`` over the playing surface (less to cut); cutters
    reaching 10 mm higher cut only air there, and make the same half."""
    cad = pytest.importorskip("printables.cad.giuthi_board")
    from printables.layout.giuthi_board import half_layout
    from printables.params.giuthi_board import GiuthiBoardParams

    p = GiuthiBoardParams()
    lay = half_layout(p, "right")
    top = lay.outline.z1
    trimmed = cad._pits(lay) + cad._stores(lay)
    assert all(t.BoundingBox().zmax <= top + cad.ABOVE_MM + 1e-6 for t in trimmed)
    half = cad.build_half(p, "right")

    monkeypatch.setattr(cad, "ABOVE_MM", cad.ABOVE_MM + 10)
    assert max(t.BoundingBox().zmax for t in cad._pits(lay)) > top + 10  # the cutters now reach far up
    assert _same_solid(half, cad.build_half(p, "right"))


def test_step_text_zeroes_tiny_numbers_and_leaves_the_rest_as_the_full_pattern_does():
    import random

    from printables.cad import export

    def full(text):  # the whole-text substitution, with no shortcut
        return export._STEP_NUMBER.sub(export._zero_tiny, text)

    line = "#12 = CARTESIAN_POINT('',(1.97E-31,-2.5E-13,3.E-12,4.5E-11,'a1.0E-20',x-1.E-40,#2.0E-15));\n"
    assert export.step_text(line) == "#12 = CARTESIAN_POINT('',(0.,0.,0.,4.5E-11,'a1.0E-20',x-0.,#2.0E-15));\n"
    plain = "#3 = DIRECTION('',(1.E-05,0.,-7.2E-11));\n"
    assert export.step_text(plain) == plain
    rng = random.Random(14)
    pieces = ["1.", "-2.5", "E-", "E-1", "E-12", "E-013", "E-9", "#", "'", ".", ",", "(", "x", "7", "0.0", " ",
              "\n", "\r\n"]
    for _ in range(6000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 16)))
        assert export.step_text(text) == full(text), text


def test_3mf_coordinates_keep_their_own_text_when_formatted_once_per_distinct_value():
    import numpy as np

    from printables.cad import threemf

    values = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 5e-324, 1.5, float(np.float32(0.1)), -0.0, 1.5, 0.0])
    assert threemf._reprs(values) == [repr(v) for v in values.tolist()]
    vertices = np.array([[0.0, -0.0, 1.5], [-0.0, 0.0, 1.5], [0.1, 2.0, 0.0]])
    text = threemf.model_xml(vertices, np.array([[0, 1, 2]]), "t")
    assert '<vertex x="0.0" y="-0.0" z="1.5"/>' in text and '<vertex x="-0.0" y="0.0" z="1.5"/>' in text
    assert f'<vertex x="{float(np.float32(0.1))!r}" y="2.0" z="0.0"/>' in text
    assert '<triangle v1="0" v2="1" v3="2"/>' in text
