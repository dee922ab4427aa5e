// What a lesson draws after a run, pure of the page's state: a labelled row, the check marks of a
// comparison, subscriptions as lines and a flattening's inner signals from `^` to `!` (a failed
// challenge's drawing, `challenge-drawings.js`, is made of these). Each answers nodes; the lesson
// view places them.
import { subscriptionsOf } from "./lesson-check.js";
import { html, prose, svg } from "../lib/dom.js";
import { failureReason, reasonNote } from "../lib/failure-reason.js";
import { letterValue, parseRow, parseSubscription } from "../lib/marble-notation.js";
import { FRAME_WIDTH, ROW_HEIGHT, drawSubscriptions, outputLane } from "../lib/marble-row.js";

/** The mark each outcome of a compared marble gets on the check row. */
export const MARKS = { right: "✓", time: "⇄", value: "≠", extra: "✗", missing: "?", thread: "◇" };
/** What each mark says, for the check row's legend. */
const MEANINGS = {
  right: "right", time: "the right value at another time", value: "another value at that time",
  extra: "sent in one, not the other", missing: "missing", thread: "the right event on another thread",
};
/** The height of one mark on the check row: marks of one frame stack, so none covers another. */
const MARK_LINE = 20;

/**
 * Rows of one timeline in one sideways scroll (`lessonRow`s): they stay aligned, and a keyboard
 * scrolls them from one stop. The rows' names stay in view.
 */
export function laneGroup(label, rows) {
  const group = html("div", "lesson-lanes");
  group.tabIndex = 0;
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", `${label} (scrolls sideways)`);
  group.append(...rows);
  return group;
}

/** A row: its name and notation above `lane`, which scrolls sideways on its own line (or with its `laneGroup`). */
export function lessonRow(name, lane, notation) {
  const block = html("div", "gallery-row gallery-output");
  const label = html("p", "gallery-row-controls");
  label.append(html("span", "gallery-row-name", name), html("code", "gallery-output-notation", notation));
  const scroll = html("div", "gallery-scroll");
  scroll.appendChild(lane);
  block.append(label, scroll);
  return block;
}

/**
 * `row` (a `lessonRow` of `drawing`) with the reason of the error that ends its stream, if one
 * does (`subject`: the stream, in prose), written under its lane and given to the lane as its
 * description: the server's message (`{code, message}`), its place counted in the learner's
 * lines (`linesBefore`: the rows' lines that came before them in the run's program).
 */
export function withReason(row, drawing, subject, linesBefore = 0) {
  const error = drawing.events.find((event) => event.kind === "error" && event.value);
  if (!error) return row;
  const note = reasonNote(subject, `${error.time} ms`, failureReason(error.value, linesBefore), "failure-reason lesson-reason");
  row.querySelector(".gallery-lane")?.setAttribute("aria-describedby", note.id);
  row.appendChild(note);
  return row;
}

/**
 * The marks of a comparison (`compareEvents`' items), each in the frame of the marble it judges;
 * marks of one frame stacked, one line each.
 */
export function checkLane(items, width) {
  const taken = new Map();
  const placed = items.map((item) => {
    const frame = (item.actual ?? item.predicted).frame;
    const before = taken.get(frame) ?? 0;
    taken.set(frame, before + 1);
    return { item, frame, line: before };
  });
  const lines = Math.max(1, ...taken.values());
  const right = items.filter((item) => item.status === "right").length;
  const lane = svg("svg", { class: "gallery-lane lesson-check", width, height: lines * MARK_LINE + 16, role: "img",
    "aria-label": `Check: ${right} of ${items.length} right${right < items.length ? `; ${legendWords(items)}` : ""}` });
  for (const { item, frame, line } of placed) {
    lane.appendChild(svg("text", { x: frame * FRAME_WIDTH + FRAME_WIDTH / 2, y: 24 + line * MARK_LINE, "text-anchor": "middle",
      class: `lesson-mark lesson-mark-${item.status}`, "data-status": item.status }, MARKS[item.status]));
  }
  return lane;
}

/** The marks `items` use, each with what it says: `✓ right · ⇄ the right value at another time`. */
function legendWords(items) {
  const used = Object.keys(MARKS).filter((status) => items.some((item) => item.status === status));
  return used.map((status) => `${MARKS[status]} ${MEANINGS[status]}`).join(" · ");
}

