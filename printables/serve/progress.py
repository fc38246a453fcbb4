"""A job's progress as step n of m, with the time left estimated from the build's own cost figures.

The worker's progress lines (``… modelling the two board halves``, ``… checking x.pdf``) are
matched against the steps a job of its kind goes through; each step has a cost in seconds (CPU
seconds measured on this project's build, printables/build.py's CHECK_COST_S, PREVIEW_COST_S and
SHEET_COST_S, and the Giuthi figures below). The time left is the cost of the steps still to come,
scaled by how the job's own elapsed time compares with the cost of the steps done (a busy machine
runs slower than the figures; the estimate follows it).
"""

from __future__ import annotations

from dataclasses import dataclass

# Giuthi, CPU seconds on this machine's cores (benchmarks/bench_build.py: worker 0's six makes take
# 13.8 s with a ~3 s CadQuery import; a half takes 0.5 to 0.8 s to model; PrusaSlicer takes ~20 s a
# half and ~10 s for the seed sprue: the "about 70 s" of issue 26 for a sliced 200 x 140 set).
START_COST_S = 3.0  # the worker process and its imports (CadQuery for a model)
GIUTHI_COST_S = {
    "modelling the two board halves": 2.5,
    "modelling the seed sprue": 1.0,
    "writing the rules sheet": 0.5,
    "writing a 3MF per part": 1.0,
    "slicing": 20.0,
    "rendering previews": 2.0,
}
GIUTHI_FILES = {"mesh": 6, "rest": 10}  # what a set's checks read: 3 STL + 3 3MF meshes; PDFs, JSON, STEP...
ZIP_COST_S = 0.5


@dataclass(frozen=True)
class Step:
    """One step a job goes through: the progress line that starts it, what the page calls it, its cost."""

    starts: str
    label: str
    cost_s: float


def plan(kind: str, args: list[str]) -> list[Step]:
    """The steps of ``printables <kind> <args>`` as the customizer runs it, in order."""
    from printables.build import CHECK_COST_S, PREVIEW_COST_S, SHEET_COST_S

    steps = [Step("printables ", "starting", START_COST_S if kind == "giuthi" else 1.0)]
    if kind == "giuthi":
        if any(a in ("--show", "--rules") for a in args):
            return steps + [Step("checking", "checking the files", CHECK_COST_S["rest"])]
        for starts, cost in GIUTHI_COST_S.items():
            if starts == "slicing":
                if "--no-slice" not in args:
                    steps += [Step(f"slicing {part}", f"slicing the {part} with PrusaSlicer", cost / (2 if part == "seeds" else 1))
                              for part in ("left half", "right half", "seeds")]
            elif starts != "rendering previews" or "--no-previews" not in args:
                steps.append(Step(starts, starts, cost))
        checks = GIUTHI_FILES["mesh"] * CHECK_COST_S["mesh"] + GIUTHI_FILES["rest"] * CHECK_COST_S["rest"]
        steps.append(Step("checking", "checking every file", checks))
        steps.append(Step("drawing the pages", "drawing the pages", 2 * PREVIEW_COST_S))
        steps.append(Step("packing", "packing the zip", ZIP_COST_S))
        return steps
    steps.append(Step("checking", "checking the file", CHECK_COST_S["rest"] + SHEET_COST_S.get(kind, 0.5)))
    steps.append(Step("drawing the pages", "drawing the pages", PREVIEW_COST_S))
    return steps


def _part_of(line: str) -> str:
    """``slicing giuthi-board-left-….stl with PrusaSlicer`` -> ``slicing left half``."""
    if not line.startswith("slicing "):
        return line
    name = line.removeprefix("slicing ")
    part = "left half" if "-left-" in name else "right half" if "-right-" in name else "seeds"
    return f"slicing {part}"


def where(steps: list[Step], lines: list[str], elapsed_s: float) -> dict:
    """Where a job is: ``{"step": n, "steps": m, "label": ..., "left_s": ...}`` (n from 1)."""
    reached = 0
    for line in lines:
        line = _part_of(line)
        for index in range(reached, len(steps)):
            if line.startswith(steps[index].starts):
                reached = index + 1
                break
    reached = max(reached, 1)
    done_cost = sum(s.cost_s for s in steps[: reached - 1])
    current = steps[reached - 1]
    rest = sum(s.cost_s for s in steps[reached:])
    # The machine's pace so far: elapsed over what the steps done were expected to cost (0.5 to 4).
    pace = min(4.0, max(0.5, elapsed_s / done_cost)) if done_cost > 1.0 else 1.0
    in_step = max(0.0, elapsed_s - done_cost * pace)
    left = max(rest * pace + max(current.cost_s * pace - in_step, 0.2 * current.cost_s * pace), 0.0)
    return {"step": reached, "steps": len(steps), "label": current.label, "left_s": round(left, 1),
            "fraction": round(min(0.99, (done_cost + min(in_step / pace, current.cost_s)) / sum(s.cost_s for s in steps)), 3)}
