"""Embedding: `/embed/…` pages are the only ones another site may frame, and `/oembed` describes
them. In Chromium, a test page on another origin frames an embed (drawn, and its marbles still
move) and the full page (refused)."""
import base64
import functools
import http.server
import json
import threading
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS
from test_page import wait


def encoded(text):
    """Text as the page encodes it in a link: base64url, no padding."""
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def oembed(playground, url, **extra):
    query = urllib.parse.urlencode({"url": url, **extra})
    status, _, raw = playground.request("GET", f"/oembed?{query}")
    return status, json.loads(raw)


def header(playground, path, name):
    status, headers, _ = playground.request("GET", path)
    assert status == 200, path
    return {key.lower(): value for key, value in headers.items()}.get(name.lower())


def test_only_the_embeds_may_be_framed(playground):
    for path in ["/", "/style.css", "/api/scenarios", "/embed.html", "/gallery/entries.json"]:
        assert "frame-ancestors 'none'" in header(playground, path, "Content-Security-Policy"), path
        assert header(playground, path, "X-Frame-Options") == "DENY", path
    for path in ["/embed/gallery/throttle", "/embed/gallery/compareFlattening", f"/embed/program?p={encoded('a = just(1)')}"]:
        policy = header(playground, path, "Content-Security-Policy")
        assert policy.endswith("frame-ancestors *") and "frame-ancestors 'none'" not in policy, path
        assert "default-src 'self'" in policy and "script-src 'self'" in policy, "all else is still the server's own"
        assert header(playground, path, "X-Frame-Options") is None, path


def test_oembed_describes_entries_comparisons_and_programs(playground):
    base = playground.url
    status, answer = oembed(playground, f"{base}/#gallery/throttle")
    assert status == 200, answer
    assert answer["version"] == "1.0" and answer["type"] == "rich" and answer["provider_name"] == "Reactive Playground"
    assert answer["title"].startswith("throttle") and answer["width"] == 720
    assert f'src="{base}/embed/gallery/throttle"' in answer["html"] and answer["html"].startswith("<iframe ")
    compare = encoded(json.dumps(["a.rateLimit(0.2s)"]))
    status, answer = oembed(playground, f"{base}/#gallery/throttle/compare={compare}", maxwidth="400", maxheight="200")
    assert status == 200 and answer["width"] == 400 and answer["height"] == 200
    assert f"/embed/gallery/throttle?compare={compare}" in answer["html"]
    program = encoded('a = marbles("-a-b|")\nout = a.take(1)')
    for url in [f"{base}/#program={program}", f"{base}/embed/program?p={program}"]:
        status, answer = oembed(playground, url)
        assert status == 200 and f"/embed/program?p={program}" in answer["html"], url
    assert oembed(playground, f"{base}/embed/gallery/compareCombining")[0] == 200


@pytest.mark.parametrize("url, status", [
    ("http://example.com/#gallery/throttle", 404),  # another site's address
    ("{base}/#gallery/noSuchEntry", 404),
    ("{base}/#gallery/throttle/compare=%%%", 404),
    ("{base}/#program=" + "_" * 5, 404),  # not base64url of UTF-8 text
    ("javascript:alert(1)//{base}/#gallery/throttle", 404),
    ("{base}/api/scenarios", 404),
    ("{base}/#program=AAAAA", 404),  # not whole base64
    ("", 400),
])
def test_oembed_refuses_what_is_not_an_embed_here(playground, url, status):
    got, answer = oembed(playground, url.format(base=playground.url))
    assert got == status, answer
    assert answer["error"]["code"] in ("not_found", "invalid_value") and answer["error"]["message"]


