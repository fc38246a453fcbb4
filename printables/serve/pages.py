"""The customizer's HTML: the menu, one form page per game, and a job's results.

Everything is escaped here and nowhere else; the pages load only the server's own static files
(no CDN: the customizer works offline).
"""

from __future__ import annotations

import shlex
from html import escape
from pathlib import Path
from typing import Mapping
from urllib.parse import quote

from printables.serve import forms
from printables.serve.forms import KINDS, LONG_KINDS, Field, choice_words, fields_for

STL_VIEW_MAX_BYTES = 60_000_000  # larger STLs are offered for download only


def page(title: str, body: str, *, refresh: bool = False) -> str:
    """A whole HTML page around ``body``."""
    meta = '<meta http-equiv="refresh" content="2">' if refresh else ""
    links = " ".join(f'<a href="/{kind}">{escape(name)}</a>' for kind, name in KINDS.items())
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">{meta}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} · printables</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
</head><body>
<header><a class="home" href="/">printables</a> <nav>{links}</nav></header>
<main>{body}</main>
<script src="/static/stl-viewer.js"></script>
<script src="/static/app.js"></script>
</body></html>
"""


def index_page() -> str:
    """The menu: one link per game."""
    items = "".join(f'<li><a href="/{kind}">{escape(name)}</a> <code>printables {kind}</code></li>'
                    for kind, name in KINDS.items())
    body = (
        "<h1>Customizer</h1><p>Pick a game, set its options (the same ones as the command line), and get "
        "print-ready files, each checked against the game's rules by reading it back.</p>"
        f'<ul class="kinds">{items}</ul>'
    )
    return page("Customizer", body)


PRESET_WORDS = {
    "giuthi-default": "The default board (160 × 145 mm halves)",
    "giuthi-compact": "Compact (153 × 118 mm halves, deeper pits)",
    "giuthi-2x8": "Eight pits a row (180 × 125 mm halves)",
    "giuthi-9seeds": "Nine seeds a pit (160 × 145 mm halves)",
    "giuthi-ko": "The default board, rules and card in Korean",
    "giuthi-travel": "Travel (130 × 75 mm halves)",
}


def _described(field: Field) -> str:
    return f'aria-describedby="help-{escape(field.name)} error-{escape(field.name)}"'


def _input(field: Field, value: str | None) -> str:
    fid = f"f-{escape(field.name)}"
    described = _described(field)
    default = f' data-default="{escape(field.default_text)}"'
    if field.suggestions:  # a preset: one of the known names, in a drop-down
        chosen = field.default_text if value is None else value
        names = list(field.suggestions) + ([chosen] if chosen and chosen not in field.suggestions else [])
        options = f'<option value=""{"" if chosen else " selected"}>None: the default board</option>' + "".join(
            f'<option value="{escape(n)}"{" selected" if n == chosen else ""}>{escape(PRESET_WORDS.get(n, n))}</option>'
            for n in names)
        return f'<select id="{fid}" name="{escape(field.name)}"{default} {described}>{options}</select>'
    if field.widget == "choice":
        chosen = value if value is not None else field.default_text
        options = "".join(f'<option value="{escape(c)}"{" selected" if c == chosen else ""}>{escape(choice_words(field, c))}</option>'
                          for c in field.choices)
        if field.default is None:  # the CLI's default depends on other options (a preset): leave it to the CLI
            implied = f": {choice_words(field, field.implied)}" if field.implied else ""
            options = f'<option value=""{"" if chosen else " selected"}>Default{escape(implied)}</option>' + options
        return f'<select id="{fid}" name="{escape(field.name)}"{default} {described}>{options}</select>'
    if field.widget in ("flag", "switch"):
        checked = bool(field.default) if value is None else value not in ("\0off", "off")
        return (f'<input id="{fid}" type="checkbox" name="{escape(field.name)}" value="on"'
                f' data-default="{"on" if field.default else "off"}"{" checked" if checked else ""} {described}>')
    shown = field.default_text if value is None else value
    mode = {"INTEGER": ' inputmode="numeric"', "NUMBER": ' inputmode="decimal"'}.get(field.metavar, "")
    placeholder = f' placeholder="{escape(field.implied)}"' if field.implied and not field.default_text else ""
    return (f'<input id="{fid}" type="text" name="{escape(field.name)}" value="{escape(shown)}"{mode}{default}'
            f'{placeholder} autocomplete="off" spellcheck="false" {described}>')


def _field_html(field: Field, value: str | None, error: str) -> str:
    option = field.option if field.widget != "switch" else f"{field.option}/{field.off_option}"
    metavar = "" if field.widget in ("flag", "switch", "choice") or field.suggestions else f" {field.metavar}"
    name = escape(field.name)
    reset = (f'<button type="button" class="reset" data-reset="{name}" '
             f'aria-label="{escape(field.label)}: back to the default" title="Back to the default">Reset</button>')
    text = f'<label for="f-{name}">{escape(field.label)}</label>'
    if field.widget in ("flag", "switch"):
        control = f'<div class="control check">{_input(field, value)}{text}{reset}</div>'
    else:
        control = f'{text}<div class="control">{_input(field, value)}{reset}</div>'
    default = ""
    if field.implied and field.widget == "text":
        default = f" Default: {escape(field.implied)}."
    return (
        f'<div class="field{" bad" if error else ""}" id="field-{name}" data-widget="{field.widget}">'
        f"{control}"
        f'<p class="help" id="help-{name}">{escape(field.plain_help)}{default} '
        f'<code class="flag">{escape(option)}{escape(metavar)}</code></p>'
        f'<p class="error" id="error-{name}" role="alert">{escape(error)}</p>'
        "</div>"
    )


def form_values(kind: str, query: Mapping[str, str]) -> dict[str, str]:
    """The form's values from a page link (``/giuthi?size=200x140&slice_parts=off``): every field it
    names, a box as ticked or not."""
    known = {f.name: f for f in fields_for(kind)}
    return {name: value for name, value in query.items() if name in known}


def kind_page(kind: str, values: Mapping[str, str] | None = None, errors: Mapping[str, str] | None = None,
              form_error: str = "") -> str:
    """The form for one game (with the values of a link, or of a refused submit without JavaScript)."""
    values = values or {}
    errors = errors or {}
    checkboxes_sent = values.get("_submitted") is not None
    basic, advanced = [], []
    order = forms.BASIC.get(kind, ())
    for field in sorted(fields_for(kind), key=lambda f: order.index(f.name) if f.basic else 0):
        value = values.get(field.name)
        if field.widget in ("flag", "switch") and checkboxes_sent and value is None:
            value = "\0off"  # an unticked box is absent from a submitted form
        (basic if field.basic else advanced).append(_field_html(field, value, errors.get(field.name, "")))
    open_advanced = " open" if any(f.name in errors or f.name in values for f in fields_for(kind) if not f.basic) else ""
    long = kind in LONG_KINDS
    live = "0" if long else "1"
    make = "Make print files" if long else "Make and check"
    if long:
        view = ('<div class="viewer board-preview" id="board-preview"><canvas class="stl-view" id="preview-canvas" '
                'width="640" height="420" aria-label="3D preview of the board, open"></canvas>'
                '<p class="hint" id="preview-status" aria-live="polite">Drawing the board…</p>'
                '<p class="estimate" id="estimate"></p>'
                '<p class="warning over" id="over-budget" role="alert" hidden></p></div>')
        note = ("The preview is coarse and quick; Make print files models the exact parts, slices them and "
                "checks every file (a minute or more).")
    else:
        view = ""
        note = "The preview follows your changes."
    body = f"""
