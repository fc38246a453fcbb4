"""Hostile and careless use, round 3 (issue 27): bounded inputs, hostile preset values, options
that can work, temp paths swept, one line per signal, workers that die with their build, and
Giuthi sets that are whole or fail their check."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from printables.cli import main
from conftest import assert_one_line_error

ROOT = Path(__file__).resolve().parent.parent
GIUTHI_PRESET = (ROOT / "models" / "giuthi-default.toml").read_text(encoding="utf-8")


def invoke(*args):
    return CliRunner().invoke(main, list(args))


def _env(**changes) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PRINTABLES_DEBUG", None)
    env.update(changes)
    return env


# -- preset files: regular, bounded ---------------------------------------------------------------


def test_a_preset_that_is_a_symlink_to_dev_zero_is_refused_naming_it(tmp_path):
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    # In a fresh process with a memory cap: the old code read /dev/zero until memory ran out.
    process = subprocess.run(
        [sys.executable, "-c", "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30));"
         "from printables.cli import main; sys.argv[0] = 'printables'; main(['list', '--presets', sys.argv[1]])",
         str(tmp_path)], env=_env(), capture_output=True, text=True, timeout=60)
    assert process.returncode == 2, process.stderr
    assert process.stderr.splitlines() == [f"Error: {tmp_path / 'zero.toml'}: not a regular file; "
                                           "a preset is a TOML file of at most 1 MB"]


def test_a_fifo_preset_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "pipe.toml")
    process = subprocess.run([sys.executable, "-m", "printables", "list", "--presets", str(tmp_path)],
                             env=_env(), capture_output=True, text=True, timeout=30)  # the old code hung here
    assert process.returncode == 2
    assert "pipe.toml: not a regular file" in process.stderr


def test_a_preset_over_a_megabyte_is_refused(tmp_path):
    (tmp_path / "big.toml").write_text('kind = "peas"\ndescription = "x"\n' + "#" * 1_000_000 + "\n")
    assert_one_line_error(invoke("list", "--presets", str(tmp_path)), "big.toml: 1,000,033 bytes; a preset is at most 1,000,000 bytes")


def _model_preset(folder: Path, line: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "hostile.toml"
    path.write_text(GIUTHI_PRESET.replace("[params]\n", f"[params]\n{line}\n"), encoding="utf-8")
    return path


@pytest.mark.parametrize("line, key", [
    ('screw = "ten"', "screw"),
    ("screw = -1", "screw"),
    ("screw = [1]", "screw"),
    ("hole_clearance_mm = inf", "hole_clearance_mm"),
    ("hole_clearance_mm = nan", "hole_clearance_mm"),
    ("seam_gap_mm = 1e308", "seam_gap_mm"),
    ("web_mm = -inf", "web_mm"),
    ('store_width_mm = "wide"', "store_width_mm"),
    ("clearance_knuckle_mm = 2024-01-01", "clearance_knuckle_mm"),
    ("margin_mm = " + "9" * 400, "margin_mm"),
])
def test_a_hostile_model_preset_value_is_exit_2_naming_the_file_and_key(tmp_path, line, key):
    path = _model_preset(tmp_path / "p", line)
    result = invoke("build", "--presets", str(path.parent), "-o", str(tmp_path / "out"), "--no-slice")
    assert_one_line_error(result, f"{path} [params]: {key}=")
    assert not (tmp_path / "out").exists()


def test_a_hostile_value_beside_size_mm_names_its_key(tmp_path):
    # giuthi-2x8 gives size_mm: the pit sizes are worked out before the board is built.
    text = (ROOT / "models" / "giuthi-2x8.toml").read_text(encoding="utf-8")
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "x.toml").write_text(text.replace("[params]\n", '[params]\nstore_width_mm = "wide"\n'))
    assert_one_line_error(invoke("build", "--presets", str(folder), "-o", str(tmp_path / "out"), "--no-slice"),
                          "store_width_mm='wide'")


def test_a_100000_deep_array_in_a_preset_is_exit_2_naming_the_file(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "deep.toml").write_text('kind = "giuthi-board"\ndescription = "x"\n[params]\nx = '
                                      + "[" * 100_000 + "]" * 100_000 + "\n")
    assert_one_line_error(invoke("list", "--presets", str(folder)), "deep.toml: arrays or tables nested too deep")


def test_a_310_digit_sheet_preset_value_names_its_key(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    text = (ROOT / "templates" / "peas-a6.toml").read_text(encoding="utf-8")
    (folder / "x.toml").write_text(text.replace("[params]\n", "[params]\nbleed = " + "9" * 310 + "\n"))
    assert_one_line_error(invoke("build", "--presets", str(folder), "-o", str(tmp_path / "out")), "bleed = 9999")


# -- options that can work --------------------------------------------------------------------------


def test_screw_m3_gets_a_screw_long_enough_to_bite():
    from printables.models import model_params
    from printables.params.giuthi_board import ENGAGEMENT_FACTOR

    board = model_params("giuthi-board", {"screw": "m3"})
    assert board.screw_length_mm == 14.0  # the shortest M3 stock length over 2.5 x 3 + 5 + 0.4 = 12.9 mm
    assert board.engagement_mm >= ENGAGEMENT_FACTOR * 3.0
    # Every screw offered works with the default board, and the default screw keeps its 1/2 inch.
    for screw in ("no2", "m2", "m2.5"):
        assert model_params("giuthi-board", {"screw": screw}).screw_length_mm == 12.7
    # A length given is kept, and refused when it does not bite.
    with pytest.raises(Exception, match="screw_length_mm=12.7 bites"):
        model_params("giuthi-board", {"screw": "m3", "screw_length_mm": 12.7})


def test_screw_m3_on_the_command_line_is_accepted():
    result = invoke("giuthi", "--screw", "m3", "--show", "--game-seed", "1")
    assert result.exit_code == 0, result.output


REFUSALS = [
    (["--wall", "2.5"], "--wall"),
    (["--wall", "1.5"], "--thickness"),
    (["--seed-height", "9"], "--seed-height"),
    (["--pits", "10", "--pit-diameter", "40"], "--pits"),
    (["--pit-depth", "30"], "--pit-depth"),
    (["--seeds", "9"], "--seeds"),
]


@pytest.mark.parametrize("args, option", REFUSALS)
def test_every_giuthi_refusal_names_an_option_the_user_can_set(args, option):
    result = invoke("giuthi", *args, "--show")
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert option in line
    # No parameter name the command line has no option for (web_mm, seed_width_ratio ...).
    assert not re.search(r"\b[a-z]+(?:_[a-z]+)+\b", line), line


def test_wall_above_the_webs_is_refused_naming_wall_only():
    assert_one_line_error(invoke("giuthi", "--wall", "2.5", "--show"),
                          "--wall 2.5 is thicker than the webs between the pits; use --wall <= 2")


# -- workers die with their build ---------------------------------------------------------------

SHEET_PRESETS = ("patchwork-a4", "patchwork-letter", "patchwork-a4-tr", "patchwork-a4-ko", "peas-a6",
                 "harvest-10x10-a4", "minefield-11x11-a4", "peas-4x6")


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            text = Path(f"/proc/{pid}/task/{task}/children").read_text()
            found |= {int(n) for n in text.split()}
    except OSError:
        pass
    return found


def _is_running(pid: int) -> bool:
    """Alive and not a zombie (a dead child nobody has reaped yet holds no memory)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return not re.search(r"^State:\s+[ZX]", status, re.M)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from /proc")
