"""Check a Breakfast Shy postcard PDF by reading its drawing back (never the code that drew it).

The card's drawing conventions, which is all this module assumes:
- a card's top band and its bottom stripe are rectangles filled with ``BAND_RGB`` that run past the
  trim by the bleed at the sides and at their outer edge, so the trim box is the band's sides and
  top and the stripe's bottom, each moved in by the bleed;
- a pea is a circle at least ``MIN_PEA_MM`` - 0.5 mm across (Peater and his eyes are smaller);
- every crop mark is a line exactly ``MARK_LENGTH_MM`` long on the extension of a cut line;
- every card face has a 50 mm scale bar and the words "print at 100 % / actual size".
Card sizes and places, the peas' graph, the marks and the text are recovered from geometry and
compared with the rule core (the layout, its measured difficulty) and the parameters in the subject.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from printables.check.pdf import (
    SIZE_TOLERANCE_MM,
    PageDrawing,
    PdfDrawing,
    Segment,
    check_print_scaling,
    check_publisher_box,
    check_ruler,
    check_subject_keys,
    objects_near_edge,
)
from printables.check.language import lang_of, said, said_regex
from printables.check.results import CheckResult
from printables.paper import PAPER_SIZES_MM
from printables.params.peas import (
    BAND_RGB,
    BLEED_EDGE_MM,
    MARK_LENGTH_MM,
    MAX_BACK_OFFSET_MM,
    SAFE_ZONE_MM,
    MIN_PEA_MM,
    expected_smushed,
    postcard_size_mm,
)
from printables.rules import peas as rules
from printables.rules.facts import GAME_FACTS

COLOUR_TOLERANCE = 0.01
STRIPE_MAX_MM = 8.0  # a filled band no taller than this is a card's bottom stripe, else its top band
PEA_MIN_MM = MIN_PEA_MM - 0.5
ROUND_TOLERANCE_MM = 0.05  # a circle's bounding box is square to this
NEIGHBOUR_FACTOR = 1.2  # peas closer than this many pitches are neighbours; diagonal ones are 1.41 apart
SAFE_EDGE_MM = 4.0  # peas keep at least this far from the trim
TRIM_SAFE_MM = 4.0  # text, peas and every drawing on a card stand at least this far inside the trim
SCALE_BAR_MM = 50.0
SCALE_CAPTION = "print at 100 % / actual size"
PAPER_EDGE_MM = 1.0  # a cut line this close to the paper's edge needs no mark: the edge is the cut
SUMMARY_PHRASE = "roll 2 dice"
BACK_PHRASES = ("How to play", "Pods never overlap", "exactly 1 higher or 1 lower", "number of smushed peas")
NOT_PUBLIC = "the original card's layout is not public"
# The parameters a card records in its subject; one more or one less means the file was altered.
SUBJECT_KEYS = {"kind", "back", "back_offset_mm", "bleed", "borderless", "cards_per_page", "expected_smushed", "landscape", "layout",
                "layout_name", "page_mm", "page_ruler", "paper", "pea_mm", "pitch_mm", "postcard"}
LANG_KEY = {"lang"}  # recorded by the translation pass; a card drawn without it is English


@dataclass(frozen=True)
class Card:
    """A card's trim box read back from its band and stripe, in mm from the page's top-left."""

    x0: float
    top: float
    x1: float
    bottom: float
    band_bottom: float  # where the top band ends: peas and text stand below it

    @property
    def w(self) -> float:
        """Width in mm."""
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        """Height in mm."""
        return self.bottom - self.top

    def holds(self, x: float, y: float, inset: float = 0.0) -> bool:
        """True if ``(x, y)`` lies inside the trim box shrunk by ``inset``."""
        return self.x0 + inset < x < self.x1 - inset and self.top + inset < y < self.bottom - inset

    def __str__(self) -> str:
        return f"{self.w:.2f}x{self.h:.2f} mm at ({self.x0:.2f}, {self.top:.2f})"


def _is_band(colour: tuple) -> bool:
    return len(colour) == 3 and all(abs(a - b) <= COLOUR_TOLERANCE for a, b in zip(colour, BAND_RGB))


def find_cards(page: PageDrawing, bleed: float) -> tuple[list[Card], list[str]]:
    """The cards of a page (row by row) and what could not be matched."""
    bands = [b for b in page.boxes if b.fill and _is_band(b.fill_colour)]
    tops = [b for b in bands if b.h > STRIPE_MAX_MM]
    stripes = [b for b in bands if b.h <= STRIPE_MAX_MM]
    cards, problems = [], []
    used = set()
    for band in tops:
        below = [
            (s.top - band.bottom, i)
            for i, s in enumerate(stripes)
            if i not in used and abs(s.x0 - band.x0) <= SIZE_TOLERANCE_MM and abs(s.x1 - band.x1) <= SIZE_TOLERANCE_MM
            and s.top > band.bottom
        ]
        if not below:
            problems.append(f"a top band at ({band.x0:.1f}, {band.top:.1f}) has no bottom stripe")
            continue
        _, i = min(below)
        used.add(i)
        stripe = stripes[i]
        cards.append(Card(band.x0 + bleed, band.top + bleed, band.x1 - bleed, stripe.bottom - bleed, band.bottom))
    if len(used) != len(stripes):
        problems.append(f"{len(stripes) - len(used)} bottom stripe(s) without a top band")
    cards.sort(key=lambda c: (round(c.top, 1), c.x0))
    return cards, problems


def most_cards(paper_w: float, paper_h: float, card_w: float, card_h: float, bleed: float, borderless: bool = False) -> int:
    """How many cards fit a sheet either way up.

    Borderless: butted to the paper's edge. Otherwise n cards take n * (card + 2 bleed), and crop
    marks beyond the outer bleeds, and the 5 mm safe zone beyond the marks.
    """
    edge = 0.0 if borderless else BLEED_EDGE_MM + SAFE_ZONE_MM

    def along(length: float, card: float) -> int:
        """Cards in a row along ``length`` mm."""
        return int((length - 2 * edge) // (card + 2 * bleed) + 1e-9)

    return max(along(w, card_w) * along(h, card_h) for w, h in ((paper_w, paper_h), (paper_h, paper_w)))


def _close(a: float, b: float, tolerance: float = SIZE_TOLERANCE_MM) -> bool:
    return abs(a - b) <= tolerance


def _check_pages(drawing: PdfDrawing, params: dict) -> CheckResult:
    card_w, card_h = postcard_size_mm(params["postcard"], params["landscape"])
    bleed = params["bleed"]
    pages = 2 if params["back"] else 1
    problems = []
    if len(drawing.pages) != pages:
        problems.append(f"{len(drawing.pages)} page(s), expected {pages}")
    if params["paper"] == "none":
        # with bleed, the print-shop page: the card, its bleed and room for crop marks beyond it
        room = 2 * (bleed + BLEED_EDGE_MM) if bleed else 0.0
        want = (card_w + room, card_h + room)
        what = f"the card{' with its bleed and crop marks' if bleed else ''}"
    else:
        short, long = PAPER_SIZES_MM[params["paper"]]
        want = tuple(params["page_mm"])
        what = params["paper"]
        if sorted(want) != [short, long]:
            problems.append(f"recorded page {want[0]:g}x{want[1]:g} mm is not {params['paper']}")
    for i, page in enumerate(drawing.pages):
        if not (_close(page.width, want[0]) and _close(page.height, want[1])):
            problems.append(f"page {i + 1} is {page.width:.2f}x{page.height:.2f} mm, expected {want[0]:g}x{want[1]:g} ({what})")
    detail = "; ".join(problems) or f"{len(drawing.pages)} page(s) of {want[0]:g}x{want[1]:g} mm ({what})"
    return CheckResult("page size", not problems, detail)


def _check_cards(drawing: PdfDrawing, params: dict, found: list[list[Card]]) -> CheckResult:
    card_w, card_h = postcard_size_mm(params["postcard"], params["landscape"])
    bleed = params["bleed"]
    problems = []
    per_page = params["cards_per_page"]
    if params["paper"] != "none":
        short, long = PAPER_SIZES_MM[params["paper"]]
        fit = most_cards(short, long, card_w, card_h, bleed, params.get("borderless", False))
        if per_page != fit:
            problems.append(f"{per_page} card(s) per page recorded, but {fit} fit on {params['paper']}")
    elif per_page != 1:
        problems.append(f"{per_page} cards per page recorded for one card per page")
    for p, cards in enumerate(found):
        page = drawing.pages[p]
        where = f"page {p + 1}"
        if len(cards) != per_page:
            problems.append(f"{where}: {len(cards)} card(s), expected {per_page}")
        for card in cards:
            if not (_close(card.w, card_w) and _close(card.h, card_h)):
                problems.append(f"{where}: a card is {card.w:.2f}x{card.h:.2f} mm, expected {card_w:g}x{card_h:g}")
            if (card.x0 - bleed < -SIZE_TOLERANCE_MM or card.top - bleed < -SIZE_TOLERANCE_MM
                    or card.x1 + bleed > page.width + SIZE_TOLERANCE_MM or card.bottom + bleed > page.height + SIZE_TOLERANCE_MM):
                problems.append(f"{where}: card {card} runs off the page")
        for i, a in enumerate(cards):
            for b in cards[i + 1:]:
                # Cards stand two bleeds apart (0: they share a cut line) and never overlap.
                gap = max(b.x0 - a.x1, a.x0 - b.x1, b.top - a.bottom, a.top - b.bottom)
                if gap < 2 * bleed - SIZE_TOLERANCE_MM:
                    problems.append(f"{where}: cards {a} and {b} are {gap:.2f} mm apart, need {2 * bleed:g}")
        if cards:
            mid_x = (min(c.x0 for c in cards) + max(c.x1 for c in cards)) / 2
            mid_y = (min(c.top for c in cards) + max(c.bottom for c in cards)) / 2
            dx, dy = _back_offset(params) if p == 1 else (0.0, 0.0)  # the back moved to meet the printer
            if not (_close(mid_x, page.width / 2 + dx, 0.1) and _close(mid_y, page.height / 2 + dy, 0.1)):
                problems.append(f"{where}: the cards are not centred on the page (centre {mid_x:.2f}, {mid_y:.2f})")
    detail = "; ".join(problems) or (
        f"{per_page} card(s) of {card_w:g}x{card_h:g} mm per page, centred"
        + (f", {bleed:g} mm bleed" if bleed else "")
    )
    return CheckResult("cards", not problems, detail)


def recover_peas(page: PageDrawing, card: Card) -> list[tuple[float, float, float]]:
    """Centre x, centre y and diameter of every pea circle on a card."""
    found = []
    for curve in page.curves:
        w, h = curve.x1 - curve.x0, curve.bottom - curve.top
        cx, cy = (curve.x0 + curve.x1) / 2, (curve.top + curve.bottom) / 2
        if abs(w - h) <= ROUND_TOLERANCE_MM and w >= PEA_MIN_MM and card.holds(cx, cy):
            found.append((cx, cy, (w + h) / 2))
    return found


def pea_graph(centres: list[tuple[float, float]]) -> tuple[float, list[rules.Pos], set[frozenset[rules.Pos]], list[str]]:
    """Pitch, lattice positions and neighbour pairs rebuilt from pea centres alone, with any oddity."""
    problems: list[str] = []
    if len(centres) < 2:
        return 0.0, [], set(), ["fewer than 2 peas"]
    pairs = [
        (math.dist(centres[i], centres[j]), i, j) for i in range(len(centres)) for j in range(i + 1, len(centres))
    ]
    pitch = min(d for d, _, _ in pairs)
    if pitch < PEA_MIN_MM:
        return pitch, [], set(), [f"two peas overlap ({pitch:.2f} mm apart)"]
    x0 = min(x for x, _ in centres)
    y0 = min(y for _, y in centres)
    positions = []
    for x, y in centres:
        col, row = round((x - x0) / pitch), round((y - y0) / pitch)
        if not (_close(x - x0, col * pitch) and _close(y - y0, row * pitch)):
            problems.append(f"a pea at ({x:.2f}, {y:.2f}) is off the {pitch:.2f} mm lattice")
        positions.append((row, col))
    if len(set(positions)) != len(positions):
        problems.append("two peas at the same place")
    edges = set()
    for d, i, j in pairs:
        if d <= pitch * NEIGHBOUR_FACTOR:
            (xa, ya), (xb, yb) = centres[i], centres[j]
            if not (_close(d, pitch) and (_close(xa, xb) or _close(ya, yb))):
                problems.append(f"peas at ({xa:.1f}, {ya:.1f}) and ({xb:.1f}, {yb:.1f}) are {d:.2f} mm apart, not in line at the pitch")
            edges.add(frozenset((positions[i], positions[j])))
    return pitch, positions, edges, problems


def _names(peas) -> str:
    return ", ".join(rules.pea_name(p) for p in sorted(peas)[:6]) + (" …" if len(peas) > 6 else "")


def _check_peas(drawing: PdfDrawing, params: dict, layout: rules.Layout, cards: list[Card]) -> CheckResult:
    page = drawing.pages[0]
    expected_edges = rules.edges(layout)
    problems = []
    pitch = 0.0
    for n, card in enumerate(cards):
        where = f"card {n + 1}"
        peas = recover_peas(page, card)
        wrong = sorted({round(d, 2) for _, _, d in peas if not _close(d, params["pea_mm"])})
        if wrong:
            problems.append(f"{where}: peas of {', '.join(f'{d:g}' for d in wrong)} mm, expected {params['pea_mm']:g} mm")
        for x, y, d in peas:
            r = d / 2
            if not card.holds(x, y, SAFE_EDGE_MM + r) or y - r < card.band_bottom:
                problems.append(f"{where}: a pea at ({x:.1f}, {y:.1f}) is too close to the edge or on the band")
        if len(peas) != len(layout):
            problems.append(f"{where}: {len(peas)} peas drawn, the layout has {len(layout)}")
        pitch, positions, edges, odd = pea_graph([(x, y) for x, y, _ in peas])
        problems += [f"{where}: {o}" for o in odd]
        drawn = frozenset(positions)
        if positions and drawn != layout.peas:
            missing, extra = layout.peas - drawn, drawn - layout.peas
            problems.append(
                f"{where}: the peas do not match the layout"
                + (f"; missing {_names(missing)}" if missing else "")
                + (f"; not in the layout {_names(extra)}" if extra else "")
            )
        elif positions and edges != expected_edges:
            problems.append(f"{where}: {len(edges)} neighbour pairs drawn, the layout has {len(expected_edges)}")
        if positions and not _close(pitch, params["pitch_mm"]):
            problems.append(f"{where}: pea pitch {pitch:.3f} mm, expected {params['pitch_mm']:g} mm")
    detail = "; ".join(problems[:6]) or (
        f"{len(cards)} card(s), each {len(layout)} peas of {params['pea_mm']:g} mm at a {pitch:.2f} mm pitch, "
        f"{len(expected_edges)} neighbour pairs as in the layout"
    )
    return CheckResult("peas", not problems, detail)


def card_text(page: PageDrawing, card: Card) -> str:
    """The words inside a card, in drawing order, joined by single spaces."""
    return " ".join(
        w.text for w in page.words if card.holds((w.x0 + w.x1) / 2, (w.top + w.bottom) / 2)
    )


def _layout_expectation(params: dict, layout: rules.Layout) -> tuple[list[str], float]:
    name = params["layout_name"]
    lang = lang_of(params)
    if name == rules.DEFAULT_LAYOUT_NAME:
        phrases = [said(lang, "Layout: printables default"), said(lang, NOT_PUBLIC)]
    elif name is not None:
        phrases = [f"{said(lang, 'Layout:')} {said(lang, name)}"]
    else:
        phrases = [said(lang, "Layout:")]
    return phrases, expected_smushed(layout, name)


def _check_text(drawing: PdfDrawing, params: dict, layout: rules.Layout, cards: list[Card]) -> CheckResult:
    page = drawing.pages[0]
    phrases, mean = _layout_expectation(params, layout)
    number = rules.difficulty_text(mean).rsplit(" ", 1)[1]
    lang = lang_of(params)
    smushed = said(lang, "Smushed peas")
    problems = []
    if not _close(params["expected_smushed"], mean, 0.005):
        problems.append(f"recorded difficulty {params['expected_smushed']} is not the measured {mean}")
    for n, card in enumerate(cards):
        where = f"card {n + 1}"
        text = card_text(page, card)
        for phrase in [said(lang, "Breakfast Shy"), smushed, said(lang, SUMMARY_PHRASE)] + phrases:
            if phrase.lower() not in text.lower():
                problems.append(f"{where}: no {phrase!r}")
        stated = re.findall(said_regex(lang, "expected smushed peas about {n}", n=r"([0-9]+(?:\.[0-9])?)"), text)
        if stated != [number]:
            problems.append(f"{where}: difficulty says {stated or 'nothing'}, the rule core measures about {number}")
        tally = [
            b for b in page.boxes
            if b.stroke and not b.fill and card.holds(b.x0, b.top) and card.holds(b.x1, b.bottom)
            and any(w.text == smushed.split()[0] and b.x0 < w.x0 and w.x1 < b.x1 and b.top < w.top and w.bottom < b.bottom for w in page.words)
        ]
        if not tally:
            problems.append(f"{where}: no box around {smushed!r} to tally in")
    detail = "; ".join(problems[:6]) or (
        f"title, tally box, rules, {phrases[0]!r} and 'expected smushed peas about {number}' on {len(cards)} card(s)"
    )
    return CheckResult("card text", not problems, detail)


def _bar_in(card: Card, segments: tuple[Segment, ...]) -> bool:
    return any(
        _close(s.length, SCALE_BAR_MM) and _close(s.top, s.bottom, 0.01) and card.holds((s.x0 + s.x1) / 2, s.top)
        for s in segments
    )


def _check_scale(drawing: PdfDrawing, params: dict, found: list[list[Card]]) -> list[CheckResult]:
    caption = said(lang_of(params), SCALE_CAPTION)
    problems = []
    for p, cards in enumerate(found):
        page = drawing.pages[p]
        for n, card in enumerate(cards):
            if not _bar_in(card, page.segments):
                problems.append(f"page {p + 1} card {n + 1}: no {SCALE_BAR_MM:g} mm scale bar")
            if caption not in card_text(page, card):
                problems.append(f"page {p + 1} card {n + 1}: no {caption!r}")
    results = [
        CheckResult("scale bar", not problems, "; ".join(problems[:6]) or f"a {SCALE_BAR_MM:g} mm bar and its caption on every card face")
    ]
    if params["page_ruler"]:
        results.append(check_ruler(drawing))
    return results


def _is_mark(s: Segment) -> bool:
    axis = _close(s.x0, s.x1, 0.01) or _close(s.top, s.bottom, 0.01)
    return axis and _close(s.length, MARK_LENGTH_MM) and s.width <= 0.3


def _inside_any(x: float, y: float, cards: list[Card], bleed: float) -> bool:
    return any(
        c.x0 - bleed + SIZE_TOLERANCE_MM < x < c.x1 + bleed - SIZE_TOLERANCE_MM
        and c.top - bleed + SIZE_TOLERANCE_MM < y < c.bottom + bleed - SIZE_TOLERANCE_MM
        for c in cards
    )


def _check_marks(drawing: PdfDrawing, params: dict, found: list[list[Card]]) -> CheckResult:
    bleed = params["bleed"]
    if params["paper"] == "none" and not bleed:  # with bleed the print-shop page has marks around the card
        return CheckResult("crop marks", True, "one card per page: the page is the card")
    problems = []
    total = 0
    for p, cards in enumerate(found):
        page = drawing.pages[p]
        if not cards:
            continue
        marks = [s for s in page.segments if _is_mark(s) and not _inside_any((s.x0 + s.x1) / 2, (s.top + s.bottom) / 2, cards, bleed)]
        intruders = [s for s in page.segments if _is_mark(s) and _inside_any((s.x0 + s.x1) / 2, (s.top + s.bottom) / 2, cards, bleed)]
        total += len(marks)
        left, right = min(c.x0 for c in cards), max(c.x1 for c in cards)
        top, bottom = min(c.top for c in cards), max(c.bottom for c in cards)
        if intruders:
            problems.append(f"page {p + 1}: {len(intruders)} mark(s) inside a card")
        xs = sorted({round(v, 2) for c in cards for v in (c.x0, c.x1)})
        ys = sorted({round(v, 2) for c in cards for v in (c.top, c.bottom)})
        for x in xs:
            if x < PAPER_EDGE_MM or x > page.width - PAPER_EDGE_MM:
                continue
            on = [m for m in marks if _close(m.x0, x) and _close(m.x1, x)]
            if not any(m.top <= top + SIZE_TOLERANCE_MM for m in on) or not any(m.bottom >= bottom - SIZE_TOLERANCE_MM for m in on):
                problems.append(f"page {p + 1}: the cut at x = {x:.2f} mm lacks a mark at an end")
        for y in ys:
            if y < PAPER_EDGE_MM or y > page.height - PAPER_EDGE_MM:
                continue
            on = [m for m in marks if _close(m.top, y) and _close(m.bottom, y)]
            if not any(m.x0 <= left + SIZE_TOLERANCE_MM for m in on) or not any(m.x1 >= right - SIZE_TOLERANCE_MM for m in on):
                problems.append(f"page {p + 1}: the cut at y = {y:.2f} mm lacks a mark at an end")
    detail = "; ".join(problems[:6]) or f"{total} crop mark(s), at both ends of every cut line, none inside a card"
    return CheckResult("crop marks", not problems, detail)


def _back_offset(params: dict) -> tuple[float, float]:
    """The back offset the file records (mm, right and down as the back is seen); (0, 0) if unreadable."""
    offset = params.get("back_offset_mm", [0.0, 0.0])
    if (not isinstance(offset, list) or len(offset) != 2 or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in offset)
            or any(not abs(v) <= MAX_BACK_OFFSET_MM for v in offset)):
        return (0.0, 0.0)
    return (float(offset[0]), float(offset[1]))


def _check_back(drawing: PdfDrawing, params: dict, found: list[list[Card]]) -> CheckResult:
    if not params["back"]:
        ok = len(drawing.pages) == 1
        return CheckResult("back", ok, "no back page" if ok else f"{len(drawing.pages)} pages but no back asked for")
    if len(found) < 2:
        return CheckResult("back", False, "no back page")
    page = drawing.pages[1]
    fronts, backs = found[0], found[1]
    # Flipped on the long edge: a portrait sheet mirrors left and right, a landscape one top and bottom.
    # The back offset the file records (mm, right and down as the back is seen) moves every back to
    # meet a printer that shifts the back side; the check expects the backs there.
    problems = []
    offset = params.get("back_offset_mm", [0.0, 0.0])
    if _back_offset(params) != tuple(offset):
        problems.append(f"unreadable back offset {offset!r} (two numbers in mm, each within {MAX_BACK_OFFSET_MM:g})")
    dx, dy = _back_offset(params)
    if page.width <= page.height:
        mirrored = [(page.width - c.x1 + dx, c.top + dy) for c in fronts]
    else:
        mirrored = [(c.x0 + dx, page.height - c.bottom + dy) for c in fronts]
    places = sorted((round(c.x0, 1), round(c.top, 1)) for c in backs)
    shifted = f" moved by the recorded back offset {dx:g},{dy:g} mm" if (dx, dy) != (0.0, 0.0) else ""
    if len(backs) != len(fronts) or any(
        not (_close(a[0], b[0], 0.1) and _close(a[1], b[1], 0.1)) for a, b in zip(sorted(mirrored), places)
    ):
        problems.append(f"the backs at {places} do not line up with the fronts flipped on the long edge{shifted}")
    for n, card in enumerate(backs):
        text = card_text(page, card)
        missing = [p for p in (said(lang_of(params), phrase) for phrase in BACK_PHRASES) if p not in text]
        if missing:
            problems.append(f"back {n + 1}: no {', '.join(repr(m) for m in missing)}")
    detail = "; ".join(problems[:6]) or f"{len(backs)} back(s) with the full rules, lined up for long-edge duplex{shifted}"
    return CheckResult("back", not problems, detail)


def _check_layout(params: dict) -> tuple[CheckResult, rules.Layout | None]:
    try:
        layout = rules.Layout.parse(params["layout"]).normalised()
    except rules.LayoutError as error:
        return CheckResult("layout", False, f"recorded layout is not a layout: {error}"), None
    name = params["layout_name"]
    if name is not None:
        if name not in rules.LAYOUTS:
            return CheckResult("layout", False, f"recorded preset {name!r} is not one of the rule core's"), None
        if rules.LAYOUTS[name].normalised() != layout:
            return CheckResult("layout", False, f"recorded layout {layout} is not the rule core's {name!r}"), None
    return CheckResult("layout", True, f"{name or 'own'}: {layout} ({len(layout)} peas)"), layout


def _check_safe_zone(drawing: PdfDrawing, params: dict, found: list[list[Card]]) -> CheckResult:
    """A home-printed sheet inks nothing within 5 mm of the paper's edge; on every card, text and
    drawings stand 4 mm inside the trim (the band and stripe may run to it). A borderless sheet is
    exempt from the first, as its parameters say."""
    problems = []
    if params["paper"] != "none" and not params.get("borderless", False):
        for p, page in enumerate(drawing.pages):
            near = objects_near_edge(page, SAFE_ZONE_MM, background=(BAND_RGB,))
            problems += [f"page {p + 1}: {n}" for n in near[:3]]
            for card in found[p]:
                bleed = params["bleed"]
                d = min(card.x0 - bleed, card.top - bleed, page.width - card.x1 - bleed, page.height - card.bottom - bleed)
                if d < SAFE_ZONE_MM - SIZE_TOLERANCE_MM:
                    problems.append(f"page {p + 1}: card {card} is {d:.1f} mm from the paper's edge")
    for p, page in enumerate(drawing.pages):
        for n, card in enumerate(found[p]):
            inside = [w for w in page.words if card.holds((w.x0 + w.x1) / 2, (w.top + w.bottom) / 2)]
            for w in inside:
                d = min(w.x0 - card.x0, w.top - card.top, card.x1 - w.x1, card.bottom - w.bottom)
                if d < TRIM_SAFE_MM - SIZE_TOLERANCE_MM:
                    problems.append(f"page {p + 1} card {n + 1}: the word {w.text!r} is {d:.1f} mm inside the trim")
                    break
            for c in page.curves:
                if card.holds((c.x0 + c.x1) / 2, (c.top + c.bottom) / 2):
                    d = min(c.x0 - card.x0, c.top - card.top, card.x1 - c.x1, card.bottom - c.bottom)
                    if d < TRIM_SAFE_MM - SIZE_TOLERANCE_MM:
                        problems.append(f"page {p + 1} card {n + 1}: a circle {d:.1f} mm inside the trim")
                        break
    if params["paper"] == "none":
        what = f"text and drawings {TRIM_SAFE_MM:g} mm inside the trim"
    elif params.get("borderless", False):
        what = f"borderless sheet (as recorded): cards reach the paper's edge; text and drawings {TRIM_SAFE_MM:g} mm inside the trim"
    else:
        what = f"nothing but paper within {SAFE_ZONE_MM:g} mm of the edge; text and drawings {TRIM_SAFE_MM:g} mm inside the trim"
    return CheckResult("safe zone", not problems, "; ".join(problems[:6]) or what)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _check_rules_text(drawing: PdfDrawing, params: dict, found: list[list[Card]]) -> CheckResult:
    """The front's short rules on every card, and every paragraph of the full rules on every back,
    word for word in the card's language (the words read in drawing order)."""
    lang = lang_of(params)
    problems = []
    summary = _flat(said(lang, rules.CARD_SUMMARY))
    for n, card in enumerate(found[0] if found else []):
        if summary not in _flat(card_text(drawing.pages[0], card)):
            problems.append(f"card {n + 1}: the rules on the front are missing or altered")
    if params["back"] and len(found) > 1:
        for n, card in enumerate(found[1]):
            text = _flat(card_text(drawing.pages[1], card))
            bad = [said(lang, head) for head, body in rules.FULL_RULES
                   if _flat(said(lang, head)) not in text or _flat(said(lang, body)) not in text]
            if bad:
                problems.append(f"back {n + 1}: the rules under {', '.join(repr(b) for b in bad)} are missing or altered")
    sides = "front and back" if params["back"] else "front"
    return CheckResult("rules text", not problems, "; ".join(problems[:6]) or f"the rules on the {sides} of every card, word for word")


