"""Installed anywhere: the wheel carries the presets, the fonts come with pip install, and every sheet
is made and passes its checks with the OS font folders out of reach."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from printables import fonts

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "ko", "tr")


# What a source tree holds besides its source: never copied into the build.
NOT_SOURCE = (".git", ".venv", "venv", "output", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis")


def _run(args, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(args, capture_output=True, text=True, timeout=1200, **kwargs)
    assert result.returncode == 0, f"{args}: exit {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def _outside_env() -> dict[str, str]:
    """The environment for a command run as a user would: no PYTHONPATH pointing into the clone."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PRINTABLES_FONT_DIR")}


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The sdist built from a copy of the source tree, the wheel built from the sdist alone, and the
    wheel installed (not editable) into a fresh venv that reuses this environment's dependencies."""
    base = tmp_path_factory.mktemp("install")
    src, dist = base / "src", base / "dist"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(*NOT_SOURCE))
    sdist_name = _run([sys.executable, "-c", f"from setuptools import build_meta; print(build_meta.build_sdist({str(dist)!r}))"],
                      cwd=src).stdout.strip().splitlines()[-1]
    sdist = dist / sdist_name
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", str(sdist), "-w", str(dist)],
         cwd=base)
    wheel = next(dist.glob("printables-*.whl"))
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    # This environment's dependencies, after the venv's own site-packages (where the wheel goes); a
    # path in a .pth file is not scanned for .pth files, so an editable printables here stays out.
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (site / "test-environment.pth").write_text("".join(f"{path}\n" for path in ours), encoding="utf-8")
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)])
    empty = base / "empty"
    empty.mkdir()
    printables = venv / ("Scripts/printables.exe" if os.name == "nt" else "bin/printables")
    return {"sdist": sdist, "wheel": wheel, "python": python, "printables": printables, "empty": empty, "site": site}


def _preset_names() -> set[str]:
    return {p.stem for folder in ("templates", "models") for p in (ROOT / folder).glob("*.toml")}


