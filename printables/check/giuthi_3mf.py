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
from printables.check.mesh_cache import digest, load_stl, remembered
from printables.check.stl_file import UnreadableStl, read_stl_bytes

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
        model_xml = archive.read(targets[0])
        extra = {n: archive.read(n).decode("utf-8", errors="replace") for n in names if n.startswith("Metadata/")}
    model, blocks = _parse_model(model_xml)
    if model.tag != f"{{{CORE_NS}}}model":
        raise Unreadable3mf(f"{path.name}: the model part is not a 3MF core model")
    unit = model.get("unit", "millimeter")
    objects: dict[str, np.ndarray] = {}
    for obj in model.iter(f"{{{CORE_NS}}}object"):
        mesh = obj.find(f"{{{CORE_NS}}}mesh")
        if mesh is None:
            raise Unreadable3mf(f"{path.name}: object {obj.get('id')} has no mesh (components are not read)")
        if blocks is None:
            vertices = np.array([[float(v.get(a)) for a in "xyz"] for v in mesh.iter(f"{{{CORE_NS}}}vertex")])
            faces = np.array([[int(t.get(a)) for a in ("v1", "v2", "v3")] for t in mesh.iter(f"{{{CORE_NS}}}triangle")],
                             dtype=np.int64)
        else:
            vertices = _gathered(blocks, mesh, "vertices", np.float64, (0,))
            faces = _gathered(blocks, mesh, "triangles", np.int64, (0,))
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


# A <vertices> or <triangles> element holding nothing but plain <vertex x y z/> or
# <triangle v1 v2 v3/> elements (attributes in that order, double quotes, no entities).
_OPEN = re.compile(rb"<(vertices|triangles)>")
_PLAIN = {
    b"vertices": re.compile(rb'(?:[ \t\r\n]*<vertex x="[^"&<]*" y="[^"&<]*" z="[^"&<]*"[ \t\r\n]*/>)*[ \t\r\n]*'),
    b"triangles": re.compile(rb'(?:[ \t\r\n]*<triangle v1="[^"&<]*" v2="[^"&<]*" v3="[^"&<]*"[ \t\r\n]*/>)*[ \t\r\n]*'),
}
_VALUE = re.compile(rb'"([^"]*)"')


def _blocks(xml: bytes):
    """(kind, start, end) of each ``<vertices>...</vertices>`` or ``<triangles>...</triangles>``
    body, left to right: what ``<(vertices|triangles)>(.*?)</\\1>`` finds, by plain searches."""
    at = 0
    while True:
        match = _OPEN.search(xml, at)
        if match is None:
            return
        kind = match.group(1)
        end = xml.find(b"</" + kind + b">", match.end())
        if end < 0:  # unclosed: the expression would try the next opening tag
            at = match.start() + 1
            continue
        yield kind, match.end(), end
        at = end + len(kind) + 3


def _parse_model(xml: bytes) -> tuple[ET.Element, list[np.ndarray] | None]:
    """The model part's tree, and the numbers of its plain vertex and triangle lists.

    The lists (nearly all of a mesh's bytes) are cut out and read with one regular expression
    each; the tree of the rest is parsed as XML, each list left as a marker ``@k`` in its element's
    text. The numbers are read with ``float`` and ``int``, as from the elements. Anything else
    (comments, CDATA, a DOCTYPE, processing instructions, a list element in any other form, a number that does not read)
    parses the whole part as XML instead, and the blocks come back as None.
    """
    if b"<!" in xml or b"<?" in xml[1:]:
        return ET.fromstring(xml), None
    blocks: list[np.ndarray] = []
    pieces, at = [], 0
    for kind, start, end in _blocks(xml):
        body = xml[start:end]
        if not _PLAIN[kind].fullmatch(body):
            return ET.fromstring(xml), None
        values = _VALUE.findall(body)
        try:
            if kind == b"vertices":
                numbers = np.fromiter(map(float, values), dtype=np.float64, count=len(values)).reshape(-1, 3)
            else:
                numbers = np.fromiter(map(int, values), dtype=np.int64, count=len(values)).reshape(-1, 3)
        except (ValueError, OverflowError):
            return ET.fromstring(xml), None
        pieces += [xml[at:start], b"@%d" % len(blocks)]
        blocks.append(numbers)
        at = end
    pieces.append(xml[at:])
    tree = ET.fromstring(b"".join(pieces))
    if next(tree.iter(f"{{{CORE_NS}}}vertex"), None) is not None or next(tree.iter(f"{{{CORE_NS}}}triangle"), None) is not None:
        return ET.fromstring(xml), None  # vertices or triangles outside the plain lists
    return tree, blocks


