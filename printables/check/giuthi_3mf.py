"""Check a 3MF written for slicers against the STL of the same part beside it.

The 3MF is opened as a package (zip, content types, the relationship naming the model part), its
meshes are read with the build's transforms applied, and the solid is compared with the STL: the
same number of triangles, the same volume and the same bounds. A slicer profile carried inside
(PrusaSlicer's ``Metadata/Slic3r_PE.config``) must hold the same settings as the profile file
beside it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import numpy as np

from printables.check.results import CheckResult
from printables.check.slicer import PROFILE_FILE
from printables.check.stl_file import UnreadableStl, load_stl

CORE_NS = "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"
RELS_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
MODEL_REL = "http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"
CONFIG_PATH = "Metadata/Slic3r_PE.config"
VOLUME_REL_TOLERANCE = 1e-6
BOUNDS_TOLERANCE_MM = 1e-4


class Unreadable3mf(ValueError):
    """A 3MF that is not a readable 3MF package; the message says why."""


def _transform(text: str | None) -> np.ndarray:
    """A 3MF transform attribute (12 numbers, row vectors) as a 4x4 matrix for column vectors."""
    m = np.eye(4)
    if text:
        values = [float(v) for v in text.split()]
        if len(values) != 12:
            raise Unreadable3mf(f"a transform of {len(values)} numbers, expected 12")
        m[:3, :3] = np.array(values[:9]).reshape(3, 3).T
        m[:3, 3] = values[9:]
    return m


def read_3mf(path: Path | str) -> tuple[np.ndarray, np.ndarray, dict[str, str]]:
    """The build's triangles (n x 3 x 3, mm, transforms applied), the model's unit and the package's text files."""
    path = Path(path)
    try:
        archive = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as error:
        raise Unreadable3mf(f"{path.name} is not a zip package: {error}") from None
    with archive:
        names = set(archive.namelist())
        for needed in ("[Content_Types].xml", "_rels/.rels"):
            if needed not in names:
                raise Unreadable3mf(f"{path.name} has no {needed}")
        rels = ET.fromstring(archive.read("_rels/.rels"))
        targets = [r.get("Target", "").lstrip("/") for r in rels.iter(f"{{{RELS_NS}}}Relationship")
                   if r.get("Type") == MODEL_REL]
        if len(targets) != 1 or targets[0] not in names:
            raise Unreadable3mf(f"{path.name}: the package names no model part it holds")
        model = ET.fromstring(archive.read(targets[0]))
        extra = {n: archive.read(n).decode("utf-8", errors="replace") for n in names if n.startswith("Metadata/")}
    if model.tag != f"{{{CORE_NS}}}model":
        raise Unreadable3mf(f"{path.name}: the model part is not a 3MF core model")
    unit = model.get("unit", "millimeter")
    objects: dict[str, np.ndarray] = {}
    for obj in model.iter(f"{{{CORE_NS}}}object"):
        mesh = obj.find(f"{{{CORE_NS}}}mesh")
        if mesh is None:
            raise Unreadable3mf(f"{path.name}: object {obj.get('id')} has no mesh (components are not read)")
        vertices = np.array([[float(v.get(a)) for a in "xyz"] for v in mesh.iter(f"{{{CORE_NS}}}vertex")])
        faces = np.array([[int(t.get(a)) for a in ("v1", "v2", "v3")] for t in mesh.iter(f"{{{CORE_NS}}}triangle")],
                         dtype=np.int64)
        if len(faces) == 0 or faces.min() < 0 or faces.max() >= len(vertices):
            raise Unreadable3mf(f"{path.name}: object {obj.get('id')} has no triangles or bad vertex indices")
        objects[obj.get("id")] = vertices[faces]
    triangles = []
    for item in model.iter(f"{{{CORE_NS}}}item"):
        if item.get("objectid") not in objects:
            raise Unreadable3mf(f"{path.name}: the build places object {item.get('objectid')!r}, which is not there")
        m = _transform(item.get("transform"))
        tri = objects[item.get("objectid")]
        triangles.append(tri @ m[:3, :3].T + m[:3, 3])
    if not triangles:
        raise Unreadable3mf(f"{path.name}: the build places nothing")
    return np.concatenate(triangles), unit, extra


