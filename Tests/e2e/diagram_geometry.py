"""What the marble diagram looks like, measured in the browser: the boxes of its glyphs (marbles,
stacks, bars, crosses, and the subscriptions' `^` and `!` marks, each with its row and lane),
labels, rows and axis ticks, and the checks every page test makes on them."""
import itertools

GEOMETRY = """
const box = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const union = (boxes) => [Math.min(...boxes.map(b => b[0])), Math.min(...boxes.map(b => b[1])),
                          Math.max(...boxes.map(b => b[2])), Math.max(...boxes.map(b => b[3]))];
const svg = document.querySelector('.lanes-svg');
const lanes = box(svg);
const rows = {};
for (const band of svg.querySelectorAll('.band')) rows[band.getAttribute('y')] = box(band);
const glyphs = [...svg.querySelectorAll('.glyph')].map(g => ({
  stream: g.dataset.stream, seqs: g.dataset.seqs, lane: Number(g.dataset.lane), source: g.dataset.source ?? null,
  mark: g.classList.contains('mark-subscribed') ? '^' : g.classList.contains('mark-disposed') ? '!' : null,
  box: union([...g.querySelectorAll('.marble-circle, .stack-shadow, .step-dot, .completed-bar, .error-cross, .mark-shape')].map(box)),
  fill: g.querySelector('.marble-circle')?.getAttribute('fill') ?? null,
  stack: g.classList.contains('stack'),
}));
const labels = [...svg.querySelectorAll('.marble-label')].map(l => ({ text: l.textContent, box: box(l),
  stream: l.closest('.glyph').dataset.stream }));
const rowOf = {};
for (const g of svg.querySelectorAll('.row')) {
  const index = [...g.parentNode.children].filter(c => c.classList.contains('row')).indexOf(g);
  rowOf[g.dataset.stream] = box(svg.querySelectorAll('.band')[index]);
}
const ticks = [...svg.querySelectorAll('.tick-label')].map(t => ({ ms: Number(t.dataset.ms), x: box(t)[0] }));
return { lanes, glyphs, labels, rowOf, ticks };
"""


def overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def measure(browser):
    return browser.execute_script(GEOMETRY)


def check_diagram(browser):
    """No two glyphs overlap, no two labels overlap, every label lies within its row, the axis ticks
    increase. Returns the geometry for further checks."""
    geometry = measure(browser)
    glyphs = geometry["glyphs"]
    assert glyphs, "the diagram shows no marbles"
    for a, b in itertools.combinations(glyphs, 2):
        assert not overlaps(a["box"], b["box"]), f"glyphs overlap: {a} and {b}"
    for a, b in itertools.combinations(geometry["labels"], 2):
        assert not overlaps(a["box"], b["box"]), f"labels overlap: {a['text']!r} and {b['text']!r}"
    for label in geometry["labels"]:
        row = geometry["rowOf"][label["stream"]]
        assert row[1] <= label["box"][1] and label["box"][3] <= row[3], f"label {label['text']!r} leaves its row"
    ticks = geometry["ticks"]
    assert len(ticks) >= 2, "the axis has ticks"
    assert [t["ms"] for t in ticks] == sorted(t["ms"] for t in ticks) and len({t["ms"] for t in ticks}) == len(ticks)
    assert [t["x"] for t in ticks] == sorted(t["x"] for t in ticks)
    return geometry
