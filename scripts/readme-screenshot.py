#!/usr/bin/env python3
"""Takes the README's picture, docs/screenshot.png: the search scenario's diagram after "swedish" is
typed into it, in headless Chromium 1280 px wide.

Start a server first (`scripts/run.sh`), then, with the test tools `scripts/test.sh` installed:
    .venv/bin/python scripts/readme-screenshot.py [URL]    # default http://127.0.0.1:8080
"""
import os
import shutil
import sys
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

OUTPUT = Path(__file__).resolve().parents[1] / "docs" / "screenshot.png"


def main():
    url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    os.environ["SE_OFFLINE"] = "true"  # Debian's chromedriver, no download
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1500"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    browser = webdriver.Chrome(options=options, service=service)
    try:
        browser.get(f"{url}/#search")
        wait = WebDriverWait(browser, 20, poll_frequency=0.05)
        wait.until(lambda driver: driver.find_element(By.ID, "connection").text == "Live")
        box = browser.find_element(By.ID, "input-query")
        for character in "swedish":  # at a typist's pace, so that the throttle has something to do
            box.send_keys(character)
            time.sleep(0.15)
        # The throttled query, its search and its results: the whole pipeline has fired.
        results = 'li.stream[data-stream="results"] output.latest'
        wait.until(lambda driver: "Swedish" in driver.find_element(By.CSS_SELECTOR, results).text)
        browser.find_element(By.ID, "toggle-source").click()  # the diagram takes the width
        browser.find_element(By.ID, "zoom-out").click()  # 5 s across: the typing and the answer
        time.sleep(0.5)
        # The picture is the inputs and the diagram: what follows them is hidden for it.
        browser.execute_script("""
            for (const node of document.querySelectorAll('#pipeline-layout ~ *, .diagram-panel > :not(.streams-head, #diagram)'))
              node.style.display = 'none';""")
        browser.find_element(By.ID, "scenario").screenshot(str(OUTPUT))
        print(f"wrote {OUTPUT}")
    finally:
        browser.quit()


if __name__ == "__main__":
    main()