def signed_volume(triangles: np.ndarray) -> float:
    """Volume enclosed by outward-facing triangles (divergence theorem), mm3."""
    a, b, c = triangles[:, 0], triangles[:, 1], triangles[:, 2]
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)


def _settings(text: str) -> dict[str, str]:
    """``key = value`` settings of a profile, from an .ini or from ``; key = value`` lines."""
    out = {}
    for line in text.splitlines():
        match = re.fullmatch(r"(?:;\s*)?([a-z0-9_]+) = (.*)", line.strip())
        if match:
            out[match.group(1)] = match.group(2)
    return out


def check_3mf(path: Path | str) -> list[CheckResult]:
    """The 3MF opens, is one closed solid in mm, and is the STL beside it (triangles, volume, bounds)."""
    path = Path(path)
    name = path.stem
    try:
        triangles, unit, extra = read_3mf(path)
    except (Unreadable3mf, ET.ParseError, ValueError, KeyError) as error:
        return [CheckResult(f"{name}: 3MF", False, str(error))]
    results = [CheckResult(f"{name}: 3MF", True, f"{len(triangles)} triangles in {unit}")]
    results.append(CheckResult(f"{name}: 3MF unit", unit == "millimeter", f"unit {unit!r}" + ("" if unit == "millimeter" else ", expected millimeter")))
    # Closed and consistently oriented: every directed edge once, and its reverse once.
    edges = np.round(np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]]), 6)
    keys = {}
    for (p, q) in map(lambda e: (tuple(e[0]), tuple(e[1])), edges):
        keys[(p, q)] = keys.get((p, q), 0) + 1
    open_edges = sum(1 for (p, q), k in keys.items() if k != 1 or keys.get((q, p)) != 1)
    results.append(CheckResult(f"{name}: 3MF closed", open_edges == 0,
                               "every edge joins two triangles, facing one way" if open_edges == 0 else f"{open_edges} edges open or doubled"))
    stl = path.with_suffix(".stl")
    try:
        mesh = load_stl(stl, process=True)
    except UnreadableStl as error:
        results.append(CheckResult(f"{name}: 3MF = STL", False, f"no STL to compare with: {error}"))
        return results
    volume, stl_volume = signed_volume(triangles), float(mesh.volume)
    lo, hi = triangles.reshape(-1, 3).min(axis=0), triangles.reshape(-1, 3).max(axis=0)
    bounds_off = float(max(np.abs(lo - mesh.bounds[0]).max(), np.abs(hi - mesh.bounds[1]).max()))
    same = (len(triangles) == len(mesh.faces) and abs(volume - stl_volume) <= VOLUME_REL_TOLERANCE * abs(stl_volume)
            and bounds_off <= BOUNDS_TOLERANCE_MM)
    size = hi - lo
    results.append(CheckResult(
        f"{name}: 3MF = STL", same,
        f"{len(triangles)} / {len(mesh.faces)} triangles, {volume:.1f} / {stl_volume:.1f} mm3, bounds "
        f"{size[0]:.2f} x {size[1]:.2f} x {size[2]:.2f} mm, off by {bounds_off:.2g} mm (3MF / STL)"))
    profile = path.parent / PROFILE_FILE
    if CONFIG_PATH in extra and profile.exists():
        inside, beside = _settings(extra[CONFIG_PATH]), _settings(profile.read_text(encoding="utf-8"))
        differ = sorted(k for k in set(inside) | set(beside) if inside.get(k) != beside.get(k))
        results.append(CheckResult(f"{name}: 3MF profile", not differ,
                                   f"{len(inside)} settings, the same as {PROFILE_FILE}" if not differ
                                   else f"differs from {PROFILE_FILE} in {', '.join(differ[:5])}"))
    return results
