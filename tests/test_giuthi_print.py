"""Giuthi print-ready parts: seed sprue parameters, model and read-back checks; the slicer in the
loop; the print settings card; previews.

Slicer tests run whenever prusa-slicer is installed; without it they skip, except under CI
(environment variable CI set), where a missing slicer is a failure.
"""

from __future__ import annotations

import io
import math
import os
import re
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
import trimesh
from hypothesis import given, settings, strategies as st

from printables.errors import ParameterError
from printables.params.giuthi_seeds import (
    SEEDS_PER_SPRUE,
    InvalidSeedParams,
    SeedParams,
    copies_needed,
    gate_outline,
    gates,
    seed_centres,
    seed_count,
    seed_radius_at_mm,
    seed_volume_mm3,
    seed_width_mm,
    sprue_size_mm,
    stl_name,
)

# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def _unchecked(**changes) -> SeedParams:
    """Seed parameters that skip validation: the only way to build a sprue the rules forbid."""
    p = object.__new__(SeedParams)
    defaults = SeedParams()
    for f in fields(SeedParams):
        object.__setattr__(p, f.name, changes.get(f.name, getattr(defaults, f.name)))
    return p


def _prism(profile_xz: list[tuple[float, float]], depth: float) -> trimesh.Trimesh:
    """A closed prism: a convex polygon in the xz plane (counter-clockwise seen from -y) along y."""
    n = len(profile_xz)
    front = [(x, 0.0, z) for x, z in profile_xz]
    back = [(x, depth, z) for x, z in profile_xz]
    faces = []
    for i in range(1, n - 1):
        faces.append((0, i, i + 1))
        faces.append((n, n + i + 1, n + i))
    for i in range(n):
        j = (i + 1) % n
        faces.append((i, n + i, n + j))
        faces.append((i, n + j, j))
    mesh = trimesh.Trimesh(np.array(front + back), np.array(faces), process=True)
    mesh.fix_normals()
    return mesh


def _box(size, corner) -> trimesh.Trimesh:
    """An axis-aligned box by size and lowest corner."""
    box = trimesh.creation.box(size)
    box.apply_translation(np.asarray(corner) + np.asarray(size) / 2)
    return box


def _results(results) -> dict:
    return {r.name: r for r in results}


# --------------------------------------------------------------------------------------------
# Parameters and derived sizes (pure)
# --------------------------------------------------------------------------------------------


def test_default_sprue_is_twelve_beans():
    p = SeedParams()
    assert seed_count(p) == SEEDS_PER_SPRUE == 12
    assert (p.seed_diameter_mm, seed_width_mm(p), p.seed_height_mm) == (10.5, 7.35, 4.5)
    assert stl_name(p) == "giuthi-seeds-12-10.5x7.35x4.5mm.stl"
    # 4 columns at 13.5 mm pitch along the rows, 3 rows at 10.35 mm: 3 x 13.5 + 10.5 = 51
    # by 2 x 10.35 + 7.35 = 28.05.
    assert sprue_size_mm(p) == pytest.approx((51.0, 28.05, 4.5))


def test_bean_volume_is_half_an_ellipsoid():
    # 10.5 x 7.35 x 4.5: semi-axes 5.25, 3.675 and 4.5.
    assert seed_volume_mm3(SeedParams()) == pytest.approx(2 / 3 * math.pi * 5.25 * 3.675 * 4.5)


@pytest.mark.parametrize("length, height, ratio", [(11.0, 4.0, 0.7), (10.0, 5.0, 0.6), (12.0, 3.0, 1.0), (8.0, 2.5, 0.5)])
def test_bean_volume_agrees_with_stacked_elliptic_slices(length, height, ratio):
    p = SeedParams(seed_diameter_mm=length, seed_height_mm=height, seed_width_ratio=ratio)
    # Independent: integrate the slice area pi a(z) b(z) over height (midpoint rule), the
    # semi-axes read along x and along y.
    steps = 20000
    dz = height / steps
    total = sum(math.pi * seed_radius_at_mm(p, (k + 0.5) * dz, (1, 0)) * seed_radius_at_mm(p, (k + 0.5) * dz, (0, 1))
                * dz for k in range(steps))
    assert seed_volume_mm3(p) == pytest.approx(total, rel=1e-6)
    assert seed_radius_at_mm(p, 0.0, (1, 0)) == pytest.approx(length / 2)
    assert seed_radius_at_mm(p, 0.0, (0, 1)) == pytest.approx(length * ratio / 2)
    assert seed_radius_at_mm(p, height) == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize(
    "pits_per_row, seeds_per_pit, copies",
    [(6, 4, 5), (6, 9, 10), (5, 5, 5), (8, 4, 6), (10, 9, 16), (5, 4, 4)],
)
def test_copies_needed(pits_per_row, seeds_per_pit, copies):
    # 2 rows: 2x6x4 = 48 = 4 x 12 leaves no spare, so a fifth print (60 seeds, 12 spare);
    # 2x5x5 = 50 needs 5 prints (60 seeds, 10 spare); 2x5x4 = 40 in 4 (8 spare).
    assert copies_needed(pits_per_row, seeds_per_pit) == copies


@given(st.integers(1, 12), st.integers(1, 12), st.integers(1, 30))
@settings(max_examples=200, deadline=None)
def test_copies_are_the_fewest_that_hold_every_seed_and_a_spare(pits, seeds, per_sprue):
    copies = copies_needed(pits, seeds, per_sprue)
    assert copies * per_sprue > 2 * pits * seeds >= (copies - 1) * per_sprue


def test_copies_needed_refuses_nonsense():
    with pytest.raises(ValueError, match="pits_per_row=0"):
        copies_needed(0, 4)


