"""Build hook: the presets at the top of the source tree (templates/, models/) go into the package.

They stay where people edit them, one copy; the wheel carries them as printables/presets/, where
printables.build finds them when no source tree is at hand (printables list, build, serve).
Everything else is declared in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PRESET_FOLDERS = ("templates", "models")


class BuildWithPresets(build_py):
    """build_py, then templates/*.toml and models/*.toml copied to printables/presets/ in the build."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the source tree's own folders
        for name in PRESET_FOLDERS:
            target = Path(self.build_lib) / "printables" / "presets" / name
            target.mkdir(parents=True, exist_ok=True)
            for source in sorted(Path(name).glob("*.toml")):
                shutil.copyfile(source, target / source.name)


setup(cmdclass={"build_py": BuildWithPresets})
