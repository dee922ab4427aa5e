#!/usr/bin/env python3
"""Recordings and the time scrubber (issue "Record, scrub, replay"), on loopback, in headless
Chromium (the test command's: Selenium from the repository's .venv, Debian's chromedriver).

A virtual-clock search session is driven until it has made N events (keystrokes and steps of its
clock, so its rows have stacks, lanes and inner searches); then:
  recording  GET /api/sessions/{sid}/recording: its bytes, and the time to answer it (median of 20);
             keeping it as a link (POST …/recording, a new title each time: median of 10) beside
             keeping a one-line program (POST /api/links) in the same run; reading the kept run
             back (GET /api/links/{id}, median of 20); and /s/ID opened in a fresh page until its
             replay says "Replay: N events";
  scrub      the session's page: a drag from the end to the start in S steps (each an `input` of the
             range), then S steps back with the arrow key. Per step: the work (the event handled and
             the page's style and layout forced) and the time between animation frames; beside it,
             the peer: the same instants drawn from scratch — a new Diagram of the session's rows
             fed every event up to the instant (what the scrubber does not do).
Prints one JSON object.
"""
import argparse
import json
import os
import shutil
import statistics
import time
import urllib.request

HOST = "127.0.0.1"


def call(port, method, path, body=None, headers=None):
    data = body.encode() if isinstance(body, str) else body
    request = urllib.request.Request(f"http://{HOST}:{port}{path}", data=data, method=method, headers=headers or {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.read()


def timed(function, rounds):
    times = []
    for index in range(rounds):
        start = time.perf_counter()
        function(index)
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2)


def percentiles(values):
    ordered = sorted(values)
    pick = lambda share: ordered[min(len(ordered) - 1, int(share * len(ordered)))]  # noqa: E731
    return {"p50": round(pick(0.5), 2), "p99": round(pick(0.99), 2), "max": round(ordered[-1], 2), "n": len(ordered)}


def settled(port, session):
    """The session's last event, once its clock's steps have all run (its count holds still)."""
    made = None
    while True:
        _, body = call(port, "GET", f"/api/sessions/{session}")
        now = json.loads(body)["subscriptionsCountedTo"]
        if now == made:
            return made
        made = now
        time.sleep(0.05)


def drive(port, events):
    """A virtual search session with about `events` events: returns its id and its last seq."""
    _, body = call(port, "POST", "/api/scenarios/search/sessions?clock=virtual")
    session = json.loads(body)["session"]
    words = ["Jav", "Java", "Swe", "Swed", "Fre", "Fren"]
    made = 0
    turn = 0
    while made < events:
        # Each keystroke and step makes a dozen events at most: stop short, then one at a time.
        for _ in range(max(1, min(20, (events - made) // 12))):
            call(port, "POST", f"/api/sessions/{session}/inputs/query", words[turn % len(words)])
            call(port, "POST", f"/api/sessions/{session}/inputs/advance", str(120 if turn % 2 == 0 else 700))
            turn += 1
        made = settled(port, session)
    return session, made


def browser():
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


def wait(driver, condition, what, timeout=60):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.05)


SCRUB = """
const [steps, done] = [arguments[0], arguments[arguments.length - 1]];
const range = document.getElementById('scrub');
const max = Number(range.max);
const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
const work = [], frames = [], keys = [], keyFrames = [];
await frame();
let last = performance.now();
for (let index = 0; index <= steps; index += 1) {
  const start = performance.now();
  range.value = max - (max * index) / steps;
  range.dispatchEvent(new Event('input', { bubbles: true }));
  document.body.getBoundingClientRect();
  work.push(performance.now() - start);
  const at = await frame();
  frames.push(at - last);
  last = at;
}
for (let index = 0; index < steps; index += 1) {
  const start = performance.now();
  range.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
  document.body.getBoundingClientRect();
  keys.push(performance.now() - start);
  const at = await frame();
  keyFrames.push(at - last);
  last = at;
}
done({ work, frames, keys, keyFrames, max });
"""

FROM_SCRATCH = """
const [session, steps, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const { Diagram } = await import('/diagram/diagram.js');
const { diagramRows } = await import('/session/diagram-rows.js');
const scenario = (await (await fetch('/api/scenarios')).json()).scenarios.find((entry) => entry.id === 'search');
const events = (await (await fetch(`/api/sessions/${session}/recording`)).json()).events;
const host = document.createElement('div');
host.style.width = '900px';
document.body.appendChild(host);
const detail = document.createElement('p');
const max = events.at(-1).t;
const work = [];
for (let index = 0; index <= steps; index += 1) {
  const t = max - (max * index) / steps;
  const start = performance.now();
  const diagram = new Diagram(host, diagramRows(scenario, new Set()), { detail, windowMs: 10000 });
  for (const event of events) if (event.t <= t) diagram.add(event);
  diagram.render(t);
  document.body.getBoundingClientRect();
  work.push(performance.now() - start);
  await new Promise((resolve) => requestAnimationFrame(resolve));
}
host.remove();
done({ work });
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--steps", type=int, default=300)
    arguments = parser.parse_args()
    port = arguments.port

    session, made = drive(port, arguments.events)
    _, recording = call(port, "GET", f"/api/sessions/{session}/recording")
    kept = json.loads(recording)
    result = {"events_made": made, "recording": {"bytes": len(recording), "events": len(kept["events"]), "lost": kept["lost"]}}
    result["recording"]["answer_ms"] = timed(lambda _: call(port, "GET", f"/api/sessions/{session}/recording"), 20)
    links = []
    json_headers = {"Content-Type": "application/json"}
    keep = lambda index: links.append(json.loads(call(port, "POST", f"/api/sessions/{session}/recording", json.dumps({"title": f"Run {index}"}), json_headers)[1]))  # noqa: E731
    result["recording"]["keep_ms"] = timed(keep, 10)
    program = lambda index: call(port, "POST", "/api/links", json.dumps({"kind": "program", "title": f"P {index}", "content": f"x = just({index})\n"}), json_headers)  # noqa: E731
    result["recording"]["keep_program_ms"] = timed(program, 10)
    link = links[-1]["id"]
    result["recording"]["read_ms"] = timed(lambda _: call(port, "GET", f"/api/links/{link}"), 20)

    driver = browser()
    try:
        driver.set_script_timeout(600)
        start = time.perf_counter()
        driver.get(f"http://{HOST}:{port}/s/{link}")
        wait(driver, lambda: driver.find_element("id", "connection").text.startswith("Replay:"), "the replay")
        result["recording"]["replay_page_ms"] = round((time.perf_counter() - start) * 1000, 1)
        result["recording"]["replay_says"] = driver.find_element("id", "connection").text

        driver.get(f"http://{HOST}:{port}/#session={session}")
        # Every event in: the log's newest line holds still (the last events may be of streams not drawn).
        newest = lambda: driver.find_element("id", "log").text.split(" ·")[0]  # noqa: E731
        seen = [None]
        def settled():
            line, seen[0] = seen[0], newest()
            time.sleep(0.5)
            return line == seen[0] and line.startswith("#") and int(line[1:]) > made - 10
        wait(driver, settled, "every event on the page")
        scrub = driver.execute_async_script(SCRUB, arguments.steps)
        peer = driver.execute_async_script(FROM_SCRATCH, session, max(20, arguments.steps // 10))
    finally:
        driver.quit()
    result["scrub"] = {
        "session_ms": scrub["max"], "drag_work_ms": percentiles(scrub["work"]), "drag_frame_interval_ms": percentiles(scrub["frames"]),
        "key_work_ms": percentiles(scrub["keys"]), "key_frame_interval_ms": percentiles(scrub["keyFrames"]),
        "peer_from_scratch_work_ms": percentiles(peer["work"]),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
