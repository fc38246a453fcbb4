"""Read a produced PDF back: page sizes, metadata and the drawing's rectangles, lines and words, in mm."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from pypdf import PdfReader

from printables.check.language import CALIBRATION, lang_of, said, said_regex
from printables.check.parsing import open_pdf
from printables.check.results import CheckResult
from printables.paper import PAPER_SIZES_MM, pt_to_mm

SIZE_TOLERANCE_MM = 0.05
# A damaged PDF is reported as a failed check; pypdf's own warnings would only repeat it.
logging.getLogger("pypdf").setLevel(logging.ERROR)


@dataclass(frozen=True)
class Box:
    """A rectangle read from the PDF, in mm from the page's top-left corner."""

    x0: float
    top: float
    x1: float
    bottom: float
    fill: bool
    stroke: bool
    fill_colour: tuple = ()

    @property
    def w(self) -> float:
        """Width in mm."""
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        """Height in mm."""
        return self.bottom - self.top


@dataclass(frozen=True)
class Segment:
    """A straight line read from the PDF, in mm."""

    x0: float
    top: float
    x1: float
    bottom: float
    width: float

    @property
    def length(self) -> float:
        """Length in mm."""
        return ((self.x1 - self.x0) ** 2 + (self.bottom - self.top) ** 2) ** 0.5


