"""One notation, written as it is read: every row the page's writer (`renderRow`,
Public/lib/marble-notation.js) writes reads back, by the page's reader in Chromium and by the
server's (`marbles(…)` in POST /api/marbles), to exactly the frames it was written from — or the
writer refuses it; and every diagram the server writes reads back, by the page's reader, to the
events it was written from at the frame it names."""
import json

from test_page import wait

PROPERTY = """
const done = arguments[arguments.length - 1];
import('/lib/marble-notation.js').then(({ parseRow, renderRow }) => {
  let seed = 72;
  const random = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const failures = [];
  const written = [];
  let refused = 0;
  for (let i = 0; i < 5000; i += 1) {
    const values = [];
    let frame = random(4);
    let cursor = 0;
    let overlaps = false;
    for (let j = random(12); j > 0; j -= 1) {
      const size = random(6) === 0 ? 2 + random(3) : 1;
      if (frame < cursor) overlaps = true;
      for (let k = 0; k < size; k += 1) values.push({ frame, symbol: "abcxyz0123456789"[random(16)] });
      cursor = frame + (size === 1 ? 1 : size + 2);
      frame += 1 + random(6);
    }
    let end = null;
    if (random(2)) {
      if (frame < cursor) overlaps = true;
      end = { frame, kind: random(2) ? "|" : "#" };
    }
    const text = renderRow({ values, end });
    if ((text === null) !== overlaps) failures.push({ values, end, text, overlaps });
    if (text === null) { refused += 1; continue; }
    const back = parseRow(text);
    if (JSON.stringify(back) !== JSON.stringify({ values, end })) failures.push({ values, end, text, back });
    if (written.length < 200) written.push({ text, values, end });
  }
  done({ failures: failures.slice(0, 5), refused, written });
}, (error) => done({ failures: [String(error)] }));
"""

READ_BACK = """
const [answer, done] = [arguments[0], arguments[arguments.length - 1]];
import('/lib/marble-notation.js').then(({ parseRow }) => {
  const read = {};
  for (const [name, drawing] of Object.entries(answer.streams)) {
    if (drawing.marbles === null) { read[name] = null; continue; }
    const row = parseRow(drawing.marbles);
    const letters = Object.entries(drawing.values);
    const events = row.values.map(({ frame, symbol }) => [frame * drawing.frame, "next", JSON.stringify(drawing.values[symbol] ?? symbol)]);
    if (row.end) events.push([row.end.frame * drawing.frame, row.end.kind === "|" ? "completed" : "error", null]);
    read[name] = events;
  }
  done(read);
}, (error) => done(String(error)));
"""


def as_run(drawing):
    return [[event["time"], event["kind"], json.dumps(event["value"], separators=(",", ":")) if event["kind"] == "next" else None]
            for event in drawing["events"]]


def test_every_row_the_page_writes_reads_back_in_the_page_and_on_the_server(browser, playground):
    browser.get(playground.url + "/")
    wait(browser, lambda: browser.execute_script("return document.readyState") == "complete")
    result = browser.execute_async_script(PROPERTY)
    assert result["failures"] == [], result["failures"]
    assert 0 < result["refused"] < 5000  # both kinds of list were generated
    # The server's reader takes what the page wrote to the same frames.
    rows = result["written"]
    for start in range(0, len(rows), 20):
        batch = rows[start:start + 20]
        program = "\n".join(f'r{i} = marbles("{row["text"]}")' for i, row in enumerate(batch))
        status, answer = playground.json("POST", "/api/marbles", program.encode(), {"Content-Type": "text/plain"})
        assert status == 200, answer
        assert answer["frame"] == 100
        for i, row in enumerate(batch):
            events = answer["streams"][f"r{i}"]["events"]
            frames = [(event["time"] / 100, event["kind"]) for event in events]
            wanted = [(value["frame"], "next") for value in row["values"]]
            if row["end"]:
                wanted.append((row["end"]["frame"], "completed" if row["end"]["kind"] == "|" else "error"))
            assert frames == wanted, row["text"]


def test_the_servers_diagrams_read_back_in_the_page_to_the_run(browser, playground):
    """The two cases of issue #72, and the streams around them."""
    browser.get(playground.url + "/")
    wait(browser, lambda: browser.execute_script("return document.readyState") == "complete")
    programs = [
        'a = marbles("-a---b--|")\nout = a.flatMap(.merge) { v in marbles("-1-2-(34)-5|") }',
        'a = marbles("-a-b-c-|")\nshared = a.replay()\nlate = timer(after: 0.5s).flatMap(.concat) { _ in shared }',
    ]
    for program in programs:
        status, answer = playground.json("POST", "/api/marbles", program.encode(), {"Content-Type": "text/plain"})
        assert status == 200, answer
        read = browser.execute_async_script(READ_BACK, answer)
        for name, drawing in answer["streams"].items():
            assert read[name] == as_run(drawing), f"{name}: {drawing['marbles']} at {drawing['frame']} ms"
    # The flattening is written at a frame that holds its groups, and says so.
    out = answer_of(playground, programs[0])["streams"]["out"]
    assert out["frame"] < 100 and "100 ms" in out["note"]
    late = answer_of(playground, programs[1])["streams"]["late"]
    # a, b and c at 500 ms, the completion at 700 ms: a group of three takes five frames.
    assert late["frame"] == 25 and late["marbles"] == "-" * 20 + "(abc)---|"


def answer_of(playground, program):
    return playground.json("POST", "/api/marbles", program.encode(), {"Content-Type": "text/plain"})[1]
