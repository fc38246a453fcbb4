"""Presets: find them, build them into output/, check what was built."""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from printables.check.results import CheckResult
from printables.errors import ParameterError
from printables.params.base import Preset, load_preset

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
PRESET_FOLDERS = ("templates", "models")


def project_root(start: Path) -> Path | None:
    """The printables source tree ``start`` lies in (a pyproject.toml naming the project), or None."""
    import tomllib

    for folder in (start, *start.parents):
        marker = folder / "pyproject.toml"
        try:
            if marker.is_file() and tomllib.loads(marker.read_text(encoding="utf-8")).get("project", {}).get("name") == "printables":
                return folder
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, AttributeError):
            continue
    return None


# The presets that come with printables: templates/ and models/ copied into the package when the
# wheel is built (setup.py); a source tree has its own at its top instead.
BUNDLED_PRESETS = Path(__file__).resolve().parent / "presets"


def preset_source(explicit: Sequence[Path] = ()) -> tuple[list[Path], str]:
    """Where presets are read from, and only there, and those folders said in words for people.

    Given folders (``--presets DIR``): each one's templates/ and models/ if it has them, else the
    folder itself. Otherwise templates/ and models/ of the printables source tree the command runs
    in, or that the package was installed from (an editable install); else the presets that came
    with the installed package; never the ./templates of an unrelated current folder.
    """
    found: list[Path] = []

    def add(folder: Path) -> None:
        if folder.is_dir() and folder.resolve() not in [f.resolve() for f in found]:
            found.append(folder)

    if explicit:
        for folder in map(Path, explicit):
            subfolders = [folder / name for name in PRESET_FOLDERS if (folder / name).is_dir()]
            for sub in subfolders or [folder]:
                add(sub)
        return found, "the folders given with --presets"
    try:
        cwd = Path.cwd()
    except OSError:
        cwd = None
    roots = [project_root(cwd) if cwd else None,
             PACKAGE_ROOT if project_root(PACKAGE_ROOT) == PACKAGE_ROOT else None]
    for root in roots:
        if root is not None:
            for name in PRESET_FOLDERS:
                add(root / name)
    if found:
        return found, "this printables source tree"
    for name in PRESET_FOLDERS:
        add(BUNDLED_PRESETS / name)
    return found, "the presets that came with printables"


def preset_dirs(explicit: Sequence[Path] = ()) -> list[Path]:
    """Where presets are read from (``preset_source`` without the words)."""
    return preset_source(explicit)[0]


NO_PRESETS = "no presets found: name a folder of preset TOML files (or one holding templates/ and models/) with --presets DIR"


def all_presets(explicit: Sequence[Path] = ()) -> list[Preset]:
    """Every preset, sorted by name; a broken preset file raises ParameterError naming it."""
    presets: dict[str, Preset] = {}
    for folder in preset_dirs(explicit):
        for path in sorted(folder.glob("*.toml")):
            preset = load_preset(path)
            presets.setdefault(preset.name, preset)
    return [presets[name] for name in sorted(presets)]


@dataclass(frozen=True)
class Built:
    """What building one preset produced, what its checks said, and how long each step took."""

    preset: Preset
    paths: tuple[Path, ...]
    results: tuple[CheckResult, ...]
    checked: tuple[Path, ...] = ()
    steps: tuple[tuple[str, float, float], ...] = ()  # (step, wall s, CPU s) in the order first reached

    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return all(r.ok for r in self.results)


def validate_preset(preset: Preset) -> None:
    """Raise ParameterError (naming the file) unless the preset's kind and parameters are valid."""
    from printables.models import MODEL_KINDS, model_params
    from printables.sheets import SHEET_KINDS, sheet_params

    source = f"{preset.path} [params]"
    if preset.kind in SHEET_KINDS:
        sheet_params(preset.kind, preset.params, source)
    elif preset.kind in MODEL_KINDS:
        model_params(preset.kind, preset.params, source)
    else:
        known = ", ".join(sorted(SHEET_KINDS) + list(MODEL_KINDS))
        raise ParameterError(f"{preset.path}: unknown kind {preset.kind!r}; known kinds: {known}")


