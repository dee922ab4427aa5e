"""The Inside panel in Chromium (issue #74): the objects RAC built for a session — its subscribers,
disposables and subjects, as trees of what holds what — at the scrubber's instant, what changed
marked, each change narrated; at 1280 and 375 px, axe clean.

Hand-worked with the tests' timings (--throttle-ms 150 --service-latency-ms 200): "Jav" at 0 is
throttled through at 150 and searched; "Java" at 180 comes through at 330, while the first search
still runs (it would answer at 350): switchToLatest's serial disposable swaps the Jav search's
subscription for the Java search's at 330 ms."""
import json
import re

from selenium.webdriver.common.by import By

from conftest import new_browser
from test_lessons import axe_clean
from test_page import DESKTOP, PHONE, check_console, check_layout, wait
from test_recording_rows import virtual_search
from test_scrubber import scrub_to

JSON = {"Content-Type": "application/json"}
STEPS = [("type", "Jav"), ("wait", 180), ("type", "Java"), ("wait", 1000)]


def narration(browser):
    return [line.text for line in browser.find_elements(By.CSS_SELECTOR, "#inside-narration li")]


def switch_node(browser):
    """The tree item of switchToLatest's serial disposable, as drawn."""
    for node in browser.find_elements(By.CSS_SELECTOR, '#inside-trees .inside-node[data-kind="serialDisposable"]'):
        head = node.find_element(By.CSS_SELECTOR, ".inside-head").text
        if "SwitchCore" in head:
            return node
    return None


def open_inside(browser, playground, address, size, ready="Live"):
    """Opens `address` (a session's `#session=…` or a kept run's `/s/…`) and its Inside panel."""
    browser.set_window_size(*size)
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}{address}")
    wait(browser, lambda: browser.find_element(By.ID, "connection").text.startswith(ready))
    wait(browser, lambda: int(browser.find_element(By.ID, "scrub").get_attribute("max")) >= 530)
    toggle = browser.find_element(By.ID, "inside-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    wait(browser, lambda: browser.find_element(By.ID, "inside-summary").text.startswith("At "))
    assert toggle.get_attribute("aria-expanded") == "true"


def check_the_swap(browser):
    """At 329 ms the switch holds the Jav search's subscription; at 330 the Java search's, marked
    swapped, the narration saying so before the old one's disposal. Answers both nodes' ids."""
    scrub_to(browser, 329)
    wait(browser, lambda: browser.find_element(By.ID, "inside-summary").text.startswith("At 0.329 s"))
    node = switch_node(browser)
    assert node is not None, browser.find_element(By.ID, "inside-trees").text
    held = node.find_elements(By.CSS_SELECTOR, ":scope > ul > li.inside-node")
    assert len(held) == 1, node.text
    jav = held[0].get_attribute("data-node")

    scrub_to(browser, 330)
    wait(browser, lambda: browser.find_element(By.ID, "inside-summary").text.startswith("At 0.33 s"))
    node = switch_node(browser)
    held = node.find_elements(By.CSS_SELECTOR, ":scope > ul > li.inside-node")
    assert len(held) == 1 and held[0].get_attribute("data-node") != jav, node.text
    java = held[0].get_attribute("data-node")
    assert "swapped" in node.find_element(By.CSS_SELECTOR, ".inside-head").text
    lines = narration(browser)
    swap = next(i for i, line in enumerate(lines) if line.startswith("0.33 s switchToLatest's"))
    assert re.search(f"swapped #{jav} RACPassthroughSubscriber.* for #{java} RACPassthroughSubscriber", lines[swap]), lines[swap]
    assert "disposed before the new one is subscribed" in lines[swap]
    disposal = next(i for i, line in enumerate(lines) if re.fullmatch(f"0.33 s #{jav} RACPassthroughSubscriber.* is disposed.", line))
    assert swap < disposal
    assert f"#{jav} RACPassthroughSubscriber (disposed)" in browser.find_element(By.ID, "inside-gone").text
    return jav, java


def test_the_swap_of_the_jav_search_for_the_java_search_is_marked_and_narrated(browser, playground):
    session = virtual_search(playground, STEPS)
    open_inside(browser, playground, f"/#session={session}", DESKTOP)
    check_the_swap(browser)
    check_console(browser)
    axe_clean(browser)
    check_layout(browser, "inside-swap", DESKTOP)


def test_a_kept_run_shows_the_same_swap_from_its_link_in_a_fresh_browser(browser, playground):
    session = virtual_search(playground, STEPS)
    open_inside(browser, playground, f"/#session={session}", DESKTOP)
    live = check_the_swap(browser)
    status, kept = playground.json("POST", f"/api/sessions/{session}/recording", json.dumps({"title": "Jav then Java"}), JSON)
    assert status == 201, kept
    fresh = new_browser()  # no storage, no cookies, no session of its own
    try:
        open_inside(fresh, playground, kept["url"], DESKTOP, ready="Replay:")
        assert check_the_swap(fresh) == live, "the same objects at the same instant"
        check_console(fresh)
        axe_clean(fresh)
        check_layout(fresh, "inside-kept-run", DESKTOP)
    finally:
        fresh.quit()


def test_the_panel_reads_at_375_px_and_closes(browser, playground):
    session = virtual_search(playground, STEPS)
    open_inside(browser, playground, f"/#session={session}", PHONE)
    scrub_to(browser, 330)
    wait(browser, lambda: switch_node(browser) is not None)
    check_layout(browser, "inside-phone", PHONE)
    axe_clean(browser)
    # The stages' subscriptions are named as the lanes are; the playground's probes are left out
    # until asked for, and said to be there.
    labelled = browser.find_elements(By.CSS_SELECTOR, "#inside-trees .inside-node[data-stream] > .inside-head .inside-label")
    assert any(label.text.startswith("throttled · subscription ") for label in labelled), [label.text for label in labelled]
    assert not browser.find_elements(By.CSS_SELECTOR, "#inside-trees .inside-probe")
    assert "of the playground's probes (not drawn)" in browser.find_element(By.ID, "inside-summary").text
    browser.find_element(By.ID, "inside-probes").click()
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#inside-trees .inside-probe"))
    probe = browser.find_element(By.CSS_SELECTOR, "#inside-trees .inside-probe .inside-label").text
    assert probe.startswith("the playground's probe of "), probe
    browser.find_element(By.ID, "inside-toggle").click()
    wait(browser, lambda: not browser.find_element(By.ID, "inside-body").is_displayed())
    check_console(browser)