@dataclass(frozen=True)
class Word:
    """A word of text and where it stands, in mm."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float


@dataclass(frozen=True)
class Curve:
    """A curved path (circles are drawn as Bézier curves) by its bounding box in mm."""

    x0: float
    top: float
    x1: float
    bottom: float
    fill: bool
    fill_colour: tuple = ()


@dataclass(frozen=True)
class PageDrawing:
    """What one page draws, in mm."""

    width: float
    height: float
    boxes: tuple[Box, ...]
    segments: tuple[Segment, ...]
    words: tuple[Word, ...]
    curves: tuple[Curve, ...]
    text: str
    user_unit: float = 1.0  # /UserUnit: a viewer scales the whole page by this (1 = 1/72 inch)


@dataclass(frozen=True)
class PdfDrawing:
    """A PDF read back: metadata and pages."""

    path: Path
    title: str
    subject: str
    keywords: str
    creator: str
    print_scaling: str | None
    pages: tuple[PageDrawing, ...]
    # The pages as read, each once and in file order (``pages`` repeats a page the page tree lists
    # twice), and their objects as read (check/pages.py: characters, rectangles, lines, curves), so
    # that the checks needing more than this drawing use the same reading instead of opening the file again.
    read_pages: tuple[PageDrawing, ...] = field(default=(), compare=False, repr=False)
    page_data: tuple = field(default=(), compare=False, repr=False)

    @property
    def kind(self) -> str | None:
        """The printable kind named in the keywords (``printables:KIND``), if any."""
        for word in self.keywords.split():
            if word.startswith("printables:"):
                return word.split(":", 1)[1]
        return None

    def parameters(self) -> dict:
        """The parameters recorded in the subject as JSON."""
        return json.loads(self.subject)


def _colour(value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, (int, float)):
        return (float(value),)
    return tuple(float(v) for v in value)


def read_metadata(path: Path) -> dict:
    """Title, subject, keywords and creator of a PDF (pypdf), without reading its drawing."""
    reader = PdfReader(str(path))
    info = reader.metadata or {}
    return {key: str(info.get(f"/{key.capitalize()}", "") or "") for key in ("title", "subject", "keywords", "creator")}


def read_pdf(path: Path | str, pdf=None, reader=None) -> PdfDrawing:
    """Read a PDF's metadata (pypdf) and its drawing (check/pages.py, through pypdfium2), in mm.

    ``pdf`` (``open_pdf``'s pages) and ``reader`` (pypdf), when given, are the file already open, so
    that every check of a file reads its pages once (``check/dispatch.py``).
    """
    path = Path(path)
    reader = reader if reader is not None else PdfReader(str(path))
    if pdf is None:
        with open_pdf(path, reader) as opened:
            return read_pdf(path, opened, reader)
    info = reader.metadata or {}
    prefs = reader.trailer["/Root"].get("/ViewerPreferences")
    scaling = None
    if prefs is not None:
        prefs = prefs.get_object()
        scaling = str(prefs.get("/PrintScaling")).lstrip("/") if "/PrintScaling" in prefs else None
    pages = []
    user_units = [float(page.get("/UserUnit", 1.0)) for page in reader.pages]
    for index, page in enumerate(pdf.pages):
        if index >= len(reader.pages):
            break
        mm = pt_to_mm
        boxes = tuple(
            Box(mm(r["x0"]), mm(r["top"]), mm(r["x1"]), mm(r["bottom"]), bool(r.get("fill")), bool(r.get("stroke")),
                _colour(r.get("non_stroking_color")))
            for r in page.rects
        )
        segments = tuple(
            Segment(mm(l["x0"]), mm(l["top"]), mm(l["x1"]), mm(l["bottom"]), mm(l.get("linewidth", 0) or 0))
            for l in page.lines
        )
        words = tuple(
            Word(w["text"], mm(w["x0"]), mm(w["top"]), mm(w["x1"]), mm(w["bottom"]))
            for w in page.extract_words(keep_blank_chars=False, use_text_flow=True)
        )
        curves = tuple(
            Curve(mm(c["x0"]), mm(c["top"]), mm(c["x1"]), mm(c["bottom"]), bool(c.get("fill")), _colour(c.get("non_stroking_color")))
            for c in page.curves
        )
        pages.append(
            PageDrawing(mm(page.width), mm(page.height), boxes, segments, words, curves, page.extract_text() or "",
                        user_units[index] if index < len(user_units) else 1.0)
        )
    # A page that the page tree lists twice is read once; a printer prints it twice.
    read_pages = tuple(pages)
    by_id = {page.page_id: drawn for page, drawn in zip(pdf.pages, pages)}
    ids = [getattr(page.indirect_reference, "idnum", None) for page in reader.pages]
    if len(pages) != len(ids) and all(i in by_id for i in ids):
        pages = [by_id[i] for i in ids]
    return PdfDrawing(
        path,
        str(info.get("/Title", "") or ""),
        str(info.get("/Subject", "") or ""),
        str(info.get("/Keywords", "") or ""),
        str(info.get("/Creator", "") or ""),
        scaling,
        tuple(pages),
        read_pages,
        tuple(pdf.pages[:len(read_pages)]),
    )


def check_page_size(drawing: PdfDrawing, paper: str, landscape: bool) -> CheckResult:
    """Every page is exactly the named paper size (within 0.05 mm)."""
    w, h = PAPER_SIZES_MM[paper]
    if landscape:
        w, h = h, w
    bad = [
        f"page {i + 1} is {p.width * p.user_unit:.2f}x{p.height * p.user_unit:.2f} mm"
        for i, p in enumerate(drawing.pages)
        if abs(p.width * p.user_unit - w) > SIZE_TOLERANCE_MM or abs(p.height * p.user_unit - h) > SIZE_TOLERANCE_MM
    ]
    return CheckResult("page size", not bad, "; ".join(bad) if bad else f"{len(drawing.pages)} page(s) of {w:g}x{h:g} mm ({paper})")


def check_user_unit(drawing: PdfDrawing) -> CheckResult:
    """No page sets /UserUnit: a viewer would scale it, so nothing would print at its stated size."""
    bad = [f"page {i + 1} has /UserUnit {p.user_unit:g}" for i, p in enumerate(drawing.pages) if p.user_unit != 1.0]
    return CheckResult("user unit", not bad, "; ".join(bad) + " (a viewer scales the page by it; expected 1)" if bad
                       else "1 on every page (sizes are true)")


def check_page_count(drawing: PdfDrawing, expected: int) -> CheckResult:
    """The sheet has exactly the pages it should (a duplicated or lost page fails)."""
    ok = len(drawing.pages) == expected
    return CheckResult("pages", ok, f"{len(drawing.pages)} page(s)" + ("" if ok else f", expected {expected}"))


def check_subject_keys(params: dict, expected: set[str]) -> CheckResult:
    """The parameters recorded in the subject are exactly the expected keys (none added, none lost)."""
    extra = sorted(set(params) - expected)
    missing = sorted(expected - set(params))
    problems = ([f"unexpected key(s) {', '.join(map(repr, extra))}"] if extra else []) + (
        [f"missing key(s) {', '.join(map(repr, missing))}"] if missing else [])
    return CheckResult("recorded parameters", not problems, "; ".join(problems) or f"{len(expected)} keys")


def words_missing(page: PageDrawing, texts: list[str]) -> list[str]:
    """Which of ``texts`` are not wholly on the page, counting words (so wrapping and order do not matter).

    Each text's words must be on the page as many times as all the texts use them together.
    """
    from collections import Counter

    have = Counter(w.text for w in page.words)
    need: Counter = Counter()
    for text in texts:
        need.update(text.split())
    short = {word for word, n in need.items() if have[word] < n}
    return [text for text in texts if short & set(text.split())]


def text_missing(page: PageDrawing, texts: list[str]) -> list[str]:
    """Which of ``texts`` do not stand on the page word for word, in order (line breaks count as spaces)."""
    flowing = " ".join(page.text.split())
    return [text for text in texts if " ".join(text.split()) not in flowing]


def column_letters(index: int) -> str:
    """The column label a sheet prints: 0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index > 0:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def check_print_scaling(drawing: PdfDrawing) -> CheckResult:
    """The PDF asks viewers not to scale when printing."""
    ok = drawing.print_scaling == "None"
    if ok:
        return CheckResult("print scaling", True, "PrintScaling is /None (viewers print at actual size)")
    found = "missing" if drawing.print_scaling is None else f"/{drawing.print_scaling}"
    return CheckResult("print scaling", False, f"PrintScaling is {found}, expected /None (viewers would scale the page)")


def check_ruler(drawing: PdfDrawing) -> CheckResult:
    """Every page carries a 100 mm calibration line and the words 'print at 100 % / actual size'."""
    try:
        caption = said(lang_of(drawing.parameters()), CALIBRATION)
    except (ValueError, AttributeError):  # no parameters recorded: an English sheet
        caption = CALIBRATION
    problems = []
    for i, page in enumerate(drawing.pages):
        has_line = any(
            abs(s.length - 100.0) <= SIZE_TOLERANCE_MM and abs(s.top - s.bottom) < 0.01 for s in page.segments
        )
        has_words = " ".join(caption.split()) in " ".join(page.text.split())
        if not has_line:
            problems.append(f"page {i + 1}: no 100 mm calibration line")
        if not has_words:
            problems.append(f"page {i + 1}: no {caption!r}")
    return CheckResult("calibration ruler", not problems, "; ".join(problems) or "100 mm line and caption on every page")


def group_touching(boxes: list[Box], tolerance: float = 0.02) -> list[list[Box]]:
    """Connected groups of equal squares that share an edge (union-find on exact neighbours)."""
    index = {}
    for i, b in enumerate(boxes):
        index[(round(b.x0 / tolerance), round(b.top / tolerance))] = i
    parent = list(range(len(boxes)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, b in enumerate(boxes):
        for dx, dy in ((b.w, 0.0), (0.0, b.h)):
            for ox in (-1, 0, 1):
                for oy in (-1, 0, 1):
                    key = (round((b.x0 + dx) / tolerance) + ox, round((b.top + dy) / tolerance) + oy)
                    j = index.get(key)
                    if j is not None and abs(boxes[j].w - b.w) < 2 * tolerance:
                        parent[find(i)] = find(j)
    groups: dict[int, list[Box]] = {}
    for i, b in enumerate(boxes):
        groups.setdefault(find(i), []).append(b)
    return sorted(groups.values(), key=lambda g: (min(b.top for b in g), min(b.x0 for b in g)))


def lattice(group: list[Box]) -> tuple[float, frozenset[tuple[int, int]]]:
    """The cell size of a group of equal squares and their (x, y) lattice cells, origin at its corner."""
    cell = sum(b.w for b in group) / len(group)
    x0 = min(b.x0 for b in group)
    y0 = min(b.top for b in group)
    return cell, frozenset((round((b.x0 - x0) / cell), round((b.top - y0) / cell)) for b in group)


PUBLISHER_HEADING = "About the game"
# Words of an unknown fact: the box leaves such a fact out instead.
UNKNOWN_PHRASES = ("not stated", "not named", "not public")
# The simulated figures' entry as a box prints it (printables.rules.facts.simulated_entry), most
# specific first: with ties, with the first player's wins, length alone.
SIMULATED_PATTERNS = (
    "{games} simulated games: {low}–{high} {unit}, median {median}; first player wins {p} %, {d} % tied",
    "{games} simulated games: {low}–{high} {unit}, median {median}; first player wins {p} %",
    "{games} simulated games: {low}–{high} {unit}, median {median}",
)


def box_parameters(kind: str, params: dict) -> dict:
    """The recorded parameters a game's simulated figures were measured for (see rules.simulation)."""
    if kind == "harvest":
        return {"grid": tuple(params["grid"]), "players": params["players"],
                "opening_coins": params["opening_coins"], "coins_per_turn": params["coins_per_turn"]}
    if kind == "minefield":
        return {"size": params["size"]}
    if kind == "patchwork":
        return {"leather": params["leather"]}
    if kind == "peas":
        return {} if params.get("layout_name") is None else {"layout": params["layout_name"]}
    raise ValueError(f"kind {kind!r}: no publisher's box")


def box_texts(page: PageDrawing, heading: str) -> list[str]:
    """The text of each publisher's box on the page, line by line in reading order: the words inside
    the smallest outlined rectangle around each ``heading``'s first word (a box standing in a narrow
    column beside a board reads apart from the row numbers). The page's text if there is no box."""
    first = heading.split()[0]
    texts = []
    for word in page.words:
        if word.text != first:
            continue
        around = [b for b in page.boxes if b.stroke and b.x0 <= word.x0 and word.x1 <= b.x1 and b.top <= word.top
                  and word.bottom <= b.bottom]
        if not around:
            continue
        box = min(around, key=lambda b: b.w * b.h)
        inside = [w for w in page.words if box.x0 <= (w.x0 + w.x1) / 2 <= box.x1 and box.top <= (w.top + w.bottom) / 2 <= box.bottom]
        inside.sort(key=lambda w: (round((w.top + w.bottom) / 2 / 1.5), w.x0))  # lines 1.5 mm apart or more
        texts.append(" ".join(w.text for w in inside))
    return texts or [page.text]


def _printed_figures(lang: str, text: str) -> set[tuple[int, ...]]:
    """The simulated figures printed in ``text``, each as (games, shortest, longest, median, first
    player's wins %, tied %), the last two -1 where not printed."""
    number = r"(\d[\d,.]*)"
    flat = " ".join(text.split())
    found = set()
    for pattern in SIMULATED_PATTERNS:
        regex = said_regex(lang, pattern, games=number, low=number, high=number, unit=r".+?", median=number,
                           p=number, d=number)
        # the field order of the pattern in this language, so the numbers are read by name
        names = [n for n in re.findall(r"\{([a-z_]+)\}", said(lang, pattern)) if n != "unit"]
        for match in list(re.finditer(regex, flat)):
            values = dict(zip(names, (int(v.replace(",", "").replace(".", "")) for v in match.groups())))
            found.add(tuple(values.get(k, -1) for k in ("games", "low", "high", "median", "p", "d")))
        flat = re.sub(regex, " ", flat)  # a longer wording read once, not again as a shorter one
    return found


def check_publisher_box(drawing: PdfDrawing, kind: str, pages: list[int] | None = None) -> CheckResult:
    """The publisher's box is on the page(s): its heading, every known fact's label and value, as
    words; no unknown fact ("not stated"); and the simulated figures exactly as stored for the
    sheet's parameters (printables/measured_facts.json), none where those were not measured.

    ``kind`` names the game; ``pages`` are page indices (default every page).
    """
    from printables.measured import facts_for, stored_measure  # the rule cores' figures: only when a box is checked
    from printables.rules.facts import percent

    params = drawing.parameters()
    try:
        lang = lang_of(params)
    except (ValueError, AttributeError):  # no parameters recorded: an English sheet
        lang = "en"
    measured_for = box_parameters(kind, params)
    cell = params.get("cell_mm") if kind == "minefield" else None
    facts = facts_for(kind, cell_mm=cell, **measured_for)
    texts = [said(lang, t) for t in [PUBLISHER_HEADING] + [f"{label}: {value}" for label, value in facts.entries()]]
    measure = stored_measure(kind, **measured_for) if measured_for else None
    want: set[tuple[int, ...]] = set()
    if measure is not None:
        two = measure.first_wins is not None
        tied = percent(measure.draws or 0.0) if two else -1
        want = {(measure.games, measure.turns_low, measure.turns_high, measure.turns_median,
                 percent(measure.first_wins) if two else -1, tied if tied else -1)}
    unknown = [said(lang, phrase) for phrase in UNKNOWN_PHRASES]
    problems = []
    for index in range(len(drawing.pages)) if pages is None else pages:
        page = drawing.pages[index]
        missing = words_missing(page, texts)
        if missing:
            problems.append(f"page {index + 1}: no {', '.join(repr(m) for m in missing[:3])}")
        flat = " ".join(page.text.split())
        problems += [f"page {index + 1}: an unknown fact ({phrase!r})" for phrase in unknown if phrase in flat]
        printed = set().union(*(_printed_figures(lang, text) for text in box_texts(page, said(lang, PUBLISHER_HEADING))))
        if printed != want:
            problems.append(f"page {index + 1}: simulated figures (games, shortest, longest, median, first player's "
                            f"wins %, tied %) {sorted(printed) or 'not printed'}, stored {sorted(want) or 'none'}")
    where = "every page" if pages is None else f"page(s) {', '.join(str(p + 1) for p in pages)}"
    figures = "the simulated figures as stored" if measure is not None else "no simulated figure (parameters not measured)"
    return CheckResult("publisher's box", not problems,
                       "; ".join(problems) or f"players, what else you need, credits and {figures} on {where}")


def objects_near_edge(page: PageDrawing, margin: float, background: tuple = ()) -> list[str]:
    """What the page inks within ``margin`` mm of the paper's edge: words, lines, curves and boxes.

    Filled boxes whose fill colour is in ``background`` (a card's bleed) are not counted.
    """

    def distance(x0: float, top: float, x1: float, bottom: float) -> float:
        return min(x0, top, page.width - x1, page.height - bottom)

    found = []
    for w in page.words:
        if distance(w.x0, w.top, w.x1, w.bottom) < margin - SIZE_TOLERANCE_MM:
            found.append(f"the word {w.text!r} {distance(w.x0, w.top, w.x1, w.bottom):.1f} mm from the edge")
    for s in page.segments:
        d = distance(min(s.x0, s.x1), min(s.top, s.bottom), max(s.x0, s.x1), max(s.top, s.bottom))
        if d < margin - SIZE_TOLERANCE_MM:
            found.append(f"a line {d:.1f} mm from the edge")
    for c in page.curves:
        if distance(c.x0, c.top, c.x1, c.bottom) < margin - SIZE_TOLERANCE_MM:
            found.append(f"a curve {distance(c.x0, c.top, c.x1, c.bottom):.1f} mm from the edge")
    for b in page.boxes:
        if b.fill and not b.stroke and any(
            len(b.fill_colour) == len(bg) and all(abs(u - v) <= 0.01 for u, v in zip(b.fill_colour, bg)) for bg in background
        ):
            continue
        if b.fill and not b.stroke and b.fill_colour in ((1.0,), (1.0, 1.0, 1.0)):
            continue  # white paint is no ink
        if distance(b.x0, b.top, b.x1, b.bottom) < margin - SIZE_TOLERANCE_MM:
            found.append(f"a box {distance(b.x0, b.top, b.x1, b.bottom):.1f} mm from the edge")
    return found
