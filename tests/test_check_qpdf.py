"""The second reader: qpdf's structural check (printables/check/qpdf.py) on every PDF checked."""

from __future__ import annotations

from click.testing import CliRunner

from printables.check.qpdf import NAME, check_pdf_structure
from printables.cli import main
from printables.sheets import render_sheet, sheet_params


def _sheet(tmp_path):
    path = tmp_path / "harvest.pdf"
    path.write_bytes(render_sheet("harvest", sheet_params("harvest", {})))
    return path


def _cut_xref(data: bytes) -> bytes:
    """The PDF with the last entries of its cross-reference table cut out (the trailer still counts them)."""
    start = data.rindex(b"\nxref\n")
    end = data.index(b"trailer", start)
    lines = data[start:end].split(b"\n")
    return data[:start] + b"\n".join(lines[:-4]) + b"\n" + data[end:]


def test_a_sound_pdf_passes_qpdf(tmp_path):
    assert [r.ok for r in check_pdf_structure(_sheet(tmp_path))] == [True]


def test_check_fails_a_pdf_whose_xref_table_is_cut_in_qpdfs_words(tmp_path):
    path = _sheet(tmp_path)
    path.write_bytes(_cut_xref(path.read_bytes()))
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    line = next(line for line in result.output.splitlines() if NAME in line)
    assert line.strip().startswith("FAIL")
    # qpdf's own words, without the file name it starts each with
    assert "file is damaged" in line and "invalid xref entry" in line and str(path) not in line


def test_a_file_qpdf_cannot_read_at_all_fails_with_its_reason(tmp_path):
    path = _sheet(tmp_path)
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    (result,) = check_pdf_structure(path)
    assert not result.ok and "qpdf cannot read it: unable to find trailer dictionary" in result.detail
