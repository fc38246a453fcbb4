"""The clearance preflight's fast finder (numpy picks the near pairs, each is measured exactly) finds
what a plain double loop over the same geometric definitions finds: the same nearest box edge for
every text line, the same crowded pairs of texts, the same paragraphs.

The reference here is written from ``check_clearance``'s definitions, not from the finder's code:
a box-to-segment distance by orientation tests and corner distances, every segment for every line,
every pair of lines. Coordinates lie on a 1/8 mm grid; a gap within 1e-9 mm of a limit may fall
either way (two ways of measuring the same diagonal round differently), anything else must agree.
"""

import math
from unittest import mock

import numpy as np
from hypothesis import given, settings, strategies as st

from printables.check import preflight as pf
from printables.check.preflight import TextLine

TIE = 1e-9  # mm: two ways of measuring one distance agree to this

grid = st.integers(0, 8 * 60).map(lambda k: k / 8)  # 0 to 60 mm on a 1/8 mm grid
length = st.integers(1, 8 * 30).map(lambda k: k / 8)
half_width = st.sampled_from([0.0, 1 / 16, 1 / 8, 0.25])


# --------------------------------------------------------------------------- shapes -> segments


def _sides(points, half, kind, role_of, box):
    return [(ax, ay, bx, by, half, kind, role_of(ax, ay, bx, by), box)
            for (ax, ay), (bx, by) in zip(points, points[1:])]


def _rectangle(x, y, w, h, half):
    """A rectangle's four sides; a band (at most SYMBOL_MAX_MM thick, BAND_RATIO times as long) has
    its long sides as "ground"."""
    band = min(w, h) <= pf.SYMBOL_MAX_MM and max(w, h) >= pf.BAND_RATIO * min(w, h)

    def role(ax, ay, bx, by):
        long_side = ay == by if w > h else ax == bx
        return "ground" if band and long_side else ""

    points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
    return _sides(points, half, "rectangle", role, (x - half, y - half, x + w + half, y + h + half))


