"""cadquery model of the two-half folding Giuthi board, exported as STL and STEP.

Each half is built in its print orientation, which is also its place on the open board (see
``printables.layout.giuthi_board``), from small named parts: ``_body`` (the envelope with its
``_chamfer``), the cutters of ``_pits``, ``_stores`` (bowls), ``_side_marks`` and ``_band_groove``,
the knuckles and notches of ``_hinge`` and the screw ``_bores``, put together with as few
booleans as give the same solid (``build_half``). The body is
solid: the slicer's sparse infill hollows it, and measured with PrusaSlicer that prints faster and
lighter than pit walls and ribs standing in a hollow drawn here (each face of such a hollow costs
a slow outer perimeter on every layer). Booleans run serially so that the same parameters give a
byte-identical STL.
"""

from __future__ import annotations

import json
from pathlib import Path

import cadquery as cq
from OCP.Bnd import Bnd_Box
from OCP.BRepBndLib import BRepBndLib

from printables.cad import booleans, export
from printables.cad.workplane import Workplane
from printables.fileio import write_atomic
from printables.layout.giuthi_board import (
    SIDES,
    Cavity,
    DIMPLE_RADIUS_MM,
    GROOVE_WIDTH_MM,
    MARK_DEPTH_MM,
    LID_DEPTH_MM,
    HalfLayout,
    Mark,
    band_loop_mm,
    half_layout,
    hinge_knuckles,
    knuckle_profile,
    teardrop,
)
from printables.params.giuthi_board import GiuthiBoardParams


# Chordal deviation 0.05 mm is a quarter of a layer: pit rims (r 18 mm) get ~42 facets, the
# knuckles and bores are limited by the angular tolerance (0.25 rad, ~25 facets round).
STL_TOLERANCE_MM = 0.05
STL_ANGULAR_TOLERANCE_RAD = 0.25
STL_HEADER = b"printables giuthi board, binary STL, mm"
ABOVE_MM = 1.0  # cutters reach this far past the faces they open, for clean cuts
MANIFEST_KIND = "giuthi-board"


# -- small solids -------------------------------------------------------------------------------


def _cavity(c: Cavity, top: float) -> cq.Shape:
    """A pit or store cutter: the stadium in plan, from the floor to ``ABOVE_MM`` over the playing
    surface, its bottom edge rounded by the cup's radius (a quarter circle up to the rim)."""
    height = c.depth + ABOVE_MM
    if c.length - c.width > 1e-9:
        prism = (Workplane("XY", origin=(c.cx, c.cy, top - c.depth))
                 .slot2D(c.length, c.width, angle=90).extrude(height))
    else:
        prism = Workplane("XY", origin=(c.cx, c.cy, top - c.depth)).circle(c.width / 2).extrude(height)
    # A hair under the depth: a fillet as tall as the wall would leave no wall for OCCT to end it on.
    return prism.edges("<Z").fillet(c.radius - 1e-3).val()


def _mark(m: Mark, top: float) -> cq.Shape:
    """A dimple (a sphere cap) or a V groove with 45-degree flanks, debossed into the playing surface."""
    d = MARK_DEPTH_MM
    if m.kind == "dot":
        a = DIMPLE_RADIUS_MM
        r = (a * a + d * d) / (2 * d)
        return cq.Solid.makeSphere(r, cq.Vector(m.x0, m.y, top - d + r), angleDegrees1=-90, angleDegrees2=90)
    w = GROOVE_WIDTH_MM / 2
    # Round ends in plan would need a cone; the groove stops square at both ends instead.
    section = [(m.y - w - ABOVE_MM, top + ABOVE_MM), (m.y + w + ABOVE_MM, top + ABOVE_MM), (m.y, top - w)]
    return (Workplane("YZ", origin=(m.x0, 0, 0)).polyline(section).close()
            .extrude(m.x1 - m.x0).val())


def _along_y(points_xz: list, kinds: list, y0: float, y1: float) -> cq.Shape:
    """A prism along y from a closed x-z section given as lines and three-point arcs."""
    wp = Workplane("XZ", origin=(0, y0, 0)).moveTo(*points_xz[0])
    i = 1
    for kind in kinds:
        if kind == "line":
            wp = wp.lineTo(*points_xz[i])
            i += 1
        else:
            wp = wp.threePointArc(points_xz[i], points_xz[i + 1])
            i += 2
    # The XZ workplane's normal is -y: extrude a negative distance to run toward +y.
    return wp.close().extrude(-(y1 - y0)).val()


def _fuse(shapes: list[cq.Shape]) -> cq.Shape:
    return booleans.fuse(shapes, "fusing solids of the Giuthi board")


