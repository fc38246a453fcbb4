"""``printables serve`` and the gallery, driven in a real headless Chromium (Selenium, the Debian
chromium and chromedriver), plus the server's refusals over plain HTTP."""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from printables.check.dispatch import check_file
from printables.cli import main
from printables.serve import forms
from printables.serve.server import CustomizerServer, make_server, serve_in_thread, stop
from printables.serve.jobs import Jobs

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
HAVE_BROWSER = Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()
# CI installs chromium (see .ci/run): there a missing browser is a failure, not a skip.
needs_browser = pytest.mark.skipif(not HAVE_BROWSER and not os.environ.get("CI"),
                                   reason="chromium and chromium-driver are not installed")


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = make_server("127.0.0.1", 0, root=tmp_path_factory.mktemp("jobs"))
    serve_in_thread(srv)
    yield srv
    stop(srv, remove_files=False)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1300,1000",
                "--enable-unsafe-swiftshader"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {
        "download.default_directory": str(downloads), "download.prompt_for_download": False,
    })
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    yield driver
    driver.quit()


def wait_for(condition, timeout: float = 60.0, step: float = 0.2, what: str = "condition"):
    """Poll ``condition`` until it gives a true value. While a page is being replaced (a form posted
    without JavaScript reloads it) an element found a moment ago may be gone: that is "not yet"."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            value = condition()
        except (StaleElementReferenceException, NoSuchElementException):
            value = None
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def result_state(browser) -> tuple[str, str]:
    section = browser.find_element("id", "result")
    return section.get_attribute("data-state"), section.get_attribute("data-job") or ""


def wait_finished(browser, after_job: str = "", timeout: float = 60.0) -> str:
    """Wait until the page shows a finished job other than ``after_job``; returns its state."""
    def finished():
        state, job = result_state(browser)
        return state if state in ("done", "refused", "failed", "cancelled") and job != after_job else None
    return wait_for(finished, timeout, what="the job to finish")


def set_field(browser, name: str, value: str) -> None:
    field = browser.find_element("id", f"f-{name}")
    field.clear()
    field.send_keys(value)


def click_in_view(browser, element) -> None:
    """Scroll ``element`` to the middle of the window (clear of the sticky Make bar), then click it."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def submit(browser) -> None:
    browser.find_element("id", "make").click()


def image_loaded(browser, img) -> bool:
    return browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", img)


def download(browser, downloads: Path, link) -> Path:
    name = link.get_attribute("download")
    target = downloads / name
    if target.exists():
        target.unlink()
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)  # clear of the sticky Make bar
    # clicked where a person would: once the page has stopped moving (pictures above it loaded)
    def where():
        return browser.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.x, r.y]", link)

    def still():
        now = where()
        time.sleep(0.1)
        return now == where()
    wait_for(still, 10, what=f"the link to {name} to stand still")
    link.click()
    return wait_for(lambda: target if target.exists() and target.stat().st_size > 0 else None, 60,
                    what=f"the download of {name}")