def _polyline(points, half, kind):
    """A line or curve through ``points``; a curve at most SYMBOL_MAX_MM each way is an icon."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    icon = kind == "curve" and max(xs) - min(xs) <= pf.SYMBOL_MAX_MM and max(ys) - min(ys) <= pf.SYMBOL_MAX_MM
    box = (min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half)
    return _sides(points, half, kind, lambda *_: "icon" if icon else "", box)


@st.composite
def shapes(draw):
    """The segments of one shape: a rectangle, a band, a line, a curve or an icon (a small polygon)."""
    what = draw(st.sampled_from(["rectangle", "band", "line", "curve", "icon"]))
    x, y, half = draw(grid), draw(grid), draw(half_width)
    if what == "rectangle":
        return _rectangle(x, y, draw(length), draw(length), half)
    if what == "band":
        thick = draw(st.integers(2, 8 * 6).map(lambda k: k / 8))
        long = thick * draw(st.integers(4, 12))
        return _rectangle(x, y, long, thick, half) if draw(st.booleans()) else _rectangle(x, y, thick, long, half)
    if what == "line":
        return _polyline([(x, y), (draw(grid), draw(grid))], half, "line")
    if what == "curve":
        points = [(x, y)] + [(x + draw(st.integers(-80, 80)) / 8, y + draw(st.integers(-80, 80)) / 8)
                             for _ in range(draw(st.integers(1, 5)))]
        return _polyline(points, half, "curve")
    radius = draw(st.integers(4, 24)) / 8  # a coin of 1 to 6 mm across, as a polygon
    n = draw(st.integers(6, 16))
    points = [(x + radius * math.cos(2 * math.pi * k / n), y + radius * math.sin(2 * math.pi * k / n)) for k in range(n + 1)]
    return _polyline(points, half, "curve")


@st.composite
def text_lines(draw, segments):
    """Text lines anywhere, set on a shape (a number centred on a coin, a word along a band), stacked
    in paragraphs (baselines about one line pitch apart, so blocks form) or run in after the last."""
    lines = []
    for _ in range(draw(st.integers(1, 12))):
        size = draw(st.sampled_from([6.0, 8.0, 9.0, 12.0, 18.0]))
        em = pf.pt_to_mm(size)
        w, h = draw(length), draw(st.integers(4, 40)) / 8
        how = draw(st.sampled_from(["anywhere", "paragraph", "run-in"] + (["on a shape"] if segments else [])))
        if how == "run-in" and lines:  # after the last line, on its baseline at its size: a run-in heading's text
            last = lines[-1]
            x0 = last.x1 + draw(st.integers(0, 8 * 8)) / 8
            lines.append(TextLine(x0, last.top, x0 + w, last.bottom, f"line {len(lines)}", last.size, last.baseline))
            continue
        if how == "on a shape":
            *_, (sx0, sy0, sx1, sy1) = draw(st.sampled_from(segments))
            w, h = min(w, max(sx1 - sx0, 0.25)), min(h, max(sy1 - sy0, 0.25))
            cx = (sx0 + sx1) / 2 + draw(st.integers(-4, 4)) / 16
            cy = (sy0 + sy1) / 2 + draw(st.integers(-4, 4)) / 16
            x0, top = cx - w / 2, cy - h / 2
        else:
            x0, top = draw(grid), draw(grid)
        rows = draw(st.integers(2, 4)) if how == "paragraph" else 1
        pitch = em * draw(st.sampled_from([1.0, 1.3, 1.6, 1.7]))
        for row in range(rows):
            shift = draw(st.integers(-16, 16)) / 8 if row else 0.0
            t = top + row * pitch
            lines.append(TextLine(x0 + shift, t, x0 + shift + w, t + h, f"line {len(lines)}", size, t + 0.8 * h))
    return lines


@st.composite
def pages(draw):
    segments = [s for shape in draw(st.lists(shapes(), max_size=12)) for s in shape]
    return draw(text_lines(segments)), segments


# --------------------------------------------------------------------------- the reference


def _orientation(p, q, r) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def _on(p, q, r) -> bool:
    return min(p[0], r[0]) <= q[0] <= max(p[0], r[0]) and min(p[1], r[1]) <= q[1] <= max(p[1], r[1])


def _cross(p1, p2, q1, q2) -> bool:
    """Whether segments p1p2 and q1q2 meet (touching counts)."""
    d1, d2 = _orientation(q1, q2, p1), _orientation(q1, q2, p2)
    d3, d4 = _orientation(p1, p2, q1), _orientation(p1, p2, q2)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return ((d1 == 0 and _on(q1, p1, q2)) or (d2 == 0 and _on(q1, p2, q2))
            or (d3 == 0 and _on(p1, q1, p2)) or (d4 == 0 and _on(p1, q2, p2)))


def _point_to_segment(p, a, b) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == dy == 0:
        return math.dist(p, a)
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)
    t = min(1.0, max(0.0, t))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _point_to_box(p, x0, top, x1, bottom) -> float:
    return math.dist(p, (min(max(p[0], x0), x1), min(max(p[1], top), bottom)))


def reference_gap(line: TextLine, a, b) -> float:
    """Distance between a line's box and segment ab: 0 when they meet, else the least of its ends'
    distances to the box and the box's corners' distances to it (a box is convex)."""
    x0, top, x1, bottom = line.x0, line.top, line.x1, line.bottom
    corners = [(x0, top), (x1, top), (x1, bottom), (x0, bottom)]
    if any(x0 <= p[0] <= x1 and top <= p[1] <= bottom for p in (a, b)):
        return 0.0
    if any(_cross(a, b, c, d) for c, d in zip(corners, corners[1:] + corners[:1])):
        return 0.0
    return min([_point_to_box(p, x0, top, x1, bottom) for p in (a, b)] + [_point_to_segment(c, a, b) for c in corners])


def reference_edges(line: TextLine, segments) -> list[tuple[float, str, float]]:
    """(gap, what, limit) of every edge that is a box to this line, whatever its gap."""
    mx, my = (line.x0 + line.x1) / 2, (line.top + line.bottom) / 2
    found = []
    for ax, ay, bx, by, half, kind, role, (sx0, sy0, sx1, sy1) in segments:
        inside = sx0 <= mx <= sx1 and sy0 <= my <= sy1
        if role == "icon" and not inside:
            continue  # the icon's label, beside it
        if role == "ground" and inside:
            continue  # the band's long side, under its own label
        centred = (role == "icon" and abs(mx - (sx0 + sx1) / 2) <= pf.ICON_CENTRED * (sx1 - sx0)
                   and abs(my - (sy0 + sy1) / 2) <= pf.ICON_CENTRED * (sy1 - sy0))
        limit = (pf.ICON_LABEL_MM if centred else pf.CLEARANCE_MM) - 0.005
        found.append((reference_gap(line, (ax, ay), (bx, by)) - half, f"a {kind} edge", limit))
    return found


def reference_blocks(lines: list[TextLine]) -> set[frozenset[int]]:
    """Paragraphs as sets of line numbers: lines joined when the next baseline is at most
    BLOCK_PITCH_EM of the larger size away and they overlap across, or when on one baseline at one
    size at most RUN_IN_EM apart; joined lines' paragraphs merge."""
    group = {i: {i} for i in range(len(lines))}
    for i, a in enumerate(lines):
        for j, b in enumerate(lines):
            if j <= i:
                continue
            pitch = abs(b.baseline - a.baseline)
            stacked = 0 < pitch <= pf.BLOCK_PITCH_EM * pf.pt_to_mm(max(a.size, b.size)) and a.x0 < b.x1 and b.x0 < a.x1
            run_in = (pitch < 0.05 and abs(a.size - b.size) < 0.01
                      and max(a.x0 - b.x1, b.x0 - a.x1) <= pf.RUN_IN_EM * pf.pt_to_mm(a.size))
            if (stacked or run_in) and group[i] is not group[j]:
                merged = group[i] | group[j]
                for k in merged:
                    group[k] = merged
    return {frozenset(g) for g in group.values()}


