"""Take the README's screenshots of the customizer and the gallery with headless Chromium.

    python docs/screenshots.py

Needs the Debian chromium and chromium-driver and the test extra (selenium). Writes
docs/serve-harvest.png (the Harvest page after a change), docs/serve-giuthi.png and
docs/serve-giuthi-phone.png (the Giuthi page at 1280 and 390 px wide: the board's quick preview of
a 200 x 140 mm board, over budget, while its print files are made), and docs/gallery.png (the
gallery of a few presets, opened from disk).
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
    """Headless Chromium showing pages this size (a phone's width is emulated: a headless window
    is at least 500 px wide)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={max(width, 600)},{height}",
                "--hide-scrollbars", "--enable-unsafe-swiftshader"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    if width < 600:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    return driver


def wait_for(condition, timeout: float, what: str):
    """Poll ``condition`` until it is true."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise SystemExit(f"timed out waiting for {what}")


def giuthi_shots(wide: Path, phone: Path) -> None:
    """The Giuthi page with a 200 x 140 mm board: its preview, the budget warning, and the print
    files being made (step n of m in the bar), at 1280 and 390 px wide."""
    with tempfile.TemporaryDirectory() as root:
        server = make_server("127.0.0.1", 0, root=Path(root))
        serve_in_thread(server)
        try:
            for width, height, path in ((1280, 1000, wide), (390, 844, phone)):
                driver = browser(width, height)
                try:
                    driver.get(server.url + "giuthi?size=200x140&slice_parts=off")
                    canvas = driver.find_element("id", "preview-canvas")
                    wait_for(lambda: canvas.get_attribute("data-state") == "shown", 180, "the board preview")
                    wait_for(lambda: driver.find_elements("id", "use-fitting"), 180, "the budget advice")
                    driver.find_element("id", "make").click()
                    step = driver.find_element("id", "step")
                    wait_for(lambda: "modelling" in step.text, 180, "the set to be modelled")
                    driver.execute_script("window.scrollTo(0, 0)")
                    time.sleep(0.5)
                    driver.save_screenshot(str(path))
                    driver.find_element("id", "cancel").click()
                finally:
                    driver.quit()
        finally:
            stop(server)


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
    giuthi_shots(DOCS / "serve-giuthi.png", DOCS / "serve-giuthi-phone.png")
    if "--no-gallery" not in sys.argv:
        gallery_shot(DOCS / "gallery.png")
    print("wrote docs/serve-harvest.png, docs/serve-giuthi.png, docs/serve-giuthi-phone.png and docs/gallery.png",
          file=sys.stderr)