def test_a_build_killed_with_sigkill_leaves_no_worker_behind(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "printables", "build", "-j", "2", "--no-slice", "-o", "out",
                                *SHEET_PRESETS], cwd=tmp_path, env=_env(), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and process.poll() is None and time.monotonic() < deadline:
            workers = {w for w in _children(process.pid) if _is_running(w)}
            time.sleep(0.05)
        assert len(workers) == 2, "the build did not start its two workers"
        time.sleep(0.5)  # the workers are at work (imports, the first sheets)
        process.kill()
        process.wait(10)
        killed = time.monotonic()
        while any(_is_running(w) for w in workers) and time.monotonic() - killed < 5.0:
            time.sleep(0.05)
        assert not any(_is_running(w) for w in workers), "a worker outlived its killed build by 5 s"
    finally:
        if process.poll() is None:
            process.kill()
        for worker in workers:  # those the old code left behind
            try:
                os.kill(worker, signal.SIGKILL)
            except OSError:
                pass


def test_a_worker_ends_when_its_parent_has_changed(tmp_path):
    """The portable guard (no prctl): a process whose parent is not the one it was started by ends."""
    code = ("import os, sys, time; from printables import lifeline; "
            "lifeline.set_parent_death_signal = lambda signum: False; lifeline.die_with_parent(int(sys.argv[1])); time.sleep(30)")
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-c", code, "1"], env=_env(), timeout=20)  # its parent is not pid 1
    assert result.returncode == 1
    assert time.monotonic() - started < 10