@pytest.mark.slow
def test_the_sdist_holds_the_presets_and_the_readme_pictures(installed):
    with tarfile.open(installed["sdist"]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    presets = {f"{folder}/{p.name}" for folder in ("templates", "models") for p in (ROOT / folder).glob("*.toml")}
    assert presets and presets <= names
    pictures = set(re.findall(r"\]\((docs/[^)\s]+\.png)\)", (ROOT / "README.md").read_text(encoding="utf-8")))
    assert pictures and pictures <= names, pictures - names


@pytest.mark.slow
def test_the_wheel_carries_the_presets_and_names_the_font_packages(installed):
    with zipfile.ZipFile(installed["wheel"]) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    carried = {Path(n).stem for n in names if n.startswith("printables/presets/") and n.endswith(".toml")}
    assert carried == _preset_names()
    requires = set(re.findall(r"^Requires-Dist: ([A-Za-z0-9_.-]+)", metadata, re.M))
    assert {"fontpkg-noto-sans", "koreanize-matplotlib", "pikepdf"} <= requires
    assert not any(n.endswith((".ttf", ".otf")) for n in names)  # the fonts come from those packages


@pytest.mark.slow
def test_the_installed_wheel_lists_builds_and_checks_from_an_empty_folder(installed):
    env, empty = _outside_env(), installed["empty"]
    where = _run([str(installed["python"]), "-c", "import printables; print(printables.__file__)"], cwd=empty, env=env)
    assert Path(where.stdout.strip()).is_relative_to(installed["site"])
    listed = _run([str(installed["printables"]), "list"], cwd=empty, env=env).stdout.splitlines()
    assert {line.split()[0] for line in listed[:-1]} == _preset_names()
    assert listed[-1].startswith(f"({len(_preset_names())} presets from the presets that came with printables: ")
    built = _run([str(installed["printables"]), "build", "harvest-10x10-a4", "peas-a6", "minefield-11x11-a4-ko", "-o", "out"],
                 cwd=empty, env=env).stdout
    assert "3 of 3 preset(s) built and checked" in built
    checked = _run([str(installed["printables"]), "check", "out"], cwd=empty, env=env).stdout
    assert checked.count("ok   PDF structure (qpdf)") == 3 and "FAIL" not in checked
    # a model preset by name, from the presets that came with the package
    shown = _run([str(installed["printables"]), "giuthi", "--show", "--preset", "giuthi-2x8"], cwd=empty, env=env).stdout
    assert shown.startswith("How to read this game (Giuthi, 2x8,")


# -- fonts with the OS font folders out of reach ----------------------------------------------------


def _make_and_check_every_sheet(folder: Path) -> list[str]:
    """Every sheet preset in each language, written and checked; the failures, as lines."""
    from printables.build import all_presets
    from printables.check.dispatch import check_file
    from printables.sheets import SHEET_KINDS, sheet_params, write_sheet

    failures = []
    for preset in all_presets([ROOT]):
        if preset.kind not in SHEET_KINDS:
            continue
        for lang in LANGS:
            params = sheet_params(preset.kind, {**preset.params, "lang": lang}, preset.name)
            path = write_sheet(preset.kind, params, folder / f"{preset.name}-{lang}.pdf")
            failures += [f"{path.name}: {r}" for r in check_file(path) if not r.ok]
    return failures


@pytest.fixture
def no_os_fonts(monkeypatch):
    """The search given no OS font folder (nor PRINTABLES_FONT_DIR): only what pip installed."""
    monkeypatch.setattr(fonts, "FONT_DIRS", ())
    monkeypatch.delenv(fonts.FONT_DIR_ENV, raising=False)
    fonts.font_file.cache_clear()
    fonts._metrics.cache_clear()
    yield
    fonts.font_file.cache_clear()
    fonts._metrics.cache_clear()


@pytest.mark.slow  # the first run makes the bold faces (tens of seconds), later runs find them in the cache
def test_every_face_comes_from_the_python_packages_without_os_folders(no_os_fonts):
    for face in fonts.FACES:
        path = fonts.font_file(face)
        assert not str(path).startswith("/usr/share/fonts"), (face, path)
        if face in fonts.PACKAGE_FILES:
            assert path == fonts.package_file(face)
        else:  # bold faces: instances of the variable font, with their own names for reportlab
            from fontTools.ttLib import TTFont

            with TTFont(str(path), lazy=True) as font:
                assert "fvar" not in font and font["OS/2"].usWeightClass == 700
                assert font["name"].getDebugName(6) != "NotoSans-Regular"
    # the package's regular face has a stored table, checked against the file's SHA-256
    assert fonts._stored_metrics(fonts.font_file("regular")) == fonts.measure_face(fonts.font_file("regular"))
    assert fonts.text_width_mm("Harvest", 10, "Helvetica-Bold") > fonts.text_width_mm("Harvest", 10, "Helvetica")


def _sheets_in_a_fresh_process(folder: Path, wrapper: list[str], setup: str) -> str:
    """Every sheet preset in each language written and checked (preflight included) by a fresh
    process (reportlab keeps a face registered for the life of a process), with ``setup`` run first."""
    script = (f"import sys; sys.path[:0] = [{str(ROOT)!r}, {str(Path(__file__).parent)!r}]\n"
              f"from pathlib import Path\nimport os\nfrom printables import fonts\n{setup}\n"
              "from test_install import _make_and_check_every_sheet\n"
              f"failures = _make_and_check_every_sheet(Path({str(folder)!r}))\n"
              "print('faces:', *sorted(str(fonts.font_file(f)) for f in fonts.FACES))\n"
              "print('\\n'.join(failures) or 'all passed')\n")
    result = _run([*wrapper, sys.executable, "-c", script], env=_outside_env(), cwd=folder)
    assert result.stdout.strip().endswith("all passed"), result.stdout[-3000:]
    assert "/usr/share/fonts" not in result.stdout
    assert len(list(folder.glob("*.pdf"))) == len(list((ROOT / "templates").glob("*.toml"))) * len(LANGS)
    return result.stdout


@pytest.mark.slow
def test_every_sheet_in_every_language_is_made_and_checked_without_os_font_folders(tmp_path):
    out = _sheets_in_a_fresh_process(tmp_path, [], "fonts.FONT_DIRS = ()")
    assert "fontpkg_noto_sans" in out and "koreanize_matplotlib" in out


def _can_hide_os_fonts() -> bool:
    return (sys.platform.startswith("linux") and hasattr(os, "geteuid") and os.geteuid() == 0
            and shutil.which("unshare") is not None and Path("/usr/share/fonts").is_dir()
            and subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0)


@pytest.mark.slow
@pytest.mark.skipif(not _can_hide_os_fonts(), reason="needs root and unshare to hide /usr/share/fonts")
def test_every_sheet_is_made_with_usr_share_fonts_hidden(tmp_path):
    # a mount namespace with an empty tmpfs over /usr/share/fonts: the OS fonts are gone for real
    hide = ["unshare", "-m", "sh", "-c", 'mount -t tmpfs tmpfs /usr/share/fonts && exec "$@"', "hide"]
    out = _sheets_in_a_fresh_process(tmp_path, hide, "assert os.listdir('/usr/share/fonts') == []")
    assert "fontpkg_noto_sans" in out and "koreanize_matplotlib" in out


# -- where presets come from -------------------------------------------------------------------------


def test_outside_a_source_tree_the_packaged_presets_are_listed_and_said_to_be(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import printables.build
    from printables.cli import main

    bundled = tmp_path / "site-packages" / "printables" / "presets"
    shutil.copytree(ROOT / "templates", bundled / "templates", ignore=shutil.ignore_patterns("*-ko.toml", "*-tr.toml"))
    monkeypatch.setattr(printables.build, "PACKAGE_ROOT", tmp_path / "site-packages")  # not a source tree
    monkeypatch.setattr(printables.build, "BUNDLED_PRESETS", bundled)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    *rows, said = CliRunner().invoke(main, ["list"]).output.splitlines()
    expected = {p.stem for p in (bundled / "templates").glob("*.toml")}
    assert {row.split()[0] for row in rows} == expected and not any(n.endswith(("-ko", "-tr")) for n in expected)
    assert said == f"({len(expected)} presets from the presets that came with printables: {bundled / 'templates'})"
    # inside a source tree, that tree's presets win over the packaged ones
    monkeypatch.chdir(ROOT / "docs")
    *rows, said = CliRunner().invoke(main, ["list"]).output.splitlines()
    assert {row.split()[0] for row in rows} == _preset_names() and "this printables source tree" in said
