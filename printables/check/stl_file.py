"""Reading an STL for the checks: a missing, truncated or empty file is a clear error, not a crash.

trimesh reads a binary STL whose triangle count does not match its length (a truncated file) as an
empty scene, and takes a missing path's name for file content; both then fail far from the cause.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path

BINARY_HEADER_BYTES = 80
TRIANGLE_BYTES = 50


class UnreadableStl(ValueError):
    """An STL file that is missing, truncated, empty or not an STL; the message says which."""


def read_stl_bytes(path: Path | str) -> bytes:
    """The bytes of an STL after checking that they hold a whole STL with at least one triangle."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UnreadableStl(f"{path.name} is missing") from None
    except OSError as error:
        raise UnreadableStl(f"{path.name} cannot be read: {error.strerror or error}") from None
    if data[:5].lower() == b"solid" and b"facet" in data[:1000]:
        text = data.decode("ascii", errors="replace")
        if "endsolid" not in text[-1000:]:
            raise UnreadableStl(f"{path.name} is a truncated ASCII STL (no 'endsolid' at the end)")
        return data
    if len(data) < BINARY_HEADER_BYTES + 4:
        raise UnreadableStl(f"{path.name} is {len(data)} bytes, too short for an STL")
    (count,) = struct.unpack_from("<I", data, BINARY_HEADER_BYTES)
    expected = BINARY_HEADER_BYTES + 4 + count * TRIANGLE_BYTES
    if count == 0:
        raise UnreadableStl(f"{path.name} holds no triangles")
    if len(data) < expected:
        raise UnreadableStl(f"{path.name} is truncated: {len(data)} bytes, but its {count} triangles need {expected}")
    return data


def load_stl(path: Path | str, **options):
    """A trimesh mesh read from a checked STL (``options`` go to ``trimesh.load_mesh``)."""
    import trimesh

    data = read_stl_bytes(path)
    mesh = trimesh.load_mesh(io.BytesIO(data), file_type="stl", **options)
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
        raise UnreadableStl(f"{Path(path).name} holds no triangles")
    return mesh