def _cut(shape: cq.Shape, tools: list[cq.Shape]) -> cq.Shape:
    return booleans.cut(shape, tools, "cutting the Giuthi board")


# -- the named steps ----------------------------------------------------------------------------


def _chamfer(envelope: cq.Workplane, size: float, fold_x: float) -> cq.Shape:
    """45-degree chamfer on the bed edges (elephant's foot) and the top edges (hands), not along the fold.

    Where two 45-degree chamfers meet at a square corner, the corner line leans out at 35 degrees
    and PrusaSlicer supports it; the fold corners stay square for the knuckles above them (rounding
    them leaves a ledge under the turning half's knuckle), so the fold edge goes unchamfered: the
    seam gap takes its elephant's foot.
    """
    solid = envelope.val()
    if size <= 0:
        return solid
    # Filtered in the face's own edge order: cadquery's "not"/"and" selectors go through sets,
    # whose order changes from run to run and with it the chamfered solid's last bits.
    edges = [
        e for face in (">Z", "<Z") for e in envelope.faces(face).edges().vals()
        if not (e.geomType() == "LINE" and abs(e.Center().x - fold_x) < 1e-6
                and abs(e.endPoint().x - e.startPoint().x) < 1e-9)
    ]
    return solid.chamfer(size, None, edges)


def _body(lay: HalfLayout) -> cq.Shape:
    """The envelope, outer corners rounded in plan, bed edges chamfered."""
    o = lay.outline
    env = Workplane("XY").box(o.x1 - o.x0, o.y1 - o.y0, o.z1 - o.z0, centered=False).translate((o.x0, 0, 0))
    # Round the two outer corners (hands, pockets); the fold corners stay square to meet the other half.
    outer_x, fold_x = (o.x1, o.x0) if lay.sign > 0 else (o.x0, o.x1)
    corners = [e for e in env.edges("|Z").vals() if abs(e.Center().x - outer_x) < 1e-6]
    env = Workplane("XY").add(env.val().fillet(lay.corner_radius, corners))
    return _chamfer(env, lay.chamfer, fold_x)


def _pits(lay: HalfLayout) -> list[cq.Shape]:
    """The pit cutters: each distinct cutter is made once, at its first pit, and moved to the others."""
    top = lay.outline.z1
    made: dict[tuple, tuple[Cavity, cq.Shape]] = {}
    cutters = []
    for c in lay.pits:
        key = (c.width, c.length, c.depth, c.radius)
        if key not in made:
            made[key] = (c, _cavity(c, top))
        first, cutter = made[key]
        if (c.cx, c.cy) != (first.cx, first.cy):
            cutter = cutter.moved(cq.Location(cq.Vector(c.cx - first.cx, c.cy - first.cy, 0)))
        cutters.append(cutter)
    return cutters


def _stores(lay: HalfLayout) -> list[cq.Shape]:
    """The store's cutter at the outer end: a long bowl beside both rows."""
    return [_cavity(lay.store, lay.outline.z1)]


def _side_marks(lay: HalfLayout) -> list[cq.Shape]:
    """South's dimples and North's groove, debossed into the margins along the rows."""
    return [_mark(m, lay.outline.z1) for m in lay.marks]


def _band_groove(lay: HalfLayout, p: GiuthiBoardParams) -> list[cq.Shape]:
    """V grooves (45-degree flanks) up both side faces and across the bottom for the rubber band.

    The band runs across the bottom, so the closed board still sits flat on a table.
    """
    w, h = p.band_groove_mm / 2, lay.outline.z1
    gx, width = lay.groove_x, lay.outline.y1
    cutters = []
    for y_face, inward in ((0.0, 1.0), (width, -1.0)):
        # Up the side face: a triangle in plan, opening at the face, extruded through the height.
        tri = [(gx - w, y_face - inward * ABOVE_MM), (gx + w, y_face - inward * ABOVE_MM),
               (gx + w, y_face), (gx, y_face + inward * w), (gx - w, y_face)]
        cutters.append(Workplane("XY").workplane(offset=-ABOVE_MM).polyline(tri).close()
                       .extrude(h + 2 * ABOVE_MM).val())
    # Across the bottom: a triangle in x-z opening at the bed, its roof at 45 degrees.
    section = [(gx - w, -ABOVE_MM), (gx + w, -ABOVE_MM), (gx + w, 0.0), (gx, w), (gx - w, 0.0)]
    cutters.append(_along_y(section, ["line"] * 4, -ABOVE_MM, width + ABOVE_MM))
    return cutters


