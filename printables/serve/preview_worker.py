"""The Giuthi preview's worker process (``python -m printables.serve.preview_worker``): CadQuery
imported once, one board modelled and meshed coarsely per request, its print cost estimated.

The server's side (printables/serve/preview.py: the worker's lifetime, the cache of STLs) never
imports this module: only the worker runs model code, so ``serve`` itself loads neither CadQuery nor
the CLI it answers for.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from printables import lifeline
from printables.serve.preview import (
    PREVIEW_ANGULAR_TOLERANCE_RAD,
    PREVIEW_TOLERANCE_MM,
    duration_words,
    is_over_budget,
    print_cost,
)

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

    lifeline.hold_on()  # first thing: dies with the server, even one killed with SIGKILL
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
