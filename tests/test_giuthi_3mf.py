"""3MF for slicers: the STL's mesh with the 3D45 profile inside, byte-stable, checked against the STL."""

from __future__ import annotations

import io
import os
import subprocess
import zipfile

import pytest
import trimesh

from printables.cad.threemf import ZIP_DATE, export_3mf, prusa_config, threemf_bytes
from printables.check.dispatch import check_file, expand
from printables.check.giuthi_3mf import read_3mf, signed_volume
from printables.check.slicer import PROFILE_FILE, profile_text


def _part(folder, name="giuthi-board-left-test"):
    """A small closed part (a box with a notch) as a binary STL, with the profile beside it."""
    body = trimesh.creation.box((30.0, 20.0, 6.0))
    body.apply_translation((15.0, 10.0, 3.0))
    stl = folder / f"{name}.stl"
    stl.write_bytes(body.export(file_type="stl"))
    (folder / PROFILE_FILE).write_text(profile_text(), encoding="utf-8")
    return stl


def _made(folder):
    stl = _part(folder)
    return stl, export_3mf(stl, stl.with_suffix(".3mf"), profile_text())


def _failed(path) -> dict:
    return {r.name.split(": ", 1)[1]: r.detail for r in check_file(path) if not r.ok}


def test_3mf_is_the_stl_and_passes_its_checks(tmp_path):
    stl, threemf = _made(tmp_path)
    results = check_file(threemf)
    assert all(r.ok for r in results), [str(r) for r in results if not r.ok]
    triangles, unit, extra = read_3mf(threemf)
    assert unit == "millimeter" and len(triangles) == 12
    assert signed_volume(triangles) == pytest.approx(30 * 20 * 6)
    assert triangles.reshape(-1, 3).min(axis=0).tolist() == [0, 0, 0]
    assert triangles.reshape(-1, 3).max(axis=0).tolist() == [30, 20, 6]
    assert "; layer_height = 0.2" in extra["Metadata/Slic3r_PE.config"].splitlines()
    assert threemf in expand(tmp_path)


def test_3mf_bytes_are_the_same_every_run_with_fixed_zip_dates(tmp_path):
    stl, first = _made(tmp_path)
    data = first.read_bytes()
    again = export_3mf(stl, tmp_path / "again.3mf", profile_text())
    assert again.read_bytes() == data
    with zipfile.ZipFile(first) as archive:
        assert [i.date_time for i in archive.infolist()] == [ZIP_DATE] * 4
        assert archive.namelist() == ["[Content_Types].xml", "_rels/.rels", "3D/3dmodel.model", "Metadata/Slic3r_PE.config"]


def _rewrite(path, model_edit=None, config_edit=None):
    with zipfile.ZipFile(path) as archive:
        entries = {n: archive.read(n).decode() for n in archive.namelist()}
    if model_edit:
        entries["3D/3dmodel.model"] = model_edit(entries["3D/3dmodel.model"])
    if config_edit:
        entries["Metadata/Slic3r_PE.config"] = config_edit(entries["Metadata/Slic3r_PE.config"])
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in entries.items():
            archive.writestr(name, text)


def test_a_moved_vertex_fails_the_comparison_with_the_stl(tmp_path):
    _, threemf = _made(tmp_path)
    # Pull one corner of the box 2 mm out: still closed, but not the STL's solid.
    _rewrite(threemf, model_edit=lambda m: m.replace('x="30.0" y="20.0" z="6.0"', 'x="32.0" y="20.0" z="6.0"', 1))
    failed = _failed(threemf)
    assert list(failed) == ["3MF = STL"], failed
    assert "32.00 x 20.00 x 6.00 mm" in failed["3MF = STL"]


def test_a_dropped_triangle_and_a_changed_profile_fail(tmp_path):
    _, threemf = _made(tmp_path)

    def drop_last_triangle(model):
        head, _, tail = model.rpartition("     <triangle ")
        return head + tail.split("\n", 1)[1]

    _rewrite(threemf, model_edit=drop_last_triangle, config_edit=lambda c: c.replace("; fill_density = 20%", "; fill_density = 15%"))
    failed = _failed(threemf)
    assert set(failed) == {"3MF closed", "3MF = STL", "3MF profile"}, failed
    assert "fill_density" in failed["3MF profile"]


def test_not_a_3mf_is_a_failed_check(tmp_path):
    bad = tmp_path / "giuthi-board-left-test.3mf"
    bad.write_bytes(b"not a zip")
    failed = _failed(bad)
    assert "not a zip package" in failed["3MF"]


def test_transforms_of_other_writers_are_applied(tmp_path):
    box = trimesh.creation.box((2.0, 2.0, 2.0))  # centred on the origin
    with zipfile.ZipFile(io.BytesIO(threemf_bytes(box.vertices, box.faces, "cube"))) as archive:
        entries = {n: archive.read(n) for n in archive.namelist()}
    entries["3D/3dmodel.model"] = entries["3D/3dmodel.model"].replace(
        b'<item objectid="1"/>', b'<item objectid="1" transform="1 0 0 0 1 0 0 0 1 10 20 1"/>')
    path = tmp_path / "x.3mf"
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    triangles, _, _ = read_3mf(path)
    assert triangles.reshape(-1, 3).min(axis=0).tolist() == [9, 19, 0]


def test_profile_lines_are_prusaslicer_project_settings():
    config = prusa_config("# comment\nlayer_height = 0.2\nfill_density = 20%\n")
    assert config.splitlines()[1:] == ["; layer_height = 0.2", "; fill_density = 20%"]


@pytest.mark.slow
def test_prusaslicer_slices_the_3mf_with_the_profile_inside(tmp_path):
    from printables.check.slicer import INSTALL_HINT, parse_gcode, slicer_env, slicer_path

    binary = slicer_path()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail(f"prusa-slicer is required under CI: {INSTALL_HINT}")
        pytest.skip(f"prusa-slicer not installed: {INSTALL_HINT}")
    _, threemf = _made(tmp_path)
    gcode = tmp_path / "out.gcode"
    # No --load: every setting must come from inside the 3MF.
    run = subprocess.run([binary, "--datadir", str(tmp_path / "dd"), "--loglevel", "1", "--export-gcode",
                          "--output", str(gcode), str(threemf)], capture_output=True, text=True, env=slicer_env(), timeout=300)
    assert run.returncode == 0, run.stderr
    text = gcode.read_text()
    for line in ("; layer_height = 0.2", "; fill_density = 20%", "; bed_shape = 0x0,255x0,255x155,0x155",
                 "; support_material = 0", "; temperature = 215"):
        assert line in text.splitlines(), line
    assert parse_gcode(text).print_time_s > 0