def _lid(lay: HalfLayout) -> list[cq.Shape]:
    """The lid's words debossed into the underside, mirrored so they read right on the closed board."""
    from printables import fonts

    cutters = []
    for line in lay.lid:
        place = cq.Location(cq.Vector(line.x, line.y, 0))
        # Letter by letter at the layout's pen positions (its spacing keeps plastic between the
        # letters), up from below the bed to the letters' roofs, the line centred on its place;
        # each letter's solids a tool of their own.
        for i, (ch, pen) in enumerate(zip(line.text, line.offsets)):
            if ch.isspace():
                continue
            path = str(fonts.font_file(fonts.face_of(line.font_of(i))))
            letter = (Workplane("XY", origin=(pen - line.width / 2, 0, -ABOVE_MM))
                      .text(ch, line.size, LID_DEPTH_MM + ABOVE_MM, fontPath=path, halign="left",
                            valign="center", combine=False).val())
            cutters += [solid.mirror("YZ").moved(place) for solid in letter.Solids()]
    return cutters


def _knuckle(lay: HalfLayout, p: GiuthiBoardParams, y0: float, y1: float) -> cq.Shape:
    """One knuckle: a round section over the top, a 45-degree underside where it reaches across."""
    k = knuckle_profile(p, lay.side, lay.knuckle_radius)
    prism = _along_y([k["tangent"], k["top"], k["arc_end"], k["foot"]], ["arc", "line"], y0, y1)
    if k["foot"][1] >= 0:
        return prism
    # On a thin board the underside runs into the bed: the knuckle stops at the bed like the body.
    r = lay.knuckle_radius
    below = cq.Solid.makeBox(4 * r, y1 - y0 + 2, 4 * r, cq.Vector(-2 * r, y0 - 1, -4 * r))
    return _cut(prism, [below])


def _hinge(lay: HalfLayout, p: GiuthiBoardParams) -> tuple[list[cq.Shape], list[cq.Shape]]:
    """This half's knuckles, and round notches where the other half's knuckles turn."""
    knuckles = [_knuckle(lay, p, k.y0, k.y1) for k in lay.knuckles]
    notches = []
    for y0, y1 in lay.notches:
        notches.append(
            Workplane("XZ", origin=(0, y0, 0)).center(lay.axis_x, lay.axis_z)
            .circle(lay.notch_radius).extrude(-(y1 - y0)).val()
        )
    return knuckles, notches


def _bores(lay: HalfLayout) -> list[cq.Shape]:
    """Teardrop bores along the hinge axis: clearance in the turning half, pilot in the other."""
    bores = []
    for k in lay.knuckles:
        if k.bore == "none":
            continue
        t = teardrop(k.bore_radius, lay.axis_x, lay.axis_z)
        bores.append(_along_y([t["tip"], t["right"], t["bottom"], t["left"]], ["line", "arc"], k.bore_y0, k.bore_y1))
    return bores


def _screw_holes(shape: cq.Shape, lay: HalfLayout) -> cq.Shape:
    """``shape`` with the half's screw bores (``_bores``) cut."""
    return _cut(shape, _bores(lay))


def _holds_a_point_of(shape: cq.Shape, other: cq.Shape) -> bool:
    """Whether a vertex of ``other`` lies inside a solid of ``shape``."""
    point = other.Vertices()[0].Center()
    return any(solid.isInside(point, 1e-6) for solid in shape.Solids())


def _apart(shapes: list[cq.Shape], others: list[cq.Shape], gap_mm: float = 0.1) -> bool:
    """Whether every one of ``shapes`` stays ``gap_mm`` clear of every one of ``others``.

    Bounding boxes first; for the pairs whose boxes meet (a wide pit's sphere has a box far above
    the board), the exact distance between their surfaces and, when that is clear, whether one
    lies wholly inside the other (OCCT's distance does not see that).
    """
    def box(shape: cq.Shape):
        # OCCT's quick box, never smaller than the shape (cadquery's BoundingBox() is the
        # optimal one, ten times dearer)
        b = Bnd_Box()
        BRepBndLib.Add_s(shape.wrapped, b, False)
        x0, y0, z0, x1, y1, z1 = b.Get()
        return (x0, y0, z0), (x1, y1, z1)

    boxes = [box(o) for o in others]
    for shape in shapes:
        lo, hi = box(shape)
        for other, (olo, ohi) in zip(others, boxes):
            if not all(lo[i] - gap_mm < ohi[i] and olo[i] - gap_mm < hi[i] for i in range(3)):
                continue
            if (shape.distance(other) <= gap_mm or _holds_a_point_of(shape, other)
                    or _holds_a_point_of(other, shape)):
                return False
    return True