@pytest.mark.parametrize(
    "changes, named",
    [
        ({"neck_width_mm": 0.6}, "neck_width_mm=0.6"),  # one line of a 0.4 mm nozzle
        ({"gate_height_mm": 0.2}, "gate_height_mm=0.2"),  # one layer
        ({"gate_height_mm": 1.4}, "gate_height_mm=1.4"),  # too thick to clip
        ({"seed_height_mm": 8.0}, "seed_height_mm=8.0"),  # taller than wide: stands on edge
        ({"seed_width_ratio": 0.4}, "seed_width_ratio=0.4"),  # a sliver
        ({"gate_width_mm": 0.85}, "gate_width_mm=0.85"),  # narrower than its neck
        ({"seed_gap_mm": 1.0}, "seed_gap_mm=1.0"),  # no room for two necks
        ({"seed_diameter_mm": 4.0}, "seed_diameter_mm=4.0"),
        ({"rows": 1, "cols": 1}, "rows=1, cols=1"),
        ({"rows": 3.0}, "rows=3.0"),
    ],
)
def test_bad_seed_params_are_refused_by_name(changes, named):
    with pytest.raises(InvalidSeedParams, match=named.replace(".", r"\.")):
        SeedParams(**changes)


def test_seed_param_error_is_a_parameter_error():
    assert issubclass(InvalidSeedParams, ParameterError)


@pytest.mark.parametrize("axis", [0, 1])
def test_gate_outline_necks_at_each_seed_and_starts_inside_it(axis):
    # Along a row (x) the bean's half-length 5.25 mm meets the gate, between rows (y) its half-width.
    p = SeedParams()
    half = (5.25, 3.675)[axis]
    pitch = 2 * half + p.seed_gap_mm
    a, b = (0.0, 0.0), ((pitch, 0.0), (0.0, pitch))[axis]
    outline = gate_outline(p, a, b)
    along = [pt[axis] for pt in outline]
    across = {round(abs(pt[1 - axis]), 9) for pt in outline}
    assert across == {p.neck_width_mm / 2, p.gate_width_mm / 2}
    # Ends lie inside the bean's wall at gate height: half-axis x sqrt(1 - (0.6 / 4.5)^2).
    wall = half * math.sqrt(1 - (0.6 / 4.5) ** 2)
    assert min(along) < wall and max(along) > pitch - wall
    # The neck runs from the seed's base edge for neck_length_mm at neck width.
    neck_points = [pt[axis] for pt in outline if abs(abs(pt[1 - axis]) - p.neck_width_mm / 2) < 1e-9]
    assert pytest.approx(half + p.neck_length_mm) in neck_points
    assert pytest.approx(pitch - half - p.neck_length_mm) in neck_points


@pytest.mark.parametrize("rows, cols", [(3, 4), (2, 6), (4, 3), (1, 12), (12, 1)])
def test_gates_join_every_seed_into_one_sprue(rows, cols):
    p = SeedParams(rows=rows, cols=cols)
    n = seed_count(p)
    parent = list(range(n))

    def find(i):
        while parent[i] != i:
            i = parent[i]
        return i

    for i, j in gates(p):
        parent[find(i)] = find(j)
        # Gates only join grid neighbours, one pitch apart: a bean's length plus the gap along a
        # row, its width plus the gap between rows.
        (xi, yi), (xj, yj) = seed_centres(p)[i], seed_centres(p)[j]
        along_row = yi == pytest.approx(yj)
        pitch = (p.seed_diameter_mm if along_row else seed_width_mm(p)) + p.seed_gap_mm
        assert math.hypot(xi - xj, yi - yj) == pytest.approx(pitch)
    assert len({find(i) for i in range(n)}) == 1
    per_seed = np.bincount(np.array(gates(p)).ravel(), minlength=n)
    assert per_seed.max() <= 3  # few cuts per seed


# --------------------------------------------------------------------------------------------
# Read-back check helpers (no cadquery)
# --------------------------------------------------------------------------------------------


def test_section_mask_of_a_box_has_its_area():
    from printables.check.giuthi_seeds import _grid_for, section_mask

    box = _box((10.0, 6.0, 2.0), (0.0, 0.0, 0.0))
    grid = _grid_for(box)
    mask = section_mask(box, 1.0, grid)
    assert mask.sum() * grid.px**2 == pytest.approx(60.0, rel=0.01)
    assert not section_mask(box, 3.0, grid).any()


# --------------------------------------------------------------------------------------------
# The sprue built with cadquery and read back (slow)
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sprue(tmp_path_factory) -> Path:
    from printables.cad.giuthi_seeds import build_seeds

    out = tmp_path_factory.mktemp("seeds")
    paths = build_seeds(SeedParams(), out)
    assert [p.name for p in paths] == ["giuthi-seeds-12-10.5x7.35x4.5mm.stl", "giuthi-seeds-12-10.5x7.35x4.5mm.step"]
    return paths[0]


@pytest.mark.slow
def test_default_sprue_passes_every_check(sprue):
    from printables.check.giuthi_seeds import check_seed_sprue

    results = check_seed_sprue(sprue, SeedParams())
    failed = [str(r) for r in results if not r.ok]
    assert not failed, failed
    assert len(results) == 12


@pytest.mark.slow
def test_measured_sprue_matches_the_parameters(sprue):
    from printables.check.giuthi_seeds import measure_seed_volume, measure_sprue

    m = measure_sprue(sprue)
    p = SeedParams()
    assert m.watertight and m.bodies == 1
    assert len(m.seeds) == m.seeds_above_gates == 12
    assert len(m.gates) == len(gates(p)) == 13
    assert {g.seeds for g in m.gates} == set(gates(p))  # same seeds joined, same row order
    for g in m.gates:
        assert g.height_mm == pytest.approx(p.gate_height_mm, abs=1e-3)
        assert g.narrowest_mm == pytest.approx(p.neck_width_mm, abs=0.03)
        assert g.widest_mm == pytest.approx(p.gate_width_mm, abs=0.03)
        assert g.necked
    for s, (x, y) in zip(m.seeds, seed_centres(p)):
        assert s.centre == pytest.approx((x, y), abs=0.05)
        assert s.base_fraction > 0.99
    # The chords of the mesh sit inside the true dome: a little less than the analytic volume.
    volume = measure_seed_volume(sprue)
    assert seed_volume_mm3(p) * 0.985 < volume < seed_volume_mm3(p)


