"""Reactive's documentation at hand: the DocC site (scripts/build-docs.sh, run by the test command
before these tests) served under /docs/, rendered in Chromium under the server's policy, and
linked from a gallery entry and from an editor's problem; and a server without the site, whose
page then asks for no documentation at all."""
import json

import pytest
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, ROOT
from test_editor import open_editor, problems, replace_program
from test_page import check_console, wait

needs_site = pytest.mark.skipif(not (ROOT / ".build/docs-site/index.html").exists(),
                                reason="the documentation site is not built (scripts/build-docs.sh)")


@needs_site
def test_docs_redirects_to_the_module_and_keeps_scripts_to_the_servers_own(playground):
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", playground.port)  # not following the redirect
    connection.request("GET", "/docs")
    response = connection.getresponse()
    assert response.status == 302 and response.getheader("Location") == "/docs/documentation/reactive/"
    status, headers, body = playground.request("GET", "/docs/documentation/reactive/signal/throttle(_:on:)/")
    assert status == 200 and b"<script>" not in body, "no inline script: the base path is a file"
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy


@needs_site
def test_a_documentation_page_renders_in_chromium_without_a_policy_error(browser, playground):
    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/docs/documentation/reactive/signal/throttle(_:on:)/")
    wait(browser, lambda: [h.text for h in browser.find_elements(By.CSS_SELECTOR, "h1")] == ["throttle(_:on:)"], timeout=20)
    assert "debounce" in browser.find_element(By.TAG_NAME, "main").text, "the page's own text, rendered"
    browser.save_screenshot(str(ARTIFACTS / "docs-throttle-1280px.png"))
    check_console(browser)


@needs_site
def test_a_gallery_entry_and_an_editor_problem_link_to_the_operators_page(browser, make_playground):
    playground = make_playground()
    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#gallery/takeWhile")
    links = lambda: browser.find_elements(By.CSS_SELECTOR, "#gallery-docs a.docs-link")
    wait(browser, lambda: links() and browser.find_element(By.ID, "gallery-docs").is_displayed())
    [link] = links()
    assert link.text == "Signal.take(while:)" and link.get_attribute("target") == "_blank"
    assert link.get_attribute("href").endswith("/docs/documentation/reactive/signal/take(while:)/")
    assert playground.request("GET", "/docs/documentation/reactive/signal/take(while:)/")[0] == 200

    browser.execute_script("location.hash = 'gallery/compareThrottleRateLimit'")
    wait(browser, lambda: [a.text for a in links()] == ["Signal.throttle(_:on:)", "Signal.rateLimit(_:on:)"])

    open_editor(browser, playground)
    replace_program(browser, "input query: text\nslow = query.debounce(0.3s)\n")
    wait(browser, lambda: problems(browser))
    item_links = lambda: browser.find_elements(By.CSS_SELECTOR, "#problems li a.docs-link")
    wait(browser, lambda: [a.text for a in item_links()] == ["Signal.throttle(_:on:) in the documentation"])
    check_console(browser)


def test_without_a_site_the_page_asks_for_no_documentation_index(browser, make_playground, tmp_path):
    """The server looks for the site beside the page's folder: a folder of its own has none. The
    page learns that from /api/docs, so it neither links operators nor logs a 404 for the index."""
    (tmp_path / "Public").symlink_to(ROOT / "Public")
    playground = make_playground("--public", str(tmp_path / "Public"))
    status, _, body = playground.request("GET", "/api/docs")
    assert status == 200 and json.loads(body) == {"built": False}
    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#gallery/takeWhile")
    page = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import('/lib/docs-links.js').then((links) => links.docsPage('take(while:)')).then(done, (error) => done(String(error)));")
    assert page is None
    asked = browser.execute_script("return performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)")
    assert "/api/docs" in asked and "/docs/index/index.json" not in asked
    assert not browser.find_elements(By.CSS_SELECTOR, "#gallery-docs a.docs-link")
    check_console(browser)