def test_oembed_checks_its_format_and_bounds(playground):
    url = f"{playground.url}/#gallery/throttle"
    assert oembed(playground, url, format="xml")[0] == 501
    assert oembed(playground, url, format="yaml")[0] == 400
    for bad in ["0", "10001", "-5", "1e3", "12.5", "99999999999999999999"]:
        assert oembed(playground, url, maxwidth=bad)[0] == 400, bad
    # A head past 8 KiB is refused before any handler (docs/API.md, "What libmicrohttpd answers itself").
    status, _, _ = playground.request("GET", "/oembed?url=" + "a" * 9_000)
    assert status == 431


@pytest.fixture
def other_origin(tmp_path):
    """A page on another origin (`localhost`, another port), serving `tmp_path`."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield tmp_path, f"http://localhost:{server.server_address[1]}"
    server.shutdown()


def test_another_site_frames_an_embed_and_not_the_page(browser, playground, other_origin):
    folder, origin = other_origin
    program = encoded('a = marbles("-a-b-c|")\nfirst = a.take(2)')
    (folder / "blog.html").write_text(
        "<!doctype html><html lang='en'><title>A blog post</title><link rel='icon' href='data:,'><body>"
        f"<iframe id='embed' title='embed' width='720' height='400' src='{playground.url}/embed/gallery/throttle'></iframe>"
        f"<iframe id='program' title='program' width='720' height='400' src='{playground.url}/embed/program?p={program}'></iframe>"
        f"<iframe id='page' title='page' width='720' height='400' src='{playground.url}/#gallery/throttle'></iframe>"
        "</body></html>")
    browser.set_window_size(1280, 1400)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{origin}/blog.html")

    browser.switch_to.frame(browser.find_element(By.ID, "embed"))
    output = lambda: [e.text for e in browser.find_elements(By.CSS_SELECTOR, '.gallery-output-notation[data-stream="out"]')]
    wait(browser, lambda: output() == ["----b-----d---|"])
    back = browser.find_element(By.ID, "embed-back")
    assert back.get_attribute("href") == f"{playground.url}/#gallery/throttle" and back.get_attribute("target") == "_blank"
    # Interactive: marble b moved two frames later by keyboard; a then passes its 0.2 s alone.
    browser.find_element(By.CSS_SELECTOR, '.gallery-marble[data-symbol="b"]').send_keys(Keys.ARROW_RIGHT)
    wait(browser, lambda: browser.switch_to.active_element.get_attribute("data-frame") == "3")
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    wait(browser, lambda: output() == ["---a--b---d---|"])
    browser.switch_to.default_content()

    browser.switch_to.frame(browser.find_element(By.ID, "program"))
    wait(browser, lambda: [e.text for e in browser.find_elements(By.CSS_SELECTOR, '.gallery-output-notation[data-stream="first"]')]
         == ["-a-(b|)"])
    assert browser.find_element(By.ID, "embed-back").get_attribute("href") == f"{playground.url}/#program={program}"
    browser.switch_to.default_content()

    browser.switch_to.frame(browser.find_element(By.ID, "page"))
    assert browser.find_elements(By.ID, "gallery-title") == [], "the full page refuses to be framed"
    browser.switch_to.default_content()
    log = browser.get_log("browser")
    assert any("frame-ancestors" in entry["message"] for entry in log), "Chromium says why it refused the page"
    others = [entry for entry in log if entry["level"] == "SEVERE" and "frame-ancestors" not in entry["message"]]
    assert not others, others
    browser.save_screenshot(str(ARTIFACTS / "embed-blog-1280px.png"))


@pytest.mark.parametrize("path, says", [
    ("/embed/gallery/noSuchEntry", "The gallery has no entry “noSuchEntry”."),
    ("/embed/program?p=@@@", "This program link is damaged: its text could not be read."),
    ("/embed/program", "This program link is damaged: its text could not be read."),
])
def test_an_embed_of_nothing_says_so(browser, playground, path, says):
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}{path}")
    notice = browser.find_element(By.ID, "embed-problem")
    wait(browser, lambda: notice.is_displayed() and notice.text == says)
    assert not [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
