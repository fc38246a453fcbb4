"""The static gallery ``output/index.html``: every built preset with its preview, parameters,
check results and files, linked relatively so that it works opened from disk (file://).

Each built preset leaves a record (``output/gallery/<preset>/record.json``) and PNGs of its pages;
the index is rewritten from every record whose files are still there, so building one preset
updates its entry and keeps the others. Presets built at the same time in several processes take
turns (a file lock) to rewrite the index, so none is lost.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from html import escape
from pathlib import Path
from typing import Iterator
from urllib.parse import quote

from printables.fileio import scratch_folder, write_atomic

GALLERY = "gallery"
INDEX = "index.html"
RECORD = "record.json"
PREVIEW_DPI = 40
KIND_TITLES = {
    "harvest": "The Bitcoin Harvest", "minefield": "Minefield", "peas": "Breakfast Shy",
    "patchwork": "Patchwork", "giuthi-board": "Giuthi",
}


def add_to_gallery(built, output: Path) -> Path:
    """Record one built preset (a ``printables.build.Built``) and rewrite ``output/index.html``."""
    output = Path(output)
    folder = output / GALLERY / built.preset.name
    folder.mkdir(parents=True, exist_ok=True)
    record = {
        "name": built.preset.name,
        "kind": built.preset.kind,
        "description": built.preset.description,
        "params": dict(built.preset.params),
        "all_params": _all_params(built.preset),
        "files": [_relative(p, output) for p in built.paths],
        **_previews(built, output, folder),
        "checks": [{"name": r.name, "ok": bool(r.ok), "detail": str(r.detail)} for r in built.results],
    }
    write_atomic(folder / RECORD, json.dumps(record, indent=1, default=str).encode("utf-8"))
    with _locked(output / GALLERY / ".lock"):
        index = output / INDEX
        write_atomic(index, render_index(load_records(output), output).encode("utf-8"))
    return index


def _relative(path: Path, output: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), output.resolve())).as_posix()


def _all_params(preset) -> dict:
    """Every parameter of the preset's validated parameter object, defaults included."""
    from printables.models import MODEL_KINDS, model_params
    from printables.sheets import SHEET_KINDS, sheet_params

    if preset.kind in SHEET_KINDS:
        params = sheet_params(preset.kind, preset.params)
    elif preset.kind in MODEL_KINDS:
        params = model_params(preset.kind, preset.params)
    else:
        return {}
    return {f.name: getattr(params, f.name) for f in dataclasses.fields(params)}


def _previews(built, output: Path, folder: Path) -> dict[str, list[str]]:
    """The preset's preview PNGs (relative to ``output``): a model's own PNGs (its open and folded
    views first), then every page of every PDF it made (a sheet's pages; a Giuthi set's rules
    sheet and print card, in the set's language). ``{"previews": [...], "labels": [...]}``: each
    picture's words for a reader (its alt text), a page's being its document's title and page."""
    for old in folder.glob("page-*.png"):
        old.unlink()
    pngs = [p for p in built.paths if p.suffix == ".png"]
    order = {"-open": 0, "-folded": 1}
    pngs.sort(key=lambda p: (next((v for k, v in order.items() if p.stem.endswith(k)), 2), p.name))
    made = [_relative(p, output) for p in pngs]
    labels = [_words(p.stem) for p in pngs]
    pdfs = [p for p in built.paths if p.suffix == ".pdf"]
    if pdfs:
        with scratch_folder(".pages-", folder) as tmp:  # named with our pid: swept if we are killed
            pages: list[tuple[Path, str]] = []
            for pdf in pdfs:
                pages += _page_pngs(pdf, Path(tmp), len(pages))
            for page_number, (page, label) in enumerate(pages, 1):
                target = folder / f"page-{page_number}.png"
                os.replace(page, target)
                made.append(_relative(target, output))
                labels.append(label)
    return {"previews": made, "labels": labels}


