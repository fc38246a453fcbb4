"""Every sheet preset prints at home: margins, text sizes, the publisher's box, token sizes.

The measurements here read the PDFs back with pdfplumber on their own, independent of the
project's preflight and per-game checks, so a bug shared by those cannot hide a bad sheet.
"""

from __future__ import annotations

from pathlib import Path

import pdfplumber

from printables.i18n.books import catalogue
import pytest
from click.testing import CliRunner

from printables.cli import main
from printables.layout.primitives import Document, Page, Text
from printables.params.base import load_preset
from printables.render.pdf import render_pdf
from printables.sheets import render_sheet, sheet_params

ROOT = Path(__file__).resolve().parent.parent
PT_TO_MM = 25.4 / 72
SHEET_PRESETS = sorted(p for p in (ROOT / "templates").glob("*.toml"))
HOME_MARGIN_MM = 5.0  # nothing but background within this of a home-printed paper's edge
CARD_MARGIN_MM = 4.0  # text and drawings of a single card stay this far inside its trim
TOLERANCE_MM = 0.05


def _build(path: Path, out: Path) -> tuple[dict, Path]:
    preset = load_preset(path)
    params = sheet_params(preset.kind, preset.params, str(path))
    pdf = out / f"{path.stem}.pdf"
    pdf.write_bytes(render_sheet(preset.kind, params))
    return {"kind": preset.kind, **preset.params}, pdf


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, tuple[dict, Path]]:
    out = tmp_path_factory.mktemp("presets")
    return {path.stem: _build(path, out) for path in SHEET_PRESETS}


def _trim(page, key: str = "TrimBox") -> tuple[float, float, float, float]:
    """The trim in mm from the top-left: the TrimBox (or ``key``) if the page has one, else the page."""
    box = page.page_obj.attrs.get(key)
    if box is None:
        return 0.0, 0.0, page.width * PT_TO_MM, page.height * PT_TO_MM
    x0, y0, x1, y1 = (float(v) for v in box)
    h = float(page.page_obj.mediabox[3])
    return x0 * PT_TO_MM, (h - y1) * PT_TO_MM, x1 * PT_TO_MM, (h - y0) * PT_TO_MM


def ink_near_edges(path: Path) -> list[tuple[int, float, str]]:
    """(page, distance in mm, what) of every inked object, measured from the trim (the page, or the
    TrimBox of a print-shop file). Background does not count: a filled, unstroked rectangle that
    reaches the trim (a card's band, run into the bleed). Nor do a print-shop file's crop marks,
    hairlines wholly outside its trim, nor what stands in its slug, wholly outside the BleedBox (the
    scale bar and the version, cut away with the marks)."""
    found = []
    with pdfplumber.open(str(path)) as pdf:
        for n, page in enumerate(pdf.pages, 1):
            tx0, ty0, tx1, ty1 = _trim(page)
            bx0, by0, bx1, by1 = _trim(page, "BleedBox")

            def distance(o) -> float:
                x0, top, x1, bottom = (o["x0"] * PT_TO_MM, o["top"] * PT_TO_MM, o["x1"] * PT_TO_MM, o["bottom"] * PT_TO_MM)
                if "BleedBox" in page.page_obj.attrs and (x1 <= bx0 or x0 >= bx1 or bottom <= by0 or top >= by1):
                    return 99.0  # in the slug
                return min(x0 - tx0, top - ty0, tx1 - x1, ty1 - bottom)

            for c in page.chars:
                if c["text"].strip():
                    found.append((n, distance(c), f"text {c['text']!r}"))
            for kind in ("rects", "lines", "curves"):
                for o in getattr(page, kind):
                    d = distance(o)
                    if kind == "rects" and o.get("fill") and not o.get("stroke") and d <= 0.5:
                        continue  # background colour meant to run to (or past) the trim
                    if kind == "lines" and d < 0:
                        continue  # a crop mark outside the trim
                    found.append((n, d, kind[:-1]))
    return found


def text_sizes(path: Path) -> dict[str, float]:
    """The size in pt of every character on every page, keyed by the character's text run."""
    sizes: dict[str, float] = {}
    with pdfplumber.open(str(path)) as pdf:
        for page in pdf.pages:
            for c in page.chars:
                if c["text"].strip():
                    sizes.setdefault(c["text"], 99.0)
                    sizes[c["text"]] = min(sizes[c["text"]], round(c["size"], 2))
    return sizes


def size_of_words(path: Path, phrase: str) -> float:
    """The size in pt of the characters where ``phrase`` starts on the first page showing it."""
    with pdfplumber.open(str(path)) as pdf:
        for page in pdf.pages:
            chars = [c for c in page.chars if c["text"].strip()]
            text = "".join(c["text"] for c in chars)
            at = text.find(phrase.replace(" ", ""))
            if at < 0:
                continue
            return min(c["size"] for c in chars[at:at + len(phrase.replace(" ", ""))])
    raise AssertionError(f"{phrase!r} is on no page of {path.name}")


