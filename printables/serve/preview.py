"""The Giuthi board's quick 3D preview: a warm worker process that models the two halves and
meshes them coarsely, and the server's cache of what it made.

Modelling a half takes well under a second; importing CadQuery takes several. So the server keeps
one worker process (``python -m printables.serve.preview_worker``) with CadQuery imported, asks it for one
board at a time over a pipe (a JSON line each way), and keeps the STLs it made per set of
arguments, so going back to an earlier board costs nothing. The preview is the model only: no
slicing, no checks, a coarse mesh (the print files are meshed at the board's own tolerance).

With the model the worker estimates a half's print cost, from its volume and surface area, so that
the page can say before anything is made when a half is over the budget the presets keep to.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
from collections import OrderedDict
from pathlib import Path

from printables import lifeline

PREVIEW_TOLERANCE_MM = 0.4  # coarse: a pit is still round to the eye
PREVIEW_ANGULAR_TOLERANCE_RAD = 0.6
CACHE_ENTRIES = 64
REQUEST_TIMEOUT_S = 120.0  # a worker that has not answered by then is stopped and started again
# The budget the presets keep to (benchmarks/giuthi_print_cost.py): a half in at most 6 h and 90 g.
BUDGET_MINUTES = 6 * 60
BUDGET_GRAMS = 90.0
# A half's print cost from its solid (volume V mm³, surface area A mm²): a least-squares fit, with no
# constant term, to PrusaSlicer's figures (this project's 3D45 profile, printables/check/slicer.py)
# for the redesigned board of issue 25 (round cups, end knuckles, lid words), sliced on 2026-12-04:
# each board below built with this worker's own parameters (``board_for``) and written as
# ``printables giuthi <args>`` writes it, then both halves sliced one at a time with
# ``python benchmarks/giuthi_print_cost.py <its two STLs>``; the dearer half is the one fitted.
# Filament 0.0003115 g/mm³ + 0.0006297 g/mm², within 0.9 g of each; time 0.0008642 min/mm³ +
# 0.0027225 min/mm², within 6 min of each (tests/test_serve_preview.py holds both to 3 g and 15 min).
GRAMS_PER_MM3 = 0.0003115
GRAMS_PER_MM2 = 0.0006297
MINUTES_PER_MM3 = 0.0008642
MINUTES_PER_MM2 = 0.0027225
# The sliced figures of the fit, the dearer half of each board: (arguments, minutes, grams).
SLICED_HALVES: tuple[tuple[tuple[str, ...], float, float], ...] = (
    (("--preset", "giuthi-default"), 254.0, 72.14),  # 4 h 14 min
    (("--preset", "giuthi-compact"), 231.5, 66.08),  # 3 h 52 min
    (("--preset", "giuthi-2x8"), 268.6, 76.35),  # 4 h 29 min
    (("--preset", "giuthi-9seeds"), 281.5, 81.89),  # 4 h 41 min
    (("--preset", "giuthi-travel"), 167.9, 49.51),  # 2 h 48 min
    (("--size", "200x140"), 293.9, 82.58),  # 4 h 54 min
    (("--size", "216x140"), 314.2, 89.09),  # 5 h 14 min
    (("--size", "224x145"), 334.0, 94.74),  # 5 h 34 min: over the budget
    (("--size", "180x145"), 278.1, 76.95),  # 4 h 38 min
    (("--preset", "giuthi-travel", "--size", "150x100"), 212.5, 62.67),  # 3 h 32 min
    (("--preset", "giuthi-travel", "--size", "135x90"), 181.0, 53.29),  # 3 h 01 min
)


def print_cost(volume_mm3: float, area_mm2: float) -> tuple[float, float]:
    """A half's estimated print (minutes, grams) from its volume and surface area."""
    return (MINUTES_PER_MM3 * volume_mm3 + MINUTES_PER_MM2 * area_mm2,
            GRAMS_PER_MM3 * volume_mm3 + GRAMS_PER_MM2 * area_mm2)


def is_over_budget(minutes: float, grams: float) -> bool:
    """Whether a half costs more than the presets' budget (6 h or 90 g)."""
    return minutes > BUDGET_MINUTES or grams > BUDGET_GRAMS