<h1>{escape(KINDS[kind])}</h1>
<div class="columns">
<form id="form" method="post" action="/{escape(kind)}" data-kind="{escape(kind)}" data-live="{live}" novalidate>
<input type="hidden" name="_submitted" value="1">
{"".join(basic)}
<details class="advanced" id="advanced"{open_advanced}><summary>Advanced</summary>
{"".join(advanced)}
</details>
<p class="error form-error" id="form-error" role="alert">{escape(form_error)}</p>
<p class="note">{escape(note)} Files go to a folder of their own for this request. The page's address
holds these settings: bookmark or share it to make the same files again.</p>
</form>
<div class="view">{view}<div id="output"></div></div>
</div>
<section id="result" class="actions" data-state="idle" aria-live="polite">
<div class="buttons"><button type="submit" id="make" form="form">{make}</button>
<button type="button" id="cancel" hidden>Cancel</button></div>
<div class="state"><p class="status" id="status">Nothing made yet.</p>
<p class="step" id="step"></p><progress id="bar" max="1" value="0" hidden></progress>
<ol class="progress" id="progress"></ol></div>
</section>"""
    return page(KINDS[kind], body)


def file_url(job_id: str, relative: str) -> str:
    """Where a job's file is served."""
    return f"/jobs/{job_id}/files/{quote(relative)}"


def _size(path: Path) -> str:
    try:
        n = path.stat().st_size
    except OSError:
        return ""
    for unit in ("bytes", "kB", "MB"):
        if n < 1000 or unit == "MB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    return ""


def checks_table(checks: list[dict]) -> str:
    """The check results as a table: file, check, verdict, what was found."""
    rows = "".join(
        f'<tr class="{"ok" if c["ok"] else "fail"}"><td>{escape(c["file"])}</td><td>{escape(c["name"])}</td>'
        f'<td class="verdict">{"ok" if c["ok"] else "FAIL"}</td><td>{escape(c["detail"])}</td></tr>'
        for c in checks
    )
    return (f'<div class="table-wrap"><table class="checks"><thead><tr><th>file</th><th>check</th><th></th>'
            f"<th>found</th></tr></thead><tbody>{rows}</tbody></table></div>")


def _preview_order(relative: str) -> tuple[int, str]:
    name = Path(relative).name
    for rank, end in enumerate(("-open.png", "-folded.png")):
        if name.endswith(end):
            return rank, relative
    return (3 if relative.startswith("previews/") else 2), relative


PREVIEW_BOX_PX = (420, 560)  # the largest a page picture is shown (style.css: .previews img)


