"""The Giuthi board's quick 3D preview: a warm worker process that models the two halves and
meshes them coarsely, and the server's cache of what it made.

Modelling a half takes well under a second; importing CadQuery takes several. So the server keeps
one worker process (``python -m printables.serve.preview``) with CadQuery imported, asks it for one
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

PREVIEW_TOLERANCE_MM = 0.4  # coarse: a pit is still round to the eye
PREVIEW_ANGULAR_TOLERANCE_RAD = 0.6
CACHE_ENTRIES = 64
REQUEST_TIMEOUT_S = 120.0  # a worker that has not answered by then is stopped and started again
# The budget the presets keep to (benchmarks/giuthi_print_cost.py): a half in at most 6 h and 90 g.
BUDGET_MINUTES = 6 * 60
BUDGET_GRAMS = 90.0
# A half's print cost from its solid (volume V mm³, surface area A mm²), fitted to PrusaSlicer's
# figures with this project's 3D45 profile (benchmarks/giuthi_print_cost.py's docstring: the five
# presets and the 200 x 140 mm board of issue 26, 5 h 55 min and 95 g): filament 0.000127 g/mm³ of
# solid plus 0.00118 g/mm² of skin (within 1 g of each), time 0.00569 min/mm² of skin (within 12 min).
GRAMS_PER_MM3 = 0.000127
GRAMS_PER_MM2 = 0.00118
MINUTES_PER_MM2 = 0.00569


def print_cost(volume_mm3: float, area_mm2: float) -> tuple[float, float]:
    """A half's estimated print (minutes, grams) from its volume and surface area."""
    return MINUTES_PER_MM2 * area_mm2, GRAMS_PER_MM3 * volume_mm3 + GRAMS_PER_MM2 * area_mm2


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
            from printables.serve.jobs import _worker_env

            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / "tmp").mkdir(exist_ok=True)
            self._process = subprocess.Popen(
                [sys.executable, "-m", "printables.serve.preview"], cwd=self.folder,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env=_worker_env(self.folder), text=True, bufsize=1, start_new_session=True)
        return self._process

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


# --------------------------------------------------------------------------- the worker's side


def board_for(args: list[str]):
    """The board parameters ``printables giuthi <args>`` would build, as the CLI derives them."""
    from printables.build import all_presets
    from printables.cli.giuthi import OPTION_FIELDS, giuthi
    from printables.models import model_params

    ctx = giuthi.make_context("giuthi", list(args))
    base = {}
    if ctx.params["preset"] is not None:
        presets = {p.name: p.params for p in all_presets() if p.kind == "giuthi-board"}
        base = dict(presets[ctx.params["preset"]])
    given = {OPTION_FIELDS[k]: v for k, v in ctx.params.items() if k in OPTION_FIELDS and v is not None}
    return model_params("giuthi-board", {**base, **given}, "giuthi")


def cli_message(args: list[str]) -> str:
    """The CLI's own one-line message for arguments it refuses (as ``printables giuthi`` prints it)."""
    import contextlib
    import io

    from printables.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            main.main(args=["giuthi", *args, "--show"], prog_name="printables")
        except SystemExit:
            pass
    lines = [line.removeprefix("Error: ") for line in err.getvalue().splitlines() if line.startswith("Error: ")]
    return lines[-1] if lines else "these settings make no board"


_PRESET_COSTS: dict[str, tuple[float, float, object]] = {}


def _giuthi_presets() -> list:
    from printables.build import all_presets

    return [p for p in all_presets() if p.kind == "giuthi-board"]


def cost_one_preset() -> bool:
    """Estimate the next preset's print cost (idle work between requests); False when all are done."""
    from printables.models import model_params

    for preset in _giuthi_presets():
        if preset.name not in _PRESET_COSTS:
            p = model_params("giuthi-board", preset.params, preset.name)
            minutes, grams, _ = _half_costs(p)
            _PRESET_COSTS[preset.name] = (minutes, grams, p)
            return True
    return False


def _half_costs(board) -> tuple[float, float, dict]:
    from printables.cad.giuthi_board import build_half

    halves = {side: build_half(board, side) for side in ("left", "right")}
    costs = [print_cost(h.Volume(), h.Area()) for h in halves.values()]
    return max(c[0] for c in costs), max(c[1] for c in costs), halves


