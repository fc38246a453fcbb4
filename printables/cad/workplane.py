"""A cadquery ``Workplane`` that makes only the plane it is named after.

``cq.Workplane("XY")`` and every chained call (each makes a new Workplane through
``newObject``) look their plane up with ``cq.Plane.named``, which builds all twelve named planes
to return one: about 0.8 ms a call and, over the ~200 calls a Giuthi half makes, most of the
Python time outside OCCT. This subclass builds the one plane ``Plane.named`` would return (the
same origin, x direction and normal), so every shape it makes is the same, bit for bit.
"""

from __future__ import annotations

import cadquery as cq

# name: (x direction, normal), as cadquery's Plane.named lists them
_NAMED = {
    "XY": ((1, 0, 0), (0, 0, 1)),
    "YZ": ((0, 1, 0), (1, 0, 0)),
    "ZX": ((0, 0, 1), (0, 1, 0)),
    "XZ": ((1, 0, 0), (0, -1, 0)),
    "YX": ((0, 1, 0), (0, 0, -1)),
    "ZY": ((0, 0, 1), (-1, 0, 0)),
    "front": ((1, 0, 0), (0, 0, 1)),
    "back": ((-1, 0, 0), (0, 0, -1)),
    "left": ((0, 0, 1), (-1, 0, 0)),
    "right": ((0, 0, -1), (1, 0, 0)),
    "top": ((1, 0, 0), (0, 1, 0)),
    "bottom": ((1, 0, 0), (0, -1, 0)),
}


def named_plane(name: str, origin=(0, 0, 0)) -> cq.Plane:
    """The plane ``cq.Plane.named(name, origin)`` returns, made alone."""
    x_dir, normal = _NAMED[name]
    return cq.Plane(origin, x_dir, normal)


class Workplane(cq.Workplane):
    """``cq.Workplane`` whose named plane is made alone (see the module's docstring)."""

    def __init__(self, inPlane="XY", origin=(0, 0, 0), obj=None):
        if isinstance(inPlane, str) and inPlane in _NAMED:
            inPlane = named_plane(inPlane, origin)
        super().__init__(inPlane, origin, obj)