@pytest.mark.slow
def test_sprue_rebuild_is_byte_identical(sprue, tmp_path):
    from printables.cad.giuthi_seeds import build_seeds

    again = build_seeds(SeedParams(), tmp_path)
    assert again[0].read_bytes() == sprue.read_bytes()
    assert again[1].read_bytes() == sprue.with_suffix(".step").read_bytes()
    assert sprue.read_bytes()[:80].startswith(b"printables")  # binary STL header
    assert len(sprue.read_bytes()) == 84 + 50 * int.from_bytes(sprue.read_bytes()[80:84], "little")


@pytest.mark.slow
@pytest.mark.parametrize(
    "changes, fails, still_ok, found",
    [
        # One 0.5 mm line: too thin to print.
        (
            {"neck_width_mm": 0.5, "gate_width_mm": 0.5},
            ("gates wide enough to print", "necks at the seeds"),
            ("gates tall enough to print", "gates thin enough to clip", "seed count"),
            "narrowest 0.49 mm",
        ),
        # One 0.2 mm layer: tears off the bed.
        (
            {"gate_height_mm": 0.2},
            ("gates tall enough to print",),
            ("gates wide enough to print", "necks at the seeds", "seed count"),
            "lowest 0.20 mm",
        ),
        # 1.4 mm tall with no neck: clippers crush it and leave a stub on the seed.
        (
            {"gate_height_mm": 1.4, "neck_width_mm": 1.2, "gate_width_mm": 1.2},
            ("gates thin enough to clip", "necks at the seeds"),
            ("gates wide enough to print", "gates tall enough to print", "seed count"),
            "tallest 1.40 mm",
        ),
    ],
)
def test_bad_gates_fail_their_checks(tmp_path, changes, fails, still_ok, found):
    from printables.cad.giuthi_seeds import build_seeds
    from printables.check.giuthi_seeds import check_seed_sprue

    stl = build_seeds(_unchecked(**changes), tmp_path)[0]
    results = _results(check_seed_sprue(stl))
    assert [name for name in fails if results[name].ok] == []
    assert [name for name in still_ok if not results[name].ok] == []
    assert found in results[fails[0]].detail


def test_square_seeds_fail_the_bean_shape(tmp_path):
    from printables.check.giuthi_seeds import check_seed_sprue

    # Square posts where beans should be: footprints 4.5 % smaller than their moment ellipses
    # (a little less once the seed finder's opening has rounded their corners).
    parts = trimesh.util.concatenate([_box((10, 7, 4.5), (20 * k, 0, 0)) for k in range(2)])
    stl = tmp_path / "posts.stl"
    parts.export(stl)
    result = _results(check_seed_sprue(stl))["bean-shaped seeds"]
    fill = float(re.search(r"footprint is ([0-9.]+)-", result.detail).group(1))
    assert not result.ok and 0.95 <= fill <= 0.975


def test_separate_seeds_fail_the_sprue_checks(tmp_path):
    from printables.check.giuthi_seeds import check_seed_sprue

    # Two loose 10 mm blocks: two bodies, two seeds instead of 12, and no gate between them.
    parts = trimesh.util.concatenate([_box((10, 10, 5), (0, 0, 0)), _box((10, 10, 5), (20, 0, 0))])
    stl = tmp_path / "loose.stl"
    parts.export(stl)
    results = _results(check_seed_sprue(stl))
    assert not results["seed sprue solid"].ok
    assert not results["seed count"].ok
    assert not results["gates"].ok


# --------------------------------------------------------------------------------------------
# The slicer
# --------------------------------------------------------------------------------------------


@pytest.fixture
def slicer():
    from printables.check.slicer import INSTALL_HINT, is_slicer_available

    if not is_slicer_available():
        if os.environ.get("CI"):
            pytest.fail(f"prusa-slicer is required under CI: {INSTALL_HINT}")
        pytest.skip(f"prusa-slicer not installed: {INSTALL_HINT}")


GCODE = """\
M83
G92 E0
;LAYER_CHANGE
;Z:0.2
;TYPE:Skirt/Brim
G1 X10 Y10 E1.5
G1 X20 Y10 E2.25 ; a comment with E9
;TYPE:Support material
G1 X30 E0.5
G1 E-0.8 F2100 ; a retraction pushes nothing; nor does the unretraction that undoes it
G1 E0.8
;LAYER_CHANGE
;TYPE:External perimeter
G1 X40 E3
; filament used [mm] = 8.05
; filament used [cm3] = 0.02
; filament used [g] = 0.03
; estimated printing time (normal mode) = 1d 2h 3m 4s
"""


def test_gcode_roles_and_estimates_are_read_exactly():
    from printables.check.slicer import parse_gcode

    r = parse_gcode(GCODE, "x.stl")
    assert dict(r.extrusion_by_role) == {
        "Skirt/Brim": 3.75,
        "Support material": 0.5,
        "External perimeter": 3.0,
    }
    assert r.support_mm == pytest.approx(0.5) and r.has_support
    assert r.print_time_s == 86400 + 2 * 3600 + 3 * 60 + 4
    assert (r.filament_mm, r.filament_cm3, r.filament_g, r.layers) == (8.05, 0.02, 0.03, 2)


def test_absolute_extrusion_is_read_as_differences():
    from printables.check.slicer import parse_gcode

    text = GCODE.replace("M83", "M82").replace("E2.25", "E3.75").replace("G1 X30 E0.5", "G1 X30 E4.25")
    text = text.replace("G1 E-0.8 F2100 ; a retraction pushes nothing; nor does the unretraction that undoes it", "G1 E3.45").replace("G1 E0.8", "G1 E4.25")
    text = text.replace("G1 X40 E3", "G1 X40 E7.25")
    r = parse_gcode(text)
    assert dict(r.extrusion_by_role) == pytest.approx(
        {"Skirt/Brim": 3.75, "Support material": 0.5, "External perimeter": 3.0}
    )


def test_gcode_without_estimates_is_a_failed_slice():
    from printables.check.slicer import SliceFailed, parse_gcode

    with pytest.raises(SliceFailed, match="estimates"):
        parse_gcode("G1 X1 E1\n", "x.stl")


