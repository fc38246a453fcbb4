"""Take the README's screenshots of the customizer and the gallery with headless Chromium.

    python docs/screenshots.py

Needs the Debian chromium and chromium-driver and the test extra (selenium). Writes
docs/serve-harvest.png (the Harvest page after a change) and docs/gallery.png (the gallery of a
few presets, opened from disk).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from printables.cli import main
from printables.serve.server import make_server, serve_in_thread, stop

DOCS = Path(__file__).resolve().parent
GALLERY_PRESETS = ("harvest-10x10-a4", "harvest-14x14-4p-a4", "minefield-11x11-a4", "peas-a6", "patchwork-a4")


def browser(width: int, height: int) -> webdriver.Chrome:
    """Headless Chromium at this window size."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}",
                "--hide-scrollbars", "--enable-unsafe-swiftshader"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_done(driver, after: str = "", timeout: float = 60) -> None:
    """Wait until the page shows a finished job other than ``after``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        section = driver.find_element("id", "result")
        if section.get_attribute("data-state") == "done" and section.get_attribute("data-job") != after:
            return
        time.sleep(0.2)
    raise SystemExit("the customizer did not finish in time")


def customizer_shot(path: Path) -> None:
    """The Harvest page with a 12x12 grid for 3 players made and checked."""
    with tempfile.TemporaryDirectory() as root:
        server = make_server("127.0.0.1", 0, root=Path(root))
        serve_in_thread(server)
        driver = browser(1300, 940)
        try:
            driver.get(server.url + "harvest")
            wait_done(driver)
            first = driver.find_element("id", "result").get_attribute("data-job")
            for name, value in (("grid", "12x12"), ("players", "3")):
                field = driver.find_element("id", f"f-{name}")
                field.clear()
                field.send_keys(value)
            driver.find_element("id", "make").click()
            wait_done(driver, after=first)
            driver.execute_script("window.scrollTo(0, 0)")
            time.sleep(0.5)
            driver.save_screenshot(str(path))
        finally:
            driver.quit()
            stop(server)


def gallery_shot(path: Path) -> None:
    """The top of the gallery that ``printables build`` writes, opened from disk."""
    with tempfile.TemporaryDirectory() as out:
        result = CliRunner().invoke(main, ["build", *GALLERY_PRESETS, "-o", out])
        if result.exit_code != 0:
            raise SystemExit(result.output)
        driver = browser(1400, 1500)
        try:
            driver.get((Path(out) / "index.html").as_uri())
            time.sleep(0.5)
            driver.save_screenshot(str(path))
        finally:
            driver.quit()


if __name__ == "__main__":
    customizer_shot(DOCS / "serve-harvest.png")
    gallery_shot(DOCS / "gallery.png")
    print("wrote docs/serve-harvest.png and docs/gallery.png", file=sys.stderr)
