"""Whether a folder holds one whole Giuthi set: every file its manifest lists, with those bytes.

``printables giuthi`` writes the manifest last, with the name and SHA-256 of every other file of
the set (card, slicer profile, STEPs, 3MFs, STLs, rules sheet; the PNG previews are pictures, not
checked). A folder where a set was swapped in part-way (a kill in the middle of the file-by-file
swap of a read-only parent), or one a file was deleted from, fails here however good each file
left is on its own.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from printables.check.results import CheckResult

PROFILE_FILE = "dremel-3d45-giuthi.ini"  # printables.check.slicer.PROFILE_FILE, without its import
NOT_LISTED_SUFFIXES = (".png",)  # previews: rendered after the manifest, and never checked
MANIFEST_GLOB = "giuthi-board-*.json"


def is_set_file(name: str) -> bool:
    """Whether a file name is one a Giuthi set writes (as printables.models.is_set_member says)."""
    return name.startswith("giuthi-") or name == PROFILE_FILE


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_set_files(manifest_path: Path) -> CheckResult:
    """Every file the manifest lists is beside it with its digest, and no other file of a set is."""
    manifest_path = Path(manifest_path)
    name = "whole set"
    try:
        data = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return CheckResult(name, False, f"{manifest_path.name} unreadable: {error}")
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict) or not files or not all(isinstance(v, str) for v in files.values()):
        return CheckResult(name, False, f"{manifest_path.name} lists no files with digests (a set made by an older "
                                        "printables, or a manifest written by hand): build the set again")
    folder = manifest_path.parent
    missing, changed = [], []
    for file, digest in sorted(files.items()):
        path = folder / file
        if Path(file).name != file or not path.is_file():
            missing.append(file)
        else:
            try:
                if _sha256(path) != digest:
                    changed.append(file)
            except OSError:
                missing.append(file)
    try:
        present = sorted(e.name for e in folder.iterdir() if is_set_file(e.name) and not e.name.startswith("."))
    except OSError as error:
        return CheckResult(name, False, f"cannot list {folder}: {error.strerror or error}")
    foreign = [f for f in present if f not in files and f != manifest_path.name and not f.endswith(NOT_LISTED_SUFFIXES)]
    problems = []
    if missing:
        problems.append(f"missing {', '.join(missing)}")
    if changed:
        problems.append(f"not the bytes the manifest lists: {', '.join(changed)}")
    if foreign:
        problems.append(f"not of this set: {', '.join(foreign)}")
    if problems:
        return CheckResult(name, False, "; ".join(problems) + " (build the set again)")
    return CheckResult(name, True, f"all {len(files)} files the manifest lists, byte for byte, and no other")


def is_orphan_set_folder(folder: Path) -> bool:
    """A folder holding files of a Giuthi set but no set manifest: a set that is not whole.

    A folder of rules sheets alone (``printables giuthi --rules``) is not one."""
    try:
        names = [e.name for e in Path(folder).iterdir() if e.is_file()]
    except OSError:
        return False
    if any(Path(n).match(MANIFEST_GLOB) for n in names):
        return False
    return any(is_set_file(n) and not n.startswith("giuthi-rules") and not n.endswith(NOT_LISTED_SUFFIXES) for n in names)


def orphan_folder_result(folder: Path) -> CheckResult:
    """The failed check of a folder that holds part of a set and no manifest."""
    return CheckResult("whole set", False, f"{folder} holds files of a Giuthi set but no {MANIFEST_GLOB} manifest: "
                                           "not a whole set (build the set again)")