def test_profile_is_deterministic_and_holds_the_3d45_settings(tmp_path):
    from printables.check.slicer import profile_text, write_profile

    a = write_profile(tmp_path / "a.ini").read_bytes()
    b = write_profile(tmp_path / "b.ini").read_bytes()
    assert a == b
    settings_ = dict(
        line.split(" = ", 1) for line in profile_text().splitlines() if not line.startswith("#")
    )
    assert settings_["bed_shape"] == "0x0,255x0,255x155,0x155"
    assert settings_["max_print_height"] == "170"
    assert (settings_["nozzle_diameter"], settings_["filament_diameter"]) == ("0.4", "1.75")
    assert (settings_["layer_height"], settings_["fill_density"], settings_["raft_layers"]) == ("0.2", "20%", "0")
    # The user prints without supports: the written profile has them off.
    assert settings_["support_material"] == "0"


def test_slicer_check_alone_turns_supports_on_at_auto_and_44_degrees():
    from printables.check.slicer import profile_settings, support_thresholds

    assert support_thresholds() == (0, 44)
    for threshold in support_thresholds():
        on = profile_settings(support_threshold_deg=threshold)
        assert (on["support_material"], on["support_material_threshold"]) == ("1", str(threshold))
    assert profile_settings()["support_material"] == "0"


def test_profile_speeds_are_within_what_a_3d45_holds():
    from printables.check.slicer import profile_settings

    s = profile_settings()
    assert int(s["perimeter_speed"]) <= 60 and int(s["external_perimeter_speed"]) <= 40
    assert int(s["infill_speed"]) <= 80 and int(s["travel_speed"]) <= 150


def test_missing_slicer_is_reported_not_crashed(monkeypatch, tmp_path):
    from printables.check import slicer as s

    monkeypatch.setenv(s.SLICER_ENV, str(tmp_path / "no-such-slicer"))
    assert not s.is_slicer_available()
    with pytest.raises(s.SlicerUnavailable, match="apt-get install prusa-slicer"):
        s.slice_report(tmp_path / "x.stl")
    (soft,) = s.check_slices(tmp_path / "x.stl")
    assert soft.ok and "prusa-slicer not found" in soft.detail
    (hard,) = s.check_slices(tmp_path / "x.stl", require_slicer=True)
    assert not hard.ok


@pytest.mark.slow
def test_t_shape_gets_support(slicer, tmp_path):
    from printables.check.slicer import check_slices, slice_report

    # A 6 mm stem with a 30 mm bar across its top: 12 mm of flat overhang on each side.
    t = trimesh.util.concatenate([_box((6, 6, 15), (-3, -3, 0)), _box((30, 6, 3), (-15, -3, 15))])
    stl = tmp_path / "t.stl"
    t.export(stl)
    report = slice_report(stl)
    assert report.has_support and report.support_mm > 50
    results = _results(check_slices(stl))
    assert not results["no support material (threshold 44 degrees): t.stl"].ok
    assert not results["no support material (automatic threshold): t.stl"].ok


@pytest.mark.slow
@pytest.mark.parametrize("slope_deg, needs_support", [(40, True), (45, False), (50, False)])
def test_overhang_limit_is_45_degrees_from_the_bed(slicer, tmp_path, slope_deg, needs_support):
    from printables.check.slicer import slice_report

    # A 10 mm tall wedge whose right face leans out at slope_deg from the bed.
    run = 10 / math.tan(math.radians(slope_deg))
    wedge = _prism([(0, 0), (10, 0), (10 + run, 10), (0, 10)], 20)
    assert wedge.is_watertight and wedge.volume > 0
    stl = tmp_path / f"wedge{slope_deg}.stl"
    wedge.export(stl)
    assert slice_report(stl).has_support == needs_support


@pytest.mark.slow
def test_seed_sprue_slices_without_support(slicer, sprue):
    from printables.check.slicer import DREMEL_3D45, check_slices, slice_report

    report = slice_report(sprue)
    assert report.support_mm == 0 and not report.has_support
    assert 22 <= report.layers <= 23  # 4.5 mm in 0.2 mm layers
    # Small domes print solid: filament is the mesh's volume in PLA, plus a skirt and overlap.
    grams = trimesh.load_mesh(sprue).volume / 1000 * DREMEL_3D45.filament_density_g_cm3
    assert grams * 0.95 < report.filament_g < grams * 1.2
    assert report.filament_mm == pytest.approx(
        report.filament_cm3 * 1000 / (math.pi * (1.75 / 2) ** 2), rel=0.02
    )
    assert 10 * 60 < report.print_time_s < 3 * 3600
    assert all(r.ok for r in check_slices(sprue))


# --------------------------------------------------------------------------------------------
# The print settings card
# --------------------------------------------------------------------------------------------


class _Estimate:
    def __init__(self, seconds, grams, metres, support_mm=0.0):
        self.print_time_s, self.filament_g, self.filament_m = seconds, grams, metres
        self.support_mm = support_mm


def _pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    reader = PdfReader(path)
    assert len(reader.pages) in (1, 2)  # the settings, and a board's assembly drawing
    return reader.pages[0].extract_text()


def test_inch_sizes_read_as_fractions():
    from printables.render.giuthi_card import inch_text

    assert inch_text(12.7) == "1/2"
    assert inch_text(88.9) == "3-1/2"
    assert inch_text(3.175) == "1/8"
    assert inch_text(25.4) == "1"
    assert inch_text(10.0) is None


def test_band_for_the_default_board():
    from printables.layout.giuthi_board import band_loop_mm
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import giuthi_print_card, pick_rubber_band

    b = GiuthiBoardParams()
    path = band_loop_mm(b)
    # No. 33 (2 x 88.9 = 177.8 mm round) stretches path / 177.8 times, within 1.3 to 2.0.
    assert 1.3 <= path / 177.8 <= 2.0
    assert pick_rubber_band(path, b.band_groove_mm)[0] == "33"
    assert pick_rubber_band(1000.0, 3.0) is None
    # The card says the manifest's number (layout.band_loop_mm), to 0.1 mm.
    band = dict(giuthi_print_card(SeedParams(), {}, b).assembly)["Rubber band"]
    assert f"({path:g} mm path)" in band