def _in_language(lang: str, english: str) -> str:
    """``english`` as the catalogue of ``lang`` says it; a label ("Design:") as its entries begin."""
    if lang == "en":
        return english
    book = catalogue(lang)
    if english in book.texts:
        return book.texts[english]
    return next(translation.split(":")[0] + ":" for source, translation in book.texts.items()
                if source.startswith(english) and ":" in translation)


def _single_card(params: dict) -> bool:
    return params["kind"] == "peas" and params.get("paper", "none") == "none"


# --------------------------------------------------------------------------- the measurement itself


def test_the_edge_measurement_sees_text_and_lines_in_the_margin(tmp_path):
    near = Document((Page(210.0, 297.0, (Text(3.0, 150.0, "edge", size_pt=8), Text(50.0, 150.0, "fine", size_pt=8))),),
                    "t", "{}", "printables:test")
    path = tmp_path / "near.pdf"
    path.write_bytes(render_pdf(near))
    worst = min(ink_near_edges(path), key=lambda f: f[1])
    assert worst[2] == "text 'e'" and 2.5 < worst[1] < 3.5
    assert size_of_words(path, "fine") == pytest.approx(8.0)


# --------------------------------------------------------------------------- every preset


@pytest.mark.parametrize("name", [p.stem for p in SHEET_PRESETS])
def test_nothing_but_background_in_the_margin(built, name):
    params, path = built[name]
    margin = CARD_MARGIN_MM if _single_card(params) else HOME_MARGIN_MM
    near = [(page, round(d, 2), what) for page, d, what in ink_near_edges(path) if d < margin - TOLERANCE_MM]
    assert near == [], f"{name}: within {margin:g} mm of the edge: {near[:5]}"


@pytest.mark.parametrize("name", [p.stem for p in SHEET_PRESETS])
def test_no_text_under_6_pt_and_the_body_text_readable(built, name):
    params, path = built[name]
    sizes = text_sizes(path)
    smallest = min(sizes.values())
    assert smallest >= 6.0 - 1e-6, f"{name}: text at {smallest} pt"
    body = {"harvest": "Each player picks a different pentomino", "minefield": "Black first, then alternate",
            "patchwork": "Players: 2", "peas": "Each turn roll 2 dice"}[params["kind"]]
    if params.get("lang", "en") != "en":  # the same paragraph in the sheet's language: its first words
        book = catalogue(params["lang"])
        sources = list(book.texts.items()) + [(english, translation) for _, english, translation in book.patterns]
        body = (book.lookup(body) or next(translation for english, translation in sources
                                          if english.startswith(body))).split("{")[0][:12]
    least = 7.0 if params["kind"] == "peas" else 8.0
    assert size_of_words(path, body) >= least - 1e-6


@pytest.mark.parametrize("name", [p.stem for p in SHEET_PRESETS])
def test_every_preset_has_the_publishers_box(built, name):
    params, path = built[name]
    with pdfplumber.open(str(path)) as pdf:
        pages = [" ".join((page.extract_text() or "").split()) for page in pdf.pages]
    said = [_in_language(params.get("lang", "en"), english) for english in
            ("About the game", "Players:", "You also need:")]
    for text in pages:  # an unknown fact is left out, never printed as unknown
        assert not any(catalogue(params.get("lang", "en")).phrase(words) in text for words in ("not stated", "not named"))
    carrying = [i for i, text in enumerate(pages) if all(words in text for words in said)]
    if params["kind"] == "peas":
        assert 0 in carrying  # the front of the card (a back page holds the full rules)
    else:
        assert carrying == list(range(len(pages))), f"{name}: the box is missing on some pages"


@pytest.mark.parametrize("name", [p.stem for p in SHEET_PRESETS if p.stem.startswith("patchwork")])
def test_patchwork_time_tokens_are_at_least_12_mm(built, name):
    _, path = built[name]
    with pdfplumber.open(str(path)) as pdf:
        discs = []
        for page in pdf.pages:
            labels = [w for w in page.extract_words() if w["text"] in ("P1", "P2")]
            for w in labels:
                cx, cy = (w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2
                around = [c for c in page.curves if c["x0"] < cx < c["x1"] and c["top"] < cy < c["bottom"]]
                discs.append(min((c["x1"] - c["x0"]) * PT_TO_MM for c in around))
    assert len(discs) == 4 and min(discs) >= 12.0 - TOLERANCE_MM  # P1, P2 and a spare each


# --------------------------------------------------------------------------- harvest's errors


@pytest.mark.parametrize(
    "args, says, never",
    [
        (["--grid", "60x60", "--cell", "8"], "at 8 mm cells", "7 mm"),
        (["--grid", "60x60", "--cell", "8", "--landscape"], "at 8 mm cells", "--landscape"),
        (["--grid", "90x90", "--landscape"], "at cells of at least 7 mm", "--landscape"),
    ],
)
def test_harvest_grid_errors_name_the_cell_asked_and_suggest_only_what_helps(tmp_path, args, says, never):
    result = CliRunner().invoke(main, ["harvest", *args, "-o", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2 and says in result.output and never not in result.output
    assert not (tmp_path / "x.pdf").exists()
