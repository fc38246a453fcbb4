"""A digest of every page of every sheet PDF, rendered at 150 dpi: what a change to the renderer
must leave as it is.

Run: python tools/pdf_digests.py [--commit REV] [-o tests/data/pdf_digests.json] [--keep FOLDER]

The PDFs are the ones a user gets: `printables build --no-slice` of every sheet preset in
templates/, and for every Giuthi preset in models/ its rules sheet and its print card (without
slicer figures; the card needs no model), plus a rules sheet on Letter paper in Turkish. They are
made by the code of ``--commit`` (checked out in a temporary git worktree; without it, this
checkout's code) and rendered here by PDFium (pypdfium2's public API, RGB), one SHA-256 per page.
A PDF may change its bytes (how a drawing is encoded) but not its pixels:
tests/test_pdf_pixels.py makes the same PDFs with the code under test and compares. A change that
alters a drawing on purpose writes the digests again with this script (``--commit HEAD`` once it
is committed), after looking at the new pages.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]
DIGESTS = ROOT / "tests" / "data" / "pdf_digests.json"
DPI = 150

# Run in the tree whose code makes the PDFs: the Giuthi presets' rules sheets and print cards.
GIUTHI_SHEETS = r"""
import sys, tomllib
from pathlib import Path
from printables.models import model_params, seed_params_for, set_options, write_rules_sheet
from printables.render.giuthi_card import giuthi_print_card, write_print_card

out = Path(sys.argv[1])
for preset in sorted(Path("models").glob("*.toml")):
    data = tomllib.loads(preset.read_text(encoding="utf-8"))
    board = model_params(data["kind"], data["params"], str(preset))
    options = set_options(data["params"], str(preset))
    write_rules_sheet(board.pits_per_row, board.seeds_per_pit, out / f"{preset.stem}-rules.pdf",
                      options["paper"], options["lang"])
    write_print_card(giuthi_print_card(seed_params_for(board), {}, board=board), out / f"{preset.stem}-card.pdf",
                     options["lang"])
"""


def sheet_presets(tree: Path) -> list[str]:
    """The sheet presets of a checkout: its templates/ files' names."""
    return sorted(path.stem for path in (tree / "templates").glob("*.toml"))


def make_pdfs(tree: Path, out: Path, presets: list[str] | None = None, giuthi: bool = True) -> dict[str, Path]:
    """Make the PDFs with the code of ``tree`` into ``out``; returns them by name (their path under ``out``).

    ``presets`` limits the sheet presets built (all by default); ``giuthi`` adds the Giuthi sheets.
    """
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    python = [sys.executable, "-m", "printables"]
    names = sheet_presets(tree) if presets is None else presets

    def run(argv: list[str]) -> None:
        done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"{' '.join(argv)} failed in {tree} ({done.returncode}): "
                               f"{(done.stdout + done.stderr).strip()[-2000:]}")

    if names:
        run(python + ["build", "--no-slice", "-o", str(out / "build"), *names])
    if giuthi:
        (out / "giuthi").mkdir(parents=True, exist_ok=True)
        run([sys.executable, "-c", GIUTHI_SHEETS, str(out / "giuthi")])
        run(python + ["giuthi", "--rules", "--paper", "letter", "--lang", "tr", "-o",
                      str(out / "giuthi" / "rules-letter-tr.pdf")])
    return {path.relative_to(out).as_posix(): path for path in sorted(out.rglob("*.pdf"))}


def page_digests(pdf: Path) -> list[str]:
    """Each page rendered at DPI in RGB by PDFium: its size in pixels and the SHA-256 of its pixels."""
    import numpy
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        digests = []
        for index in range(len(document)):
            page = document[index]
            try:
                pixels = numpy.ascontiguousarray(page.render(scale=DPI / 72).to_numpy())
            finally:
                page.close()
            height, width = pixels.shape[:2]
            digests.append(f"{width}x{height} {hashlib.sha256(pixels.tobytes()).hexdigest()}")
        return digests
    finally:
        document.close()


def renderer_version() -> str:
    """pypdfium2's version and the PDFium build it carries: another may draw other pixels."""
    from pypdfium2.version import PDFIUM_INFO, PYPDFIUM_INFO

    return f"pypdfium2 {PYPDFIUM_INFO}, pdfium {PDFIUM_INFO}"


@contextmanager
def checkout(commit: str | None) -> Iterator[Path]:
    """This checkout (no commit), or ``commit`` in a temporary git worktree, removed afterwards."""
    if commit is None:
        yield ROOT
        return
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), commit], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            yield tree
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", help="make the PDFs with this commit's code (default: this checkout)")
    parser.add_argument("-o", "--output", type=Path, default=DIGESTS, help="the JSON file to write")
    parser.add_argument("--keep", type=Path, help="make the PDFs in this folder and keep them (to compare or look at)")
    args = parser.parse_args()
    with checkout(args.commit) as tree, tempfile.TemporaryDirectory() as tmp:
        tmp = args.keep or tmp
        described = subprocess.run(["git", "rev-parse", "--short", args.commit or "HEAD"], cwd=ROOT, check=True,
                                   capture_output=True, text=True).stdout.strip()
        pdfs = make_pdfs(tree, Path(tmp))
        table = {
            "made_by": f"python tools/pdf_digests.py --commit {described}",
            "renderer": renderer_version(),
            "dpi": DPI,
            "pages": {name: page_digests(path) for name, path in pdfs.items()},
        }
    args.output.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    pages = sum(map(len, table["pages"].values()))
    print(f"{args.output}: {len(pdfs)} PDFs, {pages} pages ({table['renderer']})")


if __name__ == "__main__":
    main()
