"""Presets: find them, build them into output/, check what was built."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from printables.check.results import CheckResult
from printables.errors import ParameterError
from printables.params.base import Preset, load_preset

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
PRESET_FOLDERS = ("templates", "models")


def preset_dirs() -> list[Path]:
    """Where presets live: ./templates and ./models, else those of the source tree."""
    found = []
    for base in (Path.cwd(), PACKAGE_ROOT):
        for name in PRESET_FOLDERS:
            folder = base / name
            if folder.is_dir() and folder.resolve() not in [f.resolve() for f in found]:
                found.append(folder)
    return found


def all_presets() -> list[Preset]:
    """Every preset, sorted by name; a broken preset file raises ParameterError naming it."""
    presets: dict[str, Preset] = {}
    for folder in preset_dirs():
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

    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return all(r.ok for r in self.results)


def build_preset(preset: Preset, output: Path) -> Built:
    """Build one preset into ``output/<kind>/`` and check every file it wrote."""
    from printables.check.dispatch import check_file
    from printables.sheets import SHEET_KINDS, sheet_params, write_sheet

    if preset.kind in SHEET_KINDS:
        params = sheet_params(preset.kind, preset.params, f"{preset.path} [params]")
        path = write_sheet(preset.kind, params, output / preset.kind / f"{params.file_stem()}.pdf")
        paths = (path,)
    else:
        raise ParameterError(f"{preset.path}: unknown kind {preset.kind!r}")
    results = tuple(r for p in paths for r in check_file(p))
    return Built(preset, paths, results)