def cli_error(*args: str) -> str:
    """The CLI's own one-line message for these arguments, without 'Error: '."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert line.startswith("Error: ") and "\n" not in line
    return line.removeprefix("Error: ")


# --------------------------------------------------------------------------- the form is the CLI


@pytest.mark.parametrize("kind", list(forms.KINDS))
def test_the_form_offers_every_cli_option_but_server_paths(kind):
    command = forms.command_for(kind)
    offered = {f.name for f in forms.fields_for(kind)}
    options = {p.name for p in command.params if isinstance(p, click.Option)}
    paths = {p.name for p in command.params if forms.is_server_path(p)}
    assert "output" in paths
    assert offered == options - paths
    for field in forms.fields_for(kind):
        param = next(p for p in command.params if p.name == field.name)
        assert field.help == (param.help or "")
        if isinstance(param.type, click.Choice):
            assert field.choices == tuple(param.type.choices)


def test_form_values_become_the_cli_arguments_that_parse_back_to_them():
    form = {"grid": "-3x7", "players": "4", "landscape": "on", "paper": "letter", "cell_mm": ""}
    args = forms.form_args("harvest", form)
    assert args == ["--grid=-3x7", "--players=4", "--paper=letter", "--landscape"]
    ctx = forms.command_for("harvest").make_context("harvest", list(args))
    assert (ctx.params["grid"], ctx.params["players"], ctx.params["landscape"], ctx.params["cell_mm"]) == \
        ("-3x7", 4, True, None)
    # a --x/--no-x switch turned off is the off option
    assert forms.form_args("giuthi", {"previews": "on"}) == ["--no-slice"]


def test_a_bad_field_gets_the_cli_message_without_a_job():
    errors = forms.field_errors("harvest", {"players": "abc", "paper": "b5", "grid": "10x10"})
    assert errors == {
        "players": cli_error("harvest", "--players", "abc"),
        "paper": cli_error("harvest", "--paper", "b5"),
    }


def test_parameter_object_messages_find_their_field():
    message = cli_error("harvest", "--players", "13")
    assert forms.field_for_message("harvest", message) == "players"
    assert forms.field_for_message("harvest", cli_error("harvest", "--cell", "3")) == "cell_mm"
    assert forms.field_for_message("harvest", cli_error("harvest", "--coins-per-turn", "0")) == "coins_per_turn"
    assert forms.field_for_message("giuthi", cli_error("giuthi", "--pits", "7", "--show")) == "pits"


# --------------------------------------------------------------------------- who may ask


def raw_request(port: int, path: str = "/", host: str | None = None, method: str = "GET",
                headers: dict | None = None, address: str = "127.0.0.1") -> tuple[int, str]:
    connection = http.client.HTTPConnection(address, port, timeout=10)
    connection.putrequest(method, path, skip_host=host is not None)
    if host is not None:
        connection.putheader("Host", host)
    for name, value in (headers or {}).items():
        connection.putheader(name, value)
    connection.putheader("Content-Length", "0")
    connection.endheaders()
    response = connection.getresponse()
    body = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, body


def test_a_foreign_host_header_is_refused(server):
    port = server.server_address[1]
    assert raw_request(port, "/harvest", host=f"127.0.0.1:{port}")[0] == 200
    assert raw_request(port, "/", host=f"localhost:{port}")[0] == 200
    status, body = raw_request(port, "/harvest", host="evil.example")
    assert status == 403 and "refused" in body and "evil.example" in body
    status, _ = raw_request(port, "/harvest", host=f"evil.example:{port}")
    assert status == 403
    # and a page of another site may not post a form to it (the browser sends its Origin)
    status, body = raw_request(port, "/harvest", method="POST", host=f"127.0.0.1:{port}",
                               headers={"Origin": "http://evil.example"})
    assert status == 403 and "evil.example" in body
    for origin in ("null", f"http://localhost:{port + 1}", "http://localhost"):  # a sandbox, another local site
        assert raw_request(port, "/harvest", method="POST", host=f"127.0.0.1:{port}",
                           headers={"Origin": origin})[0] == 403, origin
    status, _ = raw_request(port, "/harvest", method="POST", host=f"127.0.0.1:{port}",
                            headers={"Origin": f"http://127.0.0.1:{port}", "Accept": "application/json"})
    assert status == 202  # its own page's post starts a job


def _own_non_loopback_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent; picks the outgoing interface
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


def test_a_peer_that_is_not_this_machine_is_refused(tmp_path):
    address = _own_non_loopback_address()
    if address is None:
        pytest.skip("this machine has no address but loopback")
    srv = CustomizerServer("0.0.0.0", 0, Jobs(tmp_path), allow_remote=False)
    serve_in_thread(srv)
    try:
        port = srv.server_address[1]
        status, body = raw_request(port, "/", host=f"localhost:{port}", address=address)
        assert status == 403 and address in body
        assert raw_request(port, "/", host=f"localhost:{port}")[0] == 200
    finally:
        stop(srv)


def test_serve_refuses_a_port_in_use_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))  # its sweep and folder stay in the test's
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert result.output.strip() == f"Error: --port {port}: already in use; choose another, or --port 0 for any free port"
    assert list(tmp_path.iterdir()) == []  # no temp folder left behind (they piled up in /tmp)


# --------------------------------------------------------------------------- in the browser


@needs_browser
def test_harvest_form_previews_downloads_and_checks(server, browser, downloads, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing may be written where the server was started
    browser.get(server.url + "harvest")
    assert wait_finished(browser) == "done"  # the defaults, previewed as the page opens
    first_job = result_state(browser)[1]
    first_src = browser.find_element("css selector", "img.preview").get_attribute("src")

    set_field(browser, "grid", "8x12")
    set_field(browser, "players", "3")
    submit(browser)
    assert wait_finished(browser, after_job=first_job) == "done"
    job = result_state(browser)[1]
    img = browser.find_element("css selector", "img.preview")
    assert img.get_attribute("src") != first_src and "harvest-8x12-3p-a4" in img.get_attribute("src")
    wait_for(lambda: image_loaded(browser, img), 20, what="the preview image")
    # the page kept the picture's room before it loaded, at the picture's own proportions
    shown = browser.execute_script("const i = arguments[0]; return [i.clientWidth, i.clientHeight,"
                                   " i.naturalWidth, i.naturalHeight]", img)  # inside its border
    assert abs(shown[0] - int(img.get_attribute("width"))) <= 1 and abs(shown[1] - int(img.get_attribute("height"))) <= 1
    assert abs(shown[0] / shown[1] - shown[2] / shown[3]) < 0.01
    assert browser.find_element("id", "verdict").text.startswith("Ready to print: ")

    link = browser.find_element("css selector", "a.download")
    pdf = download(browser, downloads, link)
    assert pdf.name == "harvest-8x12-3p-a4.pdf"
    results = check_file(pdf)
    assert results and all(r.ok for r in results), [str(r) for r in results]
    grid = next(r for r in results if r.name == "grid")
    assert "8x12" in grid.detail
    # the file came from the job's own folder, and nothing was written anywhere else
    served = server.jobs.get(job).folder / "output" / "harvest" / pdf.name
    assert served.read_bytes() == pdf.read_bytes()
    assert list(tmp_path.iterdir()) == []


@needs_browser
def test_a_bad_value_shows_the_cli_message_next_to_its_field(server, browser):
    browser.get(server.url + "harvest")
    wait_finished(browser)
    set_field(browser, "players", "abc")
    submit(browser)
    error = browser.find_element("id", "error-players")
    wait_for(lambda: error.text, 20, what="the message next to --players")
    assert error.text == cli_error("harvest", "--players", "abc")
    assert "bad" in browser.find_element("id", "field-players").get_attribute("class")
    assert browser.find_element("id", "error-grid").text == ""

    # a limit only the parameter object knows comes back from the job, in the CLI's words
    set_field(browser, "players", "13")
    submit(browser)
    wait_for(lambda: result_state(browser)[0] == "refused", 30, what="the job to be refused")
    assert error.text == cli_error("harvest", "--players", "13")


@needs_browser
def test_two_tabs_at_once_use_separate_folders(server, browser, downloads):
    browser.get(server.url + "harvest")
    wait_finished(browser)
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    second = browser.current_window_handle
    browser.get(server.url + "harvest")
    wait_finished(browser)
    jobs_before = {h: None for h in (first, second)}
    for handle, grid in ((first, "9x9"), (second, "11x7")):
        browser.switch_to.window(handle)
        jobs_before[handle] = result_state(browser)[1]
        set_field(browser, "grid", grid)
        submit(browser)
    pdfs = {}
    for handle, grid in ((first, "9x9"), (second, "11x7")):
        browser.switch_to.window(handle)
        assert wait_finished(browser, after_job=jobs_before[handle]) == "done"
        job = server.jobs.get(result_state(browser)[1])
        pdfs[grid] = download(browser, downloads, browser.find_element("css selector", "a.download"))
        assert [p.name for p in (job.folder / "output" / "harvest").iterdir()] == [pdfs[grid].name]
    browser.close()
    browser.switch_to.window(first)
    for grid, pdf in pdfs.items():
        assert grid in next(r for r in check_file(pdf) if r.name == "grid").detail


@needs_browser
def test_a_giuthi_job_shows_progress_and_can_be_cancelled(server, browser):
    browser.get(server.url + "giuthi")
    submit(browser)
    wait_for(lambda: "modelling" in browser.find_element("id", "progress").text, 120, what="modelling to start")
    job = server.jobs.get(result_state(browser)[1])
    browser.find_element("id", "cancel").click()
    assert wait_finished(browser, timeout=30) == "cancelled"
    assert job.process.poll() is not None  # the worker is gone
    assert not list(job.folder.rglob("*.stl"))  # and left no half-made set


@needs_browser
@pytest.mark.slow
def test_giuthi_board_builds_with_previews_and_a_3d_view_and_its_stl_downloads(server, browser, downloads):
    import trimesh

    browser.get(server.url + "giuthi")
    click_in_view(browser, browser.find_element("css selector", "#advanced > summary"))  # slicing is advanced
    click_in_view(browser, browser.find_element("id", "f-slice_parts"))  # --no-slice: the print card without slicer times
    assert not browser.find_element("id", "f-slice_parts").is_selected()
    submit(browser)
    assert wait_finished(browser, timeout=900) == "done", browser.find_element("id", "output").text
    assert browser.find_element("id", "verdict").text.startswith("Ready to print: ")
    images = browser.find_elements("css selector", "img.preview")
    names = [i.get_attribute("alt") for i in images]
    assert names[0].endswith("-open.png") and names[1].endswith("-folded.png")
    for img in images[:2]:
        wait_for(lambda img=img: image_loaded(browser, img), 20, what="the open and folded previews")

    canvas = browser.find_element("css selector", "#output canvas.stl-view")  # the made parts, not the preview
    wait_for(lambda: canvas.get_attribute("data-state") == "shown", 60, what="the 3D view")
    link = next(a for a in browser.find_elements("css selector", "a.download")
                if a.get_attribute("download") == Path(canvas.get_attribute("data-url")).name)
    stl = download(browser, downloads, link)
    mesh = trimesh.load_mesh(stl, file_type="stl")
    assert mesh.is_watertight
    assert int(canvas.get_attribute("data-triangles")) == len(mesh.faces)
    assert canvas.get_attribute("data-size") == "x".join(f"{v:.1f}" for v in mesh.extents)
    job = server.jobs.get(result_state(browser)[1])
    assert (job.folder / "output" / "giuthi" / stl.name).read_bytes() == stl.read_bytes()
    checked = [c for c in job.result["checks"] if c["file"].startswith("giuthi-board-")]
    assert checked and all(c["ok"] for c in checked)  # the set beside it (manifest included) was checked


@needs_browser
def test_the_gallery_opens_from_disk_with_its_images(browser, tmp_path):
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["build", "harvest-10x10-a4", "patchwork-a4-low-ink", "-o", str(out)])
    assert result.exit_code == 0, result.output
    moved = tmp_path / "moved"  # relative links: the folder works wherever it is copied
    shutil.move(out, moved)
    index = moved / "index.html"
    html = index.read_text()
    assert str(tmp_path) not in html and "file:" not in html and 'src="/' not in html and 'href="/' not in html
    browser.get(index.as_uri())
    images = browser.find_elements("css selector", "img")
    assert len(images) >= 2
    for img in images:
        browser.execute_script("arguments[0].scrollIntoView()", img)
        wait_for(lambda img=img: image_loaded(browser, img), 20, what=f"{img.get_attribute('src')} to load")
    for name in ("harvest-10x10-a4", "patchwork-a4-low-ink"):
        article = browser.find_element("id", name)
        assert "checks passed" in article.text
        for link in article.find_elements("css selector", "ul.files a"):
            target = Path(link.get_attribute("href").removeprefix("file://"))
            assert target.is_file() and target.is_relative_to(moved)


# --------------------------------------------------------------------------- more of the server


def test_only_the_jobs_own_files_and_the_static_folder_are_served(server):
    port = server.server_address[1]
    host = f"127.0.0.1:{port}"
    job = server.jobs.start("harvest", ["--grid=6x6"])
    assert server.jobs.wait(job.id, 60).state == "done"
    pdf = next(f for f in job.result["files"] if f.endswith(".pdf"))
    assert raw_request(port, f"/jobs/{job.id}/files/{pdf}", host=host)[0] == 200
    for path in (f"/jobs/{job.id}/files/job.json", f"/jobs/{job.id}/files/../{job.id}/job.json",
                 f"/jobs/{job.id}/files/%2e%2e/%2e%2e/etc/passwd", "/static/../server.py",
                 "/static/%2e%2e/server.py", "/jobs/0123456789abcdef/files/x.pdf"):
        assert raw_request(port, path, host=host)[0] == 404, path
    assert raw_request(port, "/static/app.js", host=host)[0] == 200


def test_serve_listens_on_loopback_by_default_and_removes_its_files_when_stopped(tmp_path):
    import re
    import signal
    import subprocess
    import sys

    from printables.serve.command import serve as serve_command

    assert next(p for p in serve_command.params if p.name == "host").default == "127.0.0.1"

    env = {**os.environ, "TMPDIR": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-m", "printables", "serve", "--port", "0"], cwd=tmp_path,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stderr.readline()
        match = re.match(r"Customizer at http://127\.0\.0\.1:(\d+)/ \(files in (\S+);", line)
        assert match, line
        port, root = int(match.group(1)), Path(match.group(2))
        assert root.is_dir() and root.is_relative_to(tmp_path)
        assert raw_request(port, "/harvest", host=f"127.0.0.1:{port}")[0] == 200
    finally:
        process.send_signal(signal.SIGINT)
        rest = process.communicate(timeout=30)[1]
    assert process.returncode == 0, rest
    assert "stopped" in rest and not root.exists()


def test_the_gallery_keeps_earlier_builds_and_shows_failed_checks(tmp_path):
    import json

    from printables.gallery import GALLERY, RECORD, load_records, render_index

    out = tmp_path / "out"
    for name in ("harvest-10x10-a4", "minefield-9x9-a4"):  # two builds into one folder
        result = CliRunner().invoke(main, ["build", name, "-o", str(out)])
        assert result.exit_code == 0, result.output
    html = (out / "index.html").read_text()
    assert 'id="harvest-10x10-a4"' in html and 'id="minefield-9x9-a4"' in html
    assert "2 preset(s)" in html and "2 of 2 pass every check" in html

    record_path = out / GALLERY / "minefield-9x9-a4" / RECORD
    record = json.loads(record_path.read_text())
    record["checks"][1] = {**record["checks"][1], "ok": False, "detail": "broken on purpose"}
    record_path.write_text(json.dumps(record))
    html = render_index(load_records(out), out)
    assert "1 of 2 pass every check" in html
    assert f"1 of {len(record['checks'])} checks failed" in html and "broken on purpose" in html

    # an entry whose files are gone leaves the gallery
    for pdf in (out / "minefield").glob("*.pdf"):
        pdf.unlink()
    assert [r["name"] for r in load_records(out)] == ["harvest-10x10-a4"]


def test_without_javascript_the_form_posts_to_a_page_that_follows_the_job(server):
    port = server.server_address[1]
    host = f"127.0.0.1:{port}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("POST", "/minefield", body="size=7&paper=letter&_submitted=1",
                       headers={"Host": host, "Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    response.read()
    assert response.status == 303
    location = response.getheader("Location")
    job_id = location.rsplit("/", 1)[1]
    assert server.jobs.wait(job_id, 60).state == "done"
    status, page = raw_request(port, location, host=host)
    assert status == 200 and "checks passed" in page and "minefield-7x7-letter.pdf" in page
    # a bad value comes back as the form, with the CLI's message next to the field
    connection.request("POST", "/minefield", body="size=x&_submitted=1",
                       headers={"Host": host, "Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    page = response.read().decode()
    assert response.status == 400
    message = cli_error("minefield", "--size", "x")
    assert f'id="error-size" role="alert">{message}</p>' in page
    connection.close()


# --------------------------------------------------------------------------- without JavaScript, a refusal


def post_form(port: int, path: str, fields: dict[str, str]) -> tuple[int, str]:
    """A plain HTML form post, as a browser without JavaScript sends it (urllib, no redirects kept)."""
    import urllib.error
    import urllib.parse
    import urllib.request

    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method="POST",
                                     data=urllib.parse.urlencode(fields).encode(),
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def field_value(page: str, name: str) -> str:
    import re
    from html import unescape

    match = re.search(rf'<input id="f-{name}" type="text" name="{name}" value="([^"]*)"', page)
    assert match, f"no text field {name}"
    return unescape(match.group(1))


def field_error(page: str, name: str) -> str:
    import re
    from html import unescape

    match = re.search(rf'<p class="error" id="error-{name}" role="alert">([^<]*)</p>', page)
    assert match, f"no error paragraph for {name}"
    return unescape(match.group(1))


def test_without_javascript_a_value_the_cli_refuses_comes_back_in_the_form_by_its_field(server):
    port = server.server_address[1]
    # 'abc' passes the click type (a text option): the CLI itself refuses it, in the job
    status, page = post_form(port, "/harvest", {"grid": "abc", "players": "3", "paper": "letter",
                                                "landscape": "on", "_submitted": "1"})
    assert status == 400
    assert '<form id="form" method="post" action="/harvest"' in page and "Refused:" not in page
    assert field_error(page, "grid") == cli_error("harvest", "--grid", "abc")
    assert 'class="field bad" id="field-grid"' in page
    assert field_error(page, "players") == ""
    # what was typed is kept
    assert field_value(page, "grid") == "abc" and field_value(page, "players") == "3"
    assert '<option value="letter" selected>' in page
    assert 'name="landscape" value="on" data-default="off" checked' in page
    # a limit of the parameter object, too
    status, page = post_form(port, "/harvest", {"players": "13", "_submitted": "1"})
    assert status == 400 and field_error(page, "players") == cli_error("harvest", "--players", "13")
    assert field_value(page, "players") == "13"


def test_a_refused_jobs_page_is_the_form_with_the_message_by_its_field(server):
    port = server.server_address[1]
    job = server.jobs.start("harvest", ["--grid=7y7"], form={"grid": "7y7", "_submitted": "1"})
    assert server.jobs.wait(job.id, 60).state == "refused"
    status, page = raw_request(port, f"/jobs/{job.id}", host=f"127.0.0.1:{port}")
    assert status == 400
    assert field_value(page, "grid") == "7y7"
    assert field_error(page, "grid") == cli_error("harvest", "--grid", "7y7")


@needs_browser
def test_without_javascript_in_chromium_the_refused_value_is_marked_in_the_form(server, tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.get(server.url + "harvest")
        assert driver.find_element("id", "status").text == "Nothing made yet."  # app.js did not run
        field = driver.find_element("id", "f-grid")
        field.clear()
        field.send_keys("abc")
        driver.find_element("id", "make").click()
        wait_for(lambda: driver.find_element("id", "error-grid").text, 30, what="the message by --grid")
        assert driver.find_element("id", "error-grid").text == cli_error("harvest", "--grid", "abc")
        assert driver.find_element("id", "f-grid").get_attribute("value") == "abc"
    finally:
        driver.quit()


# --------------------------------------------------------------------------- stale temp folders


def test_a_killed_servers_folder_is_swept_and_a_live_ones_is_kept(tmp_path, monkeypatch):
    import json
    import subprocess
    import sys

    from printables.serve import folders

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    killed = folders.make_root(tmp_path)
    (killed / "0123456789abcdef").mkdir()
    (killed / folders.OWNER_FILE).write_text(json.dumps({"pid": dead.pid, "start": None}))
    live = folders.make_root(tmp_path)  # this process: alive
    reused = folders.make_root(tmp_path)  # this pid, but a process that started at another time
    (reused / folders.OWNER_FILE).write_text(json.dumps({"pid": os.getpid(), "start": "1"}))
    unowned_new = tmp_path / "printables-serve-old1"  # an older version's folder, just used
    unowned_new.mkdir()
    unowned_old = tmp_path / "printables-serve-old2"
    (unowned_old / "x").mkdir(parents=True)
    for path in (unowned_old, unowned_old / "x"):
        os.utime(path, (time.time() - 2 * folders.UNOWNED_STALE_S,) * 2)
    other = tmp_path / "something-else"
    other.mkdir()

    srv = make_server("127.0.0.1", 0)  # sweeps, then makes its own folder
    serve_in_thread(srv)
    try:
        assert not killed.exists() and not reused.exists() and not unowned_old.exists()
        assert live.is_dir() and unowned_new.is_dir() and other.is_dir()
        root = srv.jobs.root
        assert root.parent == tmp_path and json.loads((root / folders.OWNER_FILE).read_text())["pid"] == os.getpid()
        assert folders.sweep_stale(tmp_path) == []  # a live server's folder stays
    finally:
        stop(srv)
    assert not root.exists()


def test_a_port_in_use_leaves_no_temp_folder(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        with pytest.raises(OSError):
            make_server("127.0.0.1", busy.getsockname()[1])
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- a hostile local client


def raw_exchange(port: int, data: bytes, read_timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=read_timeout) as sock:
        sock.sendall(data)
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except (TimeoutError, ConnectionResetError):
                break
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def test_huge_odd_or_chunked_form_bodies_are_refused_and_the_connection_closed(server):
    from printables.serve.server import MAX_FORM_BYTES

    port = server.server_address[1]
    head = f"POST /harvest HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
    # a body announced larger than the limit is not read; the connection closes (no hang, no smuggling)
    start = time.monotonic()
    answer = raw_exchange(port, (head + f"Content-Length: {10**12}\r\n\r\n").encode() + b"grid=1")
    assert answer.startswith(b"HTTP/1.1 413") and f"at most {MAX_FORM_BYTES}".encode() in answer
    assert time.monotonic() - start < 5
    for length in ("-1", "12abc", "1e3"):
        answer = raw_exchange(port, (head + f"Content-Length: {length}\r\n\r\n").encode())
        assert answer.startswith(b"HTTP/1.1 400") and b"not a number of bytes" in answer, length
    answer = raw_exchange(port, (head + "Transfer-Encoding: chunked\r\n\r\n5\r\ngrid=\r\n0\r\n\r\n").encode())
    assert answer.startswith(b"HTTP/1.1 411") and answer.count(b"HTTP/1.1") == 1
    # the server still answers
    assert raw_request(port, "/harvest", host=f"127.0.0.1:{port}")[0] == 200


def test_odd_paths_are_not_found_not_errors(server):
    port = server.server_address[1]
    host = f"127.0.0.1:{port}"
    for path in ("/static/%00", "/static/app.js%00.png", "/jobs/0123456789abcdef/files/%00",
                 "/static/..%2f..%2fserver.py", "/static//etc/passwd", "/jobs/0123456789ABCDEF"):
        assert raw_request(port, path, host=host)[0] == 404, path


def test_too_many_jobs_at_once_are_refused_with_a_clear_message(tmp_path):
    srv = CustomizerServer("127.0.0.1", 0, Jobs(tmp_path, max_running=1, max_active=2), allow_remote=False)
    serve_in_thread(srv)
    try:
        port = srv.server_address[1]
        first = srv.jobs.start("giuthi", [])  # long: modelling
        second = srv.jobs.start("harvest", [])  # waits for the first
        status, body = raw_request(port, "/harvest", method="POST", host=f"127.0.0.1:{port}",
                                   headers={"Accept": "application/json"})
        assert status == 503
        assert json_error(body) == "busy: 2 jobs are running or waiting (at most 2 at once); " \
                                   "wait for one to finish, or cancel one"
        status, page = post_form(port, "/harvest", {"grid": "9x9", "_submitted": "1"})  # without JavaScript
        assert status == 503 and "busy: 2 jobs" in page and field_value(page, "grid") == "9x9"
        srv.jobs.cancel(first.id)
        assert srv.jobs.wait(second.id, 60).state == "done"
        third = srv.jobs.start("harvest", [])  # room again
        assert srv.jobs.wait(third.id, 60).state == "done"
    finally:
        stop(srv)


def json_error(body: str) -> str:
    import json

    return json.loads(body)["error"]


def test_the_jobs_folders_have_a_quota_the_oldest_go_first(tmp_path):
    from printables.serve.jobs import Busy, folder_bytes

    jobs = Jobs(tmp_path, max_bytes=10**9)
    made = []
    for grid in ("6x6", "7x7", "8x8"):
        job = jobs.start("harvest", [f"--grid={grid}"])
        assert jobs.wait(job.id, 60).state == "done"
        made.append(job)
    one = folder_bytes(made[0].folder)
    assert one > 10_000
    # a quota of about two jobs: the next start deletes the oldest first, keeping the newest
    jobs.max_bytes = int(2.5 * one)
    jobs._prune()
    assert jobs.get(made[0].id) is None and not made[0].folder.exists()
    assert jobs.get(made[2].id) is not None and made[2].folder.is_dir()
    assert folder_bytes(tmp_path) <= jobs.max_bytes or jobs.get(made[1].id) is None
    # running jobs that fill it: a new one is refused, saying why
    jobs.max_bytes = 1
    blocker = jobs.start("giuthi", [])
    (blocker.folder / "filler").write_bytes(b"x" * 1000)
    with pytest.raises(Busy, match=r"^full: the customizer's files take \d+ MB \(at most 0 MB\)"):
        jobs.start("harvest", [])
    jobs.shutdown()
    assert jobs.wait(blocker.id, 30).state == "cancelled"


def test_the_gallery_shows_translated_presets_with_their_checks(tmp_path):
    import json
    import tomllib
    from html import escape

    from printables.gallery import GALLERY, RECORD, load_records, render_index

    out = tmp_path / "out"
    names = ("harvest-10x10-a4-ko", "minefield-11x11-a4-tr")
    result = CliRunner().invoke(main, ["build", *names, "-o", str(out)])
    assert result.exit_code == 0, result.output
    html = (out / "index.html").read_text(encoding="utf-8")
    for name in names:
        description = tomllib.loads((Path(__file__).resolve().parent.parent / "templates" / f"{name}.toml").read_text(encoding="utf-8"))["description"]
        record = json.loads((out / GALLERY / name / RECORD).read_text(encoding="utf-8"))
        assert record["params"]["lang"] == name.rsplit("-", 1)[1]
        assert f'<article id="{name}">' in html and escape(description) in html
        assert f"all {len(record['checks'])} checks passed" in html and len(record["checks"]) > 10
        assert all((out / p).is_file() for p in record["previews"]) and record["previews"]
        pdf = Path(record["files"][0]).name
        assert all(c["name"].startswith(f"{pdf}: ") for c in record["checks"])
    assert any(ord(ch) >= 0xAC00 for ch in html)  # the Korean description, as UTF-8
    # a check row names the check, not again the file (the preset has one)
    assert "<td>kind</td>" in html and ".pdf: kind" not in html
    # several files: a row naming each file heads its checks
    record = {**load_records(out)[0], "files": ["harvest/a.pdf", "harvest/b.pdf"],
              "checks": [{"name": "a.pdf: kind", "ok": True, "detail": "harvest"},
                         {"name": "b.pdf: kind", "ok": False, "detail": "wrong"},
                         {"name": "set: pairs", "ok": True, "detail": "both"}]}
    page = render_index([record])
    assert '<tr class="file"><th colspan="3">a.pdf</th></tr><tr class="ok"><td>ok</td><td>kind</td>' in page
    assert '<tr class="file"><th colspan="3">b.pdf</th></tr><tr class="fail"><td>FAIL</td><td>kind</td>' in page
    assert "<td>set: pairs</td>" in page


def test_connections_beyond_the_cap_are_told_busy_and_closed(tmp_path):
    import threading

    srv = CustomizerServer("127.0.0.1", 0, Jobs(tmp_path), allow_remote=False)
    srv.max_connections = 1
    answering = threading.Event()
    release = threading.Event()

    def held_wait(job_id, timeout):  # a form posted without JavaScript waits here for the job
        answering.set()
        release.wait(30)
        return srv.jobs.get(job_id)

    srv.jobs.wait = held_wait
    serve_in_thread(srv)
    try:
        port = srv.server_address[1]
        # the only place is answering a request: a new connection is told busy and closed
        poster = threading.Thread(target=post_form, args=(port, "/harvest", {"grid": "6x6"}), daemon=True)
        poster.start()
        assert answering.wait(30)
        answer = raw_exchange(port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        assert answer.startswith(b"HTTP/1.1 503") and answer.endswith(b"busy: too many connections at once; try again")
        release.set()
        poster.join(30)
        time.sleep(0.3)  # its place is free again
        assert raw_request(port, "/", host=f"127.0.0.1:{port}")[0] == 200
    finally:
        release.set()
        stop(srv)


def test_a_job_may_not_write_a_file_past_the_per_file_quota(tmp_path):
    jobs = Jobs(tmp_path, max_file_bytes=10_000)  # a Harvest sheet is ~30 kB
    job = jobs.start("harvest", [])
    assert jobs.wait(job.id, 60).state == "refused"
    assert job.error.startswith("cannot write ") and job.error.endswith("File too large"), job.error
    assert not list(job.folder.rglob("*.pdf"))  # nothing half-written
    roomy = Jobs(tmp_path / "roomy")
    job = roomy.start("harvest", [])
    assert roomy.wait(job.id, 60).state == "done"


def test_a_page_picture_is_given_the_size_it_is_shown_at(tmp_path):
    """The results page reserves each picture's room before it loads (the download links below do
    not move under a click): its shown size, within the 420 x 560 px box, from the file's header."""
    from PIL import Image

    from printables.serve.pages import _shown_size

    Image.new("RGB", (1000, 1414), "white").save(tmp_path / "a4.png")
    Image.new("RGB", (300, 200), "white").save(tmp_path / "small.png")
    Image.new("RGB", (2000, 500), "white").save(tmp_path / "wide.png")
    (tmp_path / "broken.png").write_bytes(b"not a picture")
    assert _shown_size(tmp_path / "a4.png") == ' width="396" height="560"'
    assert _shown_size(tmp_path / "small.png") == ' width="300" height="200"'
    assert _shown_size(tmp_path / "wide.png") == ' width="420" height="105"'
    assert _shown_size(tmp_path / "broken.png") == "" and _shown_size(tmp_path / "missing.png") == ""