# -- one line per signal ------------------------------------------------------------------------


def _start(args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "printables", *args], cwd=cwd, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from /proc")
@pytest.mark.parametrize("sig, group, code", [(signal.SIGINT, True, 130), (signal.SIGTERM, False, 143)],
                         ids=["ctrl-c-to-the-group", "sigterm-to-the-build"])
def test_an_interrupted_parallel_build_says_interrupted_once(tmp_path, sig, group, code):
    process = _start(["build", "-j", "2", "--no-slice", "-o", "out", *SHEET_PRESETS], tmp_path)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:
            workers = _children(process.pid)
            time.sleep(0.05)
        time.sleep(0.5)
        if group:
            os.killpg(process.pid, sig)  # as a terminal's Ctrl-C: the whole process group
        else:
            process.send_signal(sig)  # as `kill PID`: the build alone
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == code, err
    assert not any(_is_running(w) for w in workers)
    assert err.count("Interrupted") == 1, err
    assert "Traceback" not in err
    left = [p.name for p in (tmp_path / "out").rglob("*") if ".tmp" in p.name or p.name.startswith(".printables-")]
    assert left == []


def test_sighup_ends_giuthi_like_sigterm(tmp_path):
    process = _start(["giuthi", "--no-slice", "-o", "set"], tmp_path)
    try:
        seen = ""
        while "modelling" not in seen:
            line = process.stderr.readline()
            assert line, "giuthi ended before it modelled"
            seen += line
        process.send_signal(signal.SIGHUP)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 129, err
    assert err.splitlines()[-1] == "Interrupted; no partial files were left."
    assert [p.name for p in tmp_path.iterdir()] == []  # no staging folder: the old code left one


def _startup_s() -> float:
    """How long this Python takes to start and import nothing (site and .pth files included)."""
    times = []
    for _ in range(3):
        started = time.monotonic()
        subprocess.run([sys.executable, "-c", "pass"], env=_env(), check=True)
        times.append(time.monotonic() - started)
    return sorted(times)[1]


@pytest.mark.parametrize("command", [["-m", "printables"], ["-c", "import sys; sys.argv[0] = 'printables'; "
                                                                   "from printables.cli import main; main()"]])