def build_half(p: GiuthiBoardParams, side: str, lay: HalfLayout | None = None) -> cq.Shape:
    """One half of the board as a single solid, in print orientation and open-board position.

    ``lay`` replaces the half's derived layout (tests build broken boards through it).

    The body, less the pits, store, side marks and band groove, plus the knuckles, less the
    notches and screw bores. When no knuckle comes near the surface cutters (as on every preset's
    board), adding the knuckles first gives the
    same solid, ((B - C) + K = (B + K) - C when K and C do not meet), so the body and knuckles
    are fused once and every cutter taken away in one boolean; otherwise in two.
    """
    lay = half_layout(p, side) if lay is None else lay
    shape = _body(lay)
    surface = _pits(lay) + _stores(lay) + _side_marks(lay) + _band_groove(lay, p) + _lid(lay)
    knuckles, notches = _hinge(lay, p)
    hinge_cuts = notches + _bores(lay)
    if _apart(surface, knuckles):
        shape = _cut(_fuse([shape] + knuckles), surface + hinge_cuts)
    else:
        shape = _cut(_fuse([_cut(shape, surface)] + knuckles), hinge_cuts)
    solids = shape.Solids()
    if len(solids) != 1:
        raise RuntimeError(f"the {side} half came out as {len(solids)} solids, expected 1")
    return solids[0]


# -- exporters ----------------------------------------------------------------------------------


def export_stl(shape: cq.Shape, path: Path, tolerance_mm: float = STL_TOLERANCE_MM,
               angular_tolerance_rad: float = STL_ANGULAR_TOLERANCE_RAD) -> Path:
    """Write one half as a binary STL at the board's mesh tolerance, atomically."""
    return export.export_stl(shape, path, tolerance_mm, angular_tolerance_rad, STL_HEADER)


def mesh_arrays(shape: cq.Shape, tolerance_mm: float = STL_TOLERANCE_MM,
                angular_tolerance_rad: float = STL_ANGULAR_TOLERANCE_RAD):
    """The half's welded mesh at the board's tolerance (vertices, faces)."""
    return export.mesh_arrays(shape, tolerance_mm, angular_tolerance_rad)


export_step = export.export_step


def manifest(p: GiuthiBoardParams, stl_names: dict[str, str]) -> dict:
    """What the check reads back: the kind, the parameters and which file is which half."""
    return {
        "kind": MANIFEST_KIND,
        "params": p.as_dict(),
        "parts": stl_names,
        "screws": {"type": p.screw, "diameter_mm": p.screw_diameter_mm, "length_mm": p.screw_length_mm,
                   "count": sum(1 for k in hinge_knuckles(p) if k.bore == "clearance"), "head": "pan"},
        "closed_size_mm": [p.half_length_mm + p.seam_gap_mm / 2 + p.knuckle_radius_mm, p.half_width_mm,
                           2 * p.thickness_mm],
        "band_loop_mm": band_loop_mm(p),
        "units": "mm",
        "orientation": "print orientation = open board position; hinge axis along y",
        "stl_tolerance_mm": STL_TOLERANCE_MM,
        "stl_angular_tolerance_rad": STL_ANGULAR_TOLERANCE_RAD,
    }


def manifest_name(p: GiuthiBoardParams) -> str:
    """File name of the manifest: ``giuthi-board-2x6-4seeds.json``."""
    return f"giuthi-board-{p.stem()}.json"


def build_halves(p: GiuthiBoardParams) -> dict[str, cq.Shape]:
    """Both halves as solids, by side."""
    return {side: build_half(p, side) for side in SIDES}


def write_board(p: GiuthiBoardParams, halves: dict[str, cq.Shape], out_dir: Path, step: bool = True) -> list[Path]:
    """Write the halves' STLs (and STEP files) and the manifest into ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    names = {}
    for side in SIDES:
        stem = p.part_name(side)
        names[side] = f"{stem}.stl"
        written.append(export_stl(halves[side], out_dir / f"{stem}.stl"))
        if step:
            written.append(export_step(halves[side], out_dir / f"{stem}.step"))
    text = json.dumps(manifest(p, names), indent=2, sort_keys=True) + "\n"
    written.append(write_atomic(out_dir / manifest_name(p), text.encode("utf-8")))
    return written


def build_board(p: GiuthiBoardParams, out_dir: Path, step: bool = True) -> list[Path]:
    """Build both halves and write their STLs, STEP files and the manifest into ``out_dir``."""
    return write_board(p, build_halves(p), out_dir, step)
