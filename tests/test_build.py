"""printables build: worker processes give the same files as a serial build; --no-slice; step times."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from printables.cli import main

SHEET_PRESETS = ("harvest-8x8-4up-a4", "minefield-9x9-a4", "peas-a6")


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (but the gallery's lock) by its relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


def test_a_parallel_build_writes_the_same_bytes_as_a_serial_one(tmp_path):
    serial = CliRunner().invoke(main, ["build", *SHEET_PRESETS, "-o", str(tmp_path / "serial"), "--jobs", "1"])
    parallel = CliRunner().invoke(main, ["build", *SHEET_PRESETS, "-o", str(tmp_path / "parallel"), "--jobs", "3"])
    assert serial.exit_code == 0, serial.output
    assert parallel.exit_code == 0, parallel.output
    assert "(1 job)" in serial.output and "(3 jobs)" in parallel.output
    one, three = files_of(tmp_path / "serial"), files_of(tmp_path / "parallel")
    assert sum(name.endswith(".pdf") for name in one) == len(SHEET_PRESETS)
    assert one.keys() == three.keys()
    for name in one:
        assert one[name] == three[name], name
    # Results are reported in the order asked for, whichever worker finished first.
    order = [line.split()[1] for line in parallel.output.splitlines() if line.startswith("ok ")]
    assert order == [f"{name}:" for name in SHEET_PRESETS]


def test_verbose_build_times_each_step_and_no_slice_says_so(tmp_path):
    result = CliRunner().invoke(main, ["build", "harvest-10x10-a4", "-o", str(tmp_path), "--no-slice", "-v", "-j", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    times = [line for line in lines if line.strip().startswith("time:")]
    assert len(times) == 1 and "sheets" in times[0] and "checks" in times[0]
    assert "PrusaSlicer steps skipped (--no-slice)" in lines[-2]
    assert lines[-1].startswith("time per step, summed over presets: ")


def test_zero_jobs_is_refused(tmp_path):
    result = CliRunner().invoke(main, ["build", "harvest-10x10-a4", "-o", str(tmp_path), "--jobs", "0"])
    assert result.exit_code == 2
    assert "--jobs" in result.output and "at least 1" in result.output


def test_no_slice_leaves_out_the_slicer_checks(tmp_path):
    from printables.check.dispatch import check_file

    # Not a real sprue: its own checks fail either way; only the slicer's result differs.
    stl = tmp_path / "giuthi-seeds-12-11mm.stl"
    stl.write_bytes(b"solid broken\nendsolid broken\n")
    with_slicer = [r.name for r in check_file(stl)]
    without = [r.name for r in check_file(stl, slicer=False)]
    assert any("slicer" in name for name in with_slicer)
    assert not any("slicer" in name for name in without)
    assert without == [name for name in with_slicer if "slicer" not in name]