def _gathered(blocks: list[np.ndarray], mesh: ET.Element, kind: str, dtype, empty: tuple) -> np.ndarray:
    """The rows of a mesh's plain lists of one kind, in document order (an empty array when none)."""
    found = [blocks[int(e.text[1:])] for e in mesh.iter(f"{{{CORE_NS}}}{kind}") if e.text and e.text.startswith("@")]
    if not found:
        return np.array([], dtype=dtype)
    return np.concatenate(found) if len(found) > 1 else found[0]


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


def _open_edges(triangles: np.ndarray) -> int:
    """Directed edges (corners compared to 1e-6 mm) that are not there exactly once with their
    reverse there exactly once. A corner with a NaN in it matches no other, as in Python's compare."""
    corners = np.round(triangles.reshape(-1, 3), 6) + 0.0  # + 0.0: -0.0 and 0.0 are one corner
    finite = ~np.isnan(corners).any(1)
    # Rows as three 64-bit words: equal bits are equal numbers once -0.0 and NaN are out of the way.
    # Equal rows get one number (sorted by their words: any numbering gives the same count).
    bits = np.ascontiguousarray(corners[finite], dtype=np.float64).view(np.uint64).reshape(-1, 3)
    order = np.lexsort((bits[:, 2], bits[:, 1], bits[:, 0]))
    ranked = bits[order]
    new_row = np.ones(len(order), dtype=bool)
    new_row[1:] = (ranked[1:] != ranked[:-1]).any(axis=1)
    ids = np.empty(len(order), dtype=np.int64)
    ids[order] = np.cumsum(new_row) - 1
    point = np.full(len(corners), -1, dtype=np.int64)
    point[finite] = ids
    tri = point.reshape(-1, 3)
    start = np.concatenate([tri[:, 0], tri[:, 1], tri[:, 2]])
    end = np.concatenate([tri[:, 1], tri[:, 2], tri[:, 0]])
    whole = (start >= 0) & (end >= 0)
    n = int(point.max()) + 1
    keys, counts = np.unique(start[whole] * n + end[whole], return_counts=True)
    src, dst = np.divmod(keys, n)
    reverse = np.searchsorted(keys, dst * n + src)
    found = reverse < len(keys)
    reverse_count = np.zeros(len(keys), dtype=np.int64)
    reverse_count[found] = np.where(keys[reverse[found]] == (dst * n + src)[found], counts[reverse[found]], 0)
    return int(((counts != 1) | (reverse_count != 1)).sum()) + int((~whole).sum())


def check_3mf(path: Path | str) -> list[CheckResult]:
    """The 3MF opens, is one closed solid in mm, and is the STL beside it (triangles, volume, bounds)."""
    path = Path(path)
    profile = path.parent / PROFILE_FILE
    try:
        # The results are a function of the name and of the bytes of the 3MF, the STL beside it and
        # the profile: a 3MF checked before in this process (giuthi-ko's are giuthi-default's)
        # is not read again. Any file unreadable here: checked the long way, which says why.
        key = ("3mf", path.name, digest(path.read_bytes()), digest(read_stl_bytes(path.with_suffix(".stl"))),
               digest(profile.read_bytes()) if profile.exists() else None)
    except (OSError, UnreadableStl):
        return _check_3mf(path)
    return remembered(key, lambda: _check_3mf(path))


def _check_3mf(path: Path) -> list[CheckResult]:
    name = path.stem
    try:
        triangles, unit, extra = read_3mf(path)
    except (Unreadable3mf, ET.ParseError, ValueError, KeyError) as error:
        return [CheckResult(f"{name}: 3MF", False, str(error))]
    results = [CheckResult(f"{name}: 3MF", True, f"{len(triangles)} triangles in {unit}")]
    results.append(CheckResult(f"{name}: 3MF unit", unit == "millimeter", f"unit {unit!r}" + ("" if unit == "millimeter" else ", expected millimeter")))
    # Closed and consistently oriented: every directed edge once, and its reverse once.
    open_edges = _open_edges(triangles)
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
