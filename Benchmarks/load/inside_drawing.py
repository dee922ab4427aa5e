#!/usr/bin/env python3
"""The Inside panel drawn at an instant (issue #74), on loopback, in headless Chromium (the test
command's: Selenium from the repository's .venv, Debian's chromedriver).

A virtual-clock search session is driven until it has made N events (scrubbing.py's drive: keys
and clock steps, so it has stacks, lanes and inner searches, and its Inside log thousands of
objects); then its page, and in it, for S instants from the end to the start and S back to the end:
  graph    GET /api/sessions/{sid}/inside?at=T&since=… as the panel asks it (since the instant drawn
           before when moving on, else the second before): the time to answer, its nodes and changes;
  draw     the panel's render of that graph (its trees, marks, leaks, narration, the breakpoints'
           choices) with the page's style and layout forced — without the playground's probes, as
           a learner first sees it, and with them (more objects);
  peer     in the same page and run, the scrubber's own step to the same instant: the diagram of
           5,000 events drawn there (the other view the same drag drives, in the same frame).
Prints one JSON object.
"""
import argparse
import json
import time

from scrubbing import HOST, browser, call, drive, percentiles, wait

DRAW = """
const [session, steps, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const { InsideView } = await import('/inside/inside-view.js');
const range = document.getElementById('scrub');
const max = Number(range.max);
// A second view over the page's own markup: its panel draws into the real, styled elements, and
// asks for each instant as the page's does (its own `since`), timed around its read and its draw.
const view = new InsideView({ lanes: { ended: () => false, end: () => max }, onLight: () => {}, clock: {}, scrubTo: () => {}, instant: () => null });
const panel = view.panel;
panel.show({ sessionID: session });
const fetched = [], drawn = [], drawnWithProbes = [], scrubbed = [], nodes = [], changes = [];
const read = panel.read;
panel.read = async (query) => {
  const start = performance.now();
  const graph = await read(query);
  fetched.push(performance.now() - start);
  nodes.push(graph.nodes.length);
  changes.push(graph.changes.length);
  return graph;
};
const render = panel.render.bind(panel);
let into = drawn;
const scripts = [];
panel.render = (graph) => {
  document.body.getBoundingClientRect(); // what else was pending (the log written again) is not the panel's
  const start = performance.now();
  render(graph);
  if (into === drawn) scripts.push(performance.now() - start);
  document.body.getBoundingClientRect();
  into.push(performance.now() - start);
};
panel.open = true;
document.getElementById('inside-body').hidden = false;
const probes = document.getElementById('inside-probes');
const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
// From the end to the start, then back to the end: going back and moving on.
const instants = [];
for (let index = 0; index <= steps; index += 1) instants.push(Math.round(max - (max * index) / steps));
for (let index = 1; index <= steps; index += 1) instants.push(Math.round((max * index) / steps));
for (const t of instants) {
  probes.checked = false;
  into = drawn;
  panel.wanted = t;
  await panel.refresh();
  clearTimeout(panel.timer);
  await frame();
  probes.checked = true;
  into = drawnWithProbes;
  panel.render(panel.graph);
  await frame();
  document.body.getBoundingClientRect();
  const start = performance.now();
  range.value = t;
  range.dispatchEvent(new Event('input', { bubbles: true }));
  document.body.getBoundingClientRect();
  scrubbed.push(performance.now() - start);
  clearTimeout(panel.timer);
  await frame();
}
done({ scripts, fetched, drawn, drawnWithProbes, scrubbed, nodes, changes, max, stoppedAt: panel.graph.stoppedAt ?? null });
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--steps", type=int, default=200)
    arguments = parser.parse_args()
    port = arguments.port
    session, made = drive(port, arguments.events)
    driver = browser()
    try:
        driver.set_script_timeout(900)
        driver.get(f"http://{HOST}:{port}/#session={session}")
        newest = lambda: driver.find_element("id", "log").text.split(" ·")[0]  # noqa: E731
        seen = [None]

        def settled():
            line, seen[0] = seen[0], newest()
            time.sleep(0.5)
            return line == seen[0] and line.startswith("#") and int(line[1:]) > made - 10

        wait(driver, settled, "every event on the page")
        measured = driver.execute_async_script(DRAW, session, arguments.steps)
    finally:
        driver.quit()
    print(json.dumps({
        "events_made": made, "session_ms": measured["max"], "inside_stopped_at": measured["stoppedAt"],
        "graph_nodes": percentiles(measured["nodes"]), "graph_changes": percentiles(measured["changes"]),
        "graph_answer_ms": percentiles(measured["fetched"]), "draw_ms": percentiles(measured["drawn"]), "draw_script_ms": percentiles(measured["scripts"]),
        "draw_with_probes_ms": percentiles(measured["drawnWithProbes"]), "peer_scrubber_step_ms": percentiles(measured["scrubbed"]),
    }))


if __name__ == "__main__":
    main()
