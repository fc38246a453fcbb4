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

from printables.serve.forms import KINDS, LONG_KINDS, Field, fields_for

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


def _input(field: Field, value: str | None) -> str:
    fid = f"f-{field.name}"
    described = f'aria-describedby="help-{field.name} error-{field.name}"'
    if field.widget == "choice":
        chosen = value if value is not None else field.default_text
        options = "".join(f'<option value="{escape(c)}"{" selected" if c == chosen else ""}>{escape(c)}</option>'
                          for c in field.choices)
        if field.default is None:  # the CLI's default depends on other options (a preset): leave it to the CLI
            options = f'<option value=""{"" if chosen else " selected"}>(default)</option>' + options
        return f'<select id="{fid}" name="{escape(field.name)}" {described}>{options}</select>'
    if field.widget in ("flag", "switch"):
        checked = bool(field.default) if value is None else value != "\0off"
        return (f'<input id="{fid}" type="checkbox" name="{escape(field.name)}" value="on"'
                f'{" checked" if checked else ""} {described}>')
    shown = field.default_text if value is None else value
    mode = {"INTEGER": ' inputmode="numeric"', "NUMBER": ' inputmode="decimal"'}.get(field.metavar, "")
    hint = f"{field.implied} (default)" if field.implied else "default"
    placeholder = "" if field.default_text else f' placeholder="{escape(hint)}"'
    datalist, listed = "", ""
    if field.suggestions:
        listed = f' list="list-{escape(field.name)}"'
        datalist = (f'<datalist id="list-{escape(field.name)}">'
                    + "".join(f'<option value="{escape(s)}">' for s in field.suggestions) + "</datalist>")
    return (f'<input id="{fid}" type="text" name="{escape(field.name)}" value="{escape(shown)}"{mode}'
            f'{placeholder}{listed} autocomplete="off" spellcheck="false" {described}>{datalist}')


def _field_html(field: Field, value: str | None, error: str) -> str:
    option = field.option if field.widget != "switch" else f"{field.option}/{field.off_option}"
    default = ""
    if field.default_text and "default" not in field.help:
        default = f" [default: {escape(field.default_text)}]"
    elif field.implied and "default" not in field.help:
        default = f" [default: {escape(field.implied)}, or the preset's]"
    if field.suggestions:
        default += f" Presets: {escape(', '.join(field.suggestions))}."
    metavar = "" if field.widget in ("flag", "switch", "choice") else f" {field.metavar}"
    return (
        f'<div class="field{" bad" if error else ""}" id="field-{escape(field.name)}" data-widget="{field.widget}">'
        f'<label for="f-{escape(field.name)}">{escape(field.label)} <code>{escape(option)}{escape(metavar)}</code></label>'
        f"{_input(field, value)}"
        f'<p class="help" id="help-{escape(field.name)}">{escape(field.help)}{default}</p>'
        f'<p class="error" id="error-{escape(field.name)}" role="alert">{escape(error)}</p>'
        "</div>"
    )


def kind_page(kind: str, values: Mapping[str, str] | None = None, errors: Mapping[str, str] | None = None,
              form_error: str = "") -> str:
    """The form for one game (with the values and errors of a refused submit, without JavaScript)."""
    values = values or {}
    errors = errors or {}
    checkboxes_sent = values.get("_submitted") is not None
    fields = []
    for field in fields_for(kind):
        value = values.get(field.name)
        if field.widget in ("flag", "switch") and checkboxes_sent and value is None:
            value = "\0off"  # an unticked box is absent from a submitted form
        fields.append(_field_html(field, value, errors.get(field.name, "")))
    live = "0" if kind in LONG_KINDS else "1"
    note = ("Modelling and checking a board takes a minute or more; progress shows below and Cancel stops it."
            if kind in LONG_KINDS else "The preview follows your changes.")
    body = f"""
<h1>{escape(KINDS[kind])} <code>printables {escape(kind)}</code></h1>
<div class="columns">
<form id="form" method="post" action="/{escape(kind)}" data-kind="{escape(kind)}" data-live="{live}" novalidate>
<input type="hidden" name="_submitted" value="1">
{"".join(fields)}
<p class="error form-error" id="form-error" role="alert">{escape(form_error)}</p>
<div class="buttons"><button type="submit" id="make">Make and check</button>
<button type="button" id="cancel" hidden>Cancel</button></div>
<p class="note">{escape(note)} Files go to a folder of their own for this request.</p>
</form>
<section id="result" data-state="idle" aria-live="polite"><p class="status" id="status">Nothing made yet.</p>
<ol class="progress" id="progress"></ol><div id="output"></div></section>
</div>"""
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
    return (f'<table class="checks"><thead><tr><th>file</th><th>check</th><th></th><th>found</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>")


def _preview_order(relative: str) -> tuple[int, str]:
    name = Path(relative).name
    for rank, end in enumerate(("-open.png", "-folded.png")):
        if name.endswith(end):
            return rank, relative
    return (3 if relative.startswith("previews/") else 2), relative


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
        parts.append(f'<p class="verdict fail" id="verdict">{len(failed)} of {len(checks)} checks failed.</p>')
    elif checks:
        parts.append(f'<p class="verdict ok" id="verdict">All {len(checks)} checks passed.</p>')
    if result.get("message"):
        parts.append(f'<p class="warning">{escape(result["message"])}</p>')
    if not result.get("files") and result.get("stdout"):
        parts.append(f'<pre class="stdout">{escape(result["stdout"])}</pre>')
    stls = [f for f in result.get("files", []) if f.endswith(".stl")
            and (job.folder / f).stat().st_size <= STL_VIEW_MAX_BYTES]
    if stls:
        buttons = "".join(f'<button type="button" data-stl="{escape(file_url(job.id, f))}">{escape(Path(f).stem)}</button>'
                          for f in stls)
        parts.append(f'<div class="viewer"><canvas class="stl-view" width="640" height="420" '
                     f'data-stl="{escape(file_url(job.id, stls[0]))}"></canvas>'
                     f'<div class="stl-buttons">{buttons}</div><p class="hint">Drag to turn, wheel to zoom.</p></div>')
    previews = sorted(result.get("previews", []), key=_preview_order)
    if previews:
        figures = "".join(
            f'<figure><a href="{escape(file_url(job.id, p))}" target="_blank"><img class="preview" '
            f'src="{escape(file_url(job.id, p))}" alt="{escape(Path(p).name)}"></a>'
            f"<figcaption>{escape(Path(p).name)}</figcaption></figure>" for p in previews)
        parts.append(f'<div class="previews">{figures}</div>')
    files = result.get("files", [])
    if files:
        links = "".join(
            f'<li><a class="download" href="{escape(file_url(job.id, f))}" download="{escape(Path(f).name)}">'
            f"{escape(Path(f).name)}</a> <span class=\"size\">{_size(job.folder / f)}</span></li>" for f in files)
        parts.append(f'<h2>Files</h2><ul class="files">{links}</ul>')
    command = shlex.join(["printables", job.kind, *result.get("args", [])])
    parts.append(f'<p class="command">Same as <code>{escape(command)}</code></p>')
    if checks:
        parts.append(f"<h2>Checks</h2>{checks_table(checks)}")
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
