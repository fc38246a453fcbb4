"""One customizer job, run in its own process: ``python -m printables.serve.worker JOB_FOLDER``.

The job folder holds ``job.json`` (the kind and the command-line arguments from the form). The
worker runs inside it (the server starts it with the folder as its working directory), so the CLI's
default output paths (``output/<kind>/...``) land in the job's folder and nowhere else. It then:

1. runs the game's CLI command exactly as ``printables <kind> <args>`` would;
2. checks every file it wrote with the same checks as ``printables check``;
3. draws a PNG of each PDF page with pdftoppm;

and writes ``result.json``. Progress lines (``… what``) go to stderr, which the server shows.
Stopping the worker (SIGTERM, the page's Cancel button) removes any half-made file and exits.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from printables.serve.job_files import JOB_FILE, MAX_FILE_ENV, RESULT_FILE

OUTPUT = Path("output")  # relative to the job folder: the CLI's own default
PREVIEWS = Path("previews")
ZIPS = Path("zip")
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say: no clock in the bytes
PREVIEW_DPI = 60


def limit_file_size() -> None:
    """Cap every file this worker and its children write (the server's per-file quota).

    SIGXFSZ is ignored so that a write past the cap fails with "File too large" (the CLI reports it
    in one line and removes its half-made file) instead of killing the process.
    """
    raw = os.environ.get(MAX_FILE_ENV, "")
    if not raw.isdigit():
        return
    try:
        import resource
        import signal
    except ImportError:  # not POSIX
        return
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(raw), int(raw)))


def say(message: str) -> None:
    """A progress line for the page."""
    print(f"… {message}", file=sys.stderr, flush=True)


def run_command(kind: str, args: list[str]) -> tuple[int, str, str]:
    """Run ``printables <kind> <args>`` in this process: exit code, stdout, and its error line."""
    from printables.cli import main

    out, err = io.StringIO(), _Tee(sys.stderr)
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main.main(args=[kind, *args], prog_name="printables")
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    error = next((line.removeprefix("Error: ") for line in reversed(err.lines) if line.startswith("Error: ")), "")
    warnings = [line for line in err.lines if line.startswith("warning: ")]
    return code, out.getvalue(), error or ("\n".join(warnings) if code == 0 else f"exit code {code}")


class _Tee(io.TextIOBase):
    """Writes through to a stream (the progress log) and keeps the complete lines."""

    def __init__(self, stream):
        self.stream, self.lines, self._partial = stream, [], ""

    def write(self, text: str) -> int:
        """Pass ``text`` on and keep its complete lines."""
        self.stream.write(text)
        self.stream.flush()
        self._partial += text
        *done, self._partial = self._partial.split("\n")
        self.lines += done
        return len(text)


def check_outputs(folder: Path) -> list[dict]:
    """Every check of ``printables check`` on what the command wrote, as plain records."""
    from printables.check.dispatch import check_file, expand

    records = []
    for sub in sorted(p for p in folder.rglob("*") if p.is_dir()) or [folder]:
        for path in expand(sub):
            if path.parent != sub:
                continue
            say(f"checking {path.name}")
            for result in check_file(path):
                records.append({"file": path.name, "name": str(result.name), "ok": bool(result.ok),
                                "detail": str(result.detail)})
    return records


def pdf_previews(pdfs: list[Path], into: Path) -> list[Path]:
    """A PNG of every page of every PDF (pdftoppm), in page order."""
    if not pdfs or shutil.which("pdftoppm") is None:
        return []
    into.mkdir(parents=True, exist_ok=True)
    made = []
    for pdf in pdfs:
        say(f"drawing the pages of {pdf.name}")
        prefix = into / pdf.stem
        subprocess.run(["pdftoppm", "-r", str(PREVIEW_DPI), "-png", str(pdf), str(prefix)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pages = sorted(into.glob(f"{pdf.stem}-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
        made += pages
    return made


def zip_name(files: list[Path]) -> str:
    """The set's zip, named after its parameters: the Giuthi manifest's name, else the first file's."""
    named = next((p for p in files if p.suffix == ".json" and p.name.startswith("giuthi-board-")), files[0])
    return f"{named.stem}.zip"


def zip_bytes(files: list[Path], top: str) -> bytes:
    """The files in one zip under the folder ``top``, with the same bytes for the same files: sorted
    names, a fixed date and permissions, and the same compression every time."""
    import zipfile

    root = files[0].parent
    for path in files:
        while not path.is_relative_to(root):
            root = root.parent
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
            info = zipfile.ZipInfo(f"{top}/{path.relative_to(root).as_posix()}", date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3  # Unix, wherever the zip is made
            archive.writestr(info, path.read_bytes(), compresslevel=9)
    return buffer.getvalue()


def write_zip(files: list[Path], into: Path) -> Path:
    """Write the set's zip into ``into`` (atomically) and return its path."""
    from printables.fileio import write_atomic

    name = zip_name(files)
    return write_atomic(into / name, zip_bytes(files, name.removesuffix(".zip")))


def run(job_folder: Path) -> dict:
    """Do the job in ``job_folder`` and return the result record (also written to result.json)."""
    job = json.loads((job_folder / JOB_FILE).read_text(encoding="utf-8"))
    kind, args = job["kind"], list(job["args"])
    say(f"printables {kind} {' '.join(args)}".rstrip())
    code, stdout, message = run_command(kind, args)
    result: dict = {"kind": kind, "args": args, "exit_code": code, "stdout": stdout, "message": message,
                    "files": [], "previews": [], "checks": []}
    output = job_folder / OUTPUT
    if code == 0 and output.is_dir():
        files = sorted(p for p in output.rglob("*") if p.is_file() and not p.name.startswith("."))
        result["files"] = [str(p.relative_to(job_folder)) for p in files]
        result["checks"] = check_outputs(output)
        pdfs = [p for p in files if p.suffix == ".pdf"]
        pngs = pdf_previews(pdfs, job_folder / PREVIEWS) + [p for p in files if p.suffix == ".png"]
        result["previews"] = [str(p.relative_to(job_folder)) for p in pngs]
        if len(files) > 1:
            say("packing the zip")
            result["zip"] = str(write_zip(files, job_folder / ZIPS).relative_to(job_folder))
    _write_json(job_folder / RESULT_FILE, result)
    return result


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the job in the folder named on the command line."""
    from printables import cleanup
    from printables import lifeline

    cleanup.install_signal_handlers()
    lifeline.hold_on()  # dies with the server, even one killed with SIGKILL
    limit_file_size()
    argv = sys.argv[1:] if argv is None else argv
    folder = Path(argv[0]).resolve()
    os.chdir(folder)
    run(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
