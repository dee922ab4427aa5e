"""Each marble's thread, on the page: a switch puts a badge on every glyph naming the thread that
delivered its events (a letter, the name in full in its title and the glyph's label), at desktop
and phone sizes, in Chromium."""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS
from diagram_geometry import check_diagram, overlaps
from test_diagram import set_viewport
from test_page import check_console, latest, open_scenario, wait

SIZES = [(1280, 800), (375, 812)]

BADGES = """
const box = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const svg = document.querySelector('.lanes-svg');
const bands = [...svg.querySelectorAll('.band')].map(box);
const rows = [...svg.querySelectorAll('.row')].map(row => row.dataset.stream);
return [...svg.querySelectorAll('.thread-badge')].map(badge => {
  const glyph = badge.closest('.glyph');
  const row = rows.indexOf(glyph.dataset.stream);
  const others = [...svg.querySelectorAll(`.glyph[data-stream="${glyph.dataset.stream}"]`)].filter(g => g !== glyph)
    .flatMap(g => [...g.querySelectorAll('.marble-circle, .step-dot, .completed-bar, .error-cross')].map(box));
  return { stream: glyph.dataset.stream, threads: badge.dataset.threads, letter: badge.querySelector('text').textContent,
           title: badge.querySelector('title').textContent, label: glyph.getAttribute('aria-label'),
           box: box(badge.querySelector('rect')), band: bands[row], others };
});
"""


@pytest.fixture
def sized(browser):
    yield lambda width, height: set_viewport(browser, width, height)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}px")
def test_thread_badges_toggle_and_name_the_threads_of_the_schedulers_scenario(browser, playground, sized, size):
    sized(*size)
    open_scenario(browser, playground, "schedulers", size=size)
    switch = browser.find_element(By.ID, "show-threads")
    assert switch.get_attribute("role") == "switch" and not switch.is_selected()
    for _ in range(2):
        browser.find_element(By.ID, "input-tap").click()
    wait(browser, lambda: "tap 2" in latest(browser, "deliverOnQueue") and "tap 2" in latest(browser, "deliverOnRunLoop"))
    assert not browser.find_elements(By.CSS_SELECTOR, ".thread-badge"), "no badges until asked for"

    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", switch)
    switch.click()
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".thread-badge"))
    badges = browser.execute_script(BADGES)
    by_stream = {}
    for badge in badges:
        by_stream.setdefault(badge["stream"], set()).update(badge["threads"].split())
    # The same taps, on the session's thread and delivered on two others.
    assert by_stream["source"] == {"session"}
    assert by_stream["deliverOnQueue"] == {"queue"} and by_stream["subscribeOnQueue"] == {"queue"}
    assert by_stream["deliverOnRunLoop"] == {"run-loop"}
    for badge in badges:
        threads = badge["threads"].split()
        assert badge["letter"] == ("+" if len(threads) > 2 else "".join(t[0].upper() for t in threads))
        for thread in threads:
            assert thread in badge["title"] and f"on the {thread} thread" in badge["label"], badge
        # Inside its row, and clear of the row's other glyphs.
        assert badge["band"][1] <= badge["box"][1] and badge["box"][3] <= badge["band"][3], badge
        assert not any(overlaps(badge["box"], other) for other in badge["others"]), badge
    check_diagram(browser)

    if size[0] >= 1280:  # pointing at a glyph names its thread in the detail line
        glyph = browser.find_element(By.CSS_SELECTOR, '.glyph[data-stream="deliverOnRunLoop"]:not(.mark)')
        ActionChains(browser).move_to_element(glyph).perform()
        wait(browser, lambda: "on the run-loop thread" in browser.find_element(By.ID, "marble-detail").text)
    browser.save_screenshot(str(ARTIFACTS / f"threads-schedulers-{size[0]}px.png"))

    from selenium_axe_python import Axe
    axe = Axe(browser)
    axe.inject()
    serious = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious]

    switch.click()
    wait(browser, lambda: not browser.find_elements(By.CSS_SELECTOR, ".thread-badge"))
    check_console(browser)


GALLERY_SUBSCRIPTIONS = """
const box = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
return [...document.querySelectorAll('.gallery-subscriptions')].map(node => ({
  label: node.getAttribute('aria-label'),
  lines: [...node.querySelectorAll('.gallery-subscription')].map(line => ({
    start: Number(line.dataset.start), end: line.dataset.end === '' ? null : Number(line.dataset.end),
    marks: [...line.querySelectorAll('.gallery-mark')].map(mark => ({ text: mark.textContent, box: box(mark) })),
  })),
}));
"""


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}px")
def test_the_gallerys_take_draws_where_it_subscribed_and_let_go(browser, make_playground, sized, size):
    """`take(2)` over `-a-b-c-d-|`: one subscription to `a`, disposed in frame 3 with the second
    value, and the output's own, ended there by its completion (RxJS: `^--!` for both)."""
    from test_gallery import open_entry
    playground = make_playground()
    sized(*size)
    output = open_entry(browser, playground, "take")
    wait(browser, lambda: output() == "-a-(b|)")
    wait(browser, lambda: all(item["lines"] for item in browser.execute_script(GALLERY_SUBSCRIPTIONS)))
    drawn = browser.execute_script(GALLERY_SUBSCRIPTIONS)
    source, result = drawn  # the input row first, then the output
    assert [(line["start"], line["end"]) for line in source["lines"]] == [(0, 3)]
    assert [(line["start"], line["end"]) for line in result["lines"]] == [(0, 3)]
    assert source["label"].startswith("a: 1 subscription") and "disposed in frame 3" in source["label"]
    for item in drawn:
        for line in item["lines"]:
            assert [mark["text"] for mark in line["marks"]] == ["^", "!"]
            caret, bang = (mark["box"] for mark in line["marks"])
            assert not overlaps(caret, bang), "the two marks of a line stand apart"
    browser.save_screenshot(str(ARTIFACTS / f"gallery-take-subscriptions-{size[0]}px.png"))
    check_console(browser)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}px")
def test_the_gallerys_switch_to_latest_draws_each_inner_signal_let_go(browser, make_playground, sized, size):
    """`a.flatMap(.latest) { marbles($0) }` over `-x---y---|`: the inner x is subscribed in frame 1
    and let go in frame 5, when y comes; y runs to its end in frame 9."""
    from test_gallery import open_entry
    playground = make_playground()
    sized(*size)
    output = open_entry(browser, playground, "switchToLatest")
    wait(browser, lambda: output() == "--1-2-4-5|")
    inner = lambda: browser.execute_script("""
      return [...document.querySelectorAll('.gallery-inner')].map(node => ({ source: node.dataset.source,
        label: node.getAttribute('aria-label'),
        lines: [...node.querySelectorAll('.gallery-subscription')].map(line => [Number(line.dataset.start),
          line.dataset.end === '' ? null : Number(line.dataset.end)]) }));""")
    wait(browser, lambda: inner())
    [drawn] = inner()
    assert drawn["source"] == "out·marbles"
    assert drawn["lines"] == [[1, 5], [5, 9]]
    assert "2 subscriptions" in drawn["label"] and "disposed in frame 5" in drawn["label"]
    browser.save_screenshot(str(ARTIFACTS / f"gallery-switchToLatest-subscriptions-{size[0]}px.png"))
    check_console(browser)