def duration_words(minutes: float) -> str:
    """``355`` -> ``5 h 55 min``."""
    whole = round(minutes)
    return f"{whole // 60} h {whole % 60:02d} min" if whole >= 60 else f"{whole} min"


# --------------------------------------------------------------------------- the server's side


class Previews:
    """The server's preview worker and its cache of STLs, one per set of arguments."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._cache: OrderedDict[str, dict] = OrderedDict()

    def warm(self) -> None:
        """Start the worker now (in the background), so the first preview finds CadQuery imported."""
        threading.Thread(target=self._warm, name="preview-warm", daemon=True).start()

    def _warm(self) -> None:
        self.board([])  # the default board: what the page shows as it opens

    def _ensure(self) -> subprocess.Popen:
        if self._process is None or self._process.poll() is not None:
            self._process = self._start()
        return self._process

    def _start(self) -> subprocess.Popen:
        """Start a worker tied to this server by printables/lifeline.py, as the job workers are: it
        ends when the server does, even a server killed with SIGKILL.

        The kernel's parent-death signal fires when the *thread* that started the worker ends, and
        requests are served on short-lived threads; so a thread of the worker's own starts it and
        waits for it, holding the lifeline's write end open until then."""
        from printables.serve.jobs import _worker_env

        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "tmp").mkdir(exist_ok=True)
        started = threading.Event()
        box: dict = {}

        def keep() -> None:
            read_end, write_end, lifeline_env = lifeline.open_lifeline()
            try:
                try:
                    box["process"] = subprocess.Popen(
                        [sys.executable, "-m", "printables.serve.preview_worker"], cwd=self.folder,
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                        env={**_worker_env(self.folder), **lifeline_env}, text=True, bufsize=1,
                        start_new_session=True, pass_fds=(read_end,))
                except BaseException as error:  # noqa: BLE001 - handed to the thread that asked
                    box["error"] = error
                    return
                finally:
                    os.close(read_end)
                    started.set()
                box["process"].wait()
            finally:
                os.close(write_end)

        threading.Thread(target=keep, name="preview-worker", daemon=True).start()
        started.wait()
        if "error" in box:
            raise box["error"]
        return box["process"]

    def key(self, args: list[str]) -> str:
        """The cache key (and STL name) of a board's arguments."""
        return hashlib.sha256(json.dumps(args).encode("utf-8")).hexdigest()[:20]

    def board(self, args: list[str]) -> dict:
        """The preview of ``printables giuthi <args>``: ``{"key", "estimate", ...}`` or ``{"error"}``."""
        key = self.key(args)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            answer = self._ask({"args": args, "stl": str(self.folder / f"{key}.stl")})
            answer["key"] = key
            self._cache[key] = answer
            while len(self._cache) > CACHE_ENTRIES:
                old, _ = self._cache.popitem(last=False)
                (self.folder / f"{old}.stl").unlink(missing_ok=True)
            return answer

    def _ask(self, request: dict) -> dict:
        for attempt in (1, 2):  # a worker that died is started again once
            process = self._ensure()
            try:
                process.stdin.write(json.dumps(request) + "\n")
                process.stdin.flush()
                answer = _read_line(process, REQUEST_TIMEOUT_S)
            except (OSError, ValueError):
                answer = None
            if answer is not None:
                return json.loads(answer)
            self._stop()
        return {"error": "the preview could not be drawn (its worker stopped); Make print files still works"}

    def fits(self, args: list[str]) -> dict:
        """``{"fits": preset}`` for an over-budget board whose preview said the advice was pending."""
        key = self.key(args)
        with self._lock:
            answer = self._ask({"args": args, "fits": True})
            cached = self._cache.get(key)
            if cached is not None and "fits" in answer and "estimate" in cached:
                cached["estimate"] = {**cached["estimate"], "fits": answer["fits"], "fits_pending": False}
            return answer

    def stl_path(self, key: str) -> Path | None:
        """The STL of a cached preview, or None."""
        with self._lock:
            known = key in self._cache and "error" not in self._cache[key]
        path = self.folder / f"{key}.stl"
        return path if known and path.is_file() else None

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()

    def close(self) -> None:
        """Stop the worker (the server is closing)."""
        with self._lock:
            self._stop()


def _read_line(process: subprocess.Popen, timeout: float) -> str | None:
    """One line from the worker within ``timeout`` seconds, or None."""
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return box[0] if box and box[0] else None