# The step a progress message starts, by how it begins (messages of build_preset and models.py);
# another message names its step by its first word.
STEP_OF_MESSAGE = (
    ("building", "setup"),  # parameters, and imports such as cadquery before the first step
    ("writing the sheet", "sheets"),
    ("writing the rules sheet", "rules sheet"),
    ("writing a 3MF", "3MF"),
    ("modelling", "modelling"),
    ("slicing", "slicing"),
    ("rendering", "previews"),
    ("checking", "checks"),
    ("adding", "gallery"),
)


def step_of(message: str) -> str:
    """The step a progress message starts."""
    for start, step in STEP_OF_MESSAGE:
        if message.startswith(start):
            return step
    return message.split(" ", 1)[0]


class StepClock:
    """Passes progress messages on and times the steps they start, per step name.

    Wall time, and CPU time of this process (user + system; a slicer or pdftoppm it runs is not
    counted), which on a shared machine says more about the step than the wall time does.
    """

    def __init__(self, progress) -> None:
        self.progress = progress
        self.times: dict[str, tuple[float, float]] = {}
        self.step: str | None = None
        self.since = (time.perf_counter(), time.process_time())

    def __call__(self, message: str) -> None:
        self.stop()
        self.step = step_of(message)
        self.progress(message)

    def stop(self) -> None:
        """End the current step (if any) and add its times."""
        now = (time.perf_counter(), time.process_time())
        if self.step is not None:
            wall, cpu = self.times.get(self.step, (0.0, 0.0))
            self.times[self.step] = (wall + now[0] - self.since[0], cpu + now[1] - self.since[1])
        self.step, self.since = None, now

    def steps(self) -> tuple[tuple[str, float, float], ...]:
        """(step, wall s, CPU s) of each step timed so far, in the order first reached."""
        return tuple((step, wall, cpu) for step, (wall, cpu) in self.times.items())


@dataclass(frozen=True)
class Made:
    """What making one preset wrote (before any check): its files, those to check, the step times."""

    paths: tuple[Path, ...]
    checked: tuple[Path, ...]
    steps: tuple[tuple[str, float, float], ...]


def make_preset(preset: Preset, output: Path, progress=lambda message: None, *, slicer: bool = True,
                previews: bool = True) -> Made:
    """Write one preset's files into ``output/<kind>/`` (the first half of ``build_preset``).

    ``previews=False`` leaves a model set's PNG previews out (a whole set without them, which
    ``printables check`` accepts); ``add_previews`` renders them into it afterwards.
    """
    from printables.check.dispatch import expand
    from printables.models import MODEL_KINDS, build_giuthi, model_params, set_options
    from printables.sheets import SHEET_KINDS, sheet_params, write_sheet

    clock = StepClock(progress)
    clock("building")
    source = f"{preset.path} [params]"
    if preset.kind in SHEET_KINDS:
        params = sheet_params(preset.kind, preset.params, source)
        clock("writing the sheet")
        path = write_sheet(preset.kind, params, output / preset.kind / f"{params.file_stem()}.pdf")
        paths: tuple[Path, ...] = (path,)
        checked = [path]
    elif preset.kind in MODEL_KINDS:
        params = model_params(preset.kind, preset.params, source)
        options = set_options(preset.params, source)
        folder = output / preset.kind / preset.name
        paths = tuple(build_giuthi(params, folder, slice_parts=slicer, previews=previews, progress=clock, **options))
        checked = expand(folder)
    else:
        known = ", ".join(sorted(SHEET_KINDS) + list(MODEL_KINDS))
        raise ParameterError(f"{preset.path}: unknown kind {preset.kind!r}; known kinds: {known}")
    clock.stop()
    return Made(paths, tuple(checked), clock.steps())


