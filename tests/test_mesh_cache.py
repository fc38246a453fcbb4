"""STL meshes shared by the checks of one process (printables/check/mesh_cache.py)."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh

from printables.check.mesh_cache import load_stl
from printables.check.stl_file import UnreadableStl


@pytest.fixture(autouse=True)
def empty_caches(monkeypatch):
    """Each test starts with nothing kept by the checks of earlier tests in this process."""
    from collections import OrderedDict

    from printables.check import mesh_cache

    monkeypatch.setattr(mesh_cache, "_MESHES", OrderedDict())
    monkeypatch.setattr(mesh_cache, "_RESULTS", OrderedDict())


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


def test_a_board_is_measured_once_per_content_and_again_after_any_change(tmp_path, monkeypatch):
    """check_board keeps its results under the parameters, both halves' bytes and the seed volume."""
    import json

    from printables.check import giuthi_stl
    from printables.check.results import CheckResult

    measured = []

    def check_meshes(meshes, p, seed):
        measured.append(seed)
        return [CheckResult("volumes", True, f"{meshes['left'].volume:.0f} {meshes['right'].volume:.0f} {p.packing_factor:g} {seed}")]

    monkeypatch.setattr(giuthi_stl, "check_meshes", check_meshes)
    for folder in ("a", "b"):  # the same board in two folders (giuthi-default and giuthi-ko)
        (tmp_path / folder).mkdir()
        _box(tmp_path / folder / "left.stl", (10, 20, 30))
        _box(tmp_path / folder / "right.stl", (10, 20, 30))
        (tmp_path / folder / "board.json").write_text(json.dumps(
            {"kind": "giuthi-board", "params": {}, "parts": {"left": "left.stl", "right": "right.stl"}}))
    first = giuthi_stl.check_board(tmp_path / "a" / "board.json")
    assert giuthi_stl.check_board(tmp_path / "b" / "board.json") == first and len(measured) == 1
    assert first[0].detail == "6000 6000 0.55 None"
    _box(tmp_path / "b" / "right.stl", (10, 20, 31))  # same size in bytes, other numbers
    assert giuthi_stl.check_board(tmp_path / "b" / "board.json")[0].detail == "6000 6200 0.55 None"
    assert giuthi_stl.check_board(tmp_path / "a" / "board.json", (90.0, "sprue"))[0].detail == "6000 6000 0.55 (90.0, 'sprue')"
    board = tmp_path / "a" / "board.json"
    board.write_text(board.read_text().replace('"params": {}', '"params": {"packing_factor": 0.6}'))
    assert giuthi_stl.check_board(board)[0].detail == "6000 6000 0.6 None"
    assert len(measured) == 4
    (tmp_path / "a" / "left.stl").write_bytes(b"solid x\n facet")  # damaged: reported, never remembered
    assert giuthi_stl.check_board(board)[0].name == "read board" and len(measured) == 4


def test_a_sprue_is_measured_once_per_content_wherever_it_lies(tmp_path, monkeypatch):
    from printables.check import giuthi_seeds

    measured = []
    monkeypatch.setattr(giuthi_seeds, "_measure_mesh", lambda mesh: measured.append(mesh.extents.tolist()) or len(measured))
    for folder, size in (("a", (10, 20, 30)), ("b", (10, 20, 30)), ("c", (10, 20, 29))):
        (tmp_path / folder).mkdir()
        _box(tmp_path / folder / "seeds.stl", size)
    assert [giuthi_seeds.measure_sprue(tmp_path / f / "seeds.stl") for f in "abc"] == [1, 1, 2]
    assert measured == [[10, 20, 30], [10, 20, 29]]
    with pytest.raises(UnreadableStl, match="truncated"):
        (tmp_path / "a" / "seeds.stl").write_bytes((tmp_path / "a" / "seeds.stl").read_bytes()[:-20])
        giuthi_seeds.measure_sprue(tmp_path / "a" / "seeds.stl")