def test_ctrl_c_in_the_first_milliseconds_is_no_traceback(tmp_path, command):
    """From the moment Python runs our package on: ``python -m printables`` (argv[0] is "-m" while
    the package is imported) and the ``printables`` script. Before that, Python itself is starting
    (site, .pth files, finding the package): a KeyboardInterrupt there is the interpreter's, before
    any line of ours runs, so none can catch it; such a traceback holds no frame of our package."""
    ours = f'File "{ROOT / "printables"}'  # a frame of our package in a traceback
    start = _startup_s()
    interrupted = 0
    for step in range(12):
        process = subprocess.Popen([sys.executable, *command, "harvest", "-o", f"h{step}.pdf"], cwd=tmp_path, env=_env(),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(start * 0.8 + step * 0.01)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        if "Traceback" in err and ours not in err:
            continue  # still inside Python's own start-up
        assert "Traceback" not in err, err
        if process.returncode == 130:
            assert err.splitlines() == ["Interrupted; no partial files were left."]
            interrupted += 1
        elif process.returncode == -signal.SIGINT:  # ended by the signal itself: only before Python
            assert err == "" and not (tmp_path / f"h{step}.pdf").exists()  # set its handler (not at its exit)
        else:
            assert process.returncode == 0, err
    assert interrupted, "no run was interrupted after Python's start-up"


# -- temporary paths carry the process id and are swept -------------------------------------------

DEAD_PID = 999_999_999  # above any pid_max: no such process


def test_a_sheets_temporary_copy_carries_the_pid_and_a_killed_runs_copy_is_swept(tmp_path, monkeypatch):
    from printables import fileio

    dead = tmp_path / f".harvest.pdf.{DEAD_PID}-abcd1234.tmp"  # what a killed run left
    legacy = tmp_path / ".harvest.pdf.k2j4h5g6.tmp"  # named before pids were, hours ago
    fresh_legacy = tmp_path / ".harvest.pdf.q1w2e3r4.tmp"  # the same, just made: maybe in use
    live = tmp_path / f".harvest.pdf.{os.getppid()}-zxcv5678.tmp"  # a live process's copy
    other = tmp_path / ".notes.txt.tmp"  # not ours
    for path in (dead, legacy, fresh_legacy, live, other):
        path.write_bytes(b"partial")
    os.utime(legacy, (time.time() - 2 * fileio.STALE_LEGACY_S,) * 2)
    seen = []
    real_fsync = os.fsync

    def fsync(fd):  # the moment the copy is whole, before its rename
        seen.extend(p.name for p in tmp_path.iterdir())
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    fileio.write_atomic(tmp_path / "harvest.pdf", b"%PDF-")
    mine = [n for n in seen if n.startswith(f".harvest.pdf.{os.getpid()}-") and n.endswith(".tmp")]
    assert len(mine) == 1
    assert {p.name for p in tmp_path.iterdir()} == {"harvest.pdf", fresh_legacy.name, live.name, other.name}


def test_scratch_folders_carry_the_pid_and_a_killed_runs_are_swept(tmp_path):
    from printables import fileio

    dead = tmp_path / f"printables-gcode-{DEAD_PID}-abcd"
    live = tmp_path / f"printables-gcode-{os.getppid()}-efgh"
    for folder in (dead, live):
        folder.mkdir()
        (folder / "part.gcode").write_text("G1")
    with fileio.scratch_folder("printables-gcode-", tmp_path) as work:
        assert work.name.startswith(f"printables-gcode-{os.getpid()}-")
        assert {p.name for p in tmp_path.iterdir()} == {live.name, work.name}
    assert {p.name for p in tmp_path.iterdir()} == {live.name}


def test_the_slicer_works_in_scratch_folders_named_with_the_pid(tmp_path, monkeypatch):
    import tempfile

    from printables.check import slicer

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(slicer, "slicer_path", lambda: "/bin/prusa-slicer")
    seen = {}

    def run(cmd, **kwargs):
        seen["datadir"] = Path(cmd[cmd.index("--datadir") + 1])
        seen["gcode"] = Path(cmd[cmd.index("--output") + 1])
        Path(cmd[cmd.index("--output") + 1]).write_text("; estimated printing time (normal mode) = 1m 0s\n")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(slicer.subprocess, "run", run)
    stl = tmp_path / "cube.stl"
    stl.write_bytes(b"solid cube\nendsolid cube\n")
    try:
        slicer.slice_report(stl)
    except Exception:
        pass  # the G-code is a stub; only the folders matter here
    assert seen["datadir"].parent.name.startswith(f"printables-slicer-{os.getpid()}-")
    assert seen["gcode"].parent.name.startswith(f"printables-gcode-{os.getpid()}-")
    assert [p.name for p in tmp_path.iterdir()] == ["cube.stl"]


# -- a Giuthi set is whole or fails its check -----------------------------------------------------


@pytest.fixture(scope="module")
def giuthi_set(tmp_path_factory) -> Path:
    """A real set (no slicing, no previews: the files the manifest lists)."""
    pytest.importorskip("cadquery")
    from printables.models import build_giuthi, model_params

    folder = tmp_path_factory.mktemp("giuthi") / "set"
    build_giuthi(model_params("giuthi-board", {}), folder, slice_parts=False, previews=False)
    return folder


def _set_is_whole(folder: Path) -> bool:
    """What `printables check` says of the set as a whole: the folder's own check (a set without a
    manifest) and each manifest's list of files."""
    from printables.check.dispatch import check_file, expand
    from printables.check.giuthi_set import check_set_files

    paths = expand(folder)
    if folder in paths:
        return all(r.ok for r in check_file(folder))
    manifests = [p for p in paths if p.suffix == ".json"]
    return bool(manifests) and all(check_set_files(m).ok for m in manifests)


def test_a_built_set_lists_every_file_with_its_digest(giuthi_set):
    import hashlib
    import json

    manifest = next(giuthi_set.glob("giuthi-board-*.json"))
    files = json.loads(manifest.read_text())["files"]
    on_disk = sorted(p.name for p in giuthi_set.iterdir() if p != manifest)
    assert sorted(files) == on_disk
    kinds = {Path(n).suffix for n in files}
    assert kinds == {".ini", ".pdf", ".step", ".stl", ".3mf"}  # profile, card and rules, STEPs, STLs, 3MFs
    assert "giuthi-print-settings.pdf" in files and "giuthi-rules.pdf" in files
    for name, digest in files.items():
        assert hashlib.sha256((giuthi_set / name).read_bytes()).hexdigest() == digest
    assert _set_is_whole(giuthi_set)


def test_deleting_any_one_file_of_a_set_fails_its_check(giuthi_set, tmp_path):
    import shutil

    names = sorted(p.name for p in giuthi_set.iterdir())
    for name in names:
        folder = tmp_path / name
        shutil.copytree(giuthi_set, folder)
        (folder / name).unlink()
        assert not _set_is_whole(folder), f"a set without {name} passed"


def test_a_folder_with_only_the_manifest_and_the_stls_fails(giuthi_set, tmp_path):
    import shutil

    folder = tmp_path / "set"
    folder.mkdir()
    for path in giuthi_set.iterdir():
        if path.suffix in (".json", ".stl"):
            shutil.copy(path, folder / path.name)
    assert not _set_is_whole(folder)


def test_a_changed_file_in_a_set_fails_its_check(giuthi_set, tmp_path):
    import shutil

    folder = tmp_path / "set"
    shutil.copytree(giuthi_set, folder)
    profile = folder / "dremel-3d45-giuthi.ini"
    profile.write_text(profile.read_text() + "\n; edited\n")
    assert not _set_is_whole(folder)


def test_check_fails_a_folder_holding_part_of_a_set_without_its_manifest(giuthi_set, tmp_path):
    import shutil

    folder = tmp_path / "part"
    folder.mkdir()
    sprue = next(giuthi_set.glob("giuthi-seeds-*.3mf"))
    shutil.copy(sprue, folder / sprue.name)  # a seed sprue alone passed before
    result = invoke("check", str(folder))
    assert result.exit_code == 1, result.output
    assert f"FAIL {folder}\n" in result.output
    assert "holds files of a Giuthi set but no giuthi-board-*.json manifest" in result.output


class Killed(BaseException):
    """A kill at a rename: nothing after it runs (no rollback, no clean-up)."""


def _old_variant(new: Path, folder: Path, renamed: bool) -> None:
    """Another whole set in ``folder``: each file of ``new`` with other bytes (and, ``renamed``, other
    names, as a set of other parameters has), its manifest listing them."""
    import hashlib
    import json

    folder.mkdir()
    rename = (lambda n: n.replace("4seeds", "4seeds-old")) if renamed else (lambda n: n)
    manifest = next(new.glob("giuthi-board-*.json"))
    data = json.loads(manifest.read_text())
    files = {}
    for name in data["files"]:
        content = (new / name).read_bytes() + b"\n"
        (folder / rename(name)).write_bytes(content)
        files[rename(name)] = hashlib.sha256(content).hexdigest()
    data["files"] = files
    (folder / rename(manifest.name)).write_text(json.dumps(data))
    assert _set_is_whole(folder)


@pytest.mark.parametrize("renamed", [False, True], ids=["same-names", "other-names"])
def test_a_kill_at_any_rename_of_the_read_only_parent_swap_leaves_no_folder_that_passes(
        giuthi_set, tmp_path, monkeypatch, renamed):
    import shutil

    from printables import fileio
    from printables.models import is_set_manifest, is_set_member

    def make(stage: Path) -> list[Path]:
        return [Path(shutil.copy(p, stage / p.name)) for p in sorted(giuthi_set.iterdir())]

    count = len(list(giuthi_set.iterdir()))
    mixed = 0
    for n in range(1, 2 * count + 1):  # every file moved out, then every file moved in
        parent = tmp_path / f"kill-{n}"
        parent.mkdir()
        out = parent / "set"
        _old_variant(giuthi_set, out, renamed)
        old_set = {p.name: p.read_bytes() for p in out.iterdir()}
        calls = []

        def move(src, dst, n=n):
            calls.append(src)
            if len(calls) == n:
                raise Killed
            os.rename(src, dst)

        monkeypatch.setattr(fileio, "_move", move)
        monkeypatch.setattr(fileio, "_can_write", lambda folder, parent=parent: Path(folder) != parent)
        with pytest.raises(Killed):
            fileio.replace_set(out, make, kind="giuthi", is_member=is_set_member, is_marker=is_set_manifest)
        monkeypatch.undo()
        visible = {p.name: p.read_bytes() for p in out.iterdir() if not p.name.startswith(".")}
        if visible == old_set:  # killed before the first move: the old set, whole
            assert n == 1 and _set_is_whole(out)
            continue
        mixed += 1
        assert not _set_is_whole(out), f"killed at rename {n}: {sorted(visible)} passed as a whole set"
    assert mixed == 2 * count - 1


# -- check reads only what is bounded ----------------------------------------------------------------


def _check_lines(*paths: Path) -> tuple[int, str]:
    result = invoke("check", *map(str, paths))
    return result.exit_code, result.output


def test_check_refuses_a_fifo_instead_of_blocking(tmp_path):
    os.mkfifo(tmp_path / "sheet.pdf")
    process = subprocess.run([sys.executable, "-m", "printables", "check", str(tmp_path)], env=_env(),
                             capture_output=True, text=True, timeout=60)  # the old code blocked for ever
    assert process.returncode == 1
    assert "FAIL file: sheet.pdf: not a regular file" in process.stdout


def test_check_reads_a_folder_reached_twice_through_links_once(tmp_path):
    folder = tmp_path / "a"
    folder.mkdir()
    assert invoke("minefield", "--size", "5", "-o", str(folder / "m.pdf")).exit_code == 0
    (folder / "up").symlink_to("..")  # a loop
    (folder / "again").symlink_to(folder)  # the same folder again
    (tmp_path / "self").symlink_to("self")  # a link to itself
    code, output = _check_lines(tmp_path)
    assert code == 0, output
    assert output.count("m.pdf\n") == 1


def _pdf_with_stream(raw: bytes, ascii85: bool = False) -> bytes:
    """A one-page PDF whose content stream is ``raw`` (Flate-compressed here; then ASCII85-encoded,
    as reportlab writes its streams, with ``ascii85``)."""
    import base64

    data = zlib_compress(raw)
    filters = b"/FlateDecode"
    if ascii85:
        data = base64.a85encode(data, wrapcol=72) + b"~>"
        filters = b"[/ASCII85Decode /FlateDecode]"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
               b"<< /Length %d /Filter %s >>\nstream\n" % (len(data), filters) + data + b"\nendstream"]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)