def add_previews(preset: Preset, made: Made, progress=lambda message: None
                 ) -> tuple[tuple[Path, ...], tuple[tuple[str, float, float], ...]]:
    """Render the previews of a model set made without them (``make_preset(previews=False)``) into
    its folder: the PNGs written, in the order ``build_giuthi`` lists them, and the time it took.

    Each PNG is written atomically and none is checked, so an interruption leaves a set
    ``printables check`` accepts (with some previews or none). Needs the STLs, trimesh and numpy,
    not CadQuery, so any worker process can do it.
    """
    from printables.models import model_params, render_previews

    clock = StepClock(progress)
    board = model_params(preset.kind, preset.params, f"{preset.path} [params]")
    stls = [p for p in made.paths if p.suffix == ".stl"]
    folder = stls[0].parent if stls else None
    clock("rendering previews")
    paths = tuple(render_previews(board, folder, stls)) if stls else ()
    clock.stop()
    return paths, clock.steps()


def check_each(paths: Sequence[Path], progress=lambda message: None, *, slicer: bool = True
               ) -> tuple[tuple[tuple[CheckResult, ...], ...], tuple[tuple[str, float, float], ...]]:
    """Each file's check results (named after it), and the time the checks took."""
    from printables.check.dispatch import check_file

    clock = StepClock(progress)
    results = []
    for path in paths:
        clock(f"checking {path.name}")
        results.append(tuple(CheckResult(f"{path.name}: {r.name}", r.ok, r.detail) for r in check_file(path, slicer=slicer)))
    clock.stop()
    return tuple(results), clock.steps()


def check_paths(paths: Sequence[Path], progress=lambda message: None, *, slicer: bool = True
                ) -> tuple[tuple[CheckResult, ...], tuple[tuple[str, float, float], ...]]:
    """Check each file (results named after it) and time the checks (the middle of ``build_preset``)."""
    per_file, steps = check_each(paths, progress, slicer=slicer)
    return tuple(r for results in per_file for r in results), steps


def _finish(preset: Preset, made: Made, results: Sequence[CheckResult], steps: Sequence[tuple[str, float, float]],
            output: Path, progress) -> Built:
    """The Built of a made and checked preset, added to the gallery (the end of ``build_preset``)."""
    from printables.gallery import add_to_gallery

    clock = StepClock(progress)
    clock("adding it to the gallery")
    built = Built(preset, made.paths, tuple(results), made.checked)
    add_to_gallery(built, output)  # output/index.html, the static gallery of everything built
    clock.stop()
    return dataclasses.replace(built, steps=_merged_steps(list(steps) + list(clock.steps())))


def _merged_steps(steps: Sequence[tuple[str, float, float]]) -> tuple[tuple[str, float, float], ...]:
    """Times of the same step added up, in the order the steps were first reached."""
    merged: dict[str, tuple[float, float]] = {}
    for step, wall, cpu in steps:
        total = merged.get(step, (0.0, 0.0))
        merged[step] = (total[0] + wall, total[1] + cpu)
    return tuple((step, wall, cpu) for step, (wall, cpu) in merged.items())


def build_preset(preset: Preset, output: Path, progress=lambda message: None, *, slicer: bool = True) -> Built:
    """Build one preset into ``output/<kind>/`` and check what it wrote.

    A sheet is one PDF named from its parameters; a model is a folder named after the preset
    (``output/giuthi-board/giuthi-default/``), since each holds a whole printable set. Without
    ``slicer`` the PrusaSlicer steps are skipped: no time and filament on the print card, no
    slicer checks. ``Built.steps`` holds the wall and CPU time of each step.
    """
    made = make_preset(preset, output, progress, slicer=slicer)
    results, steps = check_paths(made.checked, progress, slicer=slicer)
    return _finish(preset, made, results, made.steps + steps, output, progress)


