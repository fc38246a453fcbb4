"""PrusaSlicer found where its installers put it, and a build without it says so once."""

from __future__ import annotations

import os
import stat

import pytest
from click.testing import CliRunner

from printables.check import slicer
from printables.cli import main


def _executable(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def nowhere(tmp_path, monkeypatch):
    """No slicer on PATH, no PRUSA_SLICER, an empty home and no Program Files."""
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    monkeypatch.delenv(slicer.SLICER_ENV, raising=False)
    for name in ("ProgramFiles", "ProgramW6432", "ProgramFiles(x86)"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return tmp_path


def test_no_slicer_anywhere_is_none(nowhere):
    assert not any(path.exists() for path in slicer.installer_paths())
    assert slicer.slicer_path() is None and not slicer.is_slicer_available()


def test_the_macos_app_bundle_in_the_users_applications_is_found(nowhere):
    binary = _executable(nowhere / "home" / "Applications" / "PrusaSlicer.app" / "Contents" / "MacOS" / "PrusaSlicer")
    assert slicer.slicer_path() == str(binary)


def test_windows_program_files_is_found(nowhere, monkeypatch):
    monkeypatch.setenv("ProgramFiles", str(nowhere / "Program Files"))
    binary = _executable(nowhere / "Program Files" / "Prusa3D" / "PrusaSlicer" / "prusa-slicer-console.exe")
    assert slicer.slicer_path() == str(binary)


def test_path_and_prusa_slicer_come_before_the_installers_folders(nowhere, monkeypatch):
    _executable(nowhere / "home" / "Applications" / "PrusaSlicer.app" / "Contents" / "MacOS" / "PrusaSlicer")
    on_path = _executable(nowhere / "empty-bin" / "prusa-slicer")
    assert slicer.slicer_path() == str(on_path)
    named = _executable(nowhere / "elsewhere" / "my-slicer")
    monkeypatch.setenv(slicer.SLICER_ENV, str(named))
    assert slicer.slicer_path() == str(named)


def test_build_without_a_slicer_says_once_that_slicing_was_skipped(nowhere, monkeypatch):
    import printables.build

    monkeypatch.delenv("CI", raising=False)  # under CI a missing slicer fails the slicer checks instead
    asked = []

    def record(presets, output, *, jobs=1, slicer=True, **kwargs):
        asked.append((sorted(p.name for p in presets), slicer))
        return iter(())

    monkeypatch.setattr(printables.build, "build_presets", record)
    result = CliRunner().invoke(main, ["build", "giuthi-default", "giuthi-ko", "-o", str(nowhere / "out")])
    assert result.exit_code == 0, result.output
    assert asked == [(["giuthi-default", "giuthi-ko"], False)]
    said = [line for line in result.output.splitlines() if "prusa-slicer not found" in line]
    assert len(said) == 1 and "DigiLab 3D Slicer" in said[0] and slicer.SLICER_ENV in said[0]
    assert "PrusaSlicer steps skipped" in result.output.splitlines()[-2]


def test_build_of_sheets_alone_says_nothing_of_the_slicer(nowhere, monkeypatch):
    import printables.build

    monkeypatch.setattr(printables.build, "build_presets", lambda presets, output, **kwargs: iter(()))
    result = CliRunner().invoke(main, ["build", "peas-a6", "-o", str(nowhere / "out")])
    assert result.exit_code == 0 and "slicer" not in result.output.lower()
