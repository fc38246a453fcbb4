"""Helpers the damaged-file tests share: make a sheet with the CLI, list failed checks, edit the subject."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader, PdfWriter

from printables.check.dispatch import check_file
from printables.cli import main


def make_sheet(tmp_path: Path, command: str, *args: str) -> Path:
    """The PDF ``printables <command> <args>`` writes into ``tmp_path``."""
    out = tmp_path / f"{command}.pdf"
    result = CliRunner().invoke(main, [command, *args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def failed_checks(path: Path) -> dict[str, str]:
    """The checks that fail on ``path``, by name."""
    return {r.name: r.detail for r in check_file(path) if not r.ok}


def edit_subject(src: Path, dst: Path, change) -> Path:
    """``src`` with its recorded parameters (the JSON subject) passed through ``change``."""
    writer = PdfWriter(clone_from=str(src))
    subject = json.loads(PdfReader(str(src)).metadata["/Subject"])
    change(subject)
    writer.add_metadata({"/Subject": json.dumps(subject, sort_keys=True)})
    with open(dst, "wb") as handle:
        writer.write(handle)
    return dst