def test_card_lists_settings_parts_and_hardware(tmp_path):
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import giuthi_print_card, write_print_card

    board = GiuthiBoardParams()
    estimates = {
        "giuthi-board-left-2x6-4seeds.stl": _Estimate(5 * 3600 + 7 * 60, 80.0, 26.8),
        "giuthi-seeds-12-10.5x7.35x4.5mm.stl": _Estimate(34 * 60, 5.3, 1.79),
    }
    card = giuthi_print_card(SeedParams(), estimates, board)
    a = write_print_card(card, tmp_path / "a.pdf")
    b = write_print_card(card, tmp_path / "b.pdf")
    assert a.read_bytes() == b.read_bytes()
    text = " ".join(_pdf_text(a).split())
    for expected in (
        "Dremel DigiLab 3D45",
        "255 x 155 x 170 mm",
        "0.4 mm nozzle",
        "PLA 1.75 mm",
        "0.2 mm",
        "20 % grid",
        "no raft",
        "dremel-3d45-giuthi.ini",
        "giuthi-board-left-2x6-4seeds.stl",
        "giuthi-board-right-2x6-4seeds.stl",
        "giuthi-seeds-12-10.5x7.35x4.5mm.stl",
        "5 h 07 min",
        "80.0 g, 26.80 m",
        "34 min",
        "not sliced",  # the right half had no estimate
        "2 x No. 2 (2.2 mm) pan-head self-tapping screws",
        "12.7 mm (1/2 in)",
        "No. 33",
        "5 prints x 12 = 60 seeds for 48",
        "contrasting",
        "Onto the Dremel 3D45",
        "open a part's .3mf",
        "Dremel DigiLab 3D Slicer or Cura",
        "0.2 mm layers, 20 % infill, PLA, no supports, no raft",
        "USB stick",
        f"each half {board.half_size_mm()[0]:.1f} x {board.half_width_mm:.1f}",
    ):
        assert expected in text, expected
    assert [p.copies for p in card.parts] == [1, 1, 5]
    assert dict(card.settings)["Supports"].startswith(
        "none by design (overhangs down to 45\u00b0 from the bed need none); not yet verified"
        " with a slicer for Board, right half"
    )


def _card_set(folder, board=None, card_board=None, threemf=True, listed=True, lang="en"):
    """A card beside a manifest and (empty) part files, without modelling: for the card's checks."""
    import json

    from printables.cad.giuthi_board import manifest, manifest_name
    from printables.models import seed_manifest, seed_params_for
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import giuthi_print_card, write_print_card

    board = board or GiuthiBoardParams()
    stls = [f"{board.part_name(side)}.stl" for side in ("left", "right")] + [stl_name(seed_params_for(board))]
    for name in stls:
        (folder / name).write_bytes(b"")
        if threemf:
            (folder / name).with_suffix(".3mf").write_bytes(b"")
    (folder / "giuthi-rules.pdf").write_bytes(b"")
    data = manifest(board, {"left": stls[0], "right": stls[1]})
    if listed:
        data.update({"rules": {"file": "giuthi-rules.pdf", "paper": "a4"},
                     "3mf": dict(zip(("left", "right", "seeds"), (n[:-4] + ".3mf" for n in stls))),
                     "seeds": seed_manifest(seed_params_for(board), board)})
    (folder / manifest_name(board)).write_text(json.dumps(data))
    card_board = card_board or board
    return write_print_card(giuthi_print_card(seed_params_for(card_board), {}, card_board),
                            folder / "giuthi-print-settings.pdf", lang)


def _card_failures(path) -> dict:
    from printables.check.dispatch import check_file

    return {r.name: r.detail for r in check_file(path) if not r.ok}


def test_card_agrees_with_the_manifest_and_lists_the_set(tmp_path):
    assert _card_failures(_card_set(tmp_path)) == {}


@pytest.mark.parametrize("lang, words", [("ko", ("기우티 — 출력 설정", "구입할 것과 조립", "닫으면 ")),
                                         ("tr", ("Giuthi — baskı ayarları", "Satın alınacaklar ve montaj", "kapalıyken "))])
def test_card_in_another_language_agrees_with_the_manifest(tmp_path, lang, words):
    import json

    from pypdf import PdfReader

    path = _card_set(tmp_path, lang=lang)
    reader = PdfReader(path)
    assert json.loads(reader.metadata["/Subject"])["lang"] == lang
    text = " ".join(_pdf_text(path).split())
    assert all(w in text for w in words), text[:300]
    assert "To buy and to assemble" not in text and "seeds per pit" not in text
    assert _card_failures(path) == {}


@pytest.mark.parametrize("lang", ["en", "ko", "tr"])
def test_a_board_no_standard_band_fits_gets_a_band_by_size_and_its_path_on_the_card(tmp_path, lang):
    from printables.layout.giuthi_board import band_loop_mm
    from printables.models import model_params
    from printables.render import giuthi_card

    board = model_params("giuthi-board", {"thickness_mm": 18})  # its loop, 359 mm, is too long for No. 33
    path = band_loop_mm(board)
    assert giuthi_card.pick_rubber_band(path, board.band_groove_mm) is None
    band = dict(giuthi_card.giuthi_print_card(SeedParams(), {}, board).assembly)["Rubber band"]
    lo, hi = path / giuthi_card.BAND_STRETCH[1] / 2, path / giuthi_card.BAND_STRETCH[0] / 2
    assert band.startswith(f"a band {lo:.0f}-{hi:.0f} mm long laid flat") and f"({path:g} mm path)" in band
    # The band check finds the path in every language.
    assert _card_failures(_card_set(tmp_path, board=board, lang=lang)) == {}


def test_english_card_records_its_language_and_board():
    import json

    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import card_in_language, giuthi_print_card

    board = GiuthiBoardParams(pits_per_row=8)
    doc = card_in_language(giuthi_print_card(SeedParams(), {}, board))
    assert json.loads(doc.subject) == {"lang": "en", "material": "PLA", "pits_per_row": 8,
                                       "printer": "Dremel DigiLab 3D45", "seeds_per_pit": 4}