/** The check row of a comparison: its marks, and a legend of the marks it uses in place of a notation. */
export function checkRow(items, width) {
  return lessonRow("check", checkLane(items, width), legendWords(items));
}

/** A row of subscriptions (`^--!`), one line each. */
export function subscriptionRow(label, lines, width) {
  const node = svg("svg", { class: "gallery-subscriptions" });
  drawSubscriptions(node, label, lines, width);
  return lessonRow(label, node, lines.join("  "));
}

/**
 * For a lesson about flattening (`name`: the stream's inner signals, as `out·marbles`, made from
 * the nested row of `inputs`): each inner signal on a lane of its own, named by the letter of the
 * row's value that made it, drawn from its subscription (`^`) to its disposal (`!`) — what it would
 * have sent after that greyed out, and said in words. `whose` ("yours", "the goal's") names the
 * program that ran, in a comparison. Answers `{rows, words}`: the lanes, and what they show as text.
 */
export function innerSignals(inputs, name, answer, width, whose = "") {
  const row = inputs.find((input) => input.nested);
  const letters = parseRow(row.marbles).values.map((value) => value.symbol);
  const frame = answer.frame;
  const of = whose ? `, ${whose}` : "";
  const rows = [];
  const words = html("div", "lesson-inner");
  const owner = `\`${name.split("·")[0]}\``;
  words.appendChild(prose("p", `Inside ${whose === "yours" ? `your ${owner}` : whose ? `${whose} ${owner}` : owner}, each inner signal is drawn from its subscription (\`^\`) to its disposal (\`!\`):`));
  const list = html("ul", "lesson-inner-words");
  subscriptionsOf(answer, name).forEach((line, index) => {
    const letter = letters[index];
    const inner = parseRow(row.nested[letter] ?? "");
    if (!letter || inner.error) return;
    const { start, end } = parseSubscription(line);
    const at = (event) => start + event.frame;
    const sent = inner.values.filter((event) => end === null || at(event) < end);
    const cut = inner.values.filter((event) => end !== null && at(event) >= end);
    const events = sent.map((event) => ({ kind: "next", time: at(event) * frame, value: letterValue(event.symbol) }));
    if (inner.end && (end === null || at(inner.end) <= end)) events.push({ kind: inner.end.kind === "|" ? "completed" : "error", time: at(inner.end) * frame });
    const values = Object.fromEntries(inner.values.map((event) => [event.symbol, letterValue(event.symbol)]));
    const lane = outputLane(`${letter}, inner${of}`, { marbles: line, values, events }, frame, width);
    for (const event of cut) {
      const x = at(event) * FRAME_WIDTH + FRAME_WIDTH / 2;
      lane.append(svg("circle", { cx: x, cy: ROW_HEIGHT / 2, r: 12, class: "lesson-never" }),
        svg("text", { x, y: ROW_HEIGHT / 2 + 5, "text-anchor": "middle", class: "lesson-never-letter" }, event.symbol));
    }
    lane.setAttribute("aria-label", `${letter}, inner${of}: ${line}${cut.length ? `; never sent: ${cut.map((event) => event.symbol).join(", ")}` : ""}`);
    const marks = svg("svg", { class: "gallery-subscriptions" });
    drawSubscriptions(marks, `${letter}'s subscription${of}`, [line], width);
    const lanes = html("div", "lesson-inner-lanes");
    lanes.append(lane, marks);
    const signal = lessonRow(`${letter} (inner${of})`, lanes, line);
    signal.dataset.inner = letter;
    if (whose) signal.dataset.whose = whose;
    rows.push(signal);
    const disposed = end === null ? "still live" : `disposed of at ${end * frame} ms`;
    const lost = cut.length ? `: its ${cut.map((event) => `${event.symbol} (due at ${at(event) * frame} ms)`).join(", ")} never ${cut.length === 1 ? "comes" : "come"}` : "";
    list.appendChild(prose("li", `\`${letter}\`: subscribed at ${start * frame} ms, ${disposed}${lost}.`));
  });
  words.appendChild(list);
  return { rows, words };
}

