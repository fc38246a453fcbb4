"""STL meshes read once per process: several checks of one set read the same files.

The board's check reads both halves, the 3MF checks read them again to compare, and the seed
sprue is read by the board's capacity check, its own check and its 3MF's. A mesh is kept under the
hash of the file's bytes (and the reading options), so a file changed on disk, even within the
same second and at the same size, is read again; each caller gets its own copy to change freely.
"""

from __future__ import annotations

import hashlib
import io
from collections import OrderedDict
from pathlib import Path

from printables.check.stl_file import UnreadableStl, read_stl_bytes

KEPT = 6  # meshes kept: a set's two board halves and its sprue, twice over

_MESHES: OrderedDict = OrderedDict()


def load_stl(path: Path | str, **options):
    """A trimesh mesh read from a checked STL (``options`` go to ``trimesh.load_mesh``), a copy of
    the one already read from the same bytes when there is one."""
    import trimesh

    data = read_stl_bytes(path)
    key = (hashlib.blake2b(data, digest_size=16).digest(), tuple(sorted(options.items())))
    mesh = _MESHES.get(key)
    if mesh is None:
        mesh = trimesh.load_mesh(io.BytesIO(data), file_type="stl", **options)
        if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
            raise UnreadableStl(f"{Path(path).name} holds no triangles")
        _MESHES[key] = mesh
        while len(_MESHES) > KEPT:
            _MESHES.popitem(last=False)
    else:
        _MESHES.move_to_end(key)
    return mesh.copy(include_cache=True)