def _rewrite_card(path, lang, old: str, new: str) -> None:
    """Rewrite the card at ``path`` in ``lang`` with the text ``old`` printed as ``new``."""
    from dataclasses import replace as dc_replace

    from printables.fileio import write_atomic
    from printables.layout.primitives import Page, Text
    from printables.models import seed_params_for
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import card_in_language, giuthi_print_card
    from printables.render.pdf import render_pdf

    board = GiuthiBoardParams()
    doc = card_in_language(giuthi_print_card(seed_params_for(board), {}, board), lang)
    page = doc.pages[0]
    items = tuple(dc_replace(i, text=i.text.replace(old, new)) if isinstance(i, Text) else i for i in page.items)
    assert items != page.items, f"{old!r} is not on the card"
    write_atomic(path, render_pdf(dc_replace(doc, pages=(Page(page.width, page.height, items),))))


def test_korean_card_with_english_or_wrong_words_fails(tmp_path):
    path = _card_set(tmp_path, lang="ko")
    # a heading left in English: not a Korean card
    _rewrite_card(path, "ko", "구입할 것과 조립", "To buy and to assemble")
    assert "no '구입할 것과 조립'" in _card_failures(path)["language"]
    # the USB route in English: the Korean words for it are missing
    _rewrite_card(path, "ko", "USB 메모리", "USB stick")
    assert "USB stick" in _card_failures(path)["onto the 3D45"]
    # the seeds' orientation phrase in English
    _rewrite_card(path, "ko", "평평한 면을 아래로", "flat side down")
    assert "print flat side down" in _card_failures(path)["seeds = manifest"]


def test_korean_card_with_a_wrong_number_fails(tmp_path):
    from printables.params.giuthi_board import GiuthiBoardParams

    (tmp_path / "a").mkdir()
    thick = GiuthiBoardParams(thickness_mm=GiuthiBoardParams().thickness_mm + 2)
    failures = _card_failures(_card_set(tmp_path / "a", card_board=thick, lang="ko"))
    assert {"band path = manifest", "closed size = manifest", "half size = parameters"} <= set(failures), failures
    # one number changed on an otherwise right card: 2 screws said as 3
    (tmp_path / "b").mkdir()
    path = _card_set(tmp_path / "b", lang="ko")
    assert _card_failures(path) == {}
    _rewrite_card(path, "ko", "태핑 나사 2개", "태핑 나사 3개")
    assert "태핑 나사 3개" in _card_failures(path)["screws = manifest"]
    _rewrite_card(path, "ko", "5번 출력 x 12개", "3번 출력 x 12개")
    assert {"seeds = manifest", "seed copies"} <= set(_card_failures(path))


def test_turkish_card_with_a_wrong_number_fails(tmp_path):
    path = _card_set(tmp_path, lang="tr")
    _rewrite_card(path, "tr", "tahta 2x6, kuyu başına 4 tohum", "tahta 2x6, kuyu başına 5 tohum")
    assert "board = manifest" in _card_failures(path)


def test_card_with_other_numbers_than_the_manifest_fails(tmp_path):
    from printables.params.giuthi_board import GiuthiBoardParams

    # The card of a thicker board beside the default board's manifest: band path and sizes differ.
    thick = GiuthiBoardParams(thickness_mm=GiuthiBoardParams().thickness_mm + 2)
    failures = _card_failures(_card_set(tmp_path, card_board=thick))
    assert {"band path = manifest", "closed size = manifest", "half size = parameters"} <= set(failures), failures


def test_card_says_the_manifests_bean_size_and_how_beans_print(tmp_path):
    from printables.models import seed_manifest, seed_params_for
    from printables.params.giuthi_board import GiuthiBoardParams

    board = GiuthiBoardParams()
    seeds = seed_manifest(seed_params_for(board), board)
    assert seeds["size_mm"] == [10.5, 7.35, 4.5] and seeds["file"] == "giuthi-seeds-12-10.5x7.35x4.5mm.stl"
    assert (seeds["per_print"], seeds["prints"], seeds["needed"]) == (12, 5, 48)
    text = " ".join(_pdf_text(_card_set(tmp_path)).split())
    assert "beans 10.5 x 7.35 x 4.5 mm (long x wide x high), half ellipsoids printed flat side down" in text
    assert "5 prints x 12 = 60 seeds for 48 (12 pits x 4)" in text
    assert "dome" not in text


def test_card_with_other_seeds_or_board_than_the_manifest_fails(tmp_path):
    import json

    from printables.params.giuthi_board import GiuthiBoardParams

    # The card of a board made for 9 mm seeds beside the default board's manifest.
    (tmp_path / "a").mkdir()
    nine = GiuthiBoardParams(seed_diameter_mm=9.0)
    failures = _card_failures(_card_set(tmp_path / "a", card_board=nine))
    assert "beans 9 x 6.3 x 4.5 mm" in failures["seeds = manifest"], failures
    # A manifest that says 5 seeds a pit (and the prints for them): counts and board differ.
    (tmp_path / "b").mkdir()
    card = _card_set(tmp_path / "b")
    manifest_path = next((tmp_path / "b").glob("giuthi-board-*.json"))
    data = json.loads(manifest_path.read_text())
    data["seeds"].update(prints=6, needed=60)
    data["params"]["seeds_per_pit"] = 5
    manifest_path.write_text(json.dumps(data))
    failures = _card_failures(card)
    assert "5 prints x 12 = 60 seeds for 48 (12 pits x 4)" in failures["seeds = manifest"], failures
    assert "board = manifest" in failures
    # A manifest without the seeds entry.
    del data["seeds"]
    manifest_path.write_text(json.dumps(data))
    assert _card_failures(card)["seeds = manifest"] == "no 'seeds' entry in the manifest"


def test_card_with_the_old_domes_up_wording_fails(tmp_path):
    from dataclasses import replace as dc_replace

    from printables.models import seed_params_for
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import giuthi_print_card, write_print_card

    path = _card_set(tmp_path)
    board = GiuthiBoardParams()
    card = giuthi_print_card(seed_params_for(board), {}, board)
    old = tuple((k, v.replace("half ellipsoids printed flat side down", "domes up")) for k, v in card.assembly)
    parts = tuple(dc_replace(p, orientation=p.orientation.replace("flat side down", "flat bases down"))
                  for p in card.parts)
    write_print_card(dc_replace(card, assembly=old, parts=parts), path)
    assert "print flat side down" in _card_failures(path)["seeds = manifest"]


