"""Serial OCCT booleans: cadquery's own run in parallel, which leaves round-off noise that differs
between runs; one serial run per operation makes a rebuild byte-identical."""

from __future__ import annotations

import cadquery as cq
from OCP.BRepAlgoAPI import BRepAlgoAPI_Cut, BRepAlgoAPI_Fuse
from OCP.TopTools import TopTools_ListOfShape


def _serial(op, shape: cq.Shape, tools: list[cq.Shape], what: str) -> cq.Shape:
    args, others = TopTools_ListOfShape(), TopTools_ListOfShape()
    args.Append(shape.wrapped)
    for tool in tools:
        others.Append(tool.wrapped)
    op.SetArguments(args)
    op.SetTools(others)
    op.SetRunParallel(False)
    op.Build()
    if not op.IsDone():
        raise RuntimeError(f"{what} failed in the CAD kernel")
    return cq.Shape.cast(op.Shape()).clean()


def fuse(shapes: list[cq.Shape], what: str = "fusing solids") -> cq.Shape:
    """Fuse ``shapes`` in one serial boolean run."""
    if len(shapes) == 1:
        return shapes[0]
    return _serial(BRepAlgoAPI_Fuse(), shapes[0], shapes[1:], what)


def cut(shape: cq.Shape, tools: list[cq.Shape], what: str = "cutting") -> cq.Shape:
    """Cut every tool from ``shape`` in one serial boolean run."""
    return _serial(BRepAlgoAPI_Cut(), shape, tools, what)