def zlib_compress(raw: bytes) -> bytes:
    import zlib

    return zlib.compress(raw, 9)


def test_a_pdf_stream_inflating_past_the_limit_is_a_fail_line_not_gigabytes(tmp_path):
    from printables.check.bounds import MAX_PDF_STREAM_BYTES

    bomb = tmp_path / "bomb.pdf"
    bomb.write_bytes(_pdf_with_stream(b"0 0 m " * ((MAX_PDF_STREAM_BYTES + 6_000_000) // 6)))
    assert bomb.stat().st_size < 1_000_000
    code, output = _check_lines(bomb)
    assert code == 1
    assert "FAIL PDF streams: bomb.pdf: a stream would inflate to more than 64 MB" in output
    small = tmp_path / "small.pdf"
    small.write_bytes(_pdf_with_stream(b"0 0 m " * 1000))
    code, output = _check_lines(small)
    assert "PDF streams" not in output  # read, and failed for what it is: no printables kind
    assert "FAIL kind" in output


def test_a_3mf_entry_inflating_past_the_limit_is_a_fail_line(tmp_path):
    import zipfile

    from printables.check.bounds import MAX_3MF_ENTRY_BYTES

    bomb = tmp_path / "giuthi-seeds-bomb.3mf"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        with archive.open("3D/3dmodel.model", "w", force_zip64=True) as entry:
            block = b"\0" * 1_000_000
            for _ in range(MAX_3MF_ENTRY_BYTES // len(block) + 1):
                entry.write(block)
    code, output = _check_lines(bomb)
    assert code == 1
    assert "FAIL 3MF entries: giuthi-seeds-bomb.3mf: 3D/3dmodel.model would inflate to 257,000,000 bytes" in output


def test_an_stl_over_the_limit_is_a_fail_line_at_once(tmp_path):
    big = tmp_path / "giuthi-seeds-zero.stl"
    with open(big, "wb") as handle:
        handle.truncate(300_000_000)  # sparse: 300 MB of zeros took 32 CPU-minutes to check
    started = time.monotonic()
    code, output = _check_lines(big)
    assert code == 1
    assert ("FAIL file size: giuthi-seeds-zero.stl: 300,000,000 bytes, more than any .stl file printables writes "
            "(at most 200 MB are read); not read") in output
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("preset, line, key", [
    ("minefield-9x9-a4", 'per_page = "ten"', "per_page"),
    ("harvest-10x10-a4", "cell_mm = inf", "cell_mm"),
    ("peas-a6", "pea_mm = -1", "pea_mm"),
    ("patchwork-a4", "cell_mm = [1]", "cell_mm"),
])
def test_a_hostile_sheet_preset_value_names_the_file_and_key(tmp_path, preset, line, key):
    folder = tmp_path / "p"
    folder.mkdir()
    text = (ROOT / "templates" / f"{preset}.toml").read_text(encoding="utf-8")
    (folder / "x.toml").write_text(text.replace("[params]\n", f"[params]\n{line}\n"))
    assert_one_line_error(invoke("build", "--presets", str(folder), "-o", str(tmp_path / "out")),
                          f"{folder / 'x.toml'} [params]: {key}")


def test_python_dash_m_printables_is_the_command_line_while_the_package_imports(monkeypatch):
    """Under ``python -m printables`` argv[0] is still "-m" while the package's __init__ runs: it
    must install its one-line Ctrl-C handler then too (the old code waited for printables.cli)."""
    import printables

    monkeypatch.setattr(sys, "argv", ["-m"])
    monkeypatch.setattr(sys, "orig_argv", [sys.executable, "-m", "printables", "harvest"])
    assert printables.is_command_line()
    monkeypatch.setattr(sys, "orig_argv", [sys.executable, "-m", "pytest"])
    assert not printables.is_command_line()
    monkeypatch.setattr(sys, "orig_argv", [sys.executable, "-m", "printables.other"])
    assert not printables.is_command_line()


def test_an_ascii85_wrapped_stream_inflating_past_the_limit_is_a_fail_line(tmp_path):
    """reportlab's own encoding (ASCII85 over Flate) is decoded before it is inflated, in bounds."""
    from printables.check.bounds import MAX_PDF_STREAM_BYTES

    bomb = tmp_path / "bomb85.pdf"
    bomb.write_bytes(_pdf_with_stream(b"0 0 m " * ((MAX_PDF_STREAM_BYTES + 6_000_000) // 6), ascii85=True))
    assert bomb.stat().st_size < 1_000_000
    code, output = _check_lines(bomb)
    assert code == 1
    assert "FAIL PDF streams: bomb85.pdf: a stream would inflate to more than 64 MB" in output


def test_a_filter_name_spelt_inside_a_stream_s_data_is_not_a_filter(tmp_path):
    """ASCII85 text may spell /RL (a Giuthi rules sheet's did): only dictionaries name filters."""
    from printables.check.bounds import bounds_problem

    pdf = _pdf_with_stream(b"0 0 m " * 1000, ascii85=True)
    head, _, tail = pdf.partition(b"stream\n")
    spelt = tmp_path / "spelt.pdf"
    spelt.write_bytes(head + b"stream\n/RL@GO6" + tail)
    assert bounds_problem(spelt) is None
    named = tmp_path / "named.pdf"
    named.write_bytes(pdf.replace(b"/Filter [/ASCII85Decode /FlateDecode]", b"/Filter [/ASCII85Decode /RL]"))
    result = bounds_problem(named)
    assert result is not None and "uses the RL filter" in result.detail


def test_a_scratch_folder_never_sweeps_another_thread_s_open_one(tmp_path):
    """Two halves are sliced at once in one process: the second scratch folder of a prefix must not
    sweep the first while it is in use (it did: the slicer then found no profile in it)."""
    from printables import fileio

    with fileio.scratch_folder("printables-slicer-", tmp_path) as first:
        (first / "profile.ini").write_text("x")
        with fileio.scratch_folder("printables-slicer-", tmp_path) as second:
            assert second != first
            assert (first / "profile.ini").is_file()
