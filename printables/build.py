"""Presets: find them, build them into output/, check what was built."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

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
    """What building one preset produced and what its checks said."""

    preset: Preset
    paths: tuple[Path, ...]
    results: tuple[CheckResult, ...]
    checked: tuple[Path, ...] = ()

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


def build_preset(preset: Preset, output: Path, progress=lambda message: None) -> Built:
    """Build one preset into ``output/<kind>/`` and check what it wrote.

    A sheet is one PDF named from its parameters; a model is a folder named after the preset
    (``output/giuthi-board/giuthi-default/``), since each holds a whole printable set.
    """
    from printables.check.dispatch import check_file, expand
    from printables.gallery import add_to_gallery
    from printables.models import MODEL_KINDS, build_giuthi, model_params
    from printables.sheets import SHEET_KINDS, sheet_params, write_sheet

    source = f"{preset.path} [params]"
    if preset.kind in SHEET_KINDS:
        params = sheet_params(preset.kind, preset.params, source)
        path = write_sheet(preset.kind, params, output / preset.kind / f"{params.file_stem()}.pdf")
        paths: tuple[Path, ...] = (path,)
        checked = [path]
    elif preset.kind in MODEL_KINDS:
        params = model_params(preset.kind, preset.params, source)
        folder = output / preset.kind / preset.name
        paths = tuple(build_giuthi(params, folder, progress=progress))
        checked = expand(folder)
    else:
        known = ", ".join(sorted(SHEET_KINDS) + list(MODEL_KINDS))
        raise ParameterError(f"{preset.path}: unknown kind {preset.kind!r}; known kinds: {known}")
    results = []
    for path in checked:
        progress(f"checking {path.name}")
        results += [CheckResult(f"{path.name}: {r.name}", r.ok, r.detail) for r in check_file(path)]
    built = Built(preset, paths, tuple(results), tuple(checked))
    add_to_gallery(built, output)  # output/index.html, the static gallery of everything built
    return built