def test_card_without_3mfs_or_set_entries_fails(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    failures = _card_failures(_card_set(tmp_path / "a", threemf=False))
    assert "3MF beside each part" in failures and "set files" in failures
    assert "set files" in _card_failures(_card_set(tmp_path / "b", listed=False))


def test_card_without_the_3d45_route_fails(tmp_path):
    from dataclasses import replace as dc_replace

    from printables.models import seed_params_for
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import giuthi_print_card, write_print_card

    path = _card_set(tmp_path)
    board = GiuthiBoardParams()
    card = dc_replace(giuthi_print_card(seed_params_for(board), {}, board), to_printer=())
    write_print_card(card, path)
    assert "onto the 3D45" in _card_failures(path)


def test_card_says_which_part_the_slicer_supported():
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import giuthi_print_card

    board = GiuthiBoardParams()
    estimates = {
        "giuthi-board-left-2x6-4seeds.stl": _Estimate(3600, 80.0, 26.8, support_mm=136.0),
        "giuthi-board-right-2x6-4seeds.stl": _Estimate(3600, 80.0, 26.8),
        "giuthi-seeds-12-10.5x7.35x4.5mm.stl": _Estimate(34 * 60, 5.3, 1.79),
    }
    supports = dict(giuthi_print_card(SeedParams(), estimates, board).settings)["Supports"]
    assert supports.startswith("NEEDED by Board, left half:")
    estimates["giuthi-board-left-2x6-4seeds.stl"] = _Estimate(3600, 80.0, 26.8)
    supports = dict(giuthi_print_card(SeedParams(), estimates, board).settings)["Supports"]
    assert supports.startswith("none: PrusaSlicer with automatic supports on adds none to any part")


def test_card_for_nine_seeds_per_pit_asks_for_ten_prints():
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import giuthi_print_card

    card = giuthi_print_card(SeedParams(), {}, GiuthiBoardParams(seeds_per_pit=9))
    # 108 seeds are exactly 9 prints of 12: a tenth gives the spares.
    assert card.parts[-1].copies == 10


# --------------------------------------------------------------------------------------------
# Previews
# --------------------------------------------------------------------------------------------


def _png(path: Path) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(path.read_bytes())).convert("RGB"))


def test_preview_is_deterministic_and_draws_the_part(tmp_path):
    from printables.render.preview import BACKGROUND_RGB, SEED_RGB, PreviewPart, render_parts

    box = _box((20, 10, 5), (0, 0, 0))
    a = render_parts([PreviewPart(box, None, SEED_RGB)], tmp_path / "a.png", size_px=(200, 150))
    b = render_parts([PreviewPart(box, None, SEED_RGB)], tmp_path / "b.png", size_px=(200, 150))
    assert a.read_bytes() == b.read_bytes()
    pixels = _png(a)
    assert pixels.shape == (150, 200, 3)
    drawn = np.any(pixels != BACKGROUND_RGB, axis=-1)
    assert 0.1 < drawn.mean() < 0.9
    red = drawn & (pixels[..., 0] > pixels[..., 2] + 30)
    assert red.sum() > 0.6 * drawn.sum()  # the rest: dark outlines and shadowed faces


@pytest.mark.parametrize("post_on_top, centre_is_post", [(True, True), (False, False)])
def test_preview_shows_the_nearer_surface(tmp_path, post_on_top, centre_is_post):
    from printables.render.preview import PreviewPart, render_parts

    # A wide grey plate and a red post in its middle, seen from straight above: the post shows
    # when it stands on the plate and is hidden when it hangs below it.
    plate = _box((40, 40, 2), (-20, -20, 0))
    post = _box((6, 6, 10), (-3, -3, 2 if post_on_top else -10))
    out = render_parts(
        [PreviewPart(plate, None, (200, 200, 200)), PreviewPart(post, None, (200, 0, 0))],
        tmp_path / "p.png",
        size_px=(100, 100),
        view_deg=(-90.0, 89.0),
    )
    r, g, b = _png(out)[50, 50].astype(int)
    assert (r - g > 80) == centre_is_post


def test_fold_turns_the_right_half_over_the_hinge():
    from printables.render.preview import rotation_about_axis

    # Hinge axis along y at x = 0, z = 13.7: a point 10 mm right of it on the bed goes 10 mm
    # left of it, 2 x 13.7 mm up.
    m = rotation_about_axis((0.0, 0.0, 13.7), (0.0, 1.0, 0.0), 180.0)
    x, y, z, _ = m @ np.array([10.0, 5.0, 0.0, 1.0])
    assert (x, y, z) == pytest.approx((-10.0, 5.0, 27.4))


def test_gcode_roles_count_printing_moves_not_unretractions():
    """An unretraction at a support island's start is not support; a printed support line is."""
    from printables.check.slicer import parse_gcode

    closing = (
        "; filament used [mm] = 10.0\n; filament used [cm3] = 0.1\n; filament used [g] = 0.1\n"
        "; estimated printing time (normal mode) = 1m 2s\n"
    )
    unretract_only = "M83\n;TYPE:Perimeter\nG1 X1 Y1 E0.5\n;TYPE:Support material\nG1 E0.8 F2400\nG1 X5 Y5 F9000\n"
    report = parse_gcode(unretract_only + closing, "t.stl")
    assert dict(report.extrusion_by_role) == {"Perimeter": 0.5}
    assert report.support_mm == 0
    printed = unretract_only + "G1 X6 Y5 E0.25\n"
    assert parse_gcode(printed + closing, "t.stl").support_mm == 0.25
    assert parse_gcode(printed + closing, "t.stl").print_time_s == 62


