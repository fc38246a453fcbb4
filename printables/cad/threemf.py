"""3MF for slicers: a part's STL mesh as a 3MF core-spec file, with the 3D45 profile inside.

The mesh is the STL's own triangles (vertices welded, coordinates unchanged), so the 3MF and the
STL are the same solid. PrusaSlicer reads the project settings a 3MF carries in
``Metadata/Slic3r_PE.config``; we put the written profile there, so opening the 3MF in PrusaSlicer
loads the Dremel 3D45 settings with the part. Other slicers (Cura, Dremel DigiLab 3D Slicer) read
the mesh and ignore that file. The zip is written with fixed timestamps and a fixed entry order, so
the same STL and profile give the same bytes.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np

from printables.fileio import write_atomic

ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can record: no build time leaks in
# zlib level 4: on the models' XML 5 % larger than the default level 6 and 2.4x faster to write
# (level 6 was 4 % larger than level 9 and 3x faster). Same level, same zlib -> same bytes.
ZIP_LEVEL = 4
MODEL_PATH = "3D/3dmodel.model"
CONFIG_PATH = "Metadata/Slic3r_PE.config"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>'
    "</Types>\n"
)
RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    f'<Relationship Target="/{MODEL_PATH}" Id="rel0" '
    'Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>'
    "</Relationships>\n"
)


def prusa_config(profile_ini: str) -> str:
    """The profile as PrusaSlicer stores project settings in a 3MF: ``; key = value`` lines."""
    lines = ["; Dremel DigiLab 3D45 profile written by printables (the .ini beside this file)"]
    lines += [f"; {line}" for line in profile_ini.splitlines() if line.strip() and not line.startswith("#")]
    return "\n".join(lines) + "\n"


def _xml_text(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _reprs(values: np.ndarray) -> list[str]:
    """``repr`` of each float64, each distinct value formatted once (a mesh repeats its
    coordinates: a sprue's 35k hold ~3.5k distinct, 4x faster). Values are told apart by their
    bits, so -0.0 and 0.0 (equal as numbers) keep their own text."""
    bits = np.ascontiguousarray(values, dtype=np.float64).view(np.uint64)
    distinct, inverse = np.unique(bits, return_inverse=True)
    texts = np.array([repr(value) for value in distinct.view(np.float64).tolist()], dtype=object)
    return texts[inverse.reshape(-1)].tolist()


def model_xml(vertices: np.ndarray, faces: np.ndarray, name: str) -> str:
    """The 3MF model part: one object holding the mesh, placed once with no transform (mm)."""
    coords = np.asarray(vertices, dtype=np.float32).astype(np.float64)
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        '<model unit="millimeter" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">\n',
        f' <metadata name="Title">{_xml_text(name)}</metadata>\n',
        " <metadata name=\"Application\">printables</metadata>\n",
        " <resources>\n",
        f'  <object id="1" name="{_xml_text(name)}" type="model">\n',
        "   <mesh>\n    <vertices>\n",
    ]
    # repr of a float32 widened to float64 is exact and the same on every run and machine.
    # One %-format over all values: the same text as a formatted line per vertex, 2x faster.
    parts.append(('     <vertex x="%s" y="%s" z="%s"/>\n' * len(coords)) % tuple(_reprs(coords.ravel())))
    parts.append("    </vertices>\n    <triangles>\n")
    indices = np.asarray(faces, dtype=np.int64)
    parts.append(('     <triangle v1="%d" v2="%d" v3="%d"/>\n' * len(indices)) % tuple(indices.ravel().tolist()))
    parts.append("    </triangles>\n   </mesh>\n  </object>\n </resources>\n")
    parts.append(' <build>\n  <item objectid="1"/>\n </build>\n</model>\n')
    return "".join(parts)


def threemf_bytes(vertices: np.ndarray, faces: np.ndarray, name: str, profile_ini: str | None = None) -> bytes:
    """A 3MF package of one mesh (and the PrusaSlicer profile, when given), byte-stable."""
    entries = [("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", RELS),
               (MODEL_PATH, model_xml(vertices, faces, name))]
    if profile_ini is not None:
        entries.append((CONFIG_PATH, prusa_config(profile_ini)))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path, text in entries:
            info = zipfile.ZipInfo(path, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3  # unix, whatever the build machine
            archive.writestr(info, text.encode("utf-8"), compress_type=zipfile.ZIP_DEFLATED, compresslevel=ZIP_LEVEL)
    return buffer.getvalue()


def export_3mf(stl_path: Path | str, out_path: Path | str, profile_ini: str | None = None) -> Path:
    """Write the STL's mesh as a 3MF (atomically), with the slicer profile inside when given."""
    import trimesh

    stl_path = Path(stl_path)
    mesh = trimesh.load_mesh(stl_path, file_type="stl", process=True)
    return write_atomic(Path(out_path), threemf_bytes(mesh.vertices, mesh.faces, stl_path.stem, profile_ini))