def _partition(blocks: list[int]) -> set[frozenset[int]]:
    found: dict[int, set[int]] = {}
    for i, b in enumerate(blocks):
        found.setdefault(b, set()).add(i)
    return {frozenset(g) for g in found.values()}


# --------------------------------------------------------------------------- the properties


@settings(max_examples=300, deadline=None)
@given(pages(), st.sampled_from([5, 64, pf.PAIRS_PER_BATCH]))
def test_each_lines_nearest_edge_is_the_double_loops(page, batch):
    lines, segments = page
    with mock.patch.object(pf, "PAIRS_PER_BATCH", batch):  # a small batch: many numpy batches a page
        fast = pf._nearest_edges(lines, segments, np)
    assert len(fast) == len(lines)
    for line, found in zip(lines, fast):
        edges = reference_edges(line, segments)
        surely = [e for e in edges if e[0] < e[2] - TIE]  # crowding by any measure
        maybe = [e for e in edges if e[0] < e[2] + TIE]  # crowding, or on the limit
        if found is None:
            assert not surely, (line, surely)
            continue
        gap, what = found
        assert maybe, (line, found)
        nearest = min(e[0] for e in maybe)
        assert abs(gap - nearest) <= TIE, (line, found, nearest)
        assert what in {e[1] for e in maybe if abs(e[0] - nearest) <= TIE}, (line, found, maybe)


@settings(max_examples=300, deadline=None)
@given(pages(), st.sampled_from([3, 64, pf.PAIRS_PER_BATCH]))
def test_crowded_texts_and_paragraphs_are_the_double_loops(page, batch):
    lines, _ = page
    with mock.patch.object(pf, "PAIRS_PER_BATCH", batch):
        blocks = pf._blocks(lines, np)
        crowded = pf._crowded_texts(lines, np)
    assert _partition(blocks) == reference_blocks(lines)
    assert _partition(pf._blocks(lines)) == reference_blocks(lines)  # the plain double loop, without numpy
    paragraph = {i: b for b in reference_blocks(lines) for i in b}
    limit = pf.CLEARANCE_MM - 0.005
    expected = {}
    for i, a in enumerate(lines):
        for j in range(i + 1, len(lines)):
            b = lines[j]
            if j in paragraph[i]:
                continue
            gap = math.dist((0, 0), (max(a.x0 - b.x1, b.x0 - a.x1, 0), max(a.top - b.bottom, b.top - a.bottom, 0)))
            expected[(i, j)] = gap
    assert [(i, j) for i, j, _ in crowded] == sorted((i, j) for i, j, _ in crowded)  # a double loop's order
    found = {(i, j): gap for i, j, gap in crowded}
    assert {k for k, g in expected.items() if g < limit - TIE} <= set(found) <= {k for k, g in expected.items() if g < limit + TIE}
    for pair, gap in found.items():
        assert abs(gap - expected[pair]) <= TIE


def test_the_finder_sees_what_a_plain_double_loop_sees_on_a_real_sheet(tmp_path, monkeypatch):
    """A real sheet (Patchwork on A5: the time track's coins, squares, bands and numbers, the patches,
    the rules), measured with 4 mm for 1.5 so that some 200 lines crowd an edge and some 30 pairs
    each other: every line's nearest edge and every crowded pair of texts, read from the file, are
    the reference's."""
    from click.testing import CliRunner
    from pypdf import PdfReader

    from printables.check.parsing import open_pdf
    from printables.cli import main

    monkeypatch.setattr(pf, "CLEARANCE_MM", 4.0)
    path = tmp_path / "track.pdf"
    result = CliRunner().invoke(main, ["patchwork", "--paper", "a5", "-o", str(path)])
    assert path.exists(), result.output
    reader = PdfReader(str(path))
    inks = pf._font_inks(reader)
    edges = pairs = 0
    with open_pdf(path) as pdf:
        findings = pf.clearance_findings(pdf, reader)
        for number, page in enumerate(pdf.pages, 1):
            lines = pf._text_lines(page, inks.get(number, {}))
            segments = list(pf._segments(page))
            for line, found in zip(lines, pf._nearest_edges(lines, segments, np)):
                measured = reference_edges(line, segments)
                maybe = [e for e in measured if e[0] < e[2] + TIE]
                assert found is not None or not [e for e in measured if e[0] < e[2] - TIE], line
                if found is not None:
                    edges += 1
                    assert abs(found[0] - min(e[0] for e in maybe)) <= TIE
            paragraph = {i: b for b in reference_blocks(lines) for i in b}
            expected = [(i, j) for i, a in enumerate(lines) for j, b in enumerate(lines)
                        if i < j and j not in paragraph[i]
                        and math.hypot(max(a.x0 - b.x1, b.x0 - a.x1, 0), max(a.top - b.bottom, b.top - a.bottom, 0)) < 4.0 - 0.005]
            assert [(i, j) for i, j, _ in pf._crowded_texts(lines, np)] == expected
            pairs += len(expected)
    assert edges >= 100 and pairs >= 20, (edges, pairs)  # crowded: the comparison is not of empty lists
    assert len(findings) == edges + pairs