def test_a_3mf_is_checked_once_per_content_and_again_after_any_change(tmp_path, monkeypatch):
    """check_3mf keeps its results under the 3MF's name and the bytes of the 3MF, its STL and the profile."""
    import shutil

    from printables.cad.threemf import export_3mf
    from printables.check import giuthi_3mf
    from printables.check.slicer import PROFILE_FILE, profile_text

    calls = []
    real = giuthi_3mf._check_3mf
    monkeypatch.setattr(giuthi_3mf, "_check_3mf", lambda path: calls.append(path) or real(path))
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    stl = a / "giuthi-board-left-test.stl"
    _box(stl, (30, 20, 6))
    (a / PROFILE_FILE).write_text(profile_text(), encoding="utf-8")
    threemf = export_3mf(stl, stl.with_suffix(".3mf"), profile_text())
    shutil.copytree(a, b)
    first = giuthi_3mf.check_3mf(threemf)
    assert all(r.ok for r in first) and len(first) == 5
    assert giuthi_3mf.check_3mf(b / threemf.name) == first and len(calls) == 1
    (b / PROFILE_FILE).write_text(profile_text().replace("fill_density = 20%", "fill_density = 15%"), encoding="utf-8")
    assert [r.name for r in giuthi_3mf.check_3mf(b / threemf.name) if not r.ok] == ["giuthi-board-left-test: 3MF profile"]
    _box(b / stl.name, (30, 20, 7))
    assert "giuthi-board-left-test: 3MF = STL" in [r.name for r in giuthi_3mf.check_3mf(b / threemf.name) if not r.ok]
    (b / stl.name).unlink()
    assert "no STL to compare with" in " ".join(r.detail for r in giuthi_3mf.check_3mf(b / threemf.name))
    renamed = b / "giuthi-board-right-test.3mf"
    shutil.copy(threemf, renamed)
    shutil.copy(stl, renamed.with_suffix(".stl"))
    assert [r.name.split(":")[0] for r in giuthi_3mf.check_3mf(renamed)] == ["giuthi-board-right-test"] * 5
    assert len(calls) == 5


def test_a_file_damaged_in_an_unforeseen_way_is_a_failed_check(tmp_path, monkeypatch):
    from printables.check import dispatch

    def check(path, slicer):
        raise RuntimeError("damaged in an unforeseen way")

    monkeypatch.setattr(dispatch, "_check_file", check)
    results = dispatch.check_file(tmp_path / "x.pdf")
    assert [(r.name, r.ok) for r in results] == [("read file", False)] and "RuntimeError" in results[0].detail


def test_a_rules_sheet_is_checked_once_per_content_and_other_pdfs_every_time(tmp_path, monkeypatch):
    """The same rules sheet in two sets (giuthi-default and giuthi-travel print the same) is read once;
    a changed byte or another name reads it again."""
    import shutil

    from printables.check import dispatch
    from printables.models import write_rules_sheet

    read = []
    real = dispatch._check_pdf_file
    monkeypatch.setattr(dispatch, "_check_pdf_file", lambda path: read.append(path.parent.name) or real(path))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    sheet = write_rules_sheet(6, 4, tmp_path / "a" / "giuthi-rules.pdf")
    shutil.copy(sheet, tmp_path / "b" / sheet.name)
    first = dispatch.check_file(sheet)
    assert first[0].detail == "giuthi-rules" and all(r.ok for r in first), [str(r) for r in first if not r.ok]
    assert dispatch.check_file(tmp_path / "b" / sheet.name) == first and read == ["a"]
    shutil.copy(sheet, tmp_path / "b" / "other-name.pdf")
    dispatch.check_file(tmp_path / "b" / "other-name.pdf")
    dispatch.check_file(sheet)
    assert read == ["a", "b"]
    damaged = tmp_path / "b" / sheet.name
    damaged.write_bytes(damaged.read_bytes().replace(b"/Count 1", b"/Count 9", 1)[:-200])
    assert [r.name for r in dispatch.check_file(damaged)] != [r.name for r in first] and read[-1] == "b"
    not_rules = tmp_path / "b" / "notes.pdf"
    not_rules.write_bytes(b"%PDF-1.4\n%%EOF\n")
    assert dispatch.check_file(not_rules) == dispatch.check_file(not_rules) and read[-2:] == ["b", "b"]
