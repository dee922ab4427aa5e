// A room's panels, pure of the page's state: the question in words, the teacher's view of the class
// (how many answered and are right, the wrong answers grouped and drawn as rows, a heat map of the
// predicted events over the asked stream's frames) and a student's answer against the truth at the
// reveal, marble by marble. Each answers nodes; the room view places them. A row the page cannot
// read or draw is shown as its text, with why: no row stops the rest of a panel.
import { html, prose, svg } from "../lib/dom.js";
import { compareEvents, describeItem, notationEvents } from "../learn/lesson-check.js";
import { parseRow } from "../lib/marble-notation.js";
import { FRAME_WIDTH, ROW_HEIGHT, outputLane, rowDrawing } from "../lib/marble-row.js";
import { MARKS, checkLane, laneGroup, lessonRow } from "../learn/lesson-drawings.js";

/** The question as a sentence: the stream, from when, and over how many frames. */
export function questionWords(question) {
  return `What does \`${question.stream}\` send from ${question.from} ms on? Draw ${question.frames} frames of ${question.frame} ms.`;
}

/** The letters the class writes values with, as a line (nothing when there are none). */
export function legend(letters) {
  const entries = Object.entries(letters ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (!entries.length) return [];
  return [html("p", "hint room-legend", `Letters: ${entries.map(([letter, value]) => `${letter} = ${JSON.stringify(value)}`).join(", ")}`)];
}

const laneWidth = (question) => (question.frames + 2) * FRAME_WIDTH;

/** A row as its text, not drawn, with why (the page could not read or draw it). */
function textRow(name, text, why) {
  const note = html("p", "room-unread", `Not drawn: the page cannot read this row (${why}).`);
  const row = lessonRow(name, note, text || "(nothing)");
  row.dataset.unreadable = "true";
  return row;
}

/** `draw()`'s row or, when it throws, the row `name` as its text: one row never stops a panel. */
function guarded(name, text, draw) {
  try {
    return draw();
  } catch (error) {
    return textRow(name, text, error?.message ?? String(error));
  }
}

/** A row of notation drawn as a lane of the question's frames; one `parseRow` cannot read, as its text. */
function drawnRow(name, marbles, question, differs) {
  const text = String(marbles ?? "");
  return guarded(name, text, () => {
    const row = parseRow(text);
    if (row.error) return textRow(name, text, row.error);
    const drawing = rowDrawing(text, row, question.letters ?? {}, question.frame);
    return lessonRow(name, outputLane(name, drawing, question.frame, laneWidth(question), differs), text || "(nothing)");
  });
}

/**
 * How many answers put an event in each frame, as a lane: a bar per frame, darker the more
 * answers chose it, with the count written in it.
 */
export function heatLane(heat, answered, question) {
  const most = Math.max(1, ...heat);
  const busiest = heat.map((count, frame) => ({ count, frame })).filter((item) => item.count).sort((a, b) => b.count - a.count).slice(0, 3);
  const words = busiest.map((item) => `${item.count} at ${item.frame * question.frame} ms`).join(", ");
  const lane = svg("svg", {
    class: "gallery-lane room-heat", width: laneWidth(question), height: ROW_HEIGHT, role: "img",
    "aria-label": `Heat map of ${answered} answers: ${words || "no events predicted"}`,
  });
  heat.forEach((count, frame) => {
    if (!count) return;
    const x = frame * FRAME_WIDTH + 2;
    lane.append(
      svg("rect", { x, y: 4, width: FRAME_WIDTH - 4, height: ROW_HEIGHT - 8, rx: 4, class: "room-heat-cell",
        "fill-opacity": (0.15 + 0.85 * (count / most)).toFixed(2), "data-frame": frame, "data-count": count }),
      svg("text", { x: x + (FRAME_WIDTH - 4) / 2, y: ROW_HEIGHT / 2 + 5, "text-anchor": "middle", class: "room-heat-count" }, String(count)),
    );
  });
  return lane;
}

/**
 * The teacher's view of the class: the counts, the answer (the teacher sees it before the
 * reveal), each distinct wrong answer with how many gave it, the heat map, and the wrong answers
 * grouped by what they missed (the server's `Misconception`).
 */
export function classPanel(view) {
  const question = view.question;
  const tally = view.class ?? {};
  const answered = tally.answered ?? 0;
  const counts = html("p", "room-counts");
  counts.id = "room-counts";
  counts.textContent = `${view.students} joined · ${answered} answered · ${tally.right ?? 0} right`;
  const rows = [drawnRow(`${question.stream} (the answer)`, question.truth, question)];
  (Array.isArray(tally.wrong) ? tally.wrong : []).forEach((group, index) => {
    const { count, marbles } = group ?? {};
    const row = drawnRow(`${count} × wrong`, marbles, question);
    row.dataset.wrong = String(index);
    row.dataset.count = String(count);
    rows.push(row);
  });
  const heat = (Array.isArray(tally.heat) ? tally.heat : []).map((count) => Number(count) || 0);
  rows.push(guarded("where the class put events", "", () => lessonRow("where the class put events", heatLane(heat, answered, question), "")));
  const lanes = laneGroup("The class's answers", rows);
  lanes.id = "room-class";
  return [counts, lanes, ...missedList(tally.missed)];
}

/** The wrong answers by what they missed, whatever their marbles: a count and a sentence each. */
function missedList(groups) {
  if (!Array.isArray(groups) || !groups.length) return [];
  const list = html("ul", "room-misconceptions");
  list.id = "room-misconceptions";
  list.setAttribute("aria-label", "Wrong answers, by what they missed");
  for (const { group, sentence, count } of groups) {
    const item = html("li", undefined, `${Number(count) || 0} × ${String(sentence ?? "")}`);
    item.dataset.group = String(group ?? "");
    list.appendChild(item);
  }
  return [html("p", "hint", "Wrong answers, by what they missed:"), list];
}

/** A student's answer against the truth, marble by marble: the verdict, the rows and what they missed. */
export function revealPanel(question, answer) {
  const truth = String(question.truth ?? "");
  const mine = String(answer ?? "");
  const [predicted, actual] = [mine, truth].map((row) => notationEvents(row, question.letters));
  // A row the page cannot read is not compared: the verdict says so, the rows are shown as text.
  const unread = predicted.error ?? actual.error;
  const items = unread ? [] : compareEvents(predicted, actual);
  const right = !unread && items.every((item) => item.status === "right");
  const verdict = html("p", `lesson-verdict ${right ? "lesson-right" : "lesson-wrong"}`);
  verdict.id = "room-verdict";
  verdict.append(prose("span", right
    ? `Right: \`${question.stream}\` sends ${truth}.`
    : unread
      ? `\`${question.stream}\` sends ${truth}; you answered ${mine || "nothing"}, which the page cannot compare with it (${unread}).`
      : answer ? `Not quite: \`${question.stream}\` sends ${truth}; you answered ${mine}.` : `\`${question.stream}\` sends ${truth}; you did not answer.`));
  const missed = html("ul", "lesson-mismatches");
  missed.id = "room-missed";
  missed.setAttribute("aria-label", "What you missed");
  for (const item of items.filter((each) => each.status !== "right")) {
    const entry = html("li", `lesson-${item.status}`, `${MARKS[item.status]} ${describeItem(item, question.frame)}`);
    entry.dataset.status = item.status;
    missed.append(entry);
  }
  const lanes = laneGroup(`What ${question.stream} sent against your answer`, [
    drawnRow(`${question.stream} (sent)`, truth, question),
    drawnRow("your answer", mine, question),
    ...(unread ? [] : [lessonRow("check", checkLane(items, laneWidth(question)), "")]),
  ]);
  return [verdict, lanes, ...(missed.children.length ? [missed] : [])];
}

/**
 * The material of a question: the lesson's input rows over the question's frames, on the answer's
 * time axis, drawn above the answer (the server sends them to every reader: they are inputs).
 */
export function materialRows(question) {
  const rows = Array.isArray(question.rows) ? question.rows : [];
  if (!rows.length) return [];
  const group = laneGroup(`What ${question.stream} reads, over the same frames`, rows.map((row) => drawnRow(String(row?.name ?? ""), row?.marbles, question)));
  group.id = "room-material";
  return [group];
}
