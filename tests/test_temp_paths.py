"""Every temporary folder carries its process id and what a killed run left is swept by the next
run (issue 27): the gallery's page folder beside a preset's previews, and the font folder made
when there is no usable cache. A live process's folder is kept."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEAD_PID = 999_999_999  # above any pid_max: no such process


def _leftover(parent: Path, name: str) -> Path:
    folder = parent / name
    folder.mkdir(parents=True)
    (folder / "0000.png").write_bytes(b"half-drawn")
    return folder


def test_the_gallerys_page_folder_carries_the_pid_and_a_killed_runs_is_swept(tmp_path, monkeypatch):
    from printables import gallery
    from printables.build import all_presets, build_preset

    preset = next(p for p in all_presets() if p.name == "harvest-10x10-a4")
    folder = tmp_path / gallery.GALLERY / preset.name
    dead = _leftover(folder, f".pages-{DEAD_PID}-abcd1234")  # a build killed while drawing previews
    live = _leftover(folder, f".pages-{os.getppid()}-efgh5678")  # another build, drawing right now
    drawn_in = []
    real_page_pngs = gallery._page_pngs

    def page_pngs(pdf, into, first):
        drawn_in.append(into.name)
        return real_page_pngs(pdf, into, first)

    monkeypatch.setattr(gallery, "_page_pngs", page_pngs)
    built = build_preset(preset, tmp_path, slicer=False)
    gallery.add_to_gallery(built, tmp_path)
    assert drawn_in and all(name.startswith(f".pages-{os.getpid()}-") for name in drawn_in)
    assert not dead.exists()
    assert live.is_dir() and (live / "0000.png").is_file()
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".pages-")) == [live.name]
    assert (folder / "page-1.png").is_file()


FONT_USER = textwrap.dedent("""
    import os, sys
    from fontTools.varLib import instancer
    from printables import fonts
    # Where the faces go is the question here, not how they are instanced (half a minute each):
    # the variable font itself stands for each instance.
    instancer.instantiateVariableFont = lambda font, axes, **options: font
    bold, bold_italic = fonts.instance_file("bold"), fonts.instance_file("bold-italic")
    assert bold.is_file() and bold_italic.is_file(), "the second face's folder took the first's"
    print(bold.parent.name, bold_italic.parent.name, os.getpid())
""")


def test_the_font_folder_carries_the_pid_and_a_killed_runs_is_swept(tmp_path):
    from printables import fonts

    if fonts.package_file("regular") is None:
        pytest.skip("needs the pip-installed variable Noto Sans (fontpkg-noto-sans)")
    temp = tmp_path / "tmp"
    temp.mkdir()
    dead = _leftover(temp, f"printables-font-{DEAD_PID}-abcd1234")  # a command killed after making it
    live = _leftover(temp, f"printables-font-{os.getpid()}-efgh5678")  # a command running now
    not_a_folder = tmp_path / "cache"
    not_a_folder.write_text("a file where the cache folder would be")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               TMPDIR=str(temp), XDG_CACHE_HOME=str(not_a_folder), HOME=str(not_a_folder))
    run = subprocess.run([sys.executable, "-c", FONT_USER], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    first, second, pid = run.stdout.split()
    assert first == second and first.startswith(f"printables-font-{pid}-")  # one folder for the process
    assert not dead.exists()
    assert sorted(p.name for p in temp.iterdir()) == [live.name]  # its own went as it exited