def _words(stem: str) -> str:
    """A file's name as words: ``giuthi-rules`` -> ``Giuthi rules``."""
    words = stem.replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def page_label(title: str, page: int, pages: int) -> str:
    """A page picture's words: its document's title, and the page when there is more than one
    (``Giuthi — rules to play by, page 2 of 4``)."""
    return title if pages == 1 else f"{title}, page {page} of {pages}"


def _page_pngs(pdf: Path, into: Path, first: int) -> list[tuple[Path, str]]:
    """A PNG of each page of ``pdf`` at PREVIEW_DPI, drawn in this process by PDFium (pypdfium2;
    a fifth of the time of starting pdftoppm per file), named in page order from ``first``, with
    its words (``page_label``: the PDF's title, or its file name as words when it has none); none
    for a file PDFium cannot open."""
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(pdf)
    except pypdfium2.PdfiumError:
        return []  # not a readable PDF: its checks say so; the gallery shows no page for it
    try:
        title = (document.get_metadata_dict().get("Title") or "").strip() or _words(pdf.stem)
        made = []
        for number in range(len(document)):
            page = document[number]
            try:
                image = page.render(scale=PREVIEW_DPI / 72).to_pil()
            finally:
                page.close()
            made.append((into / f"{first + number:04d}.png", page_label(title, number + 1, len(document))))
            image.save(made[-1][0], format="PNG", compress_level=1)  # zlib's fastest: 0.28 s for a build's 95 pages against 0.49 s, and no larger
        return made
    finally:
        document.close()


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # not POSIX: builds run one at a time there
        yield
        return
    with open(path, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def load_records(output: Path) -> list[dict]:
    """Every gallery record under ``output`` whose files all still exist, sorted by preset name."""
    records = []
    for path in sorted((Path(output) / GALLERY).glob(f"*/{RECORD}")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if all((Path(output) / f).exists() for f in record.get("files", []) + record.get("previews", [])):
            records.append(record)
    return sorted(records, key=lambda r: r["name"])


def _href(relative: str) -> str:
    return escape(quote(relative))


def _size(path: Path) -> str:
    try:
        n = path.stat().st_size
    except OSError:
        return ""
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.1f} kB"


def _value(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return "x".join(map(str, value)) if all(isinstance(v, int) for v in value) else ", ".join(map(str, value))
    return str(value)


def _check_rows(checks: list[dict], files: list[str]) -> str:
    """The checks as table rows; a check named ``<file>: <check>`` shows the check's name, under a
    row naming its file when the preset made several."""
    rows, current = [], None
    for check in checks:
        file, sep, name = check["name"].partition(": ")
        if not (sep and file in files):
            file, name = None, check["name"]
        if file is not None and len(files) > 1 and file != current:
            rows.append(f'<tr class="file"><th colspan="3">{escape(file)}</th></tr>')
        current = file
        rows.append(f'<tr class="{"ok" if check["ok"] else "fail"}"><td>{"ok" if check["ok"] else "FAIL"}</td>'
                    f'<td>{escape(name)}</td><td>{escape(check["detail"])}</td></tr>')
    return "".join(rows)


def _entry(record: dict, output: Path | None) -> str:
    checks = record["checks"]
    failed = [c for c in checks if not c["ok"]]
    verdict = (f'<p class="verdict fail">{len(failed)} of {len(checks)} checks failed</p>' if failed
               else f'<p class="verdict ok">all {len(checks)} checks passed</p>')
    previews = record["previews"]
    labels = record.get("labels") or [_words(Path(p).stem) for p in previews]  # a record from before labels
    images = "".join(
        f'<a href="{_href(p)}"><img src="{_href(p)}" alt="{escape(label)}"'
        f'{" class=main" if i == 0 else ""} loading="lazy"></a>' for i, (p, label) in enumerate(zip(previews, labels)))
    set_by_preset = set(record["params"])
    rows = "".join(
        f'<tr{" class=set" if name in set_by_preset else ""}><th>{escape(name)}</th><td>{escape(_value(value))}</td></tr>'
        for name, value in (record.get("all_params") or record["params"]).items())
    files = "".join(
        f'<li><a href="{_href(f)}">{escape(Path(f).name)}</a> <span class="size">'
        f'{_size(output / f) if output else ""}</span></li>' for f in record["files"])
    check_rows = _check_rows(checks, [Path(f).name for f in record["files"]])
    return f"""<article id="{escape(record['name'])}">
<h3>{escape(record['name'])}</h3><p class="description">{escape(record['description'])}</p>
<div class="previews">{images or '<p class="none">no preview</p>'}</div>
{verdict}
{f'<ul class="files">{files}</ul>' if len(record["files"]) <= 4 else
   f'<details class="files"><summary>{len(record["files"])} files</summary><ul class="files">{files}</ul></details>'}
<details><summary>parameters</summary><table class="params">{rows}</table>
<p class="legend">bold: set by the preset (<code>printables build {escape(record['name'])}</code>); others: defaults</p></details>
<details{" open" if failed else ""}><summary>checks</summary><table class="checks">{check_rows}</table></details>
</article>"""


def render_index(records: list[dict], output: Path | None = None) -> str:
    """The gallery page for these records (links relative to the output folder)."""
    sections = []
    for kind, title in KIND_TITLES.items():
        mine = [r for r in records if r["kind"] == kind]
        if mine:
            sections.append(f'<section><h2>{escape(title)}</h2><div class="grid">'
                            + "".join(_entry(r, output) for r in mine) + "</div></section>")
    others = [r for r in records if r["kind"] not in KIND_TITLES]
    if others:
        sections.append('<section><h2>Other</h2><div class="grid">' + "".join(_entry(r, output) for r in others)
                        + "</div></section>")
    passed = sum(all(c["ok"] for c in r["checks"]) for r in records)
    toc = " · ".join(f'<a href="#{escape(r["name"])}">{escape(r["name"])}</a>' for r in records)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>printables gallery</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{STYLE}</style></head><body>
<h1>printables gallery</h1>
<p>{len(records)} preset(s) built by <code>printables build</code>; {passed} of {len(records)} pass every check.
Print at 100 % / actual size: every sheet carries a 100 mm line to measure.
For other sizes, <code>printables serve</code> opens the customizer.</p>
<nav>{toc}</nav>
{"".join(sections) or "<p>Nothing built yet.</p>"}
</body></html>
"""


STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 1em 2em; color: #222; background: #fafaf7; }
h2 { border-bottom: 2px solid #2f4a1d; color: #2f4a1d; margin-top: 1.6em; }
nav { font-size: .85em; color: #555; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(19em, 1fr)); gap: 1.2em; }
article { background: #fff; border: 1px solid #ddd; padding: .8em 1em; }
article h3 { margin: 0; }
.description { color: #555; margin: .2em 0 .6em; }
.previews { display: flex; flex-wrap: wrap; gap: .4em; align-items: flex-start; }
.previews img { max-width: 4.5em; max-height: 6em; border: 1px solid #ccc; }
.previews img.main { max-width: 100%; max-height: 16em; }
.verdict.ok { color: #1b6e20; font-weight: 600; }
.verdict.fail { color: #b00020; font-weight: 600; }
.files { padding-left: 1.2em; }
.size { color: #777; font-size: .85em; }
table { border-collapse: collapse; font-size: .85em; }
td, th { text-align: left; padding: .1em .5em; border-bottom: 1px solid #eee; vertical-align: top; }
.params th { font-weight: normal; color: #555; }
.params tr.set th, .params tr.set td { font-weight: 700; color: #222; }
.checks tr.fail { background: #fde8e8; }
.checks tr.file th { padding-top: .5em; color: #555; font-weight: 600; }
.legend { font-size: .8em; color: #666; }
"""
