"""The cheap ways printables.cad drives cadquery: the import without VTK, the one-plane Workplane."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(code: str) -> str:
    """Run ``code`` in a fresh interpreter (the import under test happens once a process)."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_cad_modules_import_cadquery_without_vtk_and_vtk_still_works_later():
    out = _run("""
        import sys
        import printables.cad.giuthi_board as cad
        import OCP
        print("vtk loaded:", any(n == "vtk" or n.startswith(("vtkmodules", "OCP.IVtk")) for n in sys.modules))
        print("stand-in on OCP:", "IVtkOCC" in vars(OCP))
        box = cad.cq.Workplane("XY").box(1, 2, 3).val()
        print("volume", round(box.Volume(), 9))
        # Display functions work: the real VTK is imported when first used ...
        data = box.toVtkPolyData(0.1, 0.1)
        from vtkmodules.vtkCommonDataModel import vtkPolyData
        import cadquery.occ_impl.shapes as shapes
        print("real:", isinstance(data, vtkPolyData), data.GetNumberOfCells() > 0, shapes.vtkPolyData is vtkPolyData)
        import vtk
        print("vtk module:", type(vtk).__name__, hasattr(vtk, "vtkPolyData"))
    """)
    assert "vtk loaded: False" in out
    assert "stand-in on OCP: False" in out
    assert "volume 6.0" in out
    assert "real: True True True" in out
    assert "vtk module: module True" in out


def test_placeholders_behave_like_the_real_names_once_used():
    out = _run("""
        from printables.cad import import_cadquery
        cq = import_cadquery()
        from cadquery.occ_impl.exporters import vtk as exporter
        later = exporter.VTK_TRIANGLE
        print("placeholder:", type(later).__name__)
        from vtkmodules.vtkCommonDataModel import VTK_TRIANGLE
        print("equal:", later == VTK_TRIANGLE, int(later) == VTK_TRIANGLE, not (later != VTK_TRIANGLE))
        print("replaced:", exporter.VTK_TRIANGLE is VTK_TRIANGLE)
    """)
    assert "placeholder: _Later" in out
    assert "equal: True True True" in out
    assert "replaced: True" in out


def test_import_cadquery_returns_an_already_imported_cadquery_untouched():
    out = _run("""
        import sys
        import cadquery
        from printables.cad import import_cadquery
        print(import_cadquery() is cadquery, "vtk" in sys.modules)
    """)
    assert out.split() == ["True", "True"]


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
