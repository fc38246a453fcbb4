"""STL meshes read once per process: several checks of one set read the same files.

Whole check results and measures are kept too (``kept``, ``remembered``), under the digests of every file a check reads:
giuthi-ko's board, sprue and 3MFs are giuthi-default's, byte for byte, and a build worker that checks
both computes them once.

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
RESULTS_KEPT = 24  # check results and measures kept: a board, a sprue and three 3MFs of several sets

_MESHES: OrderedDict = OrderedDict()
_RESULTS: OrderedDict = OrderedDict()


def digest(data: bytes) -> bytes:
    """The key of some bytes (a file's) in these caches."""
    return hashlib.blake2b(data, digest_size=16).digest()


def kept(key: tuple, compute, keep=lambda value: True):
    """``compute()``, computed once per process for each ``key`` (when ``keep(value)``).

    Only for a value that is a function of ``key`` alone: the digests of every file it reads and
    every other value it uses (names it prints included). Errors are not kept.
    """
    found = _RESULTS.get(key)
    if found is None:
        found = compute()
        if not keep(found):
            return found
        _RESULTS[key] = found
        while len(_RESULTS) > RESULTS_KEPT:
            _RESULTS.popitem(last=False)
    else:
        _RESULTS.move_to_end(key)
    return found


def remembered(key: tuple, check, keep=lambda results: True) -> list:
    """``check()``'s results (a list of CheckResult), kept as ``kept`` keeps a value."""
    return list(kept(key, lambda: tuple(check()), keep))


def load_stl(path: Path | str, **options):
    """A trimesh mesh read from a checked STL (``options`` go to ``trimesh.load_mesh``), a copy of
    the one already read from the same bytes when there is one."""
    return load_stl_keyed(path, **options)[0]


def load_stl_keyed(path: Path | str, **options):
    """``load_stl``'s mesh and the digest of the very bytes it was read from."""
    import trimesh

    data = read_stl_bytes(path)
    key = (digest(data), tuple(sorted(options.items())))
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
    return mesh.copy(include_cache=True), key[0]
