"""The diagram taken away, in Chromium: the SVG download stands alone (no class, no stylesheet: the
look is written on each element), names every row and value and says what the glyphs mean; it
renders as an image by itself; the PNG download is the same picture at twice the size."""
import struct
import time
import xml.etree.ElementTree as ElementTree

from selenium.webdriver.common.by import By

from conftest import ARTIFACTS
from test_lanes import run_program
from test_page import check_console, latest, wait

SVG = "{http://www.w3.org/2000/svg}"


RENDERED_SIZE = """
  const done = arguments[arguments.length - 1];
  const image = new Image();
  image.onload = () => done([image.naturalWidth, image.naturalHeight]);
  image.onerror = () => done(null);
  image.src = URL.createObjectURL(new Blob([arguments[0]], { type: 'image/svg+xml' }));
"""


def download(browser, folder, button, suffix):
    """Clicks `button` and returns the file with `suffix` it downloads into `folder` (bounded)."""
    before = {path.name for path in folder.iterdir()}
    browser.find_element(By.ID, button).click()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = [path for path in folder.iterdir() if path.suffix == suffix and path.name not in before]
        if found and not any(path.suffix == ".crdownload" for path in folder.iterdir()):
            return found[0]
        time.sleep(0.05)  # polling the download folder, not waiting for a result to be right
    raise AssertionError(f"nothing was downloaded by #{button}")


def check_standalone(browser, text):
    """The SVG depends on no class, and renders by itself (as the page's own blob: image) at its
    own size. Returns its root and that size."""
    root = ElementTree.fromstring(text)
    assert root.tag == f"{SVG}svg" and float(root.get("width")) > 300 and float(root.get("height")) > 100
    assert not [node for node in root.iter() if node.get("class")], "no element depends on the page's CSS"
    size = browser.execute_async_script(RENDERED_SIZE, text)
    assert size == [round(float(root.get("width"))), round(float(root.get("height")))]
    return root, size


def check_png(path, size):
    """A PNG twice the size of the SVG it was drawn from."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (size[0] * 2, size[1] * 2)
    return data


def test_the_diagram_downloads_as_a_standalone_svg_and_png(browser, make_playground, tmp_path):
    playground = make_playground(fast=False)
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    session = run_program(browser, playground, 'src = marbles("-a-b-c|")\nfirst = src.take(1)\n')
    playground.send(session, "advance", "400", "text/plain")
    wait(browser, lambda: latest(browser, "first") == "completed")

    text = download(browser, tmp_path, "export-svg", ".svg").read_text(encoding="utf-8")
    root, size = check_standalone(browser, text)
    words = [node.text for node in root.iter(f"{SVG}text") if node.text]
    assert "src" in words and "first" in words, "the rows are named"
    assert "a" in words, "the values are written"
    assert any("^ a subscription began" in word for word in words), "the legend says what the marks mean"
    assert any("fill" in (node.get("style") or "") for node in root.iter(f"{SVG}circle")), "the look is inline"
    (ARTIFACTS / "export-take.svg").write_text(text, encoding="utf-8")
    data = check_png(download(browser, tmp_path, "export-png", ".png"), size)
    (ARTIFACTS / "export-take.png").write_bytes(data)
    check_console(browser)


def test_a_gallery_entry_downloads_as_a_standalone_svg_and_png(browser, make_playground, tmp_path):
    """`switchToLatest`'s entry: its rows by name, its marbles' letters, its subscriptions' marks and
    its program, in one SVG that renders by itself; the PNG at twice its size."""
    from test_gallery import open_entry
    playground = make_playground()
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    output = open_entry(browser, playground, "switchToLatest")
    wait(browser, lambda: output())
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#gallery-outputs .gallery-subscription"))

    path = download(browser, tmp_path, "gallery-export-svg", ".svg")
    assert path.name == "gallery-switchToLatest.svg"
    text = path.read_text(encoding="utf-8")
    root, size = check_standalone(browser, text)
    words = [node.text for node in root.iter(f"{SVG}text") if node.text]
    names = browser.execute_script(
        "return [...document.querySelectorAll('#gallery-entry .gallery-row-name')].map((node) => node.textContent)")
    assert names and all(name in words for name in names), (names, words)
    assert "^" in words and "!" in words, "the subscriptions are drawn"
    assert any(word.startswith("switchToLatest — ") for word in words), "the program is written"
    (ARTIFACTS / "export-gallery-switchToLatest.svg").write_text(text, encoding="utf-8")
    data = check_png(download(browser, tmp_path, "gallery-export-png", ".png"), size)
    (ARTIFACTS / "export-gallery-switchToLatest.png").write_bytes(data)
    check_console(browser)
