"""A sheet command's start-up: it loads only what it uses, and ends the ordinary way once its file is written.

Each test runs the real command line in a fresh Python (``python -m printables`` through runpy), with
an exit handler of the test's own that records what the process had loaded.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("harvest", "minefield", "peas", "patchwork")
RULE_CORES = {f"printables.rules.{game}" for game in GAMES + ("giuthi",)}

RUN = """
import atexit, gc, json, runpy, sys
report, argv = sys.argv[1], sys.argv[2:]

def record():
    image = sys.modules.get("PIL.Image")
    with open(report, "w") as out:
        json.dump({"modules": sorted(sys.modules), "gc_enabled": gc.isenabled(),
                   "pillow_loaded": image is not None and type(image).__name__ != "_LazyModule"}, out)

atexit.register(record)

class Finalized:
    # freed only when the interpreter tears its modules down; an early os._exit never frees it
    def __del__(self):
        with open(report) as f:
            data = json.load(f)
        data["finalized"] = True
        with open(report, "w") as f:
            json.dump(data, f)

sys.modules["_finalized_probe"] = Finalized()
sys.argv = ["printables/__main__.py", *argv]
runpy.run_module("printables", run_name="__main__", alter_sys=True)
"""


def _run(tmp_path: Path, *argv: str) -> tuple[subprocess.CompletedProcess, dict]:
    report = tmp_path / "report.json"
    result = subprocess.run([sys.executable, "-c", RUN, str(report), *argv], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert report.exists(), f"the exit handlers did not run: {result.stderr}"
    return result, json.loads(report.read_text())


@pytest.mark.parametrize("argv", [("patchwork", "-o", "x.pdf"), ("peas", "--help"), ("list",), ("check", "x.pdf")])
def test_every_command_runs_with_the_cycle_collector_and_exits_the_ordinary_way(argv, tmp_path):
    argv = tuple(str(tmp_path / a) if a.endswith(".pdf") else a for a in argv)
    if argv[0] == "check":  # a sheet to check, made first
        _run(tmp_path, "harvest", "-o", argv[1])
    result, loaded = _run(tmp_path, *argv)  # the exit handler that wrote the report ran at the end
    assert result.returncode == 0, result.stderr
    assert loaded["gc_enabled"] is True
    assert loaded.get("finalized") is True, "the interpreter did not tear down: an early exit"


@pytest.mark.parametrize("game", GAMES)
def test_a_sheet_command_loads_its_own_game_only_and_no_pillow(game, tmp_path):
    out = tmp_path / f"{game}.pdf"
    result, loaded = _run(tmp_path, game, "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(out)  # printed and flushed before the process ended
    assert len(PdfReader(out).pages) >= 1  # the whole file is there
    modules = set(loaded["modules"])
    assert RULE_CORES & modules == {f"printables.rules.{game}"}
    # the play halves of the rule cores (moves, states, apply): a sheet draws without them
    assert not {"printables.rules.peas_play", "printables.rules.patchwork_play"} & modules
    assert "printables.i18n.books" not in modules  # an English sheet reads no catalogue
    assert not loaded["pillow_loaded"], "Pillow was loaded although no image was drawn"
    assert not {"tomllib", "fontTools", "cadquery", "printables.build", "printables.check"} & modules
    assert "printables.params.presets" not in modules  # no preset is read


def test_a_sheet_in_another_language_reads_its_catalogue(tmp_path):
    result, loaded = _run(tmp_path, "minefield", "--lang", "tr", "-o", str(tmp_path / "m.pdf"))
    assert result.returncode == 0, result.stderr
    assert {"tomllib", "printables.i18n.books"} <= set(loaded["modules"])


def test_a_refused_option_still_ends_with_one_line_and_exit_2(tmp_path):
    result, _ = _run(tmp_path, "peas", "--pea", "99", "-o", str(tmp_path / "p.pdf"))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["Error: pea 99.0 mm: use 10 to 20 mm (a digit must fit in a pea)"]
    assert not (tmp_path / "p.pdf").exists()


def test_pillow_loads_in_full_when_used(tmp_path):
    # the lazy import gives the real module the moment an attribute is read
    code = ("import printables.render, sys; from PIL import Image; "
            "assert type(sys.modules['PIL.Image']).__name__ == '_LazyModule'; "
            "print(Image.new('L', (2, 3)).size, type(sys.modules['PIL.Image']).__name__)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["(2,", "3)", "module"]


def test_a_profiled_run_ends_the_ordinary_way_so_the_profile_is_written(tmp_path):
    # a profiler (or coverage's tracer) writes its figures after the program: the process must end the ordinary way
    profile = tmp_path / "run.prof"
    result = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "printables", "minefield",
                             "-o", str(tmp_path / "m.pdf")], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert profile.stat().st_size > 0 and (tmp_path / "m.pdf").exists()


@pytest.mark.parametrize("argv, says", [
    (["--ouput", "x.pdf"], "Error: No such option '--ouput'. (Did you mean one of: '--output', '--part'?)"),
    (["-x"], "Error: No such option '-x'."),
    (["-o"], "Error: Option '-o' requires an argument."),
])
def test_mistyped_options_are_still_told_as_click_tells_them(argv, says, tmp_path):
    result, _ = _run(tmp_path, "patchwork", *argv)
    assert (result.returncode, result.stderr.strip()) == (2, says)


def test_short_options_with_attached_values_still_work(tmp_path):
    out = tmp_path / "p.pdf"
    result, _ = _run(tmp_path, "peas", f"-o{out}", "--lang=ko")
    assert result.returncode == 0, result.stderr
    assert len(PdfReader(out).pages) >= 1


def test_a_sheet_command_does_not_load_the_customizer(tmp_path):
    result, loaded = _run(tmp_path, "peas", "-o", str(tmp_path / "peas.pdf"))
    assert result.returncode == 0, result.stderr
    assert not {name for name in loaded["modules"] if name.startswith("printables.serve")}
    result, loaded = _run(tmp_path, "serve", "--help")  # still a command of its own, loaded when named
    assert result.returncode == 0 and "--port" in result.stdout
    assert "printables.serve.command" in loaded["modules"]
