"""Every sheet command over paper, orientation, per-page, language and a range of sizes: each run
either writes a PDF that passes its own ``printables check``, or is refused with exit 2 in one line
and writes nothing. A build that exits 0 with a file failing its check is the bug this hunts.

The commands run in this process (click's CliRunner) and the check reads the file back with the same
code as ``printables check``. The sweep is hypothesis-driven and derandomized (the same examples
every run); ``PRINTABLES_SWEEP_EXAMPLES`` raises its number of examples per command for a longer hunt.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from printables.check.dispatch import check_file
from printables.cli import main

EXAMPLES = int(os.environ.get("PRINTABLES_SWEEP_EXAMPLES", "60"))
SWEEP = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow])
LANGS = ("en", "ko", "tr")
PAPERS = ("a4", "letter", "a5")


def built_or_refused(args: list[str]) -> str:
    """Run ``printables <args> -o FILE``: '' when the file passes every check or the command refused
    in one line with exit 2 and wrote nothing; otherwise what went wrong."""
    with tempfile.TemporaryDirectory(prefix="printables-sweep-") as folder:
        out = Path(folder) / "sheet.pdf"
        result = CliRunner().invoke(main, [*args, "-o", str(out)])
        if result.exit_code == 2:
            lines = result.output.strip().splitlines()
            if len(lines) != 1 or not lines[0].startswith("Error: "):
                return f"refused, but not in one 'Error: ' line: {result.output!r}"
            if list(Path(folder).iterdir()):
                return f"refused, but left {[p.name for p in Path(folder).iterdir()]}"
            return ""
        if result.exit_code != 0:
            return f"exit {result.exit_code}: {result.output.strip()[-500:]}"
        failed = [f"{r.name}: {r.detail}" for r in check_file(out) if not r.ok]
        return f"exit 0 but its check fails: {failed}" if failed else ""


def _common(paper=st.sampled_from(PAPERS)):
    return st.tuples(paper, st.booleans(), st.sampled_from(LANGS))


def _paper_args(paper: str, landscape: bool, lang: str) -> list[str]:
    return ["--paper", paper, *(["--landscape"] if landscape else []), "--lang", lang]


@st.composite
def minefield_args(draw) -> list[str]:
    paper, landscape, lang = draw(_common())
    args = ["minefield", "--size", str(draw(st.integers(2, 30))), "--per-page", str(draw(st.integers(1, 16)))]
    if draw(st.booleans()):
        args += ["--cell", str(draw(st.sampled_from([6, 6.5, 8, 10.5, 12, 17.5, 22, 30, 40])))]
    return args + _paper_args(paper, landscape, lang)


@st.composite
def harvest_args(draw) -> list[str]:
    paper, landscape, lang = draw(_common())
    width, height = draw(st.integers(3, 30)), draw(st.integers(3, 30))
    args = ["harvest", "--grid", f"{width}x{height}", "--players", str(draw(st.integers(2, 12))),
            "--per-page", str(draw(st.integers(1, 6)))]
    if draw(st.booleans()):
        args += ["--cell", str(draw(st.sampled_from([5, 6.5, 8, 10, 12.5, 15, 20])))]
    return args + _paper_args(paper, landscape, lang)


@st.composite
def peas_args(draw) -> list[str]:
    lang = draw(st.sampled_from(LANGS))
    if draw(st.booleans()):
        shape = ["--rows", str(draw(st.integers(1, 12))), "--cols", str(draw(st.integers(1, 12)))]
    else:
        shape = ["--layout", draw(st.sampled_from(["default", "easy", "pod", "heart", "ooo/o.o/ooo", "o"]))]
    args = ["peas", *shape, "--postcard", draw(st.sampled_from(["a6", "4x6"])),
            draw(st.sampled_from(["--landscape", "--portrait"])), "--paper", draw(st.sampled_from(["none", "a4", "letter"])),
            "--bleed", draw(st.sampled_from(["0", "3"])), "--lang", lang]
    if draw(st.booleans()):
        args += ["--pea", str(draw(st.sampled_from([10, 12, 14, 17.5, 20])))]
    if draw(st.booleans()):
        args.append("--back")
    if draw(st.booleans()):
        args.append("--borderless")
    return args


@st.composite
def patchwork_args(draw) -> list[str]:
    args = ["patchwork", "--part", draw(st.sampled_from(["patches", "quilts", "track", "extras", "all"])),
            "--paper", draw(st.sampled_from(PAPERS)), "--leather", draw(st.sampled_from(["classic", "revised"])),
            "--ink", draw(st.sampled_from(["full", "low"])), "--lang", draw(st.sampled_from(LANGS))]
    if draw(st.booleans()):
        args += ["--cell", str(draw(st.sampled_from([10, 12.5, 15, 17, 20, 25, 30])))]
    return args


# --------------------------------------------------------------------------- what the sweep found


@pytest.mark.parametrize("size, per_page, lang", [
    *((size, 2, "en") for size in range(2, 8)), (2, 4, "en"), (3, 4, "en"), (2, 6, "en"), (2, 2, "tr"),
])
def test_minefield_on_a5_with_several_boards_keeps_its_subtitle_off_the_margin(size, per_page, lang):
    # These built with exit 0 and failed their own safe-zone check: the subtitle ran to 146 mm of 148.
    assert built_or_refused(["minefield", "--size", str(size), "--paper", "a5", "--per-page", str(per_page),
                             "--lang", lang]) == ""


def test_peas_tally_caption_stays_clear_of_the_score_box_on_a_narrow_column():
    # The sweep's find: in Turkish, on a portrait card with a 4-pea-wide layout, the caption ran under
    # the score box, and the check's visible-text test failed two of its letters.
    assert built_or_refused(["peas", "--rows", "7", "--cols", "4", "--postcard", "a6", "--portrait",
                             "--paper", "letter", "--bleed", "3", "--lang", "tr", "--back"]) == ""


# --------------------------------------------------------------------------- the sweep


@pytest.mark.slow
@pytest.mark.parametrize("strategy", [minefield_args, harvest_args, peas_args, patchwork_args],
                         ids=lambda s: s.__name__.removesuffix("_args"))
def test_every_sheet_passes_its_check_or_is_refused_in_one_line(strategy):
    @SWEEP
    @given(args=strategy())
    def sweep(args):
        problem = built_or_refused(args)
        assert problem == "", f"printables {' '.join(args)}: {problem}"

    sweep()