class PrintProgress:
    """Progress lines on stderr, ``[i/n] name: message``; a plain object so worker processes can use it."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def __call__(self, message: str) -> None:
        print(f"{self.prefix}: {message}", file=sys.stderr, flush=True)


def build_presets(presets: Sequence[Preset], output: Path, *, jobs: int = 1, slicer: bool = True,
                  progress=PrintProgress) -> Iterator[Built]:
    """Build ``presets`` (``jobs`` at a time, in worker processes) and yield each Built in order.

    Each preset writes only its own files, and a part two presets share (same parameters) is made
    once and copied (``models.shared_parts``), so the files are the same whatever ``jobs`` is.
    ``progress(prefix)`` makes the progress callback of each preset.
    """
    from printables.models import shared_parts

    count = len(presets)
    reporters = [progress(f"[{i}/{count}] {preset.name}") for i, preset in enumerate(presets, 1)]
    if jobs <= 1 or count <= 1:
        with shared_parts():
            for preset, report in zip(presets, reporters):
                yield build_preset(preset, output, report, slicer=slicer)
        return
    yield from _Schedule(presets, output, min(jobs, count), slicer, reporters, progress).run()


# Rough CPU seconds of each task, to start the longest first (the order changes no file).
# Measured with benchmarks/bench_build.py (PRINTABLES_BUILD_TRACE lists each task's CPU time).
CHECK_COST_S = {"mesh": 1.1, "rest": 0.5}
PREVIEW_COST_S = 0.3
SHEET_COST_S = {"patchwork": 0.5, "peas": 0.2, "harvest": 0.1, "minefield": 0.1}


class _Schedule:
    """A parallel build on ``jobs`` worker processes, one pool of one process each.

    Worker 0 makes every model (importing CadQuery, ~3 s of CPU, in that process only, and
    sharing the parts of presets that have the same ones), without its previews; a model's
    previews and checks are separate tasks that any worker runs once its files exist (the
    previews; the board and sprue meshes; the PDFs and 3MFs); a sheet is one task (made, checked,
    added to the gallery). Worker 0 never waits for another task; the others never import
    CadQuery: an idle one takes the longest task ready, or waits for one.
    """

    def __init__(self, presets, output, jobs, slicer, reporters, progress):
        from printables.models import MODEL_KINDS

        self.presets, self.output, self.slicer, self.reporters = presets, output, slicer, reporters
        self.jobs, self.progress = jobs, progress
        self.worker_cpu = [0.0] * jobs
        self.tasks: list[list[str]] = [[] for _ in range(jobs)]  # "kind preset CPU-s" of each task run
        self.cadquery = [False] * jobs
        models = [k for k, p in enumerate(presets) if p.kind in MODEL_KINDS]
        self.groups = _sharing_groups(presets, models)  # each a list of preset indices, made in order
        self.owner: list[int | None] = [None] * len(self.groups)  # the worker making each group
        self.ready: list[tuple[float, int, str, tuple]] = [
            (SHEET_COST_S.get(presets[k].kind, 1.0), k, "preset", ()) for k in range(len(presets)) if k not in models]
        self.made: dict[int, Made] = {}
        self.checks: dict[int, dict[str, tuple]] = {}  # preset -> check part -> (results, steps)
        self.parts_left: dict[int, int] = {}  # preset -> its previews and check parts not done
        self.previews: dict[int, tuple] = {}  # preset -> (PNGs, steps)
        self.preview_keys: dict[tuple, int] = {}  # (board, STL names and digests) -> the preset rendering them
        self.preview_waiting: dict[int, list[int]] = {}  # that preset -> presets that copy its previews
        self.rendered: dict[int, tuple[Path, ...]] = {}  # preset -> the previews rendered for it
        self.done: dict[int, Built] = {}
        self.failed: dict[int, BaseException] = {}

    def _next_task(self, worker: int):
        """The task for an idle worker, or None."""
        for group, owner in enumerate(self.owner):
            if owner == worker:
                if self.groups[group]:
                    return ("make", self.groups[group].pop(0))
                self.owner[group] = -1  # all made
        free = [group for group, owner in enumerate(self.owner) if owner is None]
        if worker == 0 and free:
            self.owner[free[0]] = 0
            return ("make", self.groups[free[0]].pop(0))
        if self.ready:
            self.ready.sort(key=lambda task: (-task[0], task[1]))
            _, k, kind, files = self.ready.pop(0)
            return (kind, k, files)
        # Nothing ready: wait. Each model's previews and checks cost the other workers about as much
        # (CHECK_COST_S + PREVIEW_COST_S) as its make costs worker 0 (~3 s, less when it copies
        # parts), so making models here too would save less than its own CadQuery import (~3 s).
        return None

    def _submit(self, pool, task):
        kind, k = task[0], task[1]
        preset, report = self.presets[k], self.reporters[k]
        if kind == "make":
            return pool.submit(_in_worker, make_preset, preset, self.output, report, slicer=self.slicer, previews=False)
        if kind == "previews":
            return pool.submit(_in_worker, add_previews, preset, self.made[k], report)
        if kind == "check":
            return pool.submit(_in_worker, check_each, task[2][1], report, slicer=self.slicer)
        return pool.submit(_in_worker, build_preset, preset, self.output, report, slicer=self.slicer)

    def _made(self, k: int, made: Made) -> None:
        """A model's files exist: queue its previews and its checks, the meshes apart from the rest."""
        self.made[k] = made
        mesh = tuple(p for p in made.checked if p.suffix in (".json", ".stl"))
        rest = tuple(p for p in made.checked if p not in mesh)
        parts = [(name, files) for name, files in (("mesh", mesh), ("rest", rest)) if files]
        self.checks[k] = {}
        self.parts_left[k] = len(parts) + 1
        self._queue_previews(k, made)
        for name, files in parts:
            self.ready.append((CHECK_COST_S[name], k, "check", (name, files)))

    def _queue_previews(self, k: int, made: Made) -> None:
        """Queue a model's previews, or when a preset before it has the same board and the same STL
        bytes (giuthi-ko and giuthi-default), copy those once rendered (as ``shared_parts`` does
        within one process)."""
        import hashlib

        from printables.models import model_params

        preset = self.presets[k]
        stls = tuple((p.name, hashlib.sha256(p.read_bytes()).hexdigest()) for p in made.paths if p.suffix == ".stl")
        key = (model_params(preset.kind, preset.params), stls)
        j = self.preview_keys.setdefault(key, k)
        if j == k or j in self.failed:
            self.ready.append((PREVIEW_COST_S, k, "previews", ()))
        elif j in self.rendered:
            self._copy_previews(j, k)
        else:
            self.preview_waiting.setdefault(j, []).append(k)

    def _copy_previews(self, j: int, k: int) -> None:
        from printables.fileio import write_atomic

        folder = next(p.parent for p in self.made[k].paths if p.suffix == ".stl")
        self._part_done(k, previews=(tuple(write_atomic(folder / p.name, p.read_bytes()) for p in self.rendered[j]), ()))

    def _part_done(self, k: int, previews=None) -> None:
        """One of a model's previews and check parts is done; when all are, the model is."""
        if previews is not None:
            self.previews[k] = previews
        self.parts_left[k] -= 1
        if not self.parts_left[k]:
            self._checked(k)

    def _checked(self, k: int) -> None:
        made = self.made[k]
        by_file: dict[Path, tuple[CheckResult, ...]] = {}
        previews, preview_steps = self.previews.pop(k)
        made = dataclasses.replace(made, paths=made.paths + previews)  # as build_giuthi lists them
        steps = list(made.steps) + list(preview_steps)
        for name in ("mesh", "rest"):
            if name in self.checks[k]:
                (files, per_file), check_steps = self.checks[k][name]
                by_file.update(zip(files, per_file))
                steps += check_steps
        # In the order build_preset checks the files.
        results = [r for path in made.checked for r in by_file[path]]
        self.done[k] = _finish(self.presets[k], made, results, steps, self.output, self.reporters[k])

    def run(self) -> Iterator[Built]:
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        pools = [ProcessPoolExecutor(max_workers=1, initializer=_start_worker, initargs=(os.getpid(),))
                 for _ in range(self.jobs)]
        running: dict = {}
        busy: set[int] = set()
        next_out = 0
        try:
            while next_out < len(self.presets):
                for worker in range(self.jobs):
                    if worker in busy:
                        continue
                    task = self._next_task(worker)
                    if task is not None:
                        running[self._submit(pools[worker], task)] = (worker, task)
                        busy.add(worker)
                while next_out in self.done or next_out in self.failed:
                    if next_out in self.failed:
                        raise self.failed[next_out]
                    yield self.done.pop(next_out)
                    next_out += 1
                if next_out >= len(self.presets):
                    break
                if not running:
                    raise RuntimeError("build scheduler: presets left but no task running")
                finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for future in finished:
                    worker, task = running.pop(future)
                    busy.discard(worker)
                    kind, k = task[0], task[1]
                    try:
                        (before, self.worker_cpu[worker], cadquery), value = future.result()
                    except Exception as error:  # raised in order, when this preset's turn comes
                        self.failed[k] = error
                        if kind == "previews":  # those waiting to copy them render their own
                            self.ready += [(PREVIEW_COST_S, j, "previews", ()) for j in self.preview_waiting.pop(k, [])]
                        continue
                    self.tasks[worker].append(f"{kind} {self.presets[k].name} {self.worker_cpu[worker] - before:.1f}")
                    self.cadquery[worker] |= cadquery
                    if kind == "preset":
                        self.done[k] = value
                    elif kind == "make":
                        self._made(k, value)
                    else:
                        if kind == "previews":
                            self.rendered[k] = value[0]
                            self._part_done(k, previews=value)
                            for j in self.preview_waiting.pop(k, []):
                                self._copy_previews(k, j)
                        else:
                            self.checks[k][task[2][0]] = ((task[2][1], value[0]), value[1])
                            self._part_done(k)
            report = self.progress("build")
            report("CPU time of each worker process (imports included): "
                   + ", ".join(f"{cpu:.1f} s" for cpu in self.worker_cpu))
            # The tasks each worker ran, for benchmarks/bench_build.py (which sets this variable).
            for worker, tasks in enumerate(self.tasks if os.environ.get("PRINTABLES_BUILD_TRACE") else ()):
                report(f"worker {worker}{' (imported CadQuery)' if self.cadquery[worker] else ''}, "
                       f"its tasks in order with their CPU s: {', '.join(tasks)}")
        finally:
            for pool in pools:
                pool.shutdown(wait=True, cancel_futures=True)