def check_peas(drawing: PdfDrawing) -> list[CheckResult]:
    """All checks of a Breakfast Shy postcard PDF."""
    params = drawing.parameters()
    results = [check_subject_keys(params, SUBJECT_KEYS | (LANG_KEY & set(params))), _check_pages(drawing, params),
               check_print_scaling(drawing)]
    layout_result, layout = _check_layout(params)
    results.append(layout_result)
    found, unmatched = [], []
    for p, page in enumerate(drawing.pages):
        cards, odd = find_cards(page, params["bleed"])
        found.append(cards)
        unmatched += [f"page {p + 1}: {o}" for o in odd]
    cards_result = _check_cards(drawing, params, found)
    if unmatched:
        cards_result = CheckResult("cards", False, "; ".join(unmatched + ([cards_result.detail] if not cards_result.ok else [])))
    results.append(cards_result)
    if layout is not None:
        results.append(_check_peas(drawing, params, layout, found[0]))
        results.append(_check_text(drawing, params, layout, found[0]))
    results += _check_scale(drawing, params, found)
    results.append(_check_marks(drawing, params, found))
    results.append(_check_safe_zone(drawing, params, found))
    results.append(check_publisher_box(drawing, GAME_FACTS["peas"], pages=[0]))
    results.append(_check_back(drawing, params, found))
    results.append(_check_rules_text(drawing, params, found))
    return results
