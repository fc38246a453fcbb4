"""Presets: find them, build them into output/, check what was built."""

from __future__ import annotations

import dataclasses
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


def preset_dirs(explicit: Sequence[Path] = ()) -> list[Path]:
    """Where presets are read from, and only there.

    Given folders (``--presets DIR``): each one's templates/ and models/ if it has them, else the
    folder itself. Otherwise templates/ and models/ of the printables source tree the command runs
    in, or that the package was installed from (an editable install); never the ./templates of
    an unrelated current folder.
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
        return found
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
    return found


NO_PRESETS = "no presets here: run inside the printables project, or name a folder of preset TOML files with --presets DIR"


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


def build_preset(preset: Preset, output: Path, progress=lambda message: None, *, slicer: bool = True) -> Built:
    """Build one preset into ``output/<kind>/`` and check what it wrote.

    A sheet is one PDF named from its parameters; a model is a folder named after the preset
    (``output/giuthi-board/giuthi-default/``), since each holds a whole printable set. Without
    ``slicer`` the PrusaSlicer steps are skipped: no time and filament on the print card, no
    slicer checks. ``Built.steps`` holds the wall and CPU time of each step.
    """
    from printables.check.dispatch import check_file, expand
    from printables.gallery import add_to_gallery
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
        paths = tuple(build_giuthi(params, folder, slice_parts=slicer, progress=clock, **options))
        checked = expand(folder)
    else:
        known = ", ".join(sorted(SHEET_KINDS) + list(MODEL_KINDS))
        raise ParameterError(f"{preset.path}: unknown kind {preset.kind!r}; known kinds: {known}")
    results = []
    for path in checked:
        clock(f"checking {path.name}")
        results += [CheckResult(f"{path.name}: {r.name}", r.ok, r.detail) for r in check_file(path, slicer=slicer)]
    clock("adding it to the gallery")
    built = Built(preset, paths, tuple(results), tuple(checked))
    add_to_gallery(built, output)  # output/index.html, the static gallery of everything built
    clock.stop()
    return dataclasses.replace(built, steps=tuple((step, wall, cpu) for step, (wall, cpu) in clock.times.items()))


class PrintProgress:
    """Progress lines on stderr, ``[i/n] name: message``; a plain object so worker processes can use it."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def __call__(self, message: str) -> None:
        print(f"{self.prefix}: {message}", file=sys.stderr, flush=True)


def build_presets(presets: Sequence[Preset], output: Path, *, jobs: int = 1, slicer: bool = True,
                  progress=PrintProgress) -> Iterator[Built]:
    """Build ``presets`` (``jobs`` at a time, in worker processes) and yield each Built in order.

    Each preset writes only its own files, so the files are the same whatever ``jobs`` is; with
    more than one job the models start first, since they take longest. ``progress(prefix)``
    makes the progress callback of each preset.
    """
    from printables.models import MODEL_KINDS

    count = len(presets)
    reporters = [progress(f"[{i}/{count}] {preset.name}") for i, preset in enumerate(presets, 1)]
    if jobs <= 1 or count <= 1:
        for preset, report in zip(presets, reporters):
            yield build_preset(preset, output, report, slicer=slicer)
        return
    from concurrent.futures import ProcessPoolExecutor

    start_order = sorted(range(count), key=lambda k: presets[k].kind not in MODEL_KINDS)
    pool = ProcessPoolExecutor(max_workers=min(jobs, count))
    try:
        futures = {k: pool.submit(build_preset, presets[k], output, reporters[k], slicer=slicer) for k in start_order}
        for k in range(count):
            yield futures[k].result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