def _start_worker(parent: int) -> None:
    """A worker process's first step: die with the build (even one killed with SIGKILL), leave
    the one line an interruption prints to the build, and share parts."""
    from printables import lifeline
    from printables.models import share_parts

    lifeline.die_with_parent(parent)
    lifeline.quiet_interrupts()
    share_parts()


def _in_worker(task, *args, **kwargs):
    """Run ``task`` in a worker process: ((the process's CPU time before and after, whether it has
    imported CadQuery), the task's result)."""
    before = time.process_time()
    result = task(*args, **kwargs)
    return (before, time.process_time(), "cadquery" in sys.modules), result


def _sharing_groups(presets: Sequence[Preset], models: Sequence[int]) -> list[list[int]]:
    """Model presets joined into groups when they share a part (board or sprue), longest first."""
    from printables.models import model_params, seed_params_for

    groups: list[list[int]] = []
    keys: list[set] = []
    for k in models:
        board = model_params(presets[k].kind, presets[k].params)
        mine = {("board", board), ("seeds", seed_params_for(board))}
        joined = [g for g, ks in enumerate(keys) if ks & mine]
        group, shared = [k], set(mine)
        for g in reversed(joined):
            group = groups.pop(g) + group
            shared |= keys.pop(g)
        groups.append(sorted(group))
        keys.append(shared)
    # Larger groups first (more to make), then in preset order.
    return sorted(groups, key=lambda g: (-len(g), g[0]))
