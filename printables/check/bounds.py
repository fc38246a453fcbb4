"""What ``check`` will read at all: regular files of a bounded size that inflate to a bounded size.

A file printables writes is a few MB at most (a board half's STL some 0.6 MB, a sheet some 50 KB).
Before any reader sees a file, this says in one failed result why it is not read: a pipe or a
device (reading one would block or never end), a file far larger than any of ours, a PDF stream
or a 3MF entry that would inflate past a stated limit (a 1 MB "zip bomb" must not take GBs of
memory), or a PDF filter printables never writes (LZW, run-length: their expansion is unbounded).
"""

from __future__ import annotations

import base64
import os
import re
import stat
import zlib
from pathlib import Path

from printables.check.results import CheckResult

MB = 1_000_000
# The largest file of each kind check reads (ours are 100 times smaller).
MAX_FILE_BYTES = {".pdf": 50 * MB, ".stl": 200 * MB, ".3mf": 100 * MB, ".json": 1 * MB}
MAX_PDF_STREAM_BYTES = 64 * MB  # one stream, inflated
MAX_PDF_INFLATED_BYTES = 256 * MB  # every stream of a PDF, inflated
MAX_3MF_ENTRY_BYTES = 256 * MB  # one file inside a 3MF, as its header says (zipfile reads no more)
MAX_3MF_INFLATED_BYTES = 512 * MB
MAX_3MF_ENTRIES = 1000

STREAM_RE = re.compile(rb"(?<!end)stream(?:\r\n|\n|\r)")
# Filters whose output printables never writes and whose expansion has no practical bound.
UNBOUNDED_FILTER_RE = re.compile(rb"/(LZWDecode|RunLengthDecode|LZW|RL)(?![A-Za-z0-9#])")
ASCII85_RE = re.compile(rb"/(ASCII85Decode|A85)(?![A-Za-z0-9#])")
CHUNK_BYTES = 1 << 16


def _mb(n: int) -> str:
    return f"{n / MB:g} MB"


def bounds_problem(path: Path) -> CheckResult | None:
    """A failed result saying why ``path`` is not read, or None when the checks may read it."""
    path = Path(path)
    name = path.name
    try:
        info = os.stat(path)
    except OSError:
        return None  # missing or unreadable: the checks say so in their words
    if stat.S_ISDIR(info.st_mode):
        return None  # a folder's own check (dispatch) says what it holds
    if not stat.S_ISREG(info.st_mode):
        return CheckResult("file", False, f"{name}: not a regular file (a pipe, a socket or a device); "
                                          "check reads the files printables writes")
    suffix = path.suffix.lower()
    cap = MAX_FILE_BYTES.get(suffix)
    if cap is not None and info.st_size > cap:
        return CheckResult("file size", False, f"{name}: {info.st_size:,} bytes, more than any {suffix} file "
                                               f"printables writes (at most {_mb(cap)} are read); not read")
    if suffix == ".pdf":
        return _pdf_problem(path)
    if suffix == ".3mf":
        return _zip_problem(path)
    return None


def _pdf_problem(path: Path) -> CheckResult | None:
    """Every Flate stream inflated in bounded steps (never more than the limits), before any reader.

    Filter names are looked for only between streams (in the objects' dictionaries), never in a
    stream's own data, where ASCII85 text can spell ``/RL``. A stream whose dictionary names
    ASCII85 is decoded first (ASCII85 only shrinks what it is given), then inflated as the others.
    """
    try:
        data = path.read_bytes()
    except OSError as error:
        return CheckResult("file", False, f"{path.name}: cannot read it ({error.strerror or error})")
    total = 0
    position = 0  # where the last stream's data ended: what follows up to the next stream is objects
    for match in STREAM_RE.finditer(data):
        if match.start() < position:
            continue  # the word inside a stream's own data
        between = data[position:match.start()]
        found = UNBOUNDED_FILTER_RE.search(between)
        if found:
            return _unbounded(path, found)
        end = data.find(b"endstream", match.end())
        position = len(data) if end < 0 else end
        body = memoryview(data)[match.end():position]
        if ASCII85_RE.search(between, max(0, between.rfind(b"obj"))):  # this stream's own dictionary
            body = memoryview(_ascii85(body))
        allowance = min(MAX_PDF_STREAM_BYTES, MAX_PDF_INFLATED_BYTES - total)
        produced = _inflated_size(body, 0, allowance)
        if produced is None:
            limit = MAX_PDF_STREAM_BYTES if allowance == MAX_PDF_STREAM_BYTES else MAX_PDF_INFLATED_BYTES
            what = "a stream" if limit == MAX_PDF_STREAM_BYTES else "its streams"
            return CheckResult("PDF streams", False, f"{path.name}: {what} would inflate to more than {_mb(limit)} "
                                                     "(a sheet's are under 10 MB); not read")
        total += produced
    found = UNBOUNDED_FILTER_RE.search(data, position)
    return _unbounded(path, found) if found else None


def _unbounded(path: Path, found: re.Match) -> CheckResult:
    return CheckResult("PDF streams", False, f"{path.name}: a stream uses the {found.group(1).decode()} filter, "
                                             "which printables never writes; not read")


def _ascii85(body: memoryview) -> bytes:
    """A stream's ASCII85 data decoded (b"" when it is damaged: the readers will say)."""
    text = bytes(body)
    stop = text.find(b"~>")
    try:
        return base64.a85decode(text if stop < 0 else text[:stop])
    except ValueError:
        return b""


def _inflated_size(view: memoryview, start: int, allowance: int) -> int | None:
    """The inflated size of the zlib data at ``start`` (0 if it is not zlib data), or None when it
    would be more than ``allowance``; never holds more than one chunk of its output."""
    inflater = zlib.decompressobj()
    produced = 0
    position = start
    try:
        while not inflater.eof and position < len(view):
            out = inflater.decompress(view[position:position + CHUNK_BYTES], allowance - produced + 1)
            produced += len(out)
            if produced > allowance:
                return None
            while inflater.unconsumed_tail:  # more output waits for this chunk's input
                out = inflater.decompress(inflater.unconsumed_tail, allowance - produced + 1)
                produced += len(out)
                if produced > allowance:
                    return None
            position += CHUNK_BYTES
    except zlib.error:
        return produced  # not Flate data (or damaged): the readers will say
    return produced


def _zip_problem(path: Path) -> CheckResult | None:
    """A 3MF's entries by the sizes their headers declare (Python's zipfile reads no more than that)."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as archive:
            entries = archive.infolist()
    except (OSError, zipfile.BadZipFile, ValueError):
        return None  # not a zip: the 3MF check says so
    if len(entries) > MAX_3MF_ENTRIES:
        return CheckResult("3MF entries", False, f"{path.name}: {len(entries):,} files inside; a 3MF printables "
                                                 f"writes holds a handful (at most {MAX_3MF_ENTRIES:,} are read)")
    largest = max(entries, key=lambda e: e.file_size, default=None)
    if largest is not None and largest.file_size > MAX_3MF_ENTRY_BYTES:
        return CheckResult("3MF entries", False, f"{path.name}: {largest.filename} would inflate to "
                                                 f"{largest.file_size:,} bytes, over {_mb(MAX_3MF_ENTRY_BYTES)}; not read")
    total = sum(e.file_size for e in entries)
    if total > MAX_3MF_INFLATED_BYTES:
        return CheckResult("3MF entries", False, f"{path.name}: would inflate to {total:,} bytes, "
                                                 f"over {_mb(MAX_3MF_INFLATED_BYTES)}; not read")
    return None
