"""The CLI as a user meets it: list, build, check, help, and the README's commands."""

import re
import shlex
from pathlib import Path

import click
from click.testing import CliRunner

from printables import __version__
from printables.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_every_command_has_help():
    runner = CliRunner()
    top = runner.invoke(main, ["--help"])
    assert top.exit_code == 0
    commands = re.findall(r"^  (\w+)\s", top.output.split("Commands:")[1], re.M)
    assert {"build", "check", "list", "harvest"} <= set(commands)
    for command in commands:
        result = runner.invoke(main, [command, "--help"])
        assert result.exit_code == 0 and "Usage:" in result.output


def test_version():
    assert __version__ in CliRunner().invoke(main, ["--version"]).output


def test_list_shows_every_preset_with_a_description():
    result = CliRunner().invoke(main, ["list"])
    assert result.exit_code == 0
    names = {p.stem for p in (ROOT / "templates").glob("*.toml")} | {p.stem for p in (ROOT / "models").glob("*.toml")}
    *rows, source = result.output.splitlines()
    listed = {line.split()[0] for line in rows}
    assert names == listed
    # the last line says where they came from: this source tree's templates/ and models/
    assert source == f"({len(names)} presets from this printables source tree: {ROOT / 'templates'}, {ROOT / 'models'})"


def test_build_named_presets_writes_and_checks_them(tmp_path):
    result = CliRunner().invoke(main, ["build", "harvest-10x10-a4", "harvest-11x5-4up-a4", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "harvest" / "harvest-10x10-2p-a4.pdf").exists()
    assert (tmp_path / "harvest" / "harvest-11x5-2p-a4-4up.pdf").exists()
    assert "2 of 2 preset(s) built and checked" in result.output


def test_build_refuses_an_unknown_preset(tmp_path):
    result = CliRunner().invoke(main, ["build", "no-such-thing", "-o", str(tmp_path)])
    assert result.exit_code == 2 and "unknown preset 'no-such-thing'" in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_broken_preset_names_its_file_and_key(tmp_path, monkeypatch):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "odd.toml").write_text('kind = "harvest"\ndescription = "x"\n[params]\ngird = "10x10"\n')
    result = CliRunner().invoke(main, ["build", "odd", "--presets", str(tmp_path), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "odd.toml" in result.output and "unknown key 'gird'" in result.output


def test_check_reports_failure_with_exit_1(tmp_path):
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"%PDF-1.4 not really")
    result = CliRunner().invoke(main, ["check", str(junk)])
    assert result.exit_code == 1 and "FAIL" in result.output
    missing = CliRunner().invoke(main, ["check", str(tmp_path / "nope.pdf")])
    assert missing.exit_code == 2 and "does not exist" in missing.output and len(missing.output.strip().splitlines()) == 1


def test_readme_usage_commands_run(tmp_path, monkeypatch):
    """Every `printables ...` line in the README's usage blocks runs and exits 0."""
    readme = (ROOT / "README.md").read_text()
    commands = [line.strip() for line in re.findall(r"^\s*(printables [^\n#]+)", readme, re.M)]
    # Building every preset or a 3D model takes minutes: those paths have their own (slow) tests.
    # Giuthi's --show and --rules model nothing and run here.
    commands = [c for c in commands if c != "printables build"
                and not (c.startswith("printables giuthi") and "--show" not in c and "--rules" not in c)]
    # A server runs until stopped: tests/test_serve.py starts it on a free port and drives it.
    commands = [c for c in commands if not c.startswith("printables serve")]
    assert commands, "README shows no printables commands"
    monkeypatch.chdir(tmp_path)
    for command in commands:
        args = shlex.split(command)[1:]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, f"{command}: {result.output}"


def test_sheet_commands_do_not_import_cadquery(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from printables.cli import main\n"
        f"r = CliRunner().invoke(main, ['harvest', '-o', {str(tmp_path / 'h.pdf')!r}])\n"
        "assert r.exit_code == 0, r.output\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('cadquery', 'OCP', 'trimesh', 'pdfplumber'))\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_written_files_get_ordinary_permissions(tmp_path):
    import os
    import stat

    from printables.fileio import write_atomic

    umask = os.umask(0o022)
    try:
        path = write_atomic(tmp_path / "x.bin", b"data")
    finally:
        os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert path.read_bytes() == b"data" and [p.name for p in tmp_path.iterdir()] == ["x.bin"]


def _commands():
    top = CliRunner().invoke(main, ["--help"])
    return re.findall(r"^  (\w+)\s", top.output.split("Commands:")[1], re.M)


def test_every_help_ends_with_two_to_four_examples_that_parse(tmp_path, monkeypatch):
    """Each --help ends with 2-4 example lines kept as written; each example is valid for its command."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "harvest.pdf").write_bytes(b"%PDF-1.4")
    for folder in ("output/giuthi", "output/harvest", "output/peas", "my-presets"):
        (tmp_path / folder).mkdir(parents=True)
    runner = CliRunner()
    for command in [None] + _commands():
        args = [command, "--help"] if command else ["--help"]
        text = runner.invoke(main, args, terminal_width=60).output
        head, _, tail = text.rpartition("Examples:\n")
        lines = tail.rstrip("\n").splitlines()
        assert head and 2 <= len(lines) <= 4, (command, text)
        for line in lines:
            words = shlex.split(line)
            assert line.startswith("    printables") and (command is None or words[1] == command), line
            # kept whole despite the narrow terminal, and parses (options and values are all valid)
            sub = main.get_command(click.Context(main), words[1])
            assert sub is not None, line
            sub.make_context(words[1], words[2:]).close()


def test_choices_are_case_insensitive_and_canonical(tmp_path):
    out = tmp_path / "h.pdf"
    result = CliRunner().invoke(main, ["harvest", "--paper", "A4", "-o", str(out)])
    assert result.exit_code == 0, result.output
    upper = CliRunner().invoke(main, ["patchwork", "--part", "TRACK", "--ink", "Low", "--paper", "LETTER", "-o", str(tmp_path / "p.pdf")])
    assert upper.exit_code == 0, upper.output
    from printables.check.pdf import read_pdf

    assert read_pdf(out).parameters()["paper"] == "a4"
    params = read_pdf(tmp_path / "p.pdf").parameters()
    assert (params["part"], params["ink"], params["paper"]) == ("track", "low", "letter")
    bad = CliRunner().invoke(main, ["harvest", "--paper", "A3", "-o", str(tmp_path / "x.pdf")])
    assert bad.exit_code == 2 and "'A3' is not one of 'a4', 'letter', 'a5'" in bad.output
    assert not (tmp_path / "x.pdf").exists()
