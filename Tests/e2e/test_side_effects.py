"""Side effects at a glance, in the browser: each row says how many subscriptions its stream has
had and has live — how often its work ran — counted by the server up to an event and by the page
after it, so a page that joins late says the same as one that was there."""
import json

from selenium.webdriver.common.by import By

from test_page import check_console, wait

PROGRAM = 'r = request()\na = r.map { "A got " + $0 }\nb = r.map { "B got " + $0 }\n'


def count_of(browser, stream):
    return browser.find_element(By.CSS_SELECTOR, f'li.stream[data-stream="{stream}"] .count').text


def open_session(browser, playground, session):
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(f"{playground.url}/#session={session}")
    wait(browser, lambda: browser.find_element(By.ID, "connection").text == "Live")


def test_two_readers_of_a_request_show_two_subscriptions_and_sharing_one(browser, playground):
    browser.set_window_size(1280, 900)
    for program, subs in [(PROGRAM, "2 subs"), (PROGRAM.replace("request()", "request().replayLazily()"), "2 subs")]:
        status, _, raw = playground.request("POST", "/api/pipelines", body=program.encode(), headers={"Content-Type": "text/plain"})
        assert status == 201
        created = json.loads(raw)
        # The page joins after the program started: the counts come from the server.
        watcher = playground.watch(created["events"], last_event_id="0")
        watcher.wait_for(lambda events: sum(e["event"] == "r" and e["json"]["kind"] == "subscribed" for e in events) == 2)
        watcher.close()
        open_session(browser, playground, created["session"])
        wait(browser, lambda: subs in count_of(browser, "r"))
        assert "· 1 sub" in count_of(browser, "a")  # (", 0 live" once the request answered and completed)
        assert "subscription" in browser.find_element(By.CSS_SELECTOR, 'li.stream[data-stream="r"] .count').get_attribute("title")
        playground.request("DELETE", f"/api/sessions/{created['session']}")
    check_console(browser)


def test_a_search_scenario_row_counts_its_one_subscription_live_and_late(browser, playground):
    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get(f"{playground.url}/#search")
    wait(browser, lambda: "session=" in browser.current_url)
    wait(browser, lambda: count_of(browser, "throttled").endswith("· 1 sub"))
    session = browser.current_url.split("session=")[1].split("&")[0]
    open_session(browser, playground, session)  # a second page, joining late
    wait(browser, lambda: count_of(browser, "throttled").endswith("· 1 sub"))
    assert count_of(browser, "results").endswith("· 1 sub")
    check_console(browser)
