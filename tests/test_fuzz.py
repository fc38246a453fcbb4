"""Fuzz every command's options (issue 15): whatever a careless or hostile user types, the command
ends with exit 0, 1 or 2, never a traceback; a refusal (2) is exactly one line on stderr; and
nothing is left in the current folder but the output that was asked for.

Bounded: a fixed number of examples per command, values biased towards the invalid so that most
runs stop at validation, and Giuthi always with --show (a text game, no modelling).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from printables.cli import main

HUGE = "1" + "0" * 309

# Numbers as typed: plausible, edge, huge, negative, not finite, odd digits and plain junk.
numbers = st.one_of(
    st.integers(min_value=-3, max_value=40).map(str),
    st.floats(min_value=-5, max_value=60, allow_nan=False).map(lambda x: f"{x:.3g}"),
    st.sampled_from([
        "0", "-0", "1e-9", "1e309", "-1e309", "nan", "inf", "-inf", HUGE, "-" + HUGE, "0x10", "1_000",
        "３", "١٢", "½", "1,5", "", " ", "12 mm", "+7", ".5", "5.", "e", "--", "1e", "٣x٣",
    ]),
    st.text(max_size=12),
)
# Output paths: what was asked for lands in the cwd (checked afterwards) or is refused.
outputs = st.one_of(
    st.sampled_from([
        "-", "", " ", ".", "..", "/", "out.txt", "noext", "trailing.pdf/", "afile/out.pdf", "afile",
        "sub/dir/out.pdf", "out.PDF", ".pdf", "é.pdf", "a b.pdf", "/dev/null", "/proc/x.pdf",
        "afile/x/y.pdf", "x" * 300 + ".pdf", "nul\u0000.pdf",
    ]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20).map(lambda s: s + ".pdf"),
)
words = st.one_of(st.text(max_size=16), st.sampled_from(["a4", "letter", "a5", "a3", "A4", "none", "4x6", "x"]))


def _options(spec: dict) -> st.SearchStrategy[list[str]]:
    """Any subset of the options in ``spec`` (name -> value strategy, or None for a flag), any order."""
    def one(item):
        name, values = item
        return st.just([name]) if values is None else values.map(lambda v: [name, v])

    return st.lists(st.sampled_from(sorted(spec.items())), max_size=6, unique_by=lambda kv: kv[0]).flatmap(
        lambda chosen: st.tuples(*[one(item) for item in chosen]) if chosen else st.just(())
    ).map(lambda parts: [token for part in parts for token in part])


SHEET_OPTIONS = {
    "harvest": {
        "--grid": st.one_of(st.tuples(numbers, numbers).map(lambda wh: f"{wh[0]}x{wh[1]}"), words),
        "--players": numbers, "--cell": numbers, "--coins-per-turn": numbers, "--opening-coins": numbers,
        "--paper": words, "--landscape": None, "--per-page": numbers, "--bogus": words,
    },
    "minefield": {
        "--size": numbers, "--paper": words, "--landscape": None, "--cell": numbers, "--per-page": numbers,
    },
    "peas": {
        # Presets and broken masks only: an own valid mask is measured for seconds.
        "--layout": st.one_of(
            st.sampled_from(["default", "easy", "pod", "heart", "o", "o.o/...", "ooo/oxo", "/".join(["o" * 150] * 150),
                             "", "//", "peas"]),
            st.text(alphabet="ox./\n", max_size=6).filter(lambda t: "." in t or "x" in t or "o" not in t),
        ),
        "--rows": numbers, "--cols": numbers, "--postcard": words, "--landscape": None, "--portrait": None,
        "--paper": words, "--bleed": words, "--pea": numbers, "--back": None, "--borderless": None,
    },
    "patchwork": {
        "--part": st.one_of(st.sampled_from(["patches", "quilts", "track", "extras", "all"]), words),
        "--paper": words, "--cell": numbers, "--leather": words, "--ink": words,
    },
}
GIUTHI_OPTIONS = {
    name: numbers for name in ("--pits", "--seeds", "--pit-diameter", "--pit-length", "--pit-depth",
                               "--pit-corner", "--thickness", "--wall", "--chamfer", "--clearance",
                               "--seed-diameter", "--seed-height", "--game-seed")
} | {"--size": st.one_of(st.tuples(numbers, numbers).map(lambda wh: f"{wh[0]}x{wh[1]}"), words),
     "--screw": words, "--preset": words, "--paper": words, "--no-slice": None, "--no-previews": None,
     "-o": outputs}

FUZZ = settings(max_examples=100, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _run_in_fresh_folder(args: list[str], output: str | None):
    """Run ``printables ARGS`` in an empty folder holding one file, ``afile``; what else is there after."""
    with tempfile.TemporaryDirectory() as folder:
        here = Path(folder)
        (here / "afile").write_text("a file, not a folder")
        before = os.getcwd()
        os.chdir(here)
        try:
            result = CliRunner().invoke(main, args)
        finally:
            os.chdir(before)
        left = {str(p.relative_to(here)) for p in here.rglob("*")} - {"afile"}
        return result, left


def _assert_well_behaved(result, args):
    shown = f"printables {' '.join(map(repr, args))}\n{result.output}"
    assert result.exit_code in (0, 1, 2), shown
    assert "Traceback" not in result.output, shown
    assert "internal error" not in result.output, shown
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), shown
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), shown


def _allowed_leftovers(output: str | None, left: set[str]) -> bool:
    """Only the requested PDF (and the folders on its way) may be left; with no -o, the default."""
    if not left:
        return True
    if output is None:
        return all(p.startswith("output") for p in left)
    target = Path(os.path.normpath(output))
    allowed = {str(target)} | {str(p) for p in target.parents if str(p) != "."}
    return left <= allowed


@pytest.mark.parametrize("command", sorted(SHEET_OPTIONS))
def test_fuzz_sheet_commands(command):
    @FUZZ
    @given(options=_options(SHEET_OPTIONS[command]), output=st.one_of(st.none(), outputs))
    def fuzz(options, output):
        args = [command, *options] + ([] if output is None else ["-o", output])
        result, left = _run_in_fresh_folder(args, output)
        _assert_well_behaved(result, args)
        assert _allowed_leftovers(output, left), (args, left)

    fuzz()


def test_fuzz_giuthi_stops_at_validation_or_the_text_game():
    @FUZZ
    @given(options=_options(GIUTHI_OPTIONS))
    def fuzz(options):
        args = ["giuthi", "--show", *options]
        result, left = _run_in_fresh_folder(args, None)
        _assert_well_behaved(result, args)
        assert left == set(), (args, left)  # --show writes nothing

    fuzz()


def test_fuzz_list_build_and_check():
    @settings(max_examples=100, deadline=None, derandomize=True)
    @given(command=st.sampled_from(["list", "build", "check"]),
           names=st.lists(st.one_of(words, outputs, st.sampled_from(["afile", ".", "afile/x", "/dev/null"])),
                          max_size=3),
           output=st.one_of(st.none(), outputs))
    def fuzz(command, names, output):
        if command == "build":
            # Unknown preset names only: a known one would build for minutes.
            names = [f"no-such-preset-{n}" for n in names] or ["no-such-preset"]
        args = [command, *names]
        if command != "check" and output is not None:
            args += ["-o", output]
        if command == "list" and names:
            args = ["list", "--presets", names[0]]
        result, left = _run_in_fresh_folder(args, None)
        _assert_well_behaved(result, args)
        assert left == set(), (args, left)

    fuzz()


def test_fuzz_serve_refuses_a_bad_port_before_listening():
    # Only ports that cannot be used: a good one would start the server and wait for requests.
    bad_ports = st.one_of(
        st.integers(max_value=-1).map(str), st.integers(min_value=65536).map(str),
        st.sampled_from([HUGE, "８０８０", "80.5", "", " ", "http", "1e3", "0x50"]),
        st.text(max_size=8).filter(lambda t: not t.strip().lstrip("+").isdigit()),
    )

    @settings(max_examples=100, deadline=None, derandomize=True)
    @given(port=bad_ports, host=st.one_of(st.none(), words))
    def fuzz(port, host):
        args = ["serve", "--port", port] + ([] if host is None else ["--host", host])
        result, left = _run_in_fresh_folder(args, None)
        _assert_well_behaved(result, args)
        assert result.exit_code == 2 and left == set(), (args, result.output, left)

    fuzz()