@pytest.mark.parametrize("lang, word", [("ko", "기우티"), ("tr", "Giuthi")])
def test_a_set_in_another_language_has_its_rules_sheet_in_it_and_says_so(tmp_path, monkeypatch, lang, word):
    """``giuthi --lang`` builds the set with the rules sheet in that language (no CadQuery: parts are stubbed)."""
    import json

    from click.testing import CliRunner

    import printables.cad.giuthi_board as cad_board
    import printables.cad.giuthi_seeds as cad_seeds
    import printables.models as models
    from printables.check.dispatch import check_file
    from printables.cli import main

    def write_board(p, halves, out_dir, step=True):
        names = {side: f"{p.part_name(side)}.stl" for side in ("left", "right")}
        for name in names.values():
            (out_dir / name).write_bytes(b"")
        path = out_dir / cad_board.manifest_name(p)
        path.write_text(json.dumps(cad_board.manifest(p, names)))
        return [out_dir / n for n in names.values()] + [path]

    def build_seeds(params, out_dir):
        (out_dir / stl_name(params)).write_bytes(b"")
        return [out_dir / stl_name(params)]

    monkeypatch.setattr(cad_board, "build_halves", lambda p: {})
    monkeypatch.setattr(cad_board, "write_board", write_board)
    monkeypatch.setattr(cad_seeds, "build_seeds", build_seeds)
    monkeypatch.setattr(models, "write_3mfs", lambda stls, profile: [s.with_suffix(".3mf") for s in stls
                                                                     if s.with_suffix(".3mf").write_bytes(b"") is not None])
    out = tmp_path / "set"
    result = CliRunner().invoke(main, ["giuthi", "--lang", lang, "--no-slice", "--no-previews", "-o", str(out)])
    assert result.exit_code == 0, result.output
    manifest = json.loads(next(out.glob("giuthi-board-*.json")).read_text())
    assert manifest["rules"] == {"file": "giuthi-rules.pdf", "paper": "a4", "lang": lang}
    sheet = out / "giuthi-rules.pdf"
    from pypdf import PdfReader

    reader = PdfReader(sheet)
    assert word in reader.pages[0].extract_text() and json.loads(reader.metadata["/Subject"])["lang"] == lang
    failed = [str(r) for r in check_file(sheet) if not r.ok]
    assert not failed, failed
    card = [r for r in check_file(out / "giuthi-print-settings.pdf") if not r.ok]
    assert not card, [str(r) for r in card]
    card_reader = PdfReader(out / "giuthi-print-settings.pdf")
    assert json.loads(card_reader.metadata["/Subject"])["lang"] == lang
    assert {"ko": "출력 설정", "tr": "baskı ayarları"}[lang] in card_reader.pages[0].extract_text()


@pytest.mark.slow
def test_card_temperatures_are_the_gcodes(slicer, sprue, tmp_path):
    # The card printed "nozzle 215 °C" while the G-code heated to M109 S220 for the first layer.
    from printables.check.slicer import slice_to_gcode
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import giuthi_print_card, write_print_card

    gcode = slice_to_gcode(sprue, tmp_path / "sprue.gcode").read_text()
    heats = {code: {int(float(m)) for m in re.findall(rf"^{code} S([0-9.]+)", gcode, re.M)} - {0}
             for code in ("M104", "M109", "M140", "M190")}
    nozzle, bed = heats["M104"] | heats["M109"], heats["M140"] | heats["M190"]
    card = write_print_card(giuthi_print_card(SeedParams(), {}, GiuthiBoardParams()), tmp_path / "card.pdf")
    text = " ".join(_pdf_text(card).split())
    said = re.search(r"nozzle (\d+) \u00b0C, bed (\d+) \u00b0C", text)
    assert said, text
    assert nozzle == {int(said.group(1))} and bed == {int(said.group(2))}, (nozzle, bed, said.group(0))


def test_assembly_drawing_is_the_models_hinge_at_full_size():
    #   screw ->[R clearance][L pilot] ........ [R pilot][L clearance]<- screw
    from printables.layout.giuthi_board import hinge_knuckles
    from printables.layout.primitives import Rect, Text
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_assembly import assembly_items

    board = GiuthiBoardParams()
    items, bottom = assembly_items(board, 15.0, 40.0, 180.0)
    rects = [i for i in items if isinstance(i, Rect)]
    # Knuckles: as long as the layout's, as wide as they stand (full size), in the halves' two greys.
    knuckles = sorted((r for r in rects if r.h == pytest.approx(2 * board.knuckle_radius_mm)), key=lambda r: r.x)
    assert [round(r.w, 3) for r in knuckles] == [round(k.y1 - k.y0, 3) for k in hinge_knuckles(board)]
    assert [r.fill for r in knuckles] == [0.62, 0.82, 0.62, 0.82]  # right, left, right, left
    # Two screws, exploded off the ends: shanks as long and thick as the screws to buy.
    shanks = [r for r in rects if r.h == pytest.approx(board.screw_diameter_mm)]
    assert len(shanks) == 2 and all(r.w == pytest.approx(board.screw_length_mm) for r in shanks)
    left_edge = min(r.x for r in knuckles)
    right_edge = max(r.x + r.w for r in knuckles)
    assert shanks[0].x + shanks[0].w < left_edge and shanks[1].x > right_edge
    words = {i.text for i in items if isinstance(i, Text)}
    assert {"clearance hole: the screw turns", "pilot hole: the screw bites", "rubber band in its groove",
            "Band path 318.8 mm round the closed board"} <= words
    assert bottom < 297 - 15


def test_card_with_another_band_path_on_its_assembly_page_fails(tmp_path):
    from dataclasses import replace as dc_replace

    from printables.fileio import write_atomic
    from printables.layout.primitives import Page, Text
    from printables.models import seed_params_for
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import card_in_language, giuthi_print_card
    from printables.render.pdf import render_pdf

    path = _card_set(tmp_path)
    assert _card_failures(path) == {}
    board = GiuthiBoardParams()
    doc = card_in_language(giuthi_print_card(seed_params_for(board), {}, board), "en")
    page = doc.pages[1]
    items = tuple(dc_replace(i, text=i.text.replace("318.8", "300.8")) if isinstance(i, Text) else i for i in page.items)
    write_atomic(path, render_pdf(dc_replace(doc, pages=(doc.pages[0], Page(page.width, page.height, items)))))
    assert "band path 300.8 mm, manifest 318.8 mm" in _card_failures(path)["pages"]