def presets_costed() -> bool:
    """Whether every preset's print cost is known (the worker estimates them between requests)."""
    return {p.name for p in _giuthi_presets()} <= set(_PRESET_COSTS)


def fitting_preset(board) -> str | None:
    """A preset whose halves keep to the budget, the closest to ``board``: the same pits and seeds
    first, then the largest plan."""
    while cost_one_preset():  # those not yet estimated between requests
        pass
    fits = [(name, p) for name, (m, g, p) in _PRESET_COSTS.items() if not is_over_budget(m, g)]
    if not fits:
        return None
    def closeness(item):
        name, p = item
        same = (p.pits_per_row, p.seeds_per_pit) == (board.pits_per_row, board.seeds_per_pit)
        return (not same, "-ko" in name, -p.half_length_mm * p.half_width_mm, name)
    return min(fits, key=closeness)[0]


def make_preview(args: list[str], stl: Path) -> dict:
    """Model the board of ``args``, write both halves (laid open) as one coarse STL, estimate the cost."""
    import numpy as np

    from printables.cad import export
    from printables.errors import ParameterError

    try:
        board = board_for(args)
    except Exception as error:  # noqa: BLE001 - any refusal: the CLI's own words say what is wrong
        message = cli_message(args)
        if isinstance(error, (ParameterError, ValueError, KeyError)) or message:
            return {"error": message}
        raise
    minutes, grams, halves = _half_costs(board)
    triangles = []
    for half in halves.values():
        vertices, faces = export.mesh_arrays(half, PREVIEW_TOLERANCE_MM, PREVIEW_ANGULAR_TOLERANCE_RAD)
        triangles.append(np.asarray(vertices, dtype="<f4")[np.asarray(faces)])
    mesh = np.concatenate(triangles)
    records = np.zeros(len(mesh), dtype=[("normal", "<f4", 3), ("vertices", "<f4", (3, 3)), ("attr", "<u2")])
    records["vertices"] = mesh
    data = b"printables giuthi preview".ljust(80, b" ") + np.uint32(len(mesh)).tobytes() + records.tobytes()
    tmp = stl.with_name(f".{stl.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, stl)
    over = is_over_budget(minutes, grams)
    # The advice waits for no preset's estimate: when they are not all known yet, the page asks
    # for it separately (``fits_for``) and shows the board meanwhile.
    ready = over and presets_costed()
    lo, hi = mesh.reshape(-1, 3).min(axis=0), mesh.reshape(-1, 3).max(axis=0)
    return {
        "triangles": int(len(mesh)),
        "half_mm": [round(board.half_length_mm, 1), round(board.half_width_mm, 1)],
        "size_mm": [round(float(v), 1) for v in hi - lo],
        "pits": board.pits_per_row, "seeds": board.seeds_per_pit,
        "estimate": {"minutes": round(minutes), "grams": round(grams, 1), "time": duration_words(minutes),
                     "over": over, "fits": fitting_preset(board) if ready else None,
                     "fits_pending": over and not ready},
    }


def fits_for(args: list[str]) -> dict:
    """The preset that fits the budget, for an over-budget board (every preset estimated first)."""
    return {"fits": fitting_preset(board_for(args))}


def main() -> int:
    """Serve preview requests, one JSON line in and one out, until the server closes the pipe."""
    from printables.isolation import isolate_ezdxf

    answers = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # anything a library prints goes to stderr, never into the answers
    sys.stdout = sys.stderr
    isolate_ezdxf()
    import printables.cad.giuthi_board  # noqa: F401 - the point of a warm worker: CadQuery imported once

    import select

    requests = sys.stdin.buffer
    while True:
        # Between requests (one at a time: the server waits for each answer), estimate the presets'
        # print costs one by one, so that an over-budget board's advice is ready when it is asked.
        while not select.select([requests], [], [], 0)[0] and cost_one_preset():
            pass
        line = requests.readline()
        if not line:
            break
        try:
            request = json.loads(line)
            if request.get("fits"):
                answer = fits_for(list(request["args"]))
            else:
                answer = make_preview(list(request["args"]), Path(request["stl"]))
        except Exception as error:  # noqa: BLE001 - one bad board must not stop the previews
            answer = {"error": f"the preview failed: {type(error).__name__}: {error}"}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
