"""printables build: worker processes give the same files as a serial build; --no-slice; step times."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from printables.cli import main

SHEET_PRESETS = ("harvest-11x5-4up-a4", "minefield-9x9-a4", "peas-a6")


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


def _stub_cad(monkeypatch, log: Path) -> None:
    """Replace the CadQuery steps of a Giuthi set by files named and filled from the parameters, each
    made logged to ``log`` (worker processes forked after this see the stubs and append to it)."""
    import json

    import printables.cad.giuthi_board as cad_board
    import printables.cad.giuthi_seeds as cad_seeds
    import printables.models as models
    from printables.params.giuthi_seeds import stl_name

    def made(what: str) -> None:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(what + "\n")

    def write_board(p, halves, out_dir, step=True):
        made(f"board {p.thickness_mm}")
        names = {side: f"{p.part_name(side)}.stl" for side in ("left", "right")}
        for name in names.values():
            (out_dir / name).write_bytes(repr(p).encode())
        path = out_dir / cad_board.manifest_name(p)
        path.write_text(json.dumps(cad_board.manifest(p, names)))
        return [out_dir / n for n in names.values()] + [path]

    def build_seeds(params, out_dir):
        made(f"seeds {stl_name(params)}")
        (out_dir / stl_name(params)).write_bytes(repr(params).encode())
        return [out_dir / stl_name(params)]

    monkeypatch.setattr(cad_board, "build_halves", lambda p: {})
    monkeypatch.setattr(cad_board, "write_board", write_board)
    monkeypatch.setattr(cad_seeds, "build_seeds", build_seeds)
    monkeypatch.setattr(models, "write_3mfs", lambda stls, profile: [])
    # A preview stands in for the real ones, so the gallery shows it rather than the PDFs' pages.
    def render_previews(board, out_dir, stls):
        made(f"previews {board.stem()}")
        return [write_pdf(out_dir / f"giuthi-board-{board.stem()}-open.png", "preview")]

    monkeypatch.setattr(models, "render_previews", render_previews)
    # The printed matter too (its checks would take most of the test's time).
    import printables.render.giuthi_card as card

    def write_pdf(path: Path, text: str) -> Path:
        path.write_bytes(text.encode())
        return path

    monkeypatch.setattr(models, "write_rules_sheet", lambda pits, seeds, path, paper="a4", lang="en":
                        write_pdf(path, f"rules {pits} {seeds} {paper} {lang}"))
    monkeypatch.setattr(card, "write_print_card", lambda card, path, lang="en": write_pdf(path, f"card {lang}"))


def test_presets_that_share_parts_model_them_once_and_a_parallel_build_matches_a_serial_one(tmp_path, monkeypatch):
    import multiprocessing

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the CadQuery stubs reach worker processes only when they are forked")
    log = tmp_path / "made.log"
    _stub_cad(monkeypatch, log)
    # giuthi-ko is giuthi-default in Korean (same board, same sprue); giuthi-compact has the same sprue.
    names = ["giuthi-ko", "harvest-10x10-a4", "giuthi-default", "giuthi-compact"]
    outputs = {}
    for jobs in (1, 2):
        folder = tmp_path / f"jobs{jobs}"
        result = CliRunner().invoke(main, ["build", *names, "-o", str(folder), "--no-slice", "--jobs", str(jobs)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.output
        made = log.read_text().splitlines()
        log.unlink()
        previews = sorted(line for line in made if line.startswith("previews "))
        made = [line for line in made if not line.startswith("previews ")]
        assert sorted(made) == ["board 12.2", "board 9.2", "seeds giuthi-seeds-12-10.5x7.35x4.5mm.stl"], (jobs, made)
        # In a parallel build the previews are their own tasks, and giuthi-ko copies giuthi-default's
        # (the stub stands in for the whole of render_previews, so a serial build renders both).
        assert len(previews) == (3 if jobs == 1 else 2), (jobs, previews)
        # Every preset is reported, in the order asked for, with all of its checks run.
        report = [line.split()[1:] for line in result.output.splitlines() if line.startswith(("ok ", "FAIL "))]
        assert [words[0] for words in report] == [f"{name}:" for name in names]
        outputs[jobs] = ([words[-2:] for words in report],
                         {name: data.replace(str(folder).encode(), b"OUT") for name, data in files_of(folder).items()})
    assert outputs[1][0] == outputs[2][0]
    one, two = outputs[1][1], outputs[2][1]
    assert one.keys() == two.keys()
    assert any(name.startswith("giuthi-board/giuthi-ko/giuthi-seeds-") for name in one)
    for name in one:
        assert one[name] == two[name], name
    # The shared parts are copies of the same bytes.
    ko, default = "giuthi-board/giuthi-ko/", "giuthi-board/giuthi-default/"
    shared = [name[len(ko):] for name in one if name.startswith(ko) and name.endswith(".stl")]
    assert len(shared) == 3 and all(one[ko + name] == one[default + name] for name in shared)


def test_outside_a_build_every_set_models_its_own_parts(tmp_path, monkeypatch):
    from printables.models import build_giuthi, model_params, shared_parts

    log = tmp_path / "made.log"
    _stub_cad(monkeypatch, log)
    board = model_params("giuthi-board", {})
    for name in ("a", "b"):
        build_giuthi(board, tmp_path / name, slice_parts=False, previews=False)
    assert len(log.read_text().splitlines()) == 4  # two boards, two sprues
    log.unlink()
    with shared_parts():
        for name in ("c", "d"):
            build_giuthi(board, tmp_path / name, slice_parts=False, previews=False)
    assert len(log.read_text().splitlines()) == 2  # one board, one sprue
    assert files_of(tmp_path / "c") == files_of(tmp_path / "d")


def test_a_model_that_fails_in_a_parallel_build_is_reported_in_its_turn(tmp_path, monkeypatch):
    import multiprocessing

    import printables.cad.giuthi_board as cad_board

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the CadQuery stubs reach worker processes only when they are forked")
    _stub_cad(monkeypatch, tmp_path / "made.log")
    stub = cad_board.write_board

    def failing(p, halves, out_dir, step=True):
        if p.thickness_mm > 10:  # giuthi-compact's board
            raise RuntimeError("the kernel failed on purpose")
        return stub(p, halves, out_dir, step)

    monkeypatch.setattr(cad_board, "write_board", failing)
    names = ["giuthi-default", "giuthi-compact", "harvest-10x10-a4"]
    result = CliRunner().invoke(main, ["build", *names, "-o", str(tmp_path / "out"), "--no-slice", "--jobs", "2"])
    assert result.exit_code != 0
    reported = [line.split()[1] for line in result.output.splitlines() if line.startswith(("ok ", "FAIL "))]
    assert reported == ["giuthi-default:"]  # the presets before it, then the error
    assert "the kernel failed on purpose" in result.output


def test_a_preview_that_fails_in_a_parallel_build_leaves_the_set_without_previews(tmp_path, monkeypatch):
    import multiprocessing

    import printables.models as models
    from printables.check.dispatch import expand

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the CadQuery stubs reach worker processes only when they are forked")
    _stub_cad(monkeypatch, tmp_path / "made.log")

    def failing(board, out_dir, stls):
        (out_dir / "giuthi-board-first.png").write_bytes(b"one preview made")
        raise RuntimeError("the previews failed on purpose")

    # The set a serial build makes without previews, for comparison.
    board = models.model_params("giuthi-board", {})
    models.build_giuthi(board, tmp_path / "plain", slice_parts=False, previews=False)
    monkeypatch.setattr(models, "render_previews", failing)
    names = ["giuthi-default", "harvest-10x10-a4"]
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", *names, "-o", str(out), "--no-slice", "--jobs", "2"])
    assert result.exit_code != 0
    assert "the previews failed on purpose" in result.output
    assert not [line for line in result.output.splitlines() if line.startswith(("ok ", "FAIL "))]
    # The set is in place, whole, with the preview written before the failure: what check reads
    # is the set made without previews.
    folder = out / "giuthi-board" / "giuthi-default"
    made = {p.name: p.read_bytes() for p in folder.iterdir()}
    plain = {p.name: p.read_bytes() for p in (tmp_path / "plain").iterdir()}
    assert made.pop("giuthi-board-first.png") == b"one preview made"
    assert made.keys() == plain.keys()
    assert [p.name for p in expand(folder)] == [p.name for p in expand(tmp_path / "plain")]


def test_a_preview_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    import os

    import trimesh

    from printables.render.preview import PreviewPart, render_parts

    box = trimesh.creation.box((10, 20, 5))
    whole = render_parts([PreviewPart(box)], tmp_path / "box.png", size_px=(60, 40))
    assert whole.read_bytes().startswith(b"\x89PNG")

    from PIL import Image

    save = Image.Image.save

    def saved_then_interrupted(self, fp, *args, **kwargs):
        save(self, fp, *args, **kwargs)
        raise KeyboardInterrupt

    def interrupted(fd):
        raise KeyboardInterrupt

    # Interrupted after encoding, or while the file is being written: no PNG and no debris.
    for where, patch in ((Image.Image, ("save", saved_then_interrupted)), (os, ("fsync", interrupted))):
        with monkeypatch.context() as m:
            m.setattr(where, *patch)
            with pytest.raises(KeyboardInterrupt):
                render_parts([PreviewPart(box)], tmp_path / "again.png", size_px=(60, 40))
        assert sorted(p.name for p in tmp_path.iterdir()) == ["box.png"], patch[0]