def _shown_size(picture: Path) -> str:
    """`` width=".." height=".."``: the size the picture is shown at, within PREVIEW_BOX_PX, so the
    page keeps its room before the picture loads (the links below it do not move under a click);
    nothing for a file that is not a readable picture."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(picture) as image:  # reads the header only
            width, height = image.size
    except (OSError, UnidentifiedImageError):
        return ""
    scale = min(1.0, PREVIEW_BOX_PX[0] / width, PREVIEW_BOX_PX[1] / height)
    return f' width="{round(width * scale)}" height="{round(height * scale)}"'


def result_html(job) -> str:
    """A finished job's results: verdict, previews, 3D view, downloads and every check."""
    if job.state == "cancelled":
        return '<p class="verdict cancelled">Cancelled; nothing was kept.</p>'
    if job.state in ("refused", "failed"):
        what = "Refused" if job.state == "refused" else "Failed"
        return f'<p class="verdict fail">{what}: {escape(job.error)}</p>'
    result = job.result or {}
    checks = result.get("checks", [])
    failed = [c for c in checks if not c["ok"]]
    parts = []
    if failed:
        shown = "; ".join(f'{c["file"]}: {c["name"]} ({c["detail"]})' for c in failed[:3])
        more = f"; and {len(failed) - 3} more" if len(failed) > 3 else ""
        parts.append(f'<p class="verdict fail" id="verdict">Not ready to print: {len(failed)} of {len(checks)} '
                     f'checks failed. {escape(shown)}{escape(more)}.</p>')
    elif checks:
        parts.append(f'<p class="verdict ok" id="verdict">Ready to print: {len(checks)} checks passed.</p>')
    if result.get("message"):
        parts.append(f'<p class="warning">{escape(result["message"])}</p>')
    if not result.get("files") and result.get("stdout"):
        parts.append(f'<pre class="stdout">{escape(result["stdout"])}</pre>')
    files = result.get("files", [])
    if result.get("zip"):
        zipped = result["zip"]
        parts.append(f'<p class="zip"><a class="zip" href="{escape(file_url(job.id, zipped))}" '
                     f'download="{escape(Path(zipped).name)}">Download all {len(files)} files (zip, '
                     f'{_size(job.folder / zipped)})</a></p>')
    stls = [f for f in files if f.endswith(".stl") and (job.folder / f).stat().st_size <= STL_VIEW_MAX_BYTES]
    if stls:
        buttons = "".join(f'<button type="button" data-stl="{escape(file_url(job.id, f))}">{escape(Path(f).stem)}</button>'
                          for f in stls)
        parts.append(f'<div class="viewer"><canvas class="stl-view" width="640" height="420" '
                     f'data-stl="{escape(file_url(job.id, stls[0]))}" aria-label="3D view of a part"></canvas>'
                     f'<div class="stl-buttons">{buttons}</div><p class="hint">Drag to turn, wheel to zoom.</p></div>')
    previews = sorted(result.get("previews", []), key=_preview_order)
    if previews:
        figures = "".join(
            f'<figure><a href="{escape(file_url(job.id, p))}" target="_blank"><img class="preview" '
            f'src="{escape(file_url(job.id, p))}"{_shown_size(job.folder / p)} alt="{escape(Path(p).name)}"></a>'
            f"<figcaption>{escape(Path(p).name)}</figcaption></figure>" for p in previews)
        parts.append(f'<div class="previews">{figures}</div>')
    if files:
        links = "".join(
            f'<li><a class="download" href="{escape(file_url(job.id, f))}" download="{escape(Path(f).name)}">'
            f"{escape(Path(f).name)}</a> <span class=\"size\">{_size(job.folder / f)}</span></li>" for f in files)
        parts.append(f'<h2>Files</h2><ul class="files">{links}</ul>')
    command = shlex.join(["printables", job.kind, *result.get("args", [])])
    parts.append(f'<p class="command">The same from the command line: <code>{escape(command)}</code></p>')
    if checks:
        parts.append(f'<details class="all-checks" id="checks"{" open" if failed else ""}><summary>Every check '
                     f'({len(checks)})</summary>{checks_table(checks)}</details>')
    return "".join(parts)


def job_page(job) -> str:
    """A job on its own page (the form's target without JavaScript); reloads itself while running."""
    if job.is_finished:
        inner = result_html(job)
    else:
        steps = "".join(f"<li>{escape(s)}</li>" for s in job.progress())
        inner = (f'<p class="status">{escape(job.state.capitalize())}…</p><ol class="progress">{steps}</ol>'
                 f'<form method="post" action="/jobs/{job.id}/cancel"><button type="submit">Cancel</button></form>')
    body = (f'<h1>{escape(KINDS[job.kind])}</h1><p><a href="/{job.kind}">Back to the form</a></p>'
            f'<section id="result" data-state="{job.state}">{inner}</section>')
    return page(KINDS[job.kind], body, refresh=not job.is_finished)


def error_page(status: int, message: str) -> str:
    """A page for a missing or refused request."""
    return page(str(status), f"<h1>{status}</h1><p>{escape(message)}</p>")
